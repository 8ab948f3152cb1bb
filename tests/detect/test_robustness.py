"""No detector raises on odd but storable runs: wrong payload types, missing responses,
responses without calls, unknown finish reasons. A worker must never crash on a run."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from semloop.detect import DETECTORS, SINGLE_RUN, Baseline
from semloop.events import EVENT_TYPES, Event, Run

from .builder import healthy

_values = st.one_of(st.none(), st.booleans(), st.integers(-5, 10**30), st.floats(allow_nan=False),
                    st.just(float("inf")),
                    st.text(max_size=40), st.lists(st.text(max_size=8), max_size=3),
                    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3))
_keys = st.sampled_from(["tool_name", "args", "output", "success", "error", "latency_ms",
                         "finish_reason", "prompt_tokens", "completion_tokens", "result_count",
                         "top_score", "content", "input_text", "tools", "exit_reason",
                         "output_length", "prompt", "cost_usd", "injection_signal", "query"])
_event = st.tuples(st.sampled_from(sorted(EVENT_TYPES)), st.integers(0, 30),
                   st.floats(0, 1e4, allow_nan=False), st.dictionaries(_keys, _values, max_size=6))


@settings(max_examples=150, deadline=None)
@given(st.lists(_event, min_size=1, max_size=40))
def test_detectors_never_raise(raw: list[tuple[str, int, float, dict[str, Any]]]) -> None:
    run = Run.from_events(Event(event_type=t, run_id="r", agent_id="a", step_index=s,
                                timestamp=ts, payload=p) for t, s, ts, p in raw)
    baseline = Baseline.from_runs([healthy().complete() for _ in range(20)] + [run])
    for name in SINGLE_RUN:
        detector = DETECTORS[name]
        for b in (None, baseline):
            result = detector.check(run, detector.defaults(), b)
            assert result is None or result.failure_type == name
    DETECTORS["HANDOFF_CONTEXT_LOSS"].check(
        run, Run.from_events([Event("run.started", "c", "a", 0, 1.0, parent_run_id="r")]),
        DETECTORS["HANDOFF_CONTEXT_LOSS"].defaults())


def test_huge_numbers_in_arguments_do_not_break_fabrication() -> None:
    run = (healthy(input_text="Look it up.").tool("lookup", {"n": "9" * 5000}, "x")
           .tool("lookup", "id " + "7" * 5000, "y").complete())
    s = DETECTORS["TOOL_ARGUMENT_FABRICATION"](run)
    assert s is not None and len(s.evidence["identifiers"]) == 2


def test_malformed_urls_in_arguments() -> None:
    run = healthy(input_text="Open it.").tool("fetch", {"url": "http://[bad/x"}, "x").complete()
    s = DETECTORS["TOOL_ARGUMENT_FABRICATION"](run)
    assert s is not None and s.evidence["identifiers"] == ["http://[bad/x"]
