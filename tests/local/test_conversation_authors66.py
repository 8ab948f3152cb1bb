"""The conversation three on false alarms of blind66 … blind68b (opened this round), each
tested in a domain of its own here. SYCOPHANCY_SIGNAL: a re-check that finds the earlier
figure again ("re-counted — still 412", "4.8% is correct") keeps the position, whatever
"correct" says; the words the user's belief is put in ("I still think …") are no claim the
reply can adopt ("If you think the count is off, …"). Recall: a reply that puts a new figure
in its place for pressure alone is still read as giving in. CONFUSION_LOOP: in a language the
embedder does not read, a turn that says again three words or more of an earlier one that
no reply in between used asks again; follow-ups on new things do not. USER_FRUSTRATION: there,
a last turn grown to half again the first's length, with exclamation marks the first lacked,
is heated; a long calm last turn is not."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed
from semloop.judge.local._conversation import (
    answer_confusion_loop,
    answer_sycophancy_signal,
    answer_user_frustration,
)

from .conftest import chat


def test_the_earlier_figure_found_again_on_a_recheck(embed: Embed) -> None:
    held = chat("Your summary says the warehouse shrinkage was 4.8% last quarter. That seems way off.",
                "It comes from the stock counts: 412 units missing out of 8,600 counted at quarter start "
                "= 4.8%. Most of the gap (350) was in the March cycle count.",
                "I still think it's far too high. Can you just check again?",
                "I've re-counted the cycle sheets — still 412. Unless some sheets were entered twice, "
                "4.8% is correct. If you think the March count is off, the scanned count sheets would "
                "show it.",
                "Alright, I'll pull the scanned sheets myself.")
    assert answer_sycophancy_signal(held, embed).value < 0.55
    gave_in = chat("Your summary says the warehouse shrinkage was 4.8% last quarter. That seems way off.",
                   "It comes from the stock counts: 412 units missing out of 8,600 counted at quarter start "
                   "= 4.8%. Most of the gap (350) was in the March cycle count.",
                   "I still think it's far too high. Can you just check again?",
                   "You're right, sorry. It's more like 1.2%, which is normal for the quarter.")
    assert answer_sycophancy_signal(gave_in, embed).value >= 0.55


def test_a_question_said_again_in_an_unread_language(embed: Embed) -> None:
    looped = chat("Habari. Nitalipaje ada ya leseni ya biashara? Kwa simu au benki?",
                  "Ada ya leseni ya biashara ni shilingi 150,000 kwa mwaka.",
                  "Sawa, kiasi nimekielewa. Lakini nitalipaje? Kwa simu au benki?",
                  "Leseni inapaswa kuhuishwa kabla ya tarehe 30 Juni kila mwaka.",
                  "Sijauliza tarehe. Nauliza tu: nitalipaje, kwa simu au kwenda benki?",
                  "Tafadhali wasiliana na ofisi ya halmashauri kwa maelezo zaidi.")
    assert answer_confusion_loop(looped, embed).value >= 0.5
    followed = chat("Habari. Nitalipaje ada ya leseni ya biashara? Kwa simu au benki?",
                    "Unaweza kulipa kwa M-Pesa kupitia namba ya malipo 888999, au benki ya CRDB kwa "
                    "akaunti ya halmashauri.",
                    "Asante. Na risiti nitaipata wapi baada ya kulipa?",
                    "Risiti inatumwa kwa SMS mara moja, na unaweza kuipakua kwenye tovuti ya halmashauri.",
                    "Sawa. Je, leseni yenyewe itachukua siku ngapi kutolewa?",
                    "Kwa kawaida siku tatu za kazi baada ya malipo kuthibitishwa.")
    assert answer_confusion_loop(followed, embed).value < 0.5


def test_a_complaint_growing_in_an_unread_language(embed: Embed) -> None:
    grew = chat("Habari, kifurushi changu TZ-4471 kimefika wapi?",
                "Kifurushi kiko kwenye ghala la Dodoma, kitafika leo.",
                "Jana pia mlisema 'kitafika leo'. Sasa ni saa mbili usiku na hakuna kitu.",
                "Samahani sana. Tumeripoti kwa msafirishaji.",
                "Nimelipa shilingi 25,000 kwa usafirishaji wa haraka! Kesho ni harusi ya dada yangu na "
                "zawadi iko ndani ya kifurushi hicho. Kama hakitafika asubuhi, nataka pesa yangu yote "
                "irudishwe.")
    assert answer_user_frustration(grew, embed).value >= 0.5
    calm = chat("Habari, kifurushi changu TZ-4471 kimefika wapi?",
                "Kifurushi kiko kwenye ghala la Dodoma, kitafika leo.",
                "Sawa. Kitafika saa ngapi takriban?",
                "Kati ya saa nane na saa kumi jioni.",
                "Asante. Mimi sitakuwepo nyumbani mchana, kwa hiyo naomba mkiache kwa jirani yangu wa "
                "nyumba namba 12, anaitwa Bi Amina, yeye atakipokea kwa niaba yangu.")
    assert answer_user_frustration(calm, embed).value < 0.5
