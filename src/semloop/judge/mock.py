"""A scripted judge for tests and demos: answers come from a mapping of question ids.

An unscripted question is an error unless ``default`` is given: a silent default would let
a test pass while asking the wrong questions.
"""

from __future__ import annotations

import fnmatch
import math
from collections.abc import Iterable, Mapping
from typing import Any

from .._exceptions import JudgeAnswerError
from ._kinds import ALL_KINDS, LOOP_KIND, require_kinds
from ._types import Answer, JudgeResponse, Question, State

__all__ = ["MockBackend"]

# How sure the mock says it is of a scripted choice or score; the rest is spread evenly.
_SCRIPTED_MASS = 0.9


class MockBackend:
    """Answers each question from ``answers``, keyed by exact id or fnmatch pattern.

    Values: a P(yes) in [0, 1] for ``noul``, a label for ``choice``, a level for ``score``,
    or a ready :class:`Answer`. Exact ids win over patterns; among patterns the longest
    matching one wins. ``default`` answers every unscripted question; without it an
    unscripted question raises :class:`JudgeAnswerError`.

    ``kinds`` declares the question kinds it answers. By default that is what it was
    scripted for: loop questions, plus each evaluator kind scripted by its question id
    (an evaluator asks one question whose id is its kind, e.g. ``"hallucination"``);
    with ``default`` it answers every kind. Another kind raises
    :class:`~semloop.UnsupportedQuestionError`.
    """

    name = "mock"

    def __init__(
        self,
        answers: Mapping[str, Any] | None = None,
        *,
        default: float | None = None,
        input_tokens: int = 0,
        kinds: Iterable[str] | None = None,
    ) -> None:
        self.answers: dict[str, Any] = dict(answers or {})
        self.default = default
        if kinds is not None:
            self.kinds = frozenset(kinds)
        elif default is not None:
            self.kinds = ALL_KINDS
        else:
            self.kinds = frozenset({LOOP_KIND}) | (ALL_KINDS & set(self.answers))
        self.input_tokens = input_tokens
        self.calls: list[dict[str, Any]] = []
        # Longest pattern first so "progress_1_*" beats "progress_*" beats "*".
        self._patterns = sorted(
            (k for k in self.answers if _is_pattern(k)), key=len, reverse=True
        )

    def ask(self, state: State, questions: Mapping[str, Question]) -> JudgeResponse:
        require_kinds(self, questions)
        self.calls.append({"state": state, "questions": dict(questions)})
        answers = {qid: self._answer(qid, question) for qid, question in questions.items()}
        return JudgeResponse(answers=answers, input_tokens=self.input_tokens, model="mock")

    def _scripted(self, qid: str) -> Any:
        if qid in self.answers:
            return self.answers[qid]
        for pattern in self._patterns:
            if fnmatch.fnmatchcase(qid, pattern):
                return self.answers[pattern]
        if self.default is not None:
            return self.default
        raise JudgeAnswerError(
            f"MockBackend has no scripted answer for question {qid!r} and no default"
        )

    def _answer(self, qid: str, question: Question) -> Answer:
        raw = self._scripted(qid)
        if isinstance(raw, Answer):
            return raw
        kind = question.get("type", "noul")
        if kind == "noul":
            return _noul(qid, raw)
        if kind == "choice":
            return _choice(qid, raw, question.get("criteria"))
        if kind == "score":
            return _score(qid, raw, question.get("criteria"))
        raise JudgeAnswerError(f"MockBackend cannot answer question {qid!r} of type {kind!r}")


def _is_pattern(key: str) -> bool:
    return any(c in key for c in "*?[")


def _noul(qid: str, raw: Any) -> Answer:
    if isinstance(raw, bool):
        raw = 1.0 if raw else 0.0
    if not isinstance(raw, (int, float)) or not 0.0 <= float(raw) <= 1.0:
        raise JudgeAnswerError(f"scripted noul answer for {qid!r} must be in [0, 1], got {raw!r}")
    p = float(raw)
    return Answer(type="noul", value=p, probability=max(p, 1.0 - p),
                  probabilities={True: p, False: 1.0 - p})


def _spread(options: list[Any], chosen: Any) -> dict[Any, float]:
    if len(options) == 1:
        return {chosen: 1.0}
    rest = (1.0 - _SCRIPTED_MASS) / (len(options) - 1)
    return {o: (_SCRIPTED_MASS if o == chosen else rest) for o in options}


def _choice(qid: str, raw: Any, criteria: Any) -> Answer:
    if not isinstance(criteria, Mapping) or not criteria:
        raise JudgeAnswerError(f"choice question {qid!r} has no criteria labels")
    labels = [str(k) for k in criteria]
    # A string names the label; anything else (a numeric default) picks the first one.
    label = raw if isinstance(raw, str) else labels[0]
    if label not in labels:
        raise JudgeAnswerError(f"scripted choice {label!r} for {qid!r} is not one of {labels}")
    probs = _spread(labels, label)
    return Answer(type="choice", value=label, probability=probs[label], probabilities=probs,
                  confidence=probs[label])


def _score(qid: str, raw: Any, criteria: Any) -> Answer:
    if not isinstance(criteria, list) or not criteria:
        raise JudgeAnswerError(f"score question {qid!r} has no criteria levels")
    if isinstance(raw, bool) or not isinstance(raw, (int, float)) or not math.isfinite(raw):
        raise JudgeAnswerError(f"scripted score for {qid!r} must be a level, got {raw!r}")
    level = int(raw)
    if not 0 <= level < len(criteria):
        raise JudgeAnswerError(
            f"scripted score {raw!r} for {qid!r} is outside levels 0..{len(criteria) - 1}"
        )
    probs = _spread(list(range(len(criteria))), level)
    return Answer(type="score", value=float(level), probability=probs[level],
                  probabilities=probs, confidence=probs[level])
