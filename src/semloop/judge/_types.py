"""What every judge backend speaks: questions in, :class:`Answer` objects out.

Questions use the System One wire format (``noul``, ``choice``, ``score``); see
``docs/judges.md``. A backend answers all the questions about one trace in one
:meth:`Backend.ask` call.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, Union, runtime_checkable

__all__ = ["Answer", "Backend", "JudgeResponse", "Question", "State"]

#: A question as sent on the wire: ``{"type": "noul", "instructions": ..., "criteria": ...}``.
Question = Mapping[str, Any]
#: The content every question refers to: a string, an object or a list.
State = Union[str, Mapping[str, Any], list[Any]]


@dataclass(frozen=True)
class Answer:
    """One answer.

    ``value`` is P(yes) for a ``noul``, the chosen label for a ``choice`` and the expected
    level for a ``score``. ``probability`` is how sure the judge is of that value.
    ``reasoning`` is the judge's explanation, where it gives one: an evaluator's answer
    names the sentence, turn or step it is about.
    """

    type: str
    value: Any
    probability: float
    probabilities: Mapping[Any, float] = field(default_factory=dict)
    confidence: float | None = None
    reasoning: str = ""

    @property
    def is_yes(self) -> bool:
        if self.type != "noul":
            raise TypeError(f"is_yes applies to noul answers, not {self.type}")
        return float(self.value) >= 0.5

    def is_uncertain(self, low: float = 0.4, high: float = 0.6) -> bool:
        if self.type == "noul":
            return low <= float(self.value) <= high
        return self.probability < high


@dataclass(frozen=True)
class JudgeResponse:
    """The answers to one :meth:`Backend.ask` call, with what it cost.

    ``tokens_estimated`` is ``True`` when the host reported no usage for some call and the
    token counts (and so the cost) are semloop's estimate from the text's length.
    """

    answers: Mapping[str, Answer]
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    latency_ms: float = 0.0
    model: str = ""
    tokens_estimated: bool = False


@runtime_checkable
class Backend(Protocol):
    """A judge: answers every question about one state in one call.

    ``kinds`` is the set of question kinds it answers (``"loop"`` for the loop detector's
    questions, an evaluator's name in lower case for its question;
    :mod:`semloop.judge._kinds`). Its ``ask`` raises
    :class:`~semloop.UnsupportedQuestionError` for any other kind, via
    ``semloop.judge.require_kinds``. At run time a backend written before kinds existed
    still works: :func:`~semloop.judge.declared_kinds` reads a missing ``kinds`` as loop
    questions only, which is all such a backend was ever asked.
    """

    name: str
    kinds: frozenset[str]

    def ask(self, state: State, questions: Mapping[str, Question]) -> JudgeResponse: ...
