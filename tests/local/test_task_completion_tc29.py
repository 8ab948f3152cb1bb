"""TASK_COMPLETION, round tc29: the method or a pointer in place of the value a read returned,
acts the request names in its own words, part of an act handed back, an outline in place of
a text, a total never summed, one page given as all, half of a move, a draft said done; and
the look-alikes that must not fire (a drafted text's own lines, a hand-off announced, an
option left open, a promise that waits on the user's word)."""

from __future__ import annotations

import json

import pytest

from semloop.case import RunCase, ToolCall
from semloop.judge.local._answerer import Embed
from semloop.judge.local._completion import answer_task_completion, task_completion_evidence


def case(inp: str, out: str, *calls: ToolCall) -> RunCase:
    return RunCase(id="probe", input=inp, output=out, context=(), tools_called=calls)


def call(name: str, args: dict[str, object], output: object) -> ToolCall:
    return ToolCall(name, args, json.dumps(output), True)


_FARE = call("get_fare", {"from": "Bern", "to": "Milan"}, {"fare_chf": 74.0, "class": "2nd"})
_SEATS = call("get_seat_map", {"venue": "Aula"}, {"rows": 12})
_EVENTS = [{"id": f"EV-{i}", "name": n} for i, n in enumerate(["Choir", "Quiz", "Chess"])]
_DENTIST = call("get_bookings", {"pet": "Rex"}, {"bookings": [{"id": "VB-2", "type": "dental", "date": "2026-12-09"}]})


@pytest.mark.parametrize(("wrong", "right"), [
    # The method or a pointer in place of the value the read returned.
    (case("How much is a second-class ticket from Bern to Milan tomorrow?",
          "Fares depend on the day and the class. You can look up the exact price on the SBB website.", _FARE),
     case("How much is a second-class ticket from Bern to Milan tomorrow?",
          "A second-class ticket from Bern to Milan is CHF 74. You can also look up other times on the SBB website.",
          _FARE)),
    # An act named in the request's own words ("Reserve the …" is known; "Archive …" told by its
    # shape) that a run which only looked never says done.
    (case("Flag the damaged bench at Elm Park for repair.",
          "Thanks for letting us know. Park furniture is inspected by our grounds team every month.",
          call("search_assets", {"park": "Elm Park", "type": "bench"}, {"assets": [{"id": "B-17"}]})),
     case("Flag the damaged bench at Elm Park for repair.",
          "I've flagged bench B-17 at Elm Park for repair; the grounds team will pick it up this week.",
          call("search_assets", {"park": "Elm Park", "type": "bench"}, {"assets": [{"id": "B-17"}]}),
          call("flag_asset", {"id": "B-17", "reason": "repair"}, {"status": "flagged"}))),
    # Half of a move: the old booking undone, no new one.
    (case("Please move Rex's dental to next Monday.",
          "Rex's dental on 9 December is cancelled.",
          _DENTIST, call("cancel_booking", {"id": "VB-2"}, {"status": "cancelled"})),
     case("Please move Rex's dental to next Monday.",
          "Rex's dental is moved to Monday 14 December at 10:00.",
          _DENTIST, call("reschedule_booking", {"id": "VB-2", "date": "2026-12-14"}, {"status": "confirmed"}))),
    # A total asked, amounts listed and never summed.
    (case("What will the three evening classes cost me in total?",
          "Pottery is €120, Spanish €95 and Yoga €60.",
          call("get_prices", {"classes": ["pottery", "spanish", "yoga"]}, {"pottery": 120, "spanish": 95, "yoga": 60})),
     case("What will the three evening classes cost me in total?",
          "Pottery is €120, Spanish €95 and Yoga €60: €275 in total.",
          call("get_prices", {"classes": ["pottery", "spanish", "yoga"]}, {"pottery": 120, "spanish": 95, "yoga": 60}))),
    # One page of a longer list given as all.
    (case("List all the events at the community centre this month.",
          "Here are all the events this month:\n- Choir\n- Quiz\n- Chess",
          call("list_events", {"month": "2026-12"}, {"events": _EVENTS, "has_more": True})),
     case("List all the events at the community centre this month.",
          "Here are the first three events this month:\n- Choir\n- Quiz\n- Chess\nThere are more; shall I go on?",
          call("list_events", {"month": "2026-12"}, {"events": _EVENTS, "has_more": True}))),
])
def test_work_left(embed: Embed, wrong: RunCase, right: RunCase) -> None:
    assert float(answer_task_completion(wrong, embed).value) >= 0.5
    assert float(answer_task_completion(right, embed).value) < 0.5


def test_a_drafted_text_sends_no_one_elsewhere(embed: Embed) -> None:
    """The text asked for speaks to its own readers: "Call the office …" is the notice's."""
    drafted = case("Write a notice to members about the pool closing on 3 March. Keep it short.",
                   "Here's the notice:\n\nDear members,\nThe pool is closed on Tuesday 3 March for cleaning. "
                   "Questions? Call the front desk on 01632 960 118.\nThank you!", _SEATS)
    assert task_completion_evidence(drafted, embed).features["redirect"] == 0.0
    outline = case("Write a notice to members about the pool closing on 3 March.",
                   "The notice should mention the date, the reason for the closure and who to call with questions.")
    assert task_completion_evidence(outline, embed).features["act_missing"] >= 1.0


def test_what_waits_on_the_user_or_a_person_is_no_work_left(embed: Embed) -> None:
    waits = case("Attach the March inspection report to work order WO-88.",
                 "I couldn't: there is no March inspection report, only February's and April's. "
                 "If the April one is what you need, tell me and I'll attach it.",
                 call("list_reports", {"wo": "WO-88"}, {"reports": ["2026-02", "2026-04"]}))
    assert task_completion_evidence(waits, embed).features["promise"] == 0.0
    handed = case("Book me in with a GP today about my chest pain.",
                  "Chest pain needs urgent assessment, so I can't book a routine slot. "
                  "I'm now going to transfer you to a nurse who can speak with you straight away.")
    assert task_completion_evidence(handed, embed).features["remainder"] == 0.0
    option = case("Cancel my trip to Lisbon and refund it.",
                  "I can't refund this fare: it is non-refundable under its terms. "
                  "If you change your mind about the credit voucher, you can contact us before the trip.",
                  call("get_trip", {"id": "TR-1"}, {"fare": "non-refundable"}))
    assert task_completion_evidence(option, embed).features["redirect"] == 0.0


def test_the_outcome_told_meets_tell_me_if_it_worked(embed: Embed) -> None:
    told = case("Restart the billing export job and tell me if it worked.",
                "I restarted the billing export job; the second attempt succeeded and 4,210 invoices were exported.",
                call("restart_job", {"job": "billing_export"}, {"state": "success", "exported": 4210}))
    assert task_completion_evidence(told, embed).features["parts_missing"] == 0.0
