"""semloop._http: the judge, alert delivery and the SDK's emitter read a host's answer the
same way, over real local HTTP (which statuses to retry, every Retry-After form), and
follow one RetryPolicy."""

from __future__ import annotations

import email.utils
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any, ClassVar

import pytest

from semloop import alert, judge
from semloop._http import (
    RETRYABLE_STATUSES,
    HttpRequest,
    HttpResponse,
    RetryPolicy,
    backoff_s,
    retry_after_s,
    send_retrying,
)
from semloop.sdk import HttpEmitter, SendError


class _Answer(BaseHTTPRequestHandler):
    status: ClassVar[int] = 503
    headers_out: ClassVar[dict[str, str]] = {}

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(self.status)
        for key, value in self.headers_out.items():
            self.send_header(key, value)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def host() -> Iterator[str]:
    server = HTTPServer(("127.0.0.1", 0), _Answer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()


def _sdk_wait(url: str) -> tuple[bool, float | None]:
    with pytest.raises(SendError) as caught:
        HttpEmitter(url, "k").send([])
    return caught.value.retryable, caught.value.retry_after


def _alert_wait(url: str) -> float | None:
    return alert.urllib_send(HttpRequest(url + "/hook", {}, b"{}", 5.0)).retry_after_s


@pytest.mark.parametrize(("headers", "wait", "slack"), [
    (lambda: {"Retry-After": "30"}, 30.0, 0.0),
    (lambda: {"retry-after-ms": "250", "Retry-After": "9"}, 0.25, 0.0),
    # An HTTP date has whole seconds, and a loaded machine may take a few of them. Made
    # when the test runs: a date made at collection would have aged by then.
    (lambda: {"Retry-After": email.utils.formatdate(time.time() + 120, usegmt=True)},
     120.0, 10.0),
], ids=["seconds", "milliseconds", "http-date"])
def test_every_caller_reads_every_retry_after_form(
        host: str, headers: Callable[[], dict[str, str]], wait: float, slack: float) -> None:
    _Answer.status, _Answer.headers_out = 503, headers()
    retryable, sdk = _sdk_wait(host)
    alert = _alert_wait(host)
    assert retryable and sdk is not None and alert is not None
    assert sdk == pytest.approx(wait, abs=slack) and alert == pytest.approx(wait, abs=slack)


def test_one_set_of_retryable_statuses_and_one_backoff(host: str) -> None:
    _Answer.status, _Answer.headers_out = 408, {}
    assert _sdk_wait(host)[0] is True
    assert judge.RetryPolicy is alert.RetryPolicy is RetryPolicy
    assert RetryPolicy().statuses == RETRYABLE_STATUSES and 408 in RETRYABLE_STATUSES
    # The alert schedule and the judge's (without jitter) are the shared backoff.
    assert alert.DEFAULT_RETRY.delays() == [backoff_s(n, 0.5, 30.0) for n in (1, 2, 3)]
    assert RetryPolicy(jitter=0).backoff(3, 0.9) == backoff_s(3, 0.5, 5.0)
    assert retry_after_s({"retry-after": "soon"}) is None


def test_a_budget_follows_the_hint_and_no_budget_bounds_each_wait() -> None:
    judges, alerts = RetryPolicy(jitter=0), alert.DEFAULT_RETRY
    # With a budget the host's hint is the wait, shorter or longer than the backoff...
    assert judges.wait(2, 0.1) == 0.1 and judges.wait(1, 20.0) == 20.0
    # ...unless it would pass the budget; without one it lengthens the backoff, capped.
    assert judges.wait(1, 20.0, waited=15.0) is None
    assert alerts.wait(2, 0.1) == 1.0 and alerts.wait(1, 99.0) == 30.0
    assert judges.wait(3) is None and alerts.wait(4) is None  # no retries left
    assert (judges.attempts, alerts.attempts) == (3, 4)


def test_the_retry_loop_against_a_real_host(host: str) -> None:
    _Answer.status, _Answer.headers_out = 503, {"Retry-After": "0"}
    slept: list[float] = []
    policy = RetryPolicy(max_retries=2, backoff_s=0.01, jitter=0)
    tried = send_retrying(alert.urllib_send, HttpRequest(host, {}, b"{}", 5.0), policy,
                          sleep=slept.append)
    assert isinstance(tried.response, HttpResponse) and tried.response.status == 503
    assert (tried.retries, slept) == (2, [0.0, 0.0])  # the host asked for no wait
    _Answer.status = 404
    tried = send_retrying(alert.urllib_send, HttpRequest(host, {}, b"{}", 5.0), policy,
                          sleep=slept.append)
    assert tried.response is not None and (tried.response.status, tried.retries) == (404, 0)
