"""Train the embedded judge's run-level heads and write src/semloop/judge/local/heads.json.

    python calibration/train_heads.py [--report] [--by-set] [--out FILE]

With ``--report`` or ``--by-set`` it measures and writes nothing, unless ``--out`` names a
file: reproducing a figure never retrains the shipped heads behind one's back (the heads
answer on the rules' evidence, so a retrain after a rule round moves every answer).

For each of HALLUCINATION, TASK_COMPLETION, TASK_UNDERSTANDING_FAILURE and OFF_TOPIC_DRIFT:
read every labelled run set the project owns (``calibration/<name>.jsonl``,
``calibration/holdout/<name>.jsonl``, ``tests/local/run_blind2.jsonl``), turn each case
into its rule's evidence (``*_evidence`` in ``semloop.judge.local``), and fit an
L2-regularised logistic regression over the features. The regularisation and the
operating point are chosen by **leave-one-domain-out** cross-validation: each domain's cases
are scored by a model fitted without that domain, and the operating point is the
out-of-fold threshold that best trades recall for false positives (one false positive
costs ``FP_COST`` caught failures), never above ``--max-fp`` (3.5%) of the negatives: it
is set on domains the model had not seen. That point is folded into the
bias, so the shipped threshold of 0.5 is it. A feature listed in ``STAGED`` (per evaluator)
is fitted afterwards on those out-of-fold log-odds, with the other weights, the bias and the
cut held, so a check that fires on few cases cannot move them. For comparison, the hand-set weights the
rules had before (``HAND``, nearly as in docs/local-judge.md) are scored on the same
cases at 0.5; they were tuned on the calibration sets, so on those they are in-sample.

``MORE_SOURCES`` adds an evaluator's own blind sets once their blind figures are spent.
Never add a set that is reported blind (``tests/local/run_blind3.jsonl``,
``tests/local/hallucination_blind12.jsonl``) or a public benchmark (HaluEval): they are the
measure. Deterministic: Newton's method from zeros, the
domains in sorted order; a rerun writes the same file.

``--by-set`` adds the measure of a new author: **leave-one-set-out**. Each outside-written
set (``OUTSIDE``: one author writing a batch, the unit a hidden set resembles) is scored by
heads trained, by each recipe of ``RECIPES`` and by the whole procedure (penalty and
operating point chosen on the rest), without it; false positives · recall per set and
pooled, beside the heads file as it is. ``--recipe`` writes the file by another recipe than
``RECIPE``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from semloop.case import RunCase
from semloop.judge.local._evidence import RUN_EVIDENCE as EVIDENCE
from semloop.judge.local._head import HEADS_FILE, Evidence, heads
from semloop.judge.local._model import Embedder

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("calibration/{name}.jsonl", "calibration/holdout/{name}.jsonl",
           "tests/local/run_blind2.jsonl")
# An evaluator's own sets beyond SOURCES: blind sets whose blind figures are spent (the
# rules were since changed looking at them), so they teach the head rather than measure it.
MORE_SOURCES: dict[str, tuple[str, ...]] = {
    "hallucination": ("tests/local/hallucination_blind8.jsonl",
                      "tests/local/hallucination_blind9.jsonl",
                      "tests/local/hallucination_blind11.jsonl"),
}

def _tagged(pattern: str, *tags: str) -> tuple[str, ...]:
    return tuple(pattern.format(tag=tag) for tag in tags)


def _blind(*numbers: int) -> tuple[str, ...]:
    return tuple(f"blind{n}" for n in numbers)


# Sets written outside the project, one author in one batch each, whose blind figures are
# spent: the rules were changed reading them. Never a set still reported blind
# (``tests/local/hallucination_blind12.jsonl``, ``run_blind3``, any ``blind29``).
OUTSIDE: dict[str, tuple[str, ...]] = {
    "hallucination": _tagged("tests/local/hallucination_{tag}.jsonl",
                             *_blind(8, 9, 11, *range(13, 25), 26, 27, 28), "dev28a", "dev28b",
                             "dev29a", "dev29b"),
    "task_completion": _tagged("calibration/holdout/task_completion_{tag}.jsonl",
                               *_blind(*range(10, 19), *range(24, 29)), "dev28a", "dev28b",
                               "dev29a", "dev29b"),
    "task_understanding_failure": _tagged(
        "calibration/holdout/task_understanding_failure_{tag}.jsonl",
        *_blind(*range(10, 17), *range(24, 29)), "dev26", "dev26b", "dev28a", "dev28b",
        "dev29a", "dev29b", "heldout26"),
    "off_topic_drift": _tagged("calibration/holdout/off_topic_drift_{tag}.jsonl",
                               *_blind(*range(10, 19), 24, 26, 27, 28), "dev28a", "dev28b",
                               "dev29a", "dev29b"),
}
PENALTIES = (0.03, 0.1, 0.3, 1.0, 3.0, 10.0)  # L2 strength on standardised features
# The rules' weights before the heads (docs/local-judge.md), as a baseline scored on the
# same cases: (bias, {feature: weight}).
HAND: dict[str, tuple[float, dict[str, float]]] = {
    "hallucination": (0.0, {"rule": 1.0}),
    "task_completion": (-2.5, {"promise": 5.0, "false_success": 5.5, "honest_failure": -1.0,
                               "remainder": 4.0, "instructions": 4.0, "asks_given": 4.5,
                               "parts_missing": 4.0, "generic": 4.5}),
    "task_understanding_failure": (-3.0, {"substitute": 6.0, "opposite": 5.5, "reversed": 5.5,
                                          "wrong_source": 5.0, "other_action": 5.0}),
    "off_topic_drift": (-3.0, {"stretch": 4.75, "digression": 5.5, "promotion": 4.0,
                               "other_case": 5.0}),
}


# The direction each feature may push, where its meaning fixes one (+1 towards firing, -1
# away): a finding that goes the wrong way is fitting noise in a few cases, so the feature is
# dropped and the rest refitted. Features not listed here may go either way.
SIGNS: dict[str, dict[str, int]] = {
    "hallucination": {"rule": 1, "numbers": 1, "counts": 1, "bare_name": 1, "names": 1,
                      "bound": 1, "negation": 1, "uncovered": 1, "evidence_far": 1, "rival": 1,
                      "offered": 1, "scope": 1, "cause": 1,
                      "numbers_ok": -1, "worked": -1, "hedged_share": -1},
    "task_completion": {"promise": 1, "false_success": 1, "honest_failure": -1, "remainder": 1,
                        "instructions": 1, "asks_given": 1, "parts_missing": 1, "generic": 1,
                        "placeholder": 1, "failed_call": 1, "request_far": 1, "specific": -1,
                        "plan": 1, "evasive": 1, "redirect": 1, "action_unnamed": 1,
                        "item_failed": 1, "act_missing": 1},
    "task_understanding_failure": {"substitute": 1, "opposite": 1, "reversed": 1, "slot_swap": 1,
                                   "wrong_source": 1, "other_action": 1, "another_task": 1,
                                   "acted_on": 1,
                                   "request_far": 1,
                                   "uncovered": 1, "names_dropped": 1, "names_swapped": 1},
    "off_topic_drift": {"stretch": 1, "digression": 1, "promotion": 1, "other_case": 1,
                        "marker": 1, "off_share": 1, "min_far": 1, "tail_far": 1,
                        "lexical_off": 1, "never_on": 1, "isolation": 1, "isolated_share": 1,
                        "far_share": 1, "fall": 1, "other_party": 1, "new_names": 1, "promo_share": 1,
                        "noticed_other": 1, "marked_share": 1, "personal_share": 1,
                        "stray_work": 1},
}
# Features fitted after the others, with the others' weights, bias and operating point held
# (``fit_staged``): a check that fires on a handful of cases, refitted with the rest, moves
# every weight and the cut with it. The offered-item check did: it cost HaluEval recall on
# cases where it never fires (0.222 -> 0.200). Staged, the head is unchanged where it is 0.
STAGED: dict[str, tuple[str, ...]] = {"hallucination": ("offered", "scope", "cause")}
# Evaluators whose head is the mean of the models fitted at every penalty, its operating
# point chosen on their mean out-of-fold log-odds (the mean of linear models is one linear
# model). Where the penalties trade nearly alike, which one wins flips with a single case,
# and the weights and the cut flip with it: HALLUCINATION's went 0.3 <-> 10 when one hard
# negative was fixed, and HaluEval recall with them.
AVERAGED = frozenset({"hallucination"})
FP_COST = 4  # precision first: a false alarm costs four caught failures
# Counts are capped: the third missing number says little the second did not.
CAP = 3.0




@dataclass(frozen=True)
class Recipe:
    """How a head is trained: on which sets, which cases a fold holds out, the cap on its
    false positives, which features and penalties."""

    outside: bool = False  # every OUTSIDE set is training data (else MORE_SOURCES' only)
    by_set: bool = False  # a fold holds out an outside set whole (else one domain)
    max_fp: float = 0.035
    graded: bool = True  # weigh the graded features (similarities, shares), not only findings
    penalties: tuple[float, ...] = PENALTIES
    averaged: bool = False  # mean of the models at every penalty, for every evaluator


# The one that writes heads.json. Leave-one-set-out over 82 outside sets (dev29a/b included),
# all four evaluators pooled, FP · recall: shipped 17/982 · 609/830, outside sets as training
# data 15/982 · 611/830, with penalty 10 13/982 · 604/830; the heads file 16/982 · 609/830.
# Without dev29 the outside sets did worse (14/908 · 547/730 against 12/908 · 550/730) and
# penalty 10 better (11/908 · 546/730): nearly every set's misses and false alarms are the same
# under every recipe, so the rules' findings, not the weights, decide a new author's cases.
RECIPE = Recipe()
# The recipes ``--by-set`` compares, RECIPE first.
RECIPES: dict[str, Recipe] = {
    "shipped": RECIPE,
    "outside": Recipe(outside=True, by_set=True),
    "outside by domain": Recipe(outside=True),
    "outside cap 2%": Recipe(outside=True, by_set=True, max_fp=0.02),
    "outside findings": Recipe(outside=True, by_set=True, graded=False),
    "outside averaged": Recipe(outside=True, by_set=True, averaged=True),
    "outside penalty 10": Recipe(outside=True, by_set=True, penalties=(10.0,)),
}


def read(name: str) -> list[tuple[RunCase, str, str]]:
    """(case, domain, source) for every labelled case of ``name`` in its sources and its
    outside sets."""
    out = []
    patterns = dict.fromkeys((*SOURCES, *MORE_SOURCES.get(name, ()), *OUTSIDE[name]))
    for pattern in patterns:
        source = pattern.format(name=name)
        out += [(case, str(row["domain"]), source) for row, case in _labelled_rows(ROOT / source, name)]
    return out


def _labelled_rows(path: Path, name: str) -> Iterator[tuple[dict[str, Any], RunCase]]:
    """Each row of one JSONL file with its case, labelled; a row that names an
    ``evaluator`` is read only for that one."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        if row.get("evaluator", name) != name:
            continue
        yield row, replace(RunCase.from_state(row, id=str(row["id"])), label=bool(row["label"]))


def labelled_cases(path: Path, name: str) -> list[RunCase]:
    """The labelled cases of one JSONL file (the studies beside this script read so)."""
    return [case for _, case in _labelled_rows(path, name)]


def cut_above(negatives: np.ndarray, share: float) -> float:
    """The score above which at most ``share`` of ``negatives`` lie (a head's operating
    point, folded into its bias so that it fires at >= 0)."""
    ranked = np.sort(negatives)[::-1]
    return float(ranked[int(share * len(ranked))]) + 1e-6

def fit(x: np.ndarray, y: np.ndarray, penalty: float) -> np.ndarray:
    """Weights (last = bias) of an L2 logistic regression, by Newton's method."""
    xb = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(xb.shape[1])
    reg = np.full(xb.shape[1], penalty)
    reg[-1] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(xb @ w)))
        grad = xb.T @ (p - y) + reg * w
        hess = (xb * (p * (1 - p))[:, None]).T @ xb + np.diag(reg) + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.abs(step).max()) < 1e-8:
            break
    return w


def fit_signed(x: np.ndarray, y: np.ndarray, penalty: float, signs: list[int]) -> np.ndarray:
    """``fit`` on the features whose weights keep their allowed sign (others weigh 0)."""
    keep = list(range(x.shape[1]))
    while True:
        w = fit(x[:, keep], y, penalty)
        wrong = [j for j, v in zip(keep, w[:-1]) if signs[j] * v < 0]
        if not wrong:
            full = np.zeros(x.shape[1] + 1)
            full[keep] = w[:-1]
            full[-1] = w[-1]
            return full
        keep = [j for j in keep if j not in wrong]


def fit_staged(x: np.ndarray, y: np.ndarray, offset: np.ndarray, penalty: float) -> np.ndarray:
    """Weights, each at least 0, of features added to fixed log-odds ``offset``: an L2
    logistic regression with no bias, on features scaled (not centred: a feature at 0 must
    leave the offset as it is)."""
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    xs = x / scale
    keep = list(range(x.shape[1]))
    while True:
        w = np.zeros(len(keep))
        for _ in range(50):
            p = 1.0 / (1.0 + np.exp(-(offset + xs[:, keep] @ w)))
            grad = xs[:, keep].T @ (p - y) + penalty * w
            hess = ((xs[:, keep] * (p * (1 - p))[:, None]).T @ xs[:, keep]
                    + (penalty + 1e-9) * np.eye(len(keep)))
            step = np.linalg.solve(hess, grad)
            w -= step
            if float(np.abs(step).max()) < 1e-8:
                break
        if (w >= 0).all():
            full = np.zeros(x.shape[1])
            full[keep] = w
            weights: np.ndarray = full / scale
            return weights
        keep = [j for j, v in zip(keep, w) if v >= 0]


def standardise(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    return (x - mean) / scale, mean, scale


def out_of_fold(
    x: np.ndarray, y: np.ndarray, groups: list[str], penalty: float, signs: list[int]
) -> np.ndarray:
    """Each case's logit from a model fitted without its group (its domain, or its outside
    set)."""
    scores = np.zeros(len(y))
    for group in sorted(set(groups)):
        test = np.array([g == group for g in groups])
        xs, mean, scale = standardise(x[~test])
        w = fit_signed(xs, y[~test], penalty, signs)
        scores[test] = ((x[test] - mean) / scale) @ w[:-1] + w[-1]
    return scores


def operating_point(scores: np.ndarray, y: np.ndarray, max_fp: float) -> tuple[float, int, int]:
    """The threshold, with its false and true positives, that best trades recall for
    false positives (one false positive costs FP_COST true ones), never letting the false
    positives pass ``max_fp`` of the negatives."""
    negatives = np.sort(scores[y == 0])[::-1]
    allowed = min(math.floor(max_fp * len(negatives)), len(negatives) - 1)
    best: tuple[float, float, int, int] | None = None
    for k in range(allowed + 1):
        cut = float(negatives[k]) + 1e-6
        fp, tp = at(scores, y, cut)
        if best is None or tp - FP_COST * fp > best[0]:
            best = (tp - FP_COST * fp, cut, fp, tp)
    assert best is not None
    return best[1], best[2], best[3]


def at(scores: np.ndarray, y: np.ndarray, cut: float) -> tuple[int, int]:
    fired = scores >= cut
    return int((fired & (y == 0)).sum()), int((fired & (y == 1)).sum())


@dataclass
class Fitted:
    """A head and its cross-validated figures on the cases it was fitted on."""

    features: list[str]
    weights: np.ndarray  # over raw features, the staged ones last
    bias: float  # the operating point folded in: the head fires at log-odds >= 0
    penalties: tuple[float, ...]
    scores: np.ndarray  # out-of-fold log-odds, before the cut
    cut: float

    def logits(self, x: np.ndarray) -> np.ndarray:
        out: np.ndarray = x @ self.weights + self.bias
        return out


def fit_head(
    name: str, x: np.ndarray, y: np.ndarray, groups: list[str], features: list[str],
    recipe: Recipe, log: bool = False,
) -> Fitted:
    """The head of ``recipe`` on ``x`` (columns ``features``, the staged ones last): its
    penalty and operating point chosen on out-of-fold scores, each group held out in turn."""
    staged = [f for f in STAGED.get(name, ()) if f in features]
    main = [j for j, f in enumerate(features) if f not in staged]
    xm, xg = x[:, main], x[:, len(main):]
    signs = [SIGNS[name].get(features[j], 0) for j in main]
    oof = {p: out_of_fold(xm, y, groups, p, signs) for p in recipe.penalties}
    best: tuple[int, float] | None = None
    for penalty, scores in oof.items():
        cut, fp, tp = operating_point(scores, y, recipe.max_fp)
        if log:
            curve = " ".join("fp {}: tp {}".format(
                *operating_point(scores, y, (k + 0.5) / (y == 0).sum())[1:]) for k in range(5))
            print(f"  {name} penalty {penalty}: LODO {curve}", file=sys.stderr)
        # The best trade wins; on a tie the stronger penalty (the simpler model).
        gain = tp - FP_COST * fp
        if best is None or gain >= best[0]:
            best = (gain, penalty)
    assert best is not None
    penalties: tuple[float, ...] = (best[1],)
    if name in AVERAGED or recipe.averaged:
        penalties = recipe.penalties
    scores = np.mean([oof[p] for p in penalties], axis=0)
    cut = operating_point(scores, y, recipe.max_fp)[0]
    xs, mean, scale = standardise(xm)
    w = np.mean([fit_signed(xs, y, p, signs) for p in penalties], axis=0)
    weights = w[:-1] / scale
    bias = float(w[-1] - (w[:-1] * mean / scale).sum() - cut)
    if staged:
        # Fitted on the others' out-of-fold log-odds and scored out of fold the same way;
        # the cut stays where the others put it.
        base = scores.copy()
        for group in sorted(set(groups)):
            test = np.array([g == group for g in groups])
            scores[test] += xg[test] @ np.mean(
                [fit_staged(xg[~test], y[~test], base[~test], p) for p in penalties], axis=0)
        weights = np.concatenate(
            [weights, np.mean([fit_staged(xg, y, base, p) for p in penalties], axis=0)])
    return Fitted([features[j] for j in main] + staged, weights, bias, penalties, scores, cut)


def matrix(name: str, evidence: list[Evidence], recipe: Recipe) -> tuple[np.ndarray, list[str]]:
    """The capped features of ``evidence`` that ``recipe`` weighs, the staged ones last."""
    staged = [f for f in STAGED.get(name, ()) if any(f in ev.features for ev in evidence)]
    features = sorted({f for ev in evidence for f in ev.features} - set(staged)) + staged
    if not recipe.graded:
        # A graded feature takes values between the whole numbers a finding or a count has.
        features = [f for f in features
                    if all(float(ev.features.get(f, 0.0)).is_integer() for ev in evidence)]
    x = np.array([[min(ev.features.get(f, 0.0), CAP) for f in features] for ev in evidence])
    return x, features


def groups_of(name: str, rows: list[tuple[RunCase, str, str]], recipe: Recipe) -> list[str]:
    return [f"set {source}" if recipe.by_set and source in OUTSIDE[name] else domain
            for _, domain, source in rows]


def trained_on(name: str, rows: list[tuple[RunCase, str, str]], recipe: Recipe) -> np.ndarray:
    """Which of ``rows`` ``recipe`` trains on."""
    outside = set(OUTSIDE[name]) - {p.format(name=name) for p in MORE_SOURCES.get(name, ())}
    return np.array([recipe.outside or source not in outside for _, _, source in rows])


def train(name: str, rows: list[tuple[RunCase, str, str]], evidence: list[Evidence],
          recipe: Recipe, report: bool) -> dict[str, object]:
    mask = trained_on(name, rows, recipe)
    rows = [r for r, m in zip(rows, mask) if m]
    evidence = [ev for ev, m in zip(evidence, mask) if m]
    x, features = matrix(name, evidence, recipe)
    y = np.array([float(bool(case.label)) for case, _, _ in rows])
    domains = [d for _, d, _ in rows]
    bias, hand = HAND[name]
    hand_scores = np.array([bias + sum(w * ev.features.get(f, 0.0) for f, w in hand.items())
                            for ev in evidence])
    hand_fp, hand_tp = at(hand_scores, y, 0.0)
    head = fit_head(name, x, y, groups_of(name, rows, recipe), features, recipe, log=True)
    scores, cut = head.scores, head.cut
    fp, tp = at(scores, y, cut)
    if report:
        for (case, domain, source), s in zip(rows, scores):
            if (s >= cut) != bool(case.label):
                print(f"    {'FP' if s >= cut else 'FN'} {case.id} ({domain}) {s:+.2f}",
                      file=sys.stderr)
    neg, pos = int((y == 0).sum()), int(y.sum())
    by_source = {}
    for source in sorted({s for _, _, s in rows}):
        in_source = np.array([s == source for _, _, s in rows])
        f_, t_ = at(scores[in_source], y[in_source], cut)
        by_source[source] = {"false_positives": f_, "negatives": int((y[in_source] == 0).sum()),
                             "true_positives": t_, "positives": int(y[in_source].sum())}
    internal = {p.format(name=name) for p in SOURCES}
    more = [s for s in dict.fromkeys(s for _, _, s in rows) if s not in internal]
    return {
        "features": head.features,
        "weights": [round(float(v), 5) for v in head.weights],
        "bias": round(head.bias, 5),
        "penalty": head.penalties[0] if len(head.penalties) == 1 else list(head.penalties),
        **({"more_sources": more} if more else {}),
        "cases": len(rows),
        "domains": len(set(domains)),
        "lodo": {"false_positives": fp, "negatives": neg, "true_positives": tp, "positives": pos,
                 "by_source": by_source},
        "hand_rules_same_cases": {"false_positives": hand_fp, "negatives": neg,
                                  "true_positives": hand_tp, "positives": pos},
    }


Tally = tuple[int, int, int, int]  # false positives, negatives, true positives, positives


def tally(fired: np.ndarray, y: np.ndarray) -> Tally:
    return (int((fired & (y == 0)).sum()), int((y == 0).sum()), int((fired & (y == 1)).sum()),
            int(y.sum()))


def by_set(name: str, rows: list[tuple[RunCase, str, str]], evidence: list[Evidence],
           recipe: Recipe) -> dict[str, Tally]:
    """Leave-one-set-out: each outside set scored by the head ``recipe`` trains without it,
    its penalty and operating point chosen without it too."""
    x, features = matrix(name, evidence, recipe)
    y = np.array([float(bool(case.label)) for case, _, _ in rows])
    groups = groups_of(name, rows, recipe)
    trained = trained_on(name, rows, recipe)
    sources = np.array([source for _, _, source in rows])
    heads_by_mask: dict[bytes, Fitted] = {}
    out = {}
    for held in OUTSIDE[name]:
        mask = trained & (sources != held)
        key = mask.tobytes()
        if key not in heads_by_mask:
            heads_by_mask[key] = fit_head(name, x[mask], y[mask],
                                          [g for g, m in zip(groups, mask) if m], features, recipe)
        head = heads_by_mask[key]
        test = sources == held
        order = [features.index(f) for f in head.features]
        out[held] = tally(head.logits(x[test][:, order]) >= 0, y[test])
    return out


def shipped_by_set(name: str, rows: list[tuple[RunCase, str, str]],
                   evidence: list[Evidence]) -> dict[str, Tally]:
    """The heads file as it is on each outside set (in-sample where it trained on one)."""
    head = heads(HEADS_FILE)[name]
    y = np.array([float(bool(case.label)) for case, _, _ in rows])
    fired = np.array([head.logit(ev.features) >= 0 for ev in evidence])
    sources = np.array([source for _, _, source in rows])
    return {held: tally(fired[sources == held], y[sources == held]) for held in OUTSIDE[name]}


def table(name: str, columns: dict[str, dict[str, Tally]]) -> str:
    """Per outside set and pooled: false positives/negatives · true positives/positives."""
    def cell(t: Tally) -> str:
        return f"{t[0]}/{t[1]} · {t[2]}/{t[3]}"
    width = max(len(c) for c in columns) + 2
    lines = [f"{name}: leave-one-set-out, false positives · recall",
             "  " + "set".ljust(28) + "".join(c.rjust(max(width, 18)) for c in columns)]
    sets = next(iter(columns.values()))
    for held in sets:
        label = Path(held).stem.removeprefix(f"{name}_")
        lines.append("  " + label.ljust(28) + "".join(
            cell(col[held]).rjust(max(width, 18)) for col in columns.values()))
    pooled = {c: tuple(sum(t[i] for t in col.values()) for i in range(4))
              for c, col in columns.items()}
    lines.append("  " + "pooled".ljust(28) + "".join(
        cell(t).rjust(max(width, 18)) for t in pooled.values()))  # type: ignore[arg-type]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-fp", type=float, help="default: the recipe's (3.5%%)")
    parser.add_argument("--report", action="store_true", help="list the out-of-fold misses")
    parser.add_argument("--by-set", action="store_true",
                        help="leave-one-set-out on the outside sets, for every recipe")
    parser.add_argument("--recipe", choices=RECIPES, default="shipped",
                        help="the recipe that writes the file")
    parser.add_argument("--out", type=Path,
                        help=f"where to write the heads (default {HEADS_FILE.name}, only when neither "
                        "--report nor --by-set is given)")
    args = parser.parse_args(argv)
    recipe = RECIPES[args.recipe]
    if args.max_fp is not None:
        recipe = replace(recipe, max_fp=args.max_fp)
    embedder = Embedder(threads=1)
    trained: dict[str, Mapping[str, object]] = {}
    tables = []
    for name in EVIDENCE:
        rows = read(name)
        evidence = [EVIDENCE[name](case, embedder.embed) for case, _, _ in rows]
        trained[name] = train(name, rows, evidence, recipe, args.report)
        lodo = trained[name]["lodo"]
        hand = trained[name]["hand_rules_same_cases"]
        assert isinstance(lodo, dict) and isinstance(hand, dict)
        print(f"{name}: {trained[name]['cases']} cases, {trained[name]['domains']} domains; "
              f"leave-one-{'set' if recipe.by_set else 'domain'}-out FP {lodo['false_positives']}/{lodo['negatives']} recall "
              f"{lodo['true_positives']}/{lodo['positives']} (the hand-set rules on the same "
              f"cases: FP {hand['false_positives']}/{hand['negatives']} recall "
              f"{hand['true_positives']}/{hand['positives']})")
        if args.by_set:
            columns = {"heads file": shipped_by_set(name, rows, evidence)}
            columns.update({label: by_set(name, rows, evidence, r) for label, r in RECIPES.items()})
            tables.append(table(name, columns))
    for text in tables:
        print(text)
    doc = {"trained_by": "calibration/train_heads.py", "sources": list(SOURCES),
           "max_fp": recipe.max_fp, "cap": CAP, "heads": trained}
    if (out := destination(args.out, measuring=args.report or args.by_set)) is not None:
        out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return 0


def destination(out: Path | None, *, measuring: bool) -> Path | None:
    """Where the trained heads go: the file named, else the shipped one, but nowhere when
    the run only measures (``--report``, ``--by-set``)."""
    return out if out is not None else None if measuring else HEADS_FILE


if __name__ == "__main__":
    raise SystemExit(main())
