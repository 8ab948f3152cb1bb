"""HALLUCINATION on kinds of error outside authors write in many domains: a record's state
claimed as reached when its status falls short of it, an action claimed where every call
only read (a namespaced tool's name too), a deed's agent named for a person who held
another role. Each with a careful look-alike that must not fire."""

from __future__ import annotations

from semloop.judge.local._answerer import Embed

from .test_grounding_records import call, evidence


def test_a_state_reached_is_checked_against_the_record_s_status(embed: Embed) -> None:
    kiln = call("get_firing", {"firing_id": "KF-118"}, {"firing_id": "KF-118", "kiln": "Kiln 2",
                                                         "status": "awaiting_cooldown", "pieces": 14})
    assert evidence(embed, "Firing KF-118 is complete, so you can collect your 14 pieces.", [kiln])["negation"] == 1
    assert evidence(embed, "Firing KF-118 is finished but still awaiting cooldown.", [kiln]).get("negation", 0) == 0
    assert evidence(embed, "Once it has cooled, KF-118 will be complete.", [kiln]).get("negation", 0) == 0
    done = call("get_firing", {"firing_id": "KF-120"}, {"firing_id": "KF-120", "status": "completed", "pieces": 9})
    assert evidence(embed, "Firing KF-120 is completed; all 9 pieces are ready.", [done]).get("negation", 0) == 0


def test_a_key_named_in_the_clause_is_the_state_s_subject(embed: Embed) -> None:
    seed = call("get_account", {"member": "SB-3301"}, {"member": "SB-3301", "deposits": "suspended",
                                                       "estimated_completion": "2027-01-10"})
    assert evidence(embed, "Deposits on your account are active again.", [seed])["negation"] == 1
    # A key's words give no state: "estimated completion" is no "completed".
    report = call("get_report", {"id": "SB-3302"}, {"id": "SB-3302", "status": "in_progress",
                                                    "estimated_completion": "2027-01-10"})
    assert evidence(embed, "Report SB-3302 is still in progress; it should be complete by January 10.",
                    [report]).get("negation", 0) == 0


def test_an_action_claimed_where_a_namespaced_call_only_read(embed: Embed) -> None:
    lookup = call("seedbank.get_order", {"order_id": "SO-77"}, {"order_id": "SO-77", "packets": 6})
    assert evidence(embed, "Done. I've credited the two missing packets to SO-77.", [lookup])["offered"] == 1
    assert evidence(embed, "Done — SO-77 has been credited for the two missing packets.", [lookup])["offered"] == 1
    credit = call("seedbank.credit_order", {"order_id": "SO-77"}, {"order_id": "SO-77", "credited": 2})
    assert evidence(embed, "Done. I've credited the two missing packets to SO-77.", [lookup, credit]).get(
        "offered", 0) == 0


def test_a_deed_s_agent_held_by_another_than_the_person_named(embed: Embed) -> None:
    loan = call("get_loan", {"loan_id": "TL-40"}, {"loan_id": "TL-40", "requested_by": "Nora Quist",
                                                   "renewed_by": "desk:alan.v", "renewed_on": "2026-11-02"})
    assert evidence(embed, "Loan TL-40 was renewed by Nora Quist on November 2.", [loan])["bound"] == 1
    assert evidence(embed, "Nora Quist requested TL-40; the desk renewed it on November 2.", [loan]).get(
        "bound", 0) == 0
    assert evidence(embed, "Loan TL-40 was requested by Nora Quist.", [loan]).get("bound", 0) == 0


def test_a_person_named_with_another_surname_is_another_person(embed: Embed) -> None:
    crew = call("get_crew", {"job": "SC-12"}, {"job": "SC-12", "supervisor": "Marta Kowal",
                                                "rigger": "Owen Pryce"})
    assert evidence(embed, "Your supervisor on job SC-12 is Marta Kowalczyk.", [crew])["names"] >= 1
    assert evidence(embed, "Your supervisor on job SC-12 is Marta Kowal.", [crew]).get("names", 0) == 0
