"""Train OFF_TOPIC_DRIFT's topic head and write src/semloop/judge/local/topic_head.json.

    python calibration/train_topic_head.py [--report]

The head (``semloop/judge/local/_topic.py``) is a logistic regression over the embeddings
of a run's request and of the run itself. It is trained on every outside author's drift set
whose blind figures are spent (``calibration/holdout/off_topic_drift_{blind,dev}NN*.jsonl``
up to ``OPENED``; never ``blind29`` or a newer set, which are still reported blind), each
case read into features by the judge's own code (``topic_evidence``). The features are
reduced to their ``COMPONENTS`` leading principal components, the regression is fitted by
Newton's method with an L2 ``PENALTY``, and the operating point is the score above all but
``MAX_FP`` of the training negatives. Projection, scaling and cut are folded into one weight
per feature and a bias, so the shipped head fires at log-odds >= 0. Deterministic: the sets
in sorted order, Newton from zeros; a rerun writes the same file.

``--report`` measures what a new author would see: **leave-one-author-out**. Each author's
set is scored by a head trained, projection and cut included, without it, and the table
gives false positives and recall per set and pooled, for the topic head alone, the drift
rules alone (their head at 0.5, as before the topic head, and at 0.8), and the shipped
answer: the rules at 0.8 or the topic head. The rules' figures are in-sample on most of
these sets (rounds read them); the topic head's are not.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import numpy as np
from train_heads import cut_above, fit  # calibration/, beside this script

from semloop.case import RunCase
from semloop.judge.local._drift import off_topic_evidence, topic_evidence
from semloop.judge.local._head import head_answer
from semloop.judge.local._model import Embedder
from semloop.judge.local._topic import TOPIC_FILE

ROOT = Path(__file__).resolve().parents[1]
# Outside authors' sets numbered above OPENED are still blind measures, as is blind29.
OPENED = 71
NEVER = frozenset({"blind29"})
_TAG = re.compile(r"off_topic_drift_((?:blind|dev)(\d+)[a-z]?)\.jsonl$")
COMPONENTS = 16
PENALTY = 100.0
MAX_FP = 0.01  # the cut: at most 1% of the training negatives above it
RULES_STRICT = 0.8  # where the rules fire beside the head (_drift._RULES_MARGIN)


def sources(root: Path = ROOT) -> list[tuple[str, Path]]:
    """(author tag, file) of every opened outside author's drift set, in sorted order."""
    out = []
    for path in sorted((root / "calibration" / "holdout").glob("off_topic_drift_*.jsonl")):
        m = _TAG.search(path.name)
        if m and m.group(1) not in NEVER and int(m.group(2)) <= OPENED:
            out.append((m.group(1), path))
    return out


def read(embed: Embedder) -> tuple[np.ndarray, np.ndarray, list[str], np.ndarray]:
    """Features, labels, author tags and the rules' values of every case; a case the head
    does not read (``topic_evidence`` is None: a chat, a terse request, only service said)
    has a row of NaN, is never trained on and never fired by the head."""
    rows, labels, tags, rules = [], [], [], []
    for tag, path in sources():
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            case = RunCase.from_state(row, id=str(row["id"]))
            got = topic_evidence(case, embed.embed)
            rows.append(got[0] if got is not None else None)
            labels.append(float(bool(row["label"])))
            tags.append(tag)
            rules.append(head_answer("off_topic_drift", off_topic_evidence(case, embed.embed), "").value)
    width = len(next(r for r in rows if r is not None))
    x = np.array([r if r is not None else np.full(width, np.nan) for r in rows])
    return x, np.array(labels), tags, np.array(rules)


def train(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
    """One weight per raw feature and a bias, the cut folded in (fires at >= 0), fitted on
    the rows the head reads."""
    read_ = ~np.isnan(x).any(axis=1)
    x, y = x[read_], y[read_]
    centre = x.mean(axis=0)
    _, _, vt = np.linalg.svd(x - centre, full_matrices=False)
    basis = vt[:COMPONENTS].T
    p = (x - centre) @ basis
    mean, scale = p.mean(axis=0), p.std(axis=0) + 1e-12
    w = fit((p - mean) / scale, y, PENALTY)
    weights = basis @ (w[:-1] / scale)
    bias = float(w[-1] - (centre @ basis + mean) @ (w[:-1] / scale))
    cut = cut_above(x[y == 0] @ weights + bias, MAX_FP)
    return weights, bias - cut


def report(x: np.ndarray, y: np.ndarray, tags: list[str], rules: np.ndarray) -> None:
    """Leave-one-author-out false positives and recall, per set and pooled."""
    group = np.array(tags)
    fired = np.zeros(len(y), dtype=bool)
    for tag in sorted(set(tags)):
        held = group == tag
        weights, bias = train(x[~held], y[~held])
        with np.errstate(invalid="ignore"):
            fired[held] = np.nan_to_num(x[held] @ weights + bias, nan=-1.0) >= 0
    answers = {"topic head": fired, "rules 0.5": rules >= 0.5,
               f"rules {RULES_STRICT}": rules >= RULES_STRICT,
               f"shipped: rules {RULES_STRICT} or topic": (rules >= RULES_STRICT) | fired}

    def cell(hit: np.ndarray, rows: np.ndarray) -> str:
        neg, pos = rows & (y == 0), rows & (y == 1)
        return f"{int((hit & neg).sum())}/{int(neg.sum())} · {int((hit & pos).sum())}/{int(pos.sum())}"

    print("leave-one-author-out, false positives · recall")
    print("| set | " + " | ".join(answers) + " |")
    print("|---" * (len(answers) + 1) + "|")
    for tag in sorted(set(tags), key=lambda t: (int(re.sub(r"\D", "", t)), t)):
        rows = group == tag
        print(f"| {tag} | " + " | ".join(cell(a, rows) for a in answers.values()) + " |")
    every = np.ones(len(y), dtype=bool)
    print("| all | " + " | ".join(cell(a, every) for a in answers.values()) + " |")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--report", action="store_true",
                    help="also measure the head leave-one-author-out")
    args = ap.parse_args()
    x, y, tags, rules = read(Embedder())
    unread = int(np.isnan(x).any(axis=1).sum())
    print(f"{len(y)} cases ({int(y.sum())} drifted) from {len(set(tags))} authors; the head reads "
          f"{len(y) - unread}", file=sys.stderr)
    if args.report:
        report(x, y, tags, rules)
    weights, bias = train(x, y)
    TOPIC_FILE.write_text(json.dumps({
        "evaluator": "off_topic_drift",
        "dim": len(weights) // 4,
        "features": "[q, r, q*r, |q-r|]: request vector q, mean vector r of the answer's sentences",
        "components": COMPONENTS, "penalty": PENALTY, "max_fp": MAX_FP,
        "sources": [str(p.relative_to(ROOT)) for _, p in sources()],
        "bias": round(bias, 6),
        "weights": [round(float(w), 6) for w in weights],
    }, indent=0) + "\n", encoding="utf-8")
    print(f"wrote {TOPIC_FILE.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
