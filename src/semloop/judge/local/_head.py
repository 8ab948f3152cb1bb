"""The learned heads of the run-level answers: one logistic regression per evaluator.

Each run-level rule (``_grounding.py``, ``_completion.py``, ``_understanding.py``,
``_drift.py``; shared helpers in ``_task.py``) reads a case into **evidence**: named
features (which rules found something, and a few similarity and coverage scores from the
embedder) with a sentence for those that can be quoted. A head weighs them into log-odds of
"the failure happened". The weights are learned, not set by hand:
``python calibration/train_heads.py`` fits them on every labelled run set the project owns
(calibration, held-out, run_blind2), picks the regularisation and the operating point by
leave-one-domain-out cross-validation, and writes ``heads.json`` (a few KB, shipped in the
wheel). The operating point is folded into the bias, so the shipped threshold (0.5) is the
point chosen precision-first. Nothing is downloaded, and a dot product of fixed numbers is
deterministic.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from .._types import Answer
from ._claims import verdict

__all__ = ["HEADS_FILE", "Evidence", "Head", "head_answer", "heads"]

HEADS_FILE = Path(__file__).with_name("heads.json")


@dataclass
class Evidence:
    """What a rule read in a case: features by name, and for those that point at a
    sentence, part or step, the words that say so."""

    features: dict[str, float] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)

    def flag(self, name: str, value: float, note: str = "") -> None:
        """Set a feature; a feature set to zero keeps no note, as it has nothing to quote."""
        self.features[name] = float(value)
        if not value:
            self.notes.pop(name, None)
        elif note:
            self.notes[name] = note


@dataclass(frozen=True)
class Head:
    """Log-odds = bias + sum(weight * min(feature, cap)), over raw (unscaled) features."""

    features: tuple[str, ...]
    weights: tuple[float, ...]
    bias: float
    cap: float

    def contributions(self, features: Mapping[str, float]) -> dict[str, float]:
        return {n: w * min(features.get(n, 0.0), self.cap)
                for n, w in zip(self.features, self.weights)}

    def logit(self, features: Mapping[str, float]) -> float:
        return self.bias + math.fsum(self.contributions(features).values())


@cache
def heads(path: Path = HEADS_FILE) -> dict[str, Head]:
    """The shipped heads by evaluator kind (``hallucination``, ``task_completion``…)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return {
        kind: Head(tuple(h["features"]), tuple(float(w) for w in h["weights"]), float(h["bias"]),
                   float(data["cap"]))
        for kind, h in data["heads"].items()
    }


def head_answer(kind: str, evidence: Evidence, settled: str, offset: float = 0.0) -> Answer:
    """The head's answer for ``evidence``: its reasoning quotes the noted features that
    push towards firing, strongest first; below the threshold, the strongest of them as set
    aside, or ``settled`` when there is none. ``offset`` moves the log-odds (a stricter
    operating point where another head answers beside this one)."""
    model = heads()[kind]
    parts = model.contributions(evidence.features)
    logit = model.logit(evidence.features) + offset
    pushing = sorted((c, n) for n, c in parts.items() if c > 0 and n in evidence.notes)
    # Several features may quote the same sentence: each reason is said once.
    reasons = list(dict.fromkeys(evidence.notes[n] for _, n in reversed(pushing)))
    if logit < 0:
        if reasons:
            return verdict(logit, f"below the threshold; weighed and set aside: {reasons[0]}")
        return verdict(logit, settled)
    if not reasons:
        top = max(parts, key=lambda n: parts[n])
        reasons = [f"{_FEATURE_TEXT.get(top, top)}: {evidence.features.get(top, 0.0):.2f}"]
    return verdict(logit, "; ".join(reasons))

# What a feature means, for a reasoning with no sentence to quote (the value follows).
_FEATURE_TEXT = {
    "request_far": "the answer is far in meaning from the request (1 - best cosine)",
    "uncovered": "the answer uses little of the request's own words (share missing)",
    "names_dropped": "the request's names are missing from the answer (share)",
    "names_swapped": "the request's names are missing and others stand in (share)",
    "short": "the answer is very short for the request",
    "failed_call": "a tool call failed and was not retried",
    "marker": "a unit announces a digression",
    "lexical_off": "units name nothing of the request (share)",
    "off_share": "much of the run is off the request (share of its words)",
    "min_far": "a unit is far from the request (1 - cosine)",
    "tail_far": "the end of the run is far from the request (1 - cosine)",
    "never_on": "no unit of the run is close to the request (1 - best cosine)",
    "isolation": "a unit is far from the request and from the answer's opening (1 - cosine)",
    "isolated_share": "units far from the request and the answer's opening (share of words)",
    "evidence_far": "a claim is far from every evidence sentence (1 - best cosine)",
    "counts": "small counts the context does not give",
}
