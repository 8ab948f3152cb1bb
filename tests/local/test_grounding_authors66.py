"""HALLUCINATION on false alarms of blind66 … blind68b (opened this round), each tested in a
domain of its own here. Figures worked out that the checks did not derive: a finish time
worked out past noon, said without pm ("done around 1:30"); the change of a thing read twice,
in two lists (a tank's level at baseline and now), and a column's total stated as the operand
of the next step; cubic feet and metres a second converted, and a unit's definition ("1 cu ft ≈
0.0283 m³"); a number grouped by a space with its cents ("1 935.00"), a weight at the
evidence's price per kilo; a date inside a file's name; "that leaves 7.5 days"; the rest
past an allowance ("the remaining 20,000 calls"), which no digit slip of the allowance
explains; an amount under another dollar's sign (TT$); a bare hour, a weekday and a month in
a claim whose language the rules do not read; a price compared with the result of its
working ("cheaper than 6 × £9 = £54"); a count times a price added on ("€40.00 now; three
more at €12 bring it to €76.00"); an evidence rate applied to an amount an earlier line
worked out, and a total of the lines before it. Recall: each check still catches the wrong
figure beside it, and another row's rate on the request's own amount."""

from __future__ import annotations

from semloop.case import RunCase
from semloop.judge.local._answerer import Embed
from semloop.judge.local._grounding import answer_hallucination

from .conftest import call, found


def test_a_worked_finish_time_past_noon(embed: Embed) -> None:
    job = {"job": "PL-118", "start": "11:00", "est_hours": 2.5, "status": "booked"}
    q = "Will the plumber be gone before my 2pm call?"
    said = "He starts at 11am and the job is estimated at 2.5 hours, so he'd be done around {}."
    assert found(embed, q, said.format("1:30"), tool=job).get("numbers", 0) == 0
    assert found(embed, q, said.format("2:45"), tool=job).get("numbers", 0) >= 1


_TANKS = {"site": "Depot 4", "baseline": [{"tank": "TK-1", "litres": 500.0}, {"tank": "TK-2", "litres": 480.0},
                                          {"tank": "TK-3", "litres": 320.0}],
          "now": [{"tank": "TK-1", "litres": 470.5}, {"tank": "TK-2", "litres": 455.0}, {"tank": "TK-3", "litres": 301.0}]}


def test_a_change_between_two_readings(embed: Embed) -> None:
    q = "How much diesel did each tank lose since the baseline?"
    said = "TK-1 lost the most ({} litres), TK-2 lost 25.0 litres."
    assert found(embed, q, said.format("29.5"), tool=_TANKS).get("numbers", 0) == 0
    assert found(embed, q, said.format("31.5"), tool=_TANKS).get("numbers", 0) >= 1


def test_a_column_total_is_an_operand(embed: Embed) -> None:
    q = "How much diesel is gone across the three tanks?"
    said = "The tanks held 1,300.0 litres at baseline and hold 1,226.5 litres now. That's {} litres used."
    assert found(embed, q, said.format("73.5"), tool=_TANKS).get("numbers", 0) == 0
    assert found(embed, q, said.format("83.5"), tool=_TANKS).get("numbers", 0) >= 1


def test_cubic_feet_and_a_unit_defined(embed: Embed) -> None:
    units = "Storage units: small 5 m³, medium 10 m³, large 15 m³ (inside volume)."
    q = "My things take up 250 cubic feet. Which unit do I need?"
    said = "250 cu ft is about {} m³ (1 cu ft ≈ 0.0283 m³), so the medium unit will do."
    assert found(embed, q, said.format("7.1"), units).get("numbers", 0) == 0
    assert found(embed, q, said.format("8.4"), units).get("numbers", 0) >= 1


def test_a_wind_speed_in_metres_a_second(embed: Embed) -> None:
    forecast = {"spot": "Lake Berg", "hourly": [{"t": "09:00", "wind_ms": 8.5}, {"t": "12:00", "wind_ms": 6.0}]}
    q = "What's the wind for the regatta tomorrow morning, in km/h?"
    said = "At 09:00 it's about {} km/h, easing to roughly 22 km/h by noon."
    assert found(embed, q, said.format("31"), tool=forecast).get("numbers", 0) == 0
    assert found(embed, q, said.format("41"), tool=forecast).get("numbers", 0) >= 1


def test_a_spaced_amount_with_cents_at_a_price_per_kilo(embed: Embed) -> None:
    price = call("maize_price", {"market": "Gikomba"}, {"item": "maize flour", "price_kes_per_kg": 64.5})
    q = "Unga wa mahindi ni bei gani leo? Nataka 30 kg."

    def value(total: str) -> float:
        said = f"Leo unga wa mahindi ni KES 64.50 kwa kilo. Kwa 30 kg utalipa KES {total} jumla."
        run = RunCase(id="probe", input=q, output=said, context=(), tools_called=(price,))
        return answer_hallucination(run, embed).value

    assert value("1 935.00") < 0.5
    assert value("1 985.00") >= 0.5


def test_a_date_inside_a_file_name(embed: Embed) -> None:
    files = {"items": [{"file": "SURV_20230914_A", "status": "ok"}, {"file": "SURV_20230921_B", "status": "corrupt"}]}
    q = "Which of September's survey files can we use?"
    said = "Only SURV_20230914_A from 14 September is usable; the one from {} September is corrupt."
    assert found(embed, q, said.format("21"), tool=files).get("numbers", 0) == 0
    assert found(embed, q, said.format("23"), tool=files).get("numbers", 0) >= 1


def test_what_an_allowance_leaves(embed: Embed) -> None:
    policy = "Annual leave 2024: 25.0 days for full-time staff; up to 5 days carry over."
    taken = {"employee": "E-2231", "taken_days": 17.5}
    q = "How much leave do I have left this year?"
    said = "Against the 25.0-day allowance that leaves {} days."
    assert found(embed, q, said.format("7.5"), policy, tool=taken).get("numbers", 0) == 0
    assert found(embed, q, said.format("8.5"), policy, tool=taken).get("numbers", 0) >= 1


def test_the_rest_past_an_allowance(embed: Embed) -> None:
    plan = "Growth plan: $99 a month, 50,000 calls included; extra calls $2 per 1,000."
    q = "We expect about 70,000 calls in March. What will we pay?"
    said = "The remaining {} calls are billed at $2 per 1,000, which is {}."
    assert found(embed, q, said.format("20,000", "$40"), plan).get("numbers", 0) == 0
    assert found(embed, q, said.format("21,000", "$42"), plan).get("numbers", 0) >= 1


def test_another_dollar_under_its_sign(embed: Embed) -> None:
    permit = {"permit": "FP-330", "fee_ttd": 150.0, "paid": False}
    q = "How much is my fishing permit?"
    assert found(embed, q, "The permit fee is TT$150, not yet paid.", tool=permit).get("numbers", 0) == 0
    assert found(embed, q, "The permit fee is TT$180, not yet paid.", tool=permit).get("numbers", 0) >= 1


def test_an_hour_and_a_date_in_words_not_read(embed: Embed) -> None:
    visit = {"ticket": "TK-5521", "date": "2024-11-14", "window": "09:00-13:00", "technician": "Budi"}
    q = "Kapan teknisi datang?"
    said = "Teknisi Budi datang Kamis, 14 November, antara jam {} pagi dan jam 1 siang."
    ok = found(embed, q, said.format("9"), tool=visit)
    assert ok.get("numbers", 0) == 0 and ok.get("names", 0) == 0
    assert found(embed, q, said.format("10"), tool=visit).get("numbers", 0) >= 1


def test_a_price_compared_with_its_working(embed: Embed) -> None:
    rates = "Bike hire: £9 per hour or £40 per day, whichever is cheaper."
    q = "How much to hire a bike for 6 hours?"
    assert found(embed, q, "You pay the day rate of £40 (cheaper than 6 × £9 = £54).", rates).get("bound", 0) == 0
    assert found(embed, q, "You pay the day rate of £40 (cheaper than 4 × £9 = £36).", rates).get("bound", 0) >= 1


def test_a_count_times_a_price_added_on(embed: Embed) -> None:
    terms = "Free delivery on orders of €75 or more."
    basket = {"items": [{"item": "candle", "qty": 1, "price": 12.0}, {"item": "vase", "qty": 1, "price": 28.0}],
              "subtotal": 40.0}
    q = "If I add three more candles, is delivery free?"
    said = "Yes. Your basket is €40.00 now; three more candles at €12 bring it to {}, over the €75 minimum."
    assert found(embed, q, said.format("€76.00"), terms, tool=basket).get("numbers", 0) == 0
    assert found(embed, q, said.format("€81.00"), terms, tool=basket).get("numbers", 0) >= 1


def test_a_rate_applied_to_an_earlier_line(embed: Embed) -> None:
    fees = "Tutoring: $40.00 per hour. Weekend sessions: +15% on tutoring hours only. Materials: $8 per workbook."
    q = "Quote for 6 hours of weekend tutoring plus 2 workbooks?"
    said = "Tutoring: 6 hours × $40 = $240.00.\nWeekend surcharge (15% on tutoring only): {}"
    assert found(embed, q, said.format("$36.00"), fees).get("numbers", 0) == 0
    assert found(embed, q, said.format("$38.00"), fees).get("numbers", 0) >= 1


def test_a_total_of_the_lines_before_it(embed: Embed) -> None:
    fees = "Dog grooming: $30.00 per hour. Nail trim: $9 per dog. Bath: $15 per dog. Half the fee is paid when booking."
    q = "What's the price for 2 hours of grooming, 2 nail trims and a bath, and what do I pay now?"
    said = ("Grooming: 2 hours × $30 = $60.00\nNail trims: 2 × $9 = $18.00\nBath: $15.00\nTotal: $93.00.\n"
            "Half of it, $46.50, is paid when you book and the remaining {} at pick-up.")
    assert found(embed, q, said.format("$46.50"), fees).get("numbers", 0) == 0
    assert found(embed, q, said.format("$48.50"), fees).get("numbers", 0) >= 1


def test_another_rows_rate_on_the_requests_amount(embed: Embed) -> None:
    rules = "Service charge: 12% on food, 5% on drinks."
    q = "Our food bill came to $180. What is the service charge?"
    # The drinks' rate on the request's own amount, stated a line before: the wrong row's,
    # which an earlier line's amount that the answer worked out would not hide.
    said = "For a food bill of $180.00:\nService charge on food (5%): $9.00"
    assert found(embed, q, said, rules).get("numbers", 0) >= 1
