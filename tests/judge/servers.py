"""Real HTTP servers on 127.0.0.1 that speak the two judge protocols.

They implement the protocols (validation, auth, answers computed from the questions by a
small deterministic "model"), record what they received, and take a script of faults to
play on the next requests: a raw reply, a delay, an edit of the correct reply, a
connection dropped without a reply, or a reply cut off mid-body.

They speak HTTP/1.1 with keep-alive, count the TCP connections they accept, and can close
connections left idle for ``idle_timeout`` seconds, as hosted APIs and proxies do.

The fake model reads directives from a question's instructions: ``p=0.83`` for a noul,
``pick=<label>`` for a choice, ``level=<n>`` for a score; without one it answers from a
hash of (state, question), so the same question always gets the same answer.
"""

from __future__ import annotations

import hashlib
import json
import re
import socket
import ssl
import struct
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from typing_extensions import Self


@dataclass
class Received:
    method: str
    path: str
    headers: dict[str, str]  # keys lower-cased
    body: bytes
    at: float  # time.monotonic() when the request arrived
    connection: int = 0  # which TCP connection it came on, numbered from 1 in accept order

    @property
    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Reply:
    """Answer the next request with exactly this, whatever it asked."""

    status: int
    body: bytes | str | dict[str, Any] = b""
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Delay:
    """Wait this long before answering the next request correctly."""

    seconds: float


@dataclass
class Edit:
    """Answer the next request with ``fn(correct reply body)``."""

    fn: Callable[[dict[str, Any]], Any]


@dataclass
class Drop:
    """Read the next request, then close its connection without a byte of reply: what a
    client sees when the host closed an idle connection just as the request went out.
    ``reset`` closes with a TCP RST instead of a FIN."""

    reset: bool = False


@dataclass
class Cut:
    """Answer the next request correctly but close the connection after the headers and
    ``keep`` bytes of the body: the host died mid-reply, after it processed the request."""

    keep: int = 10


Action = Reply | Delay | Edit | Drop | Cut


class ProtocolServer:
    """A threaded HTTP server; subclasses implement :meth:`respond`."""

    def __init__(self, *, key: str | None = "test-key", tls: ssl.SSLContext | None = None) -> None:
        self.key = key
        self.tls = tls
        self.requests: list[Received] = []
        self.script: deque[Action] = deque()
        #: TCP connections accepted so far, and closed by this side so far.
        self.connections = 0
        self.closed = 0
        #: Close a connection idle this long (seconds) after a reply; ``None``: never.
        self.idle_timeout: float | None = None
        self._lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive unless the client says close
            disable_nagle_algorithm = True
            number = 0

            def setup(self) -> None:
                self.timeout = outer.idle_timeout
                super().setup()
                with outer._lock:
                    outer.connections += 1
                    self.number = outer.connections

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                outer._handle(self, "POST")

            def do_GET(self) -> None:
                outer._handle(self, "GET")

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        close = self._server.shutdown_request

        def shutdown_request(request: Any) -> None:
            close(request)
            with self._lock:
                self.closed += 1

        self._server.shutdown_request = shutdown_request  # type: ignore[method-assign]
        # A client that timed out leaves the handler writing to a closed socket: expected.
        self._server.handle_error = lambda request, address: None  # type: ignore[method-assign]
        if tls is not None:  # every accepted connection does a TLS handshake first
            self._server.socket = tls.wrap_socket(self._server.socket, server_side=True)
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,),
                                        daemon=True)

    @property
    def origin(self) -> str:
        host, port = self._server.server_address[:2]
        return f"{'https' if self.tls else 'http'}://{host}:{port}"

    def play(self, *actions: Action) -> None:
        with self._lock:
            self.script.extend(actions)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _handle(self, handler: BaseHTTPRequestHandler, method: str) -> None:
        length = int(handler.headers.get("Content-Length") or 0)
        body = handler.rfile.read(length)
        received = Received(method, handler.path,
                            {k.lower(): v for k, v in handler.headers.items()}, body,
                            time.monotonic(), getattr(handler, "number", 0))
        with self._lock:
            self.requests.append(received)
            action = self.script.popleft() if self.script else None
        if isinstance(action, Reply):
            self._write(handler, action.status, action.body, action.headers)
            return
        if isinstance(action, Drop):
            handler.close_connection = True
            if action.reset:  # linger 0: close() sends RST, not FIN
                handler.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                              struct.pack("ii", 1, 0))
                handler.connection.close()
            return
        if isinstance(action, Delay):
            time.sleep(action.seconds)
        status, payload = self.respond(received)
        if isinstance(action, Edit) and status == 200:
            payload = action.fn(payload)
        self._write(handler, status, payload, {},
                    cut=action.keep if isinstance(action, Cut) else None)

    def respond(self, received: Received) -> tuple[int, Any]:
        raise NotImplementedError

    @staticmethod
    def _write(handler: BaseHTTPRequestHandler, status: int, payload: Any,
               headers: dict[str, str], cut: int | None = None) -> None:
        raw = payload if isinstance(payload, bytes) else (
            payload.encode() if isinstance(payload, str) else json.dumps(payload).encode())
        handler.send_response(status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(raw)))
        for name, value in headers.items():
            handler.send_header(name, value)
        handler.end_headers()
        if cut is not None:
            raw = raw[:cut]
            handler.close_connection = True
        handler.wfile.write(raw)


# ---------------------------------------------------------------- the fake model


def _unit(*parts: Any) -> float:
    digest = hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def _directive(question: dict[str, Any], name: str) -> str | None:
    text = json.dumps(question.get("instructions", ""))
    match = re.search(rf"\b{name}=([A-Za-z0-9_.\-]+)", text)
    return match.group(1) if match else None


def noul_p(state: Any, question: dict[str, Any]) -> float:
    given = _directive(question, "p")
    return float(given) if given is not None else round(_unit(state, question), 4)


def choice_label(state: Any, question: dict[str, Any]) -> str:
    labels = list(question["criteria"])
    given = _directive(question, "pick")
    if given is not None:
        return given
    return min(labels, key=lambda label: _unit(state, question.get("instructions"), label))


def score_level(state: Any, question: dict[str, Any]) -> int:
    given = _directive(question, "level")
    if given is not None:
        return int(given)
    return int(_unit(state, question) * len(question["criteria"]))


# ---------------------------------------------------------------- System One


def _loc_error(loc: list[Any], msg: str, kind: str) -> dict[str, Any]:
    return {"loc": ["body", *loc], "msg": msg, "type": kind}


class SystemOneServer(ProtocolServer):
    """TypeSafe System One: ``POST {route}`` with ``{model, state, questions}``."""

    def __init__(self, *, key: str | None = "test-key", route: str = "/v1/systemone",
                 tls: ssl.SSLContext | None = None) -> None:
        super().__init__(key=key, tls=tls)
        self.route = route

    @property
    def url(self) -> str:
        return self.origin

    def respond(self, received: Received) -> tuple[int, Any]:
        models = received.method == "GET" and received.path == "/v1/models"
        if not models and (received.method != "POST" or received.path != self.route):
            return 404, {"detail": {"error_type": "not_found",
                                    "message": f"No route {received.path}"}}
        if self.key is not None:
            auth = received.headers.get("authorization", "")
            if not auth.startswith("Bearer "):
                return 403, {"detail": {"error_type": "authentication_error",
                                        "message": "Must supply an API key!"}}
            if auth[len("Bearer "):] != self.key:
                return 401, {"detail": {"error_type": "authentication_error",
                                        "message": "Cannot authenticate with the server."}}
        if models:
            return 200, {"models": [{"name": "jev-latest", "description": "test double",
                                     "release_date": "2026-09-15"}]}
        try:
            body = received.json
        except ValueError:
            return 422, {"detail": [_loc_error([], "JSON decode error", "json_invalid")]}
        errors = self.validate(body)
        if errors:
            return 422, {"detail": errors}
        state, questions = body["state"], body["questions"]
        answers = {qid: self.answer(state, q) for qid, q in questions.items()}
        size = len(json.dumps(state)) + len(json.dumps(questions))
        model = "jev-test-1.0" if body["model"] == "jev-latest" else body["model"]
        return 200, {"model": model, "answers": answers,
                     "usage": {"input_tokens": size // 4, "output_tokens": 2 * len(answers)}}

    @staticmethod
    def validate(body: Any) -> list[dict[str, Any]]:
        if not isinstance(body, dict):
            return [_loc_error([], "Input should be a valid dictionary", "dict_type")]
        errors = [_loc_error([k], "Field required", "missing")
                  for k in ("model", "state", "questions") if k not in body]
        if "model" in body and not isinstance(body["model"], str):
            errors.append(_loc_error(["model"], "Input should be a valid string", "string_type"))
        questions = body.get("questions")
        if "questions" in body and (not isinstance(questions, dict) or not questions):
            errors.append(_loc_error(["questions"], "Dictionary should have at least 1 item",
                                     "too_short"))
            return errors
        for qid, q in (questions or {}).items():
            kind = q.get("type") if isinstance(q, dict) else None
            if kind not in ("noul", "choice", "score"):
                errors.append(_loc_error(["questions", qid],
                                         f"Input tag {kind!r} does not match 'noul', "
                                         "'choice', 'score'", "union_tag_invalid"))
            elif kind == "choice" and not (isinstance(q.get("criteria"), dict) and q["criteria"]):
                errors.append(_loc_error(["questions", qid, "choice", "criteria"],
                                         "Input should be a valid dictionary", "dict_type"))
            elif kind == "score" and not (isinstance(q.get("criteria"), list) and q["criteria"]):
                errors.append(_loc_error(["questions", qid, "score", "criteria"],
                                         "Input should be a valid list", "list_type"))
            elif kind == "score":
                errors += [_loc_error(["questions", qid, "score", "criteria", i],
                                      "Input should be a valid string", "string_type")
                           for i, level in enumerate(q["criteria"])
                           if not isinstance(level, (str, dict, list))]
        return errors

    @staticmethod
    def answer(state: Any, q: dict[str, Any]) -> dict[str, Any]:
        if q["type"] == "noul":
            return {"type": "noul", "noul": noul_p(state, q)}
        if q["type"] == "choice":
            labels = list(q["criteria"])
            pick = choice_label(state, q)
            rest = 0.3 / (len(labels) - 1) if len(labels) > 1 else 0.0
            probs = {label: (0.7 if label == pick else rest) for label in labels}
            if len(labels) == 1:
                probs = {pick: 1.0}
            n = len(labels)
            confidence = (max(probs.values()) - 1 / n) / (1 - 1 / n) if n > 1 else 1.0
            return {"type": "choice", "choice": pick, "probabilities": probs,
                    "confidence": confidence}
        levels = q["criteria"]
        level = score_level(state, q)
        n = len(levels)
        probs = [1.0] if n == 1 else [0.8 if i == level else 0.2 / (n - 1) for i in range(n)]
        # TypeSafe's reference: 1 - expected distance from the mode, over that of uniform.
        uniform = sum(abs(i - (n - 1) / 2) for i in range(n)) / n
        spread = sum(p * abs(i - level) for i, p in enumerate(probs))
        confidence = max(0.0, 1 - spread / uniform) if uniform else 1.0
        return {"type": "score", "score": sum(i * p for i, p in enumerate(probs)),
                "confidence": confidence, "legend": {str(i): lv for i, lv in enumerate(levels)},
                "probabilities": {str(i): p for i, p in enumerate(probs)}}


# ---------------------------------------------------------------- OpenAI chat completions


class ChatServer(ProtocolServer):
    """An OpenAI-compatible ``POST /v1/chat/completions`` whose "model" reads the JSON in
    the last user message as ``{"state", "questions"}`` and answers them.

    ``render`` turns the answers into the reply text (plain JSON by default), so tests can
    make the model write fences, prose or lists the way real models do.
    """

    def __init__(self, *, key: str | None = "test-key", tls: ssl.SSLContext | None = None) -> None:
        super().__init__(key=key, tls=tls)
        self.render: Callable[[dict[str, Any]], str] = lambda a: json.dumps({"answers": a})
        #: A status (400 or 422) to refuse any request carrying ``response_format`` with,
        #: as older vLLM, llama.cpp server and some proxies do; ``None`` accepts it.
        self.rejects_response_format: int | None = None

    @property
    def base_url(self) -> str:
        return self.origin + "/v1"

    def respond(self, received: Received) -> tuple[int, Any]:
        if received.method != "POST" or received.path != "/v1/chat/completions":
            return 404, {"error": {"message": f"Unknown path {received.path}",
                                   "type": "invalid_request_error"}}
        if self.key is not None and received.headers.get("authorization") != f"Bearer {self.key}":
            return 401, {"error": {"message": "Incorrect API key provided.",
                                   "type": "invalid_request_error", "code": "invalid_api_key"}}
        try:
            body = received.json
            messages = body["messages"]
            model = body["model"]
        except (ValueError, KeyError, TypeError):
            return 400, {"error": {"message": "We could not parse the JSON body of your request.",
                                   "type": "invalid_request_error"}}
        if self.rejects_response_format is not None and "response_format" in body:
            if self.rejects_response_format == 422:  # a pydantic-validated proxy
                return 422, {"detail": [{"loc": ["body", "response_format"],
                                         "msg": "Extra inputs are not permitted",
                                         "type": "extra_forbidden"}]}
            return 400, {"error": {"message": "'response_format.type' must be 'json_schema' "
                                              "or 'text'", "type": "invalid_request_error"}}
        texts = [m.get("content", "") for m in messages if isinstance(m, dict)]
        if body.get("response_format", {}).get("type") == "json_object" and not any(
            "json" in t.lower() for t in texts
        ):
            # OpenAI's own rule for JSON mode.
            return 400, {"error": {"message": "'messages' must contain the word 'json' in some "
                                              "form, to use 'response_format' of type "
                                              "'json_object'.",
                                   "type": "invalid_request_error"}}
        content, finish_reason, usage = self.reply(body)
        prompt_tokens = sum(len(t) for t in texts) // 4
        completion: dict[str, Any] = {
            "id": "chatcmpl-test", "object": "chat.completion", "created": int(time.time()),
            "model": f"{model}-2026-01-01",
            "choices": [{"index": 0, "finish_reason": finish_reason,
                         "message": {"role": "assistant", "content": content}}],
        }
        if usage:
            completion["usage"] = {"prompt_tokens": prompt_tokens,
                                   "completion_tokens": len(content) // 4,
                                   "total_tokens": prompt_tokens + len(content) // 4}
        return 200, completion

    def reply(self, body: dict[str, Any]) -> tuple[str, str, bool]:
        """The model's text, finish reason and whether usage is reported: here, the
        answers to the ``{"state", "questions"}`` in the last user message."""
        messages = body["messages"]
        user = next(m["content"] for m in reversed(messages) if m.get("role") == "user")
        asked = json.loads(user)
        state, questions = asked["state"], asked["questions"]
        answers: dict[str, Any] = {}
        for qid, q in questions.items():
            if q["type"] == "noul":
                answers[qid] = noul_p(state, q)
            elif q["type"] == "choice":
                answers[qid] = choice_label(state, q)
            else:
                answers[qid] = score_level(state, q)
        return self.render(answers), "stop", True


@dataclass
class Said:
    """One scripted chat reply: the text, how it ended, whether usage comes with it."""

    content: str
    finish_reason: str = "stop"
    usage: bool = True


class ScriptedChatServer(ChatServer):
    """The same chat-completions host, whose model replies with exactly the texts a test
    scripted, in order, whatever it was asked (malformed ones included): for judges whose
    prompts are prose (evaluator prompts, deepeval's templates) rather than our JSON.

    A request with nothing left to say gets a 500, so a test that asks more than it
    scripted fails loudly.
    """

    def __init__(self, *, key: str | None = "test-key") -> None:
        super().__init__(key=key)
        self.said: deque[Said] = deque()

    def say(self, *replies: str | Said) -> None:
        with self._lock:
            self.said.extend(r if isinstance(r, Said) else Said(r) for r in replies)

    def prompts(self) -> list[list[dict[str, Any]]]:
        """The messages of every request received, in order."""
        return [r.json["messages"] for r in self.requests]

    def respond(self, received: Received) -> tuple[int, Any]:
        with self._lock:
            empty = not self.said
        if empty and received.path == "/v1/chat/completions":
            return 500, {"error": {"message": "the test scripted no more replies",
                                   "type": "server_error"}}
        return super().respond(received)

    def reply(self, body: dict[str, Any]) -> tuple[str, str, bool]:
        with self._lock:
            said = self.said.popleft()
        return said.content, said.finish_reason, said.usage


# ---------------------------------------------------------------- TLS


def self_signed(directory: str) -> tuple[str, ssl.SSLContext]:
    """A certificate for 127.0.0.1 made by the ``openssl`` command in ``directory``: its
    path (for ``SSL_CERT_FILE``, which clients then trust) and a server context using it."""
    cert, key = f"{directory}/cert.pem", f"{directory}/key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", key, "-out", cert], check=True, capture_output=True)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return cert, context
