"""Task rules, round b34tc: "make me a <thing>", where the result goes, an act after a dash,
a look asked first and a pick asked after it, a counted set acted on in part, a question
answered by telling of the reading, a record's label before its code, a reasoned refusal of
an act asked through "get", a text written after reads, another part's verb."""

from __future__ import annotations

from semloop.case import RunCase
from semloop.judge.local._answerer import Embed
from semloop.judge.local._completion import answer_task_completion

from .conftest import call, case


def _fires(run: RunCase, embed: Embed) -> bool:
    return float(answer_task_completion(run, embed).value) >= 0.5


def test_a_thing_made_and_put_where_asked_is_done(embed: Embed) -> None:
    made = case("Make me a rota: volunteers per shift for the March food bank. Put it in a new sheet.",
                "Created sheet 'Rota_March': Saturday mornings have 4 volunteers, Tuesday evenings 2.",
                call("sheets.create_table", {"source": "Volunteers!A1:F90", "dest_sheet": "Rota_March"},
                     {"sheet": "Rota_March", "rows": 9}))
    assert not _fires(made, embed)


def test_an_act_after_a_dash_is_a_part(embed: Embed) -> None:
    half = case("Plans changed — cancel reservation TB-4410 (Friday) and book the same table for Saturday.",
                "Reservation TB-4410 for Friday has been cancelled; your deposit of €20 is refunded.",
                call("cancel_reservation", {"id": "TB-4410"}, {"id": "TB-4410", "status": "cancelled"}))
    assert _fires(half, embed)


def test_the_pick_asked_after_a_look_is_a_part(embed: Embed) -> None:
    # The pick is read as left only when no sentence meets the part by its words: an answer
    # that shares them ("tail lift") may pick in other words.
    unpicked = case("Get prices from our two van hire firms for a 3.5t van on Saturday, then tell me which one "
                    "to go with given we must collect before 8am.",
                    "Here are the prices: VanGo £89, RentaLorry £72.",
                    call("quote", {"firm": "VanGo"}, {"price": 89, "tail_lift": True}),
                    call("quote", {"firm": "RentaLorry"}, {"price": 72, "tail_lift": False}))
    assert _fires(unpicked, embed)


def test_a_counted_set_acted_on_in_part_is_left(embed: Embed) -> None:
    part = case("Turn the heating schedule to 18°C from 07:00 on all three floors.",
                "Floors 1 and 2 now heat to 18°C from 07:00.",
                call("set_schedule", {"floor": "F1", "temp": 18, "from": "07:00"}, {"ok": True}),
                call("set_schedule", {"floor": "F2", "temp": 18, "from": "07:00"}, {"ok": True}))
    assert _fires(part, embed)


def test_a_question_answered_by_telling_of_the_reading(embed: Embed) -> None:
    narrated = case("How full is each of our cold stores this week?",
                    "I've retrieved the occupancy figures for all cold stores. Let me know if you need more!",
                    call("store_occupancy", {"week": "2027-W05"}, "store,pallets,capacity\nA,410,500\nB,120,480"))
    assert _fires(narrated, embed)


def test_a_label_before_a_code_and_a_reasoned_refusal_of_a_caused_act(embed: Embed) -> None:
    refused = case("Can you get my parcel redelivered tonight? File PX7730192, I need it for a party.",
                   "I'm sorry — I can't arrange a redelivery tonight. The parcel is back at the depot until "
                   "tomorrow 06:00, so the earliest slot is tomorrow 09:00–12:00, which I've noted.",
                   call("get_parcel", {"file_ref": "PX7730192"}, {"status": "at_depot", "next_run": "06:00"}),
                   call("book_redelivery", {"file_ref": "PX7730192", "date": "today"},
                        {"error": "NO_EVENING_RUN"}, success=False))
    assert not _fires(refused, embed)


def test_a_text_written_after_reads_is_the_act_done(embed: Embed) -> None:
    written = case("Draft a reply to the member on ticket GY-118 confirming their freeze from 1 March.",
                   "Subject: Your membership freeze\n\nHi Tom,\n\nYour membership is frozen from 1 March to "
                   "31 March; no fee will be taken for March.\n\nBest,\nFront desk",
                   call("get_ticket", {"ticket_id": "GY-118"}, {"member": "Tom Reid", "freeze_from": "2027-03-01"}))
    assert not _fires(written, embed)


def test_another_parts_verb_tells_nothing_of_this_part(embed: Embed) -> None:
    one = case("Order KT-2210: please move the fitting to 9 May and ALSO change the contact phone to 07700 900441.",
               "Done — I've moved the kitchen fitting for KT-2210 to Friday 9 May, 08:00–12:00.",
               call("reschedule_fitting", {"order_id": "KT-2210", "date": "2027-05-09"}, {"status": "rescheduled"}))
    assert _fires(one, embed)
