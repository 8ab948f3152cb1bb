"""TASK_UNDERSTANDING_FAILURE on a sibling that shares the request's thing and differs in
one mark (a size, a period, a part of a name in code, the record of a list, the side of a
move or a trade), and never on a synonym of the asked act; OFF_TOPIC_DRIFT on a short answer
that takes up an aside of a long request."""

from __future__ import annotations

import json

import pytest

from semloop.case import RunCase, ToolCall
from semloop.judge.local._answerer import Embed
from semloop.judge.local._drift import answer_off_topic_drift, off_topic_evidence
from semloop.judge.local._understanding import (
    answer_task_understanding_failure,
    task_understanding_evidence,
)


def case(inp: str, out: str, *, tools: tuple[ToolCall, ...] = ()) -> RunCase:
    return RunCase(id="probe", input=inp, output=out, tools_called=tools)


_RETURN = "Please send the broken drill back to our Leeds depot, order 5531."
_PORT = "How do I port my number over to you from Vodafone?"
_COINS = "I was charged for 500 coins in Skyfarm by mistake, how do I get that back? I'm keeping the game."
_PURCHASES = (ToolCall("get_purchases", {"account": "u_31"}, json.dumps([
    {"item": "Skyfarm", "type": "game", "price": "19,99 €"},
    {"item": "500 Coins (Skyfarm)", "type": "in_app", "price": "4,99 €"}]), True),)
_SHED = "How much is a 6x4 shed, fitted?"
_PHONE = "I want to sell my old iPhone 13 to you, what would you give me for it?"
_SALES = "What were total sales last quarter for the north region?"
_TEST = "Why does test_refund_partial in tests/test_billing.py fail?"


@pytest.mark.parametrize(("feature", "wrong", "right"), [
    ("reversed", case(_RETURN, "Label ready: shipping from Leeds Depot to the customer at 4 Elm Road, Bristol."),
     case(_RETURN, "Label ready: shipping from the customer in Bristol to our Leeds depot.")),
    ("reversed", case(_PORT, "To port your number out of our network, text PAC to 65075 and give the code "
                             "to your new provider."),
     case(_PORT, "To port your number to us, get your PAC from Vodafone and enter it when you order your SIM.")),
    ("wrong_source", case(_COINS, "To refund Skyfarm (19,99 €), open Purchase History and choose Request a "
                                  "refund; the game then leaves your library.", tools=_PURCHASES),
     case(_COINS, "To refund the 500 Coins (4,99 €), open Purchase History, pick the coins and choose "
                  "Request a refund.", tools=_PURCHASES)),
    ("substitute", case(_SHED, "An 8x6 shed costs 899 fitted, including the base."),
     case(_SHED, "A 6x4 shed costs 649 fitted; an 8x6 is 899.")),
    ("opposite", case(_PHONE, "We have refurbished iPhone 13s in stock from 429, each with a 12-month warranty."),
     case(_PHONE, "For an iPhone 13 in good condition we'd pay up to 210; get a quote on our trade-in page.")),
    ("substitute", case(_SALES, "Quarter-to-date sales for the north region are 1.2M, ahead of plan."),
     case(_SALES, "Last quarter the north region sold 3.4M in total.")),
    ("substitute", case(_TEST, "test_refund_full fails because the fixture's invoice has no line items."),
     case(_TEST, "test_refund_partial fails because it refunds more than the captured amount.")),
])
def test_a_sibling_by_one_mark_is_another_task(embed: Embed, feature: str, wrong: RunCase,
                                                right: RunCase) -> None:
    assert task_understanding_evidence(wrong, embed).features[feature] == 1.0
    assert task_understanding_evidence(right, embed).features[feature] == 0.0
    assert answer_task_understanding_failure(wrong, embed).value >= 0.5
    assert answer_task_understanding_failure(right, embed).value < 0.5


def test_another_tool_of_the_same_kind_is_a_sibling(embed: Embed) -> None:
    asked = "How do I add a unique constraint to an existing column in Postgres?"
    wrong = case(asked, "In MySQL, run ALTER TABLE users ADD UNIQUE (email); it fails if duplicates exist.")
    right = case(asked, "In PostgreSQL, run ALTER TABLE users ADD CONSTRAINT users_email_key UNIQUE (email).")
    assert task_understanding_evidence(wrong, embed).features["substitute"] == 1.0
    assert task_understanding_evidence(right, embed).features["substitute"] == 0.0


def test_a_nationality_with_its_country_named_is_no_other_language(embed: Embed) -> None:
    # "Swedish" and "Norwegian" name the sides of a trade here, not languages.
    asked = "Our Swedish firm ships furniture to customers in Norway. Who pays the import VAT?"
    sides = case(asked, "Your exports leave Sweden VAT-free; the Norwegian customer pays 25% import VAT.")
    language = case("Which Swedish course suits a beginner?", "Start with Norwegian A1, twice a week.")
    assert task_understanding_evidence(sides, embed).features["substitute"] == 0.0
    assert task_understanding_evidence(language, embed).features["substitute"] == 1.0


def test_another_persons_record_is_another_task(embed: Embed) -> None:
    asked = "What grade did my son Leo get on the maths test?"
    wrong = case(asked, "The maths test was marked 14/20.",
                 tools=(ToolCall("get_grades", {"student": "S-2"}, '{"student": "Mia Chen", "maths": "14/20"}', True),))
    right = case(asked, "Leo got 17/20 on the maths test.",
                 tools=(ToolCall("get_grades", {"student": "S-1"}, '{"student": "Leo Chen", "maths": "17/20"}', True),))
    assert task_understanding_evidence(wrong, embed).features["acted_on"] == 1.0
    assert task_understanding_evidence(right, embed).features["acted_on"] == 0.0


def test_a_synonym_of_the_asked_act_is_the_same_act(embed: Embed) -> None:
    moved = case("Can you move my pension from Aviva into my account with you?",
                 "To transfer your pension to us, sign our transfer form and we'll request it from Aviva.")
    assert task_understanding_evidence(moved, embed).features["another_task"] == 0.0
    assert answer_task_understanding_failure(moved, embed).value < 0.5


def test_a_longer_name_of_the_asked_thing_is_no_sibling(embed: Embed) -> None:
    # "contactless travel card" is a fuller name of a transit card; "sick pay" after the act
    # that claims it is a sibling of maternity pay.
    fuller = case("How do I top up my transit card?",
                  "Add credit to your contactless travel card at any station machine or in the app.")
    sibling = case("How do I apply for maternity pay?",
                   "To claim sick pay, tell your manager on your first day off and send a fit note after a week.")
    assert task_understanding_evidence(fuller, embed).features["substitute"] == 0.0
    assert task_understanding_evidence(sibling, embed).features["substitute"] == 1.0


def test_two_sentences_on_an_aside_of_a_long_request_drift(embed: Embed) -> None:
    request = ("Can you switch my broadband to the 900 Mb plan from the next billing date? Sorry for the "
               "short message, my cat is at the vet today and I'm a bit distracted.")
    aside = case(request, "I hope your cat is okay. Vets recommend keeping a nervous cat in a quiet room "
                          "with its litter tray and water after a visit, and offering a small meal in the evening.")
    answered = case(request, "Done: from your next billing date on 1 March you're on 900 Mb for 49 a month. "
                             "I hope your cat is okay.")
    assert off_topic_evidence(aside, embed).features["stretch"] == 1.0
    assert answer_off_topic_drift(aside, embed).value >= 0.5 > answer_off_topic_drift(answered, embed).value
