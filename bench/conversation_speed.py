"""How fast the embedded judge answers the three conversation evaluators.

    .venv/bin/python bench/conversation_speed.py [--cases calibration] [--repeat 3]

Times the model load (file check + onnxruntime session), then each evaluator on every
6-turn conversation of the calibration sets (``calibration/*.jsonl``; the repository's dev
set ``tests/local/conversation_dev.jsonl`` when they are absent), cold: the sentence-vector
cache is cleared before every call. Prints the median and 95th percentile per evaluator.
Target (issue 9): a 6-turn conversation at most 30 ms median, model load at most 1 s.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from semloop.case import ConversationCase, Turn
from semloop.judge.local._conversation import (
    answer_confusion_loop,
    answer_sycophancy_signal,
    answer_user_frustration,
)
from semloop.judge.local._model import Embedder
from semloop.judge.local._tone import lexicon

ROOT = Path(__file__).resolve().parents[1]
EVALUATORS = {
    "USER_FRUSTRATION": answer_user_frustration,
    "CONFUSION_LOOP": answer_confusion_loop,
    "SYCOPHANCY_SIGNAL": answer_sycophancy_signal,
}


def six_turn_cases(folder: Path) -> list[ConversationCase]:
    files = sorted(folder.glob("*.jsonl")) or [ROOT / "tests" / "local" / "conversation_dev.jsonl"]
    cases = []
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line) if line.strip() else None
            if row and "turns" in row and len(row["turns"]) == 6:
                turns = tuple(Turn(t["role"], t["content"]) for t in row["turns"])
                cases.append(ConversationCase(str(row["id"]), turns))
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=Path, default=ROOT / "calibration")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    start = time.perf_counter()
    embedder = Embedder()
    load_ms = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    lexicon()
    lexicon_ms = (time.perf_counter() - start) * 1000
    cases = six_turn_cases(args.cases)
    print(
        f"model load: {load_ms:.0f} ms; tone lexicon load: {lexicon_ms:.0f} ms; "
        f"{len(cases)} six-turn conversations, cold cache"
    )
    for name, answer in EVALUATORS.items():
        times = []
        for _ in range(args.repeat):
            for case in cases:
                embedder.clear_cache()
                t = time.perf_counter()
                answer(case, embedder.embed)
                times.append((time.perf_counter() - t) * 1000)
        p95 = statistics.quantiles(times, n=20)[-1] if len(times) > 1 else times[0]
        print(f"{name:<18} median {statistics.median(times):6.1f} ms   p95 {p95:6.1f} ms")


if __name__ == "__main__":
    main()
