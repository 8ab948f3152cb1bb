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
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from semloop.case import ConversationCase, Turn
from semloop.judge.local._conversation import (
    confusion_evidence,
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


def read_sets(name: str) -> list[tuple[str, str, ConversationCase, bool]]:
    files = [ROOT / "calibration" / f"{name}.jsonl"]
    files += [ROOT / "tests" / "local" / f"conversation_{s}.jsonl" for s in OWN]
    out = []
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            if str(row["id"]).rsplit("-", 1)[0] != name:
                continue
            turns = tuple(Turn(t["role"], t["content"]) for t in row["turns"])
            group = str(row.get("domain") or path.stem)
            case = ConversationCase(str(row["id"]), turns)
            out.append((group, path.stem, case, bool(row["label"])))
    return out


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="write the weights file")
    parser.add_argument("--only", help="one evaluator")
    parser.add_argument("--direction-l2", type=float, default=None)
    args = parser.parse_args()
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
