"""CONFUSION_LOOP's pairs head (``_confusion_head.py``): the file, its features, and how the
confusion answer weighs it beside the rules."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from semloop.case import ConversationCase, Turn
from semloop.judge.local._answerer import Embed
from semloop.judge.local._confusion_head import (
    CONFUSION_FILE,
    NAMED,
    closest_pair,
    confusion_features,
    confusion_head,
)
from semloop.judge.local._conversation import answer_confusion_loop, confusion_evidence


def _chat(*pairs: tuple[str, str]) -> ConversationCase:
    turns = []
    for user, assistant in pairs:
        turns += [Turn("user", user), Turn("assistant", assistant)]
    return ConversationCase("c", tuple(turns))


# One question (can the tenancy deposit go back to a different account?) asked three ways,
# each reply answering something beside it.
_ONE_THING_THREE_WAYS = _chat(
    (
        (
            "When my tenancy ends, can the deposit be paid back into my partner's bank account "
            "instead of mine?"
        ),
        "Deposits are protected by a government-backed scheme for the length of the tenancy.",
    ),
    (
        "Right, but could the refund of the deposit go to a different account, my partner's?",
        "At the end of the tenancy the landlord inspects the flat against the inventory.",
    ),
    (
        (
            "I'll try once more: is it possible to have the returned deposit sent to an account "
            "that isn't in my name?"
        ),
        "Any deductions have to be agreed by both parties or decided by the scheme.",
    ),
)
# A calm user asking three unrelated things, each answered.
_THREE_THINGS = _chat(
    (
        "What time does the pottery studio open on Saturdays?",
        "Saturdays the studio opens at 10 am and closes at 4 pm.",
    ),
    (
        "Lovely. Do you sell gift vouchers for the wheel-throwing class?",
        "Yes, vouchers for the six-week class are £180 and valid for a year.",
    ),
    (
        "Great, and is there parking near the building?",
        "There's a pay-and-display car park on Mill Lane, two minutes' walk away.",
    ),
)


def test_the_shipped_head_is_whole_and_reads_no_blind_set() -> None:
    data = json.loads(CONFUSION_FILE.read_text(encoding="utf-8"))
    head = confusion_head()
    assert head.weights.shape == (len(NAMED) + 3 + 4 * data["dim"],)
    assert np.isfinite(head.weights).all() and data["named"] == list(NAMED)
    assert any("blind53b" in s for s in data["sources"])  # outside authors are in it
    numbers = [int(m.group(1)) for s in data["sources"] if (m := re.search(r"blind(\d+)", s))]
    # blind29 and blind72 … are the blind measures
    assert numbers and 29 not in numbers and max(numbers) <= 71


@pytest.mark.parametrize(
    "text, why",
    [
        ("not json at all", "not a CONFUSION_LOOP head"),
        ('{"named": ["rules"], "dim": 1, "bias": 0.1, "weights": [1, 2]}', "'named' must be"),
        (
            json.dumps({"named": list(NAMED), "dim": 1, "bias": 0.0, "weights": [1.0] * 13}),
            "4 x 'dim'",
        ),
        (
            json.dumps(
                {"named": list(NAMED), "dim": 1, "bias": 0.0, "weights": [1.0] * 14}
            ).replace("1.0]", "NaN]"),
            "finite",
        ),
    ],
)
def test_a_damaged_head_file_is_named(tmp_path: Path, text: str, why: str) -> None:
    path = tmp_path / "confusion_head.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=why) as err:
        confusion_head(path)
    assert str(path) in str(err.value)


def test_features_are_the_evidence_the_cosines_and_the_mean_pair_block() -> None:
    named = dict.fromkeys(NAMED, 0.0) | {"rules": 2.0}
    users = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]])
    got = confusion_features(named, users)
    assert got[: len(NAMED)].tolist() == [2.0] + [0.0] * (len(NAMED) - 1)
    assert got[len(NAMED) : len(NAMED) + 3].tolist() == pytest.approx([1.0, 1 / 3, 1.0])
    # Pairs (0,1), (0,2), (1,2): [u_i, u_j, u_i*u_j, |u_i-u_j|] averaged.
    block = got[len(NAMED) + 3 :]
    assert block.tolist() == pytest.approx([2 / 3, 1 / 3, 2 / 3, 1 / 3, 1 / 3, 0, 2 / 3, 2 / 3])
    assert closest_pair(users) == (0, 2, 1.0)


def test_one_question_asked_three_ways_fires_naming_the_turns(embed: Embed) -> None:
    got = answer_confusion_loop(_ONE_THING_THREE_WAYS, embed)
    assert got.value >= 0.5
    # The two user turns that ask the same thing are named (turns 1, 3 and 5 are the user's).
    assert re.search(r"turn [35]\b.*turn [13]\b", got.reasoning)


def test_a_calm_user_asking_three_things_does_not_fire(embed: Embed) -> None:
    evidence = confusion_evidence(_THREE_THINGS, embed)
    assert evidence is not None
    logit = confusion_head().logit(confusion_features(evidence.features, evidence.vectors))
    assert logit < 0
    assert answer_confusion_loop(_THREE_THINGS, embed).value < 0.5
