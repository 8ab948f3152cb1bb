"""What keep-alive saves per judge call: JevBackend with its connection pool, beside the
same backend opening a new connection per ask, beside the previous release's urllib send,
and beside the official typesafe-sdk client, over HTTP and HTTPS on 127.0.0.1.

Every client asks the same local System One server (tests/judge/servers.py) replaying one
canned reply, so the figures are the clients' own cost: encode, connect (or reuse), send,
read, parse. Calls are interleaved round by round so machine noise hits every client alike.
HTTPS uses a throwaway self-signed certificate made with the ``openssl`` command.

Run: .venv/bin/python bench/judge_http.py [--asks 300] [--questions 2]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.judge.servers

from tests.judge.servers import Received, SystemOneServer, self_signed

from semloop.judge._http import urllib_send
from semloop.judge.jev import JevBackend

KEY = "bench-key"
KEPT = "JevBackend keep-alive (default)"
BEFORE = "JevBackend urllib (before)"


def canned(server: SystemOneServer, state: Any, questions: dict[str, Any]) -> None:
    """Make the server answer every request with one precomputed reply."""
    body = {"model": "jev-latest", "state": state, "questions": questions}
    probe = Received("POST", "/v1/systemone", {"authorization": f"Bearer {KEY}"},
                     json.dumps(body).encode(), 0.0)
    reply = server.respond(probe)
    server.respond = lambda received: reply  # type: ignore[method-assign]


def measure(calls: dict[str, Callable[[], object]], asks: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(5):  # warm-up: imports, first connections, TLS contexts
        for call in calls.values():
            call()
    for _ in range(asks):
        for name, call in calls.items():
            started = time.perf_counter()
            call()
            times[name].append((time.perf_counter() - started) * 1000)
    return times


def report(title: str, times: dict[str, list[float]], base: str) -> None:
    print(title)
    reference = statistics.median(times[base])
    for name, values in times.items():
        median = statistics.median(values)
        p95 = sorted(values)[int(0.95 * len(values)) - 1]
        print(f"  {name:34s} median {median:6.3f} ms   p95 {p95:6.3f} ms   "
              f"median / {base} {median / reference:.2f}")


def run(origin_tls: bool, args: argparse.Namespace, state: Any,
        questions: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        context = None
        if origin_tls:
            cert, context = self_signed(tmp)
            os.environ["SSL_CERT_FILE"] = cert  # the clients trust the throwaway certificate
        with SystemOneServer(key=KEY, tls=context) as server:
            canned(server, state, questions)
            kept = JevBackend(KEY, base_url=server.url, max_retries=0)
            fresh = JevBackend(KEY, base_url=server.url, max_retries=0, keep_alive=False)
            old = JevBackend(KEY, base_url=server.url, max_retries=0, send=urllib_send)
            calls: dict[str, Callable[[], object]] = {
                KEPT: lambda: kept.ask(state, questions),
                "JevBackend keep_alive=False": lambda: fresh.ask(state, questions),
                BEFORE: lambda: old.ask(state, questions),
            }
            sdk = _sdk(server.url)
            if sdk is not None:
                calls["typesafe-sdk (httpx, keep-alive)"] = (
                    lambda: sdk.system_one(state=state, questions=questions))
            before = server.connections
            times = measure(calls, args.asks)
            opened = server.connections - before
            for backend in (kept, fresh, old):
                backend.close()
            if sdk is not None:
                sdk.close()
        scheme = "https" if origin_tls else "http"
        report(f"{scheme}: {len(questions)} question(s), {args.asks} interleaved asks each "
               f"({opened} TCP connections opened in all)", times, BEFORE)
        ratio = statistics.median(times[BEFORE]) / statistics.median(times[KEPT])
        print(f"  keep-alive: {ratio:.1f}x faster per ask than before over {scheme}")
        if origin_tls:
            del os.environ["SSL_CERT_FILE"]


def _sdk(url: str) -> Any:
    try:
        from typesafe_sdk import RetryPolicy as SdkRetryPolicy
        from typesafe_sdk import TypeSafeClient
    except ImportError:
        print("(typesafe-sdk is not installed: its column is left out)")
        return None
    return TypeSafeClient(api_key=KEY, base_url=url, compression=False,
                          retry=SdkRetryPolicy(max_retries=0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--asks", type=int, default=300, help="timed asks per client")
    parser.add_argument("--questions", type=int, default=2, help="questions per ask")
    args = parser.parse_args()
    questions = {f"progress_{i}_{i + 1}": {"type": "noul",
                                           "instructions": f"p=0.3 Did step {i + 1} advance?"}
                 for i in range(args.questions)}
    state = {"goal": "book a flight", "steps": [{"index": 0, "output": "searched flights"}]}
    for tls in (False, True):
        run(tls, args, state, questions)


if __name__ == "__main__":
    main()
