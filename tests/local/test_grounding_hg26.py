"""HALLUCINATION's checks for the causes round hb26 left open: negated requirements against
yes/no keys, complements, listed steps and items, size codes, currency names, joins the
claim walks itself, year edges, and qualifiers of another kind."""

from __future__ import annotations

import json

from semloop.case import RunCase, ToolCall
from semloop.judge.local._answerer import Embed
from semloop.judge.local._grounding import hallucination_evidence


def found(embed: Embed, question: str, answer: str, context: str = "",
          tool: object = None) -> dict[str, float]:
    tools = (ToolCall(name="lookup", args={}, output=json.dumps(tool), success=True),) if tool else ()
    case = RunCase(id="check", input=question, output=answer,
                   context=(context,) if context else (), tools_called=tools)
    return hallucination_evidence(case, embed).features


def test_no_thing_denies_a_true_requirement_whatever_the_predicate(embed: Embed) -> None:
    hire = {"room": "Studio B", "deposit_required": True, "deposit_gbp": 60}
    assert found(embed, "deposit?", "Studio B has no deposit to pay.", tool=hire)["negation"] == 1
    assert found(embed, "deposit?", "Studio B needs a deposit of £60.", tool=hire)["negation"] == 0
    free = {"room": "Studio C", "deposit_required": False}
    assert found(embed, "deposit?", "There's no deposit for Studio C.", tool=free)["negation"] == 0
    assert found(embed, "deposit?", "You will need to pay a deposit for Studio C.", tool=free)["negation"] == 1


def test_a_rest_of_a_whole_is_100_minus_the_share(embed: Embed) -> None:
    loan = {"id": "K-7", "paid_pct": 35, "amount": 9000}
    assert found(embed, "left?", "You've paid 35%, so 75% is still outstanding.", tool=loan)["numbers"] == 1
    assert found(embed, "left?", "You've paid 35%, so 65% is still outstanding.", tool=loan)["numbers"] == 0


def test_an_item_added_to_the_context_s_list_is_invented(embed: Embed) -> None:
    guide = {"steps": ["Open the printer lid", "Lift out the old cartridge", "Click in the new cartridge"]}
    added = "Open the printer lid, then lift out the old cartridge, then register the serial online, then click in the new cartridge."
    same = "Open the printer lid, then lift out the old cartridge, then click in the new cartridge."
    assert found(embed, "how do I change it?", added, tool=guide)["offered"] >= 1
    assert found(embed, "how do I change it?", same, tool=guide)["offered"] == 0
    docs = {"documents": ["Birth certificate of the child", "Proof of address dated this year"]}
    bring = "Bring the birth certificate of the child, proof of address dated this year, and a signed letter from your landlord."
    assert found(embed, "what to bring?", bring, tool=docs)["offered"] >= 1


def test_a_size_s_code_is_named_by_its_word(embed: Embed) -> None:
    coat = {"sku": "CT-2", "variants": [{"size": "S", "price": 80.0}, {"size": "M", "price": 90.0},
                                        {"size": "L", "price": 95.0}]}
    assert found(embed, "price?", "The medium coat is £95.", tool=coat)["bound"] == 1
    assert found(embed, "price?", "The medium coat is £90.", tool=coat)["bound"] == 0


def test_a_currency_s_name_is_named_by_its_code(embed: Embed) -> None:
    quote = {"amount": 430.0, "currency": "DKK"}
    assert found(embed, "how much?", "It comes to 430 Danish kroner.", tool=quote)["names"] == 0


def test_a_claim_that_names_the_join_walks_it(embed: Embed) -> None:
    ctx = "The survey was carried out by the Lund Centre.\nCentres. Lund Centre, Malmo. Arden Unit, Leeds."
    assert found(embed, "Where is the centre that ran the survey?",
                 "The survey was run by the Lund Centre, which is in Malmo.", ctx)["bound"] == 0


def test_after_a_year_is_from_the_next_new_year(embed: Embed) -> None:
    ctx = "Tenants who signed before 1 January 2024 pay £20. Tenants who signed on or after 1 January 2024 pay £25."
    assert found(embed, "which fee?", "As you signed after 2023, you pay £25.", ctx)["numbers"] == 0
    assert found(embed, "which fee?", "As you signed after 2021, you pay £25.", ctx)["numbers"] == 1


def test_a_time_word_is_no_offered_item(embed: Embed) -> None:
    rec = {"patient": "P-1", "helpline": "available 24/7"}
    assert found(embed, "help?", "The helpline is available 24/7 and can provide advice tonight.", tool=rec)["offered"] == 0


def test_another_qualifier_is_another_kind(embed: Embed) -> None:
    order = {"order": "B-9", "status": "packed", "express_delivery": False}
    assert found(embed, "how?", "Order B-9 is packed and goes by standard delivery.", tool=order)["negation"] == 0
    assert found(embed, "how?", "Order B-9 is packed and goes by express delivery.", tool=order)["negation"] == 1
