"""Pick ``evaluator_blind3.jsonl``: chat runs of public tau and tau2 result files from
repositories no earlier set reads, by structure; a blind set.

Three forks no set used: tau2 airline and telecom simulations of four Grok models, each agent
and customer, under airline policies the fork rewrote (blakeelias/tau2-bench); tau-bench
airline runs of a Llama-3.1-8B-Instruct checkpoint trained by imitation
(Reapor-Yurnero/tau-bench; the checkpoints' files the snapshot keeps; its base models' files,
which wrap the runs in ``{"metrics", "results"}``, went to loop round 16); and
tau-bench airline runs of claude-3.7-sonnet, gemini-2.0-flash and gemini-2.0-flash-lite
(garrettallen14/tau-bench). Candidates are gathered as ``make_tune5.group_pools`` gathers
them (a run whose words repeat a run any set names or an earlier candidate is dropped; runs
in which the customer never speaks, or without a reward, left out), and a group keeps one
run per task and policy (many of the Grok files are reruns of a few tasks). No conversation
is read. Each row's ``outcome`` is the file's own reward, written here, before any
evaluator runs::

    python bench/make_blind3.py --repo … (every source the sets name, and the three above) \
        --out bench/real_runs/evaluator_blind3.jsonl
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from make_tune3 import arguments, draw, earlier_labels, write_set
from make_tune4 import named_runs
from make_tune5 import Group, group_pools
from semloop.events import Run

SPLIT = "evaluator-blind3"
SEED = 3232
GROK = "blakeelias/tau2-bench"
LLAMA = "Reapor-Yurnero/tau-bench"


def grok(model: str) -> Group:
    return (GROK, "data/simulations/",
            rf"data/simulations/[^/]*_llm_agent_{model}_user_simulator[^/]*\.json")


def layerlens(model: str) -> Group:
    return ("garrettallen14/tau-bench", "unformatted-results/",
            rf"unformatted-results/tool-calling-{model}-[^/]+\.json")


# One group per agent model: a group keeps one run per task and policy.
GROUPS: dict[str, Group] = {
    "grok-3": grok("grok-3"),
    "grok-3-mini": grok("grok-3-mini"),
    "grok-4": grok("grok-4"),
    "grok-4-fast": grok("grok-4-fast-reasoning"),
    "llama-il-airline": (LLAMA, "results/", r"results/[^/]+_IL_checkpoint-[^/]+/airline-[^/]+\.json"),
    "claude-3.7-airline": layerlens(r"claude-3\.7-sonnet"),
    "gemini-2.0-flash-airline": layerlens(r"gemini-2\.0-flash-001"),
    "gemini-2.0-flash-lite-airline": layerlens(r"gemini-2\.0-flash-lite-001"),
}
PICK = {"grok-3": 60, "grok-3-mini": 25, "grok-4": 11, "grok-4-fast": 35,
        "llama-il-airline": 40, "claude-3.7-airline": 5, "gemini-2.0-flash-airline": 5,
        "gemini-2.0-flash-lite-airline": 5}


def task_key(run: Run) -> str:
    """The run's task (its id is ``tau-<task>-<trial>``) under its policy."""
    started = run.started
    policy = str(started.payload.get("system_prompt") or "") if started else ""
    return policy + "\0" + run.run_id.rsplit("-", 1)[0]


def run_name(row: dict[str, Any]) -> str:
    """The file's stem; the Llama runs are named by their checkpoint's folder too."""
    path = Path(row["path"])
    return f"{path.parent.name}/{path.stem}" if row["source"] == LLAMA else path.stem


def main(argv: list[str] | None = None) -> int:
    repos, out = arguments(argv, __doc__)
    _, _, seen, _ = named_runs(repos, earlier_labels(out, SPLIT))
    write_set(draw(group_pools(repos, GROUPS, seen, task_key), PICK, SEED), out, SPLIT, run_name)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
