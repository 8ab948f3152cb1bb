"""OFF_TOPIC_DRIFT's topic head (``_topic.py``): the file, its features, and how the drift
answer weighs it beside the rules."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from semloop.case import RunCase
from semloop.judge.local._answerer import Embed
from semloop.judge.local._drift import answer_off_topic_drift, off_topic_evidence, topic_evidence
from semloop.judge.local._head import head_answer
from semloop.judge.local._topic import TOPIC_FILE, topic_features, topic_head

from .conftest import drift_rules

# A whole answer about the thing's subject, never the user's request: the rules read each
# sentence against the request and find its words ("strawberries") in every one.
_RECIPE = RunCase(
    "recipe", "The strawberries in Tuesday's delivery were mouldy. Can I get a refund for them?",
    "Strawberries keep best unwashed in the fridge, on a paper towel. If some are past their "
    "best, they still make a lovely jam: 1 kg of strawberries, 750 g of sugar and the juice "
    "of a lemon, boiled hard for ten minutes. Spread it on warm scones with clotted cream.")
# Facts about the request's theme word, none about the request itself.
_FACTS = RunCase(
    "facts", "What is the penalty for paying my water bill late?",
    "Water is essential for life. Humans survive only about three days without it, and the "
    "oceans cover 71% of the planet.")
_ON_TASK = RunCase(
    "refund", "The strawberries in Tuesday's delivery were mouldy. Can I get a refund for them?",
    "Sorry about that. I've refunded the £3.50 for the strawberries to your card ending 4821; "
    "it shows within 3 working days. No need to send them back.")


def test_the_shipped_head_is_whole_and_finite() -> None:
    data = json.loads(TOPIC_FILE.read_text(encoding="utf-8"))
    head = topic_head()
    assert head.weights.shape == (4 * data["dim"],) and np.isfinite(head.weights).all()
    # The blind measures: blind29, and the newest authors (blind72 …), never trained on.
    numbers = [int(m.group(1)) for s in data["sources"] if (m := re.search(r"_blind(\d+)", s))]
    assert numbers and 29 not in numbers and max(numbers) <= 71


@pytest.mark.parametrize("text, why", [
    ('{"dim": 2, "bias": 0.1, "weights": [1, 2, 3]}', "4 x 'dim'"),
    ('{"dim": 1, "bias": 0.1, "weights": [1, 2, 3, NaN]}', "finite"),
])
def test_a_damaged_head_file_is_named(tmp_path: Path, text: str, why: str) -> None:
    path = tmp_path / "topic_head.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=why) as err:
        topic_head(path)
    assert str(path) in str(err.value)


def test_features_are_the_request_the_run_mean_and_their_products() -> None:
    q = np.array([1.0, 0.0])
    run = np.array([[0.0, 1.0], [0.0, 1.0]])
    assert topic_features(q, run).tolist() == [1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0]


@pytest.mark.parametrize("case", [_RECIPE, _FACTS], ids=["recipe", "facts"])
def test_an_answer_about_the_things_subject_drifts_by_the_topic_head(
    embed: Embed, case: RunCase
) -> None:
    assert drift_rules(case, embed) < 0.5
    got = answer_off_topic_drift(case, embed)
    assert got.value >= 0.5
    assert "topic head" in got.reasoning and "farthest:" in got.reasoning


def test_the_answer_on_the_request_stays(embed: Embed) -> None:
    features = topic_evidence(_ON_TASK, embed)
    assert features is not None and topic_head().logit(features[0]) < 0
    assert answer_off_topic_drift(_ON_TASK, embed).value < 0.5


def test_an_offset_moves_the_rules_log_odds(embed: Embed) -> None:
    evidence = off_topic_evidence(_FACTS, embed)
    plain = head_answer("off_topic_drift", evidence, "").value
    shifted = head_answer("off_topic_drift", evidence, "", offset=-math.log(4.0)).value
    assert math.log(shifted / (1 - shifted)) == pytest.approx(
        math.log(plain / (1 - plain)) - math.log(4.0), abs=2e-3)


def test_a_run_with_nothing_to_read_has_no_topic(embed: Embed) -> None:
    assert topic_evidence(RunCase("e", "Where is my parcel?", ""), embed) is None
