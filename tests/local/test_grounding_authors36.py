"""HALLUCINATION on causes read from blind35 (and earlier sets), each in a domain of its own
here: an amount in Indian digit grouping ("₹1,85,000") said in lakh; a zone said as its
offset from UTC ("GMT+7") beside the place a time is told in; a person named in a role
that their line's own role field gives to another; a change told from the later period's
value to the earlier one's; a count found inside a longer id before it; a deed told done
of an item whose own call failed while the same call worked for another; and a result the
claim works out that its own figures do not give."""

from __future__ import annotations

from semloop.case import ToolCall
from semloop.judge.local._answerer import Embed

from .conftest import found


def test_indian_digit_grouping_is_read_whole() -> None:
    from semloop.judge.local._claims import quantities

    assert [q.value for q in quantities("Fee: ₹12,50,000 due")] == [1250000.0]
    assert [q.value for q in quantities("Fee: 1,250,000 due")] == [1250000.0]


def test_an_amount_in_lakh_matches_its_indian_grouped_figure(embed: Embed) -> None:
    mail = "Stamp duty for plot 14 comes to ₹3,40,000, payable by 20 January."
    assert found(embed, "duty?", "Stamp duty for plot 14 is ₹3.4 lakh, due by 20 January.",
                 context=mail).get("numbers", 0) == 0
    assert found(embed, "duty?", "Stamp duty for plot 14 is ₹4.3 lakh, due by 20 January.",
                 context=mail)["numbers"] >= 1


def test_a_zone_said_as_its_utc_offset_is_the_contexts_zone(embed: Embed) -> None:
    slot = {"ref": "TR-88", "date": "2026-02-03", "start": "09:00", "tz": "Asia/Bangkok"}
    told = "Tour TR-88 starts 09:00 on 3 February in Bangkok (GMT+7)."
    assert found(embed, "when?", told, tool=slot).get("numbers", 0) == 0
    assert found(embed, "when?", told.replace("GMT+7", "GMT+9"), tool=slot)["numbers"] >= 1


def test_a_role_given_as_a_field_of_the_persons_line_is_theirs(embed: Embed) -> None:
    job = {"job": "RF-12", "crew": [{"role": "foreman", "name": "Dario Conti"},
                                    {"role": "roofer", "name": "Ewa Nowak"}]}
    assert found(embed, "who?", "The foreman on job RF-12 is Ewa Nowak.", tool=job)["bound"] == 1
    assert found(embed, "who?", "The foreman on job RF-12 is Dario Conti.", tool=job).get("bound", 0) == 0


def test_a_change_told_from_the_later_periods_value_is_reversed(embed: Embed) -> None:
    rows = ("| depot | period | late_pct |\n|---|---|---|\n| Ostrava | 2025 H1 | 4.2 |\n"
            "| Ostrava | 2025 H2 | 5.9 |")
    assert found(embed, "late deliveries?", "Ostrava's late share fell from 5.9% to 4.2%.",
                 tool=rows)["bound"] == 1
    assert found(embed, "late deliveries?", "Ostrava's late share rose from 4.2% to 5.9%.",
                 tool=rows).get("bound", 0) == 0


def test_a_count_is_not_read_inside_an_id_before_it(embed: Embed) -> None:
    visits = {"patient_id": 30417, "room": 4, "visits": [{"date": "2026-01-05", "kind": "checkup"},
                                              {"date": "2026-02-09", "kind": "checkup"},
                                              {"date": "2026-03-02", "kind": "checkup"}]}
    assert found(embed, "how many?", "Patient 30417 had 4 visits this quarter.", tool=visits)["bound"] == 1
    assert found(embed, "how many?", "Patient 30417 had 3 visits this quarter.",
                 tool=visits).get("bound", 0) == 0


def test_a_deed_told_done_of_the_item_whose_call_failed(embed: Embed) -> None:
    seats = ToolCall(name="seats.list", args={"trip": "T9"}, success=True,
                     output='{"seats": [{"seat": "12A", "passenger": "Hana Ito"}, {"seat": "12B", "passenger": "Kenji Ito"}]}')
    ok = ToolCall(name="seats.upgrade", args={"seat": "12A"}, success=True, output='{"seat": "12A", "class": "premium"}')
    bad = ToolCall(name="seats.upgrade", args={"seat": "12B"}, success=True,
                   output='{"error": {"code": 409, "message": "no premium seats left"}}')
    calls = (seats, ok, bad)
    assert found(embed, "upgrade us", "Both seats are upgraded to premium.", calls=calls)["offered"] == 1
    assert found(embed, "upgrade us", "Kenji Ito is upgraded too.", calls=calls)["offered"] == 1
    assert found(embed, "upgrade us", "Hana Ito is upgraded to premium; Kenji Ito's upgrade failed.",
                 calls=calls).get("offered", 0) == 0


def test_a_result_its_own_figures_do_not_give_is_misworked(embed: Embed) -> None:
    bill = {"job": "PL-4", "labour_eur": 640.0, "parts_eur": 215.0, "discount_pct": 10}
    told = "Labour €640 plus parts €215, less the 10% discount, so that's €{}."
    assert found(embed, "total?", told.format("789.50"), tool=bill)["bound"] == 1
    assert found(embed, "total?", told.format("769.50"), tool=bill).get("bound", 0) == 0


def test_a_time_told_in_the_contexts_own_zone_is_not_shifted_by_hours(embed: Embed) -> None:
    slot = {"ref": "KY-3", "date": "2026-04-11", "start": "14:15", "tz": "Asia/Tokyo"}
    assert found(embed, "when?", "Your KY-3 session is at 13:15 local time (GMT+9) on 11 April.",
                 tool=slot)["numbers"] >= 1
    assert found(embed, "when?", "Your KY-3 session is at 14:15 local time (GMT+9) on 11 April.",
                 tool=slot).get("numbers", 0) == 0
    # Told in another zone, the same minutes some hours away are that zone's time.
    assert found(embed, "when in London?", "That's 06:15 London time on 11 April.", tool=slot).get("numbers", 0) == 0
    # A UTC instant is rightly converted into the zone, some hours on.
    instant = {"ref": "KY-4", "start_utc": "2026-04-11T05:15:00Z", "tz": "Asia/Tokyo"}
    assert found(embed, "when?", "Your KY-4 session is at 14:15 local time on 11 April (05:15 UTC).",
                 tool=instant).get("numbers", 0) == 0


def test_a_cycle_that_resets_starts_the_day_after_it_ends(embed: Embed) -> None:
    plan = {"member": "GY-20", "classes_left": 3, "cycle_end": "2026-08-31"}
    assert found(embed, "when?", "You have 3 classes left; your pass resets on 1 September.",
                 tool=plan).get("numbers", 0) == 0
    assert found(embed, "when?", "You have 3 classes left; your pass resets on 4 September.",
                 tool=plan)["numbers"] >= 1


def test_the_unit_a_rate_is_paid_by_names_no_column(embed: Embed) -> None:
    bill = {"lines": [{"desc": "energy", "kwh": 380, "rate": 0.29, "amount": 110.2}]}
    assert found(embed, "why?", "At 0.29 €/kWh your energy came to 110.20 €.", tool=bill).get("bound", 0) == 0


def test_a_cause_read_off_two_records_in_their_direction_is_worked_out(embed: Embed) -> None:
    months = "period,litres\n2026-05,912\n2026-06,1240"
    told = "June's fuel bill is higher because consumption went up: 1240 litres vs 912 litres in May."
    assert found(embed, "why?", told, tool=months).get("cause", 0) == 0
    assert found(embed, "why?", told.replace("went up", "went down"), tool=months)["cause"] == 1
