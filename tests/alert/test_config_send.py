"""The retry schedule and sender (with a scripted send), payloads, and the alerts config."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

from semloop._exceptions import ConfigError
from semloop._http import HttpRequest, retryable
from semloop.alert import (
    AlertDecision,
    AlertPolicy,
    AlertsConfig,
    HttpResponse,
    UndecidedSignal,
    load_alerts_config,
    retry_policy,
    send_with_retry,
    slack_payload,
    webhook_payload,
)


def test_retry_schedule_is_exponential_and_capped() -> None:
    assert retry_policy().delays() == [0.5, 1.0, 2.0]
    assert retry_policy(max_attempts=6, base_delay_s=1, factor=3, max_delay_s=20).delays() == [
        1, 3, 9, 20, 20]
    assert retry_policy(max_attempts=1).delays() == []
    assert [s for s in (200, 301, 400, 404, 408, 429, 500, 503, 599) if retryable(s)] == [
        408, 429, 500, 503, 599]  # the statuses the judge and the SDK retry too


class Scripted:
    """A send that answers from a script: an int is a status, an exception is raised."""

    def __init__(self, *script: int | OSError, retry_after: float | None = None) -> None:
        self.script = list(script)
        self.calls: list[tuple[str, bytes, Mapping[str, str], float]] = []
        self.retry_after = retry_after

    def __call__(self, request: HttpRequest) -> HttpResponse:
        self.calls.append((request.url, request.body, request.headers, request.timeout))
        step = self.script.pop(0)
        if isinstance(step, OSError):
            raise step
        hint = {"retry-after": str(self.retry_after)} if step == 429 and self.retry_after else {}
        return HttpResponse(step, hint)


def test_send_retries_connection_errors_and_5xx_then_stops_at_success() -> None:
    send, slept = Scripted(ConnectionRefusedError("refused"), 503, 200), []
    result = send_with_retry(send, "http://x/h", {"a": 1}, sleep=slept.append,
                             headers={"X-Token": "t"}, timeout_s=2.0)
    assert result.delivered and result.status == "delivered"
    assert [(a.status, a.error is not None) for a in result.attempts] == [
        (None, True), (503, False), (200, False)]
    assert slept == [0.5, 1.0]
    url, body, headers, timeout = send.calls[0]
    assert (url, body, timeout) == ("http://x/h", b'{"a":1}', 2.0)
    assert headers["Content-Type"] == "application/json" and headers["X-Token"] == "t"


def test_send_is_bounded_and_does_not_retry_a_client_error() -> None:
    send, slept = Scripted(*[500] * 10), []
    result = send_with_retry(send, "http://x", {}, retry=retry_policy(max_attempts=3),
                             sleep=slept.append)
    assert not result.delivered and len(send.calls) == 3 and slept == [0.5, 1.0]
    assert result.last_error == "HTTP 500" and result.gave_up
    send = Scripted(404, 200)
    result = send_with_retry(send, "http://x", {}, sleep=slept.append)
    assert (result.status, len(send.calls), result.last_error) == ("failed", 1, "HTTP 404")
    assert not result.gave_up  # the receiver refused this body; it is not down


def test_429_waits_for_retry_after_but_never_past_the_cap() -> None:
    slept: list[float] = []
    send_with_retry(Scripted(429, 200, retry_after=7.0), "http://x", {}, sleep=slept.append)
    assert slept == [7.0]
    slept.clear()
    send_with_retry(Scripted(429, 200, retry_after=999.0), "http://x", {},
                    retry=retry_policy(max_delay_s=10.0), sleep=slept.append)
    assert slept == [10.0]


RECORD = UndecidedSignal(5, "org1", "acme", "run <1>", "bot&co", "v2", "TOOL_LOOP", "structural",
                      "HIGH", 0.87654, {"steps": [3, 4], "tool": "search"}, 4, False, 12.5)
DECISION = AlertDecision(5, "alerted", "ok", "consecutive 2/10",
                         {"policy": "consecutive", "threshold": 2, "window": 10,
                          "matching_runs": 2, "runs_considered": 10})


def test_webhook_payload_has_the_alert_and_a_link_to_the_run() -> None:
    body = webhook_payload(RECORD, DECISION, "http://semloop:8000/")
    assert body == {
        "type": "semloop.alert", "org": "acme", "org_id": "org1", "agent": "bot&co",
        "agent_version": "v2", "failure_type": "TOOL_LOOP", "source": "structural",
        "severity": "HIGH", "confidence": 0.8765, "run_id": "run <1>", "step_index": 4,
        "signal_id": 5, "detected_at": 12.5, "policy": "consecutive 2/10",
        "counts": dict(DECISION.counts), "evidence": {"steps": [3, 4], "tool": "search"},
        "link": "http://semloop:8000/v1/runs/run%20%3C1%3E",
    }


def test_slack_payload_is_blocks_with_escaped_text() -> None:
    body = slack_payload(RECORD, DECISION, "http://semloop:8000")
    assert body["text"].startswith("HIGH TOOL_LOOP in bot&amp;co: run run &lt;1&gt;")
    kinds = [b["type"] for b in body["blocks"]]
    assert kinds == ["header", "section", "section", "context"]
    assert body["blocks"][0]["text"] == {"type": "plain_text", "text": "HIGH TOOL_LOOP in bot&co"}
    fields = {f["text"].split("\n")[0]: f["text"].split("\n", 1)[1]
              for f in body["blocks"][1]["fields"]}
    assert fields["*Policy*"] == "consecutive 2/10 (2 of the last 10 runs)"
    assert fields["*Confidence*"] == "0.88" and fields["*Agent*"] == "bot&amp;co v2"
    assert '"tool": "search"' in body["blocks"][2]["text"]["text"]
    assert "http://semloop:8000/v1/runs/run%20%3C1%3E" in body["blocks"][3]["elements"][0]["text"]


def test_slack_evidence_is_cut_to_fit_a_section() -> None:
    big = UndecidedSignal(**{**RECORD.__dict__, "evidence": {"x": "y" * 10_000}})
    text = slack_payload(big, DECISION, "http://s")["blocks"][2]["text"]["text"]
    assert len(text) < 3000 and "more characters]" in text


def test_config_overrides_merge_onto_the_reference_policy() -> None:
    config = AlertsConfig.from_dict({
        "destinations": {"ops": {"type": "webhook", "url": "http://h/1",
                                 "headers": {"X-Token": "t"}},
                         "team": {"type": "slack", "url": "https://hooks/2", "timeout_s": 2}},
        "policies": {"TOOL_LOOP": {"threshold": 3}, "SLOW_STEP": {"mode": "immediate"},
                     "HALLUCINATION": {"confidence_floor": 0.8},
                     "CUSTOM_THING": {"mode": "consecutive"}, "COST_SPIKE": {"mode": "off"}},
        "default_confidence_floor": 0.65, "cooldown_s": 60,
        "retry": {"max_attempts": 2, "base_delay_s": 0.1},
    })
    assert config.policy("TOOL_LOOP") == AlertPolicy("consecutive", 3, 10, 0.65)
    assert config.policy("SLOW_STEP") == AlertPolicy("immediate", 1, 1, 0.65)
    assert config.policy("HALLUCINATION") == AlertPolicy("immediate", 1, 1, 0.8)
    assert config.policy("CUSTOM_THING") == AlertPolicy("consecutive", 2, 10, 0.65)
    assert config.policy("COST_SPIKE").mode == "off"
    assert config.policy("TASK_COMPLETION") == AlertPolicy("immediate", 1, 1, 0.65)
    assert config.policy("RETRY_STORM") == AlertPolicy("consecutive", 2, 10, 0.65)
    assert [(d.name, d.type, d.timeout_s) for d in config.destinations] == [
        ("ops", "webhook", 5.0), ("team", "slack", 2.0)]
    assert config.retry == retry_policy(max_attempts=2, base_delay_s=0.1)
    assert config.cooldown_s == 60.0


@pytest.mark.parametrize(("section", "key"), [
    ({"destination": {}}, "alerts.destination"),
    ({"destinations": {"ops": {"type": "email", "url": "http://x"}}}, "alerts.destinations.ops.type"),
    ({"destinations": {"ops": {"type": "webhook"}}}, "alerts.destinations.ops.url"),
    ({"destinations": {"ops": {"type": "webhook", "url": "ftp://x"}}}, "alerts.destinations.ops.url"),
    ({"destinations": {"ops": {"type": "webhook", "url": "http://x", "secret": 1}}},
     "alerts.destinations.ops.secret"),
    ({"destinations": {"ops": {"type": "webhook", "url": "http://x", "headers": {"A": 1}}}},
     "alerts.destinations.ops.headers.A"),
    ({"policies": {"TOOL_LOOP": {"treshold": 3}}}, "alerts.policies.TOOL_LOOP.treshold"),
    ({"policies": {"TOOL_LOOP": {"mode": "sometimes"}}}, "alerts.policies.TOOL_LOOP.mode"),
    ({"policies": {"TOOL_LOOP": {"threshold": 11}}}, "alerts.policies.TOOL_LOOP.window"),
    ({"policies": {"TOOL_LOOP": {"threshold": 1.5}}}, "alerts.policies.TOOL_LOOP.threshold"),
    ({"policies": {"TOOL_LOOP": {"threshold": True}}}, "alerts.policies.TOOL_LOOP.threshold"),
    ({"policies": {"COST_SPIKE": {"window": 5}}}, "alerts.policies.COST_SPIKE.window"),
    ({"policies": {"HALLUCINATION": {"confidence_floor": 1.5}}},
     "alerts.policies.HALLUCINATION.confidence_floor"),
    ({"default_confidence_floor": "high"}, "alerts.default_confidence_floor"),
    ({"retry": {"max_attempts": 0}}, "alerts.retry.max_attempts"),
    ({"retry": {"delay": 1}}, "alerts.retry.delay"),
    ({"cooldown_s": -1}, "alerts.cooldown_s"),
    ({"link_base_url": "semloop:8000"}, "alerts.link_base_url"),
    (["not", "a", "mapping"], "alerts"),
])
def test_a_bad_key_is_named(section: object, key: str) -> None:
    with pytest.raises(ConfigError) as info:
        AlertsConfig.from_dict(section)
    assert info.value.key == key


def test_load_alerts_config_from_yaml(tmp_path: Path) -> None:
    path = tmp_path / "alerts.yml"
    path.write_text("alerts:\n  destinations:\n    ops: {type: webhook, url: 'http://h'}\n"
                    "  policies:\n    TOOL_LOOP: {mode: frequency, threshold: 4}\n")
    config = load_alerts_config(path)
    assert config.policy("TOOL_LOOP") == AlertPolicy("frequency", 4, 10)
    path.write_text("alerts:\n  cooldown_s: 1\n  cooldown_s: 2\n")
    with pytest.raises(ConfigError, match="duplicate key 'cooldown_s'"):
        load_alerts_config(path)
    path.write_text("alerts: {}\ndetectors: {}\n")
    with pytest.raises(ConfigError) as info:
        load_alerts_config(path)
    assert info.value.key == "detectors" and info.value.source == str(path)
    path.write_text("default: {}\n")
    with pytest.raises(ConfigError, match="alerts:"):
        load_alerts_config(path)
    path.write_text("alerts:\n  policies:\n    TOOL_LOOP: {mode: every}\n")
    with pytest.raises(ConfigError, match=r"alerts\.yml: alerts\.policies\.TOOL_LOOP\.mode"):
        load_alerts_config(path)


def test_the_alert_package_imports_with_the_standard_library_alone(
    third_party_imports: Callable[[str], list[str]],
) -> None:
    assert third_party_imports("semloop.alert") == []
