"""The calibration histogram: positives' and negatives' scores, their means and the
threshold. Needs matplotlib (the ``cli`` extra); draws with the Agg canvas, never a window."""

from __future__ import annotations

import statistics
from pathlib import Path

from .._exceptions import MissingExtraError
from .calibration import Calibration

__all__ = ["plot_calibration"]


def plot_calibration(cal: Calibration, path: str | Path) -> Path:
    """Write the PNG histogram of ``cal``'s scores; returns the path."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as exc:
        raise MissingExtraError("semloop calibrate", "cli", exc.name or "matplotlib") from exc
    fig = Figure(figsize=(8.0, 4.5), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    bins = [k / 20 for k in range(21)]
    for scores, label, colour in ((cal.negative_scores, "negatives", "tab:blue"),
                                  (cal.positive_scores, "positives", "tab:red")):
        if not scores:
            continue
        mean = statistics.fmean(scores)
        ax.hist(scores, bins=bins, alpha=0.55, color=colour,
                label=f"{label} (n={len(scores)}, mean {mean:.2f})")
        ax.axvline(mean, color=colour, linestyle=":", linewidth=1.5)
    ax.axvline(cal.threshold, color="black", linewidth=1.2, label=f"threshold {cal.threshold:g}")
    margin = cal.margin
    title = f"{cal.evaluator} on the {cal.judge} judge"
    if margin is not None:
        title += f" — margin between means {margin:+.2f}"
    ax.set_title(title)
    ax.set_xlabel("P(failure) given by the evaluator")
    ax.set_ylabel("cases")
    ax.set_xlim(0, 1)
    ax.legend(loc="best", fontsize="small", framealpha=0.9)
    ax.grid(axis="y", alpha=0.3)
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, format="png", dpi=100)
    return out
