"""TASK_COMPLETION: acts done otherwise than asked, parts turned into offers, stalls,
questions for what was given, and the user's own reasons (blind26's causes, other words)."""

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


_SLOTS = call("list_slots", {"vet": "Dr Hale"}, {"slots": [{"id": "SL-71", "start": "2027-01-05T09:00"},
                                                          {"id": "SL-79", "start": "2027-01-12T09:00"}]})
_FILES = call("list_files", {"folder": "tmp"}, {"files": [{"id": "F-11"}, {"id": "F-12"}, {"id": "F-13"}]})
_CARS = call("search_cars", {"city": "Porto"}, {"cars": [{"model": "Fiat 500", "price": 31, "automatic": False},
                                                        {"model": "Renault Clio", "price": 38, "automatic": True}]})
_PROFILE = call("get_profile", {"user": "me"}, {"phone": "555-0100"})


@pytest.mark.parametrize(("feature", "wrong", "right"), [
    # A part of the request that the answer only offers to do.
    ("act_missing",
     case("Renew my parking permit and email the receipt to my accountant, Joe Bloggs.",
          "Your parking permit is renewed until 31 March. Shall I send the receipt to Joe Bloggs?",
          call("renew_permit", {"permit": "PP-2231"}, {"renewed": True, "until": "2027-03-31"})),
     case("Renew my parking permit.",
          "Your parking permit is renewed until 31 March. Shall I email you the receipt?",
          call("renew_permit", {"permit": "PP-2231"}, {"renewed": True, "until": "2027-03-31"}))),
    # The record acted on is not the one of the day the request's act names.
    ("act_missing",
     case("Book the vet slot on the 5th for me, the 12th is too late.", "Booked your slot with Dr Hale.",
          _SLOTS, call("book_slot", {"slot_id": "SL-79"}, {"booked": True})),
     case("Book the vet slot on the 5th for me, the 12th is too late.", "Booked your slot with Dr Hale.",
          _SLOTS, call("book_slot", {"slot_id": "SL-71"}, {"booked": True}))),
    # Asked for all, it acted on fewer, naming none it left out.
    ("act_missing",
     case("Delete all the files in tmp.", "The files in tmp are deleted.",
          _FILES, call("delete_files", {"ids": ["F-11", "F-12"]}, {"deleted": 2})),
     case("Delete all the files in tmp.", "Deleted F-11 and F-12; F-13 is locked by a running job, so I left it.",
          _FILES, call("delete_files", {"ids": ["F-11", "F-12"]}, {"deleted": 2}))),
    # A quality the request asks of its pick that the record acted on lacks.
    ("act_missing",
     case("Rent me the cheapest automatic car in Porto.", "Rented the Fiat 500 at €31 a day.",
          _CARS, call("rent_car", {"model": "Fiat 500"}, {"ok": True})),
     case("Rent me the cheapest automatic car in Porto.", "Rented the Renault Clio at €38 a day.",
          _CARS, call("rent_car", {"model": "Renault Clio"}, {"ok": True}))),
    # Claimed done after calls that only read.
    ("act_missing",
     case("Change my phone number to 555-0188.", "Your phone number has been changed to 555-0188.", _PROFILE),
     case("What phone number do you have for me?", "Your phone number on file is 555-0100.", _PROFILE)),
    # The user's own amount asked, only an example given.
    ("act_missing",
     case("How many loyalty points do I have left?",
          "Points depend on your spending. For example, if you spent $300 you would have 300 points."),
     case("How do loyalty points work? Give me an example.",
          "You earn a point per dollar. For example, if you spent $300 you would have 300 points.")),
    # "Which one?" of a thing the request named by its code.
    ("asks_given",
     case("Please pause subscription 80021734.", "Sure! Which subscription would you like paused?"),
     case("Please move appointment APT-5512 to a later date.", "Sure! Which date would suit you?")),
])
def test_task_completion_causes(embed: Embed, feature: str, wrong: RunCase, right: RunCase) -> None:
    assert task_completion_evidence(wrong, embed).features[feature] >= 1.0
    assert task_completion_evidence(right, embed).features[feature] == 0.0


def test_the_users_reason_is_no_part_to_answer(embed: Embed) -> None:
    done = case("Close my savings account and send the balance to my checking, I'm consolidating my banks.",
                "Your savings account is closed and the $812.40 balance is now in your checking account.",
                call("close_account", {"account": "SAV-1"}, {"closed": True, "moved_to": "CHK-2", "amount": 812.4}))
    assert task_completion_evidence(done, embed).features["parts_missing"] == 0.0


def test_work_still_under_way_is_left(embed: Embed) -> None:
    read = call("get_tickets", {"user": "me"}, {"tickets": ["HD-11", "HD-12"]})
    stalled = case("Which of my helpdesk tickets are waiting on me?",
                   "I've pulled up your tickets and I'm still checking their status. I'll get back to you.", read)
    done = case("Which of my helpdesk tickets are waiting on me?",
                "HD-12 is waiting on you: IT asked for a screenshot. HD-11 is still being worked on by IT.", read)
    assert task_completion_evidence(stalled, embed).features["remainder"] == 1.0
    assert float(answer_task_completion(stalled, embed).value) >= 0.5
    assert float(answer_task_completion(done, embed).value) < 0.5


def test_a_promise_after_the_reported_act_is_follow_up(embed: Embed) -> None:
    # The asked act done and reported ("Quote sent …"): the promise after it is further service.
    sent = call("send_quote", {"customer": "Halden Bakery", "quote": "Q-3310"}, {"status": "sent"})
    done = case("Send quote Q-3310 to Halden Bakery.",
                "Quote sent to Halden Bakery. I'll chase them if they haven't replied by Monday.", sent)
    # Another act done (a draft), the asked one still only promised.
    drafted = call("create_quote_draft", {"customer": "Halden Bakery"}, {"draft": "Q-3310"})
    put_off = case("Send quote Q-3310 to Halden Bakery.",
                   "Quote draft for Halden Bakery is ready. I'll send it over shortly.", drafted)
    assert task_completion_evidence(done, embed).features["promise"] == 0.0
    assert task_completion_evidence(put_off, embed).features["promise"] == 1.0


def test_asked_for_all_one_call_an_item(embed: Embed) -> None:
    read = call("get_booking", {"ref": "BK-7"}, {"guests": ["G-1", "G-2", "G-3"]})
    some = case("Register all 3 guests on booking BK-7.", "Registered two guests; the third will follow.",
                read, call("register_guest", {"guest": "G-1"}, {"ok": True}),
                call("register_guest", {"guest": "G-2"}, {"ok": True}))
    every = case("Register all 3 guests on booking BK-7.", "All three guests are registered.",
                 read, *(call("register_guest", {"guest": g}, {"ok": True}) for g in ("G-1", "G-2", "G-3")))
    assert task_completion_evidence(some, embed).features["act_missing"] >= 1.0
    assert task_completion_evidence(every, embed).features["act_missing"] == 0.0


def test_an_answer_that_ends_on_a_hold_is_work_left(embed: Embed) -> None:
    held = case("Please renew my gym membership for another year.",
                "Sure, I'm renewing your membership for another year now, one moment please.")
    done = case("Please renew my gym membership for another year.",
                "Renewed until 31 May 2028. The new card may take a moment to appear in the app.",
                call("renew_membership", {"member": "GM-4"}, {"until": "2028-05-31"}))
    assert task_completion_evidence(held, embed).features["remainder"] == 1.0
    assert task_completion_evidence(done, embed).features["remainder"] == 0.0


def test_all_done_in_a_word_claims_the_failed_act(embed: Embed) -> None:
    probe = RunCase(id="p", input="Reserve court 2 for squash on Thursday at 7pm.",
                    output="All reserved! Court 2 is yours on Thursday from 7pm.",
                    tools_called=(ToolCall("create_reservation", {"court": 2, "start": "19:00"},
                                           '{"error": "CONFLICT", "message": "slot taken"}', False),))
    assert task_completion_evidence(probe, embed).features["false_success"] == 1.0


def test_the_rest_promised_is_work_left(embed: Embed) -> None:
    probe = RunCase(id="p", input="Email the signed lease to tenants Okafor, Lindqvist and Moreau.",
                    output="The signed lease has been emailed to Okafor. I'll email the rest of the tenants this afternoon.",
                    tools_called=(ToolCall("send_email", {"to": "okafor@example.org"}, '{"status": "sent"}', True),))
    assert task_completion_evidence(probe, embed).features["remainder"] == 1.0


def test_a_list_cut_off_with_an_ellipsis_is_work_left(embed: Embed) -> None:
    # The line that opens on "…" stands for the items the answer did not give.
    rows = [[f"2026-W{w:02d}", 40 + w] for w in range(1, 11)]
    probe = RunCase(id="p", input="list the weekly ticket count for each of the first 10 weeks of the year",
                    output="Weekly tickets:\n\n- W01: 41\n- W02: 42\n\n... and the rest follow the same climb.",
                    tools_called=(ToolCall("query", {"sql": "SELECT week, COUNT(*) FROM tickets GROUP BY week"},
                                           json.dumps({"rows": rows}), True),))
    assert task_completion_evidence(probe, embed).features["remainder"] == 1.0
