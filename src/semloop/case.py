"""Evaluation cases: what a semantic evaluator reads about a run or a conversation.

A :class:`RunCase` is one finished run seen as a task: the user's request, the final
answer, the context the agent retrieved and the tools it called. A
:class:`ConversationCase` is a conversation's turns in order. Both are built from stored
events by the evaluators, or read from a JSONL file of cases (``semloop evaluate``).

These are plain frozen dataclasses with the standard library only, so judges (the
embedded one included) and evaluators can share them without importing each other.

On the wire to a judge a case is its *state*: :meth:`RunCase.to_state` gives
``{"input", "output", "context", "tools_called", "steps"}`` (and ``"told"`` when the user
said more) and
:meth:`ConversationCase.to_state` gives ``{"turns": [{"role", "content"}]}``; the
``from_state`` class methods read them back. An evaluator's question names its ``kind``
(the evaluator's name in lower case, e.g. ``"hallucination"``) and is answered with a
``noul`` whose value is P(the failure happened).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["ConversationCase", "RunCase", "ToolCall", "Turn"]


@dataclass(frozen=True)
class ToolCall:
    """One tool call: its name, arguments, what it returned and whether it succeeded.

    ``success`` is ``None`` when the source did not say.
    """

    name: str
    args: Mapping[str, Any] = field(default_factory=dict)
    output: str = ""
    success: bool | None = None


@dataclass(frozen=True)
class RunCase:
    """A run as a task: ``input`` asked, ``output`` answered, with its evidence.

    ``context`` holds retrieved documents (and any other trusted text the agent was
    given); tool outputs are in ``tools_called``. ``steps`` are the agent's own
    intermediate texts (LLM outputs before the final answer), in order, where known.
    ``told`` is what the user stated after ``input`` (a chat's later messages): facts the
    answer may repeat, never the request; only HALLUCINATION reads it, since a request the
    user changed later is no other task.
    ``reasons`` are the sentences of the agent's instructions (a policy) that share the
    answer's words: rules the answer may give as its reasons, never facts of the run; only
    HALLUCINATION reads them, as the source of a cause the answer states.
    ``label`` is ``True`` when the case is a known positive (the failure happened).
    """

    id: str
    input: str
    output: str
    context: tuple[str, ...] = ()
    tools_called: tuple[ToolCall, ...] = ()
    steps: tuple[str, ...] = ()
    label: bool | None = None
    told: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()

    @property
    def grounded(self) -> bool:
        """Whether it holds anything to check the answer against: a non-empty context
        entry or tool output."""
        return any(c.strip() for c in self.context) or any(
            t.output.strip() for t in self.tools_called)

    def to_state(self) -> dict[str, Any]:
        return {
            "input": self.input,
            "output": self.output,
            "context": list(self.context),
            "tools_called": [
                {"name": t.name, "args": dict(t.args), "output": t.output, "success": t.success}
                for t in self.tools_called
            ],
            "steps": list(self.steps),
        } | ({"told": list(self.told)} if self.told else {}) | (
            {"reasons": list(self.reasons)} if self.reasons else {})

    @classmethod
    def from_state(cls, state: Mapping[str, Any], *, id: str = "") -> RunCase:
        return cls(
            id=id,
            input=str(state.get("input") or ""),
            output=str(state.get("output") or ""),
            context=tuple(str(c) for c in state.get("context") or ()),
            tools_called=tuple(
                ToolCall(
                    name=str(t.get("name") or ""),
                    args=dict(t.get("args") or {}),
                    output=str(t.get("output") or ""),
                    success=t.get("success"),
                )
                for t in state.get("tools_called") or ()
            ),
            steps=tuple(str(s) for s in state.get("steps") or ()),
            told=tuple(str(s) for s in state.get("told") or ()),
            reasons=tuple(str(s) for s in state.get("reasons") or ()),
        )


@dataclass(frozen=True)
class Turn:
    """One message of a conversation."""

    role: Literal["user", "assistant"]
    content: str


@dataclass(frozen=True)
class ConversationCase:
    """A conversation's turns, oldest first. ``label`` as in :class:`RunCase`."""

    id: str
    turns: tuple[Turn, ...]
    label: bool | None = None

    def to_state(self) -> dict[str, Any]:
        return {"turns": [{"role": t.role, "content": t.content} for t in self.turns]}

    @classmethod
    def from_state(cls, state: Mapping[str, Any], *, id: str = "") -> ConversationCase:
        return cls(
            id=id,
            turns=tuple(
                Turn(
                    role="user" if t.get("role") == "user" else "assistant",
                    content=str(t.get("content") or ""),
                )
                for t in state.get("turns") or ()
            ),
        )

    def user_turns(self) -> tuple[tuple[int, Turn], ...]:
        """The user's turns with their index in :attr:`turns`."""
        return tuple((i, t) for i, t in enumerate(self.turns) if t.role == "user")

    def assistant_turns(self) -> tuple[tuple[int, Turn], ...]:
        """The assistant's turns with their index in :attr:`turns`."""
        return tuple((i, t) for i, t in enumerate(self.turns) if t.role == "assistant")
