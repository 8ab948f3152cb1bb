"""Rebuild the real-run corpus (bench rows) from local copies of public repositories.

The trajectories are not in this repository: bench/real_runs/labels.jsonl names each run
(repository, commit, path, position in the file) with our label. This script reads every
labelled file from a local copy of its repository (``git show COMMIT:PATH``, so a bare
mirror works too, or the file in a work tree when the commit is not there), imports it
with semloop's own importer for its format, and writes one bench row per run::

    python bench/make_real_runs.py \
        --repo sierra-research/tau-bench=/path/to/tau-bench \
        --repo princeton-nlp/SWE-agent=/path/to/SWE-agent \
        --repo SWE-agent/mini-swe-agent=/path/to/mini-swe-agent \
        --repo gruckion/mini-swe-agent=/path/to/fork --repo sierra-research/tau2-bench=/path/to/tau2 \
        --repo oscaralvaro/tau2-bench=/path/to/tau2-fork \
        --repo OpenHands/benchmarks=/path/to/openhands-benchmarks \
        --split heldout2 --out /tmp/real-heldout2.jsonl
    semloop bench --dataset /tmp/real-heldout2.jsonl --judge local

Rows carry ``family`` = ``<split>/<label>`` (``heldout2/stuck``, ``tune/progress``), so the
bench's per-family table reads as "stuck runs caught" and "healthy runs flagged".
``loop`` and ``stagnation`` are both true for a stuck run. A run whose file cannot be read
is reported and skipped (exit 1 at the end), never guessed.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

from semloop.events import Run
from semloop.ingest.formats import FORMATS

LABELS = HERE / "real_runs" / "labels.jsonl"

# A tau2-bench judge-viewer file (pull request 103) holds each simulation only as the
# numbered transcript the judge was prompted with: "N. Assistant: …", "N. User: …",
# "N. Assistant TOOL CALL -> name {python dict}", "N. Tool <call id>: …". Only the line
# numbered next starts a message, so numbered lists inside a reply stay in it.
_LINE = re.compile(r"^(\d+)\. (Assistant TOOL CALL -> |Assistant: |User: |Tool (\S+): )", re.MULTILINE)


def transcript_messages(text: str) -> list[dict[str, Any]]:
    """A judge-viewer transcript as tau2 ``messages``: a reply and the calls that follow it
    are one agent message; each call takes the id of the next tool result, in order."""
    body = text.partition("Conversation transcript:\n")[2].split("\n\nJudging instructions:")[0]
    starts, expected = [], 1
    for m in _LINE.finditer(body):
        if int(m.group(1)) == expected:
            starts.append(m)
            expected += 1
    messages: list[dict[str, Any]] = []
    pending: list[dict[str, Any]] = []
    for i, m in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(body)
        content = body[m.end():end].rstrip("\n")
        kind = m.group(2)
        if kind.startswith("Assistant TOOL CALL"):
            name, _, args = content.partition(" ")
            call = {"id": None, "name": name, "arguments": ast.literal_eval(args or "{}")}
            last = messages[-1] if messages else None
            if last is None or last["role"] != "assistant":
                last = {"role": "assistant", "content": None, "tool_calls": []}
                messages.append(last)
            last.setdefault("tool_calls", []).append(call)
            pending.append(call)
        elif kind.startswith("Tool"):
            if pending:
                pending.pop(0)["id"] = m.group(3)
            messages.append({"role": "tool", "id": m.group(3), "content": content})
        else:
            role = "assistant" if kind.startswith("Assistant") else "user"
            messages.append({"role": role, "content": content})
    return messages


def judge_viewer_file(data: bytes) -> bytes:
    """A judge-viewer file (JSON lines with ``prompt``, or ``{"entries": [...]}`` with
    ``judge_prompt``) as a tau2 result file, read by the tau-bench importer. Only the
    transcript, the task id and the simulation id are read: the judge's fields are not."""
    text = data.decode("utf-8")
    try:
        records = json.loads(text)["entries"]
        field = "judge_prompt"
    except (json.JSONDecodeError, KeyError, TypeError):
        records = [json.loads(line) for line in text.splitlines() if line.strip()]
        field = "prompt"
    sims = [{"id": r["simulation_id"], "task_id": r["task_id"], "trial": 0,
             "messages": transcript_messages(r[field])} for r in records]
    return json.dumps({"simulations": sims}).encode()


def task_results_file(data: bytes) -> bytes:
    """An evaluation file of tau2 experiment scripts (``{"task_results": [{"trajectory":
    simulation, ...}], "policy": ...}``) as a tau2 result file: the simulations of the results
    that keep one, in order, each with the file's policy (the agent's system prompt). The
    results' own summaries (success, actions) are not read."""
    doc = json.loads(data)
    policy = doc.get("policy")
    extra = {"policy": policy} if isinstance(policy, str) and policy.strip() else {}
    sims = [{**r["trajectory"], **extra} for r in doc["task_results"] if r.get("trajectory")]
    return json.dumps({"simulations": sims}).encode()


def read_file(root: Path, commit: str, path: str) -> bytes:
    """A file at ``commit`` of a local copy (bare or not), else from its work tree."""
    try:
        return subprocess.run(
            ["git", "-C", str(root), "show", f"{commit}:{path}"],
            check=True, capture_output=True).stdout
    except (subprocess.CalledProcessError, FileNotFoundError):
        return (root / path).read_bytes()  # a work tree without that commit


def read_event_store(root: Path, commit: str, path: str) -> bytes:
    """OpenHands' event store (``…/event_service/events/event-NNNNN-<id>.json``, one event a
    file) as one event list, in the files' order, for the ``openhands`` importer."""
    try:
        names = subprocess.run(
            ["git", "-C", str(root), "ls-tree", "--name-only", f"{commit}:{path}"],
            check=True, capture_output=True, text=True).stdout.split()
    except (subprocess.CalledProcessError, FileNotFoundError):
        names = [p.name for p in (root / path).iterdir()]
    events = [json.loads(read_file(root, commit, f"{path}/{name}"))
              for name in sorted(n for n in names if n.endswith(".json"))]
    return json.dumps(events).encode()


def swebench_resolved(labels: list[dict[str, Any]], repos: dict[str, Path]) -> dict[str, bool]:
    """{run id: resolved} for the runs that SWE-bench's report on their submission names: a
    run ``DIR/<instance>/<instance>.traj.json`` and the report ``DIR/sb-cli-reports/*.json``
    (``resolved_ids``, ``unresolved_ids``), both at the label's commit."""
    reports: dict[tuple[str, str, str], dict[str, bool]] = {}
    out: dict[str, bool] = {}
    for lab in labels:
        root = repos.get(lab["source"])
        folder, instance = str(Path(lab["path"]).parent.parent), Path(lab["path"]).parent.name
        if root is None:
            continue
        key = (lab["source"], lab["commit"], folder)
        if key not in reports:
            reports[key] = {}
            try:
                names = subprocess.run(
                    ["git", "-C", str(root), "ls-tree", "--name-only", f"{lab['commit']}:{folder}/sb-cli-reports"],
                    check=True, capture_output=True, text=True).stdout.split()
            except (subprocess.CalledProcessError, FileNotFoundError):
                names = []
            for name in names:
                report = json.loads(read_file(root, lab["commit"], f"{folder}/sb-cli-reports/{name}"))
                reports[key] |= {i: False for i in report.get("unresolved_ids", [])}
                reports[key] |= {i: True for i in report.get("resolved_ids", [])}
        if instance in reports[key]:
            out[lab["id"]] = reports[key][instance]
    return out


def labelled_runs(labels: list[dict[str, Any]], repos: dict[str, Path], split: str,
                  ) -> tuple[list[tuple[dict[str, Any], Run]], list[str]]:
    """(label, run) for each labelled run of ``split``, read through semloop's importer
    for its format (tool outputs whole, as the file holds them); and what could not be
    read."""
    out: list[tuple[dict[str, Any], Run]] = []
    problems: list[str] = []
    cache: dict[tuple[str, str, str], list[Run]] = {}
    for lab in labels:
        if split != "all" and lab["split"] not in split.split(","):
            continue
        root = repos.get(lab["source"])
        if root is None:
            problems.append(f"{lab['id']}: no --repo for {lab['source']}")
            continue
        key = (lab["source"], lab["commit"], lab["path"])
        if key not in cache:
            fmt = lab["format"]
            try:
                if fmt == "openhands-event-store":
                    data, fmt = read_event_store(root, lab["commit"], lab["path"]), "openhands"
                else:
                    data = read_file(root, lab["commit"], lab["path"])
            except OSError as exc:
                problems.append(f"{lab['id']}: cannot read {lab['path']}: {exc}")
                continue
            if fmt == "tau2-judge-viewer":
                data, fmt = judge_viewer_file(data), "tau-bench"
            elif fmt == "tau2-task-results":
                data, fmt = task_results_file(data), "tau-bench"
            elif fmt == "openhands-events":
                fmt = "openhands"  # an SDK event list
            result = FORMATS[fmt](data, source=lab["path"], clock=0.0)
            cache[key] = result.runs
        runs = cache[key]
        index = lab["index"] or 0
        if index >= len(runs):
            problems.append(f"{lab['id']}: the file holds {len(runs)} runs, not {index + 1}")
            continue
        out.append((lab, runs[index]))
    return out, problems


def rows(labels: list[dict[str, Any]], repos: dict[str, Path],
         split: str) -> tuple[list[dict[str, Any]], list[str]]:
    out: list[dict[str, Any]] = []
    found, problems = labelled_runs(labels, repos, split)
    for lab, run in found:
        trace = run.to_trace()
        stuck = lab["label"] == "stuck"
        row = {"trace_id": lab["id"], "family": f"{lab['split']}/{lab['label']}",
               "isolates": lab["why"], "loop": stuck, "stagnation": stuck,
               **{k: v for k, v in trace.to_dict().items() if k != "trace_id"}}
        out.append(row)
    return out, problems


def read_labels(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def repos_of(specs: list[str]) -> dict[str, Path]:
    """``OWNER/NAME=PATH`` arguments as {repository: local copy}."""
    repos = {}
    for spec in specs:
        name, _, path = spec.partition("=")
        repos[name] = Path(path)
    return repos


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", action="append", default=[], metavar="OWNER/NAME=PATH",
                    help="a local copy (work tree or git dir) of a repository the labels name")
    ap.add_argument("--labels", type=Path, default=LABELS)
    ap.add_argument("--split", default="all",
                    help="all, or a comma list of splits: tune, heldout (round 1, no longer "
                    "blind), tune2, heldout2 (round 2, no longer blind), tune3, heldout3 (round 3, no "
                    "longer blind), tune4, heldout4 (round 4, no longer blind), tune5, heldout5, heldout5b (round 5, no longer blind), tune6, heldout6 (round 6, no longer blind), heldout7 (round 7, no longer blind), tune8, heldout8 (round 8, no longer blind), heldout8b (round 8, no longer blind), heldout9 (round 9, no longer blind), heldout10 (round 10, no longer blind), heldout10b (round 10: the other airline runs of qwen2.5:7b, a blind check of the round-10 fixes), heldout10c (round 10: the distinct runs of a gpt-4.1 telecom no-user test file, a blind check of the round-9 fixes), heldout11 (round 11: gpt-4o telecom and retail runs read from judge-viewer transcripts, a blind check of the round-10 fixes), heldout12 (round 12: OpenHands agent-SDK runs of gpt-4o on OpenAgentSafety tasks, a new harness family, no longer blind), heldout13 (round 13: OpenHands agent-SDK event stores of Claude Sonnet 4 on SWE-bench tasks, picked by structure), heldout13b (round 13: the other 21 runs of the same stores), heldout14 (round 14: tau2 leaderboard runs of Claude Opus 4.6 and gpt-5.4, airline and medical triage, from the evaluator blind set), heldout14b (round 14: every other failed run of the same set), tune15, heldout15 (round 15: apollo-tau-bench generated domains and three retail forks), tune16, heldout16 (round 16: Llama tau-bench runs of Reapor-Yurnero, wrapped or not, and Grok tau2 runs of blakeelias)")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    built, problems = rows(read_labels(args.labels), repos_of(args.repo), args.split)
    with open(args.out, "w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in built)
    for p in problems:
        print("skipped:", p, file=sys.stderr)
    print(f"{len(built)} rows -> {args.out}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
