"""Evaluation cases from the platform's runs, and from JSONL lines of cases.

From a run's events (:func:`run_case`): the goal is the run's user input; the output is
its last non-empty LLM output (the final answer); earlier LLM outputs are its steps;
retrieved documents are its context, and so are the sentences of its system prompt (its
instructions: a policy, a manual) that state a fact the answer repeats (a number, a code, a
name; never a rule, a condition or a question), when it retrieved or called anything; each
tool call, paired with its response, keeps its
arguments, output and success (tool outputs stay in ``tools_called``, which judges read
as evidence beside ``context``). A run with no input or no output has nothing to judge
and gives ``None``. In a run that records a chat (:func:`records_chat`: an imported
simulation, where each later customer message is a model step's input), a model turn
that only calls tools told the customer nothing: it is a step, never the final answer, nor
an assistant turn of the chat's conversation; the customer's later messages' fact
sentences that carry a value of the answer are its ``told``. AGENT_LOOP reads the
run's :class:`~semloop.trace.Trace` (:func:`trace_case`). A conversation
(:func:`conversation_case`) is the last ``last``
(default 5) runs with one ``conversation_id``, oldest first: each run's user input is a
user turn and its final answer an assistant turn. An imported chat that records a whole
conversation in one run (a tau-bench simulation) is its own conversation
(:func:`conversation_case_from_trace`): its goal and each later user message (a model step's
input) are user turns, each answered by the agent's last reply before the next one, so one
exchange stands where a recorded run would.

JSONL lines (:func:`parse_case`) are run cases ``{"id", "label"?, "input", "output",
"context": [str], "tools_called": [{"name", "args", "output", "success"}], "steps"?}``,
conversation cases ``{"id", "label"?, "turns": [{"role", "content"}]}``, or trace cases
``{"id", "label"?, "goal", "root"}`` (a bench row; ``trace_id`` stands in for ``id``).
A bad value raises :class:`~semloop.TraceFormatError` naming the field.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from .._exceptions import TraceFormatError
from ..case import ConversationCase, RunCase, ToolCall, Turn
from ..events import Run
from ..trace import Span, Trace
from ._evaluators import Case, TraceCase

__all__ = [
    "CHAT_FORMATS",
    "CONVERSATION_RUNS",
    "as_level",
    "cases_from_runs",
    "conversation_case",
    "conversation_case_from_trace",
    "exchange_count",
    "parse_case",
    "parse_case_lines",
    "records_chat",
    "run_case",
    "run_case_from_trace",
    "system_prompt",
    "trace_case",
]

#: Runs of a conversation an evaluator reads (Dunetrace's N).
CONVERSATION_RUNS = 5
#: Import formats (``source_format``) whose run records a whole chat with a customer,
#: each later customer message the input of the model step that answers it.
CHAT_FORMATS = frozenset({"tau-bench"})


def _args(value: Any) -> dict[str, Any]:
    # The SDK sends arguments as JSON text; other sources send objects or plain text.
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, str):
        try:
            parsed = json.loads(value)
        except ValueError:
            parsed = None
        if isinstance(parsed, Mapping):
            return dict(parsed)
        return {"input": value} if value else {}
    return {} if value is None else {"input": value}


def _success(span: Span) -> bool | None:
    if span.metadata.get("error"):
        return False
    success = span.metadata.get("success")
    return success if isinstance(success, bool) else None


def _only_calls(span: Span, calls: Sequence[Span]) -> bool:
    # An importer writes a model turn that only calls tools as ``name(arguments)``, one a
    # line, so that a judge still reads something; the customer was told nothing.
    names = {c.name for c in calls}
    lines = [line for line in span.output_text.splitlines() if line.strip()]
    return bool(names and lines) and all(
        line.rstrip().endswith(")") and line.split("(", 1)[0].strip() in names for line in lines)


def _model_steps(trace: Trace) -> list[tuple[Span, list[Span]]]:
    """Each model step, in order, with the tool spans that follow it (its calls)."""
    steps = [s for s in trace.walk() if s.type in ("llm", "tool")]
    out: list[tuple[Span, list[Span]]] = []
    for span in steps:
        if span.type == "llm":
            out.append((span, []))
        elif out:
            out[-1][1].append(span)
    return out


def _replies(steps: Sequence[tuple[Span, list[Span]]]) -> list[Span]:
    """The model steps (:func:`_model_steps`), in order, that said something: a non-empty
    output that is not only the step's tool calls rendered as text."""
    return [span for span, calls in steps
            if span.output_text.strip() and not _only_calls(span, calls)]


def _exchanges(trace: Trace) -> list[tuple[str, str]]:
    # A model step with an input starts a new exchange; the reply is the last words
    # before it (the ones the user answered), as a run's final answer is its last output.
    exchanges: list[tuple[str, str]] = []
    question, reply = trace.goal, ""
    said = {id(s) for s in _replies(_model_steps(trace))}
    for span in trace.llm_spans:
        if span.input_text.strip():
            exchanges.append((question, reply))
            question, reply = span.input_text, ""
        if id(span) in said:
            reply = span.output_text
    exchanges.append((question, reply))
    return exchanges


def records_chat(run: Run) -> bool:
    """True when ``run`` was imported from a chat with a customer (:data:`CHAT_FORMATS`).
    Elsewhere a model step's input is its prompt (the SDK's ``prompt``, an exported
    generation) or a tool's observation, not a message from the user."""
    started = run.started
    return started is not None and started.payload.get("source_format") in CHAT_FORMATS


# What an agent was given besides what it retrieved: its instructions (the run's system
# prompt: a policy, a manual). A claim they state is no hallucination, but the whole
# policy as context made HALLUCINATION fire more, not less (docs/real-run-evaluators.md,
# "Four readings of what an agent was given"): its rules read as facts a claim
# contradicts. So only its sentences that state a fact and carry a value of the answer
# (a number, a code, a name) are context. The customer's later messages are not context:
# there they moved TASK_UNDERSTANDING_FAILURE (a request the customer changed reads as
# evidence of another one); their fact sentences go to ``RunCase.told`` instead.
_PIECE = re.compile(r"(?<=[.!?])\s+|\s*\n\s*")
_MARKER = re.compile(r"^\s*(?:[-*•>#]+|\d+[.)])\s*", re.MULTILINE)  # list markers: no values
_NUMBER = re.compile(r"(?<!\w)\d+(?:[.,:]\d+)*(?!\w)")
_CODE = re.compile(r"\b(?=[A-Za-z_]*\d)(?=\w*[A-Za-z])\w{2,}\b")
_NAME = re.compile(r"(?<![.!?:\n]\s)(?<![\n\"'(*#-])(?<!^)\b[A-Z][a-z]+\b")  # not a sentence's first word
_NOT_FACT = re.compile(r"\b(?:not|never|no|cannot|unless|if|only)\b|n['\u2019]t\b|\?", re.IGNORECASE)
_FACT_WORDS = 3  # a shorter piece is a heading or a list marker
_LONG_WORD = re.compile(r"[a-z]{5,}")  # "health", "doctor": fewer of them are function words


def _values(text: str) -> set[str]:
    text = _MARKER.sub("", text)
    return {*_NUMBER.findall(text), *_CODE.findall(text), *_NAME.findall(text)}


# "Flight can be cancelled if any of the following is true:" then "- The booking was made
# within the last 24 hrs": an item under a lead-in that states a condition is that
# condition, not a fact of the run, though its own words state none (on the real-run blind
# half, four careful "it was not booked within the last 24 hours" read as contradicting it).
# A lead-in that opens on its condition ("If the booking user is a gold member:") lists what
# holds then, and its items stay.
_ITEM = re.compile(r"^\s*(?:[-*\u2022]+|\d+[.)])\s+")
_OPENS_ON_CONDITION = re.compile(r"^\W*(?:if|when|unless|for)\b", re.IGNORECASE)


def _unconditional(text: str) -> str:
    """``text`` less the list items under a lead-in (a line ending in ":") that states a
    condition they meet."""
    kept, conditional = [], False
    for line in text.splitlines():
        if not _ITEM.match(line) and line.strip():
            conditional = line.rstrip().endswith(":") and bool(_NOT_FACT.search(line)) \
                and not _OPENS_ON_CONDITION.match(line)
        elif conditional:
            continue
        kept.append(line)
    return "\n".join(kept)


def _supporting(text: str, answer: str) -> tuple[str, str]:
    """The sentences of ``text`` that state a fact (no negation, condition or question, nor
    an item of a condition's list), one a line: those carrying a value of ``answer``, and
    those carrying none that share ``_SHARED_WORDS`` of its longer words."""
    values = _values(answer)
    words = set(_LONG_WORD.findall(answer.lower()))
    valued: list[str] = []
    worded: list[str] = []
    for piece in _PIECE.split(_unconditional(text)):
        if len(piece.split()) < _FACT_WORDS or _NOT_FACT.search(piece):
            continue
        if values & _values(piece):
            valued.append(piece.strip())
        elif len(words & set(_LONG_WORD.findall(piece.lower()))) >= _SHARED_WORDS:
            worded.append(piece.strip())
    return "\n".join(valued), "\n".join(worded)


# A rule the answer gives as its reason ("travel insurance covers cancellations for health
# or weather reasons", "if any portion of the flight has already been flown") is no fact of
# the run, and carries no value of the answer: the instructions' sentences that share two of
# the answer's longer words are what it may cite.
_WORD = re.compile(r"[a-z]{4,}")
_SHARED_WORDS = 2


def _citable(text: str, answer: str) -> str:
    """The sentences of ``text`` that share ``_SHARED_WORDS`` longer words with ``answer``,
    one a line."""
    words = set(_WORD.findall(answer.lower()))
    return "\n".join(
        piece.strip() for piece in _PIECE.split(text)
        if len(piece.split()) >= _FACT_WORDS
        and len(words & set(_WORD.findall(piece.lower()))) >= _SHARED_WORDS)


# A coding harness sends the task inside its own procedure: the issue in a tagged block
# (mini-swe-agent's ``<pr_description>``, OpenHands' ``<issue_description>``) or under a
# heading (SWE-agent's "ISSUE:"), then pages on how to answer, which tools to use and how
# to submit. Read as the request, that procedure was a list of parts no run answers ("A
# THOUGHT section explaining your reasoning", "non-test files"): on 75 SWE-bench runs of
# bench/real_runs/coding_tune.jsonl TASK_COMPLETION fired on all 55 resolved. The task is
# the request; the procedure is the agent's instructions, as a system prompt is.
_TASK_BLOCK = re.compile(r"<(?P<tag>[\w-]*(?:description|issue|task|problem|request|question)[\w-]*)>"
                         r"\s*(?P<task>.+?)\s*</(?P=tag)>", re.DOTALL | re.IGNORECASE)
_PROCEDURE = re.compile(r"^[ \t#*]*(?:<instructions>|(?:task )?instructions:?[ \t*]*$)",
                        re.MULTILINE | re.IGNORECASE)


_HIDDEN = re.compile(r"<!--.*?-->\s*", re.DOTALL)  # an issue template's notes, never shown


def _task(goal: str) -> tuple[str, str]:
    """(the task a harness's goal states, the procedure around it); the goal itself and
    ``""`` when it wraps nothing."""
    goal = _HIDDEN.sub("", goal)
    block = _TASK_BLOCK.search(goal)
    if block and len(block.group("task").split()) >= _FACT_WORDS:
        return block.group("task"), (goal[: block.start()] + goal[block.end():]).strip()
    cut = _PROCEDURE.search(goal)
    if cut and goal[: cut.start()].strip():
        return goal[: cut.start()].strip(), goal[cut.start():].strip()
    return goal, ""


# A harness that has the model write its command in its reply (mini-swe-agent's fenced
# ```bash``` block) records the command twice, in the words and as the call; the words
# told nobody the command. The block that holds a call's argument is the call, not words.
_FENCE = re.compile(r"```[\w+-]*\n(.*?)\n?```", re.DOTALL)


def _said(span: Span, calls: Sequence[Span]) -> str:
    """What the model step says, less the fenced blocks that render its calls."""
    args = {str(v).strip() for c in calls for v in _args(c.input).values() if str(v).strip()}
    if not args:
        return span.output_text
    return _FENCE.sub(lambda m: "" if m.group(1).strip() in args else m.group(0), span.output_text).strip()


# A call that ends the run and carries its last words (OpenHands' ``finish`` with its
# ``message``): those words are the answer, the model's turn before it their preamble.
_FINISH = re.compile(r"^(?:finish|submit|final_answer|attempt_completion|complete_task|task_complete)$")


def _finish_message(steps: Sequence[tuple[Span, list[Span]]]) -> str:
    """The last words of a run whose last model step ends on a finishing call."""
    calls = steps[-1][1] if steps else []
    last = calls[-1] if calls else None
    if last is None or not _FINISH.match(last.name.lower()):
        return ""
    text = [v for v in _args(last.input).values() if isinstance(v, str) and len(v.split()) >= _FACT_WORDS]
    return max(text, key=len) if text else ""


def run_case_from_trace(trace: Trace, *, id: str = "", label: bool | None = None,
                        chat: bool = False, instructions: str = "") -> RunCase | None:
    """The run case of a trace; ``None`` when it has no goal or no LLM output. With
    ``chat`` (the trace records a chat: :func:`records_chat`), a turn that only called
    tools told the customer nothing: it is a step (the agent's work), never the answer.
    The context is what the agent retrieved, then the sentences of ``instructions`` (the
    run's system prompt: :func:`system_prompt`) that state a fact with a value of the
    answer, in one entry."""
    # The goal stays the opening request in a chat too: on 421 real chats, taking every
    # customer message as the input (with the last reply, or every reply, as the output)
    # made the run-level evaluators fire more often on runs that succeeded
    # (docs/real-run-evaluators.md).
    steps = _model_steps(trace)
    words = [(span, _said(span, calls)) for span, calls in steps]
    spoken = [(span, text) for span, text in words if text.strip()]
    replies = _replies(steps) if chat else []
    answers = [(span, text) for span, text in spoken if any(span is r for r in replies)] if chat else spoken
    if not trace.goal.strip() or not answers:
        return None
    answer, last = answers[-1]
    request, procedure = (trace.goal, "") if chat else _task(trace.goal)
    final = ("" if chat else _finish_message(steps)) or last
    case = RunCase(
        id=id or trace.trace_id,
        input=request,
        output=final,
        context=tuple(s.output_text for s in trace.spans_of_type("retriever")
                      if s.output_text.strip()),
        tools_called=tuple(ToolCall(name=s.name, args=_args(s.input), output=s.output_text,
                                    success=_success(s)) for s in trace.tool_spans),
        steps=tuple(text for span, text in spoken if span is not answer) + ((last,) if final != last else ()),
        label=label,
    )
    # A run that retrieved nothing and called no tool has no record to check its answer
    # against; its own instructions are none.
    instructions = "\n".join(t for t in (instructions, procedure) if t)
    given = _supporting(instructions, final)[0] if case.grounded else ""
    # What the customer stated later (a city, a card's last digits, a reading) is known to
    # the agent: the same fact sentences, read by HALLUCINATION alone (RunCase.told).
    later = "\n".join(q for q, _ in _exchanges(trace)[1:]) if chat and case.grounded else ""
    # A reason the customer gave in words the answer repeats ("this is due to a health
    # issue") is a cause the answer may state, as its rules' are; as told, a wish or a claim
    # the customer made read as a record the answer denied ("issue the refund as a gift card").
    told, heard = _supporting(later, final) if later else ("", "")
    reasons = "\n".join(t for t in (_citable(instructions, final) if case.grounded else "", heard) if t)
    return replace(case, context=(*case.context, given) if given else case.context,
                   told=(told,) if told else (), reasons=(reasons,) if reasons else ())


def system_prompt(run: Run) -> str:
    """The system prompt ``run`` started with (its agent's instructions), or ``""``."""
    started = run.started
    return str(started.payload.get("system_prompt") or "") if started else ""


def run_case(run: Run) -> RunCase | None:
    """The run case of a recorded run; ``None`` when it has no input or no output."""
    return run_case_from_trace(run.to_trace(), id=run.run_id, chat=records_chat(run),
                               instructions=system_prompt(run))


def trace_case(run: Run) -> TraceCase:
    """What AGENT_LOOP reads about a run: its trace."""
    return TraceCase(id=run.run_id, trace=run.to_trace())


def _started(run: Run) -> float:
    return run.events[0].timestamp if run.events else 0.0


def conversation_case(
    runs: Sequence[Run], *, last: int = CONVERSATION_RUNS, id: str = ""
) -> ConversationCase | None:
    """The conversation of ``runs`` (one conversation's runs, any order): the last ``last``
    by start time, a user turn and an assistant turn each; ``None`` when no turn is left."""
    chosen = sorted(runs, key=_started)[-last:] if last > 0 else []
    turns: list[Turn] = []
    for run in chosen:
        trace = run.to_trace()
        if trace.goal.strip():
            turns.append(Turn("user", trace.goal))
        outputs = [s.output_text for s in trace.llm_spans if s.output_text.strip()]
        if outputs:
            turns.append(Turn("assistant", outputs[-1]))
    if not turns:
        return None
    return ConversationCase(id=id or (chosen[-1].conversation_id or ""), turns=tuple(turns))


def conversation_case_from_trace(
    trace: Trace, *, last: int = CONVERSATION_RUNS, upto: int | None = None, id: str = ""
) -> ConversationCase | None:
    """The conversation a trace records (an imported chat): its last ``last`` exchanges up
    to exchange ``upto`` (0-based; default the last), a user turn and the agent's reply
    each, as the platform would read them after that exchange; ``None`` when no turn is left."""
    exchanges = _exchanges(trace)
    end = len(exchanges) if upto is None else upto + 1
    turns: list[Turn] = []
    for question, reply in exchanges[max(0, end - last):end] if last > 0 else []:
        if question.strip():
            turns.append(Turn("user", question))
        if reply.strip():
            turns.append(Turn("assistant", reply))
    if not turns:
        return None
    return ConversationCase(id=id or trace.trace_id, turns=tuple(turns))


def exchange_count(trace: Trace) -> int:
    """How many exchanges (a user message and the agent's reply) a trace records."""
    return len(_exchanges(trace))


def cases_from_runs(
    runs: Iterable[Run], level: str, *, last: int = CONVERSATION_RUNS
) -> tuple[list[Case], list[str]]:
    """The cases of ``level`` (``run``, ``conversation`` or ``trace``) in ``runs``, and
    a note for each run or conversation that gave none."""
    runs = list(runs)
    cases: list[Case] = []
    skipped: list[str] = []
    if level == "trace":
        return [trace_case(run) for run in runs], skipped
    if level == "run":
        for run in runs:
            case = run_case(run)
            if case is None:
                skipped.append(f"run {run.run_id}: no user input or no LLM output to judge")
            else:
                cases.append(case)
        return cases, skipped
    groups: dict[str, list[Run]] = defaultdict(list)
    for run in runs:
        if records_chat(run) and exchange_count(trace := run.to_trace()) > 1:
            # A run that records a chat (an imported simulation) is a conversation of its
            # own: its retries share the customer's id but are other conversations.
            chat = conversation_case_from_trace(trace, last=last, id=run.run_id)
            if chat is None:
                skipped.append(f"run {run.run_id}: no turns")
            else:
                cases.append(chat)
        elif run.conversation_id:
            groups[run.conversation_id].append(run)
        else:
            skipped.append(f"run {run.run_id}: no conversation_id")
    for conversation_id, group in groups.items():
        conversation = conversation_case(group, last=last, id=conversation_id)
        if conversation is None:
            skipped.append(f"conversation {conversation_id}: no turns")
        else:
            cases.append(conversation)
    return cases, skipped


def _bad(message: str, field: str) -> TraceFormatError:
    return TraceFormatError(message, field=field)


def _str(raw: Mapping[str, Any], key: str, *, required: bool = True) -> str:
    value = raw.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        raise _bad(f"must be a string, not {type(value).__name__}"
                   if value is not None else "is required", key)
    return value


def _strings(raw: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = raw.get(key)
    if value is None:
        return ()
    if not isinstance(value, list):
        raise _bad(f"must be a list of strings, not {type(value).__name__}", key)
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise _bad(f"must be a string, not {type(item).__name__}", f"{key}[{i}]")
    return tuple(value)


def _id(raw: Mapping[str, Any], fallback: str = "") -> str:
    value = raw.get("id", fallback or None)
    if isinstance(value, bool) or not isinstance(value, (str, int)) or value == "":
        raise _bad("is required: a non-empty string or an integer", "id")
    return str(value)


def _label(raw: Mapping[str, Any]) -> bool | None:
    value = raw.get("label")
    if value is not None and not isinstance(value, bool):
        raise _bad(f"must be true, false or null, not {value!r}", "label")
    return value


def _tool(raw: Any, at: str) -> ToolCall:
    if not isinstance(raw, Mapping):
        raise _bad(f"must be an object, not {type(raw).__name__}", at)
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise _bad("is required: a non-empty string", f"{at}.name")
    args = raw.get("args")
    if args is not None and not isinstance(args, Mapping):
        raise _bad(f"must be an object, not {type(args).__name__}", f"{at}.args")
    output = raw.get("output")
    if output is not None and not isinstance(output, str):
        # A structured tool result is kept, as the JSON text a judge would read.
        output = json.dumps(output, ensure_ascii=False, default=str)
    success = raw.get("success")
    if success is not None and not isinstance(success, bool):
        raise _bad(f"must be true, false or null, not {success!r}", f"{at}.success")
    return ToolCall(name=name, args=dict(args or {}), output=output or "", success=success)


def _turn(raw: Any, at: str) -> Turn:
    if not isinstance(raw, Mapping):
        raise _bad(f"must be an object, not {type(raw).__name__}", at)
    role = raw.get("role")
    if role not in ("user", "assistant"):
        raise _bad(f"must be 'user' or 'assistant', not {role!r}", f"{at}.role")
    content = raw.get("content")
    if not isinstance(content, str):
        raise _bad(f"must be a string, not {type(content).__name__}", f"{at}.content")
    return Turn(role, content)


def parse_case(raw: Any) -> Case:
    """One case from a parsed JSON line; :class:`TraceFormatError` names the bad field."""
    if not isinstance(raw, Mapping):
        raise TraceFormatError(f"a case must be a JSON object, not {type(raw).__name__}")
    if "turns" in raw:
        turns = raw["turns"]
        if not isinstance(turns, list) or not turns:
            raise _bad("must be a non-empty list of turns", "turns")
        return ConversationCase(
            id=_id(raw), turns=tuple(_turn(t, f"turns[{i}]") for i, t in enumerate(turns)),
            label=_label(raw),
        )
    if "root" in raw:
        trace = Trace.from_dict(raw)
        return TraceCase(id=_id(raw, trace.trace_id), trace=trace, label=_label(raw))
    tools = raw.get("tools_called")
    if tools is not None and not isinstance(tools, list):
        raise _bad(f"must be a list of tool calls, not {type(tools).__name__}", "tools_called")
    return RunCase(
        id=_id(raw),
        input=_str(raw, "input"),
        output=_str(raw, "output"),
        context=_strings(raw, "context"),
        tools_called=tuple(_tool(t, f"tools_called[{i}]") for i, t in enumerate(tools or [])),
        steps=_strings(raw, "steps"),
        label=_label(raw),
    )


_SHAPES = {
    "run": "run cases ({\"id\", \"input\", \"output\", ...}) or traces",
    "conversation": "conversation cases ({\"id\", \"turns\"})",
    "trace": "trace cases ({\"id\", \"goal\", \"root\"})",
}


def as_level(case: Case, level: str) -> Case:
    """``case`` as what an evaluator of ``level`` reads: a trace case becomes its run case
    for a run-level evaluator; any other mismatch is a :class:`TraceFormatError`."""
    if level == "run" and isinstance(case, TraceCase):
        run = run_case_from_trace(case.trace, id=case.id, label=case.label)
        if run is None:
            raise _bad("the trace has no goal or no LLM output to judge", "root")
        return run
    fits = {"run": RunCase, "conversation": ConversationCase, "trace": TraceCase}[level]
    if not isinstance(case, fits):
        # The field at fault: the turns that should not be there, or the key that is missing.
        wrong = isinstance(case, ConversationCase) or level == "conversation"
        raise _bad(f"this evaluator reads {_SHAPES[level]}, not a {type(case).__name__}",
                   "turns" if wrong else "root")
    return case


def parse_case_lines(
    lines: Iterable[str], *, source: str = "", level: str | None = None
) -> tuple[list[Case], list[TraceFormatError]]:
    """Every readable case of a JSONL text, and a located error for each line that is not
    one (the other lines are still read). Blank lines are skipped. With ``level`` each
    case is read as an evaluator of that level needs it (:func:`as_level`)."""
    cases: list[Case] = []
    errors: list[TraceFormatError] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except ValueError as exc:
            errors.append(TraceFormatError(f"not valid JSON: {exc}", source=source or None,
                                           line=number))
            continue
        try:
            case = parse_case(raw)
            cases.append(as_level(case, level) if level else case)
        except TraceFormatError as exc:
            errors.append(exc.located(source=source or None, line=number))
    return cases, errors
