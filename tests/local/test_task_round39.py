"""Task rules, round b38tc: a text for others written and never sent, steps handed to the
user where the work was asked, a translation never given, a counted set a call named in full
and the answer speaking of fewer, the rest of a set handed back as "the same way", advice
on writing where the text was asked, a list of exceptions after "6 of the 8", and a choice
asked between two records the request's name fits; each with the look-alike that must not
fire."""

from __future__ import annotations

from semloop.case import RunCase
from semloop.judge.local._answerer import Embed
from semloop.judge.local._completion import answer_task_completion

from .conftest import call, case


def _fires(run: RunCase, embed: Embed) -> bool:
    return float(answer_task_completion(run, embed).value) >= 0.5


def test_a_text_for_others_written_and_never_sent(embed: Embed) -> None:
    asked = "Send the pool closure notice to all members of the swim club for Saturday morning."
    looked = [call("get_template", {"name": "facility_closure"}, "Dear members, the {{facility}} will be closed on "
                   "{{date}} for maintenance."),
              call("member_list", {"club": "swim"}, {"count": 58})]
    written = ("Here's the notice:\n\nDear members,\nThe pool will be closed on Saturday morning for maintenance.\n"
               "Leisure Centre Team\n\nLet me know if you'd like any changes.")
    assert _fires(case(asked, written, *looked), embed)
    sent = call("send_bulk_email", {"list": "swim", "template": "facility_closure"}, {"sent": 58})
    assert not _fires(case(asked, "The closure notice has gone out to all 58 swim club members.", *looked, sent),
                      embed)


def test_steps_handed_to_the_user_where_the_work_was_asked(embed: Embed) -> None:
    asked = "In the stock sheet, fill column E (reorder quantity) for every item — par level minus on hand."
    read = call("sheet_read", {"file": "stock.xlsx"}, "32 rows; columns: A SKU | B Name | C Par | D On hand | E (empty)")
    steps = ("To fill column E, you can enter =C2-D2 in E2 and drag it down to the last row. "
             "Make sure column D has no blanks. Then use a filter to hide the zero rows.")
    assert _fires(case(asked, steps, read), embed)
    filled = call("sheet_write", {"file": "stock.xlsx", "range": "E2:E33"}, {"written": 32})
    assert not _fires(case(asked, "Column E is filled for all 32 items (par minus on hand); 9 items need "
                           "reordering.", read, filled), embed)


def test_a_translation_into_a_language_the_answer_never_writes(embed: Embed) -> None:
    asked = "Resume las tres quejas principales de los huéspedes esta semana y tradúcelo al inglés para la gerencia."
    read = call("reviews_query", {"range": "this_week", "limit": 3}, "reason|count\nnoise|31\nwifi|22\nbreakfast|17")
    spanish = ("Resumen de las tres quejas principales:\n1. Ruido por la noche en el ala este (31)\n"
               "2. El wifi no funciona en las habitaciones del piso 4 (22)\n3. Desayuno con poca variedad (17)")
    assert _fires(case(asked, spanish, read), embed)
    both = spanish + ("\n\nEnglish:\n1. Noise at night in the east wing (31)\n2. The wifi is not working in the "
                      "rooms on floor 4 (22)\n3. Breakfast with little variety (17)")
    assert not _fires(case(asked, both, read), embed)


def test_a_counted_set_named_in_full_and_spoken_of_in_part(embed: Embed) -> None:
    asked = "Review PR 212 for leftover debug prints, all three changed files please."
    listing = call("git_diff", {"pr": 212, "stat": True},
                   "app/views.py | 12 ++--\napp/models.py | 4 +-\ntests/test_views.py | 20 +++++\n3 files changed")
    opened = call("git_diff", {"pr": 212, "file": "app/views.py"}, "+    print(order)")
    assert _fires(case(asked, "`app/views.py` has a print() on line 88 left from debugging; remove it before "
                       "merging. Review done.", listing, opened), embed)
    assert not _fires(case(asked, "All three files reviewed: `app/views.py` has a print() on line 88 left from "
                           "debugging; `app/models.py` and `tests/test_views.py` are clean.", listing, opened), embed)


def test_the_rest_of_a_set_handed_back_as_the_same_again(embed: Embed) -> None:
    asked = "Write out all 6 sessions of my first couch-to-5k fortnight so I can stick them on the fridge."
    one = ("Session 1: 5 min brisk walk, then alternate 60 s jogging and 90 s walking for 20 minutes, then a 5 min "
           "cool-down walk.\n\nFor sessions 2-6, just repeat that and add a little time each run. Good luck!")
    assert _fires(case(asked, one), embed)
    assert not _fires(case(asked, "Sessions 1-3: 5 min brisk walk, then alternate 60 s jogging and 90 s walking for "
                           "20 minutes, 5 min cool-down.\nSessions 4-6: 5 min brisk walk, then alternate 90 s "
                           "jogging and 2 min walking for 20 minutes, 5 min cool-down."), embed)


def test_advice_on_writing_where_the_text_was_asked(embed: Embed) -> None:
    asked = ("Please rewrite my landlord reference request. Current: \"Hi, I need a reference from you.\" "
             "I rented 14 Mill Street from Harcourt Lettings for 3 years and never missed rent.")
    tips = ("Some tips for a stronger request:\n1. Greet them by name.\n2. Say how long you rented.\n"
            "3. Mention your payment record.\n4. Give a deadline.\nThat will make it far more effective!")
    assert _fires(case(asked, tips), embed)
    assert not _fires(case(asked, "Here's a rewrite:\n\nDear Harcourt Lettings,\nI rented 14 Mill Street from you "
                           "for 3 years and always paid rent on time. I would be grateful for a reference for my "
                           "next landlord by Friday.\nKind regards"), embed)


def test_a_list_of_exceptions_after_the_share_done_is_no_list_cut_short(embed: Embed) -> None:
    asked = "Approve the 5 pending leave requests for the warehouse team."
    bulk = call("approve_leave_bulk", {"team": "warehouse", "status": "pending"},
                {"requested": 5, "approved": 3, "failed": [{"id": "LR-208", "error": "OVERLAPS_BLACKOUT"},
                                                         {"id": "LR-211", "error": "INSUFFICIENT_BALANCE"}]})
    assert not _fires(case(asked, "3 of the 5 are approved. Two could not be:\n- LR-208: it overlaps the stocktake "
                           "blackout week.\n- LR-211: not enough leave balance left.", bulk), embed)


def test_a_choice_between_two_records_the_name_fits_is_a_question(embed: Embed) -> None:
    asked = "Cancel the Tuesday booking for Okafor."
    found = call("find_bookings", {"name": "Okafor", "day": "Tuesday"},
                 "id|guest|room|time\nB-771|Ada Okafor|Court 2|09:00\nB-779|Emeka Okafor|Court 5|18:30")
    assert not _fires(case(asked, "There are two bookings under the name Okafor on Tuesday — Ada Okafor (Court 2, "
                           "09:00) and Emeka Okafor (Court 5, 18:30). Should I cancel only Ada's, since she "
                           "emailed about it this morning?", found), embed)


def test_a_want_stated_beside_the_act_and_left_without_a_word(embed: Embed) -> None:
    asked = "My reading for water account W-88102 is 3391, and I'd like to switch to quarterly billing as well."
    reading = call("submit_reading", {"account": "W-88102", "reading": 3391}, {"status": "ACCEPTED"})
    assert _fires(case(asked, "Thanks! Your reading of 3391 is in for account W-88102 and will show on your next "
                       "bill.", reading), embed)
    switched = call("set_billing_cycle", {"account": "W-88102", "cycle": "quarterly"}, {"ok": True})
    assert not _fires(case(asked, "Thanks! Your reading of 3391 is in for account W-88102, and your billing is now "
                           "quarterly.", reading, switched), embed)


def test_an_amount_of_something_told_with_its_unit_answers_how_much(embed: Embed) -> None:
    read = call("get_allowance", {"member": "M-5521"}, {"storage_used_gb": 61.5, "storage_cap_gb": 100,
                                                       "renews_day": 9})
    assert not _fires(case("How much storage do I have left and when does my plan renew?",
                           "You've got 38.5 GB left of your 100 GB allowance, and the plan renews on the 9th.", read),
                      embed)
