"""``semloop bench`` / ``semloop score`` with the real Jev and OpenAI-compatible backends,
against the protocol servers on 127.0.0.1 from tests/judge (their fake model answers from
a hash of each question, so only the accounting is asserted, never accuracy)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

# tests/judge's autouse scrub of the developer's judge keys and hosts, applied here too
# (the jev_server and chat_server fixtures come the same way, through ./conftest.py).
from judge.conftest import _no_judge_env  # noqa: F401
from judge.servers import ChatServer, Delay, Reply, SystemOneServer  # tests/judge/servers.py
from semloop.cli import app
from semloop.judge.jev import estimate_cost_usd

from .conftest import BENCH_DATASET

runner = CliRunner()


@pytest.fixture()
def ten_rows(tmp_path: Path) -> Path:
    """One trace per family."""
    lines = BENCH_DATASET.read_text(encoding="utf-8").splitlines()[::6]
    path = tmp_path / "ten.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_bench_with_jev_sends_one_request_per_trace_and_totals_cost(
    jev_server: SystemOneServer, ten_rows: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TYPESAFE_API_KEY", "test-key")
    out = tmp_path / "jev.json"
    # Three answered requests, then a 422 for the 4th trace (cosmetic_args_loop-00): that
    # row becomes an error and the run goes on.
    jev_server.play(Delay(0), Delay(0), Delay(0),
             Reply(422, {"detail": [{"loc": ["body", "state"], "msg": "too long",
                                     "type": "value_error"}]}))
    result_ok = runner.invoke(app, ["bench", "--dataset", str(ten_rows), "--judge", "jev",
                                    "--base-url", jev_server.url, "--model", "jev-latest",
                                    "--json", str(out)])
    assert result_ok.exit_code == 0, result_ok.output
    assert len(jev_server.requests) == 10  # one per trace; the lexical column sends none
    first = jev_server.requests[0].json
    assert first["model"] == "jev-latest"
    assert set(first["state"]) == {"goal", "steps", "tool_calls"}
    assert {"progress_0_1", "revisit_0_2", "tool_repeat_grep", "stagnation"} <= set(
        first["questions"])
    doc = json.loads(out.read_text())
    totals = doc["systems"]["jev"]["totals"]
    assert totals["label"] == "jev:jev-latest"
    assert totals["errors"] == 1
    assert doc["systems"]["jev"]["rows"][3]["error"].startswith("JudgeStatusError")
    assert totals["input_tokens"] > 0
    assert totals["cost_usd"] == pytest.approx(estimate_cost_usd(totals["input_tokens"]))
    assert totals["mean_latency_ms"] > 0
    assert "jev:jev-latest: stagnation" in result_ok.stdout and "errors 1" in result_ok.stdout


def test_bench_with_an_openai_compatible_judge_prices_tokens(
    chat_server: ChatServer, ten_rows: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MY_JUDGE_KEY", "test-key")
    out = tmp_path / "llm.json"
    result = runner.invoke(app, [
        "bench", "--dataset", str(ten_rows), "--judge", "llm", "--model", "judge-1",
        "--base-url", chat_server.base_url, "--api-key-env", "MY_JUDGE_KEY",
        "--input-usd-per-mtok", "2.0", "--output-usd-per-mtok", "8.0", "--json", str(out),
    ])
    assert result.exit_code == 0, result.output
    assert len(chat_server.requests) == 10
    totals = json.loads(out.read_text())["systems"]["llm"]["totals"]
    assert totals["errors"] == 0 and totals["label"] == "llm:judge-1"
    expected = (totals["input_tokens"] * 2.0 + totals["output_tokens"] * 8.0) / 1_000_000
    assert totals["cost_usd"] == pytest.approx(expected) and expected > 0


def test_score_with_jev_over_the_wire(
    jev_server: SystemOneServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TYPESAFE_API_KEY", "test-key")
    row = tmp_path / "row.json"
    row.write_text(BENCH_DATASET.read_text(encoding="utf-8").splitlines()[18])  # alternating
    result = runner.invoke(app, ["score", str(row), "--judge", "jev", "--base-url", jev_server.url,
                                 "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["system"] == "jev:jev-latest" and doc["input_tokens"] > 0
    assert set(doc["answers"]) == set(jev_server.requests[-1].json["questions"])
    wrong_key = runner.invoke(app, ["score", str(row), "--judge", "jev", "--base-url", jev_server.url],
                              env={"TYPESAFE_API_KEY": "nope"})
    assert wrong_key.exit_code == 1 and "JudgeAuthError" in wrong_key.stderr
