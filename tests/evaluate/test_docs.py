"""docs/evaluators.md names every evaluator, config key and CLI option there is."""

from __future__ import annotations

import dataclasses

import typer

from conftest import ROOT
from semloop.cli import app
from semloop.evaluate import EVALUATORS, EvaluatorSettings

DOC = (ROOT / "docs" / "evaluators.md").read_text(encoding="utf-8")
SHIPPED = (ROOT / "docs" / "config" / "semantic-evaluators.yml").read_text(encoding="utf-8")


def test_every_evaluator_and_config_key_is_documented() -> None:
    for name in EVALUATORS:
        assert f"`{name}`" in DOC, name
        assert f"\n{name}:\n" in SHIPPED, name
    for key in (f.name for f in dataclasses.fields(EvaluatorSettings)):
        assert f"{key}:" in DOC and key in SHIPPED, key


def test_every_option_of_both_commands_is_documented() -> None:
    commands = typer.main.get_command(app).commands  # type: ignore[attr-defined]
    for name in ("evaluate", "calibrate"):
        for param in commands[name].params:
            for opt in getattr(param, "opts", []):
                if opt.startswith("--") and opt != "--help":
                    assert f"`{opt}" in DOC or f"{opt} " in DOC, (name, opt)
