"""HALLUCINATION on false alarms of blind57 … blind59b (opened this round), each tested in a
domain of its own here. Negation: an adverb between a negator and what it denies ("don't
actually need"); "yet" after a negated verb; the claim's negation said by another sentence
of the context than the closest one; a record's pair left unset ("nests: null") or a
postposed "not" ("nest count not recorded"), which assert nothing; a polar word that only
implies a denial ("sold separately") read against a clause of the same thing; "not Hall A
as before" against a record's "previous"; a word a "not" skips to that the text asserts
again; a claim that gives a thing and its lack of two records; "mass" and "masses" as one
stem; a flattened key's head ("receipt exceptions: none"); "waived" as no charge. Figures:
a count of what each record holds ("3 stops missed" over three routes) is a sum, not the
list's length; a clock time worked back from a context time by a duration the claim
states; an instant written in UTC told in the zone the record names, with its summer
time; a record row holding none of the claim's several numbers is another row. Recall: a
negation the context contradicts, a wrong worked clock time, a wrong zone conversion and
a count of the whole list are still caught."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed
from semloop.judge.local._claims import contradicts, negation_scope, stem
from semloop.judge.local._grounding import _other_measure
from semloop.judge.local._records import _stated

from .conftest import found


def test_an_adverb_between_negator_and_verb_is_skipped() -> None:
    assert negation_scope("you don't actually need a visa") == negation_scope("you don't need a visa")
    assert negation_scope("the lift isn't currently working")[0] == frozenset({"work"})


def test_yet_after_a_negated_verb_asserts_nothing() -> None:
    said = "The replacement part hasn't been shipped to the workshop yet."
    record = "Replacement part ordered 3 May, not yet shipped to the workshop."
    assert contradicts(said, record, 1) == ""
    assert contradicts("The replacement part was shipped to the workshop.", "The replacement part was not shipped "
                       "to the workshop.", 1) != ""


def test_a_negation_another_sentence_of_the_context_states(embed: Embed) -> None:
    doc = ("Replacement library card: free of charge at any branch.\n"
           "You do not need your library card to borrow e-books; the app uses your member number.")
    got = found(embed, "Do I need my card for e-books?", "You don't need the library card to borrow e-books.",
                context=doc)
    assert got.get("negation", 0) == 0


def test_an_unset_pair_and_a_postposed_not_assert_nothing(embed: Embed) -> None:
    record = {"colony": "Heron Marsh", "survey_date": "2025-04-02", "adults": 14, "nests": None,
              "note": "nest count not recorded - drone battery failed"}
    told = "The 2 April survey at Heron Marsh doesn't have a nest count; 14 adults were seen."
    assert found(embed, "How many heron nests at Heron Marsh?", told, tool=record).get("negation", 0) == 0
    # The noun phrase before a verbless "not" is denied; a sentence's subject is not.
    assert contradicts("Breakfast is included in the rate.", "Breakfast not included.", 1) == "includ"


def test_a_polar_word_is_read_against_a_clause_of_the_same_thing() -> None:
    # The clause of another thing shares one word with the claim: the coach hire's.
    clause = "coach fuel surcharge billed separately via the transport office"
    assert contradicts("The coach hire includes a driver for up to 9 hours (not per person).", clause, 1) == ""
    assert contradicts("The fuel surcharge is included in the coach hire.",
                       "Fuel surcharge for coach hire billed separately.", 1) == "includ"


def test_no_longer_as_before_against_a_previous_value() -> None:
    record = "collection point: Hall B; previous collection point: Hall A"
    assert contradicts("Collect it from Hall B now, not Hall A as before.", record, 1) == ""
    assert contradicts("Parcels are not collected at Hall B.", "collection point: Hall B; parcels collected: yes", 1)


def test_a_word_a_not_skips_to_and_the_text_asserts_again() -> None:
    rule = ("Where the member cannot attend the rescheduled class, the member may, within 7 days of "
            "the new time being announced, take a credit.")
    said = "Can't make the new time: within 7 days of the new time being announced, take a credit."
    assert contradicts(said, rule, 1) == ""


def test_a_claim_that_gives_a_thing_and_its_lack_of_two_records(embed: Embed) -> None:
    plans = {"plans": [{"name": "Lite", "monthly_usd": 12, "setup_fee_usd": 30},
                       {"name": "Pro", "monthly_usd": 25, "setup_fee_usd": 0}]}
    told = "Lite is $12 a month with a $30 setup fee; Pro is $25 a month with no setup fee."
    assert found(embed, "Compare the plans", told, tool=plans).get("negation", 0) == 0


def test_a_double_s_word_keeps_its_s() -> None:
    assert stem("mass") == stem("masses") and stem("address") == stem("addresses")
    assert stem("awareness") == stem("aware")


def test_a_flattened_keys_head_and_its_unit() -> None:
    assert _stated("delivery receipt exceptions: none") == "no receipt exceptions"
    assert _stated("device fee eur: 0") == "no device fee"


def test_waived_is_no_charge(embed: Embed) -> None:
    record = {"member": "M-2231", "tier": "senior", "late_fees": "waived"}
    told = "As a senior member you get free late returns: late fees are waived on your account."
    assert found(embed, "Do I pay late fees?", told, tool=record).get("negation", 0) == 0


def test_a_count_of_what_each_record_holds_is_a_sum(embed: Embed) -> None:
    routes = {"date": "2025-06-11", "routes": [{"id": "R1", "stops_missed": 3}, {"id": "R2", "stops_missed": 2},
                                               {"id": "R3", "stops_missed": 0}]}
    told = "5 stops missed in total: R1 missed 3, R2 missed 2 and R3 none."
    got = found(embed, "How many stops were missed on 11 June?", told, tool=routes)
    assert got.get("counts", 0) == 0 and got.get("numbers", 0) == 0
    wrong = found(embed, "How many stops were missed on 11 June?",
                  "40 stops missed in total: R1 missed 3, R2 missed 2 and R3 none.", tool=routes)
    assert wrong.get("numbers", 0) + wrong.get("counts", 0) > 0


def test_a_clock_time_worked_back_by_a_stated_duration(embed: Embed) -> None:
    doc = "Ferry departs 07:10. Check-in closes 25 minutes before departure."
    right = found(embed, "When does check-in close?", "Check-in closes at 06:45, 25 minutes before the 07:10 sailing.",
                  context=doc)
    wrong = found(embed, "When does check-in close?", "Check-in closes at 06:35, 25 minutes before the 07:10 sailing.",
                  context=doc)
    assert right.get("numbers", 0) == 0
    assert wrong.get("numbers", 0) > 0


def test_an_instant_in_utc_is_told_in_the_records_zone(embed: Embed) -> None:
    slots = {"office": "Harbour Clinic", "timezone": "Europe/Berlin",
             "slots": [{"start": "2026-07-02T08:30:00Z", "minutes": 15}]}
    right = found(embed, "When is my slot?", "Your slot is on 2 July at 10:30.", tool=slots)
    wrong = found(embed, "When is my slot?", "Your slot is on 2 July at 11:30.", tool=slots)
    assert right.get("numbers", 0) == 0
    assert wrong.get("numbers", 0) > 0


def test_a_row_holding_none_of_the_claims_numbers_is_another_row() -> None:
    assert _other_measure("A 6-month plan costs 19.90 EUR a month.", "plan months: 12; monthly eur: 14.9")
    assert not _other_measure("A 12-month plan costs 19.90 EUR a month.", "plan months: 12; monthly eur: 14.9")


def test_a_mass_fraction_converts_between_ppb_ppm_and_grams_a_tonne(embed: Embed) -> None:
    assay = {"sample_id": "DH-22-117", "au_ppb": 2450, "ag_ppm": 3.1, "status": "reported"}
    asked = "What's the gold grade of DH-22-117 in g/t?"
    assert found(embed, asked, "DH-22-117 assayed 2,450 ppb gold, which is 2.45 g/t.", tool=assay).get("numbers", 0) == 0
    assert found(embed, asked, "DH-22-117 assayed 24.5 g/t gold.", tool=assay).get("numbers", 0) > 0


def test_an_amount_is_a_stated_count_times_a_unit_price(embed: Embed) -> None:
    rules = "Coffee card: redeem from 40 stamps; each stamp is worth 0.25 EUR off your next order."
    right = found(embed, "What are my stamps worth?", "Once you reach 40 stamps they give you 10 EUR off.", context=rules)
    wrong = found(embed, "What are my stamps worth?", "Once you reach 40 stamps they give you 14 EUR off.", context=rules)
    assert right.get("numbers", 0) == 0
    assert wrong.get("numbers", 0) > 0


def test_a_sentence_that_denies_beside_a_price_says_the_same_as_a_zero_count(embed: Embed) -> None:
    lockers = {"site": "North Pier", "prices": {"small": 40, "large": 65}, "availability": {"small": 2, "large": 0}}
    told = "At North Pier a small locker is $40 and a large one $65, but none of the large are free right now."
    assert found(embed, "Locker prices at North Pier?", told, tool=lockers).get("negation", 0) == 0
