"""A head learned across outside authors, as shipped: one weight per raw feature and a bias.

The topic head (``_topic.py``) and CONFUSION_LOOP's pairs head (``_confusion_head.py``) are
both logistic regressions whose projection, scaling and cut were folded into their weights
by their trainers, so a head fires at log-odds >= 0. This is the shape they share and the
reading of their files, which fails loudly: a file that is unreadable, of the wrong length
or not finite raises ``ValueError`` naming it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["RULES_MARGIN", "LinearHead", "read_head"]

# Beside such a head, an evaluator's rules fire only where they are surer: their log-odds
# less ln 4, so at 0.8 (the evidence for each is beside its answer, ``_drift.py`` and
# ``_conversation.py``).
RULES_MARGIN = math.log(4.0)


@dataclass(frozen=True)
class LinearHead:
    """Log-odds = bias + weights . features."""

    weights: np.ndarray
    bias: float

    def logit(self, features: np.ndarray) -> float:
        # Rounded, as the rules' answers are: the last bits of a float sum never decide.
        return round(float(features @ self.weights) + self.bias, 6)


def read_head(path: Path, what: str, width: Callable[[Mapping[str, Any]], int],
              layout: str) -> LinearHead:
    """The ``what`` head in ``path``: ``width`` gives, from the file's other keys, how many
    weights it must hold (0 where those keys are wrong), ``layout`` says which, in the error."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        weights = np.asarray(data.get("weights", []), dtype=np.float64)
        bias = float(data.get("bias", math.nan))
        expected = width(data)
    except (OSError, ValueError, TypeError, AttributeError) as exc:
        raise ValueError(f"{path}: not a {what} head ({exc})") from exc
    if not expected or weights.shape != (expected,):
        raise ValueError(f"{path}: {layout}")
    if not (np.isfinite(weights).all() and math.isfinite(bias)):
        raise ValueError(f"{path}: the weights and the bias must be finite numbers")
    return LinearHead(weights, bias)
