"""TASK_UNDERSTANDING_FAILURE on false alarms of blind60 … blind62b (opened this round),
each tested in a domain of its own here: a month and its day are a date, which a term
moves, not a slot picked from its siblings; a slot's label is an English word; a prefix
another language hyphens to a name ("ku-Riverbend") is no part of a series; a document's
heading names what its rows are about; a record looked up on the asked name and restated
answers for it; a short note of the session's date is no passage beside the
asked one; a word only in the opening of the document the answer drew on names that
document. Recall: another slot of the same label, a compound's sibling, and the answer
drawn from the other of two parallel documents are still caught."""

from __future__ import annotations

from semloop.case import RunCase
from semloop.judge.local._answerer import Embed
from semloop.judge.local._understanding import (
    _clock_note,
    _heading_over,
    _looked_up,
    _sibling_heading,
    _slot_swap,
    _substitutes,
    _title_line,
)

from .conftest import call, case, understanding


def test_a_month_and_its_day_are_a_date() -> None:
    run = case("The premium was due March 1 and he passed away on March 24. How long is the grace period?",
               "The grace period is 30 days from the due date, so it ran through March 31.")
    assert _slot_swap(run) is None
    assert _slot_swap(case("Is platform 4 open this weekend?", "Platform 6 is open all weekend.")) is not None


def test_a_slot_label_is_an_english_word() -> None:
    run = case("Zakaj je v bazenu gneča, ko je gor 25 otrok?", "Ob 16:00 je bilo gor 27 otrok in dva reševalca.")
    assert _slot_swap(run) is None
    assert _slot_swap(case("When does shaft 3 reopen?", "Shaft 5 is back in service on Monday.")) is not None


def test_a_prefix_hyphened_to_a_name_is_no_series() -> None:
    run = case("Ngicela ukubhalisa ingane yami ku-Riverbend Academy.",
               "Ungabhalisa ku-portal.riverbend.example/enrol, bese ulayisha isitifiketi sokuzalwa.")
    assert _substitutes(run) is None
    sibling = case("Why did the billing-prod deploy fail?", "The billing-dev deploy failed on a missing secret.",
                   call("get_deploys", {}, {"deploys": [{"env": "billing-prod", "status": "failed", "at": "09:12"},
                                                        {"env": "billing-dev", "status": "failed", "at": "08:40"}]}))
    assert _substitutes(sibling) is not None


def test_a_heading_names_what_its_rows_are_about(embed: Embed) -> None:
    card = ("Price list 2025 – Mobile Dog Grooming (home visits)\n"
            "Size S (up to 10 kg): full groom £38; bath & brush £25\n"
            "Size L (over 25 kg): full groom £62; bath & brush £41")
    run = RunCase(id="probe", input="How much is mobile grooming for my labrador? She's 30 kg.",
                  output="She's a Size L: a full groom is £62, or £41 for a bath and brush.", context=(card,))
    assert _heading_over("grooming", "size", run)
    assert understanding(run, embed) < 0.5


def test_a_record_looked_up_on_the_asked_name() -> None:
    run = case("For the Okafor hearing: who is the Yoruba interpreter, and what ID do they bring?",
               "Adebayo Ogunleye, booked under ref CT-5518. He needs photo ID and the booking confirmation.",
               call("get_booking", {"party": "Okafor"},
                    {"ref": "CT-5518", "party": "Okafor", "interpreter": "Adebayo Ogunleye", "language": "Yoruba"}))
    run = RunCase(id="probe", input=run.input, output=run.output, tools_called=run.tools_called,
                  context=(("Court interpreter guidance: bring photo ID and the booking confirmation; arrive 30 "
                            "minutes early."),))
    assert _looked_up("okafor", run)
    assert _substitutes(run) is None
    assert not _looked_up("okafor", case(run.input, "Please bring photo ID and your booking confirmation.",
                                         *run.tools_called))


def test_a_note_of_the_session_date_is_no_passage(embed: Embed) -> None:
    assert _clock_note("Session info: today is 2025-03-02")
    assert not _clock_note("Returns: unworn items may be returned within 30 days of delivery, from 2025-01-01.")
    run = RunCase(id="probe", input="How long do I have to return the boots I got on 20 February?",
                  output="Until 22 March: that's 20 more days from today.",
                  context=("Returns: unworn items may be returned within 30 days of delivery.",
                           "Session info: today is 2025-03-02"))
    assert _sibling_heading(run) is None
    assert understanding(run, embed) < 0.5


def test_a_word_only_in_the_opening_of_the_drawn_document(embed: Embed) -> None:
    assert _title_line("Harbour View Marina — fees 2025/26, ref HV/25/01\nAnnual berth £2,900.")[0] == (
        "Harbour View Marina — fees 2025/26, ref HV/25/01")
    assert _title_line("Berths: annual £2,900\nWinter storage £640.")[0] == ""
    doc = ("Little Acorns Holiday Camp fees 2025: £32 per day (08:30–17:30). Full week booking (5 days): £140 per "
           "week. Sibling discount 10% on the second child.")
    run = RunCase(id="probe", input="how much is the holiday camp",
                  output="It's £32 a day (8:30–5:30). Booking the full week is £140, and there's 10% off for a "
                         "second child.", context=(doc,))
    assert understanding(run, embed) < 0.5
    # Two parallel documents, the answer drawn from the other one: still caught.
    fsa = RunCase(id="probe", input="What's the 2025 contribution limit for my HSA?",
                  output="The 2025 limit is $3,300, and you can carry over up to $660.",
                  context=(("HSA (health savings account): 2025 contribution limit $4,300 for self-only cover; "
                            "catch-up $1,000 from age 55."),
                           "FSA (flexible spending account): 2025 contribution limit $3,300; carryover up to $660."))
    assert understanding(fsa, embed) >= 0.5
