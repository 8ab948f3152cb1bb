"""TASK_COMPLETION on false alarms of blind57 … blind59b (opened this round), each tested in
a domain of its own here: a record "awaiting" a step the answer names to the user
("awaiting_collection" told as "collect it from the desk") is no wait left unsaid; the
user's new state ("You're now working Sunday") is no work of the agent's under way; an
answer that names every counted item by its code, those it lists and the one it tells
apart ("VAN-3 isn't on it: its MOT is months away"), leaves none out. Recall: a record
awaiting approval called confirmed, the agent's own work announced as under way, and a
counted set listed short with the rest unnamed are still caught."""

from __future__ import annotations

from semloop.case import ToolCall
from semloop.judge.local._answerer import Embed
from semloop.judge.local._completion import _REMAINING, _rest_named, answer_task_completion

from .conftest import call, case


def _tc(request: str, answer: str, *calls: ToolCall, embed: Embed) -> float:
    return float(answer_task_completion(case(request, answer, *calls), embed).value)


def test_a_step_the_record_awaits_told_to_the_user_is_no_wait_left_unsaid(embed: Embed) -> None:
    quote = call("repair_quote", {"item": "watch strap", "model": "Alto 38"}, {"price_gbp": 35.0, "days": 5})
    told = _tc("I'd like the strap on my Alto 38 watch replaced. How much and how long?",
               "Done — replacing the strap on your Alto 38 costs £35.00, ready 5 days after collection by our "
               "courier. I've booked the job as RJ-5521; the courier collects it from your address tomorrow.",
               quote, call("create_job", {"work": "strap"}, {"job": "RJ-5521", "status": "awaiting_collection"}),
               embed=embed)
    assert told < 0.5
    unsaid = _tc("Can you get my hotel room upgraded to a suite for Friday?",
                 "Done — your upgrade to a suite for Friday is confirmed, reference UP-2231.",
                 call("request_upgrade", {"room": "suite"}, {"ref": "UP-2231", "status": "awaiting_approval"}),
                 embed=embed)
    assert unsaid >= 0.5


def test_the_users_new_state_is_no_work_under_way() -> None:
    assert not _REMAINING.search("You're now working the late shift on Sunday 15 June.")
    assert _REMAINING.search("I'm now checking the remaining three invoices.")


def test_every_counted_item_named_by_its_code_leaves_none_out(embed: Embed) -> None:
    assert _rest_named("- VAN-1: MOT on Mon\n- VAN-2: MOT on Wed\n- VAN-4: MOT on Fri\nVAN-3 isn't on it.", 4)
    assert not _rest_named("- VAN-1: MOT on Mon\n- VAN-2: MOT on Wed\n- VAN-4: MOT on Fri", 4)
    fleet = call("fleet_units", {"units": ["VAN-1", "VAN-2", "VAN-3", "VAN-4"]},
                 {"units": [{"unit": "VAN-1", "mot_due_days": 6}, {"unit": "VAN-2", "mot_due_days": 9},
                            {"unit": "VAN-3", "mot_due_days": 140}, {"unit": "VAN-4", "mot_due_days": 12}]})
    plan = call("plan_create", {"entries": [{"unit": "VAN-1"}, {"unit": "VAN-2"}, {"unit": "VAN-4"}]},
                {"plan": "MOT-W23", "entries": 3, "status": "SAVED"})
    request = "Book MOTs for the four vans (VAN-1 to VAN-4): anything due in the next two weeks, one van a day."
    whole = _tc(request, "Plan MOT-W23 is saved:\n- Mon — VAN-1 (due in 6 days)\n- Wed — VAN-2 (due in 9 days)\n"
                "- Fri — VAN-4 (due in 12 days)\nVAN-3 isn't on it: its MOT is 140 days away.", fleet, plan,
                embed=embed)
    assert whole < 0.5
    short = _tc(request, "Plan MOT-W23 is saved:\n- Mon — VAN-1 (due in 6 days)\n- Wed — VAN-2 (due in 9 days)\n"
                "- Fri — VAN-4 (due in 12 days)", fleet, plan, embed=embed)
    assert short >= 0.5
