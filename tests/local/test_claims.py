"""The run-level answers' text features: numbers, dates, times, claims, negation, requests."""

from __future__ import annotations

import pytest

from semloop.judge.local._claims import (
    clauses,
    clock_times,
    contradicts,
    date_supported,
    dates,
    delimited_records,
    derived_values,
    is_hedged,
    is_refusal,
    key_terms,
    labelled_values,
    negation_scope,
    number_supported,
    promises_only,
    quantities,
    request_parts,
    split_claims,
    stem,
    table_records,
    tool_text,
)


def values(text: str) -> list[float]:
    return [q.value for q in quantities(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The fee is $1,200.", [1200.0]),
        ("about 1.2k seats", [1200.0]),
        ("twelve hundred seats", [1200.0]),
        ("twenty-five items", [25.0]),
        ("two dozen eggs", [24.0]),
        ("€3.5 million", [3_500_000.0]),
        ("raised $5m", [5_000_000.0]),
        ("a 20-tonne limit", [20.0]),
        ("−40 degrees", [-40.0]),
    ],
)
def test_numbers_are_normalised(text: str, expected: list[float]) -> None:
    assert values(text) == expected


def test_units_currency_and_hedges_are_kept() -> None:
    (pct,) = quantities("grew 15%")
    assert pct.unit == "%" and not pct.approx
    (money,) = quantities("roughly a $40 fee")
    assert money.unit == "$" and money.approx
    (dist,) = quantities("5 km")
    assert dist.unit == "km"


def test_numbers_inside_names_dates_and_times_are_not_quantities() -> None:
    assert values("Form W-2 and form 1040-X") == []
    assert values("on 2024-03-05 at 14:30") == []
    assert values("24/7 support, a 3/4 majority") == []


def test_dates_in_several_formats_agree() -> None:
    readings = [r for _, rs in dates("shipped 5 March 2024") for r in rs]
    for text in ("2024-03-05", "March 5, 2024", "05/03/2024", "Mar 5th"):
        found = [r for _, rs in dates(text) for r in rs]
        assert date_supported(found, readings), text
    assert not date_supported([r for _, rs in dates("March 6, 2024") for r in rs], readings)


def test_clock_times_as_minutes() -> None:
    assert [m for _, m in clock_times("9:00 AM, 4 pm and 2026-11-30T11:42:00Z")] == [
        540, 960, 702,
    ]


@pytest.mark.parametrize(
    ("claim", "evidence", "supported"),
    [
        ("$1,200", "Revenue: $1,180.", True),  # rounded to its precision
        ("45", "fee: 40", False),  # a whole number under 100 is not rounded to 5s
        ("25 miles", "40 km", True),  # unit conversion
        ("0.25", "25% of customers", True),  # a share as a fraction
        ("$2,600 in total", "$1,180 and $1,420", True),  # a sum, said to be one
        ("about 22 days", "34 days", False),
        ("104 °F", "40 °C", True),
    ],
)
def test_number_support(claim: str, evidence: str, supported: bool) -> None:
    (q, *_) = quantities(claim)
    pool = derived_values(quantities(evidence))
    assert number_supported(q, pool) is supported


def test_claims_are_sentences_and_list_items() -> None:
    text = "The fee is $4.50. It applies e.g. abroad!\n- **Item one** here\n2) item two"
    assert split_claims(text) == [
        "The fee is $4.50.", "It applies e.g. abroad!", "Item one here", "item two",
    ]
    assert clauses("X is covered, but Y is not") == ["X is covered", "Y is not"]


def test_negation_scope_and_contradiction() -> None:
    singles, phrases = negation_scope("We do not cover flood damage. No appraisal gap.")
    assert "cover" in singles and frozenset({"apprais", "gap"}) in phrases
    # a leading "No," answers the question and negates nothing
    assert negation_scope("No, that is fine.") == (frozenset(), frozenset())
    ev = "HO-3 policy: we do not cover loss caused by flood."
    assert contradicts("Flood loss is covered under your HO-3 policy.", ev) == "cover"
    assert contradicts("Flood loss is not covered under your HO-3 policy.", ev) == ""
    assert contradicts("Amounts unpaid after 45 days bear interest.",
                       "Invoices not paid after 45 days bear interest.") == ""


def test_hedges_refusals_and_promises() -> None:
    assert is_hedged("It might be around $40, but check with HR.")
    assert not is_hedged("The fee is $40.")
    assert is_refusal("The documents don't mention a cancellation fee.")
    assert promises_only("I'll look into refund #4471 and get back to you.", "refund #4471?")
    assert not promises_only("Refund 4471 was approved; I'll email the receipt.", "refund 4471?")


def test_key_terms_are_names_not_sentence_starts() -> None:
    assert key_terms("Please check HSAs and Form 8889 at Fidelity, order AP-22918.") >= {
        "hsa", "fidelity", "ap-22918",
    }
    assert "please" not in key_terms("Please check it.")


@pytest.mark.parametrize(
    ("request_text", "n"),
    [
        ("refund status #4471?", 1),
        ("What's my balance on checking and savings, and when is my card payment due?", 2),
        ("I need three things: change the address, add gift wrap, and tell me the date.", 3),
        ("give me the timeline, the root cause, and the action items", 3),
        ("1) why is mail going to spam 2) how do I set up DKIM 3) is my SPF right", 3),
        ("Find a hotel near the museum and book the cheapest one", 2),
        ("I sold some stock this year. Do I owe tax on it?", 1),
    ],
)
def test_request_parts(request_text: str, n: int) -> None:
    assert len(request_parts(request_text)) == n, request_parts(request_text)


def test_tool_json_reads_one_line_per_record() -> None:
    text = tool_text('[{"dept": "Cardiology", "time": "09:15"}, {"dept": "Dermatology"}]')
    # how many records there are is stated too: an answer may say "two appointments"
    assert text.splitlines() == ["dept: Cardiology; time: 09:15", "dept: Dermatology", "count: 2"]


def test_a_thing_said_not_included_is_a_fact_and_only_the_material_lacks_things() -> None:
    # Said of a thing, "not included" / "does not cover" is a fact the checks must weigh.
    assert not is_refusal("Bed linen is not included in the weekly rate.")
    assert not is_refusal("The basic plan does not cover screen repairs.")
    # Said of the material it is a refusal.
    assert is_refusal("The listing doesn't include the floor area.")
    assert is_refusal("Opening hours aren't given in the notes I have.")
    assert is_refusal("Parking prices are not provided in the attached documents.")


def test_a_markdown_table_reads_as_one_record_per_row() -> None:
    text = ("Plans:\n| Plan | Data | Late fee |\n|---|:--:|---|\n| Basic | 5 GB | none |\n"
            "| Pro | 50 GB | 5 EUR |\nPrices include VAT.")
    assert table_records(text).splitlines() == [
        "Plans:", "Plan: Basic; Data: 5 GB; Late fee: none", "Plan: Pro; Data: 50 GB; Late fee: 5 EUR",
        "Prices include VAT."]
    assert table_records("no table here | just a pipe") == "no table here | just a pipe"


def test_the_two_sides_of_a_threshold_do_not_contradict() -> None:
    rule = "Parcels above 2 kg pay a handling charge."
    assert contradicts("Parcels under 2 kg ship free of any handling charge.", rule) == ""
    assert contradicts("If your parcel weighs 1.4 kg, handling is free.", rule) == ""
    # The same side said the other way still contradicts.
    assert contradicts("Parcels above 2 kg ship free of any handling charge.", rule) == "charg"


def test_out_of_use_says_closed() -> None:
    lift = "The north lift is out of order until Friday; use the south lift."
    assert contradicts("The north lift is open again, you can use it today.", lift) == "open"
    assert contradicts("The north lift is closed until Friday.", lift) == ""


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Any country's currency: a letter mark glued to an amount, an ISO code, a sign.
        ("a deposit of R59,560 and R38.50 a month", [(59560.0, ""), (38.5, "")]),
        ("NOK 450 a day, 1,890 CHF duty", [(450.0, "nok"), (1890.0, "chf")]),
        ("₦68,500 for the tyre, ฿350 a seat", [(68500.0, "₦"), (350.0, "฿")]),
        # A number glued to a word by a hyphen is a quantity; to capitals, an id.
        ("under-6 not admitted; form W-2", [(6.0, "")]),
        ("worker-5c2a restarted 14 times", [(14.0, "")]),
    ],
)
def test_amounts_in_any_currency_are_quantities(text: str, expected: list[tuple[float, str]]) -> None:
    assert [(q.value, q.unit) for q in quantities(text)] == expected


def test_a_currency_mark_is_no_name_and_an_id_still_is() -> None:
    terms = key_terms("Your deposit is R59,560 on quote SQ-7731.")
    assert "sq-7731" in terms and not any(t.startswith("r") for t in terms)


def test_a_percentage_applied_to_an_amount_is_derived() -> None:
    values = derived_values(quantities("₹10,200 plus 5% GST"))
    for result in (510.0, 10710.0, 9690.0):
        assert number_supported(quantities(f"₹{result:,.0f}")[0], values)


def test_a_range_end_gives_its_am_pm_to_the_start_said_with_to() -> None:
    assert clock_times("from 6:30 to 9:30 pm") == [("6:30", 18 * 60 + 30), ("9:30 pm", 21 * 60 + 30)]


def test_a_mark_shown_to_be_a_currency_marks_round_amounts_too() -> None:
    assert values("At R38.50 per unit that's R693, plus the R120 charge.") == [38.5, 693.0, 120.0]
    assert "a320" in key_terms("The A320 leaves at 9.")  # no amount: a code stays a name


def test_a_difference_of_cubic_metres_is_derived_in_litres() -> None:
    assert number_supported(quantities("18,000 litres")[0],
                            derived_values(quantities("from 394 to 412 m³")))
    assert not number_supported(quantities("12,000 litres")[0],
                                derived_values(quantities("from 394 to 412 m³")))


def test_speed_pressure_and_energy_units_convert() -> None:
    for given, said in (("6 knots", "about 11 km/h"), ("2.5 bar", "about 36 psi"),
                        ("500 kcal", "about 2,092 kJ"), ("70 mph", "about 113 km/h")):
        assert number_supported(quantities(said)[0], derived_values(quantities(given))), (given, said)
    assert not number_supported(quantities("about 20 km/h")[0], derived_values(quantities("6 knots")))


def test_mm_is_millimetres_unless_money_comes_with_it() -> None:
    assert [(q.value, q.unit) for q in quantities("a 3 mm gasket")] == [(3.0, "mm")]
    assert values("a $2mm facility") == [2e6]
    assert values("gasket mm: 3") == [3.0]  # "mm" alone is no number


def test_the_dimensions_of_one_size_share_its_unit_but_a_count_does_not() -> None:
    assert [q.unit for q in quantities("a 30 x 40 cm frame")] == ["cm", "cm"]
    assert [q.unit for q in quantities("3 x 5 kg sacks")] == ["", "kg"]


def test_a_bound_with_than_is_no_negation() -> None:
    for text in ("one bag of no more than 20 kg", "check in not later than 18:00",
                 "groups of no fewer than four"):
        assert negation_scope(text) == (frozenset(), frozenset()), text
    assert negation_scope("no refunds after 14 days")[1]


def test_an_irregular_plural_labels_its_singular_slot() -> None:
    labels = {v.text: v.labels for v in labelled_values("Adults pay €38 and children pay €24.")}
    assert stem("child") in labels["€24"]
    assert stem("people") == stem("person")


def test_continental_numbers_read_as_their_english_form() -> None:
    assert values("Beitrag 1.846,20 € und 12,5 % Rabatt; Preis 0,3120") == [1846.2, 12.5, 0.312]
    # Among such numbers a dotted group is thousands, as is any euro amount's sign-after one.
    assert values("Stehplatz | 39,50 € | 1.120 frei") == [39.5, 1120]
    assert values("Angebot 128.400 €") == [128400]
    assert values("1 234,56 € gesamt") == [1234.56]
    # English numbers stay: grouped thousands, a three-decimal value, fields a comma separates.
    assert values("sold 1,120 tickets at $3.50; 0.084 CHF") == [1120, 3.5, 0.084]
    assert values("pi is 3.142") == [3.142]
    assert 1042.12 not in values("sku,qty\n1042,12")


def test_a_decimal_with_a_capital_m_or_b_is_millions_or_billions() -> None:
    assert values("1.2M downloads") == [1.2e6]
    assert values("Apt 2B") == []


def test_dotted_and_continental_dates_are_day_first() -> None:
    assert set(dict(dates("valid from 01.04.2026"))["01.04.2026"]) == {(2026, 4, 1)}
    # A text that writes 25/03 writes 03/04 day first too; alone it may be either.
    assert set(dict(dates("paid 25/03/2026, due 03/04/2026"))["03/04/2026"]) == {(2026, 4, 3)}
    assert set(dict(dates("due 03/04/2026"))["03/04/2026"]) == {(2026, 3, 4), (2026, 4, 3)}


def test_area_and_power_units_convert() -> None:
    assert number_supported(quantities("about 150 hp")[0], derived_values(quantities("110 kW")))
    assert not number_supported(quantities("about 82 hp")[0], derived_values(quantities("110 kW")))
    assert number_supported(quantities("82,500 m²")[0], derived_values(quantities("8.25 ha")))


def test_a_plain_text_table_is_read_as_records_with_totals() -> None:
    csv = "Feld;Fläche (ha);Ertrag (t/ha)\nF-11;12,5;7,8\nF-12;8,25;3,9"
    assert delimited_records(csv).splitlines() == [
        "feld: F-11; fläche: 12.5 ha; ertrag t/ha: 7.8",
        "feld: F-12; fläche: 8.25 ha; ertrag t/ha: 3.9",
        "the feld count: 2",
        "the fläche total: 20.75 ha",
        "the ertrag t/ha total: 11.7",
    ]
    piped = "hotel | price | free cancel\nCasa | 89.00 | yes\nTejo | 245.00 | no"
    assert delimited_records(piped).splitlines()[:2] == ["hotel: Casa; price: 89.00; free cancel: yes",
                                                         "hotel: Tejo; price: 245.00; free cancel: no"]
    # A JSON output, or a text with no header over like rows, is left as it is.
    assert delimited_records('{"a": 1}') == '{"a": 1}'
    assert delimited_records("one; two\nthree") == "one; two\nthree"
