"""Task rules, round b37tu: a record of a list read with the call that listed it, a tool
named in a namespace read by its own verb, and a translation no one asked for."""

from __future__ import annotations

import json

from semloop.judge.local._answerer import Embed
from semloop.judge.local._drift import answer_off_topic_drift, off_topic_evidence
from semloop.judge.local._understanding import task_understanding_evidence

from .conftest import call, case


def test_the_records_of_the_listing_asked_for_are_the_answers_own_matter(embed: Embed) -> None:
    # Each email alone (a sender, a subject) is far from "go through my mail"; the listing of
    # the mail the request names is what the answer restates, item by item.
    inbox = json.dumps([
        {"from": "harbour.master@portofleith.example", "subject": "Pilot boarding time for MV Corran - confirm by noon"},
        {"from": "invoices@portauthority.example", "subject": "Berth 4 dues invoice overdue"},
        {"from": "rota@leithstevedores.example", "subject": "Night shift swap"},
        {"from": "news@shippingweekly.example", "subject": "Freight rates digest"},
        {"from": "events@maritimeexpo.example", "subject": "Expo early-bird tickets"},
    ])
    triaged = case(
        "go through my mail, anything I must deal with before lunch?",
        "Deal with before lunch:\n1. Harbour master — pilot boarding time for MV Corran needs your "
        "confirmation by noon.\n2. Port authority — the Berth 4 dues invoice is overdue; pay or dispute it "
        "today.\n\nThe night shift swap can wait until this afternoon; the freight rates digest and the "
        "expo early-bird tickets can be ignored.",
        call("mail.list", {"unread": True}, inbox),
        call("mail.flag", {"id": 1, "flag": "urgent"}, {"ok": True}),
        steps=("Listed unread mail", "Sorted messages by deadline", "Flagged the pilot email"),
    )
    assert off_topic_evidence(triaged, embed).features["stray_work"] == 0.0


def test_a_namespaced_search_for_another_thing_carries_nothing_of_the_request(embed: Embed) -> None:
    # "catalog.search" opens on its server's name, which the request happens to use; the
    # verb is "search", a read, and the lamps it found are not the paint asked for.
    lamps = case(
        "Reorder the eggshell paint for the catalog shoot, 20 litres of the white, from the cheapest supplier.",
        "While going through the catalog I noticed the studio still has old halogen lamps. LED panels "
        "like the Godox LD75R (1 190 zł) and the Aputure Amaran P60c (1 540 zł) run cooler and cut the "
        "power bill. I'd go with the Godox for value. Shall I draft an order for three panels?",
        call("catalog.search", {"item": "eggshell white paint 5L"}, "supplier,price,stock\nFarbex,210,yes\nKolorPL,198,yes"),
        call("catalog.search", {"item": "LED panel light"}, "Godox LD75R,1190\nAputure Amaran P60c,1540"),
        steps=("Searched paint suppliers", "Searched studio lights", "Compared lights"),
    )
    assert float(answer_off_topic_drift(lamps, embed).value) >= 0.5


def test_a_translation_of_a_text_handed_over_to_fix_is_another_task(embed: Embed) -> None:
    translated = case(
        'Czy możesz poprawić ten tekst? Chyba są błędy:\n"Szanowni klienci, nasz sklep bedzie '
        'zamkniety w poniedziałek z powodu inwentaryzacji. Przepraszamy za utrudnienia."',
        'English translation:\n"Dear customers, our shop will be closed on Monday for stocktaking. '
        'We apologise for the inconvenience."',
    )
    assert task_understanding_evidence(translated, embed).features["another_task"] == 1.0
    corrected = case(
        'Czy możesz poprawić ten tekst? Chyba są błędy:\n"Szanowni klienci, nasz sklep bedzie '
        'zamkniety w poniedziałek z powodu inwentaryzacji. Przepraszamy za utrudnienia."',
        'Poprawiona wersja:\n"Szanowni Klienci, nasz sklep będzie zamknięty w poniedziałek z powodu '
        'inwentaryzacji. Przepraszamy za utrudnienia."',
    )
    assert task_understanding_evidence(corrected, embed).features["another_task"] == 0.0


def test_a_relatives_thing_done_for_the_user_in_one_sentence_is_the_wrong_person(embed: Embed) -> None:
    # "(you)" says whose in one sentence; "to my son's card" is his card, not a receiver.
    seat = case("On booking KQ7Y2M please upgrade my son Tomas to premium economy, not me.",
                "I've upgraded Marta Novak (you) to premium economy on KQ7Y2M; €180 charged to your card.",
                call("upgrade_seat", {"booking": "KQ7Y2M", "passenger_id": "p1"}, {"ok": True}))
    assert task_understanding_evidence(seat, embed).features["another_task"] == 1.0
    topup = case("Move 30 euros of credit from my balance to my son's travel card, he's stuck at the station.",
                 "I've added 30 euros to your own travel card from your saved card; your balance is now 41 euros.",
                 call("topup", {"card": "TC-1120", "amount": 30}, {"ok": True}))
    assert task_understanding_evidence(topup, embed).features["another_task"] == 1.0
    his = case("On booking KQ7Y2M please upgrade my son Tomas to premium economy, not me.",
               "I've upgraded Tomas (passenger 2) to premium economy on KQ7Y2M; €180 charged to your card.",
               call("upgrade_seat", {"booking": "KQ7Y2M", "passenger_id": "p2"}, {"ok": True}))
    assert task_understanding_evidence(his, embed).features["another_task"] == 0.0


def test_a_sibling_branch_of_the_record_told_for_the_named_one(embed: Embed) -> None:
    plan = json.dumps({"plan": "Family", "allowance": {"data": {"gb": 40, "price_eur": 12.5},
                                                        "minutes": {"count": 600, "price_eur": 7.5}}})
    told_minutes = case("How much DATA do I get each month and what does it cost?",
                        "Your plan includes 600 minutes a month, billed at €7.50. Unused minutes don't roll over.",
                        call("get_plan", {"line": "L-3310"}, plan))
    assert task_understanding_evidence(told_minutes, embed).features["wrong_source"] == 1.0
    told_data = case("How much DATA do I get each month and what does it cost?",
                     "You get 40 GB of data a month for €12.50; the 600 minutes cost €7.50 on top.",
                     call("get_plan", {"line": "L-3310"}, plan))
    assert task_understanding_evidence(told_data, embed).features["wrong_source"] == 0.0


def test_one_tool_read_for_two_things_and_the_other_told(embed: Embed) -> None:
    water = call("usage", {"meter": "M-88", "kind": "WATER"}, [{"month": "2025-01", "m3": 9.5, "eur": 31.4}])
    heat = call("usage", {"meter": "M-88", "kind": "HEATING"}, [{"month": "2025-01", "kwh": 820, "eur": 96.2}])
    wrong = case("Why is my water usage so high in January?",
                 "Your heating used 820 kWh in January, costing €96.20, mostly because of the cold snap.",
                 water, heat)
    assert task_understanding_evidence(wrong, embed).features["wrong_source"] == 1.0


def test_an_act_asked_by_what_it_brings_about(embed: Embed) -> None:
    frozen = case("The hotel charged me twice for one night, 180 dollars each, on my card ending 4410. "
                  "I want my money back.",
                  "I've frozen your card ending 4410 and a new one is on its way within 5 working days.",
                  call("freeze_card", {"card": "4410"}, {"status": "FROZEN"}))
    assert task_understanding_evidence(frozen, embed).features["other_action"] == 1.0


def test_a_step_of_a_scale_is_no_cast_of_names(embed: Embed) -> None:
    levels = case("What level will I start at in the Italian evening course? I studied it at school.",
                  "It depends on the short entry quiz. Most people who took it at school land in A2 or B1, and "
                  "the course runs up to C1; if A2 feels slow you can move up in the first week.")
    assert off_topic_evidence(levels, embed).features["new_names"] == 0.0


def test_advice_after_a_lead_that_says_when_serves_the_booking(embed: Embed) -> None:
    booked = case("book me the 10:15 slot on 9 May for the theory test",
                  "Booked: theory test, Friday 9 May, 10:15, Lisbon centre. Ref TT-50213. "
                  "On the day, bring your passport and arrive 15 minutes early.",
                  call("book_slot", {"slot_id": "S-0509-1015"}, {"ref": "TT-50213", "status": "BOOKED"}),
                  steps=("Booked slot",))
    assert off_topic_evidence(booked, embed).features["far_share"] == 0.0


def test_a_call_on_the_same_record_as_the_listing_is_the_users_case(embed: Embed) -> None:
    # Guards the listing rule above: once the compared bill's lines read near the request,
    # the fee waived on the same account is no call about something else.
    bill = case("bill went up 12 quid why",
                "Your £6 loyalty discount ended and a £6 paper-bill fee was added because paperless billing was "
                "switched off. Turn paperless back on in the app and the fee stops next cycle. I've waived the "
                "paper-bill fee as a one-off.",
                call("bill_compare", {"account": "MB-55012"},
                     {"delta": 12.0, "items": [{"loyalty_discount_ended": 6}, {"paper_bill_fee": 6}]}),
                call("waive_fee", {"account": "MB-55012", "fee": "paper_bill"}, {"ok": True}))
    assert off_topic_evidence(bill, embed).features["stray_work"] == 0.0
