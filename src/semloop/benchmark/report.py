"""The bench's text tables and JSON document, built from :class:`SystemRun` results."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .runner import SystemRun

__all__ = ["STAGNATION_TITLE", "VERDICT_TITLE", "format_report", "format_table", "to_json"]

STAGNATION_TITLE = "Stagnation signal, correct calls per family (like-for-like: reasoning check only)"
VERDICT_TITLE = "Metric verdict, correct calls per family (whole combined score vs threshold)"
COLUMN = 16


def format_table(runs: Sequence[SystemRun], kind: str) -> str:
    """One table: a row per family (sorted), a ``hits/rows`` column per system."""
    per = [run.per_family(kind) for run in runs]
    families = sorted({f for table in per for f in table})
    width = max([len("family"), *map(len, families)]) + 2
    widths = [max(COLUMN, len(run.label) + 2) for run in runs]
    header = "family".ljust(width) + "".join(
        run.label.center(w) for run, w in zip(runs, widths)
    )
    lines = [header, "-" * len(header)]
    for family in families:
        cells = []
        for table, w in zip(per, widths):
            hits, total = table.get(family, (0, 0))
            cells.append(f"{hits}/{total}".center(w))
        lines.append(family.ljust(width) + "".join(cells))
    totals = []
    for run, w in zip(runs, widths):
        t = run.totals
        totals.append(f"{t[f'{kind}_hits']}/{t['traces']}".center(w))
    lines.append("-" * len(header))
    lines.append("total".ljust(width) + "".join(totals))
    return "\n".join(line.rstrip() for line in lines)


def _pct(hits: int, total: int) -> str:
    return f"{hits}/{total} ({100 * hits / total:.0f}%)" if total else "0/0"


def totals_line(run: SystemRun) -> str:
    t = run.totals
    latency = "n/a" if t["mean_latency_ms"] is None else f"{t['mean_latency_ms']:.0f} ms"
    return (
        f"  {run.label}: stagnation {_pct(t['stagnation_hits'], t['traces'])} · "
        f"metric verdict {_pct(t['verdict_hits'], t['traces'])} · "
        f"undecided {t['undecided']} · errors {t['errors']} · "
        f"${t['cost_usd']:.4f} ({t['input_tokens']:,} input tokens) · {latency} mean latency"
    )


def format_report(runs: Sequence[SystemRun], *, source: str, threshold: float) -> str:
    """Everything ``semloop bench`` prints after the progress bar."""
    n = len(runs[0].rows) if runs else 0
    parts = [
        f"{n} traces from {source} (threshold {threshold:g})",
        "",
        STAGNATION_TITLE,
        format_table(runs, "stagnation"),
        "",
        VERDICT_TITLE,
        format_table(runs, "verdict"),
        "",
        "Totals",
        *(totals_line(run) for run in runs),
    ]
    errors = [(run.label, r) for run in runs for r in run.rows if r.error]
    if errors:
        parts += ["", "Errors"]
        parts += [f"  ! {label} {r.trace_id}: {r.error}" for label, r in errors[:20]]
        if len(errors) > 20:
            parts.append(f"  … and {len(errors) - 20} more (see --json)")
    return "\n".join(parts)


def to_json(runs: Sequence[SystemRun], *, source: str = "", threshold: float = 0.5) -> dict[str, Any]:
    """``{"systems": {name: {"rows": [...], "totals": {...}}}, "dataset", "threshold"}``."""
    return {
        "dataset": source,
        "threshold": threshold,
        "systems": {run.name: run.to_dict() for run in runs},
    }
