"""Task rules, round b41tu: a span of years covers the year asked; an answer that bridges
from the request's words to another subject, with the asked thing in hand and none of it
told, drifts; a code the record writes glued ("ZG24") is the one the answer spaces out."""

from __future__ import annotations

from dataclasses import replace

from semloop.judge.local._answerer import Embed
from semloop.judge.local._drift import answer_off_topic_drift
from semloop.judge.local._understanding import answer_task_understanding_failure

from .conftest import call, case


def test_a_span_of_years_covers_the_year_asked(embed: Embed) -> None:
    # The catalogue's "2011–2018" names the 2015 van asked about; it is no other year.
    mirror = case(
        "Which mirror glass fits a 2015 Transit Connect, left side?",
        "The catalogue lists part 1823771 for the left mirror glass on the 2011–2018 Transit Connect; "
        "the heated version has a different number, so check your switch first.",
        call("parts.search", {"vehicle": "Transit Connect 2015", "part": "mirror glass left"},
             "1823771 left 2011-2018 | 1823772 left heated 2011-2018"),
    )
    assert float(answer_task_understanding_failure(mirror, embed).value) < 0.5


def test_another_year_outside_the_span_still_fires(embed: Embed) -> None:
    tax = case(
        "Can you send me my 2024 tax statement for the brokerage account?",
        "Here is your 2023 tax statement for the brokerage account: dividends $1,204, realised gains $3,880.",
        call("statements.get", {"year": 2023, "kind": "tax"}, {"dividends": 1204, "gains": 3880}),
    )
    assert float(answer_task_understanding_failure(tax, embed).value) >= 0.5


_TAXI_RULE = ("Expense Policy 6.1: Receipts required for taxi rides of EUR 20 and above. Below EUR 20, the "
              "card statement line is enough when paid with the corporate card.")


def test_a_bridge_to_another_subject_with_the_rule_in_hand_drifts(embed: Embed) -> None:
    # The retrieved rule answers the question (the receipt threshold); the answer opens on the
    # request's words and turns to ride-app rewards, telling none of the rule.
    taxi = replace(case(
        "Do I need a receipt for taxi rides under €20 on the company card?",
        "If you're taking taxis that often, you should think about which ride app pays you back the most. "
        "Uber One gives 6% back in credits on every ride, which adds up to a free trip every few weeks, "
        "compared to 3% on most Bolt plans. Stacking that with airline partner promotions during "
        "double-points weekends can turn a month of commuting into a free weekend away.",
        call("web_search", {"q": "best ride app cashback"}, "Uber One 6% credits ... Bolt 3% ..."),
        steps=("policy lookup", "searched ride app rewards"),
    ), context=(_TAXI_RULE,))
    assert float(answer_off_topic_drift(taxi, embed).value) >= 0.5


def test_an_answer_that_tells_the_rule_is_on_the_request(embed: Embed) -> None:
    taxi = replace(case(
        "Do I need a receipt for taxi rides under €20 on the company card?",
        "No. Below EUR 20 the card statement line is enough when you pay with the corporate card; from EUR 20 "
        "up you need the receipt.",
        steps=("policy lookup",),
    ), context=(_TAXI_RULE,))
    assert float(answer_off_topic_drift(taxi, embed).value) < 0.5


def test_a_glued_code_in_the_record_is_the_spaced_one_in_the_answer(embed: Embed) -> None:
    # The flight found is told as "OS 711 on 9 August, EUR 89"; the record writes "OS711 09AUG
    # EUR89". The ID check on the profile serves the booking.
    flight = case(
        "Book me on the cheapest Vienna–Budapest flight next month.",
        "Before booking I checked your ID card in your profile: it expires on 12 Sep, and Hungary accepts it "
        "for your whole stay — you'd be fine for a trip in August, and you're also on the fast-track list "
        "with a biometric registration. Cheapest option is OS 711 on 9 August, EUR 89 one-way. Shall I book it?",
        call("traveller_profile", {"id": "EMP-4471"}, {"id_card_exp": "2026-09-12", "biometric_reg": True}),
        call("flight_search", {"from": "VIE", "to": "BUD", "month": "2026-08"}, "OS711 09AUG EUR89 | W62301 EUR104"),
        steps=("profile", "search"),
    )
    assert float(answer_off_topic_drift(flight, embed).value) < 0.5


def test_a_breakdown_by_another_dimension_is_another_task(embed: Embed) -> None:
    # Asked by region, the answer is headed "by sales rep:" and never names a region.
    sales = case(
        "Can you send me November revenue split by region for the ops meeting?",
        "Here's November revenue by sales rep:\n1. L. Moreau – €84,200\n2. K. Adeyemi – €71,950\n"
        "3. P. Novak – €66,310\nTotal: €222,460",
        call("revenue_report", {"month": "2026-11", "group_by": "rep"},
             "REP,EUR\nMOREAU L,84200\nADEYEMI K,71950\nNOVAK P,66310\nTOTAL,222460"),
    )
    assert float(answer_task_understanding_failure(sales, embed).value) >= 0.5


def test_a_breakdown_by_the_dimension_asked_is_the_task(embed: Embed) -> None:
    sales = case(
        "Can you send me November revenue split by region for the ops meeting?",
        "Here's November revenue by region:\n1. West – €104,200\n2. North – €71,950\n3. South – €46,310\n"
        "Total: €222,460",
        call("revenue_report", {"month": "2026-11", "group_by": "region"},
             "REGION,EUR\nWEST,104200\nNORTH,71950\nSOUTH,46310\nTOTAL,222460"),
    )
    assert float(answer_task_understanding_failure(sales, embed).value) < 0.5


def test_advice_to_call_or_apply_names_no_cast(embed: Embed) -> None:
    # What the user is told to call or apply for, after a lead-in or a condition, serves the
    # goal: the helpline and the benefit are no tangent's cast.
    laid_off = replace(case(
        "My contract ended early without notice after 2 years. What am I owed?",
        "Under the Employment Standards Act you're owed 2 weeks' notice pay plus any unused vacation pay. "
        "Also apply for Jobseeker Allowance right away — don't wait for your P45 Certificate, the Welfare Office "
        "accepts claims within 4 weeks of your last day. If you feel overwhelmed, please call the Samaritans "
        "Helpline or Citizens Advice Bureau for free support.",
        steps=("ESA lookup",),
    ), context=("ESA s.57: (b) 2 weeks if 1 year or more but less than 3.",))
    assert float(answer_off_topic_drift(laid_off, embed).value) < 0.5


def test_a_generic_calls_act_argument_is_its_act(embed: Embed) -> None:
    # The call's name says no act; its "action" argument does, and the answer reports it:
    # asked to remove, it assigned.
    revoke = case(
        "Please remove Marta Lind's VPN access, she left the company on Friday.",
        "I've checked the pool and there are 12 VPN seats free, so Marta can keep one. I've submitted the "
        "request to assign her a seat; she'll get an email once it's active.",
        call("access_request", {"resource": "VPN", "user": "marta.lind", "action": "assign"},
             {"req": "AR-3391", "status": "submitted"}),
    )
    assert float(answer_task_understanding_failure(revoke, embed).value) >= 0.5


def test_a_request_partly_in_another_language_is_no_far_subject(embed: Embed) -> None:
    # The Swedish half of the request embeds poorly; the English answer on it is no other subject.
    deposit = replace(case(
        "Min hyresvärd vägrar betala tillbaka depositionen på 15 000 kr. What can I do?",
        "You don't have to accept that. Send a written demand first; if the landlord still refuses, take it "
        "to the rent tribunal (hyresnämnden) or to Kronofogden with an order for payment. Keep your move-out "
        "inspection report and photos, since that's what they will look at.",
        steps=("Retrieve Hyreslagen",),
    ), context=("Hyreslagen 12 kap.: hyresnämnden prövar tvister; betalningsföreläggande hos Kronofogden.",))
    assert float(answer_off_topic_drift(deposit, embed).value) < 0.5
