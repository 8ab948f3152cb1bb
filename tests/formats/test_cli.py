"""``semloop import``: stores good runs, reports bad records, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from semloop.cli import app
from semloop.ingest.formats import load
from semloop.store import Store
from semloop.store.testing import postgres_database

FIXTURES = Path(__file__).parent / "fixtures"
runner = CliRunner()


def invoke(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["import", *args])
    return result.exit_code, result.stdout, result.stderr


def test_import_every_fixture_then_reimport_adds_nothing(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'semloop.db'}"
    files = sorted(str(p) for p in FIXTURES.iterdir())
    code, out, err = invoke(*files, "--database-url", url, "--org", "acme")
    assert code == 0, err
    assert "langfuse: 1 run, 10 events, 10 new" in out
    # The same trace as protobuf after its JSON twin: every event is already stored.
    assert "otlp_genai.pb: otlp: 2 runs, 20 events, 0 new" in out
    code, out, _ = invoke(str(FIXTURES / "langfuse_trace.json"), "--database-url", url,
                          "--org", "acme")
    assert code == 0 and "10 events, 0 new" in out
    store = Store(url)
    try:
        org = store.create_org("acme")  # existing org: same id
        (expected,) = load(FIXTURES / "langfuse_trace.json")
        stored = store.get_run(org, expected.run_id)
        assert stored is not None
        assert [e.to_dict() for e in stored.events] == [e.to_dict() for e in expected.events]
        assert stored.conversation_id == "session-booking-77"
        assert store.get_run(store.create_org("default"), expected.run_id) is None
    finally:
        store.close()


def test_bad_records_are_reported_and_good_ones_stored(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'semloop.db'}"
    lines = (FIXTURES / "semloop_events.ndjson").read_text().splitlines()
    lines.insert(2, json.dumps({"event_type": "tool.called", "run_id": "x", "agent_id": "a",
                                "timestamp": -4}))
    path = tmp_path / "events.ndjson"
    path.write_text("\n".join(lines) + "\n")
    code, out, err = invoke(str(path), "--database-url", url)
    assert code == 1
    assert "2 runs, 12 events, 12 new, 1 rejected" in out
    assert f"rejected: {path}:3, field 'timestamp': must be epoch seconds" in err
    store = Store(url)
    try:
        run_id = json.loads(lines[0])["run_id"]
        stored = store.get_run(store.create_org("default"), run_id)
        assert stored is not None and stored.status == "completed"
    finally:
        store.close()


def test_undetectable_file_exits_2_and_says_why(tmp_path: Path) -> None:
    path = tmp_path / "what.json"
    path.write_text('{"hello": "world"}')
    code, out, err = invoke(str(path), "--dry-run")
    assert code == 2
    assert "saw a JSON object with keys hello" in err
    assert out == ""


def test_dry_run_with_explicit_format_stores_nothing(tmp_path: Path) -> None:
    code, out, _ = invoke(str(FIXTURES / "otlp_genai.pb"), "--format", "otlp", "--dry-run",
                          "--database-url", f"sqlite:///{tmp_path / 'x.db'}")
    assert code == 0
    # The whole line: the path before it may contain any word, "new" included.
    assert out == f"{FIXTURES / 'otlp_genai.pb'}: otlp: 2 runs, 20 events\n"
    assert not (tmp_path / "x.db").exists()


def test_unknown_format_option() -> None:
    code, _, err = invoke(str(FIXTURES / "otlp_genai.pb"), "--format", "zipkin", "--dry-run")
    assert code == 2
    assert "unknown format 'zipkin'" in err


@pytest.mark.postgres
def test_import_into_postgresql(postgres_url: str) -> None:
    with postgres_database(postgres_url) as url:
        files = [str(FIXTURES / "otlp_genai.pb"), str(FIXTURES / "langsmith_run_tree.json")]
        code, out, err = invoke(*files, "--database-url", url)
        assert code == 0, err
        assert "otlp_genai.pb: otlp: 2 runs, 20 events, 20 new" in out
        code, out, _ = invoke(*files, "--database-url", url)
        assert code == 0 and out.count(", 0 new") == 2
        store = Store(url)
        try:
            (expected,) = load(FIXTURES / "langsmith_run_tree.json")
            stored = store.get_run(store.create_org("default"), expected.run_id)
            assert stored is not None
            assert [e.to_dict() for e in stored.events] == [e.to_dict() for e in expected.events]
        finally:
            store.close()
