"""Task rules, round b36tc: an act run item by item whose failed items the next item's call
does not retry, a batch's failed records left unsaid, the same act asked for two and told
for one, the rest of the work offered, a generic reply when the passages retrieved gave
the specifics, a promise closed on an offer of more help, an act said possible after "No
problem!", an act after a dash that ends a grievance, and an act said under way that no
call did; each with the look-alike that must not fire."""

from __future__ import annotations

from dataclasses import replace

from semloop.case import RunCase
from semloop.judge.local._answerer import Embed
from semloop.judge.local._completion import answer_task_completion

from .conftest import call, case


def _fires(run: RunCase, embed: Embed) -> bool:
    return float(answer_task_completion(run, embed).value) >= 0.5


def test_an_item_of_a_run_item_by_item_failed_and_no_retry(embed: Embed) -> None:
    # The next store's call is no retry of the failed one: store 14 was never synced.
    sync = [call("sync_prices", {"store": "12"}, {"synced": 410}),
            call("sync_prices", {"store": "14"}, {"error": "store offline"}, success=False),
            call("sync_prices", {"store": "15"}, {"synced": 388})]
    claimed = case("Push the new shelf prices to stores 12, 14 and 15.",
                   "Prices are synced to stores 12, 14 and 15.", *sync)
    assert _fires(claimed, embed)
    retried = case(claimed.input, "Prices are synced to stores 12, 14 and 15.", *sync,
                   call("sync_prices", {"store": "14"}, {"synced": 402}))
    assert not _fires(retried, embed)


def test_a_batch_with_failed_records_left_unsaid(embed: Embed) -> None:
    asked = "Issue the completion certificates for the six trainees of the March forklift course."
    issued = call("issue_certificates", {"course": "FL-0325"},
                  {"issued": ["T1", "T2", "T3", "T4"],
                   "failed": [{"id": "T5", "reason": "missing assessment"}, {"id": "T6", "reason": "missing assessment"}]})
    unsaid = case(asked, "The certificates for the March forklift course will reach the trainees by email "
                  "this afternoon.", issued)
    assert _fires(unsaid, embed)
    said = case(asked, "Four certificates are issued; T5 and T6 could not be, their assessments are missing.", issued)
    assert not _fires(said, embed)


def test_the_same_act_asked_for_two_and_told_for_one(embed: Embed) -> None:
    asked = ("Please book Nadia a driving lesson on Friday afternoon and, separately, book her husband Omar "
             "his theory test slot, any day next week.")
    one = case(asked, "Nadia's driving lesson is booked for Friday at 15:00 with instructor Kemp.",
               call("book_slot", {"pupil": "Nadia Haddad", "kind": "lesson", "slot": "2026-12-11T15:00"},
                    {"booking": "DL-2281", "instructor": "Kemp"}))
    assert _fires(one, embed)
    both = case(asked, "Nadia's driving lesson is booked for Friday at 15:00, and Omar's theory test for "
                "Tuesday at 10:00.", *one.tools_called,
                call("book_slot", {"pupil": "Omar Haddad", "kind": "theory", "slot": "2026-12-15T10:00"},
                     {"booking": "DL-2290"}))
    assert not _fires(both, embed)


def test_the_rest_of_the_work_offered(embed: Embed) -> None:
    asked = "Translate the five safety notices for the Lyon site into French."
    offered = case(asked, "Notice 1: « Port du casque obligatoire. »\nNotice 2: « Zone de chargement. »\n"
                   "I can do the rest if you like.")
    assert _fires(offered, embed)
    # Said to be a part, the offer of the rest hides nothing.
    portion = case(asked, "Here are the first 2 of the 5 notices: « Port du casque obligatoire. », « Zone de "
                   "chargement. » Shall I do the rest?")
    assert not _fires(portion, embed)


def test_a_generic_reply_when_the_retrieved_passages_gave_specifics(embed: Embed) -> None:
    asked = "My pallet of olive oil is held at Felixstowe for a missing phytosanitary note. What do I do?"
    rules = ("Port health: consignments held for missing documents are released once the importer uploads "
             "form PH-7 on the IPAFFS portal; release follows within 24 hours of upload.")
    stock = replace(case(asked, "Port holds happen for many reasons, such as missing documents. Generally, it's "
                         "best to keep your paperwork complete and talk to your forwarder. Planning ahead helps "
                         "avoid delays."),
                    context=(rules,))
    assert _fires(stock, embed)
    specific = replace(case(asked, "Upload form PH-7 on the IPAFFS portal; the port releases the pallet within "
                            "24 hours of the upload."), context=(rules,))
    assert not _fires(specific, embed)


def test_a_promise_closed_on_an_offer_of_more_help(embed: Embed) -> None:
    asked = "Please cancel my newspaper subscription from Monday, account 55-2019."
    looked = call("get_account", {"account": "55-2019"}, {"plan": "weekday print", "status": "active"})
    promised = case(asked, "Thanks Mr Okafor, I can see your weekday print plan (£18.50 a month, next bill on 12 "
                    "December). I'll go ahead and cancel the subscription from Monday so you won't be billed again. Is "
                    "there anything else I can help with?", looked)
    assert _fires(promised, embed)
    done = case(asked, "Done: the subscription on account 55-2019 is cancelled from Monday. Is there anything else "
                "I can help with?", looked,
                call("cancel_subscription", {"account": "55-2019", "from": "2026-12-07"}, {"status": "cancelled"}))
    assert not _fires(done, embed)


def test_an_act_said_possible_after_no_problem(embed: Embed) -> None:
    asked = "Please move my two standing orders from the old current account to the new one."
    found = call("list_standing_orders", {"account": "old"},
                 {"orders": [{"id": "SO-1", "payee": "Landlord"}, {"id": "SO-2", "payee": "Gym"}]})
    possible = case(asked, "No problem! Your two standing orders (Landlord and Gym) can be moved to the new "
                    "account. Branch hours are 9-17 on weekdays.", found)
    assert _fires(possible, embed)
    kept = case("I'd like to move my dentist appointment on the 9th to an earlier slot if one is free.",
                "No problem, I've left your appointment as it is: the 9th at 10:40, since nothing earlier is free.",
                call("get_appointment", {"patient": "P-88"}, {"date": "2026-12-09", "time": "10:40"}),
                call("search_slots", {"before": "2026-12-09"}, []))
    assert not _fires(kept, embed)


def test_an_act_after_a_dash_that_ends_a_grievance(embed: Embed) -> None:
    asked = ("Close my savings account. And you took a 15 euro fee on Nov 2 even though I closed the card on "
             "Oct 30 — refund that please.")
    closed = call("close_account", {"account": "SV-4410"}, {"status": "closed"})
    one = case(asked, "Your savings account SV-4410 is closed. Thanks for banking with us!", closed)
    assert _fires(one, embed)
    both = case(asked, "Your savings account SV-4410 is closed, and the 15 euro fee from Nov 2 is refunded.",
                closed, call("refund_fee", {"account": "SV-4410", "date": "2026-11-02"}, {"status": "refunded"}))
    assert not _fires(both, embed)


def test_an_act_said_under_way_that_no_call_did(embed: Embed) -> None:
    asked = "Upgrade my broadband to the 500 Mb plan and apply the loyalty discount."
    looked = call("get_package", {"account": "BB-3310"}, {"plan": "150 Mb", "landline": True})
    underway = case(asked, "Good call! The 500 Mb plan is our most popular. I'm upgrading your plan to 500 Mb now "
                    "and will apply the loyalty discount once it goes through.", looked)
    assert _fires(underway, embed)
    done = case(asked, "Your plan is now 500 Mb, with the loyalty discount applied.", looked,
                call("upgrade_plan", {"account": "BB-3310", "plan": "500 Mb"}, {"status": "upgraded"}),
                call("apply_discount", {"account": "BB-3310", "code": "LOYAL"}, {"status": "applied"}))
    assert not _fires(done, embed)
