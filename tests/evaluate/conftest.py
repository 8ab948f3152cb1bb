"""Fixtures: the bench rows by trace id (one definition, in tests/benchmark/conftest.py)."""

from __future__ import annotations

from benchmark.conftest import rows

__all__ = ["rows"]
