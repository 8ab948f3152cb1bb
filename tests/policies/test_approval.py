"""require_approval blocks the agent's thread until the approver answers; anything but a
clear yes in time stops the run (fail closed)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest

from semloop.sdk import ApprovalRequest, Policy, PolicyViolation

from .conftest import Recorded

GATE = Policy("deletes", "before_tool_call", "contains", "delete", "require_approval",
              message="deleting needs a human")


def _delete(rec: Recorded) -> None:
    with rec.client.run("agent") as run:
        run.tool_called("search", {"q": "stale accounts"})
        run.tool_called("delete_account", {"account_id": "acct_42", "api_key": "sk-1"})
        run.tool_responded("delete_account", success=True)


def test_approved_the_tool_call_goes_ahead(recorded: Callable[..., Recorded]) -> None:
    requests: list[ApprovalRequest] = []

    def approve(request: ApprovalRequest) -> bool:
        requests.append(request)
        return True

    rec = recorded(approver=approve, policies=[GATE])
    _delete(rec)
    (request,) = requests
    assert request.policy_name == "deletes" and request.tool_name == "delete_account"
    assert request.args == {"account_id": "acct_42", "api_key": "sk-1"}
    assert request.trigger == "before_tool_call" and request.message == "deleting needs a human"
    assert request.step_index == 1  # the search; the delete has not been recorded yet
    assert rec.types() == ["run.started", "tool.called", "policy.triggered",
                           "approval.requested", "approval.granted", "tool.called",
                           "tool.responded", "run.completed"]
    asked = rec.of_type("approval.requested")[0].payload
    assert asked["request_id"] == request.request_id
    assert asked["args"] == {"account_id": "acct_42", "api_key": "[REDACTED]"}
    assert rec.of_type("approval.granted")[0].payload["request_id"] == request.request_id


@pytest.mark.parametrize(("approver", "reason"), [
    (lambda request: False, "denied"),
    (lambda request: "yes", "denied"),  # only True approves
    (lambda request: 1 / 0, "approver_error"),
    (None, "denied"),  # no approver configured
])
def test_anything_but_true_denies_and_stops_the_run(
        recorded: Callable[..., Recorded], approver: Callable[[ApprovalRequest], object] | None,
        reason: str) -> None:
    rec = recorded(approver=approver, policies=[GATE])
    with pytest.raises(PolicyViolation) as info:
        _delete(rec)
    assert info.value.policy_name == "deletes" and info.value.reason == reason
    assert info.value.observed == "delete_account" and info.value.action == "require_approval"
    types = rec.types()
    assert types[-3:] == ["approval.requested", "approval.denied", "run.errored"]
    assert types.count("tool.called") == 1  # the delete never ran
    errored = rec.of_type("run.errored")[0].payload
    assert errored["exit_reason"] == "policy_violation" and errored["policy_name"] == "deletes"
    assert rec.of_type("approval.denied")[0].payload["reason"]


def test_no_answer_within_the_timeout_denies(recorded: Callable[..., Recorded]) -> None:
    release = threading.Event()

    def slow(request: ApprovalRequest) -> bool:
        release.wait(5)
        return True  # too late: ignored

    rec = recorded(approver=slow, approval_timeout=0.1, policies=[GATE])
    began = time.monotonic()
    try:
        with pytest.raises(PolicyViolation) as info:
            _delete(rec)
    finally:
        release.set()
    assert 0.1 <= time.monotonic() - began < 2
    assert info.value.reason == "timeout"
    assert rec.types()[-3:] == ["approval.requested", "approval.timeout", "run.errored"]
    assert rec.of_type("approval.requested")[0].payload["timeout_s"] == 0.1


def test_the_policy_timeout_overrides_the_client_one(recorded: Callable[..., Recorded]) -> None:
    release = threading.Event()
    gate = Policy("deletes", "before_tool_call", "contains", "delete", "require_approval",
                  timeout_s=0.05)
    rec = recorded(approver=lambda r: release.wait(5), approval_timeout=60, policies=[gate])
    began = time.monotonic()
    try:
        with pytest.raises(PolicyViolation, match="timeout"):
            _delete(rec)
    finally:
        release.set()
    assert time.monotonic() - began < 2


def test_the_approver_may_take_its_time_within_the_timeout(
        recorded: Callable[..., Recorded]) -> None:
    def human(request: ApprovalRequest) -> bool:
        time.sleep(0.2)
        return True

    rec = recorded(approver=human, approval_timeout=5, policies=[GATE])
    _delete(rec)
    assert "approval.granted" in rec.types()


def test_require_approval_on_a_count_trigger(recorded: Callable[..., Recorded]) -> None:
    asked: list[object] = []

    def approver(request: ApprovalRequest) -> bool:
        asked.append(request.observed)
        return True

    rec = recorded(approver=approver, policies=[
        Policy("spend", "cost_usd", "gt", 0.001, "require_approval")])
    with rec.client.run("agent") as run:
        run.llm_called("gpt-4o", prompt_tokens=10_000)
        run.llm_responded(completion_tokens=10)
        run.llm_called("gpt-4o", prompt_tokens=10_000)
        run.llm_responded(completion_tokens=10)
    assert len(asked) == 1 and asked[0] == pytest.approx(0.0251)
    assert rec.types().count("approval.granted") == 1


def test_a_denial_is_never_a_permission(recorded: Callable[..., Recorded]) -> None:
    answers = [False, False, True]
    asked: list[str | None] = []

    def approver(request: ApprovalRequest) -> bool:
        asked.append(request.tool_name)
        return answers.pop(0)

    rec = recorded(approver=approver, policies=[GATE])
    ran = []
    with rec.client.run("agent") as run:
        for name in ("delete_a", "delete_b", "delete_c", "delete_d"):
            try:
                run.tool_called(name)
            except PolicyViolation:
                continue  # an agent that swallows the denial is asked again next time
            ran.append(name)
    assert asked == ["delete_a", "delete_b", "delete_c"]  # the grant covers the rest
    assert ran == ["delete_c", "delete_d"]
    assert [e.event_type for e in rec.events if e.event_type.startswith("approval.")] == [
        "approval.requested", "approval.denied", "approval.requested", "approval.denied",
        "approval.requested", "approval.granted"]
