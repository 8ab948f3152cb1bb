"""CONFUSION_LOOP's pairs head: does the user ask the same thing again, read from the
meaning of every pair of user turns.

The confusion rules (``confusion_evidence`` in ``_conversation.py``) name what they see: how
much a later user turn re-asks an earlier one, how many do, whether the user moved on, key
terms no answer took up, whether the two turns ask for the same kind of thing. On the nine
outside authors' sets no rule round had read they caught 31 of 45 loops with one false
alarm in 45 (leave-one-author-out, round r51cv in docs/local-judge.md). A question asked
again in other words is what sentence embeddings encode well, so this head reads, beside
that named evidence, the cosines between user turns (highest, mean, last to any earlier)
and the pair block ``[u_i, u_j, u_i*u_j, |u_i-u_j|]`` averaged over every pair of user
turns ``i < j``. It is trained across outside authors (``python
bench/train_conversation_heads.py --confusion-head [--write]``, which measures it
leave-one-author-out and picks its cut by an inner leave-one-author-out) and shipped as
``confusion_head.json``: one weight per raw feature and a bias, projection, scaling and cut
folded in, so it fires at log-odds >= 0. The answer asks it only where the rules read a
later turn asking again (``answer_confusion_loop``): on real support chats, where customers
give the same facts and report the same step again, turns alike in meaning are no loop.
Deterministic: a dot product of fixed numbers, rounded.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from ._linear_head import LinearHead, read_head

__all__ = [
    "CONFUSION_FILE",
    "NAMED",
    "closest_pair",
    "confusion_features",
    "confusion_head",
]

CONFUSION_FILE = Path(__file__).with_name("confusion_head.json")
# The rules' named evidence the head reads, in this order (confusion_evidence's features).
NAMED = ("rules", "best", "reasks", "resolved", "unanswered", "same_slot", "slot_open")
COSINES = ("cos_max", "cos_mean", "cos_last")


def closest_pair(users: Any) -> tuple[int, int, float]:
    """(i, j, cosine) of the two user turns (i < j, 0-based among the user turns) that are
    closest in meaning; ties go to the earlier pair."""
    u = np.asarray(users, dtype=np.float64)
    best = (0, 1, -2.0)
    for j in range(1, len(u)):
        for i in range(j):
            c = float(u[i] @ u[j])
            if c > best[2] + 1e-12:
                best = (i, j, c)
    return best


def confusion_features(named: Any, users: Any) -> np.ndarray:
    """The head's raw features: the named evidence (``NAMED``, a mapping), the user turns'
    cosines (``COSINES``) and the pair block averaged over every pair of user turns (at
    least two unit vectors, oldest first)."""
    u = np.asarray(users, dtype=np.float64)
    n = len(u)
    if n < 2:
        raise ValueError("the pairs head needs at least two user turns")
    cos = u @ u.T
    later = [float(cos[i, j]) for j in range(1, n) for i in range(j)]
    blocks = [
        np.concatenate([u[i], u[j], u[i] * u[j], np.abs(u[i] - u[j])])
        for j in range(1, n)
        for i in range(j)
    ]
    scalars = [float(named[f]) for f in NAMED]
    scalars += [max(later), float(np.mean(later)), float(max(cos[-1, :-1]))]
    return np.concatenate([np.asarray(scalars), np.mean(blocks, axis=0)])


def _width(data: Mapping[str, Any]) -> int:
    named = data.get("named") == list(NAMED) and int(data.get("dim", 0))
    return len(NAMED) + len(COSINES) + 4 * int(data["dim"]) if named else 0


@cache
def confusion_head(path: Path = CONFUSION_FILE) -> LinearHead:
    """The shipped head; a file that is not one (unreadable, a wrong length, a number that
    is not finite) raises ``ValueError`` naming it, at the first CONFUSION_LOOP answer."""
    return read_head(path, "CONFUSION_LOOP", _width,
                     f"'named' must be {list(NAMED)} and 'weights' hold "
                     f"{len(NAMED)} + {len(COSINES)} + 4 x 'dim' numbers")
