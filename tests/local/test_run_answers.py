"""The embedded judge's run-level answers: probes in our own words, determinism, range,
the undecided band, and accuracy on the calibration sets (when they are in the tree)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from semloop.case import RunCase, ToolCall
from semloop.judge._types import Answer
from semloop.judge.local._answerer import Embed
from semloop.judge.local._completion import answer_task_completion
from semloop.judge.local._drift import answer_off_topic_drift
from semloop.judge.local._grounding import answer_hallucination
from semloop.judge.local._understanding import answer_task_understanding_failure

ROOT = Path(__file__).resolve().parents[2]
Answerer = Callable[[RunCase, Embed], Answer]
ANSWERS: dict[str, Answerer] = {
    "hallucination": answer_hallucination,
    "task_completion": answer_task_completion,
    "task_understanding_failure": answer_task_understanding_failure,
    "off_topic_drift": answer_off_topic_drift,
}


def case(inp: str, out: str, *, context: tuple[str, ...] = (), tools: tuple[ToolCall, ...] = (),
         steps: tuple[str, ...] = ()) -> RunCase:
    return RunCase(id="probe", input=inp, output=out, context=context, tools_called=tools,
                   steps=steps)


_RULES = ("Library card rules: members may borrow up to 8 items for 21 days. Late fee: "
          "€0.25 per item per day. Reference books may not leave the building.")
LIBRARY = (_RULES,)
# (evaluator, case, fires): written for these tests, in domains the calibration sets use
# little (libraries, gardening, gyms, utilities, museums, pets).
PROBES: list[tuple[str, RunCase, bool]] = [
    ("hallucination", case("how long can I keep books?", "You can keep them for 21 days.",
                           context=LIBRARY), False),
    ("hallucination", case("how long can I keep books?", "You can keep them for 28 days.",
                           context=LIBRARY), True),
    ("hallucination", case("late fee for 3 books 2 days late?",
                           "That comes to €1.50 in total (€0.25 per item per day).",
                           context=LIBRARY), False),
    ("hallucination", case("can I take the reference atlas home?",
                           "Yes, reference books can leave the building for 21 days.",
                           context=LIBRARY), True),
    ("hallucination", case("how do I renew?",
                           "You have two options: renew at the desk or online, for 21 days.",
                           context=LIBRARY), False),
    ("hallucination", case("is there a fine for lost cards?",
                           "The rules don't mention a fee for a lost card, so I can't say.",
                           context=LIBRARY), False),
    ("hallucination", case("when does the pool open?",
                           "The pool opens at 6:30 am on weekdays.",
                           tools=(ToolCall("gym_hours", {"site": "north"},
                                           '{"pool_open": "06:30", "pool_close": "21:00"}',
                                           True),)), False),
    ("hallucination", case("who founded the weavers' guild?", "Maren Holt",
                           context=("The weavers' guild was founded in 1921 by Ida Fenwick.",)),
     True),
    ("hallucination", case("who founded the weavers' guild?", "Ida Fenwick",
                           context=("The weavers' guild was founded in 1921 by Ida Fenwick.",)),
     False),
    ("task_completion", case("book a plumber for Thursday morning",
                             "I'll find a plumber for Thursday and let you know shortly."), True),
    ("task_completion", case("move my meter reading appointment to Friday",
                             "Done, your appointment has been moved to Friday 10:00.",
                             tools=(ToolCall("reschedule", {"day": "friday"},
                                             '{"error": "NO_SLOTS"}', False),)), True),
    ("task_completion", case("what are the museum hours and is entry free on Sundays?",
                             "The museum is open 10:00-18:00, Tuesday to Sunday."), True),
    ("task_completion", case("what are the museum hours and is entry free on Sundays?",
                             "Open 10:00-18:00 Tuesday to Sunday; entry is free on the first "
                             "Sunday of each month, otherwise €12."), False),
    ("task_understanding_failure", case(
        "How much is the pet deposit at Elm Court, unit 12A?",
        "The pet deposit for unit 12B at Elm Court is $250."), True),
    ("task_understanding_failure", case(
        "How much is the pet deposit at Elm Court, unit 12A?",
        "For unit 12A at Elm Court the pet deposit is $250, refundable at move-out."), False),
    ("task_understanding_failure", case(
        "What is the water rate in Riverside?",
        "In Hillcrest water costs $1.80 per cubic metre, billed quarterly.",
        context=("Water tariffs 2027. Riverside: $2.10 per cubic metre.",
                 "Hillcrest: $1.80 per cubic metre.")), True),
    ("task_understanding_failure", case(
        "What is the water rate in Riverside?",
        "Riverside pays $2.10 per cubic metre; Hillcrest is cheaper at $1.80.",
        context=("Water tariffs 2027. Riverside: $2.10 per cubic metre.",
                 "Hillcrest: $1.80 per cubic metre.")), False),
    ("task_understanding_failure", case(
        "How many visitors did the gallery have in March?",
        "The gallery had 4,210 visitors in April.",
        tools=(ToolCall("visits", {"month": "march"}, '{"march": 3980, "april": 4210}', True),)),
     True),
    ("task_understanding_failure", case(
        "What is the deadline for the spring semester tuition payment?",
        "The fall semester tuition payment is due on August 15."), True),
    ("off_topic_drift", case(
        "When should I prune my apple tree?",
        "Prune apple trees in late winter, while they are dormant and before buds swell. "
        "Interestingly, apples were first cultivated in Central Asia thousands of years ago. "
        "The Silk Road traders carried seeds westward across the continent. "
        "Isaac Newton's famous tree still has descendants growing in Cambridge today."), True),
    ("off_topic_drift", case(
        "When should I prune my apple tree?",
        "Prune in late winter while the tree is dormant, before the buds swell. Remove dead or "
        "crossing branches first, then thin the crown so light reaches the fruit."), False),
]


@pytest.mark.parametrize(("name", "probe", "fires"), PROBES,
                         ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(PROBES)])
def test_probe(embed: Embed, name: str, probe: RunCase, fires: bool) -> None:
    got = ANSWERS[name](probe, embed)
    assert (float(got.value) >= 0.5) is fires, got.reasoning
    assert got.reasoning


@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_answers_are_deterministic_nouls_in_range(embed: Embed, name: str) -> None:
    for _, probe, _ in PROBES:
        first, second = ANSWERS[name](probe, embed), ANSWERS[name](probe, embed)
        assert first == second
        assert first.type == "noul" and 0.0 <= float(first.value) <= 1.0
        assert first.probability == max(first.value, round(1 - first.value, 4))


def test_hallucination_without_context_is_undecided(embed: Embed) -> None:
    got = answer_hallucination(case("what's the fee?", "The fee is $45."), embed)
    assert got.is_uncertain() and "no context" in got.reasoning


def test_reasoning_points_at_the_sentence(embed: Embed) -> None:
    got = answer_hallucination(case("fee?", "Thanks for asking. The late fee is €0.40 per day.",
                                    context=LIBRARY), embed)
    assert got.is_yes and 'sentence 2 "The late fee is €0.40' in got.reasoning


def read(path: Path) -> list[RunCase]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row: dict[str, Any] = json.loads(line)
            c = RunCase.from_state(row, id=row["id"])
            out.append(RunCase(c.id, c.input, c.output, c.context, c.tools_called, c.steps,
                               bool(row["label"])))
    return out


# Floors under what the rules measure on the sets they were built against (see
# docs/local-judge.md): a change that loses much of that fails here. They are not the
# targets; the held-out sets are the measure of those.
FLOORS = {  # name: (most false positives, least recall)
    "hallucination": (0.05, 0.60),
    "task_completion": (0.02, 0.85),
    "task_understanding_failure": (0.02, 0.55),
    "off_topic_drift": (0.02, 0.85),
}


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_calibration_accuracy(embed: Embed, name: str) -> None:
    path = ROOT / "calibration" / f"{name}.jsonl"
    if not path.is_file():
        pytest.skip(f"{path} is not in this tree yet")
    cases = read(path)
    fired = [(c.label, float(ANSWERS[name](c, embed).value) >= 0.5) for c in cases]
    neg = [f for label, f in fired if not label]
    pos = [f for label, f in fired if label]
    most_fp, least_recall = FLOORS[name]
    assert sum(neg) / len(neg) <= most_fp
    assert sum(pos) / len(pos) >= least_recall


@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_a_very_long_run_is_bounded(embed: Embed, name: str) -> None:
    # 300 sentences of answer, 300 of context, 100 steps: read in bounded slices, not all.
    out = " ".join(f"Item {i} costs ${i * 3}.50 and ships in {i} days." for i in range(300))
    ctx = (" ".join(f"Item {i} costs ${i * 3}.50." for i in range(300)),)
    steps = tuple(f"step {i} checked item {i}" for i in range(100))
    got = ANSWERS[name](case("prices and shipping times?", out, context=ctx, steps=steps), embed)
    assert got.type == "noul" and 0.0 <= float(got.value) <= 1.0


@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_empty_and_foreign_text(embed: Embed, name: str) -> None:
    for probe in (case("", ""), case("привет", "数字は12です")):
        got = ANSWERS[name](probe, embed)
        assert 0.0 <= float(got.value) <= 1.0 and got.reasoning
