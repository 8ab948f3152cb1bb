"""Every evaluator on the embedded judge, end to end: the evaluator's verdict is the
judge's own rule's answer for the case (nothing lost or reshaped on the way), decided,
deterministic and explained, on the first cases of each calibration set."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import ROOT
from semloop.evaluate import EVALUATORS, QuestionEvaluator, parse_case_lines
from semloop.judge.local import LocalBackend
from semloop.judge.local import _backend as local_backend

JUDGED = [e for e in EVALUATORS.values() if isinstance(e, QuestionEvaluator)]


@pytest.fixture(scope="module")
def judge() -> LocalBackend:
    return LocalBackend()


def _cases(name: str, n: int = 12) -> list[object]:
    path = ROOT / "calibration" / f"{name}.jsonl"
    if not path.is_file():
        pytest.fail(f"{path} is missing: it is part of the repository")
    lines = path.read_text(encoding="utf-8").splitlines()
    level = EVALUATORS[name.upper()].level
    cases, errors = parse_case_lines(lines, source=str(path), level=level)
    assert errors == []
    # Both labels among the cases taken: the first n of each.
    return ([c for c in cases if c.label][:n // 2]  # type: ignore[attr-defined]
            + [c for c in cases if c.label is False][:n // 2])  # type: ignore[attr-defined]


@pytest.mark.parametrize("evaluator", JUDGED, ids=[e.name for e in JUDGED])
def test_the_verdict_is_the_rules_answer(evaluator: QuestionEvaluator, judge: LocalBackend) -> None:
    rules = {**local_backend._RUN_RULES, **local_backend._CONVERSATION_RULES}
    rule = rules[evaluator.kind]
    embed = judge._embedder.embed
    for case in _cases(evaluator.kind):
        result = evaluator(case, judge)
        direct = rule(case, embed)  # type: ignore[arg-type]
        assert result.error is None, result.error
        assert result.confidence == pytest.approx(float(direct.value)), case.id  # type: ignore[attr-defined]
        assert result.reasoning == (direct.reasoning.strip() or result.reasoning)
        assert result.reasoning.strip()
        assert result.judge == "local" and result.cost_usd == 0.0
        again = evaluator(case, judge)
        assert replace(again, latency_ms=0.0) == replace(result, latency_ms=0.0)


def test_calibrate_on_the_embedded_judge_writes_a_report(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from semloop.cli import app

    lines = (ROOT / "calibration" / "user_frustration.jsonl").read_text(encoding="utf-8")
    rows = [json.loads(line) for line in lines.splitlines() if line.strip()]
    sample = tmp_path / "user_frustration.jsonl"
    sample.write_text("".join(json.dumps(r) + "\n" for r in rows[::4]), encoding="utf-8")
    result = CliRunner().invoke(app, ["calibrate", "user_frustration", "--dataset", str(sample),
                                      "--out-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    report = (tmp_path / "user_frustration.md").read_text(encoding="utf-8")
    assert "# USER_FRUSTRATION calibration (local judge)" in report
    assert "judge errors: 0" in report and "| recall | " in report


def test_the_demos_frustrated_user_is_caught_from_recorded_events(tmp_path: Path) -> None:
    """SDK → events file → conversation case (last 5 runs) → USER_FRUSTRATION, local judge;
    the demo's healthy runs, in the same file without a conversation, give no case."""
    import random

    from typer.testing import CliRunner

    from semloop import Client
    from semloop.cli import app
    from semloop.demo.scenarios import SCENARIOS
    from semloop.sdk import FileEmitter

    events = tmp_path / "demo.ndjson"
    with Client(emitter=FileEmitter(events)) as client:
        for scenario in SCENARIOS:
            if scenario.name in ("frustrated user", "healthy support"):
                scenario.play(client, random.Random(0))
        assert client.flush()
    out = tmp_path / "out.json"
    result = CliRunner().invoke(app, ["evaluate", str(events), "--evaluator", "user_frustration",
                                      "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "note: " in result.stderr and "no conversation_id" in result.stderr
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["summary"]["skipped"] == 1 and doc["errors"] == []
    [found] = doc["results"]
    assert found["id"].startswith("conv-") and found["fired"], found
    assert "turn" in found["reasoning"]
