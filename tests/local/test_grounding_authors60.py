"""HALLUCINATION on false alarms of blind60 … blind62b (opened this round), each tested in a
domain of its own here. Negation: "not before X" makes X a condition and denies nothing;
two texts that each allow an act only from some point on ("can't be renewed until",
"no sooner than") state one rule. Figures: a number parted by spaces ("15 000") that the
evidence gives whole; a currency's letter glued to an amount ("R38,640.00") is no code; a
measure in seconds told in minutes and seconds; a rule's working written on a named
amount ("weekly × 52 ÷ 12"); hours said bare in the request ("at 12 and 5"); the step
after a record's ("reach level 8" of "level: 7"); a period's length beside the period ("52
weeks" in a year) and a figure carried over it; the day of a date in a month's name the
rules do not read. Causes: what may bring a thing about in general ("it can happen when")
is no cause asserted. Recall: each check still catches the wrong figure beside it."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed
from semloop.judge.local._claims import contradicts, key_terms, negation_scope, spoken_hours

from .conftest import call, found


def test_not_before_makes_a_condition() -> None:
    rule = "No permit may be issued until the survey is lodged, and not before the harbour master has signed it."
    assert "harbour" not in negation_scope(rule)[0]
    assert contradicts("The harbour master must sign the survey first.", rule, 1) == ""
    # A plain denial of the signing is still read.
    assert contradicts("The harbour master signs the survey.", "The harbour master does not sign the survey.", 1)


def test_two_texts_allowing_an_act_only_from_a_point_on() -> None:
    rule = "A lapsed licence may be renewed no sooner than 60 days after the suspension ends."
    said = "You can't renew the licence until 60 days after the suspension ends."
    assert contradicts(said, rule, 1) == ""
    # Allowed at any time against a bar until a point: still a contradiction.
    assert contradicts("You cannot renew the licence while suspended.",
                       "A licence may be renewed at any time while suspended.", 1)


def test_a_number_parted_by_spaces(embed: Embed) -> None:
    record = {"grant": "GR-5531", "approved_sek": 42000, "paid": 0}
    assert found(embed, "Hur mycket?", "Bidraget GR-5531 är 42 000 kronor.", tool=record).get("numbers", 0) == 0
    assert found(embed, "Hur mycket?", "Bidraget GR-5531 är 47 000 kronor.", tool=record).get("numbers", 0) >= 1


def test_a_currency_letter_glued_to_an_amount_is_no_code(embed: Embed) -> None:
    assert key_terms("Your refund comes to K12,480.50 this month.") == frozenset()
    assert "k12" in key_terms("Your part number is K12 for the valve.")
    record = {"member": "MW-2210", "refund_mwk": 12480.5}
    got = found(embed, "Refund?", "Member MW-2210, your refund comes to K12,480.50.", tool=record)
    assert got.get("names", 0) == 0


def test_a_measure_in_seconds_told_in_minutes(embed: Embed) -> None:
    record = {"race": "R-12", "elapsed_seconds": 1530, "laps": 40}
    assert found(embed, "How long was the race?", "The race took 25 minutes 30 seconds over 40 laps.",
                 tool=record).get("numbers", 0) == 0
    assert found(embed, "How long was the race?", "The race took 27 minutes 30 seconds over 40 laps.",
                 tool=record).get("numbers", 0) >= 1


def test_a_rule_worked_on_a_named_amount(embed: Embed) -> None:
    doc = "Berth fees: 42.50 GBP per night. Monthly berths are billed as nightly rate × 365 ÷ 12."
    said = "The nightly rate is 42.50 GBP; billed as nightly × 365 ÷ 12, that comes to 1,292.71 GBP a month."
    assert found(embed, "Monthly berth cost?", said, context=doc).get("numbers", 0) == 0
    wrong = "The nightly rate is 42.50 GBP; billed as nightly × 365 ÷ 12, that comes to 1,329.17 GBP a month."
    assert found(embed, "Monthly berth cost?", wrong, context=doc).get("numbers", 0) >= 1


def test_hours_said_bare_in_the_request(embed: Embed) -> None:
    assert spoken_hours("lessons at 9 and 4 on Friday") == [540, 1260, 240, 960]
    assert spoken_hours("a loan at 5% for 3 years") == []
    assert spoken_hours("rated at 3 of 5 stars") == []
    log = {"notice": "received", "time": "08:40", "policy": "cancel before 09:00: no fee"}
    ask = "My son is ill, please cancel his lessons at 9 and 4 today."
    said = "Your notice came in at 08:40, so there's no fee for the 09:00 and 16:00 lessons."
    assert found(embed, ask, said, tool=log).get("numbers", 0) == 0
    said = "Your notice came in at 08:40, so there's no fee for the 09:00 and 15:00 lessons."
    assert found(embed, ask, said, tool=log).get("numbers", 0) >= 1


def test_the_step_after_a_records(embed: Embed) -> None:
    record = {"pupil": "Ana", "grade_current": 4, "grade_max": 8, "points_to_next": 120}
    said = "You need 120 more points to reach grade 5."
    assert found(embed, "How far to the next grade?", said, tool=record).get("numbers", 0) == 0
    said = "You need 120 more points to reach grade 6."
    assert found(embed, "How far to the next grade?", said, tool=record).get("numbers", 0) >= 1


def test_a_period_length_and_a_figure_carried_over_it(embed: Embed) -> None:
    calls = (call("get_fee", {"home": "Larch House"}, {"home": "Larch House", "weekly_fee_gbp": 940.0}),
             call("get_rate", {"pair": "GBP/EUR"}, {"pair": "GBP/EUR", "rate": 1.16}))
    said = "Larch House is £940 a week. At today's rate of 1.16 that's about €1,090 a week, so €56,680 a year over 52 weeks."
    assert found(embed, "Yearly cost in euros?", said, calls=calls).get("numbers", 0) == 0
    said = "Larch House is £940 a week. At today's rate of 1.16 that's about €1,090 a week, so €58,680 a year over 52 weeks."
    assert found(embed, "Yearly cost in euros?", said, calls=calls).get("numbers", 0) >= 1


def test_a_possible_cause_in_general_is_no_cause(embed: Embed) -> None:
    record = {"file": "scan_0412.tif", "valid": False, "error": "DPI_BELOW_MINIMUM", "dpi": 150, "min_dpi": 300}
    said = ("The scan was rejected because it is 150 dpi and the minimum is 300 dpi; since it can happen when a "
            "phone app compresses the image, rescan it on a flatbed.")
    assert found(embed, "Why was my scan rejected?", said, tool=record).get("cause", 0) == 0
    said = "The scan was rejected because the archive's licence server expired overnight."
    assert found(embed, "Why was my scan rejected?", said, tool=record).get("cause", 0) == 1
