"""``semloop detect``: tables and JSON, bad lines reported and skipped, config applied."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from typer.testing import CliRunner

from semloop.cli import app
from semloop.events import Run

from .builder import RunBuilder, healthy

runner = CliRunner()


def _loop_run() -> Run:
    b = RunBuilder(run_id="looping").llm("Searching.")
    for _ in range(4):
        b.tool("search", {"q": "Paris"}, "sunny")
    return b.llm("Sunny in Paris.").complete()


def _write(tmp_path: Path, runs: list[Run], bad: list[str] = ()) -> Path:  # type: ignore[assignment]
    lines = [json.dumps(e.to_dict()) for run in runs for e in run.events]
    for i, text in enumerate(bad):
        lines.insert(3 + i, text)
    path = tmp_path / "events.ndjson"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_json_output_lists_each_run_and_its_signals(tmp_path: Path) -> None:
    path = _write(tmp_path, [healthy(run_id="fine").complete(), _loop_run()])
    result = runner.invoke(app, ["detect", str(path), "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    by_id = {r["run_id"]: r for r in doc["runs"]}
    assert by_id["fine"]["signals"] == []
    [signal] = by_id["looping"]["signals"]
    assert signal["failure_type"] == "TOOL_LOOP" and signal["evidence"]["steps"] == [2, 3, 4, 5]
    assert doc["rejected"] == []


def test_table_output(tmp_path: Path) -> None:
    path = _write(tmp_path, [healthy(run_id="fine").complete(), _loop_run()])
    result = runner.invoke(app, ["detect", str(path)])
    assert result.exit_code == 0, result.output
    assert "run fine" in result.stdout and "no signals" in result.stdout
    assert "TOOL_LOOP" in result.stdout and "HIGH" in result.stdout
    assert "2 runs, 1 flagged" in result.stdout


def test_bad_lines_are_reported_skipped_and_fail_the_exit_code(tmp_path: Path) -> None:
    bad = ["{not json", json.dumps({"event_type": "tool.called", "run_id": "x",
                                    "agent_id": "a", "step_index": -1, "timestamp": 1.0})]
    path = _write(tmp_path, [healthy(run_id="fine").complete(), _loop_run()], bad)
    result = runner.invoke(app, ["detect", str(path), "--json"])
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert {r["run_id"] for r in doc["runs"]} == {"fine", "looping"}
    assert [s["failure_type"] for r in doc["runs"] for s in r["signals"]] == ["TOOL_LOOP"]
    assert f"{path}:4" in result.stderr
    assert f"{path}:5" in result.stderr and "step_index" in result.stderr


def test_config_is_applied_and_bad_config_exits_2(tmp_path: Path) -> None:
    path = _write(tmp_path, [_loop_run()])
    cfg = tmp_path / "detectors.yml"
    cfg.write_text("default:\n  shadow: [TOOL_LOOP]\n", encoding="utf-8")
    result = runner.invoke(app, ["detect", str(path), "--json", "--config", str(cfg)])
    assert result.exit_code == 0, result.output
    [run] = json.loads(result.stdout)["runs"]
    assert run["signals"][0]["shadow"] is True

    cfg.write_text("default:\n  TOOL_LOOP: {threshold: 4}\n", encoding="utf-8")
    result = runner.invoke(app, ["detect", str(path), "--json", "--config", str(cfg)])
    assert json.loads(result.stdout)["runs"][0]["signals"][0]["confidence"] == 0.5

    cfg.write_text("default:\n  TOOL_LOOP: {threshhold: 4}\n", encoding="utf-8")
    result = runner.invoke(app, ["detect", str(path), "--config", str(cfg)])
    assert result.exit_code == 2
    assert "default.TOOL_LOOP.threshhold" in result.stderr and str(cfg) in result.stderr


def test_other_formats_through_the_importers(tmp_path: Path) -> None:
    # A deepeval-style trace dict: four identical tool calls under one agent span.
    tool = {"type": "tool", "name": "search", "input": {"q": "Paris"}, "output": "sunny",
            "children": []}
    doc = {"type": "agent", "name": "agent", "input": "Weather?", "output": "Sunny.",
           "children": [dict(tool) for _ in range(4)]}
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = runner.invoke(app, ["detect", str(path), "--format", "deepeval", "--json"])
    assert result.exit_code == 0, result.output
    [run] = json.loads(result.stdout)["runs"]
    assert "TOOL_LOOP" in {s["failure_type"] for s in run["signals"]}


def test_unreadable_file_exits_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["detect", str(tmp_path / "nope.ndjson")])
    assert result.exit_code == 2 and "cannot read" in result.stderr


def test_baseline_from_the_file(tmp_path: Path) -> None:
    normal = [healthy(run_id=f"n{i}").complete() for i in range(20)]
    slow = healthy(run_id="slow").tool("search", {"q": "x"}, "y", latency_ms=3_000).complete()
    path = _write(tmp_path, [*normal, slow])

    def flagged(*extra: str) -> dict[str, list[str]]:
        result = runner.invoke(app, ["detect", str(path), "--json", *extra])
        assert result.exit_code == 0, result.output
        return {r["run_id"]: [s["failure_type"] for s in r["signals"]]
                for r in json.loads(result.stdout)["runs"] if r["signals"]}

    assert flagged() == {}  # 3 s is under the static 15 s
    assert flagged("--baseline") == {"slow": ["SLOW_STEP"]}  # but 25× this agent's P75


def test_detect_imports_with_the_standard_library_alone(
    third_party_imports: Callable[[str], list[str]],
) -> None:
    assert third_party_imports("semloop.detect") == []
