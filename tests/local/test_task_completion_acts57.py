"""TASK_COMPLETION on misses of blind48 … blind56b: acts a service is asked for that the act
lexicon lacked (waive, reverse, unlock, pause, withdraw …; not the ones that as often name a
thing, as "reservation" or a network switch do); an act asked in a later
clause as a causative ("…, please get it waived", "have the charge reversed"); an answer
that ends announcing its next step ("Let me pull the rest of the year."); a reply of
generalities about the user's own record, whose passive "will be corrected" claims no work;
and number words ("double-checking", "a three-day pass") read as no count or as one. Each
tested in a domain of its own here; the answer that does or reports the work stays quiet."""

from __future__ import annotations

import pytest

from semloop.judge.local._answerer import Embed
from semloop.judge.local._completion import _asks_action, answer_task_completion
from semloop.judge.local._task import _imperative

from .conftest import call, case

_FEES = call("get_fees", {"account": "AC-7731"}, {"fees": [{"id": "FE-12", "type": "overdraft", "amount": 35.0,
                                                           "date": "2026-02-03"}]})
_ROOMS = call("check_room", {"room": "Studio B", "date": "2026-05-14"}, {"room": "Studio B", "available": True,
                                                                           "capacity": 12})


@pytest.mark.parametrize("verb", ["waive", "reverse", "unlock", "pause", "withdraw", "reissue", "rebook",
                                  "arrange", "revoke", "unsubscribe"])
def test_service_acts_are_acts(verb: str) -> None:
    assert _asks_action(f"Please {verb} it for me today.")


@pytest.mark.parametrize(("clause", "act"), [
    ("please get it waived", "waiv"),
    ("have the duplicate charge reversed", "revers"),
    ("can you get my card unlocked", "unlock"),
])
def test_a_causative_asks_the_participles_act(clause: str, act: str) -> None:
    assert _imperative(clause) == act


def test_a_causative_of_no_act_asks_none() -> None:
    assert _imperative("get it explained") is None


def test_a_tool_named_by_a_noun_of_an_act_left_out_only_looks() -> None:
    from semloop.judge.local._completion import _only_looks
    assert _only_looks([call("reservation", {"ref": "HT-220"}, {"ref": "HT-220", "nights": 3})])


def test_an_act_asked_in_a_later_clause_is_asked() -> None:
    assert _asks_action("The overdraft fee hit while my salary was late, please get it waived.")
    assert not _asks_action("The overdraft fee hit while my salary was late, I was surprised.")


def test_asked_to_waive_a_run_that_only_looked_fires(embed: Embed) -> None:
    run = case("The overdraft fee hit while my salary was late, please get it waived.",
               "I can see the $35.00 overdraft fee from 3 February on account AC-7731. I'll put in a waiver "
               "request for you on goodwill grounds.", _FEES)
    assert answer_task_completion(run, embed).value >= 0.5


def test_a_fee_waived_by_a_call_is_done(embed: Embed) -> None:
    run = case("The overdraft fee hit while my salary was late, please get it waived.",
               "Done: the $35.00 overdraft fee from 3 February is waived and refunded to AC-7731.",
               _FEES, call("waive_fee", {"fee": "FE-12"}, {"waived": True, "refund": 35.0}))
    assert answer_task_completion(run, embed).value < 0.5


def test_asked_to_rebook_a_run_that_only_checked_fires(embed: Embed) -> None:
    run = case("Rebook our podcast recording into Studio B on 14 May, 10 people.",
               "Studio B is free on 14 May and holds 12, so your group of 10 fits.", _ROOMS)
    assert answer_task_completion(run, embed).value >= 0.5


def test_a_question_about_a_room_is_answered_by_the_check(embed: Embed) -> None:
    run = case("Is Studio B free on 14 May for 10 people?",
               "Yes, Studio B is free on 14 May and holds 12, so your group of 10 fits.", _ROOMS)
    assert answer_task_completion(run, embed).value < 0.5


_USAGE = call("get_usage", {"account": "EL-4410", "from": "2026-01", "to": "2026-06"},
              {"months": 6, "total_kwh": 1620})


def test_an_answer_that_ends_announcing_its_next_step_stalled(embed: Embed) -> None:
    run = case("What was my total gas usage for 2026? One figure, for my landlord.",
               "So far, January to June comes to 1,620 kWh. Let me fetch July to December next.", _USAGE)
    assert answer_task_completion(run, embed).value >= 0.5


def test_an_answer_that_ends_on_its_result_is_done(embed: Embed) -> None:
    run = case("What was my gas usage from January to June?",
               "January to June comes to 1,620 kWh. Let me know if you need it month by month.", _USAGE)
    assert answer_task_completion(run, embed).value < 0.5


def test_a_reply_of_generalities_about_the_users_own_record_is_generic(embed: Embed) -> None:
    run = case("Why did my pension contribution for March bounce? Member no. 55-813-02.",
               "Contributions can be returned for a number of reasons. Sometimes the payment details are out of "
               "date, or the scheme may be updating its records. Any returned amount will be collected again "
               "in the next cycle once the details are confirmed.")
    assert answer_task_completion(run, embed).value >= 0.5


def test_a_generality_beside_the_records_answer_is_no_generic_reply(embed: Embed) -> None:
    run = case("Why did my pension contribution for March bounce? Member no. 55-813-02.",
               "Your March contribution for 55-813-02 bounced because the bank mandate was cancelled on 2 March. "
               "Contributions can be returned for a number of reasons, but here it is the mandate.",
               call("get_contribution", {"member": "55-813-02", "month": "2026-03"},
                    {"status": "returned", "reason": "mandate cancelled", "mandate_cancelled": "2026-03-02"}))
    assert answer_task_completion(run, embed).value < 0.5


def test_double_checking_and_a_single_fee_state_no_count() -> None:
    from semloop.judge.local._claims import quantities
    assert quantities("I'd recommend double-checking the reference.") == []
    assert [q.value for q in quantities("a three-day pass and a double room")] == [3.0, 2.0]


def test_a_hand_off_announced_last_is_no_stall(embed: Embed) -> None:
    run = case("Has my refund gone through? And I'd like to speak to someone about disputing the fee.",
               "Yes: your refund of £42.10 was issued on 3 May and reaches your card in 3 to 5 days. For the fee "
               "dispute, our disputes team handles those. Let me transfer you now.",
               call("get_refund", {"order": "OR-5521"}, {"amount": 42.10, "issued": "2026-05-03", "status": "issued"}),
               call("transfer_to_human_agents", {"summary": "fee dispute"}, {"status": "transferred"}))
    assert answer_task_completion(run, embed).value < 0.5


def test_another_channel_after_a_reasoned_refusal_is_no_deflection(embed: Embed) -> None:
    run = case("Could you cancel my gym membership today?",
               "I'm unable to cancel a membership from chat because our policy requires the account holder's "
               "signature on the cancellation form. You can sign it at the front desk, or post it to us.")
    assert answer_task_completion(run, embed).value < 0.5


def test_another_channel_with_no_reason_is_still_a_deflection(embed: Embed) -> None:
    run = case("Could you cancel my gym membership today?",
               "For cancellations, please contact the front desk or call our member line.")
    assert answer_task_completion(run, embed).value >= 0.5


def test_a_hand_off_announced_before_the_last_step_is_no_stall(embed: Embed) -> None:
    run = case("My daughter has a fever of 40 and a rash that doesn't fade. Can I book her in today?",
               "With a rash that doesn't fade under a glass, please don't wait for an appointment: call 999 or go "
               "to A&E now. I'm going to transfer you to a nurse so they can stay with you on the line. Let me "
               "proceed with the transfer.")
    assert answer_task_completion(run, embed).value < 0.5
