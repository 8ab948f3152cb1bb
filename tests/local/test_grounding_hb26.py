"""HALLUCINATION's checks for the causes read in an outside author's set (blind26): codes
spelt out as names, yes/no keys against negated claims, complements, totals of listed parts."""

from __future__ import annotations

import json

from semloop.case import RunCase, ToolCall
from semloop.judge.local._answerer import Embed
from semloop.judge.local._claims import contradicts
from semloop.judge.local._grounding import _stated, hallucination_evidence


def found(embed: Embed, question: str, answer: str, context: str = "",
          tool: str = "") -> dict[str, float]:
    tools = (ToolCall(name="lookup", args={}, output=tool, success=True),) if tool else ()
    case = RunCase(id="check", input=question, output=answer,
                   context=(context,) if context else (), tools_called=tools)
    return hallucination_evidence(case, embed).features


def test_a_name_spelt_out_from_the_context_s_code_is_named(embed: Embed) -> None:
    route = json.dumps({"legs": [{"from": "LIS", "to": "BCN", "dep": "09:05"}]})
    assert found(embed, "where do I fly?", "You fly from Lisbon to Barcelona at 09:05.", tool=route)["names"] == 0
    assert found(embed, "where do I fly?", "You fly from Lisbon to Madrid at 09:05.", tool=route)["names"] == 1
    ctx = "The exam starts at 10:00 GMT on 3 March."
    assert found(embed, "when?", "It starts at 10 am Greenwich Mean Time on 3 March.", ctx)["names"] == 0
    assert found(embed, "when?", "It starts at 10 am Eastern Standard Time on 3 March.", ctx)["names"] > 0


def test_a_false_key_is_negated_before_its_predicate() -> None:
    assert _stated("vets accepting new clients: False") == "vets not accepting new clients"
    assert _stated("parking available: False") == "parking not available"
    assert _stated("lift working today: false") == "lift not working today"
    assert _stated("court open today: False") == "court not open today"


def test_no_thing_needed_denies_the_requirement() -> None:
    assert contradicts("No referral is needed for the clinic", "referral required clinic", 1)
    assert not contradicts("No referral is needed for the clinic", "referral not required clinic", 1)
    assert not contradicts("No referral is required", "referral not required", 1)


def test_a_negation_agreeing_with_a_false_key_of_its_record_is_no_contradiction(embed: Embed) -> None:
    rooms = json.dumps({"rooms": [{"name": "Maple Room", "bookable_today": False},
                                  {"name": "Cedar Room", "bookable_today": True}]})
    agree = found(embed, "can I book a room?",
                  "The Maple Room is not bookable today, but the Cedar Room is bookable.", tool=rooms)
    assert agree["negation"] == 0
    wrong = found(embed, "can I book a room?", "The Cedar Room is not bookable today.", tool=rooms)
    assert wrong["negation"] == 1


def test_the_rest_of_a_percentage_is_supported(embed: Embed) -> None:
    tool = json.dumps({"battery": {"charge_pct": 35}})
    assert found(embed, "battery?", "It is at 35%, so 65% of the charge is used.", tool=tool)["numbers"] == 0
    assert found(embed, "battery?", "It is at 35%, so 55% of the charge is used.", tool=tool)["numbers"] == 1


def test_a_total_its_listed_parts_do_not_add_up_to_is_bound(embed: Embed) -> None:
    tool = json.dumps({"lines": [{"item": "Tyres", "amount": 240.0}, {"item": "Tracking", "amount": 45.0}]})
    wrong = found(embed, "total?", "Your bill totals £295.00: tyres £240.00 and tracking £45.00.", tool=tool)
    assert wrong["bound"] == 1
    right = found(embed, "total?", "Your bill totals £285.00: tyres £240.00 and tracking £45.00.", tool=tool)
    assert right["bound"] == 0 and right["numbers"] == 0


def test_sent_where_the_context_s_state_is_before_sending_is_a_contradiction(embed: Embed) -> None:
    tool = json.dumps({"parcel": {"status": "awaiting_collection", "courier": "Evri"}})
    assert found(embed, "where's my parcel?", "Your parcel has been dispatched with Evri.", tool=tool)["negation"] == 1
    assert found(embed, "where's my parcel?", "Your parcel hasn't been dispatched yet; Evri will collect it.",
                 tool=tool)["negation"] == 0


def _called(embed: Embed, answer: str, *names: str) -> dict[str, float]:
    calls = tuple(ToolCall(name=n, args={}, output=json.dumps({"session": "Yoga 18:00", "spaces": 0}),
                           success=True) for n in names)
    case = RunCase(id="check", input="can I join the 18:00 yoga?", output=answer, tools_called=calls)
    return hallucination_evidence(case, embed).features


def test_an_action_claimed_where_every_call_only_read_is_invented(embed: Embed) -> None:
    claim = "The 18:00 yoga session has no spaces left, so I've added you to the waiting list."
    assert _called(embed, claim, "get_session")["offered"] == 1
    assert _called(embed, claim, "get_session", "join_waitlist")["offered"] == 0


def test_a_numbered_step_the_context_never_lists_is_invented(embed: Embed) -> None:
    tool = json.dumps({"steps": ["Download the enrolment form", "Attach a recent photo",
                                 "Pay the 30 EUR fee at the desk"]})
    extra = ("To enrol: 1) download the enrolment form, 2) attach a recent photo, 3) pay the fee "
             "at the desk, and 4) book a medical assessment with the club doctor.")
    assert found(embed, "how do I enrol?", extra, tool=tool)["offered"] == 1
    same = "To enrol: 1) download the enrolment form, 2) attach a recent photo, and 3) pay the fee at the desk."
    assert found(embed, "how do I enrol?", same, tool=tool)["offered"] == 0


def test_the_latest_of_a_record_another_record_postdates_is_bound(embed: Embed) -> None:
    tool = json.dumps({"visits": [{"engineer": "J. Ruiz", "date": "2026-10-02"},
                                  {"engineer": "K. Obi", "date": "2026-11-19"}]})
    assert found(embed, "last visit?", "The latest visit was by J. Ruiz on 2 October.", tool=tool)["bound"] == 1
    assert found(embed, "last visit?", "The latest visit was by K. Obi on 19 November.", tool=tool)["bound"] == 0
    assert found(embed, "first visit?", "The earliest visit was by J. Ruiz on 2 October.", tool=tool)["bound"] == 0


def test_a_person_named_in_another_person_s_role_is_bound(embed: Embed) -> None:
    tool = json.dumps({"claim": "CL-88", "submitted_by": {"name": "Ola Berg"}, "assessor": {"name": "Dev Patel"}})
    assert found(embed, "who is on it?", "Your claim CL-88 is with assessor Ola Berg.", tool=tool)["bound"] == 1
    assert found(embed, "who is on it?", "Your claim CL-88 is with assessor Dev Patel.", tool=tool)["bound"] == 0


def test_a_list_record_s_value_given_to_its_sibling_is_a_swap_under_a_heading(embed: Embed) -> None:
    tool = json.dumps({"route": "R-12", "description": "Harbour loop",
                       "stops": [{"stop_name": "Quay Street", "minutes_away": 4},
                                 {"stop_name": "Mill Lane", "minutes_away": 11}]})
    swapped = found(embed, "when's the bus?", "The R-12 reaches Quay Street in 11 minutes.", tool=tool)
    assert swapped["bound"] == 1
    both = found(embed, "when's the bus?",
                 "The R-12 reaches Quay Street in 11 minutes, and Mill Lane in 4 minutes.", tool=tool)
    assert both["bound"] == 1
    right = found(embed, "when's the bus?",
                  "The R-12 reaches Quay Street in 4 minutes, and Mill Lane in 11 minutes.", tool=tool)
    assert right["bound"] == 0
