"""Every command's ``--help`` explains it: a one-line summary, then each option's help."""

from __future__ import annotations

from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from semloop.cli import app

runner = CliRunner()


def _commands() -> list[tuple[list[str], Any]]:
    found: list[tuple[list[str], Any]] = []

    def walk(path: list[str], command: Any) -> None:
        found.append((path, command))
        # Typer's own click types: a group is what has subcommands.
        for name, sub in getattr(command, "commands", {}).items():
            walk([*path, name], sub)

    walk([], typer.main.get_command(app))
    return found


COMMANDS = _commands()


def test_every_module_registered_its_commands() -> None:
    names = {" ".join(path) for path, _ in COMMANDS}
    assert {"bench", "score", "demo", "up", "worker", "migrate", "import", "detect",
            "keys create", "keys list", "keys revoke", "prune", "evaluate", "calibrate"} <= names


@pytest.mark.parametrize(("path", "command"), COMMANDS,
                         ids=[" ".join(p) or "semloop" for p, _ in COMMANDS])
def test_help_has_a_summary_line_and_every_option_explained(
        path: list[str], command: Any) -> None:
    summary = (command.help or "").strip().split("\n\n")[0]
    assert summary and "\n" not in summary, f"{path}: the summary must be one line"
    for param in command.params:
        if getattr(param, "param_type_name", "") == "option" and param.name != "help":
            assert (param.help or "").strip(), f"{path}: {param.opts} has no help"
    result = runner.invoke(app, [*path, "--help"], terminal_width=100)
    assert result.exit_code == 0, result.output
    assert summary.split()[0] in result.output
