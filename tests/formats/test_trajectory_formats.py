"""SWE-agent, ATIF, mini-swe-agent and tau-bench files, written by us in the shape of the
real ones (field names and nesting; the content is ours)."""

from __future__ import annotations

import json
from pathlib import Path

from semloop.ingest.formats import convert, detect_format

FIXTURES = Path(__file__).parent / "fixtures"
SWE, ATIF, MINI, TAU = (
    json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    for name in ("swe_agent.traj", "atif_trajectory.json", "mini_swe_agent.traj.json",
                 "tau_bench_results.json"))


def _write(tmp_path: Path, name: str, doc: object) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return path


def test_each_shape_is_detected_and_keeps_steps(tmp_path: Path) -> None:
    cases = [("a.traj", SWE, "swe-agent", "Fix the missing colon in calc.py"),
             ("t.json", ATIF, "atif", "Make the tests pass"),
             ("m.traj.json", MINI, "mini-swe-agent", "Fix bug"),
             ("r.json", TAU, "tau-bench", "Cancel my booking")]
    for name, doc, fmt, goal in cases:
        path = _write(tmp_path, name, doc)
        assert detect_format(path) == fmt
        result = convert(path)
        assert not result.rejected, result.rejected
        (run,) = result.runs
        trace = run.to_trace()
        assert trace.goal == goal
        tools = trace.tool_spans
        assert tools and tools[0].output, fmt


def test_tool_outputs_are_matched_by_call_id(tmp_path: Path) -> None:
    trace = convert(_write(tmp_path, "t.json", ATIF)).runs[0].to_trace()
    assert trace.tool_spans[0].output == "1 failed"
    assert json.loads(trace.tool_spans[0].input_text) == {"command": "pytest -q"}


def test_tau2_simulations_are_runs_with_results_matched_by_id(tmp_path: Path) -> None:
    call = {"id": "c1", "name": "get_order", "arguments": {"order_id": "#7"},
            "requestor": "assistant"}
    other = {"id": "c2", "name": "get_user", "arguments": {"user_id": "ann"}}
    sim = {"id": "s1", "task_id": "3", "trial": 1, "reward_info": {"reward": 0.0},
           "messages": [
               {"role": "assistant", "content": "Hi! How can I help?", "tool_calls": None},
               {"role": "user", "content": "Where is order #7?"},
               {"role": "assistant", "content": None, "tool_calls": [call, other]},
               {"id": "c2", "role": "tool", "content": "{\"name\": \"Ann\"}", "error": False},
               {"id": "c1", "role": "tool", "content": "{\"status\": \"shipped\"}"},
               {"role": "assistant", "content": "It has shipped."},
               {"role": "user", "content": "Thanks ###STOP###"}]}
    path = _write(tmp_path, "tau2.json", {"info": {}, "tasks": [], "simulations": [sim]})
    assert detect_format(path) == "tau-bench"
    result = convert(path)
    assert not result.rejected, result.rejected
    (run,) = result.runs
    trace = run.to_trace()
    assert run.run_id == "tau-3-1"
    assert trace.goal == "Where is order #7?"
    assert [(t.name, t.output) for t in trace.tool_spans] == [
        ("get_order", '{"status": "shipped"}'), ("get_user", '{"name": "Ann"}')]


def test_tau2_keeps_the_policy_as_the_system_prompt(tmp_path: Path) -> None:
    # tau2 keeps the policy out of the messages: once for the file (info.environment_info)
    # or beside each simulation's messages (the leaderboard's files); the simulation's own wins.
    def sim(task: str, **extra: object) -> dict[str, object]:
        return {"id": task, "task_id": task, "trial": 0, "reward_info": {"reward": 1.0},
                "messages": [{"role": "user", "content": "Hi"},
                             {"role": "assistant", "content": "Hello."}], **extra}

    doc = {"info": {"environment_info": {"domain_name": "airline", "policy": "# File policy"}},
           "tasks": [], "simulations": [sim("1"), sim("2", policy="# Own policy")]}
    runs = convert(_write(tmp_path, "tau2.json", doc)).runs
    assert [r.started.payload.get("system_prompt") for r in runs if r.started] == [
        "# File policy", "# Own policy"]
    bare = convert(_write(tmp_path, "bare.json", {"simulations": [sim("3")]})).runs
    assert [r.started.payload.get("system_prompt") for r in bare if r.started] == [None]


def test_a_reply_the_text_harness_refused_is_a_format_error_step(tmp_path: Path) -> None:
    refusal = "Please always provide EXACTLY ONE action in triple backticks, found 2 actions."
    doc = {"info": {"exit_status": "Submitted"}, "trajectory_format": "mini-swe-agent-1",
           "messages": [
               {"role": "system", "content": "You are a helpful assistant."},
               {"role": "user", "content": "Fix the parser"},
               {"role": "assistant", "content": "Two steps:\n```bash\nls\n```\n```bash\ncat a.py\n```"},
               {"role": "user", "content": refusal},
               {"role": "assistant", "content": "One step.\n```bash\nls\n```"},
               {"role": "user", "content": "<returncode>0</returncode><output>a.py</output>"},
               {"role": "assistant", "content": "I am done here."}]}
    trace = convert(_write(tmp_path, "m.traj.json", doc)).runs[0].to_trace()
    # Nothing of the refused reply ran: no bash call for its first block, a refusal instead;
    # the last reply, with no command and no answer, leaves no step.
    assert [(t.name, t.input_text, t.output) for t in trace.tool_spans] == [
        ("format_error", "{}", refusal),
        ("bash", '{"command": "ls"}', "<returncode>0</returncode><output>a.py</output>")]


def test_a_tau_bench_result_list_under_a_wrapper_is_read(tmp_path: Path) -> None:
    # Some forks keep the scores beside the runs: {"metrics": {...}, "results": [...]}.
    wrapped = {"metrics": {"avg_reward": 1.0, "pass_hat_ks": {"1": 1.0}}, "results": TAU}
    path = _write(tmp_path, "wrapped.json", wrapped)
    assert detect_format(path) == "tau-bench"
    result = convert(path)
    assert not result.rejected, result.rejected
    plain = convert(_write(tmp_path, "plain.json", TAU))
    assert [r.to_trace().to_dict() for r in result.runs] == [
        r.to_trace().to_dict() for r in plain.runs]


def test_a_tau_bench_wrapper_without_runs_is_a_clear_error(tmp_path: Path) -> None:
    for name, results in (("empty.json", []), ("object.json", {"0": TAU[0]})):
        path = _write(tmp_path, name, {"metrics": {"avg_reward": 0.0}, "results": results})
        result = convert(path, format="tau-bench")
        assert not result.runs
        (error,) = result.rejected
        assert "holds no runs" in str(error) and error.field == "results"
