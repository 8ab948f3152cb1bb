"""Pick ``evaluator_tune5.jsonl``: chat runs of public tau and tau2 result files from
repositories no earlier set reads, by structure.

Four forks no set used: neo-tau-bench's two airline trajectory files (yiphei/new-tau-bench,
revised tasks, tools and prompts; the model is not named in the files), a Llama-3.1-8B-Instruct
airline run (aaronwu901225main/tau-bench), a gpt-4.1-mini retail run
(shahabeddin/tau-bench) and tau2 retail simulations saved one task a file, of
gemini-3-flash-preview and gpt-4.1-mini (codesque16/tau2-bench). Each file at the newest
commit holding it, when the snapshot keeps it. A run is dropped when its words (``make_tune3.fingerprint``) repeat a
run an earlier set names or an earlier candidate; runs in which the customer never speaks,
or without a reward, are left out. No conversation is read. Each row's ``outcome`` is the
file's own reward, written here, before any evaluator runs::

    python bench/make_tune5.py --repo … (every source the sets name, and the four above) \
        --out bench/real_runs/evaluator_tune5.jsonl
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from make_tune3 import (
    Fresh,
    arguments,
    draw,
    earlier_labels,
    file_runs,
    history_files,
    write_set,
)
from make_tune4 import named_runs
from real_run_evaluators import outcome
from semloop.events import Run

SPLIT = "evaluator-tune5"
SEED = 3131
CODESQUE = "codesque16/tau2-bench"
# group: (repository, folder, the pattern its result files' paths match)
Group = tuple[str, str, str]
GROUPS: dict[str, Group] = {
    "neo-airline": ("yiphei/new-tau-bench", "historical_trajectories/",
                    r"historical_trajectories/neo-.*\.json"),
    "llama-airline": ("aaronwu901225main/tau-bench", "results/",
                      r"results/.*tool-calling-Llama-.*\.json"),
    "gpt41mini-retail": ("shahabeddin/tau-bench", "results_tau_orig/",
                         r"results_tau_orig/tool-calling-.*\.json"),
    "gemini-tau2-retail": (CODESQUE, "docs/data/",
                           r"docs/data/[^/]*_llm_agent_gemini-[^/]*/task_\d+\.json"),
    "gpt41mini-tau2-retail": (CODESQUE, "docs/data/",
                              r"docs/data/[^/]*_llm_agent_gpt-4\.1-mini[^/]*/task_\d+\.json"),
}
PICK = {"neo-airline": 40, "llama-airline": 35, "gpt41mini-retail": 35,
        "gemini-tau2-retail": 25, "gpt41mini-tau2-retail": 25}


def run_name(row: dict[str, Any]) -> str:
    """The file's stem; a simulation saved one task a file is named by its run's time too."""
    path = Path(row["path"])
    return f"{path.parent.name[:19]}/{path.stem}" if row["source"] == CODESQUE else path.stem


def present(root: Path, commit: str, path: str) -> bool:
    """Whether the snapshot keeps the file (its large files are listed but absent)."""
    return subprocess.run(["git", "-C", str(root), "cat-file", "-e", f"{commit}:{path}"],
                          check=False, capture_output=True).returncode == 0


def group_pools(repos: dict[str, Path], groups: dict[str, Group], seen: set[str],
                one_per: Callable[[Run], str] | None = None) -> dict[str, list[dict[str, Any]]]:
    """Each group's candidate rows (with the file's own reward as ``outcome``): every run of
    its files, each at the newest commit holding it that the snapshot keeps, that
    ``make_tune3.Fresh`` admits against ``seen``, and, with ``one_per``, no run whose key
    repeats an earlier candidate's of its group."""
    pools: dict[str, list[dict[str, Any]]] = {g: [] for g in groups}
    fresh = Fresh(seen)
    for name, (source, folder, pattern) in groups.items():
        keys: set[str] = set()
        for commit, path in history_files(repos[source], folder, folder):
            if not re.fullmatch(pattern, path) or not present(repos[source], commit, path):
                continue
            for index, run in enumerate(file_runs(repos[source], commit, path, "tau-bench")):
                if not fresh.admit(run):
                    continue
                if one_per is not None:
                    key = one_per(run)
                    if key in keys:
                        continue
                    keys.add(key)
                pools[name].append({"source": source, "commit": commit, "path": path,
                                    "index": index, "format": "tau-bench",
                                    "outcome": outcome(run)})
    fresh.report(pools)
    return pools


def main(argv: list[str] | None = None) -> int:
    repos, out = arguments(argv, __doc__)
    _, _, seen, _ = named_runs(repos, earlier_labels(out, SPLIT))
    write_set(draw(group_pools(repos, GROUPS, seen), PICK, SEED), out, SPLIT, run_name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
