"""Detectors of doing the same thing again: tool loops, thrashing between two tools,
truncation loops, runaway iteration, and the library's lexical loop metric."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..events import Run, Severity, Signal
from ._patterns import claims_completion
from ._registry import Detector, Param, ratio_confidence, signal
from ._view import Call, is_empty_result, view_of
from .baseline import Baseline

__all__ = [
    "AGENT_LOOP",
    "LLM_TRUNCATION_LOOP",
    "RUNAWAY_ITERATION",
    "TOOL_LOOP",
    "TOOL_THRASHING",
    "repeats",
]

_SHOWN_ARGS = 200


def repeats(a: Call, b: Call) -> bool:
    """``b`` does what ``a`` did and learned nothing new: same tool, same arguments (up to
    key order, case and whitespace) and the same answer (or an unrecorded one)."""
    if a.name != b.name or a.key != b.key:
        return False
    ao, bo = a.output_key, b.output_key
    return ao is None or bo is None or ao == bo


def _densest(positions: Sequence[int], window: int) -> tuple[int, int]:
    """(start, count) of the most positions inside any ``window`` consecutive slots."""
    best = (0, 0)
    lo = 0
    for hi, pos in enumerate(positions):
        while pos - positions[lo] >= window:
            lo += 1
        if hi - lo + 1 > best[1]:
            best = (lo, hi - lo + 1)
    return best


def _cycle(calls: Sequence[Call], threshold: int, max_period: int) -> tuple[list[Call], int]:
    """The longest back-to-back repetition of a block of 2..max_period calls (A-B-C-A-B-C…)
    whose calls repeat one another, as (calls, blocks)."""
    best: tuple[list[Call], int] = ([], 0)
    n = len(calls)
    for period in range(2, max_period + 1):
        for i in range(n - period * threshold + 1):
            blocks = 1
            while i + (blocks + 1) * period <= n and all(
                    repeats(calls[i + (blocks - 1) * period + j], calls[i + blocks * period + j])
                    for j in range(period)):
                blocks += 1
            if blocks >= threshold and blocks * period > len(best[0]) and len(
                    {c.name for c in calls[i:i + period]}) == period:
                best = (list(calls[i:i + blocks * period]), blocks)
    return best


def _worlds(calls: Sequence[Call], wanted: set[int]) -> dict[int, str]:
    """For the calls at ``wanted`` positions: the last write before each of another kind
    of action and, unless that write restored a known state, the write before it of another
    kind (what it was made on), as a key: the same rule as the embedded judge, from
    semloop._features. Calls after the last wanted one are not read, and a call's kind is
    only worked out when it is wanted or wrote."""
    from .._features import Call as Evidence
    from .._features import action_kind, call_restores_state, run_writes

    evidence = [Evidence.of(call.name, call.args if isinstance(call.args, str) else json.dumps(
        call.args, sort_keys=True, default=str), call.output or "")
        for call in calls[:max(wanted) + 1]]
    out: dict[int, str] = {}
    # (kind, key, the world it left) of each write; a restore's key is "", the state the run
    # started from, whatever was written before it
    writes: list[tuple[str, str, str]] = []
    for pos, (call, ev, changed) in enumerate(zip(calls, evidence, run_writes(evidence))):
        if pos not in wanted and not changed:
            continue
        kind = action_kind(ev, changed)
        if pos in wanted:
            out[pos] = next((world for k, _, world in reversed(writes) if k != kind), "")
        if changed:
            key = f"{call.name}\x00{call.key}"
            if call_restores_state(ev):
                writes.append((kind, "", key))
            else:
                base = next((k2 for k, k2, _ in reversed(writes) if k != kind), "")
                writes.append((kind, key, f"{key}\x01{base}"))
    return out


def _targets(call: Call) -> tuple[tuple[str, str], ...]:
    """The arguments of a call that name what it acts on: one-word values that are ids,
    codes or dates (``SFO``, ``2024-05-20``, ``W5362037``), as the embedded judge reads
    entities. Free text and numbers are how a query is worded or tuned; a scan that finds
    nothing for one airport, date or id after another is new targets, not a repeat. When
    the answer names one of them (``transaction TX-60218 does not exist``), that one is
    what failed, and calls that kept it are one futile call whatever else they changed."""
    from .._features import entities, normalise_value

    args = call.parsed_args
    if not isinstance(args, Mapping):
        return ()
    targets = sorted((str(k), str(normalise_value(v))) for k, v in args.items()
                     if isinstance(v, str) and len(v.split()) == 1 and entities(v))
    answer = (call.output or "").lower()
    named = [(k, v) for k, v in targets if v in answer]
    return tuple(named or targets)


def _tool_loop(run: Run, p: dict[str, Any], baseline: Baseline | None) -> Signal | None:
    view = view_of(run)
    # Failed calls are retries, and RETRY_STORM judges those (a retry that then succeeds
    # is fine); a loop is the agent re-asking a question it already has the answer to.
    calls = [c for c in view.tools if not c.failed]
    threshold, window = p["threshold"], p["window"]
    if len(calls) < threshold:
        return None
    groups: dict[tuple[str, str, str], list[int]] = {}
    nothing: dict[tuple[str, str, tuple[tuple[str, str], ...]], list[int]] = {}
    # Worlds only split groups of identical calls: when no call repeats threshold times
    # they cannot change the verdict, and reading every call as evidence is the costly part.
    # Only a call whose (name, arguments) repeats threshold times can be in such a group,
    # so only those calls need their world.
    repeats = Counter((c.name, c.key) for c in calls)
    wanted = {pos for pos, c in enumerate(calls) if repeats[c.name, c.key] >= threshold}
    worlds = _worlds(calls, wanted) if wanted else {}
    for pos, call in enumerate(calls):
        world = worlds.get(pos, "")
        # The same call on another world (a write of another kind between: an edit before
        # a re-run, a return before a re-read) is a new attempt, not a repeat.
        groups.setdefault((call.name, call.key, world), []).append(pos)
        if call.output is not None and is_empty_result(call.output):
            key = (call.name, call.output_key or "", _targets(call))
            nothing.setdefault(key, []).append(pos)
    best: list[Call] = []
    matched_on = ""
    for positions in groups.values():
        if len(positions) < threshold:
            continue
        # Same arguments: split by answer (an unrecorded answer matches any), so a
        # status poll whose answer changes is not counted as one repeated call.
        by_answer: dict[str | None, list[int]] = {}
        for i in positions:
            by_answer.setdefault(calls[i].output_key, []).append(i)
        unknown = by_answer.pop(None, [])
        for answer in by_answer or {None: []}:
            if len(by_answer.get(answer, [])) + len(unknown) < max(threshold, len(best) + 1):
                continue
            same = sorted(by_answer.get(answer, []) + unknown)
            start, count = _densest(same, window)
            if count > len(best):
                best, matched_on = [calls[i] for i in same[start:start + count]], "arguments"
    # Reworded or re-optioned queries that keep finding nothing are the same futile call.
    for positions in nothing.values():
        if len(positions) >= max(threshold, len(best) + 1):
            start, count = _densest(positions, window)
            if count > len(best):
                best = [calls[i] for i in positions[start:start + count]]
                matched_on = "empty_result"
    blocks = len(best)
    if len(best) < threshold and p["max_cycle"] >= 2:
        cycle, cycle_blocks = _cycle(calls, threshold, p["max_cycle"])
        if cycle:
            best, blocks, matched_on = cycle, cycle_blocks, "cycle"
    if blocks < threshold:
        return None
    first = best[0]
    return signal(run, "TOOL_LOOP", Severity.HIGH, ratio_confidence(blocks, threshold),
                  [c.step for c in best], tool=first.name, count=blocks,
                  threshold=threshold, window=window, matched_on=matched_on,
                  tools=list(dict.fromkeys(c.name for c in best)),
                  args=str(first.args)[:_SHOWN_ARGS])


TOOL_LOOP = Detector(
    name="TOOL_LOOP",
    check=_tool_loop,
    params=(
        Param("threshold", 3, "repeated calls that make a loop", 2, 1000),
        Param("window", 5, "consecutive tool calls examined together", 2, 1000),
        Param("max_cycle", 3, "longest block of calls (A-B-C) whose back-to-back repetition "
              "is a loop; 1 turns cycle matching off", 1, 10),
    ),
    severity="HIGH",
    rule="the same tool with the same arguments and the same answer ≥ threshold times within "
         "any window of consecutive tool calls; or the same tool finding nothing (an empty "
         "result) ≥ threshold times in a window, whatever the wording of its arguments, for "
         "the same ids, codes and dates; or a block of 2 to "
         "max_cycle calls repeated back to back ≥ threshold times",
    guards=(("arguments are compared (key order, case and whitespace ignored): paging with a "
            "changing page/cursor argument is not a loop"),
            ("outputs are compared, with request ids, trace ids and timestamps masked: "
             "polling a status that changes is not a loop, the same empty answer under a "
             "fresh request id is"),
            ("different arguments count as the same call only when every answer is an empty "
             "result ([] or 0 results or not found): tools answering ok or {} are not "
             "matched that way"),
            ("a scan that finds nothing for one id, code or date after another (airports, "
             "days, orders) is new targets, not one futile call; when the answer names the "
             "value the calls kept (transaction TX-1 does not exist), that value is the "
             "target"),
            "failed calls are left to RETRY_STORM: a retry after an error is not a loop"),
)


def _alternating_stretches(calls: Sequence[Call]) -> list[tuple[int, int]]:
    """(start, end) of maximal A-B-A-B… stretches of exactly two tools."""
    out: list[tuple[int, int]] = []
    n = len(calls)
    i = 0
    while i + 2 < n:
        if calls[i].name != calls[i + 1].name and calls[i].name == calls[i + 2].name:
            j = i + 2
            while j + 1 < n and calls[j + 1].name == calls[j - 1].name:
                j += 1
            out.append((i, j + 1))
            i = j
        else:
            i += 1
    return out


def _count_repeats(calls: Sequence[Call]) -> int:
    """How many calls repeat an earlier one of ``calls`` (see :func:`repeats`), in O(n)."""
    answered: set[tuple[str, str, str]] = set()  # (name, args, answer) seen
    asked: dict[tuple[str, str], int] = {}  # (name, args) → times seen, any answer
    unanswered: set[tuple[str, str]] = set()  # (name, args) seen without an answer
    count = 0
    for c in calls:
        action = (c.name, c.key)
        answer = c.output_key
        if answer is None:
            count += action in asked
        else:
            count += (c.name, c.key, answer) in answered or action in unanswered
            answered.add((c.name, c.key, answer))
        if answer is None:
            unanswered.add(action)
        asked[action] = asked.get(action, 0) + 1
    return count


def _tool_thrashing(run: Run, p: dict[str, Any], baseline: Baseline | None) -> Signal | None:
    view = view_of(run)
    window = p["window"]
    best: tuple[int, list[Call], int] | None = None
    for start, end in _alternating_stretches(view.tools):
        stretch = view.tools[start:end]
        if len(stretch) < window:
            continue
        # A crawl (search q1, fetch u1, search q2, fetch u2…) alternates too, but each call
        # is new; thrashing goes back and forth over the same calls.
        repeated = _count_repeats(stretch)
        if repeated * 2 < len(stretch) - 2:
            continue
        if best is None or len(stretch) > len(best[1]):
            best = (start, stretch, repeated)
    if best is None:
        return None
    _, stretch, repeated = best
    return signal(run, "TOOL_THRASHING", Severity.HIGH, ratio_confidence(len(stretch), window),
                  [c.step for c in stretch], tools=sorted({stretch[0].name, stretch[1].name}),
                  length=len(stretch), repeated_calls=repeated, window=window)


TOOL_THRASHING = Detector(
    name="TOOL_THRASHING",
    check=_tool_thrashing,
    params=(Param("window", 6, "alternating tool calls that make thrashing", 4, 1000),),
    severity="HIGH",
    rule="tool calls alternate between exactly two tools (A-B-A-B…) for ≥ window calls",
    guards=(("at least half the calls after the first pair must repeat an earlier call of the "
            "stretch: a search→fetch crawl over new queries and pages is work, not thrashing"),),
)

_TRUNCATED = frozenset({"length", "max_tokens", "max_output_tokens", "model_length"})


def _llm_truncation_loop(run: Run, p: dict[str, Any], baseline: Baseline | None) -> Signal | None:
    view = view_of(run)
    cut = [c for c in view.llms if c.finish_reason.lower() in _TRUNCATED and not c.degraded]
    if len(cut) < p["threshold"]:
        return None
    return signal(run, "LLM_TRUNCATION_LOOP", Severity.HIGH,
                  ratio_confidence(len(cut), p["threshold"]), [c.step for c in cut],
                  count=len(cut), threshold=p["threshold"])


LLM_TRUNCATION_LOOP = Detector(
    name="LLM_TRUNCATION_LOOP",
    check=_llm_truncation_loop,
    params=(Param("threshold", 2, "truncated responses that make a loop", 1, 1000),),
    severity="HIGH",
    rule="≥ threshold LLM responses end with finish_reason=length",
    guards=("provider spellings are all recognised: length, max_tokens, max_output_tokens",
            "responses marked instrumentation_degraded are unmeasured and not counted"),
)


def _estimated_cost(calls: Sequence[Call], p: dict[str, Any]) -> float:
    total = 0.0
    for c in calls:
        reported = (c.response or {}).get("cost_usd")
        if isinstance(reported, (int, float)) and not isinstance(reported, bool):
            total += float(reported)
            continue
        total += (c.prompt_tokens * p["usd_per_mtok_input"]
                  + (c.completion_tokens + c.reasoning_tokens)
                  * p["usd_per_mtok_output"]) / 1e6
    return total


def _runaway_iteration(run: Run, p: dict[str, Any], baseline: Baseline | None) -> Signal | None:
    view = view_of(run)
    steps = view.step_count
    cost = _estimated_cost(view.llms, p)
    over_steps = steps > p["max_steps"]
    over_cost = cost > p["max_cost_usd"]
    if not (over_steps or over_cost) or view.final_answer:
        return None
    if view.llms and not any(c.output and not c.degraded for c in view.llms):
        return None  # no text was readable: "no completion phrase" would be a guess
    recent = [c.output for c in view.llms[-p["lookback"]:] if c.output]
    if any(claims_completion(text) for text in recent):
        return None
    confidence = max(ratio_confidence(steps, p["max_steps"]) if over_steps else 0.0,
                     ratio_confidence(cost, p["max_cost_usd"]) if over_cost else 0.0)
    beyond = [c.step for c in view.calls[p["max_steps"]:]] if over_steps else []
    return signal(run, "RUNAWAY_ITERATION",
                  Severity.CRITICAL if over_steps and over_cost else Severity.HIGH, confidence,
                  beyond or [view.calls[-1].step if view.calls else 0],
                  step_count=steps, max_steps=p["max_steps"],
                  estimated_cost_usd=round(cost, 6), max_cost_usd=p["max_cost_usd"],
                  over_steps=over_steps, over_cost=over_cost)


RUNAWAY_ITERATION = Detector(
    name="RUNAWAY_ITERATION",
    check=_runaway_iteration,
    params=(
        Param("max_steps", 50, "steps beyond which a run is runaway", 1, 1_000_000),
        Param("max_cost_usd", 1.0, "estimated spend beyond which a run is runaway",
              0.0, 1_000_000.0),
        Param("lookback", 3, "last LLM outputs searched for a completion phrase", 1, 100),
        Param("usd_per_mtok_input", 2.5, "price of a million prompt tokens, for the estimate",
              0.0, 10_000.0),
        Param("usd_per_mtok_output", 10.0, "price of a million completion tokens",
              0.0, 10_000.0),
    ),
    severity="HIGH; CRITICAL when both the step and the cost limit are exceeded",
    rule="more than max_steps steps or an estimated cost above max_cost_usd, with no "
         "final_answer and no completion phrase in the last lookback LLM outputs",
    guards=("a cost_usd reported on llm.responded is used instead of the token estimate",
            "a run that says it is done in its last outputs is long, not runaway",
            ("when the run has LLM calls but none with readable text (omitted, redacted or "
             "instrumentation_degraded), the missing completion phrase is unknown: no signal")),
)


def _open_span(children: list[dict[str, Any]], open_calls: dict[str, list[dict[str, Any]]],
               key: str, kind: str, name: str, given: Any) -> None:
    span = {"type": kind, "name": name, "input": given, "output": "", "children": []}
    children.append(span)
    open_calls.setdefault(key, []).append(span)


def _answered(children: list[dict[str, Any]], open_calls: dict[str, list[dict[str, Any]]],
              key: str, kind: str, name: str, output: Any) -> None:
    pending = open_calls.get(key)
    if pending:
        pending.pop()["output"] = output
        return
    children.append({"type": kind, "name": name, "input": "", "output": output,
                     "children": []})


def _metric_tree(run: Run) -> dict[str, Any]:
    """``run.to_trace().root.to_dict()`` without the metadata, which the lexical metric does
    not read: the same spans in the same order, a response paired with the latest open
    call of its kind, at a fifth of the cost of building and converting Span objects.
    ``tests/detect`` checks it against ``to_trace`` itself."""
    children: list[dict[str, Any]] = []
    open_calls: dict[str, list[dict[str, Any]]] = {}
    for event in run.events:
        kind = event.event_type
        p = event.payload
        if kind == "llm.called":
            _open_span(children, open_calls, "llm", "llm", str(p.get("model") or "llm"),
                       p.get("prompt", ""))
        elif kind == "llm.responded":
            _answered(children, open_calls, "llm", "llm", "llm", p.get("output", ""))
        elif kind == "tool.called":
            name = str(p.get("tool_name") or "tool")
            _open_span(children, open_calls, "tool:" + name, "tool", name, p.get("args", ""))
        elif kind == "tool.responded":
            name = str(p.get("tool_name") or "tool")
            _answered(children, open_calls, "tool:" + name, "tool", name, p.get("output", ""))
        elif kind == "retrieval.called":
            _open_span(children, open_calls, "retrieval", "retriever",
                       str(p.get("index_name") or "retrieval"), p.get("query", ""))
        elif kind == "retrieval.responded":
            _answered(children, open_calls, "retrieval", "retriever", "retriever",
                      p.get("content", ""))
    return {"type": "agent", "name": run.agent_id, "input": run.user_input, "output": "",
            "children": children}


def _loop_floor(repeats_possible: bool, stagnation_possible: bool) -> float:
    """The lowest lexical loop score a run can get (call-graph cycles score 1.0)."""
    from ..lexical import WEIGHTS, combine_scores

    return combine_scores({"tool_repetition": 0.0 if repeats_possible else 1.0,
                           "reasoning_stagnation": 0.0 if stagnation_possible else 1.0,
                           "call_graph_cycles": 1.0}, dict.fromkeys(WEIGHTS, True))


def _agent_loop(run: Run, p: dict[str, Any], baseline: Baseline | None) -> Signal | None:
    from ..lexical import MIN_MEANINGFUL_WORDS, LexicalLoopDetection, call_key

    view = view_of(run)
    if len(view.calls) < 2:
        return None
    # Skip the metric when it cannot flag the run. Run.to_trace()
    # gives a flat tree (calls under one agent span), so call-graph cycles score 1.0;
    # and tool repetition is counted here under the metric's own key (our argument key is
    # no bound on it: the metric stringifies values, so {"id": 1} and {"id": "1"} collide
    # there and not here), for the same spans _metric_tree builds: a call's raw args, ""
    # for a response without a call. If even total reasoning stagnation (0.0) cannot then
    # pull the score below threshold, the metric's answer is already known.
    # Likewise stagnation compares adjacent LLM outputs of ≥ MIN_MEANINGFUL_WORDS words:
    # without such a pair (counting every word, an upper bound) it scores 1.0.
    by_key: dict[tuple[str, str], list[int]] = {}
    metric_counts: dict[Any, int] = {}
    for c in view.tools:
        by_key.setdefault((c.name, c.key), []).append(c.step)
        k = call_key({"name": c.name, "input": c.request.get("args", "")})
        metric_counts[k] = metric_counts.get(k, 0) + 1
    repeated = max(by_key.values(), key=len, default=[])
    repeats_possible = max(metric_counts.values(), default=0) >= p["repetition_threshold"]
    # The floor with total stagnation first: when even that cannot flag the run, the
    # LLM outputs need not be read (most runs repeat no call).
    if _loop_floor(repeats_possible, True) >= p["threshold"]:
        return None
    # 20 words need 39 characters; a shorter output is ruled out without splitting it.
    wordy = [len(c.output or "") >= 2 * MIN_MEANINGFUL_WORDS - 1
             and len((c.output or "").split()) >= MIN_MEANINGFUL_WORDS for c in view.llms]
    stagnation_possible = any(a and b for a, b in itertools.pairwise(wordy))
    if _loop_floor(repeats_possible, stagnation_possible) >= p["threshold"]:
        return None
    metric = LexicalLoopDetection(
        threshold=p["threshold"], repetition_threshold=p["repetition_threshold"],
        similarity_threshold=p["similarity_threshold"])
    result = metric.measure(_metric_tree(run))
    if not result.flags_loop(p["threshold"]):
        return None
    # Name the steps that repeat: identical tool calls if any, else the LLM steps.
    steps = repeated if len(repeated) >= p["repetition_threshold"] else [c.step for c in view.llms]
    confidence = 0.5 + 0.5 * (p["threshold"] - result.score) / p["threshold"]
    return signal(run, "AGENT_LOOP", Severity.HIGH, confidence, steps,
                  score=round(result.score, 4), threshold=p["threshold"],
                  reason=result.reason, breakdown=dict(result.score_breakdown or {}))


AGENT_LOOP = Detector(
    name="AGENT_LOOP",
    check=_agent_loop,
    params=(
        Param("threshold", 0.5, "fire when the lexical loop score is below this", 0.01, 1.0),
        Param("repetition_threshold", 3, "identical tool calls the metric counts as repetition",
              2, 1000),
        Param("similarity_threshold", 0.85, "adjacent LLM outputs this similar are stagnation",
              0.0, 1.0),
    ),
    severity="HIGH",
    rule="semloop.lexical.LexicalLoopDetection (deepeval's AgentLoopDetectionMetric) scores "
         "the run below threshold; confidence = 0.5 + 0.5 × (threshold − score) / threshold",
    guards=(("it needs two of its three sub-signals (tool repetition, reasoning stagnation, "
            "call-graph cycles) to drop below 0.5, so one repeated poll alone does not fire"),),
)
