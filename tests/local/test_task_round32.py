"""Task rules, round b31t: a sending claimed after a run that only read (an irregular verb),
the asked act only promised after a lookup, a delivery over a channel the chat is not, and
the look-alikes that must not fire: a signature slot under a closing, a comparison drawn as a
table, a year that ends a sentence, a table's rule line."""

from __future__ import annotations

import pytest

from semloop.case import RunCase
from semloop.judge.local._answerer import Embed
from semloop.judge.local._completion import _promised_after_looking, answer_task_completion
from semloop.judge.local._understanding import answer_task_understanding_failure

from .conftest import call, case, drift_rules

_PLOTS = call("list_plots", {"site": "Elm Road"}, {"plots": [{"id": "P-12", "due_gbp": 38}, {"id": "P-19", "due_gbp": 38}]})
_HIVE = call("get_hive", {"hive": "H-4"}, {"hive": "H-4", "colony": "strong", "super_count": 2, "status": "active"})
_FEE = call("pay_fee", {"plot": "P-12"}, {"status": "paid", "receipt": "R-881"})
_RATES = call("get_rates", {"venue": "mill"}, {"packages": [{"name": "Day", "price_gbp": 900, "hours": 8},
                                                           {"name": "Evening", "price_gbp": 650, "hours": 5}]})


@pytest.mark.parametrize(("wrong", "right"), [
    # A sending claimed with an irregular verb after calls that only read.
    (case("Please email the plot invoices for Elm Road to the treasurer at allot@elmroad.org.",
          "I've sent both Elm Road invoices (P-12 and P-19, £38 each) to allot@elmroad.org.", _PLOTS),
     case("Please email the plot invoices for Elm Road to the treasurer at allot@elmroad.org.",
          "Both Elm Road invoices (P-12 and P-19, £38 each) are emailed to allot@elmroad.org.", _PLOTS,
          call("send_email", {"to": "allot@elmroad.org", "attachments": ["P-12", "P-19"]}, {"status": "sent"}))),
    # The act only promised after the lookup.
    (case("Please deactivate hive H-4 on the apiary register, we merged the colony.",
          "I've found hive H-4: a strong colony with 2 supers. I'll go ahead and process the deactivation today.", _HIVE),
     case("Please deactivate hive H-4 on the apiary register, we merged the colony.",
          "Hive H-4 is deactivated on the register as of today.", _HIVE,
          call("deactivate_hive", {"hive": "H-4"}, {"status": "inactive"}))),
    # A delivery over a channel the chat is not, one part of two.
    (case("Pay the fee for plot P-12 and send me the receipt by email.",
          "Plot P-12's fee is paid (receipt R-881).", _FEE),
     case("Pay the fee for plot P-12 and send me the receipt by email.",
          "Plot P-12's fee is paid and receipt R-881 is emailed to you.", _FEE,
          call("email_receipt", {"receipt": "R-881"}, {"status": "sent"}))),
])
def test_acts_the_calls_did_not_do(embed: Embed, wrong: RunCase, right: RunCase) -> None:
    assert float(answer_task_completion(wrong, embed).value) >= 0.5
    assert float(answer_task_completion(right, embed).value) < 0.5


def test_a_promise_that_asks_first_is_no_act_put_off() -> None:
    asked = case("Please deactivate hive H-4 on the apiary register.",
                 "I've found hive H-4. I'll deactivate it once you confirm: shall I go ahead?", _HIVE)
    assert _promised_after_looking(asked) is None


def test_careful_answers_stay_clear(embed: Embed) -> None:
    signed = case("Write a short note to my neighbour Mrs Adeyemi asking if she can water my plot next week.",
                  "Here's a draft:\n\nDear Mrs Adeyemi,\nWould you be able to water my plot at Elm Road next week "
                  "while I'm away? The can is in the shed.\n\nMany thanks,\n[Your name]")
    assert float(answer_task_completion(signed, embed).value) < 0.5
    compared = case("Can you compare your Day and Evening hire packages for the mill?",
                    "| | Day | Evening |\n|---|---|---|\n| Price | £900 | £650 |\n| Hours | 8 | 5 |", _RATES)
    assert float(answer_task_completion(compared, embed).value) < 0.5
    yields = call("yields", {"plot": "P-12"}, "year,plot,kg\n2025,P-12,41\n2026,P-12,55")
    year = case("What did plot P-12 yield in 2025?", "Plot P-12 gave 41 kg in 2025. (2026 was better at 55 kg.)", yields)
    assert float(answer_task_understanding_failure(year, embed).value) < 0.5
    listed = call("plot_tasks", {"plot": "P-12"}, "task,done\nweeding,no\nmulching,yes\npruning,no")
    table = case("Which jobs on plot P-12 are still to do?",
                 "| Job | Still to do |\n|---|---|\n| Weeding | yes |\n| Pruning | yes |\n\nMulching is done.", listed)
    # The rules' view: a table's rows are facets. The topic head fires on this one
    # (docs/local-judge.md, "OFF_TOPIC_DRIFT": its known false alarms).
    assert drift_rules(table, embed) < 0.5


def test_a_clause_giving_the_users_reason_is_no_part_of_the_request(embed: Embed) -> None:
    # Two acts and a reason ("it was a gift and never used"): the answer that does one and
    # refuses the other with its rule answers the request; the reason asks nothing. (A second
    # pattern of the same name, for "because …" before a ruled-out thing, once shadowed this
    # one's and read the reason as a part left unanswered.)
    refund = call("issue_refund", {"order": "K-77"}, {"status": "processed", "amount_gbp": 54})
    asked = "Refund the kettle I returned and waive the return fee, it was a present and never opened!!"
    done = case(asked, "Your refund of £54 for the kettle is processed. I can't waive the return fee: "
                       "the policy charges it on every unsealed small-appliance return.", refund)
    assert answer_task_completion(done, embed).value < 0.5
