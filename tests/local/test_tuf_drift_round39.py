"""Task rules, round b38tu: a sibling's figure restated for the asked one, a sibling told as
found unfit, a sibling passage, document kind or measure answered instead, a diagnosis in
its own reads' terms, and a breakdown's currency codes."""

from __future__ import annotations

from dataclasses import replace

from semloop.judge.local._answerer import Embed
from semloop.judge.local._task import (
    answer_off_topic_drift,
    answer_task_understanding_failure,
    off_topic_evidence,
    task_understanding_evidence,
)

from .conftest import call, case


def test_a_figure_only_the_asked_things_entry_holds_answers_for_it(embed: Embed) -> None:
    # Jersey applies the Channel Islands' scheme for the fee and its own GST: the answer
    # never writes "Jersey", yet its 5% is Jersey's line of the evidence.
    told = replace(case(
        "What's the import fee and GST on a 40 kg pallet of bicycle parts into Jersey?",
        "Fee: bicycle parts (HS 8714.91) are free of duty under the CI customs tariff; GST is 5%, charged on "
        "the value plus freight.",
    ), context=("CI customs tariff 2026: 8714.91 frames and forks — free.", "Jersey GST standard rate 5%."))
    assert task_understanding_evidence(told, embed).features["substitute"] == 0.0


def test_a_sibling_told_as_found_unfit_is_no_stand_in(embed: Embed) -> None:
    # The 3-bed unit asked was found; the 2-bed ones are named only as what did not fit.
    found = case(
        "Find me the first 3-bed cabin free next weekend at the lake.",
        "First free: Cabin 7, Friday 14 to Sunday 16 June, sleeps six. The lakeside row only had 2-bed cabins left.",
        call("cabins.search", {"beds": 3, "weekend": "next"}, "Cabin 7 3-bed free 14-16 Jun; Cabin 2 2-bed free; Cabin 4 2-bed free"),
    )
    assert task_understanding_evidence(found, embed).features["substitute"] == 0.0


def test_the_answer_drawn_from_the_sibling_passage_misunderstood(embed: Embed) -> None:
    # Per diem asked; every figure and the opening word of the answer are the yard storage
    # passage's, which the request never names (one clause, "sits at the terminal after
    # free time", sits as near the per diem passage to the embedder).
    storage = replace(case(
        "We kept the trailers at our depot 5 days past free time. What will the line charge us in per diem "
        "for 2 chassis at Savannah?",
        "Yard storage at Savannah is charged while the box sits at the terminal after free time expires. The free "
        "period is 4 days, then $85/day for days 5–9 and $140/day afterwards. So for two units over 5 days you'd "
        "pay 2 × 5 × $85 = $850 in storage. You can avoid this by picking up sooner.",
    ), context=("Carrier tariff Savannah — Yard storage (in terminal): 4 free days; days 5–9 $85/day; day 10+ $140/day.",
                "Per diem (chassis outside terminal): 3 free days; then $45/day days 4–13; $70/day thereafter."))
    assert float(answer_task_understanding_failure(storage, embed).value) >= 0.5


def test_another_kind_of_document_presented_is_another_task(embed: Embed) -> None:
    letter = case(
        "Draft the packing checklist for the Hendry family's move on Friday.",
        "Here's the moving quote letter for the Hendry family:\n\nDear Mr and Mrs Hendry,\nThank you for "
        "choosing us. Your move on Friday is priced at £1,450 including two porters and a 7.5t van.\n\nKind regards,\nOps",
    )
    assert float(answer_task_understanding_failure(letter, embed).value) >= 0.5


def test_a_sibling_measure_reported_for_the_asked_one(embed: Embed) -> None:
    # CAC asked, LTV given; and a measure written out whose initials are another's.
    ltv = case(
        "What was our CAC for the spring campaign? One number please.",
        "Spring campaign LTV was $412 per customer (revenue $1.03M over 2,500 new customers).",
        call("campaign_kpis", {"campaign": "spring"}, {"spend": 186000, "new_customers": 2500, "revenue": 1030000}),
    )
    written_out = case(
        "What's the MTTA for the on-call rota this month?",
        "Mean time to resolve for the on-call rota this month was about 3.2 hours across 14 pages.",
        call("pager_stats", {"rota": "on-call", "month": "current"}, "pages=14 ack_avg=00:06:10 resolve_avg=03:12:00"),
    )
    assert float(answer_task_understanding_failure(ltv, embed).value) >= 0.5
    assert float(answer_task_understanding_failure(written_out, embed).value) >= 0.5


def test_a_diagnosis_told_in_its_own_reads_terms_stays_on_the_request(embed: Embed) -> None:
    # No sentence shares a word with "checkout keeps crashlooping", yet each restates what
    # the calls on prod-us returned: the run's finding on the request.
    diagnosed = case(
        "Checkout service keeps crashlooping on prod-us. What's wrong?",
        "Root cause: the container can't reach its database. Logs show `FATAL: password authentication failed for "
        "user app` on every boot, and the secret was rotated at 09:12 without a redeploy. I re-synced the secret; "
        "the pods have been Running for 4 minutes with no restarts.",
        call("kubectl", {"cmd": "logs checkout-6b7-1 --previous -n prod-us"}, "FATAL: password authentication failed for user app"),
        call("vault", {"cmd": "kv metadata get secret/db-app"}, "updated_time 2026-06-02T09:12:00Z"),
        call("kubectl", {"cmd": "get pods -n prod-us -l app=checkout"},
             "NAME READY STATUS RESTARTS AGE\ncheckout-6b7-1 1/1 Running 0 4m"),
        steps=("Read logs", "Checked the secret", "Re-synced", "Verified pods"),
    )
    assert float(answer_off_topic_drift(diagnosed, embed).value) < 0.5


def test_currency_codes_of_a_breakdown_are_its_measure_not_a_cast(embed: Embed) -> None:
    landed = case(
        "What does a case of the Chilean wine cost us landed in Manila, in pesos?",
        "About ₱9,850 per case. Breakdown per case: FOB CLP 96,000 (≈ ₱5,950 at 0.062 PHP/CLP), freight and "
        "insurance ≈ ₱820, duty 7% on CIF ≈ ₱475, excise ≈ ₱2,600. VAT isn't included since you reclaim it.",
        call("fx_rate", {"pair": "CLPPHP"}, {"rate": 0.062}),
        call("quote_get", {"sku": "VIN-CL-12"}, {"fob": 96000, "freight_ins": 820}),
        call("tariff_lookup", {"country": "PH", "hs": "2204.21"}, {"duty": "7%", "excise": 2600}),
    )
    assert off_topic_evidence(landed, embed).features["new_names"] < 0.3
