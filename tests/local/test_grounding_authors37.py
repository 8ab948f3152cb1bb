"""HALLUCINATION on causes read from blind36 (and earlier sets), each in a domain of its own
here: a term in days counted on from a date given without its year; an amount written with
dots between thousands, converted at a whole rate the claim names, in a currency named by
its local abbreviation; a limit of zero said in words against a key's 0; a log line's
reading given to another unit than the line's; two names paired that no record pairs; and
the state of the one line a claim names, where another line has the claim's state. From
blind36b: a word of the name of a call the run made; an amount in a currency's sign
(₪, ₩, ฿) against the amount its code keys; a state told as the record's history
("before that it went out for delivery"); and a period's window said kept where the
record says it is outside it."""

from __future__ import annotations

from semloop.case import ToolCall
from semloop.judge.local._answerer import Embed

from .conftest import found


def test_a_term_in_days_counts_on_from_a_date_without_its_year(embed: Embed) -> None:
    rule = "Members may pause their membership by giving at least thirty (30) days' notice."
    ask = "If I ask to pause today (10 April), when does the pause start at the earliest?"
    assert found(embed, ask, "With the 30-day notice, asking on 10 April means 10 May.",
                 context=rule).get("numbers", 0) == 0
    assert found(embed, ask, "With the 30-day notice, asking on 10 April means 20 May.",
                 context=rule)["numbers"] >= 1


def test_a_dot_grouped_amount_converts_at_a_whole_rate_the_claim_names(embed: Embed) -> None:
    fee = {"course": "Bahasa A1", "fee_idr": 4500000}
    rate = (ToolCall(name="fx", args={}, output="USD/IDR 16000.00 (bank rate)", success=True),)
    told = "The fee is Rp 4.500.000, which at the bank's rate of Rp 16.000 per dollar is about $281."
    right = found(embed, "In dollars?", told, tool=fee, calls=rate)
    assert right.get("numbers", 0) == 0 and right.get("names", 0) == 0
    assert found(embed, "In dollars?", told.replace("$281", "$312"), tool=fee, calls=rate)["numbers"] >= 1


def test_a_limit_of_zero_in_words_is_the_keys_zero(embed: Embed) -> None:
    test = {"batch": "B-77", "results": [{"check": "Listeria", "value": 1, "limit": 0, "flag": "FAIL"}]}
    told = "Batch B-77 failed on Listeria (1 detection against a limit of zero)."
    assert found(embed, "why?", told, tool=test).get("negation", 0) == 0


def test_a_log_lines_reading_given_to_another_unit_is_crossed(embed: Embed) -> None:
    log = ("2026-03-01T01:10:00 PUMP-2 WARN PRESSURE 6.8bar\n"
           "2026-03-01T02:25:00 PUMP-4 WARN PRESSURE 7.4bar\n"
           "2026-03-01T03:05:00 PUMP-2 INFO RESTART ok\n")
    assert found(embed, "PUMP-2 overnight?", "PUMP-2 warned on pressure at 02:25 and restarted at 03:05.",
                 tool=log)["bound"] == 1
    assert found(embed, "PUMP-2 overnight?", "PUMP-2 warned on pressure at 01:10 and restarted at 03:05.",
                 tool=log).get("bound", 0) == 0


def test_two_names_no_record_pairs_are_not_opponents(embed: Embed) -> None:
    draw = {"matches": [{"court": "1", "home": "Lina Ortiz", "away": "Mara Holm", "at": "10:00"},
                        {"court": "2", "home": "Zoe Brandt", "away": "Ida Lund", "at": "11:30"}]}
    assert found(embed, "who?", "Lina Ortiz plays Zoe Brandt on court 1 at 10:00.", tool=draw)["bound"] == 1
    assert found(embed, "who?", "Lina Ortiz plays Mara Holm on court 1 at 10:00.",
                 tool=draw).get("bound", 0) == 0


def test_the_state_of_the_line_the_claim_names_decides(embed: Embed) -> None:
    seats = "Balcony — 45 EUR — sold out\nStalls — 60 EUR — 12 left\nBoxes — 90 EUR — 3 left"
    assert found(embed, "stalls?", "The Stalls are sold out.", tool=seats)["negation"] == 1
    assert found(embed, "balcony?", "The Balcony is sold out.", tool=seats).get("negation", 0) == 0


def test_a_word_of_a_call_the_run_made_is_named(embed: Embed) -> None:
    told = "I've emailed you the PDF invoice for order Q-7."
    call = (ToolCall(name="email_pdf_invoice", args={"order": "Q-7"}, output='{"sent": true}', success=True),)
    assert found(embed, "invoice?", told, calls=call).get("names", 0) == 0
    other = (ToolCall(name="email_invoice", args={"order": "Q-7"}, output='{"sent": true}', success=True),)
    assert found(embed, "invoice?", told, calls=other)["names"] >= 1


def test_a_currency_sign_is_the_amount_its_code_keys(embed: Embed) -> None:
    fare = {"route": "Seoul-Busan", "fare_krw": 59800}
    assert found(embed, "fare?", "The Seoul-Busan fare is ₩59,800.", tool=fare).get("numbers", 0) == 0
    assert found(embed, "fare?", "The Seoul-Busan fare is ₩59,800.", tool=fare).get("rival", 0) == 0


def test_a_state_told_as_the_records_history_is_no_conflict(embed: Embed) -> None:
    order = {"order": "W-310", "status": "DELIVERED", "events": ["In Zustellung 08:10", "Zugestellt 12:40"]}
    told = "Order W-310 was delivered at 12:40. Before that it went out for delivery at 08:10."
    assert found(embed, "where?", told, tool=order).get("negation", 0) == 0
    assert found(embed, "where?", "Order W-310 is out for delivery.", tool=order)["negation"] == 1


def test_a_window_said_kept_where_the_record_is_outside_it(embed: Embed) -> None:
    label = {"booking": "BK-19", "change_request": "CREATED", "warning": "OUTSIDE_WINDOW_FEE_APPLIES"}
    told = "You're within the 48-hour change window, so the change is free."
    assert found(embed, "free change?", told, tool=label)["negation"] == 1
    label["warning"] = "NONE"
    assert found(embed, "free change?", told, tool=label).get("negation", 0) == 0
