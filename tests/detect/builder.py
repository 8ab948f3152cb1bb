"""A tiny run builder that emits the event sequences the SDK would, for the corpus."""

from __future__ import annotations

import itertools
from typing import Any

from semloop.events import Event, Run

_ids = itertools.count(1)


class RunBuilder:
    """Append calls in order; ``complete()``/``error()``/``running()`` return the Run."""

    def __init__(
        self,
        agent_id: str = "agent",
        *,
        run_id: str | None = None,
        input_text: str = "What is the weather in Paris tomorrow?",
        tools: tuple[str, ...] | list[str] = ("search", "fetch"),
        system_prompt: str = "You are a helpful assistant.",
        model: str = "gpt-4o-mini",
        agent_version: str = "v1",
        start: float = 1_700_000_000.0,
        parent_run_id: str | None = None,
        injection_signal: Any = None,
    ) -> None:
        self.run_id = run_id or f"run-{next(_ids)}"
        self.agent_id = agent_id
        self.agent_version = agent_version
        self.parent_run_id = parent_run_id
        self.model = model
        self.t = start
        self.step = 0
        self.events: list[Event] = []
        payload: dict[str, Any] = {"input_text": input_text, "system_prompt": system_prompt,
                                   "model": model, "tools": list(tools)}
        if injection_signal is not None:
            payload["injection_signal"] = injection_signal
        self._emit("run.started", payload)

    def _emit(self, event_type: str, payload: dict[str, Any], dt: float = 0.001) -> None:
        self.t += dt
        self.events.append(Event(
            event_type=event_type, run_id=self.run_id, agent_id=self.agent_id,
            step_index=self.step, timestamp=self.t, payload=payload,
            agent_version=self.agent_version, parent_run_id=self.parent_run_id))

    def llm(
        self, output: str | None = "Let me look that up with a tool.", *,
        finish_reason: str = "stop", prompt_tokens: int = 500, completion_tokens: int | None = None,
        latency_ms: float = 800.0, error: str | None = None, prompt: str | None = None,
        **extra: Any,
    ) -> RunBuilder:
        self.step += 1
        called: dict[str, Any] = {"model": self.model, "prompt_tokens": prompt_tokens}
        if prompt is not None:
            called["prompt"] = prompt
        self._emit("llm.called", called)
        if completion_tokens is None:  # about what a model spends on that text
            completion_tokens = 2 * len((output or "").split()) if output is not None else 40
        payload: dict[str, Any] = {"completion_tokens": completion_tokens,
                                   "latency_ms": latency_ms, "finish_reason": finish_reason,
                                   **extra}
        if output is not None:
            payload["output"] = output
            payload["output_length"] = len(output)
        if error:
            payload["error"] = error
        self._emit("llm.responded", payload, dt=latency_ms / 1000)
        return self

    def tool(
        self, name: str, args: Any = None, output: str | None = "ok", *, success: bool = True,
        error: str | None = None, latency_ms: float = 120.0, respond: bool = True,
        args_length: int | None = None,
    ) -> RunBuilder:
        self.step += 1
        called: dict[str, Any] = {"tool_name": name,
                                  "args": str(args if args is not None else {})}
        if args_length is not None:  # the transport cut the args; this was their length
            called["args_length"] = args_length
        self._emit("tool.called", called)
        if not respond:
            return self
        payload: dict[str, Any] = {"tool_name": name, "success": success,
                                   "latency_ms": latency_ms}
        if output is not None:
            payload["output"] = output
            payload["output_length"] = len(output)
        if error or not success:
            payload["error"] = error or "tool failed"
        self._emit("tool.responded", payload, dt=latency_ms / 1000)
        return self

    def fail(self, name: str, args: Any = None, error: str = "503 Service Unavailable",
             **kw: Any) -> RunBuilder:
        return self.tool(name, args, output=error, success=False, error=error, **kw)

    def retrieval(
        self, query: str, content: str = "Paris: sunny, 21C tomorrow.", *, result_count: int = 3,
        top_score: float = 0.82, index: str = "docs", latency_ms: float = 60.0,
    ) -> RunBuilder:
        self.step += 1
        self._emit("retrieval.called", {"index_name": index, "query": query})
        self._emit("retrieval.responded", {"index_name": index, "result_count": result_count,
                                           "top_score": top_score, "latency_ms": latency_ms,
                                           "content": content}, dt=latency_ms / 1000)
        return self

    def memory(self, op: str, key: str, value: str | None = None,
               source: str | None = None) -> RunBuilder:
        """``memory.written``/``read``/``cleared`` in Dunetrace's wire format (no new step)."""
        payload: dict[str, Any] = {"key": key}
        if value is not None:
            payload["value"] = value
        if source is not None:
            payload["source"] = source
        self._emit(f"memory.{op}", payload)
        return self

    def external(self, name: str, **meta: Any) -> RunBuilder:
        self._emit("external.signal", {"signal_name": name, "meta": meta})
        return self

    def wait(self, seconds: float) -> RunBuilder:
        self.t += seconds
        return self

    def run(self) -> Run:
        return Run.from_events(self.events)

    def complete(self, exit_reason: str = "final_answer") -> Run:
        tool_calls = sum(e.event_type == "tool.called" for e in self.events)
        self._emit("run.completed", {"total_steps": self.step, "exit_reason": exit_reason,
                                     "tool_call_count": tool_calls})
        return self.run()

    def error(self, error: str = "RuntimeError: boom", exit_reason: str | None = None) -> Run:
        payload: dict[str, Any] = {"error_type": "RuntimeError", "error": error,
                                   "step_index": self.step}
        if exit_reason:
            payload["exit_reason"] = exit_reason
        self._emit("run.errored", payload)
        return self.run()

    def running(self) -> Run:
        return self.run()


def healthy(**kw: Any) -> RunBuilder:
    """The ordinary shape: think, search, fetch, answer."""
    return (RunBuilder(**kw)
            .llm("I will search for the forecast.", prompt_tokens=400)
            .tool("search", {"q": "weather Paris tomorrow"},
                  "1. https://meteo.example.com/paris - forecast")
            .llm("Fetching the forecast page.", prompt_tokens=600)
            .tool("fetch", {"url": "https://meteo.example.com/paris"}, "Tomorrow: sunny, 21C")
            .llm("Tomorrow in Paris it will be sunny with 21C.", prompt_tokens=800))
