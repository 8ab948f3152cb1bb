"""Task rules, round b35tu: a downgrade asked and a change told, a text to a role greeting
the party it is about, May answered for another month; for drift, an answer that tells the
past of something the request names (when toll roads, film credits or a company began) in
place of the task."""

from __future__ import annotations

import pytest

from semloop.case import RunCase
from semloop.judge.local._answerer import Embed
from semloop.judge.local._understanding import answer_task_understanding_failure

from .conftest import call, case, drift_rules


@pytest.mark.parametrize("story", [
    # A year-told history of the thing the request names, nothing of the asked route.
    case("Can you find me a ferry from Dover to Calais on Friday evening with a car?",
         "Ferries have crossed the Channel since the 1820s, when the first steam packets carried mail from "
         "Dover. The roll-on roll-off car ferry arrived in 1953 and changed holidays for good."),
    # An age, not a year, and a sentence after it that stays far from the request.
    case("Book a plumber to fix the leaking boiler in our flat this week.",
         "Medieval towns had no boilers at all: water was heated over open hearths in iron cauldrons. "
         "Bathhouses were often shared by a whole street."),
])
def test_a_story_of_the_past_in_place_of_the_answer_drifts(embed: Embed, story: RunCase) -> None:
    assert drift_rules(story, embed) >= 0.5


@pytest.mark.parametrize("reasoned", [
    # The past drawn on for the asked value: a reason, not a story.
    case("Is my grandad's old Leica M3 camera worth selling?",
         "Probably. Leica built the M3 in large numbers from 1954, so a working M3 body sells for about "
         "£900 to £1,400 today."),
    # A fun fact after the task is done is a small part of the answer.
    case("Can you confirm my steam railway tickets for Sunday at 11?",
         "Confirmed: two adult returns on the 11:00 steam departure on Sunday, ref SR-2231. Enjoy the ride - "
         "the line first opened in 1863.",
         call("booking", {"ref": "SR-2231"}, "2 adult returns Sunday 11:00 steam confirmed")),
    # The past as the cause asked for.
    case("Why are the chimneys in my Victorian terrace so narrow?",
         "They were built for coal fires, which draw best through a small flue. Builders in the 1880s sized "
         "them at about 9 by 9 inches, which is why a modern liner may not fit."),
])
def test_the_past_serving_or_after_the_answer_is_no_drift(embed: Embed, reasoned: RunCase) -> None:
    assert drift_rules(reasoned, embed) < 0.5


@pytest.mark.parametrize("how", [
    # Asked how to downgrade, told where to switch: the same act in a general word.
    case("I want to downgrade my gym membership from Gold to Silver, how do I do it?",
         "You can switch at the front desk or in the app under Membership, then Change tier. Gold stays "
         "active until the end of this month."),
    case("how do I upgrade from the free tier to Pro?",
         "You can change it in Settings, then Billing, then Choose plan: pick Pro and add a card."),
])
def test_a_general_change_carries_a_change_of_level(embed: Embed, how: RunCase) -> None:
    assert float(answer_task_understanding_failure(how, embed).value) < 0.5


def test_a_text_to_a_role_greeting_the_party_it_is_about_misunderstands(embed: Embed) -> None:
    # Asked for a note to the caterer about the Okafor wedding, the text greets the Okafors.
    note = case("Write a note to the caterer saying the Okafor wedding now has 120 guests, not 100.",
                "Dear Okafor family,\n\nWe're delighted to confirm your wedding will now welcome 120 guests. "
                "Everything else stays as planned.\n\nWarm regards,\nThe Events Team")
    assert float(answer_task_understanding_failure(note, embed).value) >= 0.5


def test_may_the_month_is_a_sibling_period(embed: Embed) -> None:
    # Asked about the March statement, the answer tells May's; "may" the verb names no month.
    may = case("Why is my March phone statement so high? acct 55120",
               "Your May statement for 55120 is £61.40: £40 plan, £18 roaming in Spain and £3.40 VAT.",
               call("get_statement", {"account": "55120", "period": "2024-05"}, {"total": 61.4}))
    assert float(answer_task_understanding_failure(may, embed).value) >= 0.5
    verb = case("Why is my March phone statement so high? acct 55120",
                "Your March statement for 55120 is £61.40; the £18 roaming charge may be the reason.",
                call("get_statement", {"account": "55120", "period": "2024-03"}, {"total": 61.4}))
    assert float(answer_task_understanding_failure(verb, embed).value) < 0.5
