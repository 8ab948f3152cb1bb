"""A progress bar for long loops in the commands: on stderr, so stdout stays parseable,
and only when there is enough work to be worth watching."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

from rich.console import Console
from rich.progress import track

__all__ = ["progress"]

T = TypeVar("T")


def progress(items: Sequence[T], description: str, *, at_least: int = 200) -> Iterable[T]:
    """``items``, with a transient bar on stderr when there are ``at_least`` of them."""
    if len(items) < at_least:
        return items
    return track(items, description=description, console=Console(stderr=True),
                 transient=True)
