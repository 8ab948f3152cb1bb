"""semantic-evaluators.yml: the shipped file is the defaults; every bad value names the
file and the key path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import ROOT
from semloop import ConfigError
from semloop.evaluate import EvaluatorsConfig, EvaluatorSettings, load_evaluators_config

SHIPPED = ROOT / "docs" / "config" / "semantic-evaluators.yml"


def test_the_shipped_file_says_what_the_defaults_are() -> None:
    shipped = load_evaluators_config(SHIPPED)
    assert dict(shipped.settings) == dict(EvaluatorsConfig().settings)
    assert len(shipped.settings) == 8
    hallucination = shipped.for_evaluator("hallucination")
    assert hallucination.require_second_opinion and hallucination.confidence_floor == 0.6
    assert shipped.for_evaluator("SYCOPHANCY_SIGNAL").threshold == 0.55
    assert all(s.judge == "local" and s.enabled for s in shipped.settings.values())


def test_a_section_overrides_only_what_it_names() -> None:
    config = EvaluatorsConfig.from_dict(
        {"task_completion": {"threshold": 0.7, "judge": "llm", "model": "gpt-4o-mini"},
         "CONFUSION_LOOP": None})
    settings = config.for_evaluator("TASK_COMPLETION")
    assert settings == EvaluatorSettings(threshold=0.7, judge="llm", model="gpt-4o-mini")
    assert config.for_evaluator("confusion_loop") == EvaluatorsConfig().for_evaluator(
        "CONFUSION_LOOP")


@pytest.mark.parametrize(("data", "key", "message"), [
    ({"HALUCINATION": {}}, "HALUCINATION", "unknown evaluator"),
    ({"HALLUCINATION": {"treshold": 0.5}}, "HALLUCINATION.treshold", "unknown key"),
    ({"HALLUCINATION": {"threshold": 1.5}}, "HALLUCINATION.threshold", "from 0 to 1"),
    ({"OFF_TOPIC_DRIFT": {"confidence_floor": "high"}}, "OFF_TOPIC_DRIFT.confidence_floor",
     "must be a number"),
    ({"AGENT_LOOP": {"threshold": True}}, "AGENT_LOOP.threshold", "must be a number"),
    ({"USER_FRUSTRATION": {"enabled": "yes"}}, "USER_FRUSTRATION.enabled", "true or false"),
    ({"CONFUSION_LOOP": {"judge": "gpt"}}, "CONFUSION_LOOP.judge", "unknown judge 'gpt'"),
    ({"HALLUCINATION": {"second_opinion_judge": "claude"}},
     "HALLUCINATION.second_opinion_judge", "unknown judge"),
    ({"TASK_COMPLETION": {"judge": "local", "model": "gpt-4o"}}, "TASK_COMPLETION.model",
     "local judge has one built-in model"),
    ({"TASK_COMPLETION": {"model": 4}}, "TASK_COMPLETION.model", "model name or null"),
    ({"SYCOPHANCY_SIGNAL": [0.6]}, "SYCOPHANCY_SIGNAL", "must be a mapping"),
    ({"hallucination": {}, "HALLUCINATION": {}}, "HALLUCINATION", "same evaluator as"),
])
def test_a_bad_value_names_the_file_and_key_path(
    tmp_path: Path, data: dict[str, Any], key: str, message: str
) -> None:
    with pytest.raises(ConfigError, match=message) as info:
        EvaluatorsConfig.from_dict(data, source="evals.yml")
    assert info.value.key == key and info.value.source == "evals.yml"
    assert str(info.value).startswith(f"evals.yml: {key}: ")


def test_a_file_that_is_not_a_mapping_or_not_yaml_names_the_file(tmp_path: Path) -> None:
    listed = tmp_path / "list.yml"
    listed.write_text("- HALLUCINATION\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="must hold a mapping") as info:
        load_evaluators_config(listed)
    assert info.value.source == str(listed)
    duplicate = tmp_path / "dup.yml"
    duplicate.write_text("HALLUCINATION: {threshold: 0.5, threshold: 0.6}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="duplicate key 'threshold'"):
        load_evaluators_config(duplicate)
    assert load_evaluators_config(_empty(tmp_path)) == EvaluatorsConfig(source=str(tmp_path / "e.yml"))


def _empty(tmp_path: Path) -> Path:
    path = tmp_path / "e.yml"
    path.write_text("# nothing set\n", encoding="utf-8")
    return path
