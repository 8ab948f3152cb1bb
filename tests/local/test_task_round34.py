"""Task rules, round b33t: a second act opened by a verb and its particle, an act asked
after a story and only promised, a count before an act's object, a table read as records,
a sibling phrase the evidence names beside the one asked, the next item named as work left."""

from __future__ import annotations

from semloop.case import RunCase
from semloop.judge.local._answerer import Embed
from semloop.judge.local._completion import _promised_after_looking, answer_task_completion
from semloop.judge.local._task import _VERB_OBJECT, _csv_rows
from semloop.judge.local._understanding import answer_task_understanding_failure

from .conftest import call, case


def test_second_act_opened_by_verb_and_particle_is_a_part(embed: Embed) -> None:
    dropped = case("Extend the allotment lease on plot 14 for a year and switch on paperless billing for it.",
                   "Plot 14's lease now runs to 31 March 2028 (lease AL-771).",
                   call("extend_lease", {"plot": 14}, {"lease": "AL-771", "ends": "2028-03-31"}))
    assert float(answer_task_completion(dropped, embed).value) >= 0.5


def test_act_asked_after_a_story_and_only_promised(embed: Embed) -> None:
    promised = case("The hotel room I stayed in last night (booking HB-2231) had no hot water, which the night "
                    "porter noted, and you still charged the full 140 € rate. Please refund 50 € of it as your "
                    "policy says.",
                    "Thank you for explaining, and I'm sorry about this. I can see the porter's note on HB-2231, "
                    "so the full rate shouldn't have been charged. I will go ahead and refund 50 € to your card "
                    "— you'll see it within a few business days.",
                    call("get_booking", {"booking_id": "HB-2231"},
                         {"booking_id": "HB-2231", "notes": ["no hot water"], "charged_eur": 140}))
    assert float(answer_task_completion(promised, embed).value) >= 0.5


def test_a_count_before_the_object_still_opens_an_act() -> None:
    assert _VERB_OBJECT.match("Deliver 30 bales of hay")
    assert not _VERB_OBJECT.match("Member 55-10392")


def test_a_comma_separated_table_is_read_as_records() -> None:
    assert _csv_rows("plan,annual_gbp\nSwarm Watch,48\nHive Keeper,95")[1] == {"plan": "Hive Keeper",
                                                                                "annual_gbp": "95"}
    assert _csv_rows("Hello, this is prose, with commas.\nAnd more, lines.\nThree") == []


def test_record_of_a_table_told_for_another(embed: Embed) -> None:
    other = case("What's the hire rate for the Jubilee marquee?",
                 "The Pavilion marquee hires at £420 a day, including setup.",
                 call("rates", {}, "marquee,day_rate_gbp\nPavilion,420\nJubilee,610"))
    assert float(answer_task_understanding_failure(other, embed).value) >= 0.5


def test_sibling_phrase_the_evidence_names_beside_the_asked_one(embed: Embed) -> None:
    other = RunCase(id="probe", input="What does the weekend pass cost for the ski lifts?",
                    output="The season pass for the ski lifts costs €420 for adults.",
                    context=("Lift passes. Weekend pass: €95 adult. Season pass: €420 adult. Day pass: €52 adult.",))
    assert float(answer_task_understanding_failure(other, embed).value) >= 0.5


def test_next_item_named_is_work_left(embed: Embed) -> None:
    halfway = case("Triage the two alerts SOC-1 and SOC-2 and close them if benign.",
                   "SOC-1 is benign (internal scanner) and is closed. Moving on to SOC-2 next.",
                   call("close_alert", {"id": "SOC-1"}, {"ok": True}))
    assert float(answer_task_completion(halfway, embed).value) >= 0.5


def test_text_greets_another_party_the_evidence_names(embed: Embed) -> None:
    other = case("Draft an email to our caterer Olive & Thyme asking them to add two vegetarian meals for Saturday.",
                 "Dear Priya,\n\nCould you add two vegetarian meals to Saturday's order? Many thanks for "
                 "your help with the hall.\n\nBest,\nSam",
                 call("event_contacts", {"event": "Saturday"},
                      {"caterer": "Olive & Thyme", "venue": "Harbour Hall", "venue_contact": "Priya Shah"}))
    assert float(answer_task_understanding_failure(other, embed).value) >= 0.5


def test_steps_towards_the_value_asked_are_the_method_not_the_result(embed: Embed) -> None:
    method = case("based on the readings you hold, what's my gas bill for March? just the figure",
                  "To work out your March bill, take the units you used and multiply them by your unit rate. "
                  "If you add the standing charge for each day, that's your bill.",
                  call("meter_readings", {"account": "G-118", "month": "2027-03"},
                       {"opening": 10412, "closing": 10688, "unit_rate_p": 6.2, "standing_p_day": 31.4}))
    assert float(answer_task_completion(method, embed).value) >= 0.5


def test_how_a_kind_of_thing_is_done_claims_no_act(embed: Embed) -> None:
    asks = case("Book a piano tuner for the school hall on Friday afternoon.",
                "One thing first: is it the grand in the main hall or the upright in the music room? Tuners are "
                "booked per instrument, and Friday has a 10:00 and a 14:00 slot free.",
                call("get_tuner_slots", {"date": "2027-05-14"}, {"slots": ["10:00", "14:00"]}))
    assert float(answer_task_completion(asks, embed).value) < 0.5


def test_two_words_of_one_entry_are_no_siblings(embed: Embed) -> None:
    same = RunCase(id="probe", input="How often does my dog need a kennel cough booster?",
                   output="For dogs it's once a year, using the intranasal kennel cough vaccine.",
                   context=(("Kennel cough boosters: dogs once a year after the first dose; the intranasal vaccine "
                             "is preferred. Lyme (dogs in tick areas): yearly."),))
    assert float(answer_task_understanding_failure(same, embed).value) < 0.5


def test_what_an_act_waits_on_from_the_user_is_no_promise() -> None:
    waits = case("Please book me a follow-up blood test, my doctor asked for one.",
                 "Blood tests can usually be booked within two days. To look up slots or book anything, "
                 "I will need to verify your identity first: your full name and date of birth.")
    assert _promised_after_looking(waits) is None
    promised = case("Please book me a follow-up blood test, my doctor asked for one.",
                    "Blood tests can usually be booked within two days. I will book the test for you shortly.")
    assert _promised_after_looking(promised) is not None
