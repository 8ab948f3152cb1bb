"""SWE-agent, ATIF, mini-swe-agent and tau-bench files, written by us in the shape of the
real ones (field names and nesting; the content is ours)."""

from __future__ import annotations

import json
from pathlib import Path

from semloop.ingest.formats import convert, detect_format

FIXTURES = Path(__file__).parent / "fixtures"
SWE, ATIF, MINI, TAU = (
    json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    for name in ("swe_agent.traj", "atif_trajectory.json", "mini_swe_agent.traj.json",
                 "tau_bench_results.json"))


def _write(tmp_path: Path, name: str, doc: object) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


def test_each_shape_is_detected_and_keeps_steps(tmp_path: Path) -> None:
    cases = [("a.traj", SWE, "swe-agent", "Fix the missing colon in calc.py"),
             ("t.json", ATIF, "atif", "Make the tests pass"),
             ("m.traj.json", MINI, "mini-swe-agent", "Fix bug"),
             ("r.json", TAU, "tau-bench", "Cancel my booking")]
    for name, doc, fmt, goal in cases:
        path = _write(tmp_path, name, doc)
        assert detect_format(path) == fmt
        result = convert(path)
        assert not result.rejected, result.rejected
        (run,) = result.runs
        trace = run.to_trace()
        assert trace.goal == goal
        tools = trace.tool_spans
        assert tools and tools[0].output, fmt


def test_tool_outputs_are_matched_by_call_id(tmp_path: Path) -> None:
    trace = convert(_write(tmp_path, "t.json", ATIF)).runs[0].to_trace()
    assert trace.tool_spans[0].output == "1 failed"
    assert json.loads(trace.tool_spans[0].input_text) == {"command": "pytest -q"}


def test_tau2_results_are_refused_clearly(tmp_path: Path) -> None:
    path = _write(tmp_path, "tau2.json", {"simulations": [{"messages": []}]})
    try:
        detect_format(path)
    except Exception as exc:  # noqa: BLE001 - the message is what is tested
        assert "tau2-bench" in str(exc)
    else:
        raise AssertionError("tau2 results must be refused")
