"""Cases from the platform's runs and from JSONL lines."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from semloop import TraceFormatError
from semloop.case import ConversationCase, RunCase, ToolCall, Turn
from semloop.evaluate import (
    TraceCase,
    cases_from_runs,
    conversation_case,
    parse_case,
    parse_case_lines,
    run_case,
    trace_case,
)
from semloop.evaluate.cases import exchange_count, records_chat
from semloop.events import Event, Run


def _run(run_id: str, question: str, answer: str, *, start: float = 100.0,
         conversation: str | None = None, extra: Sequence[tuple[str, dict[str, Any]]] = ()) -> Run:
    raw = [("run.started", {"input_text": question}), *extra,
           ("llm.called", {"model": "m"}), ("llm.responded", {"output": answer}),
           ("run.completed", {"exit_reason": "final_answer"})]
    events = [Event(event_type=kind, run_id=run_id, agent_id="bot", step_index=k,
                    timestamp=start + k, payload=payload, conversation_id=conversation)
              for k, (kind, payload) in enumerate(raw)]
    return Run.from_events(events)


def test_a_run_case_from_a_recorded_run() -> None:
    run = _run("r1", "Refund order 42?", "Refunded order 42.", extra=[
        ("retrieval.called", {"index_name": "kb", "query": "refund"}),
        ("retrieval.responded", {"index_name": "kb", "content": "Refunds within 30 days."}),
        ("llm.called", {"model": "m"}), ("llm.responded", {"output": "Looking up order 42."}),
        ("tool.called", {"tool_name": "refund", "args": json.dumps({"order": 42})}),
        ("tool.responded", {"tool_name": "refund", "output": "declined", "success": False,
                            "error": "card expired"}),
        ("tool.called", {"tool_name": "notify", "args": "tell the customer"}),
        ("tool.responded", {"tool_name": "notify", "output": "sent", "success": True}),
        ("llm.called", {"model": "m"}), ("llm.responded", {"output": ""}),
    ])
    case = run_case(run)
    assert case == RunCase(
        id="r1", input="Refund order 42?", output="Refunded order 42.",
        context=("Refunds within 30 days.",),
        tools_called=(ToolCall("refund", {"order": 42}, "declined", False),
                      ToolCall("notify", {"input": "tell the customer"}, "sent", True)),
        steps=("Looking up order 42.",),
    )
    assert isinstance(trace_case(run), TraceCase) and trace_case(run).trace.goal == case.input


def test_a_run_with_nothing_to_judge_gives_no_case() -> None:
    assert run_case(_run("r", "", "an answer")) is None
    assert run_case(_run("r", "a question", "  ")) is None
    cases, skipped = cases_from_runs([_run("r", "", "x"), _run("s", "q", "a")], "run")
    assert [c.id for c in cases] == ["s"] and skipped == [
        "run r: no user input or no LLM output to judge"]


def test_a_conversation_is_its_last_five_runs_oldest_first() -> None:
    runs = [_run(f"r{k}", f"question {k}", f"answer {k}", start=1000.0 - 10 * k,
                 conversation="c1") for k in range(7)]
    case = conversation_case(runs)
    assert case is not None and case.id == "c1"
    assert case.turns == tuple(t for k in (4, 3, 2, 1, 0) for t in (
        Turn("user", f"question {k}"), Turn("assistant", f"answer {k}")))
    assert len(conversation_case(runs, last=2).turns) == 4  # type: ignore[union-attr]
    cases, skipped = cases_from_runs([*runs, _run("lone", "q", "a")], "conversation")
    assert [c.id for c in cases] == ["c1"] and skipped == ["run lone: no conversation_id"]


def test_json_lines_of_each_case_shape() -> None:
    run = parse_case({"id": 7, "label": True, "input": "q", "output": "a", "context": ["d"],
                      "tools_called": [{"name": "t", "args": {"x": 1}, "output": {"rows": 2},
                                        "success": True}], "steps": ["s"]})
    assert run == RunCase("7", "q", "a", ("d",), (ToolCall("t", {"x": 1}, '{"rows": 2}', True),),
                          ("s",), True)
    conv = parse_case({"id": "c", "turns": [{"role": "user", "content": "hi"}]})
    assert conv == ConversationCase("c", (Turn("user", "hi"),))
    trace = parse_case({"trace_id": "t1", "goal": "g", "label": False,
                        "root": {"type": "agent", "name": "a"}})
    assert isinstance(trace, TraceCase) and (trace.id, trace.label) == ("t1", False)


@pytest.mark.parametrize(("raw", "field"), [
    ({"input": "q", "output": "a"}, "id"),
    ({"id": "x", "output": "a"}, "input"),
    ({"id": "x", "input": "q", "output": 3}, "output"),
    ({"id": "x", "input": "q", "output": "a", "context": "one doc"}, "context"),
    ({"id": "x", "input": "q", "output": "a", "context": ["ok", 2]}, "context[1]"),
    ({"id": "x", "input": "q", "output": "a", "tools_called": [{"args": {}}]},
     "tools_called[0].name"),
    ({"id": "x", "input": "q", "output": "a", "tools_called": [{"name": "t", "args": "x=1"}]},
     "tools_called[0].args"),
    ({"id": "x", "input": "q", "output": "a",
      "tools_called": [{"name": "t", "success": "yes"}]}, "tools_called[0].success"),
    ({"id": "x", "input": "q", "output": "a", "label": "positive"}, "label"),
    ({"id": "x", "turns": []}, "turns"),
    ({"id": "x", "turns": [{"role": "system", "content": "be nice"}]}, "turns[0].role"),
    ({"id": "x", "turns": [{"role": "user"}]}, "turns[0].content"),
])
def test_a_bad_case_names_its_field(raw: dict[str, Any], field: str) -> None:
    with pytest.raises(TraceFormatError) as info:
        parse_case(raw)
    assert info.value.field == field


def test_bad_lines_are_reported_with_their_number_and_the_rest_is_read() -> None:
    lines = [
        json.dumps({"id": "a", "input": "q", "output": "x"}),
        "",
        "{not json",
        json.dumps({"id": "b", "input": "q"}),
        json.dumps([1, 2]),
        json.dumps({"id": "c", "input": "q", "output": "y"}),
    ]
    cases, errors = parse_case_lines(lines, source="cases.jsonl")
    assert [c.id for c in cases] == ["a", "c"]
    assert [(e.line, e.field) for e in errors] == [(3, None), (4, "output"), (5, None)]
    assert str(errors[1]) == "cases.jsonl:4, field 'output': is required"


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=4),
    max_leaves=12,
)
_KEYS = st.sampled_from(["id", "label", "input", "output", "context", "tools_called", "steps",
                         "turns", "root", "goal", "trace_id"])


@given(st.dictionaries(_KEYS, _JSON, max_size=8))
@settings(max_examples=300)
def test_any_json_object_is_a_case_or_a_located_format_error(raw: dict[str, Any]) -> None:
    for level in ("run", "conversation", "trace"):
        cases, errors = parse_case_lines([json.dumps(raw)], source="f.jsonl", level=level)
        assert len(cases) + len(errors) == 1
        for error in errors:
            assert isinstance(error, TraceFormatError) and error.line == 1


def _chat() -> Run:
    # A tau2 simulation: the agent greets first, calls a tool mid-exchange, and the
    # customer's later messages answer its replies.
    from semloop.ingest.formats.tau_bench import read

    messages = [
        {"role": "assistant", "content": "Hi! How can I help you today?"},
        {"role": "user", "content": "Cancel my booking, please."},
        {"role": "assistant", "content": "Your user id, please?"},
        {"role": "user", "content": "It is mia_1."},
        {"role": "assistant", "content": "Looking it up.",
         "tool_calls": [{"id": "c1", "name": "get_user", "arguments": {"user_id": "mia_1"}}]},
        {"role": "tool", "id": "c1", "content": "{\"bookings\": [\"B7\"]}"},
        {"role": "assistant", "content": "Booking B7 is cancelled."},
        {"role": "user", "content": "Thanks! ###STOP###"},
    ]
    [run] = read(json.dumps({"simulations": [
        {"id": "s1", "task_id": "7", "trial": 0, "messages": messages,
         "reward_info": {"reward": 1.0}}]}))
    return run


def test_an_imported_chat_is_its_own_conversation_one_exchange_a_turn_pair() -> None:
    from semloop.evaluate.cases import conversation_case_from_trace, exchange_count

    trace = _chat().to_trace()
    # The customer's last message answers nothing the agent said after it: the import
    # keeps a customer message as the input of the turn that answers it.
    assert exchange_count(trace) == 2
    case = conversation_case_from_trace(trace, id="s1")
    # The greeting before the first message is no reply to it; each exchange's reply is
    # the agent's last words before the customer speaks again (not its tool step).
    assert case == ConversationCase(id="s1", turns=(
        Turn("user", "Cancel my booking, please."), Turn("assistant", "Your user id, please?"),
        Turn("user", "It is mia_1."), Turn("assistant", "Booking B7 is cancelled.")))
    # As the platform reads it after exchange 0, and with a window of 1 exchange.
    assert conversation_case_from_trace(trace, upto=0, id="s1") == ConversationCase(
        id="s1", turns=case.turns[:2])
    assert conversation_case_from_trace(trace, last=1, id="s1") == ConversationCase(
        id="s1", turns=case.turns[2:])
    assert conversation_case_from_trace(trace, last=0) is None


def test_an_imported_chat_keeps_its_opening_request_and_last_reply() -> None:
    case = run_case(_chat())
    # The opening request is the goal and the agent's last words the answer; its earlier
    # words (its text beside a tool call too) are steps.
    assert case == RunCase(
        id="tau-7-0", input="Cancel my booking, please.", output="Booking B7 is cancelled.",
        tools_called=(ToolCall("get_user", {"user_id": "mia_1"}, '{"bookings": ["B7"]}', True),),
        steps=("Hi! How can I help you today?", "Your user id, please?", "Looking it up."),
    )


_POLICY = """# Airline policy
- The refund will go to original payment methods within 5 to 7 business days.
- Each extra bag costs 50 dollars.
- Do not offer compensation unless the user asks for it.
- If the flight is cancelled by the airline, refund 100 dollars.
Never say that a refund takes 2 days."""


def _policy_chat(*, tools: bool = True, policy: str = _POLICY,
                 answer: str = "Your flight to Boston is cancelled. The refund reaches "
                               "your card within 5 to 7 business days.") -> Run:
    # A tau2 simulation that keeps its policy beside the messages; the agent's last words
    # repeat a policy fact and the city the customer named in a later message.
    from semloop.ingest.formats.tau_bench import read

    messages = [
        {"role": "user", "content": "I want to cancel reservation K1 and get my money back."},
        {"role": "assistant", "content": "Where were you flying to?"},
        {"role": "user", "content": "To Boston, on May 3. I don't want a voucher. Is it 7 days?"},
        *([{"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "name": "cancel_reservation", "arguments": {"reservation_id": "K1"}}]},
           {"role": "tool", "id": "c1", "content": "{\"status\": \"cancelled\"}"}] if tools else []),
        {"role": "assistant", "content": answer},
    ]
    [run] = read(json.dumps({"simulations": [
        {"id": "s2", "task_id": "9", "trial": 0, "messages": messages, "policy": policy,
         "reward_info": {"reward": 1.0}}]}))
    return run


def test_a_chat_gives_as_context_the_policy_facts_its_answer_repeats() -> None:
    from semloop.evaluate.cases import system_prompt

    run = _policy_chat()
    assert system_prompt(run) == _POLICY
    case = run_case(run)
    assert case is not None and case.output.startswith("Your flight to Boston")
    # The policy's fact with the answer's numbers, in one entry after what was retrieved:
    # not its rules (a condition, a "do not", a "never"), nor what shares no value with the
    # answer. The customer's later messages stay out (they move TASK_UNDERSTANDING_FAILURE):
    # their fact sentences with a value of the answer are what the customer told, not a
    # question ("Is it 7 days?") nor a wish denied ("I don't want a voucher").
    assert case.context == (
        "- The refund will go to original payment methods within 5 to 7 business days.",)
    assert case.told == ("To Boston, on May 3.",)
    assert RunCase.from_state(case.to_state()) == replace(case, id="", label=None)


def test_hallucination_reads_what_the_customer_told() -> None:
    from semloop.evaluate import get_evaluator, load_evaluators_config
    from semloop.evaluate.config import DEFAULT_CONFIG
    from semloop.judge.registry import make_backend

    case = run_case(_policy_chat())
    assert case is not None
    judge, config = make_backend("local"), load_evaluators_config(DEFAULT_CONFIG)
    hallucination = get_evaluator("hallucination")
    told = hallucination(case, judge, config.for_evaluator("hallucination"))
    untold = hallucination(replace(case, told=()), judge, config.for_evaluator("hallucination"))
    # The city comes from the customer's own later message, which no record repeats.
    assert "boston" in untold.reasoning.lower() and "boston" not in told.reasoning.lower()
    assert not told.fired and told.confidence < untold.confidence


def test_a_reason_the_rules_give_is_no_invented_cause() -> None:
    from semloop.evaluate import get_evaluator, load_evaluators_config
    from semloop.evaluate.config import DEFAULT_CONFIG
    from semloop.judge.registry import make_backend

    # The answer gives the rule it applies as its reason; the rule carries no value of the
    # answer, so it is no given context, but it is what the answer may cite.
    policy = _POLICY + "\nA trip cancelled for illness or a strike is refunded in full."
    case = run_case(_policy_chat(policy=policy, answer=(
        "Your trip to Boston is cancelled and refunded in full, since it was cancelled for "
        "illness, which the policy covers.")))
    assert case is not None
    assert case.reasons == ("A trip cancelled for illness or a strike is refunded in full.",)
    assert "illness" not in " ".join(case.context)
    assert RunCase.from_state(case.to_state()).reasons == case.reasons
    judge, config = make_backend("local"), load_evaluators_config(DEFAULT_CONFIG)
    hallucination = get_evaluator("hallucination")
    cited = hallucination(case, judge, config.for_evaluator("hallucination"))
    uncited = hallucination(replace(case, reasons=()), judge, config.for_evaluator("hallucination"))
    assert 'the cause "it was cancelled for illness' in uncited.reasoning
    assert "cause" not in cited.reasoning


def test_a_run_with_no_record_to_check_gets_no_given_context() -> None:
    # No retrieval and no tool output: its instructions are no record of the world, so
    # HALLUCINATION still has nothing to check the answer against.
    case = run_case(_policy_chat(tools=False))
    assert case is not None and case.context == () and case.tools_called == ()


def test_an_sdk_run_gives_its_instructions_too() -> None:
    # An SDK run: its system prompt is its instructions, read the same way; a model step's
    # prompt (what was sent to the model) is no context.
    run = _run("r", "Weather in Oslo?", "It is 4 C in Oslo, says Yr.", extra=[
        ("llm.called", {"model": "m", "prompt": "Oslo has 4 C today, says Met."}),
        ("llm.responded", {"output": "Checking."}),
        ("tool.called", {"tool_name": "get_weather", "args": "{\"city\": \"Oslo\"}"}),
        ("tool.responded", {"tool_name": "get_weather", "output": "4", "success": True})])
    run.events[0].payload["system_prompt"] = "You answer weather questions. Cite Yr as the source."
    case = run_case(run)
    assert case is not None and not records_chat(run)
    assert case.context == ("Cite Yr as the source.",)


def _attempt(trial: int) -> dict[str, Any]:
    # A tau-bench attempt whose last agent turns only call tools: the importer renders
    # them as "name({...})", which the customer never read.
    def call(k: int, name: str, args: dict[str, Any]) -> dict[str, Any]:
        return {"role": "assistant", "content": None, "tool_calls": [
            {"id": f"c{k}", "type": "function",
             "function": {"name": name, "arguments": json.dumps(args)}}]}

    traj = [
        {"role": "system", "content": "You are an airline agent."},
        {"role": "user", "content": "Please cancel reservation K1NW8N."},
        {"role": "assistant", "content": "Sure. What is your user id?"},
        {"role": "user", "content": "mohamed_silva_9265"},
        call(1, "get_reservation_details", {"reservation_id": "K1NW8N"}),
        {"role": "tool", "tool_call_id": "c1", "content": "{\"status\": \"active\"}"},
        call(2, "cancel_reservation", {"reservation_id": "K1NW8N"}),
        {"role": "tool", "tool_call_id": "c2", "content": "{\"status\": \"cancelled\"}"},
    ]
    return {"task_id": 4, "trial": trial, "reward": 1.0, "traj": traj,
            "info": {"task": {"user_id": "mohamed_silva_9265"}}}


def _ends_on_calls() -> Run:
    from semloop.ingest.formats.tau_bench import read

    [run] = read(json.dumps([_attempt(0)]))
    return run


def test_a_turn_that_only_calls_tools_is_no_reply() -> None:
    from semloop.evaluate.cases import conversation_case_from_trace

    run = _ends_on_calls()
    trace = run.to_trace()
    assert [s.output_text.split("(")[0] for s in trace.llm_spans][1:] == [
        "get_reservation_details", "cancel_reservation"]  # what a judge read before
    case = run_case(run)
    assert case is not None and case.output == "Sure. What is your user id?"
    # The calls were the agent's work after it: steps, not the answer.
    assert [step.split("(")[0] for step in case.steps] == [
        "get_reservation_details", "cancel_reservation"]
    assert [t.name for t in case.tools_called] == ["get_reservation_details", "cancel_reservation"]
    # The customer's second message got no words back: the window ends on it.
    assert conversation_case_from_trace(trace) == ConversationCase(id=trace.trace_id, turns=(
        Turn("user", "Please cancel reservation K1NW8N."),
        Turn("assistant", "Sure. What is your user id?"), Turn("user", "mohamed_silva_9265")))


def test_a_run_that_records_no_chat_is_built_as_before() -> None:
    # An SDK run: the last output is the answer, even when it only names a call, and the
    # earlier outputs are its steps. The prompts it records on each model call are what
    # was sent to the model, not messages from a customer: it is no chat.
    run = _run("r", "Weather in Oslo?", "get_weather({\"city\": \"Oslo\"})", conversation="c1",
               extra=[("llm.called", {"model": "m", "prompt": "Weather in Oslo?"}),
                      ("llm.responded", {"output": "Checking."}),
                      ("tool.called", {"tool_name": "get_weather", "args": "{\"city\": \"Oslo\"}"}),
                      ("tool.responded", {"tool_name": "get_weather", "output": "4 C",
                                          "success": True})])
    assert exchange_count(run.to_trace()) == 2 and not records_chat(run)
    assert run_case(run) == RunCase(
        id="r", input="Weather in Oslo?", output="get_weather({\"city\": \"Oslo\"})",
        tools_called=(ToolCall("get_weather", {"city": "Oslo"}, "4 C", True),),
        steps=("Checking.",))
    cases, _ = cases_from_runs([run], "conversation")
    assert cases == [conversation_case([run], id="c1")]


def test_each_imported_chat_of_a_file_is_its_own_conversation(tmp_path: Path) -> None:
    from semloop.cli.evaluate import load_cases

    # Two attempts of one task share the customer's user_id: they are two conversations.
    first, retry = _attempt(0), _attempt(1)
    retry["traj"][-2:] = [{"role": "assistant", "content": "Done: K1NW8N is cancelled."}]
    path = tmp_path / "results.json"
    path.write_text(json.dumps([first, retry]), encoding="utf-8")
    cases, errors, notes = load_cases(path, "conversation")
    assert errors == notes == []
    assert [(c.id, [t.content for t in c.turns]) for c in cases] == [  # type: ignore[union-attr]
        ("tau-4-0", ["Please cancel reservation K1NW8N.", "Sure. What is your user id?",
                     "mohamed_silva_9265"]),
        ("tau-4-1", ["Please cancel reservation K1NW8N.", "Sure. What is your user id?",
                     "mohamed_silva_9265", "Done: K1NW8N is cancelled."])]


_PATCH = "diff --git a/pages.py b/pages.py\n--- a/pages.py\n+++ b/pages.py\n@@ -1 +1 @@\n-n - 1\n+n\n"


def _coding_run(goal: str, *turns: tuple[str, str, str, str]) -> Run:
    """A coding harness's run: each turn the model's words, then one call (tool, its
    argument as JSON, its output)."""
    extra: list[tuple[str, dict[str, Any]]] = []
    for words, tool, args, output in turns:
        extra += [("llm.called", {"model": "m"}), ("llm.responded", {"output": words}),
                  ("tool.called", {"tool_name": tool, "args": args}),
                  ("tool.responded", {"tool_name": tool, "output": output, "success": True})]
    raw = [("run.started", {"input_text": goal}), *extra, ("run.completed", {"exit_reason": "final_answer"})]
    return Run.from_events([Event(event_type=kind, run_id="c", agent_id="bot", step_index=k,
                                  timestamp=100.0 + k, payload=payload)
                            for k, (kind, payload) in enumerate(raw)])


def test_a_coding_run_asks_for_the_task_its_harness_wraps_and_answers_with_its_words() -> None:
    # mini-swe-agent's shape: the issue in a tagged block, then pages of procedure; each
    # reply writes its command in a fenced block that the call runs.
    goal = ("<pr_description>\nConsider the following PR description:\npaginate() drops the last "
            "page when the count is a multiple of the size.\n<!-- template note, never shown -->\n"
            "</pr_description>\n\n<instructions>\n# Task Instructions\nInclude a THOUGHT section "
            "explaining your reasoning. Make changes to non-test files.\n</instructions>")
    run = _coding_run(
        goal,
        ("THOUGHT: Reproduce it first.\n\n```bash\npython repro.py\n```", "bash",
         json.dumps({"command": "python repro.py"}), "pages: 2"),
        ("THOUGHT: Fixed paginate(); submitting.\n\n```bash\necho SUBMIT && git diff --cached\n```",
         "bash", json.dumps({"command": "echo SUBMIT && git diff --cached"}), _PATCH))
    case = run_case(run)
    assert case is not None
    assert case.input == ("Consider the following PR description:\npaginate() drops the last page "
                          "when the count is a multiple of the size.")
    assert case.output == "THOUGHT: Fixed paginate(); submitting."
    assert case.steps == ("THOUGHT: Reproduce it first.",)
    assert case.tools_called[-1] == ToolCall("bash", {"command": "echo SUBMIT && git diff --cached"},
                                             _PATCH, True)
    # A fenced block that is not the call's command is what the model wrote: it stays.
    quoted = _coding_run("Fix paginate.", ("It reads:\n```\nreturn n - 1\n```", "bash",
                                           json.dumps({"command": "cat pages.py"}), "n - 1"))
    assert (c := run_case(quoted)) is not None and c.output == "It reads:\n```\nreturn n - 1\n```"


def test_a_task_under_a_heading_before_the_instructions_is_the_request() -> None:
    # SWE-agent's shape: "ISSUE:" then "INSTRUCTIONS:"; with no procedure, the goal is whole.
    goal = "We're solving this issue. ISSUE:\npaginate() drops the last page\n\nINSTRUCTIONS:\nOne command at a time."
    case = run_case(_coding_run(goal, ("Done.", "submit", "{}", _PATCH)))
    assert case is not None and case.input == "We're solving this issue. ISSUE:\npaginate() drops the last page"
    plain = run_case(_coding_run("Why does paginate() drop a page?", ("It subtracts one.", "bash", "{}", "")))
    assert plain is not None and plain.input == "Why does paginate() drop a page?"


def test_a_finishing_call_carries_the_answer() -> None:
    # OpenHands' shape: the last words go to the user as the finish call's message.
    run = _coding_run(
        "<issue_description>\npaginate() drops the last page\n</issue_description>\nFollow these phases.",
        ("Perfect! Let me provide a final summary:", "finish",
         json.dumps({"message": "I fixed paginate() so the last page is kept."}),
         "I fixed paginate() so the last page is kept."))
    case = run_case(run)
    assert case is not None and case.input == "paginate() drops the last page"
    assert case.output == "I fixed paginate() so the last page is kept."
    assert case.steps == ("Perfect! Let me provide a final summary:",)


def test_a_condition_listed_under_its_rule_is_no_fact_of_the_run() -> None:
    # "Can be cancelled if any of the following is true:" lists conditions, not facts; a
    # lead-in that opens on its condition ("If the user is a gold member:") lists what then
    # holds, as facts of the rule.
    policy = ("A reservation can be cancelled if any of the following is true:\n"
              "- The booking was made within the last 24 hrs\n- It is a business flight\n"
              "If the user is a gold member:\n- 3 free checked bags for each passenger")
    case = run_case(_policy_chat(policy=policy, answer=(
        "I can't cancel K1: it was not booked within the last 24 hours and it is not a "
        "business flight. As a gold member you have 3 free checked bags.")))
    assert case is not None
    assert case.context == ("- 3 free checked bags for each passenger",)
    assert "24 hrs" in case.reasons[0]



def test_a_reason_the_customer_gave_in_the_answers_words_may_be_cited() -> None:
    # "It is because of a family health emergency": no value of the answer, but two of its
    # longer words, so the answer's cause repeats what the customer said (a reason it may
    # cite, not a record a claim could contradict).
    from semloop.ingest.formats.tau_bench import read

    messages = [
        {"role": "user", "content": "Please cancel reservation K1 under my travel insurance."},
        {"role": "assistant", "content": "What is the reason for the cancellation?"},
        {"role": "user", "content": "It is because of a family health emergency. Is that covered?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c1", "name": "cancel_reservation", "arguments": {"reservation_id": "K1"}}]},
        {"role": "tool", "id": "c1", "content": "{\"status\": \"cancelled\"}"},
        {"role": "assistant", "content": "Reservation K1 is cancelled under your insurance, "
                                         "since the reason is a family health emergency."},
    ]
    [run] = read(json.dumps({"simulations": [
        {"id": "s3", "task_id": "9", "trial": 0, "messages": messages, "policy": _POLICY,
         "reward_info": {"reward": 1.0}}]}))
    case = run_case(run)
    assert case is not None and case.told == ()
    assert case.reasons[0].endswith("It is because of a family health emergency.")
