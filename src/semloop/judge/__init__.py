"""Judge backends: the same ``ask(state, questions)`` over different judges."""

from ._types import Answer, Backend, JudgeResponse, Question, State

__all__ = ["Answer", "Backend", "JudgeResponse", "Question", "State"]
