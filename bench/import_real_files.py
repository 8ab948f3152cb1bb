"""What ``semloop import`` reads from real files other projects exported, one line a file.

    .venv/bin/python bench/import_real_files.py FOLDER [FOLDER …] [--verbose]

FOLDER holds exported traces (OTLP JSON, OpenInference, Langfuse, LangSmith, OpenAI Agents,
deepeval …) collected from public repositories; they are not committed here (docs/import.md,
"Real files", names the sources). Per file: the detected format, runs, events, model steps
(and how many carry readable text, not an undecoded JSON document), tool calls (and how many carry their name and arguments),
tokens, goal, and every rejected record with its reason. A file is read *fully* when nothing
was rejected and every model step has text and every tool call a name; *partly* otherwise.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from semloop import TraceFormatError
from semloop.events import Run
from semloop.ingest.formats import convert


def measure(runs: Iterable[Run]) -> dict[str, Any]:
    """Counts of what the runs carry."""
    m = {"runs": 0, "events": 0, "llm": 0, "llm_text": 0, "tools": 0, "tools_named": 0,
         "tools_args": 0, "tokens": 0, "goal": 0}
    for run in runs:
        m["runs"] += 1
        m["events"] += len(run.events)
        started = run.started
        m["goal"] += bool(started and _readable(started.payload.get("input_text")))
        for e in run.events:
            p = e.payload
            if e.event_type == "llm.responded":
                m["llm"] += 1
                m["llm_text"] += _readable(p.get("output"))
                m["tokens"] += int(p.get("prompt_tokens") or 0) + int(
                    p.get("completion_tokens") or 0)
            elif e.event_type == "tool.called":
                m["tools"] += 1
                m["tools_named"] += bool(p.get("tool_name"))
                m["tools_args"] += p.get("args") not in (None, "", "{}", "null")
    return m


def _readable(value: Any) -> bool:
    """Text a judge can read: not empty, and not a JSON document left undecoded."""
    said = str(value or "").strip()
    if said[:1] in ("{", "[", '"'):
        try:
            json.loads(said)
        except ValueError:
            return True
        return False
    return bool(said) and said != "None"


def verdict(m: dict[str, Any], rejected: int) -> str:
    if not m["runs"]:
        return "rejected"
    if rejected or m["llm_text"] < m["llm"] or m["tools_named"] < m["tools"] or not (
            m["llm"] or m["tools"]):
        return "partly"
    return "fully"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--verbose", "-v", action="store_true", help="print each rejection")
    parser.add_argument("--json", type=Path, help="write the per-file figures here")
    args = parser.parse_args(argv)
    files = sorted(p for folder in args.folders
                   for p in (folder.rglob("*") if folder.is_dir() else [folder]) if p.is_file())
    print(f"{'file':52s} {'format':13s} {'runs':>4s} {'events':>6s} {'llm':>7s} "
          f"{'tools':>9s} {'tokens':>7s} {'goal':>4s} {'rej':>3s}  verdict")
    rows: list[dict[str, Any]] = []
    tally = {"fully": 0, "partly": 0, "rejected": 0}
    for path in files:
        name = str(path.relative_to(path.parents[1]))[-52:]
        try:
            result = convert(path, clock=0.0)
        except TraceFormatError as exc:
            print(f"{name:52s} {'-':13s} {'':>4s} {'':>6s} {'':>7s} {'':>9s} {'':>7s} {'':>4s} "
                  f"{'':>3s}  rejected: {str(exc)[:120]}")
            tally["rejected"] += 1
            rows.append({"file": name, "verdict": "rejected", "error": str(exc)})
            continue
        m = measure(result.runs)
        v = verdict(m, len(result.rejected))
        tally[v] += 1
        print(f"{name:52s} {result.format:13s} {m['runs']:4d} {m['events']:6d} "
              f"{m['llm_text']:3d}/{m['llm']:<3d} {m['tools_named']:2d}/{m['tools_args']:2d}/"
              f"{m['tools']:<3d} {m['tokens']:7d} {m['goal']:4d} {len(result.rejected):3d}  {v}")
        for error in result.rejected if args.verbose else result.rejected[:1]:
            print(f"    rejected: {str(error)[:160]}")
        rows.append({"file": name, "format": result.format, "verdict": v,
                     "rejected": [str(e) for e in result.rejected], **m})
    print(f"\n{len(files)} files: {tally['fully']} read fully, {tally['partly']} partly, "
          f"{tally['rejected']} rejected   (llm = with text/all; tools = named/with args/all)")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
