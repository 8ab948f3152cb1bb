"""A run read once into the shape detectors need: its calls paired with their responses.

Every detector reads the same :class:`RunView`; building it is most of the per-run cost,
so :func:`view_of` keeps the last one (the detectors of one run ask for it 24 times).
"""

from __future__ import annotations

import ast
import json
import math
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .._payloads import PAYLOADS, default
from ..events import Run

__all__ = ["Call", "External", "Memory", "RunView", "args_key", "is_empty_result",
           "output_key", "parse_args", "view_of"]

_PY_CONST = re.compile(r"\b(True|False|None)\b")
_JSON_CONST = {"True": "true", "False": "false", "None": "null"}


def _json_const(m: re.Match[str]) -> str:
    return _JSON_CONST[m.group(1)]


def parse_args(args: Any) -> Any:
    """Tool arguments as data: the SDK sends a dict, or its ``str()``/JSON text."""
    if isinstance(args, str):
        text = args.strip()
        if text[:1] in "{[":
            if '"' in text or "'" not in text:
                try:
                    return json.loads(text)
                except ValueError:
                    pass
            if "'" in text:
                # str(dict) is JSON with single quotes for simple values; this is 20×
                # cheaper than literal_eval, which stays the fallback for the rest.
                text_json = text.replace("'", '"')
                if "True" in text_json or "False" in text_json or "None" in text_json:
                    text_json = _PY_CONST.sub(_json_const, text_json)
                try:
                    return json.loads(text_json)
                except ValueError:
                    pass
            try:
                return ast.literal_eval(text)
            except (ValueError, SyntaxError, MemoryError, RecursionError):
                pass
        return text
    return args


def _collapse(text: str) -> str:
    # Whitespace runs to one space, ends stripped, lowercased. str.split() and the
    # regex \s both use str.isspace(), so this equals re.sub(r"\s+", " ", text).strip()
    # .lower() at a third of the cost.
    return " ".join(text.split()).lower()


def _canon(value: Any) -> str:
    # A canonical text of the value: dict keys sorted, strings lowercased with
    # whitespace collapsed. Cheaper than json.dumps(sort_keys=True) of a normalised copy.
    kind = type(value)
    if kind is str:
        return repr(_collapse(value))
    if kind is dict or isinstance(value, Mapping):
        items = sorted([(str(k), repr(_collapse(v)) if type(v) is str
                         else repr(v) if type(v) in _SCALARS else _canon(v))
                        for k, v in value.items()])
        return "{" + ",".join([f"{k!r}:{v}" for k, v in items]) + "}"
    if kind is list or kind is tuple or isinstance(value, (list, tuple)):
        return "[" + ",".join([_canon(v) for v in value]) + "]"
    if isinstance(value, str):
        return repr(_collapse(value))
    return repr(value)


# Values _canon gives as their repr (what its last line does for them), tested first.
_SCALARS = frozenset({int, float, bool, type(None)})


def args_key(args: Any, parsed: Any = None) -> str:
    """Arguments compared as actions: key order, case and whitespace do not matter."""
    if parsed is None:
        parsed = parse_args(args)
    if isinstance(parsed, str):
        return _collapse(parsed)
    return _canon(parsed)


# Keys whose values change on every call without saying anything new.
_VOLATILE_KEY = re.compile(
    r"(?:^|[_-])(?:request|trace|span|correlation|transaction|message)[_-]?id$"
    r"|^(?:ts|timestamp|time|now|server_time|fetched_at|generated_at|updated_at|etag|nonce"
    r"|latency(?:_ms)?|duration(?:_ms)?|took(?:_ms)?|elapsed(?:_ms)?)$",
    re.IGNORECASE)
_VOLATILE_TEXT = re.compile(
    r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"
    r"|\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{12,}\b"
    r"|\b\d{4}-\d{2}-\d{2}[t ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}:?\d{2})?")


def _stable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _stable(v) for k, v in value.items() if not _VOLATILE_KEY.search(str(k))}
    if isinstance(value, list):
        return [_stable(v) for v in value]
    return value


def output_key(text: str) -> str:
    """A tool output as an answer: JSON without volatile keys, or text with ids and
    timestamps masked; case and whitespace ignored. Two polls that differ only by a
    request id give the same key; a status that moved on does not."""
    stripped = text.strip()
    if stripped[:1] in "{[" and len(stripped) < 65_536:
        try:
            data = json.loads(stripped)
        except ValueError:
            data = None
        if isinstance(data, (dict, list)):
            return _canon(_stable(data))
    return _VOLATILE_TEXT.sub("#", _collapse(stripped))


_NO_RESULTS = re.compile(
    r"^\W*(?:0|no|zero|none)\s+(?:results?|matches|items|records|rows|hits|articles|entries"
    r"|documents|orders|events)\b|\bno\s+(?:results?|matches|records?|availability)\b"
    r"|\bnot\s+found\b|\bnothing\s+found\b", re.IGNORECASE)


def _empty_data(data: Any) -> bool:
    if isinstance(data, list):
        return not data
    if isinstance(data, Mapping):
        lists = [v for v in data.values() if isinstance(v, list)]
        counts = [v for k, v in data.items() if str(k).lower() in ("total", "count", "hits")
                  and isinstance(v, (int, float)) and not isinstance(v, bool)]
        return bool(lists) and not any(lists) and not any(counts)
    return False


def is_empty_result(text: str | None) -> bool:
    """An answer that found nothing: ``[]``, ``{"results": []}``, "0 results", "not found".

    A bare ``""``, ``{}``, ``null`` or "ok" is not: void tools answer that way.
    """
    if text is None:
        return False
    stripped = text.strip()
    if stripped[:1] in "{[":
        try:
            return _empty_data(json.loads(stripped))
        except ValueError:
            pass
    if len(stripped) > 200:
        return False
    if stripped.isascii():
        # Every wording of "nothing" holds "0", "no" or "zero"; most answers hold none.
        low = stripped.lower()
        if "0" not in low and "no" not in low and "zero" not in low:
            return False
    return bool(_NO_RESULTS.search(stripped))


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, sort_keys=True, default=str)
    except (TypeError, ValueError):
        return str(value)


def _number(value: Any) -> float | None:
    if type(value) is float:  # the common case: float() of a float is itself
        return value if math.isfinite(value) else None
    if value is None or isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


# The token counts of a model call, from the one payload table (docs/events.md).
_TOKEN_FIELDS = frozenset(f.name for f in PAYLOADS["llm.responded"] if f.unit == "tokens")
# What an absent name or exit reason reads as, from the same table.
_TOOL = default("tool.called", "tool_name")
_INDEX = default("retrieval.called", "index_name")
_COMPLETED = default("run.completed", "exit_reason")
_ERRORED = default("run.errored", "exit_reason")


def _count(sources: list[Mapping[str, Any]], name: str) -> int:
    # The first source that holds a finite number for ``name`` gives it (response first).
    for source in sources:
        value = source.get(name)
        if value is None:
            continue
        if type(value) is int and -_EXACT <= value <= _EXACT:
            return value  # what int(float(value)) gives, without the two conversions
        number = _number(value)
        if number is not None:
            return int(number)
    return 0


_EXACT = 2**53  # every int up to this survives float() unchanged


@dataclass(slots=True, eq=False)
class Call:
    """One step: an LLM call, a tool call or a retrieval, with its response if recorded."""

    kind: str  # "llm" | "tool" | "retrieval"
    step: int
    name: str
    args: Any
    called_at: float | None
    request: Mapping[str, Any]
    response: Mapping[str, Any] | None = None
    responded_at: float | None = None
    # Filled by finish():
    output: str | None = None  # None = not recorded (redacted, or no response yet)
    failed: bool | None = None  # None = unknown (no response)
    error: str | None = None
    latency_ms: float | None = None
    finish_reason: str = ""
    # Read once by _build for LLM calls (several detectors sum them); 0 elsewhere.
    prompt_tokens: int = 0
    completion_tokens: int = 0
    reasoning_tokens: int = 0
    # The extractor could not read the response shape: its text and finish reason are
    # unknown, never evidence (``instrumentation_degraded`` on the response).
    degraded: bool = False
    _args_key: str | None = field(default=None, repr=False)
    _parsed: Any = field(default=None, repr=False)
    _output_key: str | None = field(default=None, repr=False)
    _tokens: dict[str, int] | None = field(default=None, repr=False)

    @property
    def parsed_args(self) -> Any:
        if self._parsed is None:
            self._parsed = parse_args(self.args)
        return self._parsed

    @property
    def key(self) -> str:
        if self._args_key is None:
            self._args_key = args_key(self.args, self.parsed_args)
        return self._args_key

    @property
    def output_key(self) -> str | None:
        """The output compared as an answer: volatile parts (request ids, timestamps) out."""
        if self.output is None:
            return None
        if self._output_key is None:
            self._output_key = output_key(self.output)
        return self._output_key

    def finish(self) -> None:
        r = self.response
        if r is None:
            return
        self.finish_reason = str(r.get("finish_reason") or "")
        self.degraded = bool(r.get("instrumentation_degraded"))
        if self.kind == "tool":
            self.output = _text(r.get("output"))
            err = r.get("error")
            self.error = str(err) if err else None
            success = r.get("success")
            self.failed = (success is False) or bool(err)
        elif self.kind == "llm":
            self.output = _text(r.get("output")) if "output" in r else None
            err = r.get("error")
            self.error = str(err) if err else None
            self.failed = bool(err)
        else:
            self.output = _text(r.get("content")) if "content" in r else None
            err = r.get("error")
            self.error = str(err) if err else None
            self.failed = bool(err)
        latency = _number(r.get("latency_ms"))
        if latency is None and self.called_at is not None and self.responded_at is not None:
            latency = max(0.0, (self.responded_at - self.called_at) * 1000.0)
        self.latency_ms = latency

    def tokens(self, name: str) -> int:
        """``prompt_tokens``, ``completion_tokens`` or ``reasoning_tokens`` (response first)."""
        if self.kind == "llm" and name in _TOKEN_FIELDS:
            return getattr(self, name)  # type: ignore[no-any-return]
        cache = self._tokens
        if cache is None:
            cache = self._tokens = {}
        value = cache.get(name)
        if value is None:
            value = 0
            for source in (self.response, self.request):
                if source:
                    number = _number(source.get(name))
                    if number is not None:
                        value = int(number)
                        break
            cache[name] = value
        return value


@dataclass(frozen=True, slots=True)
class Memory:
    """One memory operation (``memory.written``/``read``/``cleared``), Dunetrace's wire
    format: ``key``, and for writes ``value`` and ``source``."""

    op: str  # "written" | "read" | "cleared"
    step: int
    key: str
    value: str = ""
    source: str = ""


@dataclass(frozen=True, slots=True)
class External:
    """An ``external.signal``: something outside the agent (rate limit, a user turn)."""

    name: str
    step: int
    meta: Mapping[str, Any]


@dataclass
class RunView:
    run: Run
    calls: list[Call]
    tools: list[Call]
    llms: list[Call]
    retrievals: list[Call]
    started: Mapping[str, Any]
    completed: Mapping[str, Any] | None
    errored: Mapping[str, Any] | None
    status: str
    memory: list[Memory] = field(default_factory=list)
    externals: list[External] = field(default_factory=list)

    def position(self, call: Call) -> int:
        """Index of ``call`` in ``calls`` (by identity)."""
        index = self.__dict__.get("_positions")
        if index is None:
            index = self.__dict__["_positions"] = {id(c): i for i, c in enumerate(self.calls)}
        return index[id(call)]  # type: ignore[no-any-return]

    def tool_position(self, call: Call) -> int:
        """Index of ``call`` in ``tools`` (by identity)."""
        index = self.__dict__.get("_tool_positions")
        if index is None:
            index = self.__dict__["_tool_positions"] = {id(c): i for i, c in enumerate(self.tools)}
        return index[id(call)]  # type: ignore[no-any-return]

    @property
    def input_text(self) -> str:
        return str(self.started.get("input_text") or "")

    @property
    def system_prompt(self) -> str:
        return str(self.started.get("system_prompt") or "")

    @property
    def tools_available(self) -> list[str]:
        tools = self.started.get("tools") or []
        if isinstance(tools, str):
            return [tools]
        out = []
        for tool in tools if isinstance(tools, (list, tuple)) else []:
            if isinstance(tool, Mapping):
                out.append(str(tool.get("name") or ""))
            else:
                out.append(str(tool))
        return [t for t in out if t]

    @property
    def exit_reason(self) -> str:
        if self.completed is not None:
            return str(self.completed.get("exit_reason") or _COMPLETED)
        if self.errored is not None:
            return str(self.errored.get("exit_reason") or _ERRORED)
        return ""

    @property
    def final_answer(self) -> bool:
        """The agent said it was done (``exit_reason=final_answer``)."""
        return self.completed is not None and self.exit_reason == "final_answer"

    @property
    def exited(self) -> bool:
        """The run ended normally (completed with a final answer or plain completion)."""
        return self.completed is not None and self.exit_reason in ("final_answer", "completed")

    @property
    def step_count(self) -> int:
        total = _number((self.completed or {}).get("total_steps"))
        return max(len(self.calls), int(total) if total is not None else 0)

    @property
    def duration_s(self) -> float:
        return self.run.duration_s


def _build(run: Run) -> RunView:
    calls: list[Call] = []
    tools: list[Call] = []
    llms: list[Call] = []
    retrievals: list[Call] = []
    open_calls: dict[str, list[Call]] = {}
    started: Mapping[str, Any] = {}
    completed = errored = None
    status = "running"
    memory: list[Memory] = []
    externals: list[External] = []

    def respond(key: str, kind: str, name: str, event: Any) -> None:
        pending = open_calls.get(key)
        call = None
        if pending:
            # Prefer the open call of the same step (the SDK keeps a response on its call's
            # step); else the latest open one, as Dunetrace pairs them.
            for i in range(len(pending) - 1, -1, -1):
                if pending[i].step == event.step_index:
                    call = pending.pop(i)
                    break
            else:
                call = pending.pop()
        if call is None:
            # A response with no recorded call is still a step: its output is not lost.
            call = Call(kind, event.step_index, name, None, None, {})
            calls.append(call)
            (tools if kind == "tool" else llms if kind == "llm" else retrievals).append(call)
        call.response = event.payload
        call.responded_at = event.timestamp

    for event in run.events:
        kind = event.event_type
        p = event.payload
        if kind == "tool.called":
            name = str(p.get("tool_name") or _TOOL)
            call = Call("tool", event.step_index, name, p.get("args"), event.timestamp, p)
            calls.append(call)
            tools.append(call)
            open_calls.setdefault("tool:" + name, []).append(call)
        elif kind == "tool.responded":
            name = str(p.get("tool_name") or _TOOL)
            respond("tool:" + name, "tool", name, event)
        elif kind == "llm.called":
            call = Call("llm", event.step_index, str(p.get("model") or "llm"), p.get("prompt"),
                        event.timestamp, p)
            calls.append(call)
            llms.append(call)
            open_calls.setdefault("llm", []).append(call)
        elif kind == "llm.responded":
            respond("llm", "llm", "llm", event)
        elif kind == "retrieval.called":
            call = Call("retrieval", event.step_index, str(p.get("index_name") or _INDEX),
                        p.get("query"), event.timestamp, p)
            calls.append(call)
            retrievals.append(call)
            open_calls.setdefault("retrieval", []).append(call)
        elif kind == "retrieval.responded":
            respond("retrieval", "retrieval", str(p.get("index_name") or _INDEX), event)
        elif kind == "run.started":
            started = p
        elif kind == "run.completed":
            completed, status = p, "completed"
        elif kind == "run.errored":
            errored, status = p, "errored"
        elif kind in _MEMORY_OPS:
            memory.append(Memory(_MEMORY_OPS[kind], event.step_index, str(p.get("key") or ""),
                                 _text(p.get("value")) or "", str(p.get("source") or "")))
        elif kind == "external.signal":
            meta = p.get("meta")
            externals.append(External(str(p.get("signal_name") or p.get("name") or ""),
                                      event.step_index,
                                      meta if isinstance(meta, Mapping) else {}))
    for call in calls:
        call.finish()
    for call in llms:
        sources = [source for source in (call.response, call.request) if source]
        call.prompt_tokens = _count(sources, "prompt_tokens")
        call.completion_tokens = _count(sources, "completion_tokens")
        call.reasoning_tokens = _count(sources, "reasoning_tokens")
    return RunView(run, calls, tools, llms, retrievals, started, completed, errored, status,
                   memory, externals)


_MEMORY_OPS = {"memory.written": "written", "memory.read": "read", "memory.cleared": "cleared"}


_cache = threading.local()


def view_of(run: Run) -> RunView:
    """The view of ``run``; the last one built on this thread is reused.

    Runs are treated as immutable once handed to the detectors.
    """
    last = getattr(_cache, "last", None)
    if (last is not None and last[0] is run and last[2] is run.events
            and last[3] == len(run.events)):
        return last[1]  # type: ignore[no-any-return]
    view = _build(run)
    _cache.last = (run, view, run.events, len(run.events))
    return view
