"""detectors.yml: defaults, per-agent overrides, shadow, and a clear error for every
bad value, naming the file and the key path."""

from __future__ import annotations

from pathlib import Path

import pytest

from semloop import ConfigError
from semloop.detect import DETECTORS, DetectorConfig, load_config

ROOT = Path(__file__).resolve().parents[2]


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "detectors.yml"
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults_when_empty(tmp_path: Path) -> None:
    config = load_config(_write(tmp_path, ""))
    settings = config.for_agent("anyone")
    assert set(settings) == set(DETECTORS)
    assert settings["TOOL_LOOP"].params == {"threshold": 3, "window": 5, "max_cycle": 3}
    assert settings["TOOL_LOOP"].enabled and not settings["TOOL_LOOP"].shadow


def test_default_and_agent_sections_merge(tmp_path: Path) -> None:
    config = load_config(_write(tmp_path, """
default:
  shadow: [TOOL_ARGUMENT_FABRICATION]
  TOOL_LOOP: {threshold: 4}
  SLOW_STEP: {enabled: false}
  SESSION_LATENCY:
    static_s: 120          # an int for a float parameter is fine
agents:
  support-bot:
    TOOL_LOOP: {window: 8}
    SLOW_STEP: {enabled: true, shadow: true}
"""))
    base = config.for_agent("other")
    bot = config.for_agent("support-bot")
    assert base["TOOL_LOOP"].params == {"threshold": 4, "window": 5, "max_cycle": 3}
    assert bot["TOOL_LOOP"].params == {"threshold": 4, "window": 8, "max_cycle": 3}
    assert not base["SLOW_STEP"].enabled
    assert bot["SLOW_STEP"].enabled and bot["SLOW_STEP"].shadow
    assert base["SESSION_LATENCY"].params["static_s"] == 120.0
    assert isinstance(base["SESSION_LATENCY"].params["static_s"], float)
    # The newer detectors that start in shadow stay there unless a section promotes them.
    starts = {n for n, d in DETECTORS.items() if d.shadow}
    assert starts == {"INSTRUMENTATION_DEGRADED", "OVERSIZED_TOOL_ARGUMENTS",
                      "SCATTERSHOT_TOOL_USE", "UNRESOLVED_AMBIGUITY"}
    assert config.shadow("other") == {"TOOL_ARGUMENT_FABRICATION"} | starts
    assert config.shadow("support-bot") == {"TOOL_ARGUMENT_FABRICATION", "SLOW_STEP"} | starts
    assert config.agents == ["support-bot"]


def test_the_example_file_is_valid() -> None:
    config = load_config(ROOT / "docs" / "detectors.example.yml")
    assert config.for_agent("x")


@pytest.mark.parametrize(("text", "key", "words"), [
    ("default:\n  TOOL_LUP: {threshold: 3}\n", "default.TOOL_LUP", "unknown detector"),
    ("default:\n  TOOL_LOOP: {treshold: 3}\n", "default.TOOL_LOOP.treshold", "unknown setting"),
    ("default:\n  TOOL_LOOP: {threshold: three}\n", "default.TOOL_LOOP.threshold",
     "must be a number"),
    ("default:\n  TOOL_LOOP: {threshold: true}\n", "default.TOOL_LOOP.threshold",
     "must be a number"),
    ("default:\n  TOOL_LOOP: {threshold: 2.5}\n", "default.TOOL_LOOP.threshold",
     "whole number"),
    ("default:\n  TOOL_LOOP: {threshold: 1}\n", "default.TOOL_LOOP.threshold", "≥ 2"),
    ("default:\n  RAG_EMPTY_RETRIEVAL: {min_score: 1.5}\n",
     "default.RAG_EMPTY_RETRIEVAL.min_score", "≤ 1"),
    ("default:\n  SLOW_STEP: {inflation: .nan}\n", "default.SLOW_STEP.inflation", "finite"),
    ("default:\n  TOOL_LOOP: {enabled: 'yes'}\n", "default.TOOL_LOOP.enabled", "true or false"),
    ("default:\n  RETRIEVED_CONTENT_INJECTION: {detect_behavior_deviation: 1}\n",
     "default.RETRIEVED_CONTENT_INJECTION.detect_behavior_deviation", "true or false"),
    ("default:\n  shadow: [NOPE]\n", "default.shadow[0]", "unknown detector"),
    ("default:\n  shadow: TOOL_LOOP\n", "default.shadow", "list"),
    ("default:\n  shadow: [TOOL_LOOP]\n  TOOL_LOOP: {shadow: false}\n",
     "default.TOOL_LOOP.shadow", "contradicts"),
    ("default:\n  TOOL_LOOP: 3\n", "default.TOOL_LOOP", "mapping of settings"),
    ("agents:\n  bot:\n    TOOL_LOOP: {window: 0}\n", "agents.bot.TOOL_LOOP.window", "≥ 2"),
    ("agents: [bot]\n", "agents", "mapping of agent ids"),
    ("defaults:\n  TOOL_LOOP: {}\n", "defaults", "unknown section"),
    ("default:\n  TOOL_LOOP: {threshold: 3}\n  TOOL_LOOP: {threshold: 4}\n", "TOOL_LOOP",
     "duplicate key"),
])
def test_bad_values_name_the_file_and_key(tmp_path: Path, text: str, key: str,
                                          words: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert info.value.key == key
    assert info.value.source == str(path)
    assert words in str(info.value)
    assert str(path) in str(info.value) and key in str(info.value)


def test_invalid_yaml_names_the_line(tmp_path: Path) -> None:
    path = _write(tmp_path, "default:\n  TOOL_LOOP: {threshold: 3\n  x: [\n")
    with pytest.raises(ConfigError, match=r"not valid YAML at line \d+"):
        load_config(path)


def test_not_a_mapping_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="must hold a mapping"):
        load_config(_write(tmp_path, "- a\n- b\n"))
    with pytest.raises(ConfigError, match="cannot read the file"):
        load_config(tmp_path / "missing.yml")


def test_programmatic_config_is_validated_too() -> None:
    with pytest.raises(ConfigError, match="default.TOOL_LOOP.window"):
        DetectorConfig({"TOOL_LOOP": {"window": "five"}})
    assert DetectorConfig.from_dict(None).for_agent("a")["TOOL_LOOP"].params["window"] == 5


def test_a_pack_layers_over_the_default_section_and_an_agent_section_wins() -> None:
    from semloop.detect import PACKS

    config = DetectorConfig.from_dict({
        "default": {"UNGROUNDED_DESTINATION": {"allowlisted_domains": ["corp.com"]}},
        "agents": {"mailer": {"UNGROUNDED_DESTINATION": {"bare_domains": False}},
                   "bot": {"TOOL_LOOP": {"threshold": 4}}}})
    packed = config.with_packs(["strict-egress", "preview"])
    bot = packed.for_agent("bot")
    assert bot["UNGROUNDED_DESTINATION"].params["bare_domains"] is True  # the pack
    assert bot["UNGROUNDED_DESTINATION"].params["allowlisted_domains"] == ("corp.com",)
    assert bot["TOOL_LOOP"].params["threshold"] == 4
    assert packed.for_agent("mailer")["UNGROUNDED_DESTINATION"].params["bare_domains"] is False
    assert not packed.shadow("anyone") & set(PACKS["preview"].settings)
    # The original is unchanged, and no packs is the same config.
    assert config.for_agent("bot")["UNGROUNDED_DESTINATION"].params["bare_domains"] is False
    assert config.shadow() >= set(PACKS["preview"].settings)
    assert config.with_packs([]) is config
    with pytest.raises(ConfigError, match="unknown pack 'voice'"):
        config.with_packs(["voice"])


def test_every_pack_is_a_valid_section() -> None:
    from semloop.detect import PACKS

    for name in PACKS:
        DetectorConfig().with_packs([name]).settings()
