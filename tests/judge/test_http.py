"""The HTTP seam: retry decisions, Retry-After parsing, error messages, injected send."""

from __future__ import annotations

import email.utils
import http.client
from typing import Any

import pytest

from semloop._exceptions import (
    JudgeAnswerError,
    JudgeAuthError,
    JudgeConnectionError,
    JudgeStatusError,
)
from semloop.judge._http import (
    HttpRequest,
    HttpResponse,
    RetryPolicy,
    error_detail,
    post_json,
    retry_after_s,
)
from semloop.judge.jev import JevBackend


class Scripted:
    """A ``send`` that plays responses or raises errors in order, recording requests."""

    def __init__(self, *outcomes: HttpResponse | BaseException) -> None:
        self.outcomes = list(outcomes)
        self.requests: list[HttpRequest] = []

    def __call__(self, request: HttpRequest) -> HttpResponse:
        self.requests.append(request)
        outcome = self.outcomes.pop(0)
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome


OK = HttpResponse(200, {}, b'{"ok": true}')


def call(send: Scripted, policy: RetryPolicy | None = None, **kw: Any) -> tuple[Any, list[float]]:
    sleeps: list[float] = []
    reply = post_json(
        "http://judge.test/v1/systemone", {"x": 1}, {"Authorization": "Bearer sekrit"},
        timeout=1.0, policy=policy or RetryPolicy(), service="test host",
        auth_hint="Set TEST_KEY.", send=send, secrets=("sekrit",), sleep=sleeps.append,
        clock=lambda: 0.0, rand=lambda: 0.5, **kw,
    )
    return reply, sleeps


def test_retry_after_forms() -> None:
    assert retry_after_s({"retry-after-ms": "250"}) == 0.25
    assert retry_after_s({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    assert retry_after_s({"retry-after-ms": "soon", "retry-after": "2"}) == 2.0
    assert retry_after_s({"retry-after": " 1.5 "}) == 1.5
    assert retry_after_s({"retry-after": "-3"}) == 0.0
    date = email.utils.formatdate(1_000_030.0, usegmt=True)
    assert retry_after_s({"retry-after": date}, now=1_000_000.0) == pytest.approx(30.0)
    assert retry_after_s({"retry-after": date}, now=2_000_000.0) == 0.0
    assert retry_after_s({"retry-after": "next tuesday"}) is None
    assert retry_after_s({}) is None


def test_backoff_doubles_caps_and_jitters_downwards() -> None:
    policy = RetryPolicy()
    assert [policy.backoff(n, 0.0) for n in (1, 2, 3, 4, 5, 6)] == [0.5, 1, 2, 4, 5, 5]
    assert policy.backoff(1, 1.0) == pytest.approx(0.375)  # at most 25% off
    assert RetryPolicy(jitter=0).backoff(2, 1.0) == 1.0
    with pytest.raises(ValueError, match="max_retries"):
        RetryPolicy(max_retries=-1)


def test_error_detail_shapes() -> None:
    fastapi = b'{"detail": [{"loc": ["body", "questions", "q"], "msg": "bad tag"},' \
              b' {"loc": ["body", "model"], "msg": "Field required"}]}'
    assert error_detail(fastapi) == "body.questions.q: bad tag; body.model: Field required"
    assert error_detail(b'{"detail": {"error_type": "x", "message": "no"}}') == "no"
    assert error_detail(b'{"detail": "Not Found"}') == "Not Found"
    assert error_detail(b'{"error": {"message": "quota"}}') == "quota"
    assert error_detail(b'{"error": "flat"}') == "flat"
    assert error_detail(b'{"message": "top"}') == "top"
    assert error_detail(b"plain\n  text") == "plain text"
    long = error_detail(b"x" * 900)
    assert long.startswith("x" * 500) and long.endswith("[400 more chars]")


def test_retries_use_backoff_then_succeed() -> None:
    send = Scripted(HttpResponse(500, {}, b""), HttpResponse(408, {}, b""), OK)
    reply, sleeps = call(send)
    assert reply.data == {"ok": True} and reply.retries == 2
    assert sleeps == [0.5 * 0.875, 1.0 * 0.875]


def test_connection_errors_are_retried_then_reported() -> None:
    send = Scripted(ConnectionRefusedError(111, "Connection refused"),
                    http.client.RemoteDisconnected("closed"), TimeoutError("timed out"))
    with pytest.raises(JudgeConnectionError) as err:
        call(send)
    assert len(send.requests) == 3
    assert "3 attempts" in str(err.value) and "timed out" in str(err.value)


def test_non_retryable_status_is_raised_at_once() -> None:
    send = Scripted(HttpResponse(400, {}, b'{"detail": "bad"}'))
    with pytest.raises(JudgeStatusError) as err:
        call(send)
    assert (err.value.status, err.value.body) == (400, '{"detail": "bad"}')
    assert len(send.requests) == 1


@pytest.mark.parametrize("status", [401, 403])
def test_auth_statuses(status: int) -> None:
    send = Scripted(HttpResponse(status, {}, b'{"detail": "key sekrit denied"}'))
    with pytest.raises(JudgeAuthError) as err:
        call(send)
    assert err.value.status == status
    assert "Set TEST_KEY." in str(err.value)
    assert "sekrit" not in str(err.value) and "sekrit" not in err.value.body


def test_budget_caps_the_total_wait() -> None:
    send = Scripted(HttpResponse(429, {"retry-after": "2"}, b""),
                    HttpResponse(429, {"retry-after": "2"}, b""), OK)
    with pytest.raises(JudgeStatusError, match="after 1 retry"):
        call(send, RetryPolicy(max_retries=5, budget_s=3.0))
    assert len(send.requests) == 2


def test_zero_retries() -> None:
    send = Scripted(HttpResponse(503, {}, b"busy"))
    with pytest.raises(JudgeStatusError, match="HTTP 503"):
        call(send, RetryPolicy(max_retries=0))


def test_non_json_success_body() -> None:
    with pytest.raises(JudgeAnswerError, match="not JSON"):
        call(Scripted(HttpResponse(200, {}, b"\xff\xfe")))


def test_backend_accepts_an_injected_send() -> None:
    reply = b'{"model": "m", "answers": {"q": {"type": "noul", "noul": 0.25}}, ' \
            b'"usage": {"input_tokens": 1000}}'
    send = Scripted(HttpResponse(200, {}, reply))
    response = JevBackend("k", send=send).ask("s", {"q": {"type": "noul", "instructions": "?"}})
    assert response.answers["q"].value == 0.25
    assert response.cost_usd == pytest.approx(0.042e-3)
    [request] = send.requests
    assert request.url == "https://api.typesafe.ai/v1/systemone" and request.timeout == 30.0
