"""Adaptive sampling: the priority rules, the stable fine-grained bucket, the YAML file."""

from __future__ import annotations

from pathlib import Path

import pytest

from semloop import ConfigError
from semloop.evaluate.sampling import (
    DEFAULT_SAMPLING_CONFIG,
    AgentSemantics,
    SamplingConfig,
    bucket_of,
    load_sampling_config,
    sample_conversation,
    sample_run,
)
from semloop.events import Event, Run

ROOT = Path(__file__).resolve().parents[2]


def _run(run_id: str, *, retrieval: bool = False) -> Run:
    events = [Event("run.started", run_id, "a", 0, 1.0, {"input_text": "q"})]
    if retrieval:
        events.append(Event("retrieval.called", run_id, "a", 1, 2.0, {"index_name": "kb"}))
    events.append(Event("run.completed", run_id, "a", 2, 3.0, {}))
    return Run.from_events(events)


def test_rules_apply_in_priority_order() -> None:
    config = SamplingConfig(baseline_rate=0.0, retrieval_rate=0.0)
    run = _run("r1", retrieval=True)
    assert sample_run(run, config, AgentSemantics(sample_rate=0.0, semantic_critical=True),
                      structural=True).reason == "structural_signal"
    critical = sample_run(run, config, AgentSemantics(sample_rate=0.0, semantic_critical=True),
                          structural=False)
    assert (critical.reason, critical.sampled) == ("semantic_critical", True)
    override = sample_run(run, config, AgentSemantics(sample_rate=0.0), structural=False)
    assert (override.reason, override.sampled) == ("agent_override", False)
    assert sample_run(run, config, AgentSemantics(), structural=False).reason == "retrieval"
    assert sample_run(_run("r2"), config, AgentSemantics(), structural=False).reason == "baseline"


def test_the_bucket_is_stable_and_finer_than_one_percent() -> None:
    assert bucket_of("run-1") == bucket_of("run-1")
    buckets = {bucket_of(f"run-{i}") for i in range(2000)}
    # 2000 ids in 100 integer steps would collide constantly; these do not.
    assert len(buckets) == 2000
    assert all(0.0 <= b < 1.0 for b in buckets)
    share = sum(b < 0.05 for b in buckets) / len(buckets)
    assert 0.03 < share < 0.07  # the 5 % baseline samples about 5 %


def test_a_rate_between_integer_percents_is_honoured() -> None:
    rate = 0.125
    config = SamplingConfig(baseline_rate=rate)
    for i in range(500):
        decision = sample_run(_run(f"x{i}"), config, AgentSemantics(), structural=False)
        assert decision.sampled == (bucket_of(f"x{i}") < rate)


def test_conversations_need_three_runs_and_stay_sampled() -> None:
    config = SamplingConfig(conversation_evaluation_rate=1.0)
    assert sample_conversation("c", 2, config).reason == "too_few_runs"
    assert not sample_conversation("c", 2, config).sampled
    assert [sample_conversation("c", n, config).sampled for n in (3, 4, 9)] == [True] * 3
    none = SamplingConfig(conversation_evaluation_rate=0.0)
    assert sample_conversation("c", 5, none).reason == "not_sampled"


def test_the_shipped_file_holds_the_defaults() -> None:
    assert load_sampling_config(ROOT / DEFAULT_SAMPLING_CONFIG) == SamplingConfig()


@pytest.mark.parametrize("data, key", [({"baseline_rate": 1.5}, "baseline_rate"),
                                       ({"retrieval_rate": True}, "retrieval_rate"),
                                       ({"nope": 0.1}, "nope"),
                                       ({"min_conversation_runs": 0}, "min_conversation_runs")])
def test_bad_values_name_their_key(data: dict[str, object], key: str) -> None:
    with pytest.raises(ConfigError) as caught:
        SamplingConfig.from_dict(data, source="s.yml")
    assert caught.value.key == key
