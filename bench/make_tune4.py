"""Pick ``evaluator_tune4.jsonl``: chat runs no set under ``bench/real_runs/`` names, by structure.

Tuning set 3 counted an earlier set's file whole; here only the runs a set names are taken, so
the other runs of every file a set reads are candidates (tau2-bench's leaderboard submissions
that the tuning and blind halves and the loop rounds drew from, and blind set 2's forks), with
every ``tool-calling-gpt-4o-mini-…`` file of apollo's history. A candidate is dropped when its
words (``make_tune3.fingerprint``) repeat a named run or an earlier candidate; apollo keeps one
run per task (the first 80 characters of its first request), a task no set holds. Runs in which
the customer never speaks, or without a reward, are left out. No conversation is read. Each
row's ``outcome`` is the file's own reward, written here, before any evaluator runs::

    python bench/make_tune4.py --repo … (every source the sets name) \
        --out bench/real_runs/evaluator_tune4.jsonl
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from make_tune3 import (
    APOLLO,
    Fresh,
    apollo_files,
    arguments,
    draw,
    earlier_labels,
    file_runs,
    fingerprint,
    write_set,
)
from real_run_evaluators import outcome

SPLIT = "evaluator-tune4"
SEED = 3030
LEADERBOARD = "web/leaderboard/public/submissions/"
# Runs drawn per group, blind halves' sources first: tau2-bench's leaderboard submissions (the
# tuning and blind halves' family), then blind set 2's apollo and forks.
PICK = {"tau2-leaderboard": 70, APOLLO: 60, "bogoliubon/tau2-bench": 20,
        "Madhav-Kanda/tau-bench": 12, "avaljotsingh/tau-bench": 12}


def group(source: str, path: str) -> str | None:
    if source == "sierra-research/tau2-bench":
        return "tau2-leaderboard" if path.startswith(LEADERBOARD) else None
    return source if source in PICK else None


File = tuple[str, str, str, str]


def named_runs(repos: dict[str, Path], earlier: list[dict[str, Any]]
               ) -> tuple[list[File], set[tuple[str, str, str, int]], set[str], set[str]]:
    """The files the earlier sets read (source, commit, path, format), the runs they name,
    those runs' fingerprints and the apollo tasks (a first request's first 80 characters)
    among them."""
    files = sorted({(lab["source"], lab["commit"], lab["path"], lab["format"]) for lab in earlier})
    named = {(lab["source"], lab["commit"], lab["path"], lab["index"]) for lab in earlier}
    seen: set[str] = set()
    tasks: set[str] = set()
    for source, commit, path, fmt in files:
        for index, run in enumerate(file_runs(repos[source], commit, path, fmt)):
            if (source, commit, path, index) in named:
                seen.add(fingerprint(run))
                if source == APOLLO:
                    tasks.add(run.user_input.strip()[:80])
    print(f"{len(files)} files of earlier sets, {len(seen)} distinct named runs", file=sys.stderr)
    return files, named, seen, tasks


def main(argv: list[str] | None = None) -> int:
    repos, out = arguments(argv, __doc__)
    earlier = earlier_labels(out, SPLIT)
    files, named, seen, tasks = named_runs(repos, earlier)
    candidates = [f for f in files if group(f[0], f[2])]
    candidates += [(APOLLO, c, p, "tau-bench") for c, p in apollo_files(repos[APOLLO])
                   if (APOLLO, c, p, "tau-bench") not in files]
    pools: dict[str, list[dict[str, Any]]] = {g: [] for g in PICK}
    fresh = Fresh(seen)
    for source, commit, path, fmt in candidates:
        for index, run in enumerate(file_runs(repos[source], commit, path, fmt)):
            if (source, commit, path, index) in named or not fresh.admit(run):
                continue
            if source == APOLLO:
                task = run.user_input.strip()[:80]
                if task in tasks:
                    continue
                tasks.add(task)
            pools[str(group(source, path))].append(
                {"source": source, "commit": commit, "path": path, "index": index,
                 "format": fmt, "outcome": outcome(run)})
    fresh.report(pools)
    write_set(draw(pools, PICK, SEED), out, SPLIT)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
