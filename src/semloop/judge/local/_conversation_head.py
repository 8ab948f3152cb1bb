"""The conversation answers' learned head: logistic regression over named evidence.

Each conversation evaluator gathers evidence it can name (:class:`Evidence`: the rule
log-odds, the trajectory of heat across user turns, how alike the user's questions are,
whether the reply moved toward the user's claim, ...). The head weighs it: standardised
features times weights, plus projections of MiniLM turn vectors onto a few learned
directions. The weights live in ``conversation_heads.json`` (a few KB), written by
``bench/train_conversation_heads.py``, which picks the regularisation by
leave-one-domain-out cross-validation over the repository's own labelled sets.

Pure and deterministic: the fit is Newton's method from zeros (no random start), and an
answer's probability is rounded so float noise in a dot product cannot reach it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

__all__ = ["Evidence", "Head", "direction_features", "fit_logistic", "heads", "logit_probability",
           "probability"]

_P_FLOOR, _P_CEIL = 0.02, 0.98
WEIGHTS_FILE = "conversation_heads.json"


@dataclass(frozen=True)
class Evidence:
    """What one evaluator found in a conversation, before weighing.

    ``features`` are named numbers (their meaning is in the evaluator's docstring);
    ``vectors`` are MiniLM vectors of turns, oldest first, that the head projects onto its
    learned directions (``None`` when the evaluator has no direction); ``why`` is the
    reasoning, naming the turns.
    """

    features: Mapping[str, float]
    why: str
    vectors: Any = None


@dataclass(frozen=True)
class Head:
    """``logit = bias + sum(weight * (x - mean) / scale)`` over ``features``."""

    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float
    directions: Mapping[str, tuple[float, ...]] = field(default_factory=dict)

    def logit(self, evidence: Evidence) -> float:
        x = dict(evidence.features)
        if self.directions and evidence.vectors is not None:
            for name, d in self.directions.items():
                x.update(direction_features(name, evidence.vectors, d))
        total = self.bias
        for name, m, s, w in zip(self.features, self.mean, self.scale, self.weights):
            total += w * (x.get(name, 0.0) - m) / s
        return total


def direction_features(name: str, vectors: Any, d: Sequence[float]) -> dict[str, float]:
    """Turn vectors projected on direction ``d``: the last turn, the peak after the first,
    and the rise from the first to the last (a trajectory, not a single turn)."""
    proj = [sum(float(a) * b for a, b in zip(v, d)) for v in vectors]
    if not proj:
        return {}
    later = proj[1:] or proj
    return {
        f"{name}_last": proj[-1],
        f"{name}_peak": max(later),
        f"{name}_rise": proj[-1] - proj[0],
    }


def probability(head: Head, evidence: Evidence) -> float:
    return logit_probability(head.logit(evidence))


def logit_probability(logit: float) -> float:
    """A head's log-odds as an answer's probability: clipped to +-8, kept within
    [0.02, 0.98], rounded."""
    logit = max(-8.0, min(8.0, logit))
    return round(min(_P_CEIL, max(_P_FLOOR, 1.0 / (1.0 + math.exp(-logit)))), 4)


@lru_cache(maxsize=1)
def heads() -> dict[str, Head]:
    """The shipped heads, by evaluator name in lower case."""
    raw = json.loads(resources.files(__package__).joinpath(WEIGHTS_FILE).read_text("utf-8"))
    return {name: head_from_json(spec) for name, spec in raw["heads"].items()}


def head_from_json(spec: Mapping[str, Any]) -> Head:
    return Head(
        features=tuple(spec["features"]),
        mean=tuple(float(v) for v in spec["mean"]),
        scale=tuple(float(v) for v in spec["scale"]),
        weights=tuple(float(v) for v in spec["weights"]),
        bias=float(spec["bias"]),
        directions={k: tuple(float(v) for v in d) for k, d in spec.get("directions", {}).items()},
    )


def fit_logistic(
    rows: Sequence[Sequence[float]],
    labels: Sequence[bool],
    *,
    l2: float,
    negative_weight: float = 1.0,
    iterations: int = 50,
) -> tuple[list[float], float]:
    """L2-regularised logistic regression by Newton's method from zeros (deterministic).

    ``rows`` are already standardised; the bias is not penalised; every negative counts
    ``negative_weight`` times (precision first). Returns (weights, bias).
    """
    import numpy as np

    x = np.asarray(rows, dtype=np.float64)
    n, k = x.shape
    xb = np.hstack([x, np.ones((n, 1))])
    y = np.asarray(labels, dtype=np.float64)
    sw = np.where(y > 0, 1.0, negative_weight)
    penalty = np.full(k + 1, l2)
    penalty[-1] = 0.0
    beta = np.zeros(k + 1)
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(xb @ beta, -30, 30)))
        grad = xb.T @ (sw * (p - y)) + penalty * beta
        hess = (xb * (sw * p * (1 - p))[:, None]).T @ xb + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hess, grad)
        beta -= step
        if float(np.abs(step).max()) < 1e-10:
            break
    return [float(v) for v in beta[:-1]], float(beta[-1])
