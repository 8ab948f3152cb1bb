"""Acceptance: `semloop up` in its own process ingests a run from the SDK over HTTP and its
workers attach signals to it, visible through the read API."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from semloop.api.testing import free_port
from semloop.sdk import Client


def _get(url: str, key: str) -> dict[str, object]:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {key}"})
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.loads(response.read())  # type: ignore[no-any-return]


def test_up_serves_ingest_and_runs_the_workers(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'up.db'}"
    semloop = [sys.executable, "-m", "semloop.cli"]
    env = {**os.environ, "SEMLOOP_DATABASE_URL": db}
    env.pop("TYPESAFE_API_KEY", None)
    key = subprocess.run([*semloop, "keys", "create", "--org", "acme"], env=env, check=True,
                         capture_output=True, text=True).stdout.strip()
    port = free_port()
    server = subprocess.Popen(
        [*semloop, "up", "--port", str(port), "--poll-interval", "0.2"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{base}/health", timeout=1).close()
                break
            except OSError:
                assert server.poll() is None, server.stdout.read() if server.stdout else ""
                assert time.monotonic() < deadline, "semloop up did not start"
                time.sleep(0.2)

        client = Client(base, key)
        with client.run("billing-agent", user_input="Charge 129 EUR for invoice 7781") as run:
            for _ in range(4):
                run.tool_called("charge_card", {"invoice": 7781, "amount_eur": 129})
                run.tool_responded("charge_card", success=False, error="503 unavailable")
            run_id = run.run_id
        assert client.shutdown(timeout=10)
        assert client.stats.sent == client.stats.emitted

        deadline = time.monotonic() + 60
        while True:
            body = _get(f"{base}/v1/runs/{run_id}", key)
            found = {s["failure_type"] for s in body["signals"]}  # type: ignore[union-attr]
            if "RETRY_STORM" in found and "SEMANTIC_LOOP" in found:
                break
            assert time.monotonic() < deadline, f"workers found only {found}"
            time.sleep(0.3)
        assert body["status"] == "errored" or body["status"] == "completed"
        assert len(body["events"]) == 10  # type: ignore[arg-type]
    finally:
        server.terminate()
        server.wait(timeout=20)
    said = server.stdout.read() if server.stdout else ""
    assert "workers: detector (every 0.2 s), loop (judge local, every 0.2 s)" in said, said
