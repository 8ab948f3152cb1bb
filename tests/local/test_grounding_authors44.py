"""HALLUCINATION on causes read from blind43 (education and student services), blind44
(retail banking and payments), blind43b (property management) and blind44b (utilities),
each tested in a domain of its own here. False alarms: a total worked out by adding and
taking away listed figures, or by averaging them, read as a wrong sum; a yes/no key whose
predicate a preposition qualifies ("rental_included_in_total": false) negated at its last
noun; a clock time told in a zone half an hour off the hour; a span of bare 24-hour hours
("22–07"), and a zone's offset ("UTC+3:30") read as a clock time; a ledger's credit written with a minus read as another row's amount; the noun
"offer" read as offering what follows; a Slavic or Romanian word for million. Recall: a
wrong sum, an unconverted time and an invented offer are still caught."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed
from semloop.judge.local._claims import hour_range_times, quantities
from semloop.judge.local._offers import _offered_items
from semloop.judge.local._records import _stated

from .conftest import found

_AWARD = {"award_period": "2026-11-08 to 2026-12-07", "standard_allowance": 400.14,
          "housing_element": 650.00, "deduction_advance": 66.69, "payment_due": "2026-12-14"}


def test_a_payment_worked_out_by_adding_and_taking_away_is_no_wrong_sum(embed: Embed) -> None:
    told = ("Your payment on 14 December should be £983.45: the £400.14 standard allowance plus "
            "£650.00 housing element, minus £66.69 to repay your advance.")
    assert found(embed, "How much will I get?", told, tool=_AWARD).get("bound", 0) == 0


def test_a_total_its_listed_parts_do_not_give_is_still_a_wrong_sum(embed: Embed) -> None:
    told = "Your payment is £1,140.00 in total: £400.14 standard allowance plus £650.00 housing element."
    assert found(embed, "How much will I get?", told, tool=_AWARD).get("bound", 0) > 0


def test_a_key_whose_predicate_a_preposition_qualifies_is_negated_at_the_predicate() -> None:
    assert _stated("rental included in total: False") == "rental not included in total"
    assert _stated("fee_waived_for_students: false") == "fee not waived for students"
    assert _stated("accepting_new_patients: false") == "not accepting new patients"


def test_a_charge_said_not_included_agrees_with_included_false(embed: Embed) -> None:
    fees = {"txn_count": 940, "fees": {"total": 88.10}, "meter_rental": 6.50, "rental_included_in_total": False}
    told = "The meter rental of €6.50 is billed separately and isn't included in the €88.10 total."
    assert found(embed, "Is the rental in the total?", told, tool=fees).get("negation", 0) == 0


def test_a_time_in_a_half_hour_zone_is_the_utc_time_converted(embed: Embed) -> None:
    exam = '{"exam": "MATH 140 final", "opens": "2026-12-14T02:00:00Z"}'
    told = "The exam opens at 05:30 on 14 December in Tehran (UTC+3:30)."
    assert found(embed, "When does my exam open?", told, tool=exam).get("numbers", 0) == 0


def test_a_time_no_offset_gives_is_still_caught(embed: Embed) -> None:
    exam = '{"exam": "MATH 140 final", "opens": "2026-12-14T02:00:00Z"}'
    told = "The exam opens at 05:45 on 14 December in Tehran (UTC+3:30)."
    assert found(embed, "When does my exam open?", told, tool=exam).get("numbers", 0) > 0


def test_a_span_of_bare_24_hour_hours_gives_its_clock_times() -> None:
    assert hour_range_times("Ruhezeiten: 22–06.") == [1320, 360]
    assert hour_range_times("Delivery in 10-12 business days") == []
    assert hour_range_times("due 2026-12-06") == []


def test_quiet_hours_told_as_clock_times_of_a_bare_hour_span(embed: Embed) -> None:
    rules = "House rules: guests max 2 nights. Quiet hours: 23–06."
    told = "Quiet hours run from 23:00 to 06:00."
    assert found(embed, "When are quiet hours?", told, tool=rules).get("numbers", 0) == 0


def test_a_credit_written_with_a_minus_is_the_rows_amount(embed: Embed) -> None:
    ledger = ("DATE        TYPE    ITEM          AMOUNT  BAL\n"
              "2026-10-02  CHARGE  Gym locker     12.50   12.50\n"
              "2026-10-02  CHARGE  Towel hire      4.00   16.50\n"
              "2026-10-09  REFUND  Locker broken  -16.50   0.00")
    told = "The £16.50 you were charged was refunded on 9 October, so you owe nothing."
    assert found(embed, "Do I owe anything?", told, tool=ledger).get("bound", 0) == 0


def test_the_noun_offer_offers_nothing() -> None:
    assert _offered_items("Offer summary for Kai Lund: room 2.11, Birch House.") == []
    assert _offered_items("Your offer letter arrives on Monday.") == []
    assert set(_offered_items("The hall offers free laundry and a gym.")) == {"laundry", "gym"}


def test_a_slavic_or_romanian_word_for_million_scales_the_amount() -> None:
    assert [q.value for q in quantities("ukupno 12,4 miliona dinara")] == [12_400_000.0]
    assert [q.value for q in quantities("în total 3 milioane lei")] == [3_000_000.0]


def test_a_zero_has_no_sign_so_it_still_names_its_row(embed: Embed) -> None:
    # A minus copy of 0 is 0 itself: reading it as a signed credit left every zero unread.
    plans = {"plans": [{"plan": "Starter", "monthly_fee": 0, "minutes": 100},
                       {"plan": "Plus", "monthly_fee": 12, "minutes": 500},
                       {"plan": "Max", "monthly_fee": 25, "minutes": 2000}]}
    told = "The Starter plan is 0 a month and includes 500 minutes."
    assert found(embed, "Which plan is free?", told, tool=plans).get("bound", 0) == 1
