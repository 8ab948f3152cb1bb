"""Task rules, round b40tc: a caller's spoken fillers, a clock time said in words, a call put
through to the team that handles it, a code given for the act that nothing used, the second
of two things asked dropped, a delivery by email told as on its way though nothing sent it,
and a record named by code answered in general before a closing offer; each with the
look-alike that must not fire."""

from __future__ import annotations

from semloop.case import RunCase
from semloop.judge.local._answerer import Embed
from semloop.judge.local._completion import answer_task_completion

from .conftest import call, case


def _fires(run: RunCase, embed: Embed) -> bool:
    return float(answer_task_completion(run, embed).value) >= 0.5


def test_a_spoken_filler_is_no_part_of_the_request(embed: Embed) -> None:
    asked = "yeah so cancel my gym membership and the, uh, the locker rental, I'm moving away"
    cancelled = call("membership_cancel", {"member": "GM-30118"}, {"status": "CANCELLED"})
    assert _fires(case(asked, "Your gym membership is cancelled as of today.", cancelled), embed)
    both = call("locker_cancel", {"member": "GM-30118"}, {"status": "CANCELLED"})
    told = "Your gym membership and the locker rental are cancelled as of today."
    assert not _fires(case(asked, told, cancelled, both), embed)


def test_a_clock_time_said_in_words_tells_the_booking(embed: Embed) -> None:
    asked = "cancel tomorrow's, book me next Friday morning instead"
    dropped = call("scheduler_cancel", {"appt": "D-5512"}, "CANCELLED")
    booked = call("scheduler_book", {"slot": "S-2231"}, "BOOKED appt=D-5530 2026-12-18T10:40 Dr Lund")
    told = "Done. Tomorrow's cancelled, you're in Friday at ten-forty with Dr Lund."
    assert not _fires(case(asked, told, dropped, booked), embed)
    # The time said is not the one booked: nothing tells the booking.
    assert _fires(case(asked, "Done. Tomorrow's cancelled, you're in Friday at nine-twenty with Dr Lund.",
                       dropped, call("scheduler_book", {"slot": "S-2231"}, "FULL", False)), embed)


def test_a_call_put_through_to_the_team_that_handles_it(embed: Embed) -> None:
    asked = "My, my father passed away last week and, um, I need to sort out his accounts, and close his card"
    note = call("case_note_create", {"topic": "bereavement"}, "note=CN-4410")
    put_through = call("warm_transfer", {"queue": "BEREAVEMENT", "note": "CN-4410"}, "connected agent=BV-02")
    told = ("I'm so sorry for your loss. Our bereavement team looks after this, so I'm putting you through to them "
            "now, with a note so you won't have to repeat yourself.")
    assert not _fires(case(asked, told, note, put_through), embed)
    # The transfer that failed put no one through.
    dropped = call("warm_transfer", {"queue": "BEREAVEMENT", "note": "CN-4410"}, {"error": "QUEUE_CLOSED"}, False)
    assert _fires(case(asked, told, note, dropped), embed)


def test_a_code_given_for_the_act_that_nothing_used(embed: Embed) -> None:
    asked = "repeat my last order please, and use my coupon, SAVE15"
    ordered = call("order_repeat", {"source_order": "FD-7710021"}, {"new_order": "FD-7740118", "discount": 0})
    told = "Your order's in! Same as last time: a poke bowl and a miso soup. It's on its way, about thirty-five minutes."
    assert _fires(case(asked, told, ordered), embed)
    used = call("order_repeat", {"source_order": "FD-7710021", "coupon": "SAVE15"}, {"new_order": "FD-7740118"})
    assert not _fires(case(asked, "Your order's in, with SAVE15 applied. It's on its way, about thirty-five minutes.",
                           used), embed)


def test_the_second_of_two_things_asked_is_dropped(embed: Embed) -> None:
    asked = "Hi, could I have an extra blanket sent up tonight and a late checkout at one tomorrow? Room 311."
    blanket = call("housekeeping_request", {"room": "311", "item": "blanket"}, "OK")
    told = "Of course! An extra blanket is on its way to room 311. Sleep well."
    assert _fires(case(asked, told, blanket), embed)
    late = call("late_checkout_set", {"room": "311", "time": "13:00"}, "OK")
    both = "An extra blanket is on its way to room 311, and your checkout is moved to 1pm tomorrow."
    assert not _fires(case(asked, both, blanket, late), embed)


def test_a_delivery_by_email_told_though_nothing_sent_it(embed: Embed) -> None:
    asked = "Can you email me my tenancy deposit certificate? You should have my address."
    looked = call("tenant_lookup", {"tenant": "TN-2290"}, "email=a.kowal@example.org deposit_scheme=DPS")
    told = "Yes, your deposit is protected with the DPS. You'll receive the certificate at your email shortly."
    assert _fires(case(asked, told, looked), embed)
    sent = call("send_document", {"tenant": "TN-2290", "doc": "deposit_certificate"}, {"status": "SENT"})
    assert not _fires(case(asked, "The deposit certificate is sent to your email; you'll receive it shortly.",
                           looked, sent), embed)


def test_a_record_named_by_code_answered_in_general_before_a_closing_offer(embed: Embed) -> None:
    asked = "I sent in my passport renewal in March, the application is PR-55102-77, can you see where it's got to"
    told = ("Thanks for calling. Renewals usually take around ten weeks, longer in busy periods, and you can "
            "follow them online. Is there anything else I can help with?")
    assert _fires(case(asked, told), embed)
    asks = "Thanks. Could you give me your date of birth so I can pull up PR-55102-77?"
    assert not _fires(case(asked, asks), embed)


def test_a_count_of_recent_items_is_no_act(embed: Embed) -> None:
    asked = "shots on target for and against, last 6 away games?"
    failed = call("sql_query", {"sql": "SELECT SUM(sot_for) FROM matches WHERE venue='A' LIMIT 6"},
                  "ERROR: syntax error at or near LIMIT", False)
    summed = call("sql_query", {"sql": "SELECT SUM(sot_for), SUM(sot_against) FROM (SELECT * FROM matches "
                                       "WHERE venue='A' ORDER BY match_date DESC LIMIT 6) t"}, "sum | sum\n31 | 24")
    assert not _fires(case(asked, "Last 6 away: 31 on target for, 24 against (+7).", failed, summed), embed)
    asked_act = "book the cheapest of the last 3 quotes"
    looked = call("list_quotes", {"limit": 3}, {"quotes": [{"id": "Q-1", "price": 410}, {"id": "Q-2", "price": 385}]})
    assert _fires(case(asked_act, "The cheapest of the last 3 quotes is Q-2 at $385.", looked), embed)


def test_an_item_of_the_list_read_and_left_out(embed: Embed) -> None:
    asked = "Compare median rent for Lisbon parishes Arroios, Estrela and Belem in 2024."
    read = call("sql_query", {"sql": "SELECT parish, MEDIAN(rent_eur) FROM rents WHERE yr=2024 GROUP BY 1"},
                "parish | median\nArroios | 1450\nEstrela | 1620\nBelem | 1710")
    told = ("2024 median rent per month:\n- Arroios: 1,450 EUR\n- Belem: 1,710 EUR\nBelem is about 18% more "
            "expensive than Arroios, as expected for a riverside parish.")
    assert _fires(case(asked, told, read), embed)
    whole = "2024 median rent per month:\n- Arroios: 1,450 EUR\n- Estrela: 1,620 EUR\n- Belem: 1,710 EUR"
    assert not _fires(case(asked, whole, read), embed)


def test_a_numbered_item_no_call_touched(embed: Embed) -> None:
    asked = ("Two questions: (1) average basket size at the Bursa stores in May, and (2) which 3 brands drove the "
             "change from April.")
    basket = call("sql_query", {"sql": "SELECT ay, AVG(sepet) FROM fis WHERE sehir='Bursa' AND ay IN (4,5) GROUP BY ay"},
                  "ay | avg\n4 | 388\n5 | 412")
    told = ("Bursa stores averaged ₺412 per basket in May, up from ₺388 in April (+6.2%). Nilüfer had the "
            "largest baskets at ₺455.")
    assert _fires(case(asked, told, basket), embed)
    brands = call("sql_query", {"sql": "SELECT marka, SUM(fark) FROM fis WHERE sehir='Bursa' GROUP BY 1 LIMIT 3"},
                  "marka | fark\nArcelik | 9.1\nVestel | 6.4\nKoton | 4.0")
    both = ("Bursa stores averaged ₺412 per basket in May, up from ₺388 in April (+6.2%). The brands that drove "
            "the change were Arcelik, Vestel and Koton.")
    assert not _fires(case(asked, both, basket, brands), embed)


def test_the_users_own_data_never_read(embed: Embed) -> None:
    asked = "Go through our support tickets table and tell me which product line had the most escalations in Q3."
    told = ("Escalations tend to be highest on newer product lines, where documentation is thinner and agents "
            "have less experience. To reduce them, consider better runbooks and a clear escalation policy.")
    assert _fires(case(asked, told), embed)
    owned = ("I can't query your tickets table from here: I have no access to your helpdesk data. If you export "
             "Q3's escalations as a CSV, I can count them by product line.")
    assert not _fires(case(asked, owned), embed)


def test_a_made_thing_described_instead_of_given(embed: Embed) -> None:
    asked = "Give me a Vega-Lite spec for weekly signups in 2024 as a line chart, one line per plan."
    told = ("A line chart works well here: put the week on the x-axis and the signups on the y-axis, with one "
            "colour per plan. Adding a tooltip with the exact counts would make it easy to read.")
    assert _fires(case(asked, told), embed)
    given = ('```json\n{"$schema": "https://vega.github.io/schema/vega-lite/v5.json", "data": {"name": "signups"},\n'
             ' "mark": "line", "encoding": {"x": {"field": "week", "type": "temporal"},\n'
             ' "y": {"field": "signups", "type": "quantitative"}, "color": {"field": "plan"}}}\n```')
    assert not _fires(case(asked, given), embed)


def test_text_asked_in_a_language_of_its_own_script(embed: Embed) -> None:
    asked = "Give me the turnout by region from the March survey and then a two-sentence summary in Japanese for Tokyo."
    read = call("read_spreadsheet", {"path": "surveys/march.xlsx"}, "region | turnout\nKanto | 61\nKansai | 57")
    told = "March turnout: Kanto 61%, Kansai 57%. Kanto leads by four points."
    assert _fires(case(asked, told, read), embed)
    summary = told + "\n\n関東の投票率は61%、関西は57%でした。関東が4ポイント上回っています。"
    assert not _fires(case(asked, summary, read), embed)


def test_the_sibling_act_done_in_place_of_the_one_asked(embed: Embed) -> None:
    asked = "Please downgrade my broadband to the 100 Mb plan, account BB-2210."
    upgraded = call("upgrade_plan", {"account": "BB-2210", "plan": "FIBRE_900"}, {"ok": True, "price": 30})
    told = "Good news: I've moved you to Fibre 900 at a loyalty price of £30 a month instead, so you get more speed for less."
    assert _fires(case(asked, told, upgraded), embed)
    # A reason the act could not be done excuses another act offered in its place.
    discounted = call("apply_discount", {"account": "BB-2210", "amount": 6}, {"ok": True})
    refused = ("I can't downgrade during your minimum term, which ends in March, so I've applied a £6 monthly "
               "discount to your current plan.")
    assert not _fires(case(asked, refused, discounted), embed)
