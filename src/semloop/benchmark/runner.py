"""Run loop detectors over bench rows and count what they get right.

Per row, for each system:

* stagnation correct ⇔ ``(score_breakdown["reasoning_stagnation"] < 1.0) == row.stagnation``
  (like for like: the reasoning check only);
* verdict correct ⇔ ``result.flags_loop(threshold) == row.loop`` (the whole combined score).

A judge that fails on a row (any exception; normally a :class:`~semloop.JudgeError`) makes
that row an error, counted as a miss; the run goes on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..evaluate import SemanticLoopDetection
from ..lexical import LexicalLoopDetection, LoopResult
from .dataset import BenchRow
from .oracle import OracleBackend

__all__ = [
    "RowOutcome",
    "System",
    "SystemRun",
    "judge_options",
    "make_system",
    "run_system",
    "system_label",
]

Scorer = Callable[[BenchRow], LoopResult]


@dataclass(frozen=True)
class System:
    """A named way of scoring a row. ``name`` keys the JSON; ``label`` heads the table."""

    name: str
    label: str
    score: Scorer


@dataclass(frozen=True)
class RowOutcome:
    trace_id: str
    family: str
    stagnation_correct: bool
    verdict_correct: bool
    score: float | None = None
    score_breakdown: dict[str, float] | None = None
    undecided: bool = False
    latency_ms: float = 0.0
    cost_usd: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "trace_id": self.trace_id,
            "family": self.family,
            "stagnation_correct": self.stagnation_correct,
            "verdict_correct": self.verdict_correct,
            "score": self.score,
            "score_breakdown": self.score_breakdown,
            "undecided": self.undecided,
            "latency_ms": self.latency_ms,
            "cost_usd": self.cost_usd,
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "error": self.error,
        }


@dataclass
class SystemRun:
    """One system's outcomes over a dataset."""

    name: str
    label: str
    rows: list[RowOutcome] = field(default_factory=list)

    def per_family(self, kind: str) -> dict[str, tuple[int, int]]:
        """family -> (hits, rows) for ``kind`` "stagnation" or "verdict"."""
        attr = f"{kind}_correct"
        out: dict[str, tuple[int, int]] = {}
        for row in self.rows:
            hits, total = out.get(row.family, (0, 0))
            out[row.family] = (hits + int(getattr(row, attr)), total + 1)
        return out

    @property
    def totals(self) -> dict[str, Any]:
        n = len(self.rows)
        stag = sum(r.stagnation_correct for r in self.rows)
        verdict = sum(r.verdict_correct for r in self.rows)
        # Mean over rows that actually called a judge (lexical and skipped rows take 0 ms).
        latencies = [r.latency_ms for r in self.rows if r.latency_ms > 0 and r.error is None]
        return {
            "label": self.label,
            "traces": n,
            "stagnation_hits": stag,
            "verdict_hits": verdict,
            "stagnation_accuracy": stag / n if n else 0.0,
            "verdict_accuracy": verdict / n if n else 0.0,
            "undecided": sum(r.undecided for r in self.rows),
            "errors": sum(r.error is not None for r in self.rows),
            "cost_usd": sum(r.cost_usd for r in self.rows),
            "input_tokens": sum(r.input_tokens for r in self.rows),
            "output_tokens": sum(r.output_tokens for r in self.rows),
            "mean_latency_ms": sum(latencies) / len(latencies) if latencies else None,
        }

    def to_dict(self) -> dict[str, Any]:
        return {"rows": [r.to_dict() for r in self.rows], "totals": self.totals}


def judge_options(
    name: str,
    *,
    model: str | None = None,
    base_url: str | None = None,
    jev_path: str | None = None,
    api_key_env: str | None = None,
    input_usd_per_mtok: float | None = None,
    output_usd_per_mtok: float | None = None,
) -> dict[str, Any]:
    """The command-line options that apply to judge ``name``, as constructor arguments."""
    if name == "jev":
        return {"model": model, "base_url": base_url, "path": jev_path}
    if name in ("llm", "deepeval"):  # the DeepEval mode takes its chat client's options
        return {
            "model": model,
            "base_url": base_url,
            "api_key_env": api_key_env,
            "input_usd_per_mtok": input_usd_per_mtok,
            "output_usd_per_mtok": output_usd_per_mtok,
        }
    return {}


def make_system(
    name: str, *, threshold: float = 0.5, options: dict[str, Any] | None = None
) -> System:
    """``lexical``, ``oracle``, or a judge known to :func:`semloop.judge.registry.make_backend`."""
    if name == "lexical":
        lexical = LexicalLoopDetection(threshold=threshold)
        return System("lexical", "lexical", lambda row: lexical.measure(row.trace))
    if name == "oracle":

        def oracle(row: BenchRow) -> LoopResult:
            # A fresh backend per row: the oracle's answers depend on the row's family.
            metric = SemanticLoopDetection(OracleBackend(row.family), threshold=threshold)
            return metric.measure(row.trace)

        return System("oracle", "oracle", oracle)
    from ..judge.registry import make_backend

    backend = make_backend(name, **(options or {}))
    metric = SemanticLoopDetection(backend, threshold=threshold)
    model = getattr(backend, "model", None)
    return System(name, system_label(name, model), lambda row: metric.measure(row.trace))


def system_label(name: str, model: object) -> str:
    """``name:model`` for the table heading, without repeating a model that already says it."""
    if not isinstance(model, str) or not model or model == name:
        return name
    return model if model.startswith(f"{name}:") else f"{name}:{model}"


def _outcome(row: BenchRow, result: LoopResult, threshold: float) -> RowOutcome:
    breakdown = dict(result.score_breakdown or {})
    stagnated = breakdown.get("reasoning_stagnation", 1.0) < 1.0
    return RowOutcome(
        trace_id=row.trace_id,
        family=row.family,
        stagnation_correct=stagnated == row.stagnation,
        verdict_correct=result.flags_loop(threshold) == row.loop,
        score=result.score,
        score_breakdown=breakdown,
        undecided=result.undecided,
        latency_ms=result.latency_ms,
        cost_usd=result.cost_usd,
        input_tokens=result.input_tokens,
        output_tokens=result.output_tokens,
    )


def run_system(
    system: System,
    rows: Sequence[BenchRow],
    *,
    threshold: float = 0.5,
    on_row: Callable[[RowOutcome], None] | None = None,
) -> SystemRun:
    """Score every row with ``system``; ``on_row`` is called after each (progress bars)."""
    run = SystemRun(system.name, system.label)
    for row in rows:
        try:
            outcome = _outcome(row, system.score(row), threshold)
        except Exception as exc:  # noqa: BLE001 - one bad answer must not end the bench
            outcome = RowOutcome(
                trace_id=row.trace_id,
                family=row.family,
                stagnation_correct=False,
                verdict_correct=False,
                error=f"{type(exc).__name__}: {exc}",
            )
        run.rows.append(outcome)
        if on_row is not None:
            on_row(outcome)
    return run
