"""The ``semloop`` command line: one typer app, one thin module per command.

Each module in this package that defines ``register(app)`` adds its commands; the
command bodies call library functions and print. Needs the ``cli`` extra.
"""

from __future__ import annotations

import importlib
import pkgutil

from .._exceptions import MissingExtraError

try:
    import typer
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise MissingExtraError("the semloop command line", "cli", exc.name or "typer") from exc

__all__ = ["app", "main"]

app = typer.Typer(
    name="semloop",
    help=(
        "Failure detection for AI agents: loops, stalls, token burn, hallucination, "
        "wrong-task answers and frustrated users."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Markdown joins a docstring's wrapped lines into paragraphs that fit the terminal.
    rich_markup_mode="markdown",
)

for _info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
    if _info.name.startswith("_"):  # __main__ and private helpers register nothing
        continue
    _module = importlib.import_module(f"{__name__}.{_info.name}")
    _register = getattr(_module, "register", None)
    if callable(_register):
        _register(app)


def main() -> None:
    app()
