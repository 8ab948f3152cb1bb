"""TASK_COMPLETION, round tc30: a record an act left awaiting approval called final, an answer
that introduces what it gives and stops; and the look-alikes that must not fire (a failed
act passed on to a person, a participle that describes rather than claims the act done)."""

from __future__ import annotations

import json

import pytest

from semloop.case import RunCase, ToolCall
from semloop.judge.local._answerer import Embed
from semloop.judge.local._task import (
    _handoff_after_failure,
    _Run,
    answer_task_completion,
    task_completion_evidence,
)


def case(inp: str, out: str, *calls: ToolCall) -> RunCase:
    return RunCase(id="probe", input=inp, output=out, context=(), tools_called=calls)


def call(name: str, args: dict[str, object], output: object, success: bool = True) -> ToolCall:
    return ToolCall(name, args, output if isinstance(output, str) else json.dumps(output), success)


_HOLD = call("request_room", {"room": "Hall B", "date": "2027-03-04"},
             {"booking": "HB-11", "status": "pending_approval", "approver": "facilities"})
_SLOTS = call("get_slots", {"clinic": "Eastside", "date": "2026-12-12"}, {"slots": ["09:10", "11:40"]})


@pytest.mark.parametrize(("wrong", "right"), [
    # A record the act left waiting on someone's approval, called final without a word of it.
    (case("Book Hall B for our staff meeting on 4 March.", "Hall B is confirmed for your staff meeting on 4 March.", _HOLD),
     case("Book Hall B for our staff meeting on 4 March.",
          "I've requested Hall B for 4 March (HB-11); facilities still has to approve it.", _HOLD)),
    # An answer that introduces what it gives, and stops.
    (case("Which appointments are free at Eastside on Saturday?", "Eastside has these free on Saturday:", _SLOTS),
     case("Which appointments are free at Eastside on Saturday?",
          "Eastside has these free on Saturday: 09:10 and 11:40.", _SLOTS)),
])
def test_work_left(embed: Embed, wrong: RunCase, right: RunCase) -> None:
    assert float(answer_task_completion(wrong, embed).value) >= 0.5
    assert float(answer_task_completion(right, embed).value) < 0.5


def test_a_failed_act_passed_to_a_person_is_no_promise(embed: Embed) -> None:
    failed = call("renew_permit", {"permit": "RP-220"}, "Error: permit RP-220 is under review", success=False)
    passed = case("Renew my resident parking permit RP-220.",
                  "I'm sorry, the renewal was refused because the permit is under review. "
                  "I will escalate your case to a human agent who can look at the review.", failed)
    assert task_completion_evidence(passed, embed).features["promise"] == 0.0
    # An offer to pass it on passes nothing.
    offered = case("Renew my resident parking permit RP-220.",
                   "I'm sorry, the renewal was refused. If you like, I can transfer you to a human agent.", failed)
    assert not _handoff_after_failure(_Run.of(offered, embed), [failed])
    assert _handoff_after_failure(_Run.of(passed, embed), [failed])


def test_a_describing_participle_claims_no_success(embed: Embed) -> None:
    failed = call("book_table", {"guests": 6}, "Error: deposit amount does not add up", success=False)
    told = case("Book a table for six on Friday.",
                "All tables for six on Friday are priced with a €60 deposit, and none fits your budget.", failed)
    assert task_completion_evidence(told, embed).features["false_success"] == 0.0
    claimed = case("Book a table for six on Friday.", "Your table for six is booked for Friday.", failed)
    assert task_completion_evidence(claimed, embed).features["false_success"] == 1.0
