"""OpenInference spans (Arize Phoenix and the OpenInference instrumentations).

Accepts span dicts one per line or in a list, in the two shapes they are exported in:
OpenTelemetry's ``ReadableSpan.to_json()`` (``context.trace_id`` as ``0x…`` hex,
``status.status_code``, flat dotted attributes) and Phoenix's span JSON (``span_kind``,
``status_code``, nested attributes). OTLP requests carrying OpenInference attributes
are read by :mod:`.otlp`, which this module falls back to for ``resourceSpans``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..._exceptions import TraceFormatError
from ...events import Run
from . import otlp
from ._common import SHAPE_ERRORS, Result, build_run, epoch, mapping, records, reject
from ._otel import OtelSpan, draft_from_spans, flatten, mapped_id

__all__ = ["convert", "read"]

NAME = "openinference"


def read(data: bytes | str) -> list[Run]:
    """Runs from OpenInference span JSON; raises the first :class:`TraceFormatError`."""
    return convert(data).runs_or_raise()


def convert(data: bytes | str, *, source: str = "<openinference>", clock: float = 0.0) -> Result:
    result = Result(format=NAME)
    by_trace: dict[str, list[OtelSpan]] = {}
    for line, path, raw in records(data, source, result, unwrap=("data", "spans")):
        try:
            spans = otlp.spans_from_json(raw) if isinstance(raw, Mapping) and (
                "resourceSpans" in raw) else [span_from_dict(raw)]
        except SHAPE_ERRORS as exc:
            reject(result, exc, source, line, path)
            continue
        for span in spans:
            by_trace.setdefault(span.trace_id, []).append(span)
    for trace_id, spans in by_trace.items():
        unique = list({s.span_id: s for s in spans}.values())
        try:
            result.runs.append(build_run(draft_from_spans(unique, NAME, complete=True),
                                         clock=clock))
        except SHAPE_ERRORS as exc:
            result.rejected.append(TraceFormatError(
                f"trace {trace_id} could not be converted: {exc}", source=source,
                field="context.trace_id"))
    result.runs.sort(key=lambda r: r.events[0].timestamp if r.events else 0.0)
    return result


def _hex(value: Any, size: int, field_name: str) -> str:
    # Phoenix and hand-made exports use ids that are not OTel hex (UUIDs, Relay ids,
    # names): mapped, not refused, so such a file is not lost whole (docs/import.md).
    if isinstance(value, bool) or not isinstance(value, (str, int)) or value == "":
        raise TraceFormatError("is required (an id)", field=field_name)
    if isinstance(value, int):  # OTel's own integer form of an id
        return mapped_id(format(value, f"0{size}x") if 0 <= value < 16**size else str(value),
                         size)
    return mapped_id(value, size)


_STATUS = {"UNSET": 0, "OK": 1, "ERROR": 2, "STATUS_CODE_ERROR": 2, "STATUS_CODE_OK": 1}


def span_from_dict(raw: Any) -> OtelSpan:
    """One span from ``to_json()`` or Phoenix's span JSON."""
    if not isinstance(raw, Mapping):
        raise TraceFormatError(f"a span must be a JSON object, not {type(raw).__name__}")
    context = raw.get("context")
    if not isinstance(context, Mapping):
        raise TraceFormatError("missing the span context {trace_id, span_id}", field="context")
    attributes = raw.get("attributes") or {}
    if not isinstance(attributes, Mapping):
        raise TraceFormatError("must be an object", field="attributes")
    attrs = flatten(attributes)
    if raw.get("span_kind") and "openinference.span.kind" not in attrs:
        attrs["openinference.span.kind"] = str(raw["span_kind"]).upper()
    status = mapping(raw.get("status"))
    code = str(status.get("status_code") or raw.get("status_code") or "UNSET").upper()
    message = status.get("description") or raw.get("status_message") or ""
    events = []
    for i, ev in enumerate(raw.get("events") or []):
        if not isinstance(ev, Mapping):
            raise TraceFormatError("an event must be an object", field=f"events[{i}]")
        events.append((str(ev.get("name", "")),
                       epoch(ev.get("timestamp"), field_name=f"events[{i}].timestamp"),
                       flatten(ev.get("attributes") or {})))
    resource = mapping(raw.get("resource"))
    parent = raw.get("parent_id") or None
    return OtelSpan(
        trace_id=_hex(context.get("trace_id"), 32, "context.trace_id"),
        span_id=_hex(context.get("span_id"), 16, "context.span_id"),
        parent_id=_hex(parent, 16, "parent_id") if parent else None,
        name=str(raw.get("name", "")),
        start=epoch(raw.get("start_time"), field_name="start_time"),
        end=epoch(raw.get("end_time"), field_name="end_time"),
        attributes=attrs, events=events,
        status_code=_STATUS.get(code.replace("STATUSCODE.", ""), 0),
        status_message=str(message or ""),
        resource=dict(resource.get("attributes") or {}),
    )
