"""Task rules, round b40tu: an act the caller takes back is no longer asked; a question about
the caller's own record answered from the rule that governs it is no wrong source; a long
sentence whose tail, past the embedded head, takes the request up tells no other subject."""

from __future__ import annotations

from dataclasses import replace

from semloop.judge.local._answerer import Embed
from semloop.judge.local._drift import answer_off_topic_drift
from semloop.judge.local._understanding import answer_task_understanding_failure

from .conftest import call, case


def test_an_act_taken_back_is_not_asked(embed: Embed) -> None:
    # The caller says "refund" and then takes it back: the size change done is what was asked.
    swap = case(
        "refund the jacket, no sorry, don't refund it, just swap it for a medium",
        "Sure, nothing else changed. Your jacket order is now a medium and the courier will bring it on Friday.",
        call("order_update_size", {"order": "OR-5521", "size": "M"}, "OK courier_notified=Y"),
    )
    assert float(answer_task_understanding_failure(swap, embed).value) < 0.5


def test_an_act_asked_and_another_done_still_fires(embed: Embed) -> None:
    refund = case(
        "refund the jacket please, it doesn't fit",
        "Done: your jacket order is now a medium and the courier will bring it on Friday.",
        call("order_update_size", {"order": "OR-5521", "size": "M"}, "OK courier_notified=Y"),
    )
    assert float(answer_task_understanding_failure(refund, embed).value) >= 0.5


def test_the_rule_for_the_callers_own_record_answers_it(embed: Embed) -> None:
    # "the boiler" is only in the caller's job history; the answer is drawn from the
    # guarantee document, which holds the request's "guarantee" and the record does not.
    boiler = replace(case(
        "the boiler you serviced in January is making that noise again, is it still under guarantee",
        "Yes, our service guarantee runs six months from the visit and yours was on the ninth of January, "
        "so the return visit is free. I can send an engineer on Monday.",
        call("job_history", {"cust": "C-2291"}, "J-40019 HEATING boiler service noise completed 2027-01-09"),
    ), context=("Service guarantee: 6 months from the visit for the same fault.",))
    assert float(answer_task_understanding_failure(boiler, embed).value) < 0.5


def test_a_long_sentence_whose_tail_answers_is_on_the_request(embed: Embed) -> None:
    # The request's first half, in Portuguese, embeds poorly; the long sentence's head (the
    # gantries, the transponder) is far from it, and how the tolls are paid comes after the
    # embedded words.
    tolls = case(
        "Olá, vou de carro do Porto a Braga amanhã, the motorway has tolls, how do I pay them with the rental car?",
        "Boa pergunta! The A3 up to Braga has stretches with electronic gantries only, so I'd add the Via Verde "
        "transponder to the booking — it's two euros a day and the tolls are charged to your card after the "
        "rental. Without it you'd have to pay at a post office within five days, which is a hassle.",
        call("addon_info", {"code": "VIA_VERDE"}, "price_eur_day=2.00 tolls_billed_post_rental=Y"),
    )
    assert float(answer_off_topic_drift(tolls, embed).value) < 0.5


def test_prevalence_given_for_incidence_is_another_rate(embed: Embed) -> None:
    # New cases per year asked; the share of people who have the disease answered.
    rate = case(
        "What was the incidence of asthma in children under 12 in 2024, per 1,000?",
        "Asthma prevalence in children under 12 was 6.1% in 2024 (4,210 of 69,000 on the register had a diagnosis). "
        "Boys were higher than girls.",
        call("sql_query", {"sql": "SELECT COUNT(*) FILTER (WHERE has_asthma), COUNT(*) FROM kids"}, "count | count\n4210 | 69000"),
    )
    assert float(answer_task_understanding_failure(rate, embed).value) >= 0.5
