"""Careful chat endings shaped like the real runs' false alarms of round 34, in other
domains: a promise that nothing changes, a thing's own course, a noun after "my", an act
asked of all against another act, an exchange's refund, a record never found, a negation's
"longer", sibling records named alike, a value set to no."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed
from semloop.judge.local._claims import negation_scope
from semloop.judge.local._completion import (
    _all_verbs,
    _other_act_than_all,
    task_completion_evidence,
)
from semloop.judge.local._contradictions import _NONE_PAIR
from semloop.judge.local._task import _act_words
from semloop.judge.local._understanding import _opposite

from .conftest import call, case, found


def test_a_promise_that_nothing_changes_puts_no_work_off(embed: Embed) -> None:
    seat = call("get_booking", {"ref": "TH-81"}, {"ref": "TH-81", "seat": "F12", "status": "booked"})
    kept = case("Move my theatre seat TH-81 to the front row.",
                "Understood. Since the front row is sold out, I will not proceed with the change "
                "and your seat F12 stays as booked.", seat)
    assert task_completion_evidence(kept, embed).features["promise"] == 0
    put_off = case("Move my theatre seat TH-81 to the front row.",
                   "Understood, I'll look into the seat change and get back to you shortly.", seat)
    assert task_completion_evidence(put_off, embed).features["promise"] == 1


def test_a_things_own_course_is_no_work_left(embed: Embed) -> None:
    moved = call("move_delivery", {"parcel": "PX-4"}, {"parcel": "PX-4", "day": "Friday", "status": "moved"})
    course = case("Move my parcel PX-4 to Friday.",
                  "Parcel PX-4 now arrives on Friday; the shipment will continue through the depot as usual.", moved)
    assert task_completion_evidence(course, embed).features["remainder"] == 0
    left = case("Move my parcel PX-4 to Friday.", "Parcel PX-4 is moved. I will continue with the other parcels next.", moved)
    assert task_completion_evidence(left, embed).features["remainder"] == 1


def test_a_word_after_a_possessive_names_a_thing_not_an_act() -> None:
    assert "order" not in _act_words("When will my order of paint arrive?")
    assert "order" in _act_words("Please order two more tins of paint.")
    assert "refund" in _act_words("I want a refund for the tins.")


def test_an_act_asked_of_all_is_not_another_act_on_some() -> None:
    verbs = _all_verbs("Cancel all my swimming lessons in May.")
    assert _other_act_than_all(call("reschedule_lesson", {"ids": ["L1"]}, {"status": "moved"}), verbs)
    assert not _other_act_than_all(call("cancel_lessons", {"ids": ["L1"]}, {"status": "cancelled"}), verbs)


def test_an_exchanges_refunded_difference_is_no_refund_instead() -> None:
    done = case("I'd like to swap my concert ticket for the Sunday show.",
                "Your ticket is exchanged for Sunday's show, and the $6 difference is refunded to your card.")
    assert _opposite(done) is None
    refunded = case("I'd like to swap my concert ticket for the Sunday show.", "Your ticket is refunded to your card.")
    assert _opposite(refunded) == ("swap", "refund")


def test_a_record_never_found_is_no_redirect(embed: Embed) -> None:
    lookup = call("find_member", {"name": "Ines Duarte"}, "Error: member not found", success=False)
    run = case("Book me a squash court for Thursday evening.",
               "I couldn't find a membership under Ines Duarte. Please contact our front desk so they can "
               "locate your membership, and I'll book the court then.", lookup)
    assert task_completion_evidence(run, embed).features["redirect"] == 0
    # A lookup that failed for another reason leaves the redirect standing.
    down = call("find_member", {"name": "Ines Duarte"}, "Error: service unavailable", success=False)
    assert task_completion_evidence(case(run.input, run.output, down), embed).features["redirect"] == 1


def test_no_longer_negates_the_word_after_it() -> None:
    assert "activ" in set().union(*negation_scope("The card is no longer active.")[1])


def test_a_sibling_record_named_as_well_may_be_the_one_meant(embed: Embed) -> None:
    tents = ('{"variants": [{"id": "T1", "colour": "green", "berths": "2", "waterproof": "yes"}, '
             '{"id": "T2", "colour": "green", "berths": "2", "waterproof": "no"}]}')
    feats = found(embed, "Which tent did I switch to?", "Your new tent: green, 2 berths, not waterproof.", tool=tents)
    assert feats.get("negation", 0) == 0


def test_a_value_set_to_no_says_none() -> None:
    said = _NONE_PAIR.sub(lambda m: f"no {m.group(1) or m.group(2)}", "The tent has waterproof coating set to **no**.")
    assert said == "The tent has no waterproof coating."
