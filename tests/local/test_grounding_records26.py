"""HALLUCINATION on agents' answers over JSON records (hall26 round): each false-alarm cause
read in the real tau runs' fires, a negative of it and a nearby positive, by what the
checks find (the evidence the head weighs)."""

from __future__ import annotations

import json

from semloop.case import RunCase, ToolCall
from semloop.judge.local._answerer import Embed
from semloop.judge.local._claims import key_terms
from semloop.judge.local._grounding import hallucination_evidence


def evidence(embed: Embed, answer: str, calls: list[ToolCall], question: str = "help?") -> dict[str, float]:
    case = RunCase(id="h26", input=question, output=answer, tools_called=tuple(calls))
    return hallucination_evidence(case, embed).features


def call(name: str, args: dict[str, object], output: object) -> ToolCall:
    return ToolCall(name, args, json.dumps(output), True)


def test_a_category_noun_offered_is_named_by_the_word_before_it(embed: Embed) -> None:
    policy = call("get_policy", {"id": "HO-88213"}, {"policy_id": "HO-88213", "water_damage": "covered",
                                                     "deductible": 500, "parking": "free"})
    assert evidence(embed, "Policy HO-88213 provides water damage coverage.", [policy]).get("offered", 0) == 0
    assert evidence(embed, "Parking is free, so it's your free allowance.", [policy]).get("offered", 0) == 0
    # The thing the category noun is of must still be the context's.
    assert evidence(embed, "Policy HO-88213 provides flood coverage.", [policy])["offered"] == 1
    assert evidence(embed, "Policy HO-88213 includes free lounge access.", [policy])["offered"] == 1


def test_a_cause_after_an_offer_word_is_no_offered_item(embed: Embed) -> None:
    booking = call("update_bags", {"id": "HT7Y2K"}, {"reservation_id": "HT7Y2K", "cabin": "economy",
                                                    "membership": "gold", "total_baggages": 2})
    said = "Bags: 2 added (all free since you're a gold member in economy)."
    assert evidence(embed, said, [booking]).get("offered", 0) == 0
    assert evidence(embed, said, [booking]).get("cause", 0) == 0
    assert evidence(embed, "Bags: 2 added, and it includes priority boarding.", [booking])["offered"] == 1


def test_a_denial_in_the_claim_s_own_words_agrees_with_a_record_s_no(embed: Embed) -> None:
    res = call("get_reservation_details", {"reservation_id": "QK2M7T"},
               {"reservation_id": "QK2M7T", "cabin": "economy", "insurance": "no", "status": None})
    for agrees in ("The record shows that travel insurance is not included on reservation QK2M7T.",
                   "There is no way to add insurance to reservation QK2M7T after booking."):
        assert evidence(embed, agrees, [res]).get("negation", 0) == 0, agrees
    for flipped in ("The record shows that travel insurance is included on reservation QK2M7T.",
                    "No, reservation QK2M7T has travel insurance, so you're covered."):
        assert evidence(embed, flipped, [res])["negation"] == 1, flipped


def test_a_function_word_after_a_spaced_dash_opens_a_clause() -> None:
    assert "if" not in key_terms("Patient ID — If you can find an old letter, that helps.")
    assert "since" not in key_terms("Cancel the order - Since it is pending, you get a refund.")
    assert "they" not in key_terms("Transfer you to an agent – They may have more options.")
    # A name after a dash is still a name.
    assert {"boston", "arslan"} <= key_terms("Monday 14:00 — Boston clinic with Dr Arslan.")


def test_other_numbers_digits_do_not_bind_a_number_to_another_record(embed: Embed) -> None:
    user = call("get_user_details", {"user_id": "mara_7"}, {
        "user_id": "mara_7", "payment_methods": {"credit_card_1180": {
            "source": "credit_card", "brand": "visa", "last_four": "4821"}},
        "reservations": ["ZX81PQ", "LM22RT"]})
    legs = [call("get_reservation_details", {"reservation_id": r}, {
        "reservation_id": r, "cabin": "business", "total_baggages": 1, "flights_count": 4,
        "payment_history": [{"payment_id": "credit_card_1180", "amount": amount}]})
        for r, amount in (("ZX81PQ", 637), ("LM22RT", 750))]
    said = "Total charged to Visa ending in 4821: $1,387"
    assert evidence(embed, said, [user, *legs], "upgrade flights longer than 4 hours to business").get("bound", 0) == 0
    # A value the records give for another thing (a payment's amount as the card's
    # ending) is still bound to it.
    wrong = "Total charged to Visa ending in 637: $1,387"
    assert evidence(embed, wrong, [user, *legs], "upgrade flights longer than 4 hours to business")["bound"] == 1


def test_none_of_a_thing_is_read_only_where_one_record_gives_the_key(embed: Embed) -> None:
    other = call("get_reservation_details", {"reservation_id": "PP01AA"},
                 {"reservation_id": "PP01AA", "cabin": "basic_economy", "total_baggages": 0})
    mine = call("update_reservation_baggages", {"reservation_id": "HT7Y2K", "total_baggages": 3},
                {"reservation_id": "HT7Y2K", "cabin": "economy", "total_baggages": 3})
    assert evidence(embed, "Total baggages: 3 (all free)", [other, mine]).get("negation", 0) == 0
    # One record alone: its nothing still denies the thing.
    assert evidence(embed, "Total baggages: 3 (all free)", [other])["negation"] == 1
