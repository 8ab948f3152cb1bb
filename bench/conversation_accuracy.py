"""False positives and recall of the embedded judge's conversation answers, per set.

    .venv/bin/python bench/conversation_accuracy.py [FILE.jsonl ...] [--threshold NAME=T ...]

With no files: ``calibration/{user_frustration,confusion_loop,sycophancy_signal}.jsonl``
(those present) and the repository's own sets under ``tests/local/``. A case's evaluator is
its id's prefix (``confusion_loop-042``). Prints, per evaluator and file, FP and recall at
the recommended threshold, a sweep, the lowest threshold with no false positive, and the
cases on the wrong side.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from semloop.case import ConversationCase, Turn
from semloop.judge.local._answerer import Embed
from semloop.judge.local._conversation import (
    answer_confusion_loop,
    answer_sycophancy_signal,
    answer_user_frustration,
)
from semloop.judge.local._model import Embedder

ROOT = Path(__file__).resolve().parents[1]
ANSWERS = {
    "user_frustration": answer_user_frustration,
    "confusion_loop": answer_confusion_loop,
    "sycophancy_signal": answer_sycophancy_signal,
}
#: Recommended thresholds (docs/local-judge.md).
THRESHOLDS = {"user_frustration": 0.5, "confusion_loop": 0.5, "sycophancy_signal": 0.55}
SWEEP = (0.3, 0.4, 0.5, 0.6, 0.7)


def default_files() -> list[Path]:
    found = [ROOT / "calibration" / f"{name}.jsonl" for name in ANSWERS]
    own = sorted((ROOT / "tests" / "local").glob("conversation_*.jsonl"))
    return [p for p in found + own if p.is_file()]


def evaluator_of(row: dict[str, Any]) -> str | None:
    """The evaluator a labelled row is for: its ``evaluator`` field, or the name its id
    starts with (``user_frustration-b24-01``, ``confusion_loop-12``)."""
    named = str(row.get("evaluator") or "").lower()
    if named in ANSWERS:
        return named
    return next((name for name in ANSWERS if str(row["id"]).startswith(name + "-")), None)


def score_file(
    path: Path, embed: Embed
) -> tuple[dict[str, list[tuple[str, bool, float]]], int]:
    """Each evaluator's ``(id, label, value)`` for the labelled chats of ``path``, and how
    many rows named no conversation evaluator."""
    scored: dict[str, list[tuple[str, bool, float]]] = defaultdict(list)
    unread = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        name = evaluator_of(row)
        if name is None:
            unread += 1
            continue
        turns = tuple(Turn(t["role"], t["content"]) for t in row["turns"])
        value = ANSWERS[name](ConversationCase(str(row["id"]), turns), embed).value
        scored[name].append((str(row["id"]), bool(row["label"]), float(value)))
    return scored, unread


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--threshold", action="append", default=[], metavar="NAME=T")
    args = parser.parse_args()
    thresholds = dict(THRESHOLDS)
    for item in args.threshold:
        name, _, value = item.partition("=")
        thresholds[name.lower()] = float(value)
    embed = Embedder().embed
    for path in args.files or default_files():
        scored, unread = score_file(path, embed)
        if unread:
            print(f"{path}: {unread} row(s) name no conversation evaluator (by their "
                  "'evaluator' field or their id's prefix): not scored", file=sys.stderr)
        for name, rows in scored.items():
            neg = [v for _, label, v in rows if not label]
            pos = [v for _, label, v in rows if label]
            t = thresholds[name]
            fp, tp = sum(v >= t for v in neg), sum(v >= t for v in pos)
            print(
                f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path} {name}: "
                f"FP {fp}/{len(neg)}, recall {tp}/{len(pos)} at {t}"
            )
            sweep = ", ".join(
                f"{s}: FP {sum(v >= s for v in neg)} recall {sum(v >= s for v in pos)}"
                for s in SWEEP
            )
            print(f"  sweep  {sweep}")
            top_neg = max(neg, default=0.0)
            zero_fp = [v for v in sorted(pos) if v > top_neg]
            print(
                f"  highest negative {top_neg:.4f}; lowest zero-FP threshold keeps "
                f"{len(zero_fp)}/{len(pos)}"
            )
            for case_id, label, v in rows:
                if (v >= t) != label:
                    print(f"  wrong  {case_id} label={label} value={v:.4f}")


if __name__ == "__main__":
    main()
