"""Pick ``evaluator_tune3.jsonl``: unused chat runs of blind set 2's public sources, by structure.

Every run of the candidate files is fingerprinted by its words (the customer's and the agent's
messages in order, lower-cased, letters and digits only, so a run converted to another layout
still matches itself) and dropped when it repeats a run of any tau-format file that a set under
``bench/real_runs/`` names (blind set 2 and every earlier set), or an earlier candidate. Runs in
which the customer never speaks, or without a reward, are left out. No conversation is read:
apollo's generated domain is told by its policy's first line and its task by the first 80
characters of its first request (one run per task), as blind set 2 was picked. Then a seeded
draw takes the counts of ``PICK`` from each group, apollo's domains that blind set 2 holds last::

    python bench/make_tune3.py --repo jmoreno-labelbox/apollo-tau-bench=$M/jmoreno-labelbox+apollo-tau-bench/repo \
        --repo … (every source the sets name) --out bench/real_runs/evaluator_tune3.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from make_real_runs import (
    FORMATS,
    judge_viewer_file,
    read_file,
    read_labels,
    repos_of,
    task_results_file,
)
from real_run_evaluators import outcome
from semloop.events import Run

SETS = HERE / "real_runs"
SPLIT = "evaluator-tune3"
SEED = 2626
CHAT_FORMATS = ("tau-bench", "tau2-task-results", "tau2-judge-viewer")
APOLLO = "jmoreno-labelbox/apollo-tau-bench"
# Runs drawn per group; apollo's gpt-4o-mini files, then the three retail forks' files that
# blind set 2 drew from (their other runs).
PICK = {APOLLO: 100, "avaljotsingh/tau-bench": 16, "Madhav-Kanda/tau-bench": 16,
        "bogoliubon/tau2-bench": 18}
_WORD = re.compile(r"[a-z0-9]+")


def fingerprint(run: Run) -> str:
    """The run's customer and agent words in order (tool calls and outputs left out)."""
    parts = [run.user_input]
    for event in run.events:
        if event.event_type == "llm.called":
            parts.append(str(event.payload.get("prompt") or ""))
        elif event.event_type == "llm.responded":
            parts.append(str(event.payload.get("output") or ""))
    return " ".join(_WORD.findall(" ".join(parts).lower()))


def file_runs(root: Path, commit: str, path: str, fmt: str) -> list[Run]:
    data = read_file(root, commit, path)
    if fmt == "tau2-judge-viewer":
        data = judge_viewer_file(data)
    elif fmt == "tau2-task-results":
        data = task_results_file(data)
    return FORMATS["tau-bench"](data, source=path, clock=0.0).runs


def policy_head(run: Run) -> str:
    started = run.started
    prompt = str(started.payload.get("system_prompt") or "") if started else ""
    return next((line.strip("# ").strip() for line in prompt.splitlines() if line.strip()), "")


def history_files(root: Path, folder: str, prefix: str) -> list[tuple[str, str]]:
    """(newest commit holding it, path) of every file under ``folder`` in a repository's
    history whose path starts with ``prefix``."""
    log = subprocess.run(
        ["git", "-C", str(root), "log", "--all", "--format=C %H", "--name-only",
         "--diff-filter=AM", "--", folder], check=True, capture_output=True,
        text=True).stdout
    newest: dict[str, str] = {}
    commit = ""
    for line in log.splitlines():
        if line.startswith("C "):
            commit = line[2:]
        elif line.startswith(prefix):
            newest.setdefault(line, commit)
    return sorted((c, p) for p, c in newest.items())


def apollo_files(root: Path) -> list[tuple[str, str]]:
    """(newest commit holding it, path) of every gpt-4o-mini result file in apollo's history."""
    return history_files(root, "tau/results/", "tau/results/tool-calling-gpt-4o-mini-")


# The splits drawn since tuning set 3, in the order they were made. A draw leaves out the
# sets made after it, so that each rebuilds as it was made: a later set names runs of the very
# files an earlier one drew from (loop round 15 labels some of tuning set 3's runs).
DRAW_ORDER = ("evaluator-tune3", "tune15", "heldout15", "evaluator-tune4", "evaluator-tune5",
              "evaluator-blind3", "tune16", "heldout16")


def earlier_labels(out: Path, split: str) -> list[dict[str, Any]]:
    """The chat runs every set under ``bench/real_runs/`` but ``out`` names, but for the sets
    drawn after ``split``."""
    later = DRAW_ORDER[DRAW_ORDER.index(split) + 1:]
    return [lab for f in sorted(SETS.glob("*.jsonl")) if f.name != out.name
            for lab in read_labels(f) if lab.get("format") in CHAT_FORMATS
            and lab["split"] not in later]


def draw(pools: dict[str, list[dict[str, Any]]], pick: dict[str, int], seed: int,
         first: Callable[[dict[str, Any]], bool] | None = None) -> list[dict[str, Any]]:
    """``pick``'s count from each pool after one seeded shuffle, in ``pick``'s order (the rows
    ``first`` holds true of first, a stable sort keeping the draw's order), each group's rows
    sorted by file and position."""
    rng = random.Random(seed)
    picked: list[dict[str, Any]] = []
    for name, count in pick.items():
        pool = pools[name]
        rng.shuffle(pool)
        if first is not None:
            pool.sort(key=lambda r: not first(r))
        picked += sorted(pool[:count], key=lambda r: (r["path"], r["index"]))
    return picked


def run_name(row: dict[str, Any]) -> str:
    return Path(row["path"]).stem


def write_set(rows: list[dict[str, Any]], out: Path, split: str,
              name: Callable[[dict[str, Any]], str] = run_name) -> None:
    """The drawn rows as a set file, each with its id (short owner, ``name``, position)."""
    with out.open("w") as f:
        for row in rows:
            prefix = {APOLLO: "apollo"}.get(row["source"], row["source"].split("/")[0])
            f.write(json.dumps({"id": f"{prefix}:{name(row)}#{row['index']}", **row,
                                "split": split}) + "\n")
    print(f"{len(rows)} runs written to {out}", file=sys.stderr)


def arguments(argv: list[str] | None, doc: str) -> tuple[dict[str, Path], Path]:
    """A draw script's command line: the local copy of each source, and the set to write."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--repo", action="append", default=[], metavar="OWNER/NAME=PATH")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    return repos_of(args.repo), args.out


class Fresh:
    """The candidates a draw may take: runs whose words repeat no run seen so far."""

    def __init__(self, seen: set[str]) -> None:
        self.seen = seen
        self.dropped = 0

    def admit(self, run: Run) -> bool:
        """Whether the run is new and usable (the customer speaks, the file gives a reward);
        a repeat is counted, and every new run is remembered, usable or not."""
        key = fingerprint(run)
        if key in self.seen:
            self.dropped += 1
            return False
        self.seen.add(key)
        return bool(run.user_input.strip()) and outcome(run) != "unlabelled"

    def report(self, pools: dict[str, list[dict[str, Any]]]) -> None:
        print(f"{self.dropped} repeats dropped; pools: "
              + ", ".join(f"{g} {len(p)}" for g, p in pools.items()), file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    repos, out = arguments(argv, __doc__)
    earlier = earlier_labels(out, SPLIT)
    files = sorted({(lab["source"], lab["commit"], lab["path"], lab["format"]) for lab in earlier})
    # Earlier sets' files count whole (as blind set 2 counted them); blind set 2's own, only
    # the runs it names: their other runs are the candidates.
    whole = {(lab["source"], lab["commit"], lab["path"]) for lab in earlier
             if lab["split"] != "evaluator-blind2"}
    named = {(lab["source"], lab["commit"], lab["path"], lab["index"]) for lab in earlier}
    seen: set[str] = set()
    blind2_domains: set[str] = set()
    for source, commit, path, fmt in files:
        for index, run in enumerate(file_runs(repos[source], commit, path, fmt)):
            if (source, commit, path) in whole or (source, commit, path, index) in named:
                seen.add(fingerprint(run))
                if source == APOLLO:
                    blind2_domains.add(policy_head(run))
    print(f"{len(files)} files of earlier sets, {len(seen)} distinct runs", file=sys.stderr)
    candidates = [(APOLLO, c, p, "tau-bench") for c, p in apollo_files(repos[APOLLO])]
    candidates += [f for f in files if f[0] in PICK and f[0] != APOLLO
                   and f[:3] not in whole]
    pools: dict[str, list[dict[str, Any]]] = {s: [] for s in PICK}
    tasks: set[str] = set()
    fresh = Fresh(seen)
    for source, commit, path, fmt in candidates:
        for index, run in enumerate(file_runs(repos[source], commit, path, fmt)):
            if not fresh.admit(run):
                continue
            row = {"source": source, "commit": commit, "path": path, "index": index,
                   "format": fmt}
            if source == APOLLO:
                task = run.user_input.strip()[:80]
                if task in tasks:
                    continue
                tasks.add(task)
                row["_new_domain"] = policy_head(run) not in blind2_domains
            pools[source].append(row)
    fresh.report(pools)
    # apollo: the domains blind set 2 never saw first
    write_set(draw(pools, PICK, SEED, first=lambda r: bool(r.pop("_new_domain", True))),
              out, SPLIT)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
