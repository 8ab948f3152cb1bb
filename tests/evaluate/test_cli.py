"""``semloop evaluate`` and ``semloop calibrate`` end to end, in-process."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conftest import ROOT
from semloop.case import RunCase
from semloop.cli import app
from semloop.cli import evaluate as cli_evaluate
from semloop.events import Event, Run
from semloop.judge import ALL_KINDS, Answer, JudgeResponse

runner = CliRunner()
AGENT_LOOP_CASES = ROOT / "calibration" / "agent_loop.jsonl"


class ByWords:
    """Answers each evaluator question from the case text: 'WRONG' means the failure."""

    name = "by-words"
    kinds = ALL_KINDS

    def ask(self, state: Any, questions: Mapping[str, Any]) -> JudgeResponse:
        text = json.dumps(state)
        p = 0.9 if "WRONG" in text else 0.1
        return JudgeResponse(answers={
            q: Answer("noul", p, max(p, 1 - p), reasoning=f"sentence 1 (p={p})")
            for q in questions})


@pytest.fixture()
def by_words(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli_evaluate, "make_backend", lambda name, **options: ByWords())


def _lines(path: Path, rows: list[Any]) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows),
                    encoding="utf-8")
    return path


def _run_case(case_id: str, output: str, label: bool | None) -> dict[str, Any]:
    return {"id": case_id, "label": label, "input": "What is the refund window?",
            "output": output, "context": ["Refunds within 30 days."],
            "tools_called": [{"name": "kb", "args": {"q": "refund"}, "output": "30 days",
                              "success": True}]}


def test_evaluate_writes_results_and_a_labelled_summary(tmp_path: Path, by_words: None) -> None:
    cases = _lines(tmp_path / "cases.jsonl", [
        _run_case("tp", "WRONG: 90 days", True), _run_case("fn", "30 days", True),
        _run_case("tn", "30 days", False), _run_case("fp", "WRONG again", False),
        _run_case("unlabelled", "30 days", None)])
    out = tmp_path / "out.json"
    result = runner.invoke(app, ["evaluate", str(cases), "--evaluator", "Hallucination",
                                 "--json", str(out)])
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert [sorted(r) for r in doc["results"]] == [
        ["confidence", "fired", "id", "reasoning", "undecided"]] * 5
    assert [(r["id"], r["fired"]) for r in doc["results"]] == [
        ("tp", True), ("fn", False), ("tn", False), ("fp", True), ("unlabelled", False)]
    assert doc["results"][0]["reasoning"] == "sentence 1 (p=0.9)"
    s = doc["summary"]
    assert (s["cases"], s["labelled"], s["false_positive_rate"], s["recall"]) == (5, 4, 0.5, 0.5)
    assert (s["precision"], s["undecided"], s["malformed"]) == (0.5, 0, 0)
    assert "false positive rate 50.0%" in result.stdout and "5 cases, 2 fired" in result.stdout
    assert "fp" in result.stdout and "WRONG" not in result.stdout  # reasoning, not the case


def test_a_malformed_line_is_reported_by_number_and_field_and_the_rest_evaluated(
    tmp_path: Path, by_words: None,
) -> None:
    cases = _lines(tmp_path / "cases.jsonl", [
        _run_case("a", "WRONG", True),
        "{oops",
        {"id": "b", "input": "q", "output": "a", "tools_called": [{"name": "t", "success": 1}]},
        {"id": "c", "turns": [{"role": "user", "content": "hi"}]},
        _run_case("d", "fine", False),
    ])
    out = tmp_path / "out.json"
    result = runner.invoke(app, ["evaluate", str(cases), "--evaluator", "task_completion",
                                 "--json", str(out)])
    assert result.exit_code == 1
    assert f"{cases}:2: not valid JSON" in result.stderr
    assert f"{cases}:3, field 'tools_called[0].success'" in result.stderr
    assert f"{cases}:4, field 'turns': this evaluator reads run cases" in result.stderr
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert [r["id"] for r in doc["results"]] == ["a", "d"] and doc["summary"]["malformed"] == 3
    assert len(doc["errors"]) == 3


def test_a_trace_file_that_semloop_import_reads_becomes_cases(
    tmp_path: Path, by_words: None,
) -> None:
    def run(run_id: str, answer: str, start: float) -> Run:
        raw = [("run.started", {"input_text": "Where is my parcel?"}),
               ("retrieval.responded", {"index_name": "parcels",
                                        "content": "Parcel 118: at the Lyon depot."}),
               ("llm.called", {"model": "m"}), ("llm.responded", {"output": answer}),
               ("run.completed", {"exit_reason": "final_answer"})]
        return Run.from_events(
            Event(event_type=k, run_id=run_id, agent_id="bot", step_index=i,
                  timestamp=start + i, payload=p, conversation_id="conv-1")
            for i, (k, p) in enumerate(raw))

    runs = [run("r1", "It is in Lyon.", 10.0), run("r2", "WRONG, it's lost", 20.0),
            run("r3", "In Lyon still.", 30.0)]
    events = _lines(tmp_path / "events.ndjson", [e.to_dict() for r in runs for e in r.events])
    out = tmp_path / "runs.json"
    result = runner.invoke(app, ["evaluate", str(events), "--evaluator", "hallucination",
                                 "--json", str(out)])
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert [(r["id"], r["fired"]) for r in doc["results"]] == [
        ("r1", False), ("r2", True), ("r3", False)]
    result = runner.invoke(app, ["evaluate", str(events), "--evaluator", "CONFUSION_LOOP",
                                 "--json", str(out)])
    assert result.exit_code == 0, result.output
    [conversation] = json.loads(out.read_text(encoding="utf-8"))["results"]
    assert conversation["id"] == "conv-1" and conversation["fired"]


def test_agent_loop_on_the_embedded_judge(tmp_path: Path) -> None:
    rows = [json.loads(line) for line in AGENT_LOOP_CASES.read_text(encoding="utf-8").splitlines()]
    chosen = [r for r in rows if r["family"] in ("paraphrased_loop", "progress")][:12]
    cases = _lines(tmp_path / "loops.jsonl", chosen)
    out = tmp_path / "out.json"
    result = runner.invoke(app, ["evaluate", str(cases), "--evaluator", "AGENT_LOOP",
                                 "--json", str(out)])
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert {r["id"]: r["fired"] for r in doc["results"]} == {r["id"]: r["label"] for r in chosen}
    assert doc["judge"] == "local" and doc["summary"]["false_positive_rate"] == 0.0


def test_a_judge_that_does_not_answer_the_kind_stops_before_any_case(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    class LoopOnly(ByWords):
        name = "loops-only"
        kinds = frozenset({"loop"})

    monkeypatch.setattr(cli_evaluate, "make_backend", lambda name, **options: LoopOnly())
    cases = _lines(tmp_path / "cases.jsonl", [_run_case("a", "x", True)])
    result = runner.invoke(app, ["evaluate", str(cases), "--evaluator", "off_topic_drift"])
    assert result.exit_code == 2
    assert "judge 'loops-only' does not answer 'off_topic_drift' questions" in result.stderr


def test_an_unknown_evaluator_or_judge_is_refused(tmp_path: Path) -> None:
    cases = _lines(tmp_path / "cases.jsonl", [_run_case("a", "x", True)])
    result = runner.invoke(app, ["evaluate", str(cases), "--evaluator", "loopiness"])
    assert result.exit_code == 2 and "unknown evaluator 'loopiness'" in result.stderr
    result = runner.invoke(app, ["evaluate", str(cases), "--evaluator", "agent_loop",
                                 "--judge", "oracle"])
    assert result.exit_code == 2 and "unknown judge 'oracle'" in result.stderr


def test_calibrate_writes_the_report_and_histogram(tmp_path: Path) -> None:
    rows = AGENT_LOOP_CASES.read_text(encoding="utf-8").splitlines()
    dataset = tmp_path / "agent_loop.jsonl"
    dataset.write_text("\n".join(rows[::6]) + "\n", encoding="utf-8")
    out_dir = tmp_path / "reports"
    args = ["calibrate", "agent_loop", "--dataset", str(dataset), "--out-dir", str(out_dir),
            "--note", "A sample of the tuned sets."]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    report = (out_dir / "agent_loop.md").read_text(encoding="utf-8")
    png = (out_dir / "agent_loop.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 5000
    for needle in ("# AGENT_LOOP calibration (local judge)", "A sample of the tuned sets.",
                   (f"Generated by `semloop calibrate agent_loop --dataset {dataset} "
                    f"--out-dir {out_dir}`"),
                   "- margin between the means: +", "![score histogram](agent_loop.png)",
                   "| false-positive rate | ", "95% CI", "## Threshold sweep",
                   "Lowest threshold with zero false positives:", "- cost: $0.000000 mean",
                   "ms median"):
        assert needle in report, needle
    again = runner.invoke(app, args)
    assert again.exit_code == 0
    second = (out_dir / "agent_loop.md").read_text(encoding="utf-8")

    def stable(text: str) -> list[str]:
        return [line for line in text.splitlines() if not line.startswith("- latency")]

    assert stable(second) == stable(report)


def test_calibrate_without_a_dataset_says_where_it_looked(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["calibrate", "hallucination"])
    assert result.exit_code == 2
    assert "no dataset at calibration/hallucination.jsonl" in result.stderr


def test_run_cases_keep_their_shape_through_the_cli_reader(tmp_path: Path) -> None:
    cases = _lines(tmp_path / "c.jsonl", [_run_case("a", "x", True)])
    [case], errors, notes = cli_evaluate.load_cases(cases, "run")
    assert errors == notes == [] and isinstance(case, RunCase)
    assert case.context == ("Refunds within 30 days.",)


@pytest.mark.parametrize("fixture", ["deepeval_api.json", "otlp_genai.pb",
                                     "langsmith_run_tree.json"])
def test_trace_exports_of_other_tools_are_read_as_their_runs(tmp_path: Path, fixture: str) -> None:
    source = ROOT / "tests" / "formats" / "fixtures" / fixture
    out = tmp_path / "out.json"
    result = runner.invoke(app, ["evaluate", str(source), "--evaluator", "agent_loop",
                                 "--json", str(out)])
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["results"] and all(r["confidence"] is not None for r in doc["results"])
    assert doc["errors"] == []


def test_calibrate_writes_no_report_when_every_evaluation_failed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    class Down(ByWords):
        def ask(self, state: Any, questions: Mapping[str, Any]) -> JudgeResponse:
            raise ConnectionError("judge host unreachable")

    monkeypatch.setattr(cli_evaluate, "make_backend", lambda name, **options: Down())
    dataset = _lines(tmp_path / "h.jsonl", [_run_case("a", "x", True), _run_case("b", "y", False)])
    result = runner.invoke(app, ["calibrate", "hallucination", "--dataset", str(dataset),
                                 "--out-dir", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "every evaluation failed" in result.stderr and "judge host unreachable" in result.stderr
    assert not (tmp_path / "out" / "hallucination.md").exists()
