"""Careful chat endings shaped like the real runs' false alarms of round 33, in other
domains: a free item given with its reason, a rule's figure the answer applies, a closing
that opens on any word of thanks."""

from __future__ import annotations

from dataclasses import replace

from semloop.judge.local._answerer import Embed
from semloop.judge.local._completion import _closed_reply
from semloop.judge.local._grounding import _unaddressed, hallucination_evidence
from semloop.judge.local._offers import _offered_items

from .conftest import call, case


def test_a_reason_after_an_offer_is_no_offered_item() -> None:
    # "free due to your membership" gives why it is free; what is offered is still read.
    assert _offered_items("Both lockers are free due to your student membership.") == []
    assert _offered_items("The pass includes free parking thanks to the promotion.") == ["parking", "parking"]


def test_a_rules_figure_the_answer_applies_is_no_invented_number(embed: Embed) -> None:
    rental = call("get_rental", {"rental_id": "SK-40"}, {"rental_id": "SK-40", "item": "skis",
                                                          "picked_up": "2025-01-10", "status": "active"})
    answer = "Rental SK-40 can't be refunded: the skis were picked up more than 48 hours ago."
    run = replace(case("refund my ski rental SK-40", answer, rental),
                  reasons=("Refunds are given only within 48 hours of pick-up.",))
    assert hallucination_evidence(run, embed).features.get("numbers", 0) == 0
    # A figure no rule nor record gives is still one.
    slipped = replace(run, output="Rental SK-40 can't be refunded: the skis were picked up more than 72 hours ago.")
    assert hallucination_evidence(slipped, embed).features.get("numbers", 0) == 1


def test_a_closing_that_opens_on_any_word_is_the_reply_it_closes(embed: Embed) -> None:
    done = call("cancel_class", {"booking": "YG-7"}, {"booking": "YG-7", "status": "cancelled"})
    run = case("Please cancel my yoga class YG-7.",
               "Absolutely! I'll be here whenever you need anything else. Have a lovely evening!", done,
               steps=("Which class would you like to cancel?", "Your yoga class YG-7 is cancelled."))
    closed = _closed_reply(run, embed)
    assert closed is not None and closed.output == "Your yoga class YG-7 is cancelled."


def test_a_name_set_off_mid_sentence_is_the_reader_addressed() -> None:
    assert _unaddressed("I understand your frustration, Tomasz, and the locker is reset.") == \
        "I understand your frustration, and the locker is reset."
    assert _unaddressed("My apologies, Ines \u2014 the key is ready on December 3.") == \
        "My apologies \u2014 the key is ready on December 3."
    # A list of places after a name is no one addressed.
    assert _unaddressed("Your bags go to Lyon, Nantes, and Lille.") == "Your bags go to Lyon, Nantes, and Lille."
