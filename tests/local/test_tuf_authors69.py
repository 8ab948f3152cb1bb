"""TASK_UNDERSTANDING_FAILURE on false alarms and misses of blind69 … blind71b (opened this
round), each tested in a domain of its own here. False alarms: a short name written right
after a figure is that figure's unit ("6:15 PM", "3.2 GHz"), no sibling measure told in the
asked one's place; a record's id is no part asked of it where the request names the record
by another of its values (its name), so the record's other fields are no sibling part; a
label's numbers offered as alternatives ("bay 2 or 5") are all asked, so the one answered
is no other slot; a month that dates what the user already did ("we sent the forms in
March") says when it happened, not what is asked. Misses: a word of the request that the
entry drawn on shares with the asked one ("deadline" of two deadlines) does not make it the
asked one, where that other holds it and more of the request; a document's table rows are
records of their own, a row told for the one asked; a record's other times told for the
one asked ("what time is pick-up?"); a call made on another month than the one asked, its
record restated. Recall: a sibling measure, a record read under another
id than the request's, a slot never offered, a month the question itself asks about, and
an entry holding a word of the request no other holds are still read as before."""

from __future__ import annotations

from semloop.case import RunCase, ToolCall
from semloop.judge.local._answerer import Embed
from semloop.judge.local._understanding import (
    _acronym_swap,
    _clock_swap,
    _key_swap,
    _month_read,
    _record_swap,
    _sibling_swap,
    _slot_swap,
    _wrong_source,
)

from .conftest import call, case, understanding


def test_a_short_name_after_a_figure_is_its_unit(embed: Embed) -> None:
    run = case("What time does the ferry leave for the TT races?",
               "The last sailing goes at 6:15 PM, so check in by 5:45 with your ticket.")
    assert _acronym_swap(run) is None
    assert understanding(run, embed) < 0.5
    assert _acronym_swap(case("What's the TDP of the Vantor X2 chip?",
                              "It runs at 3.2 GHz: boost reaches 4.1 on two cores.")) is None


def test_a_sibling_measure_named_before_its_figure_is_still_told() -> None:
    run = case("What was the OEE on the bottling line last week?",
               "MTBF on the bottling line was 41 hours, up from 36.")
    assert _acronym_swap(run) == ("OEE", "MTBF")


_DEPOT = call("get_depot", {"name": "Ridgeway Depot"},
              {"depot_id": "RDG-11", "name": "Ridgeway Depot",
               "docks": [{"type": "LD4", "max_len_m": 13.6}, {"type": "LD4", "max_len_m": 13.6},
                         {"type": "VAN1", "max_len_m": 7.5}]})


def test_the_id_of_a_record_named_by_its_name_is_no_part_asked(embed: Embed) -> None:
    run = case("What's the longest trailer the Ridgeway Depot can take? Ours are 16.5 m.",
               "Ridgeway takes trailers up to 12 m on its LD4 docks, so your 16.5 m units won't fit.", _DEPOT)
    assert _key_swap(run) is None
    assert understanding(run, embed) < 0.5


_CARD = call("get_card", {"card_id": "CRD-1204"},
             {"card_id": "CRD-1204", "balance_due": 812.4, "rewards": {"points": 1530, "tier": "T2"}})


def test_a_record_read_under_another_id_than_the_requests_is_still_a_sibling() -> None:
    run = case("What's the balance on my card, the one ending 7730?",
               "You have 1,530 points on the T2 rewards tier.", _CARD)
    assert _key_swap(run) is not None


def test_a_labels_numbers_offered_as_alternatives_are_all_asked(embed: Embed) -> None:
    run = case("Wexford order: bay 2 or 5?", "Bay 5, loading now, due out at 14:10.")
    assert _slot_swap(run) is None
    assert understanding(run, embed) < 0.5
    assert _slot_swap(case("Which kiln has the glaze batch, kiln 1, 3 or 4?", "Kiln 4, firing till noon.")) is None
    assert _slot_swap(case("Is the choir in hall B or C tonight?", "Hall C, from 7.")) is None


def test_a_slot_never_offered_is_still_another() -> None:
    assert _slot_swap(case("Wexford order: bay 2 or 5?", "Bay 7, loading now.")) == ("bay 2", "bay 7")


def test_a_month_that_dates_the_users_own_act_is_not_asked(embed: Embed) -> None:
    run = case("Has my pension transfer gone through? We sent the forms in March.",
               "Not yet: it's with the receiving scheme, which expects to finish it by 14 April.")
    assert _sibling_swap(run) is None
    assert understanding(run, embed) < 0.5


def test_a_month_the_question_asks_about_is_still_the_asked_one() -> None:
    assert _sibling_swap(case("How much did we pay for water in March?", "In April you paid £41.")) \
        == ("march", "april")
    assert _sibling_swap(case("We need the March water bill. Can you send it?", "Here's April's: £41.")) \
        == ("march", "april")


_ALLOTMENTS = ("Riverside Allotments: key dates for members.\n"
               "Plot rent payment deadline: 31 March, paid at the site office or by bank transfer.\n"
               "Waiting list application deadline: 30 June, on the form from the council website.\n"
               "Annual show entries close on 12 August.")


def _read(doc: str, asked: str, told: str) -> RunCase:
    return RunCase(id="probe", input=asked, output=told, context=(doc,))


def test_a_word_the_asked_entry_shares_with_the_one_drawn_on_tells_neither(embed: Embed) -> None:
    assert _wrong_source(_read(_ALLOTMENTS, "When is the deadline for waiting list applications?",
                               "Plot rent is due by 31 March, paid at the site office or by bank transfer."),
                         embed) is not None


def test_an_entry_holding_a_word_of_the_request_no_other_holds_is_still_asked(embed: Embed) -> None:
    assert _wrong_source(_read(_ALLOTMENTS, "When is the deadline for plot rent if I pay by bank transfer?",
                               "Plot rent is due by 31 March, paid at the site office or by transfer."),
                         embed) is None


_FARES = ("Castle ferry, foot passenger fares.\n"
          "| Season | Adult return | Child return |\n"
          "|---|---|---|\n"
          "| 2025 | £14.50 | £7.25 |\n"
          "| 2026 | £15.80 | £7.90 |")


def test_a_documents_table_row_is_a_record_of_its_own() -> None:
    asked = "What's an adult return on the castle ferry in 2026?"
    assert _record_swap(_read(_FARES, asked, "An adult return is £14.50 (children £7.25).")) is not None
    assert _record_swap(_read(_FARES, asked, "An adult return is £15.80 (children £7.90).")) is None


_TRIP = call("get_trip", {"trip": "Y6 museum visit"},
             {"trip": "Y6 museum visit", "date": "2026-05-12", "drop_off": "08:15", "coach_leaves": "08:45",
              "lunch": "12:00", "pick_up": "15:30"})


def test_a_records_other_times_told_for_the_one_asked(embed: Embed) -> None:
    run = case("What time is pick-up from the museum trip? I finish work at 3.",
               "Drop-off is at 8:15 and the coach leaves at 8:45, with lunch at 12:00.", _TRIP)
    assert _clock_swap(run) == ("pick_up", "drop_off")
    assert understanding(run, embed) >= 0.5


def test_the_asked_time_told_beside_the_others_is_no_swap() -> None:
    assert _clock_swap(case("What time is pick-up from the museum trip?",
                            "Pick-up is at 3:30, after drop-off at 8:15 and lunch at 12:00.", _TRIP)) is None
    assert _clock_swap(case("What time is pick-up from the museum trip?",
                            "Collection is at 3:30 pm; drop-off was 8:15, lunch 12:00.", _TRIP)) is None


def _shipped(month: str) -> ToolCall:
    return call("count_shipments", {"depot": "Dunmore", "month": month},
                {"depot": "Dunmore", "month": month, "parcels": 4120, "late": 38})


def test_a_call_made_on_another_month_than_the_asked_one() -> None:
    asked = "How many parcels did the Dunmore depot ship in June?"
    told = "Dunmore shipped 4,120 parcels, 38 of them late."
    assert _month_read(case(asked, told, _shipped("2025-07"))) == ("june", "2025-07")
    assert _month_read(case(asked, told, _shipped("2025-06"))) is None
