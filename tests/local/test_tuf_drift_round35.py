"""Task rules, round b34tu: a month named in the date a deadline counts from, a sibling named
to set it apart, "last week", a text greeting another person, a record named in passing
answered instead, a hire's legs reversed; for drift, a closing courtesy that names a place
and two sentences far from a terse request."""

from __future__ import annotations

import pytest

from semloop.case import RunCase
from semloop.judge.local._answerer import Embed
from semloop.judge.local._drift import answer_off_topic_drift
from semloop.judge.local._understanding import answer_task_understanding_failure

from .conftest import call, case

_DEPLOYS = call("deploys", {"day": "today"},
                "service,time,status\ncheckout-service,14:02,success\nsearch-indexer,09:10,failed")
_ROSTER = call("roster", {"day": "Saturday"}, "name,shift\nPriya,15:00-23:00\nTom,07:00-15:00")


@pytest.mark.parametrize("careful", [
    # The month of the date counted from is not the month asked about.
    case("What's the last day to return a jacket bought on 28 January? The window is 30 days.",
         "You can return it until 27 February."),
    # The sibling named only to set it apart.
    case("Did the checkout-service deploy succeed?",
         "Yes - rolled out at 14:02, all health checks green. The search-indexer deploy that failed at 09:10 "
         "is a separate problem.", _DEPLOYS),
    # "last Tuesday" says when; "first" in the answer is no opposite of it.
    case("When will my refund show up? I sent the boots back last Tuesday.",
         "The refund was issued on Monday; it goes first to your original card and should show within 3-5 "
         "working days."),
    # The asked record told by its plain name, the other named beside it.
    case("What's Priya's shift on Saturday? She swapped with Tom last week.",
         "Priya is on 15:00-23:00 on Saturday; Tom took her morning slot.", _ROSTER),
])
def test_careful_answers_stay_clear_of_task_understanding(embed: Embed, careful: RunCase) -> None:
    assert float(answer_task_understanding_failure(careful, embed).value) < 0.5


@pytest.mark.parametrize("sibling", [
    # A greeting to another person than the titled addressee.
    case("Write a short note to Dr. Okafor asking to move my Thursday appointment to next week.",
         "Dear Dr. Mensah,\n\nThank you for the lab results. Could you send a copy to my GP as well?\n\n"
         "Best wishes,\nSam"),
    # The record the request names in passing answered for the asked one.
    case("What's Priya's shift on Saturday? She swapped with Tom last week.",
         "Tom works 07:00-15:00 on Saturday.", _ROSTER),
    # A hire's legs reversed.
    case("Quote me a van: collect at Heathrow on 2 May, return to Gatwick on 5 May.",
         "A van collected at Gatwick on 2 May and returned to Heathrow on 5 May comes to £214 including the "
         "one-way fee.", call("quote", {"from": "Gatwick", "to": "Heathrow"}, {"price": 214})),
])
def test_siblings_answered_fire_task_understanding(embed: Embed, sibling: RunCase) -> None:
    assert float(answer_task_understanding_failure(sibling, embed).value) >= 0.5


def test_closing_courtesy_naming_places_is_no_drift(embed: Embed) -> None:
    wish = case("Is my table at Osteria Nonna confirmed for Saturday? Booking RB-44120.",
                "Yes - booking RB-44120 is confirmed for Saturday at 20:00 for four, terrace side. Hope you have "
                "a lovely evening, and if you have room after, Gelateria Dondoli on Piazza della Cisterna does "
                "the best pistachio in San Gimignano!",
                call("get_booking", {"ref": "RB-44120"},
                     {"status": "confirmed", "date": "Saturday", "time": "20:00", "party": 4}))
    assert float(answer_off_topic_drift(wish, embed).value) < 0.5


def test_two_far_sentences_after_a_terse_request_drift(embed: Embed) -> None:
    picks = case("I was charged twice on 1 Dec, 13.99 two times. Account AC-55102. Please fix.",
                 "Here are some great picks to watch this weekend: since you enjoyed 'The Crown', try 'Wolf "
                 "Hall' and 'The Gilded Age'. Our December highlights also include a Christmas rom-com and the "
                 "documentary series 'Planet Ocean'.",
                 call("get_watch_history", {"account_id": "AC-55102"}, {"recent": ["The Crown S6"]}))
    assert float(answer_off_topic_drift(picks, embed).value) >= 0.5
