"""LocalBackend speaks the Backend contract: every question family, errors for the rest."""

from __future__ import annotations

import pytest

from semloop import JudgeAnswerError
from semloop.judge import Backend
from semloop.judge.local import LocalBackend
from semloop.judge.registry import make_backend
from semloop.semantic import SemanticLoopDetection
from semloop.trace import Trace

from .conftest import SEED_DATASET, read_rows


def _state_and_questions(family: str) -> tuple[dict, dict]:
    row = next(r for r in read_rows(SEED_DATASET) if r["family"] == family)
    state, questions, _ = SemanticLoopDetection(LocalBackendStub()).questions_for(
        Trace.from_dict(row)
    )
    return state, questions


class LocalBackendStub:
    name = "stub"

    def ask(self, state, questions):  # pragma: no cover - never called by questions_for
        raise AssertionError("questions_for must not ask")


def test_is_a_backend_with_zero_cost(backend: LocalBackend) -> None:
    assert isinstance(backend, Backend)
    assert backend.name == "local"
    state, questions = _state_and_questions("alternating_loop")
    response = backend.ask(state, questions)
    assert set(response.answers) == set(questions)
    assert response.cost_usd == 0.0
    assert response.latency_ms > 0.0
    assert response.model.startswith("local:")


def test_answers_every_family_with_probabilities(backend: LocalBackend) -> None:
    state, questions = _state_and_questions("cosmetic_args_loop")
    kinds = {qid.split("_")[0] for qid in questions}
    assert {"progress", "revisit", "tool", "stagnation"} <= kinds
    answers = backend.ask(state, questions).answers
    for qid, answer in answers.items():
        if qid == "stagnation":
            assert answer.type == "score"
            assert set(answer.probabilities) == {0, 1, 2, 3}
            assert sum(answer.probabilities.values()) == pytest.approx(1.0, abs=1e-3)
            assert answer.value >= 2.0  # six searches for the same thing: circling or stuck
        else:
            assert answer.type == "noul"
            assert 0.0 <= answer.value <= 1.0
            assert answer.probability == max(answer.value, 1 - answer.value)
    assert answers["tool_repeat_grep"].value > 0.85


def test_unknown_question_id_is_an_error(backend: LocalBackend) -> None:
    state, _ = _state_and_questions("progress")
    with pytest.raises(JudgeAnswerError, match="is_spam"):
        backend.ask(state, {"is_spam": {"type": "noul", "instructions": "?"}})


def test_pair_question_outside_the_steps_is_an_error(backend: LocalBackend) -> None:
    state, _ = _state_and_questions("progress")
    with pytest.raises(JudgeAnswerError, match="outside"):
        backend.ask(state, {"progress_5_99": {"type": "noul"}})


@pytest.mark.parametrize("state", [None, "text", {"goal": "g"}, {"steps": [1, 2]}])
def test_malformed_state_is_an_error(backend: LocalBackend, state: object) -> None:
    with pytest.raises(JudgeAnswerError):
        backend.ask(state, {"progress_0_1": {"type": "noul"}})  # type: ignore[arg-type]


def test_no_questions_means_no_work(backend: LocalBackend) -> None:
    response = backend.ask({"goal": "", "steps": []}, {})
    assert response.answers == {}


def test_tool_question_falls_back_to_the_listed_inputs(backend: LocalBackend) -> None:
    state = {
        "goal": "g",
        "steps": [],
        "tool_calls": {"lookup": ['{"id": "A-1"}', '{"id": "A-2"}', '{"id": "A-3"}']},
    }
    answers = backend.ask(state, {"tool_repeat_lookup": {"type": "noul"}}).answers
    assert answers["tool_repeat_lookup"].value < 0.2  # three different records


def test_registry_builds_it_by_name() -> None:
    backend = make_backend("local", threads=1)
    assert isinstance(backend, LocalBackend)
    assert backend.threads == 1


def test_pairs_further_apart_than_the_history_window_are_answered(backend: LocalBackend) -> None:
    steps = [
        {"index": k, "type": "tool", "name": "get", "input": f'{{"id": {k % 70}}}', "output": "x"}
        for k in range(75)
    ]
    answers = backend.ask(
        {"goal": "g", "steps": steps},
        {
            "revisit_0_70": {"type": "noul"},
            "revisit_0_69": {"type": "noul"},
            "progress_0_70": {"type": "noul"},
        },
    ).answers
    assert answers["revisit_0_70"].value > 0.9  # id 0 again, 70 steps later
    assert answers["revisit_0_69"].value < 0.1
    assert answers["progress_0_70"].value < 0.1
