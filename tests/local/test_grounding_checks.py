"""HALLUCINATION's support checks, one at a time, on small hand-made cases: what each
check finds (the evidence the head weighs), not the head's verdict."""

from __future__ import annotations

import json
import re

import pytest

from semloop.case import RunCase, ToolCall
from semloop.judge.local._answerer import Embed
from semloop.judge.local._claims import (
    clock_times,
    contradicts,
    dates,
    keyed_units,
    labelled_values,
    negation_scope,
    quantities,
    split_claims,
    word_stems,
    worded_clock_times,
)
from semloop.judge.local._contradictions import _kind_of_record
from semloop.judge.local._grounding import _code_free, hallucination_evidence
from semloop.judge.local._offers import _enumerated_items, _offered_items

from .conftest import found


def test_a_value_is_labelled_by_the_words_next_to_it() -> None:
    labels = {v.text: v.labels for v in labelled_values("Your 40 GB plan renews on 9 May; 31.2 GB used.")}
    assert labels["40 GB"] == {"plan", "renew"}
    assert labels["31.2 GB"] == {"used"}
    assert "9 May" in labels


def test_a_changed_value_is_a_rival_and_a_new_one_is_not(embed: Embed) -> None:
    greenhouse = "Greenhouse rental: bench space 4 m2, rent 18 EUR per month, water included."
    wrong = found(embed, "rent?", "The bench rent is 25 EUR per month.", greenhouse)
    assert wrong["numbers"] == 1 and wrong["rival"] == 1
    # A number of another kind the context never gives is unsupported, but changes nothing.
    new = found(embed, "how warm is it?", "It is kept at 21 °C all winter.", greenhouse)
    assert new["numbers"] == 1 and new["rival"] == 0


def test_a_rate_restated_per_another_period_is_supported(embed: Embed) -> None:
    ctx = "Allotment plot fee: 15 GBP per month."
    assert found(embed, "yearly cost?", "That is 180 GBP a year.", ctx)["numbers"] == 0
    # Only between periods the claim and the context name: minutes are no months.
    assert found(embed, "yearly cost?", "That is 180 GBP a minute.", ctx)["numbers"] == 1


def test_time_between_two_clock_times_is_supported(embed: Embed) -> None:
    ctx = "Ferry timetable: departs Ardmore 09:10, arrives Kilbride 10:05."
    assert found(embed, "how long is the crossing?", "It takes 55 minutes.", ctx)["numbers"] == 0
    assert found(embed, "how long is the crossing?", "It takes 40 minutes.", ctx)["numbers"] == 1


def test_a_yearless_day_month_range_dates_both_its_ends(embed: Embed) -> None:
    stay = {"guest": "Okafor", "nights": "09/11–12/11", "status": "confirmed"}
    assert found(embed, "when?", "You are booked for 9–12 November.", tool=stay)["numbers"] == 0
    assert found(embed, "when?", "You are booked for 9–14 November.", tool=stay)["numbers"] == 1
    assert dates("a 2/3 - 1/3 split") == []  # unpadded, a fraction


def test_a_key_s_one_letter_unit_after_what_it_measures_converts(embed: Embed) -> None:
    brew = {"batch": 12, "mash_time_s": 3710, "zone_c": 4}
    assert found(embed, "mash?", "The mash ran just under 62 minutes.", tool=brew)["numbers"] == 0
    assert found(embed, "mash?", "The mash ran just under 70 minutes.", tool=brew)["numbers"] == 1
    assert keyed_units("zone c: 4; pace s per km: 296") == []  # a name's letter; a rate


def test_a_negation_the_evidence_states_too_is_no_conflict_with_its_listing_verb(
        embed: Embed) -> None:
    hire = ("Car hire is £40 a day. Insurance is not included in the daily rate and is payable "
            "separately at the desk; it includes collision cover, theft cover and a windscreen waiver.")
    agrees = ("Collision cover, theft cover and the windscreen waiver are payable separately as "
              "insurance at the desk.")
    assert found(embed, "is insurance in the price?", agrees, hire)["negation"] == 0
    # Another thing's negation in the sentence agrees with nothing the claim says.
    room = "Room rate: £120 a night. Breakfast is included in the room rate, but parking is not included."
    assert found(embed, "breakfast?", "Breakfast is not included in the room rate.", room)["negation"] == 1


def test_an_adverb_after_an_offer_remarks_on_the_whole_and_offers_nothing(embed: Embed) -> None:
    bill = {"lines": [{"desc": "Brake pads", "amount": 140}, {"desc": "Discs", "amount": 150}],
            "vat_20": 52, "total": 310}
    remark = "The repair came to 310 GBP including VAT, mainly the brake pads and discs."
    assert found(embed, "the bill?", remark, tool=bill).get("offered", 0) == 0
    added = "The repair came to 310 GBP including VAT, brake pads and a courtesy car."
    assert found(embed, "the bill?", added, tool=bill).get("offered", 0) >= 1


def test_a_record_s_snake_case_status_is_read_in_words(embed: Embed) -> None:
    claim = {"claim_id": "C-88", "assessment": {"state": "in_review", "adjuster": "R. Lindqvist"}}
    said = "Your claim C-88 has been approved by R. Lindqvist."
    assert found(embed, "is my claim approved?", said, tool=claim)["negation"] == 1
    kept = "Your claim C-88 is still in review with R. Lindqvist."
    assert found(embed, "is my claim approved?", kept, tool=claim).get("negation", 0) == 0


def test_an_action_claimed_after_its_call_failed_is_offered(embed: Embed) -> None:
    read = ToolCall(name="get_booking", args={}, output='{"booking": "BK-12", "seats": 2}', success=True)
    failed = ToolCall(name="change_seats", args={}, output='{"error": "LOCKED"}', success=False)
    claim = "I've changed both seats on booking BK-12."
    assert found(embed, "swap my seats", claim, calls=(read, failed)).get("offered", 0) == 1
    done = ToolCall(name="change_seats", args={}, output='{"ok": true}', success=True)
    assert found(embed, "swap my seats", claim, calls=(read, done)).get("offered", 0) == 0


def test_a_heading_s_value_beside_a_row_s_leaves_the_row_swap_found(embed: Embed) -> None:
    quotes = {"job": "kitchen tiling", "area_m2": 24, "quotes": [
        {"firm": "Okonkwo Tiling", "price_gbp": 1450}, {"firm": "Brightwell Floors", "price_gbp": 1620}]}
    swapped = "For the 24 m2 kitchen, Brightwell Floors quoted 1,450 GBP."
    assert found(embed, "cheapest?", swapped, tool=quotes)["bound"] == 1
    right = "For the 24 m2 kitchen, Okonkwo Tiling quoted 1,450 GBP."
    assert found(embed, "cheapest?", right, tool=quotes).get("bound", 0) == 0


def test_one_row_s_condition_with_another_row_s_result_is_bound(embed: Embed) -> None:
    rates = {"options": [{"nights": 3, "total_eur": 420}, {"nights": 5, "total_eur": 640}]}
    mixed = "For 3 nights the total is 640 EUR."
    assert found(embed, "price for 3 nights?", mixed, tool=rates)["bound"] == 1
    both = "For 3 nights the total is 420 EUR, and 5 nights cost 640 EUR."
    assert found(embed, "prices?", both, tool=rates).get("bound", 0) == 0


def test_a_result_worked_from_a_worked_result_is_supported(embed: Embed) -> None:
    ctx = "Pottery course: 6 sessions at 35 EUR each. Members get 10% off."
    answer = "Six sessions cost 210 EUR, and with 10% off that is 21 EUR less, so 189 EUR in total."
    assert found(embed, "price for members?", answer, ctx)["numbers"] == 0


def test_a_fraction_and_a_list_length_state_their_numbers(embed: Embed) -> None:
    assert found(embed, "how many passed?", "12 of 15 students passed the inspection.",
                 "Inspection log: 12/15 passed.")["numbers"] == 0
    tool = '{"rooms": [{"no": 101}, {"no": 102}, {"no": 103}], "hotel": "Lindenhof"}'
    assert found(embed, "how many rooms are booked?", "You have 3 rooms booked at Lindenhof.",
                 tool=tool)["counts"] == 0


def test_a_clock_range_reads_its_start_with_the_end_s_am_pm() -> None:
    assert [m for _, m in clock_times("Quiet hours 2–4 pm")] == [14 * 60, 16 * 60]
    assert quantities("Quiet hours 2–4 pm") == []


def test_a_verb_before_no_is_negated_with_its_object() -> None:
    _, phrases = negation_scope("The deposit earns no interest.")
    assert frozenset({"earn", "interes"}) in phrases  # stems
    ev = "Deposits do not earn interest while the locker is rented."
    assert contradicts("The locker deposit earns no interest while rented.", ev) == ""
    assert contradicts("The locker deposit earns interest while rented.", ev) == "earn"


def test_un_on_a_bare_verb_is_an_action_to_come_not_a_negation() -> None:
    ev = "locker 12: status LOCKED; reason: rent overdue; unlock on payment"
    assert contradicts("Locker 12 is locked because the rent is overdue.", ev) == ""
    assert negation_scope("We can unpack and unfreeze it.")[0] == frozenset()
    # the participle or adjective is the state: negated
    assert contradicts("Locker 12 is unlocked because the rent is overdue.", ev) == "lock"
    assert {"paid", "known", "saf"} <= negation_scope("unpaid, unknown, unsafe")[0]


def test_a_negation_narrowed_to_a_case_denies_only_that_case() -> None:
    ev = "Night bus service (N1 route): Friday and Saturday only, every 30 minutes."
    sentence = word_stems("The N1 night buses only run on Friday and Saturday, so there is no "
                          "night bus service on Tuesday.")
    assert contradicts("so there is no night bus service on Tuesday", ev, 1, sentence) == ""
    assert contradicts("so there is no night bus service", ev, 1, sentence) == "bus night"
    shop = "Espresso machines are not repaired on-site: they are sent to the maker."
    assert contradicts("We send espresso machines to the maker to be repaired.", shop) == ""
    # the same case stated on both sides is still a contradiction
    assert contradicts("Espresso machines are repaired on-site in our shop.", shop) == "repair"
    # the case past a limit restates the limit; the case within it contradicts it
    limit = "Annual prepaid $499, refundable within 30 days of purchase only."
    assert contradicts("The annual plan isn't refundable after 30 days.", limit, 1) == ""
    assert contradicts("The annual plan isn't refundable within 30 days.", limit, 1) == "refunda"
    hotel = "Hotel rules: pets are not allowed in the rooms."
    assert contradicts("Pets are allowed in all rooms at the hotel.", hotel) == "allow"


def test_listed_parts_of_a_stated_total_are_not_bound_to_another_record(embed: Embed) -> None:
    tool = "bike A 3 hours x €12 = €36.00\nbike B 2 hours x €12 = €24.00\nbike C 4 hours x €12 = €48.00"
    answer = "The total for the three bikes is €108 (€36 + €24 + €48)."
    assert found(embed, "quote for 3 bikes pls, total", answer, tool=tool)["bound"] == 0
    # said alone, a part is the value of its own record
    assert found(embed, "quote for 3 bikes pls, total", "The total is €24.", tool=tool)["bound"] == 1
    # a part in the same currency, said bare ("7.80 GBP: 5.20 for you and 2.60 for …")
    pool = "Adult swim 5.20 GBP, child 2.60 GBP. Sauna session 9.50 GBP."
    assert found(embed, "me and my son?", "That's 7.80 GBP: 5.20 for you and 2.60 for your son.",
                 pool)["bound"] == 0


def test_generic_words_of_a_found_name_are_not_invented(embed: Embed) -> None:
    ctx = "Delivery: arrives at Rotterdam on 3 June."
    assert found(embed, "where does it arrive?", "It arrives at the Port of Rotterdam on 3 June.",
                 ctx)["names"] == 0
    assert found(embed, "where does it arrive?", "It arrives at the Port of Antwerp on 3 June.",
                 ctx)["names"] >= 1


def test_a_bare_name_is_only_a_whole_answer(embed: Embed) -> None:
    ctx = "The Weaver's Guild hall was built by the mason Odile Brack in 1884."
    assert found(embed, "who built the guild hall?", "Henrik Solberg", ctx)["bare_name"] == 1
    assert found(embed, "who built the guild hall?", "Odile Brack", ctx)["bare_name"] == 0
    # Within a longer answer, a one-word sentence is a reply.
    assert found(embed, "was it built in 1884?", "Correct. The mason Odile Brack built it in 1884.",
                 ctx)["bare_name"] == 0


def test_a_value_bound_to_another_record_is_found_across_the_sentence_before(embed: Embed) -> None:
    ctx = ("The 2019 regatta was held on Lake Mora. Team Osprey won the final by two lengths. "
           "The junior cup went to Team Heron.")
    assert found(embed, "Who won the 2019 regatta final?", "Team Osprey", ctx)["bound"] == 0


def test_a_limit_is_stated_as_it_is_not_rounded(embed: Embed) -> None:
    ctx = "Carry-over: at most 5 unused days."
    assert found(embed, "carry over?", "You can carry over up to 10 days.", ctx)["numbers"] == 1
    assert found(embed, "carry over?", "You can carry over up to 5 days.", ctx)["numbers"] == 0


def test_area_converts_between_square_metres_and_feet(embed: Embed) -> None:
    ctx = "Studio flat, 45 m2, ground floor."
    assert found(embed, "size in sq ft?", "It is about 484 square feet.", ctx)["numbers"] == 0
    assert found(embed, "size in sq ft?", "It is about 620 square feet.", ctx)["numbers"] == 1


def test_a_duration_in_hours_and_minutes_between_clock_times(embed: Embed) -> None:
    ctx = "Coach timetable: leaves Leeds 06:50, arrives York 08:05."
    assert found(embed, "how long?", "The coach takes 1 h 15 min.", ctx)["numbers"] == 0


def test_a_date_moved_on_by_a_stated_term_when_counted(embed: Embed) -> None:
    ctx = "Passport issued 14 March 2021, valid 10 years."
    assert found(embed, "until when?", "It is valid until March 2031.", ctx)["numbers"] == 0
    assert found(embed, "until when?", "It is valid until March 2032.", ctx)["numbers"] == 1
    # Without counting wording a shifted date is no support.
    assert found(embed, "when was it issued?", "It was issued in March 2031.", ctx)["numbers"] == 1


def test_so_before_a_number_shows_working(embed: Embed) -> None:
    ctx = "Boat hire: 45 EUR per hour."
    assert found(embed, "3 hours?", "Three hours at 45 EUR, so 135 EUR.", ctx)["numbers"] == 0


def test_a_status_the_context_excludes_is_a_contradiction(embed: Embed) -> None:
    ctx = "Order 7731: status out for delivery, driver ETA 14:00-16:00."
    assert found(embed, "where is it?", "Order 7731 was delivered this morning.", ctx)["negation"] == 1
    assert found(embed, "where is it?", "Order 7731 is on its way, due by 16:00.",
                 ctx)["negation"] == 0
    flight = "Flight BA 117 status: delayed, new departure 21:40."
    assert found(embed, "is BA 117 on time?", "BA 117 is on time.", flight)["negation"] == 1
    assert found(embed, "is BA 117 on time?", "BA 117 is not on time: it leaves at 21:40.",
                 flight)["negation"] == 0


def test_an_antonym_of_the_context_s_attribute_is_a_contradiction() -> None:
    hall = "The village hall is closed on public holidays and Mondays."
    assert contradicts("The village hall is open on public holidays.", hall) == "open"
    assert contradicts("The village hall is not open on public holidays.", hall) == ""
    fees = "Bike storage at the hostel is charged at 3 EUR per night."
    assert contradicts("Bike storage at the hostel is free.", fees) == "charg"
    assert contradicts("Bike storage at the hostel isn't free.", fees) == ""
    rules = "Campfires on the beach are prohibited from May to September."
    assert contradicts("Campfires on the beach are permitted in June.", rules) == "allow"
    assert contradicts("Campfires aren't allowed on the beach in summer.", rules) == ""
    # "paid" is said of an invoice settled as much as of a charge: not an attribute here.
    assert contradicts("If the invoice isn't paid, interest accrues on the amount.",
                       "Amounts unpaid after the invoice date bear interest until paid.") == ""


def test_a_negated_list_item_is_contradicted_by_the_claim_s_sentence(embed: Embed) -> None:
    cabin = "Cabin 9: sleeps 4, wood stove, lake view, no shower. Linen included."
    # The claim's subject (the cabin, the stove) is in its other clause.
    flipped = found(embed, "can we wash there?",
                    "The cabin has a wood stove but also a shower you can use.", cabin)
    assert flipped["negation"] == 1
    assert found(embed, "can we wash there?", "Cabin 9 has a wood stove but no shower.",
                 cabin)["negation"] == 0
    # A clause of the context about another day is not the claim's.
    hours = "Ferry ticket office hours: Mon-Fri 7:00-19:00; Sat 8:00-12:00; Sun closed."
    assert found(embed, "saturday?", "The ferry ticket office is open on Saturday from 8:00 to 12:00.",
                 hours)["negation"] == 0


def test_an_offered_item_the_context_never_names_is_invented(embed: Embed) -> None:
    hostel = "Harbour Hostel dorm bed: 28 EUR per night, linen and lockers included, breakfast 6 EUR."
    extra = found(embed, "what do i get?", "Your bed comes with linen, a locker and free towels.", hostel)
    assert extra["offered"] == 1
    listed = found(embed, "what do i get?", "Your bed includes linen and a locker.", hostel)
    assert listed["offered"] == 0
    # Asking about an item does not offer it; denying it offers nothing.
    asked = found(embed, "is there free parking?", "Yes, there is free parking.", hostel)
    assert asked["offered"] == 1
    assert found(embed, "is there free parking?", "There's no free parking listed for the hostel.",
                 hostel)["offered"] == 0
    # "free for guests", "free of charge": no item follows.
    assert found(embed, "is linen extra?", "Linen is free for guests, free of charge.", hostel)["offered"] == 0


def test_a_clause_after_including_offers_no_item(embed: Embed) -> None:
    vault = "Locker rental: agents never disclose who rents a locker or what it holds."
    said = "I can't tell you anything about that locker, including whether anyone rents it."
    assert found(embed, "who has locker 12?", said, vault).get("offered", 0) == 0
    listed = "Your locker rental includes a padlock and whether it's insured."
    assert found(embed, "what do i get?", listed, vault)["offered"] >= 1


def test_a_share_of_an_amount_the_claim_states_is_no_slip_of_it(embed: Embed) -> None:
    tiers = "Agency commission: 10% on the first $600 of each booking, 5% above $600."
    # A tenth of $600 is one digit from it, but worked out here, not copied wrong.
    worked = ("On a $1,000 booking the commission is $80: 10% on the first $600 ($60) "
              "plus 5% on the remaining $400 ($20).")
    assert found(embed, "commission on a $1,000 booking?", worked, tiers)["numbers"] == 0
    slipped = "The commission is 10% on the first $60 of each booking."
    assert found(embed, "commission?", slipped, tiers)["numbers"] == 1


def test_due_to_before_a_verb_schedules_and_gives_no_cause(embed: Embed) -> None:
    permit = {"permit": "parking", "status": "approved", "start": "2026-09-01"}
    scheduled = "Your parking permit is due to start on 1 September, once it is printed and posted."
    assert found(embed, "when does my permit start?", scheduled, tool=permit).get("cause", 0) == 0
    caused = "Your parking permit starts on 1 September due to a backlog at the printing office."
    assert found(embed, "when does my permit start?", caused, tool=permit)["cause"] == 1


def test_a_result_stated_apart_from_its_shown_working_is_supported(embed: Embed) -> None:
    bill = {"rent": 950.0, "charges": {"water": 42.5, "heating": 61.3}, "deposit_held": 300.0}
    shown = ("You owe 753.80 EUR this month. That's 1,053.80 EUR due (rent 950.00 EUR, water "
             "42.50 EUR, heating 61.30 EUR) less the 300.00 EUR deposit.")
    assert found(embed, "what do i owe?", shown, tool=bill)["numbers"] == 0
    # Working from a total its own parts do not make up supports nothing.
    wrong = ("You owe 763.80 EUR this month. That's 1,063.80 EUR due (rent 950.00 EUR, water "
             "42.50 EUR, heating 61.30 EUR) less the 300.00 EUR deposit.")
    assert found(embed, "what do i owe?", wrong, tool=bill)["numbers"] >= 1


def test_a_rule_made_universal_where_the_context_limits_it_widens_its_scope(embed: Embed) -> None:
    pool = "Lap swimming is allowed in lanes 1 to 4 only; lanes 5 and 6 are reserved for classes."
    assert found(embed, "which lanes?", "Lap swimming is allowed in every lane of the pool.", pool)["scope"] == 1
    # The claim states a limit of its own, or uses the context's own universal word.
    assert found(embed, "which lanes?", "Lap swimming is allowed in lanes 1 to 4 only.", pool)["scope"] == 0
    hours = "The gym is open every day from 6:00 to 22:00, except on public holidays."
    assert found(embed, "open daily?", "Yes, the gym is open every day from 6:00 to 22:00.", hours)["scope"] == 0
    assert found(embed, "open daily?", "Yes, the gym is open always, from 6:00 to 22:00.", hours)["scope"] == 1


def test_a_cause_the_context_does_not_give_is_invented(embed: Embed) -> None:
    notice = "Order 4471 is delayed. New estimated delivery: 14 March. The carrier has not given a reason."
    made_up = found(embed, "why late?", "Order 4471 is delayed because the warehouse flooded last week.", notice)
    assert made_up["cause"] == 1
    strike = "Order 4471 is delayed because of a strike at the carrier's depot. New estimate: 14 March."
    assert found(embed, "why late?", "It's late because of a strike at the carrier's depot.", strike)["cause"] == 0
    # "Since" before a date says when, not why.
    assert found(embed, "since when?", "It has been delayed since 10 March.", notice)["cause"] == 0


_FERRY = "Ferry Lisbon-Cacilhas: adult single 1.40 EUR, child single 0.70 EUR, bike 1.00 EUR."
_SLOT = '{"order": "K-118", "delivery_window": "15:00-19:00", "status": "scheduled"}'


@pytest.mark.parametrize(("answer", "context", "tool", "unsupported"), [
    # A count the claim states times a context price is worked out in the claim itself.
    ("Four adult singles are 5.60 EUR.", _FERRY, "", 0),
    # The product must be right, and a count alone is no product (8 is not 8 x 1).
    ("Four adult singles are 6.60 EUR.", _FERRY, "", 2),
    ("The booking is for 8 people.", "Table for 2 people, 19:30.", "", 1),
    # Hours said plainly are the context's clock times.
    ("It's scheduled to arrive between 3 and 7 pm.", "", _SLOT, 0),
    ("It's scheduled to arrive between 3 and 8 pm.", "", _SLOT, 1),
])
def test_numbers_worked_out_or_said_plainly_in_the_claim(
    embed: Embed, answer: str, context: str, tool: str, unsupported: int
) -> None:
    assert found(embed, "when and how much?", answer, context, tool)["numbers"] == unsupported


def test_a_negation_the_claim_restates_in_another_clause_is_no_contradiction(embed: Embed) -> None:
    terms = "Breakfast is included in the room rate; garage parking is not included."
    both = found(embed, "what's included?", "Breakfast is included, but garage parking isn't.", terms)
    assert both["negation"] == 0
    assert found(embed, "what's included?", "Breakfast and garage parking are both included.",
                 terms)["negation"] == 1


# A tool's yes/no values: {"x_included": false} states "x not included", and an answer that
# says the opposite in words contradicts it.
_KAYAK = '{"rental": {"boat": "Tandem kayak", "life_jackets_included": false, "dry_bag_included": true, "guide_required": false}}'
_SPA = '{"booking": "SPA-4471", "sauna_access": true, "towels_provided": false, "pool_open": false}'
_LOFT = '{"listing": "Canal Loft", "petsAllowed": false, "smokingAllowed": false}'
_SHOP = '{"item": "Oak standing desk", "in_stock": false, "assembly_included": true}'
_CLINIC = "clinic: Harbour Dental\nwheelchair accessible: yes\nparking available: no\nweekend appointments=false"


@pytest.mark.parametrize(("answer", "tool", "contradicted"), [
    # Said the other way.
    ("Life jackets are included with the tandem kayak.", _KAYAK, 1),
    ("There is no dry bag with the tandem kayak rental.", _KAYAK, 1),
    ("A guide is required for the tandem kayak.", _KAYAK, 1),
    ("Towels are provided with booking SPA-4471.", _SPA, 1),
    ("For SPA-4471 the pool is open, so bring a swimsuit.", _SPA, 1),
    ("Harbour Dental has parking available for patients.", _CLINIC, 1),
    ("Harbour Dental is not wheelchair accessible, sorry.", _CLINIC, 1),
    ("Harbour Dental offers weekend appointments.", _CLINIC, 1),
    ("Dogs are welcome: pets are permitted in the Canal Loft.", _LOFT, 1),
    ("Good news: the Oak standing desk is in stock.", _SHOP, 1),
    # Restated, the "no" said as a negation, or keys the claim does not talk about.
    ("The tandem kayak comes without life jackets, so bring your own.", _KAYAK, 0),
    ("The tandem kayak comes with a dry bag included.", _KAYAK, 0),
    ("No guide is required for the tandem kayak.", _KAYAK, 0),
    ("Booking SPA-4471 includes sauna access; bring towels, none are provided.", _SPA, 0),
    ("For SPA-4471 the pool is closed.", _SPA, 0),
    ("Harbour Dental is wheelchair accessible but has no parking available.", _CLINIC, 0),
    ("Harbour Dental is on the harbour front.", _CLINIC, 0),
    ("The tandem kayak seats two paddlers.", _KAYAK, 0),
    ("Pets are prohibited in the Canal Loft, and so is smoking.", _LOFT, 0),
    ("The Oak standing desk is out of stock right now.", _SHOP, 0),
])
def test_a_yes_no_value_said_the_other_way_is_a_contradiction(
        embed: Embed, answer: str, tool: str, contradicted: int) -> None:
    assert found(embed, "tell me about it", answer, tool=tool)["negation"] == contradicted


def test_a_value_one_digit_slip_from_its_slot_is_a_miscopy(embed: Embed) -> None:
    lease = "Flat 4B lease. The notice period is 60 days. Rent 600 EUR a month, deposit 10% of a year's rent."
    # 6 is 60 / 10 and the claim has an arithmetic word, but the notice period is 60.
    slip = found(embed, "notice?", "The notice period is 6 days, so you could leave next week.", lease)
    assert slip["numbers"] == 1 and slip["rival"] == 1
    assert found(embed, "notice?", "The notice period is 60 days, so two months.", lease)["numbers"] == 0
    # A result that is no slip of the slot's value stays a worked result.
    assert found(embed, "two months?", "Two months of rent are 1,200 EUR in total.", lease)["numbers"] == 0


def test_a_number_the_claim_restates_in_another_unit_is_supported(embed: Embed) -> None:
    job = '{"job": "nightly-backup", "duration_s": 185, "status": "ok"}'
    assert found(embed, "how long?", "The backup took about 3 minutes (185 s).", tool=job)["numbers"] == 0
    assert found(embed, "how long?", "The backup took about 9 minutes (185 s).", tool=job)["numbers"] == 1


def test_a_number_in_a_name_is_no_word_of_it_the_context_holds(embed: Embed) -> None:
    van = '{"booking": "VR-2291", "vehicle": "Renault Master", "days": 2}'
    assert found(embed, "which van?", "You booked a Ford Transit 2 for the weekend.", tool=van)["names"] >= 1
    assert found(embed, "which van?", "You booked the Renault Master for 2 days.", tool=van)["names"] == 0


@pytest.mark.parametrize(
    ("answer", "invented"),
    [
        ("You'll practise knife skills, sauces, bread, pastry and sushi.", 1),
        ("You'll practise knife skills, sauces, bread and pastry.", 0),
        ("Your tutor, Marta, a pastry chef, runs it.", 0),  # an apposition is no list
    ],
)
def test_the_odd_item_of_a_listed_enumeration_is_invented(embed: Embed, answer: str,
                                                          invented: int) -> None:
    course = "Saturday cookery workshop, 95 EUR: knife skills, stocks and sauces, bread and pastry."
    assert found(embed, "what's covered?", answer, course)["offered"] == invented


def test_what_a_listing_says_of_one_name_said_of_another_is_bound_wrong(embed: Embed) -> None:
    tutors = ("Language tutors: Ana Ruiz (Spanish for beginners), Tom Becker (German grammar and exam "
              "preparation), Mei Lin (Mandarin conversation). Lessons are 45 minutes.")
    swapped = found(embed, "who helps with my German exam?",
                    "Book Mei Lin, she does German grammar and exam preparation.", tutors)
    assert swapped["bound"] == 1
    right = found(embed, "who helps with my German exam?",
                  "Book Tom Becker, he does German grammar and exam preparation.", tutors)
    assert right["bound"] == 0
    # In prose the words after a name go on with the sentence's subject.
    prose = "Mei Lin founded the school in 2009 with Tom Becker, who wrote its German grammar course."
    assert found(embed, "who founded it?", "Mei Lin founded the school in 2009.", prose)["bound"] == 0


def test_a_table_cell_of_nothing_says_no_and_its_header_states_nothing(embed: Embed) -> None:
    plans = ("| Plan | Monthly | Setup fee | Late fee |\n|---|---|---|---|\n"
             "| Basic | 12 EUR | 0 EUR | none |\n| Pro | 30 EUR | 49 EUR | 5 EUR |")
    assert found(embed, "late fee on basic?", "The Basic plan has no late fee.", plans)["negation"] == 0
    assert found(embed, "setup on basic?", "Basic has no setup fee at all.", plans)["negation"] == 0
    assert found(embed, "late fee on pro?", "The Pro plan has no late fee.", plans)["negation"] == 1


def test_one_records_value_given_to_another_record_is_bound_wrong(embed: Embed) -> None:
    certs = ('{"hosts": [{"host": "lb-edge-01", "cert_expiry": "2026-05-03", "issuer": "LetsEncrypt"}, '
             '{"host": "lb-edge-02", "cert_expiry": "2026-06-09", "issuer": "DigiCert"}]}')
    asked = "when do the certs expire?"
    assert found(embed, asked, "The certificate on lb-edge-02 expires on 3 May 2026.", tool=certs)["bound"] == 1
    assert found(embed, asked, "The certificate on lb-edge-02 expires on 9 June 2026.", tool=certs)["bound"] == 0
    # Both records named, or the values of several records listed: no single record.
    both = "lb-edge-01 expires on 3 May and lb-edge-02 on 9 June."
    assert found(embed, asked, both, tool=certs)["bound"] == 0


def test_a_limit_is_no_count_a_price_is_multiplied_by(embed: Embed) -> None:
    shelter = "Dog adoption 150 EUR; puppies under 6 months 180 EUR. Dogs over 10 years: 40 EUR."
    # 60 is not "10 × 6": "over 10" is an age limit, and 6 months no price.
    assert found(embed, "older dog?", "Dogs over 10 are rehomed for 60 EUR.", shelter)["numbers"] == 1
    assert found(embed, "two dogs?", "Two older dogs are 80 EUR in total.", shelter)["numbers"] == 0


def test_a_result_of_two_numbers_the_claim_states_is_its_own_working(embed: Embed) -> None:
    sheet = "Black pepper: KSh 780 per kg, minimum 50 kg bag."
    right = found(embed, "price?", "Pepper is KSh 780/kg, sold in 50 kg bags (KSh 39,000 a bag).", sheet)
    assert right["numbers"] == 0
    wrong = found(embed, "price?", "Pepper is KSh 780/kg, sold in 50 kg bags (KSh 42,000 a bag).", sheet)
    assert wrong["numbers"] == 1


def test_the_amount_a_rate_is_taken_of_is_no_misbound_value(embed: Embed) -> None:
    quote = '{"price_zar": 148900, "deposit_pct": 40, "install_date": "2026-05-19"}'
    assert found(embed, "wat is my deposit", "Your deposit is 40% of R148,900, so R59,560.",
                 tool=quote)["bound"] == 0


def test_a_word_ending_in_t_is_no_time_zone(embed: Embed) -> None:
    rules = "Orders placed before 1pm deliver next working day."
    # "next" is no zone code: 5pm is not 1pm four hours away.
    assert found(embed, "when?", "Orders placed before 5pm are delivered the next working day.",
                 rules)["numbers"] == 1
    assert found(embed, "when?", "Orders placed before 1pm are delivered the next working day.",
                 rules)["numbers"] == 0


def test_a_percentage_alone_licenses_no_ratio_of_context_numbers(embed: Embed) -> None:
    sheet = "Cloves: KSh 1,450 per kg, minimum 25 kg bag. Payment: M-Pesa till 552781 or bank transfer."
    assert found(embed, "how to pay", "Pay by M-Pesa, or by card with a 2% surcharge.", sheet)["numbers"] == 1


def test_hours_and_minutes_are_one_duration(embed: Embed) -> None:
    sailing = "Seajets WorldChampion Jet: depart 15:00, arrive 18:45."
    assert found(embed, "how long?", "The crossing takes 3 hours 45 minutes.", sailing)["numbers"] == 0
    # Each part alone is some gap between the day's times; together they are none.
    assert found(embed, "how long?", "The crossing takes about 2 hours 15 minutes.", sailing)["numbers"] == 1
    # A duration the context states in parts is its total too, in minutes or hours.
    exam = "Written exam: 2 h 15 min, calculators allowed."
    for total in ("2 hours 15 minutes (135 minutes)", "2.25 hours"):
        assert found(embed, "how long?", f"The exam lasts {total}.", exam)["numbers"] == 0
    assert found(embed, "how long?", "The exam lasts 2 hours 45 minutes.", exam)["numbers"] == 1


def test_a_claim_of_what_the_context_has_none_of_is_flipped(embed: Embed) -> None:
    event = '{"event": "Sakura Jazz Night", "price_jpy": 9800, "refund": "no refunds", "late_fee": 0}'
    assert found(embed, "refund?", "Yes, you can cancel for a full refund up to 24 hours before.",
                 tool=event)["negation"] == 1
    assert found(embed, "refund?", "Sorry, refunds are not possible for this concert.", tool=event)["negation"] == 0
    # A claim that states the zero itself agrees with it.
    assert found(embed, "late fee?", "The late fee is 0 JPY.", tool=event)["negation"] == 0


def test_nothing_in_one_of_several_records_is_no_rule_for_the_others(embed: Embed) -> None:
    sailings = ('{"sailings": [{"vessel": "Blue Star Delos", "cabin_fare_eur": 118}, '
                '{"vessel": "WorldChampion Jet", "cabin_fare_eur": null}]}')
    assert found(embed, "cabin?", "A cabin fare on the Blue Star Delos is 118 EUR.", tool=sailings)["negation"] == 0


def test_a_clock_time_names_no_record(embed: Embed) -> None:
    sailings = ('{"sailings": [{"vessel": "Blue Star Delos", "depart": "07:25", "deck_fare_eur": 41.5}, '
                '{"vessel": "WorldChampion Jet", "depart": "15:00", "deck_fare_eur": 89.9}]}')
    # The claim names Blue Star Delos (and a time of the other sailing) and gives it the
    # other sailing's fare.
    assert found(embed, "fares?", "The Blue Star Delos leaves at 15:00, deck fare 89.90 EUR.",
                 tool=sailings)["bound"] == 1
    assert found(embed, "fares?", "The Blue Star Delos leaves at 07:25, deck fare 41.50 EUR.",
                 tool=sailings)["bound"] == 0


def test_a_part_of_a_whole_is_worked_out(embed: Embed) -> None:
    hall = "Main hall: holds 240 people, 95 places booked."
    assert found(embed, "room left?", "Yes, 145 of the 240 places are still open.", hall)["numbers"] == 0
    assert found(embed, "room left?", "Yes, 145 places are still open.", hall)["numbers"] == 1


def test_a_zone_code_beside_a_clock_time_is_no_name(embed: Embed) -> None:
    call = "The call is at 14:00 UTC on Monday with Priya Nair."
    assert found(embed, "what time in chicago?", "It's 09:00 in Chicago (CDT) on Monday.", call).get("names", 0) == 0
    assert found(embed, "what time in chicago?", "It's 09:00 in Chicago (CDT) with Tom Reyes.", call)["names"] >= 1


def test_the_answers_own_reach_is_no_stated_cause(embed: Embed) -> None:
    bar = "Granola bar ingredients: oats, milk, honey."
    own = found(embed, "gluten?", "The ingredients given are oats, milk and honey. Gluten isn't among "
                "them, but I'd still read the wrapper since I only have the ingredient list.", bar)
    assert own.get("cause", 0) == 0
    invented = found(embed, "why so sweet?", "It is sweet because the oats are roasted in cane syrup.", bar)
    assert invented["cause"] == 1


def test_a_negation_of_another_clauses_subject_is_no_flip(embed: Embed) -> None:
    kit = "Helmet included; lock sold separately (15 EUR)."
    right = found(embed, "what comes with it?", "The helmet comes with it, but the lock is not included: it costs 15 EUR extra.", kit)
    assert right.get("negation", 0) == 0
    assert found(embed, "what comes with it?", "The helmet is not included with the bike.", kit)["negation"] == 1
    # Negating what another clause of the sentence negates too restates that clause.
    soap = "Has no fragrance, but is made in a workshop that uses fragrance oils."
    restated = found(embed, "is it unscented?", "The bar itself has no fragrance, but the workshop "
                     "uses fragrance oils, so I can't promise it is scent-free.", soap)
    assert restated.get("negation", 0) == 0
    assert found(embed, "is it unscented?", "The workshop doesn't use fragrance oils.", soap)["negation"] == 1


def test_a_value_in_another_currency_or_unit_of_its_dimension_is_unsupported(embed: Embed) -> None:
    tool = '{"court": "Indoor 2", "hire_sek": 180, "net_cm": 91, "slots": 6}'
    # The record key states the unit the bare value is in.
    assert found(embed, "price?", "Court hire is $180.", tool=tool)["numbers"] == 1
    assert found(embed, "how long is it?", "The net is 91 inches high.", tool=tool)["numbers"] == 1
    assert found(embed, "price?", "Court hire is SEK 180 and the net is 91 cm high.", tool=tool)["numbers"] == 0
    # Another dimension is another slot, and a value the evidence also states bare has no unit.
    assert found(embed, "how many slots?", "There are 6 slots of 91 minutes.", tool=tool)["numbers"] == 0
    ctx = "Squash court hire: 180 for members, 220 for guests."
    assert found(embed, "price?", "Members pay $180.", ctx)["numbers"] == 0
    # A key naming two currencies is a rate between them: its value is in neither alone.
    rate = '{"chf_per_nok": 0.084, "fee_nok": 40}'
    assert found(embed, "rate?", "1 NOK is 0.084 CHF, plus a NOK 40 fee.", tool=rate)["numbers"] == 0


def test_a_clock_time_in_words_is_read_as_a_time(embed: Embed) -> None:
    ctx = "Library hours: opens 08:45, closes 21:30."
    assert found(embed, "when does it close?", "It closes at half past nine in the evening.", ctx)["numbers"] == 0
    assert found(embed, "when does it open?", "It opens at a quarter to nine.", ctx)["numbers"] == 0
    assert found(embed, "when does it close?", "It closes at half past ten.", ctx)["numbers"] == 1
    # A number word alone is a count, not a time.
    assert worded_clock_times("We have ten study rooms.") == []


def test_within_a_limit_and_beyond_it_are_its_two_sides(embed: Embed) -> None:
    tool = '{"install_fee_eur": 12, "free_visit_radius_km": 10, "visit_fee_beyond_eur_per_km": 1.5}'
    # "free within 10 km" against "a fee beyond" it, and joined by "and" to the install fee.
    ok = found(embed, "do you charge for visits?",
               "Visits are free within 10 km and the install fee is 12 EUR.", tool=tool)
    assert ok.get("negation", 0) == 0
    # The same side of the limit still flips it.
    flipped = found(embed, "do you charge for visits?",
                    "Visits beyond 10 km are free and the install fee is 12 EUR.", tool=tool)
    assert flipped["negation"] == 1


def test_a_weekday_named_beside_a_date_must_be_its_weekday(embed: Embed) -> None:
    ctx = "Choir concert: 2027-06-12, doors 18:30."
    assert found(embed, "when?", "It's on Saturday 12 June 2027.", ctx)["numbers"] == 0
    assert found(embed, "when?", "It's on Friday, 12 June 2027.", ctx)["numbers"] == 1
    # The year from the evidence where the claim leaves it out.
    assert found(embed, "when?", "It's on Saturday the 12th of June.", ctx)["numbers"] == 0
    assert found(embed, "when?", "It's on Sunday 12 June.", ctx)["numbers"] == 1


def test_two_context_values_swapped_between_their_slots_are_unsupported(embed: Embed) -> None:
    tool = '{"summer_per_day_eur": 55, "winter_per_day_eur": 38, "deposit_eur": 100}'
    assert found(embed, "rates?", "A day costs €55 in summer and €38 in winter.", tool=tool)["numbers"] == 0
    assert found(embed, "rates?", "A day costs €38 in summer and €55 in winter.", tool=tool)["numbers"] >= 1
    # Working shown puts values in new roles: "€55 in summer, €17 more than winter's €38".
    worked = found(embed, "rates?", "Summer is €55 a day, so €17 more than winter at €38.", tool=tool)
    assert worked["numbers"] == 0


_OPERA = ("Der Silbersee is a 1933 opera composed by Kurt Weill, with a libretto by Georg Kaiser. "
          "It premiered on 18 February 1933 in Leipzig, conducted by Gustav Brecher.")
# "Its …" goes on about the dam; the "manager" is who "managed" it.
_DAM = ("The Orla Dam is a concrete arch dam on the Sava. Its site manager was Mira Kos, "
        "and it was completed in 1958 by the contractor Hidro Gradnja.")
_NOVEL = "The Lantern Road is a 1994 novel written by Ada Morrow and illustrated by Theo Quill."
_LIGHT = "The Morvik lighthouse was commissioned in 1868 and first lit on 2 March 1871."


@pytest.mark.parametrize(("question", "answer", "context", "bound"), [
    # A value the context ties to another role, while it ties the asked one to another value.
    ("Who composed Der Silbersee?", "It was composed by Georg Kaiser.", _OPERA, 1),
    ("Who managed the Orla Dam site?", "The site was managed by Hidro Gradnja.", _DAM, 1),
    ("Who illustrated The Lantern Road?", "Ada Morrow", _NOVEL, 1),
    ("When was the Morvik lighthouse first lit?", "It was first lit in 1868.", _LIGHT, 1),
    # "wrote" and "written" are one role.
    ("Who wrote The Lantern Road?", "Theo Quill wrote it.", _NOVEL, 1),
    ("Who wrote The Lantern Road?", "Ada Morrow wrote it.", _NOVEL, 0),
    # The right one, or the other one named in its own role too.
    ("Who composed Der Silbersee?", "It was composed by Kurt Weill.", _OPERA, 0),
    ("Who wrote the libretto of Der Silbersee?",
     "The libretto is by Georg Kaiser; Kurt Weill composed the music.", _OPERA, 0),
    ("Who managed the Orla Dam site?", "It was managed by Mira Kos.", _DAM, 0),
    ("Who illustrated The Lantern Road?", "Theo Quill", _NOVEL, 0),
    ("When was the Morvik lighthouse first lit?", "It was lit in March 1871.", _LIGHT, 0),
    # A wrong year the sentence gives no role is the number checks' business, not this one's.
    ("When did Der Silbersee premiere?", "It premiered in Leipzig in 1934.", _OPERA, 0),
    # A yes/no question asks no role; a bare name asked through another entity ("the novel
    # that …") may answer another role.
    ("Did Kurt Weill conduct Der Silbersee?", "No, it was conducted by Gustav Brecher.", _OPERA, 0),
    ("Who illustrated the novel that Ada Morrow wrote in 1994?", "Ada Morrow", _NOVEL, 0),
])
def test_a_value_the_context_ties_to_another_role_is_bound(
        embed: Embed, question: str, answer: str, context: str, bound: int) -> None:
    assert found(embed, question, answer, context).get("bound", 0) == bound


def test_a_comparison_reads_pronoun_sentences_and_records(embed: Embed) -> None:
    lakes = ["Lake Virn lies at 1,210 m in the Orsa range.",
             "Lake Tessel is the larger of the two basins. It lies at 1,480 m."]
    ctx = " ".join(lakes)
    # "It lies at 1,480 m" is Lake Tessel's: Virn is the lower.
    assert found(embed, "Which lake lies higher, Virn or Tessel?", "Lake Virn lies higher.", ctx)["bound"] == 1
    assert found(embed, "Which lake lies higher, Virn or Tessel?", "Lake Tessel.", ctx).get("bound", 0) == 0
    tool = '[{"plan": "Basic", "monthly_usd": 9, "seats": 1}, {"plan": "Team", "monthly_usd": 29, "seats": 5}]'
    assert found(embed, "which plan is cheaper per month, Basic or Team?",
                 "Team is cheaper.", tool=tool)["bound"] == 1
    assert found(embed, "which plan is cheaper per month, Basic or Team?",
                 "Basic is cheaper, at $9 a month.", tool=tool).get("bound", 0) == 0


def test_a_gap_after_a_comparison_is_worked_out(embed: Embed) -> None:
    ctx = "The Kora Pass road climbs to 2,310 m. The Delt Pass road tops out at 1,960 m."
    gap = found(embed, "Which pass is higher, Kora or Delt?", "Kora, by about 350 m.", ctx)
    assert gap["numbers"] == 0 and gap.get("bound", 0) == 0
    # Not a gap of two context values, and not after a comparison: unsupported.
    assert found(embed, "Which pass is higher, Kora or Delt?", "Kora, by about 500 m.", ctx)["numbers"] == 1
    assert found(embed, "how do I get there?", "Take the bus by 350 m of the square.", ctx)["numbers"] == 1


def test_a_release_bound_to_another_release_notes_line(embed: Embed) -> None:
    notes = ("v2.7 (January): offline maps; route sharing. v2.8 (March): voice guidance; "
             "speed camera alerts. v2.9 (May): bike lanes.")
    assert found(embed, "which version added voice guidance?", "Voice guidance arrived in v2.9.", notes)["bound"] == 1
    assert found(embed, "which version added voice guidance?", "Voice guidance arrived in v2.8.", notes).get("bound", 0) == 0


def test_a_record_the_claim_does_not_name_does_not_contradict_it(embed: Embed) -> None:
    tool = ('{"plans": [{"name": "Roam", "monthly_gbp": 22, "contract_months": 0, "data_gb": 40}, '
            '{"name": "Home", "monthly_gbp": 15, "contract_months": 12, "data_gb": 25}]}')
    # "no contract" is Roam's own; Home's 12-month contract is another record's.
    assert found(embed, "roam?", "The Roam plan is £22 a month with no contract.",
                 tool=tool).get("negation", 0) == 0
    assert found(embed, "home?", "The Home plan is £15 a month with no contract.", tool=tool)["negation"] == 1


def test_a_comparison_reads_a_definite_description_as_the_sentence_before_s_subject(
        embed: Embed) -> None:
    case = RunCase(id="check", input="Which journal was founded first, Harrow Review or Tallis Quarterly?",
                   output="Harrow Review was founded first.",
                   context=("Harrow Review is a literary journal based in Leeds. The journal was founded in 1921.",
                            "Tallis Quarterly is a poetry magazine. It was founded in 1904 in Bath."))
    assert hallucination_evidence(case, embed).features["bound"] == 1
    right = RunCase(id="check", input=case.input, output="Tallis Quarterly, in 1904.", context=case.context)
    assert hallucination_evidence(right, embed).features.get("bound", 0) == 0
    # A pronoun opening another document has no sentence before it: nothing to compare.
    apart = RunCase(id="check", input=case.input, output="Harrow Review was founded first.",
                    context=("Harrow Review is a literary journal based in Leeds.",
                             "It was founded in 1921.",
                             "Tallis Quarterly is a poetry magazine. It was founded in 1904 in Bath."))
    assert hallucination_evidence(apart, embed).features.get("bound", 0) == 0


_LAMP = '{"order": "K-118", "currency": "EUR", "lines": [{"item": "lamp", "price_cents": 4599}]}'
_STORES = '{"columns": ["store", "tickets"], "rows": [["Lyon", 212], ["Nantes", 97], ["Lille", 140]]}'
_ROUTE = '{"route": "R7", "length_km": 32.5, "climb_m": 410}'
_MATCH = '{"matches": [{"opponent": "Vale", "score": "1-4", "result": "L"}]}'


@pytest.mark.parametrize(("answer", "tool", "numbers"), [
    # An amount in cents is the amount in its record's currency.
    ("The lamp is €45.99.", _LAMP, 0),
    ("The lamp is €4.59.", _LAMP, 1),
    # Query rows are records; a column's total is a value stated.
    ("Nantes had 97 tickets, and 449 across the three stores.", _STORES, 0),
    ("Nantes had 97 tickets, and 459 across the three stores.", _STORES, 1),
    # A measure whose key names its unit converts; one number, bare and with its unit, is
    # no pair to add up (32.5 + 32.5 km).
    ("The R7 route is about 20.2 miles.", _ROUTE, 0),
    ("The R7 route is about 25 miles.", _ROUTE, 1),
    ("The route is 32.5 km, 65 km in total.", _ROUTE, 1),
    # A score states both its numbers: said from the other side, it is the same score.
    ("We lost 4-1 to Vale.", _MATCH, 0),
    ("We lost 5-1 to Vale.", _MATCH, 1),
])
def test_a_tool_value_said_in_other_units_or_forms_is_supported(
        embed: Embed, answer: str, tool: str, numbers: int) -> None:
    assert found(embed, "?", answer, tool=tool)["numbers"] == numbers


def test_words_between_two_numbers_are_no_swap_unless_the_pair_crosses(embed: Embed) -> None:
    tool = '{"item": "Mug", "on_hand": 26, "reorder_at": 40}'
    assert found(embed, "mugs?", "Mugs are at 26 against a reorder level of 40.", tool=tool)["numbers"] == 0
    assert found(embed, "mugs?", "Mugs are at 40 on hand against a reorder level of 26.",
                 tool=tool)["numbers"] >= 1


def test_a_sum_of_the_named_records_values_is_no_miscopy(embed: Embed) -> None:
    tool = ('{"lots": [{"name": "North Lot", "cars": 21, "vans": 3}, '
            '{"name": "East Lot", "cars": 14, "vans": 0}]}')
    assert found(embed, "north?", "North Lot has 24 vehicles in total.", tool=tool)["numbers"] == 0
    # Without working shown, 24 is one digit from East Lot's 14 and 21's slot: unsupported.
    assert found(embed, "north?", "North Lot has 24 cars.", tool=tool)["numbers"] == 1


def test_a_rule_given_on_a_condition_is_not_contradicted_outside_it() -> None:
    rule = "Deposits are returned only when the keys are handed back at the desk."
    assert contradicts("the keys were lost, so the deposit is not returned", rule) == ""
    # Without "only", the same denial contradicts the rule.
    assert contradicts("the keys were lost, so the deposit is not returned",
                       "Deposits are returned once the keys are handed back at the desk.") == "return"


def test_a_clause_naming_a_record_reads_only_its_booleans(embed: Embed) -> None:
    tool = ('{"games": [{"opponent": "Carlow Town", "home": true}, '
            '{"opponent": "Bray Wanderers", "home": false}]}')
    ok = found(embed, "games?", "They played at home to Carlow, then away at Bray.", tool=tool)
    assert ok.get("negation", 0) == 0
    wrong = found(embed, "games?", "They played Bray Wanderers at home.", tool=tool)
    assert wrong["negation"] == 1


def test_a_null_is_no_none_and_a_zero_is_of_its_whole_key(embed: Embed) -> None:
    tool = '{"order": "Q-9", "cancelled_at": null, "refund": {"fee": 0}}'
    assert found(embed, "order?", "Order Q-9 was cancelled.", tool=tool).get("negation", 0) == 0
    seats = '{"flight": "LK12", "available_seats": {"economy": 4, "business": 0}}'
    assert found(embed, "refund?", "Your refund takes 5 business days.", tool=seats).get("negation", 0) == 0
    assert found(embed, "seats?", "There are business seats available on LK12.", tool=seats)["negation"] == 1


def test_a_claim_in_another_language_and_an_addressed_name_are_not_read(embed: Embed) -> None:
    ctx = "Order 5512: two chairs, delivered on 3 June."
    assert found(embed, "order?", "¡Perfecto! Tu pedido llegó el 3 de junio.", ctx).get("names", 0) == 0
    assert found(embed, "order?", "Your chairs arrived on 3 June, Marta.", ctx).get("names", 0) == 0
    assert found(embed, "order?", "Your chairs arrived on 3 June from Marta.", ctx)["names"] == 1


def test_a_day_named_by_a_word_must_fall_on_an_evidence_date(embed: Embed) -> None:
    ctx = "Today is Monday 9 March 2026."
    tool = '{"slots": [{"start": "2026-03-10T09:30:00Z"}, {"start": "2026-03-12T15:00:00Z"}]}'
    case = RunCase(id="check", input="slots?", output="There is one tomorrow and one on Thursday.",
                   context=(ctx,), tools_called=(ToolCall(name="slots", args={}, output=tool, success=True),))
    assert hallucination_evidence(case, embed).features["numbers"] == 0
    wrong = RunCase(id="check", input="slots?", output="There is one tomorrow and one on Friday.",
                    context=case.context, tools_called=case.tools_called)
    assert hallucination_evidence(wrong, embed).features["numbers"] == 1
    # A weekday the context names itself is its own fact ("closed on Sundays").
    hours = RunCase(id="check", input="open?", output="We're closed on Friday.",
                    context=(ctx + " The shop is closed on Fridays.",), tools_called=case.tools_called)
    assert hallucination_evidence(hours, embed).features.get("numbers", 0) == 0


def test_a_question_and_a_headings_words_assert_no_name(embed: Embed) -> None:
    ctx = "Refund R-77 of 120 EUR approved; it reaches the card in 5 days."
    assert found(embed, "refund?", "Refund Time: 5 days.", ctx).get("names", 0) == 0
    assert found(embed, "refund?", "The refund goes via Klarna in 5 days.", ctx)["names"] == 1
    # A question asks; only the statement beside it is read.
    assert found(embed, "refund?", "It arrives in 5 days. Anything else for your trip to Porto?",
                 ctx).get("names", 0) == 0
    assert found(embed, "refund?", "It arrives in 5 days for your trip to Porto.", ctx)["names"] == 1


# --- real chats (hall22): how agents write their closing answers ----------------------

def case_evidence(embed: Embed, answer: str, calls: list[ToolCall], question: str = "help?") -> dict[str, float]:
    case = RunCase(id="chat", input=question, output=answer, tools_called=tuple(calls))
    return hallucination_evidence(case, embed).features


def test_an_answer_in_a_json_envelope_is_read_as_its_text(embed: Embed) -> None:
    tool = ToolCall("change_plan", {"line": "L-77"}, '{"plan": "Max 50", "monthly_eur": 25, "starts": "2026-08-01"}')
    said = '{"message": "Done.\\n\\nWhat changed\\n- Plan: Max 50\\n- Price: 25 EUR a month\\n- Starts: 1 August 2026"}'
    ok = case_evidence(embed, said, [tool])
    assert ok["numbers"] == 0 and ok["names"] == 0
    wrong = case_evidence(embed, said.replace("25 EUR", "29 EUR"), [tool])
    assert wrong["numbers"] == 1


def test_a_total_from_the_last_call_is_worked_out_however_long_the_run(embed: Embed) -> None:
    searches = [ToolCall("search_rooms", {"day": d}, json.dumps(
        [{"room": f"R{d}{k}", "rate": 90 + 7 * k + d, "left": k} for k in range(8)])) for d in range(5)]
    booked = ToolCall("book", {"guest_id": "G-1"},
                      '{"nights": [{"rate": 131.4}, {"rate": 127.25}], "status": "booked"}')
    assert case_evidence(embed, "Your total for the two nights is $258.65.", [*searches, booked])["numbers"] == 0
    assert case_evidence(embed, "Your total for the two nights is $261.65.", [*searches, booked])["numbers"] == 1


def test_typographic_hyphens_and_spaces_keep_a_date_whole() -> None:
    assert dates("born 1991\u201107\u201130")[0][1] == dates("born 1991-07-30")[0][1]
    assert split_claims("Basic\u202fEconomy for 3\u00a0people.") == ["Basic Economy for 3 people."]


def test_a_line_that_introduces_a_list_names_nothing(embed: Embed) -> None:
    tool = ToolCall("book_class", {"member": "M-2"}, '{"class": "Pilates", "date": "2026-03-10", "start": "07:15"}')
    said = "Booked!\n\n**Tuesday Morning - Early Start Before Work:**\n- Pilates, 07:15, 10 March 2026"
    assert case_evidence(embed, said, [tool])["names"] == 0
    # A code in the heading is still a name the context must give.
    assert case_evidence(embed, said.replace("Tuesday", "Studio B7 Tuesday"), [tool])["names"] == 1


def test_a_cause_ends_where_the_main_clause_starts_and_the_speakers_reach_is_no_cause(embed: Embed) -> None:
    tool = ToolCall("get_train", {"train_id": "T-9"}, '{"train": "T-9", "status": "cancelled"}')
    assert case_evidence(embed, "Because your train T-9 was cancelled, we will refund the ticket in full.",
                         [tool])["cause"] == 0
    assert case_evidence(embed, "Since that needs records my tools cannot open, I will pass you to a colleague.",
                         [tool])["cause"] == 0
    assert case_evidence(embed, "Train T-9 was cancelled because of a signalling fault near Crewe.",
                         [tool])["cause"] == 1


def test_the_speakers_feelings_assert_nothing(embed: Embed) -> None:
    tool = ToolCall("get_order", {"order_id": "O-5"}, '{"order": "O-5", "status": "shipped"}')
    feelings = "I sincerely apologize for the wait. I hope the rest of your week goes smoothly."
    assert case_evidence(embed, feelings, [tool]) == {"hedged_share": 0.0}
    # "Sorry, X" states X.
    assert "rule" in case_evidence(embed, "Sorry, order O-5 was cancelled.", [tool])


def test_not_having_a_thing_denies_the_whole_phrase() -> None:
    assert negation_scope("it does not have travel insurance") == negation_scope("it has no travel insurance")


def test_a_number_abbreviation_after_its_noun_negates_nothing() -> None:
    assert negation_scope("policy no: HX-441; ref no. 8812") == (frozenset(), frozenset())


def test_a_yes_no_value_a_later_call_changed_is_no_longer_the_state(embed: Embed) -> None:
    before = ToolCall("get_booking", {"booking_id": "B-7"}, '{"booking_id": "B-7", "insured": false, "seats": 2}')
    change = ToolCall("add_insurance", {"booking_id": "B-7"}, '{"ok": true}')
    said = "Booking B-7 is insured now."
    assert case_evidence(embed, said, [before])["negation"] == 1
    assert case_evidence(embed, said, [before, change])["negation"] == 0
    # Another booking's change leaves B-7's state standing.
    other = ToolCall("add_insurance", {"booking_id": "B-9"}, '{"ok": true}')
    assert case_evidence(embed, said, [before, other])["negation"] == 1


def test_an_answer_in_another_language_is_not_read_line_by_line(embed: Embed) -> None:
    tool = ToolCall("buscar_pedido", {"pedido_id": "P-3"}, '{"pedido": "P-3", "estado": "enviado"}')
    said = ("Perfecto, Lucía. Tu pedido P-3 ya fue enviado y llegará pronto.\n\n"
            "**[Derivando a Atención Postventa]**\n\n¡Que tengas un excelente día!")
    case = RunCase(id="es", input="Hola, ¿dónde está mi pedido?", output=said, tools_called=(tool,))
    assert "rule" not in hallucination_evidence(case, embed).features


def test_a_status_in_a_rules_condition_is_no_state(embed: Embed) -> None:
    tool = ToolCall("get_flight", {"flight_id": "F-1"}, '{"flight": "F-1", "status": "delayed"}')
    assert case_evidence(embed, "Vouchers are only given when the flight is cancelled, sorry.", [tool])["negation"] == 0
    assert case_evidence(embed, "Your flight F-1 is cancelled.", [tool])["negation"] == 1


def test_what_the_speaker_may_offer_is_no_offered_item(embed: Embed) -> None:
    tool = ToolCall("get_room", {"room_id": "R-4"}, '{"room": "R-4", "view": "garden", "breakfast": true}')
    assert case_evidence(embed, "I can only offer a late checkout when the hotel is quiet.", [tool])["offered"] == 0
    assert case_evidence(embed, "Room R-4 comes with a rooftop jacuzzi.", [tool])["offered"] == 1
    assert case_evidence(embed, "Room R-4 has non-free parking only.", [tool])["offered"] == 0


def test_a_cause_that_is_the_customers_wish_or_a_records_values_is_no_invented_reason(embed: Embed) -> None:
    tool = ToolCall("get_booking", {"booking_id": "KX31"},
                    '{"booking_id": "KX31", "fare": "saver", "insurance": "no", "created": "2026-01-04"}')
    for said in ("Since you'd rather keep the booking, I won't change it.",
                 "Since booking KX31 is a saver fare with no insurance, the fee applies."):
        assert case_evidence(embed, said, [tool])["cause"] == 0, said
    assert case_evidence(embed, "The fee applies because of a pilots' strike in Lisbon.", [tool])["cause"] == 1


def test_shouted_words_emoji_marks_and_a_tables_header_name_nothing(embed: Embed) -> None:
    tool = ToolCall("refund", {"order_id": "Q-8"}, '{"order": "Q-8", "refund_usd": 42.5}')
    said = ("YOU WILL GET AN EMAIL SHORTLY.\n\n| Order | Reason | Refund |\n|---|---|---|\n"
            "| Q-8 | damaged | $42.50 |\n\n✅ Refund issued for order Q-8")
    assert case_evidence(embed, said, [tool])["names"] == 0


def test_a_ranges_ends_are_not_bound_as_the_claims_value(embed: Embed) -> None:
    ctx = "Seats left: 5 on HAT100.\nRefund: 2580 USD to the gift card, expected in 3 business days."
    got = found(embed, "refund?", "Refund: $2,580 back to your gift card - expect it within 5-7 business days.", ctx)
    # Not "5 is the value of another record" (the seats): a range's end is no value alone.
    assert got["bound"] == 0


def expect(embed: Embed, feature: str, context: str, *cases: tuple[str, str, int]) -> None:
    """Each (question, answer, value): the feature's finding on the context is the value."""
    for question, answer, value in cases:
        assert found(embed, question, answer, context).get(feature, 0) == value, (question, answer)


# Knowledge pasted from two articles, the shape of public hallucination QA sets.
_ARTICLES = ("Harlow Quarterly (1851-1859) was a British literary magazine edited in Bristol by "
             "Edwin Marsh.Tidewater Review is a poetry journal founded in 1990 and published in "
             "Norfolk by Carla Dunn.")


def test_pasted_articles_are_read_apart(embed: Embed) -> None:
    question = "Which was started first, Harlow Quarterly or Tidewater Review?"
    assert found(embed, question, "Tidewater Review was started first.", _ARTICLES)["bound"] == 1
    assert found(embed, question, "Harlow Quarterly", _ARTICLES)["bound"] == 0


def test_a_year_is_exact_not_rounded() -> None:
    assert [q.place for q in quantities("founded in 1990")] == [1.0]
    assert [q.place for q in quantities("a crowd of 1990")] == [10.0]


def test_a_value_from_another_article_answers_about_the_wrong_thing(embed: Embed) -> None:
    asked = "Who edited Harlow Quarterly?"
    assert found(embed, asked, "Carla Dunn", _ARTICLES)["bound"] == 1
    assert found(embed, asked, "Edwin Marsh", _ARTICLES)["bound"] == 0
    # Through another entity: the second article is about the first one's editor.
    bridged = ("Harlow Quarterly was a British literary magazine edited by Edwin Marsh. "
               "Edwin Marsh was an English critic who lived in Clifton, a suburb of Bristol.")
    assert found(embed, "Where did the editor of Harlow Quarterly live?", "Clifton",
                 bridged)["bound"] == 0


def test_yes_must_find_the_questions_names_in_the_context(embed: Embed) -> None:
    asked = "Is Ostra Mill a Swedish company?"
    expect(embed, "names", "Ostra Mill is a Danish paper maker based in Aarhus, founded in 1874.",
           (asked, "Yes, it is a Swedish paper maker.", 1), (asked, "Yes", 1),
           (asked, "No, it is Danish.", 0), ("Is Ostra Mill a Danish company?", "Yes", 0))


def test_a_bare_answer_is_read_off_the_documents(embed: Embed) -> None:
    ctx = "Brindle is a hard cheese made from sheep's milk in the Vosges and aged in caves."
    asked = "What milk is Brindle made from?"
    assert found(embed, asked, "goat's milk", ctx)["names"] == 1
    assert found(embed, asked, "sheep's milk", ctx)["names"] == 0
    # A tool's output is no document of that kind: a run's answer restates it freely.
    assert found(embed, asked, "goat's milk", tool="cheese: Brindle, milk: sheep")["names"] == 0


def test_both_and_same_are_decided_by_the_two_articles(embed: Embed) -> None:
    ctx = ("Anna Vell (born 1961) is a Dutch cellist who teaches in Utrecht. "
           "Piet Rook (1920-1990) was a Dutch composer and organist.")
    # (what the question asks of the two, the answer, whether the articles deny it); a class
    # may be said in other words: "yes" to "both musicians" stands.
    for asked, answer, denied in (("of the same nationality", "No", 1), ("of the same nationality", "Yes", 0),
                                  ("both Belgian", "Yes", 1), ("both musicians", "Yes", 0),
                                  ("both Dutch", "No", 1), ("both Dutch", "Yes", 0)):
        question = f"Were Anna Vell and Piet Rook {asked}?"
        assert found(embed, question, answer, ctx)["negation"] == denied, (asked, answer)


def test_a_role_said_after_its_value_or_shared_by_a_list(embed: Embed) -> None:
    band = ("The Marrow Kings are a Welsh folk band formed in Cardiff in 1998. Dai Price is the "
            "band's lead singer, and Owen Lutz is its fiddler.")
    asked = "Who is the lead singer of the Marrow Kings?"
    assert found(embed, asked, "Owen Lutz", band)["bound"] == 1
    assert found(embed, asked, "Dai Price", band)["bound"] == 0
    film = ("Salt Harbour is a 1951 drama film directed by Ines Varga. The screenplay was "
            "written by Tom Reyes and Mila Hart.")
    assert found(embed, "Who directed Salt Harbour?", "Mila Hart directed it.", film)["bound"] == 1
    assert found(embed, "Who directed Salt Harbour?", "Ines Varga directed it.", film)["bound"] == 0


def test_a_span_of_years_gives_a_start_and_an_end(embed: Embed) -> None:
    assert [q.value for q in quantities("Orrin Gazette (1872-1881) was a weekly")] == [1872, 1881]
    assert [q.value for q in quantities("ticket 2024-1234")] == [2024]  # an id, not a span
    expect(embed, "bound", "Orrin Gazette (1872-1881) was a weekly paper printed in Hull.",
           ("When was the Orrin Gazette founded?", "1881", 1),
           ("When was the Orrin Gazette founded?", "1872", 0),
           ("When did the Orrin Gazette close?", "In 1881.", 0))


def test_a_name_the_documents_give_with_other_words_is_another_name(embed: Embed) -> None:
    asked = "In which service was Ruth Alder a captain?"
    expect(embed, "names", "Ruth Alder (1901-1980) was a Canadian chemist and a captain in the Royal Canadian Navy.",
           (asked, "She was a captain in the Royal Canadian Army.", 1),
           (asked, "She was a captain in the Royal Canadian Navy.", 0))
    # "where was the director of X born" asks the birthplace, not the director.
    film = ("Gull Point is a 1990 comedy written by Ian Moss and directed by Vera Lind. It was "
            "shot in Oban. Vera Lind is a Scottish director who was born in Perth in 1950.")
    assert found(embed, "Where was the director of Gull Point born?", "Perth", film)["bound"] == 0


def test_questions_hotpot_asks_them(embed: Embed) -> None:
    # A date's year, month and day decide "born later"; "in which year" asks a year; a
    # word the question capitalises and the context writes small is the topic asked.
    ctx = ("Lena Holm (born 4 May 1988) is a Norwegian biathlete. Karin Dahl (born 19 August "
           "1987) is a Swedish biathlete.")
    assert found(embed, "Which of the two was born later, Lena Holm or Karin Dahl?",
                 "Karin Dahl was born later.", ctx)["bound"] == 1
    prizes = ("Otto Brandt was a German chemist. He won the Halden Medal twice, for chemistry "
              "in 1931 and for physics in 1938.")
    asked = "In which year did Otto Brandt win the Halden Medal for Physics?"
    assert found(embed, asked, "1931", prizes)["bound"] == 1
    assert found(embed, asked, "1938", prizes)["bound"] == 0


def test_an_article_about_the_same_person_by_another_first_name_is_a_bridge(embed: Embed) -> None:
    ctx = ('"Cold Orchard" is a 2011 drama film directed by Bob Marsh.Robert Marsh (born 1950) is '
           "an English director who was born in Leeds.")
    assert found(embed, "Where was the director of Cold Orchard born?", "Leeds", ctx)["bound"] == 0


# Round hall24: right short answers to multi-hop questions on two pasted articles.
def test_a_name_in_another_form_is_the_context_s(embed: Embed) -> None:
    # Accents folded, an acronym in capitals that spells a name's words, a people's place.
    expect(embed, "bare_name", "The Museo Sofía Ribas is an art museum in Tolmeda.",
           ("In which museum is the Tolmeda collection housed?", "the Sofia Ribas", 0),
           ("In which museum is the Tolmeda collection housed?", "the Prado", 1))
    expect(embed, "bare_name", "The Varn probe was launched in 2004 by the Northern Arctic Research Agency.",
           ("Which agency launched the Varn probe?", "NARA", 0),
           ("Which agency launched the Varn probe?", "ESA", 1))
    expect(embed, "bare_name", "Kalle Rask (born 1970) is a Danish drummer from Vejle.",
           ("In which country was Kalle Rask born?", "Denmark", 0),
           ("In which country was Kalle Rask born?", "Norway", 1))


def test_a_comparison_is_only_between_the_names_the_question_offers(embed: Embed) -> None:
    # "Died first" reads a life's end; "first published in" compares nothing; a
    # candidate's number is the one after the question's measure word ("opened").
    expect(embed, "bound", "Tova Lind (12 March 1850 – 3 May 1931) was a Swedish painter. Ada Roos "
           "(4 June 1856 – 9 July 1920) was a Dutch painter.",
           ("Which of Tova Lind and Ada Roos died first?", "Ada Roos", 0),
           ("Which of Tova Lind and Ada Roos died first?", "Tova Lind", 1))
    expect(embed, "bound", "The Grey Lantern is a novel by Ivo Senn, first published in Lyon in 1931. "
           "Ivo Senn (born 1890) was a Swiss writer.",
           ("In which city was The Grey Lantern first published?", "Lyon", 0))
    expect(embed, "bound", "The Orla Hall at 120 Mill Street in Dunmore is a concert venue. It "
           "opened on 3 May 2004. The Brenn Gallery is a museum in Kelso that opened in 1998.",
           ("Which opened first, the Orla Hall or the Brenn Gallery?", "Brenn Gallery", 0),
           ("Which opened first, the Orla Hall or the Brenn Gallery?", "Orla Hall", 1))
    # A period ("the Forty Years' War") is no point in time.
    expect(embed, "bound", "The Siege of Varn, a battle of the Forty Years' War, was fought in 1210. "
           "The Battle of Oster took place in 1190.",
           ("Which came first, the Siege of Varn or the Battle of Oster?", "Battle of Oster", 0),
           ("Which came first, the Siege of Varn or the Battle of Oster?", "Siege of Varn", 1))


def test_a_bare_answer_reached_through_another_entity_is_not_bound(embed: Embed) -> None:
    # The birth name is said of Oda Brenn, whom the asked sentence names.
    expect(embed, "bound", "The Kell Bout was the final wrestling match between Oda Brenn and Ulf "
           "Sarr. It was held on 2 May 1950 in Varna. Oda Brenn (born Oda Maritt Lund; 12 March "
           "1921 – 3 June 1990) was a Danish wrestler.",
           ("What was the birth name of Ulf Sarr's opponent in the Kell Bout?", "Oda Maritt Lund", 0))
    # Two passages that name one person are one question's hops.
    expect(embed, "bound", "Henrik Vale (3 June 1901 – 2 May 1962), better known by his pen name "
           "Tomas Grey, was an English novelist and critic. The Salt Road is a satirical novel by "
           "Tomas Grey, first published in England on 3 May 1950.",
           ("What was the real name of the author of The Salt Road?", "Henrik Vale", 0))
    # A value the context ties to the question's closing verb, or gives the asked role after it.
    expect(embed, "bound", "The Ystad Treaty Organization is an intergovernmental military alliance "
           "of Nordic countries, headquartered in Malmo, Sweden.",
           ("In which city is the alliance created by the Treaty of Ystad headquartered?", "Malmo", 0))
    expect(embed, "bound", "Velmora is the federal capital of Ostria. It was inaugurated in 1961, "
           "replacing Port Anselm as the capital.",
           ("Which city was the capital before Velmora?", "Port Anselm", 0))
    # Still bound: a year the context gives for another act of the asked subject.
    expect(embed, "bound", "The Kessel-Aarvik railway was authorised by parliament in 1871 and opened "
           "on 14 June 1876.", ("When did the Kessel-Aarvik railway open?", "It opened in 1871.", 1))


def test_both_reads_a_people_s_place_and_the_paragraph_on_a_name_given(embed: Embed) -> None:
    expect(embed, "negation", "Lake Oru is an African lake in the Rift Valley.Lake Temba is one of "
           "the African Great Lakes.",
           ("Are Lake Oru and Lake Temba both in Africa?", "yes", 0),
           ("Are Lake Oru and Lake Temba both in Asia?", "yes", 1))
    expect(embed, "negation", "The Iron Gate is a novel by Welsh author Rhys Cole. Cole was a lecturer "
           "at the University of Bangor. The Long Fen is a novel by Anna Pike, who taught at the "
           "University of Bangor.",
           ("Did the authors of The Iron Gate and The Long Fen both teach at Bangor?", "yes", 0))


def test_a_word_of_the_question_two_names_share_is_no_bridge(embed: Embed) -> None:
    # "which museum" asks between the two museums; their shared word links nothing.
    expect(embed, "bound", "Alder Hill Museum opened in 1921 in the old mill. Fenby Cross Museum, "
           "built by the county, opened in 1960 and holds the larger collection.",
           ("Which museum holds the larger collection?", "Alder Hill Museum", 1),
           ("Which museum holds the larger collection?", "Fenby Cross Museum", 0))
    # A question about which one compares every name the context gives.
    expect(embed, "bound", "The Tarn Bridge is 410 metres long. The Holm Bridge is 520 metres long.",
           ("Which bridge is longer?", "Tarn Bridge", 1),
           ("Which bridge is longer?", "Holm Bridge", 0))


def test_an_age_is_the_years_between_two_of_the_context_s(embed: Embed) -> None:
    ctx = ("Mira Vance (born 4 May 1902) was a Latvian chemist. Her theory of salts was "
           "published in 1938.")
    expect(embed, "numbers", ctx, ("How old was Mira Vance when her theory of salts was published?", "36", 0),
           ("How old was Mira Vance when her theory of salts was published?", "41", 1))
    # Only a question of age or years reads a difference of years.
    expect(embed, "numbers", ctx, ("What is Mira Vance's lab number?", "36", 1))


def test_a_line_of_code_in_a_tool_output_denies_nothing(embed: Embed) -> None:
    # The program's "not", "False", "None" are no statement; a record's "False" still is.
    listing = ("  306\t    if check and not _check_homomorphism(domain, images):\n"
               "  307\t        raise ValueError('bad images')\n"
               "is_FiniteSet = False\nbulk_update returned: None")
    for answer in ("The check runs _check_homomorphism before it builds the map.",
                   "Set._complement now handles FiniteSet arguments.",
                   "bulk_update() now returns the number of rows matched."):
        assert found(embed, "Fix the homomorphism check", answer, tool=listing)["negation"] == 0, answer
    assert found(embed, "Is the account on a payment plan?", "Yes, it is on a payment plan.",
                 tool='{"account": "W-1", "payment_plan": false}')["negation"] == 1


def test_a_size_written_without_spaces_is_its_dimensions() -> None:
    assert [q.value for q in quantities("Cabin bag: max. 55x40x20 cm.")] == [55, 40, 20]
    assert [q.value for q in quantities("Cabin bag: max 55 × 40 × 20 cm.")] == [55, 40, 20]
    # A hex number is no size, and a factor before a word is no number here.
    assert quantities("register 0x1f3a") == [] and quantities("2x faster") == []


def test_a_total_of_debits_listed_as_negative_amounts_is_supported(embed: Embed) -> None:
    rows = json.dumps([{"merchant": "Bakery", "amount": -4.2}, {"merchant": "Garage", "amount": -31.0},
                       {"merchant": "Books", "amount": -12.3}])
    said = found(embed, "what did I spend today?", "You spent €47.50 across three payments.", tool=rows)
    assert said["numbers"] == 0
    wrong = found(embed, "what did I spend today?", "You spent €52.10 across three payments.", tool=rows)
    assert wrong["numbers"] == 1


_MAKER = ("The Vanta Deck is a handheld game console made by Orrin Digital, first sold in Korea in 2011. "
          "Orrin Group is a holding company based in Daejeon. It was founded in 1972 by Min Seo-yeon.")


def test_an_answer_said_with_none_of_the_question_s_words_loses_to_a_value_it_leads_to(
        embed: Embed) -> None:
    question = "In what year was the company that makes the Vanta Deck founded?"
    # 2011 is the console's first sale; "founded" leads to 1972.
    assert found(embed, question, "2011", _MAKER).get("bound") == 1.0
    assert not found(embed, question, "1972", _MAKER).get("bound")
    # The answer's sentence says a word of the question ("holding company"): no finding.
    assert not found(embed, "Which company is based in Daejeon?", "Orrin Group", _MAKER).get("bound")


def test_no_rival_in_a_passage_s_subject_another_kind_of_name_or_an_offered_choice(
        embed: Embed) -> None:
    context = ("Talla Ross is a Scottish painter. Born in Oban, she later kept a studio on Skye. "
               "Her brother moved to Lisbon.")
    asked = "Where was the painter of the Harbour Lights series born?"
    assert found(embed, asked, "Lisbon", context).get("bound") == 1.0
    # "Scottish" is led to by nothing asked, and a people is no rival of a place.
    assert not found(embed, "What nationality is the painter's brother?", "Scottish", context).get("bound")
    # A question that offers its choices is the comparison's.
    assert not found(embed, "Was Talla Ross born in Oban or Lisbon?", "Lisbon", context).get("bound")


def test_a_plain_text_table_in_continental_numbers_is_read_row_by_row(embed: Embed) -> None:
    farm = "Feld;Kultur;Fläche (ha);Ertrag (t/ha)\nF-11;Weizen;12,5;7,8\nF-12;Raps;8,25;3,9\nF-13;Gerste;10,0;6,4"
    ok = found(embed, "yield?", "Field F-12 covers 8.25 hectares and yielded 3.9 t/ha.", tool=farm)
    assert ok["numbers"] == 0 and ok["bound"] == 0
    # A column's total is a sum the answer may state; the row beside it is another field's.
    assert found(embed, "area?", "The three fields cover 30.75 hectares.", tool=farm)["numbers"] == 0
    assert found(embed, "yield?", "Field F-12 yielded 7.8 tonnes per hectare.", tool=farm)["bound"] == 1


def test_a_continental_runs_slashed_date_is_day_first(embed: Embed) -> None:
    sub = '{"price": {"monthly_eur": "17,99"}, "renewal_date": "07/01/2027"}'
    assert found(embed, "renew?", "It renews on 7 January 2027 at €17.99 a month.", tool=sub)["numbers"] == 0
    assert found(embed, "renew?", "It renews on July 1, 2027.", tool=sub)["numbers"] == 1
    assert found(embed, "price?", "It costs €1,799 a month.", tool=sub)["numbers"] == 1


def test_a_table_rows_nothing_is_that_rows_own(embed: Embed) -> None:
    tix = "category | price | available\nStehplatz | 39,50 € | 1.120\nTribüne | 69,00 € | 0\nVIP | 149,00 € | 42"
    assert found(embed, "seats?", "Yes, Tribüne seats are available at €69.00.", tool=tix)["negation"] == 1
    assert found(embed, "seats?", "Yes, VIP seats are available at €149.00.", tool=tix)["negation"] == 0


def test_code_free_is_read_once_and_answers_the_same() -> None:
    log = "status: ok\nx = compute(y)\nThe refund was issued.\n"
    _code_free.cache_clear()
    first = _code_free(log)
    again = _code_free(log)
    assert first == again == "status: ok\nThe refund was issued."
    assert _code_free.cache_info().hits == 1


def test_an_item_the_context_excludes_or_lists_apart_is_no_item_of_its_list(embed: Embed) -> None:
    menu = ("Kids' menu. Every kids' meal comes with fries, a drink and a fruit cup. Dessert is not "
            "included; ice cream is 2.50 extra.")
    said = "Every kids' meal comes with fries, a drink, dessert and a fruit cup."
    assert found(embed, "what comes with a kids meal?", said, menu)["offered"] == 1
    careful = "Every kids' meal comes with fries, a drink and a fruit cup; dessert is extra."
    assert found(embed, "what comes with a kids meal?", careful, menu).get("offered", 0) == 0
    # An item excluded in one place and included in another is the context's.
    both = menu + " The Sunday kids' meal includes dessert."
    assert found(embed, "what comes with a kids meal?", said, both).get("offered", 0) == 0


def test_a_charge_said_to_be_none_needs_a_text_that_says_something_costs_nothing(embed: Embed) -> None:
    fees = "Transfers. International transfers take 1-3 business days. A 1.5% currency fee applies to non-EUR payments."
    q = "how do international transfers work?"
    said = "International transfers take 1-3 business days and are sent free of charge."
    assert found(embed, q, said, fees)["offered"] == 1
    # A text that makes something free, a denial, and a charge that runs out from a date.
    assert found(embed, q, said, fees + " EUR transfers are free.").get("offered", 0) == 0
    assert found(embed, q, "International transfers take 1-3 business days, but are not free of charge.",
                 fees).get("offered", 0) == 0
    assert found(embed, q, "International transfers take 1-3 business days; from 1 March they are fee-free.",
                 fees).get("offered", 0) == 0



def test_a_denied_list_or_its_examples_offer_nothing_new() -> None:
    # A list whose lead denies it states none of its items.
    assert _enumerated_items("No changes to your plan, add-ons, device, billing cycle, or warranty.") == []
    assert _enumerated_items("Your plan covers hotspot, voicemail, and roaming.") == [["hotspot", "voicemail", "roaming"]]
    # "such as" and "plus" join items: the examples are items, the connective is none.
    assert _offered_items("Gold includes group classes such as yoga, spin and boxing.") == [
        "classes", "yoga", "spin", "boxing"]
    assert "plus" not in _offered_items("The kit comes with brushes and a palette, plus an easel.")


def test_a_signed_difference_is_its_size_and_a_state_can_name_a_kind(embed: Embed) -> None:
    swap = {"old_price": 80.0, "new_price": 67.5, "status": "pending"}
    assert found(embed, "Zone C?", "Price difference: -12.50.", tool=swap)["numbers"] == 0
    assert found(embed, "Zone C?", "Price difference: -14.50.", tool=swap)["numbers"] == 1
    claim = "Vouchers are issued for approved claims."
    assert _kind_of_record(claim, next(re.finditer("approved", claim)))
    claim = "Your claim has been approved today."
    assert not _kind_of_record(claim, next(re.finditer("approved", claim)))
