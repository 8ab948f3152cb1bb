"""TASK_UNDERSTANDING_FAILURE on false alarms of blind63 … blind65b (opened this round),
each tested in a domain of its own here: a document's first line that names an event with
its date and place is its title; the asked record's word written in a hyphened compound
("large-dog") is said; a record looked up by the id the user gave holds its items, and
its id field is the record, no part beside the others; the asked act said by its irregular
past ("sold") is said; a person whose record holds the place the request names is the
user, no sibling acted on. A catch: the answer read another column of a table than the one
the request names, a record told by a sum only it holds, and the act done on another
record of the list than the one the request names (once caught as the looked-up id
"substituted"). Recall: a first line of figures is no title, another record told
by its own things, the other side of a trade, and another person read are still caught."""

from __future__ import annotations

from semloop.case import RunCase
from semloop.judge.local._answerer import Embed
from semloop.judge.local._understanding import (
    _acted_on,
    _column_swap,
    _key_swap,
    _opposite,
    _record_acted,
    _record_swap,
    _substitutes,
    _title_line,
)

from .conftest import call, case, understanding


def test_an_event_line_with_its_date_is_a_title(embed: Embed) -> None:
    notice = ("Lakeside Quilt Show — Saturday 12 October 2024, Lakeside Town Hall.\n"
              "Vendor stalls: £60 (single), £110 (corner). Vendor load-in from 06:30; doors open 10:00. "
              "Tea room on site.")
    assert _title_line(notice)[0].startswith("Lakeside Quilt Show")
    assert _title_line("Stalls: £60 single, £110 corner\nLoad-in from 06:30.")[0] == ""
    assert _title_line("The winter rate applies to every booking made on or after 1 November 2025.\n"
                       "Winter rate: £40 a night.")[0] == ""
    run = RunCase(id="probe", input="For the Lakeside quilt show, how much is a vendor stall and when is load-in?",
                  output="A stall is £60, or £110 for a corner, and vendors can load in from 6:30 (doors at 10).",
                  context=(notice,))
    assert understanding(run, embed) < 0.5


_KENNEL = call("get_rates", {"site": "north"},
               {"site": "Paws Lodge North", "rates": [{"name": "Boarding – small dog", "price": 28},
                                                      {"name": "Boarding – large dog", "price": 36},
                                                      {"name": "Nail clip", "price": 12},
                                                      {"name": "Bath add-on", "price": 15}]})


def test_the_asked_word_in_a_compound_is_said() -> None:
    run = case("What does boarding cost at Paws Lodge North for a large dog?",
               "Large-dog boarding at North is £28 a night, and a bath add-on is £15 more.", _KENNEL)
    assert _record_swap(run) is None
    other = case("What does boarding cost at Paws Lodge North for a large dog?",
                 "A nail clip is £12, and the bath add-on is £15.", _KENNEL)
    assert _record_swap(other) is not None


def test_a_record_told_by_a_sum_of_its_own() -> None:
    plans = call("get_plan", {"boiler": "BX-12"},
                 {"boiler": "BX-12", "plans": [{"year": 2025, "fee_gbp": 1480, "status": "active"},
                                               {"year": 2026, "fee_gbp": 1565, "status": "quoted"}]})
    asked = "How much will my boiler cover cost for 2026?"
    assert _record_swap(case(asked, "Your boiler cover is £1,480 for the year.", plans)) is not None
    assert _record_swap(case(asked, "It goes up to £1,565, from £1,480 now.", plans)) is None


_TICKET = call("get_ticket", {"ticket": "RT-40218"},
               {"ticket": "RT-40218", "devices": [{"model": "KX20", "fault": "cracked hinge", "serial": "88120-44",
                                                   "status": "repaired", "ready": "2024-05-02"}]})


def test_the_record_looked_up_by_its_id_holds_its_items(embed: Embed) -> None:
    run = case("Hali ya laptop yangu ni ipi? Ticket RT-40218.",
               "Laptop yako KX20 imerekebishwa (serial 88120-44), iko tayari tarehe 2 Mei.", _TICKET)
    assert _substitutes(run) is None
    assert _key_swap(run) is None
    assert understanding(run, embed) < 0.5
    # A key the request names whose value it does not write is a part beside the others.
    ledger = case("What is the overdraft limit on the account?", "The balance is 1,250.00 and 310.00 is pending.",
                  call("get_account", {"id": "A-7"}, {"overdraft_limit": 500.0, "balance": 1250.0,
                                                      "pending": 310.0}))
    assert _key_swap(ledger) is not None
    # The id beside another part the request names: the answer restating it is about the record.
    cabin = case("Does my cabin booking CB-5531 include dinner?", "No, CB-5531 has no dinner; you can add it for €24.",
                 call("get_booking", {"booking": "CB-5531"},
                      {"booking": "CB-5531", "cabin": "A12 outside", "meals": [],
                       "extras": [{"item": "dinner", "price_eur": 24.0, "code": "DN-774"}]}))
    assert _key_swap(cabin) is None


def test_the_asked_act_in_its_irregular_past() -> None:
    run = case("What did the 1962 Stratocaster go on to sell for at the auction?",
               "The 1962 Stratocaster sold for $41,000, or $50,430 with the buyer's fee.")
    assert _opposite(run) is None
    assert _opposite(case("Where can I sell my old road bike?", "You can buy a used road bike at the Saturday "
                          "market, where dealers bring stock.")) is not None


def test_a_person_whose_record_holds_the_asked_place() -> None:
    run = case("Habari, fundi atakuja lini kurekebisha bomba langu huko Kilimani, Nairobi?",
               "Habari Wanjiru! Fundi atakuja Alhamisi tarehe 3 Oktoba 2024 saa tatu asubuhi.",
               call("get_appointment", {"customer": "Wanjiru Kamau"},
                    {"customer": "Wanjiru Kamau", "address": "Kilimani, Nairobi", "date": "2024-10-03",
                     "time": "09:00"}))
    assert _acted_on(run) is None
    other = case("When is the swim lesson for Tobias this week?", "The lesson is on Thursday at 16:00.",
                 call("get_lessons", {"student": "Greta Holm"},
                      {"student": "Greta Holm", "pool": "Eastside", "day": "Thursday", "time": "16:00"}))
    assert _acted_on(other) is not None


_FEES = ("Riverside Rowing Club — annual fees\n"
         "| Member | 2025/26 | 2026/27 |\n|---|---|---|\n"
         "| Senior | £410 | £445 |\n| Junior | £150 | £165 |\n| Student | £220 | £240 |")


def test_the_answer_read_another_column(embed: Embed) -> None:
    asked = "What will senior membership cost for 2026/27? Planning my budget."
    wrong = RunCase(id="probe", input=asked, output="Senior membership is £410 a year (juniors pay £150).",
                    context=(_FEES,))
    assert _column_swap(wrong) == ("2026", "2025/26")
    assert understanding(wrong, embed) >= 0.5
    right = RunCase(id="probe", input=asked, output="Senior membership is £445 for 2026/27, up from £410.",
                    context=(_FEES,))
    assert _column_swap(right) is None
    assert _column_swap(RunCase(id="probe", input="How much is senior membership?",
                                output="Senior membership is £410 a year.", context=(_FEES,))) is None


def test_the_act_done_on_another_record_of_the_list(embed: Embed) -> None:
    plots = call("list_plots", {"member": "2209"},
                 {"member": "2209", "plots": [{"id": "AL-14", "kind": "raised_bed", "status": "let"},
                                              {"id": "GH-03", "kind": "greenhouse_bay", "status": "let"}]})
    asked = "Please give up my greenhouse bay for next year, I'm moving. Member 2209."
    wrong = case(asked, "Done: your raised bed AL-14 is released; your greenhouse bay GH-03 stays yours.",
                 plots, call("release_plot", {"id": "AL-14"}, {"id": "AL-14", "status": "released"}))
    assert _record_acted(wrong) is not None
    assert understanding(wrong, embed) >= 0.5
    right = case(asked, "Done: greenhouse bay GH-03 is released from next year.",
                 plots, call("release_plot", {"id": "GH-03"}, {"id": "GH-03", "status": "released"}))
    assert _record_acted(right) is None
