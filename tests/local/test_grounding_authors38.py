"""HALLUCINATION on causes read from blind37 (and earlier sets), each in a domain of its own
here: a figure of an answer in another language one digit slip from the evidence value of
its unit; a class of people said exempt from a charge no text lets anyone off; a number
inside a record's key ("tram_28_interruption_max_min"), which names its thing; a count
whose noun is a function word ("the engine 2 borescope as planned"), which counts nothing;
and a state said of the one record a claim names where other records hold it and that one
was called off. From blind37b: a data size counted in 1024s ("data_mb: 3789" as 3.7 GB);
"at any time" as the context's "anytime"; and an event rescheduled told as cancelled."""

from __future__ import annotations

from semloop.case import RunCase, ToolCall
from semloop.judge.local._answerer import Embed
from semloop.judge.local._grounding import answer_hallucination

from .conftest import found


def _foreign_answer(embed: Embed, answer: str) -> float:
    record = "plan: Basis\nmonthly_fee_eur: 19\nminimum_term_months: 12\nnotice_days: 30"
    case = RunCase(id="check", input="Was kostet mein Tarif?", output=answer, context=(),
                   tools_called=(ToolCall(name="contracts.get", args={"id": "K-7"}, output=record,
                                          success=True),))
    return answer_hallucination(case, embed).value


def test_a_figure_in_another_language_one_slip_from_its_value_is_wrong(embed: Embed) -> None:
    right = "Ihr Tarif Basis kostet 19 € im Monat, die Mindestlaufzeit beträgt 12 Monate und die Kündigungsfrist 30 Tage."
    assert _foreign_answer(embed, right) < 0.5
    assert _foreign_answer(embed, right.replace("30 Tage", "20 Tage")) > 0.5
    # A year beside the record's is the next one, no slip: the answer stays unread.
    assert _foreign_answer(embed, right + " Der Vertrag läuft bis Juni 2027 und wurde 2026 geschlossen.") < 0.5


def test_a_class_said_exempt_from_a_charge_no_text_waives(embed: Embed) -> None:
    fees = ("Parking permits: residents pay 120 EUR a year, payable in advance. "
            "Disabled badge holders get a 50% discount on the permit.")
    told = "Resident permits are 120 EUR a year, but pensioners are exempt, so you pay nothing."
    assert found(embed, "What does a permit cost for me, I'm retired?", told, context=fees)["offered"] >= 1
    waived = fees + " Pensioners are exempt from the permit fee."
    assert found(embed, "What does a permit cost for me, I'm retired?", told, context=waived).get("offered", 0) == 0


def test_a_number_inside_a_key_is_stated(embed: Embed) -> None:
    permit = "permit: P-77\nconditions:\n  - lane_12_closure_max_min: 20\n  - escort: required"
    told = "On lane 12, closures last at most 20 minutes, and an escort is required."
    assert found(embed, "Any conditions?", told, tool=permit).get("numbers", 0) == 0
    assert found(embed, "Any conditions?", told.replace("lane 12", "lane 14"), tool=permit)["numbers"] >= 1


def test_a_count_before_a_function_word_counts_no_records(embed: Embed) -> None:
    package = {"wp": "WP-12", "items": [{"task": "PMP2 impeller inspection", "status": "PLANNED"},
                                        {"task": "Filter swap", "status": "CLOSED"}]}
    told = "The work package lists the pump 2 impeller inspection as a planned item."
    assert found(embed, "Was it done?", told, tool=package).get("bound", 0) == 0


def test_a_state_other_records_hold_is_not_the_named_records(embed: Embed) -> None:
    lessons = {"school": "Lakeside Riding", "lessons": [
        {"rider": {"name": "Ada", "level": "novice"}, "pony": "Clover", "slot": "09:00", "status": "confirmed"},
        {"rider": {"name": "Noor", "level": "improver"}, "pony": "Juniper", "slot": "10:30", "status": "cancelled"},
        {"rider": {"name": "Lea", "level": "novice"}, "pony": "Pip", "slot": "11:30", "status": "confirmed"}]}
    told = "Yes, Noor's 10:30 lesson on Juniper is confirmed."
    assert found(embed, "Is Noor's lesson still on?", told, tool=lessons)["negation"] == 1
    assert found(embed, "Is Ada's lesson still on?", "Yes, Ada's 09:00 lesson on Clover is confirmed.",
                 tool=lessons).get("negation", 0) == 0


def test_a_data_size_may_be_counted_in_1024s(embed: Embed) -> None:
    usage = {"line": "+44 7700 900123", "upload_mb": 7475, "cap_gb": 20}
    assert found(embed, "How much did I upload?", "You uploaded 7.3 GB this month, under your 20 GB cap.",
                 tool=usage).get("numbers", 0) == 0
    assert found(embed, "How much did I upload?", "You uploaded 7.1 GB this month, under your 20 GB cap.",
                 tool=usage)["numbers"] >= 1


def test_at_any_time_is_the_contexts_anytime(embed: Embed) -> None:
    rules = "Membership rules: annual members may freeze their plan anytime; cancellations only in the final month."
    told = "Annual members can freeze their plan at any time."
    assert found(embed, "Can I freeze?", told, context=rules, tool={"member": "A-1"}).get("scope", 0) == 0


def test_an_event_rescheduled_is_not_cancelled(embed: Embed) -> None:
    event = {"event": "Harbour Folk Night", "date": "2025-07-04", "status": "RESCHEDULED", "new_date": "2025-08-22"}
    assert found(embed, "Is it still on?", "The Harbour Folk Night on 4 July has been cancelled.",
                 tool=event)["negation"] == 1
    assert found(embed, "Is it still on?", "The Harbour Folk Night on 4 July has been rescheduled to 22 August.",
                 tool=event).get("negation", 0) == 0
    assert found(embed, "Is it still on?", "It has been postponed rather than cancelled: the new date is 22 August.",
                 tool=event).get("negation", 0) == 0
