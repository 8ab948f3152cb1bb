"""Every outside author's set on the current rules, totals only: false positives and recall
of the seven evaluators, a row a set, and their sums.

    python bench/blind_sets.py [TAG ...] [--skip TAG ...] [--json OUT]

A TAG names one author's set (``blind41``, ``blind41b``); with none, every set the
repository holds, newest first. A set's cases are ``tests/local/hallucination_<TAG>.jsonl``,
``calibration/holdout/<evaluator>_<TAG>.jsonl`` for the other three run-level evaluators and
``tests/local/conversation_<TAG>.jsonl`` for the conversation three, each at its
recommended threshold. It never prints a case id or a reasoning, so a blind look taken
through it reads nothing of a set; docs/blind-sets.md's "now" figures are its output.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from conversation_accuracy import ANSWERS as CONVERSATION
from conversation_accuracy import THRESHOLDS, score_file
from evaluator_accuracy import ANSWERS as RUN_LEVEL
from evaluator_accuracy import answer_of, read_cases
from semloop.judge.local._answerer import Embed
from semloop.judge.local._model import Embedder

EVALUATORS = (*RUN_LEVEL, *CONVERSATION)
#: Run-level thresholds, as bench/evaluator_accuracy.py measures them.
RUN_THRESHOLD = 0.5
_TAG = re.compile(r"_(blind(\d+)b?)\.jsonl$")

#: (false positives, negatives, caught, positives)
Tally = tuple[int, int, int, int]


def files_of(tag: str, root: Path = ROOT) -> dict[str, Path]:
    """Where each evaluator's cases of set ``tag`` live; an evaluator it has none for is left
    out."""
    local, holdout = root / "tests" / "local", root / "calibration" / "holdout"
    paths = {"hallucination": local / f"hallucination_{tag}.jsonl"}
    paths |= {name: holdout / f"{name}_{tag}.jsonl" for name in RUN_LEVEL if name not in paths}
    paths |= {name: local / f"conversation_{tag}.jsonl" for name in CONVERSATION}
    return {name: path for name, path in paths.items() if path.is_file()}


def tags_in(root: Path = ROOT) -> list[str]:
    """Every outside author's set under ``root``, newest first (blind42b before blind42)."""
    found: dict[str, int] = {}
    for folder in (root / "tests" / "local", root / "calibration" / "holdout"):
        for path in folder.glob("*_blind*.jsonl"):
            if m := _TAG.search(path.name):
                found[m.group(1)] = int(m.group(2))
    return sorted(found, key=lambda tag: (found[tag], tag), reverse=True)


def tally_set(tag: str, embed: Embed, root: Path = ROOT) -> dict[str, Tally]:
    """Each evaluator's tally on set ``tag``."""
    tallies: dict[str, Tally] = {}
    files = files_of(tag, root)
    for name in RUN_LEVEL:
        if name not in files:
            continue
        fp = neg = tp = pos = 0
        for case in read_cases(files[name], name):
            got = answer_of(name, case, embed)
            fired = got is not None and float(got.value) >= RUN_THRESHOLD
            pos, neg = pos + bool(case.label), neg + (not case.label)
            tp, fp = tp + (fired and bool(case.label)), fp + (fired and not case.label)
        tallies[name] = (fp, neg, tp, pos)
    chats = {files[name] for name in CONVERSATION if name in files}
    for path in chats:
        scored, _ = score_file(path, embed)
        for name, rows in scored.items():
            t = THRESHOLDS[name]
            tallies[name] = (
                sum(v >= t for _, label, v in rows if not label),
                sum(not label for _, label, _ in rows),
                sum(v >= t for _, label, v in rows if label),
                sum(label for _, label, _ in rows),
            )
    return tallies


def cell(tally: Tally | None) -> str:
    if tally is None:
        return "—"
    fp, neg, tp, pos = tally
    return f"{fp}/{neg} · {tp}/{pos}"


def table(rows: dict[str, dict[str, Tally]]) -> str:
    """A markdown table: a row a set, a column an evaluator, and the sums."""
    sums: dict[str, Tally] = {}
    for name in EVALUATORS:
        if per := [t[name] for t in rows.values() if name in t]:
            fp, neg, tp, pos = (sum(column) for column in zip(*per, strict=True))
            sums[name] = (fp, neg, tp, pos)
    lines = ["| set | " + " | ".join(name.upper() for name in EVALUATORS) + " |",
             "|---" * (len(EVALUATORS) + 1) + "|"]
    for tag, tallies in [*rows.items(), ("all", sums)]:
        lines.append(f"| {tag} | " + " | ".join(cell(tallies.get(n)) for n in EVALUATORS) + " |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("tags", nargs="*", help="sets to measure (default: every set)")
    parser.add_argument("--skip", action="append", default=[], metavar="TAG",
                        help="leave this set out (repeatable)")
    parser.add_argument("--json", type=Path, metavar="OUT", help="also write the tallies here")
    args = parser.parse_args()
    known = tags_in()
    unknown = [tag for tag in args.tags + args.skip if tag not in known]
    if unknown:
        parser.error(f"no such set: {', '.join(unknown)} (the sets: {', '.join(known)})")
    tags = [tag for tag in (args.tags or known) if tag not in args.skip]
    embed = Embedder().embed
    rows: dict[str, dict[str, Tally]] = {}
    for n, tag in enumerate(tags, 1):
        rows[tag] = tally_set(tag, embed)
        print(f"[{n}/{len(tags)}] {tag}", file=sys.stderr, flush=True)
    print("false positives/negatives · caught/positives, at each evaluator's threshold")
    print(table(rows))
    if args.json:
        keys = ("false_positives", "negatives", "caught", "positives")
        args.json.write_text(json.dumps(
            {tag: {name: dict(zip(keys, t, strict=True)) for name, t in tallies.items()}
             for tag, tallies in rows.items()}, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
