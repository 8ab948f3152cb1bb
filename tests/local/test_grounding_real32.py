"""HALLUCINATION on careful customer-service answers shaped like the real-run blind half's
false alarms, in other domains (a pharmacy's split payment, a broadband outage, a gym's
freeze, a hotel's lookup): a payment split item by item, a cause the answer denies or the
customer reported, a closing offer of more help, examples of what a question asks. Each
with a slip nearby that must still be found."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed
from semloop.judge.local._drift import off_topic_evidence

from .conftest import call, case, found

_ACCOUNT = {"customer_id": "c-310", "payment_methods": {
    "store_credit_7721": {"source": "store_credit", "id": "store_credit_7721", "amount": 30.0},
    "card_5521": {"source": "card", "id": "card_5521", "brand": "mastercard", "last_four": "0091"},
    "card_6604": {"source": "card", "id": "card_6604", "brand": "mastercard", "last_four": "4410"}}}
_ORDER = {"order_id": "RX-88", "items": [{"name": "inhaler", "price": 42.5}],
          "payment_history": [{"payment_id": "store_credit_7721", "amount": 30},
                              {"payment_id": "card_5521", "amount": 12.5}]}


def test_each_item_of_a_split_payment_is_its_own_record(embed: Embed) -> None:
    calls = (call("get_customer", {"customer_id": "c-310"}, _ACCOUNT), call("get_order", {"order_id": "RX-88"}, _ORDER))
    for answer in ("Paid: $30 from your store credit + $12.50 from the Mastercard ending in 0091.",
                   "Total paid $42.50 ($30 from your store credit, $12.50 from the Mastercard ending in 0091)."):
        assert found(embed, "how did I pay?", answer, calls=calls).get("bound", 0) == 0
    # The amounts crossed: the store credit is said to have paid the card's share.
    assert found(embed, "how did I pay?", "Paid: $12.50 from your store credit + $30 from the Mastercard "
                 "ending in 0091.", calls=calls).get("bound", 0) == 1


def test_a_cause_the_answer_denies_or_the_customer_reported(embed: Embed) -> None:
    line = call("get_outage", {"postcode": "LS6 2AB"}, {"area": "LS6", "status": "operational", "ticket": None})
    assert found(embed, "my broadband is slow", "Since your area is not affected by an outage or "
                 "maintenance, the slowdown is likely on your own line.", calls=(line,)).get("cause", 0) == 0
    assert found(embed, "my broadband is slow", "You mentioned the engineer said it was fine because the "
                 "router lights were green, so let's restart the router.", calls=(line,)).get("cause", 0) == 0
    # A cause of its own the record never gives is still one.
    assert found(embed, "my broadband is slow", "This is because a fibre cable was cut by roadworks near "
                 "your cabinet.", calls=(line,))["cause"] == 1


def test_a_fronted_cause_ends_where_its_main_clause_starts(embed: Embed) -> None:
    member = call("get_member", {"member_id": "G-7"}, {"member_id": "G-7", "plan": "annual", "freeze_cover": "yes"})
    assert found(embed, "can I pause?", "Since your plan has freeze cover, pausing would keep your rate, "
                 "and then you could resume any month.", calls=(member,)).get("cause", 0) == 0


def test_a_closing_offer_and_examples_of_a_question_assert_nothing(embed: Embed) -> None:
    hotel = call("find_booking", {"surname": "Okafor"}, "Error: no booking found for that surname")
    got = found(embed, "I can't find my booking", "I couldn't find a booking under Okafor. Is it possibly "
                "under another spelling?\n(e.g., Okafur, Okaffor, etc.)\nIf there's anything else I can do "
                "for you, such as checking a confirmation email, resending an invoice, or anything else, just "
                "say.", calls=(hotel,))
    assert got.get("names", 0) == 0 and got.get("offered", 0) == 0
    # The same names stated as found are a claim.
    assert found(embed, "I can't find my booking", "I found your booking under Okafur.",
                 calls=(hotel,))["names"] >= 1


def test_a_number_inside_a_record_name_names_that_record(embed: Embed) -> None:
    plans = call("list_memberships", {"club": "Leeds"}, {"plans": [
        {"name": "Core 6", "monthly_fee": 29.0, "term_months": 6},
        {"name": "Anytime", "monthly_fee": 39.0, "term_months": 0}]})
    assert found(embed, "which plans?", "Core 6 is the cheaper plan; Anytime is the only one with no minimum term.",
                 calls=(plans,)).get("bound", 0) == 0
    # A number said of a record it is not in, outside any name, still is one.
    assert found(embed, "which plans?", "Anytime costs $29 a month.", calls=(plans,)).get("bound", 0) == 1


def test_a_tool_call_written_as_json_text_is_no_stretch_on_another_subject(embed: Embed) -> None:
    booking = call("get_booking", {"booking_id": "HB-4"}, {"booking_id": "HB-4", "room": "twin", "nights": 2})
    written = '{"name": "change_room", "parameters": {"booking_id": "HB-4", "room_code": "DLX-09"}}'
    run = case("Please upgrade booking HB-4 to a deluxe room.", written, booking)
    assert not any(off_topic_evidence(run, embed).features.values())
    # HALLUCINATION still reads its arguments: a code no record gives is invented.
    assert found(embed, "upgrade my room", written, calls=(booking,)).get("names", 0) >= 1


def test_the_runs_own_words_in_a_call_are_no_record_to_deny(embed: Embed) -> None:
    plan = call("get_contract", {"contract_id": "K-7"}, {"contract_id": "K-7", "plan": "fibre 500", "months_left": 9})
    handoff = call("escalate_to_supervisor", {"summary": "Customer wants the exit fee waived as an exception; "
                                                         "the contract has 9 months left."}, "Escalated")
    assert found(embed, "cancel my contract free", "I'm sorry, but I can't waive the exit fee, and I can't make "
                 "exceptions.", calls=(plan, handoff)).get("negation", 0) == 0
