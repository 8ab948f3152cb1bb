"""TASK_COMPLETION, round tc31: what the request asks against what the calls and the answer
deliver. A run that ended on a failed call with an answer that owns no failure, an act that
reports fewer done than the request counts, items of a list read by record id left out, an
act joined by "and" to a look or told as the user's step, a part whose look-up the answer
drops, a record awaiting a code called done, a value read and never stated; and the
look-alikes that must not fire (the failure owned, the shortfall said, all items done)."""

from __future__ import annotations

import pytest

from semloop.case import RunCase
from semloop.judge.local._answerer import Embed
from semloop.judge.local._completion import (
    _ended_failed,
    answer_task_completion,
    task_completion_evidence,
)

from .conftest import call, case

_BUILD = call("build_site", {"site": "docs"}, {"pages": 214, "status": "built"})
_PUBLISH = call("publish_site", {"site": "docs"}, {"error": "CDN_TOKEN_EXPIRED"}, success=False)
_MEMBERS = "Send the renewal reminder to all 80 members of the rowing club."
_REMINDED = call("send_reminders", {"club": "rowing", "template": "renewal"}, {"sent": 50, "failed": 0})
_TICKETS = call("list_tickets", {"queue": "facilities"},
                {"tickets": [{"id": "FT-11", "title": "leak"}, {"id": "FT-12", "title": "lift"}, {"id": "FT-13", "title": "door"}]})
_SENSORS = call("get_sensor_status", {"greenhouse": "G2"}, {"offline": ["S-4", "S-9"], "online": 14})
_ORDER = call("get_order", {"order": "5512"}, {"order": "5512", "status": "in_transit", "eta": "2027-01-08"})
_DELAY = call("get_delay_reason", {"order": "5512"}, {"reason": "customs_inspection", "held_days": 3})
_TRANSFER = call("create_transfer", {"from": "current", "to": "savings", "amount": 200},
                 {"transfer": "TR-1", "status": "awaiting_otp"})
_RATE = call("get_rate", {"boat": "kayak", "hours": 3, "day": "Saturday"}, {"total_gbp": 45, "deposit_gbp": 20})


@pytest.mark.parametrize(("wrong", "right"), [
    # The run ended on a failed call; the answer says nothing of it.
    (case("Rebuild the docs site and publish it.", "The docs site is rebuilt and live.", _BUILD, _PUBLISH),
     case("Rebuild the docs site and publish it.",
          "The docs are rebuilt (214 pages), but publishing failed: the CDN token has expired.", _BUILD, _PUBLISH)),
    # Fewer done than the request counts, given as all.
    (case(_MEMBERS, "The renewal reminder is out to the rowing club members.", _REMINDED),
     case(_MEMBERS, "The reminder went to 50 of the 80 members; the other 30 have no email address on file.", _REMINDED)),
    # One call an item, items of a list read by record id left out.
    (case("Close all 3 facilities tickets, they're fixed.", "Closed FT-11 and FT-12 for you.", _TICKETS,
          call("close_ticket", {"id": "FT-11"}, {"status": "closed"}), call("close_ticket", {"id": "FT-12"}, {"status": "closed"})),
     case("Close all 3 facilities tickets, they're fixed.", "Closed FT-11, FT-12 and FT-13.", _TICKETS,
          call("close_ticket", {"id": "FT-11"}, {"status": "closed"}), call("close_ticket", {"id": "FT-12"}, {"status": "closed"}),
          call("close_ticket", {"id": "FT-13"}, {"status": "closed"}))),
    # The act joined by "and" to a look, told as the user's steps.
    (case("Find which sensors in greenhouse G2 are offline and restart them.",
          "S-4 and S-9 are offline in G2.\n1. Open the sensor console.\n2. Restart each offline sensor.", _SENSORS),
     case("Find which sensors in greenhouse G2 are offline and restart them.", "Restarted S-4 and S-9; both report online now.",
          _SENSORS, call("restart_sensors", {"ids": ["S-4", "S-9"]}, {"restarted": 2}))),
    # A part whose look-up the answer drops.
    (case("For order 5512: (1) where is it now, and (2) why was it delayed?", "Order 5512 is in transit, due on 8 January.", _ORDER, _DELAY),
     case("For order 5512: (1) where is it now, and (2) why was it delayed?",
          "Order 5512 is in transit now, due on 8 January. It was delayed by a customs inspection that held it 3 days.", _ORDER, _DELAY)),
    # A record awaiting a code, called done.
    (case("Move £200 from my current account to savings.", "Done! £200 has been moved to your savings.", _TRANSFER),
     case("Move £200 from my current account to savings.",
          "I've set up the £200 transfer; it's awaiting the one-time code we texted you.", _TRANSFER)),
    # A value read and never stated.
    (case("How much is a 3-hour kayak hire this Saturday?",
          "Great question! Hire prices depend on the boat and the season. We'd love to see you on the water.", _RATE),
     case("How much is a 3-hour kayak hire this Saturday?", "£45 for 3 hours on Saturday, plus a £20 refundable deposit.", _RATE)),
])
def test_what_the_calls_delivered(embed: Embed, wrong: RunCase, right: RunCase) -> None:
    assert float(answer_task_completion(wrong, embed).value) >= 0.5
    assert float(answer_task_completion(right, embed).value) < 0.5


def test_a_failure_owned_in_other_words_is_owned(embed: Embed) -> None:
    moved = call("move_lesson", {"lesson": "L-7", "day": "Friday"}, {"error": "NO_SLOT"}, success=False)
    said = case("Move my Tuesday riding lesson to Friday.", "There are no Friday lessons left, so I haven't moved anything.", moved)
    assert task_completion_evidence(said, embed).features["act_missing"] == 0.0
    quoted = call("get_permit", {"permit": "BP-1"}, {"error": "503", "message": "scheduled maintenance until 14:00"}, success=False)
    echoed = case("Has my building permit BP-1 been approved?",
                  "The permit portal is down for scheduled maintenance until 14:00, so I can check after that.", quoted)
    assert _ended_failed(echoed) is None
    silent = case("Move my Tuesday riding lesson to Friday.", "Your riding lesson is on Friday now.", moved)
    assert task_completion_evidence(silent, embed).features["act_missing"] == 1.0
