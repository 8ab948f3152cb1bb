"""``semloop worker NAME``: run one worker against the shared database until interrupted."""

from __future__ import annotations

import logging
from typing import Annotated

import typer

from .._exceptions import SemloopError
from ._options import DatabaseUrl
from ._signals import stop_on_signals

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    @app.command("worker")
    def worker_command(
        name: Annotated[str, typer.Argument(
            help="detector (structural detectors), loop (the judged loop detector alone), "
                 "semantic (sampled evaluators, quotas, recurring issues; AGENT_LOOP among "
                 "them), alerts (alert policies and webhook delivery) or integrations "
                 "(Langfuse, LangSmith and Braintrust scores pulled as findings).")],
        database_url: DatabaseUrl = None,
        poll_interval: Annotated[float | None, typer.Option(
            help="Seconds between polls; default 5 (detector, loop, semantic), 10 (alerts) "
                 "or 60 (integrations).",
            show_default=False)] = None,
        config: Annotated[str | None, typer.Option(
            help="detectors.yml for the detector worker; integrations.yml for the "
                 "integrations worker (default $SEMLOOP_INTEGRATIONS_CONFIG).",
            show_default=False)] = None,
        alerts_config: Annotated[str | None, typer.Option(
            help="alerts.yml for the alerts worker; default $SEMLOOP_ALERTS_CONFIG.",
            show_default=False)] = None,
        judge: Annotated[str | None, typer.Option(
            help="Judge of the loop and semantic workers; default jev if TYPESAFE_API_KEY is "
                 "set, else local.",
            show_default=False)] = None,
        once: Annotated[bool, typer.Option(
            help="Process what is ready now, then exit.")] = False,
    ) -> None:
        """Run one worker until interrupted.

        Several instances of one worker may share a database: each run is leased to one of
        them, and every write is idempotent.
        """
        from ..settings import load_settings
        from ..store import Store
        from ..worker import build_worker

        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
        try:
            settings = load_settings(**({"database_url": database_url} if database_url else {}))
            with Store(settings.database_url) as store:
                worker = build_worker(name, store, poll_interval=poll_interval,
                                      stall_timeout_s=settings.stall_timeout_s,
                                      detectors_config=config, judge=judge,
                                      alerts_config=alerts_config,
                                      integrations_config=config)
                if once:
                    # A cron job's timeout sends SIGTERM too: end after the batch in hand.
                    with stop_on_signals(lambda _: worker.request_stop()):
                        handled = worker.drain()
                    typer.echo(f"{name}: {handled} runs, {worker.stats.signals} signals")
                    return
                # systemctl/docker stop send SIGTERM: finish the batch, then exit 0.
                with stop_on_signals(lambda _: worker.request_stop()):
                    worker.run_forever()
                typer.echo(f"{name}: stopped", err=True)
        except SemloopError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
