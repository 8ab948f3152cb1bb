"""JevBackend on evaluator questions: our System One server, and jevcompat's spec-exact
mock with its strictest validation switched on, both on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from semloop._exceptions import JudgeAnswerError, UnsupportedQuestionError
from semloop.judge._evaluator import EVALUATOR_KINDS, RUBRICS
from semloop.judge._http import RetryPolicy
from semloop.judge.jev import JevBackend

from .servers import Edit, SystemOneServer, choice_label
from .test_llm_evaluators import CONVERSATION, RUN
from .test_peers import KEY, JevcompatMock

QUICK = RetryPolicy(max_retries=0)


def jev(server: SystemOneServer, **options: Any) -> JevBackend:
    options.setdefault("retry", QUICK)
    return JevBackend("test-key", base_url=server.url, **options)


def test_the_kind_stays_home_and_the_rubric_goes_out(jev_server: SystemOneServer) -> None:
    jev(jev_server).ask(RUN, {
        "h": {"type": "noul", "kind": "hallucination"},
        "t": {"type": "noul", "kind": "task_completion", "instructions": "Done? p=0.2",
              "criteria": "the request was not done"},
        "u": {"type": "noul", "kind": "off_topic_drift", "instructions": "Drift?",
              "criteria": ["on topic", "drifted"]},
        "progress_0_1": {"type": "noul", "instructions": "advance?"},
        "stagnation": {"type": "score", "kind": "loop", "criteria": ["none", "all"]},
    })
    [request] = jev_server.requests
    sent = request.json["questions"]
    assert request.json["state"] == RUN
    assert sent["h"] == {"type": "noul", "instructions": RUBRICS["hallucination"].text()}
    assert sent["t"] == {"type": "noul", "instructions": "Done? p=0.2",
                         "criteria": {"true": "the request was not done"}}
    assert sent["u"] == {"type": "noul",
                         "instructions": 'Drift?\nCriteria: ["on topic", "drifted"]'}
    assert sent["progress_0_1"] == {"type": "noul", "instructions": "advance?"}
    assert sent["stagnation"] == {"type": "score", "criteria": ["none", "all"]}
    # Where each failure shows: the answer's sentences for a hallucination, and what the
    # agent did as well for the task failures.
    assert list(sent["h_where"]["criteria"]) == ["sentence 1", "sentence 2"]
    assert list(sent["t_where"]["criteria"]) == ["step 1", "tool call 1", "sentence 1",
                                                 "sentence 2"]
    assert sent["t_where"]["criteria"]["tool call 1"].startswith("[T1] lookup_plan(")
    assert sent["h_where"]["type"] == "choice"
    assert "progress_0_1_where" not in sent


def test_answer_is_p_failure_with_the_place_as_reasoning(jev_server: SystemOneServer) -> None:
    q = {"type": "noul", "kind": "user_frustration", "instructions": "Frustrated? p=0.83"}
    response = jev(jev_server).ask(CONVERSATION, {"f": q})
    sent = jev_server.requests[0].json["questions"]
    # The user's turns only: frustration is in what the user says.
    assert sent["f_where"]["criteria"] == {
        "turn 1": "How do I export my data?",
        "turn 3": "There is no Export in Settings. THIS IS THE THIRD TIME I ASK."}
    picked = choice_label(CONVERSATION, sent["f_where"])
    answer = response.answers["f"]
    assert set(response.answers) == {"f"}  # the pointer is not an answer of its own
    assert (answer.type, answer.value) == ("noul", 0.83)
    assert answer.reasoning == (f"Jev: P(user_frustration) = 0.83. Clearest at: {picked} "
                                f'(70%), "{sent["f_where"]["criteria"][picked]}"')
    assert response.cost_usd > 0 and response.input_tokens > 0


def test_sycophancy_points_at_the_assistant(jev_server: SystemOneServer) -> None:
    turns = [{"role": r, "content": f"{r} says {i}"}
             for i, r in enumerate(["user", "assistant"] * 3)]
    jev(jev_server).ask({"turns": turns}, {"s": {"type": "noul", "kind": "sycophancy_signal",
                                                 "instructions": "p=0.1"}})
    sent = jev_server.requests[0].json["questions"]["s_where"]
    assert list(sent["criteria"]) == ["turn 2", "turn 4", "turn 6"]


def test_a_low_p_names_only_the_closest_place(jev_server: SystemOneServer) -> None:
    q = {"type": "noul", "kind": "hallucination", "instructions": "p=0.1"}
    answer = jev(jev_server).ask(RUN, {"h": q}).answers["h"]
    assert answer.value == 0.1
    assert answer.reasoning.startswith("Jev: P(hallucination) = 0.10. Closest place: sentence")


def test_locate_off_or_nothing_to_choose_sends_the_noul_alone(
    jev_server: SystemOneServer,
) -> None:
    q = {"type": "noul", "kind": "hallucination", "instructions": "p=0.6"}
    answer = jev(jev_server, locate=False).ask(RUN, {"h": q}).answers["h"]
    one_sentence = {**RUN, "output": "Sixty days."}
    jev(jev_server).ask(one_sentence, {"h": q})
    assert [set(r.json["questions"]) for r in jev_server.requests] == [{"h"}, {"h"}]
    assert answer.reasoning == "Jev: P(hallucination) = 0.60."


def test_a_bad_pointer_keeps_the_verdict_a_bad_verdict_does_not(
    jev_server: SystemOneServer,
) -> None:
    def bad_pointer(body: dict[str, Any]) -> dict[str, Any]:
        body["answers"]["h_where"]["choice"] = "sentence 99"
        return body

    def bad_verdict(body: dict[str, Any]) -> dict[str, Any]:
        body["answers"]["h"]["noul"] = 1.7
        return body

    q = {"type": "noul", "kind": "hallucination", "instructions": "p=0.9"}
    jev_server.play(Edit(bad_pointer), Edit(bad_verdict))
    backend = jev(jev_server)
    assert backend.ask(RUN, {"h": q}).answers["h"].reasoning == "Jev: P(hallucination) = 0.90."
    with pytest.raises(JudgeAnswerError, match="answer 'h'"):
        backend.ask(RUN, {"h": q})


def test_an_undeclared_kind_is_refused(jev_server: SystemOneServer) -> None:
    with pytest.raises(UnsupportedQuestionError, match="'toxicity' questions"):
        jev(jev_server).ask(RUN, {"x": {"type": "noul", "kind": "toxicity"}})
    assert jev_server.requests == []
    assert JevBackend.kinds == EVALUATOR_KINDS | {"loop"}


@pytest.fixture(scope="module")
def strict_jevcompat() -> Iterator[JevcompatMock]:
    # The strictest reading of the protocol jevcompat knows: ids [A-Za-z0-9_], text only,
    # instructions required, no null descriptions, no unknown fields, at most 64 options.
    mock = JevcompatMock("strict-ids", "string-only-text", "noul-needs-instructions",
                         "no-null-description", "forbid-extra", "cap-64")
    yield mock
    mock.close()


@pytest.mark.parametrize("kind", sorted(EVALUATOR_KINDS))
def test_the_spec_exact_peer_takes_every_evaluator_question(
    strict_jevcompat: JevcompatMock, kind: str
) -> None:
    state = CONVERSATION if RUBRICS[kind].conversation else RUN
    response = JevBackend(KEY, base_url=strict_jevcompat.url, retry=QUICK).ask(
        state, {kind: {"type": "noul", "kind": kind}})
    answer = response.answers[kind]
    assert answer.type == "noul" and 0.0 <= answer.value <= 1.0
    assert answer.reasoning.startswith(f"Jev: P({kind}) = {answer.value:.2f}. ")
    assert response.model == "jevcompat-mock-0.1" and response.input_tokens > 0
