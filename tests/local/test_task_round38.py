"""Task rules, round b37tc: a choice asked before the act, an item of the list the act is
for left out, a count of "the six unread emails", a clause that tells the act that was done
on an item whose later step failed, a statement among the request's parts, a failure told
as "I tried, but … aren't available", a "when" clause inside an act, "let me now …" after
look-ups, a look-up closed on "anything else?", a send "to my email" left, and "cancelled"
claimed after a look-up beside "Sorry the plans didn't work out"; each with the look-alike
that must not fire."""

from __future__ import annotations

from semloop.case import RunCase
from semloop.judge.local._answerer import Embed
from semloop.judge.local._completion import answer_task_completion

from .conftest import call, case


def _fires(run: RunCase, embed: Embed) -> bool:
    return float(answer_task_completion(run, embed).value) >= 0.5


def test_a_choice_asked_before_the_act_is_no_offer(embed: Embed) -> None:
    asked = "tidy up the team drive, delete the old exports folder"
    looked = [call("drive.list_roots", {}, [{"name": "Team drive"}, {"name": "Finance shared"}]),
              call("drive.find", {"name": "old exports"}, {"Team drive": 41, "Finance shared": 260})]
    choice = case(asked, "Before I delete anything: there is an 'old exports' folder on the Team drive (41 "
                  "files) and another on the Finance shared drive (260 files), which finance still links to. "
                  "Should I delete only the Team drive one, or the Finance one as well?", *looked)
    assert not _fires(choice, embed)
    # An offer of an extra the request asked for is still the part left undone.
    done = call("drive.delete", {"folder": "old exports", "drive": "Team drive"}, {"deleted": 41})
    offer = case("Delete the old exports folder and tell the team it's gone.",
                 "The old exports folder is deleted (41 files). Want me to post a note to the team?", done)
    assert _fires(offer, embed)


def test_an_item_of_the_list_the_act_is_for_left_out(embed: Embed) -> None:
    asked = ("Please put this notice into Spanish and Polish, our tenants read both:\n\"The water supply to Block C "
             "will be off on Tuesday 8 December from 09:00 to 13:00 while the pipes are replaced. Residents should "
             "store some water beforehand.\"")
    spanish = ("Spanish:\n\"El suministro de agua del Bloque C se cortará el martes 8 de diciembre de 09:00 a 13:00 "
               "mientras se sustituyen las tuberías. Por favor, guarden algo de agua con antelación.\"")
    assert _fires(case(asked, spanish), embed)
    both = spanish + ("\n\nPolish:\n\"Dopływ wody do bloku C zostanie wstrzymany we wtorek 8 grudnia w godz. "
                      "09:00-13:00 z powodu wymiany rur. Prosimy o wcześniejsze odłożenie zapasu wody.\"")
    assert not _fires(case(asked, both), embed)


def test_a_numbered_item_with_its_own_verb_is_no_item_of_one_act(embed: Embed) -> None:
    # Each item is an act of its own, done by one call the answer tells in other words.
    updated = call("update_catering", {"order": "C-881", "headcount": 12, "day": "Friday"},
                   {"ok": True, "delivery": "2026-12-11T12:00"})
    run = case("Please 1) change the team lunch order to 12 people and 2) move it from Thursday to Friday.",
               "Both done: the caterer now has 12 people on the order (was 9), and it will be delivered on "
               "Friday at noon.", updated)
    assert not _fires(run, embed)


def test_a_figure_raised_by_an_update_call_is_raised(embed: Embed) -> None:
    # "Raise it to €25" is a change of the figure: the update call that sets it does the act.
    updated = call("update_standing_order", {"account": "S-118", "amount": 25, "weekday": "FRI"},
                   {"ok": True, "next_run": "2026-12-11"})
    run = case("Can you 1) raise my weekly savings transfer to €25 and 2) move it from Monday to Friday?",
               "Both done: your weekly transfer is now €25 (was €20), and it will go out every Friday, "
               "starting 11 December.", updated)
    assert not _fires(run, embed)


def test_a_clock_or_an_address_colon_opens_no_list(embed: Embed) -> None:
    bought = call("buy_tickets", {"event": "Opera Gala", "time": "19:30", "qty": 3}, {"order": "OG-5512"})
    run = case("Buy 3 tickets for the Opera Gala Friday 19:30, charge the saved card, email them to me",
               "Done: 3 tickets for the Opera Gala on Friday at 19:30, charged to your saved Mastercard, order "
               "OG-5512. The tickets are in your inbox.", bought)
    assert not _fires(run, embed)


def test_the_six_emails_counted_and_three_answered(embed: Embed) -> None:
    listed = call("mail.list", {"folder": "support", "unread": True},
                  [{"id": i, "subject": s} for i, s in enumerate(
                      ["Refund?", "Login broken", "Invoice copy", "Cancel plan", "Hello", "Password reset"], 1)])
    asked = "Sort the six unread emails in the support folder into billing / technical / other."
    three = case(asked, "1. \"Refund?\" - billing\n2. \"Login broken\" - technical\n3. \"Invoice copy\" - billing",
                 listed)
    assert _fires(three, embed)
    six = case(asked, "1. \"Refund?\" - billing\n2. \"Login broken\" - technical\n3. \"Invoice copy\" - billing\n"
               "4. \"Cancel plan\" - billing\n5. \"Hello\" - other\n6. \"Password reset\" - technical", listed)
    assert not _fires(six, embed)


def test_the_act_done_on_an_item_whose_next_step_failed(embed: Embed) -> None:
    opened = call("open_claim", {"policy": "HP-2291", "kind": "water damage"}, {"claim_id": "CL-90311", "status": "OPEN"})
    upload = call("upload_photos", {"claim_id": "CL-90311", "files": ["kitchen1.jpg", "kitchen2.jpg"]},
                  {"error": "file type HEIC not accepted"}, success=False)
    asked = "Open a water damage claim on my home policy. Photos of the kitchen are attached."
    told = case(asked, "I've opened the claim — reference CL-90311 for water damage. The photos couldn't be "
                "added, though: they're HEIC files, which the claims system rejects. Could you send them as JPG or PNG?",
                opened, upload)
    assert not _fires(told, embed)
    claimed = case(asked, "I've opened claim CL-90311 and the photos are uploaded to it.", opened, upload)
    assert _fires(claimed, embed)


def test_a_failure_told_as_tried_but_not_available(embed: Embed) -> None:
    resent = call("resend_statement", {"account": "AC-1120", "month": "2026-10"}, {"status": "SENT"})
    hold = call("hold_mail", {"account": "AC-1120", "weeks": 3}, {"error": "HOLD_NOT_ALLOWED"}, success=False)
    asked = "Can you hold my paper mail for three weeks and send me October's statement again?"
    told = case(asked, "I've re-sent your October statement to your email. About the mail hold: I tried, but holds "
                "aren't available on e-statement accounts like yours, so paper mail can't be paused.", resent, hold)
    assert not _fires(told, embed)
    silent = case(asked, "I've re-sent your October statement to your email.", resent, hold)
    assert _fires(silent, embed)


def test_a_when_clause_inside_an_act_is_not_a_time_asked(embed: Embed) -> None:
    added = call("add_bundle", {"line": "07700900555", "bundle": "EU_ROAM_10"}, {"status": "ACTIVE"})
    asked = "Add the EU roaming bundle to my line and also put a 30 euro limit on extra charges so I'm not " \
            "surprised when it runs out."
    one = case(asked, "Your EU roaming bundle is active: 10 GB for 30 days from today.", added)
    assert _fires(one, embed)
    both = case(asked, "Your EU roaming bundle is active: 10 GB for 30 days from today, and a €30 limit is "
                "now on extra charges.", added, call("set_spend_limit", {"line": "07700900555", "eur": 30},
                                                      {"status": "SET"}))
    assert not _fires(both, embed)


def test_let_me_now_do_the_act_after_look_ups(embed: Embed) -> None:
    looked = [call("get_order", {"order": "PZ-4410"}, {"items": [{"name": "Garlic bread", "price": 4.5}]}),
              call("get_courier_note", {"order": "PZ-4410"}, {"missing": ["Garlic bread"]})]
    asked = "garlic bread missing from PZ-4410, refund it please"
    put_off = case(asked, "I've checked PZ-4410: the courier confirms the garlic bread (£4.50) was left out, "
                   "which is within the refund window. Let me now process the £4.50 refund for you.", *looked)
    assert _fires(put_off, embed)
    done = case(asked, "Refunded: £4.50 for the garlic bread on PZ-4410 is back on your card in 3-5 days.",
                *looked, call("issue_refund", {"order": "PZ-4410", "amount": 4.5}, {"status": "REFUNDED"}))
    assert not _fires(done, embed)


def test_a_look_up_closed_on_anything_else_does_not_act(embed: Embed) -> None:
    looked = [call("get_class", {"code": "POT-W-01"}, {"start": "2027-01-12", "seats_left": 4, "fee": 180}),
              call("get_member", {"id": "MB-3381"}, {"name": "R. Silva", "card_on_file": True})]
    asked = "Please enrol me in the Wednesday pottery class from January. Member MB-3381, card on file is fine."
    closed = case(asked, "Good news: the Wednesday pottery class (from 12 January) has 4 seats left, and the fee "
                  "is £180. Is there anything else I can help you with?", *looked)
    assert _fires(closed, embed)
    asked_back = case(asked, "There are two Wednesday pottery classes from 12 January: beginners at 18:00 (4 seats "
                      "left) and wheel-throwing at 19:30 (2 seats left), both £180. Which one do you mean?", *looked)
    assert not _fires(asked_back, embed)


def test_a_send_to_my_email_is_an_act_left(embed: Embed) -> None:
    booked = call("book_viewing", {"flat": "7 Quay Street", "time": "Thu 17:30"}, {"status": "confirmed"})
    asked = "Book a viewing of 7 Quay Street on Thursday at 17:30, and send the floor plan to my email."
    one = case(asked, "Your viewing at 7 Quay Street is booked for Thursday at 17:30. Tomasz from the letting "
               "team will meet you at the door.", booked)
    assert _fires(one, embed)
    both = case(asked, "Your viewing at 7 Quay Street is booked for Thursday at 17:30, and the floor plan is in "
                "your inbox.", booked, call("send_document", {"doc": "floorplan-7QS.pdf", "to": "user"}, {"status": "SENT"}))
    assert not _fires(both, embed)


def test_cancelled_after_only_a_look_up_with_plans_that_did_not_work_out(embed: Embed) -> None:
    looked = call("get_booking", {"customer": "C-5120"}, {"id": "TT-3381", "date": "2027-01-09", "status": "booked"})
    asked = "Cancel my pottery taster on the 9th, my plans have changed."
    claimed = case(asked, "All done — your taster on 9 January is cancelled. Sorry the plans didn't work out!", looked)
    assert _fires(claimed, embed)
    done = case(asked, "All done — your taster on 9 January is cancelled. Sorry the plans didn't work out!", looked,
                call("cancel_booking", {"id": "TT-3381"}, {"status": "CANCELLED"}))
    assert not _fires(done, embed)
