"""Task rules, round b38tu: a sibling's figure restated for the asked one, a sibling told as
found unfit, a sibling passage, document kind or measure answered instead, a diagnosis in
its own reads' terms, and a breakdown's currency codes."""

from __future__ import annotations

from dataclasses import replace

from semloop.judge.local._answerer import Embed
from semloop.judge.local._drift import answer_off_topic_drift, off_topic_evidence
from semloop.judge.local._understanding import (
    answer_task_understanding_failure,
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


def test_another_languages_article_names_no_kind(embed: Embed) -> None:
    # "die Küche" and "die Tülle" share an article; the leak at the lever was answered.
    lever = case(
        "Mein Wasserhahn in der Küche tropft am Hebel. Was kann ich selbst tun?",
        "Wenn der Hahn am Hebel tropft (nicht aus der Tülle), ist meist die Kartusche verschlissen. Drehen Sie "
        "die Eckventile zu, nehmen Sie den Hebel ab, schrauben Sie die Kartusche heraus und setzen Sie eine "
        "gleiche neue ein. Kosten etwa 15 bis 30 Euro.",
    )
    assert task_understanding_evidence(lever, embed).features["substitute"] == 0.0


def test_the_inverse_operation_done_misunderstood(embed: Embed) -> None:
    integral = case(
        "Can you find the derivative of g(t) = t³ · e^t? I want to check my working.",
        "∫ t³ e^t dt: use integration by parts three times, giving t³e^t − 3t²e^t + 6te^t − 6e^t + C.",
    )
    assert float(answer_task_understanding_failure(integral, embed).value) >= 0.5


def test_advice_for_the_other_side_of_the_sale_misunderstood(embed: Embed) -> None:
    buying = case(
        "I'm selling my 2017 Yamaha MT-07 with 18,000 km. Is €5,400 a fair price to ask?",
        "Here's what to check when buying a used MT-07: look at the chain and sprockets, ask for the service "
        "book and check for crash damage on the bar ends. Sellers expect some haggling, so offer about 10% "
        "below the asking price.",
    )
    assert float(answer_task_understanding_failure(buying, embed).value) >= 0.5


def test_a_headline_presented_for_a_letter_asked(embed: Embed) -> None:
    headlines = case(
        "Write me a cover letter for the junior data analyst role at Brightwater — I'm moving over from nursing.",
        "Here are 4 LinkedIn headline options:\n1. Data Analyst | Ex-Nurse | Turning patient data into decisions\n"
        "2. From ward to dashboard: SQL, Python, Tableau\n3. Junior Data Analyst with 8 years of clinical insight\n"
        "4. Nurse turned analyst — healthcare data",
    )
    assert float(answer_task_understanding_failure(headlines, embed).value) >= 0.5


def test_a_sibling_diet_answered_for_the_one_asked(embed: Embed) -> None:
    vegan = case(
        "Could you make my mum's banana bread recipe gluten-free? 200 g flour, 3 bananas, 2 eggs, 100 g sugar.",
        "Sure, here's a vegan version: swap the eggs for 2 flax eggs, use 80 g coconut sugar and 60 ml oil, "
        "keep the flour and bananas, and bake 50 minutes at 175 °C.",
    )
    assert float(answer_task_understanding_failure(vegan, embed).value) >= 0.5


def test_another_financial_statement_presented_misunderstood(embed: Embed) -> None:
    balance = case(
        "The bank wants a cash flow statement for last year, money in and out each month. Can you put it together?",
        "Here's your 2025 balance sheet:\n\nFixed assets: £18,400\nStock: £6,900\nDebtors: £4,150\nCash: £9,020\n"
        "Creditors: £7,300\nNet assets: £31,170",
        call("sql_query", {"query": "SELECT month, SUM(in), SUM(out) FROM bank GROUP BY month"}, "01 | 8200 | 7100\n02 | 7900 | 6400"),
    )
    assert float(answer_task_understanding_failure(balance, embed).value) >= 0.5
