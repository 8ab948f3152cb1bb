"""The per-family comparison chart: grouped bars, one panel for stagnation, one for the
verdict. Needs matplotlib (the ``cli`` extra); draws with the Agg canvas, never a window."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .._exceptions import MissingExtraError
from .runner import SystemRun

__all__ = ["plot_runs"]


def plot_runs(runs: Sequence[SystemRun], path: str | Path, *, title: str = "") -> Path:
    """Write a PNG comparing the systems family by family; returns the path."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as exc:
        raise MissingExtraError("semloop bench --plot", "cli", exc.name or "matplotlib") from exc
    families = sorted({row.family for run in runs for row in run.rows})
    fig = Figure(figsize=(max(8.0, 1.1 * len(families) + 2), 7.5), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(2, 1, sharex=True)
    width = 0.8 / max(1, len(runs))
    for ax, kind, heading in zip(axes, ("stagnation", "verdict"), ("Stagnation signal", "Metric verdict")):
        for k, run in enumerate(runs):
            table = run.per_family(kind)
            share = [table[f][0] / table[f][1] if f in table else 0.0 for f in families]
            xs = [i - 0.4 + width * (k + 0.5) for i in range(len(families))]
            t = run.totals
            ax.bar(xs, share, width, label=f"{run.label} ({t[f'{kind}_hits']}/{t['traces']})")
        ax.set_ylim(0, 1.3)
        ax.set_ylabel("share correct")
        ax.set_title(heading + " — correct calls per family")
        ax.legend(loc="upper center", ncols=max(1, len(runs)), fontsize="small", frameon=False)
        ax.grid(axis="y", alpha=0.3)
    axes[-1].set_xticks(range(len(families)))
    axes[-1].set_xticklabels(families, rotation=30, ha="right")
    if title:
        fig.suptitle(title)
    out = Path(path)
    fig.savefig(out, format="png", dpi=100)
    return out
