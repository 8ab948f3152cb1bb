"""``semloop score TRACE.json``: score one trace and explain the score."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer

from .._exceptions import SemloopError, TraceFormatError
from ..benchmark import judge_options
from ..benchmark.oracle import OracleBackend
from ..benchmark.runner import system_label
from ..evaluate import SemanticLoopDetection
from ..ingest.formats import deepeval
from ..lexical import LexicalLoopDetection, LoopResult
from ..trace import Trace
from ._options import ThresholdOpt, with_judge_flags
from .bench import JUDGES, fail, help_text

__all__ = ["read_trace", "register"]


def read_trace(path: Path, goal: str | None = None) -> tuple[Trace, str, str | None]:
    """The trace in ``path``, what kind of document it was, and its family if a bench row.

    A bench row has a ``root``; anything else with ``type`` or ``children`` is taken as a
    deepeval ``_trace_dict`` (the root span itself), whose goal comes from ``goal``.
    """
    source = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TraceFormatError("no such file", source=source) from None
    except (UnicodeDecodeError, IsADirectoryError) as exc:
        raise TraceFormatError(f"cannot read it as text ({exc})", source=source) from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        if exc.msg == "Extra data":
            raise TraceFormatError(
                "more than one JSON document; score takes one trace (for a JSONL dataset, "
                "use `semloop bench --dataset`)", source=source, line=exc.lineno
            ) from None
        raise TraceFormatError(
            f"not valid JSON ({exc.msg} at column {exc.colno})", source=source, line=exc.lineno
        ) from None
    try:
        if not isinstance(raw, Mapping):
            raise TraceFormatError(f"expected one JSON object, not {type(raw).__name__}")
        if "root" in raw:
            trace = Trace.from_dict(raw)
            if goal is not None:
                trace.goal = goal
            family = raw.get("family")
            return trace, "bench row", family if isinstance(family, str) else None
        if "type" in raw or "children" in raw:
            return Trace.from_deepeval_trace_dict(raw, goal=goal or ""), "deepeval trace dict", None
        if raw.keys() & deepeval.KEYS:
            return _deepeval_trace(text, source, goal), "deepeval trace", None
        raise TraceFormatError(
            "neither a bench row (no 'root') nor a deepeval trace (no 'type' or 'children', "
            "span buckets, root_spans or _trace_dict)"
        )
    except TraceFormatError as exc:
        raise exc.located(source=source) from None


def _deepeval_trace(text: str, source: str, goal: str | None) -> Trace:
    """The one trace of any other body ``semloop import`` reads as deepeval (the upload
    body, the in-process dict, ``{"input", "_trace_dict"}``), through that importer."""
    result = deepeval.convert(text, source=source)
    if result.rejected:
        raise result.rejected[0]
    if len(result.runs) != 1:
        raise TraceFormatError(f"holds {len(result.runs)} traces; score takes one")
    trace = result.runs[0].to_trace()
    if goal is not None:
        trace.goal = goal
    return trace


def _result_dict(result: LoopResult, threshold: float) -> dict[str, Any]:
    return {
        "score": result.score,
        "success": result.success,
        "loop": result.flags_loop(threshold),
        "threshold": threshold,
        "reason": result.reason,
        "score_breakdown": result.score_breakdown,
        "sub_reasons": dict(result.sub_reasons),
        "undecided": result.undecided,
        "cost_usd": result.cost_usd,
        "latency_ms": result.latency_ms,
        "input_tokens": result.input_tokens,
        "output_tokens": result.output_tokens,
        "answers": {qid: a.value for qid, a in result.answers.items()},
        "stuck_stretch": _stretch_dict(getattr(result, "stuck_stretch", None)),
    }


def _stretch_dict(stretch: tuple[int, int] | None) -> dict[str, int] | None:
    # The same shape as the loop worker's signal evidence.
    return None if stretch is None else {"first_step": stretch[0], "last_step": stretch[1]}


def score(
    trace_file: Annotated[
        Path, typer.Argument(metavar="TRACE.json", help="A bench row or one deepeval trace (a _trace_dict, an upload body…), as JSON.")
    ],
    judge: Annotated[
        str | None,
        typer.Option(help=f"Score with a judge ({', '.join(JUDGES)}) instead of the lexical check."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    goal: Annotated[
        str | None, typer.Option(help="The agent's goal (a deepeval dict does not carry one).")
    ] = None,
    threshold: ThresholdOpt = 0.5,
    *,
    flags: dict[str, Any],
) -> None:
    """Score one trace for loops and print the score, the reason and the breakdown.

    Without --judge this is deepeval's lexical metric; with one, the judged detector (one
    request to the judge). Exit code 0 whatever the verdict; 2 for unreadable input, 1 when
    the judge fails.
    """
    try:
        trace, kind, family = read_trace(trace_file, goal)
        if judge is None or judge == "lexical":
            system = "lexical"
            result = LexicalLoopDetection(threshold=threshold).measure(trace)
        else:
            if judge not in JUDGES:
                raise fail(f"unknown judge {judge!r}; choose from lexical, {', '.join(JUDGES)}")
            if judge == "oracle":
                if family is None:
                    raise fail("the oracle answers from a bench row's family; this file has none")
                backend: Any = OracleBackend(family)
            else:
                from ..judge.registry import make_backend

                backend = make_backend(
                    judge,
                    **judge_options(judge, **flags),
                )
            system = system_label(judge, getattr(backend, "model", None))
            result = SemanticLoopDetection(backend, threshold=threshold).measure(trace)
    except TraceFormatError as exc:
        raise fail(str(exc)) from None
    except SemloopError as exc:
        raise fail(f"{type(exc).__name__}: {exc}", code=1) from None

    doc = {"trace_id": trace.trace_id, "kind": kind, "system": system, **_result_dict(result, threshold)}
    if as_json:
        typer.echo(json.dumps(doc, indent=2, ensure_ascii=False))
        return
    verdict = "LOOP" if doc["loop"] else "no loop"
    typer.echo(f"{trace_file} ({kind}{', ' + trace.trace_id if trace.trace_id else ''}) · {system}")
    typer.echo(f"score     {result.score:.3f}  → {verdict} (threshold {threshold:g})")
    typer.echo(f"reason    {result.reason}")
    typer.echo("breakdown")
    for key, value in (result.score_breakdown or {}).items():
        typer.echo(f"  {key:<22}{value:.2f}  {result.sub_reasons.get(key, '')}")
    if doc["stuck_stretch"] is not None:
        stretch = doc["stuck_stretch"]
        typer.echo(f"stretch   steps {stretch['first_step']}–{stretch['last_step']} (0-based)")
    if system != "lexical":
        typer.echo(
            f"judge     {len(result.answers)} answers · undecided {'yes' if result.undecided else 'no'}"
            f" · ${result.cost_usd:.6f} · {result.input_tokens} input tokens · {result.latency_ms:.0f} ms"
        )


def register(app: typer.Typer) -> None:
    app.command("score", help=help_text(score.__doc__))(with_judge_flags(score))
