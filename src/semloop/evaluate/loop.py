"""The judged loop detector: deepeval's metric with its stagnation check asked, not counted.

deepeval's ``AgentLoopDetectionMetric`` decides "is the agent stuck?" from word overlap
between neighbouring LLM outputs. :class:`SemanticLoopDetection` keeps its three
sub-signals, its weights and its threshold, but asks a judge (any :class:`Backend`) the
question that was meant: did step ``j`` get anywhere beyond step ``i``?

Question families, all sent in ONE ``backend.ask`` per trace:

* ``progress_{i}_{i+1}`` — did step i+1 advance the task beyond step i? (noul)
* ``revisit_{i}_{i+d}`` for d in 2..lookahead — does step i+d repeat step i's attempt? (noul)
* ``tool_repeat_{name}`` — for a tool called at least ``repetition_threshold`` times: are
  the calls the same action despite cosmetic argument changes? (noul)
* ``stagnation`` — an overall 4-level score; asked for context, never used in scoring.

Scoring (see ``docs/semantic.md``): a pair's stagnation is ``1 - p`` for progress and ``p``
for revisit; flagged pairs (at ``mild_stagnation`` or worse) that touch form stretches, and
the worst stretch of ``min_stretch_steps`` (3) steps or more gives 0.0 at
``severe_stagnation``, 0.5 at ``mild_stagnation``, else 1.0: one repeated step that the run
then moves on from is not stagnation. Tool repetition is the more severe of the exact-match and judged checks. Call
graph cycles stay the deterministic lexical check. A severe stuck stretch of
``loop_stretch_steps`` (3) steps or more, first to last, or a mild one of twice as many, is
a loop by itself: the score is held just below the threshold whatever the other sub-signals
say, where deepeval's weights alone would leave stagnation at 0.65. Standard library only.
"""

from __future__ import annotations

import hashlib
import math
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .._exceptions import ConfigError, JudgeAnswerError, JudgeError, TraceFormatError
from ..judge import Answer, Backend, JudgeResponse, require_kinds
from ..lexical import (
    WEIGHTS,
    LoopResult,
    combine_scores,
    score_call_graph_cycles,
    score_reasoning_stagnation,
    score_tool_repetition,
)
from ..trace import Span, Trace

__all__ = [
    "PairFinding",
    "SemanticLoopDetection",
    "SemanticLoopResult",
    "Stretch",
    "ToolFinding",
    "build_questions",
    "build_state",
    "build_tool_questions",
    "covered",
    "idle_steps",
    "reasoning_steps",
    "stuck_stretches",
    "worst_stretch",
]

NO_LOOP_REASON = "No loop patterns detected."
# How far below the threshold a long stuck stretch holds the score (0.45 at 0.5: where one
# severe sub-signal and one half-scored one land).
_BELOW_THRESHOLD = 0.05
_NO_ARGUMENTS = frozenset({"", "{}", "[]", "null"})
# Questions per trace for a judge that does not say (hosted judges charge per token).
DEFAULT_MAX_QUESTIONS = 64
STAGNATION_QUESTION = "stagnation"
TOOL_PREFIX = "tool_repeat_"
# The lexical fallback runs with deepeval's default similarity line.
FALLBACK_SIMILARITY = 0.85

_PROGRESS_QUESTION: dict[str, Any] = {
    "type": "noul",
    "instructions": (
        "state.steps lists what an agent did, in order, while pursuing state.goal. Compare "
        "step {j} with step {i}. Step {j} counts as progress if it turns to another part of "
        "the task, uses information that was not available at step {i}, or changes approach "
        "after a failure. It does not count if it only restates step {i}'s plan in other "
        "words, or repeats the same action without learning anything new."
    ),
    "criteria": {
        "true": "Step {j} moves the task forward beyond step {i}.",
        "false": "Step {j} repeats or rewords step {i} without moving the task forward.",
    },
}
_REVISIT_QUESTION: dict[str, Any] = {
    "type": "noul",
    "instructions": (
        "state.steps lists what an agent did, in order, while pursuing state.goal. Does step "
        "{j} go back to the same attempt the agent already made at step {i}, with no new "
        "information since, so that the agent is cycling between the same states? Judge the "
        "action and intent, not the wording."
    ),
    "criteria": {
        "true": "Step {j} repeats the attempt made at step {i}.",
        "false": "Step {j} is a different attempt from step {i}.",
    },
}
_TOOL_QUESTION: dict[str, Any] = {
    "type": "noul",
    "instructions": (
        "state.tool_calls.{name} lists the distinct argument sets of the {count} calls the "
        "agent made to the tool '{name}', in the order first used. Are all these calls the "
        "same underlying action, repeated, even though the arguments differ cosmetically "
        "(an added flag, a reordered key, a trivially different value)? Answer no if the "
        "arguments make the calls genuinely different actions."
    ),
    "criteria": {
        "true": "The calls are one action repeated; the argument differences are cosmetic.",
        "false": "The calls are genuinely different actions that share a tool.",
    },
}
_STAGNATION_QUESTION: dict[str, Any] = {
    "type": "score",
    "instructions": (
        "Taking the whole of state.steps into account, how stuck is this agent on state.goal?"
    ),
    "criteria": [
        "Not stuck: every step moves the task forward; retries are ordinary.",
        "Mostly moving: one step repeats earlier work.",
        "Circling: several repeats or retries bring no new information.",
        "Completely stuck: the agent keeps doing the same thing.",
    ],
}


def _fill(template: Mapping[str, Any], **values: Any) -> dict[str, Any]:
    """A copy of a question template with its ``{placeholders}`` filled in."""

    def fill(value: Any) -> Any:
        if isinstance(value, str):
            return value.format(**values)
        if isinstance(value, Mapping):
            return {k: fill(v) for k, v in value.items()}
        if isinstance(value, list):
            return [fill(v) for v in value]
        return value

    return {k: fill(v) for k, v in template.items()}


def reasoning_steps(trace: Trace) -> list[Span]:
    """The spans the judge compares: the LLM spans if there are two, else the tool spans.

    With fewer than two of either the LLM spans are returned (0 or 1), which yields no
    questions. Agent and retriever spans are never steps.
    """
    llm = trace.llm_spans
    if len(llm) >= 2:
        return llm
    tools = trace.tool_spans
    if len(tools) >= 2:
        return tools
    return llm


def _truncate(text: str, limit: int) -> str:
    # Keeps a long trace inside the judge's context (Jev's is 32k tokens); <= 0 disables.
    # The digest of the cut part keeps two long texts that differ only past the limit (two
    # versions of a script written with a heredoc) from reading as one.
    if limit <= 0 or len(text) <= limit:
        return text
    digest = hashlib.sha1(text[limit:].encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{text[:limit]}… [truncated {len(text) - limit} chars, rest {digest}]"


def build_state(
    trace: Trace,
    steps: Sequence[Span] | None = None,
    *,
    max_chars_per_step: int = 800,
    include_tool_calls: bool = False,
) -> dict[str, Any]:
    """The state every judge reads: the goal, the steps (with the tool calls after each)
    and, when ``include_tool_calls``, each tool's distinct inputs in first-seen order."""
    if steps is None:
        steps = reasoning_steps(trace)
    limit = max_chars_per_step
    position = {id(span): k for k, span in enumerate(steps)}
    steps_are_tools = any(span.type == "tool" for span in steps)
    tools_after: list[list[dict[str, str]]] = [[] for _ in steps]
    distinct: dict[str, list[str]] = {}
    current = -1
    for span in trace.walk():
        if id(span) in position:
            current = position[id(span)]
            if span.type == "tool":
                # A step that is itself a tool call still counts towards tool_calls.
                distinct.setdefault(span.name, [])
                if span.input_text not in distinct[span.name]:
                    distinct[span.name].append(span.input_text)
            continue
        if span.type != "tool":
            continue
        seen = distinct.setdefault(span.name, [])
        if span.input_text not in seen:
            seen.append(span.input_text)
        if current >= 0 and not steps_are_tools:
            tools_after[current].append(
                {
                    "name": span.name,
                    "input": _truncate(span.input_text, limit),
                    "output": _truncate(span.output_text, limit),
                }
            )
    state: dict[str, Any] = {
        "goal": trace.goal,
        "steps": [
            {
                "index": k,
                "type": span.type,
                "name": span.name,
                "input": _truncate(span.input_text, limit),
                "output": _truncate(span.output_text, limit),
                "tools": tools_after[k],
            }
            for k, span in enumerate(steps)
        ],
    }
    if include_tool_calls:
        state["tool_calls"] = {
            name: [_truncate(text, limit) for text in inputs] for name, inputs in distinct.items()
        }
    return state


def build_questions(
    steps: Sequence[Any], lookahead: int = 2, max_questions: int = 64
) -> dict[str, dict[str, Any]]:
    """Progress questions for neighbours, revisit questions at distances 2..lookahead, and
    the ``stagnation`` score question; at most ``max_questions`` (``stagnation`` is kept).

    Fewer than two steps gives no questions at all. Only ``len(steps)`` is used.
    """
    n = len(steps)
    if n < 2:
        return {}
    questions: dict[str, dict[str, Any]] = {}
    for i in range(n - 1):
        questions[f"progress_{i}_{i + 1}"] = _fill(_PROGRESS_QUESTION, i=i, j=i + 1)
    for d in range(2, lookahead + 1):
        for i in range(n - d):
            questions[f"revisit_{i}_{i + d}"] = _fill(_REVISIT_QUESTION, i=i, j=i + d)
    if len(questions) + 1 > max_questions:
        # Progress first, then revisits by increasing distance: the nearest pairs matter most.
        questions = dict(list(questions.items())[: max(0, max_questions - 1)])
    questions[STAGNATION_QUESTION] = _fill(_STAGNATION_QUESTION)
    return questions


def build_tool_questions(
    tool_spans: Sequence[Span], repetition_threshold: int = 3
) -> tuple[dict[str, dict[str, Any]], dict[str, int]]:
    """A ``tool_repeat_{name}`` question per tool called ``repetition_threshold`` times or
    more, whatever its arguments; also the call count of every tool name."""
    counts: dict[str, int] = {}
    for span in tool_spans:
        counts[span.name] = counts.get(span.name, 0) + 1
    questions = {
        f"{TOOL_PREFIX}{name}": _fill(_TOOL_QUESTION, name=name, count=count)
        for name, count in counts.items()
        if count >= repetition_threshold
    }
    return questions, counts


@dataclass(frozen=True)
class Stretch:
    """A run of flagged pair findings that touch (overlap or leave one step between)."""

    first: int
    last: int
    steps: tuple[int, ...]  # the steps that repeat an earlier one (each flagged pair's j)
    stagnation: float  # the worst finding in the stretch
    findings: tuple[PairFinding, ...]


def stuck_stretches(findings: Sequence[PairFinding], mild: float,
                    idle: frozenset[int] = frozenset()) -> list[Stretch]:
    """The stretches of findings at or above ``mild``, in step order.

    Findings are sorted once and merged in a single pass (a finding joins the stretch
    when it starts at most one step after the stretch's end, or after ``idle`` steps
    only: replies between two calls made again), so this is linear after the sort in the
    number of pairs and steps."""
    flagged = sorted((f for f in findings if f.stagnation >= mild), key=lambda f: (f.i, f.j))
    out: list[Stretch] = []
    group: list[PairFinding] = []
    hi = -2
    for f in flagged:
        if group and f.i > hi + 1 and not all(k in idle for k in range(hi + 1, f.i)):
            out.append(_stretch(group))
            group = []
        if not group:
            hi = f.j
        group.append(f)
        hi = max(hi, f.j)
    if group:
        out.append(_stretch(group))
    return out


def worst_stretch(
    findings: Sequence[PairFinding], mild: float, min_steps: int = 3,
    idle: frozenset[int] = frozenset(), seconds: frozenset[int] = frozenset(),
) -> Stretch | None:
    """The most stagnant stretch that is long enough to call stuck, or None.

    A stretch is long enough when it covers ``min_steps`` steps from first to last (a
    flagged revisit of step i at step i+2 is a cycle through three steps), or when
    ``min_steps - 1`` of its steps each repeat what came before (``A A A``). A lone
    repeated step (step j no better than step j-1, then the run moves on) is neither.
    ``idle`` steps (their calls pass no arguments: a reply the harness refused, where
    nothing ran) inside a stretch cover nothing: ``A, refused, A`` is one repeat. A short
    stretch that only does work a second time (:func:`again_only`) is a tie, not stuck."""
    need = max(1, min_steps - 1)
    long_enough = [st for st in stuck_stretches(findings, mild, idle)
                   if (len(st.steps) >= need or covered(st, idle) >= min_steps)
                   and not again_only(st, need, seconds)]
    return max(long_enough, key=lambda st: st.stagnation) if long_enough else None


def covered(stretch: Stretch, idle: frozenset[int] = frozenset()) -> int:
    """The steps a stretch covers from first to last, less the idle ones between that
    repeat nothing themselves: ``A, refused, A`` covers two steps, three refused replies in
    a row cover three (each is the same failed reply again)."""
    inside = range(stretch.first + 1, stretch.last)
    return stretch.last - stretch.first + 1 - sum(
        1 for k in idle if k in inside and k not in stretch.steps)


def idle_steps(state: Mapping[str, Any]) -> frozenset[int]:
    """The steps of a judge state that do no work of their own between two attempts: every
    tool call passes no arguments (a reply the harness refused, where nothing ran), or the
    step calls no tool and sits between two steps that act, the later one making only calls
    of the earlier one again with the same failure (replies to the user between two
    identical failed calls: ``A, reply, A`` is the same failed call made twice, not a cycle
    through three steps). Replies between calls that got a real result may carry the work
    (new requests to the user), so they still count."""
    from .._features import Call

    steps = list(state.get("steps") or ())
    refused = {k for k, step in enumerate(steps)
               if step.get("tools") and all(str(t.get("input") or "").strip() in _NO_ARGUMENTS
                                            for t in step["tools"])}
    between: set[int] = set()
    quiet: list[int] = []  # the steps with no call since the last step that acted
    last: set[tuple[str, str, str]] | None = None  # that step's calls
    for k, step in enumerate(steps):
        if not step.get("tools"):
            quiet.append(k)
        elif k not in refused:
            calls = {(str(t.get("name") or ""), _span_text(t.get("input")),
                      _span_text(t.get("output"))) for t in step["tools"]}
            if last is not None and calls <= last and all(
                    Call.of(*call).empty for call in calls):
                between.update(quiet)
            last, quiet = calls, []
    return frozenset(refused | between)


def again_only(stretch: Stretch, need: int, seconds: frozenset[int]) -> bool:
    """A stretch of at most ``need`` repeated steps that all do work a second time
    (``seconds``): ``A B C A B`` or ``A B A``, then the run moves on. Two attempts are a tie,
    not a stuck stretch, whether one step or two come back; a third time, or a longer
    stretch, is one."""
    return len(stretch.steps) <= need and set(stretch.steps) <= seconds


def second_times(state: Mapping[str, Any]) -> frozenset[int]:
    """The steps of a judge state whose every tool call ran exactly once before with the
    same input and the same result, a result the tool gave no other call: each is the
    second time of that work. A step without a call, a call made for the first or the third
    time, or a result the tool also gave a variant of the call (the same error for a
    cosmetic change) is not. Inputs and results compare as the judge compares them (a line
    number in a traceback is no new result)."""
    from .._features import normalise_input, normalise_output, outputs_same

    by_tool: dict[str, list[tuple[str, str]]] = {}  # per tool, (input, result) of its calls
    made: set[tuple[str, str]] = set()
    out: set[int] = set()

    def second(name: str, raw: str, result: str) -> bool:
        if (name, raw) not in made:
            return False  # a first time
        same = [r for r, o in by_tool[name] if outputs_same(o, result)]
        return same == [raw]  # no other call of the tool, nor a variant, got that result

    for k, step in enumerate(state.get("steps") or ()):
        calls = [(str(t.get("name") or ""), normalise_input(_span_text(t.get("input"))),
                  normalise_output(_span_text(t.get("output")))) for t in step.get("tools") or ()]
        if calls and all(second(*c) for c in calls):
            out.add(k)
        for name, raw, result in calls:
            by_tool.setdefault(name, []).append((raw, result))
            made.add((name, raw))
    return frozenset(out)


def _stretch(group: Sequence[PairFinding]) -> Stretch:
    return Stretch(
        first=min(f.i for f in group),
        last=max(f.j for f in group),
        steps=tuple(sorted({f.j for f in group})),
        stagnation=max(f.stagnation for f in group),
        findings=tuple(group),
    )


def _unchanged_repeats(tool_spans: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tool calls deepeval's exact-match count should see: an identical call counts as
    a repeat of the one before it only when nothing changed between them. A call made
    again after a write that went through (an edit, a cancellation), or one whose output
    changed (a retry that got through), starts a new count: re-running a test after an
    edit is a new attempt. Such calls get their own key (the attempt number beside the
    input), so the tool's name in the reason stays the tool's."""
    from .._features import Call, action_kind, run_writes

    calls = [Call.of(str(s.get("name", "")), _span_text(s.get("input")),
                     _span_text(s.get("output"))) for s in tool_spans]
    changes = run_writes(calls)
    epoch: dict[tuple[str, str], int] = {}
    last_output: dict[tuple[str, str], str] = {}
    kinds: dict[tuple[str, str], tuple[Call, bool]] = {}
    writes: set[tuple[str, str]] = set()
    out: list[dict[str, Any]] = []
    for span, call, changed in zip(tool_spans, calls, changes):
        key = (call.name, call.raw)
        if key in last_output and last_output[key] != call.output:
            epoch[key] = epoch.get(key, 0) + 1
        last_output[key] = call.output
        n = epoch.get(key, 0)
        out.append(span if n == 0 else {**span, "input": [span.get("input"), f"attempt {n}"]})
        if changed and key not in writes:
            writes.add(key)  # the same write again changes nothing a later read sees
            kind = action_kind(call, True)
            for other, (other_call, other_changed) in list(kinds.items()):
                if action_kind(other_call, other_changed) != kind:
                    epoch[other] = epoch.get(other, 0) + 1
                    last_output.pop(other, None)
                    kinds.pop(other)
        kinds[key] = (call, changed)
    return out


def _span_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return "" if value is None else Span(input=value).input_text


@dataclass(frozen=True)
class PairFinding:
    """The judge's answer about one pair of steps, as a stagnation in [0, 1]."""

    kind: str  # "progress" or "revisit"
    i: int
    j: int
    p_yes: float
    stagnation: float
    uncertain: bool

    def describe(self) -> str:
        if self.kind == "progress":
            return f"step {self.j} made no progress over step {self.i} (p={self.stagnation:.2f})"
        return f"step {self.j} revisits step {self.i} (p={self.stagnation:.2f})"


@dataclass(frozen=True)
class ToolFinding:
    """A tool the judge says was called repeatedly as the same action."""

    name: str
    p_same: float
    count: int


@dataclass
class SemanticLoopResult(LoopResult):
    """A :class:`~semloop.lexical.LoopResult` with what the judge found: the answered
    step pairs, the tools it called repeated, and the model that answered."""

    findings: tuple[PairFinding, ...] = ()
    tool_findings: tuple[ToolFinding, ...] = ()
    model: str = ""
    #: (first, last) step of the stretch that made reasoning stagnation below 1.0, if any.
    stuck_stretch: tuple[int, int] | None = None


def _noul_value(answer: Any) -> float | None:
    """P(yes) of a usable noul answer, else None (the answer is ignored, never guessed)."""
    if not isinstance(answer, Answer) or answer.type != "noul":
        return None
    value = answer.value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    p = float(value)
    if not math.isfinite(p) or not 0.0 <= p <= 1.0:
        return None
    return p


def _as_trace(x: Trace | Mapping[str, Any]) -> Trace:
    if isinstance(x, Trace):
        return x
    if isinstance(x, Mapping):
        if "root" in x:
            return Trace.from_dict(x)
        return Trace.from_deepeval_trace_dict(x)
    raise TraceFormatError(f"expected a Trace or a trace dict, not {type(x).__name__}")


def _shallow(span: Span) -> dict[str, Any]:
    # The lexical sub-signals read only these keys; skipping children avoids deep copies.
    return {"type": span.type, "name": span.name, "input": span.input, "output": span.output}


class SemanticLoopDetection:
    """deepeval's loop metric with judged stagnation and judged tool repetition.

    ``measure`` makes exactly one ``backend.ask`` per trace (none when there is nothing to
    ask) and raises :class:`~semloop.JudgeError` when the backend fails. It returns its
    verdict and writes nothing onto the detector, so one detector can serve many threads
    (the loop worker shares one); deepeval's per-call attributes (``score``, ``reason``,
    ``success``) are therefore not kept here: see docs/semantic.md, "Result".
    """

    def __init__(
        self,
        backend: Backend,
        *,
        threshold: float = 0.5,
        repetition_threshold: int = 3,
        lookahead: int = 2,
        max_questions: int | None = None,
        max_chars_per_step: int = 800,
        check_tool_repetition: bool = True,
        check_semantic_tool_repetition: bool = True,
        check_reasoning_stagnation: bool = True,
        check_call_graph_cycles: bool = True,
        fallback_to_lexical_when_uncertain: bool = True,
        severe_stagnation: float = 0.85,
        mild_stagnation: float = 0.60,
        min_stretch_steps: int = 3,
        loop_stretch_steps: int | None = 3,
        uncertain_band: tuple[float, float] = (0.40, 0.60),
        weights: Mapping[str, float] | None = None,
    ) -> None:
        if lookahead < 1:
            raise ConfigError(f"must be at least 1, not {lookahead}", key="lookahead")
        if max_questions is not None and max_questions < 1:
            raise ConfigError(f"must be at least 1, not {max_questions}", key="max_questions")
        if repetition_threshold < 1:
            raise ConfigError(
                f"must be at least 1, not {repetition_threshold}", key="repetition_threshold"
            )
        if not 0.0 <= mild_stagnation <= severe_stagnation <= 1.0:
            raise ConfigError(
                f"need 0 <= mild ({mild_stagnation}) <= severe ({severe_stagnation}) <= 1",
                key="mild_stagnation",
            )
        if min_stretch_steps < 1:
            raise ConfigError(f"must be at least 1, not {min_stretch_steps}",
                              key="min_stretch_steps")
        if loop_stretch_steps is not None and loop_stretch_steps < min_stretch_steps:
            raise ConfigError(f"must be at least min_stretch_steps ({min_stretch_steps}), not "
                              f"{loop_stretch_steps}", key="loop_stretch_steps")
        low, high = uncertain_band
        if not 0.0 <= low <= high <= 1.0:
            raise ConfigError(f"need 0 <= low <= high <= 1, got {uncertain_band}",
                              key="uncertain_band")
        merged = dict(WEIGHTS)
        for key, value in (weights or {}).items():
            if key not in WEIGHTS:
                raise ConfigError(f"unknown sub-signal; expected one of {list(WEIGHTS)}",
                                  key=f"weights.{key}")
            if not isinstance(value, (int, float)) or value < 0 or not math.isfinite(value):
                raise ConfigError(f"must be a non-negative number, not {value!r}",
                                  key=f"weights.{key}")
            merged[key] = float(value)
        self.backend = backend
        self.threshold = threshold
        self.repetition_threshold = repetition_threshold
        self.lookahead = lookahead
        self.max_questions = max_questions
        self.max_chars_per_step = max_chars_per_step
        self.check_tool_repetition = check_tool_repetition
        self.check_semantic_tool_repetition = check_semantic_tool_repetition
        self.check_reasoning_stagnation = check_reasoning_stagnation
        self.check_call_graph_cycles = check_call_graph_cycles
        self.fallback_to_lexical_when_uncertain = fallback_to_lexical_when_uncertain
        self.severe_stagnation = severe_stagnation
        self.mild_stagnation = mild_stagnation
        self.min_stretch_steps = min_stretch_steps
        self.loop_stretch_steps = loop_stretch_steps
        self.uncertain_band = (float(low), float(high))
        self.weights = merged

    @property
    def __name__(self) -> str:  # deepeval metrics expose a display name this way
        return "Semantic Loop Detection"

    def question_budget(self) -> int:
        """Questions per trace: ``max_questions`` when given, else the backend's own
        ``question_budget`` (None there: no limit, as for the embedded judge), else 64.

        The budget exists for judges that charge per token or have a context window; past
        it the questions about the last steps of a long run are dropped, so a judge that
        answers for free should not have one."""
        if self.max_questions is not None:
            return self.max_questions
        budget = getattr(self.backend, "question_budget", DEFAULT_MAX_QUESTIONS)
        if budget is None:
            return sys.maxsize
        return budget if isinstance(budget, int) and budget >= 1 else DEFAULT_MAX_QUESTIONS

    @property
    def enabled(self) -> dict[str, bool]:
        return {
            "tool_repetition": self.check_tool_repetition or self.check_semantic_tool_repetition,
            "reasoning_stagnation": self.check_reasoning_stagnation,
            "call_graph_cycles": self.check_call_graph_cycles,
        }

    def questions_for(
        self, trace: Trace
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]], dict[str, int]]:
        """The state, the merged questions (tool questions first) and the tool call counts
        that :meth:`measure` sends for ``trace``."""
        tool_qs: dict[str, dict[str, Any]] = {}
        counts: dict[str, int] = {}
        if self.check_semantic_tool_repetition:
            tool_qs, counts = build_tool_questions(trace.tool_spans, self.repetition_threshold)
        steps = reasoning_steps(trace)
        stag_qs: dict[str, dict[str, Any]] = {}
        if self.check_reasoning_stagnation:
            budget = max(1, self.question_budget() - len(tool_qs))
            stag_qs = build_questions(steps, self.lookahead, budget)
        questions = {**tool_qs, **stag_qs}
        state = build_state(
            trace,
            steps,
            max_chars_per_step=self.max_chars_per_step,
            include_tool_calls=bool(tool_qs),
        )
        return state, questions, counts

    def measure(self, trace: Trace | Mapping[str, Any]) -> SemanticLoopResult:
        """Score one trace; see the module docstring for how."""
        trace = _as_trace(trace)
        enabled = self.enabled
        reasons: dict[str, str] = {}
        breakdown: dict[str, float] = {}

        if self.check_call_graph_cycles:
            cycle, reasons["call_graph_cycles"] = score_call_graph_cycles(trace.root.to_dict())
        else:
            cycle, reasons["call_graph_cycles"] = 1.0, "Call graph cycles check skipped."

        tool_spans = [_shallow(s) for s in trace.tool_spans]
        exact: tuple[float, str] | None = None
        if self.check_tool_repetition:
            exact = score_tool_repetition(_unchanged_repeats(tool_spans), self.repetition_threshold)

        state, questions, counts = self.questions_for(trace)
        response = self._ask(state, questions) if questions else None
        answers: Mapping[str, Answer] = response.answers if response is not None else {}

        pair_ids = [q for q in questions if q.startswith(("progress_", "revisit_"))]
        undecided = False
        findings: list[PairFinding] = []
        stretch: tuple[int, int] | None = None
        idle: frozenset[int] = frozenset()
        seconds: frozenset[int] = frozenset()
        if not self.check_reasoning_stagnation:
            stag, reasons["reasoning_stagnation"] = 1.0, "Reasoning stagnation check skipped."
        elif not pair_ids:
            stag = 1.0
            reasons["reasoning_stagnation"] = "Not enough reasoning steps to check for stagnation."
        else:
            findings = self._pair_findings(pair_ids, answers)
            idle = idle_steps(state)
            if any(f.stagnation >= self.mild_stagnation for f in findings):
                seconds = second_times(state)  # only a flagged pair can start a stretch
            stag, stag_reason, undecided = self._score_stagnation(findings, idle, seconds)
            top = worst_stretch(findings, self.mild_stagnation, self.min_stretch_steps, idle,
                                seconds)
            if stag < 1.0 and top is not None:
                stretch = (top.first, top.last)
            if undecided and self.fallback_to_lexical_when_uncertain:
                llm_spans = [_shallow(s) for s in trace.llm_spans]
                lex, lex_reason = score_reasoning_stagnation(llm_spans, FALLBACK_SIMILARITY)
                stag = min(stag, lex)
                stag_reason += (
                    " Judge was undecided, so the lexical check was used as well: " + lex_reason
                )
            reasons["reasoning_stagnation"] = stag_reason

        tool_ids = [q for q in questions if q.startswith(TOOL_PREFIX)]
        judged: tuple[float, str] | None = None
        tool_findings: list[ToolFinding] = []
        if self.check_semantic_tool_repetition:
            if tool_ids:
                tool_findings = self._tool_findings(tool_ids, answers, counts)
                judged = self._score_tools(tool_findings)
            else:
                judged = (1.0, "No tool was called often enough to ask about repetition.")
        if exact is None and judged is None:
            rep, reasons["tool_repetition"] = 1.0, "Tool repetition check skipped."
        elif judged is None or (exact is not None and exact[0] <= judged[0]):
            # On a tie the exact-match reason wins: a judged miss never hides a detection.
            assert exact is not None
            rep, reasons["tool_repetition"] = exact
        else:
            rep, reasons["tool_repetition"] = judged

        breakdown = {
            "tool_repetition": rep,
            "reasoning_stagnation": stag,
            "call_graph_cycles": cycle,
        }
        score = combine_scores(breakdown, enabled, self.weights)
        reason = " ".join(
            reasons[key]
            for key in WEIGHTS
            if enabled[key] and breakdown[key] < 1.0 and reasons[key]
        ) or NO_LOOP_REASON
        held = self._loop_stretch(findings, idle, seconds) if stag < 1.0 else None
        if held is not None and score >= self.threshold:
            score = max(0.0, round(self.threshold - _BELOW_THRESHOLD, 4))
            reason += (f" The run stayed stuck for {held.last - held.first + 1} steps "
                       f"({held.first}–{held.last}): a loop by itself.")

        return SemanticLoopResult(
            score=score,
            success=score >= self.threshold,
            reason=reason,
            score_breakdown=dict(breakdown),
            sub_reasons=reasons,
            undecided=undecided,
            cost_usd=response.cost_usd if response is not None else 0.0,
            latency_ms=response.latency_ms if response is not None else 0.0,
            input_tokens=response.input_tokens if response is not None else 0,
            output_tokens=response.output_tokens if response is not None else 0,
            answers=dict(answers),
            findings=tuple(findings),
            tool_findings=tuple(tool_findings),
            model=response.model if response is not None else "",
            stuck_stretch=stretch,
        )

    def _loop_stretch(self, findings: Sequence[PairFinding], idle: frozenset[int] = frozenset(),
                      seconds: frozenset[int] = frozenset()) -> Stretch | None:
        """The first severe stuck stretch covering ``loop_stretch_steps`` steps or more, else
        the first mild one covering twice as many.

        Three steps are the least that reads as stuck. A purposeful toggle on a long real
        run (restore, re-run the tests, re-apply the fix) is no stuck stretch for the
        embedded judge (a new attempt), so three severe steps are a loop whatever the tools
        did; ``loop_stretch_steps=4`` asks for one step more. Length makes up for doubt: a
        rotation of a few stock replies (farewells, acknowledgements) reads only mildly as
        no progress step by step, yet twice that many such steps in a row are stuck. A
        short stretch that only does work a second time (:func:`again_only`) is no such
        stretch."""
        if self.loop_stretch_steps is None:
            return None
        need = max(1, self.min_stretch_steps - 1)
        for level, steps in ((self.severe_stagnation, self.loop_stretch_steps),
                             (self.mild_stagnation, 2 * self.loop_stretch_steps)):
            held = next((st for st in stuck_stretches(findings, level, idle)
                         if covered(st, idle) >= steps and not again_only(st, need, seconds)),
                        None)
            if held is not None:
                return held
        return None

    def _ask(self, state: dict[str, Any], questions: dict[str, dict[str, Any]]) -> JudgeResponse:
        """The one call to the backend; whatever goes wrong surfaces as a JudgeError, so a
        caller that records failed traces needs to catch only that."""
        name = getattr(self.backend, "name", type(self.backend).__name__)
        require_kinds(self.backend, questions)
        try:
            response = self.backend.ask(state, questions)
        except JudgeError:
            raise
        except Exception as exc:
            # A third-party backend's own bug: reported as a failed judge, cause attached.
            raise JudgeError(f"judge {name!r} failed: {type(exc).__name__}: {exc}") from exc
        if not isinstance(response, JudgeResponse) or not isinstance(response.answers, Mapping):
            raise JudgeAnswerError(
                f"judge {name!r} returned {type(response).__name__}, not a JudgeResponse "
                "with a mapping of answers"
            )
        return response

    def _pair_findings(
        self, pair_ids: Sequence[str], answers: Mapping[str, Answer]
    ) -> list[PairFinding]:
        """The usable progress/revisit answers as stagnations."""
        low, high = self.uncertain_band
        findings: list[PairFinding] = []
        for qid in pair_ids:
            kind, i, j = qid.split("_")
            p = _noul_value(answers.get(qid))
            if p is None:
                continue
            stagnation = 1.0 - p if kind == "progress" else p
            findings.append(
                PairFinding(kind, int(i), int(j), p, stagnation, low <= stagnation <= high)
            )
        return findings

    def _score_stagnation(self, findings: Sequence[PairFinding], idle: frozenset[int] = frozenset(),
                          seconds: frozenset[int] = frozenset()) -> tuple[float, str, bool]:
        """(score, reason, undecided) from the pair findings.

        The score is that of the worst stuck *stretch*, not of the worst pair: a stretch
        (see :func:`stuck_stretches`) counts once ``min_stretch_steps - 1`` of its steps
        repeat what came before (``A A A`` is three steps, two of them repeats). One
        repeated step that the run then moves on from scores 1.0, however sure the judge
        is about it: one identical retry is what careful agents do."""
        if not findings:
            # Nothing usable came back: undecided, so the lexical fallback can step in.
            return 1.0, "Judge returned no usable pair answers.", True
        worst = max(findings, key=lambda f: f.stagnation)
        top = worst_stretch(findings, self.mild_stagnation, self.min_stretch_steps, idle, seconds)
        level = top.stagnation if top is not None else 0.0
        if level >= self.severe_stagnation:
            score = 0.0
        elif level >= self.mild_stagnation:
            score = 0.5
        else:
            score = 1.0
        # Undecided only when nothing was detected and the worst pair sat in the band: a
        # band answer beside a confident detection changes nothing.
        undecided = score == 1.0 and worst.uncertain
        if score == 1.0 or top is None:
            if worst.stagnation >= self.mild_stagnation:
                return 1.0, (
                    "No reasoning stagnation: no stretch of "
                    f"{self.min_stretch_steps} or more steps repeats itself "
                    f"({worst.describe()}, then the run moved on)."
                ), undecided
            return 1.0, "No reasoning stagnation: every step advanced the task.", undecided
        flagged = sorted(top.findings, key=lambda f: f.stagnation, reverse=True)[:3]
        text = "; ".join(f.describe() for f in flagged)
        return score, (
            f"Reasoning stagnation — {text}. Stuck stretch: steps {top.first}–{top.last}."
        ), undecided

    @staticmethod
    def _tool_findings(
        tool_ids: Sequence[str], answers: Mapping[str, Answer], counts: Mapping[str, int]
    ) -> list[ToolFinding]:
        """The tools the judge says were called as one action (p >= 0.5)."""
        findings: list[ToolFinding] = []
        for qid in tool_ids:
            p = _noul_value(answers.get(qid))
            name = qid[len(TOOL_PREFIX):]
            if p is not None and p >= 0.5:
                findings.append(ToolFinding(name, p, counts.get(name, 0)))
        return findings

    def _score_tools(self, findings: Sequence[ToolFinding]) -> tuple[float, str]:
        if not findings:
            return 1.0, "Judge found no tool repeated as the same action."
        top = max(findings, key=lambda f: f.p_same)
        if top.count >= 2 * self.repetition_threshold:
            score = 0.0
        elif top.count >= self.repetition_threshold:
            score = 0.5
        else:
            score = 1.0
        return score, (
            f"Semantic tool repetition — tool '{top.name}' called {top.count} times as "
            f"apparently the same action despite different arguments (p={top.p_same:.2f})."
        )
