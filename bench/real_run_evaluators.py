"""The seven non-loop evaluators, on the embedded judge, over the real public runs.

    python bench/real_run_evaluators.py --repo OWNER/NAME=PATH ... [--evaluator NAME ...]
        [--sample N [--seed S]] [--limit N] [--json OUT]

The runs are those of bench/real_runs/labels.jsonl, less the runs of the evaluator sets
(bench/real_runs/evaluator_tune.jsonl and evaluator_blind.jsonl, newer leaderboard runs,
evaluator_blind2.jsonl, runs of other public tau and tau2 result files, and evaluator_blind3.jsonl,
runs of three more forks (Grok models on tau2, a Llama imitation checkpoint, claude-3.7-sonnet
and gemini-2.0-flash on tau-bench): give one as ``--labels`` to measure it; the blind sets are
never looked at while tuning, only their totals) and of the two coding sets
(coding_tune.jsonl and coding_blind.jsonl, SWE-bench runs of mini-swe-agent with the
submission's public evaluation report; the same rule), read from
local copies of their repositories through semloop's importers
(``make_real_runs.labelled_runs``; the same ``--repo`` arguments). Each run gives the cases the platform builds from an imported trace:
- the run case (:func:`~semloop.evaluate.run_case_from_trace`): the goal and the agent's
  last words to the customer, its earlier turns the steps (in a chat, a turn that only calls
  tools is a step, never the answer); tools_called every call with its output. It is read by
  HALLUCINATION, TASK_COMPLETION, TASK_UNDERSTANDING_FAILURE and OFF_TOPIC_DRIFT;
- for a run that records a chat with a user (tau-bench, tau2-bench), its conversation as
  the platform reads one after each exchange: the last ``CONVERSATION_RUNS`` exchanges up
  to it (``conversation_case_from_trace(..., upto=k)`` for every k), read by
  USER_FRUSTRATION, CONFUSION_LOOP and SYCOPHANCY_SIGNAL. A conversation evaluator fires
  on the run when it fires on any of its windows (the platform would have raised it then).

Each evaluator runs as ``semloop evaluate`` runs it: its settings from
docs/config/semantic-evaluators.yml, the local judge. The outcome is the public label of
the run's result file: tau rewards (1.0 succeeded, 0 failed, between: partial); a
SWE-bench run beside its submission's report (``sb-cli-reports/*.json``) succeeded when the
report lists it resolved, else failed; the other SWE-agent, mini-swe-agent, OpenHands and
judge-viewer runs carry none (``unlabelled``). The table
gives, per evaluator and source, fires on succeeded and on failed runs with the share, and
the median ms per evaluation (one window for a conversation evaluator). ``--json OUT``
writes every fire: run id, evaluator, outcome, confidence, reasoning (and the window).
``--evaluator`` (repeatable) runs only those evaluators, and ``--sample N`` only a
random sample of N runs (``--seed``; the same runs every time), for a quick look at one rule.
The code measured is the semloop that PYTHONPATH names, else the installed one (its folder is
printed on stderr): to compare two commits, put each one's ``src`` on PYTHONPATH.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
# For make_real_runs only: semloop is the one PYTHONPATH names (helper-env.sh: the worktree's
# src), as for evaluator_accuracy.py, so that a run on a snapshot's src measures that snapshot.
sys.path.insert(0, str(HERE))

import semloop
from make_real_runs import LABELS, labelled_runs, read_labels, repos_of, swebench_resolved
from semloop.cli._progress import progress
from semloop.evaluate import (
    EvaluatorsConfig,
    QuestionEvaluator,
    get_evaluator,
    load_evaluators_config,
    run_case_from_trace,
)
from semloop.evaluate.cases import (
    conversation_case_from_trace,
    exchange_count,
    records_chat,
    system_prompt,
)
from semloop.evaluate.config import DEFAULT_CONFIG
from semloop.events import Run
from semloop.judge.registry import make_backend

# The newer runs kept apart from the loop corpus: half to tune on, half never looked at, and
# a second and third blind set from sources no earlier round used.
EVALUATOR_SETS = (HERE / "real_runs" / "evaluator_tune.jsonl",
                  HERE / "real_runs" / "evaluator_blind.jsonl",
                  HERE / "real_runs" / "evaluator_blind2.jsonl",
                  HERE / "real_runs" / "evaluator_blind3.jsonl")
# Forks that keep their upstream's name are told apart by their owner.
UPSTREAM = {"tau-bench": "sierra-research", "tau2-bench": "sierra-research"}
# Coding runs with a public SWE-bench outcome (SOURCES.md): kept out of the default table too.
CODING_SETS = (HERE / "real_runs" / "coding_tune.jsonl", HERE / "real_runs" / "coding_blind.jsonl",
               HERE / "real_runs" / "coding_tune2.jsonl")
RUN_LEVEL = ("HALLUCINATION", "TASK_COMPLETION", "TASK_UNDERSTANDING_FAILURE", "OFF_TOPIC_DRIFT")
CONVERSATION_LEVEL = ("USER_FRUSTRATION", "CONFUSION_LOOP", "SYCOPHANCY_SIGNAL")
OUTCOMES = ("succeeded", "failed", "partial", "unlabelled")
_REWARD = re.compile(r"^reward=([0-9.eE+-]+)$")


def outcome(run: Run, resolved: bool | None = None) -> str:
    """The run's public label: tau's reward, kept by the importer as ``reward=R``, or
    ``resolved`` as SWE-bench's report on the run's submission gives it."""
    if resolved is not None:
        return "succeeded" if resolved else "failed"
    ends = [e for e in run.events if e.event_type == "run.completed"]
    match = _REWARD.match(str(ends[-1].payload.get("output") or "")) if ends else None
    if match is None:
        return "unlabelled"
    reward = float(match.group(1))
    return "succeeded" if reward >= 1.0 else "failed" if reward <= 0.0 else "partial"


def part(label: dict[str, Any]) -> str:
    """The source part a run comes from: its repository (with its owner for a fork that keeps
    its upstream's name), and the format when it differs."""
    owner, _, name = str(label["source"]).partition("/")
    if UPSTREAM.get(name, owner) != owner:
        name += " (fork)" if owner == "oscaralvaro" else f" ({owner})"
    return name + (" (judge viewer)" if label["format"] == "tau2-judge-viewer" else "")


def chosen_labels(path: Path, sources: list[str]) -> list[dict[str, Any]]:
    """The labels of ``path`` (of ``sources`` only, when given). Runs of the evaluator sets stay
    out of the loop corpus's table even when the loop corpus labels them too, so each is
    counted in its own set only; any other file is measured whole (a file of one run of a
    set measures that run, not none)."""
    sets = (*EVALUATOR_SETS, *CODING_SETS)
    apart = ({lab["id"] for s in sets for lab in read_labels(s)}
             if path.resolve() == LABELS.resolve() else set())
    return [lab for lab in read_labels(path)
            if (not sources or lab["source"] in sources) and lab["id"] not in apart]


def evaluate(runs: list[tuple[dict[str, Any], Run]], config: EvaluatorsConfig,
             names: tuple[str, ...] = (*RUN_LEVEL, *CONVERSATION_LEVEL),
             ) -> tuple[list[dict[str, Any]], dict[str, list[float]], dict[tuple[str, str, str], list[int]]]:
    """Every fire, the ms of every evaluation per evaluator, and (fired, cases) per
    (evaluator, part, outcome)."""
    judge = make_backend("local")
    evaluators = {n: get_evaluator(n) for n in names}
    settings = {n: config.for_evaluator(n) for n in evaluators}
    fires: list[dict[str, Any]] = []
    ms: dict[str, list[float]] = defaultdict(list)
    counts: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0])
    for label, run in progress(runs, "evaluators on real runs", at_least=1):
        trace = run.to_trace()
        where, result_of = part(label), outcome(run, label.get("resolved"))
        chat = records_chat(run)
        case = run_case_from_trace(trace, id=label["id"], chat=chat, instructions=system_prompt(run))
        windows = []
        if chat:
            windows = [w for k in range(exchange_count(trace))
                       if (w := conversation_case_from_trace(trace, upto=k, id=label["id"]))]
        for name, evaluator in evaluators.items():
            assert isinstance(evaluator, QuestionEvaluator)
            run_level = evaluator.level == "run"
            cases = ([case] if case is not None else []) if run_level else windows
            if not cases:
                continue
            tally = counts[(name, where, result_of)]
            tally[1] += 1
            for k, c in enumerate(cases):
                result = evaluator(c, judge, settings[name])
                ms[name].append(result.latency_ms)
                if result.fired:
                    tally[0] += 1
                    fires.append({
                        "id": label["id"], "evaluator": name, "outcome": result_of,
                        "part": where, "confidence": result.confidence,
                        "reasoning": result.reasoning,
                        **({} if run_level else {"window": k, "windows": len(cases)}),
                    })
                    break
    return fires, ms, counts


def table(ms: dict[str, list[float]], counts: dict[tuple[str, str, str], list[int]],
          names: tuple[str, ...] = (*RUN_LEVEL, *CONVERSATION_LEVEL)) -> str:
    """Markdown: per evaluator, per source part and in all, fired/cases per outcome."""
    def cell(fired: int, total: int) -> str:
        return f"{fired}/{total} ({fired / total:.0%})" if total else "—"

    lines = ["| evaluator | source | " + " | ".join(f"fires on {o}" for o in OUTCOMES)
             + " | median ms |", "|---|---|" + "---|" * len(OUTCOMES) + "---|"]
    for name in names:
        parts = sorted({p for (n, p, _) in counts if n == name})
        for p in [*parts, "all"]:
            cells = []
            for o in OUTCOMES:
                keys = [k for k in counts if k[0] == name and k[2] == o and p in ("all", k[1])]
                cells.append(cell(sum(counts[k][0] for k in keys), sum(counts[k][1] for k in keys)))
            speed = f"{statistics.median(ms[name]):.1f}" if p == "all" and ms[name] else ""
            first = name if p == (parts or ["all"])[0] else ""
            lines.append(f"| {first} | {p} | " + " | ".join(cells) + f" | {speed} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", action="append", default=[], metavar="OWNER/NAME=PATH",
                    help="a local copy (work tree or git dir) of a repository the labels name")
    ap.add_argument("--labels", type=Path, default=LABELS)
    ap.add_argument("--source", action="append", default=[], metavar="OWNER/NAME",
                    help="only the runs of these repositories (the coding runs take seconds "
                    "each: their tool outputs are long)")
    ap.add_argument("--evaluator", action="append", default=[], metavar="NAME",
                    type=str.upper, choices=(*RUN_LEVEL, *CONVERSATION_LEVEL),
                    help="only this evaluator (repeatable; any case)")
    ap.add_argument("--sample", type=int, default=0, metavar="N",
                    help="only a random sample of N runs, in corpus order (a quick look)")
    ap.add_argument("--seed", type=int, default=9, help="the sample's seed (default 9)")
    ap.add_argument("--limit", type=int, default=0, help="only the first N runs (a quick look)")
    ap.add_argument("--json", type=Path, dest="json_out", help="write every fire here")
    args = ap.parse_args(argv)
    labels = chosen_labels(args.labels, args.source)
    repos = repos_of(args.repo)
    resolved = swebench_resolved(labels, repos)
    labels = [{**lab, "resolved": resolved[lab["id"]]} if lab["id"] in resolved else lab
              for lab in labels]
    runs, problems = labelled_runs(labels, repos, "all")
    # Which code is measured: a comparison of two snapshots must show two paths here.
    print(f"semloop from {Path(semloop.__file__).parent}", file=sys.stderr)
    for p in problems:
        print("skipped:", p, file=sys.stderr)
    if args.sample and args.sample < len(runs):
        chosen = set(random.Random(args.seed).sample(range(len(runs)), args.sample))
        runs = [r for k, r in enumerate(runs) if k in chosen]
    if args.limit:
        runs = runs[: args.limit]
    config = (load_evaluators_config(DEFAULT_CONFIG) if DEFAULT_CONFIG.is_file()
              else EvaluatorsConfig())
    names = tuple(n for n in (*RUN_LEVEL, *CONVERSATION_LEVEL)
                  if not args.evaluator or n in args.evaluator)
    fires, ms, counts = evaluate(runs, config, names)
    by: dict[str, int] = defaultdict(int)
    for label, run in runs:
        by[outcome(run, label.get("resolved"))] += 1
    print(f"{len(runs)} real runs: " + ", ".join(f"{by[o]} {o}" for o in OUTCOMES)
          + "; embedded judge (local), settings of docs/config/semantic-evaluators.yml")
    print(table(ms, counts, names))
    if args.json_out:
        args.json_out.write_text(json.dumps({"fires": fires}, indent=1, ensure_ascii=False) + "\n",
                                 encoding="utf-8")
        print(f"wrote {len(fires)} fires to {args.json_out}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
