"""What to ask each provider for its newest scores, and how to read its answer. Pure.

Each provider keeps a **cursor** between pulls (the newest score's mark it has seen) and a
**page token** within one pull:

- Langfuse: ``GET /api/public/v2/scores?page=&limit=&fromTimestamp=`` with Basic auth
  (public key, secret key); ``{"data": [...], "meta": {"page", "totalPages"}}``. The
  cursor is the newest ``timestamp``; ``fromTimestamp`` is inclusive, so the scores at the
  cursor come again and are recognised by their id.
- LangSmith: ``GET /api/v1/feedback?limit=&offset=[&session=]`` with ``X-Api-Key``; a bare
  list, newest first. The cursor is the newest ``created_at``; a pull stops at the first
  page that reaches back past it, or a short page.
- Braintrust: ``GET /v1/project_logs/{project_id}/fetch?limit=[&cursor=]`` with a Bearer
  key; ``{"events": [...], "cursor"}``, newest first. Each event's ``scores`` mapping gives
  one score per name; the trace is its ``root_span_id``. The cursor is the newest
  ``_xact_id``.
"""

from __future__ import annotations

import base64
import datetime as dt
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..events import Signal, severity_for
from ._config import Integration

__all__ = ["ExternalScore", "Page", "Provider", "Request", "external_signal", "provider_for"]


@dataclass(frozen=True)
class ExternalScore:
    """One provider result, as ``POST /v1/semantic-signals/external`` takes one."""

    provider: str
    external_id: str
    trace_id: str
    name: str
    value: float | None = None
    string_value: str | None = None
    comment: str | None = None


@dataclass(frozen=True)
class Request:
    path: str
    params: Mapping[str, str]
    headers: Mapping[str, str]


@dataclass(frozen=True)
class Page:
    """One answer read: its scores, the newest mark among them (None: none newer than the
    cursor), and the token of the next page (None: this pull is over)."""

    scores: list[ExternalScore] = field(default_factory=list)
    newest: str | None = None
    next: str | None = None


class Provider(Protocol):
    name: str

    def request(self, cursor: str | None, token: str | None) -> Request: ...

    def read(self, body: Any, cursor: str | None, token: str | None) -> Page: ...

    def newer(self, a: str | None, b: str | None) -> str | None:
        """The later of two marks."""
        ...


def external_signal(score: ExternalScore, run_id: str, agent_id: str,
                    agent_version: str) -> Signal:
    """A provider's score as a signal: ``{PROVIDER}_{NAME}``, source the provider,
    confidence the score when it is a probability (else 0.5)."""
    failure_type = re.sub(r"[^A-Z0-9]+", "_", f"{score.provider}_{score.name}".upper())[:64]
    value = score.value
    confidence = value if value is not None and 0.0 <= value <= 1.0 else 0.5
    return Signal(failure_type=failure_type, run_id=run_id, severity=severity_for(confidence),
                  confidence=confidence, source=score.provider.lower(), agent_id=agent_id,
                  agent_version=agent_version, co_signal_count=0,
                  evidence={"external_id": score.external_id, "name": score.name,
                            "value": value, "string_value": score.string_value,
                            "comment": score.comment, "trace_id": score.trace_id})


def provider_for(integration: Integration) -> Provider:
    if integration.provider == "langfuse":
        return _Langfuse(integration)
    if integration.provider == "langsmith":
        return _LangSmith(integration)
    return _Braintrust(integration)


def _number(value: Any) -> float | None:
    """A score's number: a bool counts as 1/0; anything else that is not finite is none."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, (int, float)) and math.isfinite(value):
        return float(value)
    return None


def _text(value: Any, limit: int = 2000) -> str | None:
    return value[:limit] if isinstance(value, str) else None


def _moment(text: str | None) -> dt.datetime | None:
    if not text:
        return None
    try:
        moment = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.timezone.utc)


def _later_time(a: str | None, b: str | None) -> str | None:
    ma, mb = _moment(a), _moment(b)
    if mb is None:
        return a
    return b if ma is None or mb > ma else a


def _rows(body: Any, key: str | None) -> list[Mapping[str, Any]]:
    rows = body.get(key) if key is not None and isinstance(body, Mapping) else body
    if not isinstance(rows, list):
        raise TypeError(f"expected a list{f' under {key!r}' if key else ''}, "
                         f"not {type(rows).__name__}")
    return [row for row in rows if isinstance(row, Mapping)]


class _Langfuse:
    name = "langfuse"

    def __init__(self, integration: Integration) -> None:
        pair = f"{integration.credentials['public_key']}:{integration.credentials['secret_key']}"
        self._auth = "Basic " + base64.b64encode(pair.encode()).decode("ascii")
        self._limit = integration.page_size

    def newer(self, a: str | None, b: str | None) -> str | None:
        return _later_time(a, b)

    def request(self, cursor: str | None, token: str | None) -> Request:
        params = {"page": token or "1", "limit": str(self._limit)}
        if cursor:
            params["fromTimestamp"] = cursor
        return Request("/api/public/v2/scores", params, {"Authorization": self._auth})

    def read(self, body: Any, cursor: str | None, token: str | None) -> Page:
        scores: list[ExternalScore] = []
        newest: str | None = None
        for row in _rows(body, "data"):
            if not isinstance(row.get("id"), str) or not isinstance(row.get("traceId"), str):
                continue  # a session or dataset-run score: no trace to match
            scores.append(ExternalScore(
                "langfuse", row["id"], row["traceId"], str(row.get("name") or "score"),
                _number(row.get("value")), _text(row.get("stringValue")),
                _text(row.get("comment"))))
            newest = _later_time(newest, _text(row.get("timestamp")))
        meta = body.get("meta") if isinstance(body, Mapping) else None
        number = int(token or "1")
        total = meta.get("totalPages") if isinstance(meta, Mapping) else None
        more = isinstance(total, int) and number < total
        return Page(scores, newest, str(number + 1) if more else None)


class _LangSmith:
    name = "langsmith"

    def __init__(self, integration: Integration) -> None:
        self._key = integration.credentials["api_key"]
        self._project = integration.project_id
        self._limit = integration.page_size

    def newer(self, a: str | None, b: str | None) -> str | None:
        return _later_time(a, b)

    def request(self, cursor: str | None, token: str | None) -> Request:
        params = {"limit": str(self._limit), "offset": token or "0"}
        if self._project:
            params["session"] = self._project
        return Request("/api/v1/feedback", params, {"X-Api-Key": self._key})

    def read(self, body: Any, cursor: str | None, token: str | None) -> Page:
        rows = _rows(body, None)
        since = _moment(cursor)
        scores: list[ExternalScore] = []
        newest: str | None = None
        reached_back = False
        for row in rows:
            created = _text(row.get("created_at"))
            moment = _moment(created)
            if since is not None and moment is not None and moment < since:
                reached_back = True  # newest first: the rest were read by an earlier pull
                break
            trace = row.get("trace_id") or row.get("run_id")
            if not isinstance(row.get("id"), str) or not isinstance(trace, str):
                continue
            value = row.get("value")
            scores.append(ExternalScore(
                "langsmith", row["id"], trace, str(row.get("key") or "feedback"),
                _number(row.get("score")), _text(value) if isinstance(value, str) else None,
                _text(row.get("comment"))))
            newest = _later_time(newest, created)
        more = not reached_back and len(rows) >= self._limit
        return Page(scores, newest, str(int(token or "0") + len(rows)) if more else None)


class _Braintrust:
    name = "braintrust"

    def __init__(self, integration: Integration) -> None:
        self._auth = f"Bearer {integration.credentials['api_key']}"
        self._path = f"/v1/project_logs/{integration.project_id}/fetch"
        self._limit = integration.page_size

    def newer(self, a: str | None, b: str | None) -> str | None:
        if b is None or not b.isdigit():
            return a
        return b if a is None or not a.isdigit() or int(b) > int(a) else a

    def request(self, cursor: str | None, token: str | None) -> Request:
        params = {"limit": str(self._limit)}
        if token:
            params["cursor"] = token
        return Request(self._path, params, {"Authorization": self._auth})

    def read(self, body: Any, cursor: str | None, token: str | None) -> Page:
        scores: list[ExternalScore] = []
        newest: str | None = None
        reached_back = False
        for event in _rows(body, "events"):
            xact = event.get("_xact_id")
            xact = str(xact) if isinstance(xact, (str, int)) else None
            if cursor and xact and self.newer(cursor, xact) == cursor:
                reached_back = True  # newest first: the rest were read by an earlier pull
                break
            trace = event.get("root_span_id") or event.get("id")
            named = event.get("scores")
            if not isinstance(event.get("id"), str) or not isinstance(trace, str) \
                    or not isinstance(named, Mapping):
                continue
            for name, value in named.items():
                number = _number(value)
                if number is not None:
                    scores.append(ExternalScore("braintrust", f"{event['id']}:{name}", trace,
                                                str(name), number))
            newest = self.newer(newest, xact)
        following = body.get("cursor") if isinstance(body, Mapping) else None
        more = not reached_back and isinstance(following, str) and bool(following) \
            and bool(body.get("events"))
        return Page(scores, newest, following if more else None)
