"""TASK_COMPLETION on false alarms of blind69 … blind71b (opened this round), each tested in a
domain of its own here: a retry handed to the user after the run retried the failed act itself
is an honest end; an offer of more after a look asked and answered takes up no act; an act
asked on a yes the answer denies is not owed, so saying it was not begun leaves no work; a word
of an unread language that the answer says back unchanged (a greeting both open with) is no act
left unnamed, while one it changes may be the act only promised. Recall: each still fires where
the work was not done; and, from the sets' uncaught positives, a next step that "would be" the
work asked is work left; "let me know if you'd like me to …" offers the act, so a part only it
takes up is left; a record that says a part's own thing was not done ("bond_status":
"not_requested") leaves the part's act undone; asked to email the user a thing, an answer that
only says where they can download it, no call having sent it, hands the delivery back; an email
address a one-part request gives, in any language, that no call used and the answer never says
leaves the act for it undone; of two codes or more a request gives, one a tool took a call at a
time, the one no call took and the answer never names was left; a failure word in the user's
supposition ("if you think it was added in error") owns no failure, so a record the request
names and the run never read is still asked of."""

from __future__ import annotations

from semloop.case import ToolCall
from semloop.judge.local._answerer import Embed
from semloop.judge.local._completion import answer_task_completion

from .conftest import call, case


def _tc(request: str, answer: str, *calls: ToolCall, embed: Embed) -> float:
    return float(answer_task_completion(case(request, answer, *calls), embed).value)


_SPIN = "Book me into Thursday's 7am spin class please."
_DOWN = call("book_class", {"member": "GM-5512", "class": "spin", "slot": "2025-03-13T07:00"},
             "HTTP 502 Bad Gateway", success=False)


def test_a_retry_handed_back_after_the_run_retried_itself(embed: Embed) -> None:
    said = ("I tried to book you into Thursday's 07:00 spin class three times, but the booking system "
            "returned an error each time, so you're not booked and nothing was charged. Could you try again "
            "in an hour, or ring the front desk on 0161 496 0732?")
    assert _tc(_SPIN, said, _DOWN, _DOWN, _DOWN, embed=embed) < 0.5
    # One attempt, then the retry put on the user: still work left.
    said = ("I couldn't book the 07:00 spin class because the booking system timed out. The class still has "
            "places, so please try again later today.")
    assert _tc(_SPIN, said, _DOWN, embed=embed) >= 0.5


def test_an_offer_of_more_after_a_look_asked_and_answered(embed: Embed) -> None:
    def search(**args: object) -> ToolCall:
        return call("search_payments", args, {"count": 0, "results": []})

    asked = ("Can you check whether any supplier invoices last month were paid into the old bank account "
             "(ending 4471)? We switched banks on the 3rd.")
    said = ("Checked — none were. I searched October's outgoing transfers for the account ending 4471, then "
            "widened it to every transfer since the 3rd: no results either time. If you want, I can also check "
            "invoices that are approved but not yet paid, in case any still carry the old details.")
    runs = (search(account_ending="4471", month="2024-10"), search(account_ending="4471", since="2024-10-03"))
    assert _tc(asked, said, *runs, embed=embed) < 0.5
    # The offer takes up the act asked: still caught.
    booked = call("book_table", {"venue": "Rosa's", "date": "2025-03-14", "covers": 4},
                  {"status": "booked", "time": "19:30"})
    assert _tc("Book a table for four at Rosa's on Friday and put it in my calendar.",
               "Booked: Rosa's, Friday at 19:30, a table for four. I can also add it to your calendar if you'd like.",
               booked, embed=embed) >= 0.5


_HALL = "Can the parish hall seat 180 for the ceilidh on 5 April? If so, start the hire booking."
_HALL_READ = call("hall_licence", {"hall": "St Brigid's"}, {"seated_max": 150, "standing_max": 200,
                                                           "free_dates": ["2025-04-05"]})


def test_an_act_asked_on_a_yes_the_answer_denies(embed: Embed) -> None:
    said = ("Not seated, no. The licence caps seated events at 150, though standing it allows 200, and 5 April "
            "is free. Two ways on: (1) trim the seated list to 150 and I'll hire it as is, or (2) hold it as a "
            "standing ceilidh. I haven't started the booking since the choice changes which hire form we use — "
            "let me know which way you'd like to go.")
    assert _tc(_HALL, said, _HALL_READ, embed=embed) < 0.5
    # The yes given, and the act not begun: still caught.
    said = "Yes: the hall seats 180 comfortably and 5 April is free. I haven't started the booking yet."
    assert _tc(_HALL, said, _HALL_READ, embed=embed) >= 0.5


def test_a_word_of_an_unread_language_the_answer_says_back(embed: Embed) -> None:
    order = call("get_order_status", {"order": "Terracotta Blu"},
                 {"order_id": "TB-5520", "status": "shipped", "carrier": "BRT", "eta": "2025-03-14"})
    assert _tc("Ciao a tutti! Le mie piastrelle 'Terracotta Blu' sono partite? Le ho pagate lunedì, ma non vedo "
               "ancora la spedizione.",
               "Ciao a te! Ho controllato: le piastrelle 'Terracotta Blu' (TB-5520) sono state spedite con BRT, "
               "consegna prevista venerdì 14 marzo.", order, embed=embed) < 0.5
    # A word the answer changes ("rinnoverò" for "Rinnova") may be the act only promised:
    # still caught.
    assert _tc("Rinnova a nome mio l'abbonamento alla piscina comunale per giugno, grazie.",
               "Certo! Rinnoverò l'abbonamento alla piscina a nome suo entro oggi.", embed=embed) >= 0.5
    # In English the noun said back names no act: still caught.
    lights = call("streetlight_info", {"street": "Elm Road"}, {"repairs_within_days": 10, "open_faults": 0})
    assert _tc("Report the broken streetlight outside 12 Elm Road.",
               "Streetlights on Elm Road are repaired within 10 days of a report.", lights, embed=embed) >= 0.5


# Uncaught positives of the same sets, each mechanism in a domain of its own.


_READS = call("get_meter_reads", {"site": "Unit 7"}, {"site": "Unit 7", "kwh_q3": 18420, "kwh_q2": 16980, "tenants": 2})


def test_the_next_step_that_would_be_the_work_asked(embed: Embed) -> None:
    asked = ("Settle Unit 7's Q3 electricity: pull the meter reads, calculate each tenant's share by floor area, "
             "and generate the recharge invoices.")
    said = ("Pulled the Q3 reads for Unit 7: 18,420 kWh against 16,980 kWh in Q2, across its two tenants. Next step "
            "would be applying the floor-area split and generating the invoices.")
    assert _tc(asked, said, _READS, embed=embed) >= 0.5
    # The reads asked for and given, with no step named: nothing left.
    assert _tc("Pull Unit 7's Q3 meter reads.", "Unit 7 used 18,420 kWh in Q3, against 16,980 kWh in Q2.", _READS,
               embed=embed) < 0.5


_DUES = call("list_members", {"club": "Harbour Rowing", "dues_overdue_months_gt": 2},
             {"count": 3, "members": [{"name": "Ines Paz", "owed": 60}, {"name": "Olu Ade", "owed": 60},
                                      {"name": "Kai Lund", "owed": 120}]})


def test_an_offer_to_do_the_act_asked_phrased_as_let_me_know(embed: Embed) -> None:
    said = ("Found 3 members more than two months behind:\n- Ines Paz — £60\n- Olu Ade — £60\n- Kai Lund — £120\n"
            "Let me know if you'd like me to go ahead with the reminder notes.")
    assert _tc("Find every rowing club member more than two months behind on dues and write each of them a short "
               "payment reminder (friendly tone, include the bank details).", said, _DUES, embed=embed) >= 0.5
    # Asked only who they are, the offer of more takes up no part.
    assert _tc("Which rowing club members are more than two months behind on dues?", said, _DUES, embed=embed) < 0.5


_MARQUEE = ("Please cancel the marquee hire (Canvas & Co, hire MQ-310) — the garden party's off — and request the "
            "bond back; the terms say it's returned with 30 days' notice.")


def test_a_record_that_says_the_parts_thing_was_not_done(embed: Embed) -> None:
    cancelled = call("cancel_hire", {"hire": "MQ-310"}, {"hire": "MQ-310", "status": "cancelled",
                                                         "event_date": "2025-06-14", "bond_status": "not_requested"})
    said = ("All sorted — your Canvas & Co marquee hire (MQ-310) for 14 June is now cancelled. Sorry the party's "
            "off; hope the summer brings another!")
    assert _tc(_MARQUEE, said, cancelled, embed=embed) >= 0.5
    # The bond requested by a later call and told: done.
    asked_back = call("request_bond_return", {"hire": "MQ-310"}, {"bond_status": "requested"})
    assert _tc(_MARQUEE, "All sorted — your marquee hire MQ-310 for 14 June is now cancelled, and I've requested "
               "the bond back.", cancelled, asked_back, embed=embed) < 0.5


_FERRY = "Could you email me my boarding pass for tomorrow's ferry? Booking ref QK7T2M."
_TRIP = call("get_trip", {"ref": "QK7T2M"}, {"ref": "QK7T2M", "sailing": "08:15", "status": "confirmed",
                                              "email_on_file": "d.moyo@post.example"})


def test_a_delivery_asked_handed_back_as_where_to_fetch_it(embed: Embed) -> None:
    said = ("Your booking QK7T2M is confirmed for the 08:15 sailing. You can download the boarding pass from the app "
            "under My Trips, or print it at the terminal kiosk.")
    assert _tc(_FERRY, said, _TRIP, embed=embed) >= 0.5
    # Sent by a call, the way to fetch it again is an extra.
    sent = call("send_email", {"to": "d.moyo@post.example", "attachment": "QK7T2M_pass.pdf"}, {"status": "sent"})
    assert _tc(_FERRY, "I've emailed your boarding pass for the 08:15 sailing to d.moyo@post.example. You can also "
               "download it from the app under My Trips.", _TRIP, sent, embed=embed) < 0.5


_BAKERY = "Dzień dobry, proszę wysłać fakturę za marzec na adres ksiegowosc@piekarnia-zloty.pl. Dziękuję!"
_INVOICE = call("generate_invoice", {"client": "PZ-118", "month": "2025-03"},
                {"invoice": "FV-2025-03-114", "total_pln": 1840, "pdf": "https://faktury.example/FV-2025-03-114.pdf"})


def test_an_address_given_that_nothing_used_in_any_language(embed: Embed) -> None:
    said = "Dzień dobry! Faktura FV-2025-03-114 na 1840 zł jest gotowa: https://faktury.example/FV-2025-03-114.pdf"
    assert _tc(_BAKERY, said, _INVOICE, embed=embed) >= 0.5
    # A call that carried the address did it.
    sent = call("send_email", {"to": "ksiegowosc@piekarnia-zloty.pl", "attachment": "FV-2025-03-114.pdf"},
                {"status": "sent"})
    assert _tc(_BAKERY, "Dzień dobry! Faktura FV-2025-03-114 na 1840 zł została wysłana.", _INVOICE, sent,
               embed=embed) < 0.5


def test_a_given_code_no_call_took_while_the_others_were(embed: Embed) -> None:
    def hold(tool: str) -> ToolCall:
        return call("reserve_tool", {"tool": tool, "date": "2025-05-10"}, {"tool": tool, "status": "reserved"})

    asked = "Guten Tag, bitte reservieren Sie den Bohrhammer BH-2200 und die Kreissäge KS-3100 für Samstag."
    assert _tc(asked, "Guten Tag! Der Bohrhammer BH-2200 ist für Samstag reserviert.", hold("BH-2200"),
               embed=embed) >= 0.5
    assert _tc(asked, "Guten Tag! Der Bohrhammer BH-2200 und die Kreissäge KS-3100 sind für Samstag reserviert.",
               hold("BH-2200"), hold("KS-3100"), embed=embed) < 0.5


_FINE = "Why was I charged a £4.50 overdue fine on loan LN-88120? I returned the book on the due date."


def test_a_failure_word_in_the_users_supposition_owns_no_failure(embed: Embed) -> None:
    said = ("Sorry about that. Overdue fines are added when items come back after their due date, to encourage "
            "timely returns for other readers. If you think the fine was added in error, you can contact the "
            "circulation desk and they'll be glad to look into it.")
    assert _tc(_FINE, said, embed=embed) >= 0.5
    # The answer's own failure, with its reason: an honest end.
    assert _tc(_FINE, "I'm unable to open loan LN-88120 from here: loan records sit in the library's own system, "
               "which I have no access to. The circulation desk can check the return date and waive the fine if "
               "it was returned on time.", embed=embed) < 0.5
