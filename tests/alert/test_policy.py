"""The pure decision: policies at and beside their thresholds, floors, shadow, de-duplication."""

from __future__ import annotations

import pytest

from semloop.alert import (
    DEFAULT_POLICIES,
    AlertPolicy,
    LastAlert,
    PastSignal,
    RunOutcome,
    UndecidedSignal,
    decide,
    policy_holds,
)
from semloop.detect import DETECTORS

CONS = AlertPolicy("consecutive", 2, 10)
FREQ = AlertPolicy("frequency", 3, 10)
IMM = AlertPolicy("immediate")


def signal(run_id: str = "r0", *, source: str = "structural", confidence: float = 0.8,
           shadow: bool = False, failure_type: str = "TOOL_LOOP") -> UndecidedSignal:
    return UndecidedSignal(1, "org", "acme", run_id, "bot", "v1", failure_type, source, "HIGH",
                        confidence, {"steps": [1]}, 1, shadow, 0.0)


def history(flags: str, *, start: float = 100.0) -> list[RunOutcome]:
    """``"FFC"``: newest first, F = had the failure, C = clean; run i ended at start - i."""
    return [RunOutcome(f"r{i}", start - i,
                       (PastSignal("structural", 0.8, False),) if f == "F" else ())
            for i, f in enumerate(flags)]


@pytest.mark.parametrize(("policy", "flags", "holds"), [
    (IMM, "F", True),
    (IMM, "C", False),
    (CONS, "FF", True),             # at the threshold
    (CONS, "FFF", True),
    (CONS, "F", False),             # one short
    (CONS, "FCF", False),           # two of three, not in a row
    (CONS, "CFF", False),           # the newest run is clean
    (FREQ, "FCFCF", True),          # 3 of the last 5
    (FREQ, "FCFCCCCCCC", False),    # 2 of 10
    (FREQ, "FCFCCCCCCCF", False),   # the third is the 11th run: outside the window
    (FREQ, "FCCCCCCCFF", True),     # the third is the 10th run: inside
    (AlertPolicy("frequency", 2, 3), "FCF", True),
    (AlertPolicy("frequency", 2, 3), "FCCF", False),
    (AlertPolicy("off"), "FFFF", False),
])
def test_policy_at_and_beside_its_threshold(policy: AlertPolicy, flags: str, holds: bool) -> None:
    assert policy_holds(policy, [f == "F" for f in flags]) is holds


def test_every_detector_has_the_reference_policy() -> None:
    assert set(DETECTORS) <= set(DEFAULT_POLICIES)
    assert DEFAULT_POLICIES["SLOW_STEP"] == FREQ
    assert DEFAULT_POLICIES["TOOL_LOOP"] == CONS
    assert DEFAULT_POLICIES["PROMPT_INJECTION_SIGNAL"] == IMM
    modes = [p.mode for name, p in DEFAULT_POLICIES.items() if name in DETECTORS and
             name != "AGENT_LOOP"]
    # The reference's 23 (7 / 8 / 8), then the newer eleven (3 consecutive, 8 immediate).
    assert (modes.count("frequency"), modes.count("consecutive"), modes.count("immediate")) == (
        7, 8 + 3, 8 + 8)
    assert DEFAULT_POLICIES["SILENT_TRUNCATION"] == CONS
    assert DEFAULT_POLICIES["UNGROUNDED_DESTINATION"] == IMM


def test_decide_counts_what_the_policy_saw() -> None:
    d = decide(signal(), CONS, history("FFC"), None, now=0.0)
    assert d.decision == "alerted"
    assert d.policy == "consecutive 2/10"
    assert d.counts == {"policy": "consecutive", "threshold": 2, "window": 10,
                        "matching_runs": 2, "runs_considered": 3}
    d = decide(signal(), CONS, history("FCF"), None, now=0.0)
    assert (d.decision, d.counts["matching_runs"]) == ("below_policy", 1)


def test_shadow_is_never_alerted() -> None:
    d = decide(signal(shadow=True), IMM, history("F"), None, now=0.0)
    assert d.decision == "shadow"


def test_semantic_signals_below_their_floor_are_not_alerted() -> None:
    assert decide(signal(source="semantic", confidence=0.59), IMM, history("F"), None,
                  now=0.0).decision == "below_floor"
    assert decide(signal(source="semantic", confidence=0.6), IMM, history("F"), None,
                  now=0.0).decision == "alerted"
    # Structural signals have no floor: their detectors already decided.
    assert decide(signal(confidence=0.3), IMM, history("F"), None, now=0.0).decision == "alerted"
    strict = AlertPolicy("immediate", confidence_floor=0.7)
    assert decide(signal(source="semantic", confidence=0.65), strict, history("F"), None,
                  now=0.0).decision == "below_floor"


def test_below_floor_and_shadow_signals_do_not_count_towards_a_streak() -> None:
    weak = [RunOutcome("r0", 100.0, (PastSignal("semantic", 0.9, False),)),
            RunOutcome("r1", 99.0, (PastSignal("semantic", 0.5, False),)),
            RunOutcome("r2", 98.0, (PastSignal("structural", 0.9, True),))]
    d = decide(signal(source="semantic", confidence=0.9), CONS, weak, None, now=0.0)
    assert (d.decision, d.counts["matching_runs"]) == ("below_policy", 1)


def test_an_open_alert_deduplicates_until_the_cooldown() -> None:
    last = LastAlert(7, "r1", created_at=1000.0, run_ended_at=99.0, severity="HIGH")
    d = decide(signal(), CONS, history("FFF"), last, now=1000.0 + 3599, cooldown_s=3600)
    assert d.decision == "deduplicated"
    assert d.counts["open_alert"] == 7
    d = decide(signal(), CONS, history("FFF"), last, now=1000.0 + 3600, cooldown_s=3600)
    assert d.decision == "alerted"


def test_an_open_alert_closes_when_the_condition_clears() -> None:
    # r3 alerted (ended 97); r2 was clean, so the streak r1-r0 is a new incident.
    last = LastAlert(7, "r3", created_at=1000.0, run_ended_at=97.0, severity="HIGH")
    assert decide(signal(), CONS, history("FFCF"), last, now=1001.0).decision == "alerted"
    # Immediate: any clean run in between clears it; none means still open.
    assert decide(signal(), IMM, history("FCF"), LastAlert(7, "r2", 1000.0, 98.0, "HIGH"),
                  now=1001.0).decision == "alerted"
    assert decide(signal(), IMM, history("FF"), LastAlert(7, "r1", 1000.0, 99.0, "HIGH"),
                  now=1001.0).decision == "deduplicated"
    # Frequency: r4 alerted on r4-r6; at every run since, 3 of the last 10 still had it,
    # clean runs r3 and r1 included: still open.
    assert decide(signal(), FREQ, history("FCFCFFF"), LastAlert(7, "r4", 1000.0, 96.0, "HIGH"),
                  now=1001.0).decision == "deduplicated"
    # ...but once a run's window drops below 3, the next 3-of-10 is a new alert.
    assert decide(signal(), FREQ, history("FFCFCCCCCCCCFFF"),
                  LastAlert(7, "r12", 1000.0, 88.0, "HIGH"), now=1001.0).decision == "alerted"


def test_a_cut_history_never_clears_on_runs_it_cannot_judge() -> None:
    last = LastAlert(7, "old", created_at=1000.0, run_ended_at=0.0, severity="HIGH")
    # Complete: the agent's first runs really were too few; the clean r1 clears it.
    assert decide(signal(), IMM, history("FC"), last, now=1001.0).decision == "alerted"
    # Frequency, cut at a limit: the run at r1 cannot see a full window, so it stays open.
    assert decide(signal(), FREQ, history("FFF"), last, now=1001.0,
                  complete=False).decision == "deduplicated"
    assert decide(signal(), FREQ, history("FFF"), last, now=1001.0,
                  complete=True).decision == "alerted"


def test_a_worse_signal_than_the_open_alert_escalates() -> None:
    last = LastAlert(7, "r1", created_at=1000.0, run_ended_at=99.0, severity="MEDIUM")
    d = decide(signal(), IMM, history("FF"), last, now=1001.0)  # HIGH over an open MEDIUM
    assert (d.decision, d.counts["escalated_from"]) == ("alerted", 7)
    assert "escalated from MEDIUM to HIGH" in d.reason
    same = LastAlert(7, "r1", created_at=1000.0, run_ended_at=99.0, severity="HIGH")
    assert decide(signal(), IMM, history("FF"), same, now=1001.0).decision == "deduplicated"
    worse = LastAlert(7, "r1", created_at=1000.0, run_ended_at=99.0, severity="CRITICAL")
    assert decide(signal(), IMM, history("FF"), worse, now=1001.0).decision == "deduplicated"


def test_older_news_than_the_open_alert_is_deduplicated() -> None:
    last = LastAlert(7, "later", created_at=1000.0, run_ended_at=200.0, severity="HIGH")
    assert decide(signal(), IMM, history("FCF"), last, now=1001.0).decision == "deduplicated"


def test_the_signal_is_its_own_newest_run_even_if_the_store_missed_it() -> None:
    d = decide(signal("new"), CONS, history("F"), None, now=0.0)
    assert (d.decision, d.counts["matching_runs"]) == ("alerted", 2)
