"""docs/detectors.md documents every detector, every parameter and its default."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from semloop.detect import DETECTORS

DOC = (Path(__file__).resolve().parents[2] / "docs" / "detectors.md").read_text(encoding="utf-8")


def doc_default(value: object) -> str:
    """A default as detectors.yml spells it: true/false, [a, b], {a: 1}."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, tuple):
        return "[" + ", ".join(value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {v}" for k, v in value.items()) + "}"
    return str(value)


def _section(name: str) -> str:
    match = re.search(rf"^### \d+\. {name}\n(.*?)(?=^### |\Z)", DOC, re.MULTILINE | re.DOTALL)
    assert match, f"no section for {name}"
    return match.group(1)


def test_every_detector_and_parameter_is_documented() -> None:
    for name, detector in DETECTORS.items():
        body = _section(name)
        assert detector.severity in body
        for p in detector.params:
            default = doc_default(p.default)
            assert f"| `{p.name}` | `{default}` |" in body, f"{name}.{p.name}"
        for guard in detector.guards:
            assert guard[1:] in body, f"{name}: guard not documented: {guard}"
