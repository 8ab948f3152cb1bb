"""``semloop up``: ingest, API and workers in one process on the embedded default."""

from __future__ import annotations

import logging
from typing import Annotated

import typer

from .._defaults import DEFAULT_HOST, DEFAULT_PORT
from .._exceptions import SemloopError
from ._options import DatabaseUrl
from ._signals import stop_on_signals

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    @app.command("up")
    def up_command(
        host: Annotated[str | None, typer.Option(help="Address to listen on.",
                                                 show_default=DEFAULT_HOST)] = None,
        port: Annotated[int | None, typer.Option(help="Port to listen on.",
                                                 show_default=str(DEFAULT_PORT))] = None,
        database_url: DatabaseUrl = None,
        workers: Annotated[str, typer.Option(help="Comma-separated workers to run beside "
                                                  "the server.")] = "detector,loop",
        judge: Annotated[str | None, typer.Option(
            help="Judge of the loop worker; default jev if TYPESAFE_API_KEY is set, else local.",
            show_default=False)] = None,
        poll_interval: Annotated[float | None, typer.Option(
            help="Workers' seconds between polls; default 5 (detector, loop) or 10 (alerts).",
            show_default=False)] = None,
        semantic: Annotated[bool, typer.Option(
            "--semantic",
            help="Run the semantic worker (sampling, evaluators, quotas, recurring issues) "
                 "instead of the loop worker: AGENT_LOOP is one of its evaluators. Also on "
                 "with SEMANTIC_WORKER_ENABLED=true.")] = False,
        retention_days: Annotated[int | None, typer.Option(
            min=1,
            help="Prune runs older than this many days once an hour (as `semloop prune`); "
                 "default keep everything.", show_default=False)] = None,
    ) -> None:
        """Serve the ingest API and the read API, and run the workers, in one process.

        Point the SDK (or any Dunetrace SDK, or an OTLP exporter) at http://HOST:PORT with a
        key from `semloop keys create --org NAME`.
        """
        import uvicorn

        from ..api import create_app, timed_protocol
        from ..settings import load_settings
        from ..store import Store
        from ..worker import RetentionWorker, build_worker, semantic_enabled

        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
        overrides: dict[str, object] = {"host": host, "port": port, "database_url": database_url}
        try:
            settings = load_settings(**{k: v for k, v in overrides.items() if v is not None})
            store = Store(settings.database_url)
            names = [name.strip() for name in workers.split(",") if name.strip()]
            if semantic or semantic_enabled():
                # One judged pass per run: the loop detector runs as AGENT_LOOP inside it.
                names = [n for n in names if n not in ("loop", "semantic")] + ["semantic"]
            running = [
                build_worker(name, store, poll_interval=poll_interval,
                             stall_timeout_s=settings.stall_timeout_s, judge=judge,
                             detectors_config=settings.detectors_config)
                for name in names
            ]
        except SemloopError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        if retention_days is not None:
            running.append(RetentionWorker(store, retention_days))
        logging.getLogger("semloop.up").info(
            "database %s; workers: %s", store.engine.url,
            ", ".join(str(w) for w in running) or "none")
        for worker in running:
            worker.start()
        try:
            # uvicorn handles SIGTERM/SIGINT while it serves and raises them again once it
            # has shut down; caught here, they let the workers finish their batches and
            # the process exit 0 instead of dying with runs still leased.
            with stop_on_signals(lambda _: None):
                uvicorn.run(create_app(store, settings), host=settings.host,
                            port=settings.port, log_level="info",
                            http=timed_protocol(settings.request_timeout_s))
        finally:
            for worker in running:
                worker.stop()
            store.close()

