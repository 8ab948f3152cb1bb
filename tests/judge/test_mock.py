"""MockBackend: scripted answers, patterns, and loud failure on unscripted questions."""

from __future__ import annotations

import pytest

from semloop._exceptions import JudgeAnswerError
from semloop.judge._types import Answer, Backend
from semloop.judge.mock import MockBackend

NOUL = {"type": "noul", "instructions": "x"}
CHOICE = {"type": "choice", "criteria": {"billing": None, "shipping": "s", "other": None}}
SCORE = {"type": "score", "criteria": ["none", "some", "lots", "all"]}


def test_is_a_backend_and_records_calls() -> None:
    mock = MockBackend({"q": 0.8})
    assert isinstance(mock, Backend)
    assert mock.name == "mock"
    mock.ask("the state", {"q": NOUL})
    assert mock.calls == [{"state": "the state", "questions": {"q": NOUL}}]


def test_noul_answer_shape() -> None:
    answer = MockBackend({"q": 0.3}).ask("s", {"q": NOUL}).answers["q"]
    assert answer == Answer(type="noul", value=0.3, probability=0.7,
                            probabilities={True: 0.3, False: 0.7})
    assert not answer.is_yes


def test_exact_id_beats_pattern_and_longest_pattern_wins() -> None:
    mock = MockBackend({"*": 0.5, "progress_*": 0.1, "progress_1_*": 0.2, "progress_0_1": 0.9})
    response = mock.ask("s", {k: NOUL for k in ("progress_0_1", "progress_1_2",
                                                  "progress_2_3", "revisit_0_2")})
    values = {k: a.value for k, a in response.answers.items()}
    assert values == {"progress_0_1": 0.9, "progress_1_2": 0.2, "progress_2_3": 0.1,
                      "revisit_0_2": 0.5}


def test_unscripted_question_is_an_error_naming_the_id() -> None:
    with pytest.raises(JudgeAnswerError, match="revisit_0_2"):
        MockBackend({"progress_*": 0.9}).ask("s", {"progress_0_1": NOUL, "revisit_0_2": NOUL})


def test_default_answers_unscripted_questions() -> None:
    response = MockBackend(default=0.0, input_tokens=42).ask(
        "s", {"a": NOUL, "c": CHOICE, "stagnation": SCORE})
    assert response.answers["a"].value == 0.0
    assert response.answers["c"].value == "billing"
    assert response.answers["stagnation"].value == 0.0
    assert response.input_tokens == 42
    assert response.model == "mock"
    assert response.cost_usd == 0.0


def test_choice_and_score_spread_the_remaining_mass() -> None:
    response = MockBackend({"c": "shipping", "s": 2}).ask("s", {"c": CHOICE, "s": SCORE})
    choice, score = response.answers["c"], response.answers["s"]
    assert choice.value == "shipping" and choice.probability == pytest.approx(0.9)
    assert choice.probabilities["other"] == pytest.approx(0.05)
    assert score.value == 2.0 and score.probabilities[2] == pytest.approx(0.9)
    assert score.probabilities[0] == pytest.approx(0.1 / 3)
    assert sum(score.probabilities.values()) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("script", "question", "fragment"),
    [
        ({"q": 1.5}, NOUL, "in \\[0, 1\\]"),
        ({"q": "yes"}, NOUL, "in \\[0, 1\\]"),
        ({"q": "refund"}, CHOICE, "not one of"),
        ({"q": 4}, SCORE, "outside levels"),
        ({"q": 0.5}, {"type": "box", "instructions": "x"}, "type 'box'"),
    ],
)
def test_bad_scripts_are_errors(script: dict[str, object], question: dict[str, object],
                                fragment: str) -> None:
    with pytest.raises(JudgeAnswerError, match=fragment):
        MockBackend(script).ask("s", {"q": question})


def test_a_ready_answer_passes_through() -> None:
    ready = Answer(type="noul", value=0.55, probability=0.55)
    assert MockBackend({"q": ready}).ask("s", {"q": NOUL}).answers["q"] is ready
