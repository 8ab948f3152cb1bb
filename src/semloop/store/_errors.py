"""The store's one error boundary: driver and SQLAlchemy errors become ``StoreError``."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from sqlalchemy import exc as sa_exc

from .._exceptions import StoreError

__all__ = ["translate_errors"]


@contextlib.contextmanager
def translate_errors(doing: str) -> Iterator[None]:
    """Driver and SQLAlchemy errors become :class:`StoreError` here, and nowhere else."""
    try:
        yield
    except StoreError:
        raise
    except sa_exc.SQLAlchemyError as exc:
        detail = getattr(exc, "orig", None) or exc
        raise StoreError(f"could not {doing}: {type(detail).__name__}: {detail}") from exc
