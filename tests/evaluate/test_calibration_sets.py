"""The labelled sets stay well formed: every case parses, labels agree with families, ids
are unique, held-out domains stay apart from calibration ones (the sets' own checks)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

CALIBRATION = Path(__file__).resolve().parents[2] / "calibration"


@pytest.mark.parametrize("script", ["check.py", "check_conversations.py"])
def test_the_sets_pass_their_checks(script: str) -> None:
    done = subprocess.run([sys.executable, str(CALIBRATION / script)], check=False,
                          capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
