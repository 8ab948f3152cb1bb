"""`Client` and `RunContext`: the agent-facing surface, named as in Dunetrace's SDK.

Each ``RunContext`` method counts the step, packs its arguments into a tuple and hands
it to the sender's buffer; it never serialises, never does I/O and never raises into
the agent (an SDK bug is counted in ``client.stats.internal_errors`` and logged). The one
exception on purpose is :class:`PolicyViolation`, raised when a policy stops the run.
"""

from __future__ import annotations

import atexit
import functools
import logging
import time
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from types import TracebackType
from typing import Any, Literal

from .._http import RetryPolicy
from ..events import agent_version as _agent_version
from ._budgets import DetectorBudgets
from ._emitters import Emitter, HttpEmitter
from ._policies import (
    DEFAULT_APPROVAL_TIMEOUT_S,
    Approver,
    Policy,
    PolicyViolation,
    _Engine,
)
from ._records import (
    DEFAULT_MAX_FIELD_CHARS,
    DEFAULT_SECRET_KEYS,
    RunInfo,
    build_event,
    measure,
    secret_matcher,
    tool_name,
)
from ._sender import ClientStats, Sender

__all__ = ["Client", "RunContext"]

logger = logging.getLogger("semloop.sdk")

_now = time.time
#: Default bound of the buffer in bytes of text (fields are cut to ``max_field_chars``
#: before they are buffered: 30,000 events with 64 KB outputs reached 644 MB).
DEFAULT_BUFFER_BYTES = 32 * 1024 * 1024


class Client:
    """Records agent runs as events and ships them in the background.

    ``emitter`` defaults to an :class:`HttpEmitter` for ``endpoint`` (else
    ``$SEMLOOP_ENDPOINT``, else ``http://127.0.0.1:8001``) and ``api_key`` (else
    ``$SEMLOOP_API_KEY``). At most ``buffer_size`` events, holding at most about
    ``buffer_bytes`` bytes of text, wait; past either, the oldest are dropped and counted. The sender thread sends batches of up to ``batch_size`` every
    ``flush_interval`` seconds, retrying a failed batch up to ``max_retries`` times with
    exponential backoff from ``retry_backoff`` seconds (capped at ``retry_backoff_max``).
    ``redact(payload) -> payload`` runs on every payload on the sender thread; values of
    keys named like secrets (``redact_keys``) in tool args and signal meta are replaced
    first, and text fields longer than ``max_field_chars`` are cut (0 or None: never).
    Everything left is flushed at interpreter exit, or by :meth:`shutdown`.

    ``policies`` (and :meth:`add_policy`) are checked synchronously on the agent's thread
    (see ``docs/policies.md``); ``approver(request) -> bool`` answers ``require_approval``
    within ``approval_timeout`` seconds, else the run stops; ``model_prices`` extends
    :data:`MODEL_PRICES` for the ``cost_usd`` trigger; ``detector_config`` (a
    :class:`semloop.detect.DetectorConfig`) tunes the detectors ``signal`` policies run,
    and ``detector_budgets`` (a :class:`DetectorBudgets`) bounds their time per step.
    """

    def __init__(
        self,
        endpoint: str | None = None,
        api_key: str | None = None,
        *,
        emitter: Emitter | None = None,
        buffer_size: int = 10_000,
        buffer_bytes: int = DEFAULT_BUFFER_BYTES,
        flush_interval: float = 0.2,
        batch_size: int = 100,
        redact: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
        redact_keys: Iterable[str] = DEFAULT_SECRET_KEYS,
        max_field_chars: int | None = DEFAULT_MAX_FIELD_CHARS,
        max_retries: int = 4,
        retry_backoff: float = 0.2,
        retry_backoff_max: float = 5.0,
        exit_timeout: float = 5.0,
        policies: Iterable[Policy] = (),
        approver: Approver | None = None,
        approval_timeout: float = DEFAULT_APPROVAL_TIMEOUT_S,
        model_prices: Mapping[str, tuple[float, float]] | None = None,
        detector_config: Any = None,
        detector_budgets: DetectorBudgets | None = None,
    ) -> None:
        self.emitter: Emitter = emitter if emitter is not None else HttpEmitter(endpoint, api_key)
        if max_field_chars is not None and max_field_chars < 0:
            raise ValueError(f"max_field_chars must be non-negative, not {max_field_chars}")
        build = functools.partial(build_event, is_secret=secret_matcher(redact_keys),
                                  redact=redact, max_field_chars=max_field_chars)
        self._sender = Sender(
            self.emitter, build, functools.partial(measure, max_chars=max_field_chars),
            buffer_size=buffer_size, buffer_bytes=buffer_bytes, flush_interval=flush_interval,
            batch_size=batch_size,
            # No jitter (one sender per process) and no budget: the agent never waits on
            # it, and shutdown() bounds the time spent retrying.
            retry=RetryPolicy(max_retries=max_retries, backoff_s=retry_backoff,
                              max_backoff_s=retry_backoff_max, jitter=0.0, budget_s=None),
        )
        self._policies = _Engine(
            self._sender, approver=approver, approval_timeout=approval_timeout,
            model_prices=model_prices, detector_config=detector_config,
            budgets=detector_budgets,
            # Local copies for the signal trigger's detectors: secrets redacted and
            # fields cut as on the wire, but the caller's redact hook is for sending only.
            build=functools.partial(build_event, is_secret=secret_matcher(redact_keys),
                                    redact=None, max_field_chars=max_field_chars),
        )
        self._policies.add(policies)
        self._exit_timeout = exit_timeout
        atexit.register(self._at_exit)

    def __repr__(self) -> str:
        return f"Client(emitter={self.emitter!r})"

    def run(
        self,
        agent_id: str,
        *,
        user_input: str | None = None,
        system_prompt: str | None = None,
        model: str | None = None,
        tools: Sequence[Any] | None = None,
        conversation_id: str | None = None,
        parent_run_id: str | None = None,
        trace_id: str | None = None,
    ) -> RunContext:
        """A run, as a context manager: ``with client.run("agent") as run: ...``.

        Entering emits ``run.started``; leaving emits ``run.completed``, or
        ``run.errored`` when the block raised, and the exception propagates unchanged.
        ``tools`` are names (or objects with a ``name``); with ``system_prompt`` and
        ``model`` they make the run's ``agent_version``.
        """
        return RunContext(
            self._sender, agent_id, user_input=user_input, system_prompt=system_prompt,
            model=model, tools=tools, conversation_id=conversation_id,
            parent_run_id=parent_run_id, trace_id=trace_id, policies=self._policies,
        )

    def add_policy(self, policy: Policy) -> None:
        """Register one more policy; runs already under way see it from their next event
        (a ``signal`` policy only in runs started after it). A duplicate name raises
        :class:`~semloop.ConfigError`."""
        self._policies.add([policy])

    @property
    def policies(self) -> tuple[Policy, ...]:
        """The registered policies, in registration order."""
        return self._policies.policies

    @property
    def detector_budgets(self) -> DetectorBudgets:
        """The per-step detector budgets: which detectors dropped out, and ``reset()``."""
        return self._policies.budgets

    @property
    def stats(self) -> ClientStats:
        """A snapshot of the counters (see :class:`ClientStats`)."""
        return self._sender.stats()

    def flush(self, timeout: float | None = 5.0) -> bool:
        """Block until everything recorded so far is sent (or counted as failed).

        Returns False if ``timeout`` seconds passed first. Never call it per request:
        the sender ships within ``flush_interval`` anyway.
        """
        try:
            return self._sender.flush(timeout)
        except Exception:
            logger.exception("semloop: flush failed")
            return False

    def shutdown(self, timeout: float | None = 5.0) -> bool:
        """Flush, stop the sender thread and close the emitter. Idempotent."""
        atexit.unregister(self._at_exit)
        try:
            return self._sender.shutdown(timeout)
        except Exception:
            logger.exception("semloop: shutdown failed")
            return False

    def _at_exit(self) -> None:
        self.shutdown(self._exit_timeout)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()


class RunContext:
    """One run of an agent; its methods record what the agent does, in order.

    Calls (``llm_called``, ``tool_called``, ``retrieval_called``) start a new step;
    responses and ``external_signal`` keep the step of the call they belong to. With
    policies registered, ``tool_called``, ``llm_responded`` and ``tool_responded`` check
    them before returning and may raise :class:`PolicyViolation`.
    """

    __slots__ = (
        "_built",
        "_checks",
        "_cost",
        "_engine",
        "_errors",
        "_fired",
        "_info",
        "_llm",
        "_model",
        "_put",
        "_records",
        "_sender",
        "_signals",
        "_started",
        "_step",
        "_tool_calls",
        "exit_reason",
        "model_override",
        "prompt_additions",
    )

    def __init__(
        self,
        sender: Sender,
        agent_id: str,
        *,
        user_input: str | None = None,
        system_prompt: str | None = None,
        model: str | None = None,
        tools: Sequence[Any] | None = None,
        conversation_id: str | None = None,
        parent_run_id: str | None = None,
        trace_id: str | None = None,
        policies: _Engine | None = None,
    ) -> None:
        self._sender = sender
        self._put = sender.put
        self._step = 0
        self._tool_calls = 0
        #: ``"final_answer"`` once :meth:`final_answer` was called, else None.
        self.exit_reason: str | None = None
        #: Advised by a ``switch_model`` policy: the model the agent should use next.
        self.model_override: str | None = None
        #: Added by ``inject_prompt`` policies, oldest first; see :meth:`pop_prompt_addition`.
        self.prompt_additions: list[str] = []
        # Policy state. Counters are kept even with no policy registered (two integer
        # additions), so a policy added mid-run sees the whole run.
        self._engine = policies
        self._checks: dict[str, Any] = policies.checks if policies is not None else {}
        self._fired: set[str] = set()
        self._errors = 0
        self._cost = 0.0
        self._model = model
        self._llm: tuple[Any, Any] = (model, 0)
        self._records: list[Any] | None = None
        self._built: list[Any] = []
        self._signals: tuple[int, tuple[str, ...]] | None = None
        if policies is not None and policies.wants_events:
            # The signal trigger runs detectors over the run so far: keep its records.
            records: list[Any] = []
            put = sender.put

            def keep(record: Any) -> None:
                records.append(record)
                put(record)

            self._records = records
            self._put = keep
        try:
            names = [tool_name(t) for t in tools] if tools else []
            version = _agent_version(system_prompt, model, names)
        except Exception:
            self._internal_error()
            names, version = [], ""
        # Ids travel as strings; an int conversation id would be rejected by ingest.
        self._info = RunInfo(uuid.uuid4().hex, _id(agent_id) or "", version,
                             _id(conversation_id), _id(parent_run_id), _id(trace_id))
        self._started = (user_input, system_prompt, model, names)

    def __repr__(self) -> str:
        return f"RunContext(agent_id={self.agent_id!r}, run_id={self.run_id!r})"

    @property
    def run_id(self) -> str:
        return self._info.run_id

    @property
    def agent_id(self) -> str:
        return self._info.agent_id

    @property
    def agent_version(self) -> str:
        return self._info.agent_version

    @property
    def step_index(self) -> int:
        """The current step: 0 before the first call, then one more per call."""
        return self._step

    @property
    def tool_call_count(self) -> int:
        return self._tool_calls

    @property
    def error_count(self) -> int:
        """Failed tool calls plus LLM responses with an ``error``, so far."""
        return self._errors

    @property
    def cost_usd(self) -> float:
        """Estimated cost so far: the agent's ``cost_usd`` per LLM response where given,
        else tokens × :data:`MODEL_PRICES` (0 for unknown models)."""
        return self._cost

    def pop_prompt_addition(self) -> str | None:
        """The oldest prompt an ``inject_prompt`` policy added and not yet taken, or None."""
        return self.prompt_additions.pop(0) if self.prompt_additions else None

    # -- the context manager ----------------------------------------------------------

    def __enter__(self) -> RunContext:
        try:
            self._put(("run.started", self._info, 0, _now(), self._started))
        except Exception:
            self._internal_error()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None,
        tb: TracebackType | None,
    ) -> Literal[False]:
        try:
            if exc is None:
                raw: tuple[Any, ...] = (self._step, self.exit_reason or "completed",
                                        self._tool_calls)
                self._put(("run.completed", self._info, self._step, _now(), raw))
            else:
                violation = _violation_in(exc)
                # Text now, not the exception object: holding it would keep the
                # agent's frames alive until the batch is sent.
                raw = (type(exc).__name__, _safe_str(exc), self._step,
                       "policy_violation" if violation else "error",
                       violation.policy_name if violation else None)
                self._put(("run.errored", self._info, self._step, _now(), raw))
        except Exception:
            self._internal_error()
        return False  # the agent's exception, if any, propagates unchanged

    async def __aenter__(self) -> RunContext:
        # ``async with client.run(...)`` for async agents: recording never awaits.
        return self.__enter__()

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None,
        tb: TracebackType | None,
    ) -> Literal[False]:
        return self.__exit__(exc_type, exc, tb)

    # -- Dunetrace's recording methods -------------------------------------------------

    def llm_called(self, model: str, prompt_tokens: int = 0, *, prompt: Any = None) -> None:
        """The agent calls a model. ``prompt`` (optional, semloop's addition) lets
        semantic evaluators read what was asked."""
        try:
            self._step += 1
            self._llm = (model, prompt_tokens)
            self._put(("llm.called", self._info, self._step, _now(),
                       (model, prompt_tokens, prompt)))
        except Exception:
            self._internal_error()

    def llm_responded(
        self,
        completion_tokens: int = 0,
        reasoning_tokens: int = 0,
        latency_ms: float = 0,
        finish_reason: str | None = "stop",
        output: Any = "",
        output_length: int | None = None,
        prompt_tokens: int = 0,
        error: str | None = None,
        *,
        cost_usd: float | None = None,
    ) -> None:
        """The model answered. ``output_length`` defaults to ``len(output)``.

        ``cost_usd``, when the agent knows it, replaces the estimate from tokens and
        :data:`MODEL_PRICES` for this call. May raise :class:`PolicyViolation`.
        """
        try:
            self._put(("llm.responded", self._info, self._step, _now(),
                       (completion_tokens, reasoning_tokens, latency_ms, finish_reason,
                        output, output_length, prompt_tokens, error, cost_usd)))
            if error:
                self._errors += 1
            if cost_usd is not None:
                self._cost += float(cost_usd)
            elif self._engine is not None:
                model, called_tokens = self._llm
                self._cost += self._engine.cost(model or self._model,
                                                prompt_tokens or called_tokens,
                                                completion_tokens)
        except Exception:
            self._internal_error()
        checks = self._checks.get("llm.responded")
        if checks is not None:
            self._engine.check(self, checks, {  # type: ignore[union-attr]
                "finish_reason": finish_reason, "latency_ms": latency_ms,
                "completion_tokens": completion_tokens, "error": error,
                "model": self._llm[0]})

    def tool_called(self, tool_name: str, args: Mapping[str, Any] | None = None) -> None:
        """The agent calls a tool with ``args`` (sent as JSON text, secrets redacted).

        Call it before running the tool: a ``before_tool_call`` policy may block here for
        approval, and raises :class:`PolicyViolation` (nothing recorded) when denied.
        """
        checks = self._checks.get("before_tool_call")
        if checks is not None:
            self._engine.check(self, checks, {  # type: ignore[union-attr]
                "tool_name": tool_name, "args": args})
        try:
            self._step += 1
            self._tool_calls += 1
            if type(args) is dict:
                # A shallow copy: args are serialised later, on the sender thread, and
                # agents often reuse and mutate one dict between calls.
                args = args.copy()
            self._put(("tool.called", self._info, self._step, _now(), (tool_name, args)))
        except Exception:
            self._internal_error()
        checks = self._checks.get("tool.called")
        if checks is not None:
            self._engine.check(self, checks, {  # type: ignore[union-attr]
                "tool_name": tool_name, "args": args})

    def tool_responded(
        self,
        tool_name: str,
        success: bool = True,
        output_length: int | None = None,
        latency_ms: float = 0,
        error: str | None = None,
        output: Any = "",
    ) -> None:
        """The tool returned (or failed: ``success=False`` with ``error``).
        May raise :class:`PolicyViolation`."""
        try:
            self._put(("tool.responded", self._info, self._step, _now(),
                       (tool_name, success, output_length, latency_ms, error, output)))
            if not success:
                self._errors += 1
        except Exception:
            self._internal_error()
        checks = self._checks.get("tool.responded")
        if checks is not None:
            self._engine.check(self, checks, {  # type: ignore[union-attr]
                "tool_name": tool_name, "success": success, "latency_ms": latency_ms,
                "error": error})

    def retrieval_called(self, index_name: str, query: str = "") -> None:
        """The agent queries a retrieval index."""
        try:
            self._step += 1
            self._put(("retrieval.called", self._info, self._step, _now(),
                       (index_name, query)))
        except Exception:
            self._internal_error()

    def retrieval_responded(
        self,
        index_name: str,
        result_count: int,
        top_score: float | None = None,
        latency_ms: float = 0,
        content: Any = "",
    ) -> None:
        """The index answered with ``result_count`` results."""
        try:
            self._put(("retrieval.responded", self._info, self._step, _now(),
                       (index_name, result_count, top_score, latency_ms, content)))
        except Exception:
            self._internal_error()

    def external_signal(self, signal_name: str, source: str = "", **meta: Any) -> None:
        """Something outside the agent happened (rate limit, cache miss…); no new step."""
        try:
            self._put(("external.signal", self._info, self._step, _now(),
                       (signal_name, source, meta)))
        except Exception:
            self._internal_error()

    def memory_written(self, key: str, value: Any, source: str = "") -> None:
        """The agent stored ``value`` under ``key`` in its memory; ``source`` says where
        the value came from (``user``, ``retrieval``, ``tool_output``, ``external``…)."""
        self._memory("memory.written", key, value, source)

    def memory_read(self, key: str) -> None:
        """The agent read ``key`` back from its memory."""
        self._memory("memory.read", key, None, "")

    def memory_cleared(self, key: str) -> None:
        """The agent deleted ``key`` from its memory."""
        self._memory("memory.cleared", key, None, "")

    def _memory(self, event_type: str, key: str, value: Any, source: str) -> None:
        # No new step: a memory operation happens within the step that does it.
        try:
            self._put((event_type, self._info, self._step, _now(), (key, value, source)))
        except Exception:
            self._internal_error()

    def final_answer(self) -> None:
        """The agent produced its final answer: the run ends with that exit reason."""
        self.exit_reason = "final_answer"

    def _internal_error(self) -> None:
        try:
            self._sender.internal_errors += 1
            logger.exception("semloop: SDK error while recording a run (ignored)")
        except Exception:
            pass  # not even logging may break the agent


def _id(value: Any) -> str | None:
    if value is None or type(value) is str:
        return value
    try:
        return str(value)
    except Exception:
        return None


def _violation_in(exc: BaseException) -> PolicyViolation | None:
    """The PolicyViolation ``exc`` is, or was raised from (an agent may wrap it)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, PolicyViolation):
            return current
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return None


def _safe_str(exc: BaseException) -> str:
    try:
        return str(exc)
    except Exception:
        return f"<unprintable {type(exc).__name__}>"
