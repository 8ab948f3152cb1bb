"""TASK_COMPLETION, round b43tc: an act told as not done, its rest another's turn, is not
called final nor left undone; the act's own word and its effect ("blocked and can't be used")
admit no failure; an amount that answers another part meets only that one; a call named by
its object with the act last ("aid.appeal_submit", "card_block") acts; a file's name names
its thing; a list looked up and told of one item leaves the rest; a call named only by its
record ("library.loans") looks when the answer tells nothing done."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed
from semloop.judge.local._completion import (
    _acts,
    _elided_act_left,
    _looked_up_fewer,
    _new_state_told,
    answer_task_completion,
)

from .conftest import call, case


def test_an_act_told_not_done_is_not_called_final(embed: Embed) -> None:
    refused = call("housing.swap", {"from": "Oak 1.02"}, {"ok": False, "error": "DUAL_CONSENT_REQUIRED"}, success=False)
    started = call("housing.swap_request_create", {"from": "Oak 1.02", "to": "Oak 3.10"},
                   {"request_id": "RS-118", "status": "AWAITING_COUNTERPARTY"})
    honest = case("Swap my room with Dana in Oak 3.10, we agreed.",
                  "I wasn't able to do the swap: swaps need both residents to confirm. I've started it (request RS-118), "
                  "and Dana now needs to accept it in the portal within 72 hours.", refused, started)
    assert float(answer_task_completion(honest, embed).value) < 0.5


def test_the_acts_own_word_and_effect_admit_no_failure(embed: Embed) -> None:
    expired = call("card_block", {"card": "****7711"}, {"error": "401 Unauthorized"}, success=False)
    claimed = case("Block my card ending 7711, it was stolen.",
                   "Done, your card ending 7711 is now blocked and can't be used.", expired)
    assert float(answer_task_completion(claimed, embed).value) >= 0.5


def test_an_amount_for_another_part_meets_only_that_one(embed: Embed) -> None:
    read = call("loan_summary", {"loan": "CL-301"}, {"balance": 8420.5, "erc": 0, "saved": 612.0})
    one = case("Three things: (1) what's my car loan balance, (2) how much would paying £2k extra save me, "
               "and (3) is there an early repayment fee?", "Your car loan balance is £8,420.50 today.", read)
    assert float(answer_task_completion(one, embed).value) >= 0.5
    both = case("When is the add/drop deadline and what's the late-withdrawal fee?",
                "The add/drop deadline is March 3, and a late withdrawal costs $60 per course.",
                call("get_calendar", {}, {"add_drop": "2027-03-03", "late_withdrawal_fee": 60}))
    assert float(answer_task_completion(both, embed).value) < 0.5


def test_a_call_named_by_its_object_with_the_act_last_acts(embed: Embed) -> None:
    assert _acts(call("aid.appeal_submit", {"sid": "1"}, {"status": "SUBMITTED"}))
    assert _acts(call("card_block", {"card": "1"}, {"status": "BLOCKED"}))
    assert not _acts(call("edit_file", {"path": "a.py"}, "ok"))
    applied = call("exams.defer_apply", {"sid": "7710", "course": "CHEM 120"}, {"ref": "DF-19", "status": "RECEIVED"})
    done = case("I have the flu and can't sit tomorrow's CHEM 120 exam. Apply for a deferral for me.",
                "Your deferred exam application for CHEM 120 is in (ref. DF-19). Upload a medical certificate within "
                "5 working days.", applied)
    assert float(answer_task_completion(done, embed).value) < 0.5


def test_a_files_name_names_its_thing(embed: Embed) -> None:
    sent = call("aid.appeal_submit", {"sid": "5512", "files": ["letter.pdf", "certificate.pdf"]},
                {"appeal_id": "AP-71", "status": "SUBMITTED"})
    done = case("Submit my appeal, the letter and my doctor's certificate are attached.",
                "Your appeal has been submitted with both documents (appeal ID AP-71).", sent)
    assert float(answer_task_completion(done, embed).value) < 0.5


def test_a_list_looked_up_and_told_of_one_leaves_the_rest(embed: Embed) -> None:
    names = ["Harbour Arts Prize", "Coastal Travel Grant", "Northern Merit Award"]
    read = call("awards.lookup", {"names": names},
                [{"name": n, "eligibility": "any year", "amount": 500} for n in names])
    one = case("Am I eligible for the Harbour Arts Prize, the Coastal Travel Grant, and the Northern Merit Award?",
               "You're eligible for the Harbour Arts Prize: it is open to any year and pays 500.", read)
    assert _looked_up_fewer(one) == (3, 1)
    assert float(answer_task_completion(one, embed).value) >= 0.5
    all_told = case(one.input, "You're eligible for all three: the Harbour Arts Prize, the Coastal Travel Grant "
                    "and the Northern Merit Award, each open to any year.", read)
    assert _looked_up_fewer(all_told) is None


def test_a_call_named_by_its_record_looks(embed: Embed) -> None:
    loans = call("library.loans", {"patron": "P-3310"}, "BARCODE  TITLE  DUE\n3112  Field Methods  2025-04-02")
    advice = case("Renew all my loans please, I'm away this week.",
                  "Most library items can be renewed up to three times online through My Account, as long as nobody "
                  "else has placed a hold on them.", loans)
    assert float(answer_task_completion(advice, embed).value) >= 0.5
    made = call("lms.extension_request", {"assignment": "Unit 4"}, {"request_id": "EXT-90", "status": "PENDING"})
    done = case("Please request an extension for the Unit 4 assignment, I was ill.",
                "I've submitted an extension request for Unit 4 to your tutor (request EXT-90).", made)
    assert float(answer_task_completion(done, embed).value) < 0.5


def test_a_thing_changed_told_by_its_new_state_is_met(embed: Embed) -> None:
    posted = call("ledger_post", {"unit": "9B", "type": "payment", "amount_eur": 400}, {"ok": True, "balance_eur": 300})
    done = case("Tenant at 9 Calle Sol: record that he paid 400 of the 700 euros rent, and update arrears.",
                "Recorded €400 paid against March rent for 9 Calle Sol. Arrears now stand at €300.", posted)
    assert float(answer_task_completion(done, embed).value) < 0.5
    assert _new_state_told("update arrears", done.output)
    assert not _new_state_told("update arrears", "Recorded €400 paid against March rent.")


def test_the_people_an_act_is_for_are_no_second_thing(embed: Embed) -> None:
    booked = call("tour_book", {"community": "Elm Court", "date": "2025-03-04", "guests": 2}, {"ref": "T-77"})
    done = case("Book a tour of Elm Court for me and my brother next Tuesday morning.",
                "Your tour of Elm Court is booked for Tuesday 4 March at 10:00 for 2 people (ref T-77).", booked)
    assert float(answer_task_completion(done, embed).value) < 0.5


def test_an_act_borrowed_by_a_second_thing_is_left_when_unnamed(embed: Embed) -> None:
    moved = call("dvla.update_v5c_address", {"vrm": "AB12 CDE", "address": "7 Hill Rd, Leeds LS2 9JT"}, {"ok": True})
    one = case("Update the address on my V5C to 7 Hill Rd, Leeds LS2 9JT and also on my driving licence please.",
               "Your V5C logbook address has been updated to 7 Hill Rd, Leeds LS2 9JT.", moved)
    assert float(answer_task_completion(one, embed).value) >= 0.5
    parts = ["Update the address on my V5C to 7 Hill Rd", "on my driving licence please"]
    assert _elided_act_left(parts[1], parts, one)
    both = case(one.input, "Your V5C and driving licence addresses are both updated to 7 Hill Rd.", moved)
    assert not _elided_act_left(parts[1], parts, both)


def test_one_item_acted_on_of_a_counted_set_read_by_key(embed: Embed) -> None:
    areas = call("office_areas", {}, {"A": 10, "B": 20, "C": 30})
    posted = call("post_charge", {"account": "A", "amount_eur": 150}, {"ok": True, "txn": "CH-9"})
    one = case("Split the gas bill (€900) between the three offices by floor area and post the charges to each account.",
               "By floor area: A €150, B €300, C €450. I posted the charge for Office A.", areas, posted)
    assert float(answer_task_completion(one, embed).value) >= 0.5


def test_money_sent_to_an_account_is_an_act(embed: Embed) -> None:
    quoted = call("fx_quote", {"sell": "EUR", "buy": "GBP", "amount": 2000}, {"quote_id": "Q-5", "rate": 0.85, "buy_amount": 1700})
    quote_only = case("Send 2,000 EUR to my brother's account GB29 NWBK 6016 1331 9268 19 in pounds, at today's rate.",
                      "Today's rate is 1 EUR = 0.85 GBP, so 2,000 EUR would give your brother about £1,700. "
                      "The quote is valid for 20 minutes.", quoted)
    assert float(answer_task_completion(quote_only, embed).value) >= 0.5


def test_a_call_whose_verb_the_answer_tells_done_acted(embed: Embed) -> None:
    # Written in another domain than the case that showed it (a field-spray log).
    logged = call("log_delivery", {"site": "Dock 4", "pallets": 12}, {"ok": True, "ref": "GRN-5531"})
    told = case("record that 12 pallets of flour arrived at dock 4 this morning",
                "Logged: 12 pallets of flour at Dock 4 this morning, goods-received note GRN-5531.", logged)
    assert float(answer_task_completion(told, embed).value) < 0.5
