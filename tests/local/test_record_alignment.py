"""HALLUCINATION's alignment of a claim's values to the record they belong to: values of two
sibling records said as one record's (a name from one, a date or a site from the other), and
a person put in another person's role in words other than the key's. Domains apart from the
case sets' (tests/local/hallucination_gen29.jsonl holds more)."""

from __future__ import annotations

import json

from semloop.case import ToolCall
from semloop.judge.local._answerer import Embed

from .conftest import found


def call(name: str, output: object) -> ToolCall:
    return ToolCall(name, {}, json.dumps(output), True)


def bound(embed: Embed, answer: str, calls: list[ToolCall], question: str = "help?") -> float:
    return found(embed, question, answer, calls=tuple(calls)).get("bound", 0.0)


def test_one_records_name_with_a_siblings_values_is_bound_wrong(embed: Embed) -> None:
    lots = call("list_lots", [
        {"lot": "L-12", "variety": "Arabica", "roasted": "2026-01-05", "warehouse": "Dock Nine"},
        {"lot": "L-19", "variety": "Robusta", "roasted": "2026-02-14", "warehouse": "Hillside Store"}])
    assert bound(embed, "Your Robusta lot was roasted on 5 January and sits at Dock Nine.", [lots]) == 1.0
    assert bound(embed, "Your Robusta lot was roasted on 14 February and sits at Hillside Store.", [lots]) == 0.0
    # Both records, each with its own values: a summary, not a swap.
    assert bound(embed, "The Arabica lot at Dock Nine was roasted on 5 January, the Robusta lot "
                 "at Hillside Store on 14 February.", [lots]) == 0.0


def test_a_value_several_records_hold_names_none_of_them(embed: Embed) -> None:
    legs = call("get_trip", [
        {"leg": "T-1", "origin": "OSL", "destination": "CPH", "date": "2026-06-02"},
        {"leg": "T-2", "origin": "CPH", "destination": "AMS", "date": "2026-06-02"},
        {"leg": "T-3", "origin": "AMS", "destination": "OSL", "date": "2026-06-09"}])
    assert bound(embed, "T-2: CPH to AMS on 2 June.", [legs]) == 0.0


def test_a_person_in_another_persons_role_in_other_words(embed: Embed) -> None:
    course = call("get_course", {"course": "Glass Fusing", "instructor": "Mira Hollis",
                                 "teaching_assistant": "Aaron Pike", "weeks": 4})
    assert bound(embed, "Glass Fusing is taught by Aaron Pike over 4 weeks.", [course]) == 1.0
    assert bound(embed, "Glass Fusing is taught by Mira Hollis over 4 weeks.", [course]) == 0.0
    assert bound(embed, "Mira Hollis teaches it, with Aaron Pike as her assistant.", [course]) == 0.0


def test_a_price_comparison_its_own_figures_reverse(embed: Embed) -> None:
    quotes = call("get_quotes", [{"mover": "Swift Vans", "price": 640}, {"mover": "Oakline", "price": 585}])
    assert bound(embed, "Swift Vans ($640) is cheaper than Oakline ($585).", [quotes]) == 1.0
    assert bound(embed, "Oakline ($585) is cheaper than Swift Vans ($640).", [quotes]) == 0.0
    assert bound(embed, "Swift Vans, at $640, is more expensive than Oakline at $585.", [quotes]) == 0.0


def test_a_sibling_with_a_field_more_is_still_a_sibling(embed: Embed) -> None:
    requests = call("list_requests", [
        {"student": "Lind, Maja", "status": "pending", "submitted": "2026-11-29"},
        {"student": "Osei, Kofi", "status": "processed", "processed_on": "2026-12-02", "new_score": 76}])
    assert bound(embed, "Maja Lind's request was processed on Dec 2, raising her score to 76.", [requests]) == 1.0
    assert bound(embed, "Maja Lind's request is still pending; it went in on 29 November.", [requests]) == 0.0


def test_a_records_form_is_read_in_its_values_order() -> None:
    # A value of several names ("Smoker and veil") is matched by its first word the claim
    # says, whatever order the record's set of names has under this hash seed.
    from semloop.judge.local._records import _Record, _record_hits

    record = _Record(names=frozenset({"smoker", "veil", "bk-944"}),
                     pairs=(("order", "BK-944"), ("item", "Smoker veil")))
    assert _record_hits("Your smoker and veil order BK-944 shipped.", record) == {
        "order": "bk-944", "item": "smoker"}
