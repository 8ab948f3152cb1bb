"""LangSmith run trees: a root run with nested ``child_runs``, or flat runs linked by
``parent_run_id``/``trace_id`` (a list, ``{"runs": [...]}``, or one run per line).

Order is ``dotted_order`` (start time then id, root first), else ``start_time``. The
conversation is ``extra.metadata.session_id|thread_id|conversation_id`` — LangSmith's own
``session_id`` field is the tracing project, not the conversation.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..._exceptions import TraceFormatError
from ...events import Run
from ._common import (
    SHAPE_ERRORS,
    Draft,
    Result,
    Step,
    build_run,
    epoch,
    first,
    first_of_role,
    integer,
    mapping,
    message_text,
    model_reply,
    number,
    planned_calls,
    records,
    reject,
    string,
    text,
    unwrap_single,
)

__all__ = ["convert", "read"]

NAME = "langsmith"
_KINDS = {"llm": "llm", "tool": "tool", "retriever": "retrieval"}


def read(data: bytes | str) -> list[Run]:
    """Runs from a LangSmith export; raises the first :class:`TraceFormatError`."""
    return convert(data).runs_or_raise()


def convert(data: bytes | str, *, source: str = "<langsmith>", clock: float = 0.0) -> Result:
    result = Result(format=NAME)
    # Flatten every nested tree first: a trace's runs may be spread over lines.
    traces: dict[str, list[tuple[str, Mapping[str, Any]]]] = {}
    where: dict[str, tuple[int | None, str]] = {}
    for line, path, raw in _records(data, source, result):
        try:
            flat = _flatten(raw, path or "run")
        except SHAPE_ERRORS as exc:
            reject(result, exc, source, line, "")
            continue
        for run_path, run in flat:
            key = str(first(run.get("trace_id"), _root_of(run, flat)))
            traces.setdefault(key, []).append((run_path, run))
            where.setdefault(key, (line, path))
    for key, runs in traces.items():
        try:
            result.runs.append(build_run(_draft(key, runs), clock=clock))
        except SHAPE_ERRORS as exc:
            line, path = where[key]
            reject(result, exc, source, line, path)
    return result


_BATCH = ("post", "patch")


def _records(data: bytes | str, source: str,
             result: Result) -> Iterator[tuple[int | None, str, Any]]:
    """Every run record; a batch body of the SDKs (``{"post": [...], "patch": [...]}``, what
    they send to ``/runs/batch``) gives its creates, then its updates."""
    for line, path, raw in records(data, source, result, unwrap=("runs", "data")):
        if isinstance(raw, Mapping) and "id" not in raw and any(
                isinstance(raw.get(key), list) for key in _BATCH):
            for key in _BATCH:
                for i, item in enumerate(raw.get(key) or []):
                    yield line, f"{path}.{key}[{i}]" if path else f"{key}[{i}]", item
        else:
            yield line, path, raw


def _id_of(raw: Mapping[str, Any]) -> str | None:
    """The run's id, or for an update without one (langsmith-js sends ``RunUpdate`` so:
    the id is in the URL) the id that ends its ``dotted_order``, ``…Z<run id>``."""
    if raw.get("id"):
        return str(raw["id"])
    last = str(raw.get("dotted_order") or "").rsplit(".", 1)[-1]
    return last[22:] if len(last) > 22 and last[21] == "Z" else None


def _merged(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """A run's create with its update on top: what the update leaves out or null stays,
    and objects (``extra``, ``outputs``) merge one level down."""
    out = dict(old)
    for key, value in new.items():
        if value is None:
            continue
        before = out.get(key)
        out[key] = ({**before, **value} if isinstance(before, Mapping)
                    and isinstance(value, Mapping) else value)
    return out


def _flatten(raw: Any, path: str) -> list[tuple[str, Mapping[str, Any]]]:
    if not isinstance(raw, Mapping):
        raise TraceFormatError(f"a run must be a JSON object, not {type(raw).__name__}",
                               field=path)
    run_id = _id_of(raw)
    if run_id is None:
        raise TraceFormatError("a run needs an id (or a dotted_order ending in it)",
                               field=f"{path}.id")
    if not raw.get("id"):
        raw = {**raw, "id": run_id}
    out: list[tuple[str, Mapping[str, Any]]] = [(path, raw)]
    children = raw.get("child_runs") or []
    if not isinstance(children, list):
        raise TraceFormatError("must be a list of runs", field=f"{path}.child_runs")
    for i, child in enumerate(children):
        if isinstance(child, Mapping) and not child.get("parent_run_id"):
            child = {**child, "parent_run_id": raw["id"]}
        if isinstance(child, Mapping) and not child.get("trace_id") and raw.get("trace_id"):
            child = {**child, "trace_id": raw["trace_id"]}
        out.extend(_flatten(child, f"{path}.child_runs[{i}]"))
    return out


def _root_of(run: Mapping[str, Any], flat: list[tuple[str, Mapping[str, Any]]]) -> str:
    by_id = {str(r["id"]): r for _, r in flat}
    seen = set()
    while run.get("parent_run_id") and str(run["parent_run_id"]) in by_id:
        if str(run["id"]) in seen:
            break
        seen.add(str(run["id"]))
        run = by_id[str(run["parent_run_id"])]
    dotted = str(run.get("dotted_order") or "")
    # The first dotted_order segment is "YYYYMMDDTHHMMSSffffffZ<root id>": the root's id,
    # even when the root run itself is not in the file.
    head = dotted.split(".")[0]
    return head[22:] if "." in dotted and len(head) > 22 and head[21] == "Z" else str(run["id"])


def _metadata(run: Mapping[str, Any]) -> Mapping[str, Any]:
    extra = mapping(run.get("extra"))
    meta = mapping(extra.get("metadata"))
    return meta


def _usage(run: Mapping[str, Any]) -> Mapping[str, Any]:
    outputs = mapping(run.get("outputs"))
    for candidate in (outputs.get("usage_metadata"), _metadata(run).get("usage_metadata"),
                      (outputs.get("llm_output") or {}).get("token_usage")
                      if isinstance(outputs.get("llm_output"), Mapping) else None):
        if isinstance(candidate, Mapping):
            return candidate
    return {}


def _generation(outputs: Any) -> Mapping[str, Any]:
    gens = outputs.get("generations") if isinstance(outputs, Mapping) else None
    while isinstance(gens, list) and gens:
        gens = gens[0]
    return mapping(gens)


def _step(run: Mapping[str, Any], kind: str, order: int, path: str) -> Step:
    inputs = mapping(run.get("inputs"))
    outputs = run.get("outputs")
    step = Step(kind=kind, name=str(run.get("name") or ""), step_id=str(run["id"]),
                order=order, error=string(run.get("error")))
    step.start = epoch(run.get("start_time"), field_name=f"{path}.start_time")
    step.end = epoch(run.get("end_time"), field_name=f"{path}.end_time")
    if kind == "llm":
        meta = _metadata(run)
        extra = mapping(run.get("extra"))
        params = mapping(extra.get("invocation_params"))
        usage = _usage(run)
        step.model = string(first(meta.get("ls_model_name"), params.get("model"),
                                  params.get("model_name")))
        step.prompt_tokens = integer(first(run.get("prompt_tokens"), usage.get("input_tokens"),
                                           usage.get("prompt_tokens")))
        step.completion_tokens = integer(first(run.get("completion_tokens"),
                                               usage.get("output_tokens"),
                                               usage.get("completion_tokens")))
        details = usage.get("output_token_details")
        if isinstance(details, Mapping):
            step.reasoning_tokens = integer(details.get("reasoning"))
        step.cost_usd = number(first(run.get("total_cost"), usage.get("total_cost")))
        messages = inputs.get("messages", inputs.get("prompts"))
        step.input = message_text(messages) if messages is not None else text(inputs or None)
        gen = _generation(outputs)
        message = gen.get("message")
        info = mapping(gen.get("generation_info"))
        step.finish_reason = string(info.get("finish_reason"))
        kwargs = message.get("kwargs") if isinstance(message, Mapping) else None
        calls = (kwargs or {}).get("tool_calls") if isinstance(kwargs, Mapping) else None
        if isinstance(calls, list):
            step.tool_calls = [{"name": c.get("name"), "arguments": c.get("args")}
                               for c in calls if isinstance(c, Mapping)]
        completion = None if gen else model_reply(outputs)  # wrap_openai's outputs
        if completion is not None:
            said, step.tool_calls, reason = completion
            step.finish_reason = step.finish_reason or reason
            step.output = said or planned_calls(step.tool_calls)
        elif gen:
            step.output = first(gen.get("text"), message_text(message),
                                planned_calls(step.tool_calls)) or ""
        else:
            step.output = first(message_text(outputs) if isinstance(outputs, Mapping) else None,
                                text(outputs) if outputs else None)
    elif kind == "tool":
        step.input = unwrap_single(inputs) if set(inputs) == {"input"} else inputs
        step.output = first(outputs.get("output"), outputs.get("content")) if isinstance(
            outputs, Mapping) else outputs
        if step.output is None and outputs:
            step.output = text(outputs)
    else:
        step.input = first(inputs.get("query"), inputs.get("input"), text(inputs or None))
        docs = outputs.get("documents") if isinstance(outputs, Mapping) else None
        if isinstance(docs, list):
            step.result_count = len(docs)
            step.output = "\n".join(str(d.get("page_content", "")) if isinstance(d, Mapping)
                                    else text(d) for d in docs)
        else:
            step.output = outputs
    return step


def _draft(key: str, runs: list[tuple[str, Mapping[str, Any]]]) -> Draft:
    def order_key(item: tuple[str, Mapping[str, Any]]) -> tuple[str, str]:
        run = item[1]
        return (str(run.get("dotted_order") or ""), str(run.get("start_time") or ""))

    by_id: dict[str, tuple[str, Mapping[str, Any]]] = {}
    for path, run in runs:  # a create, then its updates (a batch body, or flat records)
        seen = by_id.get(str(run["id"]))
        by_id[str(run["id"])] = (seen[0], _merged(seen[1], run)) if seen else (path, run)
    runs = sorted(by_id.values(), key=order_key)
    ids = {str(r["id"]) for _, r in runs}
    roots = [r for _, r in runs if not r.get("parent_run_id") or
             str(r["parent_run_id"]) not in ids]
    root = roots[0]
    d = Draft(run_id=key, source=NAME, trace_id=key)
    for order, (path, run) in enumerate(runs):
        kind = _KINDS.get(str(run.get("run_type") or "").lower())
        if kind:  # a root that is itself a model or tool call is a step too
            d.steps.append(_step(run, kind, order, path))
    d.agent_id = str(root.get("name") or "")
    d.start = epoch(root.get("start_time"), field_name="start_time")
    d.end = epoch(root.get("end_time"), field_name="end_time")
    for _, run in [(None, root)] + runs:
        meta = _metadata(run)
        d.conversation_id = d.conversation_id or string(first(
            meta.get("session_id"), meta.get("thread_id"), meta.get("conversation_id")))
    inputs = root.get("inputs")
    goal: Any = inputs
    if isinstance(inputs, Mapping):
        goal = first(first_of_role(inputs.get("messages"), "user"), inputs.get("input"),
                     inputs.get("question"), inputs.get("query"), unwrap_single(inputs))
    d.goal = message_text(goal) if not isinstance(goal, (str, Mapping)) else text(goal)
    sys_prompt = first_of_role(inputs.get("messages"), "system") if isinstance(
        inputs, Mapping) else None
    d.system_prompt = sys_prompt
    outputs = root.get("outputs")
    if isinstance(outputs, Mapping):
        said = outputs.get("messages")
        d.output = first(outputs.get("output"), outputs.get("answer"),
                         message_text(said[-1:]) if isinstance(said, list) else None)
    else:
        d.output = outputs
    if root.get("error") or str(root.get("status") or "").lower() == "error":
        d.errored, d.error = True, string(root.get("error")) or "error"
    return d
