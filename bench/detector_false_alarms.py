"""How often each structural detector fires on real public agent runs, healthy and stuck.

The runs are the hand-labelled public trajectories of ``bench/real_runs/`` (tau-bench,
SWE-agent, mini-swe-agent), read from local copies of their repositories through
semloop's own importers, tool outputs whole as the files hold them (see
``bench/make_real_runs.py`` and ``bench/real_runs/README.md``). Every single-run detector
runs with its defaults and no baseline (the baseline detectors use their static
fallbacks, as for an agent's first 20 runs). A detector that fires on a run labelled
healthy (``progress``) is a false alarm unless that run really has the failure the
detector names; ``--show`` prints each firing's evidence to check.

    python bench/detector_false_alarms.py \\
        --repo sierra-research/tau-bench=/path/to/tau-bench \\
        --repo princeton-nlp/SWE-agent=/path/to/SWE-agent \\
        --repo SWE-agent/mini-swe-agent=/path/to/mini-swe-agent [--split tune,tune2] [--unlabelled] [--show]

The stuck runs are loops, not failures of most detectors: their column is context only.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from make_real_runs import LABELS, labelled_runs, read_file, read_labels, repos_of
from semloop.detect import DETECTORS, SINGLE_RUN, run_detectors
from semloop.ingest.formats import FORMATS

#: Dunetrace's 11 detectors after its first 23 (docs/detectors.md, sections 24-34).
NEWER = ("SILENT_TRUNCATION", "MODEL_FALLBACK_DRIFT", "MEMORY_POISONING", "DELEGATION_LOOP",
         "EXCESSIVE_RETRIEVAL", "AGENT_HANDOFF_FAILURE", "OVERSIZED_TOOL_ARGUMENTS",
         "SCATTERSHOT_TOOL_USE", "UNGROUNDED_DESTINATION", "UNRESOLVED_AMBIGUITY",
         "INSTRUMENTATION_DEGRADED")


def measure(found: list[tuple[dict[str, Any], Any]]) -> dict[str, Any]:
    """Per detector: runs fired on among the healthy and the stuck runs, by source."""
    totals: Counter[str] = Counter()
    fired: dict[str, Counter[str]] = {name: Counter() for name in DETECTORS}
    firings: list[dict[str, Any]] = []
    for lab, run in found:
        source = lab["source"].split("/")[-1]
        for group in (lab["label"], f"{lab['label']}:{source}"):
            totals[group] += 1
        for s in run_detectors(run):
            for group in (lab["label"], f"{lab['label']}:{source}"):
                fired[s.failure_type][group] += 1
            firings.append({"run": lab["id"], "label": lab["label"],
                            "detector": s.failure_type, "shadow": s.shadow,
                            "severity": s.severity, "evidence": s.evidence})
    return {"totals": dict(totals), "fired": {k: dict(v) for k, v in fired.items()},
            "firings": firings}


def unlabelled(labels: list[dict[str, Any]], repos: dict[str, Path]) -> dict[str, Any]:
    """Per detector: how many of the runs the labelled files hold but the labels do not
    name it fires on (not reviewed, so not a false-alarm rate: data no rule was tuned on).
    """
    named = {(lab["source"], lab["commit"], lab["path"], lab["index"] or 0) for lab in labels}
    files = sorted({(lab["source"], lab["commit"], lab["path"], lab["format"])
                    for lab in labels if lab["source"] in repos})
    runs = 0
    fired: Counter[str] = Counter()
    for source, commit, path, fmt in files:
        found = FORMATS[fmt](read_file(repos[source], commit, path), source=path,
                             clock=0.0).runs
        for i, run in enumerate(found):
            if (source, commit, path, i) in named:
                continue
            runs += 1
            fired.update({s.failure_type for s in run_detectors(run)})
    return {"runs": runs, "fired": dict(fired)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", action="append", default=[], metavar="OWNER/NAME=PATH",
                    help="a local copy (work tree or git dir) of a repository the labels name")
    ap.add_argument("--labels", type=Path, default=LABELS)
    ap.add_argument("--split", default="all",
                    help="comma-separated splits of labels.jsonl to measure (tune,tune2,...)")
    ap.add_argument("--show", action="store_true", help="print every firing's evidence")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--unlabelled", action="store_true",
                    help="also count firings on the runs of the same files no label names")
    args = ap.parse_args(argv)
    labels, repos = read_labels(args.labels), repos_of(args.repo)
    found, problems = labelled_runs(labels, repos, args.split)
    for p in problems:
        print("skipped:", p, file=sys.stderr)
    result = measure(found)
    if args.unlabelled:
        result["unlabelled"] = unlabelled(labels, repos)
    if args.json:
        print(json.dumps(result, indent=2, default=str))
        return 1 if problems else 0
    totals, fired = result["totals"], result["fired"]
    sources = sorted({k.split(":", 1)[1] for k in totals if ":" in k})
    healthy = totals.get("progress", 0)
    print(f"{len(found)} real public runs: {healthy} healthy, {totals.get('stuck', 0)} stuck "
          f"(default settings, no baseline)")
    print("| detector | default | healthy runs fired on | "
          + " | ".join(f"of them {s}" for s in sources) + " | stuck runs fired on |")
    print("|---|---|---|" + "---|" * len(sources) + "---|")
    for name in (*NEWER, *(n for n in SINGLE_RUN if n not in NEWER)):
        if name not in SINGLE_RUN:
            print(f"| {name} | worker only | not measured: needs a chain of parent runs, "
                  f"which these files do not hold |" + " |" * len(sources) + " |")
            continue
        f = fired[name]
        by = " | ".join(f"{f.get('progress:' + s, 0)}/{totals.get('progress:' + s, 0)}"
                        for s in sources)
        mode = "shadow" if DETECTORS[name].shadow else "live"
        print(f"| {name} | {mode} | {f.get('progress', 0)}/{healthy} | {by} | "
              f"{f.get('stuck', 0)}/{totals.get('stuck', 0)} |")
    if args.unlabelled:
        other = result["unlabelled"]
        print(f"{other['runs']} runs of the same files that no label names (not reviewed), "
              f"runs each detector fires on:")
        for name in (*NEWER, *(n for n in SINGLE_RUN if n not in NEWER)):
            if name in SINGLE_RUN:
                print(f"  {name:28s} {other['fired'].get(name, 0)}/{other['runs']}")
    if args.show:
        for x in result["firings"]:
            if x["label"] == "progress":
                shown = json.dumps(x["evidence"], default=str)
                print(f"{x['run']}: {x['detector']} {x['severity']}: {shown[:400]}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
