"""Bad input: each rejected record is named by file, line and field; the rest survives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from semloop._exceptions import TraceFormatError
from semloop.ingest.formats import convert, detect_format, load

FIXTURES = Path(__file__).parent / "fixtures"


def write(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_ndjson_bad_lines_are_located_and_good_runs_kept(tmp_path: Path) -> None:
    good = (FIXTURES / "semloop_events.ndjson").read_text().splitlines()
    lines = [good[0], "{not json", *good[1:5],
             json.dumps({"event_type": "llm.sneezed", "run_id": "r", "agent_id": "a",
                         "timestamp": 1.0}),
             json.dumps({"event_type": "llm.called", "run_id": "r", "agent_id": "a",
                         "timestamp": "yesterday"}),
             *good[5:]]
    path = write(tmp_path, "events.ndjson", "\n".join(lines) + "\n")
    result = convert(path, "ndjson")
    assert [(e.source, e.line, e.field) for e in result.rejected] == [
        (str(path), 2, None), (str(path), 7, "event_type"), (str(path), 8, "timestamp")]
    assert "unknown event type 'llm.sneezed'" in str(result.rejected[1])
    assert str(result.rejected[2]).startswith(f"{path}:8, field 'timestamp': ")
    assert [r.status for r in result.runs] == ["completed", "errored"]
    assert sum(len(r.events) for r in result.runs) == len(good)
    with pytest.raises(TraceFormatError, match=r":2: not valid JSON"):
        load(path)


def test_langfuse_bad_trace_beside_good_one(tmp_path: Path) -> None:
    good = json.loads((FIXTURES / "langfuse_trace.json").read_text())
    bad = json.loads(json.dumps(good))
    bad["id"] = "lf-bad"
    bad["observations"][2]["startTime"] = "half past nine"
    path = write(tmp_path, "traces.json", json.dumps({"data": [bad, good]}))
    result = convert(path)
    assert [r.run_id for r in result.runs] == ["lf-trace-0001"]
    (error,) = result.rejected
    assert error.field == "data[0].observations[2].startTime"
    assert "not a time: 'half past nine'" in str(error)


def test_langsmith_run_without_id(tmp_path: Path) -> None:
    tree = json.loads((FIXTURES / "langsmith_run_tree.json").read_text())
    broken = json.loads(json.dumps(tree))
    broken["child_runs"][1].pop("id")
    broken["child_runs"][1].pop("dotted_order")  # which would name the id (test_clients.py)
    broken["id"] = broken["trace_id"] = "other"
    path = write(tmp_path, "runs.jsonl", json.dumps(tree) + "\n" + json.dumps(broken) + "\n")
    result = convert(path, "langsmith")
    assert [r.run_id for r in result.runs] == [tree["id"]]
    (error,) = result.rejected
    assert (error.line, error.field) == (2, "run.child_runs[1].id")


def test_openai_agents_unknown_item(tmp_path: Path) -> None:
    body = json.loads((FIXTURES / "openai_agents_export.json").read_text())
    body["data"].insert(1, {"object": "trace.mystery"})
    path = write(tmp_path, "export.json", json.dumps(body))
    result = convert(path)
    assert len(result.runs) == 1 and len(result.runs[0].of_type("tool.called")) == 2
    (error,) = result.rejected
    assert error.field == "data[1].object"


def test_deepeval_wrong_shape(tmp_path: Path) -> None:
    good = json.loads((FIXTURES / "deepeval_api.json").read_text())
    good[1]["toolSpans"] = {"not": "a list"}
    path = write(tmp_path, "traces.json", json.dumps(good))
    result = convert(path, "deepeval")
    assert len(result.runs) == 1
    (error,) = result.rejected
    assert error.field == "[1].toolSpans"


def test_openinference_missing_span_id(tmp_path: Path) -> None:
    # An id that is not hex is mapped (test_fixtures.py); one that is absent is an error.
    lines = (FIXTURES / "openinference_spans.jsonl").read_text().splitlines()
    span = json.loads(lines[0])
    span["context"]["span_id"] = None
    lines[0] = json.dumps(span)
    path = write(tmp_path, "spans.jsonl", "\n".join(lines))
    result = convert(path)
    (error,) = result.rejected
    assert (error.line, error.field) == (1, "context.span_id")
    (run,) = result.runs
    assert run.of_type("retrieval.called") == []  # the bad span's step is gone, not the run
    assert len(run.of_type("llm.called")) == 2


@pytest.mark.parametrize(("content", "needle"), [
    ('{"foo": 1, "bar": [1, 2]}', "saw a JSON object with keys bar, foo"),
    ("[1, 2, 3]", "saw a JSON int"),
    ("", "empty"),
    ("hello world\nsecond line\n", "neither JSON nor JSON lines"),
])
def test_detection_says_what_it_saw(tmp_path: Path, content: str, needle: str) -> None:
    path = write(tmp_path, "mystery.json", content)
    with pytest.raises(TraceFormatError, match=needle) as info:
        detect_format(path)
    assert info.value.source == str(path)
    if content.startswith("{"):
        assert "--format" in str(info.value)


def test_unknown_format_name_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(TraceFormatError, match="unknown format 'zipkin'"):
        load(FIXTURES / "langfuse_trace.json", format="zipkin")
    with pytest.raises(TraceFormatError, match="cannot read the file"):
        load(tmp_path / "absent.json")


def test_wrong_explicit_format_is_an_error_not_an_empty_import() -> None:
    result = convert(FIXTURES / "langfuse_trace.json", "openai-agents")
    assert result.runs == []
    assert result.rejected and "object" in str(result.rejected[0])


def test_protobuf_detected_by_content(tmp_path: Path) -> None:
    path = write(tmp_path, "export.bin.data", (FIXTURES / "otlp_genai.pb").read_bytes())
    assert detect_format(path) == "otlp"
    assert len(load(path)) == 2


def test_json_lines_of_documents_are_detected_by_first_line(tmp_path: Path) -> None:
    tree = (FIXTURES / "langsmith_run_tree.json").read_text()
    path = write(tmp_path, "runs.jsonl", json.dumps(json.loads(tree)) + "\n")
    assert detect_format(path) == "langsmith"


def test_pretty_printed_json_with_a_mistake_is_one_error(tmp_path: Path) -> None:
    text = (FIXTURES / "langfuse_trace.json").read_text().replace('"name": "plan",',
                                                                   '"name": "plan"', 1)
    path = write(tmp_path, "trace.json", text)
    with pytest.raises(TraceFormatError) as info:
        convert(path, "langfuse")
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if '"name": "plan"' in ln) + 1
    assert info.value.line == line
    assert "not valid JSON" in str(info.value)
