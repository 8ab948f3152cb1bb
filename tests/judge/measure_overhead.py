"""Client-side cost of one 64-question System One call: semloop's JevBackend beside the
official typesafe-sdk, both against the same local server replaying one canned reply, so
the figures are the clients' own work (encode, HTTP round trip on 127.0.0.1, parse).

Run: .venv/bin/python -m tests.judge.measure_overhead
"""

from __future__ import annotations

import json
import statistics
import time
from typing import Any

from typesafe_sdk import RetryPolicy as SdkRetryPolicy
from typesafe_sdk import TypeSafeClient

from semloop.judge.jev import JevBackend

from .servers import Received, SystemOneServer

ROUNDS = 200


def main() -> None:
    questions: dict[str, Any] = {
        f"progress_{i}_{i + 1}": {"type": "noul",
                                  "instructions": f"p=0.3 Did step {i + 1} advance beyond {i}?",
                                  "criteria": {"true": "advances", "false": "repeats"}}
        for i in range(63)
    }
    questions["stagnation"] = {"type": "score", "instructions": "level=1 How stuck?",
                               "criteria": ["none", "a little", "a lot", "completely"]}
    state = {"goal": "g", "steps": [{"index": i, "output": "x" * 800} for i in range(64)]}
    with SystemOneServer(key="k") as server:
        body = {"model": "jev-latest", "state": state, "questions": questions}
        probe = Received("POST", "/v1/systemone", {"authorization": "Bearer k"},
                         json.dumps(body).encode(), 0.0)
        canned = server.respond(probe)
        server.respond = lambda received: canned  # type: ignore[method-assign]
        ours = JevBackend("k", base_url=server.url)
        sdk = TypeSafeClient(api_key="k", base_url=server.url, compression=False,
                             retry=SdkRetryPolicy(max_retries=0))
        calls = {"semloop JevBackend": lambda: ours.ask(state, questions),
                 "typesafe-sdk": lambda: sdk.system_one(state=state, questions=questions)}
        times: dict[str, list[float]] = {name: [] for name in calls}
        for _ in range(10):
            for call in calls.values():
                call()
        for _ in range(ROUNDS):  # interleaved, so machine noise hits both alike
            for name, call in calls.items():
                started = time.perf_counter()
                call()
                times[name].append((time.perf_counter() - started) * 1000)
        sdk.close()
    base = statistics.median(times["typesafe-sdk"])
    size = len(json.dumps(state)) // 1024
    print(f"64 questions, {size} KB state, {ROUNDS} interleaved calls each")
    for name, values in times.items():
        median = statistics.median(values)
        p95 = sorted(values)[int(0.95 * len(values)) - 1]
        print(f"{name:20s} median {median:6.2f} ms   p95 {p95:6.2f} ms   "
              f"median / typesafe-sdk {median / base:.2f}")


if __name__ == "__main__":
    main()
