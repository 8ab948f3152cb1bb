"""OFF_TOPIC_DRIFT on an answer wholly about another subject, and TASK_UNDERSTANDING_FAILURE
on another jurisdiction, a conversion or an act the other way round (the blind26 causes)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from semloop.case import RunCase, ToolCall
from semloop.judge.local._answerer import Embed
from semloop.judge.local._drift import answer_off_topic_drift, off_topic_evidence
from semloop.judge.local._understanding import (
    answer_task_understanding_failure,
    task_understanding_evidence,
)


def case(inp: str, out: str, *, tools: tuple[ToolCall, ...] = (), steps: tuple[str, ...] = ()) -> RunCase:
    return RunCase(id="probe", input=inp, output=out, tools_called=tools, steps=steps)


_WATER = "The water bill for my flat went up to $96 this quarter from about $60. Account W-44120, why is that?"


@pytest.mark.parametrize(("wrong", "right"), [
    # Every sentence on another subject that shares the request's field ("water"): no
    # sentence, nor the answer as a whole, comes near the request.
    (case(_WATER,
          "Staying hydrated matters more than most people think. Adults need around two litres of "
          "water a day, more in hot weather or after exercise. Herbal teas and fruit count too, and "
          "a reusable bottle makes it easy to keep drinking through the day.",
          steps=("searched: daily hydration advice",)),
     case(_WATER,
          "Your last quarter's bill used an estimated reading, and this one includes the catch-up: "
          "about $24 of the $96 is water used last quarter. The sewerage rate also rose by 8% on "
          "1 July. Send us a meter reading and I'll check the estimate.",
          tools=(ToolCall("get_readings", {"account": "W-44120"}, '{"last": "estimated"}', True),))),
    # A broad goal answered item by item: each item is a facet of the answer, however far
    # from the request it is by itself and whatever names it brings.
    (case("I've just hired my first employee for my bakery in Lyon. What do I need to set up?",
          "Employees need things. Cats are independent animals that sleep most of the day. Many "
          "breeds shed fur in spring, and brushing them weekly keeps hairballs away."),
     case("I've just hired my first employee for my bakery in Lyon. What do I need to set up?",
          "Here's the checklist: (1) DPAE — declare the hire to URSSAF before the first day. "
          "(2) Médecine du travail — join an occupational health service. (3) Mutuelle — offer the "
          "company health cover. (4) Payroll — the DSN is filed monthly. (5) Registre du personnel "
          "— keep the staff register up to date.")),
])
def test_an_answer_about_another_subject_drifts(embed: Embed, wrong: RunCase, right: RunCase) -> None:
    assert off_topic_evidence(wrong, embed).features["stretch"] == 1.0
    assert answer_off_topic_drift(wrong, embed).value >= 0.5 > answer_off_topic_drift(right, embed).value


_ASKED_FOR_READING = ("Your bill includes a catch-up on an estimated reading. Please let me know once "
                      "you have a meter reading.")


def test_a_terse_note_or_a_chat_is_not_read_for_its_subject(embed: Embed) -> None:
    terse = case("bill up why", "Staying hydrated matters. Adults need two litres a day. Teas count too.")
    assert off_topic_evidence(terse, embed).features["stretch"] == 0.0
    # A chat that ends in courtesies (the customer thanked and said goodbye, again and again)
    # answers the last message, not the opening request.
    closing = case(_WATER, "Goodbye for now! Take care. Have a lovely evening.",
                   steps=(_ASKED_FOR_READING,))
    assert off_topic_evidence(closing, embed).features["stretch"] == 0.0
    assert off_topic_evidence(replace(closing, steps=()), embed).features["stretch"] == 0.0


@pytest.mark.parametrize(("feature", "wrong", "right"), [
    # The rules of another region than the user's, never naming the user's.
    ("substitute",
     case("My landlord in Seattle kept my deposit. How long did he have to return it?",
          "Under Texas law, a landlord must refund the deposit within 30 days after you move out, "
          "with a written list of any deductions."),
     case("My landlord in Seattle kept my deposit. How long did he have to return it?",
          "Under Washington State law, a landlord must return the deposit within 21 days after you "
          "move out, with a written list of any deductions.")),
    # A currency named with its country is that currency: converted the other way round.
    ("reversed",
     case("What would 500 Australian dollars be in euros?",
          "500 euros is about 830 Australian dollars at 1 EUR = 1.66 AUD."),
     case("What would 500 Australian dollars be in euros?",
          "500 Australian dollars is about 301 euros at 1 AUD = 0.602 EUR.")),
    # Swapped for another size asked, a refund done.
    ("opposite",
     case("These gloves are too big, can I swap them for a medium? Order 88102.",
          "I've started a return for order 88102; your refund of $24 will reach your card in 5 days."),
     case("These gloves are too big, can I swap them for a medium? Order 88102.",
          "Done: the medium ships today, and the label for sending back the large is in your email.")),
    # Leaving asked about, joining answered.
    ("opposite",
     case("I'm leaving your bank for another one. How do I move my direct debits across?",
          "Welcome! We're glad you're joining us: the switching service moves your direct debits "
          "over from your old bank in 7 working days."),
     case("I'm leaving your bank for another one. How do I move my direct debits across?",
          "Your new bank's switching service moves them: give it your sort code and account number, "
          "and we'll pass everything over in 7 working days.")),
])
def test_another_place_or_direction_is_another_task(embed: Embed, feature: str, wrong: RunCase,
                                                    right: RunCase) -> None:
    assert task_understanding_evidence(wrong, embed).features[feature] == 1.0
    assert task_understanding_evidence(right, embed).features[feature] == 0.0
    assert answer_task_understanding_failure(wrong, embed).value >= 0.5


def test_the_users_own_region_is_the_place_asked(embed: Embed) -> None:
    # Denver is in Colorado: its law is the user's.
    right = case("My lease in Denver ended. How long does my landlord have to return the deposit?",
                 "Under Colorado law, your landlord has one month, or up to 60 days if the lease says so.")
    assert task_understanding_evidence(right, embed).features["substitute"] == 0.0


def test_a_general_change_call_carries_an_upgrade(embed: Embed) -> None:
    # change_membership can move a membership up a tier; cancel_membership ends it.
    def ran(name: str) -> RunCase:
        return case("Upgrade my gym membership to the Plus tier from next month.",
                    "Sorted: from 1 March you're on Plus at 49 € a month.",
                    tools=(ToolCall(name, {"member": "GM-118", "tier": "PLUS"}, '{"status": "scheduled"}', True),))
    assert task_understanding_evidence(ran("change_membership"), embed).features["other_action"] == 0.0
    assert task_understanding_evidence(ran("cancel_membership"), embed).features["other_action"] == 1.0


def test_a_side_matter_the_asked_act_carries_is_its_work(embed: Embed) -> None:
    # The seal swap rides on the booked visit's call; the history of the chef's city rides on nothing.
    def booked(extra: str) -> RunCase:
        return case("Schedule the annual service for my boiler next week.",
                    f"Your boiler service is booked for Wednesday at 09:00. {extra}",
                    tools=(ToolCall("schedule_service", {"date": "2027-06-11", "extra": ["flue seal replacement"]},
                                    '{"status": "booked"}', True),))
    folded = booked("While checking the warranty I noticed the flue seal is past its replacement date, "
                    "so I've added a seal swap to the same visit at no extra cost.")
    aside = booked("By the way, the engineer trained in Lyon, and Lyonnaise cooking has a fascinating "
                   "history: the city's mères ran bouchons that shaped French gastronomy for a century.")
    assert float(answer_off_topic_drift(folded, embed).value) < 0.5
    assert float(answer_off_topic_drift(aside, embed).value) >= 0.5
