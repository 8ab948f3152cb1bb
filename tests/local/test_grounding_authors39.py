"""HALLUCINATION on causes read from blind38, each in a domain of its own here: a printed
table's numbers grouped by spaces, the SI way ("281 344"); a text that groups some numbers
by dots (8.500.000) and writes others of one group (950.000), and a row whose one pipe at
its end closes an empty cell; a month's length in minutes as the base of an uptime; and an
iCalendar event's property names (DTEND), which are keys, not names the text gives."""

from __future__ import annotations

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
