"""Fixtures for the local judge: one loaded backend and one embedder per session, the three
datasets."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import REFERENCE_DATASET  # tests/conftest.py, the shared one
from semloop.case import ConversationCase, RunCase, ToolCall, Turn
from semloop.judge.local import LocalBackend
from semloop.judge.local._answerer import Embed
from semloop.judge.local._drift import off_topic_evidence
from semloop.judge.local._grounding import hallucination_evidence
from semloop.judge.local._head import head_answer
from semloop.judge.local._model import Embedder
from semloop.judge.local._understanding import answer_task_understanding_failure
from semloop.semantic import SemanticLoopDetection
from semloop.trace import Trace

ROOT = Path(__file__).resolve().parents[2]
SEED_DATASET = REFERENCE_DATASET
BENCH_DATASET = ROOT / "bench" / "dataset.jsonl"
WILD_DATASET = ROOT / "bench" / "wild.jsonl"


def read_rows(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        pytest.fail(f"{path} is missing: it is part of the repository (or the shared reference)")
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def run_at_once(commands: list[list[str]], *, envs: list[dict[str, str]] | None = None,
                timeout: float = 240) -> list[str]:
    """The stdout of each command, run side by side rather than one after another (each is
    mostly start-up: imports, and the model's load); a failure fails as ``check=True`` does."""
    procs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=envs[i] if envs else None)
             for i, command in enumerate(commands)]
    try:
        outputs = []
        for proc, command in zip(procs, commands):
            out, err = proc.communicate(timeout=timeout)
            if proc.returncode:
                raise subprocess.CalledProcessError(proc.returncode, command, out, err)
            outputs.append(out)
        return outputs
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()


def found(embed: Embed, question: str, answer: str, context: str | tuple[str, ...] = "",
          tool: object = "", calls: tuple[ToolCall, ...] = ()) -> dict[str, float]:
    """What HALLUCINATION's checks find in one answer (the evidence its head weighs): over a
    document (or several passages), one tool's output (text as given, anything else as its
    JSON), or calls."""
    if tool != "":
        output = tool if isinstance(tool, str) else json.dumps(tool)
        calls = (ToolCall(name="lookup", args={}, output=output, success=True), *calls)
    docs = (context,) if isinstance(context, str) else context
    case = RunCase(id="check", input=question, output=answer,
                   context=tuple(d for d in docs if d), tools_called=calls)
    return hallucination_evidence(case, embed).features


@pytest.fixture(scope="session")
def backend() -> Iterator[LocalBackend]:
    yield LocalBackend()


@pytest.fixture(scope="session")
def embed() -> Iterator[Embed]:
    """The model's ``embed``, for the rules that take one (vectors do not depend on what
    was embedded before, so one cache may serve every test)."""
    yield Embedder().embed


def measure(backend: LocalBackend, row: dict[str, Any]) -> Any:
    return SemanticLoopDetection(backend).measure(Trace.from_dict(row))


def drift_rules(case: RunCase, embed: Embed) -> float:
    """OFF_TOPIC_DRIFT's rules alone, their head at 0.5: what a drift rule's test checks (the
    answer weighs the topic head beside them, ``_topic.py``)."""
    return float(head_answer("off_topic_drift", off_topic_evidence(case, embed), "").value)


def case(inp: str, out: str, *calls: ToolCall, steps: tuple[str, ...] = ()) -> RunCase:
    """A run case for a rule's probe: the request, the answer, its calls."""
    return RunCase(id="probe", input=inp, output=out, context=(), tools_called=calls, steps=steps)


def call(name: str, args: dict[str, object], output: object, success: bool = True) -> ToolCall:
    """A tool call whose output is given as text or as the JSON a real tool returns."""
    return ToolCall(name, args, output if isinstance(output, str) else json.dumps(output), success)


def chat(*turns: str) -> ConversationCase:
    """A conversation for a rule's probe: the turns in order, the user's first."""
    return ConversationCase(id="probe", turns=tuple(Turn("user" if i % 2 == 0 else "assistant", t)
                                                     for i, t in enumerate(turns)))


def understanding(run: RunCase, embed: Embed) -> float:
    """TASK_UNDERSTANDING_FAILURE's answer on the run, as its value."""
    return float(answer_task_understanding_failure(run, embed).value)
