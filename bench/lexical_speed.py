"""Time semloop's lexical port against deepeval's AgentLoopDetectionMetric, in one run.

    .venv/bin/python bench/lexical_speed.py [--repeat N] [--traces N]

Builds seeded random-vocabulary traces (three vocabularies, see ``VOCABULARIES``) of three
sizes (small: 6 tools, 3 LLM x 40 words; medium: 30 tools, 20 LLM x 150 words; large: 100
tools, 50 LLM x 400 words), each with and without loops, checks that both implementations return identical results on every
trace, and prints milliseconds per trace and the speed-up. deepeval is timed through its
synchronous ``measure`` (what a caller runs); ours through ``LexicalLoopDetection.measure``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("DEEPEVAL_TELEMETRY_OPT_OUT", "1")
os.environ.setdefault("DEEPEVAL_DISABLE_DOTENV", "1")

from semloop.lexical import LexicalLoopDetection
from semloop.trace import Trace

SIZES: dict[str, tuple[int, int, int]] = {
    # name: (tool spans, LLM spans, words per LLM output)
    "small": (6, 3, 40),
    "medium": (30, 20, 150),
    "large": (100, 50, 400),
}
TOOL_NAMES = ["search", "read_file", "run_tests", "grep", "http_get", "write_file"]


# Letters drawn with English frequencies (per mille), so that, as in real LLM output, a few
# letters (j, q, x, z, k, v...) stay below difflib's autojunk "popular" cut-off and seed
# matches. With uniform letters every character of a long output is popular, difflib
# finds no seeds and both implementations get unrealistically cheap.
LETTER_FREQUENCIES = {
    "e": 127, "t": 91, "a": 82, "o": 75, "i": 70, "n": 67, "s": 63, "h": 61, "r": 60,
    "d": 43, "l": 40, "c": 28, "u": 28, "m": 24, "w": 24, "f": 22, "g": 20, "y": 20,
    "p": 19, "b": 15, "v": 10, "k": 8, "j": 2, "x": 2, "q": 1, "z": 1,
}  # fmt: skip


#: english: 3,000 words of English-like letters; uniform: 3,000 words of uniform letters;
#: tokens: 300 words of uniform letters, so outputs repeat a few hundred distinct tokens
#: (templated or tool-heavy agents, where issue 12 measured the port at ~4x).
VOCABULARIES = ("english", "uniform", "tokens")
VOCABULARY_SIZES = {"english": 3000, "uniform": 3000, "tokens": 300}


def vocabulary(rng: random.Random, letters: str = "english") -> list[str]:
    """Random words of 3-10 letters, drawn with English or uniform letter frequencies."""
    weights = None if letters != "english" else list(LETTER_FREQUENCIES.values())
    size = VOCABULARY_SIZES[letters]
    alphabet = list(LETTER_FREQUENCIES)
    return ["".join(rng.choices(alphabet, weights, k=rng.randint(3, 10))) for _ in range(size)]


def make_trace(rng: random.Random, vocab: list[str], size: str, loop: bool) -> dict[str, Any]:
    """An agent span whose children interleave LLM steps and tool calls."""
    n_tools, n_llm, n_words = SIZES[size]
    base = rng.choices(vocab, k=n_words)
    outputs = []
    for i in range(n_llm):
        if loop and i % 2 == 1:
            # The agent restates its previous thought with a word or two changed.
            words = list(outputs[-1].split())
            for _ in range(rng.randint(0, 2)):
                words[rng.randrange(len(words))] = rng.choice(vocab)
            outputs.append(" ".join(words))
        elif loop:
            words = list(base)
            for _ in range(n_words // 10):
                words[rng.randrange(len(words))] = rng.choice(vocab)
            outputs.append(" ".join(words))
        else:
            outputs.append(" ".join(rng.choices(vocab, k=n_words)))
    tools = []
    for i in range(n_tools):
        name = rng.choice(TOOL_NAMES)
        if loop and i % 3 == 0:
            # The same call again and again: six or more times in medium and large traces.
            args: dict[str, Any] = {"query": "same query", "limit": 10}
            name = "search"
        else:
            args = {"query": " ".join(rng.choices(vocab, k=4)), "limit": rng.randint(1, 50)}
        tools.append({"type": "tool", "name": name, "input": args, "output": "ok", "children": []})
    children: list[dict[str, Any]] = []
    per_step = max(1, n_tools // n_llm)
    for i, text in enumerate(outputs):
        children.append(
            {"type": "llm", "name": "reason", "input": {"step": i}, "output": text, "children": []}
        )
        children.extend(tools[i * per_step : (i + 1) * per_step])
    children.extend(tools[len(outputs) * per_step :])
    return {"type": "agent", "name": "agent", "input": {"goal": "g"}, "children": children}


def deepeval_measure() -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    from deepeval.metrics import AgentLoopDetectionMetric
    from deepeval.test_case import LLMTestCase

    def measure(trace: dict[str, Any]) -> tuple[Any, ...]:
        metric = AgentLoopDetectionMetric(async_mode=False)
        case = LLMTestCase(input="goal", actual_output="answer")
        case._trace_dict = trace
        metric.measure(case, _show_indicator=False)
        return metric.score, metric.success, metric.reason, metric.score_breakdown

    return measure


def semloop_measure(trace: dict[str, Any]) -> tuple[Any, ...]:
    result = LexicalLoopDetection().measure(trace)
    return result.score, result.success, result.reason, result.score_breakdown


def time_per_trace(
    fns: list[Callable[[dict[str, Any]], tuple[Any, ...]]],
    traces: list[dict[str, Any]],
    repeat: int,
) -> list[float]:
    """Best-of-``repeat`` CPU milliseconds per trace for each function.

    Rounds alternate between the functions so both see the same machine, and CPU time
    (``time.process_time``) rather than wall time keeps other processes on a shared
    machine out of the figures; the best round is the least disturbed one.
    """
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for n, fn in enumerate(fns):
            start = time.process_time()
            for trace in traces:
                fn(trace)
            best[n] = min(best[n], (time.process_time() - start) * 1000 / len(traces))
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="timing rounds (best kept)")
    parser.add_argument("--traces", type=int, default=5, help="traces per size and kind")
    parser.add_argument("--seed", type=int, default=2643)
    parser.add_argument(
        "--letters",
        choices=[*VOCABULARIES, "all"],
        default="all",
        help="letter frequencies of the random vocabulary",
    )
    parser.add_argument(
        "--dataset",
        type=Path,
        action="append",
        default=[],
        help="also time the traces of a bench JSONL file (rows with trace_id, goal, root),"
        " and traces of the three sizes built from the words of its LLM outputs",
    )
    args = parser.parse_args(argv)

    theirs = deepeval_measure()
    rows = []
    corpus: list[str] = []
    for path in args.dataset:
        traces = [
            Trace.from_dict(json.loads(line)).root.to_dict()
            for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()
        ]
        rows.append(
            timed_row(theirs, traces, "dataset", path.stem[:7], f"{len(traces)} rows", args)
        )
        for trace in traces:
            for span in Trace.from_dict({"root": trace}).walk():
                if span.type == "llm" and isinstance(span.output, str):
                    corpus.extend(span.output.split())
    if corpus:
        # Real words with their real frequencies (and punctuation): the dataset's own
        # LLM outputs, resampled into traces of the three sizes.
        rng = random.Random(args.seed)
        for size in SIZES:
            for loop in (False, True):
                rows.append(bench_row(theirs, rng, corpus, "corpus", size, loop, args))
    for letters in VOCABULARIES if args.letters == "all" else [args.letters]:
        rng = random.Random(args.seed)
        vocab = vocabulary(rng, letters)
        for size in SIZES:
            for loop in (False, True):
                rows.append(bench_row(theirs, rng, vocab, letters, size, loop, args))
    mismatches = sum(not row[5] for row in rows)

    print(
        f"{'letters':<8} {'trace':<7} {'kind':<8} {'deepeval ms':>12} {'semloop ms':>11} "
        f"{'speed-up':>9}  identical  scores"
    )
    for letters, size, kind, d_ms, s_ms, same, scores in rows:
        print(
            f"{letters:<8} {size:<7} {kind:<8} {d_ms:>12.3f} {s_ms:>11.3f} {d_ms / s_ms:>8.1f}x"
            f"  {'yes' if same else 'NO':<9}  {scores}"
        )
    print(
        f"CPU ms per trace, best of {args.repeat} rounds over {args.traces} traces per row; "
        f"Python {sys.version.split()[0]}"
    )
    return 1 if mismatches else 0


def bench_row(
    theirs: Callable[[dict[str, Any]], tuple[Any, ...]],
    rng: random.Random,
    vocab: list[str],
    letters: str,
    size: str,
    loop: bool,
    args: argparse.Namespace,
) -> tuple[Any, ...]:
    traces = [make_trace(rng, vocab, size, loop) for _ in range(args.traces)]
    return timed_row(theirs, traces, letters, size, "loop" if loop else "no loop", args)


def timed_row(
    theirs: Callable[[dict[str, Any]], tuple[Any, ...]],
    traces: list[dict[str, Any]],
    letters: str,
    size: str,
    kind: str,
    args: argparse.Namespace,
) -> tuple[Any, ...]:
    expected = [theirs(t) for t in traces]
    got = [semloop_measure(t) for t in traces]
    deepeval_ms, semloop_ms = time_per_trace([theirs, semloop_measure], traces, args.repeat)
    scores = sorted({round(r[0], 3) for r in got})
    if len(scores) > 4:
        scores = [*scores[:2], "...", *scores[-2:]]
    return (letters, size, kind, deepeval_ms, semloop_ms, expected == got, scores)


if __name__ == "__main__":
    raise SystemExit(main())
