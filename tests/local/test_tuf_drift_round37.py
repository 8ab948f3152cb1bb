"""Task rules, round b36tu: a bracket that holds the asked size, a thing passed on to a
relation, a preposition before a number, moving as an operation, a date asked "instead";
for drift, a titled person who serves the case, another's matter found to cause the user's,
a yes or a no in the request's words, and "on that subject" announcing a digression."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed
from semloop.judge.local._drift import off_topic_evidence
from semloop.judge.local._understanding import task_understanding_evidence

from .conftest import call, case


def test_a_bracket_that_holds_the_asked_size_makes_other_sizes_thresholds(embed: Embed) -> None:
    # 20 m2 sits in "up to 25 m2"; 200 m2 is the threshold of another rule, not the shed's size.
    bracket = case("Do I need planning permission for a 20 m2 garden shed?",
                   "No: outbuildings up to 25 m2 are permitted development, unless the buildings on the plot "
                   "would then cover more than 200 m2 in total.")
    assert task_understanding_evidence(bracket, embed).features["substitute"] == 0.0


def test_a_thing_passed_on_to_a_relation_is_the_users_own(embed: Embed) -> None:
    gift = case("Can I transfer my concert ticket to my brother? The gig is on Friday.",
                "Not for this gig: transfers close 48 hours before the show, so your window ended this morning. "
                "Your options are to go yourself or ask for a refund minus the 10% fee.")
    assert task_understanding_evidence(gift, embed).features["another_task"] == 0.0


def test_a_preposition_before_a_number_is_no_label(embed: Embed) -> None:
    stuck = case("my order stuck since 3 day in the depot, where is it?",
                 "Your order 55120 has been at the Leeds depot since 2 May without a new scan; I've asked "
                 "the depot to trace it.",
                 call("track", {"order": "55120"}, {"last_scan": "2024-05-02", "where": "Leeds depot"}))
    assert task_understanding_evidence(stuck, embed).features["slot_swap"] == 0.0


def test_moving_a_service_is_an_act_another_call_does_not_do(embed: Embed) -> None:
    other = case("Please move my electricity contract to my new flat at 12 Elm Road from 1 March.",
                 "Paperless billing is now turned on, so your bills will arrive by email.",
                 call("enable_paperless", {"account": "EL-4410"}, {"status": "OK"}))
    assert task_understanding_evidence(other, embed).features["other_action"] == 1.0
    moved = case("Please move my electricity contract to my new flat at 12 Elm Road from 1 March.",
                 "Done: your contract moves to 12 Elm Road on 1 March; the old meter gets a final reading.",
                 call("move_contract", {"account": "EL-4410", "to": "12 Elm Road"}, {"status": "OK"}))
    assert task_understanding_evidence(moved, embed).features["other_action"] == 0.0


def test_a_date_asked_instead_asks_a_change(embed: Embed) -> None:
    cancelled = case("My ferry is booked for 3 June but I have to travel on 5 June instead. Ref FX-2231.",
                     "I've cancelled booking FX-2231 and the £64 fare will be refunded within a week.",
                     call("cancel_booking", {"ref": "FX-2231"}, {"status": "CANCELLED"}))
    assert task_understanding_evidence(cancelled, embed).features["other_action"] == 1.0


def test_a_titled_person_who_serves_the_case_is_no_other_case(embed: Embed) -> None:
    advised = case("How much amoxicillin should Bella (dog, 12 kg) get twice a day?",
                   "For Bella the usual dose is 10 mg/kg, so 120 mg twice a day, but check with Dr. Moreau "
                   "first since she had a rash last time.")
    assert off_topic_evidence(advised, embed).features["other_party"] == 0.0
    theirs = case("How much amoxicillin should Bella (dog, 12 kg) get twice a day?",
                  "Bella gets 120 mg twice a day. I've also renewed Mrs Duval's prescription for her cat.")
    assert off_topic_evidence(theirs, embed).features["other_party"] == 1.0


def test_another_matter_found_to_cause_the_users_is_no_other_case(embed: Embed) -> None:
    traced = case("Our office printer on floor 2 keeps jamming, can you sort it?",
                  "I've logged ticket IT-771 and a technician comes at 14:00. The print log shows that user on "
                  "floor 2 loaded 200 gsm card stock this morning, which is the likely cause, so I've asked them "
                  "to remove it.")
    assert off_topic_evidence(traced, embed).features["other_party"] == 0.0


def test_a_yes_in_the_requests_words_takes_the_question_up(embed: Embed) -> None:
    # Rests on one case (blind36's BAR question): the answer's reasons, all figures, sit far
    # from a terse request to the embedder.
    reply = case("Should we raise the BAR at Roppongi for 31 December?",
                 "Yes, I'd raise it. There's a countdown concert at the Tokyo Dome that night (55,000 capacity, "
                 "20 seats left), and our pickup for 31 Dec is +52 room nights in the last 7 days versus +11 for "
                 "a typical Tuesday. Comp-set median is already 41,000 yen against our 33,500.",
                 call("events", {"city": "Tokyo", "date": "2025-12-31"}, [{"event": "concert", "cap": 55000}]),
                 call("pickup", {"hotel": "TYO-RP", "date": "2025-12-31"}, {"pickup": 52, "typical": 11}))
    assert off_topic_evidence(reply, embed).features["stretch"] == 0.0


def test_on_that_subject_announces_a_digression(embed: Embed) -> None:
    aside = case("Which of our vans has a tail lift? We need one for a piano delivery on Friday.",
                 "Van 4 has a tail lift. On that subject, I think the company should rethink its whole "
                 "approach to the summer staff party: last year people complained about the venue, and a "
                 "barbecue in the park with a raffle for charity would be cheaper and more fun for everyone.",
                 call("fleet", {"feature": "tail_lift"}, [{"van": "4", "tail_lift": True}]))
    assert off_topic_evidence(aside, embed).features["stretch"] == 1.0
