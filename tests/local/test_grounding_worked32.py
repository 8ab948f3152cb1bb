"""HALLUCINATION on careful answers that restate or work out what the records give (the
causes of blind31's and gen32's false alarms, in other domains): a dot-grouped euro range, a clock time labelled by
its city, a free state, a key that names a two-word unit, the user's own measure, a term and
its extension, one group's rows totalled and a key's different values counted. Each with a
slip that must still be found; and a deed claimed after a call whose output opened on an
error, which is found though the call's flag says it succeeded."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed

from .conftest import call, found


def test_a_dot_grouped_round_euro_range_is_thousands(embed: Embed) -> None:
    quote = {"job": "RS-88", "estimate_low_eur": 12000, "estimate_high_eur": 15000}
    assert found(embed, "estimate?", "The restoration is estimated at €12.000–15.000.", tool=quote).get("numbers", 0) == 0
    assert found(embed, "estimate?", "The restoration is estimated at €12.000–18.000.", tool=quote)["numbers"] >= 1


def test_a_city_before_time_labels_the_clock(embed: Embed) -> None:
    ferry = {"sailing": "FX-2", "departs_utc": "2026-12-09T14:30:00Z"}
    assert found(embed, "when?", "It departs at 15:30 Berlin time (14:30 UTC).", tool=ferry).get("names", 0) == 0
    assert found(embed, "when?", "It departs from the Berlin terminal at 14:30 UTC.", tool=ferry)["names"] >= 1


def test_free_said_of_what_came_before_offers_nothing_after_it(embed: Embed) -> None:
    bays = {"bays": [{"id": 1, "status": "available"}, {"id": 2, "status": "occupied"}]}
    assert found(embed, "any bay?", "Bay 1 is free right now; bay 2 is taken.", tool=bays).get("offered", 0) == 0
    room = {"room": "twin", "parking": "free", "breakfast": "included"}
    assert found(embed, "parking?", "Parking is free all week, and a spa pass is included too.",
                 tool=room)["offered"] >= 1


def test_a_key_ending_in_a_two_word_unit_gives_it(embed: Embed) -> None:
    returns = {"order": "KT-5", "return_window_business_days": 10}
    assert found(embed, "returns?", "You have 10 business days to send it back.", tool=returns).get("numbers", 0) == 0
    assert found(embed, "returns?", "You have 12 business days to send it back.", tool=returns)["numbers"] >= 1


def test_the_user_s_own_measure_in_a_yes_no_question_is_given(embed: Embed) -> None:
    bridge = {"bridge": "Mill Lane", "clearance_m": 4.2}
    question = "Will my 9 ft trailer fit under the Mill Lane bridge?"
    assert found(embed, question, "Yes — 9 ft is about 2.7 m, well under the 4.2 m clearance.",
                 tool=bridge).get("numbers", 0) == 0
    assert found(embed, question, "Yes — 11 ft is about 3.4 m, well under the 4.2 m clearance.",
                 tool=bridge)["numbers"] >= 1


def test_a_term_and_its_extension_count_on_together(embed: Embed) -> None:
    plan = {"member": "M-31", "joined": "2025-03-01"}
    terms = "Membership runs 12 months from joining. Members who refer a friend get an additional 6 months."
    said = "Your membership runs to 01/03/2026, and the extra 6 months for your referral takes it to {}."
    assert found(embed, "until when?", said.format("01/09/2026"), context=terms, tool=plan).get("numbers", 0) == 0
    assert found(embed, "until when?", said.format("01/10/2026"), context=terms, tool=plan)["numbers"] >= 1


def test_one_group_s_rows_totalled_where_the_claim_names_it(embed: Embed) -> None:
    shifts = "nurse,ward,hours\nAda,A,8\nBen,B,6\nAda,A,7\nCal,B,5\nBen,A,4"
    assert found(embed, "hours?", "Ada worked 15 hours this week over two shifts.", tool=shifts).get("numbers", 0) == 0
    assert found(embed, "hours?", "Ada worked 16 hours this week.", tool=shifts)["numbers"] >= 1
    # Ben's rows total 10: Ada's total is no figure of his.
    assert found(embed, "hours?", "Cal worked 15 hours this week.", tool=shifts)["numbers"] >= 1


def test_a_key_s_different_values_counted(embed: Embed) -> None:
    shifts = "nurse,ward,hours\nAda,A,8\nBen,B,6\nAda,A,7\nCal,B,5\nBen,A,4"
    assert found(embed, "who?", "Three nurses covered the five shifts.", tool=shifts).get("bound", 0) == 0


def test_a_deed_claimed_after_a_call_that_opened_on_an_error(embed: Embed) -> None:
    # The framework recorded the call as made; its output says it was refused.
    refused = call("reserve_court", {"court": 3, "at": "18:00"},
                   {"error": "409 Conflict", "message": "court 3 is taken at 18:00"})
    assert found(embed, "book court 3 at 6pm", "All set — court 3 is booked for 18:00.",
                 calls=(refused,))["offered"] >= 1
    made = call("reserve_court", {"court": 3, "at": "18:00"}, {"booking": "CT-77", "court": 3, "at": "18:00"})
    assert found(embed, "book court 3 at 6pm", "All set — court 3 is booked for 18:00.",
                 calls=(made,)).get("offered", 0) == 0
