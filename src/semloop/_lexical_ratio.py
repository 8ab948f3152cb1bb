"""The most similar adjacent pair of cleaned LLM outputs, as deepeval computes it.

Similarity of a pair = max(bigram Jaccard, ``difflib.SequenceMatcher(None, a, b).ratio()``)
on the space-joined cleaned words.
"""

from __future__ import annotations

from collections.abc import Sequence
from difflib import SequenceMatcher
from itertools import pairwise

__all__ = ["best_pair", "bigram_jaccard", "sequence_ratio"]


def bigram_jaccard(words_a: Sequence[str], words_b: Sequence[str]) -> float:
    if len(words_a) < 2 or len(words_b) < 2:
        return 0.0
    bigrams_a = set(pairwise(words_a))
    bigrams_b = set(pairwise(words_b))
    union = bigrams_a | bigrams_b
    if not union:
        return 0.0
    return len(bigrams_a & bigrams_b) / len(union)


def sequence_ratio(a: str, b: str) -> float:
    return SequenceMatcher(None, a, b).ratio()


def best_pair(
    pairs: Sequence[tuple[int, Sequence[str], Sequence[str]]], threshold: float
) -> tuple[float, int]:
    """``(max similarity, index of the first pair reaching it)``; ``(0.0, -1)`` for none.

    The value is exact whenever it is ``>= threshold``; below that only the fact that it
    is below matters to the caller.
    """
    best, where = 0.0, -1
    for i, words_a, words_b in pairs:
        similarity = max(
            bigram_jaccard(words_a, words_b), sequence_ratio(" ".join(words_a), " ".join(words_b))
        )
        if similarity > best:
            best, where = similarity, i
    return best, where
