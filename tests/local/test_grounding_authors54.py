"""HALLUCINATION on false alarms of blind54 … blind56b (opened this round), each tested in a
domain of its own here: a number glued to its unit ("412kWh", "100kW") read as a quantity,
not as an unknown code, and a code glued to a particle of another script ("GN-01은"); a
month alone in Korean or Japanese ("8월", "8月") checked against a record's ISO year and
month ("2024-08"), and a figure of another month's record said of a month; names that an answer only supposes ("If the parcel went via Leipzig, …")
or advises ("I'd ask Student Finance"); heat in GJ, MJ and therms stated in kWh; scales
abbreviated as Nordic, German, Dutch, Polish and Russian papers write them ("1,2 mio.");
prose about a list ("which is exactly the minimum") read as no item of it; a negator
reaching each item of a list that "or" ends. Recall: a wrong quantity, a wrong month, a
wrong conversion and a name stated as a fact are still caught, and an item the list
denies said allowed is now caught."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed
from semloop.judge.local._claims import (
    _negations,
    converted,
    dates,
    key_terms,
    quantities,
    year_months,
)

from .conftest import found

_METER = {"meter": "EV-7781", "period": "2025-03", "energy_kwh": 96, "peak_kw": 22, "station": "HB-04"}


def test_a_number_glued_to_its_unit_is_a_quantity_not_a_name(embed: Embed) -> None:
    told = "HB-04 delivered 96kWh in March, with a 22kW peak."
    got = found(embed, "How much did the charger deliver last month?", told, tool=_METER)
    assert got.get("names", 0) == 0 and got.get("numbers", 0) == 0


def test_a_glued_quantity_the_record_does_not_give_is_still_caught(embed: Embed) -> None:
    told = "HB-04 delivered 96kWh in March, with a 50kW peak."
    assert found(embed, "How much did the charger deliver last month?", told, tool=_METER).get("numbers", 0) > 0


def test_a_code_stops_where_another_script_begins() -> None:
    assert "hb-04" in key_terms("충전기 HB-04는 지금 사용 가능합니다")
    assert not any("는" in t for t in key_terms("충전기 HB-04는 지금 사용 가능합니다"))


def test_a_month_alone_in_korean_meets_the_records_year_and_month(embed: Embed) -> None:
    assert year_months("period 2025-03") == [(2025, 3, None)]
    right = found(embed, "이번 달 충전량은?", "3월 충전량은 96 kWh입니다.", tool=_METER)
    wrong = found(embed, "이번 달 충전량은?", "4월 충전량은 96 kWh입니다.", tool=_METER)
    assert right.get("numbers", 0) == 0
    assert wrong.get("numbers", 0) > 0


def test_an_iso_year_and_month_is_no_part_of_a_longer_date() -> None:
    assert year_months("on 2025-03-14") == []
    assert dates("on 2025-03-14")[0][1] == frozenset({(2025, 3, 14)})


def test_a_records_month_supports_no_day_of_it(embed: Embed) -> None:
    told = "Your March charge is paid on 31 March."
    assert found(embed, "When is the charge paid?", told, tool=_METER).get("numbers", 0) > 0


_PARCEL = {"parcel": "PK-55120", "status": "in_transit", "last_scan": "Hub Kassel", "eta": None}


def test_names_an_answer_only_supposes_or_advises_are_no_claims(embed: Embed) -> None:
    told = ("PK-55120 was last scanned at Hub Kassel and has no delivery date yet. If it was rerouted via "
            "Leipzig, the scan may lag a day, so I'd ask Customer Care before filing anything.")
    assert found(embed, "Where is my parcel?", told, tool=_PARCEL).get("names", 0) == 0


def test_a_name_stated_as_fact_is_still_caught(embed: Embed) -> None:
    told = "PK-55120 was rerouted via Leipzig and reaches you on Friday."
    assert found(embed, "Where is my parcel?", told, tool=_PARCEL).get("names", 0) > 0


def test_heat_in_gj_mj_and_therms_converts_to_kwh() -> None:
    (gj,) = quantities("3.6 GJ")
    assert any(abs(v - 1000.0) < 1e-6 for v in converted(gj))
    (therms,) = quantities("10 therms")
    assert any(abs(v - 293.071) < 1e-3 for v in converted(therms))


_HEAT = "District heat tariff, Block 9: €31.00 per GJ. Standing charge €15.00 per month."


def test_a_heat_bill_stated_in_kwh_is_supported(embed: Embed) -> None:
    told = "2.7 GJ is about 750 kWh. At €31.00 per GJ that is €83.70, plus the €15.00 standing charge."
    assert found(embed, "My bill says 2.7 GJ. How much is that in kWh and what do I pay?", told,
                 context=_HEAT).get("numbers", 0) == 0


def test_a_wrong_kwh_figure_is_still_caught(embed: Embed) -> None:
    told = "2.7 GJ is about 950 kWh."
    assert found(embed, "My bill says 2.7 GJ. How much is that in kWh?", told, context=_HEAT).get("numbers", 0) > 0


def test_abbreviated_scales_read_after_a_number_only() -> None:
    assert [q.value for q in quantities("2,4 mio. visninger")] == [2_400_000.0]
    assert [q.value for q in quantities("przychód 3,5 mln zł")] == [3_500_000.0]
    assert [q.value for q in quantities("1,7 млрд рублей")] == [1_700_000_000.0]
    assert quantities("Mia will call you back") == []


_TIMETABLE = {"student": "S-118", "credits": 15, "minimum_full_time": 15,
              "modules": ["GEOG 210", "GEOG 245", "ECON 201", "STAT 150"]}


def test_prose_about_a_list_is_no_invented_item(embed: Embed) -> None:
    told = ("You're on 15 credits (GEOG 210, GEOG 245, ECON 201, STAT 150), which is exactly the full-time "
            "minimum, so withdrawing from any module would take you under it.")
    assert found(embed, "Am I full-time this term?", told, tool=_TIMETABLE).get("offered", 0) == 0


def test_an_item_added_to_the_records_list_is_still_caught(embed: Embed) -> None:
    told = "Your modules: GEOG 210, GEOG 245, ECON 201, STAT 150 and Marine Biology Fieldwork."
    assert found(embed, "Which modules am I on?", told, tool=_TIMETABLE).get("offered", 0) > 0


def test_a_negator_reaches_each_item_of_a_list_ended_by_or() -> None:
    _, scoped = _negations("Tenants may not sublet the flat, keep pets, or install a satellite dish.")
    assert {w for _, words, _ in scoped for w in words} >= {"sublet", "keep", "pet", "install", "satelli"}
    _, single = _negations("Tenants may not sublet the flat, and pets are welcome.")
    assert {w for _, words, _ in single for w in words} == {"sublet"}


_LEASE = "Tenants must not sublet the flat, keep reptiles, or install a satellite dish without written consent."


def test_items_a_list_denies_are_restated_denied_without_alarm(embed: Embed) -> None:
    told = "A few house rules: no subletting, no reptiles, and no installing a satellite dish without written consent."
    assert found(embed, "Any rules I should know?", told, context=_LEASE).get("negation", 0) == 0


def test_an_item_the_list_denies_said_allowed_is_caught(embed: Embed) -> None:
    # The negator's reach is recall too: the third item was read as allowed before.
    told = "The lease allows tenants to install a satellite dish."
    assert found(embed, "Can I put up a dish?", told, context=_LEASE).get("negation", 0) > 0


_WATER = ("| flat | period | usage_m3 | amount_gbp |\n|---|---|---|---|\n| 4A | 2026-01 | 11.2 | 38.40 |\n"
          "| 4A | 2026-02 | 9.6 | 33.10 |\n| 4B | 2026-02 | 14.1 | 47.95 |")


def test_another_months_figure_said_of_a_month_is_caught(embed: Embed) -> None:
    told = "Flat 4A's water bill for January 2026 was £33.10."
    assert found(embed, "What was 4A's January water bill?", told, context=_WATER).get("bound", 0) > 0


def test_the_months_own_figure_is_supported(embed: Embed) -> None:
    told = "Flat 4A's water bill for January 2026 was £38.40, for 11.2 m³."
    got = found(embed, "What was 4A's January water bill?", told, context=_WATER)
    assert got.get("bound", 0) == 0 and got.get("numbers", 0) == 0


def test_two_months_compared_are_no_swap(embed: Embed) -> None:
    told = "Flat 4A paid £38.40 in January 2026 and £33.10 in February 2026."
    assert found(embed, "How did 4A's water bills change?", told, context=_WATER).get("bound", 0) == 0


def test_an_if_with_nothing_after_it_is_read_without_error(embed: Embed) -> None:
    # The supposing branch's group matches empty here ("…, if."); the first version passed
    # None on and raised.
    told = "HB-04 delivered 96 kWh in March, if."
    assert found(embed, "How much did the charger deliver?", told, tool=_METER).get("numbers", 0) == 0
