"""No input shape crashes a converter: anything unreadable becomes a located rejection."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from semloop._exceptions import TraceFormatError
from semloop.events import Run
from semloop.ingest.formats import FORMATS

# Keys every format reads, so generated documents reach deep into the converters.
KEYS = [
    "id", "uuid", "name", "type", "input", "output", "children", "status", "error",
    "startTime", "endTime", "start_time", "end_time", "parentUuid", "llmSpans", "toolSpans",
    "_trace_dict", "root_spans", "resourceSpans", "scopeSpans", "spans", "traceId", "spanId",
    "parentSpanId", "attributes", "key", "value", "stringValue", "intValue", "events",
    "context", "trace_id", "span_id", "parent_id", "run_type", "child_runs", "dotted_order",
    "inputs", "outputs", "generations", "extra", "metadata", "observations", "level",
    "usageDetails", "object", "span_data", "data", "started_at", "ended_at", "event_type",
    "run_id", "agent_id", "timestamp", "payload", "messages", "role", "content",
]
leaves = st.one_of(st.none(), st.booleans(), st.integers(-5, 2**40), st.floats(allow_nan=True),
                   st.text(max_size=12), st.sampled_from(["trace", "trace.span", "llm", "tool",
                                                          "GENERATION", "TOOL", "function"]))
docs = st.recursive(leaves, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(KEYS), inner, max_size=6)),
    max_leaves=25)


def dumps(value: Any) -> bytes:
    return json.dumps(value, allow_nan=True).encode()


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=docs, fmt=st.sampled_from(sorted(FORMATS)))
def test_converters_never_crash(doc: Any, fmt: str) -> None:
    try:
        result = FORMATS[fmt](dumps(doc), source="fuzz.json", clock=1.0)
    except TraceFormatError:
        return  # a file-level error (empty, not JSON) is an answer too
    assert all(isinstance(e, TraceFormatError) for e in result.rejected)
    for run in result.runs:
        assert isinstance(run, Run) and run.events
        run.to_trace()


FIXTURES = __import__("pathlib").Path(__file__).parent / "fixtures"
_JSON_FIXTURES = {
    "deepeval": "deepeval_api.json", "langfuse": "langfuse_trace.json",
    "langsmith": "langsmith_run_tree.json", "openai-agents": "openai_agents_export.json",
    "otlp": "otlp_genai.json", "openinference": "openinference_otlp.json",
}


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(_paths(v, (*prefix, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(_paths(v, (*prefix, i)))
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fmt=st.sampled_from(sorted(_JSON_FIXTURES)), pick=st.integers(0, 10**6),
       replacement=leaves | st.just({}) | st.just([]))
def test_a_damaged_fixture_keeps_its_undamaged_runs(fmt: str, pick: int,
                                                    replacement: Any) -> None:
    doc = json.loads((FIXTURES / _JSON_FIXTURES[fmt]).read_text())
    paths = _paths(doc)[1:]
    path = paths[pick % len(paths)]
    target = doc
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = replacement
    try:
        result = FORMATS[fmt](dumps(doc), source="damaged.json", clock=1.0)
    except TraceFormatError:
        return
    assert all(isinstance(e, TraceFormatError) for e in result.rejected)
    for run in result.runs:
        run.to_trace()
