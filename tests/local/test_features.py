"""Each piece of evidence on its own: tool structure, templates, entities, outputs."""

from __future__ import annotations

import json
from typing import Any

from semloop._features import (
    Call,
    entities,
    is_empty_output,
    normalise_output,
    normalise_value,
    same_but_ids,
    shared_ngrams,
    strip_shared,
    tokens,
    without_volatile,
)
from semloop.judge.local import LocalBackend
from semloop.judge.local._answerer import LocalJudgement


def step(text: str, *tools: tuple[str, dict[str, Any], Any], index: int = 0) -> dict[str, Any]:
    return {
        "index": index,
        "type": "llm",
        "name": "reason",
        "input": "",
        "output": text,
        "tools": [
            {"name": n, "input": json.dumps(a, sort_keys=True), "output": json.dumps(o)}
            if not isinstance(o, str)
            else {"name": n, "input": json.dumps(a, sort_keys=True), "output": o}
            for n, a, o in tools
        ],
    }


def judgement(backend: LocalBackend, *steps: dict[str, Any]) -> LocalJudgement:
    state = {"goal": "g", "steps": [dict(s, index=k) for k, s in enumerate(steps)]}
    return LocalJudgement(state, backend._embedder.embed)


# ------------------------------------------------------------ structural tool comparison


def test_read_and_write_on_the_same_path_are_different_actions(backend: LocalBackend) -> None:
    j = judgement(
        backend,
        step("Opening the config.", ("read_file", {"path": "src/app.py"}, "ok")),
        step("Saving the config.", ("write_file", {"path": "src/app.py"}, "ok")),
    )
    read, write = j.views[0].calls[0], j.views[1].calls[0]
    assert j.action_similarity(read, write) == 0.0
    assert j.repeat_probability(0, 1) < 0.4


def test_option_tweaks_are_cosmetic_but_a_new_target_is_not(backend: LocalBackend) -> None:
    j = judgement(
        backend,
        step("a", ("search", {"q": "acme", "dir": "./"}, "none found")),
        step("b", ("search", {"q": "acme", "dir": ".", "limit": 50}, "none found")),
        step("c", ("search", {"q": "ACME ", "dir": ".", "sort": "asc"}, "none found")),
        step("d", ("search", {"q": "globex", "dir": "."}, "none found")),
    )
    calls = [v.calls[0] for v in j.views]
    assert j.action_similarity(calls[0], calls[1]) == 1.0  # ./ vs . and an added option
    assert j.action_similarity(calls[0], calls[2]) == 1.0  # case, spacing, another option
    assert j.action_similarity(calls[0], calls[3]) < 0.2  # a different name searched


def test_reworded_free_text_arguments_count_as_the_same_request(backend: LocalBackend) -> None:
    j = judgement(
        backend,
        step("a", ("kb", {"query": "refund for a damaged parcel"}, "[]")),
        step("b", ("kb", {"query": "damaged package refund policy"}, "[]")),
        step("c", ("kb", {"query": "quarterly sales tax filing deadline"}, "[]")),
    )
    calls = [v.calls[0] for v in j.views]
    assert j.action_similarity(calls[0], calls[1]) > 0.6
    assert j.action_similarity(calls[0], calls[2]) < 0.3


def test_normalise_value_removes_cosmetic_differences() -> None:
    assert normalise_value("./src/") == normalise_value("src")
    assert normalise_value("  Hello   World ") == "hello world"
    assert normalise_value(50) == normalise_value(50.0)
    assert normalise_value({"B": 1, "a": [2]}) == normalise_value({"a": [2], "b": 1})


# ------------------------------------------------------------ template stripping


def test_text_shared_by_most_steps_is_stripped() -> None:
    texts = [
        tokens(f"Now checking {name} for the deprecated call before moving to the next file")
        for name in ("a.py", "b.py", "c.py", "d.py")
    ]
    shared = shared_ngrams(texts)
    residuals = [strip_shared(t, shared) for t in texts]
    for name, residual in zip(("a.py", "b.py", "c.py", "d.py"), residuals):
        # 4-grams: the template body goes; the slot stays with the few words before it
        # that no 4-gram without the slot can cover.
        assert residual == ["now", "checking", name]


def test_nothing_is_shared_between_only_two_steps_or_in_half_of_them() -> None:
    a = tokens("reading the orders controller to see the validation path")
    b = tokens("running the billing tests to reproduce the failure here")
    assert shared_ngrams([a, a]) == frozenset()  # a pair alone: repeat or template?
    assert shared_ngrams([a, b, a, b]) == frozenset()  # an A-B-A-B cycle is not a template


def test_boilerplate_preamble_does_not_hide_different_tails(backend: LocalBackend) -> None:
    pre = (
        "Having reviewed everything available so far and weighing the alternatives with the "
        "overall goal in mind, the next step I will take is to "
    )
    tails = ["call the courier about the delay", "refund the shipping fee", "close the ticket"]
    j = judgement(backend, *(step(pre + t) for t in tails))
    assert j.progress(0, 1) > 0.6 and j.progress(1, 2) > 0.6
    assert j.revisit(0, 2) < 0.4


# ------------------------------------------------------------ entity novelty


def test_apostrophes_of_contractions_are_not_quotes() -> None:
    assert entities("I'm leaning toward the rollback, but I'm not sure it's right") == frozenset()
    assert entities("search 'blue kettle' in the users' catalogue") == {"blue kettle"}


def test_clock_times_and_timestamps_are_not_facts() -> None:
    a = "Status at 09:30 UTC (2026-11-30T09:30:00Z): 212 of 412 screened, 14 conflicts."
    b = "Status at 10:00 UTC (2026-11-30T10:00:00Z): 212 of 412 screened, 14 conflicts."
    assert entities(a) != entities(b)
    assert entities(without_volatile(a)) == entities(without_volatile(b)) == {
        "212", "412", "14", "utc"}


def test_entities_are_concrete_things() -> None:
    found = entities(
        'Opened src/billing/invoice.py and ticket INV-2041 for Lisbon; "late fee" is 12.5% '
        "per https://example.com/docs and DATABASE_URL is unset."
    )
    for expected in (
        "src/billing/invoice.py",
        "inv-2041",
        "lisbon",
        "late fee",
        "12.5%",
        "https://example.com/docs",
        "database_url",
    ):
        assert expected in found, expected
    assert "opened" not in found  # a capitalised word at the start of a sentence


def test_a_new_entity_under_the_same_template_is_progress(backend: LocalBackend) -> None:
    j = judgement(
        backend,
        *(
            step(f"Patching host {h} and returning it to the pool.", ("patch", {"host": h}, "ok"))
            for h in ("web-01", "web-02", "web-03", "web-04")
        ),
    )
    assert all(j.progress(i, i + 1) > 0.8 for i in range(3))


# ------------------------------------------------------------ tool outputs


def test_empty_and_error_outputs_are_recognised() -> None:
    for text in (
        "",
        "[]",
        "{}",
        "no matches",
        "0 results found",
        '{"articles": [], "total": 0}',
        "error: upstream timeout (503)",
        "Permission denied",
    ):
        assert is_empty_output(normalise_output(text)), text
    for text in ("3 results", '{"rows": 500}', "ok: patched", '{"status": "succeeded"}'):
        assert not is_empty_output(normalise_output(text)), text


def test_volatile_parts_of_outputs_are_ignored() -> None:
    a = normalise_output("queued at 2026-11-30T10:41:02Z, took 0.42s")
    b = normalise_output("Queued at 2026-11-30T10:44:19Z, took 1.3s")
    assert a == b
    assert same_but_ids(
        normalise_output('{"events": [], "request_id": "a81f0c23d9e1b7f4"}'),
        normalise_output('{"events": [], "request_id": "0b7c11e2aa94f3d8"}'),
    )


def test_the_same_but_ids_result_again_is_not_progress(backend: LocalBackend) -> None:
    j = judgement(
        backend,
        step("Looking up the parcel.", ("track", {"id": "884120"}, '{"events": []}')),
        step("Checking the parcel again.", ("track", {"id": "884120"}, '{"events": []}')),
    )
    assert j.progress(0, 1) < 0.15


def test_a_changed_result_is_progress(backend: LocalBackend) -> None:
    j = judgement(
        backend,
        step("Checking the job.", ("get_job", {"id": "exp-1"}, '{"state": "running", "pct": 20}')),
        step("Checking the job.", ("get_job", {"id": "exp-1"}, '{"state": "running", "pct": 70}')),
        step("Checking the job.", ("get_job", {"id": "exp-1"}, "error: timeout")),
        step("Checking the job.", ("get_job", {"id": "exp-1"}, '{"state": "done"}')),
    )
    assert all(j.progress(i, i + 1) > 0.6 for i in range(3))


def test_a_cycle_longer_than_two_is_caught_against_the_whole_history(
    backend: LocalBackend,
) -> None:
    cycle = [
        step("Reading the logs.", ("logs", {"svc": "api"}, "OOMKilled")),
        step("Restarting it.", ("restart", {"svc": "api"}, "restarted")),
        step("Checking health.", ("health", {"svc": "api"}, "degraded")),
    ]
    j = judgement(backend, *cycle, *cycle)
    assert j.progress(0, 1) > 0.8 and j.progress(1, 2) > 0.8
    assert j.progress(2, 3) < 0.15  # step 3 repeats step 0, three steps back
    assert j.revisit(1, 3) < 0.2  # the pair alone (restart vs logs) differs


def test_call_of_keeps_non_json_inputs_as_text() -> None:
    call = Call.of("Shell", "ls  -la /tmp", "total 0")
    assert call.name == "shell" and call.args is None and call.raw == "ls -la /tmp"


def test_a_template_slot_filled_with_other_words_is_progress(backend: LocalBackend) -> None:
    items = ["blue kettle", "steel toaster", "oak cutting board", "glass teapot"]
    j = judgement(
        backend,
        *(
            step(
                f"Summarising the customer reviews for the {item} and noting the most common "
                "complaint before moving on to the next product in the catalogue."
            )
            for item in items
        ),
    )
    # No entity, no tool call: only the slot's words differ, and they mean other things.
    assert all(j.progress(i, i + 1) > 0.8 for i in range(3))
    assert j.revisit(0, 2) < 0.2


def test_the_same_template_with_the_same_slot_is_a_repeat(backend: LocalBackend) -> None:
    text = "Summarising the customer reviews for the blue kettle before moving on to the next one."
    j = judgement(backend, step(text), step("Tidying up the notes."), step(text))
    assert j.revisit(0, 2) > 0.9


def test_text_in_other_scripts_is_compared_not_ignored(backend: LocalBackend) -> None:
    assert tokens("Café 日本語のテキスト orders_controller.py") == [
        "café",
        "日本語のテキスト",
        "orders_controller.py",
    ]
    j = judgement(
        backend,
        step("注文履歴を検索します。"),
        step("返金処理を実行しました。"),
        step("注文履歴を検索します。"),
    )
    assert j.revisit(0, 2) > 0.9  # the same sentence
    # A different sentence is not "identical" for lack of ASCII words; the English model
    # cannot say much more about Japanese, so it stays near undecided rather than a repeat.
    assert j.repeat_probability(0, 1) < 0.7


class TestSettingsAndIdentifiers:
    def test_one_id_written_several_ways(self) -> None:
        from semloop._features import same_identifier

        for other in ["pt00872", "PT 00872", "00872", "PT-872", "pt-00872"]:
            assert same_identifier("PT-00872", other), other
        assert same_identifier("quarterly-churn", "Quarterly_Churn")
        assert not same_identifier("SKU-1180", "SKU-2291")
        assert not same_identifier("PT-00872", "QX-00872")
        assert not same_identifier("the report for march", "the report for may")

    def test_only_chosen_numbers_are_settings(self) -> None:
        from semloop._features import numbers, same_but_settings

        a, b = "curl --max-time 5 https://x.example/a", "curl --max-time 30 https://x.example/a"
        assert same_but_settings(a, b, frozenset())
        # The same numbers given by the data (goal, tool outputs) are targets, not settings.
        assert not same_but_settings("lookup 1180", "lookup 2291", numbers("ids 1180, 2291"))
        assert not same_but_settings("lookup SKU-1180", "lookup SKU-2291", frozenset())
        assert numbers("timeout 20.0 then 20, v2 and 3.5") == {"20", "3.5"}

    def test_a_structured_error_is_empty(self) -> None:
        from semloop._features import is_empty_output, normalise_output

        assert is_empty_output(normalise_output('{"error": "unavailable", "code": 503}'))
        assert not is_empty_output(normalise_output('{"error": null, "rows": [1, 2]}'))


def test_empty_results_that_echo_their_input_are_one_result() -> None:
    from semloop._features import Call

    a = Call.of("s", '{"q": "late vegan food"}', '{"query": "late vegan food", "results": []}')
    b = Call.of("s", '{"q": "vegan after 10pm"}', '{"query": "vegan after 10pm", "results": []}')
    assert a.empty and b.empty and a.empty_sig == b.empty_sig
    c = Call.of("s", '{"id": "INV-0413"}', "Error: invoice INV-0413 does not exist")
    d = Call.of("s", '{"id": "inv413"}', "Error: invoice inv413 does not exist")
    assert c.empty_sig == d.empty_sig
    e = Call.of("s", '{"id": "inv413"}', "Error: permission denied")
    assert e.empty_sig != d.empty_sig  # another error is another result
