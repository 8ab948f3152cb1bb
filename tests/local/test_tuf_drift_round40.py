"""Task rules, round b39tu: a record's sibling field or a sibling call's figures answered for
the part the request names; a bare yes to a whether-question backed by what a call returned,
the request's subject named by its initials, and a markdown question's competitor prices,
which are no drift."""

from __future__ import annotations

from dataclasses import replace

from semloop.judge.local._answerer import Embed
from semloop.judge.local._task import answer_off_topic_drift, answer_task_understanding_failure

from .conftest import call, case


def test_a_sibling_field_of_the_record_told_for_the_named_one(embed: Embed) -> None:
    # The record holds the storage fee asked by its key's words; the answer gives the
    # handling fee beside it and never the storage one, nor the word "storage".
    fees = case(
        "What's the monthly storage fee on container TGHU-88120 at the Antwerp yard?",
        "For TGHU-88120 the handling fee is €145, charged once when the container leaves the yard.",
        call("yard.container", {"id": "TGHU-88120"},
             '{"storage_fee_eur": 380, "handling_fee_eur": 145, "yard": "Antwerp North"}'),
    )
    assert float(answer_task_understanding_failure(fees, embed).value) >= 0.5


def test_the_named_field_given_is_no_sibling(embed: Embed) -> None:
    fees = case(
        "What's the monthly storage fee on container TGHU-88120 at the Antwerp yard?",
        "Storage for TGHU-88120 is €380 a month; the one-off handling fee of €145 is charged when it leaves.",
        call("yard.container", {"id": "TGHU-88120"},
             '{"storage_fee_eur": 380, "handling_fee_eur": 145, "yard": "Antwerp North"}'),
    )
    assert float(answer_task_understanding_failure(fees, embed).value) < 0.5


def test_a_bare_yes_backed_by_the_lookup_answers_the_question(embed: Embed) -> None:
    vendor = case(
        "Is the supplier on our sanctions screening list for the Q3 audit?",
        "Yes. Orlan Trading FZE matched the OFAC SDN entry added on 12 March, with the same Dubai address. "
        "I'd hold the two open purchase orders until compliance clears it.",
        call("screening.check", {"vendor": "V-2231"},
             '{"name": "Orlan Trading FZE", "match": "OFAC SDN", "added": "12 March", "address": "Dubai"}'),
    )
    assert float(answer_off_topic_drift(vendor, embed).value) < 0.5


def test_the_requests_subject_named_by_its_initials_is_on_it(embed: Embed) -> None:
    # "FCR" is "first-contact resolution": the embedder reads the two as strangers.
    fcr = replace(case(
        "Why was first-contact resolution so poor on Monday?",
        "Monday FCR dropped to 58% (normal ~74%). Main cause: the billing outage between 09:00 and 12:30 — agents "
        "could not issue credits, forcing callbacks on queues B2, C1 and D4. Those three queues account for 61% of "
        "repeat calls.",
        call("records.fcr", {"date": "2027-03-01"}, '{"fcr":0.58,"repeat_calls_by_queue":{"B2":310,"C1":250,"D4":140}}'),
        call("researcher.incidents", {"date": "2027-03-01"}, "billing outage 09:00-12:30, credits unavailable to agents"),
    ), steps=("supervisor -> records: FCR", "supervisor -> researcher: incidents"))
    assert float(answer_off_topic_drift(fcr, embed).value) < 0.5


def test_competitor_prices_for_a_markdown_question_sell_nothing(embed: Embed) -> None:
    markdown = replace(case(
        "Should we mark down the AW27 rain jackets this weekend?",
        "Yes, 20% looks justified: sell-through is 36% after 6 weeks vs 52% plan, and two competitors in the same "
        "malls already show similar rain jackets at 25–30% off (€99–€109 vs our €139). A 20% cut puts us at €111, "
        "close to them while protecting margin.",
        call("records.merch_report", {"style": "AW27-RJ"}, '{"weeks":6,"sell_through":0.36,"plan":0.52,"price_eur":139}'),
        call("researcher.competitor_prices", {"category": "rain jacket"}, "Brand X €99 (-30%), Brand Y €109 (-25%)"),
    ), steps=("supervisor -> records: sell-through", "supervisor -> researcher: competitor prices"))
    assert float(answer_off_topic_drift(markdown, embed).value) < 0.5
