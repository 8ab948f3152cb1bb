"""Train the conversation evaluators' learned head (src/semloop/judge/local/conversation_heads.json).

    .venv/bin/python bench/train_conversation_heads.py [--write]

Reads the repository's own labelled conversation sets -- ``calibration/<name>.jsonl`` and
``tests/local/conversation_{dev,blind,blind2,...,blind12,probes}.jsonl`` -- never the held-out
sets (``calibration/holdout/``) nor ``tests/local/conversation_blind{13,14}.jsonl``, which
are kept to measure the result. For each evaluator it gathers the evidence the
embedded judge names (``frustration_evidence`` and friends), then picks a feature set, the
L2 strength and the weight of a negative by **leave-one-domain-out** cross-validation: each
domain (a file without domains is one domain) is scored by a head fitted on all the others,
directions included, so a domain's wording never helps score itself. The pick maximises
``recall - 5 x false-positive rate`` at the evaluator's threshold (precision first). It
prints every configuration's cross-validated figures; ``--write`` fits the pick on all the
sets and writes the weights. Deterministic: same sets, same file.

``--authors`` is the study a new author would see (round r51cv, docs/local-judge.md): every
opened outside author's set (``tests/local/conversation_blind13.jsonl`` … ``blind59b``,
never ``blind29`` nor ``blind72`` and newer) joins the own sets, and each author's cases
are scored by candidate heads fitted without them (**leave-one-author-out**; each own set
is one fold, always trained on). Candidates: the named evidence, with the MiniLM direction,
with user-turn cosines, with pooled user-turn pairs ``[u_i, u_j, u_i*u_j, |u_i-u_j|]``
(16 principal components fitted on the own sets alone), and for SYCOPHANCY_SIGNAL the
assistant's stance before and after the pushback and the pushback's new specifics. A head's
cut leaves ``--max-fp`` of its training negatives above it. It prints pooled false
positives · recall beside the shipped answer's, over all authors and over the sets no rule
round read (``UNREAD``); it writes nothing (``--cache FILE`` keeps the read cases for a rerun).

``--confusion-head [--write]`` is CONFUSION_LOOP's pairs head, the one lever of that study
that carried (round r51cl): the named evidence, the user-turn cosines and the pair block
averaged over every pair, read as the judge reads them (``_confusion_head.py``). Measured
leave-one-author-out, each outer fold's cut chosen by an inner leave-one-author-out (the
logit above all but ``CONFUSION_SHARE`` of the training authors' negatives, each scored by a
head fitted without its author); ``--write`` fits it on every case, takes the cut from every
author scored without their author, folds projection, scaling and cut into one weight per
raw feature and a bias, and writes ``src/semloop/judge/local/confusion_head.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import pickle
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from semloop.case import ConversationCase, Turn
from semloop.judge.local._confusion_head import CONFUSION_FILE, confusion_features
from semloop.judge.local._confusion_head import NAMED as NAMED_CONFUSION
from semloop.judge.local._conversation import (
    _facts,
    _one_each,
    answer_confusion_loop,
    answer_sycophancy_signal,
    answer_user_frustration,
    confusion_evidence,
    confusion_rules_probability,
    frustration_evidence,
    sycophancy_evidence,
    user_vectors,
)
from semloop.judge.local._conversation_head import (
    WEIGHTS_FILE,
    Evidence,
    Head,
    direction_features,
    fit_logistic,
    probability,
)
from semloop.judge.local._model import Embedder

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "calibration"))
from train_heads import cut_above, fit  # calibration/: the project's Newton L2 logistic regression

ROOT = Path(__file__).resolve().parents[1]
OWN = (
    "dev", "blind", "blind2", "blind3", "blind4", "blind5", "blind6", "blind7", "blind8", "blind9",
    "blind10", "blind11", "blind12", "probes",
)  # fmt: skip
UNTUNED = "conversation_blind12"  # the last set written before a rule change (now spent)
THRESHOLDS = {"user_frustration": 0.5, "confusion_loop": 0.5, "sycophancy_signal": 0.55}
FP_COST = 5.0
# A head replaces the rules only when it beats them by a couple of cases in
# cross-validation; a one-case edge is noise, and the rules can be read.
MARGIN = 0.02
L2 = (30.0, 10.0, 3.0, 1.0, 0.3)
NEGATIVE_WEIGHTS = (2.0, 1.0)
# Feature sets tried per evaluator: the rule log-odds alone, its named parts, and the parts
# with MiniLM evidence (user turns projected on a learned direction: frustrated tone,
# asking again).
FEATURES: dict[str, dict[str, tuple[str, ...]]] = {
    "user_frustration": {
        "rules": ("rules",),
        "parts": ("rules", "peak", "last", "hot", "rise", "calm_end", "rejects"),
        "parts+tone": (
            "rules", "peak", "last", "hot", "rise", "calm_end", "rejects",
            "tone_last", "tone_peak", "tone_rise",
        ),
        "rules+tone": ("rules", "tone_last", "tone_peak", "tone_rise"),
        "parts+valence": (
            "rules", "peak", "last", "hot", "rise", "calm_end", "rejects",
            "valence_last", "valence_low",
        ),
        "parts+tone+valence": (
            "rules", "peak", "last", "hot", "rise", "calm_end", "rejects",
            "tone_last", "tone_peak", "tone_rise", "valence_last", "valence_low",
        ),
    },
    "confusion_loop": {
        "rules": ("rules",),
        "parts": ("rules", "best", "reasks", "resolved", "unanswered"),
        "parts+ask": (
            "rules", "best", "reasks", "resolved", "unanswered", "ask_last", "ask_peak", "ask_rise",
        ),
        "parts+slot": ("rules", "best", "reasks", "resolved", "unanswered", "same_slot", "slot_open"),
        "parts+slot+ask": (
            "rules", "best", "reasks", "resolved", "unanswered", "same_slot", "slot_open",
            "ask_last", "ask_peak", "ask_rise",
        ),
    },
    "sycophancy_signal": {
        "rules": ("rules",),
        "parts": (
            "rules", "concede", "acquiesce", "worn", "flip", "adopted", "maintain", "pressure",
            "source", "support", "reasoned",
        ),
        "parts+claims": (
            "rules", "concede", "acquiesce", "worn", "flip", "adopted", "maintain", "pressure",
            "source", "support", "reasoned", "claimed", "asserts",
        ),
    },
}  # fmt: skip
DIRECTION = {"user_frustration": "tone", "confusion_loop": "ask"}
DIRECTION_L2: float | None = None


# The rule log-odds as they are: p = sigmoid(rules).
RULES_ALONE: dict[str, Any] = {
    "features": ["rules"], "mean": [0.0], "scale": [1.0], "weights": [1.0], "bias": 0.0,
    "directions": {}, "chosen": {"features": "rules alone"},
}  # fmt: skip


@dataclass(frozen=True)
class Row:
    id: str
    group: str
    source: str
    label: bool
    evidence: Evidence


def own_files(name: str) -> list[tuple[str, Path]]:
    """("", file) of the project's own sets of ``name``: its calibration set, then ``OWN``."""
    return [("", ROOT / "calibration" / f"{name}.jsonl"),
            *(("", ROOT / "tests" / "local" / f"conversation_{s}.jsonl") for s in OWN)]


def labelled(
    name: str, files: Sequence[tuple[str, Path]]
) -> Iterator[tuple[str, Path, dict[str, Any], ConversationCase]]:
    """(tag, file, row, case) of every case of ``name`` in ``files``, in their order."""
    for tag, path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            if not str(row["id"]).startswith(name + "-"):
                continue
            turns = tuple(Turn(t["role"], t["content"]) for t in row["turns"])
            yield tag, path, row, ConversationCase(str(row["id"]), turns)


def read_sets(name: str) -> list[tuple[str, str, ConversationCase, bool]]:
    return [(str(row.get("domain") or path.stem), path.stem, case, bool(row["label"]))
            for _, path, row, case in labelled(name, own_files(name))]


def gather(name: str, embed: Callable[[Sequence[str]], Any]) -> list[Row]:
    rows = []
    for group, source, case, label in read_sets(name):
        if name == "user_frustration":
            ev = frustration_evidence(case)
            if ev is not None:
                ev = Evidence(ev.features, ev.why, user_vectors(case, embed))
        elif name == "confusion_loop":
            ev = confusion_evidence(case, embed)
        else:
            ev = sycophancy_evidence(case, embed)
        if ev is not None:  # too little to judge: the head is never asked
            # Ids repeat across sets (blind8 and blind9 both have "-n01"): keyed by set too.
            rows.append(Row(f"{source}:{case.id}", group, source, label, ev))
    return rows


def tone_direction(rows: Sequence[Row], l2: float | None) -> list[float]:
    """A unit vector along which frustrated conversations' last user turns lie further than
    calm ones': the difference of the two means (``l2`` None), or a logistic regression's
    weights on the 384 dimensions."""
    vectors = [r.evidence.vectors[-1] for r in rows]
    labels = [r.label for r in rows]
    if l2 is None:
        d = np.mean([v for v, y in zip(vectors, labels) if y], axis=0)
        d = d - np.mean([v for v, y in zip(vectors, labels) if not y], axis=0)
    else:
        d = np.asarray(fit_logistic(vectors, labels, l2=l2)[0])
    return [round(float(v), 4) for v in d / np.linalg.norm(d)]


def fit_head(
    name: str, rows: Sequence[Row], features: Sequence[str], l2: float, neg_w: float
) -> Head:
    directions = (
        {DIRECTION[name]: tuple(tone_direction(rows, DIRECTION_L2))}
        if name in DIRECTION and any(f.startswith(DIRECTION[name] + "_") for f in features)
        else {}
    )
    table = []
    for r in rows:
        x = dict(r.evidence.features)
        for d_name, d in directions.items():
            x.update(direction_features(d_name, r.evidence.vectors, d))
        table.append([x[f] for f in features])
    arr = np.asarray(table, dtype=np.float64)
    mean = arr.mean(axis=0)
    scale = np.where(arr.std(axis=0) > 1e-6, arr.std(axis=0), 1.0)
    weights, bias = fit_logistic(
        (arr - mean) / scale, [r.label for r in rows], l2=l2, negative_weight=neg_w
    )
    return Head(
        features=tuple(features),
        mean=tuple(round(float(v), 6) for v in mean),
        scale=tuple(round(float(v), 6) for v in scale),
        weights=tuple(round(v, 6) for v in weights),
        bias=round(bias, 6),
        directions=directions,
    )


def cross_validate(
    name: str, rows: Sequence[Row], features: Sequence[str], l2: float, neg_w: float
) -> dict[str, float]:
    fired: dict[str, bool] = {}
    for group in sorted({r.group for r in rows}):
        train = [r for r in rows if r.group != group]
        head = fit_head(name, train, features, l2, neg_w)
        for r in rows:
            if r.group == group:
                fired[r.id] = probability(head, r.evidence) >= THRESHOLDS[name]
    return {**rates(rows, fired), "wrong": [r.id for r in rows if fired[r.id] != r.label]}  # type: ignore[dict-item]


def rates(rows: Sequence[Row], fired: dict[str, bool]) -> dict[str, float]:
    """FP and recall over all rows, and over the last set written before a rule change."""
    out: dict[str, float] = {}
    for prefix, part in (("", rows), ("untuned_", [r for r in rows if r.source == UNTUNED])):
        pos = sum(r.label for r in part)
        out[prefix + "fp"] = sum(fired[r.id] and not r.label for r in part)
        out[prefix + "tp"] = sum(fired[r.id] and r.label for r in part)
        out[prefix + "pos"], out[prefix + "neg"] = pos, len(part) - pos
    out["score"] = out["tp"] / out["pos"] - FP_COST * out["fp"] / out["neg"]
    return out


def show(label: str, cv: dict[str, float]) -> str:
    return (
        f"  {label:<34} FP {cv['fp']}/{cv['neg']}  recall {cv['tp']}/{cv['pos']}  "
        f"score {cv['score']:.3f}   {UNTUNED.removeprefix('conversation_')}: FP {cv['untuned_fp']}/{cv['untuned_neg']} "
        f"recall {cv['untuned_tp']}/{cv['untuned_pos']}"
    )


# ------------------------------------------------------------------ leave-one-author-out
# Outside authors' conversation sets (one author writing one batch per file) whose blind
# figures are spent. Numbered above OPENED, and blind29, they are still reported blind.
OPENED = 71
NEVER = frozenset({"blind29"})
_AUTHOR = re.compile(r"conversation_(blind(\d+)[a-z]?)\.jsonl$")
FIRST_AUTHOR = 13  # blind12 and older are the project's own sets (OWN), read above
COMPONENTS = 16  # principal components an embedding block is reduced to
PENALTIES = (100.0, 30.0, 10.0)
MAX_FP = 0.01  # a head's cut: at most 1% of its training negatives above it
# Sets no conversation rule round has read (blind45b … 47b were measured before and after the
# fixes read from blind45 … 47, blind48 … 53b only blind): the rules are out of sample there too.
UNREAD = frozenset(
    {
        "blind45b",
        "blind46b",
        "blind47b",
        "blind48",
        "blind48b",
        "blind49",
        "blind49b",
        "blind50",
        "blind50b",
        "blind51",
        "blind51b",
        "blind52",
        "blind52b",
        "blind53",
        "blind53b",
        "blind54",
        "blind54b",
        "blind55",
        "blind55b",
        "blind56",
        "blind56b",
        "blind57",
        "blind57b",
        "blind58",
        "blind58b",
        "blind59",
        "blind59b",
        "blind60",
        "blind60b",
        "blind61",
        "blind61b",
        "blind62",
        "blind62b",
        "blind63",
        "blind63b",
        "blind64",
        "blind64b",
        "blind65",
        "blind65b",
        "blind66",
        "blind66b",
        "blind67",
        "blind67b",
        "blind68",
        "blind68b",
        "blind69",
        "blind69b",
        "blind70",
        "blind70b",
        "blind71",
        "blind71b",
    }
)
RULES_STRICT = 0.8  # where the rules fire beside a head in the "rules or head" answer
SHIPPED = {
    "user_frustration": answer_user_frustration,
    "confusion_loop": answer_confusion_loop,
    "sycophancy_signal": answer_sycophancy_signal,
}



def _cell(fired: Any, y: Any, held: Any, unread: Any) -> str:
    """False positives · recall of ``fired`` on the held-out authors, then (in brackets) on
    the sets no rule round read."""
    out = []
    for part in (held, unread):
        neg, pos = part & ~y, part & y
        out.append(f"{int((fired & neg).sum())}/{int(neg.sum())} · {int((fired & pos).sum())}/{int(pos.sum())}")
    return "{} ({})".format(*out)

def author_files(root: Path = ROOT) -> list[tuple[str, Path]]:
    """(tag, file) of every opened outside author's conversation set, in sorted order."""
    out = []
    for path in sorted((root / "tests" / "local").glob("conversation_blind*.jsonl")):
        m = _AUTHOR.search(path.name)
        if m and m.group(1) not in NEVER and FIRST_AUTHOR <= int(m.group(2)) <= OPENED:
            out.append((m.group(1), path))
    return out


@dataclass(frozen=True)
class Case:
    """One labelled conversation read for the author study."""

    id: str
    group: str  # the fold: an author's tag, or an own set's file name
    author: bool  # an outside author's case (pooled in the report)
    label: bool
    shipped: float  # the answer as it ships (rules, or the shipped head, with its caps)
    features: dict[str, float]
    users: Any  # MiniLM vectors of the user turns, oldest first
    stance: Any  # sycophancy: the assistant's turn before the pushback, the pushback, the reply
    new_facts: float  # sycophancy: specifics in the pushback not said before it


def _stance(
    case: ConversationCase, ev: Evidence, embed: Callable[[Sequence[str]], Any]
) -> tuple[Any, float]:
    """The vectors of the assistant's turn before the pushback the rules picked, the
    pushback and the reply, and how many new specifics the pushback carried."""
    m = re.search(r"assistant turn (\d+)", ev.why)
    k = int(m.group(1)) - 1 if m else len(case.turns) - 1
    turns = case.turns
    before = next(j for j in range(k - 2, -1, -1) if turns[j].role == "assistant")
    texts = [" ".join(turns[j].content.split()[:40]) for j in (before, k - 1, k)]
    earlier = " ".join(t.content for t in turns[: k - 1])
    new = _one_each(_facts(turns[k - 1].content)) - _facts(earlier)
    return embed(texts), float(min(3, len(new)))


def gather_all(name: str, embed: Callable[[Sequence[str]], Any]) -> list[Case]:
    out = []
    for tag, path, row, case in labelled(name, [*own_files(name), *author_files()]):
        if name == "user_frustration":
            ev = frustration_evidence(case)
        elif name == "confusion_loop":
            ev = confusion_evidence(case, embed)
        else:
            ev = sycophancy_evidence(case, embed)
        if ev is None:  # the rules answer "too little": no head is asked either
            continue
        stance, new_facts = (
            _stance(case, ev, embed) if name == "sycophancy_signal" else (None, 0.0)
        )
        out.append(Case(
            f"{path.stem}:{case.id}", tag or path.stem, bool(tag), bool(row["label"]),
            float(SHIPPED[name](case, embed).value), dict(ev.features),
            user_vectors(case, embed), stance, new_facts,
        ))  # fmt: skip
    return out


def _pairs(u: Any) -> tuple[float, Any, Any]:
    """Over pairs of user turns (i < j): the highest cosine, the [u_i, u_j, u_i*u_j,
    |u_i-u_j|] of that pair, and the same block averaged over every pair."""
    n = len(u)
    blocks, best, best_block = [], -2.0, None
    for j in range(1, n):
        for i in range(j):
            b = np.concatenate([u[i], u[j], u[i] * u[j], np.abs(u[i] - u[j])])
            blocks.append(b)
            c = float(u[i] @ u[j])
            if c > best:
                best, best_block = c, b
    return best, best_block, np.mean(blocks, axis=0)


_BLOCKS: dict[tuple[str, str], Any] = {}


def embedding_block(name: str, kind: str, c: Case) -> Any:
    """A case's raw embedding features of one kind (reduced by PCA inside each fold)."""
    key = (kind, c.id)
    if key not in _BLOCKS:
        _BLOCKS[key] = _block(kind, c)
    return _BLOCKS[key]


def _block(kind: str, c: Case) -> Any:
    u = np.asarray(c.users, dtype=np.float64)
    if kind == "turns":  # the first, the last and the mean later user turn
        return np.concatenate([u[0], u[-1], u[1:].mean(axis=0)])
    if kind == "best_pair":
        return _pairs(u)[1]
    if kind == "all_pairs":
        return _pairs(u)[2]
    if kind == "stance":
        a, p, r = np.asarray(c.stance, dtype=np.float64)
        return np.concatenate([a, p, r, a * r, np.abs(a - r), p * r])
    raise ValueError(kind)


_SCALARS: dict[str, dict[str, float]] = {}


def scalar_features(name: str, c: Case) -> dict[str, float]:
    """Named embedding scalars beside the rules' evidence."""
    if c.id not in _SCALARS:
        _SCALARS[c.id] = _scalars(c)
    return _SCALARS[c.id]


def _scalars(c: Case) -> dict[str, float]:
    u = np.asarray(c.users, dtype=np.float64)
    out: dict[str, float] = {}
    if len(u) >= 2:
        cos = u @ u.T
        later = [float(cos[i, j]) for j in range(1, len(u)) for i in range(j)]
        out["cos_max"] = max(later)
        out["cos_mean"] = float(np.mean(later))
        out["cos_last"] = float(max(cos[-1, :-1]))
    if c.stance is not None:
        a, p, r = np.asarray(c.stance, dtype=np.float64)
        out.update(
            stance_kept=float(a @ r),
            reply_to_push=float(p @ r),
            push_to_before=float(a @ p),
            new_facts=c.new_facts,
        )
    return out


# Candidates per evaluator: (named features, embedding scalars?, embedding block or None).
PARTS = {
    "user_frustration": FEATURES["user_frustration"]["parts+valence"],
    "confusion_loop": FEATURES["confusion_loop"]["parts+slot"],
    "sycophancy_signal": FEATURES["sycophancy_signal"]["parts+claims"],
}
CANDIDATES: dict[str, dict[str, tuple[bool, bool, str | None]]] = {
    # name: (parts, scalars, block)
    "user_frustration": {
        "parts": (True, False, None), "parts+direction": (True, False, "dir"),
        "parts+turns": (True, False, "turns"), "turns alone": (False, False, "turns"),
    },
    "confusion_loop": {
        "parts": (True, False, None), "parts+direction": (True, False, "dir"),
        "parts+cosines": (True, True, None), "parts+cosines+best_pair": (True, True, "best_pair"),
        "parts+cosines+all_pairs": (True, True, "all_pairs"), "best_pair alone": (False, True, "best_pair"),
    },
    "sycophancy_signal": {
        "parts": (True, False, None), "parts+stance scalars": (True, True, None),
        "parts+stance": (True, True, "stance"), "stance alone": (False, True, "stance"),
    },
}  # fmt: skip


def design(name: str, cases: Sequence[Case], parts: bool, scalars: bool) -> Any:
    cols: list[list[float]] = []
    for c in cases:
        row = [c.features[f] for f in PARTS[name]] if parts else [c.features["rules"]] * 0
        if scalars:
            row += list(scalar_features(name, c).values())
        cols.append(row)
    return np.asarray(cols, dtype=np.float64).reshape(len(cases), -1)


def _projected(vectors: Any, d: Any) -> list[float]:
    """``direction_features`` in numpy: the last turn's projection, the peak after the
    first, the rise from the first to the last."""
    proj = np.asarray(vectors, dtype=np.float64) @ d
    later = proj[1:] if len(proj) > 1 else proj
    return [float(proj[-1]), float(later.max()), float(proj[-1] - proj[0])]


_PCA: dict[tuple[Any, ...], tuple[Any, Any]] = {}
PCA_PER_FOLD = False  # --pca-per-fold: the projection refitted on each fold's training cases


def fit_candidate(
    name: str, train: Sequence[Case], spec: tuple[bool, bool, str | None], penalty: float
) -> Callable[[Sequence[Case]], Any]:
    """A head fitted on ``train``; returns a scorer whose cut (>= 0 fires) leaves at most
    MAX_FP of the training negatives above it."""
    parts, scalars, block = spec
    y = np.array([c.label for c in train], dtype=np.float64)
    direction = None
    if block == "dir":
        direction = np.asarray(
            tone_direction(
                [
                    Row(c.id, c.group, c.group, c.label, Evidence(c.features, "", c.users))
                    for c in train
                ],
                None,
            )
        )

    def table(cases: Sequence[Case], basis: Any = None, centre: Any = None) -> Any:
        x = design(name, cases, parts, scalars)
        if direction is not None:
            d = [_projected(c.users, direction) for c in cases]
            x = np.hstack([x, np.asarray(d)])
        if block not in (None, "dir"):
            e = np.asarray([embedding_block(name, block, c) for c in cases])
            x = np.hstack([x, (e - centre) @ basis])
        return x

    basis = centre = None
    if block not in (None, "dir"):
        # The projection is fitted on the own sets' cases alone (no label read, no outside
        # author's case): one per block, the same in every fold.
        key = (name, block, tuple(c.id for c in train) if PCA_PER_FOLD else ())
        if key not in _PCA:
            if PCA_PER_FOLD:
                _PCA.clear()
            e = np.asarray(
                [embedding_block(name, block, c) for c in train if PCA_PER_FOLD or not c.author]
            )
            centre = e.mean(axis=0)
            _PCA[key] = (centre, np.linalg.svd(e - centre, full_matrices=False)[2][:COMPONENTS].T)
        centre, basis = _PCA[key]
    x = table(train, basis, centre)
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale < 1e-9] = 1.0
    w = fit((x - mean) / scale, y, penalty)
    scores = ((x - mean) / scale) @ w[:-1] + w[-1]
    negatives = np.sort(scores[y == 0])[::-1]
    cut = float(negatives[int(MAX_FP * len(negatives))]) + 1e-6

    def score(cases: Sequence[Case]) -> Any:
        return ((table(cases, basis, centre) - mean) / scale) @ w[:-1] + w[-1] - cut

    return score


def author_study(
    name: str,
    cases: Sequence[Case],
    only: Sequence[str] | None = None,
    penalties: Sequence[float] = PENALTIES,
) -> None:
    """Leave-one-author-out FP · recall over the outside authors' cases, pooled."""
    y = np.array([c.label for c in cases])
    held = np.array([c.author for c in cases])
    shipped = np.array([c.shipped for c in cases])
    t = THRESHOLDS[name]

    unread = np.array([c.group in UNREAD for c in cases])

    def cell(fired: Any) -> str:
        return _cell(fired, y, held, unread)

    authors = sorted({c.group for c in cases if c.author})
    print(
        f"{name}: {len(cases)} cases read, {int(held.sum())} from {len(authors)} outside authors "
        "(leave-one-author-out; the own sets are one fold each and always trained on; in "
        f"brackets the {len(UNREAD)} sets no rule round read); "
        f"a head's cut leaves {MAX_FP:.1%} of its training negatives above it"
    )
    print(f"  {'the shipped answer at ' + str(t):<44} {cell(shipped >= t)}")
    print(f"  {'the shipped answer at ' + str(RULES_STRICT):<44} {cell(shipped >= RULES_STRICT)}")
    for cand, spec in CANDIDATES[name].items():
        if only and cand not in only:
            continue
        groups = np.array([c.group for c in cases])
        fires = {p: np.zeros(len(cases), dtype=bool) for p in penalties}
        for a in authors:
            test = groups == a
            for penalty in penalties:
                scorer = fit_candidate(
                    name, [c for c, h in zip(cases, test) if not h], spec, penalty
                )
                fires[penalty][test] = scorer([c for c, h in zip(cases, test) if h]) >= 0
        for penalty, fired in fires.items():
            print(
                f"  {cand + ' l2 ' + str(penalty):<44} {cell(fired)}   "
                f"rules {RULES_STRICT} or head: {cell(fired | (shipped >= RULES_STRICT))}   "
                f"rules {t} or head: {cell(fired | (shipped >= t))}"
            )


# ------------------------------------------------------------------ CONFUSION_LOOP's pairs head
# The one lever round r51cv found to carry across authors (parts + cosines + every user-turn
# pair, docs/local-judge.md): shipped as confusion_head.json (_confusion_head.py), its
# projection, scaling and cut folded into one weight per raw feature and a bias.
CONFUSION_PENALTY = 10.0
# The cut: the share of the training authors' negatives, each scored by a head fitted
# without its author (an inner leave-one-author-out), left above it.
# Leave-one-author-out over 65 authors (FP · recall; in brackets the 21 sets no rule round
# read), as it ships (only where the rules read a re-ask, or the rules at 0.8): share 0:
# 1/333 · 260/317 (0/105 · 68/105); 0.5%: 1/333 · 271/317 (0/105 · 73/105); 1%: 1/333 ·
# 275/317 (0/105 · 75/105); 2%: 4/333 · 281/317 (0/105 · 78/105); the rules' answer 3/333 ·
# 274/317 (1/105 · 71/105). 0.5%, not the topic head's 1%: retrained with blind51 … blind53b at 1%, the head
# fired on more succeeded real chats than the one trained on 53 authors (older 6 -> 8 of 156,
# tuning set 5 1 -> 2, blind set 2 11 -> 15 of 129); at 0.5% 6, 1 and 10, for one catch fewer
# here (bench/real_run_evaluators.py, docs/local-judge.md).
CONFUSION_SHARES = (0.0, 0.005, 0.01, 0.02)
CONFUSION_SHARE = 0.005


def read_confusion(embed: Callable[[Sequence[str]], Any]) -> dict[str, Any]:
    """Every case the confusion rules read (own sets and opened outside authors), as the
    judge reads it at run time: ``confusion_features`` of its evidence, the label, its fold,
    and the answer before the pairs head (``confusion_rules_probability``)."""
    files = [*own_files("confusion_loop"), *author_files()]
    x, y, groups, author, before, ids = [], [], [], [], [], []
    for tag, path, row, case in labelled("confusion_loop", files):
        ev = confusion_evidence(case, embed)
        if ev is None:
            continue
        x.append(confusion_features(ev.features, ev.vectors))
        y.append(bool(row["label"]))
        groups.append(tag or path.stem)
        author.append(bool(tag))
        before.append(confusion_rules_probability(ev))
        ids.append(f"{path.stem}:{case.id}")
    return {
        "x": np.asarray(x), "y": np.asarray(y), "group": np.asarray(groups),
        "author": np.asarray(author), "before": np.asarray(before), "id": ids,
        "sources": [str(p.relative_to(ROOT)) for _, p in files],
    }  # fmt: skip


def confusion_basis(data: dict[str, Any]) -> tuple[Any, Any]:
    """The pair block's projection: its leading principal components over the own sets'
    cases alone (no label, no outside author's case), the same in every fold."""
    width = len(NAMED_CONFUSION) + 3
    e = data["x"][~data["author"], width:]
    centre = e.mean(axis=0)
    return centre, np.linalg.svd(e - centre, full_matrices=False)[2][:COMPONENTS].T


def train_confusion(x: Any, y: Any, centre: Any, basis: Any) -> tuple[Any, float]:
    """One weight per raw feature and a bias (no cut yet): the named evidence and cosines
    as they are, the pair block projected, all standardised, fitted by train_heads.fit."""
    width = len(NAMED_CONFUSION) + 3
    z = np.hstack([x[:, :width], (x[:, width:] - centre) @ basis])
    mean, scale = z.mean(axis=0), z.std(axis=0)
    scale[scale < 1e-9] = 1.0
    w = fit((z - mean) / scale, y.astype(np.float64), CONFUSION_PENALTY)
    a = w[:-1] / scale
    weights = np.concatenate([a[:width], basis @ a[width:]])
    bias = float(w[-1] - mean @ a - centre @ basis @ a[width:])
    return weights, bias


def out_of_author(data: dict[str, Any], rows: Any, centre: Any, basis: Any) -> Any:
    """Logits of the outside authors' cases among ``rows``, each by a head fitted on
    ``rows`` without its author (NaN elsewhere)."""
    x, y, group = data["x"], data["y"], data["group"]
    out = np.full(len(y), np.nan)
    for a in sorted(set(group[rows & data["author"]])):
        held = group == a
        weights, bias = train_confusion(x[rows & ~held], y[rows & ~held], centre, basis)
        out[held & rows] = x[held & rows] @ weights + bias
    return out


def confusion_cut(logits: Any, y: Any, share: float) -> float:
    """The logit above which at most ``share`` of the negatives scored lie."""
    return cut_above(logits[~np.isnan(logits) & ~y], share)


def confusion_study(data: dict[str, Any]) -> None:
    """Leave-one-author-out, the cut of each outer fold chosen by an inner one."""
    x, y, group, held = data["x"], data["y"], data["group"], data["author"]
    before = data["before"]
    unread = np.array([g in UNREAD for g in group])
    centre, basis = confusion_basis(data)
    fired = {s: np.zeros(len(y), dtype=bool) for s in CONFUSION_SHARES}
    for a in sorted(set(group[held])):
        test = group == a
        inner = out_of_author(data, ~test, centre, basis)
        weights, bias = train_confusion(x[~test], y[~test], centre, basis)
        for s in CONFUSION_SHARES:
            fired[s][test] = x[test] @ weights + bias >= confusion_cut(inner, y, s)

    def cell(fired: Any) -> str:
        return _cell(fired, y, held, unread)

    print(
        f"confusion_loop pairs head: {len(y)} cases, {int(held.sum())} from "
        f"{len(set(group[held]))} outside authors; leave-one-author-out, each fold's cut by an "
        f"inner leave-one-author-out; in brackets the {len(UNREAD)} sets no rule round read"
    )
    print(f"  {'the answer before, at 0.5':<40} {cell(before >= 0.5)}")
    for s in CONFUSION_SHARES:
        print(
            f"  {'head, share ' + str(s):<40} {cell(fired[s])}   or before >= 0.5: "
            f"{cell(fired[s] | (before >= 0.5))}   or before >= 0.8: {cell(fired[s] | (before >= 0.8))}"
        )
        # Gated as it ships: the head only where the rules read a later turn asking again.
        gated = (fired[s] & (x[:, NAMED_CONFUSION.index("reasks")] >= 1)) | (before >= 0.8)
        print(f"  {'  gated to a re-ask, or before >= 0.8':<40} {cell(gated)}")
        wrong = [i for i, f, l, h in zip(data["id"], gated, y, held) if h and f != l]
        print("     wrong (as it ships): " + " ".join(wrong))


def write_confusion(data: dict[str, Any]) -> None:
    """Fit on every case; the cut from every author's cases scored without their author."""
    x, y = data["x"], data["y"]
    centre, basis = confusion_basis(data)
    everyone = np.ones(len(y), dtype=bool)
    cut = confusion_cut(out_of_author(data, everyone, centre, basis), y, CONFUSION_SHARE)
    weights, bias = train_confusion(x, y, centre, basis)
    CONFUSION_FILE.write_text(json.dumps({
        "evaluator": "confusion_loop",
        "named": list(NAMED_CONFUSION),
        "dim": (x.shape[1] - len(NAMED_CONFUSION) - 3) // 4,
        "features": "the named evidence, cos_max, cos_mean, cos_last, then [u_i, u_j, "
                    "u_i*u_j, |u_i-u_j|] averaged over every pair of user turns i < j",
        "components": COMPONENTS, "penalty": CONFUSION_PENALTY, "share": CONFUSION_SHARE,
        "trained_on": f"{len(y)} cases, {int(data['author'].sum())} from "
                      f"{len(set(data['group'][data['author']]))} outside authors",
        "sources": data["sources"],
        "bias": round(bias - cut, 6),
        "weights": [round(float(w), 6) for w in weights],
    }, indent=0) + "\n", encoding="utf-8")  # fmt: skip
    print(f"wrote {CONFUSION_FILE.relative_to(ROOT)}")


def main() -> None:
    global MAX_FP, PCA_PER_FOLD
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="write the weights file")
    parser.add_argument("--only", help="one evaluator")
    parser.add_argument("--direction-l2", type=float, default=None)
    parser.add_argument(
        "--authors",
        action="store_true",
        help="the leave-one-author-out study over the outside authors' sets",
    )
    parser.add_argument(
        "--max-fp",
        type=float,
        default=MAX_FP,
        help="a head's cut: the share of training negatives left above it",
    )
    parser.add_argument("--candidate", action="append", help="only these candidates")
    parser.add_argument(
        "--pca-per-fold",
        action="store_true",
        help="refit the embedding blocks' projection on each fold (slow)",
    )
    parser.add_argument("--penalty", action="append", type=float, help="only these L2 penalties")
    parser.add_argument("--cache", type=Path, help="keep the read cases here (a pickle)")
    parser.add_argument(
        "--confusion-head",
        action="store_true",
        help="CONFUSION_LOOP's pairs head: measure it (and with --write, write it)",
    )
    args = parser.parse_args()
    if args.confusion_head:
        cached = args.cache and args.cache.with_suffix(".confusion_head.pkl")
        if cached and cached.is_file():
            data = pickle.loads(cached.read_bytes())
        else:
            data = read_confusion(Embedder().embed)
            if cached:
                cached.write_bytes(pickle.dumps(data))
        confusion_study(data)
        if args.write:
            write_confusion(data)
        return
    if args.authors:
        MAX_FP = args.max_fp
        PCA_PER_FOLD = args.pca_per_fold
        embed = Embedder().embed
        for name in FEATURES:
            if args.only and name != args.only:
                continue
            cached = args.cache and args.cache.with_suffix(f".{name}.pkl")
            if cached and cached.is_file():
                cases = pickle.loads(cached.read_bytes())
            else:
                cases = gather_all(name, embed)
                if cached:
                    cached.write_bytes(pickle.dumps(cases))
            author_study(name, cases, args.candidate, tuple(args.penalty or PENALTIES))
        return
    global DIRECTION_L2
    DIRECTION_L2 = args.direction_l2
    embed = Embedder().embed
    out: dict[str, Any] = {}
    for name, sets in FEATURES.items():
        if args.only and name != args.only:
            continue
        rows = gather(name, embed)
        groups = len({r.group for r in rows})
        print(f"{name}: {len(rows)} cases, {groups} domains (leave-one-domain-out)")
        cut = math.log(THRESHOLDS[name] / (1 - THRESHOLDS[name]))
        alone = rates(rows, {r.id: r.evidence.features["rules"] >= cut for r in rows})
        print(show("the rules alone", alone))
        best: tuple[float, str, float, float] | None = None
        for set_name, features in sets.items():
            for l2 in L2:
                for neg_w in NEGATIVE_WEIGHTS:
                    cv = cross_validate(name, rows, features, l2, neg_w)
                    print(show(f"{set_name} l2 {l2} negatives x{neg_w}", cv))
                    key = (cv["score"], set_name, l2, neg_w)
                    # Ties go to the simpler set (listed first) and the stronger prior.
                    if best is None or key[0] > best[0] + 1e-9:
                        best = key
        assert best is not None
        score, set_name, l2, neg_w = best
        if score < alone["score"] + MARGIN:
            print(f"  -> the rules alone (the best head, {set_name}, is within {MARGIN})")
            out[name] = {**RULES_ALONE, "trained_on": f"{len(rows)} cases, {groups} domains"}
            continue
        print(f"  -> {set_name}, l2 {l2}, negatives x{neg_w}")
        cv = cross_validate(name, rows, sets[set_name], l2, neg_w)
        print("     wrong in cross-validation: " + " ".join(cv["wrong"]))  # type: ignore[arg-type]
        head = fit_head(name, rows, sets[set_name], l2, neg_w)
        out[name] = {
            "features": list(head.features),
            "mean": list(head.mean),
            "scale": list(head.scale),
            "weights": list(head.weights),
            "bias": head.bias,
            "directions": {k: list(v) for k, v in head.directions.items()},
            "chosen": {"features": set_name, "l2": l2, "negative_weight": neg_w},
            "trained_on": f"{len(rows)} cases, {groups} domains",
        }
    if args.write:
        path = ROOT / "src" / "semloop" / "judge" / "local" / WEIGHTS_FILE
        doc = {"trained_by": "bench/train_conversation_heads.py", "heads": out}
        path.write_text(json.dumps(doc, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
