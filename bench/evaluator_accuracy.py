"""False positives and recall of the embedded judge's run-level answers on labelled cases.

    python bench/evaluator_accuracy.py [--dir calibration] [--threshold 0.5] [--misses] [NAME=FILE ...]

A FILE whose rows carry ``"evaluator"`` (tests/local/run_blind2.jsonl) holds several
evaluators' cases; each NAME reads only its own. With no NAME=FILE, every run-level evaluator is measured on ``<dir>/<name>.jsonl``
(``calibration/`` of the repository by default; files that are missing are skipped and
said so). ``--misses`` lists every wrong answer
with its value and reasoning. Never point it at a held-out set while changing the rules.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from semloop.case import RunCase
from semloop.evaluate import get_evaluator
from semloop.judge._types import Answer
from semloop.judge.local._answerer import Embed
from semloop.judge.local._completion import answer_task_completion
from semloop.judge.local._drift import answer_off_topic_drift
from semloop.judge.local._grounding import answer_hallucination
from semloop.judge.local._model import Embedder
from semloop.judge.local._understanding import answer_task_understanding_failure

ROOT = Path(__file__).resolve().parents[1]
ANSWERS: dict[str, Callable[[RunCase, Embed], Answer]] = {
    "hallucination": answer_hallucination,
    "task_completion": answer_task_completion,
    "task_understanding_failure": answer_task_understanding_failure,
    "off_topic_drift": answer_off_topic_drift,
}


def read_cases(path: Path, name: str = "") -> list[RunCase]:
    """The cases of ``path``; a row that names an ``evaluator`` is read only for that one."""
    cases = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                row = json.loads(line)
                if name and row.get("evaluator", name) != name:
                    continue
                # A chat run's case keeps what the customer said later and the policy's
                # reasons (``told``, ``reasons``), as cases.py builds it.
                case = RunCase.from_state(row, id=str(row.get("id", "")))
                cases.append(replace(case, label=bool(row["label"])))
    return cases


def answer_of(name: str, case: RunCase, embed: Embed) -> Answer | None:
    """The embedded judge's answer on ``case``, or None where `semloop evaluate` leaves it
    undecided: a case with nothing to check against is never fired, whatever value the rules
    would give."""
    if getattr(get_evaluator(name), "needs_context", False) and not case.grounded:
        return None
    return ANSWERS[name](case, embed)


def measure(
    name: str, cases: list[RunCase], embed: Embed, threshold: float, misses: bool
) -> tuple[int, int, int, int]:
    fp = tp = pos = neg = undecided = 0
    negatives: list[float] = []
    positives: list[float] = []
    for case in cases:
        pos += bool(case.label)
        neg += not case.label
        got = answer_of(name, case, embed)
        if got is None:
            undecided += 1
            if misses and case.label:
                print(f"  FN {case.id} undecided  no context and no tool output")
            continue
        (positives if case.label else negatives).append(float(got.value))
        fired = float(got.value) >= threshold
        tp += fired and bool(case.label)
        fp += fired and not case.label
        if misses and fired != case.label:
            kind = "FP" if fired else "FN"
            print(f"  {kind} {case.id} {got.value:.3f}  {got.reasoning}")
    # The lowest threshold that fires on no negative, and the recall there.
    lowest = max(negatives, default=0.0) + 1e-4
    caught = sum(v >= lowest for v in positives)
    print(f"  mean value: positives {sum(positives) / max(len(positives), 1):.2f}, negatives "
          f"{sum(negatives) / max(len(negatives), 1):.2f}; highest negative "
          f"{lowest - 1e-4:.3f}, recall above it {caught}/{len(positives)}"
          + (f"; undecided (no context, never fired) {undecided}" if undecided else ""))
    return fp, neg, tp, pos


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sets", nargs="*", help="NAME=FILE (default: calibration/<name>.jsonl)")
    parser.add_argument("--dir", type=Path, default=ROOT / "calibration")
    parser.add_argument("--threshold", type=float, default=0.5)
    parser.add_argument("--misses", action="store_true")
    args = parser.parse_args()
    pairs = [s.split("=", 1) for s in args.sets] or [
        [n, str(args.dir / f"{n}.jsonl")] for n in ANSWERS
    ]
    embedder = Embedder()
    for name, file in pairs:
        path = Path(file)
        if not path.is_file():
            print(f"{name}: {path} not found, skipped")
            continue
        cases = read_cases(path, name)
        print(f"{name} ({path.name}, {len(cases)} cases, threshold {args.threshold}):")
        fp, neg, tp, pos = measure(name, cases, embedder.embed, args.threshold, args.misses)
        print(f"  false positives {fp}/{neg} ({fp / max(neg, 1):.1%}), "
              f"recall {tp}/{pos} ({tp / max(pos, 1):.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
