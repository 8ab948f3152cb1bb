"""The run-level rules' newer evidence, each on a probe written for this test: what it flags
on the failure, and that the matching right answer leaves it unflagged."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

import pytest

from semloop.case import RunCase, ToolCall
from semloop.judge.local._answerer import Embed
from semloop.judge.local._completion import answer_task_completion, task_completion_evidence
from semloop.judge.local._drift import _foreign, _sells, _serves, _unformatted, off_topic_evidence
from semloop.judge.local._head import Evidence
from semloop.judge.local._task import _idents
from semloop.judge.local._understanding import (
    _other_member,
    _part_dropped,
    task_understanding_evidence,
)

from .conftest import run_at_once


def case(inp: str, out: str, *, context: tuple[str, ...] = (), tools: tuple[ToolCall, ...] = (),
         steps: tuple[str, ...] = ()) -> RunCase:
    return RunCase(id="probe", input=inp, output=out, context=context, tools_called=tools,
                   steps=steps)


_PUMPS = ToolCall("pump_status", {"site": "north"},
                  '[{"pump": "intake", "flow_lpm": 410, "status": "running"}, '
                  '{"pump": "outflow", "flow_lpm": 0, "status": "stopped"}]', True)


_ALARM_CODES = (
    ("Garage keypad alarm code: hold PROGRAM for 5 seconds, type the new 4-digit code, press "
     "ENTER twice."),
    ("Front door alarm code: open the app, go to Devices, select Front door, tap Change code "
     "and confirm with your account PIN."))


_SAVINGS_PLANS = (
    "401(k): you may defer up to $23,500 of salary in 2026; catch-up contributions over 50.",
    "ESPP: contribute 1-15% of pay, up to $25,000 a year, bought at a 15% discount.")


@pytest.mark.parametrize(("feature", "wrong", "right"), [
    # Records told apart by a word value: the answer reads the other record.
    ("substitute",
     case("What's the flow on the intake pump?", "The outflow pump is stopped, 0 l/min.",
          tools=(_PUMPS,)),
     case("What's the flow on the intake pump?", "The intake pump runs at 410 l/min.",
          tools=(_PUMPS,))),
    # Label and number: bay 4 asked, bay 7 answered.
    ("slot_swap",
     case("Is loading bay 4 free this afternoon?", "Bay 7 is free from 13:00 to 17:00."),
     case("Is loading bay 4 free this afternoon?", "Bay 4 is free from 13:00 to 17:00.")),
    # Asked to reserve, the run renewed; a call of the same act (book / reserve) is right.
    ("other_action",
     case("Please reserve a copy of 'Middlemarch' for me", "Your two loans are renewed until 9 May.",
          tools=(ToolCall("renew_loans", {"card": "77"}, '{"ok": true}', True),)),
     case("Please book a court for Tuesday at 18:00", "Court 2 is yours on Tuesday at 18:00.",
          tools=(ToolCall("reserve_court", {"day": "Tue", "time": "18:00"}, '{"ok": true}',
                          True),))),
    # A closed set of siblings: asked about one animal, a language, the answer is about another.
    ("substitute",
     case("How often should I feed my rabbit? She's two.",
          "Hamsters need fresh food once a day, about a tablespoon of pellets, plus fresh water."),
     case("How often should I feed my rabbit? She's two.",
          "Rabbits graze all day: unlimited hay, a handful of greens morning and evening.")),
    ("substitute",
     case("how do I reverse a string in Ruby", "In Python use slicing: `s[::-1]`."),
     case("how do I reverse a string in Ruby", "In Ruby call `str.reverse`.")),
    # A code of the same series, another member: fault F07 asked, F12 explained.
    ("substitute",
     case("What does fault F07 mean on my boiler?", "F12 means the flue sensor is blocked."),
     case("What does fault F07 mean on my boiler?", "F07 means the water pressure is low.")),
    # An operation word that is also a noun ("subscription") does not hide the act asked.
    ("other_action",
     case("I'd like to pause my newspaper subscription over the holidays",
          "Your subscription has been cancelled.",
          tools=(ToolCall("cancel_subscription", {"id": "N-88"}, '{"ok": true}', True),)),
     case("I'd like to pause my newspaper subscription over the holidays",
          "Your subscription is on hold until 4 January.",
          tools=(ToolCall("pause_subscription", {"id": "N-88"}, '{"ok": true}', True),))),
    # A year as the subject's label: the 2026 budget asked, the 2025 one given (a year
    # inside a date is when, not what).
    ("substitute",
     case("What's the approved 2026 marketing budget?",
          "The 2025 marketing budget was approved at €410,000 on March 3, 2026."),
     case("What's the approved 2026 marketing budget?",
          "The 2026 marketing budget was approved at €455,000 on March 3, 2026.")),
    # A hyphenated name, another member of its series: one part differs (eu-west / us-west).
    ("substitute",
     case("Which instance types can I launch in the eu-west region?",
          "In us-west you can launch t3, m6i and c7g instances."),
     case("Which instance types can I launch in the eu-west region?",
          "In eu-west you can launch t3, m6i and c7g instances; a follow-up list is coming.")),
    # The run acted on another record than the one asked, whatever the answer says: another
    # person (`child: Ava K.` for Noah), another day (the 3rd asked, the 4th cancelled).
    ("acted_on",
     case("Has Noah had his inhaler today?", "Yes, one dose at 11:40.",
          tools=(ToolCall("med_log", {"child": "Ava K."}, '{"inhaler": "11:40"}', True),)),
     case("Has Noah had his inhaler today?", "Yes, one dose at 11:40.",
          tools=(ToolCall("med_log", {"child": "Noah B."}, '{"inhaler": "11:40"}', True),))),
    ("acted_on",
     case("Please cancel the cleaning on the 3rd, we'll be away", "Done, that visit is cancelled.",
          tools=(ToolCall("cancel_visit", {"date": "2027-03-04"}, '{"ok": true}', True),)),
     case("Please cancel the cleaning on the 3rd, we'll be away", "Done, that visit is cancelled.",
          tools=(ToolCall("cancel_visit", {"date": "2027-03-03"}, '{"ok": true}', True),))),
    # Two entries of the evidence the cosines cannot tell apart: the answer's own words come
    # from the entry without the asked word (the front door's steps for the garage keypad).
    ("wrong_source",
     case("how do I reset the alarm code on my garage keypad?",
          "Resetting the keypad code is easy: in the app under Devices choose Change code and "
          "confirm with your account PIN.", context=_ALARM_CODES),
     case("how do I reset the alarm code on my garage keypad?",
          "To reset the alarm code, hold PROGRAM for 5 seconds, type the new 4-digit code and "
          "press ENTER twice.", context=_ALARM_CODES)),
    # The request spells out the evidence's acronym: its entry is the one asked about.
    ("wrong_source",
     case("How much can I put into the employee stock purchase plan?",
          "You can defer up to $23,500 of your salary in 2026, plus catch-up if you're over 50.",
          context=_SAVINGS_PLANS),
     case("How much can I put into the employee stock purchase plan?",
          "Between 1% and 15% of your pay, up to $25,000 of stock a year, at a 15% discount.",
          context=_SAVINGS_PLANS)),
    # An amount converted the other way: the asked number comes back in the other currency.
    ("reversed",
     case("How many yen do I get for 250 CHF today?", "At today's rate ¥250 is about CHF 1.45."),
     case("How many yen do I get for 250 CHF today?", "250 CHF is about ¥43,000 at today's rate.")),
    # A route with articles, the other way round.
    ("reversed",
     case("When is the last ferry from the island to the mainland?",
          "The last ferry from the mainland to the island leaves at 22:10."),
     case("When is the last ferry from the island to the mainland?",
          "The last ferry from the island to the mainland leaves at 22:40.")),
])
def test_task_understanding_evidence(embed: Embed, feature: str, wrong: RunCase,
                                     right: RunCase) -> None:
    assert task_understanding_evidence(wrong, embed).features[feature] == 1.0
    assert task_understanding_evidence(right, embed).features[feature] == 0.0


def test_a_title_word_is_no_wrong_source(embed: Embed) -> None:
    """The document's title names what every entry is about: an answer from its second
    sentence did not answer from the wrong part."""
    doc = ("Grout datasheet (epoxy grout): Walkable after 24 h. Wet areas and showers after "
           "72 h. Full chemical resistance after 7 days.")
    ev = task_understanding_evidence(case(
        "when can I use the shower after the epoxy grout", "Wait 72 hours before using the shower.",
        context=(doc,)), embed)
    assert ev.features["wrong_source"] == 0.0


def test_an_acronym_heading_a_code_is_no_name(embed: Embed) -> None:
    ev = task_understanding_evidence(case(
        "How much ABS granulate is left?", "About 2 t; the next delivery on PO-5120 is due Monday."),
        embed)
    assert ev.features["substitute"] == 0.0


@pytest.mark.parametrize(("wrong", "right"), [
    # The request's kind named by its phrase, the answer on the phrase's sibling: the same
    # head with another modifier, or the same modifier with another head.
    (case("How do I claim sick pay from my employer?",
          "To claim holiday pay, submit the dates in the HR portal and your manager approves them."),
     case("How do I claim sick pay from my employer?",
          "Tell your manager on the first day off; sick pay starts from the fourth day.")),
    (case("How do I get a copy of my marriage certificate?",
          "You can book a marriage ceremony at the register office; bring two witnesses."),
     case("How do I get a copy of my marriage certificate?",
          "Order it online from the register office where you married; it costs £12.50.")),
])
def test_a_sibling_named_by_the_requests_phrase_is_another_thing(embed: Embed, wrong: RunCase,
                                                                  right: RunCase) -> None:
    ev = task_understanding_evidence(wrong, embed)
    assert ev.features["substitute"] == 1.0 and "instead" in ev.notes["substitute"]
    assert task_understanding_evidence(right, embed).features["substitute"] == 0.0


@pytest.mark.parametrize("same", [
    # A word that picks which one ("our own", "outside") is no kind of its own.
    case("Can we bring our own caterer to the venue?",
         "Yes, outside caterers are welcome with public liability insurance."),
    # A model number names one of the asked kind, not a sibling.
    case("where do the wires of a solenoid point motor go",
         "A PL-10 point has three terminals: the middle one is common."),
    # A yes-or-no question is rightly answered with what is offered instead.
    case("Is there a cheaper broadband plan for one person?",
         "Yes: the basic plan is £18 a month with 50 Mb."),
    # Acts said two ways are one act; a name's sibling is the name check's.
    case("Speeding fine for 34 in a 30 zone, worth fighting it?", "It's rarely worth contesting."),
    case("why does my Victorian house have cold rooms", "Victorian houses were built for coal fires."),
    # The text handed over to summarise is not what is asked about.
    case("Summarise this: 'The night ferry takes cars and leaves the harbour at ten each day.'",
         "A car ferry leaves the harbour nightly at 22:00."),
])
def test_no_sibling_in_the_same_thing_said_otherwise(embed: Embed, same: RunCase) -> None:
    assert task_understanding_evidence(same, embed).features["substitute"] == 0.0


def test_a_sibling_phrase_is_read_only_without_evidence(embed: Embed) -> None:
    """With documents or tool outputs, what the answer draws on is weighed instead."""
    ev = task_understanding_evidence(case(
        "How do I claim sick pay from my employer?",
        "To claim holiday pay, submit the dates in the HR portal and your manager approves them.",
        context=("Holiday pay: submit the dates in the HR portal.",)), embed)
    assert ev.features["substitute"] == 0.0


@pytest.mark.parametrize(("wrong", "right"), [
    (case("How do I convert a Word document into a PDF?",
          "To convert a PDF to Word, open it in Word and confirm the conversion."),
     case("How do I convert a Word document into a PDF?",
          "Choose File > Save As and pick PDF as the type.")),
    # Both ways said, the asked way among them: no reversal.
    (case("How do I change my YAML config to JSON?",
          "Write the JSON back to YAML with yaml.dump, once loaded."),
     case("How do I change my YAML config to JSON?",
          "Load it with yaml.safe_load and write it to JSON with json.dump; to go back, convert "
          "the JSON to YAML with yaml.dump.")),
])
def test_a_conversion_the_other_way_round_is_reversed(embed: Embed, wrong: RunCase,
                                                      right: RunCase) -> None:
    assert task_understanding_evidence(wrong, embed).features["reversed"] == 1.0
    assert task_understanding_evidence(right, embed).features["reversed"] == 0.0


@pytest.mark.parametrize(("feature", "wrong", "right"), [
    ("plan",
     case("Renew the SSL certificate for shop.example before Friday",
          "Here's how I'll handle it: 1. Generate a CSR. 2. Submit it to the CA. 3. Install the "
          "new certificate."),
     case("Renew the SSL certificate for shop.example before Friday",
          "Renewed: the new certificate for shop.example is installed and valid until 2027-12-04.",
          tools=(ToolCall("renew_certificate", {"host": "shop.example"}, '{"ok": true}', True),))),
    ("redirect",
     case("Please update my delivery address to 14 Mill Lane",
          "For address changes, please contact our customer team on 0800 000 111."),
     case("Please update my delivery address to 14 Mill Lane",
          "Your delivery address is now 14 Mill Lane.",
          tools=(ToolCall("update_address", {"line1": "14 Mill Lane"}, '{"ok": true}', True),))),
    ("item_failed",
     case("extend both of my rentals",
          "Both rentals have been extended by a week.",
          tools=(ToolCall("extend_rentals", {}, '[{"item": "drill", "extended": true}, '
                          '{"item": "ladder", "extended": false}]', True),)),
     case("extend both of my rentals",
          "The drill is extended by a week; the ladder could not be, it is booked by someone else.",
          tools=(ToolCall("extend_rentals", {}, '[{"item": "drill", "extended": true}, '
                          '{"item": "ladder", "extended": false}]', True),))),
    ("evasive",
     case("My flight lands at 23:40 — can I still check in at the hostel tonight?",
          "We look forward to welcoming you! Travel days can be long, so rest well."),
     case("My flight lands at 23:40 — can I still check in at the hostel tonight?",
          "Yes: reception is open 24 hours, so you can check in when you arrive.")),
    # What the request gave as "my X is V", or its day and time, asked for again.
    ("asks_given",
     case("Book me a bike service on Thursday at 9am, my phone is 0161 496 0000",
          "Sure! What day and time suit you, and could you share your phone number?"),
     case("Book me a bike service on Thursday at 9am, my phone is 0161 496 0000",
          "Booked: Thursday 9:00, we'll text 0161 496 0000 the day before.",
          tools=(ToolCall("book_service", {"day": "Thu", "time": "09:00"}, '{"ok": true}',
                          True),))),
    # One act of a multi-part request left undone, not a detail.
    ("act_missing",
     case("Move my dentist appointment to Friday and cancel the hygienist one",
          "Your dentist appointment is now on Friday at 10:30.",
          tools=(ToolCall("reschedule_appointment", {"day": "Fri"}, '{"ok": true}', True),)),
     case("Move my dentist appointment to Friday and cancel the hygienist one",
          "Your dentist appointment is now on Friday at 10:30, and the hygienist one is "
          "cancelled.",
          tools=(ToolCall("reschedule_appointment", {"day": "Fri"}, '{"ok": true}', True),
                 ToolCall("cancel_appointment", {"type": "hygienist"}, '{"ok": true}', True)))),
    # Reassurance in words no stock list has: no sentence names anything of the request.
    ("generic",
     case("What should I do about the leak under my kitchen sink?",
          "We know home problems can be a real headache! Our team takes pride in quality "
          "service. Thanks for being a valued customer."),
     case("What should I do about the leak under my kitchen sink?",
          "Close the valve under the sink, put a bowl under the leak and tighten the slip nut "
          "by hand.")),
    # Stock courtesy ("we hope you enjoy", "beyond our control") that answers nothing.
    ("generic",
     case("My flight was cancelled, can I get a refund for booking QX-7712?",
          "We understand how disappointing this is. Cancellations sometimes happen for reasons "
          "beyond our control. We appreciate your patience and hope you enjoy your next trip."),
     case("My flight was cancelled, can I get a refund for booking QX-7712?",
          "Yes: QX-7712 was cancelled by us, so the full 212 EUR goes back to your card within "
          "7 days.")),
    # A list after a colon that the request's parts read as one: two of three left out.
    ("parts_missing",
     case("For batch B-220 I need: the yield, the rejected units, and the shift lead.",
          "Batch B-220 yielded 96.2%."),
     case("For batch B-220 I need: the yield, the rejected units, and the shift lead.",
          "Batch B-220 yielded 96.2%, with 41 rejected units; the shift lead was Ola Berg.")),
    # Names joined by "and": one of the two targets done.
    ("parts_missing",
     case("Write the sign 'Wet floor' in Spanish and Polish", "Spanish: 'Suelo mojado'."),
     case("Write the sign 'Wet floor' in Spanish and Polish",
          "Spanish: 'Suelo mojado'. Polish: 'Mokra podłoga'.")),
    ("remainder",
     case("archive the old projects and email the team a summary",
          "I've archived the 12 old projects.", steps=("Archived 12 projects.", "Next: email.")),
     case("archive the old projects and email the team a summary",
          "I've archived the 12 old projects and emailed the team a summary.",
          steps=("Archived 12 projects.", "Emailed the summary."))),
])
def test_task_completion_evidence(embed: Embed, feature: str, wrong: RunCase,
                                  right: RunCase) -> None:
    assert task_completion_evidence(wrong, embed).features[feature] >= 1.0  # counts: parts
    assert task_completion_evidence(right, embed).features[feature] == 0.0


def test_a_promise_that_waits_on_the_users_reply_is_a_clarifying_question(embed: Embed) -> None:
    asks = task_completion_evidence(case(
        "check my tax return for mistakes",
        "I don't have your return yet. Could you upload the PDF? Then I'll go through it line "
        "by line."), embed)
    puts_off = task_completion_evidence(case(
        "check my tax return for mistakes",
        "I'll go through your return line by line and get back to you."), embed)
    assert asks.features["promise"] == 0.0
    assert puts_off.features["promise"] == 1.0


def test_the_rest_announced_for_next_is_work_left(embed: Embed) -> None:
    left = task_completion_evidence(case(
        "translate all three chapters", "Chapter 1 is translated below. I'll do chapter 2 next."),
        embed)
    later = task_completion_evidence(case(
        "move my session", "Done: I'll see you at the new slot next week."), embed)
    assert left.features["remainder"] == 1.0
    assert later.features["remainder"] == 0.0


def test_a_change_made_by_an_update_call_meets_the_part(embed: Embed) -> None:
    """A verb is met by the verbs that name the same act: the change was made by update_*."""
    ev = task_completion_evidence(case(
        "Can you 1) change my plan to the yearly one and 2) move the renewal to March?",
        "Both done: you're on the yearly plan now, renewing on 1 March.",
        tools=(ToolCall("update_subscription", {"plan": "yearly", "renewal": "03-01"},
                        '{"ok": true}', True),)), embed)
    assert ev.features["parts_missing"] == 0.0


def test_progress_reported_by_the_world_is_no_work_left(embed: Embed) -> None:
    ev = task_completion_evidence(case(
        "send 20 EUR to Ana", "Sent 20 EUR to Ana; the bank has confirmed it so far and it "
        "should arrive today.",
        tools=(ToolCall("send_payment", {"to": "Ana", "amount": 20}, '{"ok": true}', True),)),
        embed)
    assert ev.features["remainder"] == 0.0


_TANGENT = ("The 14:05 is on time. Riverside station opened in 1887 under Queen Victoria, "
            "when the Great Western Railway reached Oxford, and Isambard Brunel designed its "
            "famous iron roof.")


@pytest.mark.parametrize(("feature", "wrong", "right"), [
    ("other_party",
     case("Did my refund for order 5531 go through?",
          "Yes, €32 was refunded on Monday. I also noticed another customer had a failed "
          "payment, so I emailed them a new link."),
     case("Did my refund for order 5531 go through?", "Yes, €32 was refunded on Monday.")),
    # A record the run came across and took up for its (third-person) owner.
    ("noticed_other",
     case("Is my bike locker 12 renewed for next term?",
          "Yes, locker 12 runs to 30 June. While checking, I saw locker 21's holder had not "
          "paid, so I sent him a reminder and put a hold on his key card."),
     case("Is my bike locker 12 renewed for next term?",
          "Yes, locker 12 runs to 30 June. While checking, I saw your key card expires in May, "
          "so renew it at the front desk.")),
    # The agent's own life after the answer.
    ("personal_share",
     case("How long should I rest bread dough after kneading?",
          "About an hour at room temperature, until it doubles. When I lived in Lyon my "
          "neighbour baked every morning, and my family still talks about her walnut loaf."),
     case("How long should I rest bread dough after kneading?",
          "About an hour at room temperature, until it doubles; in a cold kitchen allow 90 "
          "minutes.")),
    # Announced however short, after a long answer.
    ("marked_share",
     case("What oil should I use for my lawnmower?",
          "Most four-stroke mowers take SAE 30 in summer or 10W-30 if you also mow in cooler "
          "weather; check the manual for the capacity, usually around 0.6 litres, and change it "
          "every season or 50 hours. Fun fact: the first lawnmower was patented by Edwin "
          "Budding in 1830, inspired by a cloth-cutting machine in a mill."),
     case("What oil should I use for my lawnmower?",
          "Most four-stroke mowers take SAE 30 in summer or 10W-30 if you also mow in cooler "
          "weather; change it every season or 50 hours.")),
    # Boasting about the business is selling too.
    ("promo_share",
     case("Do I need to fast before my blood test on Monday?",
          "Yes, nothing but water for 10 hours before it. Our lab is ranked top 10 nationally "
          "and boasts state-of-the-art analysers; follow us on social media for health tips."),
     case("Do I need to fast before my blood test on Monday?",
          "Yes, nothing but water for 10 hours before it; take your usual medicines unless "
          "your doctor said otherwise.")),
    ("new_names",
     case("Is the 14:05 to Riverside on time?", _TANGENT),
     case("Is the 14:05 to Riverside on time?", "The 14:05 to Riverside is on time, platform 2.")),
    # "Challenge", "deal" and "classes" are ordinary words until the business offers
    # something: its own product, a price, a call to buy.
    ("promo_share",
     case("Can my landlord keep the whole deposit for a stained carpet?",
          "Only for damage beyond normal wear. Ask for the itemised list of deductions. Why "
          "not join our tenant classes? The spring deal is 20% off for members."),
     case("Can my landlord keep the whole deposit for a stained carpet?",
          "Only for damage beyond normal wear. Ask for the itemised list of deductions, and "
          "you can challenge them with the tenancy deposit scheme, which offers a free "
          "dispute service; the deal is usually settled within 28 days.")),
    # The document the question turns on, once the answer hands it to the user ("your
    # Proprietary Lease"), is background, not a tangent's cast of new names.
    ("new_names",
     case("Can the co-op board block me from subletting for a year?",
          "Usually only if the lease allows it. Cooperative housing began with the Rochdale "
          "Pioneers in Lancashire in 1844, and Robert Owen's ideas spread it to Amalgamated "
          "Housing in the Bronx by 1927."),
     case("Can the co-op board block me from subletting for a year?",
          "Usually only if the lease allows it. Most Proprietary Leases require board consent "
          "for a sublet. Read the sublet clause in your Proprietary Lease and ask the board "
          "for its written policy.")),
    # A sentence about the user's own named thing (its plural too) may bring a detail or
    # two of it; one that starts from it and names a cast has left it.
    ("new_names",
     case("Is my Singer 201K sewing machine worth servicing?",
          "Yes, if the motor runs. Singer built the 201K at its Clydebank factory in Scotland, "
          "and Isaac Merritt Singer's company later sold Clydebank to Kilbowie Estates in 1980 "
          "after strikes and a long fight with Brother and Janome."),
     case("Is my Singer 201K sewing machine worth servicing?",
          "Yes, if the motor runs. Singer 201Ks from the 1950s have gear-driven Bakelite-free "
          "mechanisms that outlast most modern machines; a service with new grease and a belt "
          "costs about £60.")),
])
def test_off_topic_evidence(embed: Embed, feature: str, wrong: RunCase, right: RunCase) -> None:
    assert off_topic_evidence(wrong, embed).features[feature] > 0.0
    assert off_topic_evidence(right, embed).features[feature] == 0.0


def test_a_pitch_counts_unless_offers_were_asked(embed: Embed) -> None:
    pitch = ("Your parcel arrives Thursday. Why not try our Premium delivery? Get next-day "
             "slots for just £4 a month.")
    sold = off_topic_evidence(case("When does my parcel arrive?", pitch), embed)
    asked = off_topic_evidence(case("When does my parcel arrive, and is there a faster plan?",
                                    pitch), embed)
    assert sold.features["promo_share"] > 0.3
    assert asked.features["promo_share"] == 0.0


def test_reasoning_names_words_as_the_request_writes_them(embed: Embed) -> None:
    wrong = case("Please reserve a copy of 'Middlemarch' for me",
                 "Your two loans are renewed until 9 May.",
                 tools=(ToolCall("renew_loans", {"card": "77"}, '{"ok": true}', True),))
    notes = task_understanding_evidence(wrong, embed).notes
    assert notes["other_action"] == 'asked to "reserve", the run did "renew"', notes



_HOLD_READ = ToolCall("get_hold", {"hold_id": "H-3307"},
                      '{"hold_id": "H-3307", "title": "Piranesi", "status": "waiting"}', True)


def test_the_act_performed_on_the_record_read_is_no_other_thing(embed: Embed) -> None:
    """The record read before the act and returned after it is one record at two times: its
    old value (`waiting`) is no sibling and no other part of the evidence, and the read's
    name (get_hold) performs nothing; an act the request tells in the past is not asked."""
    asked = "I've changed my plans, please cancel my waiting hold H-3307 on Piranesi."
    done = task_understanding_evidence(case(
        asked, "Hold H-3307 on Piranesi is cancelled; you are off the queue.",
        tools=(_HOLD_READ, ToolCall("cancel_hold", {"hold_id": "H-3307"},
                                    '{"hold_id": "H-3307", "status": "cancelled"}', True))), embed)
    assert not any(done.features[f] for f in ("substitute", "wrong_source", "other_action")), \
        done.notes
    other = task_understanding_evidence(case(
        asked, "Hold H-3307 on Piranesi now lasts 30 days instead of 7.",
        tools=(_HOLD_READ, ToolCall("extend_hold", {"hold_id": "H-3307", "days": 30},
                                    '{"hold_id": "H-3307", "status": "waiting"}', True))), embed)
    assert other.features["other_action"] == 1.0, other.notes


@pytest.mark.parametrize(("read", "fired"), [("Springfield, MO", 1.0), ("Springfield, IL", 0.0),
                                             ("Springfield, Illinois", 0.0)])
def test_the_same_place_in_another_region_is_acted_on(embed: Embed, read: str,
                                                      fired: float) -> None:
    """A place asked with its region, read in another (the region's code or full name in the
    asked region is the same place)."""
    ev = task_understanding_evidence(case(
        "Is the water-main repair in Springfield, Illinois finished yet?",
        "Yes, the crews closed the repair on Elm Street yesterday and water pressure is normal.",
        tools=(ToolCall("city_notices", {"city": read}, '{"notice": "repair closed"}', True),)),
        embed)
    assert ev.features["acted_on"] == fired, ev.notes

_ORDER_PROBE = """
from semloop.judge.local._claims import word_stems
from semloop.judge.local._task import _idents
from semloop.judge.local._understanding import _in_order
text = "Compare the HSA, FSA and HRA limits for Dana Whitfield at Orbis Labs in March, order 48821"
print(list(_idents(text)), _in_order(word_stems(text), text))
"""


def test_what_a_rule_reports_does_not_hang_on_the_hash_seed() -> None:
    """Names and missing words come in the order the text writes them, so a finding's
    reasoning (and the recurring issue it is grouped into) is the same in every process."""
    seeds = (1, 2, 3, 4)
    outputs = set(run_at_once([[sys.executable, "-c", _ORDER_PROBE]] * len(seeds),
                              envs=[{**os.environ, "PYTHONHASHSEED": str(s)} for s in seeds]))
    assert len(outputs) == 1, outputs
    assert outputs.pop().startswith("['hsa', 'fsa', 'hra', 'dana'")


@pytest.mark.parametrize(("evidence", "request_", "answer", "feature", "value"), [
    # What the user is told to do serves the goal whatever it names; a tangent narrates.
    (off_topic_evidence, "what should I pack for the school trip on friday?",
     ("A packed lunch and a water bottle. The forecast says rain after 2pm, so a light raincoat "
      "helps. Bring a spare pair of socks too."), "stretch", 0.0),
    # A marker after a conjunction still announces a digression.
    (off_topic_evidence, "Which tent pegs hold in sand?",
     ("Long, wide sand pegs or buried deadman anchors. But honestly it makes you wonder why we "
      "camp at all, when Seneca said a wise man is at home everywhere."), "marker", 1.0),
    # A question for a fact names an act as a noun ("send"): stating the figure instructs
    # nobody ("Click rate" is no "click").
    (task_completion_evidence, "what was the delivery rate on Monday's SMS send?",
     "97.1% delivered. Click rate was 2.3%.", "instructions", 0.0),
    (task_completion_evidence, "rename all 40 photos by date",
     "The first 15 photos are renamed. I'll carry on with the rest tomorrow.", "remainder", 1.0),
])
def test_a_probe_sets_one_feature(embed: Embed, evidence: Callable[[RunCase, Embed], Evidence],
                                  request_: str, answer: str, feature: str,
                                  value: float) -> None:
    assert evidence(case(request_, answer), embed).features[feature] == value


@pytest.mark.parametrize(("wrong", "right"), [
    # Another act: asked to merge, the answer sets out to split.
    (case("How do I merge two PDF files on a Mac?",
          "To split a PDF, open it in Preview, show the thumbnails and drag the pages you want "
          "onto the desktop. Each dragged selection becomes its own file."),
     case("How do I merge two PDF files on a Mac?",
          "Open the first PDF in Preview, show the thumbnails, then drag the second file into "
          "the sidebar. Save, and the two are merged into one document.")),
    # An act asked with a light verb and its particle: turning off answered as turning on.
    (case("How do I turn off read receipts in my chat app?",
          "You can turn them on under Settings > Privacy. Your contacts then see when you've "
          "read their messages."),
     case("How do I turn off read receipts in my chat app?",
          "Go to Settings > Privacy and switch Read receipts off. Others' receipts are hidden "
          "from you too.")),
    # A value asked for and never stated: a duration answered with how-to steps.
    (case("How long does a passport renewal take by post?",
          "Fill in the renewal form online and print it. Post it with your old passport and "
          "two photos to the address on the form."),
     case("How long does a passport renewal take by post?",
          "Usually about three weeks from when they receive it, longer in the summer.")),
    # Another kind of text: a thank-you note asked, an agenda written.
    (case("Write a short thank-you note to the caretaker for fixing the boiler",
          "AGENDA\nBuilding committee, 3 March\n1. Boiler repairs\n2. Stairwell lights"),
     case("Write a short thank-you note to the caretaker for fixing the boiler",
          "Dear Mr Adeyemi,\nThank you for getting the boiler running again so quickly.\n"
          "Warm regards,\nFlat 6")),
    # The draft is signed by the one it was to be sent to.
    (case("Draft an email from me to Professor Lindqvist asking for a week's extension",
          "Dear students,\nThe essay deadline stays as announced; no extensions this term.\n"
          "Best,\nProfessor Lindqvist"),
     case("Draft an email from me to Professor Lindqvist asking for a week's extension",
          "Dear Professor Lindqvist,\nCould I have one more week for the essay? I was ill last "
          "week.\nKind regards,\nJonas")),
    # Another audience: asked in plain words for a child, answered in a clinician's register.
    (case("Explain to my 6-year-old why we brush our teeth at night",
          "Nocturnal salivary flow diminishes considerably, so fermentable carbohydrates "
          "remaining interproximally accelerate demineralisation of enamel."),
     case("Explain to my 6-year-old why we brush our teeth at night",
          "At night your mouth makes less spit, so bits of food stay on your teeth. Tiny germs "
          "eat them and make holes. Brushing sweeps the food away before bed.")),
    # Someone else's thing answered as the user's own.
    (case("How do I add my husband to the gym's family plan?",
          "Open the app and go to Membership. Your plan, your payment card and your visits are "
          "all listed there."),
     case("How do I add my husband to the gym's family plan?",
          "Go to Membership > Family and tap Add member; your husband gets an email invite.")),
])
def test_another_task_in_plain_words(embed: Embed, wrong: RunCase, right: RunCase) -> None:
    assert task_understanding_evidence(wrong, embed).features["another_task"] == 1.0
    assert task_understanding_evidence(right, embed).features["another_task"] == 0.0


def test_a_value_left_out_of_a_multi_part_request_is_a_partial_answer(embed: Embed) -> None:
    """One part unanswered is TASK_COMPLETION's business, not another task."""
    partial = case("Can I park at the depot overnight and how much is it?",
                   "Yes, the depot car park stays open overnight. Use the side gate after 22:00.")
    assert task_understanding_evidence(partial, embed).features["another_task"] == 0.0


def test_another_word_for_the_same_person_names_them(embed: Embed) -> None:
    """My son is "your child"; "your parent account" names the user, not the son."""
    named = case("My son lost his library card, how do we replace it?",
                 "Bring your child with a photo ID to any branch. The new card costs 2 EUR.")
    assert task_understanding_evidence(named, embed).features["another_task"] == 0.0
    unnamed = case("My son lost his library card, how do we replace it?",
                   "Sign in to your parent account and open Settings. Your card can be "
                   "reissued there for 2 EUR.")
    assert task_understanding_evidence(unnamed, embed).features["another_task"] == 1.0


@pytest.mark.parametrize(("wrong", "right"), [
    (case("Fix the broken links on the pricing page", "Fixed the 3 broken links on the pricing page.",
          steps=("Checked the pricing page: 3 broken links.", "Reading the analytics for the blog.",
                 "Drafting a newsletter about spring offers.")),
     case("Fix the broken links on the pricing page", "Fixed the 3 broken links on the pricing page.",
          steps=("Checked the pricing page: 3 broken links.", "Updated the three hrefs.",
                 "Rechecked: all links return 200."))),
])
def test_steps_that_start_other_work(embed: Embed, wrong: RunCase, right: RunCase) -> None:
    assert off_topic_evidence(wrong, embed).features["stray_work"] > 0.0
    assert off_topic_evidence(right, embed).features["stray_work"] == 0.0


@pytest.mark.parametrize(("feature", "wrong", "right"), [
    # Items numbered inline are parts, whatever sentence they sit in.
    ("parts_missing",
     case("Guest in room 12 asks for: 1) extra towels, 2) a late checkout, 3) a taxi at 6am. "
          "Please arrange all of it.", "Extra towels are on their way to room 12."),
     case("Guest in room 12 asks for: 1) extra towels, 2) a late checkout, 3) a taxi at 6am. "
          "Please arrange all of it.",
          "Room 12: extra towels sent, late checkout set to 13:00, taxi booked for 6:00.")),
    # The numbered items are the parts even when the sentences split into fewer.
    ("parts_missing",
     case("For the allotment shed: 1) fit the new padlock on the door, 2) move my plot "
          "inspection to Monday, 3) tell me when the water is switched back on.",
          "I've fitted the new padlock on the shed door, and the water is switched back on "
          "from Friday 10:00."),
     case("For the allotment shed: 1) fit the new padlock on the door, 2) move my plot "
          "inspection to Monday, 3) tell me when the water is switched back on.",
          "New padlock fitted on the shed door, your plot inspection is moved to Monday, and "
          "the water is switched back on from Friday 10:00.")),
    # "Enrol" (British spelling) asks for an act as "enroll" does.
    ("instructions",
     case("Enrol me on the first-aid refresher on the 9th, staff number 2210.",
          "To enrol, go to the learning portal, choose 'First-aid refresher', pick the 9th and "
          "press Submit."),
     case("Enrol me on the first-aid refresher on the 9th, staff number 2210.",
          "You're enrolled on the first-aid refresher on the 9th; the confirmation is in your "
          "inbox.")),
    ("remainder",
     case("Rename the five chapter files to the new scheme",
          "Renamed chapter 1 and chapter 2. Moving on to the rest now."),
     case("Rename the five chapter files to the new scheme",
          "Renamed all five chapter files to ch01-ch05.")),
    # "I wasn't able to …" and nothing more: no reason, nothing offered, nothing done.
    ("generic",
     case("can you get a plumber round to fix my boiler today? it's leaking",
          "I wasn't able to get a plumber round to you today."),
     case("can you get a plumber round to fix my boiler today? it's leaking",
          "I wasn't able to get a plumber round today because all three are on call-outs, "
          "but the first one free can come at 8am tomorrow. Shall I book it?")),
    # A degree ("mild", "a little") answers a yes-or-no question about how much.
    ("evasive",
     case("Getting a root canal next week. Does it hurt much?",
          "Every patient is different, and our team will talk you through the treatment."),
     case("Getting a root canal next week. Does it hurt much?",
          "Only mildly for most patients: the tooth is numbed, so you feel pressure rather "
          "than pain, and it may ache a little for a day or two.")),
    # A refusal that names nothing of the request is a generic reply.
    ("generic",
     case("Change my dentist appointment to Friday", "Sorry, I can't help with that."),
     case("Change my dentist appointment to Friday",
          "I can't move it online: Friday is fully booked. Thursday at 9:30 is free; shall I "
          "take it?")),
])
def test_task_completion_newer_evidence(embed: Embed, feature: str, wrong: RunCase,
                                        right: RunCase) -> None:
    assert task_completion_evidence(wrong, embed).features[feature] >= 1.0
    assert task_completion_evidence(right, embed).features[feature] == 0.0


# --- TC-16 / TUF blind-15 / drift-16 round: each rule on a probe, and its hard negative ----

def _call(name: str, args: dict[str, object], output: str, success: bool = True) -> ToolCall:
    return ToolCall(name, args, output, success)


_CARD_DOWN = _call("charge_card", {"amount": 42}, '{"error": "processor_unavailable"}', False)


@pytest.mark.parametrize(("feature", "wrong", "right"), [
    # A yes that names the part's words answers "can I …?": the act was the user's to ask about.
    ("parts_missing",
     case("Which port does the dashboard use by default, and can I run it above 9000?",
          "The dashboard listens on port 8080 by default."),
     case("Which port does the dashboard use by default, and can I run it above 9000?",
          "The dashboard listens on port 8080 by default. Yes, you can run it above 9000 by "
          "setting PORT in the env file.")),
    # An imperative outside the parts' verb list ("Switch off … and tell me …") is an act asked.
    ("act_missing",
     case("Switch off the beta banner on the staging site and tell me how many visitors saw it.",
          "The beta banner on staging was shown to 4,120 visitors this week."),
     case("Switch off the beta banner on the staging site and tell me how many visitors saw it.",
          "I've switched off the beta banner on staging; it was shown to 4,120 visitors this week.")),
    # A clause that states what the user is doing ("moving house and …") asks no act.
    ("parts_missing",
     case("Cancel my broadband at 3 Elm Row and tell me the final bill.",
          "Your broadband at 3 Elm Row ends on 30 June."),
     case("how do I reset my router? moving house and taking it with me",
          "Hold the reset pin for 10 seconds until the light flashes amber, then set it up "
          "again in the app.")),
    # Of two things asked together, the one the answer never names is left.
    ("parts_missing",
     case("Please renew my permit and my library card, I'm at 14 Alma Road.",
          "Your permit for 14 Alma Road is renewed until June."),
     case("Please renew my permit and my library card, I'm at 14 Alma Road.",
          "Your permit and your library card are renewed until June.")),
    # "each with …" says how each was sent, not that all were.
    ("parts_missing",
     case("Send the rota to this week's team: Ana, Ben and Cleo.",
          "Sent the rota to Ana and Ben, each with next week's shifts."),
     case("Send the rota to this week's team: Ana, Ben and Cleo.",
          "Sent the rota to all three, each with next week's shifts.")),
    # After a failure, the retry handed back to the user is work left.
    ("remainder",
     case("Pay my £42 invoice with the card on file.",
          "The payment didn't go through because the card processor was down. Please try again "
          "in an hour.", tools=(_CARD_DOWN,)),
     case("Pay my £42 invoice with the card on file.",
          "The first attempt failed because the card processor was down; I retried at 10:05 and "
          "it went through, receipt R-118.",
          tools=(_CARD_DOWN, _call("charge_card", {"amount": 42}, '{"receipt": "R-118"}')))),
    # The rest of the work promised with a report to follow is work left.
    ("remainder",
     case("Find me a plumber who can come on Friday.",
          "I found three plumbers near you. I'll ask which of them can come on Friday and come "
          "back to you this afternoon."),
     case("Find me a plumber who can come on Friday.",
          "I found three plumbers near you; Dave can come on Friday at 9am, and I'll get back to "
          "you if he has to move it.")),
    # An act that opens a later sentence is asked, however long the background before it.
    ("instructions",
     case("Our finance team keeps getting bounced emails from your portal because the billing "
          "contact is an old address. Update it to ap@bramble.co.",
          "To update the billing contact, go to Settings and open Billing. Click Edit contact, "
          "enter the new address and press Save."),
     case("Our finance team keeps getting bounced emails from your portal because the billing "
          "contact is an old address. Explain how the contact is used.",
          "To update the billing contact, go to Settings and open Billing. Click Edit contact, "
          "enter the new address and press Save.")),
])
def test_task_completion_round16(embed: Embed, feature: str, wrong: RunCase, right: RunCase) -> None:
    assert task_completion_evidence(wrong, embed).features[feature] >= 1.0
    assert task_completion_evidence(right, embed).features.get(feature, 0.0) == 0.0


def _merge(branch: str) -> ToolCall:
    return _call("merge_pull_request", {"repo": "shop-web", "pr": 88, "branch": branch},
                 '{"merged": true}')


@pytest.mark.parametrize(("feature", "wrong", "right"), [
    # The person gave the thing: it is the user's own.
    ("another_task",
     case("what's left on my brother's gift voucher?",
          "Your voucher ending 2231 has £40 left. It's valid until May."),
     case("what's left on the gift voucher my brother gave me?",
          "Your voucher ending 2231 has £40 left. It's valid until May.")),
    # "so you can restart" is a consequence, not the answer's purpose.
    ("another_task",
     case("how do I pause my subscription?", "You can cancel it from the Account page at any time."),
     case("how do I pause my subscription?",
          "Open Account, pick Subscription and choose Hold for up to 3 months, so you can "
          "restart whenever you like.")),
    # "whats …, and how much …" asks two things: the price left out is a partial answer.
    ("another_task",
     case("how much does the large tent cost to hire?",
          "The large tent sleeps a whole family and comes with a groundsheet. Two people can "
          "pitch it easily."),
     case("whats the large tent like, and how much does it cost to hire?",
          "The large tent sleeps a whole family and comes with a groundsheet. Two people can "
          "pitch it easily.")),
    # Another role than the user's.
    ("another_task",
     case("Can I claim the heat pump rebate as a tenant?",
          "Yes. As an owner-occupier you can claim up to $500 back on a new heat pump."),
     case("Can I claim the heat pump rebate as a tenant?",
          "Yes. As a tenant you can claim it too, with your landlord's written consent.")),
    # A bound that cannot meet the asked one; an overlapping one answers it.
    ("another_task",
     case("Is the climbing wall open to kids under 10?",
          "Yes, climbers aged 14 and over can use the wall without an adult."),
     case("Is the climbing wall open to kids under 10?",
          "Yes, children aged 6 and over can climb with an adult, so 6 to 9 year-olds are welcome.")),
    # The user's own member of a closed set never named; the answer takes up the one beside it.
    ("substitute",
     case("Can I use the wormer we got for my rabbit on my guinea pig?",
          "Yes, that wormer is fine for rabbits of any age. Give it once, with food."),
     case("Can I use the wormer we got for my rabbit on my guinea pig?",
          "Ask your vet first: rabbit wormers are often dosed too high for guinea pigs.")),
    # The answer opens on another thing it is for than the one asked.
    ("another_task",
     case("What oil should I use for a two-stroke mower?",
          "For a four-stroke engine use SAE 30 oil. Change it every season."),
     case("What oil should I use for a two-stroke mower?",
          "For a two-stroke mower mix two-stroke oil at 50:1. Change it every season.")),
    # A call run under the kind the request names its code by, on another value.
    ("acted_on",
     case("Please merge PR 88 into the hotfix/1.9 branch.", "PR 88 is merged.",
          tools=(_merge("main"),)),
     case("Please merge PR 88 into the hotfix/1.9 branch.", "PR 88 is merged.",
          tools=(_merge("hotfix/1.9"),))),
])
def test_task_understanding_round15(embed: Embed, feature: str, wrong: RunCase,
                                    right: RunCase) -> None:
    assert task_understanding_evidence(wrong, embed).features[feature] == 1.0
    assert task_understanding_evidence(right, embed).features[feature] == 0.0


_ORDER_STEPS = ("Looking up order 5521.", "Rewriting the returns policy page.",
                "Drafting the autumn newsletter.")


def test_the_answers_report_of_other_work_is_that_work(embed: Embed) -> None:
    request = "Where is my order 5521?"
    reported = off_topic_evidence(case(
        request, "Order 5521 shipped yesterday. I've also rewritten the returns policy page and "
        "drafted the autumn newsletter.", steps=_ORDER_STEPS), embed).features["stray_work"]
    silent = off_topic_evidence(case(
        request, "Order 5521 shipped yesterday. It left by courier, so order 5521 should reach you "
        "by Thursday.", steps=_ORDER_STEPS), embed).features["stray_work"]
    assert reported > silent > 0.0
    # With no step gone off to other work, a report of work done is not counted.
    focused = off_topic_evidence(case(
        request, "Order 5521 shipped yesterday. I've also rewritten the returns policy page and "
        "drafted the autumn newsletter.", steps=("Looking up order 5521.",)), embed)
    assert focused.features["stray_work"] == 0.0


def test_when_i_first_started_is_the_agents_own_life(embed: Embed) -> None:
    request = "Do you deliver on Sundays?"
    told = off_topic_evidence(case(
        request, "Yes, we deliver on Sundays. I remember when I first started here we only had one "
        "van, and the driver used to stop for breakfast at the same cafe every morning."), embed)
    plain = off_topic_evidence(case(
        request, "Yes, we deliver on Sundays. Orders placed before noon on Saturday arrive the "
        "next day."), embed)
    assert told.features["personal_share"] > 0.0
    assert plain.features["personal_share"] == 0.0


# --- real runs: a hand-off to a person is the policy's outcome, not a failure of its own ---

_LOOKUP = _call("get_reservation_details", {"reservation_id": "K7Q2PL"}, '{"cabin": "basic_economy"}')
_HANDOFF = _call("transfer_to_human_agents", {"summary": "cancellation outside policy"},
                 "Transfer successful")


def test_a_hand_off_is_neither_generic_nor_another_task(embed: Embed) -> None:
    request = "Hi, please cancel my reservation K7Q2PL and refund it"
    handed = case(request, "You are being transferred to a human agent. Thank you for your patience.",
                  tools=(_LOOKUP, _HANDOFF))
    tc = task_completion_evidence(handed, embed).features
    assert tc["generic"] == 0.0 and tc["promise"] == 0.0 and tc["parts_missing"] == 0.0
    assert task_understanding_evidence(handed, embed).features["other_action"] == 0.0
    # Another operation that ran is still another task; a promise before a hand-off of
    # something else still promises.
    moved = case(request, "Your reservation K7Q2PL is updated.",
                 tools=(_LOOKUP, _call("update_reservation_flights", {"reservation_id": "K7Q2PL"},
                                       '{"ok": true}')))
    assert task_understanding_evidence(moved, embed).features["other_action"] == 1.0
    checking = case(request, "Let me check K7Q2PL.", tools=(_LOOKUP, _HANDOFF))
    assert task_completion_evidence(checking, embed).features["promise"] == 1.0


_RESERVATION = _call("get_reservation_details", {"reservation_id": "Q69X3R"},
                     '{"reservation_id": "Q69X3R", "origin": "PHL", "destination": "LGA"}')


def test_a_record_the_run_touched_is_the_users_case(embed: Embed) -> None:
    # A chat's opening may only greet; the places and carriers come in later messages. A
    # sentence naming the reservation the run looked up is work on it, whatever it names.
    request = "Hi, could you help me cancel my reservation?"
    on_it = ("I found your reservation Q69X3R from Philadelphia to LaGuardia on Delta Airlines, "
             "booked through Expedia in Economy Plus.")
    assert off_topic_evidence(case(request, on_it, steps=("Sure, what is your user id?",),
                                   tools=(_RESERVATION,)), embed).features["new_names"] == 0.0
    # The same sentence with no record behind it, and a tangent beside the record, bring names.
    assert off_topic_evidence(case(request, on_it, steps=("Sure, what is your user id?",)),
                              embed).features["new_names"] > 0.0
    tangent = ("Your reservation Q69X3R is cancelled. LaGuardia opened in 1939 under Mayor "
               "Fiorello La Guardia, and Robert Moses built the Grand Central Parkway to it.")
    assert off_topic_evidence(case(request, tangent, tools=(_RESERVATION,)),
                              embed).features["new_names"] > 0.0


def test_a_record_a_letter_from_the_users_is_another_case(embed: Embed) -> None:
    # The run's tool calls touched E5503 too, but E5503 is not the user's E5530.
    request = "I haven't received my November commission payment, employee E5530"
    other = ("I also found that E5503 (Jamie Rivera in the Denver office) was underpaid by "
             "Harborline Payroll, so I raised an adjustment with Wexford Benefits.")
    ran = case(request, "Your November commission is in the Dec 15 payroll. " + other,
               tools=(_call("commission_status", {"employee": "E5530"}, '{"amount": 2140}'),
                      _call("raise_adjustment", {"employee": "E5503"}, '{"ok": true}')))
    features = off_topic_evidence(ran, embed).features
    assert features["other_case"] == 1.0 and features["new_names"] > 0.0


def test_a_reply_in_another_language_is_not_far_by_meaning(embed: Embed) -> None:
    request = "Hi there! I'm calling to check on the status of the order I placed last week."
    spanish = case(request, "Tu pedido está en camino y llegará el jueves. Te enviaré el número "
                   "de seguimiento por correo.",
                   steps=("Claro, para ayudarte necesito el número de tu pedido, por favor.",))
    features = off_topic_evidence(spanish, embed).features
    assert features["never_on"] == 0.0 and features["tail_far"] == 0.0
    assert features["far_share"] == 0.0
    # An English tangent stays far from the request.
    english = case(request, "Your order ships Thursday. Penguins huddle together through the "
                   "Antarctic winter while the males keep the eggs warm on their feet.")
    assert off_topic_evidence(english, embed).features["far_share"] > 0.0


def test_which_units_are_in_another_language() -> None:
    units = [("Tu pedido está en camino y llegará el jueves.", False),
             ("Your order is on its way and arrives on Thursday.", False),
             ("Order 4471: shipped.", False)]
    assert _foreign("Where is my order? I placed it last week.", units) == [True, False, False]
    # A request in Spanish: nothing is foreign to an English reading of it.
    assert _foreign("¿Dónde está mi pedido de la semana pasada?", units) == [False] * 3


def test_the_user_addressed_by_title_is_no_one_else(embed: Embed) -> None:
    request = "Hi, I'd like to book a double room for two nights from Friday."
    booked = "Your double room is booked for Friday and Saturday nights."
    addressed = case(request, booked, steps=(("Wonderful! Thank you, Mr. Smith. Let me get that "
                                             "reservation created for you."),))
    assert off_topic_evidence(addressed, embed).features["other_party"] == 0.0
    # Someone named in the third person is another party still.
    spoken_of = case(request, booked, steps=(("I have also moved Mr. Patel's booking to the "
                                             "suite on Saturday."),))
    assert off_topic_evidence(spoken_of, embed).features["other_party"] == 1.0


# --- chats (task17 round): the request is the first message, the answer the last reply ---

_APPOINTMENTS = (
    _call("get_appointments", {"patient": "PT-5521"},
          '{"appointments": [{"id": "AP-903", "clinic": "Elm Street", "time": "09:20"}]}'),
    _call("reschedule_appointment", {"appointment_id": "AP-903", "time": "16:30"},
          '{"appointment_id": "AP-903", "time": "16:30", "status": "confirmed"}'),
    _call("get_clinic_info", {"clinic": "Elm Street"}, '{"parking": "free for 2 hours"}'),
)


def test_a_chats_last_reply_may_answer_a_later_message(embed: Embed) -> None:
    request = "Can I move my check-up at the Elm Street clinic to later that afternoon?"
    parking = "Parking there is free for the first two hours; the entrance is on Birch Road."
    asked = "Could you give me the phone number on your file?"
    moved = "Done: your check-up is now at 16:30 at Elm Street. Anything else?"
    # The request was taken up in an earlier reply: the last one answers a later question.
    chat = case(request, parking, tools=_APPOINTMENTS, steps=(asked, moved))
    features = task_understanding_evidence(chat, embed).features
    assert not any(features[name] for name in ("substitute", "wrong_source", "another_task"))
    # Every reply misses the request the same way: a misunderstanding still.
    balance = _call("get_accounts", {"member": "M-20391"},
                    '{"accounts": [{"type": "FSA", "balance": 640.0}, {"type": "HSA", "balance": 2315.4}]}')
    wrong = case("How much is left in my HSA this year?", "Your FSA has $640.00 left for this year.",
                 tools=(balance,), steps=("Hi! Could you give me your member ID?",))
    assert task_understanding_evidence(wrong, embed).features["substitute"] == 1.0


def test_a_hand_off_clears_what_the_answer_would_be_about(embed: Embed) -> None:
    request = "I need to change my upcoming flight from JFK to an earlier nonstop one."
    handed = case(request, "YOU ARE BEING TRANSFERRED TO A HUMAN AGENT. PLEASE HOLD ON.",
                  tools=(_LOOKUP, _HANDOFF), steps=("What is your user id?",))
    assert not any(task_understanding_evidence(handed, embed).features[name]
                   for name in ("substitute", "other_action", "another_task"))


def test_a_closing_courtesy_is_judged_by_the_reply_it_closes(embed: Embed) -> None:
    request = "Could you book a table for four at the Riverside branch on Friday at 7pm?"
    booking = _call("create_booking", {"branch": "Riverside", "covers": 4}, '{"booking_id": "RV-7731"}')
    welcome = "You're welcome! Enjoy your dinner, and get in touch if you need anything else."
    done = case(request, welcome, tools=(booking,), steps=(
        "What name should the booking be under?",
        "Booked: a table for four at Riverside on Friday at 7pm, reference RV-7731. Anything else?"))
    assert answer_task_completion(done, embed).value < 0.5
    promised = case(request, welcome, steps=("What name should the booking be under?",
                                             "Thanks, I'll book it for you later today."))
    answer = answer_task_completion(promised, embed)
    assert answer.value > 0.5 and "only says it will" in answer.reasoning


def test_closings_in_a_row_are_read_back_to_the_reply_they_close(embed: Embed) -> None:
    # A chat whose agent never asks with "?" but waits on the user ("let me know"), and a
    # customer who thanks twice and says goodbye: the answer is the last reply with content.
    request = "Please renew my parking permit for the Oak Street garage."
    renew = _call("renew_permit", {"garage": "Oak Street"}, '{"permit": "PK-4410", "valid_to": "2027-01-31"}')
    steps = ("Sure. Please share your permit number and I'll renew it. Let me know when you have it.",
             "Your Oak Street garage permit PK-4410 is renewed until 31 January 2027.",
             "You're welcome! Glad I could help.")
    done = case(request, "Take care, goodbye!", tools=(renew,), steps=steps)
    assert answer_task_completion(done, embed).value < 0.5
    failed = _call("renew_permit", {"garage": "Oak Street"}, "Error: permit service unavailable")
    unable = case(request, "Take care, goodbye!", tools=(failed,), steps=(
        steps[0], "I'll renew it for you later today.", steps[2]))
    answer = answer_task_completion(unable, embed)
    assert answer.value > 0.5 and "only says it will" in answer.reasoning


def test_help_offered_for_later_is_no_promise_of_the_work(embed: Embed) -> None:
    request = "Can you move my dentist appointment to next week?"
    failed = _call("reschedule_appointment", {"week": "next"}, "Error: calendar service unavailable")
    offer = ("I'm unable to move the appointment because the calendar service is down. If you have "
             "any other requests, let me know, and I'll do my best to assist you!")
    assert not task_completion_evidence(case(request, offer, tools=(failed,)), embed).features["promise"]
    put_off = "I'll move the appointment for you and get back to you tomorrow."
    assert task_completion_evidence(case(request, put_off), embed).features["promise"]


def test_steps_for_the_user_are_no_claim_of_a_failed_call(embed: Embed) -> None:
    failed = _call("create_branch", {"repo": "site"}, '{"error": "Repository not found."}')
    guide = "After you have created the branch, your pull request is ready to open from it."
    how = "How do I add a file to the site repository through a pull request?"
    assert not task_completion_evidence(case(how, guide, tools=(failed,)), embed).features["false_success"]
    claim = "The branch has been created and the pull request is ready."
    act = "Please create a branch in the site repository and open a pull request."
    assert task_completion_evidence(case(act, claim, tools=(failed,)), embed).features["false_success"]


def test_a_fix_asked_for_is_met_by_an_update(embed: Embed) -> None:
    request = "My shipping address has a typo. Can you check it and fix it if needed?"
    update = _call("update_address", {"line1": "445 Maple Drive"}, '{"status": "ok"}')
    done = case(request, "I checked it: the address had a typo, and it has been updated to 445 Maple Drive.",
                tools=(update,))
    assert task_completion_evidence(done, embed).features["act_missing"] == 0


def test_a_part_answered_in_an_earlier_reply_is_met(embed: Embed) -> None:
    request = "What's your cheapest car in Malaga from 2 to 9 June, and how much is it per day?"
    rental = _call("create_rental", {"model": "Fiat 500"}, '{"confirmation": "MG-55018"}')
    booked = "Booked! Your confirmation number is MG-55018: a Fiat 500 from Malaga airport."
    alone = task_completion_evidence(case(request, booked, tools=(rental,)), embed).features
    chat = case(request, booked, tools=(rental,), steps=(
        "The cheapest is a Fiat 500 at €29 a day, €203 for the week. Shall I book it?",))
    assert alone["parts_missing"] > 0 and task_completion_evidence(chat, embed).features["parts_missing"] == 0


def test_a_call_whose_output_opens_on_an_error_failed(embed: Embed) -> None:
    # tau's tools refuse with "Error: …" and the call is still recorded as made.
    request = "Please add oranges to tomorrow's delivery and pay the difference with my card."
    declined = _call("charge_card", {"amount": 2.4}, "Error: card declined by issuer")
    claimed = "Done! The oranges are added and the extra £2.40 has been paid with your card."
    assert task_completion_evidence(case(request, claimed, tools=(declined,)), embed).features["false_success"]
    # A lookup that failed, then found by other means, is not the work claimed done.
    lookup = _call("find_user_by_email", {"email": "a@b.c"}, "Error: user not found")
    charged = _call("charge_card", {"amount": 2.4}, '{"ok": true}')
    assert not task_completion_evidence(case(request, claimed, tools=(lookup, charged)),
                                        embed).features["false_success"]


def test_a_read_calls_false_state_is_no_item_left_undone(embed: Embed) -> None:
    request = "Can you turn on roaming on my line?"
    read = _call("get_line_details", {"line": "07700 900873"}, '{"roaming_enabled": false}')
    enabled = _call("enable_roaming", {"line": "07700 900873"}, '{"roaming_enabled": true}')
    done = "All set! Roaming is now on for your line."
    assert not task_completion_evidence(case(request, done, tools=(read, enabled)),
                                        embed).features["item_failed"]
    refused = _call("enable_roaming", {"line": "07700 900873"}, '{"activated": false}')
    assert task_completion_evidence(case(request, done, tools=(read, refused)),
                                    embed).features["item_failed"]


def test_let_me_know_promises_no_work(embed: Embed) -> None:
    request = "I need to cancel a passenger from my flight."
    refused = ("There are not enough seats in economy on the return flight, so I cannot make this "
               "change. If you need anything else, please let me know!")
    assert not task_completion_evidence(case(request, refused), embed).features["promise"]
    assert task_completion_evidence(case(request, "Let me look into that for you."),
                                    embed).features["promise"]


def test_labels_and_amounts_name_no_thing() -> None:
    assert _idents("My booking ID is GH-3307 and I want the 256GB model") == {"gh-3307": "code"}
    assert _idents("Order 48821 for Marta") == {"marta": "name", "48821": "number"}


def test_a_round_trip_goes_both_ways(embed: Embed) -> None:
    request = "Change my round trip from LAS to DEN to basic economy."
    both = "Updated: outbound LAS → DEN on May 19, return DEN → LAS on May 20, basic economy."
    assert task_understanding_evidence(case(request, both), embed).features["reversed"] == 0.0
    back = "Updated: your flight DEN → LAS on May 20 is now basic economy."
    assert task_understanding_evidence(case(request, back), embed).features["reversed"] == 1.0


def test_markdown_and_capitals_are_no_names() -> None:
    assert _unformatted("- **Route:** CLT to DTW\n1. **Rash** on trunk") == "Route: CLT to DTW\nRash on trunk"
    assert _unformatted("YOU ARE BEING TRANSFERRED TO A HUMAN AGENT.") == "You are being transferred to a human agent."
    assert _unformatted("Ask Dr. Patel at the NHS.") == "Ask Dr. Patel at the NHS."
    # A table's cells open like lines; words shouted in a row are emphasis; codes stay.
    assert _unformatted("| Option | What will happen |") == "Option\nWhat will happen\n"
    assert _unformatted("Please do this RIGHT NOW: fly JFK to LAX") == "Please do this right now: fly JFK to LAX"


def test_the_users_name_from_their_id_and_a_record_summary_bring_no_names(embed: Embed) -> None:
    request = "Hello, I'd like to freeze my membership for two months while I recover from surgery."
    member = _call("get_member", {"member_id": "marcus_oyelaran_2231"}, '{"plan": "monthly"}')
    named = ("Marcus, your membership is frozen from June to July. Get well soon, Marcus. "
             "**Plan:** monthly\n**Status:** frozen")
    assert off_topic_evidence(case(request, named, tools=(member,)), embed).features["new_names"] == 0.0
    tangent = ("Your membership is frozen. Joseph Pilates devised his method in Mönchengladbach "
               "and Eve Gentry taught it in New York.")
    assert off_topic_evidence(case(request, tangent, tools=(member,)), embed).features["new_names"] > 0.0


def test_rendered_calls_are_work_on_the_request(embed: Embed) -> None:
    request = "My new headphones stopped charging after a week. Can I swap them?"
    calls = tuple(f'{name}({{"order": "#E44120"}})' for name in
                  ("find_order", "get_order_details", "check_stock", "create_exchange", "send_return_label"))
    done = "Done: a replacement pair ships tomorrow, and the return label is in your email."
    features = off_topic_evidence(case(request, done, steps=("What's the email on your order?", *calls)),
                                  embed).features
    assert features["stretch"] == 0.0 and features["far_share"] == 0.0


def test_what_the_user_still_has_to_do_is_no_work_left(embed: Embed) -> None:
    request = "Can I pay for the flight change with my travel certificates?"
    told = "Only one certificate can be used, so even with the $500 one you would still need to pay $212."
    assert task_completion_evidence(case(request, told), embed).features["remainder"] == 0.0
    left = "I've applied the $500 certificate. I still need to apply the second one."
    assert task_completion_evidence(case(request, left), embed).features["remainder"] == 1.0


# --- real runs, round 2: replies that ask, refuse with a reason, hand off, or serve ---

def test_a_question_for_the_users_details_promises_no_work(embed: Embed) -> None:
    request = "Hi, I need to cancel my eye test on the 12th."
    steps = ("Hello! How can I help?", "Sure. First, could you give me your patient number?")
    asks = "No problem! I can look you up with your name and date of birth instead. Please go ahead and share those with me."
    tc = task_completion_evidence(case(request, asks, steps=steps), embed).features
    assert tc["promise"] == 0.0 and tc["generic"] == 0.0
    waits = "I'm sorry. I still need to verify your identity before I cancel it. Can you please provide your date of birth?"
    assert task_completion_evidence(case(request, waits, steps=steps), embed).features["remainder"] == 0.0
    # The same offer with nothing asked of the user only promises.
    promised = "No problem! I will look you up and cancel the eye test later today."
    assert task_completion_evidence(case(request, promised, steps=steps), embed).features["promise"] == 1.0


def test_a_refusal_that_gives_its_reason_is_not_generic(embed: Embed) -> None:
    request = "I want my money back for the concert tickets, I can't go any more."
    steps = ("Hi! What can I help with?", "Could you give me the order number?")
    reasoned = ("I understand your frustration, and I'm sorry. However, our terms don't allow me to "
                "refund tickets once the event is within seven days.")
    assert task_completion_evidence(case(request, reasoned, steps=steps), embed).features["generic"] == 0.0
    bare = "I'm sorry to hear that. Unfortunately I'm unable to help with that. Is there anything else?"
    assert task_completion_evidence(case(request, bare, steps=steps), embed).features["generic"] == 1.0


def test_a_hand_off_said_in_the_future_is_done_when_the_call_ran(embed: Embed) -> None:
    request = "Hi, please cancel my reservation K7Q2PL and refund it"
    said = "I understand. I will transfer you to a human agent now who can look at the refund."
    assert task_completion_evidence(case(request, said, tools=(_LOOKUP, _HANDOFF)),
                                    embed).features["promise"] == 0.0
    # With no hand-off call it stays a promise (the labelled set's task_completion-522).
    assert task_completion_evidence(case(request, said, tools=(_LOOKUP,)), embed).features["promise"] == 1.0


def test_sympathy_and_an_identity_check_stay_on_the_request(embed: Embed) -> None:
    request = "My boiler stopped working this morning and the house is freezing. I need an engineer today."
    steps = ("Hello, how can I help?", "I'm sorry to hear that. I can help you book an engineer.")
    service = ("I completely understand how stressful that is with the cold. For your security I'm "
               "required to verify your identity before I open your plan. Could you give me your "
               "policy number and postcode?")
    served = off_topic_evidence(case(request, service, steps=steps), embed).features
    assert served["stretch"] == 0.0 and served["off_share"] == 0.0
    # An aside after the same question still leaves the request.
    aside = ("Could you give me your policy number? By the way, I grew up in a house with a coal "
             "range and my grandmother baked bread in it every Sunday. We used to sit round it "
             "telling stories all winter long.")
    wandered = off_topic_evidence(case(request, aside, steps=steps), embed).features
    assert wandered["off_share"] > 0.0 and wandered["digression"] == 1.0


def test_a_user_id_is_no_other_party(embed: Embed) -> None:
    request = "Hi, I'd like to order a new keyboard, my user ID is KB-2231."
    own = "The system says that user ID KB-2231 does not exist. Could you check it, or do you have another user ID?"
    assert off_topic_evidence(case(request, own), embed).features["other_party"] == 0.0
    other = "While I was at it I also updated another customer's delivery address for them."
    assert off_topic_evidence(case(request, other), embed).features["other_party"] == 1.0


_ISSUE = ("paginate() drops the last page when the count is a multiple of the size. Steps: "
          "call paginate(items, 10) with 20 items. Expected 2 pages, got 1. Python 3.11 on Linux.")
_SUBMIT = ToolCall("bash", {"command": "git diff --cached"},
                   "diff --git a/pages.py b/pages.py\n--- a/pages.py\n+++ b/pages.py\n@@ -4 +4 @@\n"
                   "-    return n - 1\n+    return n\n", True)


def test_a_patch_handed_in_meets_the_issue(embed: Embed) -> None:
    """An issue is met by the change the run hands in, which no sentence restates; words
    that only announce the submission are no unmet parts, and a promise still counts."""
    words = "I am ready to submit."
    handed = task_completion_evidence(case(_ISSUE, words, tools=(_SUBMIT,)), embed)
    nothing = task_completion_evidence(case(_ISSUE, words, tools=(ToolCall(
        "bash", {"command": "git diff --cached"}, "", True),)), embed)
    assert handed.features["parts_missing"] == 0.0 < nothing.features["parts_missing"]
    left = task_completion_evidence(case(_ISSUE, "I fixed paginate(). The docs are next.",
                                         tools=(_SUBMIT,)), embed)
    assert left.features["remainder"] == 1.0
    assert answer_task_completion(case(_ISSUE, words, tools=(_SUBMIT,)), embed).value < 0.5


def test_a_command_is_no_record_acted_on(embed: Embed) -> None:
    # "line 474" of the issue and `sed -i '174s…'` are a file's lines, not two records.
    asked = "The crash is at line 474 of sklearn/utils.py, in account ac_4474."
    shell = ToolCall("bash", {"command": "sed -i '174s/x/y/' sklearn/utils.py"}, "", True)
    record = ToolCall("close_account", {"account": "ac_4475"}, '{"ok": true}', True)
    assert task_understanding_evidence(case(asked, "Fixed.", tools=(shell,)), embed).features["acted_on"] == 0.0
    assert task_understanding_evidence(case(asked, "Closed.", tools=(record,)), embed).features["acted_on"] == 1.0


def test_ids_of_code_years_and_the_users_own_are_no_other_case(embed: Embed) -> None:
    issue = "Since 2022, `filter(col1=5)` fails for table t4 on port 8000 (ticket 29406)."
    notes = ("I checked col2 and col1 of t4 as `t5.col3` does. Port 8100 and 2023 are fine. "
             "Ticket 29406 is the user's.")
    assert off_topic_evidence(case(issue, "Fixed.", steps=(notes,)), embed).features["other_case"] == 0.0
    other = off_topic_evidence(case(issue, "Fixed.", steps=("I also closed ticket 29407.",)), embed)
    assert other.features["other_case"] == 1.0


def test_a_format_label_and_a_long_notes_vocabulary_are_no_new_cast(embed: Embed) -> None:
    assert "THOUGHT" not in _unformatted("THOUGHT: The fix is in paginate().")
    filler = " ".join(["the page count is computed from the size and the length"] * 30)
    long_note = f"{filler}. Cohen says Echelon forms differ. {filler}."
    ev = off_topic_evidence(case("Why does paginate() drop the last page?", "It subtracts one.",
                                 steps=("Looking at paginate().", long_note)), embed)
    assert ev.features["new_names"] == 0.0


def test_a_fix_that_reverses_the_reported_fault_is_no_opposite(embed: Embed) -> None:
    # An issue reports what goes wrong; the fix's words say the reverse, and the patch is
    # what was changed.
    issue = "The prepend option should keep leading whitespace; right now it is removed."
    words = "Added the leading whitespace back to the prepended line."
    assert task_understanding_evidence(case(issue, words), embed).features["opposite"] == 1.0
    assert task_understanding_evidence(case(issue, words, tools=(_SUBMIT,)), embed).features["opposite"] == 0.0


def test_words_far_apart_in_a_long_note_are_no_pitch_and_no_case_taken_up(embed: Embed) -> None:
    filler = " ".join(["The page count comes from the size and the length."] * 12)
    assert _sells("Try our premium tier: it is free for a month.")
    assert not _sells(f"The classes live in pages.py. {filler} This code path is fine.")
    taken = off_topic_evidence(case("Why does paginate() drop the last page?", "It subtracts one.",
                                    steps=("While checking I saw unit 3D's meter; I sent them a notice.",)), embed)
    apart = off_topic_evidence(case("Why does paginate() drop the last page?", "It subtracts one.",
                                    steps=(f"I saw the helper earlier. {filler} They might fail later.",)), embed)
    assert taken.features["noticed_other"] == 1.0
    assert apart.features["noticed_other"] == 0.0


def test_brackets_in_quoted_code_are_no_placeholder(embed: Embed) -> None:
    code = task_completion_evidence(case(_ISSUE, "Fixed: `pages[n]` now keeps the last page.",
                                         tools=(_SUBMIT,)), embed)
    blank = task_completion_evidence(case("write the welcome email", "Dear [Name], welcome aboard."),
                                     embed)
    assert code.features["placeholder"] == 0.0 < blank.features["placeholder"]


def test_a_submission_that_returns_nothing_hands_in_the_patch_it_showed(embed: Embed) -> None:
    shown = ToolCall("bash", {"command": "cat patch.txt"}, _SUBMIT.output, True)
    submit = ToolCall("bash", {"command": "echo SUBMIT && cat patch.txt"}, "", True)
    words = "The patch looks good. Now let me submit it:"
    handed = task_completion_evidence(case(_ISSUE, words, tools=(shown, submit)), embed)
    assert handed.features["parts_missing"] == handed.features["promise"] == 0.0
    unshown = task_completion_evidence(case(_ISSUE, words, tools=(submit,)), embed)
    assert unshown.features["promise"] == 1.0


_RESTOCK_DOWN = ToolCall("order_stock", {"sku": "INK-22", "qty": 40}, "HTTP 503 Service Unavailable", False)


@pytest.mark.parametrize(("feature", "wrong", "right"), [
    # The failed call's own act stated as done ("restock ordered") with no later call that ran.
    ("false_success",
     case("Order 40 more INK-22 cartridges from the supplier.",
          "Restock ordered \u2705 40 x INK-22, arriving Thursday.", tools=(_RESTOCK_DOWN,)),
     case("Order 40 more INK-22 cartridges from the supplier.",
          "The restock was not ordered: the supplier's system answered 503, so nothing went out.",
          tools=(_RESTOCK_DOWN,))),
    # Work said to be begun is work left ("I've started", "the rest still need").
    ("remainder",
     case("Resize every photo in the album to 1080px.",
          "I've started on the album: the first photos are resized to 1080px."),
     case("Resize every photo in the album to 1080px.",
          "All 24 photos in the album are resized to 1080px.")),
    # Stock words around the request's own, and nothing specific: no number, no name, no date.
    ("generic",
     case("Why did my electricity bill go up by $36 in March?",
          "Electricity bills can change for a number of reasons. You can see your bill online "
          "at any time. Is there anything else I can help with?"),
     case("Why did my electricity bill go up by $36 in March?",
          "March used 410 kWh against 260 kWh in February, which at 24c a unit is the $36. "
          "Is there anything else I can help with?")),
    # "set up" is creating, so a move that was done does not meet it.
    ("act_missing",
     case("Pay the gas bill today, and set up a direct debit for it every month.",
          "The gas bill of \u00a364 has been paid.",
          tools=(ToolCall("pay_bill", {"payee": "gas"}, '{"paid": 64.0}', True),)),
     case("Pay the gas bill today, and set up a direct debit for it every month.",
          "The gas bill of \u00a364 has been paid, and a monthly direct debit to the gas company is set "
          "up from the 1st.",
          tools=(ToolCall("pay_bill", {"payee": "gas"}, '{"paid": 64.0}', True),
                 ToolCall("create_direct_debit", {"payee": "gas"}, '{"id": "DD-7"}', True)))),
    # A price or a time asked for and never given is the thing asked, not a detail left out.
    ("act_missing",
     case("Which forms do I need for a passport for my baby, and how much is the fee?",
          "You need the child passport form, the birth certificate and two photos signed by a "
          "witness."),
     case("Which forms do I need for a passport for my baby, and how much is the fee?",
          "You need the child passport form, the birth certificate and two photos signed by a "
          "witness. The fee is \u00a353.50.")),
])
def test_task_completion_blind24_causes(embed: Embed, feature: str, wrong: RunCase, right: RunCase) -> None:
    assert task_completion_evidence(wrong, embed).features[feature] >= 1.0
    assert task_completion_evidence(right, embed).features.get(feature, 0.0) == 0.0
    assert answer_task_completion(wrong, embed).value >= 0.5 > answer_task_completion(right, embed).value


# Round tuf29: another member of the kind the request names, by an argument's key or by a
# name the embedder puts beside the call's; a change made the other way; a run whose later
# steps, or whose answer's sources, are about something else.
_DEPOT = ToolCall("get_depot_stock", {"depot": "harbour"}, '{"depot": "Harbour Yard", "pallets": 42}', True)
_DEPOT_RIGHT = ToolCall("get_depot_stock", {"depot": "northgate"}, '{"depot": "Northgate", "pallets": 17}', True)
_GLASGOW = ToolCall("venue_search", {"city": "edinburgh", "capacity": "200"},
                    '{"venue": "Assembly Rooms Edinburgh", "capacity": 250}', True)
_GLASGOW_RIGHT = ToolCall("venue_search", {"city": "glasgow", "capacity": "200"},
                          '{"venue": "Merchant Hall Glasgow", "capacity": 220}', True)


@pytest.mark.parametrize(("feature", "wrong", "right"), [
    ("acted_on",
     case("How many pallets are left at the northgate depot?", "Harbour Yard has 42 pallets in stock.",
          tools=(_DEPOT,)),
     case("How many pallets are left at the northgate depot?", "Northgate has 17 pallets in stock.",
          tools=(_DEPOT_RIGHT,))),
    ("acted_on",
     case("Find us a venue for 200 people in Glasgow.", "Assembly Rooms in Edinburgh seats 250.",
          tools=(_GLASGOW,)),
     case("Find us a venue for 200 people in Glasgow.", "Merchant Hall in Glasgow seats 220.",
          tools=(_GLASGOW_RIGHT,))),
    ("opposite",
     case("The thermostat schedule is too warm at night, please lower the setpoint a little.",
          "Done: the night setpoint went from 18 to 20 degrees."),
     case("The thermostat schedule is too warm at night, please lower the setpoint a little.",
          "Done: the night setpoint went from 20 to 18 degrees.")),
])
def test_task_understanding_tuf29(embed: Embed, feature: str, wrong: RunCase, right: RunCase) -> None:
    assert task_understanding_evidence(wrong, embed).features[feature] == 1.0
    assert task_understanding_evidence(right, embed).features[feature] == 0.0


def test_a_second_guest_names_no_member_of_the_guests(embed: Embed) -> None:
    added = ToolCall("add_guest", {"booking_id": "GH-1", "guest_name": "Ana Lima"}, '{"ok": true}', True)
    probe = case("Please add a second guest to booking GH-1.", "Done, Ana Lima is on booking GH-1.",
                 tools=(added,))
    assert task_understanding_evidence(probe, embed).features["acted_on"] == 0.0


def test_later_steps_far_from_the_request_are_other_work(embed: Embed) -> None:
    steps = ("Ran the failing invoice export test", "Opened the theme stylesheet",
             "Changed the button colours", "Tidied the font imports")
    wandered = case("The invoice export test fails since Monday; fix it.", "I refreshed the styling.",
                    steps=steps)
    assert off_topic_evidence(wandered, embed).features["stray_work"] > 0.0
    kept = case("The invoice export test fails since Monday; fix it.", "Fixed the export's date format.",
                steps=("Ran the failing invoice export test", "Read the invoice export code",
                       "Fixed the date format in the invoice export"))
    assert off_topic_evidence(kept, embed).features["stray_work"] == 0.0


def test_an_answer_drawn_from_a_far_result_is_other_work(embed: Embed) -> None:
    booking = ToolCall("get_reservation", {"ref": "QX77"}, '{"ferry": "Dover-Calais", "vehicle": "car", '
                       '"length_m": 4.5, "departs": "09:40"}', True)
    offers = ToolCall("get_partner_offers", {"tier": "gold"}, '{"spa_discount": "30%", "wine_club": "2 free bottles"}',
                      True)
    drifted = case("What's the height limit for the car deck on my ferry QX77?",
                   "As a gold member you get a 30% spa discount and 2 free bottles from the wine club every "
                   "quarter, plus early access to partner offers.", tools=(booking, offers))
    assert off_topic_evidence(drifted, embed).features["stray_work"] > 0.5
    kept = case("What's the height limit for the car deck on my ferry QX77?",
                "Your 09:40 Dover-Calais sailing takes cars up to 1.85 m high on the car deck; your 4.5 m car "
                "is fine.", tools=(booking, offers))
    assert off_topic_evidence(kept, embed).features["stray_work"] == 0.0


def test_an_answer_drawn_from_the_part_that_holds_a_word_of_the_request_is_no_wrong_source(
        embed: Embed) -> None:
    probe = case("What does the appendix of the Harlow grant report recommend?",
                 "It recommends moving two evening classes to weekends and hiring a second tutor by March.",
                 context=(("Harlow Community Trust grant report, main findings: attendance rose 18% and costs "
                          "stayed within budget."),
                          ("Appendix B, recommendations: move two evening classes to weekends; hire a second "
                          "tutor by March.")))
    assert task_understanding_evidence(probe, embed).features["wrong_source"] == 0.0


def test_a_period_or_a_name_after_for_is_no_other_thing_or_purpose(embed: Embed) -> None:
    stay = case("What does a cot cost for the weekend in your family rooms?",
                "For a baby bed we charge 8 € per night, bedding included.")
    assert task_understanding_evidence(stay, embed).features["another_task"] == 0.0
    season = case("When do I need to submit the payroll report for the third quarter?",
                  "For July to September the report is due by 31 October.")
    assert task_understanding_evidence(season, embed).features["another_task"] == 0.0


def test_a_bound_that_holds_the_asked_size_is_no_other_size(embed: Embed) -> None:
    # "about 12 m2" falls in "up to 15 m2": the answer names the bracket the size is in.
    bracket = case("What does a paving permit cost for a driveway of about 12 m2?",
                   "A paving permit is €95; for a surface up to 15 m2 no drainage survey is needed.")
    assert task_understanding_evidence(bracket, embed).features["substitute"] == 0.0
    other = case("What does a paving permit cost for a driveway of about 12 m2?",
                 "For a driveway of 30 m2 the paving permit is €140.")
    assert task_understanding_evidence(other, embed).features["substitute"] == 1.0


def test_a_hyphenated_compound_names_its_words(embed: Embed) -> None:
    # "two storey" asked, "two-storey" answered; "refund share" asked, "partial-refund share" given.
    house = case("what is the insurance excess for a two storey timber house?",
                 "For a two-storey timber house the excess is £350 per claim.")
    assert task_understanding_evidence(house, embed).features["another_task"] == 0.0
    metric = case("Refund share per store for March? (% of orders refunded in part)",
                  "Partial-refund share, March 2026: Leeds 3.1%, York 4.4%.",
                  tools=(ToolCall("run_query", {"sql": "SELECT store, share FROM refunds WHERE month='2026-03'"},
                                  '{"rows": [["Leeds", 3.1], ["York", 4.4]]}', True),))
    assert task_understanding_evidence(metric, embed).features["other_action"] == 0.0


def test_a_verb_inside_the_question_checked_is_no_act_asked(embed: Embed) -> None:
    # "see if my claim got approved": the act is the look, approving is what is asked about.
    probe = case("can you see if my warranty claim for the boiler got approved? claim WC-55120",
                 "I looked up WC-55120 but the claims system is offline until 16:00, so I couldn't see "
                 "its status; I can try again after that.",
                 tools=(ToolCall("get_claim", {"claim_id": "WC-55120"},
                                 '{"error": "503", "message": "offline until 16:00"}', False),))
    assert task_completion_evidence(probe, embed).features["action_unnamed"] == 0.0


def test_a_refusal_of_the_act_answers_the_details_given_for_it(embed: Embed) -> None:
    # The card's number and who the user is were given for the act refused: nothing is left out.
    probe = case("change the card my gym membership is billed to to this one: 4929 1234 0000 7788. I'm his "
                 "partner, my boyfriend holds the membership",
                 "Sorry, I can't change the billing card on this membership: only the member can change "
                 "payment details under our terms. He can update it in the app, or add you as an "
                 "authorised payer.")
    assert task_completion_evidence(probe, embed).features["parts_missing"] == 0.0


def test_a_record_named_in_the_possessive_is_named(embed: Embed) -> None:
    # "Ada's" names the record "Ada"; the answer tells Ben's instead.
    probe = case("are Ada's swimming badge results in yet? she did the test on Monday",
                 "Yes, Ben's results are in: he passed the 25 m freestyle and the treading water test.",
                 tools=(ToolCall("list_results", {"parent_id": "PA-118"},
                                 '[{"child": "Ben", "test": "25 m freestyle, treading water", "status": "passed"}, '
                                 '{"child": "Ada", "test": "50 m backstroke", "status": "awaiting review"}]', True),))
    assert task_understanding_evidence(probe, embed).features["wrong_source"] == 1.0


def test_a_transfer_the_other_way_is_reversed(embed: Embed) -> None:
    probe = case("how do I transfer my TrainMiles over to my Hertz account for a car hire?",
                 "You can move Hertz Gold points into TrainMiles at 2:1 from the Hertz partner page.")
    assert task_understanding_evidence(probe, embed).features["reversed"] == 1.0


# Round tuf30: a plain word of the request whose kin the run acted on; a name in code taken
# with a part dropped; a chatty request read by the part that asks; a closing well-wish;
# advice that names what the user must apply for.
_REED = ToolCall("list_hire", {"instrument": "oboe"}, '{"monthly": 40, "deposit": 150}', True)
_REED_RIGHT = ToolCall("list_hire", {"instrument": "clarinet"}, '{"monthly": 35, "deposit": 120}', True)
_ROWS = ToolCall("sql.query", {"q": "SELECT count(*) FROM shipments WHERE year = 2024"}, '{"count": 9120}', True)
_ROWS_RIGHT = ToolCall("sql.query", {"q": "SELECT count(*) FROM shipments_backup WHERE year = 2024"},
                       '{"count": 9118}', True)


@pytest.mark.parametrize(("feature", "wrong", "right"), [
    ("acted_on",
     case("What does it cost to hire a clarinet for my daughter's first term?",
          "Oboe hire is 40 a month with a 150 deposit.", tools=(_REED,)),
     case("What does it cost to hire a clarinet for my daughter's first term?",
          "Clarinet hire is 35 a month with a 120 deposit.", tools=(_REED_RIGHT,))),
    ("acted_on",
     case("How many shipments from 2024 are in shipments_backup?", "There are 9,120 shipments from 2024.",
          tools=(_ROWS,)),
     case("How many shipments from 2024 are in shipments_backup?", "shipments_backup holds 9,118 from 2024.",
          tools=(_ROWS_RIGHT,))),
    ("substitute",
     case("What does `load_config_overrides` return?",
          "`load_config` returns the parsed settings dict, with defaults filled in."),
     case("What does load_config_overrides return?",
          "It returns only the keys set in the override file; it calls load_config first and diffs the two.")),
])
def test_task_understanding_tuf30(embed: Embed, feature: str, wrong: RunCase, right: RunCase) -> None:
    assert task_understanding_evidence(wrong, embed).features[feature] == 1.0
    assert task_understanding_evidence(right, embed).features[feature] == 0.0


def test_a_short_form_of_the_request_word_is_that_word(embed: Embed) -> None:
    rate = ToolCall("fx_rate", {"base": "GBP", "quote": "JPY"}, '{"rate": 191.2}', True)
    probe = case("How many yen is 300 pounds?", "At 1 GBP = 191.2 JPY, that is about 57,360 JPY.", tools=(rate,))
    assert _other_member(probe, embed) is None


def test_english_words_with_a_hyphen_are_no_name_in_code() -> None:
    assert _part_dropped("Can I do a late check-in on Friday?", ["type: check"], acted=True) is None
    assert _part_dropped("Bump the pin in requirements-dev.txt", ["requirements.txt"], acted=True) == (
        "requirements-dev.txt", "requirements.txt")


def test_a_chatty_request_is_read_by_the_part_that_asks(embed: Embed) -> None:
    hire = ToolCall("check_asset", {"asset": "PA speaker pair", "dates": "June 3-4"},
                    '{"available": true, "daily": 45}', True)
    probe = case("ugh my cousin's engagement party is turning into a circus, his mum keeps changing the "
                 "guest list lol. anyway can I hire the same PA speaker pair as last time for June 3-4?",
                 "Hope the party settles down! The same PA speaker pair is free on June 3-4. It's 45 a "
                 "day, so 90 for both days, with a 60 deposit.", tools=(hire,))
    assert off_topic_evidence(probe, embed).features["stretch"] == 0.0


def test_a_closing_well_wish_and_advice_are_no_tangent(embed: Embed) -> None:
    assert _serves("Have fun!") and _serves("Enjoy your stay.")
    assert not _serves("Enjoy the story of how the first lanes were carved from maple in 1840s Ohio.")
    permit = case("Where do I collect my resident parking permit?",
                  "At the Civic Centre front desk, weekdays 9 to 5. Bring proof of address; if you rent, "
                  "you can also apply online for a Temporary Visitor Parking Voucher.")
    assert off_topic_evidence(permit, embed).features["new_names"] == 0.0


def test_prose_an_argument_carries_is_no_member(embed: Embed) -> None:
    # A think tool's thought mentions what the answer names, in a sentence: it is no member
    # of a kind the run acted on in place of a plain word of the request.
    think = ToolCall("think", {"thought": "The customer mentioned swapping a tent, but the order holds "
                                          "no tent. I need to clarify which order they mean."}, "", True)
    lookup = ToolCall("get_order", {"order_id": "W-4471"}, '{"items": ["sleeping bag", "stove"]}', True)
    probe = case("I'd like to discuss an exchange for the tent on my last order.",
                 "To clarify: order W-4471 holds a sleeping bag and a stove, no tent. Which order is "
                 "the tent on?",
                 tools=(lookup, think))
    assert _other_member(probe, embed) is None


def test_a_kind_word_or_a_verb_is_no_member_of_the_kind(embed: Embed) -> None:
    # "airport" names the kind LAX is one of, and "failing" is no thing: at the names' kin
    # cosine some value sits near each, but a plain word must be clearly another member.
    flight = ToolCall("search_flights", {"origin": "SFO", "destination": "LAX", "date": "2026-05-02"},
                      '{"flights": [{"number": "UA512", "depart": "08:10"}]}', True)
    probe = case("Which flight gets me into the airport earliest on May 2?",
                 "UA512 leaves SFO at 08:10 and lands at LAX first.", tools=(flight,))
    assert _other_member(probe, embed) is None
    status = ToolCall("get_application", {"status": "DENIED", "id": "A-77"}, '{"ok": true}', True)
    probe = case("Why is my application failing?", "Application A-77 is DENIED.", tools=(status,))
    assert _other_member(probe, embed) is None
