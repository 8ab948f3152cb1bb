"""Fixtures: the bench rows by trace id, on our dataset and on the seed's published one.

One definition, in tests/benchmark/conftest.py; re-exported here for the judged-detector
tests, which score the same rows."""

from __future__ import annotations

from benchmark.conftest import rows

__all__ = ["rows"]
