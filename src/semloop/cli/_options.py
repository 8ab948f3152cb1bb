"""Options several commands share, declared once so their help reads the same everywhere."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import typer

__all__ = ["DatabaseUrl", "ThresholdOpt", "with_judge_flags"]

R = TypeVar("R")

#: ``--database-url``: where runs live; None means the settings' default.
DatabaseUrl = Annotated[str | None, typer.Option(
    help="SQLite or PostgreSQL URL; default $SEMLOOP_DATABASE_URL or ./semloop.db.",
    show_default=False)]

ThresholdOpt = Annotated[
    float, typer.Option(help="Verdict threshold: a trace is flagged as looping when its score is below it.")
]
_ModelOpt = Annotated[
    str | None, typer.Option(help="Judge model (jev: jev-latest, llm: gpt-4o-mini by default).")
]
_BaseUrlOpt = Annotated[
    str | None, typer.Option("--base-url", help="Judge host (jev: TYPESAFE_BASE_URL, llm: OPENAI_BASE_URL).")
]
_JevPathOpt = Annotated[
    str | None,
    typer.Option(
        "--jev-path",
        help='Path of the System One endpoint under --base-url (default /v1/systemone; "" when '
        "--base-url is already the full endpoint).",
    ),
]
_ApiKeyEnvOpt = Annotated[
    str | None, typer.Option("--api-key-env", help="Environment variable holding the llm judge's API key.")
]
_InUsdOpt = Annotated[
    float | None, typer.Option("--input-usd-per-mtok", help="llm judge: USD per million input tokens, for the cost column.")
]
_OutUsdOpt = Annotated[
    float | None, typer.Option("--output-usd-per-mtok", help="llm judge: USD per million output tokens.")
]


#: The judge options of ``score``, ``bench``, ``evaluate`` and ``calibrate``; each judge
#: takes those that apply to it (:func:`semloop.benchmark.judge_options`).
_JUDGE_FLAGS: dict[str, Any] = {
    "model": _ModelOpt, "base_url": _BaseUrlOpt, "jev_path": _JevPathOpt,
    "api_key_env": _ApiKeyEnvOpt, "input_usd_per_mtok": _InUsdOpt,
    "output_usd_per_mtok": _OutUsdOpt,
}


def with_judge_flags(command: Callable[..., R]) -> Callable[..., R]:
    """``command`` with the judge options after its own, handed to it as one ``flags``
    dict (:func:`semloop.benchmark.judge_options` keywords), so each command that asks a
    judge offers the same options with the same help."""
    signature = inspect.signature(command, eval_str=True)
    own = [p for p in signature.parameters.values() if p.name != "flags"]
    added = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None,
                               annotation=option) for name, option in _JUDGE_FLAGS.items()]

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> R:
        flags = {name: kwargs.pop(name, None) for name in _JUDGE_FLAGS}
        return command(*args, flags=flags, **kwargs)

    run.__signature__ = signature.replace(parameters=[*own, *added])  # type: ignore[attr-defined]
    return run
