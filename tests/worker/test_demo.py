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
