"""An exact port of deepeval 4.3.1's ``AgentLoopDetectionMetric``, standard library only.

Same arguments, defaults, score, success, reason and ``score_breakdown`` as deepeval for
every input (see ``docs/lexical.md`` and the spec ``deepeval-agent-loop-detection.md``);
``tests/lexical/`` checks that against deepeval itself. The three sub-signals are public
functions so the judged detector (:mod:`semloop.evaluate.loop`) can reuse them.

The only thing changed is speed: deepeval spends nearly all its time in
``difflib.SequenceMatcher``; :mod:`semloop._lexical_ratio` skips or shortcuts that work
whenever it can prove the result cannot change.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ._exceptions import TraceFormatError
from ._lexical_ratio import Output, best_adjacent
from .trace import Trace

if TYPE_CHECKING:
    from .judge import Answer

__all__ = [
    "MIN_MEANINGFUL_WORDS",
    "STOP_WORDS",
    "WEIGHTS",
    "LexicalLoopDetection",
    "LoopResult",
    "call_key",
    "combine_scores",
    "flatten",
    "lexical_loop_score",
    "score_call_graph_cycles",
    "score_reasoning_stagnation",
    "score_tool_repetition",
]

#: deepeval's fixed weights; their order is also the order the sums accumulate in.
WEIGHTS: dict[str, float] = {
    "tool_repetition": 0.40,
    "reasoning_stagnation": 0.35,
    "call_graph_cycles": 0.25,
}

NO_TRACE_REASON = "No trace data found. This metric requires trace data from @observe."
NO_LOOP_REASON = "No loop patterns detected."
FALLBACK_REASON = "Loops detected but no explicit reason provided."
SKIPPED_REASONS: dict[str, str] = {
    "tool_repetition": "Tool repetition check skipped.",
    "reasoning_stagnation": "Reasoning stagnation check skipped.",
    "call_graph_cycles": "Call graph cycles check skipped.",
}

# deepeval's 45 stop words. Only those longer than two characters can ever matter,
# because shorter tokens are dropped anyway; all 45 are kept so the list reads as specified.
# fmt: off
STOP_WORDS = frozenset([
    "the", "a", "an", "is", "are", "was", "were", "i", "will", "now", "based", "on",
    "information", "provided", "to", "of", "in", "and", "that", "this", "with", "for", "it",
    "my", "next", "step", "going", "so", "do", "be", "have", "has", "not", "but", "as", "or",
    "from", "at", "by", "about", "above", "below", "up", "its", "let",
])
# fmt: on
MIN_MEANINGFUL_WORDS = 20
IDENTICAL_ABOVE = 0.95
LABEL_INPUT_CHARS = 64
# json.dumps(x, sort_keys=True) builds this encoder on every call; the output is the same.
_SORTED_JSON = json.JSONEncoder(sort_keys=True)


@dataclass
class LoopResult:
    """A loop verdict. ``score`` runs from 0.0 (severe looping) to 1.0 (clean)."""

    score: float
    success: bool | None
    reason: str
    score_breakdown: dict[str, float] | None
    sub_reasons: dict[str, str] = field(default_factory=dict)
    undecided: bool = False
    cost_usd: float = 0.0
    latency_ms: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    answers: Mapping[str, Answer] = field(default_factory=dict)

    def flags_loop(self, threshold: float = 0.5) -> bool:
        """True when the score is below ``threshold``."""
        return self.score < threshold


def _children(span: Mapping[str, Any]) -> Sequence[Any]:
    children = span.get("children", [])
    if not isinstance(children, (list, tuple)):
        raise TraceFormatError(
            f"children must be a list of spans, not {type(children).__name__}", field="children"
        )
    return children


def flatten(root: Mapping[str, Any] | None) -> list[Mapping[str, Any]]:
    """Every span of the tree, parents before children; falsy nodes are skipped."""
    spans: list[Mapping[str, Any]] = []
    if not root:
        return spans
    stack: list[Any] = [root]
    while stack:
        span = stack.pop()
        if not span:
            continue
        if type(span) is not dict and not isinstance(span, Mapping):  # dict: no ABC check
            raise TraceFormatError(f"a span must be an object, not {type(span).__name__}")
        spans.append(span)
        stack.extend(reversed(_children(span)))
    return spans


# Text json.loads must reject, found without paying for its exception: an object whose
# first key is not a double-quoted string (Python's str() of a dict), or a bare word
# JSON cannot start with.
_NOT_JSON = re.compile(r"[ \t\n\r]*(?:\{[ \t\n\r]*[^\"}\s]|[^\s\[{\"\-0-9tfnNI])")


def call_key(span: Mapping[str, Any]) -> tuple[Any, tuple[str, ...] | tuple[tuple[str, str], ...]]:
    """The key deepeval counts a tool call under: its name and its arguments, parsed from
    JSON text when they parse, with every value passed through ``str()``."""
    value = span.get("input", {})
    if isinstance(value, str) and not _NOT_JSON.match(value):
        # deepeval keeps any string it cannot parse (even one nested too deep) as it is.
        with contextlib.suppress(Exception):
            value = json.loads(value)
    if isinstance(value, dict):
        return span.get("name", ""), tuple(sorted((str(k), str(v)) for k, v in value.items()))
    return span.get("name", ""), (str(value),)


def score_tool_repetition(
    tool_spans: Sequence[Mapping[str, Any]], repetition_threshold: int = 3
) -> tuple[float, str]:
    """Identical ``(name, arguments)`` calls counted over the whole tree."""
    if not tool_spans:
        return 1.0, "No tool spans found."
    counts: dict[Any, int] = {}
    for span in tool_spans:
        key = call_key(span)
        counts[key] = counts.get(key, 0) + 1
    # max() keeps the first of equal counts, i.e. the first call seen in pre-order.
    (name, _), count = max(counts.items(), key=lambda item: item[1])
    if count >= repetition_threshold * 2:
        return 0.0, f"Tool '{name}' called {count} times with identical arguments."
    if count >= repetition_threshold:
        return 0.5, f"Tool '{name}' called {count} times with identical arguments."
    return 1.0, "Tool calls are within acceptable repetition limits."


def _meaningful(output: Any) -> Output | None:
    """An LLM output's cleaned words, or None when deepeval skips it: not a string, or
    fewer than 20 words left after dropping stop words and words of two characters."""
    if not isinstance(output, str):
        return None
    words = output.lower().split()
    if len(words) < MIN_MEANINGFUL_WORDS:
        return None  # cleaning only drops words
    if STOP_WORDS.isdisjoint(words[:16]):
        # Often nothing is dropped (identifiers, tokens, other languages): then checks at C
        # speed replace a Python test per word, and the set they need is the vocabulary
        # the pair bounds need anyway. Prose fails the first check at once.
        vocabulary = set(words)
        if STOP_WORDS.isdisjoint(vocabulary) and min(map(len, vocabulary)) > 2:
            return Output(words, vocabulary)
    words = [w for w in words if len(w) > 2 and w not in STOP_WORDS]
    return Output(words) if len(words) >= MIN_MEANINGFUL_WORDS else None


def score_reasoning_stagnation(
    llm_spans: Sequence[Mapping[str, Any]], similarity_threshold: float = 0.85
) -> tuple[float, str]:
    """The most similar pair of adjacent LLM outputs (max of bigram Jaccard and difflib)."""
    if len(llm_spans) < 2:
        return 1.0, "Not enough LLM spans to check for reasoning stagnation."
    # Streamed: deepeval skips a pair when either output is not a string or has fewer
    # than 20 meaningful words, so such an output is None here.
    cleaned = (_meaningful(span.get("output", "")) for span in llm_spans)
    best, i = best_adjacent(cleaned, similarity_threshold)
    if best >= similarity_threshold:
        # No pair at all is (-1, -1) in deepeval, reachable only with a threshold <= 0.
        j = i + 1 if i >= 0 else -1
        if best > IDENTICAL_ABOVE:
            return 0.0, f"Identical reasoning outputs at steps {i} and {j}."
        return 0.5, f"High reasoning overlap ({best:.2f}) at steps {i} and {j}."
    return 1.0, "No reasoning stagnation."


def _input_label(span: Mapping[str, Any]) -> str:
    raw = span.get("input", "")
    if isinstance(raw, dict):
        try:
            raw = _SORTED_JSON.encode(raw)
        except (TypeError, ValueError):
            raw = str(raw)
    return str(raw)[:LABEL_INPUT_CHARS]


def _label(span: Mapping[str, Any]) -> str:
    return f"{_label_prefix(span)}{_input_label(span)}"


def _label_prefix(span: Mapping[str, Any]) -> str:
    return f"{span.get('type', 'unknown')}:{span.get('name', 'unnamed')}:"


def score_call_graph_cycles(root: Mapping[str, Any] | None) -> tuple[float, str]:
    """A span whose ``type:name:input[:64]`` label repeats one of its ancestors'."""
    if not root:
        return 1.0, "No call graph cycles detected."
    # Iterative DFS (deep traces must not hit the recursion limit). Unlike flatten, deepeval
    # visits empty-dict children here, so only non-objects are rejected.
    path: list[str] = []
    stack: list[tuple[Any, int]] = [(root, 0)]
    while stack:
        span, depth = stack.pop()
        if type(span) is not dict and not isinstance(span, Mapping):  # dict: no ABC check
            raise TraceFormatError(f"a span must be an object, not {type(span).__name__}")
        del path[depth:]
        children = span.get("children", [])
        if type(children) is list and not children:
            # A leaf's label is only compared, never pushed: its input (JSON-encoded for a
            # dict, the costly part) matters only if an ancestor's label could equal it.
            prefix = _label_prefix(span)
            if not any(label.startswith(prefix) for label in path):
                continue
        label = _label(span)
        if label in path:
            cycle = path[path.index(label) :] + [label]
            shown = " -> ".join(":".join(part.split(":", 2)[:2]) for part in cycle)
            return 0.0, f"Cycle detected in execution path: {shown}."
        path.append(label)
        stack.extend((child, depth + 1) for child in reversed(_children(span)))
    return 1.0, "No execution cycles detected."


def combine_scores(
    breakdown: Mapping[str, float],
    enabled: Mapping[str, bool],
    weights: Mapping[str, float] = WEIGHTS,
) -> float:
    """Weighted mean over the enabled sub-signals; 1.0 when none is enabled."""
    total_weight = 0.0
    total = 0.0
    for key, weight in weights.items():
        if enabled.get(key, False):
            total_weight += weight
            total += breakdown[key] * weight
    if total_weight == 0.0:
        return 1.0
    return total / total_weight


class LexicalLoopDetection:
    """deepeval's ``AgentLoopDetectionMetric``: same arguments, same results, faster."""

    def __init__(
        self,
        threshold: float | None = 0.5,
        repetition_threshold: int = 3,
        similarity_threshold: float = 0.85,
        check_tool_repetition: bool = True,
        check_reasoning_stagnation: bool = True,
        check_call_graph_cycles: bool = True,
        strict_mode: bool = False,
    ) -> None:
        # As in deepeval, strict mode overrides whatever threshold was passed.
        self.threshold: float | None = 1 if strict_mode else threshold
        self.repetition_threshold = repetition_threshold
        self.similarity_threshold = similarity_threshold
        self.check_tool_repetition = check_tool_repetition
        self.check_reasoning_stagnation = check_reasoning_stagnation
        self.check_call_graph_cycles = check_call_graph_cycles
        self.strict_mode = strict_mode

    @property
    def enabled(self) -> dict[str, bool]:
        return {
            "tool_repetition": self.check_tool_repetition,
            "reasoning_stagnation": self.check_reasoning_stagnation,
            "call_graph_cycles": self.check_call_graph_cycles,
        }

    def measure(self, x: Trace | Mapping[str, Any] | None) -> LoopResult:
        """Score a :class:`~semloop.trace.Trace`, a raw deepeval trace dict, or ``None``."""
        if x is None:
            return LoopResult(
                score=0.0, success=False, reason=NO_TRACE_REASON, score_breakdown=None
            )
        root = _root_of(x)
        spans = flatten(root)
        enabled = self.enabled
        breakdown: dict[str, float] = {}
        reasons: dict[str, str] = {}
        for key in WEIGHTS:
            if not enabled[key]:
                breakdown[key], reasons[key] = 1.0, SKIPPED_REASONS[key]
            elif key == "tool_repetition":
                tools = [s for s in spans if s.get("type") == "tool"]
                breakdown[key], reasons[key] = score_tool_repetition(
                    tools, self.repetition_threshold
                )
            elif key == "reasoning_stagnation":
                llms = [s for s in spans if s.get("type") == "llm"]
                breakdown[key], reasons[key] = score_reasoning_stagnation(
                    llms, self.similarity_threshold
                )
            else:
                breakdown[key], reasons[key] = score_call_graph_cycles(root)
        score = combine_scores(breakdown, enabled)
        if self.strict_mode and self.threshold is not None and score < self.threshold:
            score = 0.0
        success = None if self.threshold is None else score >= self.threshold
        if score == 1.0:
            reason = NO_LOOP_REASON
        else:
            reason = " ".join(
                reasons[key] for key in WEIGHTS if enabled[key] and breakdown[key] < 1.0
            )
            if not reason.strip():
                reason = FALLBACK_REASON
        return LoopResult(
            score=score,
            success=success,
            reason=reason,
            score_breakdown=breakdown,
            sub_reasons=reasons,
        )


def _root_of(x: Any) -> Mapping[str, Any]:
    if isinstance(x, Mapping):
        return x
    if isinstance(x, Trace):
        return x.root.to_dict()
    raise TraceFormatError(
        f"expected a Trace, a deepeval trace dict or None, not {type(x).__name__}"
    )


def lexical_loop_score(
    trace: Trace | Mapping[str, Any] | None,
    repetition_threshold: int = 3,
    similarity_threshold: float = 0.85,
) -> LoopResult:
    """Score one trace with deepeval's defaults."""
    return LexicalLoopDetection(
        repetition_threshold=repetition_threshold, similarity_threshold=similarity_threshold
    ).measure(trace)
