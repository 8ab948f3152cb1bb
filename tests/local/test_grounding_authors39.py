"""HALLUCINATION on causes read from blind38, each in a domain of its own here: a printed
table's numbers grouped by spaces, the SI way ("281 344"); a text that groups some numbers
by dots (8.500.000) and writes others of one group (950.000), and a row whose one pipe at
its end closes an empty cell; a month's length in minutes as the base of an uptime; and an
iCalendar event's property names (DTEND), which are keys, not names the text gives. From
blind38b: an amount grouped by spaces in prose where money marks it ("4 600 kr", "2 180 ₽"),
and the gap between two zones' clocks given as the reason of a converted time. Recall, from
blind38: a date said of an event the record leaves undated, which is another field's; and a
thing said within a cover's bound whose own figure the claim gives past it."""

from __future__ import annotations

from semloop.case import ToolCall
from semloop.judge.local._answerer import Embed

from .conftest import found


def test_a_table_cell_grouped_by_spaces_is_one_number(embed: Embed) -> None:
    harvest = ("farm | tonnes | organic_tonnes\n------+---------+---------------\n"
               "North | 12 480 | 3 115\nSouth | 9 905 | 1 870\n(2 rows)")
    told = "About 22.4k tonnes were harvested in total: roughly 12.5k at North and 9.9k at South."
    assert found(embed, "How much did the farms harvest?", told, tool=harvest).get("numbers", 0) == 0


def test_dot_grouped_amounts_and_an_empty_last_cell_are_read_as_the_table_gives_them(embed: Embed) -> None:
    fees = ("Student         | Tuition (CLP) | Lab (CLP) | Paid\n"
            "C. Rojas        | 1.250.000     | 400.000   |\n"
            "F. Muñoz        | 1.250.000     | 350.000   |\n"
            "J. Soto         | 1.100.000     | 400.000   |")
    told = "The three students owe CLP 4,750,000 in all: tuition CLP 3,600,000 plus lab fees CLP 1,150,000."
    assert found(embed, "What do the students owe?", told, tool=fees).get("numbers", 0) == 0


def test_a_months_length_in_minutes_is_the_base_of_an_uptime(embed: Embed) -> None:
    outages = "service | month | downtime_min\napi | 2025-06 | 30\napi | 2025-06 | 42\n(2 rows)"
    told = "June had 43,200 minutes and the API was down for 72 of them, so uptime was about 99.83%."
    assert found(embed, "What was the API's uptime in June?", told, tool=outages).get("numbers", 0) == 0


def test_an_icalendar_events_property_names_are_keys(embed: Embed) -> None:
    event = ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:gmp-q2-2025@plantops\nSUMMARY:GMP quarterly audit - LOT-5520\n"
             "DTSTART:20250613T080000Z\nDTEND:20250613T090000Z\nLOCATION:Zoom\nEND:VEVENT\nEND:VCALENDAR")
    told = "The GMP walkthrough is on Friday 13 June at 10:00 Paris time (08:00 UTC), lasting one hour."
    assert found(embed, "What time in Paris is the GMP audit?", told, tool=event).get("bound", 0) == 0


def test_an_amount_grouped_by_spaces_where_money_marks_it_is_one_number(embed: Embed) -> None:
    printed = "kategori\nHyra          9850.00\nEl             612.40\nName: belopp, dtype: float64\n10462.40"
    told = "Housing costs you about 10 460 kr a month: 9 850 kr rent and roughly 610 kr for electricity."
    assert found(embed, "What does my housing cost a month?", told, tool=printed).get("numbers", 0) == 0


def test_the_gap_between_two_zones_clocks_is_the_working_of_a_converted_time(embed: Embed) -> None:
    booked = ToolCall(name="create_event", args={"title": "Supplier call (Berlin) - New York office",
                                                   "start": "2024-07-02T16:00:00-04:00", "end": "2024-07-02T16:45:00-04:00"},
                      output='{"status": "created", "start": "2024-07-02T16:00:00-04:00"}', success=True)
    told = "For him in Berlin that's 22:00-22:45, since Berlin is 6 hours ahead of New York in summer."
    assert found(embed, "What time is the call for him?", told, calls=(booked,)).get("cause", 0) == 0
    assert found(embed, "What time is the call for him?", told, calls=(booked,)).get("numbers", 0) == 0


def test_a_date_said_of_an_event_the_record_leaves_undated(embed: Embed) -> None:
    member = {"member": "M-2231", "name": "Lotte Visser", "joined": "2022-09-01",
              "contract_end": "2025-08-31", "cancelled_on": None, "plan": "Off-peak"}
    told = "Lotte Visser cancelled her membership on 31 August 2025."
    assert found(embed, "When did Lotte cancel?", told, tool=member)["bound"] >= 1
    kept = "Lotte Visser's contract ends on 31 August 2025; she hasn't cancelled."
    assert found(embed, "When did Lotte cancel?", kept, tool=member).get("bound", 0) == 0


def test_a_thing_said_within_a_bound_its_own_figure_passes(embed: Embed) -> None:
    boiler = {"serial": "VB-88120", "installed": "2019-03-02", "burner_hours": 21400,
              "warranty": {"years": 7, "burner_hours": 20000}}
    told = "It's within the 7-year / 20,000 hour warranty (21,400 hours on the burner), so the repair is free."
    assert found(embed, "Is the boiler repair covered?", told, tool=boiler)["bound"] >= 1
    inside = told.replace("21,400 hours", "18,400 hours")
    assert found(embed, "Is the boiler repair covered?", inside, tool={**boiler, "burner_hours": 18400}).get("bound", 0) == 0
