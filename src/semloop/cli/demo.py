"""``semloop demo``: the main job, end to end, on the embedded default."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from .._defaults import DEFAULT_URL
from .._exceptions import SemloopError

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    @app.command("demo")
    def demo_command(
        database_url: Annotated[str | None, typer.Option(
            help="Where the runs go; default $SEMLOOP_DATABASE_URL or ./semloop.db.",
            show_default=False)] = None,
        judge: Annotated[str | None, typer.Option(
            help="Judge of the semantic worker: local (embedded, no key), jev or llm; default jev "
                 "if TYPESAFE_API_KEY is set, else local.", show_default=False)] = None,
        repeat: Annotated[int, typer.Option(min=1, help="Times to play each scenario.")] = 1,
        seed: Annotated[int, typer.Option(help="Seed of the scripted agents.")] = 7,
    ) -> None:
        """Run scripted agents through the SDK, process them, and print what was found.

        The agents are healthy or fail the ways agents fail: loops, retry storms, token
        burn, hallucinated actions, prompt injection, a frustrated user. They write into
        the store; the workers process the runs; a table shows each run's findings.
        """
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn
        from rich.table import Table

        from ..demo import run_demo
        from ..judge.registry import default_judge, make_backend
        from ..settings import load_settings

        console = Console()
        try:
            settings = load_settings(**({"database_url": database_url} if database_url else {}))
            backend = make_backend(judge or default_judge())
            with Progress(TextColumn("{task.description:<16}"), BarColumn(),
                          MofNCompleteColumn(), console=console, transient=True) as bar:
                tasks: dict[str, TaskID] = {}

                def progress(stage: str, done: int, total: int) -> None:
                    if stage not in tasks:
                        tasks[stage] = bar.add_task(stage, total=total)
                    bar.update(tasks[stage], completed=done, total=total)

                report = run_demo(settings.database_url, backend, repeat=repeat, seed=seed,
                                  progress=progress)
        except SemloopError as exc:
            console.print(f"[red]error:[/red] {exc}")
            raise typer.Exit(2) from None

        table = Table(title=f"semloop demo: {report.runs} runs, {report.events} events, "
                            f"judge {report.judge}",
                      caption="[green]✓[/green] expected and found   [yellow]✗[/yellow] expected, "
                              "missed   [dim]+[/dim] found as well")
        table.add_column("scenario", no_wrap=True)
        table.add_column("signals", no_wrap=True)
        table.add_column("verdict", no_wrap=True)
        for result in report.results:
            lines = [f"[green]✓[/green] {t}" for t in sorted(result.caught)]
            lines += [f"[yellow]✗ {t}[/yellow]" for t in sorted(result.missed)]
            lines += [f"[dim]+ {t}[/dim]"
                      for t in sorted(set(result.found) - set(result.scenario.expected))]
            if result.missed:
                verdict = "[yellow]missed[/yellow]"
            elif not result.scenario.expected and result.found:
                verdict = "[red]false alarm[/red]"
            else:
                verdict = "[green]ok[/green]"
            table.add_row(result.scenario.name, "\n".join(lines) or "-", verdict)
        console.print(table)
        caught = sum(len(r.caught) for r in report.results)
        expected_total = sum(len(r.scenario.expected) for r in report.results)
        false_alarms = sum(1 for r in report.results if not r.scenario.expected and r.found)
        console.print(
            f"caught {caught}/{expected_total} expected failures; "
            f"{false_alarms} false alarms on healthy runs; {report.seconds:.1f} s; "
            f"runs stored in {report.database_url}"
        )
        _print_semantic(console, report)
        url = f" --database-url {report.database_url}" if database_url else ""
        console.print(
            f"[dim]to browse them: semloop keys create --org demo{url}, then semloop up{url} "
            f"and sign in at {DEFAULT_URL}/ with the key (the dashboard), or GET /v1/runs "
            f"with it (API docs at {DEFAULT_URL}/docs)[/dim]"
        )


def _print_semantic(console: Any, report: Any) -> None:
    """The semantic worker's part: sampling reasons, recurring issues, feedback, usage."""
    import datetime as dt

    from ..api.semantic import project

    reasons = ", ".join(f"{reason} {'evaluated' if sampled else 'skipped'} {n}"
                        for (reason, sampled), n in sorted(report.samples.items()))
    console.print(f"sampling: {reasons}")
    console.print("recurring issues (agent, evaluator, runs, false-positive marks):")
    for issue in report.issues:
        console.print(f"  {issue['agent_id']:<15} {issue['evaluator']:<26} "
                      f"{issue['run_count']:>3} runs  {issue['false_positives']} FP  "
                      f"[dim]{issue['sample'][:60]}[/dim]")
    first, later = report.feedback
    if first is not None and later is not None:
        console.print(
            f"feedback: USER_FRUSTRATION {first.confidence:.2f} {first.severity} before 3 "
            f"false-positive marks, {later.confidence:.2f} {later.severity} after "
            f"([dim]{later.evidence.get('feedback', '')}[/dim])")
    if report.usage is not None:
        now = dt.datetime.now(dt.timezone.utc)
        usage = report.usage
        console.print(
            f"usage: {usage.used}/{usage.quota} evaluations this month, "
            f"{usage.conversation_used}/{usage.conversation_quota} conversations, "
            f"${usage.cost_usd:.4f}; month-end projection {project(usage.used, now):.0f} "
            f"evaluations, ${project(usage.cost_usd, now):.4f}")
