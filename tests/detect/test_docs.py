"""docs/detectors.md documents every detector, every parameter and its default."""

from __future__ import annotations

import re
from pathlib import Path

from semloop.detect import DETECTORS

DOC = (Path(__file__).resolve().parents[2] / "docs" / "detectors.md").read_text(encoding="utf-8")


def _section(name: str) -> str:
    match = re.search(rf"^### \d+\. {name}\n(.*?)(?=^### |\Z)", DOC, re.MULTILINE | re.DOTALL)
    assert match, f"no section for {name}"
    return match.group(1)


def test_every_detector_and_parameter_is_documented() -> None:
    for name, detector in DETECTORS.items():
        body = _section(name)
        assert detector.severity in body
        for p in detector.params:
            default = str(p.default).lower() if isinstance(p.default, bool) else str(p.default)
            assert f"| `{p.name}` | `{default}` |" in body, f"{name}.{p.name}"
        for guard in detector.guards:
            assert guard[1:] in body, f"{name}: guard not documented: {guard}"
