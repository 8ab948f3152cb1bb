"""The trace model the loop detectors read: a tree of :class:`Span` under a goal.

A :class:`Trace` is what the library scores. It can be built from deepeval's nested
``_trace_dict``, from a row of the bench dataset, from a list of steps, or from a run
recorded by the SDK (see :mod:`semloop.events`). Standard library only.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from ._exceptions import TraceFormatError

__all__ = ["Span", "Trace", "read_traces"]

_T = TypeVar("_T")


def render(value: Any) -> str:
    """Text of a span's input or output, as a judge reads it."""
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    try:
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)


@dataclass
class Span:
    """One node of a trace: an agent, an LLM call, a tool call or a retrieval."""

    type: str = "unknown"
    name: str = "unnamed"
    input: Any = ""
    output: Any = ""
    children: list[Span] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def input_text(self) -> str:
        return render(self.input)

    @property
    def output_text(self) -> str:
        return render(self.output)

    def walk(self) -> Iterator[Span]:
        """This span and its descendants, depth first, parents before children."""
        stack = [self]
        while stack:
            span = stack.pop()
            yield span
            stack.extend(reversed(span.children))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "type": self.type,
            "name": self.name,
            "input": self.input,
            "output": self.output,
            "children": [child.to_dict() for child in self.children],
        }
        if self.metadata:
            out["metadata"] = dict(self.metadata)
        return out

    @classmethod
    def from_dict(cls, raw: Any, *, path: str = "root") -> Span:
        """Build a span tree from a dict; ``path`` names the field in errors."""
        if not isinstance(raw, Mapping):
            raise TraceFormatError(
                f"a span must be a JSON object, not {type(raw).__name__}", field=path
            )
        children_raw = raw.get("children") or []
        if not isinstance(children_raw, Sequence) or isinstance(children_raw, (str, bytes)):
            raise TraceFormatError("children must be a list of spans", field=f"{path}.children")
        metadata = raw.get("metadata") or {}
        if not isinstance(metadata, Mapping):
            raise TraceFormatError("metadata must be an object", field=f"{path}.metadata")
        return cls(
            type=str(raw.get("type", "unknown")),
            name=str(raw.get("name", "unnamed")),
            input=raw.get("input", ""),
            output=raw.get("output", ""),
            children=[
                cls.from_dict(child, path=f"{path}.children[{i}]")
                for i, child in enumerate(children_raw)
                if child
            ],
            metadata=dict(metadata),
        )


@dataclass
class Trace:
    """A goal and the tree of spans an agent produced while pursuing it."""

    goal: str
    root: Span
    trace_id: str = ""

    def walk(self) -> Iterator[Span]:
        return self.root.walk()

    def spans_of_type(self, span_type: str) -> list[Span]:
        return [span for span in self.walk() if span.type == span_type]

    @property
    def llm_spans(self) -> list[Span]:
        return self.spans_of_type("llm")

    @property
    def tool_spans(self) -> list[Span]:
        return self.spans_of_type("tool")

    def to_dict(self) -> dict[str, Any]:
        return {"trace_id": self.trace_id, "goal": self.goal, "root": self.root.to_dict()}

    @classmethod
    def from_dict(cls, row: Any) -> Trace:
        """A trace from a bench row: ``{"trace_id", "goal", "root"}``."""
        if not isinstance(row, Mapping):
            raise TraceFormatError(f"a trace must be a JSON object, not {type(row).__name__}")
        if "root" not in row:
            raise TraceFormatError("trace has no root span", field="root")
        goal = row.get("goal", "")
        if not isinstance(goal, str):
            raise TraceFormatError("goal must be a string", field="goal")
        return cls(
            goal=goal,
            root=Span.from_dict(row["root"]),
            trace_id=str(row.get("trace_id", "") or ""),
        )

    @classmethod
    def from_deepeval_trace_dict(
        cls, trace_dict: Any, goal: str = "", trace_id: str = ""
    ) -> Trace:
        """A trace from deepeval's ``LLMTestCase._trace_dict``, which is itself the root span."""
        if not trace_dict:
            raise TraceFormatError("empty deepeval trace dict")
        return cls(goal=goal, root=Span.from_dict(trace_dict), trace_id=trace_id)

    @classmethod
    def from_steps(
        cls,
        goal: str,
        steps: Sequence[Mapping[str, Any]],
        *,
        root_name: str = "agent",
        trace_id: str = "",
    ) -> Trace:
        """A flat trace: each step dict (``type`` defaults to ``llm``) under one agent span."""
        children = []
        for i, step in enumerate(steps):
            if not isinstance(step, Mapping):
                raise TraceFormatError("a step must be an object", field=f"steps[{i}]")
            children.append(
                Span(
                    type=str(step.get("type", "llm")),
                    name=str(step.get("name", "step")),
                    input=step.get("input", ""),
                    output=step.get("output", ""),
                    metadata=dict(step.get("metadata") or {}),
                )
            )
        root = Span(type="agent", name=root_name, input=goal, children=children)
        return cls(goal=goal, root=root, trace_id=trace_id)


def read_traces(path: str | Path) -> Iterator[tuple[dict[str, Any], Trace]]:
    """Each line of a JSONL file of bench rows, with its parsed :class:`Trace`.

    A bad line raises :class:`TraceFormatError` naming the file, the line and the field.
    """
    with open(path, encoding="utf-8") as fh:
        for _, row, trace in parse_jsonl(fh, str(path), Trace.from_dict):
            yield row, trace


def parse_jsonl(
    lines: Iterable[str], source: str, parse: Callable[[Any], _T]
) -> Iterator[tuple[int, Any, _T]]:
    """``(line number, JSON value, parse(value))`` for each non-blank line of JSONL text.

    A line that is not JSON, or that ``parse`` rejects with :class:`TraceFormatError`,
    raises :class:`TraceFormatError` naming ``source`` and the line. Shared by
    :func:`read_traces` and the bench dataset loader so both report bad lines alike.
    """
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            raise TraceFormatError(
                f"not valid JSON ({exc.msg} at column {exc.colno})", source=source, line=lineno
            ) from None
        try:
            parsed = parse(raw)
        except TraceFormatError as exc:
            raise exc.located(source=source, line=lineno) from None
        yield lineno, raw, parsed
