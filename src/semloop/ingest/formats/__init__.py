"""Trace importers: other tools' exports as semloop runs.

>>> from semloop.ingest.formats import load
>>> runs = load("traces.json")                 # format detected from the content
>>> runs = load("spans.pb", format="otlp")

Every converter keeps step order (by start time), timestamps (epoch seconds), the
conversation id and the goal, and emits the same events the SDK does, so a run imported
from any source is scored like a recorded one (and ``run.to_trace()`` gives the library's
:class:`~semloop.trace.Trace`). Event ids are derived from the source's ids: importing the
same file twice stores nothing new. Only OTLP protobuf needs a package
(``opentelemetry-proto``, in the ``server`` extra). See docs/import.md.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ..._exceptions import TraceFormatError
from ...events import Run
from . import (
    atif,
    claude_code,
    codex,
    deepeval,
    gemini_cli,
    langfuse,
    langsmith,
    mini_swe_agent,
    ndjson,
    openai_agents,
    openhands,
    openinference,
    otlp,
    swe_agent,
    tau_bench,
)
from ._common import Result, decode

__all__ = ["FORMATS", "Result", "convert", "detect_format", "load"]

#: Format name → ``convert(data, *, source, clock) -> Result``.
FORMATS: dict[str, Callable[..., Result]] = {
    "deepeval": deepeval.convert,
    "otlp": otlp.convert,
    "openinference": openinference.convert,
    "langsmith": langsmith.convert,
    "langfuse": langfuse.convert,
    "openai-agents": openai_agents.convert,
    "ndjson": ndjson.convert,
    "swe-agent": swe_agent.convert,
    "atif": atif.convert,
    "mini-swe-agent": mini_swe_agent.convert,
    "tau-bench": tau_bench.convert,
    "openhands": openhands.convert,
    "claude-code": claude_code.convert,
    "codex": codex.convert,
    "gemini-cli": gemini_cli.convert,
}
_ALIASES = {"openai_agents": "openai-agents", "jsonl": "ndjson", "events": "ndjson",
            "otel": "otlp", "swe_agent": "swe-agent", "sweagent": "swe-agent",
            "traj": "swe-agent", "harbor": "atif",
            "mini_swe_agent": "mini-swe-agent", "mini": "mini-swe-agent",
            "tau_bench": "tau-bench", "tau": "tau-bench", "openhands-sdk": "openhands",
            "claude_code": "claude-code", "claude": "claude-code",
            "codex-cli": "codex", "openai-codex": "codex", "gemini": "gemini-cli",
            "gemini_cli": "gemini-cli"}
_PROTOBUF_SUFFIXES = (".pb", ".bin", ".protobuf", ".binpb")


def load(path: str | Path, format: str = "auto", *, clock: float | None = None) -> list[Run]:
    """The runs in a file. Raises :class:`TraceFormatError` for the first rejected record
    (use :func:`convert` to keep the good runs beside the bad ones)."""
    return convert(path, format, clock=clock).runs_or_raise()


def convert(path: str | Path, format: str = "auto", *, clock: float | None = None) -> Result:
    """The runs a file holds and a located error for each record that was rejected.

    ``clock`` (epoch seconds) dates runs whose source records no times; it defaults to
    the file's modification time, so re-importing gives the same events.
    """
    source = str(path)
    name = _canonical(format)
    if Path(path).is_dir() and name not in ("auto", "openhands"):
        raise TraceFormatError(f"a folder is read only as an OpenHands event store, not as "
                               f"{name}", source=source)
    data = _read_bytes(path, source)
    if name == "auto":
        name = _detect(data, source)
    when = clock if clock is not None else Path(path).stat().st_mtime
    return FORMATS[name](data, source=source, clock=when)


def detect_format(path: str | Path) -> str:
    """The format name of a file, from its content (and ``.pb`` for protobuf).

    Raises :class:`TraceFormatError` saying what was seen when no format fits."""
    source = str(path)
    data = _read_bytes(path, source)
    return _detect(data, source)


def _read_bytes(path: str | Path, source: str) -> bytes:
    try:
        if Path(path).is_dir():  # the one format kept as a folder of files
            return openhands.read_folder(Path(path))
        return Path(path).read_bytes()
    except OSError as exc:
        raise TraceFormatError(f"cannot read the file: {exc.strerror or exc}",
                               source=source) from None


def _canonical(format: str) -> str:
    name = _ALIASES.get(format.lower(), format.lower())
    if name != "auto" and name not in FORMATS:
        raise TraceFormatError(
            f"unknown format {format!r}; choose auto or one of: {', '.join(FORMATS)}")
    return name


def _detect(data: bytes, source: str) -> str:
    head = data.lstrip()[:1]
    if Path(source).suffix.lower() in _PROTOBUF_SUFFIXES or (data and head not in (b"{", b"[")
                                                             and _binary(data)):
        return "otlp"
    sample = _sample(data, source)
    name = _classify(sample)
    if name is None:
        raise TraceFormatError(
            f"cannot tell the format: {_describe(sample)}. Expected resourceSpans (otlp), "
            "event_type+run_id (ndjson), object=trace/trace.span (openai-agents), "
            "observations or traceId+type (langfuse), run_type/child_runs/dotted_order "
            "or post/patch (langsmith), context.span_id+attributes (openinference), "
            "llmSpans/toolSpans/"
            "_trace_dict/children (deepeval), trajectory of action/observation (swe-agent), "
            "schema_version ATIF-… with steps (atif), trajectory_format mini-swe-agent or "
            "messages+info (mini-swe-agent), task_id+traj, results of them or simulations (tau-bench), "
            "kind ActionEvent/MessageEvent/… (openhands), type user/assistant/summary with "
            "sessionId (claude-code), type session_meta/response_item/… with payload "
            "(codex), sessionId+projectHash/messages (gemini-cli). Pass --format to choose.", source=source)
    return name


def _binary(data: bytes) -> bool:
    try:
        data[:4096].decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start < 4090  # a cut multi-byte character at the end is still text
    return b"\x00" in data[:4096] or data[:1] == b"\x0a" and b"\x12" in data[:64]


def _sample(data: bytes, source: str) -> Any:
    raw = decode(data, source).strip()
    if not raw:
        raise TraceFormatError("cannot tell the format: the file is empty", source=source)
    try:
        doc = json.loads(raw)
    except json.JSONDecodeError:
        line = next(ln for ln in raw.splitlines() if ln.strip())
        try:
            # One JSON value a line, or values concatenated on one (``cat`` of JSON files).
            doc = json.JSONDecoder().raw_decode(line)[0]
        except json.JSONDecodeError as exc:
            raise TraceFormatError(
                f"cannot tell the format: the file is neither JSON nor JSON lines "
                f"({exc.msg} at column {exc.colno} of the first line)", source=source,
                line=1) from None
    if isinstance(doc, Mapping):
        for key in ("data", "runs", "traces", "events", "spans", "items"):
            inner = doc.get(key)
            if isinstance(inner, list) and inner and isinstance(inner[0], Mapping) and (
                    "resourceSpans" not in doc):
                return inner[0] if _classify(inner[0]) else doc
    if isinstance(doc, list):
        return doc[0] if doc else doc
    return doc


def _classify(doc: Any) -> str | None:
    if not isinstance(doc, Mapping):
        return None
    keys = set(doc)
    if "resourceSpans" in keys or "resource_spans" in keys:
        return "otlp"
    if {"event_type", "run_id"} <= keys:
        return "ndjson"
    if doc.get("object") in ("trace", "trace.span"):
        return "openai-agents"
    if "observations" in keys or ({"traceId", "type"} <= keys and "startTime" in keys):
        return "langfuse"
    if keys & {"run_type", "child_runs", "dotted_order"} or (
            keys & {"post", "patch"} and all(isinstance(doc[k], list)
                                            for k in keys & {"post", "patch"})):
        return "langsmith"  # a run, or the SDKs' /runs/batch body
    if isinstance(doc.get("context"), Mapping) and "span_id" in doc["context"]:
        return "openinference"
    if keys & deepeval.KEYS:
        return "deepeval"
    if "children" in keys and "type" in keys:
        return "deepeval"
    return _classify_trajectory(doc, keys)


def _classify_trajectory(doc: Mapping[str, Any], keys: set[str]) -> str | None:
    """The agent-trajectory files of coding and customer-service benchmarks."""
    traj = doc.get("trajectory")
    if isinstance(traj, list) and (not traj or isinstance(traj[0], Mapping) and (
            "action" in traj[0] or "observation" in traj[0])):
        return "swe-agent"
    version = doc.get("schema_version")
    if isinstance(version, str) and version.upper().startswith("ATIF"):
        return "atif"
    steps = doc.get("steps")
    if isinstance(steps, list) and steps and isinstance(steps[0], Mapping) and (
            {"step_id", "source"} <= set(steps[0])):
        return "atif"
    fmt = doc.get("trajectory_format")
    if isinstance(fmt, str) and fmt.startswith("mini-swe-agent"):
        return "mini-swe-agent"
    if isinstance(doc.get("messages"), list) and isinstance(doc.get("info"), Mapping) and (
            "exit_status" in doc["info"] or "model_stats" in doc["info"]):
        return "mini-swe-agent"
    if "task_id" in keys and isinstance(doc.get("traj"), list):
        return "tau-bench"
    kind = doc.get("kind")
    if kind in openhands.KINDS or "stats" in keys and "agent" in keys:
        return "openhands"  # an SDK event, or the conversation state leading its store
    if doc.get("type") in claude_code.LINE_TYPES and (
            keys & {"sessionId", "session_id", "parentUuid", "leafUuid"}
            or doc.get("type") == "file-history-snapshot"):
        return "claude-code"  # a session transcript's line, or stream-json's
    if doc.get("type") in codex.LINE_TYPES and isinstance(doc.get("payload"), Mapping) or (
            {"id", "timestamp", "instructions"} <= keys and "type" not in keys):
        return "codex"  # a rollout's line, or the bare header of a mid-2025 rollout
    if gemini_cli.is_recording(doc):
        return "gemini-cli"  # a chat recording, or the header line of its JSON lines form
    results = doc.get("results")
    if isinstance(results, list) and results and isinstance(results[0], Mapping) and (
            "task_id" in results[0] and isinstance(results[0].get("traj"), list)):
        return "tau-bench"  # a tau-bench result list wrapped with its scores: {"metrics", "results"}
    sims = doc.get("simulations")
    if isinstance(sims, list) and (not sims or isinstance(sims[0], Mapping) and (
            "messages" in sims[0])):
        return "tau-bench"  # tau2-bench: {"info", "tasks", "simulations": [...]}
    return None


def _describe(doc: Any) -> str:
    if isinstance(doc, Mapping):
        keys = sorted(map(str, doc))
        more = f" and {len(keys) - 12} more" if len(keys) > 12 else ""
        return f"saw a JSON object with keys {', '.join(keys[:12])}{more}"
    return f"saw a JSON {type(doc).__name__}"
