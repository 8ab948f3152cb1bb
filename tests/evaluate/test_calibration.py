"""Counts, bootstrap intervals, the sweep and the report, on hand-made results."""

from __future__ import annotations

from semloop.evaluate import EvalResult, calibrate, render_report, summarize


def _result(case_id: str, confidence: float | None, *, error: str | None = None,
            latency: float = 10.0) -> EvalResult:
    return EvalResult(
        evaluator="CONFUSION_LOOP", case_id=case_id,
        fired=confidence is not None and confidence >= 0.5, confidence=confidence,
        undecided=confidence is None, reasoning="", judge="mock", latency_ms=latency,
        cost_usd=0.001, input_tokens=100, output_tokens=5, error=error)


POSITIVES = [0.9, 0.8, 0.7, 0.45, None]  # one miss below 0.5, one undecided
NEGATIVES = [0.1, 0.2, 0.3, 0.55, None]  # one false positive at 0.5


def _data() -> tuple[list[EvalResult], dict[str, bool | None]]:
    results = [_result(f"p{k}", c) for k, c in enumerate(POSITIVES)]
    results += [_result(f"n{k}", c, error="down" if c is None else None)
                for k, c in enumerate(NEGATIVES)]
    results.append(_result("unlabelled", 0.99))
    labels: dict[str, bool | None] = {f"p{k}": True for k in range(5)}
    labels |= {f"n{k}": False for k in range(5)}
    labels["unlabelled"] = None
    return results, labels


def test_summary_counts_rates_and_undecided() -> None:
    results, labels = _data()
    s = summarize(results, labels)
    assert (s.cases, s.fired, s.undecided, s.errors) == (11, 5, 2, 1)
    assert (s.positives, s.negatives, s.true_positives, s.false_positives) == (5, 5, 3, 1)
    assert (s.false_positive_rate, s.recall, s.precision) == (0.2, 0.6, 0.75)
    assert (s.undecided_positives, s.undecided_negatives) == (1, 1)
    out = s.to_dict()
    assert out["false_negatives"] == 2 and out["true_negatives"] == 4
    assert summarize(results, labels, threshold=0.6).false_positives == 0
    assert "recall" not in summarize(results).to_dict()


def test_calibration_is_deterministic_and_finds_the_zero_fp_line() -> None:
    results, labels = _data()
    cal = calibrate(results, labels, evaluator="CONFUSION_LOOP", judge="mock", threshold=0.5)
    again = calibrate(results, labels, evaluator="CONFUSION_LOOP", judge="mock", threshold=0.5)
    assert cal == again
    assert cal.false_positive_rate is not None and cal.recall is not None
    assert cal.false_positive_rate.value == 0.2 and cal.recall.value == 0.6
    assert 0.0 <= cal.false_positive_rate.low <= 0.2 <= cal.false_positive_rate.high <= 1.0
    assert cal.zero_fp_threshold == 0.56 and cal.zero_fp_recall == 0.6
    assert round(cal.margin or 0, 4) == round((0.9 + 0.8 + 0.7 + 0.45) / 4 - (0.1 + 0.2 + 0.3 + 0.55) / 4, 4)
    assert [t for t, _ in cal.sweep][:3] == [0.05, 0.1, 0.15]
    other_seed = calibrate(results, labels, evaluator="CONFUSION_LOOP", judge="mock",
                           threshold=0.5, seed=1)
    assert other_seed.false_positive_rate.value == cal.false_positive_rate.value  # type: ignore[union-attr]


def test_no_event_gives_the_rule_of_three_bound() -> None:
    results, labels = _data()
    cal = calibrate(results, labels, evaluator="X", judge="mock", threshold=0.6)
    assert cal.false_positive_rate is not None
    assert (cal.false_positive_rate.low, cal.false_positive_rate.high) == (0.0, 0.0)
    assert cal.false_positive_rate.rule_of_three == 3 / 5
    assert "≤ 60.0% by the rule of three" in cal.false_positive_rate.text()


def test_the_report_states_every_required_figure() -> None:
    results, labels = _data()
    cal = calibrate(results, labels, evaluator="CONFUSION_LOOP", judge="mock", threshold=0.5)
    text = render_report(cal, dataset="calibration/confusion_loop.jsonl",
                         histogram="confusion_loop.png", note="Seen while tuning.")
    for needle in (
        "# CONFUSION_LOOP calibration (mock judge)",
        "10 labelled cases, 5 positive, 5 negative",
        "- positives: n = 4, mean 0.713",
        "- negatives: n = 4, mean 0.288",
        "- margin between the means: +0.425",
        "![score histogram](confusion_loop.png)",
        "| false-positive rate | 20.0% (1/5; 95% CI",
        "| recall | 60.0% (3/5; 95% CI",
        "| 0.55 | 1/5 | 20.0% | 60.0% | 75.0% |",
        "| 0.60 | 0/5 | 0.0% | 60.0% | 100.0% |",
        "Lowest threshold with zero false positives: 0.56 (recall there 60.0%",
        "- cost: $0.001000 mean",
        "- latency: 10.0 ms mean, 10.0 ms median, 10.0 ms p95",
        "Seen while tuning.",
    ):
        assert needle in text, needle
