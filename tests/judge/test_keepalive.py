"""Keep-alive: both HTTP backends reuse their connections across asks, survive a host that
closes idle ones, never send a possibly-processed request twice on their own, and leak no
socket. Real servers on 127.0.0.1 (tests/judge/servers.py) count the TCP connections."""

from __future__ import annotations

import gc
import os
import threading
import time
import warnings
from collections.abc import Callable
from typing import Any

import pytest

from semloop._exceptions import JudgeConnectionError
from semloop.judge._http import ConnectionPool, HttpRequest, RetryPolicy
from semloop.judge.jev import JevBackend
from semloop.judge.llm import LLMJudgeBackend

from .servers import ChatServer, Cut, Drop, ProtocolServer, SystemOneServer, self_signed

QUESTIONS: dict[str, Any] = {
    "progress_0_1": {"type": "noul", "instructions": "p=0.8 advanced?"},
    "topic": {"type": "choice", "instructions": "pick=travel",
              "criteria": {"travel": None, "billing": None}},
}
EXPECTED = {"progress_0_1": 0.8, "topic": "travel"}
NO_RETRY = RetryPolicy(max_retries=0)
QUICK = RetryPolicy(max_retries=2, backoff_s=0.01, max_backoff_s=0.05)

Backend = JevBackend | LLMJudgeBackend
Make = Callable[..., tuple[ProtocolServer, Callable[..., Backend]]]


def _jev(server: SystemOneServer) -> Callable[..., Backend]:
    return lambda **kw: JevBackend("test-key", base_url=server.url, **kw)


def _llm(server: ChatServer) -> Callable[..., Backend]:
    return lambda **kw: LLMJudgeBackend("test-key", base_url=server.base_url, **kw)


@pytest.fixture(params=["jev", "llm"])
def host(request: pytest.FixtureRequest, jev_server: SystemOneServer,
         chat_server: ChatServer) -> tuple[ProtocolServer, Callable[..., Backend]]:
    if request.param == "jev":
        return jev_server, _jev(jev_server)
    return chat_server, _llm(chat_server)


def answers(backend: Backend, state: Any = "s") -> dict[str, Any]:
    return {qid: a.value for qid, a in backend.ask(state, QUESTIONS).answers.items()}


def test_one_connection_serves_many_asks(
        host: tuple[ProtocolServer, Callable[..., Backend]]) -> None:
    server, make = host
    with make(retry=NO_RETRY) as backend:
        for i in range(20):
            assert answers(backend, f"state {i}") == EXPECTED
    assert len(server.requests) == 20
    assert server.connections == 1
    assert {r.connection for r in server.requests} == {1}
    assert "connection" not in server.requests[0].headers  # HTTP/1.1: keep-alive by default


def test_keep_alive_off_opens_one_connection_per_ask(
        host: tuple[ProtocolServer, Callable[..., Backend]]) -> None:
    server, make = host
    with make(retry=NO_RETRY, keep_alive=False) as backend:
        for _ in range(3):
            assert answers(backend) == EXPECTED
    assert server.connections == 3
    assert all(r.headers.get("connection") == "close" for r in server.requests)


def test_host_closing_idle_connections_between_asks(
        host: tuple[ProtocolServer, Callable[..., Backend]]) -> None:
    server, make = host
    server.idle_timeout = 0.05
    with make(retry=NO_RETRY) as backend:
        for asked in range(1, 5):
            assert answers(backend) == EXPECTED
            # The host hangs up on the idle connection meanwhile (waited for, not guessed:
            # on a busy machine its handler thread may run late).
            deadline = time.monotonic() + 10
            while server.closed < asked:
                assert time.monotonic() < deadline, "the host never closed the idle connection"
                time.sleep(0.01)
    # Every ask processed exactly once, each on a fresh connection, no retry spent.
    assert len(server.requests) == 4
    assert server.connections == 4


@pytest.mark.parametrize("reset", [False, True], ids=["fin", "rst"])
def test_stale_connection_is_resent_once_on_a_fresh_one(
        host: tuple[ProtocolServer, Callable[..., Backend]], reset: bool) -> None:
    """The race keep-alive clients must handle: the host closes the idle connection just
    as the next request goes out, so nothing comes back. The request was not processed,
    and the pool sends it again on a new connection: with a RetryPolicy of zero retries
    the ask still succeeds."""
    server, make = host
    with make(retry=NO_RETRY) as backend:
        assert answers(backend) == EXPECTED
        server.play(Drop(reset=reset))
        assert answers(backend) == EXPECTED
        assert answers(backend) == EXPECTED
        assert backend._pool is not None and backend._pool.resent == 1
    assert server.connections == 2
    # 3 asks: the dropped request (never answered) plus one resend, then reuse goes on.
    assert [r.connection for r in server.requests] == [1, 1, 2, 2]


def test_a_fresh_connection_that_drops_is_not_resent(
        host: tuple[ProtocolServer, Callable[..., Backend]]) -> None:
    # On a new connection, silence is not a stale keep-alive: it is the RetryPolicy's call.
    server, make = host
    server.play(Drop())
    with make(retry=NO_RETRY) as backend, pytest.raises(JudgeConnectionError, match="1 attempt"):
        backend.ask("s", QUESTIONS)
    assert len(server.requests) == 1


def test_cut_mid_reply_is_an_error_without_retries(
        host: tuple[ProtocolServer, Callable[..., Backend]]) -> None:
    server, make = host
    with make(retry=NO_RETRY) as backend:
        assert answers(backend) == EXPECTED
        server.play(Cut(keep=10))
        with pytest.raises(JudgeConnectionError, match="IncompleteRead"):
            backend.ask("s", QUESTIONS)
        # Bytes of the reply had arrived: the host processed it, so the pool must not resend.
        assert len(server.requests) == 2
        assert answers(backend) == EXPECTED  # the backend goes on with a new connection
    assert server.connections == 2


def test_cut_mid_reply_is_retried_by_the_policy(
        host: tuple[ProtocolServer, Callable[..., Backend]]) -> None:
    server, make = host
    with make(retry=QUICK) as backend:
        assert answers(backend) == EXPECTED
        server.play(Cut(keep=0), Cut(keep=25))
        assert answers(backend) == EXPECTED
    assert len(server.requests) == 4  # the first ask, two cut replies, the retry that worked


def test_many_threads_share_one_backend(
        host: tuple[ProtocolServer, Callable[..., Backend]]) -> None:
    server, make = host
    threads, asks = 8, 12
    results: list[dict[str, Any]] = []
    errors: list[BaseException] = []
    lock = threading.Lock()
    start = threading.Barrier(threads)

    def work(n: int) -> None:
        start.wait()
        try:
            for i in range(asks):
                got = backend.ask(f"thread {n} ask {i}", QUESTIONS)
                with lock:
                    results.append({q: a.value for q, a in got.answers.items()})
        except BaseException as err:  # noqa: BLE001 - reported by the assert below
            errors.append(err)

    with make(retry=NO_RETRY) as backend:
        pool = [threading.Thread(target=work, args=(n,)) for n in range(threads)]
        for t in pool:
            t.start()
        for t in pool:
            t.join()
    assert errors == []
    assert results == [EXPECTED] * (threads * asks)
    assert len(server.requests) == threads * asks
    # At most one connection per concurrent thread, however many asks.
    assert 1 <= server.connections <= threads
    states = [r.json.get("state") or r.json["messages"][1]["content"] for r in server.requests]
    assert len(set(map(str, states))) == threads * asks  # every ask sent once


def test_close_and_garbage_collection_leak_no_socket(
        host: tuple[ProtocolServer, Callable[..., Backend]]) -> None:
    server, make = host
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        closed = make(retry=NO_RETRY)
        assert answers(closed) == EXPECTED
        closed.close()
        closed.close()  # twice is harmless
        assert answers(closed) == EXPECTED  # still usable: opens a new connection
        closed.close()
        forgotten = make(retry=NO_RETRY)
        assert answers(forgotten) == EXPECTED
        del closed, forgotten  # never closed: collection closes its connection
        gc.collect()
    assert [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)] == []
    assert server.connections == 3


def test_the_host_sees_the_connection_close() -> None:
    with SystemOneServer() as server:
        backend = JevBackend("test-key", base_url=server.url, retry=NO_RETRY)
        backend.ask("s", QUESTIONS)
        pool = backend._pool
        assert pool is not None and len(pool._idle) == 1
        sock = pool._idle[0].sock
        backend.close()
        assert pool._idle == [] and sock is not None and sock.fileno() == -1


def test_pool_keeps_at_most_max_idle_connections(jev_server: SystemOneServer) -> None:
    pool = ConnectionPool(max_idle=2)
    body = (b'{"model": "jev-latest", "state": "s", "questions": '
            b'{"q": {"type": "noul", "instructions": "p=0.5"}}}')
    request = HttpRequest(jev_server.url + "/v1/systemone",
                          {"Authorization": "Bearer test-key",
                           "Content-Type": "application/json"}, body, 5.0)
    gate = threading.Barrier(4)

    def one() -> None:
        gate.wait()
        assert pool(request).status == 200

    with pool:
        threads = [threading.Thread(target=one) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(pool._idle) <= 2 and pool.opened == jev_server.connections
    assert pool._idle == []


def test_https_reuses_one_tls_session(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    cert, context = self_signed(str(tmp_path))
    with SystemOneServer(tls=context) as server:
        assert server.url.startswith("https://")
        untrusted = JevBackend("test-key", base_url=server.url, retry=NO_RETRY)
        with untrusted, pytest.raises(JudgeConnectionError, match="CERTIFICATE_VERIFY_FAILED"):
            untrusted.ask("s", QUESTIONS)
        monkeypatch.setenv("SSL_CERT_FILE", cert)  # now the client trusts our certificate
        with JevBackend("test-key", base_url=server.url, retry=NO_RETRY) as backend:
            for i in range(5):
                assert answers(backend, f"state {i}") == EXPECTED
        assert len(server.requests) == 5
        assert server.connections == 1  # the refused handshake never got a handler


def test_a_forked_child_does_not_reuse_the_parents_connection(
        jev_server: SystemOneServer) -> None:
    with JevBackend("test-key", base_url=jev_server.url, retry=NO_RETRY) as backend:
        assert answers(backend) == EXPECTED
        with warnings.catch_warnings():
            # Python 3.12+ warns about fork() beside threads (the server's); this child only
            # makes one request and exits without touching their locks.
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
        if pid == 0:  # the child: asks on a connection of its own, then leaves at once
            code = 0 if answers(backend) == EXPECTED else 1
            os._exit(code)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        assert answers(backend) == EXPECTED  # the parent's connection is intact
    assert jev_server.connections == 2
    assert [r.connection for r in jev_server.requests] == [1, 2, 1]
