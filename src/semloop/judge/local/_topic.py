"""The topic head of OFF_TOPIC_DRIFT: how far, in meaning, a run went from its request.

The drift rules (``_drift.py``) find the sentences and steps that leave the request, by
words and by cosine. They are tuned case by case, and a new author's cases showed it: on
six outside authors' sets the rules had never read, they raised 10 false alarms in 66
negatives. A subject change is what sentence embeddings encode well, so this head reads
it from the embeddings themselves: a logistic regression over the request's vector ``q``,
the mean vector ``r`` of the answer's sentences (each already embedded by the drift
rules) and their products, ``[q, r, q*r, |q-r|]``. It is trained across outside authors
(``python calibration/train_topic_head.py``, which measures it leave-one-author-out) and
shipped as ``topic_head.json``: one weight per feature and a bias with the operating point
folded in, so it fires at log-odds >= 0. Deterministic: a dot product of fixed numbers.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from ._linear_head import LinearHead, read_head

__all__ = ["TOPIC_FILE", "topic_features", "topic_head"]

TOPIC_FILE = Path(__file__).with_name("topic_head.json")


def topic_features(request: Any, run: Any) -> np.ndarray:
    """``[q, r, q*r, |q-r|]`` for the request's unit vector ``q`` and the run's rows of unit
    vectors, whose mean, normalised, is ``r``."""
    q = np.asarray(request, dtype=np.float64)
    r = np.asarray(run, dtype=np.float64).mean(axis=0)
    r /= max(float(np.linalg.norm(r)), 1e-12)
    return np.concatenate([q, r, q * r, np.abs(q - r)])


@cache
def topic_head(path: Path = TOPIC_FILE) -> LinearHead:
    """The shipped head; a file that is not one (unreadable, a wrong length, a number that
    is not finite) raises ``ValueError`` naming it, at the first drift answer."""
    return read_head(path, "OFF_TOPIC_DRIFT topic", lambda data: 4 * int(data.get("dim", 0)),
                     "'weights' must hold 4 x 'dim' numbers")
