"""From an evaluator's verdict to a finding a team acts on: severity, false-positive
feedback, second-opinion downgrades and recurring-issue matching. Pure; the semantic
worker wires these to the store.

Recurring issues are matched on the *meaning* of a finding's normalised reasoning and
evidence, not a hash of its first characters: :class:`EmbeddingSimilarity` uses the
embedded judge's MiniLM embedder (the ``local`` extra); without it
:class:`TokenSimilarity` compares content-word sets (Jaccard), which joins rewordings
that share the fault's key terms and keeps apart faults that share none.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..events import Severity

__all__ = [
    "FP_PENALTY",
    "FP_THRESHOLD",
    "EmbeddingSimilarity",
    "Feedback",
    "GroupView",
    "Similarity",
    "TokenSimilarity",
    "apply_feedback",
    "default_similarity",
    "downgrade",
    "match_group",
    "normalise",
    "representation",
]

#: False-positive marks on a recurring issue before new matching findings are suppressed
#: (auto_suppress) or have their confidence lowered by ``FP_PENALTY``.
FP_THRESHOLD = 3
FP_PENALTY = 0.3

_NON_WORD = re.compile(r"[^a-z0-9]+")
# Words every reasoning uses, whatever the fault: they would make any two findings alike.
_STOPWORD_TEXT = (
    "a an and are as at be been but by did does do for from had has have in into is it its "
    "not of on or that the their them then there these they this to was were which while "
    "with without agent user run response answer judge because so no yes")
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())


def normalise(text: str) -> str:
    """Lower case, non-alphanumerics to spaces, whitespace collapsed."""
    return " ".join(_NON_WORD.sub(" ", text.lower()).split())


def representation(reasoning: str) -> str:
    """What a finding is compared on: its normalised reasoning, which carries its evidence
    (an evaluator's answer names the sentence, turn or step it is about)."""
    return normalise(reasoning)[:2000]


class Similarity(Protocol):
    """Turns representations into comparable vectors; ``threshold`` joins two findings."""

    name: str
    threshold: float

    def vectors(self, texts: Sequence[str]) -> list[list[float]]: ...

    def similarity(self, a: Sequence[float] | str, b: Sequence[float] | str) -> float: ...


class TokenSimilarity:
    """Jaccard similarity of content-word sets: the stdlib fallback (no vectors)."""

    name = "tokens"
    threshold = 0.34

    def vectors(self, texts: Sequence[str]) -> list[list[float]]:
        return [[] for _ in texts]

    def similarity(self, a: Sequence[float] | str, b: Sequence[float] | str) -> float:
        words_a = {w for w in str(a).split() if w not in _STOPWORDS and len(w) > 2}
        words_b = {w for w in str(b).split() if w not in _STOPWORDS and len(w) > 2}
        if not words_a or not words_b:
            return 0.0
        return len(words_a & words_b) / len(words_a | words_b)


class EmbeddingSimilarity:
    """Cosine similarity of MiniLM sentence vectors (unit length: a dot product)."""

    name = "minilm"
    threshold = 0.65

    def __init__(self, embedder: Any) -> None:
        self._embedder = embedder

    def vectors(self, texts: Sequence[str]) -> list[list[float]]:
        return [[float(x) for x in row] for row in self._embedder.embed(list(texts))]

    def similarity(self, a: Sequence[float] | str, b: Sequence[float] | str) -> float:
        if isinstance(a, str) or isinstance(b, str) or not a or not b:
            return 0.0
        return math.fsum(x * y for x, y in zip(a, b))


def default_similarity() -> Similarity:
    """MiniLM when the ``local`` extra is installed, else token sets."""
    try:
        from ..judge.local import Embedder

        return EmbeddingSimilarity(Embedder(threads=1))
    except Exception:  # noqa: BLE001 - a missing extra or model file: the fallback serves
        return TokenSimilarity()


@dataclass(frozen=True)
class GroupView:
    """A stored recurring issue, as matching needs it."""

    id: int
    representation: str
    vector: Sequence[float] | None
    false_positives: int = 0


def match_group(text: str, vector: Sequence[float], groups: Sequence[GroupView],
                similarity: Similarity) -> GroupView | None:
    """The most similar of ``groups`` at or above the threshold, else ``None`` (a new
    issue). Groups stored with vectors of another method are compared on their text."""
    tokens = TokenSimilarity()
    best: tuple[float, GroupView] | None = None
    for group in groups:
        if vector and group.vector:
            score = similarity.similarity(vector, group.vector) - similarity.threshold
        else:
            score = tokens.similarity(text, group.representation) - tokens.threshold
        if score >= 0 and (best is None or score > best[0]):
            best = (score, group)
    return None if best is None else best[1]


@dataclass(frozen=True)
class Feedback:
    """What false-positive feedback did to a finding: its confidence (``None``:
    suppressed) and why, for the evidence."""

    confidence: float | None
    reason: str | None = None


def apply_feedback(confidence: float, false_positives: int, *, enabled: bool,
                   auto_suppress: bool) -> Feedback:
    """A finding in an issue marked false positive ``FP_THRESHOLD`` times or more is
    suppressed (``auto_suppress``) or made ``FP_PENALTY`` less confident."""
    if not enabled or false_positives < FP_THRESHOLD:
        return Feedback(confidence)
    if auto_suppress:
        return Feedback(None, f"suppressed: its issue has {false_positives} false-positive marks")
    lowered = max(0.0, round(confidence - FP_PENALTY, 4))
    return Feedback(lowered, f"confidence lowered by {FP_PENALTY} from {confidence:.2f}: its "
                             f"issue has {false_positives} false-positive marks")


def downgrade(severity: str) -> str:
    """One band lower (a second judge disagreed); LOW stays LOW."""
    order = Severity.ORDER
    return order[max(0, order.index(severity) - 1)]

