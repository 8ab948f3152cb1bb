"""TASK_COMPLETION, round tc30: a record an act left awaiting approval called final, an answer
that introduces what it gives (or a list's next number) and stops, one page of many given as
the count asked, a stock reply that names only the business; and the look-alikes that must
not fire (a failed act passed on to a person, a participle that describes rather than claims
the act done, a namespaced tool's own verb, quoted text and a topic label that name no act,
a promise on a condition after a reasoned refusal)."""

from __future__ import annotations

import pytest

from semloop.case import RunCase
from semloop.judge.local._answerer import Embed
from semloop.judge.local._completion import (
    _handoff_after_failure,
    answer_task_completion,
    task_completion_evidence,
)
from semloop.judge.local._task import _Run

from .conftest import call, case

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
    # A list cut off at its next number.
    (case("What are the two plans and what does each cost?", "We have two plans:\n\n1. Basic, $9/month.\n2.",
          call("list_plans", {}, {"plans": [{"name": "Basic", "monthly": 9}, {"name": "Plus", "monthly": 15}]})),
     case("What are the two plans and what does each cost?", "We have two plans:\n\n1. Basic, $9/month.\n2. Plus, $15/month.",
          call("list_plans", {}, {"plans": [{"name": "Basic", "monthly": 9}, {"name": "Plus", "monthly": 15}]}))),
    # A count asked, one page of several read and given as the count.
    (case("How many support tickets did we close in October?", "You closed 50 tickets in October.",
          call("get_tickets", {"month": "2026-10", "status": "closed"}, {"page": 1, "has_more": True, "tickets": list(range(50))})),
     case("How many support tickets did we close in October?", "You closed 50 tickets in October.",
          call("get_tickets", {"month": "2026-10", "status": "closed"}, {"page": 1, "has_more": False, "tickets": list(range(50))}))),
    # Stock words around the business's own name, nothing of the request.
    (case("My repair job 7781 was due Monday and the shop says the laptop isn't back. Where is it?",
          "Thank you for contacting FixItFast! We value every customer. Repair times can vary. "
          "Don't hesitate to get in touch. Have a wonderful day!"),
     case("My repair job 7781 was due Monday and the shop says the laptop isn't back. Where is it?",
          "Job 7781 is at our central workshop waiting for a replacement hinge; it is due back at the shop on Thursday.",
          call("get_job", {"job": 7781}, {"status": "awaiting_part", "part": "hinge", "eta": "Thursday"}))),
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


def test_a_namespaced_tool_is_read_by_its_own_verb(embed: Embed) -> None:
    audit = case("run an accessibility audit on the signup page, what should we fix first",
                 "Audit done: 3 issues. Fix the 2 unlabelled inputs first, then the low-contrast helper text.",
                 call("a11y.run_axe", {"url": "signup"}, {"violations": [{"rule": "label"}, {"rule": "contrast"}]}))
    assert float(answer_task_completion(audit, embed).value) < 0.5


def test_quoted_text_and_a_topic_label_ask_no_act(embed: Embed) -> None:
    quoted = case("pls translate 'Add to basket' into de-DE, TM first",
                  "Exact TM match: 'In den Warenkorb'.",
                  call("tm.lookup", {"source": "Add to basket", "locale": "de-DE"}, {"target": "In den Warenkorb"}))
    assert float(answer_task_completion(quoted, embed).value) < 0.5
    label = case("motor book: claims frequency 2024 vs 2025? short",
                 "Frequency fell from 8.1% (2024) to 7.4% (2025).",
                 call("sql.query", {"q": "select year, freq from motor"}, {"rows": [{"year": 2024, "freq": 8.1}]}))
    assert float(answer_task_completion(label, embed).value) < 0.5


def test_a_promise_on_a_condition_after_a_reasoned_refusal_waits(embed: Embed) -> None:
    read = call("get_account", {"account": "GY-88"}, {"holder": "Ada Byrne", "authorised": []})
    waits = case("Cancel my mother's gym membership GY-88, she has moved abroad.",
                 "I can't cancel it on your request because you're not an authorised user on the account. "
                 "If she sends us a signed note, we'll cancel it once it's checked.", read)
    assert task_completion_evidence(waits, embed).features["promise"] == 0.0
    still = case("Cancel my mother's gym membership GY-88, she has moved abroad.",
                 "I can't cancel it because you're not an authorised user, so I will transfer you to a human agent.", read)
    assert task_completion_evidence(still, embed).features["promise"] == 1.0


def test_an_act_only_promised_after_reads_is_not_done(embed: Embed) -> None:
    promised = case("bump `requests` to 2.32.3 in the api service and open a PR against main",
                    "requests 2.32.3 fixes the proxy leak, and the api pins requests<2.32. "
                    "I'll update the pin and open a PR against main.",
                    call("repo_read_file", {"path": "requirements.txt"}, "requests<2.32"),
                    call("web_search", {"q": "requests 2.32.3"}, {"results": [{"title": "2.32.3 release"}]}))
    assert float(answer_task_completion(promised, embed).value) >= 0.5


def test_asked_to_act_with_no_call_an_answer_of_rules_does_nothing(embed: Embed) -> None:
    rules = case("i want to add one more night to my hostel stay, booking HX-2231. please do it",
                 "Extra nights are possible if the bed is still free, and the rate is charged on arrival.")
    assert float(answer_task_completion(rules, embed).value) >= 0.5
    question = case("is the hostel open on new year's day", "Yes, reception is open from 8:00 to 20:00 on 1 January.")
    assert float(answer_task_completion(question, embed).value) < 0.5


def test_asking_leave_the_request_gave_leaves_the_act_undone(embed: Embed) -> None:
    read = call("get_subscription", {"member": "SW-31"}, {"plan": "swim 12", "renewal_fee": 48.0, "card": "visa_1180"})
    asked = case("Go ahead and renew my swim pass SW-31 with the card on file, no need to check back.",
                 "Your swim pass renewal is $48.00 on your Visa ending 1180. Would you like me to go ahead?", read)
    assert float(answer_task_completion(asked, embed).value) >= 0.5
    kept = case("Renew my swim pass SW-31, but check with me first about the price.",
                "The renewal is $48.00 on your Visa ending 1180. Would you like me to go ahead?", read)
    assert float(answer_task_completion(kept, embed).value) < 0.5


def test_a_delivery_to_someone_else_is_an_act_only_a_call_does(embed: Embed) -> None:
    moved = call("move_booking", {"booking": "VX-9", "date": "2027-02-03"}, {"status": "moved"})
    half = case("Move booking VX-9 to 3 February and email the venue manager a confirmation.",
                "Booking VX-9 is moved to 3 February.", moved)
    assert task_completion_evidence(half, embed).features["act_missing"] >= 1.0
    mine = case("Move booking VX-9 to 3 February and send me the new details.",
                "Booking VX-9 is moved to 3 February: hall 2, 18:00 to 23:00.", moved)
    assert task_completion_evidence(mine, embed).features["act_missing"] == 0.0
