"""Careful chat endings shaped like the real runs' false alarms of round 35, in other
domains: "not yet" agreeing with a record's "non-", advice under a bullet's heading, a
message still to come, a count in a supposed case, a working the answer goes on to give,
a closing wish, a place after "at", a negated act far from its object, another row's
amount, a request the customer made later, days between two dates the answer gives,
another channel offered after a failure told, and the chat's own attempts as a cause."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import cast

from semloop.judge.local._answerer import Embed
from semloop.judge.local._claims import Quantity, contradicts, is_generic_advice, stem
from semloop.judge.local._completion import _led_in, task_completion_evidence
from semloop.judge.local._contradictions import _SPEAKER, _denied_near
from semloop.judge.local._figures import _SUPPOSED
from semloop.judge.local._grounding import (
    _asserted,
    _Evidence,
    _other_measure,
    hallucination_evidence,
)
from semloop.judge.local._offers import _offered_items
from semloop.judge.local._times import _days_between

from .conftest import call, case


def test_not_yet_agrees_with_a_records_non() -> None:
    record = "Error: non-certified boilers cannot be registered"
    assert contradicts("the boiler is not yet certified, so it stays unregistered", record, 1) == ""
    assert contradicts("the boiler is certified, so it stays unregistered", record, 1)


def test_advice_under_a_bullets_heading_is_advice() -> None:
    assert is_generic_advice("Backup Plan: Keep a copy of the old settings, including the export date.")
    assert is_generic_advice("Share the Results: If your club keeps minutes, note the scores.")
    assert not is_generic_advice("Good news: you can bring a guest for free.")


def test_what_a_message_to_come_will_include_offers_nothing() -> None:
    assert _offered_items("The letter you'll get will include your new PIN and a branch map.") == []
    assert _offered_items("Your cabin will include breakfast and a sauna pass.") == ["breakfast", "pass"]


def test_a_count_in_a_supposed_case_counts_that_case() -> None:
    assert _SUPPOSED.match("If you kept both memberships, you'd pay for two plans.")
    assert not _SUPPOSED.match("You pay for two plans.")


def test_an_announced_working_the_answer_then_gives_is_no_work_left() -> None:
    given = ["Option B: Let me work it out...", "3 nights at $80 is $240.", "Shall I book it?"]
    assert _led_in(given[0], given)
    assert not _led_in("Let me work it out...", ["Let me work it out..."])


def test_a_closing_wish_states_nothing() -> None:
    assert not _asserted("We look forward to welcoming you at the Larchwood Lodge!")
    assert _asserted("The Larchwood Lodge has a sauna.")


def test_a_negated_act_denies_its_object_across_small_words() -> None:
    assert _denied_near("there is no way for me to add a parking permit to the lease", frozenset({stem("permit")}))


def test_another_amount_of_the_same_measure_is_another_row() -> None:
    assert _other_measure("the red kettle with 1.7 litres capacity and no timer", "colour: red; capacity: 1.2 litres; timer: yes")
    assert not _other_measure("the kettle holds 1.7 litres", "Kettles sold here hold 1.2 litres at most.")
    assert not _other_measure("the red kettle with 1.7 litres capacity", "colour: red; capacity: 1.7 litres; timer: yes")


def test_a_later_request_is_no_record_a_refusal_denies(embed: Embed) -> None:
    orders = call("get_orders", {"member": "M-7"},
                  {"orders": [{"id": "SB-31", "paid_with": "visa_1182"}, {"id": "SB-40", "paid_with": "amex_5520"}]})
    refused = case("I want refunds for both of my seed box orders.",
                   "I'm sorry, the refund for a box must go to the card that paid for it. "
                   "You cannot refund SB-31 to the card used for SB-40.", orders)
    told = replace(refused, told=("Refund SB-31 to the card I used for SB-40.",))
    assert hallucination_evidence(told, embed).features.get("negation", 0) == 0


def test_days_between_two_dates_the_claim_states_are_its_working() -> None:
    two = Quantity("three days", 3.0, "day", 1.0, False)
    undated = cast(_Evidence, SimpleNamespace(whole_dates=frozenset()))  # no date in the evidence
    assert _days_between(two, "The kayak came back on June 4, three days before the June 7 deadline.", undated)
    assert not _days_between(two, "The kayak came back on June 4, ahead of the June 9 deadline.", undated)


def test_a_failure_told_and_another_channel_offered_is_no_deflection(embed: Embed) -> None:
    failed = call("renew_permit", {"permit": "RP-90"}, "Error: permit service unavailable", success=False)
    told = case("Please renew my residents' parking permit RP-90.",
                "I'm sorry, the permit system failed when I tried to renew RP-90, so nothing has been charged. "
                "You can call the parking office on 0161 496 0777, where they can renew it by phone today.", failed)
    assert task_completion_evidence(told, embed).features["redirect"] == 0
    sent = case("Please renew my residents' parking permit RP-90.",
                "You can call the parking office on 0161 496 0777, where they can renew it by phone today.")
    assert task_completion_evidence(sent, embed).features["redirect"] == 1


def test_the_chats_own_attempts_are_no_invented_cause() -> None:
    assert _SPEAKER.search("we've tried three spellings without a match")
    assert not _SPEAKER.search("we don't deliver to islands")
