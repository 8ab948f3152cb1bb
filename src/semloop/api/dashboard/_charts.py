"""Charts as server-rendered SVG geometry: the templates draw what these compute, so the
pages need no chart library and no JavaScript. Pure: no I/O."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...store import Activity

__all__ = ["Bar", "RunsChart", "runs_chart", "sparkline"]

WIDTH, HEIGHT, PAD = 720.0, 200.0, 28.0


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    bucket: float
    runs: int
    flagged: int


@dataclass(frozen=True)
class RunsChart:
    """Bars of runs per bucket and a polyline of the share of them that got a signal."""

    bars: list[Bar]
    rate_points: str
    peak_runs: int
    peak_rate: float
    width: float = WIDTH
    height: float = HEIGHT
    pad: float = PAD


def runs_chart(activity: Sequence[Activity], since: float, bucket_s: int,
               buckets: int) -> RunsChart:
    """``buckets`` buckets from ``since`` (empty ones drawn as zero), runs as bars and the
    failure rate as a line scaled to its own peak."""
    start = since - since % bucket_s
    by_bucket = {a.bucket: a for a in activity}
    filled = [by_bucket.get(start + i * bucket_s, Activity(start + i * bucket_s, 0, 0))
              for i in range(buckets)]
    peak = max((a.runs for a in filled), default=0) or 1
    rates = [a.flagged / a.runs if a.runs else 0.0 for a in filled]
    peak_rate = max(rates, default=0.0) or 1.0
    inner_w, inner_h = WIDTH - 2 * PAD, HEIGHT - 2 * PAD
    step = inner_w / max(1, len(filled))
    bars, points = [], []
    for i, (a, rate) in enumerate(zip(filled, rates, strict=True)):
        h = inner_h * a.runs / peak
        x = PAD + i * step
        bars.append(Bar(round(x + step * 0.1, 1), round(PAD + inner_h - h, 1),
                        round(step * 0.8, 1), round(h, 1), a.bucket, a.runs, a.flagged))
        points.append(f"{x + step / 2:.1f},{PAD + inner_h - inner_h * rate / peak_rate:.1f}")
    return RunsChart(bars, " ".join(points), max(a.runs for a in filled) if filled else 0,
                     peak_rate if any(rates) else 0.0)


def sparkline(values: Sequence[float | None], width: float = 160.0, height: float = 32.0,
              peak: float | None = None) -> str:
    """SVG polyline points of ``values`` scaled into ``width`` x ``height`` (to ``peak``,
    else their own maximum); a ``None`` (no figure that day) gets no point."""
    known = [v for v in values if v is not None]
    if not known:
        return ""
    top = peak or max(known) or 1.0
    step = width / max(1, len(values) - 1)
    return " ".join(f"{i * step:.1f},{height - 2 - (height - 4) * v / top:.1f}"
                    for i, v in enumerate(values) if v is not None)
