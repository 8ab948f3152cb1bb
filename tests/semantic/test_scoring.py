"""How answers become sub-scores, the verdict, the undecided flag and the result fields.

Every blind-spot test scripts a MockBackend explicitly for that trace (no shared default
standing in for differently worded questions), and runs on both our dataset and the seed's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from semloop._exceptions import JudgeAnswerError, JudgeConnectionError, JudgeError
from semloop.benchmark import BenchRow
from semloop.judge._types import Answer, JudgeResponse
from semloop.judge.mock import MockBackend
from semloop.lexical import WEIGHTS, lexical_loop_score
from semloop.semantic import SemanticLoopDetection
from semloop.trace import Trace

HEALTHY = {"progress_*": 0.95, "revisit_*": 0.05, "tool_repeat_*": 0.05, "stagnation": 0}


def measure(trace: Trace, answers: Mapping[str, Any], **options: Any) -> Any:
    return SemanticLoopDetection(MockBackend(answers), **options).measure(trace)


class TestTheBlindSpotsAreClosed:
    def test_catches_paraphrased_loop(self, rows: dict[str, BenchRow]) -> None:
        trace = rows["paraphrased_loop-00"].trace
        assert lexical_loop_score(trace).score_breakdown["reasoning_stagnation"] == 1.0
        result = measure(
            trace, {"progress_*": 0.03, "revisit_*": 0.5, "stagnation": 3},
            check_semantic_tool_repetition=False,
        )
        assert result.score_breakdown["reasoning_stagnation"] == 0.0
        # 0.40 * 0.5 (grep x4, exact match) + 0.35 * 0.0 + 0.25 * 1.0
        assert result.score == pytest.approx(0.45)
        assert result.flags_loop(0.5)
        assert "step 1 made no progress over step 0 (p=0.97)" in result.reason

    def test_does_not_skip_terse_steps(self, rows: dict[str, BenchRow]) -> None:
        trace = rows["terse_loop-00"].trace
        assert lexical_loop_score(trace).score_breakdown["reasoning_stagnation"] == 1.0
        result = measure(trace, {"progress_*": 0.05, "revisit_*": 0.9, "tool_repeat_grep": 0.9,
                                 "stagnation": 3})
        assert result.score_breakdown["reasoning_stagnation"] == 0.0
        assert result.flags_loop(0.5)

    def test_catches_alternating_loop_via_revisit_questions(
        self, rows: dict[str, BenchRow]
    ) -> None:
        # Every neighbour advanced (0.95); only the distance-2 revisits see the cycle.
        result = measure(
            rows["alternating_loop-00"].trace,
            {"progress_*": 0.95, "revisit_*": 0.9, "tool_repeat_*": 0.5, "stagnation": 2},
        )
        assert result.score_breakdown["reasoning_stagnation"] == 0.0
        assert "revisits step" in result.sub_reasons["reasoning_stagnation"]
        assert result.flags_loop(0.5)

    def test_catches_cosmetic_argument_tool_loop(self, rows: dict[str, BenchRow]) -> None:
        trace = rows["cosmetic_args_loop-00"].trace
        assert lexical_loop_score(trace).score_breakdown["tool_repetition"] == 1.0
        metric = SemanticLoopDetection(MockBackend({**HEALTHY, "tool_repeat_grep": 0.9}))
        result = metric.measure(trace)
        assert [(f.name, f.count) for f in result.tool_findings] == [("grep", 6)]
        assert result.score_breakdown == {
            "tool_repetition": 0.0, "reasoning_stagnation": 1.0, "call_graph_cycles": 1.0,
        }
        assert result.sub_reasons["tool_repetition"].startswith(
            "Semantic tool repetition — tool 'grep' called 6 times"
        )
        assert result.score == pytest.approx(0.60)

    @pytest.mark.parametrize(
        "family", ["progress", "template_progress", "boilerplate_progress", "retry_then_recover"]
    )
    def test_healthy_runs_are_not_flagged(self, rows: dict[str, BenchRow], family: str) -> None:
        result = measure(rows[f"{family}-00"].trace, HEALTHY)
        assert result.score_breakdown["reasoning_stagnation"] == 1.0
        assert not result.flags_loop(0.5) and result.success
        if family != "template_progress":
            assert result.score == 1.0 and result.reason == "No loop patterns detected."

    def test_template_progress_is_a_lexical_false_positive_the_judge_clears(
        self, rows: dict[str, BenchRow]
    ) -> None:
        trace = rows["template_progress-00"].trace
        assert lexical_loop_score(trace).score_breakdown["reasoning_stagnation"] < 1.0
        assert measure(trace, HEALTHY).score_breakdown["reasoning_stagnation"] == 1.0


class TestTheWeightingQuirk:
    """deepeval's 0.40/0.35/0.25 weights: one sub-signal at 0.0 leaves the score at
    1 - weight >= 0.60, so alone it never flips the verdict at the default threshold."""

    def test_a_lone_signal_needs_a_stricter_threshold_to_flip_the_verdict(
        self, rows: dict[str, BenchRow]
    ) -> None:
        trace = rows["cosmetic_args_loop-00"].trace
        answers = {**HEALTHY, "tool_repeat_grep": 0.9}
        result = measure(trace, answers)
        assert result.score_breakdown["tool_repetition"] == 0.0
        assert result.score == pytest.approx(0.60)
        assert not result.flags_loop(0.5) and result.success
        assert not result.flags_loop(0.60)
        assert result.flags_loop(0.65)
        assert measure(trace, answers, threshold=0.65).success is False

    def test_heavier_weights_make_a_lone_signal_decisive(self, rows: dict[str, BenchRow]) -> None:
        trace = rows["cosmetic_args_loop-00"].trace
        result = measure(trace, {**HEALTHY, "tool_repeat_grep": 0.9},
                         weights={"tool_repetition": 1.0})
        # (1.0 * 0.0 + 0.35 * 1.0 + 0.25 * 1.0) / 1.6
        assert result.score == pytest.approx(0.375)
        assert result.flags_loop(0.5)

    @pytest.mark.parametrize("key", list(WEIGHTS))
    def test_every_lone_zero_stays_at_or_above_060(self, key: str) -> None:
        from semloop.lexical import combine_scores

        breakdown = {k: (0.0 if k == key else 1.0) for k in WEIGHTS}
        score = combine_scores(breakdown, dict.fromkeys(WEIGHTS, True))
        assert score == pytest.approx(1 - WEIGHTS[key]) and score >= 0.6 - 1e-9


def _pairs_trace(n: int = 3) -> Trace:
    return Trace.from_steps("g", [{"output": f"step {k}"} for k in range(n)])


class TestStagnationScoring:
    @pytest.mark.parametrize(
        ("p_progress", "expected"),
        [(0.15, 0.0), (0.14, 0.0), (0.16, 0.5), (0.40, 0.5), (0.41, 1.0), (0.95, 1.0)],
    )
    def test_progress_answers_map_to_severe_mild_or_clean(
        self, p_progress: float, expected: float
    ) -> None:
        # min_stretch_steps=1: every pair on its own (the stretch rule is tested below).
        result = measure(_pairs_trace(), {"progress_0_1": p_progress, "progress_1_2": 0.99,
                                          "revisit_0_2": 0.0, "stagnation": 0},
                         min_stretch_steps=1)
        assert result.score_breakdown["reasoning_stagnation"] == expected

    @pytest.mark.parametrize(("p_revisit", "expected"), [(0.85, 0.0), (0.6, 0.5), (0.3, 1.0)])
    def test_revisit_answers_are_stagnation_directly(self, p_revisit: float, expected: float) -> None:
        result = measure(_pairs_trace(), {"progress_*": 0.99, "revisit_0_2": p_revisit,
                                          "stagnation": 0})
        assert result.score_breakdown["reasoning_stagnation"] == expected

    def test_custom_severity_lines(self) -> None:
        answers = {"progress_*": 0.99, "revisit_0_2": 0.7, "stagnation": 0}
        assert measure(_pairs_trace(), answers, severe_stagnation=0.7).score_breakdown[
            "reasoning_stagnation"] == 0.0

    def test_undecided_only_when_nothing_was_detected(self) -> None:
        band = measure(_pairs_trace(), {"progress_0_1": 0.5, "progress_1_2": 0.9,
                                        "revisit_0_2": 0.1, "stagnation": 0})
        assert band.undecided and band.score_breakdown["reasoning_stagnation"] == 1.0
        beside = measure(_pairs_trace(), {"progress_0_1": 0.5, "progress_1_2": 0.05,
                                          "revisit_0_2": 0.1, "stagnation": 0},
                         min_stretch_steps=1)
        assert not beside.undecided and beside.score_breakdown["reasoning_stagnation"] == 0.0

    def test_undecided_answers_fall_back_to_lexical(self, rows: dict[str, BenchRow]) -> None:
        trace = rows["verbatim_loop-00"].trace
        result = measure(trace, {"*": 0.5}, check_semantic_tool_repetition=False)
        assert result.undecided
        assert result.score_breakdown["reasoning_stagnation"] == 0.0  # from the lexical check
        assert "Judge was undecided, so the lexical check was used as well: Identical " \
            "reasoning outputs at steps 0 and 1." in result.sub_reasons["reasoning_stagnation"]
        off = measure(trace, {"*": 0.5}, check_semantic_tool_repetition=False,
                      fallback_to_lexical_when_uncertain=False)
        assert off.undecided and off.score_breakdown["reasoning_stagnation"] == 1.0

    def test_fallback_never_hides_a_clean_judgement(self, rows: dict[str, BenchRow]) -> None:
        # Paraphrased: the lexical check sees nothing, so min(judged 1.0, lexical 1.0) = 1.0.
        result = measure(rows["paraphrased_loop-00"].trace, {"*": 0.5},
                         check_semantic_tool_repetition=False)
        assert result.undecided and result.score_breakdown["reasoning_stagnation"] == 1.0

    def test_unusable_answers_are_ignored_and_count_as_undecided(self) -> None:
        class Garbage:
            name = "garbage"

            def ask(self, state: Any, questions: Mapping[str, Any]) -> JudgeResponse:
                return JudgeResponse(answers={
                    "progress_0_1": Answer(type="choice", value="yes", probability=1.0),
                    "progress_1_2": Answer(type="noul", value=float("nan"), probability=0.5),
                    "revisit_0_2": Answer(type="noul", value=1.7, probability=1.0),
                })

        result = SemanticLoopDetection(Garbage()).measure(_pairs_trace())
        assert result.undecided
        assert result.sub_reasons["reasoning_stagnation"].startswith(
            "Judge returned no usable pair answers."
        )


class TestStuckStretch:
    """Stagnation scores the worst stretch of 3+ steps, never one repeated step."""

    def test_one_repeated_step_then_moving_on_is_not_stagnation(self) -> None:
        result = measure(_pairs_trace(5), {"progress_*": 0.95, "progress_1_2": 0.02,
                                           "revisit_*": 0.05, "stagnation": 1})
        assert result.score_breakdown["reasoning_stagnation"] == 1.0
        assert result.stuck_stretch is None
        assert "then the run moved on" in result.sub_reasons["reasoning_stagnation"]

    def test_two_repeats_in_a_row_are_a_stretch_of_three_steps(self) -> None:
        result = measure(_pairs_trace(6), {"progress_*": 0.95, "progress_1_2": 0.02,
                                           "progress_2_3": 0.03, "revisit_*": 0.05,
                                           "stagnation": 2})
        assert result.score_breakdown["reasoning_stagnation"] == 0.0
        assert result.stuck_stretch == (1, 3)
        assert "Stuck stretch: steps 1–3." in result.sub_reasons["reasoning_stagnation"]

    def test_a_revisit_two_steps_back_is_a_cycle_through_three_steps(self) -> None:
        result = measure(_pairs_trace(5), {"progress_*": 0.95, "revisit_*": 0.05,
                                           "revisit_1_3": 0.9, "stagnation": 1})
        assert result.score_breakdown["reasoning_stagnation"] == 0.0
        assert result.stuck_stretch == (1, 3)

    def test_lone_repeats_far_apart_do_not_join(self) -> None:
        result = measure(_pairs_trace(9), {"progress_*": 0.95, "progress_1_2": 0.02,
                                           "progress_6_7": 0.02, "revisit_*": 0.05,
                                           "stagnation": 1})
        assert result.score_breakdown["reasoning_stagnation"] == 1.0

    def test_mild_stretch_scores_half(self) -> None:
        result = measure(_pairs_trace(5), {"progress_*": 0.95, "progress_1_2": 0.3,
                                           "progress_2_3": 0.3, "revisit_*": 0.05,
                                           "stagnation": 1})
        assert result.score_breakdown["reasoning_stagnation"] == 0.5
        assert result.stuck_stretch == (1, 3)

    def test_stretches_are_found_in_one_pass_over_sorted_findings(self) -> None:
        from semloop.evaluate.loop import PairFinding, stuck_stretches, worst_stretch

        def f(i: int, j: int, s: float) -> PairFinding:
            return PairFinding("progress", i, j, 1 - s, s, False)

        found = [f(7, 8, 0.9), f(1, 2, 0.99), f(2, 3, 0.7), f(4, 5, 0.2), f(8, 9, 0.95)]
        stretches = stuck_stretches(found, 0.6)
        assert [(s.first, s.last, s.steps) for s in stretches] == [(1, 3, (2, 3)),
                                                                    (7, 9, (8, 9))]
        top = worst_stretch(found, 0.6)
        assert top is not None and (top.first, top.last) == (1, 3)
        assert worst_stretch([f(1, 2, 0.99)], 0.6) is None
        assert worst_stretch([f(1, 2, 0.99)], 0.6, min_steps=2) is not None

    def test_a_step_that_passed_no_arguments_covers_nothing(self) -> None:
        # A, a reply the harness refused (its call has no input), A again: one repeat of
        # A. The revisit 0 -> 2 spans three steps only because of the refusal between.
        def trace(middle_input: str, again: str = "KeyError") -> Trace:
            return Trace.from_steps("g", [
                {"output": "Run the script."},
                {"type": "tool", "name": "bash", "input": '{"command": "python r.py"}',
                 "output": "KeyError"},
                {"output": "Run it and show the diff."},
                {"type": "tool", "name": "format_error", "input": middle_input,
                 "output": "Please send exactly one command."},
                {"output": "Run the script."},
                {"type": "tool", "name": "bash", "input": '{"command": "python r.py"}',
                 "output": again},
                {"output": "Edit the parser."},
            ])

        answers = {"progress_*": 0.95, "progress_1_2": 0.03, "revisit_*": 0.05,
                   "revisit_0_2": 0.97, "tool_repeat_*": 0.05, "stagnation": 1}
        refused = measure(trace(""), answers)
        assert refused.score_breakdown["reasoning_stagnation"] == 1.0
        assert refused.stuck_stretch is None
        # Refused replies that are the repeats themselves (three in a row) cover their steps.
        from semloop.evaluate.loop import PairFinding, covered, stuck_stretches

        lap = stuck_stretches([PairFinding("progress", 4, 5, 0.03, 0.97, False),
                               PairFinding("progress", 5, 6, 0.03, 0.97, False)], 0.6)
        assert covered(lap[0], frozenset({4, 5, 6})) == 3
        # With a call that did something in the middle the script still ran twice with the
        # same error: two attempts, a tie (as A B C A B is). Had the second run failed
        # otherwise, the judge's revisit would stand: a cycle through three steps.
        acted = measure(trace('{"path": "r.py"}'), answers)
        assert acted.score_breakdown["reasoning_stagnation"] == 1.0
        assert acted.stuck_stretch is None
        other = measure(trace('{"path": "r.py"}', again="ValueError: bad row"), answers)
        assert other.score_breakdown["reasoning_stagnation"] == 0.0
        assert other.stuck_stretch == (0, 2)

    def test_replies_between_two_identical_failed_calls_cover_nothing(self) -> None:
        # A booking refused, a reply to the customer, the same booking refused the same way:
        # two attempts of one call (a tie), not a cycle through three steps. A third attempt
        # after two more replies joins them: three attempts are a stuck stretch.
        refused = "Error: Payment method credit_card_7 not found"
        book = {"type": "tool", "name": "book_reservation",
                "input": '{"flight": "HAT063", "payment_id": "credit_card_7"}', "output": refused}

        def trace(output: str, third: bool) -> Trace:
            attempt = {**book, "output": output}
            steps: list[dict[str, Any]] = [
                {"output": "Booking HAT063."}, attempt,
                {"output": "Sorry, that did not go through."},
                {"output": "Booking HAT063."}, attempt]
            if third:
                steps += [{"output": "Let me try another way."},
                          {"output": "I will use a different card."},
                          {"output": "Booking HAT063."}, attempt]
            return Trace.from_steps("g", [*steps, {"output": "Transferring you."}])

        answers = {"progress_*": 0.95, "progress_1_2": 0.03, "revisit_*": 0.05,
                   "revisit_0_2": 0.97, "tool_repeat_*": 0.05, "stagnation": 1}
        twice = measure(trace(refused, third=False), answers)
        assert twice.score_breakdown["reasoning_stagnation"] == 1.0
        assert twice.stuck_stretch is None
        # A real result (a record read again) with a reply between: two reads, a tie too.
        looked = measure(trace('{"reservation_id": "EHGLP3"}', third=False), answers)
        assert looked.score_breakdown["reasoning_stagnation"] == 1.0
        assert looked.stuck_stretch is None
        thrice = measure(trace(refused, third=True), {**answers, "progress_4_5": 0.03})
        assert thrice.score_breakdown["reasoning_stagnation"] == 0.0
        assert thrice.stuck_stretch == (0, 5)

    def test_two_records_read_a_second_time_are_a_tie_a_third_read_is_not(self) -> None:
        # The line, the device, the plan read; the line and the device read again with the
        # same records, then a question to the customer: work done a second time (two
        # attempts), not a stuck stretch. Read a third time, or a variant of a read that got
        # the same record, it is one.
        def read(record: str, arg: str | None = None) -> dict[str, Any]:
            return {"type": "tool", "name": "get_details_by_id",
                    "input": f'{{"id": "{arg or record}"}}', "output": f'{{"id": "{record}"}}'}

        def trace(again: list[dict[str, Any]]) -> Trace:
            steps: list[dict[str, Any]] = []
            for record in ("L1001", "D1001", "P1001"):
                steps += [{"output": "Looking it up."}, read(record)]
            for call in again:
                steps += [{"output": "I have all the details."}, call]
            return Trace.from_steps("g", [*steps, {"output": "Please check your phone."}])

        answers = {"progress_*": 0.95, "progress_2_3": 0.03, "progress_3_4": 0.03,
                   "revisit_*": 0.05, "tool_repeat_*": 0.05, "stagnation": 1}
        twice = measure(trace([read("L1001"), read("D1001")]), answers)
        assert twice.score_breakdown["reasoning_stagnation"] == 1.0
        assert twice.stuck_stretch is None and twice.score >= 0.5
        third = measure(trace([read("L1001"), read("L1001")]), answers)
        assert third.score_breakdown["reasoning_stagnation"] == 0.0
        assert third.stuck_stretch == (2, 4) and third.score < 0.5
        variant = measure(trace([read("L1001"), read("D1001", arg="d1001 ")]), answers)
        assert variant.stuck_stretch == (2, 4)

    def test_second_times_need_the_same_call_and_a_result_no_variant_got(self) -> None:
        from semloop.evaluate.loop import second_times

        def step(command: str, output: str) -> dict[str, Any]:
            return {"tools": [{"name": "bash", "input": f'{{"command": "{command}"}}',
                               "output": output}]}

        error = ("Traceback (most recent call last): File test.py, line 4, in module; File "
                 "/usr/lib/python3.9/re.py, line 252, in compile; File sre_parse.py, line 955, "
                 "in parse; re.error: bad escape g at position 3 while parsing the pattern")
        state = {"steps": [
            step("python t.py", "ok"), step("python t.py", "ok"), step("python t.py", "ok"),
            step("python u.py", error), step("python v.py", error.replace("line 4", "line 5")),
            step("python u.py", error), {"tools": []}, step("ls", "a b"), step("LS", "a b"),
        ]}
        # 1: a second time; 2: a third; 5: u.py again, but v.py got the same error; 6: no
        # call; 8: the same command in other case, with the same listing.
        assert second_times(state) == frozenset({1, 8})

    def test_min_stretch_steps_must_be_positive(self) -> None:
        from semloop import ConfigError

        with pytest.raises(ConfigError, match="min_stretch_steps"):
            SemanticLoopDetection(MockBackend({}), min_stretch_steps=0)
        with pytest.raises(ConfigError, match="loop_stretch_steps"):
            SemanticLoopDetection(MockBackend({}), loop_stretch_steps=2)

    def test_a_severe_stretch_fails_the_verdict_alone(self) -> None:
        # Stagnation alone weighs 0.35: deepeval's weights leave a severe stretch of three
        # steps at 0.65. Three steps are what the real-run rule calls stuck, and restore,
        # re-test, re-apply laps are new attempts (tests/local), so the stretch is a loop.
        answers = {"progress_*": 0.95, "progress_1_2": 0.02, "progress_2_3": 0.03,
                   "revisit_*": 0.05, "tool_repeat_*": 0.05, "stagnation": 2}
        three = measure(_pairs_trace(7), answers)
        assert three.score == pytest.approx(0.45) and three.flags_loop(0.5)
        assert "stayed stuck for 3 steps (1–3)" in three.reason
        # Asking for a longer stretch (the rule before issue 13's laps were fixed) keeps it.
        longer = measure(_pairs_trace(7), answers, loop_stretch_steps=4)
        assert longer.score == pytest.approx(0.65) and not longer.flags_loop(0.5)
        four = measure(_pairs_trace(7), {"progress_*": 0.95, "progress_1_2": 0.02,
                                         "progress_2_3": 0.03, "progress_3_4": 0.02,
                                         "revisit_*": 0.05, "tool_repeat_*": 0.05,
                                         "stagnation": 2})
        assert four.score == pytest.approx(0.45) and four.flags_loop(0.5)
        assert four.stuck_stretch == (1, 4)
        assert "stayed stuck for 4 steps (1–4)" in four.reason
        # A mild stretch shorter than twice the loop stretch, and the rule switched off,
        # leave the weights alone.
        mild = measure(_pairs_trace(7), {"progress_*": 0.95, "progress_1_2": 0.3,
                                         "progress_2_3": 0.3, "progress_3_4": 0.3,
                                         "revisit_*": 0.05, "tool_repeat_*": 0.05,
                                         "stagnation": 1})
        assert mild.score == pytest.approx(0.825)
        # Six mildly stuck steps in a row (a rotation of stock replies) are a loop.
        long_mild = measure(_pairs_trace(9), {"progress_*": 0.95, **{
            f"progress_{i}_{i + 1}": 0.3 for i in range(1, 6)},
            "revisit_*": 0.05, "tool_repeat_*": 0.05, "stagnation": 1})
        assert long_mild.score == pytest.approx(0.45) and long_mild.flags_loop(0.5)
        assert "stayed stuck for 6 steps (1–6)" in long_mild.reason
        five_mild = measure(_pairs_trace(9), {"progress_*": 0.95, **{
            f"progress_{i}_{i + 1}": 0.3 for i in range(1, 5)},
            "revisit_*": 0.05, "tool_repeat_*": 0.05, "stagnation": 1})
        assert five_mild.score == pytest.approx(0.825)
        off = measure(_pairs_trace(7), {"progress_*": 0.95, "progress_1_2": 0.02,
                                        "progress_2_3": 0.03, "progress_3_4": 0.02,
                                        "revisit_*": 0.05, "tool_repeat_*": 0.05,
                                        "stagnation": 2}, loop_stretch_steps=None)
        assert off.score == pytest.approx(0.65)


class TestToolRepetition:
    def test_a_judged_miss_never_hides_an_exact_match(self, rows: dict[str, BenchRow]) -> None:
        result = measure(rows["identical_tool_loop-00"].trace,
                         {**HEALTHY, "tool_repeat_run_tests": 0.1})
        assert result.score_breakdown["tool_repetition"] == 0.0
        assert result.sub_reasons["tool_repetition"] == (
            "Tool 'run_tests' called 6 times with identical arguments."
        )

    def test_on_a_tie_the_exact_match_reason_is_kept(self, rows: dict[str, BenchRow]) -> None:
        result = measure(rows["paraphrased_loop-00"].trace, {**HEALTHY, "tool_repeat_grep": 0.9})
        assert result.score_breakdown["tool_repetition"] == 0.5
        assert result.sub_reasons["tool_repetition"] == (
            "Tool 'grep' called 4 times with identical arguments."
        )

    def test_both_tool_checks_off_is_skipped(self, rows: dict[str, BenchRow]) -> None:
        result = measure(rows["identical_tool_loop-00"].trace, HEALTHY,
                         check_tool_repetition=False, check_semantic_tool_repetition=False)
        assert result.score_breakdown["tool_repetition"] == 1.0
        assert result.sub_reasons["tool_repetition"] == "Tool repetition check skipped."
        # Weighted over the two enabled checks only: (0.35 * 1.0 + 0.25 * 1.0) / 0.60.
        assert result.score == pytest.approx(1.0)


class Priced:
    name = "priced"

    def __init__(self, error: JudgeError | None = None) -> None:
        self.error = error

    def ask(self, state: Any, questions: Mapping[str, Any]) -> JudgeResponse:
        if self.error is not None:
            raise self.error
        answers = {q: Answer(type="noul", value=0.9, probability=0.9)
                   for q in questions if q != "stagnation"}
        return JudgeResponse(answers=answers, input_tokens=1234, output_tokens=7,
                             cost_usd=0.00005, latency_ms=81.5, model="p-1")


def test_result_carries_cost_latency_tokens_and_answers(rows: dict[str, BenchRow]) -> None:
    metric = SemanticLoopDetection(Priced())
    result = metric.measure(rows["progress-00"].trace)
    assert (result.cost_usd, result.latency_ms) == (0.00005, 81.5)
    assert (result.input_tokens, result.output_tokens) == (1234, 7)
    assert set(result.answers) == {f"progress_{i}_{i + 1}" for i in range(5)} | {
        f"revisit_{i}_{i + 2}" for i in range(4)}
    assert result.model == "p-1"
    assert metric.__name__ == "Semantic Loop Detection"


def test_a_failing_backend_raises_judge_error(rows: dict[str, BenchRow]) -> None:
    metric = SemanticLoopDetection(Priced(JudgeConnectionError("host down")))
    with pytest.raises(JudgeError, match="host down"):
        metric.measure(rows["progress-00"].trace)


def test_measure_takes_a_bench_row_or_a_deepeval_dict(rows: dict[str, BenchRow]) -> None:
    row = rows["verbatim_loop-00"].trace.to_dict()
    by_row = measure(row, {"*": 0.02})
    by_dict = measure(row["root"], {"*": 0.02})
    assert by_row.score_breakdown == by_dict.score_breakdown
    assert by_row.flags_loop()


def test_a_buggy_backend_still_surfaces_as_a_judge_error(rows: dict[str, BenchRow]) -> None:
    class Buggy:
        name = "buggy"

        def __init__(self, reply: Any = None, error: Exception | None = None) -> None:
            self.reply, self.error = reply, error

        def ask(self, state: Any, questions: Mapping[str, Any]) -> Any:
            if self.error is not None:
                raise self.error
            return self.reply

    trace = rows["progress-00"].trace
    with pytest.raises(JudgeError, match="judge 'buggy' failed: KeyError") as info:
        SemanticLoopDetection(Buggy(error=KeyError("x"))).measure(trace)
    assert isinstance(info.value.__cause__, KeyError)
    with pytest.raises(JudgeAnswerError, match="returned NoneType, not a JudgeResponse"):
        SemanticLoopDetection(Buggy(reply=None)).measure(trace)
    with pytest.raises(JudgeAnswerError, match="returned dict"):
        SemanticLoopDetection(Buggy(reply={"progress_0_1": 0.9})).measure(trace)
