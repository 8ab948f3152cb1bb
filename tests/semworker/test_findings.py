"""Recurring issues, false-positive feedback and second opinions, pure and in the worker."""

from __future__ import annotations

from semloop.evaluate.findings import (
    GroupView,
    TokenSimilarity,
    apply_feedback,
    downgrade,
    match_group,
    representation,
)
from semloop.store import Store

from .helpers import Judge, add_run, fixed, semantic_signals, worker

REFUND_A = "The agent refused the refund although order 42 is eligible for a refund."
REFUND_B = "Refund refused: order 43 was eligible, yet the agent declined the refund."
SHIPPING = "It quoted a shipping date the carrier tracking never mentioned."


def test_rewordings_of_one_fault_match_and_another_fault_does_not() -> None:
    tokens = TokenSimilarity()
    existing = [GroupView(1, representation(REFUND_A), None)]
    assert match_group(representation(REFUND_B), [], existing, tokens) == existing[0]
    assert match_group(representation(SHIPPING), [], existing, tokens) is None


def test_feedback_suppresses_or_lowers_from_three_marks() -> None:
    assert apply_feedback(0.9, 2, enabled=True, auto_suppress=True).confidence == 0.9
    assert apply_feedback(0.9, 3, enabled=True, auto_suppress=True).confidence is None
    lowered = apply_feedback(0.9, 3, enabled=True, auto_suppress=False)
    assert lowered.confidence == 0.6 and "lowered" in (lowered.reason or "")
    assert apply_feedback(0.9, 9, enabled=False, auto_suppress=True).confidence == 0.9


def test_downgrade_drops_one_band() -> None:
    assert [downgrade(s) for s in ("CRITICAL", "HIGH", "MEDIUM", "LOW")] == [
        "HIGH", "MEDIUM", "LOW", "LOW"]


def _reasoned(store: Store, org: str, runs: dict[str, str]) -> None:
    for run_id, why in runs.items():
        add_run(store, org, run_id, question=why)


def _by_question() -> Judge:
    return Judge(lambda state, _kind: (0.9, str(state["input"])))


def test_findings_group_into_recurring_issues(store: Store) -> None:
    org = store.create_org("acme")
    _reasoned(store, org, {"a": REFUND_A, "b": REFUND_B, "c": SHIPPING})
    worker(store, _by_question()).drain()
    issues = store.recurring_issues(org)
    assert sorted(i["run_count"] for i in issues) == [1, 2]
    refund = next(i for i in issues if i["run_count"] == 2)
    assert refund["evaluator"] == "TASK_COMPLETION" and refund["agent_id"] == "support"
    assert refund["first_seen"] <= refund["last_seen"]


def _signal_id(store: Store, org: str, run_id: str) -> int:
    page = store.list_signals(org, limit=50, run_id=run_id)
    return next(s.id for s in page.items if s.signal.source == "semantic")


def test_three_false_positive_marks_suppress_later_findings(store: Store) -> None:
    org = store.create_org("acme")
    store.update_org_semantics(org, feedback_enabled=True, auto_suppress=True)
    _reasoned(store, org, {f"r{i}": REFUND_A for i in range(3)})
    semantic = worker(store, _by_question())
    semantic.drain()
    for i in range(3):
        assert store.add_feedback(org, _signal_id(store, org, f"r{i}"), "false_positive")
    add_run(store, org, "later", question=REFUND_B)
    semantic.drain()
    assert semantic_signals(store, org, "later") == []
    [entry] = store.evaluations(org, "later")
    assert entry["fired"] is True  # judged and logged, only the finding is suppressed


def test_without_auto_suppress_the_confidence_is_lowered(store: Store) -> None:
    org = store.create_org("acme")
    store.update_org_semantics(org, feedback_enabled=True)
    _reasoned(store, org, {f"r{i}": REFUND_A for i in range(3)})
    semantic = worker(store, _by_question())
    semantic.drain()
    for i in range(3):
        store.add_feedback(org, _signal_id(store, org, f"r{i}"), "false_positive", "fine")
    add_run(store, org, "later", question=REFUND_B)
    semantic.drain()
    [later] = semantic_signals(store, org, "later")
    assert later.confidence == 0.6 and later.severity == "MEDIUM"
    assert "false-positive" in later.evidence["feedback"]


def test_feedback_refuses_structural_and_unknown_signals(store: Store) -> None:
    org = store.create_org("acme")
    assert store.add_feedback(org, 12345, "confirmed") is None


def test_a_disagreeing_second_judge_drops_the_band_and_both_calls_are_logged(
        store: Store) -> None:
    org = store.create_org("acme")
    add_run(store, org, "r")
    from semloop.evaluate import EvaluatorsConfig

    only = EvaluatorsConfig.from_dict({n: {"enabled": n == "HALLUCINATION"} for n in (
        "HALLUCINATION", "TASK_COMPLETION", "TASK_UNDERSTANDING_FAILURE", "OFF_TOPIC_DRIFT",
        "AGENT_LOOP", "USER_FRUSTRATION", "CONFUSION_LOOP", "SYCOPHANCY_SIGNAL")})
    second = Judge(lambda _s, _k: (0.2, "Supported by the context."), name="second")
    worker(store, fixed(0.9, "Invented a refund policy."), evaluators=only,
           second_judge=second).drain()
    [finding] = semantic_signals(store, org, "r")
    # CRITICAL (0.9) asked again too, unlike Dunetrace: the disagreement drops it to HIGH.
    assert finding.severity == "HIGH"
    assert finding.evidence["second_opinion"]["agreed"] is False
    log = store.evaluations(org, "r")
    assert [e["second_opinion"] for e in log] == [False, True]
    assert {e["judge"] for e in log} == {"scripted", "second"}


def test_the_embedded_judges_embedder_joins_paraphrases_and_splits_faults() -> None:
    from semloop.evaluate.findings import EmbeddingSimilarity, default_similarity

    similarity = default_similarity()
    assert isinstance(similarity, EmbeddingSimilarity)  # the local extra is installed here
    faults = [
        (REFUND_A, REFUND_B),
        (SHIPPING, "The answer states a delivery date that appears nowhere in the tracking."),
        ("The user repeats the refund request with growing anger.",
         "The customer is increasingly annoyed, asking again and again for the refund."),
    ]
    groups: list[GroupView] = []
    for n, (first, second) in enumerate(faults):
        text = representation(first)
        [vector] = similarity.vectors([text])
        assert match_group(text, vector, groups, similarity) is None  # a new fault
        groups.append(GroupView(n, text, vector))
        again = representation(second)
        [other] = similarity.vectors([again])
        assert match_group(again, other, groups, similarity) == groups[n]
