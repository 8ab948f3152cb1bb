"""Detector packs: named sets of detector settings an organization turns on or off.

A pack is a ``detectors.yml`` section. For an org that enabled it, the detector worker
layers it over the file's ``default`` section (an agent's own section still wins), so
a pack changes what the org's runs are checked for without a config file per org.
Dunetrace's only pack, ``voice``, needs voice events semloop does not have: it is named
in :data:`FOREIGN_PACKS` so enabling it is refused, never silently a no-op.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["FOREIGN_PACKS", "PACKS", "Pack"]


@dataclass(frozen=True)
class Pack:
    name: str
    description: str
    #: A detectors.yml section ({detector: {setting: value}}), checked like the file.
    settings: Mapping[str, Mapping[str, Any]]

    @property
    def detectors(self) -> list[str]:
        return sorted(self.settings)


_PREVIEW = ("INSTRUMENTATION_DEGRADED", "OVERSIZED_TOOL_ARGUMENTS", "SCATTERSHOT_TOOL_USE",
            "UNRESOLVED_AMBIGUITY")

PACKS: Mapping[str, Pack] = {p.name: p for p in (
    Pack("preview",
         "The four detectors that run in shadow by default (Dunetrace keeps them in shadow "
         "too), live: their signals alert. For teams that read the shadow figures in "
         "docs/detectors.md and want them now.",
         {name: {"shadow": False} for name in _PREVIEW}),
    Pack("strict-egress",
         "UNGROUNDED_DESTINATION also judges bare domains (shop.example.com with no scheme "
         "or address), which Dunetrace leaves off as prone to false alarms: for agents "
         "whose every destination comes from their inputs.",
         {"UNGROUNDED_DESTINATION": {"bare_domains": True}}),
)}

#: Dunetrace packs whose detectors semloop does not have, and why.
FOREIGN_PACKS: Mapping[str, str] = {
    "voice": "Dunetrace's 9 voice-agent detectors (TTS, barge-in, turn latency); semloop "
             "has no voice events or detectors.",
}
