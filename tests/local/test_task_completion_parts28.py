"""TASK_COMPLETION: a part of a multi-part request silently dropped (a second act joined by
"and", one of the people the act was for, an act credited by another part's call), an act
the run only looked up, and a batch reported done that did only some."""

from __future__ import annotations

import json

import pytest

from semloop.case import RunCase, ToolCall
from semloop.judge.local._answerer import Embed
from semloop.judge.local._completion import task_completion_evidence


def case(inp: str, out: str, *calls: ToolCall) -> RunCase:
    return RunCase(id="probe", input=inp, output=out, context=(), tools_called=calls)


def call(name: str, args: dict[str, object], output: object) -> ToolCall:
    return ToolCall(name, args, json.dumps(output), True)


_FREEZE = call("freeze_card", {"card": "DB-4471"}, {"status": "frozen"})
_KIT = call("order_kit", {"recipient": "Ines Duarte", "kit": "welcome"}, {"order": "WK-310", "status": "placed"})
_TESTS = ToolCall("run_command", {"cmd": "pytest tests/test_text.py"}, "..F\n1 failed, 2 passed in 0.1s", True)
_INBOX = "Archive the six signed contracts in my inbox."


@pytest.mark.parametrize(("feature", "wrong", "right"), [
    # A second act joined by "and", neither done by a call nor named by the answer.
    ("act_missing",
     case("Freeze my debit card and order a replacement to my home address.",
          "Your debit card ending 4471 is frozen, so nobody can use it.", _FREEZE),
     case("Freeze my debit card and order a replacement to my home address.",
          "Your debit card ending 4471 is frozen, and a replacement is ordered to your home address.",
          _FREEZE, call("order_replacement_card", {"card": "DB-4471"}, {"status": "ordered"}))),
    # The act done by name for one of the people the request names, never for the other.
    ("act_missing",
     case("Order two welcome kits: one for Ines Duarte and one for Karl Weber.",
          "A welcome kit is on its way to Ines Duarte, arriving Tuesday.", _KIT),
     case("Order two welcome kits: one for Ines Duarte and one for Karl Weber.",
          "Welcome kits are on their way to Ines Duarte and Karl Weber, arriving Tuesday.", _KIT,
          call("order_kit", {"recipient": "Karl Weber", "kit": "welcome"}, {"order": "WK-311", "status": "placed"}))),
    # A batch that left items, reported as all done; the honest answer names what was left.
    ("item_failed",
     case(_INBOX, "All six contracts are archived.",
          call("archive_messages", {"ids": ["M1", "M2", "M3", "M4", "M5", "M6"]},
               {"archived": 4, "skipped": 2, "skipped_ids": ["M5", "M6"]})),
     case(_INBOX, "Four contracts are archived; two were skipped because they are still open for signing.",
          call("archive_messages", {"ids": ["M1", "M2", "M3", "M4", "M5", "M6"]},
               {"archived": 4, "skipped": 2, "skipped_ids": ["M5", "M6"]}))),
    # Asked to act, the run only looked: the answer reports what it found and stops.
    ("act_missing",
     case("Renew my library loan of The Overstory for another three weeks.",
          "The Overstory is due back on 14 March and nobody has reserved it.",
          call("get_loan", {"title": "The Overstory"}, {"due": "2027-03-14", "holds": 0})),
     case("Renew my library loan of The Overstory for another three weeks.",
          "The Overstory is renewed: it is now due back on 4 April.",
          call("get_loan", {"title": "The Overstory"}, {"due": "2027-03-14", "holds": 0}),
          call("renew_loan", {"title": "The Overstory"}, {"due": "2027-04-04"}))),
    # Another part's call does not do this part's act ("update" is the email's, not the plan's).
    ("act_missing",
     case("Please update my delivery address to 4 Mill Lane and switch my plan to the family box.",
          "All set! Your deliveries now go to 4 Mill Lane.",
          call("update_address", {"address": "4 Mill Lane"}, {"status": "ok"})),
     case("Please update my delivery address to 4 Mill Lane and switch my plan to the family box.",
          "All set! Your deliveries now go to 4 Mill Lane and your plan is the family box from next week.",
          call("update_address", {"address": "4 Mill Lane"}, {"status": "ok"}),
          call("update_plan", {"plan": "family box"}, {"status": "ok"}))),
    # The last test run failed, and the answer says the tests pass.
    ("item_failed",
     case("Make slugify() keep digits and check its tests pass.", "Done: slugify() keeps digits and the tests pass.",
          call("edit_file", {"path": "text.py"}, "ok"), _TESTS),
     case("Make slugify() keep digits and check its tests pass.",
          "slugify() keeps digits now; one test still fails (test_unicode), which is a separate issue.",
          call("edit_file", {"path": "text.py"}, "ok"), _TESTS)),
    # Asked of each of a counted set, the answer lists fewer of them.
    ("parts_missing",
     case("Quote the annual premium for all four cover levels.",
          "Annual premiums:\n- Basic: 210\n- Standard: 340\n\nThe others scale up similarly."),
     case("Quote the annual premium for all four cover levels.",
          "Annual premiums:\n- Basic: 210\n- Standard: 340\n- Plus: 455\n- Premier: 610")),
])
def test_dropped_parts(embed: Embed, feature: str, wrong: RunCase, right: RunCase) -> None:
    assert task_completion_evidence(wrong, embed).features[feature] >= 1.0
    assert task_completion_evidence(right, embed).features[feature] == 0.0


def test_failures_a_later_run_fixed_are_no_item_left(embed: Embed) -> None:
    fixed = case("Make slugify() keep digits and check its tests pass.", "Done: slugify() keeps digits and the tests pass.",
                 _TESTS, call("edit_file", {"path": "text.py"}, "ok"),
                 ToolCall("run_command", {"cmd": "pytest tests/test_text.py"}, "...\n3 passed in 0.1s", True))
    assert task_completion_evidence(fixed, embed).features["item_failed"] == 0.0


def test_a_verb_and_its_noun_are_one_act(embed: Embed) -> None:
    """ "my phone and charge cable": a noun after "and" opens no second act."""
    done = case("Return my phone and charge cable, they arrived damaged.",
                "Your return is booked for the phone and charge cable; the courier collects them on Monday.",
                call("create_return", {"items": ["phone", "charge cable"]}, {"return": "R-88", "status": "booked"}))
    assert task_completion_evidence(done, embed).features["act_missing"] == 0.0
