"""JevBackend end to end against a System One server on 127.0.0.1."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from semloop._exceptions import (
    ConfigError,
    JudgeAnswerError,
    JudgeAuthError,
    JudgeConnectionError,
    JudgeStatusError,
)
from semloop.judge._http import RetryPolicy
from semloop.judge._types import Backend
from semloop.judge.jev import USD_PER_INPUT_MTOK, JevBackend, estimate_cost_usd

from .servers import Delay, Edit, Reply, SystemOneServer

STATE = {"goal": "fix the bug", "steps": [{"index": 0, "output": "read the file"}]}
QUESTIONS: dict[str, Any] = {
    "progress_0_1": {"type": "noul", "instructions": "Did it advance? p=0.83",
                     "criteria": {"true": "advances", "false": "repeats"}},
    "topic": {"type": "choice", "instructions": "Which area? pick=billing",
              "criteria": {"billing": "money", "shipping": None, "other": None}},
    "stagnation": {"type": "score", "instructions": "How stuck? level=2",
                   "criteria": ["none", "a little", "a lot", "completely"]},
}
# Fast retries so the suite stays quick; the defaults are tested in test_http.py.
QUICK = RetryPolicy(max_retries=2, backoff_s=0.01, max_backoff_s=0.05)


def backend(server: SystemOneServer, **options: Any) -> JevBackend:
    options.setdefault("retry", QUICK)
    return JevBackend("test-key", base_url=server.url, **options)


def test_happy_path_noul_choice_score(jev_server: SystemOneServer) -> None:
    jev = backend(jev_server)
    assert isinstance(jev, Backend) and jev.name == "jev"
    response = jev.ask(STATE, QUESTIONS)

    noul = response.answers["progress_0_1"]
    assert (noul.type, noul.value, noul.probability) == ("noul", 0.83, 0.83)
    assert noul.probabilities == {True: 0.83, False: pytest.approx(0.17)}
    choice = response.answers["topic"]
    assert (choice.type, choice.value, choice.probability) == ("choice", "billing", 0.7)
    assert choice.confidence == pytest.approx((0.7 - 1 / 3) / (1 - 1 / 3))
    score = response.answers["stagnation"]
    assert score.type == "score"
    assert set(score.probabilities) == {0, 1, 2, 3}  # keyed by int, not "0".."3"
    assert score.value == pytest.approx(0.2 / 3 * (0 + 1 + 3) + 0.8 * 2)
    assert score.probability == 0.8  # the mass of the level nearest the expected score

    sent = jev_server.requests[0].json
    input_tokens = (len(json.dumps(sent["state"]))
                    + len(json.dumps(sent["questions"]))) // 4
    assert response.input_tokens == input_tokens
    assert response.output_tokens == 6
    assert response.cost_usd == pytest.approx(input_tokens * 0.042 / 1e6)
    assert response.model == "jev-test-1.0"
    assert response.latency_ms > 0


def test_request_shape_and_headers(jev_server: SystemOneServer) -> None:
    backend(jev_server, model="jev-1.13.0").ask("plain text state", QUESTIONS)
    [request] = jev_server.requests
    assert (request.method, request.path) == ("POST", "/v1/systemone")
    assert request.headers["authorization"] == "Bearer test-key"
    assert request.headers["content-type"] == "application/json"
    assert request.headers["accept"] == "application/json"
    assert request.headers["user-agent"].startswith("semloop")
    assert request.json == {"model": "jev-1.13.0", "state": "plain text state",
                            "questions": QUESTIONS}


def test_env_vars_configure_key_host_and_model(jev_server: SystemOneServer,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TYPESAFE_API_KEY", "test-key")
    monkeypatch.setenv("TYPESAFE_BASE_URL", jev_server.url + "/")
    monkeypatch.setenv("TYPESAFE_DEFAULT_MODEL", "jev-preview")
    response = JevBackend().ask("s", {"q": QUESTIONS["progress_0_1"]})
    assert response.model == "jev-preview"
    assert jev_server.requests[0].headers["authorization"] == "Bearer test-key"


def test_path_override_posts_to_base_url_itself() -> None:
    with SystemOneServer(route="/api/alpha/decisions") as server:
        jev = JevBackend("test-key", base_url=server.url + "/api/alpha/decisions", path="")
        assert jev.ask("s", {"q": QUESTIONS["progress_0_1"]}).answers["q"].value == 0.83
        assert [r.path for r in server.requests] == ["/api/alpha/decisions"]


def test_empty_questions_make_no_request(jev_server: SystemOneServer) -> None:
    response = backend(jev_server).ask("s", {})
    assert response.answers == {} and response.cost_usd == 0.0
    assert jev_server.requests == []


def test_malformed_json_body(jev_server: SystemOneServer) -> None:
    jev_server.play(Reply(200, b'{"model": "jev", "answers": {'))
    with pytest.raises(JudgeAnswerError, match="not JSON"):
        backend(jev_server).ask("s", QUESTIONS)


def test_missing_answers_object(jev_server: SystemOneServer) -> None:
    jev_server.play(Edit(lambda body: {k: v for k, v in body.items() if k != "answers"}))
    with pytest.raises(JudgeAnswerError, match="no 'answers'"):
        backend(jev_server).ask("s", QUESTIONS)


def test_an_answer_missing_for_one_id(jev_server: SystemOneServer) -> None:
    def drop_topic(body: dict[str, Any]) -> dict[str, Any]:
        del body["answers"]["topic"]
        return body

    jev_server.play(Edit(drop_topic))
    with pytest.raises(JudgeAnswerError, match="'topic'"):
        backend(jev_server).ask("s", QUESTIONS)


@pytest.mark.parametrize(
    ("answer", "fragment"),
    [
        ({"type": "noul", "noul": 1.3}, "in \\[0, 1\\]"),
        ({"type": "noul", "noul": "0.4"}, "finite number"),
        ({"type": "noul"}, "finite number"),
        ({"type": "boolean", "noul": 0.4}, "type 'boolean'"),
        ("0.4", "not an object"),
    ],
)
def test_bad_noul_answers_name_the_id(jev_server: SystemOneServer, answer: Any,
                                      fragment: str) -> None:
    def replace(body: dict[str, Any]) -> dict[str, Any]:
        body["answers"]["progress_0_1"] = answer
        return body

    jev_server.play(Edit(replace))
    with pytest.raises(JudgeAnswerError, match="progress_0_1") as err:
        backend(jev_server).ask("s", QUESTIONS)
    assert err.match(fragment)


def test_unknown_type_answer_is_an_error(jev_server: SystemOneServer) -> None:
    question = {"q": {"type": "box", "instructions": "where?"}}
    jev_server.play(Reply(200, {"model": "m", "answers": {"q": {"type": "box", "box": {}}}}))
    with pytest.raises(JudgeAnswerError, match="'q' has unknown type 'box'"):
        backend(jev_server).ask("s", question)


def test_choice_outside_the_labels_is_an_error(jev_server: SystemOneServer) -> None:
    question = {"topic": {"type": "choice", "instructions": "pick=refunds",
                          "criteria": {"billing": None, "shipping": None}}}
    with pytest.raises(JudgeAnswerError, match="'refunds' is not one of"):
        backend(jev_server).ask("s", question)


def test_slow_response_times_out_as_connection_error(jev_server: SystemOneServer) -> None:
    jev_server.play(Delay(1.0), Delay(1.0))
    started = time.monotonic()
    with pytest.raises(JudgeConnectionError, match="timed out") as err:
        backend(jev_server, timeout=0.2, retry=RetryPolicy(max_retries=1, backoff_s=0.01)).ask(
            "s", QUESTIONS)
    assert time.monotonic() - started < 1.1  # gave up at the timeouts, not at a reply (1 s)
    assert "2 attempts" in str(err.value)
    assert len(jev_server.requests) == 2  # the timeout was retried once


def test_429_with_retry_after_then_success(jev_server: SystemOneServer) -> None:
    jev_server.play(Reply(429, {"detail": {"error_type": "rate_limit_error",
                                           "message": "slow down"}}, {"Retry-After": "1"}))
    response = backend(jev_server).ask("s", QUESTIONS)
    assert response.answers["progress_0_1"].value == 0.83
    first, second = jev_server.requests
    assert second.at - first.at >= 1.0  # the host's Retry-After, not our 10 ms backoff
    assert response.latency_ms >= 1000.0


def test_retry_after_ms_wins_over_retry_after(jev_server: SystemOneServer) -> None:
    jev_server.play(Reply(429, b"{}", {"retry-after-ms": "300", "Retry-After": "20"}))
    started = time.monotonic()
    backend(jev_server).ask("s", QUESTIONS)
    first, second = jev_server.requests
    assert 0.3 <= second.at - first.at < 2.0
    assert time.monotonic() - started < 2.0


def test_500_twice_then_success(jev_server: SystemOneServer) -> None:
    jev_server.play(Reply(500, b"boom"), Reply(503, b"busy"))
    response = backend(jev_server).ask("s", QUESTIONS)
    assert response.answers["topic"].value == "billing"
    assert len(jev_server.requests) == 3


def test_persistent_500_is_a_status_error_after_max_retries(jev_server: SystemOneServer) -> None:
    jev_server.play(*[Reply(500, {"detail": {"error_type": "internal_error",
                                             "message": "model crashed"}})] * 5)
    with pytest.raises(JudgeStatusError) as err:
        backend(jev_server, retry=RetryPolicy(max_retries=3, backoff_s=0.01)).ask("s", QUESTIONS)
    assert err.value.status == 500
    assert "model crashed" in str(err.value) and "after 3 retries" in str(err.value)
    assert len(jev_server.requests) == 4


def test_a_retry_after_beyond_the_budget_gives_up_at_once(jev_server: SystemOneServer) -> None:
    jev_server.play(Reply(503, b"down for maintenance", {"Retry-After": "3600"}))
    started = time.monotonic()
    with pytest.raises(JudgeStatusError, match="HTTP 503"):
        backend(jev_server).ask("s", QUESTIONS)
    assert time.monotonic() - started < 1.0
    assert len(jev_server.requests) == 1


def test_401_is_an_auth_error_that_hides_the_key(jev_server: SystemOneServer) -> None:
    with pytest.raises(JudgeAuthError) as err:
        JevBackend("wrong-key-123", base_url=jev_server.url).ask("s", QUESTIONS)
    assert err.value.status == 401
    assert "TYPESAFE_API_KEY" in str(err.value)
    assert "Cannot authenticate" in str(err.value)
    assert "wrong-key-123" not in str(err.value)
    assert len(jev_server.requests) == 1  # an auth failure is never retried


def test_a_key_echoed_by_the_host_is_blanked(jev_server: SystemOneServer) -> None:
    jev_server.play(Reply(401, {"detail": "key test-key is revoked"}))
    with pytest.raises(JudgeAuthError) as err:
        backend(jev_server).ask("s", QUESTIONS)
    assert "test-key" not in str(err.value) and "test-key" not in err.value.body
    assert "key *** is revoked" in str(err.value)


def test_403_without_key_on_a_custom_host(jev_server: SystemOneServer) -> None:
    with pytest.raises(JudgeAuthError) as err:
        JevBackend(base_url=jev_server.url).ask("s", QUESTIONS)
    assert err.value.status == 403 and "Must supply an API key" in str(err.value)
    assert "authorization" not in jev_server.requests[0].headers


def test_422_quotes_the_validation_detail(jev_server: SystemOneServer) -> None:
    bad = {"stagnation": {"type": "score", "instructions": "x", "criteria": {"0": "none"}}}
    with pytest.raises(JudgeStatusError) as err:
        backend(jev_server).ask("s", bad)
    assert err.value.status == 422
    assert "body.questions.stagnation.score.criteria: Input should be a valid list" in str(
        err.value)
    assert len(jev_server.requests) == 1


def test_unreachable_host(jev_server: SystemOneServer) -> None:
    url = jev_server.url
    jev_server.__exit__()
    with pytest.raises(JudgeConnectionError, match="Could not reach the System One host"):
        JevBackend("k", base_url=url, retry=QUICK).ask("s", QUESTIONS)


def test_default_host_needs_a_key() -> None:
    with pytest.raises(ConfigError, match="TYPESAFE_API_KEY"):
        JevBackend()


def test_a_key_with_spaces_is_refused_without_echoing_it() -> None:
    with pytest.raises(ConfigError) as err:
        JevBackend("abc def-secret")
    assert "def-secret" not in str(err.value)
    assert "def-secret" not in repr(JevBackend("good-secret-key"))


def test_cost() -> None:
    assert USD_PER_INPUT_MTOK == 0.042
    assert estimate_cost_usd(1_000_000) == pytest.approx(0.042)
    assert estimate_cost_usd(512) == pytest.approx(512 * 0.042e-6)


@pytest.mark.parametrize("url", ["api.typesafe.ai", "ftp://host", "http://[::1", "http://h:99999",
                                 "https://hôst.example"])
def test_a_bad_base_url_is_a_config_error(url: str) -> None:
    with pytest.raises(ConfigError, match="base_url"):
        JevBackend("k", base_url=url)
