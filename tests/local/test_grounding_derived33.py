"""HALLUCINATION on careful answers that derive a value from the records by a standard step
(the causes of blind32's, blind32b's and gen33's false alarms, in other domains): a Swiss-
grouped amount, a time told in another zone across midnight, a span's end from its start and
length, an iCalendar date, a list whose items carry weekdays, a total of per-item parts and
a total rounded in another unit, a verb before a name, a value used as a modifier. Each with
a slip that must still be found; and a clock time copied unconverted into a named zone."""

from __future__ import annotations

import zoneinfo

import pytest

from semloop.judge.local import _figures, _grounding, _records
from semloop.judge.local._answerer import Embed
from semloop.judge.local._claims import contradicts, quantities

from .conftest import found


def test_an_apostrophe_groups_thousands() -> None:
    assert [(q.value, q.unit) for q in quantities("Rent is 2'350.50 CHF a month.")] == [(2350.5, "chf")]


def test_a_time_told_in_another_zone_may_fall_on_the_next_day(embed: Embed) -> None:
    launch = {"mission": "SAT-9", "launch_utc": "2026-12-09T23:30:00Z"}
    said = "It launches at 23:30 UTC on 9 December, which is 00:30 on {} in Paris."
    assert found(embed, "when?", said.format("10 December"), tool=launch).get("numbers", 0) == 0
    assert found(embed, "when?", said.format("12 December"), tool=launch)["numbers"] >= 1


def test_a_clock_time_copied_into_a_named_zone_unconverted(embed: Embed) -> None:
    webinar = {"webinar": "W-3", "starts": "2026-06-03T15:00:00+02:00"}
    assert found(embed, "when, my time? I'm in London", "It starts at 14:00 London time.",
                 tool=webinar).get("bound", 0) == 0
    assert found(embed, "when, my time? I'm in London", "It starts at 15:00 London time.",
                 tool=webinar)["bound"] >= 1


def test_a_machine_without_zone_data_converts_nothing_and_raises_nothing(
        embed: Embed, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_zone_data(key: str) -> None:
        raise zoneinfo.ZoneInfoNotFoundError(key)

    monkeypatch.setattr(zoneinfo, "ZoneInfo", no_zone_data)
    webinar = {"webinar": "W-3", "starts": "2026-06-03T15:00:00+02:00"}
    assert found(embed, "when, my time? I'm in London", "It starts at 15:00 London time.",
                 tool=webinar).get("bound", 0) == 0


def test_a_span_ends_its_length_after_its_start(embed: Embed) -> None:
    tour = "tour: Old Harbour; start: 09:40; length: 95 min"
    assert found(embed, "how long?", "It starts at 09:40 and runs until 11:15.", tool=tour).get("numbers", 0) == 0
    assert found(embed, "how long?", "It starts at 09:40 and runs until 11:45.", tool=tour)["numbers"] >= 1


def test_an_icalendar_basic_date_is_its_date(embed: Embed) -> None:
    event = "BEGIN:VEVENT\nSUMMARY:Boiler service\nDTSTART:20270114T083000\nEND:VEVENT"
    assert found(embed, "when?", "Your boiler service is on 14 January at 08:30.", tool=event).get("numbers", 0) == 0
    assert found(embed, "when?", "Your boiler service is on 15 January at 08:30.", tool=event)["numbers"] >= 1


def test_a_weekday_is_no_word_of_a_listed_item() -> None:
    listed = [frozenset({"boiler", "servic"}), frozenset({"chimney", "sweep"})]
    restated, others = _grounding._items_listed("Thu 14 Jan: boiler service", listed)
    assert restated == 1 and not any(w.isalpha() for o in others for w in o)


def test_parts_shared_by_several_items_are_no_sum() -> None:
    assert _figures._misadded("Four shifts totalling 30 hours: two of 8 h each and two of 7 h each.", ["30 hours"]) == ""
    assert _figures._misadded("Two shifts totalling 30 hours: 8 h on Monday and 7 h on Tuesday.", ["30 hours"])


def test_a_total_rounded_in_another_unit_is_no_sum() -> None:
    claim = "The refit adds up to 26 weeks, about six months: 3 weeks to strip, 14 in the yard, 5 to rig and 4 for trials."
    assert _figures._misadded(claim, ["six months"]) == ""
    assert _figures._misadded("The course comes to 50 weeks: 10 weeks online and 30 weeks in class.", ["50 weeks"])


def test_a_verb_before_a_name_makes_it_the_object(embed: Embed) -> None:
    berth = {"berth": "B-7", "holder_name": "Ravi Patel", "visitor_name": "Ana Costa"}
    assert found(embed, "who?", "Berth B-7 holds Ana Costa's boat this week.", tool=berth).get("bound", 0) == 0


def test_a_value_that_modifies_the_named_field_names_it() -> None:
    assert _records._modifies("the 90% actual limit was hit", frozenset({"actual"}), frozenset({"limit"}))
    assert not _records._modifies("the limit was actual", frozenset({"actual"}), frozenset({"limit"}))


def test_a_snake_case_key_names_its_value_s_unit(embed: Embed) -> None:
    specs = "hall: H2\nfloor_area_m2: 40\nclear_height_m: 5.5"
    assert found(embed, "size?", "Hall H2 has about 430 sq ft of floor with 5.5 m clear height.",
                 tool=specs).get("numbers", 0) == 0
    assert found(embed, "size?", "Hall H2 has 40 sq ft of floor with 5.5 m clear height.", tool=specs)["numbers"] >= 1


def test_a_cause_that_shares_no_word_with_the_record_s_reason(embed: Embed) -> None:
    payment = {"payment": "PM-9", "status": "FAILED", "failure_reason": "CARD_EXPIRED"}
    assert found(embed, "why?", "Your payment failed because your card has expired.", tool=payment).get("bound", 0) == 0
    assert found(embed, "why?", "Your payment failed because of a bank outage on their side.",
                 tool=payment)["bound"] >= 1


def test_including_but_not_limited_to_gives_examples_not_inclusion() -> None:
    exclusions = "Exclusions: damage by pests, including but not limited to rodents and insects, under this policy"
    assert contradicts("Damage by rodents is excluded from the policy", exclusions, 1) == ""
    assert contradicts("VAT is excluded from the policy price", "The policy price, including VAT", 1) == "includ"


def test_a_premise_with_since_is_no_cause(embed: Embed) -> None:
    order = {"order": "OR-4", "status": "cancelled", "reason": "CUSTOMER_REQUEST"}
    assert found(embed, "refund?", "Since you paid by debit card, the refund goes back to that card.",
                 tool=order).get("bound", 0) == 0
    assert found(embed, "why cancelled?", "It was cancelled because the warehouse ran out of stock.",
                 tool=order)["bound"] >= 1
