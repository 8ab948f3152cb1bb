"""``semloop evaluate FILE --evaluator NAME`` and ``semloop calibrate NAME``.

Thin: cases, evaluators, statistics and the report live in :mod:`semloop.evaluate`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any, NamedTuple

import typer

from .._exceptions import SemloopError, TraceFormatError
from ..benchmark import judge_options
from ..evaluate import (
    EVALUATORS,
    Case,
    EvalResult,
    EvaluatorsConfig,
    EvaluatorSettings,
    LoopEvaluator,
    QuestionEvaluator,
    calibrate,
    cases_from_runs,
    get_evaluator,
    load_evaluators_config,
    parse_case_lines,
    render_report,
    summarize,
)
from ..evaluate.config import DEFAULT_CONFIG
from ..judge import LOOP_KIND, Backend, require_kinds
from ..judge.registry import BACKENDS, make_backend
from ._options import with_judge_flags
from ._progress import progress
from .bench import fail, help_text

__all__ = ["FileEvaluation", "evaluate_cases", "evaluate_file", "load_cases", "register"]

AnyEvaluator = QuestionEvaluator | LoopEvaluator
#: Judges the command line offers (``mock`` needs scripted answers, so it is left out).
JUDGES = tuple(sorted(n for n in BACKENDS if n != "mock"))
_NAMES = ", ".join(n.lower() for n in EVALUATORS)
#: Where ``semloop calibrate`` writes its reports unless told otherwise.
_REPORTS = Path("docs/calibration")

JudgeOpt = Annotated[
    str | None,
    typer.Option(help=f"Judge: {', '.join(JUDGES)}. Default: the evaluator's judge in the "
                 "config (local, the embedded judge, as shipped)."),
]
ConfigOpt = Annotated[
    Path | None,
    typer.Option("--config", dir_okay=False,
                 help=f"semantic-evaluators.yml to read thresholds, floors and judges from. "
                 f"Default: {DEFAULT_CONFIG} when it exists here, else the built-in defaults "
                 "(the same values)."),
]


def _config(path: Path | None) -> EvaluatorsConfig:
    if path is not None:
        return load_evaluators_config(path)
    return load_evaluators_config(DEFAULT_CONFIG) if DEFAULT_CONFIG.is_file() else EvaluatorsConfig()


def _judge(evaluator: AnyEvaluator, settings: EvaluatorSettings, name: str | None,
           options: dict[str, Any]) -> Backend:
    """The judge to ask, checked up front for the evaluator's kind of question."""
    chosen = name or settings.judge or "local"
    if chosen not in JUDGES:
        raise fail(f"unknown judge {chosen!r}; choose from {', '.join(JUDGES)}")
    given = judge_options(chosen, **options)  # local takes none of them
    if chosen == settings.judge and settings.model and given.get("model") is None:
        given["model"] = settings.model
    judge = make_backend(chosen, **given)
    kind = evaluator.kind if isinstance(evaluator, QuestionEvaluator) else LOOP_KIND
    require_kinds(judge, {kind: {"kind": kind}})
    return judge


def _is_case_file(path: Path) -> bool:
    """True unless ``path`` is in a format ``semloop import`` recognises: cases are what is
    left, so a broken line of a case file is reported by its number, not as a format."""
    from ..ingest.formats import detect_format

    try:
        detect_format(path)
    except TraceFormatError:
        return True
    return False


def load_cases(path: Path, level: str) -> tuple[list[Case], list[str], list[str]]:
    """The cases of ``path`` for an evaluator of ``level``, one message per line or record
    that could not be read, and one note per run that has nothing to judge at that level
    (no output, no conversation id: not an error). ``path`` is a JSONL of cases or a trace
    file that ``semloop import`` reads (its runs become cases)."""
    if _is_case_file(path):
        with open(path, encoding="utf-8", errors="replace") as fh:
            cases, errors = parse_case_lines(fh, source=str(path), level=level)
        return cases, [str(e) for e in errors], []
    from ..ingest.formats import convert

    result = convert(path, "auto")
    cases, skipped = cases_from_runs(result.runs, level)
    located = [e if e.source else e.located(source=str(path)) for e in result.rejected]
    return cases, [str(e) for e in located], [f"{path}: {note}" for note in skipped]


def evaluate_cases(evaluator: AnyEvaluator, cases: Sequence[Case], judge: Backend,
                   settings: EvaluatorSettings, description: str) -> list[EvalResult]:
    """Every case through ``evaluator``, with a progress bar on a terminal."""
    return [evaluator(case, judge, settings)
            for case in progress(cases, description, at_least=20)]


class FileEvaluation(NamedTuple):
    """What :func:`evaluate_file` found."""

    results: list[EvalResult]
    labels: dict[str, bool | None]
    errors: list[str]  # lines or records that could not be read
    notes: list[str]  # runs with nothing to judge at the evaluator's level
    judge: Backend


def evaluate_file(
    path: Path, name: str, *, judge: str | None = None, config: Path | None = None,
    options: dict[str, Any] | None = None,
) -> FileEvaluation:
    """Evaluate every case of ``path`` with evaluator ``name``."""
    evaluator = get_evaluator(name)
    settings = _config(config).for_evaluator(evaluator.name)
    backend = _judge(evaluator, settings, judge, options or {})
    cases, errors, notes = load_cases(path, evaluator.level)
    results = evaluate_cases(evaluator, cases, backend, settings,
                             f"{evaluator.name.lower()} on {path.name}")
    labels = {case.id: case.label for case in cases}
    return FileEvaluation(results, labels, errors, notes, backend)


def _report(found: FileEvaluation) -> None:
    for message in found.errors:
        typer.echo(f"error: {message}", err=True)
    for message in found.notes:
        typer.echo(f"note: {message}", err=True)


def _short(text: str, limit: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _print(results: Sequence[EvalResult], labels: dict[str, bool | None], name: str,
           judge: str) -> dict[str, Any]:
    from rich.console import Console
    from rich.table import Table

    summary = summarize(results, labels).to_dict()
    console = Console(width=140)
    shown = [r for r in results if r.fired or r.undecided][:30]
    table = Table(title=f"{name} — fired or undecided ({len(shown)} of {len(results)} shown)")
    for column in ("id", "fired", "confidence", "label", "reasoning"):
        table.add_column(column, no_wrap=True, overflow="ellipsis")
    for r in shown:
        label = labels.get(r.case_id)
        table.add_row(r.case_id, "yes" if r.fired else ("undecided" if r.undecided else "no"),
                      "—" if r.confidence is None else f"{r.confidence:.2f}",
                      "—" if label is None else str(label).lower(), _short(r.reasoning))
    console.print(table)
    rates = "  ".join(
        f"{key.replace('_', ' ')} {value:.1%}" if isinstance(value, float) else f"{key} —"
        for key in ("false_positive_rate", "recall", "precision") if key in summary
        for value in [summary[key]])
    console.print(f"{summary['cases']} cases, {summary['fired']} fired, "
                  f"{summary['undecided']} undecided ({summary['errors']} judge errors); "
                  f"judge {judge}" + (f"\n{rates}" if rates else ""))
    return summary


def evaluate(
    file: Annotated[Path, typer.Argument(
        help="JSONL of cases (run, conversation or trace cases, one per line) or any trace "
        "file `semloop import` reads, whose runs become the cases.", exists=True,
        dir_okay=False)],
    evaluator: Annotated[str, typer.Option(
        "--evaluator", help=f"Evaluator to run, in any case: {_NAMES}.")],
    judge: JudgeOpt = None,
    json_out: Annotated[Path | None, typer.Option(
        "--json", help="Also write {\"results\": [{id, fired, confidence, undecided, "
        "reasoning}], \"summary\": {...}} here.", dir_okay=False)] = None,
    config: ConfigOpt = None,
    *,
    flags: dict[str, Any],
) -> None:
    """Run one semantic evaluator over every case of FILE and say which failed.

    Run cases: {"id", "label"?, "input", "output", "context": [str], "tools_called":
    [{"name", "args", "output", "success"}], "steps"?}. Conversation cases: {"id",
    "label"?, "turns": [{"role": "user"|"assistant", "content"}]}. Trace cases (for
    agent_loop; run-level evaluators read their run case): {"id", "label"?, "goal", "root"}.

    A malformed line is reported with its line number and field, and the other lines are
    still evaluated (exit code 1). With labels the summary gives the false-positive rate,
    recall and precision; undecided cases (the judge gave no usable answer or failed)
    never count as fired and are counted on their own.
    """
    try:
        chosen = get_evaluator(evaluator)
        found = evaluate_file(file, chosen.name, judge=judge, config=config, options=flags)
    except SemloopError as exc:
        raise fail(str(exc)) from None
    _report(found)
    results, labels, errors = found.results, found.labels, found.errors
    summary = _print(results, labels, chosen.name, found.judge.name)
    if json_out is not None:
        doc = {
            "evaluator": chosen.name, "judge": found.judge.name, "file": str(file),
            "results": [{"id": r.case_id, "fired": r.fired, "confidence": r.confidence,
                         "undecided": r.undecided, "reasoning": r.reasoning} for r in results],
            "summary": {**summary, "malformed": len(errors), "skipped": len(found.notes)},
            "errors": errors,
            "skipped": found.notes,
        }
        json_out.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
        typer.echo(f"wrote {json_out}")
    if errors:
        raise typer.Exit(1)


def calibrate_command(
    name: Annotated[str, typer.Argument(help=f"Evaluator to calibrate, in any case: {_NAMES}.")],
    judge: JudgeOpt = None,
    dataset: Annotated[Path | None, typer.Option(
        help="Labelled cases to read. Default: calibration/NAME.jsonl.", dir_okay=False)] = None,
    out_dir: Annotated[Path, typer.Option(
        "--out-dir", help="Where NAME.md and NAME.png are written.", file_okay=False)
    ] = _REPORTS,
    note: Annotated[str, typer.Option(
        help="A paragraph for the report, e.g. where the dataset came from and whether the "
        "rules were tuned on it.")] = "",
    seed: Annotated[int, typer.Option(help="Seed of the bootstrap (same seed, same report).")] = 0,
    config: ConfigOpt = None,
    *,
    flags: dict[str, Any],
) -> None:
    """Measure how one evaluator separates labelled cases and write its report.

    Writes docs/calibration/NAME.md and a PNG histogram: the score distributions of
    positives and negatives with their means and the margin between them; the
    false-positive rate and recall at the configured threshold with 95% bootstrap
    intervals (seeded, so the report is reproducible); a threshold sweep; the lowest
    threshold with zero false positives; cost and latency per evaluation.
    """
    try:
        evaluator = get_evaluator(name)
        path = dataset or Path("calibration") / f"{evaluator.name.lower()}.jsonl"
        if not path.is_file():
            raise fail(f"no dataset at {path}; pass --dataset")
        settings = _config(config).for_evaluator(evaluator.name)
        found = evaluate_file(path, evaluator.name, judge=judge, config=config, options=flags)
        _report(found)
        results, labels, errors, backend = found.results, found.labels, found.errors, found.judge
        failed = [r for r in results if r.error is not None]
        if results and len(failed) == len(results):
            # A report of nothing but failures would read as a judge that never fires.
            raise fail(f"every evaluation failed, so no report was written; the first: "
                       f"{failed[0].error}", code=1)
        cal = calibrate(results, labels, evaluator=evaluator.name, judge=backend.name,
                        threshold=settings.threshold, seed=seed)
        out_dir.mkdir(parents=True, exist_ok=True)
        stem = evaluator.name.lower()
        from ..evaluate.plot import plot_calibration

        png = plot_calibration(cal, out_dir / f"{stem}.png")
        report = out_dir / f"{stem}.md"
        command = " ".join([f"semloop calibrate {stem}", *(["--judge", judge] if judge else []),
                            *(["--dataset", str(path)] if dataset else []),
                            *(["--out-dir", str(out_dir)] if out_dir != _REPORTS else []),
                            *(["--seed", str(seed)] if seed else [])])
        report.write_text(render_report(cal, dataset=str(path), histogram=png.name, note=note,
                                        command=command), encoding="utf-8")
    except SemloopError as exc:
        raise fail(str(exc)) from None
    s = cal.summary
    typer.echo(f"{evaluator.name} on {backend.name}: FP rate "
               f"{'—' if s.false_positive_rate is None else f'{s.false_positive_rate:.1%}'}, "
               f"recall {'—' if s.recall is None else f'{s.recall:.1%}'} at threshold "
               f"{settings.threshold:g} ({s.labelled} labelled cases)")
    typer.echo(f"wrote {report}\nwrote {png}")
    if errors:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command("evaluate", help=help_text(evaluate.__doc__))(with_judge_flags(evaluate))
    app.command("calibrate", help=help_text(calibrate_command.__doc__))(with_judge_flags(calibrate_command))

