"""How well an evaluator separates labelled cases: counts, rates with bootstrap intervals,
a threshold sweep and a Markdown report. Pure: results in, numbers and text out.

A case counts as *fired* at threshold ``t`` when it has a confidence and it is at least
``t``. Undecided and errored cases have none: they never count as fired (so they lower
recall on positives and never add false positives) and are reported on their own.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ._evaluators import EvalResult

__all__ = [
    "Calibration",
    "Interval",
    "Summary",
    "calibrate",
    "render_report",
    "summarize",
]

_SWEEP = [round(0.05 * k, 2) for k in range(1, 20)]
_GRID = [round(0.01 * k, 2) for k in range(101)]


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None


@dataclass(frozen=True)
class Summary:
    """Counts over a set of results; rates are ``None`` when their denominator is 0."""

    cases: int
    fired: int
    undecided: int
    errors: int
    labelled: int = 0
    positives: int = 0
    negatives: int = 0
    true_positives: int = 0
    false_positives: int = 0
    undecided_positives: int = 0
    undecided_negatives: int = 0

    @property
    def false_positive_rate(self) -> float | None:
        return _ratio(self.false_positives, self.negatives)

    @property
    def recall(self) -> float | None:
        return _ratio(self.true_positives, self.positives)

    @property
    def precision(self) -> float | None:
        return _ratio(self.true_positives, self.true_positives + self.false_positives)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"cases": self.cases, "fired": self.fired,
                               "undecided": self.undecided, "errors": self.errors}
        if self.labelled:
            out.update(
                labelled=self.labelled, positives=self.positives, negatives=self.negatives,
                true_positives=self.true_positives, false_positives=self.false_positives,
                false_negatives=self.positives - self.true_positives,
                true_negatives=self.negatives - self.false_positives,
                undecided_positives=self.undecided_positives,
                undecided_negatives=self.undecided_negatives,
                false_positive_rate=self.false_positive_rate, recall=self.recall,
                precision=self.precision,
            )
        return out


def _fires(result: EvalResult, threshold: float | None) -> bool:
    if threshold is None:
        return result.fired
    return result.confidence is not None and result.confidence >= threshold


def summarize(
    results: Sequence[EvalResult], labels: Mapping[str, bool | None] | None = None,
    *, threshold: float | None = None,
) -> Summary:
    """Counts of ``results``; with ``labels`` (case id -> label) also the confusion counts.

    ``threshold`` re-reads every confidence at that line; ``None`` keeps each result's
    own ``fired``.
    """
    labels = labels or {}
    fired = [_fires(r, threshold) for r in results]
    counts = {"cases": len(results), "fired": sum(fired),
              "undecided": sum(r.undecided for r in results),
              "errors": sum(r.error is not None for r in results)}
    tp = fp = pos = neg = und_pos = und_neg = 0
    for result, hit in zip(results, fired):
        label = labels.get(result.case_id)
        if label is None:
            continue
        if label:
            pos += 1
            tp += hit
            und_pos += result.undecided
        else:
            neg += 1
            fp += hit
            und_neg += result.undecided
    return Summary(**counts, labelled=pos + neg, positives=pos, negatives=neg,
                   true_positives=tp, false_positives=fp, undecided_positives=und_pos,
                   undecided_negatives=und_neg)


@dataclass(frozen=True)
class Interval:
    """A rate with its 95% percentile-bootstrap interval."""

    value: float
    low: float
    high: float
    events: int
    trials: int

    @property
    def rule_of_three(self) -> float | None:
        """With no event in ``trials``, the one-sided 95% upper bound 3/n: a bootstrap of
        zero events is [0, 0], which says nothing about what was not seen."""
        return 3.0 / self.trials if self.events == 0 and self.trials else None

    def text(self) -> str:
        base = (f"{self.value:.1%} ({self.events}/{self.trials}; 95% CI "
                f"{self.low:.1%}–{self.high:.1%}")
        bound = self.rule_of_three
        return base + (f"; ≤ {bound:.1%} by the rule of three)" if bound is not None else ")")


def _bootstrap(hits: Sequence[bool], rng: random.Random, resamples: int) -> Interval | None:
    n = len(hits)
    if n == 0:
        return None
    rates = sorted(sum(rng.choices(hits, k=n)) / n for _ in range(resamples))
    low = rates[int(0.025 * (resamples - 1))]
    high = rates[math.ceil(0.975 * (resamples - 1))]
    return Interval(sum(hits) / n, low, high, sum(hits), n)


@dataclass(frozen=True)
class Calibration:
    """Everything the calibration report states, computed once."""

    evaluator: str
    judge: str
    threshold: float
    summary: Summary
    positive_scores: tuple[float, ...]
    negative_scores: tuple[float, ...]
    false_positive_rate: Interval | None
    recall: Interval | None
    sweep: tuple[tuple[float, Summary], ...]
    zero_fp_threshold: float | None
    zero_fp_recall: float | None
    mean_cost_usd: float
    mean_latency_ms: float
    median_latency_ms: float
    p95_latency_ms: float
    mean_input_tokens: float
    mean_output_tokens: float
    seed: int
    resamples: int

    @property
    def margin(self) -> float | None:
        """Mean positive score minus mean negative score."""
        if not self.positive_scores or not self.negative_scores:
            return None
        return statistics.fmean(self.positive_scores) - statistics.fmean(self.negative_scores)


def calibrate(
    results: Sequence[EvalResult], labels: Mapping[str, bool | None], *, evaluator: str,
    judge: str, threshold: float, seed: int = 0, resamples: int = 2000,
) -> Calibration:
    """The calibration of ``results`` against ``labels`` at ``threshold``; the bootstrap is
    seeded, so the same results always give the same report."""
    labelled = [(r, labels[r.case_id]) for r in results if labels.get(r.case_id) is not None]
    pos = [r for r, label in labelled if label]
    neg = [r for r, label in labelled if not label]
    rng = random.Random(seed)
    fp_ci = _bootstrap([_fires(r, threshold) for r in neg], rng, resamples)
    recall_ci = _bootstrap([_fires(r, threshold) for r in pos], rng, resamples)
    neg_scores = [r.confidence for r in neg if r.confidence is not None]
    zero_fp = next((t for t in _GRID if all(s < t for s in neg_scores)), None) if neg else None
    zero_fp_recall = (
        summarize(results, labels, threshold=zero_fp).recall if zero_fp is not None else None
    )
    latencies = sorted(r.latency_ms for r in results) or [0.0]
    return Calibration(
        evaluator=evaluator, judge=judge, threshold=threshold,
        summary=summarize(results, labels, threshold=threshold),
        positive_scores=tuple(r.confidence for r in pos if r.confidence is not None),
        negative_scores=tuple(neg_scores),
        false_positive_rate=fp_ci, recall=recall_ci,
        sweep=tuple((t, summarize(results, labels, threshold=t)) for t in _SWEEP),
        zero_fp_threshold=zero_fp, zero_fp_recall=zero_fp_recall,
        mean_cost_usd=statistics.fmean([r.cost_usd for r in results]) if results else 0.0,
        mean_latency_ms=statistics.fmean(latencies),
        median_latency_ms=statistics.median(latencies),
        p95_latency_ms=latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))],
        mean_input_tokens=statistics.fmean([r.input_tokens for r in results]) if results else 0.0,
        mean_output_tokens=(statistics.fmean([r.output_tokens for r in results])
                            if results else 0.0),
        seed=seed, resamples=resamples,
    )


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.1%}"


def _stats(scores: Sequence[float]) -> str:
    if not scores:
        return "none decided"
    return (f"n = {len(scores)}, mean {statistics.fmean(scores):.3f}, "
            f"min {min(scores):.3f}, max {max(scores):.3f}")


def render_report(cal: Calibration, *, dataset: str, histogram: str | None = None,
                  note: str = "", command: str = "") -> str:
    """The Markdown report of ``cal``; ``histogram`` is the PNG's path relative to it and
    ``command`` the command line that reproduces it."""
    s = cal.summary
    lines = [
        f"# {cal.evaluator} calibration ({cal.judge} judge)",
        "",
        (f"Dataset `{dataset}`: {s.labelled} labelled cases, {s.positives} positive, "
        f"{s.negatives} negative. Threshold {cal.threshold:g} (fires when P(failure) ≥ "
        f"threshold). Generated by `{command or 'semloop calibrate'}`; bootstrap: "
        f"{cal.resamples} resamples, seed {cal.seed}."),
    ]
    if note:
        lines += ["", note]
    lines += [
        "",
        "## Score distributions",
        "",
        f"- positives: {_stats(cal.positive_scores)}",
        f"- negatives: {_stats(cal.negative_scores)}",
        "- margin between the means: "
        + ("—" if cal.margin is None else f"{cal.margin:+.3f}"),
        (f"- undecided: {s.undecided_positives} positive, {s.undecided_negatives} negative; "
        f"judge errors: {s.errors}"),
    ]
    if histogram:
        lines += ["", f"![score histogram]({histogram})"]
    lines += [
        "",
        f"## At the configured threshold ({cal.threshold:g})",
        "",
        "| measure | value |",
        "|---|---|",
        "| false-positive rate | "
        + (cal.false_positive_rate.text() if cal.false_positive_rate else "— (no negatives)")
        + " |",
        "| recall | " + (cal.recall.text() if cal.recall else "— (no positives)") + " |",
        f"| precision | {_pct(s.precision)} |",
        f"| fired / cases | {s.fired}/{s.cases} |",
        "",
        "## Threshold sweep",
        "",
        "| threshold | false positives | FP rate | recall | precision |",
        "|---|---|---|---|---|",
    ]
    for t, row in cal.sweep:
        lines.append(f"| {t:.2f} | {row.false_positives}/{row.negatives} | "
                     f"{_pct(row.false_positive_rate)} | {_pct(row.recall)} | "
                     f"{_pct(row.precision)} |")
    if cal.zero_fp_threshold is None:
        zero = "no threshold in 0.00–1.00 gives zero false positives"
    else:
        zero = (f"{cal.zero_fp_threshold:.2f} (recall there {_pct(cal.zero_fp_recall)}; "
                "on a grid of 0.01)")
    lines += [
        "",
        f"Lowest threshold with zero false positives: {zero}.",
        "",
        "## Cost and latency per evaluation",
        "",
        f"- cost: ${cal.mean_cost_usd:.6f} mean",
        (f"- latency: {cal.mean_latency_ms:.1f} ms mean, {cal.median_latency_ms:.1f} ms "
        f"median, {cal.p95_latency_ms:.1f} ms p95 (wall clock around the judge call, "
        "on this machine)"),
        f"- tokens: {cal.mean_input_tokens:.0f} in, {cal.mean_output_tokens:.0f} out (mean)",
        "",
    ]
    return "\n".join(lines)
