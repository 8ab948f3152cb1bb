"""OTLP traces (``ExportTraceServiceRequest``) in protobuf or the OTLP JSON mapping.

Files may hold one request (``.pb`` or ``.json``) or one request per line, as the OTLP
JSON file exporter writes them. Each trace becomes one run whose id is the trace id in
hex. The ingest API's ``POST /v1/traces`` calls :func:`events_from_otlp`.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..._exceptions import EventFormatError, MissingExtraError, TraceFormatError
from ...events import EVENT_TYPES, MAX_TIMESTAMP, Event, Run
from ._common import (
    SHAPE_ERRORS,
    Result,
    as_format_error,
    build_run,
    decode,
    documents,
    epoch,
    event_id,
)
from ._otel import OtelSpan, check_hex, decode_id, draft_from_spans

__all__ = ["Export", "convert", "events_from_otlp", "read", "read_export", "read_request",
           "spans_from_json"]

NAME = "otlp"
JSON_TYPES = ("application/json",)
PROTOBUF_TYPES = ("application/x-protobuf", "application/protobuf", "application/octet-stream")


def read(data: bytes | str) -> list[Run]:
    """Runs from an OTLP file's bytes; raises the first :class:`TraceFormatError`."""
    return convert(data).runs_or_raise()


def convert(data: bytes | str, *, source: str = "<otlp>", clock: float = 0.0) -> Result:
    """Runs from an OTLP file (protobuf, JSON, or JSON lines), and what was rejected."""
    result = Result(format=NAME)
    spans: list[OtelSpan] = []
    if isinstance(data, bytes) and _looks_binary(data):
        try:
            spans, bad = _spans_from_protobuf(data)
        except SHAPE_ERRORS as exc:
            result.rejected.append(as_format_error(exc).located(source=source))
        else:
            result.rejected.extend(e.located(source=source) for e in bad)
    else:
        for line, doc in documents(data, source):
            if isinstance(doc, TraceFormatError):
                result.rejected.append(doc)
                continue
            try:
                found, bad = _read_json(doc)
            except SHAPE_ERRORS as exc:
                result.rejected.append(as_format_error(exc).located(source=source, line=line))
                continue
            spans.extend(found)
            result.rejected.extend(e.located(source=source, line=line) for e in bad)
    result.runs, errors = _runs(spans, complete=True, clock=clock)
    result.rejected.extend(e.located(source=source) for _, e in errors)
    return result


def read_request(body: bytes, content_type: str) -> tuple[list[Run], list[TraceFormatError]]:
    """Runs from one OTLP/HTTP request body, and one error per span that was left out.

    Spans are converted trace by trace, so one bad trace does not lose the others. A
    request may carry only part of a trace (the exporter batches by time): its run is
    opened and closed only by the root span, and event ids are derived from span ids, so
    the parts add up in the store and a retried request adds nothing.
    """
    export = read_export(body, content_type)
    return export.runs, export.dropped


@dataclass
class Export:
    """One OTLP/HTTP request, read: its runs, and one error for each span left out."""

    runs: list[Run]
    dropped: list[TraceFormatError]
    #: Trace id → (root span id or None, every span id), to tell the span of an event.
    spans: dict[str, tuple[str | None, list[str]]] = field(default_factory=dict)

    @property
    def events(self) -> list[Event]:
        return [event for run in self.runs for event in run.events]

    def span_ids(self, events: Sequence[Event]) -> set[str]:
        """The spans that ``events`` (of this export) came from. Event ids derive from span
        ids one way, so each span's candidates are derived again; only rejections pay."""
        wanted = {e.event_id for e in events}
        found: set[str] = set()
        for trace_id, (root, members) in self.spans.items():
            for key in [*members, "run"]:
                span = root if key == "run" else key
                if span is not None and any(event_id(trace_id, key, kind) in wanted
                                            for kind in EVENT_TYPES):
                    found.add(span)
        return found


def read_export(body: bytes, content_type: str) -> Export:
    """What :func:`read_request` reads, with the span ids of each trace."""
    kind = (content_type or "").split(";", 1)[0].strip().lower()
    if body[:2] == b"\x1f\x8b":  # gzip, when the Content-Encoding header was not undone
        try:
            body = gzip.decompress(body)
        except (OSError, EOFError) as exc:
            raise TraceFormatError(f"corrupt gzip body: {exc}") from None
    if kind in PROTOBUF_TYPES:
        spans, bad = _spans_from_protobuf(body)
    elif kind in JSON_TYPES or kind.endswith("+json"):
        try:
            doc = json.loads(decode(body, "request body"))
        except json.JSONDecodeError as exc:
            raise TraceFormatError(
                f"not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None
        spans, bad = _read_json(doc)
    else:
        raise TraceFormatError(
            f"unsupported content type {content_type!r}; OTLP/HTTP sends "
            "application/x-protobuf or application/json")
    runs, errors = _runs(spans, complete=False, clock=0.0)
    ids: dict[str, list[str]] = {}
    roots: dict[str, str] = {}
    for span in spans:
        ids.setdefault(span.trace_id, []).append(span.span_id)
        if not span.parent_id:
            roots[span.trace_id] = span.span_id
    # A trace that could not be converted loses every one of its spans.
    dropped = bad + [error for trace_id, error in errors
                     for _ in dict.fromkeys(ids[trace_id])]
    return Export(runs, dropped, {t: (roots.get(t), members) for t, members in ids.items()})


def events_from_otlp(body: bytes, content_type: str) -> tuple[list[Event], list[TraceFormatError]]:
    """The events of every convertible trace in one OTLP/HTTP request body, and one error
    for each span left out (for ``partialSuccess``).

    A malformed body raises :class:`TraceFormatError`.
    """
    export = read_export(body, content_type)
    return export.events, export.dropped


def _runs(spans: Sequence[OtelSpan], *, complete: bool,
          clock: float) -> tuple[list[Run], list[tuple[str, TraceFormatError]]]:
    by_trace: dict[str, list[OtelSpan]] = {}
    for span in spans:
        by_trace.setdefault(span.trace_id, []).append(span)
    runs: list[Run] = []
    errors: list[tuple[str, TraceFormatError]] = []
    for trace_id, members in by_trace.items():
        # One request or line per span means the same span can appear twice (a retried
        # export); keep the last copy of each.
        unique = list({s.span_id: s for s in members}.values())
        try:
            runs.append(build_run(draft_from_spans(unique, NAME, complete=complete),
                                  clock=clock))
        except (*SHAPE_ERRORS, EventFormatError) as exc:
            errors.append((trace_id, TraceFormatError(
                f"trace {trace_id} could not be converted: {exc}", field="traceId")))
    runs.sort(key=lambda r: r.events[0].timestamp if r.events else 0.0)
    return runs, errors


# -- protobuf -------------------------------------------------------------------------------


def _looks_binary(data: bytes) -> bool:
    head = data.lstrip()[:1]
    return head not in (b"{", b"[") and not data.startswith(b"\xef\xbb\xbf")


def _pb() -> Any:
    try:
        from opentelemetry.proto.collector.trace.v1 import trace_service_pb2
    except ImportError as exc:
        raise MissingExtraError("reading OTLP protobuf", "server",
                                exc.name or "opentelemetry-proto") from exc
    return trace_service_pb2


def _spans_from_protobuf(body: bytes) -> tuple[list[OtelSpan], list[TraceFormatError]]:
    pb = _pb()
    from google.protobuf.message import DecodeError  # type: ignore[import-untyped]

    request = pb.ExportTraceServiceRequest()
    try:
        request.ParseFromString(body)
    except DecodeError as exc:
        raise TraceFormatError(f"not an OTLP protobuf ExportTraceServiceRequest ({exc})") from None
    spans, bad = [], []
    for r, rs in enumerate(request.resource_spans):
        resource = {kv.key: _pb_value(kv.value) for kv in rs.resource.attributes}
        for s, ss in enumerate(rs.scope_spans):
            for k, span in enumerate(ss.spans):
                where = f"resourceSpans[{r}].scopeSpans[{s}].spans[{k}]"
                if len(span.trace_id) != 16 or len(span.span_id) != 8:
                    bad.append(TraceFormatError(
                        "trace id must be 16 bytes and span id 8 bytes", field=where))
                    continue
                spans.append(OtelSpan(
                    trace_id=span.trace_id.hex(), span_id=span.span_id.hex(),
                    parent_id=span.parent_span_id.hex() or None, name=span.name,
                    start=span.start_time_unix_nano / 1e9 or None,
                    end=span.end_time_unix_nano / 1e9 or None,
                    attributes={kv.key: _pb_value(kv.value) for kv in span.attributes},
                    events=[(e.name, e.time_unix_nano / 1e9 or None,
                             {kv.key: _pb_value(kv.value) for kv in e.attributes})
                            for e in span.events],
                    status_code=int(span.status.code), status_message=span.status.message,
                    resource=resource,
                ))
    return spans, bad


def _pb_value(value: Any) -> Any:
    which = value.WhichOneof("value")
    if which is None:
        return None
    if which == "array_value":
        return [_pb_value(v) for v in value.array_value.values]
    if which == "kvlist_value":
        return {kv.key: _pb_value(kv.value) for kv in value.kvlist_value.values}
    return getattr(value, which)


# -- JSON -------------------------------------------------------------------------------------


def spans_from_json(doc: Any) -> list[OtelSpan]:
    """The spans of one ``ExportTraceServiceRequest`` in the OTLP JSON mapping; raises
    :class:`TraceFormatError` for the first span it cannot read."""
    spans, bad = _read_json(doc)
    if bad:
        raise bad[0]
    return spans


def _read_json(doc: Any) -> tuple[list[OtelSpan], list[TraceFormatError]]:
    """The readable spans of one request, and an error for each span that is not."""
    if not isinstance(doc, Mapping):
        raise TraceFormatError(f"an OTLP request must be a JSON object, not {type(doc).__name__}")
    resource_spans = doc.get("resourceSpans", doc.get("resource_spans"))
    if not isinstance(resource_spans, list):
        raise TraceFormatError("missing the resourceSpans list", field="resourceSpans")
    spans, bad = [], []
    for r, rs in enumerate(resource_spans):
        rpath = f"resourceSpans[{r}]"
        _need(rs, Mapping, rpath)
        resource = _attributes((rs.get("resource") or {}).get("attributes"), f"{rpath}.resource")
        scope_spans = rs.get("scopeSpans", rs.get("scope_spans",
                                                  rs.get("instrumentationLibrarySpans", [])))
        _need(scope_spans, list, f"{rpath}.scopeSpans")
        for s, ss in enumerate(scope_spans):
            spath = f"{rpath}.scopeSpans[{s}]"
            _need(ss, Mapping, spath)
            _need(ss.get("spans", []), list, f"{spath}.spans")
            for k, span in enumerate(ss.get("spans", [])):
                try:
                    spans.append(_json_span(span, f"{spath}.spans[{k}]", resource))
                except SHAPE_ERRORS as exc:
                    bad.append(as_format_error(exc))  # one bad span must not lose the rest
    return spans, bad


def _json_span(span: Any, path: str, resource: dict[str, Any]) -> OtelSpan:
    _need(span, Mapping, path)
    status = span.get("status") or {}
    _need(status, Mapping, f"{path}.status")
    code = status.get("code", 0)
    if isinstance(code, str):  # "STATUS_CODE_ERROR" from plain proto3 JSON encoders
        code = {"STATUS_CODE_UNSET": 0, "STATUS_CODE_OK": 1, "STATUS_CODE_ERROR": 2}.get(code, 0)
    events = []
    for i, ev in enumerate(span.get("events") or []):
        _need(ev, Mapping, f"{path}.events[{i}]")
        events.append((str(ev.get("name", "")), _nanos(ev.get("timeUnixNano"),
                                                       f"{path}.events[{i}].timeUnixNano"),
                       _attributes(ev.get("attributes"), f"{path}.events[{i}]")))
    parent = span.get("parentSpanId") or None
    if isinstance(parent, Mapping) and not parent.get("data"):
        parent = None  # an empty Buffer: no parent
    return OtelSpan(
        trace_id=_id(span.get("traceId"), 32, f"{path}.traceId"),
        span_id=_id(span.get("spanId"), 16, f"{path}.spanId"),
        parent_id=_id(parent, 16, f"{path}.parentSpanId") if parent else None,
        name=str(span.get("name", "")),
        start=_nanos(span.get("startTimeUnixNano"), f"{path}.startTimeUnixNano"),
        end=_nanos(span.get("endTimeUnixNano"), f"{path}.endTimeUnixNano"),
        attributes=_attributes(span.get("attributes"), path),
        events=events,
        status_code=int(code) if isinstance(code, (int, float)) else 0,
        status_message=str(status.get("message", "") or ""),
        resource=resource,
    )


def _need(value: Any, kind: type | tuple[type, ...], path: str) -> None:
    if not isinstance(value, kind):
        expected = "an object" if kind is Mapping else "a list"
        raise TraceFormatError(f"must be {expected}", field=path)


def _id(value: Any, size: int, path: str) -> str:
    """Hex ids as OTLP JSON requires; base64 ids as some exporters send them anyway; a
    Node ``Buffer`` as ``JSON.stringify`` writes a request that protobufjs decoded."""
    raw = _node_buffer(value)
    if raw is not None:
        if len(raw) * 2 != size:
            raise TraceFormatError(f"must be {size // 2} bytes, not {len(raw)}", field=path)
        return raw.hex()
    if not isinstance(value, str) or not value:
        raise TraceFormatError("is required (a hex id)", field=path)
    if len(value) == size:
        return check_hex(value, size, path)
    found = decode_id(value, size)
    if found is not None:
        return found
    raise TraceFormatError(f"not a {size}-hex-digit (or base64) id: {value!r}", field=path)


def _node_buffer(value: Any) -> bytes | None:
    """``{"type": "Buffer", "data": [bytes…]}`` as bytes; None for anything else."""
    data = value.get("data") if isinstance(value, Mapping) else None
    if not isinstance(data, list):
        return None
    try:
        return bytes(data)
    except (TypeError, ValueError):
        return None


def _long(value: Any) -> Any:
    """A 64-bit integer as protobufjs's ``Long`` writes it in JSON, ``{low, high,
    unsigned}`` (32-bit halves, signed), as an int; any other value as it is."""
    if not (isinstance(value, Mapping) and isinstance(value.get("low"), int)
            and isinstance(value.get("high"), int)):
        return value
    number = (value["high"] & 0xFFFFFFFF) << 32 | value["low"] & 0xFFFFFFFF
    return number if value.get("unsigned") or number < 1 << 63 else number - (1 << 64)


def _nanos(value: Any, path: str) -> float | None:
    value = _long(value)
    if value is None or value == "" or value == 0 or value == "0":
        return None
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise TraceFormatError("must be nanoseconds as a decimal string", field=path)
    try:
        nanos = int(value)
    except ValueError:
        return epoch(value, field_name=path)
    if not 0 <= nanos <= MAX_TIMESTAMP * 1e9:  # a 400-digit int would overflow the division
        raise TraceFormatError("must be nanoseconds since 1970, before the year 10000",
                               field=path)
    return nanos / 1e9


def _attributes(raw: Any, path: str) -> dict[str, Any]:
    if raw is None:
        return {}
    _need(raw, list, f"{path}.attributes")
    out = {}
    for i, kv in enumerate(raw):
        if not isinstance(kv, Mapping) or not isinstance(kv.get("key"), str):
            raise TraceFormatError("an attribute must be {key, value}",
                                   field=f"{path}.attributes[{i}]")
        out[kv["key"]] = _value(kv.get("value"), f"{path}.attributes[{i}].value")
    return out


def _value(value: Any, path: str) -> Any:
    if value is None:
        return None
    _need(value, Mapping, path)
    if "stringValue" in value:
        return value["stringValue"]
    if "intValue" in value:
        try:
            return int(_long(value["intValue"]))
        except (TypeError, ValueError):
            raise TraceFormatError(f"intValue must be an integer, not {value['intValue']!r}",
                                   field=path) from None
    if "doubleValue" in value:
        return float(value["doubleValue"])
    if "boolValue" in value:
        return bool(value["boolValue"])
    if "arrayValue" in value:
        return [_value(v, f"{path}.arrayValue[{i}]")
                for i, v in enumerate((value["arrayValue"] or {}).get("values") or [])]
    if "kvlistValue" in value:
        return {kv.get("key"): _value(kv.get("value"), f"{path}.kvlistValue")
                for kv in (value["kvlistValue"] or {}).get("values") or []}
    if "bytesValue" in value:
        return value["bytesValue"]
    return None
