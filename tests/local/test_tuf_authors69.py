"""TASK_UNDERSTANDING_FAILURE on false alarms of blind69 … blind71b (opened this round),
each tested in a domain of its own here: a short name written right after a figure is
that figure's unit ("6:15 PM", "3.2 GHz"), no sibling measure told in the asked one's place;
a record's id is no part asked of it where the request names the record by another of its
values (its name), so the record's other fields are no sibling part; a label's numbers
offered as alternatives ("bay 2 or 5") are all asked, so the one answered is no other
slot; a month that dates what the user already did ("we sent the forms in March") says when
it happened, not what is asked. Recall: a sibling measure, a record read under another id
than the request's, a slot never offered, and a month the question itself asks about are
still caught."""

from __future__ import annotations

from semloop.case import RunCase
from semloop.judge.local._answerer import Embed
from semloop.judge.local._understanding import (
    _acronym_swap,
    _key_swap,
    _sibling_swap,
    _slot_swap,
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
