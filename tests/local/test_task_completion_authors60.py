"""TASK_COMPLETION on false alarms of blind60 … blind62b (opened this round), each tested in
a domain of its own here: a word after an article, a possessive or a preposition ("count
for file X") is a noun, no act asked; a translation asked to be priced is quoted, not
given; an act done on the asked day and time by a call of another verb (book_slot for
"add one on the 16th at 2pm") and the calls' argument keys ("client_id") are no one the act
was for; placeholders the answer tells the user to fill in; the text drafted for the user
speaks to its readers and claims nothing of the run. Recall: each still fires where the
work was not done."""

from __future__ import annotations

from semloop.case import ToolCall
from semloop.judge.local._answerer import Embed
from semloop.judge.local._claims import stem
from semloop.judge.local._completion import _blanks_left, _verbs_named, answer_task_completion

from .conftest import call, case


def _tc(request: str, answer: str, *calls: ToolCall, embed: Embed) -> float:
    return float(answer_task_completion(case(request, answer, *calls), embed).value)


def test_a_word_after_an_article_or_preposition_is_a_noun(embed: Embed) -> None:
    assert _verbs_named("page count for file HR-2231-final.pdf?") == set()
    assert stem("file") in _verbs_named("file my mileage claim for March")
    count = call("count_pages", {"file": "HR-2231-final.pdf"}, {"pages": 48, "blank": 2})
    assert _tc("page count for file HR-2231-final.pdf?", "48 pages (2 blank).", count, embed=embed) < 0.5


def test_a_translation_asked_to_be_priced_is_quoted(embed: Embed) -> None:
    quote = call("create_quote", {"doc": "diploma", "target": "de-DE"}, {"quote": "Q-118", "amount_eur": 45, "days": 2})
    assert _tc("Quote please: sworn translation into German of my diploma (1 page).",
               "Quote Q-118: the diploma is 1 page, so the sworn translation is €45 and it will be ready in 2 "
               "working days. The quote is valid for 30 days.", quote, embed=embed) < 0.5
    assert _tc("Translate this into German for the shop window: 'Closed for stocktaking on Monday.'",
               "Sure, here it is: 'Closed for stocktaking on Monday.' Let me know if you need anything else.",
               embed=embed) >= 0.5


_FIND = call("find_patient", {"name": "Omar Haddad"}, {"patient_id": "PT-4410", "name": "Omar Haddad"})
_CANCEL = call("cancel_session", {"patient_id": "PT-4410", "date": "2025-03-03", "time": "09:00"},
               {"session": "S-1201", "status": "cancelled"})
_ASK = ("Please cancel Dad's 9am physio on Monday the 3rd and add a new one on Wednesday the 5th at 11am instead. "
        "Patient is Omar Haddad.")


def test_an_act_done_on_the_asked_day_and_time_by_another_verb(embed: Embed) -> None:
    book = call("book_session", {"patient_id": "PT-4410", "date": "2025-03-05", "time": "11:00"},
                {"session": "S-1240", "status": "booked", "therapist": "L. Moreau"})
    said = ("Done: Monday 3 March 09:00 is cancelled (S-1201), and I've booked Wednesday 5 March at 11:00 "
            "(S-1240) with L. Moreau.")
    assert _tc(_ASK, said, _FIND, _CANCEL, book, embed=embed) < 0.5
    # The new session never booked: still caught.
    assert _tc(_ASK, "Monday 3 March 09:00 is cancelled (S-1201).", _FIND, _CANCEL, embed=embed) >= 0.5


def test_placeholders_the_user_is_told_to_fill() -> None:
    assert not _blanks_left("Signed,\n[Name]\n[Phone]\n\nJust fill in your name and phone number before posting.")
    assert _blanks_left("The inspection is on [Date] at [Time].\n\nJust fill in your name before posting.")


def test_the_drafted_text_claims_nothing_of_the_run(embed: Embed) -> None:
    permit = call("get_permit", {"site": "14 Mill Lane"}, {"permit": "PP-2231", "approved": "2025-05-02",
                                                           "works_from": "2025-05-12", "works_to": "2025-06-30"})
    ask = "The permit for 14 Mill Lane was approved on 2 May. Can you draft the notice to the neighbours about the works?"
    said = ("Here's the notice:\n\nNOTICE TO NEIGHBOURS\nPlanning permit PP-2231 for 14 Mill Lane was approved on "
            "2 May 2025. Works will run from 12 May to 30 June, 8am to 6pm on weekdays. We apologise for any noise.\n"
            "[Name], Site Manager\n\nJust fill in your name before posting it.")
    assert _tc(ask, said, permit, embed=embed) < 0.5
