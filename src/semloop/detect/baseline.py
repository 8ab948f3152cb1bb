"""Per-agent baselines: what "normal" looks like for one agent_id + agent_version.

Six detectors compare a run with the P75 of the agent's recent healthy runs instead
of a fixed number, so a slow-but-healthy agent is not flagged all day. Until
``min_runs`` runs exist the baseline is not ready and those detectors use static
fallbacks.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..events import Run
from ._view import Call, RunView, view_of

__all__ = [
    "USER_TURNS",
    "WINDOW",
    "Baseline",
    "BaselineHistory",
    "context_growth",
    "llm_tool_ratio",
    "percentile",
    "prompt_series",
    "reasoning_calls",
    "total_tokens",
]

WINDOW = 50
MIN_RUNS = 20


def percentile(values: Sequence[float], q: float) -> float | None:
    """Linear-interpolated percentile (``q`` in 0..100); None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100.0
    lo = int(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def total_tokens(view: RunView) -> int:
    """Prompt + completion + reasoning tokens over the run's LLM calls."""
    return sum(c.prompt_tokens + c.completion_tokens + c.reasoning_tokens for c in view.llms)


def added_tokens(view: RunView) -> int:
    """Tokens the run added, not counting context re-sent with every call.

    Each call's prompt normally repeats the previous prompt and answer; only its growth
    beyond them is new (tool results, a user turn). The sum telescopes to about the final
    context plus what the model wrote, so a long-context agent is not read as a spike.
    """
    added = 0
    sent = 0  # what the previous call's prompt and answer already put in the context
    for c in view.llms:
        added += max(0, c.prompt_tokens - sent) + c.completion_tokens + c.reasoning_tokens
        sent = c.prompt_tokens + c.completion_tokens
    return added


def prompt_series(view: RunView) -> list[tuple[int, int]]:
    """(step, prompt tokens) of each LLM call that reported them."""
    return [(c.step, n) for c in view.llms if (n := c.prompt_tokens) > 0]


def context_growth(view: RunView) -> float | None:
    """Last prompt size over the first: how much the context grew during the run."""
    series = prompt_series(view)
    if len(series) < 2:
        return None
    return series[-1][1] / series[0][1]


#: External signals that carry what the user wrote after the input (Dunetrace's names).
USER_TURNS = frozenset({"user_message", "user_turn", "user_reply", "user_input",
                        "clarification"})


def _line(text: str) -> str:
    return text.strip().lower()[-200:]


def _lines(text: str) -> set[str]:
    return {_line(line) for line in text.splitlines()}


_WORD = re.compile(r"[a-z0-9]+")


def _probe(text: str) -> str:
    """The first five words of ``text``, letters and digits only: found in a prompt
    whatever quoting or JSON escaping the prompt's recorder applied."""
    words = _WORD.findall(text[:500].lower())[:5]
    return " ".join(words) if len(words) >= 2 else ""


def reasoning_calls(view: RunView) -> list[Call]:
    """The LLM calls that think, not the ones that answer a new user turn.

    A chat agent's reply to the customer's next message is a turn of the conversation,
    not reasoning without tools. A call answers one when a user-turn signal came since
    the previous call, or when its recorded prompt is the new message alone: it ends with
    a line nobody in the run had written before (not the input, a tool's or the model's
    output, nor an earlier prompt's last line: a harness's repeated "continue" nudge is
    not new input), and it does not carry the chat history (the input's or the previous
    answer's first words), as SDK prompts do.
    """
    if not view.externals and not any(c.request.get("prompt") for c in view.llms):
        return view.llms  # the common case: nothing marks a user turn
    turns = sorted(e.step for e in view.externals if e.name in USER_TURNS)
    # Lines, not a growing text: a set keeps each check O(1) on long runs.
    seen = _lines(view.input_text) | _lines(view.system_prompt)
    history = [p for p in (_probe(view.input_text),) if p]
    out: list[Call] = []
    last = -1
    for call in view.calls:
        if call.kind == "llm":
            prompt = str(call.request.get("prompt") or "").rstrip()
            line = _line(prompt[prompt.rfind("\n") + 1:]) if prompt else ""
            answers = any(last < t <= call.step for t in turns) or bool(
                line and line not in seen
                and not any(p in " ".join(_WORD.findall(prompt.lower())) for p in history))
            if not answers:
                out.append(call)
            seen.add(line)
            last = call.step
            if call.output and (probe := _probe(call.output)):
                history[1:] = [probe]  # the previous answer, which a history repeats
        if call.output:
            seen |= _lines(call.output)
    return out


def llm_tool_ratio(view: RunView) -> float:
    """Reasoning LLM calls (not answers to a user turn) per tool call; the calls alone
    when no tool was called."""
    return len(reasoning_calls(view)) / max(1, len(view.tools))


@dataclass(frozen=True)
class Baseline:
    """P75 figures over an agent's recent successful runs; ``None`` = no data."""

    run_count: int = 0
    tool_latency_ms: float | None = None
    llm_latency_ms: float | None = None
    retrieval_latency_ms: float | None = None
    context_growth: float | None = None
    step_count: float | None = None
    llm_tool_ratio: float | None = None
    total_tokens: float | None = None
    duration_s: float | None = None
    min_runs: int = MIN_RUNS

    @property
    def ready(self) -> bool:
        """Enough runs to trust; below this the detectors use static fallbacks."""
        return self.run_count >= self.min_runs

    def latency_ms(self, kind: str) -> float | None:
        return {"tool": self.tool_latency_ms, "llm": self.llm_latency_ms,
                "retrieval": self.retrieval_latency_ms}.get(kind)

    @classmethod
    def from_runs(
        cls, runs: Iterable[Run], *, agent_id: str | None = None,
        agent_version: str | None = None, window: int = WINDOW, min_runs: int = MIN_RUNS,
    ) -> Baseline:
        """P75s over the newest ``window`` completed runs (of one agent and version, if given).

        Errored, stalled and still-running runs are left out: a baseline of failures
        would make failures look normal. (The store also leaves out runs with a live
        signal: :meth:`semloop.store.Store.recent_runs`.)
        """
        chosen = [
            r for r in runs
            if r.events and r.status == "completed"
            and (agent_id is None or r.agent_id == agent_id)
            and (agent_version is None or r.agent_version == agent_version)
        ]
        chosen.sort(key=lambda r: r.events[0].timestamp, reverse=True)
        return cls.from_views([view_of(r) for r in chosen[:window]], min_runs=min_runs)

    @classmethod
    def from_views(cls, views: Sequence[RunView], *, min_runs: int = MIN_RUNS) -> Baseline:
        """P75s over these runs' views, all of them."""
        latencies: dict[str, list[float]] = {"tool": [], "llm": [], "retrieval": []}
        for v in views:
            for c in v.calls:
                if c.latency_ms is not None:
                    latencies[c.kind].append(c.latency_ms)
        growths = [g for v in views if (g := context_growth(v)) is not None]
        return cls(
            run_count=len(views),
            tool_latency_ms=percentile(latencies["tool"], 75),
            llm_latency_ms=percentile(latencies["llm"], 75),
            retrieval_latency_ms=percentile(latencies["retrieval"], 75),
            context_growth=percentile(growths, 75),
            step_count=percentile([v.step_count for v in views], 75),
            llm_tool_ratio=percentile([llm_tool_ratio(v) for v in views if v.llms], 75),
            total_tokens=percentile([t for v in views if (t := total_tokens(v)) > 0], 75),
            duration_s=percentile([v.duration_s for v in views], 75),
            min_runs=min_runs,
        )


class BaselineHistory:
    """One agent version's completed runs, viewed once, for the baselines of several runs.

    A run's baseline counts only runs that ended before it did, and none that
    :meth:`flag` marked (the worker marks a run of its batch once it finds a live signal
    in it; the store leaves out runs flagged before), so its verdict is the same whenever
    a worker gets to it: on time, after a backlog, or on a retry.
    """

    def __init__(self, runs: Iterable[Run]) -> None:
        done = sorted((r for r in runs if r.events and r.status == "completed"),
                      key=lambda r: r.ended_at, reverse=True)
        self._ended = [r.ended_at for r in done]
        self._ids = [r.run_id for r in done]
        self._views = [view_of(r) for r in done]
        self._flagged: set[str] = set()

    def flag(self, run_id: str) -> None:
        """Leave ``run_id`` out of later baselines: it had a live signal."""
        self._flagged.add(run_id)

    def before(self, run: Run, *, window: int = WINDOW, min_runs: int = MIN_RUNS) -> Baseline:
        """The baseline of ``run``: the newest ``window`` unflagged runs that ended before it."""
        end = run.ended_at
        flagged = self._flagged
        views = [v for t, rid, v in zip(self._ended, self._ids, self._views, strict=True)
                 if t < end and rid != run.run_id and rid not in flagged]
        return Baseline.from_views(views[:window], min_runs=min_runs)
