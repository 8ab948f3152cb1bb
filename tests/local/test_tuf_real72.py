"""TASK_UNDERSTANDING_FAILURE on succeeded real runs (tuning sets), round r72rr: the act
asked is read past noun phrases ("the new place" names a place, no act of placing); an
exchange made by a call that changes an order's items is the exchange asked; whose thing
the request is about is not read from a reply to thanks, nor against "mine". Recall: the
other act done, and the user's own thing served for another's, are still caught."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed
from semloop.judge.local._task import _act_words
from semloop.judge.local._understanding import _other_action, _owner_shift

from .conftest import call, case, understanding


def test_the_head_of_a_noun_phrase_is_no_act() -> None:
    assert "place" not in _act_words("Please move my desk booking to the new place on floor 3.")
    assert "order" not in _act_words("Can you find the skip order from May?")
    # The phrase as the subject of the act: the object after it keeps the verb.
    assert "cancel" in _act_words("Please have the front desk cancel my late checkout.")


def test_a_move_to_the_new_place_is_no_placing(embed: Embed) -> None:
    run = case("We moved the clinic last week. Please update our listing's address to the new "
               "place and switch the phone number too.",
               "Both are updated: the listing now shows 14 Harbour Row and the new number.",
               call("update_listing", {"listing": "LS-301", "address": "14 Harbour Row",
                                       "phone": "+44 20 7946 0011"}, {"status": "updated"}))
    assert _other_action(run) is None
    assert understanding(run, embed) < 0.5


def test_an_exchange_made_as_a_change_of_the_pending_items(embed: Embed) -> None:
    run = case("I'd like to exchange the blue kettle in my open order for the steel one.",
               "Done: the blue kettle in order 88-214 is now the steel model, $6 more on your card.",
               call("modify_pending_order_items", {"order": "88-214", "item": "K-blue",
                                                   "new_item": "K-steel"}, {"status": "pending"}))
    assert _other_action(run) is None
    assert understanding(run, embed) < 0.5


def test_another_act_done_is_still_read() -> None:
    run = case("I'd like to exchange the blue kettle in my open order for the steel one.",
               "Your order 88-214 has been cancelled and refunded.",
               call("cancel_pending_order", {"order": "88-214"}, {"status": "cancelled"}))
    assert _other_action(run) is not None


def test_a_reply_to_thanks_says_whose_thing_nothing() -> None:
    run = case("Could you pull their dental records for my parents before Friday's visit?",
               "You're welcome! Thanks for your patience while we sorted that out. Have a "
               "great day!")
    assert _owner_shift(run) is None


def test_the_users_own_asked_beside_the_others() -> None:
    run = case("My brothers both got their gym passes renewed already. I need the same done "
               "for mine, it lapsed yesterday.",
               "Your pass is renewed until 30 June. Your next payment is on 1 June.")
    assert _owner_shift(run) is None


def test_the_users_own_served_for_another_is_still_read() -> None:
    run = case("My son's gym pass lapsed yesterday, not mine. Can you renew his?",
               "Your pass is renewed until 30 June. Your next payment is on 1 June.")
    assert _owner_shift(run) is not None
