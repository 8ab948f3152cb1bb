"""HALLUCINATION on causes read from blind41 (travel and hospitality agents on reservation
records) and blind42 (e-commerce and logistics agents), each tested in a domain of its own
here. False alarms: a reservation system's or a carrier's date glued in capitals ("09JUN")
and its four-digit clock times ("1455") were not read; a call's arguments were read as a
record beside the one the call returned; a code written with a dot between its digit groups
("8517.13") where the record runs them together. Recall: a time or a code the record does
not give is still caught."""

from __future__ import annotations

from semloop.case import ToolCall
from semloop.judge.local._answerer import Embed
from semloop.judge.local._claims import dates, timetable_times

from .conftest import found

_SAILING = "MV KAPITAN 14MAR SPUANC DEP 0730 ARR 1615 OK\nMV KAPITAN 21MAR ANCSPU DEP 1800/2245 WL"


def test_a_glued_date_and_a_timetables_four_digit_times_are_read() -> None:
    assert [text for text, _ in dates(_SAILING)] == ["14MAR", "21MAR"]
    assert timetable_times(_SAILING) == [450, 975, 1080, 1365]
    assert timetable_times("ORDER 4471 QTY 1200 SHIPPED") == []  # no glued date: no timetable


def test_a_sailing_told_from_a_timetable_screen_is_supported(embed: Embed) -> None:
    told = "Your ferry on 14 March leaves Split at 07:30 and reaches Ancona at 16:15."
    assert found(embed, "When does my ferry go?", told, tool=_SAILING).get("numbers", 0) == 0


def test_a_time_the_timetable_does_not_give_is_still_caught(embed: Embed) -> None:
    told = "Your ferry on 14 March leaves Split at 08:30 and reaches Ancona at 16:15."
    assert found(embed, "When does my ferry go?", told, tool=_SAILING).get("numbers", 0) > 0


def test_a_calls_arguments_are_its_request_not_a_sibling_record(embed: Embed) -> None:
    quote = ToolCall(name="clinic_quote", args={"clinic": "Ostend", "room": "PHY", "plan": "STD", "sessions": 4},
                     output='{"room": "Physio", "plan": "STD", "session_fee_eur": 55, "parking": "free"}',
                     success=True)
    told = "For 4 sessions of physio on the STD plan it is €55 each, so €220 in all."
    assert found(embed, "What would 4 physio sessions cost?", told, calls=(quote,)).get("bound", 0) == 0


def test_a_code_dotted_between_its_digit_groups_is_the_records_code(embed: Embed) -> None:
    entry = "ENTRY 25NL0044 TARIFF 640399 VALUE EUR 12400.00 ORIGIN VN"
    told = "The footwear was declared under tariff 6403.99 at €12,400."
    assert found(embed, "Which tariff line was used?", told, tool=entry).get("numbers", 0) == 0


def test_a_dotted_code_the_record_does_not_give_is_still_caught(embed: Embed) -> None:
    entry = "ENTRY 25NL0044 TARIFF 640399 VALUE EUR 12400.00 ORIGIN VN"
    told = "The footwear was declared under tariff 6403.91 at €12,400."
    assert found(embed, "Which tariff line was used?", told, tool=entry).get("numbers", 0) > 0


def test_a_payment_said_made_where_its_status_still_waits_for_approval(embed: Embed) -> None:
    claim = '{"claim_ref": "EXP-7781", "amount": 412.50, "currency": "EUR", "status": "PENDING_APPROVAL"}'
    told = "Yes, your expense claim EXP-7781 for €412.50 was paid on Monday."
    assert found(embed, "Has my expense claim been paid?", told, tool=claim).get("negation", 0) > 0


def test_a_shipment_said_to_have_cleared_where_its_leg_is_held(embed: Embed) -> None:
    leg = '{"consignment": "CN-20417", "leg": "Antwerp to Lyon", "status": "HELD", "reason": "missing EUR.1"}'
    told = "Consignment CN-20417 has cleared and is on its way to Lyon."
    assert found(embed, "Where is CN-20417?", told, tool=leg).get("negation", 0) > 0


def test_a_logs_pairs_on_one_line_are_a_record(embed: Embed) -> None:
    status = "course=SWIM-B2 enrolled=5 min_required=8 status=AWAITING_MINIMUM decision_at=Thu 17:00"
    told = "Yes, the SWIM-B2 course is confirmed and will run on Saturday."
    assert found(embed, "Is the swimming course running?", told, tool=status).get("negation", 0) > 0


def test_a_status_said_as_the_record_gives_it_is_no_overstatement(embed: Embed) -> None:
    claim = '{"claim_ref": "EXP-7781", "amount": 412.50, "currency": "EUR", "status": "PENDING_APPROVAL"}'
    told = "Not yet: EXP-7781 for €412.50 is still waiting for approval, so it hasn't been paid."
    assert found(embed, "Has my expense claim been paid?", told, tool=claim).get("negation", 0) == 0


def test_a_camel_case_keys_unit_converts_its_bare_value(embed: Embed) -> None:
    kiosk = '{"kioskId": "LIB-K3", "sessionTimeoutSeconds": 900, "isLocked": false}'
    told = "The library kiosk LIB-K3 logs you out after 15 minutes of inactivity."
    assert found(embed, "How long before the kiosk logs me out?", told, tool=kiosk).get("numbers", 0) == 0


def test_the_days_from_a_date_said_to_todays_date_in_the_record(embed: Embed) -> None:
    loan = ToolCall(name="loan_lookup", args={"card": "P-2291"},
                    output='{"item": "Atlas of Birds", "borrowedOn": "2026-03-02", "status": "on loan"}', success=True)
    today = ToolCall(name="clock", args={}, output="2026-03-14", success=True)
    told = "You borrowed the Atlas of Birds on 2 March, so you've had it for 12 days."
    assert found(embed, "How long have I had the atlas?", told, calls=(loan, today)).get("numbers", 0) == 0


def test_a_day_count_no_two_dates_give_is_still_caught(embed: Embed) -> None:
    loan = ToolCall(name="loan_lookup", args={"card": "P-2291"},
                    output='{"item": "Atlas of Birds", "borrowedOn": "2026-03-02", "status": "on loan"}', success=True)
    today = ToolCall(name="clock", args={}, output="2026-03-14", success=True)
    told = "You borrowed the Atlas of Birds on 2 March, so you've had it for 19 days."
    assert found(embed, "How long have I had the atlas?", told, calls=(loan, today)).get("numbers", 0) > 0



def test_a_thing_said_missing_where_the_record_says_it_is_not_there(embed: Embed) -> None:
    order = ('{"id": "WO-88", "lines": [{"task": "Site survey", "amount": 240.0, "photo": true}, '
             '{"task": "Cable install", "amount": 1375.0, "photo": false}]}')
    told = "WO-88: survey £240 and cabling install £1,375. The cabling install is missing its photo."
    assert found(embed, "Any photos missing on WO-88?", told, tool=order).get("negation", 0) == 0


def test_a_rows_label_called_by_its_own_word_among_a_listed_breakdown(embed: Embed) -> None:
    claim = ('{"id": "CL-204", "currency": "GBP", "lines": [{"type": "Hotel", "amount": 310.0}, '
             '{"type": "Team lunch", "amount": 96.0}, {"type": "Rail", "amount": 58.0}]}')
    told = "Your claim CL-204 has three lines totalling £464: hotel £310, staff lunch £96 and rail £58."
    assert found(embed, "What's on CL-204?", told, tool=claim).get("bound", 0) == 0
