"""``semloop up``: ingest, API and workers in one process on the embedded default."""

from __future__ import annotations

import logging
import threading
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
        stopping = threading.Event()
        servers: list[uvicorn.Server] = []

        def on_signal(_: int) -> None:
            # Before uvicorn installs its own handlers (and after it restores ours) a signal
            # must still end the serving: set the flag it polls, or the one it will read.
            stopping.set()
            for server in servers:
                server.should_exit = True

        # Installed before the first worker leases a run, so no signal in start-up's window
        # kills the process mid-batch or is swallowed while the app is still being built.
        with stop_on_signals(on_signal):
            logging.getLogger("semloop.up").info(
                "database %s; workers: %s", store.engine.url,
                ", ".join(str(w) for w in running) or "none")
            for worker in running:
                worker.start()
            try:
                server = uvicorn.Server(uvicorn.Config(
                    create_app(store, settings), host=settings.host, port=settings.port,
                    log_level="info", http=timed_protocol(settings.request_timeout_s)))
                servers.append(server)
                if stopping.is_set():
                    server.should_exit = True
                # uvicorn handles SIGTERM/SIGINT while it serves, shuts down, and raises them
                # again to our handler; the workers then finish their batches and the
                # process exits 0 instead of dying with runs still leased.
                server.run()
            finally:
                for worker in running:
                    worker.stop()
                store.close()
