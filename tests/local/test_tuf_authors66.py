"""TASK_UNDERSTANDING_FAILURE on false alarms of blind66 … blind68b (opened this round),
each tested in a domain of its own here: a table's header row names the columns every
row below it holds, so a word only it holds is in the row the answer drew on too; a record
looked up on the user's own address is answered when the answer restates its values, a
date in another form among them. Catches: a short first line joined to the first entry of
a list is the title, not the entry (the asked entry's word after it is no title's); the
lead of a document's one colon is its title only when short; a sibling field told where
the asked one's own word is never said, whatever word the two keys share; a remark of the
answer far from every entry is drawn from none, so it does not place the answer on the
asked entry; a call made on another year than the one the request labels, its record
restated. Recall: a row of the table that names the asked thing, and a looked-up record
told by the request's own day alone, are still caught."""

from __future__ import annotations

from semloop.case import RunCase, ToolCall
from semloop.judge.local._answerer import Embed
from semloop.judge.local._understanding import (
    _field_swap,
    _substitutes,
    _titled,
    _wrong_source,
    _year_read,
)

from .conftest import call, case, understanding

_BIKES = ("Harbourside cycle hire, price list (spring 2026).\n"
          "| Bike | Day rate | Max load |\n"
          "|---|---|---|\n"
          "| City hybrid | £18 | 110 kg |\n"
          "| Cargo trike | £42 | 150 kg |\n"
          "| Tandem pair | £35 | 190 kg |")


def test_a_word_of_a_tables_header_is_in_every_row(embed: Embed) -> None:
    run = RunCase(id="probe", input="max load on the cargo trike?",
                  output="The cargo trike carries up to 200 kg.", context=(_BIKES,))
    assert _wrong_source(run, embed) is None
    assert understanding(run, embed) < 0.5


def test_a_row_that_names_the_asked_thing_is_still_another_row(embed: Embed) -> None:
    run = RunCase(id="probe", input="What's the day rate for the tandem?",
                  output="A city hybrid is £18 for the day and carries up to 110 kg.", context=(_BIKES,))
    assert _wrong_source(run, embed) is not None


_ROUTES = ("Notice: From 2 March 2026 about 9,000 customers move to new delivery days after our depot review. "
           "The review follows 700 new flats built in North Haverley, and drivers now work four long days. "
           "Emails went to every affected customer in mid February.")
_ELM = call("get_delivery_account", {"address": "42 Elm Court"},
            {"address": "42 Elm Court, Haverley HV3 8QP", "delivery_day": "Friday",
             "previous_delivery_day": "Tuesday", "change_effective": "2026-03-02",
             "change_reason_code": "DEPOT_REVIEW_2026"})


def _milk(answer: str, *calls: ToolCall) -> RunCase:
    return RunCase(id="probe", input="Why did my milk delivery move from Tuesday to Friday? 42 Elm Court.",
                   output=answer, context=(_ROUTES,), tools_called=calls)


def test_the_looked_up_record_told_with_its_date(embed: Embed) -> None:
    run = _milk("Your milk now comes on Friday from 2 March, after the depot review. About 700 new flats "
                "went up in North Haverley, so rounds were redrawn and drivers work four long days. "
                "An email should have reached you in mid February.", _ELM)
    assert _substitutes(run) is None
    assert understanding(run, embed) < 0.5


def test_a_record_told_by_the_requests_day_alone_is_still_a_stand_in() -> None:
    run = _milk("Your milk comes on Friday now: North Haverley's 700 new flats meant the depot redrew "
                "every round there.", _ELM)
    assert _substitutes(run) is not None


_CARDS = ("Millbrook library guide.\n"
          "SILVER card (adult): up to 12 books, 3 DVDs, 2 audiobooks, free reservations.\n"
          "GOLD card (premium, annual fee): up to 20 books, e-magazines, film streaming, printing credit.\n"
          "JUNIOR card: picture books and comics only.")


def test_the_asked_entry_after_a_short_title_is_no_title(embed: Embed) -> None:
    run = RunCase(id="probe", input="What can I borrow on a silver card?",
                  output="Your card covers up to 20 books, plus e-magazines, film streaming and printing credit. "
                         "Remember it has an annual fee, so keep it paid up.", context=(_CARDS,))
    assert _wrong_source(run, embed) is not None
    right = RunCase(id="probe", input="What can I borrow on a silver card?",
                    output="On a silver card you can take up to 12 books, 3 DVDs and 2 audiobooks.",
                    context=(_CARDS,))
    assert _wrong_source(right, embed) is None


_MARINA = ("Westcliff Marina terms. (A) Boat hire — cancelling within 24h of the hire date costs 40% of the "
           "hire price. (B) Moorings — 3- and 9-month berths: early release fee equal to one month's mooring; "
           "21 days' written notice required.")


def test_a_long_lead_of_one_colon_is_no_title(embed: Embed) -> None:
    assert not _titled(_MARINA, "moor")
    assert _titled("Care sheet (dwarf lemon tree): water weekly, feed monthly in summer.", "lemon")
    run = RunCase(id="probe", input="What do I pay if I give up my mooring berth early? I took a 3-month berth in May.",
                  output="If you cancel within 24 hours of your hire date, the charge is 40% of the hire price. "
                         "So tell us as soon as you can.", context=(_MARINA,))
    assert _wrong_source(run, embed) is not None


_PALLET = call("get_pallet", {"pallet": "P-7"},
               {"pallet": "P-7", "gross_weight_kg": 1840.5, "net_weight_kg": 1622.0, "tare_weight_kg": 218.5,
                "height_cm": 162})


def test_a_sibling_field_told_by_the_word_both_keys_share() -> None:
    asked = "What's the net weight of pallet P-7? The haulier needs it for the manifest."
    assert _field_swap(case(asked, "P-7 has a gross weight of 1,840.5 kg and stands 162 cm tall.", _PALLET)) \
        is not None
    assert _field_swap(case(asked, "P-7 weighs 1,622 kg net (1,840.5 kg gross).", _PALLET)) is None
    assert _field_swap(case(asked, "Its net weight is on the manifest; gross is 1,840.5 kg.", _PALLET)) is None


_GYM = ("Lumen Gym membership, Tier 2. Pool access: weekdays 6:00–22:00, with 2 guest passes a month. "
        "Sauna access: weekends only, 9:00–18:00, adults over 16. Parking: up to 3 hours free. "
        "Towel hire: £1.50.")


def test_a_clause_near_no_entry_is_drawn_from_none(embed: Embed) -> None:
    asked = "Under my gym membership, when can I use the sauna?"
    run = RunCase(id="probe", input=asked,
                  output="On Tier 2 the pool is open weekdays 6:00–22:00 and you get 2 guest passes a month. "
                         "Older teens love it too.", context=(_GYM,))
    assert _wrong_source(run, embed) is not None
    right = RunCase(id="probe", input=asked, output="The sauna is open at weekends only, 9:00–18:00, for over-16s. "
                                                    "Older teens love it too.", context=(_GYM,))
    assert _wrong_source(right, embed) is None


def _yacht(edition: str) -> ToolCall:
    return call("register_search", {"register": f"{edition} Register of Yachts", "name": "Kestrel"},
                {"results": [{"owner": "Harold Pike", "home_port": "Falmouth", "built": 1958, "rig": "gaff cutter"}]})


def test_a_call_made_on_another_year_than_the_asked_one() -> None:
    asked = "Who owned the yacht Kestrel according to the 1975 register?"
    told = "Kestrel, a gaff cutter, was owned by Harold Pike with Falmouth as her home port."
    assert _year_read(case(asked, told, _yacht("1962"))) == ("1975", "1962")
    assert _year_read(case(asked, told, _yacht("1975"))) is None
    assert _year_read(case(asked, f"No 1975 entry; in 1962 {told}", _yacht("1962"))) is None
