"""Local HTTP servers speaking the score-reading APIs of Langfuse, LangSmith and Braintrust.

Each keeps a list of scores, pages through it the way its provider does (Langfuse: page
numbers and ``fromTimestamp``; LangSmith: offset, newest first; Braintrust: an opaque
cursor over events newest first), refuses a request without the right credentials, and
answers 503 while ``down`` is set.
"""

from __future__ import annotations

import base64
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

SECRETS = {"public_key": "pk-lf-1", "secret_key": "sk-lf-1", "api_key": "key-1"}
PROJECT = "proj-7"


@dataclass
class Score:
    id: str
    trace_id: str
    name: str
    value: float
    at: str  # ISO time; also orders Braintrust's transactions
    comment: str | None = None


@dataclass
class ProviderServer:
    provider: str
    scores: list[Score] = field(default_factory=list)
    down: bool = False
    requests: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                owner.requests.append(self.path)
                if owner.down:
                    return self._send(503, {"error": "unavailable"})
                url = urlsplit(self.path)
                query = {k: v[0] for k, v in parse_qs(url.query).items()}
                status, body = owner.answer(url.path, query, dict(self.headers.items()))
                self._send(status, body)

            def _send(self, status: int, body: Any) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def newest_first(self) -> list[Score]:
        return sorted(self.scores, key=lambda s: s.at, reverse=True)

    def answer(self, path: str, query: dict[str, str], headers: dict[str, str],
               ) -> tuple[int, Any]:
        lower = {k.lower(): v for k, v in headers.items()}
        if self.provider == "langfuse":
            pair = f"{SECRETS['public_key']}:{SECRETS['secret_key']}".encode()
            if lower.get("authorization") != "Basic " + base64.b64encode(pair).decode():
                return 401, {"message": "Invalid credentials"}
            if path != "/api/public/v2/scores":
                return 404, {}
            page, limit = int(query.get("page", "1")), int(query.get("limit", "50"))
            rows = [s for s in self.newest_first()
                    if "fromTimestamp" not in query or s.at >= query["fromTimestamp"]]
            chunk = rows[(page - 1) * limit: page * limit]
            return 200, {"data": [{"id": s.id, "traceId": s.trace_id, "name": s.name,
                                   "value": s.value, "stringValue": None, "dataType": "NUMERIC",
                                   "source": "EVAL", "comment": s.comment, "timestamp": s.at}
                                  for s in chunk],
                         "meta": {"page": page, "limit": limit, "totalItems": len(rows),
                                  "totalPages": max(1, -(-len(rows) // limit))}}
        if self.provider == "langsmith":
            if lower.get("x-api-key") != SECRETS["api_key"]:
                return 401, {"detail": "Invalid token"}
            if path != "/api/v1/feedback":
                return 404, {}
            offset, limit = int(query.get("offset", "0")), int(query.get("limit", "100"))
            chunk = self.newest_first()[offset: offset + limit]
            return 200, [{"id": s.id, "key": s.name, "score": s.value, "value": None,
                          "comment": s.comment, "created_at": s.at, "modified_at": s.at,
                          "run_id": f"span-of-{s.trace_id}", "trace_id": s.trace_id,
                          "session_id": PROJECT} for s in chunk]
        if lower.get("authorization") != f"Bearer {SECRETS['api_key']}":
            return 401, {"Code": "Unauthorized"}
        if path != f"/v1/project_logs/{PROJECT}/fetch":
            return 404, {}
        limit = int(query.get("limit", "100"))
        start = int(base64.b64decode(query["cursor"])) if "cursor" in query else 0
        events = self.newest_first()[start: start + limit]
        following = start + len(events)
        more = following < len(self.scores)
        return 200, {"events": [{"id": s.id, "_xact_id": s.at.replace("-", "").replace(":", "")
                                 .replace("T", "").replace("Z", ""), "created": s.at,
                                 "root_span_id": s.trace_id, "span_id": f"span-{s.id}",
                                 "scores": {s.name: s.value, "unscored": None}}
                                for s in events],
                     "cursor": base64.b64encode(str(following).encode()).decode() if more
                     else None}
