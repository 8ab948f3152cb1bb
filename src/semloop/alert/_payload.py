"""The bodies alerts are sent as: a plain JSON document, and a Slack incoming-webhook message.

Both are built from the signal and the decision only, so what a destination received can be
stored beside the delivery and compared byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from .records import AlertDecision, UndecidedSignal

__all__ = ["run_link", "slack_payload", "webhook_payload"]

# Slack's limits: header text 150 characters, section text 3,000.
_HEADER_MAX = 150
_EVIDENCE_MAX = 2_500


def run_link(base_url: str, run_id: str) -> str:
    """``GET /v1/runs/{run_id}`` on the semloop API (no dashboard needed to follow it)."""
    return f"{base_url.rstrip('/')}/v1/runs/{quote(run_id, safe='')}"


def webhook_payload(signal: UndecidedSignal, decision: AlertDecision, base_url: str) -> dict[str, Any]:
    """The JSON webhook body: everything a receiver needs to triage without calling back."""
    return {
        "type": "semloop.alert",
        "org": signal.org_name,
        "org_id": signal.org_id,
        "agent": signal.agent_id,
        "agent_version": signal.agent_version,
        "failure_type": signal.failure_type,
        "source": signal.source,
        "severity": signal.severity,
        "confidence": round(float(signal.confidence), 4),
        "run_id": signal.run_id,
        "step_index": signal.step_index,
        "signal_id": signal.id,
        "detected_at": signal.detected_at,
        "policy": decision.policy,
        "counts": dict(decision.counts),
        "evidence": dict(signal.evidence),
        "link": run_link(base_url, signal.run_id),
    }


def _escape(text: str) -> str:
    # Slack mrkdwn reads &, < and > as markup; agent names and evidence are not ours.
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _evidence_text(evidence: Mapping[str, Any]) -> str:
    text = json.dumps(evidence, indent=1, sort_keys=True, default=str)
    if len(text) > _EVIDENCE_MAX:
        text = text[:_EVIDENCE_MAX] + f"\n… [{len(text) - _EVIDENCE_MAX} more characters]"
    return _escape(text.replace("```", "'''"))


def slack_payload(signal: UndecidedSignal, decision: AlertDecision, base_url: str) -> dict[str, Any]:
    """A Slack incoming-webhook message: ``text`` for notifications, ``blocks`` for the body."""
    link = run_link(base_url, signal.run_id)
    title = f"{signal.severity} {signal.failure_type} in {signal.agent_id}"
    counts = decision.counts
    seen = (f"{counts.get('matching_runs')} of the last {counts.get('runs_considered')} runs"
            if counts.get("policy") in ("consecutive", "frequency") else "this run")
    fields = [
        ("Agent", f"{signal.agent_id} {signal.agent_version}".strip()),
        ("Failure", signal.failure_type),
        ("Severity", signal.severity),
        ("Confidence", f"{float(signal.confidence):.2f}"),
        ("Policy", f"{decision.policy} ({seen})"),
        ("Source", signal.source),
        ("Org", signal.org_name or signal.org_id),
        ("Run", signal.run_id),
    ]
    return {
        "text": _escape(f"{title}: run {signal.run_id} ({link})"),
        "blocks": [
            {"type": "header",
             "text": {"type": "plain_text", "text": title[:_HEADER_MAX]}},
            {"type": "section",
             "fields": [{"type": "mrkdwn", "text": f"*{name}*\n{_escape(value)}"}
                        for name, value in fields]},
            {"type": "section",
             "text": {"type": "mrkdwn",
                      "text": f"*Evidence*\n```{_evidence_text(signal.evidence)}```"}},
            {"type": "context",
             "elements": [{"type": "mrkdwn", "text": f"<{link}|GET /v1/runs/{_escape(signal.run_id)}>"}]},
        ],
    }
