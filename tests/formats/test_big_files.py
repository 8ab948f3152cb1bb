"""Files big enough to show the progress bars still import and detect completely."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from semloop.cli import app
from semloop.events import Event
from semloop.store import Store


def _write(path: Path, runs: int) -> int:
    count = 0
    with path.open("w", encoding="utf-8") as fh:
        for r in range(runs):
            rid = f"run-{r:04d}"
            events = [Event("run.started", rid, "bot", 0, 1000.0 + r, {"input_text": "hi"})]
            for i in range(1, 21):
                events.append(Event("tool.called", rid, "bot", i, 1000.0 + r + i / 100,
                                    {"tool_name": "search", "args": {"q": "same"}}))
                events.append(Event("tool.responded", rid, "bot", i, 1000.0 + r + i / 100,
                                    {"tool_name": "search", "output": "[]"}))
            events.append(Event("run.completed", rid, "bot", 20, 1001.0 + r,
                                {"exit_reason": "completed"}))
            for e in events:
                fh.write(json.dumps(e.to_dict()) + "\n")
            count += len(events)
    return count


def test_a_big_file_is_imported_and_detected_in_full(tmp_path: Path) -> None:
    path = tmp_path / "big.ndjson"
    events = _write(path, 250)  # 250 runs, 10,500 events: both bars show
    url = f"sqlite:///{tmp_path / 'big.db'}"
    imported = CliRunner().invoke(app, ["import", str(path), "--database-url", url])
    assert imported.exit_code == 0, imported.output
    assert f"ndjson: 250 runs, {events} events, {events} new" in imported.output
    with Store(url) as store:
        org = store.create_org("default")
        assert store.count_events(org) == events
    detected = CliRunner().invoke(app, ["detect", str(path), "--json"])
    assert detected.exit_code == 0, detected.output
    runs = json.loads(detected.stdout)["runs"]
    assert len(runs) == 250
    assert all("TOOL_LOOP" in {s["failure_type"] for s in run["signals"]} for run in runs)
