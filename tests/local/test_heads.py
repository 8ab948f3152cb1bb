"""The learned heads of the run-level answers: the shipped weights match the evidence the
rules produce, the training script's pieces do what its docstring says, and an answer's
reasoning quotes the evidence that made it fire."""

from __future__ import annotations

import importlib.util
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from semloop.case import RunCase, ToolCall
from semloop.judge.local._answerer import Embed
from semloop.judge.local._evidence import RUN_EVIDENCE as EVIDENCE
from semloop.judge.local._head import HEADS_FILE, Evidence, Head, head_answer, heads
from semloop.judge.local._model import Embedder

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def embed() -> Iterator[Embed]:
    yield Embedder(threads=1).embed


@pytest.fixture(scope="module")
def train() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_heads", ROOT / "calibration" / "train_heads.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_heads"] = module
    spec.loader.exec_module(module)
    return module


CASE = RunCase(
    id="probe", input="How much is the late fee, and can I renew online?",
    output="The late fee is €0.25 per item per day. You can renew online twice.",
    context=("Late fee: €0.25 per item per day. Items may be renewed online up to two times.",),
    tools_called=(ToolCall("loans", {"member": "L-2210"}, "2 items due 2026-12-08", True),),
    steps=("Looking up the loan rules.",),
)


def test_shipped_heads_cover_every_evaluator_and_only_known_features(embed: Embed) -> None:
    shipped = heads()
    assert set(shipped) == set(EVIDENCE)
    for kind, evidence in EVIDENCE.items():
        produced = set(evidence(CASE, embed).features)
        head = shipped[kind]
        assert len(head.features) == len(head.weights)
        # A feature the head weighs that the rule no longer produces would silently read 0.
        assert set(head.features) <= produced, (kind, set(head.features) - produced)


def test_heads_file_says_how_it_was_made() -> None:
    doc = json.loads(HEADS_FILE.read_text(encoding="utf-8"))
    assert doc["trained_by"] == "calibration/train_heads.py"
    # Blind sets and public benchmarks are never trained on.
    measures = ("run_blind3", "hallucination_blind12", "blind29", "halueval")
    for head in doc["heads"].values():
        sources = [*doc["sources"], *head.get("more_sources", [])]
        assert not any(m in s.lower() for s in sources for m in measures)
        lodo = head["lodo"]
        assert lodo["false_positives"] <= doc["max_fp"] * lodo["negatives"]
    assert HEADS_FILE.stat().st_size < 16_000  # a few KB of weights


def test_head_logit_is_the_capped_weighted_sum() -> None:
    head = Head(("a", "b"), (2.0, -1.0), -0.5, 3.0)
    assert head.logit({"a": 1.0, "b": 0.5}) == pytest.approx(-0.5 + 2.0 - 0.5)
    assert head.logit({"a": 10.0}) == pytest.approx(-0.5 + 6.0)  # capped at 3
    assert head.logit({}) == -0.5


def test_reasoning_quotes_the_evidence_that_fired_or_what_was_set_aside() -> None:
    ev = Evidence()
    ev.flag("promise", 1.0, 'it only says it will do the work: "I\'ll look into it"')
    ev.flag("generic", 0.0, "never shown: the feature is off")
    fired = head_answer("task_completion", ev, "the answer meets every part of the request")
    assert fired.is_yes and fired.reasoning.startswith("it only says it will do the work")
    calm = head_answer("task_completion", Evidence(), "the answer meets every part of the request")
    assert not calm.is_yes and calm.reasoning == "the answer meets every part of the request"
    weak = Evidence()
    weak.flag("failed_call", 1.0, "tool refill failed")
    got = head_answer("task_completion", weak, "the answer meets every part of the request")
    assert not got.is_yes and got.reasoning.endswith("weighed and set aside: tool refill failed")


def test_answers_are_deterministic(embed: Embed) -> None:
    for evidence in EVIDENCE.values():
        assert evidence(CASE, embed) == evidence(CASE, embed)


def test_signed_fit_drops_a_feature_that_pushes_the_wrong_way(train: ModuleType) -> None:
    rng = np.random.default_rng(0)
    signal = rng.normal(size=200)
    y = (signal + 0.3 * rng.normal(size=200) > 0).astype(float)
    against = -y + 0.5 * rng.normal(size=200)  # fits a negative weight; allowed only upwards
    x = np.column_stack([signal, against])
    free = train.fit(x, y, 0.1)
    assert free[1] < 0
    signed = train.fit_signed(x, y, 0.1, [1, 1])
    assert signed[0] > 0 and signed[1] == 0.0


def test_operating_point_never_passes_the_false_positive_cap(train: ModuleType) -> None:
    scores = np.arange(9.0, -1.0, -1.0)
    y = np.array([0, 1, 1, 1, 1, 1, 1, 0, 0, 0], dtype=float)
    cut, fp, tp = train.operating_point(scores, y, 0.0)
    assert (fp, tp) == (0, 0) and cut > 9.0
    # One false positive of four allowed, and worth it: six failures caught past it.
    cut, fp, tp = train.operating_point(scores, y, 0.25)
    assert (fp, tp) == (1, 6) and 2.0 < cut <= 3.0


def test_out_of_fold_scores_never_see_their_own_domain(train: ModuleType) -> None:
    # Each domain's labels follow the feature in its own direction: a model fitted on the
    # other domain must get it wrong, one that had seen it would get it right.
    x = np.array([[1.0], [2.0], [3.0], [1.0], [2.0], [3.0]])
    y = np.array([0, 1, 1, 1, 0, 0], dtype=float)
    domains = ["a", "a", "a", "b", "b", "b"]
    scores = train.out_of_fold(x, y, domains, 0.1, [0])
    assert scores[2] < scores[0] and scores[5] > scores[3]


def test_a_staged_feature_leaves_the_fixed_log_odds_where_it_is_zero(train: ModuleType) -> None:
    # The offset already separates most cases; the staged feature fires on three positives
    # the offset misses and on nothing else, and a second one fires against the label.
    offset = np.array([-3.0, -2.0, -2.5, 2.0, 3.0, -1.5, -1.0, -2.0])
    y = np.array([0, 0, 0, 1, 1, 1, 1, 1], dtype=float)
    found = np.array([0, 0, 0, 0, 0, 1, 1, 1], dtype=float)
    against = np.array([1, 1, 0, 0, 0, 0, 0, 0], dtype=float)
    w = train.fit_staged(np.column_stack([found, against]), y, offset, 1.0)
    assert w[0] > 1.0 and w[1] == 0.0  # only upwards, like the signed fit
    logits = offset + np.column_stack([found, against]) @ w
    assert np.array_equal(logits[found == 0], offset[found == 0])


def test_outside_sets_exist_and_none_is_a_blind_measure(train: ModuleType) -> None:
    for name, sets in train.OUTSIDE.items():
        for path in sets:
            assert (ROOT / path).is_file(), path
            assert name in path
            assert not any(m in path.lower() for m in
                           ("run_blind3", "hallucination_blind12", "blind29", "halueval"))


def test_leave_one_set_out_never_scores_a_set_with_a_head_that_saw_it(
    train: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Set "b" alone says its failures with feature z: a head that had seen b would catch
    # them, one trained without it cannot (z reads 0 everywhere else).
    name = "task_understanding_failure"
    monkeypatch.setitem(train.OUTSIDE, name, ("a", "b"))
    rows, evidence = [], []
    for source, domain, x, z, label in (
        *(("i", f"d{d}", x, 0.0, bool(x)) for d in range(4) for x in (0.0, 0.0, 1.0, 1.0)),
        ("a", "d0", 0.0, 0.0, False), ("a", "d0", 1.0, 0.0, True),
        ("b", "d1", 0.0, 0.0, False), ("b", "d1", 0.0, 0.0, False),
        ("b", "d1", 0.0, 1.0, True), ("b", "d1", 0.0, 1.0, True),
    ):
        rows.append((RunCase(f"{source}{len(rows)}", "", "", label=label), domain, source))
        ev = Evidence()
        ev.flag("x", x)
        ev.flag("z", z)
        evidence.append(ev)
    recipe = train.Recipe(outside=True, by_set=True)
    assert train.by_set(name, rows, evidence, recipe)["b"] == (0, 2, 0, 2)
    x, features = train.matrix(name, evidence, recipe)
    y = np.array([float(bool(case.label)) for case, _, _ in rows])
    seen = train.fit_head(name, x, y, train.groups_of(name, rows, recipe), features, recipe)
    assert (seen.logits(x[-2:]) >= 0).all()


def test_a_measuring_run_writes_no_heads(train: ModuleType, tmp_path: Path) -> None:
    # `--report` reproduces the README's figures: it must not retrain the shipped heads.
    assert train.destination(None, measuring=True) is None
    assert train.destination(None, measuring=False) == HEADS_FILE
    assert train.destination(tmp_path / "h.json", measuring=True) == tmp_path / "h.json"
