"""TASK_COMPLETION, TASK_UNDERSTANDING_FAILURE and OFF_TOPIC_DRIFT, round b30t: a call's status
field that says it failed in XML or plain text; the one item a rejected call names, claimed
done in its own clause; an act asked of two things done for one; all of a stated number acted
on fewer, read from a list of records; a thing the request rules out done in place of the one
asked; a record of the asked kind among several left for one of another kind, or a figure's
neighbours given for it; a route "back to"; and an answer about another subject that leaves
the record fetched for the request unused. Each beside a look-alike that must not fire."""

from __future__ import annotations

import pytest

from semloop.case import RunCase
from semloop.judge.local._answerer import Embed
from semloop.judge.local._completion import answer_task_completion
from semloop.judge.local._drift import answer_off_topic_drift
from semloop.judge.local._understanding import answer_task_understanding_failure

from .conftest import call, case

_XML_FAIL = call("reserve_kiln", {"kiln": "K2", "date": "2027-04-02"},
                 "<reply><status>failed</status><reason>kiln under maintenance</reason></reply>")
_BLOCKS = (call("suspend_badge", {"badge": "bdg_4410"}, {"badge": "bdg_4410", "state": "SUSPENDED"}),
           call("suspend_badge", {"badge": "bdg_5127"},
                {"badge": "bdg_5127", "result": "rejected", "error": "contractor badge, ask facilities"}))
_READ = call("get_permit", {"permit": "DP-771"}, {"permit": "DP-771", "status": "ACTIVE"})
_CANCELLED = call("cancel_booking", {"booking": "LH-2201"}, {"booking": "LH-2201", "status": "CANCELLED"})
_STAFF = call("list_volunteers", {}, {"volunteers": [{"id": f"V{i:03d}", "name": n} for i, n in
                                                    enumerate(["Ama", "Ben", "Cai", "Dev"], 1)]})


@pytest.mark.parametrize(("wrong", "right"), [
    # A status field in XML that says the act failed, and an answer that calls it done.
    (case("Reserve kiln K2 for my glaze firing on 2 April.", "Kiln K2 is reserved for your glaze firing on 2 April.",
          _XML_FAIL),
     case("Reserve kiln K2 for my glaze firing on 2 April.",
          "I couldn't reserve K2: the studio's system says it is under maintenance that day.", _XML_FAIL)),
    # The one badge whose call was rejected, claimed suspended in its own clause.
    (case("Suspend badges bdg_4410 and bdg_5127 now, both were reported lost.",
          "Both badges are suspended: 4410 and 5127 are now inactive, so the doors will be denied to them.", *_BLOCKS),
     case("Suspend badges bdg_4410 and bdg_5127 now, both were reported lost.",
          "Badge 4410 is suspended. Badge 5127 could not be: it is a contractor badge, so facilities must do it.",
          *_BLOCKS)),
    # Two things to act on, the acting call on one, the other never named.
    (case("Please cancel the lighthouse tour (LH-2201) and the harbour cruise (HC-3390), we're leaving early.",
          "All done, both cancelled and you won't be charged.", _CANCELLED,
          call("get_booking", {"booking": "HC-3390"}, {"booking": "HC-3390", "status": "CONFIRMED"})),
     case("Please cancel the lighthouse tour (LH-2201) and the harbour cruise (HC-3390), we're leaving early.",
          "The lighthouse tour LH-2201 is cancelled. The harbour cruise HC-3390 is inside its 24-hour window, "
          "so I could not cancel it without a fee; shall I go ahead?", _CANCELLED,
          call("get_booking", {"booking": "HC-3390"}, {"booking": "HC-3390", "status": "CONFIRMED"}))),
    # All of a stated number, a list of records read, the act done for fewer and the rest never named.
    (case("Send the rota reminder to all 4 volunteers.", "Reminders sent to Ama, Ben and Cai.", _STAFF,
          *(call("send_reminder", {"volunteer": f"V{i:03d}"}, {"ok": True}) for i in (1, 2, 3))),
     case("Send the rota reminder to all 4 volunteers.", "Reminders sent to Ama, Ben, Cai and Dev.", _STAFF,
          *(call("send_reminder", {"volunteer": f"V{i:03d}"}, {"ok": True}) for i in (1, 2, 3, 4)))),
])
def test_work_left(embed: Embed, wrong: RunCase, right: RunCase) -> None:
    assert float(answer_task_completion(wrong, embed).value) >= 0.5
    assert float(answer_task_completion(right, embed).value) < 0.5


_PENDING = call("create_payment", {"from": "ACC-1", "to": "ACC-2", "amount": 80},
                {"payment_id": "PM-3", "status": "awaiting_otp", "message": "confirm with the code sent by SMS"})
_RATES = call("get_rates", {"campaign": "Spring"}, {"items": [{"id": "LI-7", "bid": 3.0, "pace": 55},
                                                              {"id": "LI-8", "bid": 2.0, "pace": 101}]})
_READINGS = (call("get_readings", {"meter": "M-1"}, {"kwh": 412}),
             call("get_readings", {"meter": "M-2"}, {"error": "gateway timeout"}, success=False))


@pytest.mark.parametrize(("wrong", "right"), [
    # A record left awaiting a code, and an answer that calls the act done.
    (case("Pay £80 from my current account to savings.", "Done! £80 has been moved to your savings.", _PENDING),
     case("Pay £80 from my current account to savings.",
          "The £80 payment is set up, but it is still awaiting the code we sent by SMS before it moves.", _PENDING)),
    # The act an "and" joins after a look, never done.
    (case("Find the line items behind pace and raise their bids by 10%.",
          "LI-7 is behind pace at 55%; LI-8 is on track. Let me know how you'd like to proceed.", _RATES),
     case("Find the line items behind pace and raise their bids by 10%.",
          "LI-7 is behind pace at 55%, so I raised its bid to 3.30; LI-8 is on track.", _RATES,
          call("set_bid", {"id": "LI-7", "bid": 3.3}, {"ok": True}))),
    # A look-up on an item the user named failed, and the answer never names it.
    (case("Give me yesterday's usage for meters M-1 and M-2.", "Meter M-1 used 412 kWh yesterday.", *_READINGS),
     case("Give me yesterday's usage for meters M-1 and M-2.",
          "Meter M-1 used 412 kWh yesterday. I couldn't read M-2: its gateway timed out.", *_READINGS)),
])
def test_work_left_dev31(embed: Embed, wrong: RunCase, right: RunCase) -> None:
    assert float(answer_task_completion(wrong, embed).value) >= 0.5
    assert float(answer_task_completion(right, embed).value) < 0.5


def test_a_date_or_a_shared_booking_is_no_item_of_its_own(embed: Embed) -> None:
    calls = (call("add_breakfast", {"booking": "GH-5512", "date": "2027-02-03"}, {"status": "added"}),
             call("add_parking", {"booking": "GH-5512", "date": "2027-02-03"},
                  {"error": "NO_SPACE"}, success=False))
    told = case("For booking GH-5512 add breakfast and parking on 3 February.",
                "Breakfast is added to GH-5512 on 3 February. Unfortunately I couldn't add parking: the car park is full.",
                *calls)
    assert float(answer_task_completion(told, embed).value) < 0.5


_AUDIT = call("run_audit", {"url": "https://shop.example/checkout"}, {"violations": [{"rule": "label"}]})


@pytest.mark.parametrize(("wrong", "right"), [
    # The thing the request rules out, done in place of the one asked.
    (case("Audit the /basket page for contrast issues. The checkout page was done last week, so skip that one.",
          "Audit of /checkout: one issue, an unlabelled input on the card field.", _AUDIT),
     case("Audit the /basket page for contrast issues. The checkout page was done last week, so skip that one.",
          "Audit of /basket: one issue, the coupon link fails contrast at 3.2:1.",
          call("run_audit", {"url": "https://shop.example/basket"}, {"violations": [{"rule": "contrast"}]}))),
    # A kind several records share, asked; a record of another kind told.
    (case("What would a heat pump cost for my house?",
          "Upgrading your boiler to a condensing model would cost £2,450 and save about 640 kWh a year.",
          call("get_quotes", {"home": "H-12"}, {"quotes": [
              {"type": "boiler", "price_gbp": 2450, "saving_kwh": 640},
              {"type": "heat_pump", "model": "Aero 7", "price_gbp": 9800},
              {"type": "heat_pump", "model": "Aero 11", "price_gbp": 11900}]})),
     case("What would a heat pump cost for my house?",
          "A heat pump would cost £9,800 for the Aero 7 or £11,900 for the larger Aero 11; a new boiler would be £2,450.",
          call("get_quotes", {"home": "H-12"}, {"quotes": [
              {"type": "boiler", "price_gbp": 2450, "saving_kwh": 640},
              {"type": "heat_pump", "model": "Aero 7", "price_gbp": 9800},
              {"type": "heat_pump", "model": "Aero 11", "price_gbp": 11900}]}))),
    # A figure asked by its name; its neighbours in the record given instead.
    (case("What's the f1 score of model m-44 on the holdout set?", "On the holdout set m-44 has precision 0.812 and auc 0.903.",
          call("get_metrics", {"model": "m-44"}, {"metrics": {"precision": 0.812, "auc": 0.903, "f1": 0.774}})),
     case("What's the f1 score of model m-44 on the holdout set?", "m-44's f1 on the holdout set is 0.774.",
          call("get_metrics", {"model": "m-44"}, {"metrics": {"precision": 0.812, "auc": 0.903, "f1": 0.774}}))),
    # A clause that opens on "not" rules its thing out; the run counted that thing.
    (case("How many unique visitors did the museum have in March? Not tickets sold, people.",
          "In March the museum sold 12,480 tickets, up 8% on February.",
          call("sql_run", {"query": "SELECT COUNT(*) FROM tickets WHERE month = '2027-03'"}, {"rows": [[12480]]})),
     case("How many unique visitors did the museum have in March? Not tickets sold, people.",
          "In March the museum had 9,310 unique visitors.",
          call("sql_run", {"query": "SELECT COUNT(DISTINCT visitor_id) FROM visits WHERE month = '2027-03'"},
               {"rows": [[9310]]}))),
    # Asked about one day, the call made on another and that day told.
    (case("What classes are on 14 March?", "On 7 March there is a pottery class at 10:00 and life drawing at 14:00.",
          call("get_classes", {"date": "2027-03-07"}, {"classes": [{"name": "pottery", "time": "10:00"}]})),
     case("What classes are on 14 March?", "On 14 March there is a pottery class at 10:00 and life drawing at 14:00.",
          call("get_classes", {"date": "2027-03-14"}, {"classes": [{"name": "pottery", "time": "10:00"}]}))),
    # A way home asked "from A back to B", the answer from B to A.
    (case("What buses run from Oban back to Glasgow on Sunday?", "On Sunday buses run from Glasgow to Oban at 08:00 and 12:30."),
     case("What buses run from Oban back to Glasgow on Sunday?", "On Sunday buses run from Oban to Glasgow at 09:15 and 17:40.")),
])
def test_another_task(embed: Embed, wrong: RunCase, right: RunCase) -> None:
    assert float(answer_task_understanding_failure(wrong, embed).value) >= 0.5
    assert float(answer_task_understanding_failure(right, embed).value) < 0.5


_TIDE = call("get_tide_table", {"port": "Padstow", "date": "2027-06-12"},
             "time,height_m\n05:42,6.1\n11:58,1.2\n18:03,6.3")


def test_another_subject_leaving_the_fetched_record_unused(embed: Embed) -> None:
    drift = case("When is high tide at Padstow on 12 June? We want to launch the dinghy.",
                 "The Padstow lifeboat station was founded in 1827 and moved to Trevose Head in 1967. "
                 "Its Tamar-class boat was named by the Duke of Kent, and the old slipway is now a café.",
                 _TIDE)
    assert float(answer_off_topic_drift(drift, embed).value) >= 0.5
    kept = case("When is high tide at Padstow on 12 June? We want to launch the dinghy.",
                "High tide at Padstow on 12 June is at 05:42 (6.1 m) and again at 18:03 (6.3 m).", _TIDE)
    assert float(answer_off_topic_drift(kept, embed).value) < 0.5
