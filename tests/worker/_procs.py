"""The real thing in subprocesses, for the end-to-end worker tests (test_chaos, test_load).

``Workers`` starts ``semloop worker NAME`` processes, each logging to its own file;
``serve_api`` runs ``semloop up --workers ""`` (the ingest and read API alone);
``wait_for`` polls a condition under a deadline that exists only so a broken run fails
instead of hanging.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from semloop.api.testing import free_port

SEMLOOP = [sys.executable, "-m", "semloop.cli"]


def clean_env() -> dict[str, str]:
    """This environment without SEMLOOP_* settings, so only the flags we pass count."""
    return {k: v for k, v in os.environ.items() if not k.startswith("SEMLOOP_")}


class Workers:
    """``semloop worker NAME`` subprocesses, each logging to its own file."""

    def __init__(self, url: str, logs: Path, *, worker: str = "detector",
                 poll_interval: float = 0.1, args: Sequence[str] = ()) -> None:
        self.url = url
        self.args = list(args)
        self.logs = logs
        self.worker = worker
        self.poll_interval = poll_interval
        self.procs: list[subprocess.Popen[bytes]] = []
        self.env = clean_env()

    def start(self) -> subprocess.Popen[bytes]:
        log = self.logs / f"worker-{len(self.procs)}.log"
        with log.open("wb") as out:
            proc = subprocess.Popen(
                [*SEMLOOP, "worker", self.worker,
                 "--database-url", self.url, "--poll-interval", str(self.poll_interval), *self.args],
                env=self.env, stdout=out, stderr=subprocess.STDOUT,
            )
        self.procs.append(proc)
        return proc

    def log(self, proc: subprocess.Popen[bytes]) -> str:
        return (self.logs / f"worker-{self.procs.index(proc)}.log").read_text(errors="replace")

    def assert_alive(self, *procs: subprocess.Popen[bytes]) -> None:
        for proc in procs:
            assert proc.poll() is None, f"worker exited {proc.returncode}:\n{self.log(proc)}"

    def stop_all(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
        for proc in self.procs:
            proc.wait(timeout=10)


def wait_for(what: str, check: Callable[[], bool], *, timeout: float,
             alive: Callable[[], None] = lambda: None) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        alive()
        assert time.monotonic() < deadline, f"timed out after {timeout} s waiting for {what}"
        time.sleep(0.02)


@contextlib.contextmanager
def serve_api(url: str, log: Path, *, start_timeout: float = 60.0) -> Iterator[str]:
    """``semloop up`` with no workers on ``url`` in a subprocess; yields its base URL."""
    port = free_port()
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [*SEMLOOP, "up", "--workers", "", "--host", "127.0.0.1", "--port", str(port),
             "--database-url", url],
            env=clean_env(), stdout=out, stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        def up() -> bool:
            try:
                urllib.request.urlopen(f"{base}/health", timeout=1).close()
            except OSError:
                return False
            return True

        def alive() -> None:
            assert proc.poll() is None, f"semloop up exited {proc.returncode}:\n" + \
                log.read_text(errors="replace")

        wait_for("semloop up to answer /health", up, timeout=start_timeout, alive=alive)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
