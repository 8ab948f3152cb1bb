"""Shared fixtures. Tests that need a service fail loudly without it; nothing is skipped."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
REFERENCE_DATASET = SHARED / "reference" / "semloop-seed-dataset.jsonl"

os.environ.setdefault("DEEPEVAL_TELEMETRY_OPT_OUT", "1")
os.environ.setdefault("DEEPEVAL_DISABLE_DOTENV", "1")


@pytest.fixture(scope="session")
def postgres_url() -> str:
    """URL of the PostgreSQL server scripts/test.sh started."""
    url = os.environ.get("SEMLOOP_TEST_POSTGRES_URL")
    if not url:
        pytest.fail("SEMLOOP_TEST_POSTGRES_URL is not set: run the suite with scripts/test.sh")
    return url
