"""HALLUCINATION on careful answers that restate the evidence in another form (a term its
key names, a column's mean, an amount at the evidence's rate, an identifier by its number,
a clock time in words, energy in another unit, a count picked by comparison), each with
its wrong twin, which must still be found."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed

from .conftest import found


def test_a_date_counted_on_by_a_term_whose_key_names_its_unit(embed: Embed) -> None:
    retainer = {"appliance": "fixed retainer", "fitted_on": "2026-01-20", "review_after_weeks": 6}
    assert found(embed, "when's my review?", "Your review is due 3 March.", tool=retainer)["numbers"] == 0
    assert found(embed, "when's my review?", "Your review is due 10 March.", tool=retainer)["numbers"] == 1
    # A record that gives its own later date has counted already: a count past it is no support.
    service = {"last_service": "2026-08-14", "interval_months": 12, "next_due": "2027-02-14"}
    assert found(embed, "when's my service?", "Your next service is due on 14 August 2027.",
                 tool=service)["numbers"] == 1


def test_a_columns_mean_where_the_answer_says_average(embed: Embed) -> None:
    tanks = [{"tank": "north", "ammonia_ppm": 0.25}, {"tank": "south", "ammonia_ppm": 0.5},
             {"tank": "east", "ammonia_ppm": 1.0}]
    ok = "Average ammonia across the tanks is about 0.58 ppm."
    assert found(embed, "average ammonia?", ok, tool=tanks)["numbers"] == 0
    assert found(embed, "average ammonia?", "Average ammonia across the tanks is 0.92 ppm.",
                 tool=tanks)["numbers"] == 1


def test_an_amount_restated_in_another_currency_at_the_evidences_rate(embed: Embed) -> None:
    invoice = {"amount_eur": 240.0, "rate_eur_gbp": 0.86, "due": "2026-07-31"}
    assert found(embed, "in pounds?", "It is €240.00 (≈ £206).", tool=invoice)["numbers"] == 0
    assert found(embed, "in pounds?", "It is €240.00 (≈ £224).", tool=invoice)["numbers"] == 1


def test_an_identifier_named_by_its_number_after_what_it_is(embed: Embed) -> None:
    locker = {"locker": "L-22", "status": "ready_for_collection", "collect_by": "18:00"}
    ok = "It's waiting for you in locker 22 until six this evening."
    assert found(embed, "is it in?", ok, tool=locker)["numbers"] == 0
    assert found(embed, "is it in?", "It's waiting for you in locker 23 until 18:00.", tool=locker)["numbers"] == 1
    assert found(embed, "is it in?", "It's in locker L-22 until six this morning.", tool=locker)["numbers"] == 1


def test_energy_in_another_unit_and_a_slip_of_scale_in_its_own(embed: Embed) -> None:
    months = "month | yield (kWh)\n---|---\nJune | 1412.3\nJuly | 1530.9"
    assert found(embed, "july in MWh?", "About 1.53 MWh in July.", tool=months)["numbers"] == 0
    assert found(embed, "june?", "In June the array produced 1.4 kWh.", tool=months)["numbers"] == 1


def test_a_count_of_records_picked_by_comparison_is_no_miscount(embed: Embed) -> None:
    invoice = {"lines": [{"desc": "Team plan - 40 seats", "amount": 1200.0},
                         {"desc": "SSO add-on", "amount": 180.0}, {"desc": "Priority support", "amount": 90.0}]}
    ok = "The biggest line is the Team plan ($1,200.00); there are two smaller add-on lines."
    assert found(embed, "what's on it?", ok, tool=invoice).get("bound", 0) == 0
    # Counted by the words the records hold, the same lines are one.
    wrong = "The biggest line is the Team plan ($1,200.00); there are two add-on lines."
    assert found(embed, "what's on it?", wrong, tool=invoice).get("bound", 0) == 1


def test_a_records_own_worked_value_and_the_total_itemised_from_them(embed: Embed) -> None:
    bins = {"site": "Depot 4", "bins": [{"bin": "north.bay", "slots": 60, "filled": 48},
                                        {"bin": "south.bay", "slots": 40, "filled": 37}]}
    ok = "15 slots are free at Depot 4: 12 in north.bay and 3 in south.bay."
    assert found(embed, "free slots?", ok, tool=bins)["numbers"] == 0
    wrong = "15 slots are free at Depot 4: 11 in north.bay and 3 in south.bay."
    assert found(embed, "free slots?", wrong, tool=bins)["numbers"] >= 1


def test_what_a_refusal_needs_is_not_said_to_be_there(embed: Embed) -> None:
    check = {"signed_waiver_on_file": False}
    ok = "Sorry, I can't book the climb without a signed waiver on file; you can sign one at the desk."
    assert found(embed, "book my climb", ok, tool=check).get("negation", 0) == 0
    assert found(embed, "book my climb", "Your signed waiver is on file, so you're booked.",
                 tool=check).get("negation", 0) == 1


def test_a_size_glued_to_its_unit_in_a_command(embed: Embed) -> None:
    log = 'Command: java -Xms2g -jar indexer.jar\nERROR OutOfMemoryError'
    assert found(embed, "why did it fail?", "The heap started at 2 GB (-Xms2g) and ran out.", tool=log)["numbers"] == 0
    assert found(embed, "why did it fail?", "The heap started at 4 GB and ran out.", tool=log)["numbers"] == 1


def test_a_count_of_the_items_listed_after_it_and_a_bound_drawn_between_values(embed: Embed) -> None:
    tyres = {"car": "estate", "tyres": [{"wheel": "front left", "tread_pct": 22}, {"wheel": "front right", "tread_pct": 25},
                                        {"wheel": "rear left", "tread_pct": 71}, {"wheel": "rear right", "tread_pct": 74}]}
    ok = "Two tyres are worn: the front left at 22% and the front right at 25%. The rear ones are above 50%."
    assert found(embed, "which tyres are worn?", ok, tool=tyres)["numbers"] == 0
    assert found(embed, "which tyres are worn?", ok, tool=tyres).get("counts", 0) == 0
    # A bound beyond every value sorts nothing: it is invented.
    wrong = "The rear ones are above 90%."
    assert found(embed, "which tyres are worn?", wrong, tool=tyres)["numbers"] == 1


def test_a_requirement_denied_of_what_the_context_exempts(embed: Embed) -> None:
    rules = ("Harbour Marina rules, section 5: Every vessel over 8 m must carry third-party insurance of at "
             "least £3 million. Unpowered dinghies and visiting rowing boats are exempt.")
    ok = ("No. Section 5 exempts unpowered dinghies and visiting rowing boats, so your dinghy doesn't have to "
          "carry the £3 million cover.")
    assert found(embed, "does my dinghy need insurance?", ok, context=rules).get("negation", 0) == 0
    wrong = "No. Vessels over 8 m do not need to carry third-party insurance."
    assert found(embed, "does my yacht need insurance?", wrong, context=rules).get("negation", 0) == 1


def test_a_service_said_active_where_the_context_holds_it(embed: Embed) -> None:
    card = {"card": "fuel card ••5826", "status": "frozen", "frozen_reason": "limit_review"}
    assert found(embed, "can I use my card?", "Yes, your fuel card is active.", tool=card).get("negation", 0) == 1
    ok = "Not yet: the card is frozen while its limit is reviewed."
    assert found(embed, "can I use my card?", ok, tool=card).get("negation", 0) == 0


def test_a_multiple_glued_to_x_is_a_value_a_record_can_own(embed: Embed) -> None:
    runs = {"lanes": [{"lane": "L-3", "depth": 41.5, "qc": "PASS"}, {"lane": "L-5", "depth": 18.0, "qc": "FAIL"}]}
    assert found(embed, "which lane failed?", "L-5 failed (depth 18x).", tool=runs).get("bound", 0) == 0
    assert found(embed, "which lane failed?", "L-3 failed (depth 18x).", tool=runs).get("bound", 0) == 1
