"""``semloop bench`` and ``semloop score`` through typer's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from semloop.cli import app

from .conftest import BENCH_DATASET, REFERENCE_DATASET

runner = CliRunner()


def test_bench_prints_the_per_family_tables_on_the_default_dataset() -> None:
    result = runner.invoke(app, ["bench", "--judge", "oracle"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert f"60 traces from {BENCH_DATASET}" in out
    assert "Stagnation signal" in out and "Metric verdict" in out
    assert "lexical: stagnation 24/60 (40%) · metric verdict 36/60 (60%)" in out
    assert "oracle: stagnation 54/60 (90%) · metric verdict 54/60 (90%)" in out
    assert "undecided 0 · errors 0" in out


def test_bench_json_schema_and_plot(tmp_path: Path) -> None:
    out_json, out_png = tmp_path / "bench.json", tmp_path / "bench.png"
    result = runner.invoke(app, ["bench", "--dataset", str(REFERENCE_DATASET), "--judge", "oracle",
                                 "--json", str(out_json), "--plot", str(out_png)])
    assert result.exit_code == 0, result.output
    doc = json.loads(out_json.read_text())
    assert list(doc["systems"]) == ["lexical", "oracle"]
    for system in doc["systems"].values():
        assert len(system["rows"]) == 60
        for row in system["rows"]:
            assert {"trace_id", "family", "stagnation_correct", "verdict_correct", "score",
                    "score_breakdown", "undecided", "latency_ms", "cost_usd"} <= set(row)
        assert {"stagnation_hits", "verdict_hits", "cost_usd", "input_tokens",
                "mean_latency_ms", "undecided", "errors"} <= set(system["totals"])
    assert doc["systems"]["oracle"]["totals"]["stagnation_hits"] == 54
    assert out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert out_png.stat().st_size > 10_000


def test_bench_threshold_changes_the_verdict_column() -> None:
    # Above 0.60 the oracle's lone tool-repetition 0.0 on cosmetic_args_loop flips the verdict.
    result = runner.invoke(app, ["bench", "--judge", "oracle", "--threshold", "0.65"])
    assert result.exit_code == 0, result.output
    verdict = result.stdout.split("Metric verdict")[1]
    line = next(x for x in verdict.splitlines() if x.startswith("cosmetic_args_loop"))
    assert line.split()[2] == "6/6"


def test_bench_malformed_dataset_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"trace_id": "a", "loop": true, "stagnation": true, "root": {}}\n')
    result = runner.invoke(app, ["bench", "--dataset", str(bad)])
    assert result.exit_code == 2
    assert f"error: {bad}:1, field 'family'" in result.stderr
    missing = runner.invoke(app, ["bench", "--dataset", str(tmp_path / "nope.jsonl")])
    assert missing.exit_code == 2 and "no such dataset file" in missing.stderr


def test_bench_unknown_judge_is_refused() -> None:
    result = runner.invoke(app, ["bench", "--judge", "gpt5"])
    assert result.exit_code == 2 and "unknown judge 'gpt5'" in result.stderr


def test_score_a_bench_row(tmp_path: Path) -> None:
    row = tmp_path / "row.json"
    row.write_text(BENCH_DATASET.read_text().splitlines()[0])
    result = runner.invoke(app, ["score", str(row)])
    assert result.exit_code == 0, result.output
    assert "bench row, paraphrased_loop-00" in result.stdout
    assert "score     0.800" in result.stdout
    assert "reasoning_stagnation  1.00" in result.stdout
    judged = runner.invoke(app, ["score", str(row), "--judge", "oracle", "--json"])
    doc = json.loads(judged.stdout)
    assert doc["kind"] == "bench row" and doc["system"] == "oracle"
    assert doc["loop"] is True and doc["score"] == 0.45
    assert doc["score_breakdown"]["reasoning_stagnation"] == 0.0
    assert doc["answers"]["progress_0_1"] == 0.04
    assert doc["stuck_stretch"]["first_step"] == 0 and doc["stuck_stretch"]["last_step"] >= 2
    text = runner.invoke(app, ["score", str(row), "--judge", "oracle"]).stdout
    stretch = doc["stuck_stretch"]
    assert f"stretch   steps {stretch['first_step']}–{stretch['last_step']}" in text
    assert f"Stuck stretch: steps {stretch['first_step']}–{stretch['last_step']}." in text
    lexical = json.loads(runner.invoke(app, ["score", str(row), "--json"]).stdout)
    assert lexical["stuck_stretch"] is None  # the lexical check names no stretch


def test_score_a_deepeval_dict(tmp_path: Path) -> None:
    root = json.loads(BENCH_DATASET.read_text().splitlines()[30])["root"]  # identical_tool_loop-00
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(root))
    result = runner.invoke(app, ["score", str(path), "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["kind"] == "deepeval trace dict" and doc["system"] == "lexical"
    assert doc["score"] == 0.25 and doc["loop"] is True and doc["success"] is False
    assert doc["score_breakdown"] == {
        "tool_repetition": 0.0, "reasoning_stagnation": 0.0, "call_graph_cycles": 1.0}
    text = runner.invoke(app, ["score", str(path)]).stdout
    assert "LOOP" in text and "called 6 times with identical arguments" in text
    no_family = runner.invoke(app, ["score", str(path), "--judge", "oracle"])
    assert no_family.exit_code == 2 and "family" in no_family.stderr


def test_score_malformed_files_are_clear_errors(tmp_path: Path) -> None:
    cases = {
        "broken.json": ('{"root": ', "not valid JSON"),
        "list.json": ("[1, 2]", "expected one JSON object"),
        "other.json": ('{"hello": 1}', "neither a bench row"),
        "span.json": ('{"root": {"children": "x"}}', "field 'root.children'"),
        "two.jsonl": ('{"root": {}}\n{"root": {}}\n', "more than one JSON document"),
    }
    for name, (text, message) in cases.items():
        path = tmp_path / name
        path.write_text(text)
        result = runner.invoke(app, ["score", str(path)])
        assert result.exit_code == 2, name
        assert result.stderr.startswith(f"error: {path}") and message in result.stderr, name
    assert runner.invoke(app, ["score", str(tmp_path / "nope.json")]).exit_code == 2


def test_help_texts_explain_the_options() -> None:
    bench = runner.invoke(app, ["bench", "--help"])
    assert bench.exit_code == 0
    for option in ("--dataset", "--judge", "--json", "--plot", "--threshold", "--model",
                   "--base-url", "--jev-path", "--api-key-env", "--input-usd-per-mtok",
                   "--output-usd-per-mtok"):
        assert option in bench.stdout
    assert "oracle" in bench.stdout
    score = runner.invoke(app, ["score", "--help"])
    assert score.exit_code == 0 and "TRACE.json" in score.stdout and "deepeval" in score.stdout
