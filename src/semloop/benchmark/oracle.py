"""The oracle: a scripted judge that answers from the bench family label.

This is NOT a benchmark of any judge. It knows which family generated a trace and answers
every question the way a judge that had read the trace correctly should (the table below
is the seed's). What it shows is that the mechanism — question construction, answer
parsing, score combination, one request per trace — reaches the right verdict when its
questions are answered right. Whether a live judge answers them right is what the
``jev``, ``llm`` and ``local`` columns measure.
"""

from __future__ import annotations

from collections.abc import Mapping

from .._exceptions import ConfigError
from ..judge import LOOP_KIND, Answer, JudgeResponse, Question, State

__all__ = ["FAMILY_ORACLE", "OracleBackend"]

#: family -> (P(yes) for progress_*, for revisit_*, for tool_repeat_*).
FAMILY_ORACLE: dict[str, tuple[float, float, float]] = {
    "paraphrased_loop": (0.04, 0.50, 0.90),
    "terse_loop": (0.04, 0.50, 0.90),
    "alternating_loop": (0.85, 0.90, 0.50),
    "cosmetic_args_loop": (0.90, 0.05, 0.90),
    "verbatim_loop": (0.02, 0.50, 0.90),
    "identical_tool_loop": (0.02, 0.50, 0.95),
    "progress": (0.95, 0.03, 0.05),
    "template_progress": (0.95, 0.03, 0.05),
    "boilerplate_progress": (0.95, 0.03, 0.05),
    "retry_then_recover": (0.80, 0.15, 0.05),
}

_PREFIXES = ("progress_", "revisit_", "tool_repeat_")


class OracleBackend:
    """Answers ``progress_*``, ``revisit_*`` and ``tool_repeat_*`` from the family's row of
    :data:`FAMILY_ORACLE`; leaves every other question (``stagnation``) unanswered."""

    name = "oracle"
    kinds = frozenset({LOOP_KIND})

    def __init__(self, family: str) -> None:
        if family not in FAMILY_ORACLE:
            raise ConfigError(
                f"no oracle answers for family {family!r}; known: {sorted(FAMILY_ORACLE)}",
                key="family",
            )
        self.family = family
        self.calls = 0

    def ask(self, state: State, questions: Mapping[str, Question]) -> JudgeResponse:
        self.calls += 1
        table = FAMILY_ORACLE[self.family]
        answers: dict[str, Answer] = {}
        for qid in questions:
            for prefix, p in zip(_PREFIXES, table):
                if qid.startswith(prefix):
                    answers[qid] = Answer(type="noul", value=p, probability=max(p, 1.0 - p))
                    break
        return JudgeResponse(answers=answers, model=f"oracle:{self.family}")
