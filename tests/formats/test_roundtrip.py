"""Every imported run converts to the library's Trace and back (Run.to_trace/from_trace)."""

from __future__ import annotations

from pathlib import Path

import pytest

from semloop.events import Run
from semloop.ingest.formats import load
from semloop.lexical import LexicalLoopDetection
from semloop.trace import Trace

FIXTURES = Path(__file__).parent / "fixtures"
ALL = sorted(p.name for p in FIXTURES.iterdir() if not p.name.startswith("."))
_SPAN_TYPE = {"llm": "llm", "tool": "tool", "retrieval": "retriever"}


def calls(run: Run) -> list[tuple[str, str]]:
    """(span type, tool name or '') per call event, in order."""
    return [(_SPAN_TYPE[e.event_type.split(".")[0]], str(e.payload.get("tool_name", "")))
            for e in run.events if e.event_type.endswith(".called")]


def responses(run: Run) -> list[tuple[str, object]]:
    keep = ("output", "content", "success")
    return [(e.event_type, tuple(e.payload.get(k) for k in keep if k in e.payload))
            for e in run.events if e.event_type.endswith(".responded")]


@pytest.mark.parametrize("name", ALL)
def test_run_to_trace_and_back(name: str) -> None:
    for run in load(FIXTURES / name, clock=1.0):
        trace = run.to_trace()
        assert isinstance(trace, Trace)
        assert trace.trace_id == run.run_id
        assert trace.goal == run.user_input
        assert trace.root.name == run.agent_id
        spans = list(trace.walk())[1:]
        assert [(s.type, s.name if s.type == "tool" else "") for s in spans] == calls(run)
        for span, event in zip(spans, [e for e in run.events
                                       if e.event_type.endswith(".responded")]):
            text = event.payload.get("output", event.payload.get("content", ""))
            assert span.output == text
        tool_spans = [s for s in spans if s.type == "tool"]
        assert [s.input for s in tool_spans] == [
            e.payload["args"] for e in run.of_type("tool.called")]
        assert [s.metadata["success"] for s in tool_spans] == [
            e.payload["success"] for e in run.of_type("tool.responded")]
        assert [s.input for s in spans if s.type == "llm"] == [
            e.payload.get("prompt", "") for e in run.of_type("llm.called")]

        back = Run.from_trace(trace, agent_id=run.agent_id, start=run.events[0].timestamp)
        assert back.run_id == run.run_id
        assert back.user_input == run.user_input
        assert calls(back) == calls(run)
        # Outputs, tool arguments and tool success survive the round trip.
        # Signals are not spans, and Run.from_trace always completes the run (a lost
        # fact reported to the events owner): everything else keeps its type and place.
        kept = [e.event_type for e in run.events if e.event_type != "external.signal"]
        assert [e.event_type for e in back.events][:-1] == kept[:-1]
        assert back.events[-1].event_type == "run.completed"
        tool_args = [e.payload["args"] for e in run.of_type("tool.called")]
        assert [e.payload["args"] for e in back.of_type("tool.called")] == tool_args
        assert [e.payload["success"] for e in back.of_type("tool.responded")] == [
            e.payload["success"] for e in run.of_type("tool.responded")]
        assert [e.payload["output"] for e in back.of_type("llm.responded")] == [
            e.payload["output"] for e in run.of_type("llm.responded")]
        # The library's trace of the round-tripped run has the same steps; only the LLM
        # prompts are gone (Run.from_trace does not carry span inputs of LLM spans).
        again = back.to_trace()

        def shape(t: Trace) -> list[tuple[str, str, str, str]]:
            return [(s.type, s.name, s.input_text if s.type != "llm" else "", s.output_text)
                    for s in list(t.walk())[1:]]

        assert shape(again) == shape(trace)


def test_imported_runs_are_scored_by_the_loop_detector() -> None:
    run = next(r for r in load(FIXTURES / "otlp_genai.pb") if r.agent_id == "weather-agent")
    result = LexicalLoopDetection().measure(run.to_trace())
    assert 0.0 <= result.score <= 1.0
    assert result.score_breakdown is not None
    assert set(result.score_breakdown) >= {"tool_repetition", "reasoning_stagnation"}
