"""``semloop bench``: score labelled traces with the lexical check and any judges.

Thin: loading, scoring and formatting live in :mod:`semloop.benchmark`.
"""

from __future__ import annotations

import inspect
import json
from pathlib import Path
from typing import Annotated, Any

import typer

from .._exceptions import SemloopError
from ..benchmark import (
    RowOutcome,
    default_dataset,
    format_report,
    judge_options,
    load_dataset,
    make_system,
    run_system,
    to_json,
)
from ..judge.registry import BACKENDS
from ._options import ThresholdOpt, with_judge_flags

__all__ = ["register"]

#: Judges the command line offers (``mock`` needs scripted answers; ``deepeval`` asks the
#: loop detector's questions exactly as ``llm`` does, so its column would be a copy).
JUDGES = ("oracle", *sorted(n for n in BACKENDS if n not in ("mock", "deepeval")))

def fail(message: str, code: int = 2) -> typer.Exit:
    """Print ``error: message`` to stderr and return the Exit to raise."""
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code)


def check_judges(judges: list[str]) -> list[str]:
    names: list[str] = []
    for name in judges:
        if name == "lexical":
            continue  # always run
        if name not in JUDGES:
            raise fail(f"unknown judge {name!r}; choose from {', '.join(JUDGES)}")
        if name not in names:
            names.append(name)
    return names


def bench(
    dataset: Annotated[
        Path | None,
        typer.Option(
            help="JSONL bench dataset. Default: bench/dataset.jsonl of this checkout, else the "
            "same 60 traces built in memory.",
            dir_okay=False,
        ),
    ] = None,
    judge: Annotated[
        list[str] | None,
        typer.Option(
            help=f"Add a judged column (repeatable): {', '.join(JUDGES)}. The lexical column "
            "is always there. 'oracle' scripts answers from each row's family label: it tests "
            "the mechanism, not any judge.",
        ),
    ] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="Also write every row and the totals as JSON here.")
    ] = None,
    plot: Annotated[
        Path | None, typer.Option(help="Also draw the per-family comparison as a PNG here.")
    ] = None,
    threshold: ThresholdOpt = 0.5,
    *,
    flags: dict[str, Any],
) -> None:
    """Score the bench dataset with the lexical check (deepeval's metric) and each --judge.

    Prints, per family, how many traces each system got right on the stagnation sub-signal
    and on the overall verdict, then totals with cost, tokens, mean latency, undecided and
    errored traces. A judge failing on a trace counts as an error for that trace only.
    """
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskID,
        TextColumn,
        TimeElapsedColumn,
    )

    names = check_judges(judge or [])
    try:
        if dataset is None:
            rows, source = default_dataset()
        else:
            rows, source = load_dataset(dataset), str(dataset)
        systems = [make_system("lexical", threshold=threshold)]
        for name in names:
            systems.append(make_system(name, threshold=threshold,
                                       options=judge_options(name, **flags)))
    except SemloopError as exc:
        raise fail(str(exc)) from None

    runs = []
    progress = Progress(
        TextColumn("{task.description:>16}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    with progress:
        for system in systems:
            task = progress.add_task(system.label, total=len(rows))

            def advance(_outcome: RowOutcome, task: TaskID = task) -> None:
                progress.advance(task)

            runs.append(run_system(system, rows, threshold=threshold, on_row=advance))
    typer.echo(format_report(runs, source=source, threshold=threshold))
    if json_out is not None:
        doc: dict[str, Any] = to_json(runs, source=source, threshold=threshold)
        json_out.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
        typer.echo(f"\nwrote {json_out}")
    if plot is not None:
        from ..benchmark.plot import plot_runs

        try:
            plot_runs(runs, plot, title=f"{len(rows)} traces from {Path(source).name}")
        except SemloopError as exc:
            raise fail(str(exc)) from None
        typer.echo(f"wrote {plot}")


def help_text(doc: str | None) -> str:
    """A docstring as typer help: each paragraph on one line, so the terminal wraps it."""
    paragraphs = inspect.cleandoc(doc or "").split("\n\n")
    return "\n\n".join(" ".join(p.split()) for p in paragraphs)


def register(app: typer.Typer) -> None:
    app.command("bench", help=help_text(bench.__doc__))(with_judge_flags(bench))
