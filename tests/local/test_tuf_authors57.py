"""TASK_UNDERSTANDING_FAILURE on false alarms of blind57 … blind59b (opened this round), each
tested in a domain of its own here: an answer drawn on a part of the asked record (an
incident's actions, an order's lines) that names the record's title words no longer reads
as another record; a yes-no question that asks a state ("is the pool open tomorrow?")
answered with its opposite answers "no"; "left" and "right" are sides only as sides ("no
vegan rolls left", "right now" are not); a timestamp field ("counted_at") names when, not
a part of the matter; a document's title (a short first line, a short title-case first
sentence) names what every entry of it is about. Recall: the record that holds the asked dependant answered in its
place (a parent for the child asked about), an act's opposite done, and the other side
given where a side was asked are still caught."""

from __future__ import annotations

from dataclasses import replace

from semloop.judge.local._answerer import Embed
from semloop.judge.local._understanding import (
    _nested_in,
    _titled,
)

from .conftest import call, case, understanding

_AUDIT = {"audit_id": "AUD-3381", "title": "Cold room breach - Harlow depot", "findings_closed": True,
          "status": "ACTIONS_OPEN",
          "actions": [{"id": 1, "desc": "Recalibrate cold room door alarm", "status": "closed"},
                      {"id": 2, "desc": "Replace gasket on cold room door", "status": "open", "due": "2025-09-30"},
                      {"id": 3, "desc": "Retrain night porters on door checks", "status": "open", "due": "2025-10-14"}]}


def test_an_answer_drawn_on_the_asked_records_own_actions_keeps_its_thing(embed: Embed) -> None:
    run = case("Is the audit of the cold room breach at the Harlow depot closed?",
               "The findings are signed off, but 2 actions are still open: replace the door gasket (due 30 Sept) "
               "and retrain the night porters (due 14 Oct).",
               call("audit_get", {"id": "AUD-3381"}, _AUDIT))
    assert understanding(run, embed) < 0.5


def test_a_part_of_a_record_is_nested_in_it_and_a_sibling_is_not() -> None:
    record = "audit id: AUD-3381; title: Cold room breach; status: ACTIONS_OPEN"
    assert _nested_in("actions id: 2; actions desc: Replace gasket; actions status: open", record)
    assert not _nested_in("branch: Leeds; rate: 4.1%", "branch: York; rate: 3.9%")


def test_the_record_holding_the_asked_dependant_answered_instead_is_caught(embed: Embed) -> None:
    family = {"member_id": "M-440", "name": "Dara Quinn", "plan": "adult",
              "dependants": [{"member_id": "M-441", "name": "Noor Quinn", "age": 9}]}
    run = case("Can you book Noor a swimming assessment on Saturday? I'm her dad, Dara Quinn.",
               "Done, Dara! You're booked for a swimming assessment on Saturday at 10:00 at the Riverside pool.",
               call("members_find", {"name": "Dara Quinn"}, family),
               call("book", {"member_id": "M-440", "type": "swim_assessment"}, {"ref": "BK-1192", "status": "booked"}))
    assert understanding(run, embed) >= 0.5


def test_a_yes_no_question_about_a_state_answered_with_its_opposite_answers_no(embed: Embed) -> None:
    run = case("is the leisure centre pool open on Monday? it's a bank holiday",
               "Monday is a bank holiday, so the pool at Eastfield Leisure Centre is closed. The gym runs "
               "08:00-14:00 and the pool is back on Tuesday at 6:30.",
               call("hours", {"site": "Eastfield", "date": "2025-08-25"},
                    {"site": "Eastfield Leisure Centre", "pool_open": False, "gym": "08:00-14:00",
                     "pool_next_open": "2025-08-26T06:30"}))
    assert understanding(run, embed) < 0.5


def test_an_asked_act_answered_with_its_opposite_is_still_caught(embed: Embed) -> None:
    run = case("Please open a new savings pot called Holiday for me.",
               "I've closed your savings pot 'Holiday'; the balance of £0.00 was moved to your main account.",
               call("pots.close", {"name": "Holiday"}, {"status": "closed"}))
    assert understanding(run, embed) >= 0.5


def test_left_and_right_are_sides_only_as_sides(embed: Embed) -> None:
    run = case("How many trays of sushi are in the deli fridge right now? Need it for the lunch count.",
               "Deli fridge as of 10:05: 11 trays — 7 salmon, 4 tuna, and no vegan rolls left.",
               call("stock", {"fridge": "DELI-1"}, {"fridge": "DELI-1", "lines": [
                   {"sku": "SUSHI-SAL", "trays": 7}, {"sku": "SUSHI-TUN", "trays": 4}, {"sku": "SUSHI-VEG", "trays": 0}],
                   "counted_at": "2025-06-03T10:05:00+01:00"}))
    assert understanding(run, embed) < 0.5
    lane = case("Which lane is the left exit for the ferry port?",
                "Keep to the right lane and take the right exit signed Terminal 2.")
    assert understanding(lane, embed) >= 0.5


def test_a_documents_short_first_line_or_title_case_sentence_is_its_title() -> None:
    assert _titled("Harbour Regatta entry rules\n2024: 40 boats.\n2025: 55 boats, new slipway.", "regatta")
    assert _titled("Cleaners' Pay and Conditions Agreement 2022. Clause 3: breaks of 20 minutes.", "cleaner")
    # A first sentence that gives a figure is an entry, not a title.
    assert not _titled("Regatta fee 2025 is £40. Late entries £55.", "regatta")


def test_an_answer_under_a_documents_title_keeps_its_thing(embed: Embed) -> None:
    rules = ("Harbour Regatta entry rules\n2024 regatta: maximum 40 boats on the water at once.\n"
             "2025 regatta: maximum 55 boats on the water at once, after the new slipway opened.")
    run = replace(case("What's the boat limit for this year's Harbour Regatta?",
                       "This year's limit (2025) is 55 boats on the water at once, up from 40 last year thanks "
                       "to the new slipway."), context=(rules,))
    assert understanding(run, embed) < 0.5
