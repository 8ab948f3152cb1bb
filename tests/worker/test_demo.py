"""The main job, end to end, on a SQLite file with the embedded judge."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from semloop.cli import app
from semloop.demo import run_demo
from semloop.judge.registry import make_backend


def test_demo_catches_the_loops_and_storms_and_leaves_healthy_runs_alone(tmp_path: Path) -> None:
    report = run_demo(f"sqlite:///{tmp_path / 'demo.db'}", make_backend("local"))
    by_name = {r.scenario.name: r for r in report.results}
    assert report.runs == 13 and report.events > 150
    for name in ("paraphrased loop", "identical tool loop", "retry storm", "tool thrashing",
                 "token burn", "hallucinated refund", "prompt injection"):
        assert not by_name[name].missed, (name, by_name[name].found)
    for name in ("healthy support", "healthy paging", "healthy polling"):
        assert by_name[name].found == set(), (name, by_name[name].found)


def test_demo_command_prints_the_summary(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["demo", "--database-url", f"sqlite:///{tmp_path / 'd.db'}"])
    assert result.exit_code == 0, result.output
    assert "caught" in result.output and "paraphrased loop" in result.output
    assert "sampling: baseline skipped" in result.output
    assert "recurring issues" in result.output and "month-end" in result.output


def test_demo_runs_the_semantic_worker_end_to_end(tmp_path: Path) -> None:
    report = run_demo(f"sqlite:///{tmp_path / 'demo.db'}", make_backend("local"))
    by_name = {r.scenario.name: r for r in report.results}
    frustrated = [s for s in by_name["frustrated user"].signals
                  if s.failure_type == "USER_FRUSTRATION"]
    assert frustrated and frustrated[0].source == "semantic"
    # Every run has a sampling decision: flagged runs judged, the others skipped, said why.
    assert report.samples[("structural_signal", True)] >= 6
    assert report.samples[("baseline", False)] >= 3
    assert sum(report.samples.values()) == report.runs
    [issue] = [i for i in report.issues if i["evaluator"] == "USER_FRUSTRATION"]
    assert issue["run_count"] == 5 and issue["false_positives"] == 3
    first, later = report.feedback
    assert first is not None and later is not None
    assert later.confidence == round(first.confidence - 0.3, 4)
    assert "false-positive" in later.evidence["feedback"]
    assert report.usage is not None and report.usage.used == report.samples[
        ("structural_signal", True)]
