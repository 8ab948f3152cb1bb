"""A real ``semloop worker semantic`` process, SIGKILLed while its judge (an OpenAI-
compatible server on 127.0.0.1) holds a request, then started again: every run ends with
the findings an uninterrupted worker writes, none twice, and each run charged once."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa

from conftest import ROOT  # tests/conftest.py, the shared one
from judge.servers import ChatServer, Delay  # tests/judge/servers.py
from semloop.evaluate.sampling import AgentSemantics
from semloop.store import Store, month_of
from semloop.worker import DetectorWorker, build_worker

from .helpers import add_run

RUNS = ("r0", "r1", "r2")


class VerdictServer(ChatServer):
    """Answers an evaluator's prompt with a verdict that depends only on the prompt (so
    two workers asking the same thing get the same answer): fired for about half."""

    def reply(self, body: dict[str, Any]) -> tuple[str, str, bool]:
        prompt = json.dumps(body["messages"], sort_keys=True)
        if '"questions"' in prompt:  # the loop detector's protocol
            return super().reply(body)
        unit = int(hashlib.sha256(prompt.encode()).hexdigest()[:8], 16) / 2**32
        verdict = {"failure": unit < 0.5, "confidence": round(0.6 + unit * 0.4, 3),
                   "reasoning": f"Verdict {unit:.3f} on this run.", "evidence": "(1)"}
        return json.dumps(verdict), "stop", True


@pytest.fixture
def chat() -> Iterator[ChatServer]:
    with VerdictServer() as server:
        yield server


def _environ(chat: ChatServer) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "SEMANTIC_"))}
    env.update(OPENAI_BASE_URL=chat.base_url, OPENAI_API_KEY="test-key",
               PYTHONPATH=str(ROOT / "src"), HF_HUB_OFFLINE="1")
    return env


def _semantic(url: str, chat: ChatServer, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "semloop", "worker", "semantic", "--database-url", url,
         "--judge", "llm", "--poll-interval", "0.2", *extra],
        cwd=ROOT, env=_environ(chat), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True)


def _org_with_runs(store: Store, name: str) -> str:
    org = store.create_org(name)
    store.set_agent_semantics(org, "support", AgentSemantics(semantic_critical=True))
    for i, run_id in enumerate(RUNS):
        add_run(store, org, run_id, question=f"Refund order {40 + i}, it arrived broken",
                answer=f"Order {40 + i} was refunded on Friday; the courier lost it.")
    return org


def _findings(store: Store, org: str) -> list[tuple[str, str, str, float]]:
    return sorted((s.signal.run_id, s.signal.failure_type, s.signal.severity,
                   round(s.signal.confidence, 6))
                  for s in store.list_signals(org, limit=200, source="semantic").items)


def _first_opinions(store: Store, org: str) -> list[tuple[Any, ...]]:
    return sorted((e["run_id"], e["evaluator"]) for e in store.evaluations(org)
                  if not e["second_opinion"] and e["error"] is None)


def test_a_killed_worker_process_loses_and_duplicates_nothing(
        store: Store, db_url: str, chat: ChatServer, monkeypatch: pytest.MonkeyPatch) -> None:
    # The control: the same runs, judged by an uninterrupted worker in this process.
    control = _org_with_runs(store, "control")
    for key, value in _environ(chat).items():
        if key.startswith("OPENAI_"):
            monkeypatch.setenv(key, value)
    DetectorWorker(store).drain()
    assert build_worker("semantic", store, judge="llm").drain() == len(RUNS)
    expected = _findings(store, control)
    assert expected  # the fake model fires on some evaluators of these runs

    org = _org_with_runs(store, "acme")
    DetectorWorker(store).drain()
    asked = len(chat.requests)
    # Answer the first calls, then hold one long enough to kill the worker while it waits.
    calls_before_hold = 4
    chat.script.extend([Delay(0.0)] * calls_before_hold + [Delay(30.0)])
    worker = _semantic(db_url, chat)
    try:
        deadline = time.monotonic() + 120
        while len(chat.requests) < asked + calls_before_hold + 1:
            assert worker.poll() is None, worker.communicate()[0]
            assert time.monotonic() < deadline, "the worker never reached the held call"
            time.sleep(0.05)
        worker.send_signal(signal.SIGKILL)
    finally:
        worker.wait(10)
    assert worker.returncode == -signal.SIGKILL
    chat.script.clear()
    month = month_of(time.time())
    # Killed mid-run: that run was charged, and none of its outcomes were written.
    charged = [r for r in RUNS if (sample := store.sample_of(org, r)) and sample.charged]
    with store.engine.connect() as conn:
        begun = set(conn.execute(sa.text(
            "SELECT DISTINCT run_id FROM semantic_tasks WHERE org_id = :org"), {"org": org})
            .scalars())
    assert store.usage(org, month).used == len(charged) >= 1
    assert set(charged) - begun, "no run was in mid-evaluation when killed"

    with store.engine.begin() as conn:  # its leases run out
        conn.execute(sa.text("UPDATE run_claims SET claimed_until = 0"))
    again = _semantic(db_url, chat, "--once")
    out, _ = again.communicate(timeout=180)
    assert again.returncode == 0, out

    assert _findings(store, org) == expected  # none lost, none twice
    assert store.usage(org, month).used == len(RUNS)  # each run charged once
    opinions = _first_opinions(store, org)
    assert opinions == _first_opinions(store, control)  # each evaluator logged once a run
    assert len(opinions) == len(set(opinions))
