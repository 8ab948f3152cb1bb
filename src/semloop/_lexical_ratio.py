"""The most similar adjacent pair of cleaned LLM outputs, exactly as deepeval computes it.

Similarity of a pair = max(bigram Jaccard, ``difflib.SequenceMatcher(None, a, b).ratio()``)
on the space-joined cleaned words. deepeval spends ~90 % of its time in that
``SequenceMatcher`` call; this module returns the same floats much faster, in two ways.

1. :func:`matching_characters` reproduces ``get_matching_blocks()`` (the sum of its sizes,
   which is all ``ratio()`` uses) without difflib's per-character Python loop.
   With ``isjunk=None`` and the default ``autojunk=True``, difflib's
   ``find_longest_match(alo, ahi, blo, bhi)`` does this:

   - a *seed* is a run of positions ``(i, j), (i+1, j+1), ...`` inside the box where
     ``a[i] == b[j]`` and ``b[j]`` is not *popular* (when ``len(b) >= 200``, a character
     occurring more than ``len(b) // 100 + 1`` times in ``b`` is popular);
   - the longest seed wins; among equally long ones, the one ending at the smallest ``i``,
     then the smallest ``j`` (difflib scans ``i`` then ``j`` upwards and keeps a strict ``>``);
   - the winner (or, with no seed at all, the empty match at ``(alo, blo)``) is extended
     backwards and forwards over equal characters, popular or not (nothing is junk).

   difflib walks every character of ``a[alo:ahi]`` for every box. Here the seed
   characters are found once (``str.find`` per character), and a box's best seed is read
   off an index: the first row holding a pair inside the box (a run of one), unless a
   maximal diagonal run of two or more (found by matching two-character seed strings, far
   fewer than single ones) cut to the box is longer or ties earlier. When ``b`` has no
   popular characters every equal pair seeds, so a run is a common substring, measured by
   a slice search from where the characters before it differ. The extensions compare
   slices (C speed) instead of characters. When every character of ``b`` is popular (long
   outputs over a small alphabet) there are no seeds and each box is one prefix comparison;
   identical strings match entirely (the first block is the whole diagonal).

2. :func:`best_adjacent` only computes a ratio when it can change the outcome: the caller reads
   the maximum similarity only when it reaches the threshold, and a pair only replaces the
   current best when it is strictly greater (first pair wins ties). A pair whose proven
   upper bound (difflib's own ``real_quick_ratio`` bound, plus ``quick_ratio`` on short
   texts where it is cheap) cannot matter is skipped, and a pair seen before is not
   matched again. The bigram Jaccard is skipped likewise on a bound from the two
   vocabularies (:func:`_jaccard_bound`), and reading stops at the first pair of
   similarity 1.0, which no later pair can beat.

Every shortcut is exact: ``tests/lexical/`` compares against difflib on random strings
around the thresholds and against deepeval's metric end to end.
"""

from __future__ import annotations

import string
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from difflib import SequenceMatcher
from itertools import pairwise

__all__ = ["Output", "best_adjacent", "bigram_jaccard", "matching_characters", "sequence_ratio"]

# difflib's autojunk: only strings b of at least this length have popular characters.
AUTOJUNK_MIN_LEN = 200

# Repetitive text against a short b can pair up millions of positions; past this many
# two-character matches difflib's own loop (same result, less memory) takes over.
MAX_DOUBLES = 200_000


# The Jaccard bound is tried first on the distinct words among this many opening words:
# unrelated outputs already lack enough of them, for a fraction of a whole-vocabulary test.
OPENING_WORDS = 64


class _TooDense(Exception):
    pass


#: A maximal diagonal run of seed pairs: (length, start_i, start_j, end_i, end_j).
Segment = tuple[int, int, int, int, int]


def bigram_jaccard(words_a: Sequence[str], words_b: Sequence[str]) -> float:
    """deepeval's Jaccard similarity of the two word lists' sets of adjacent word pairs."""
    if len(words_a) < 2 or len(words_b) < 2:
        return 0.0
    bigrams_a = set(pairwise(words_a))
    bigrams_b = set(pairwise(words_b))
    union = bigrams_a | bigrams_b
    if not union:
        return 0.0
    return len(bigrams_a & bigrams_b) / len(union)


def _ratio(matches: int, length: int) -> float:
    # The same expression as difflib's _calculate_ratio, so the floats are identical.
    return 2.0 * matches / length if length else 1.0


def _common_prefix(a: str, i: int, b: str, j: int, limit: int) -> int:
    """Largest n <= limit with a[i:i+n] == b[j:j+n], by galloping slice comparisons."""
    if limit <= 0 or a[i] != b[j]:
        return 0
    low, step = 1, 8  # a[i:i+low] == b[j:j+low] holds throughout
    while low < limit:
        high = min(low + step, limit)
        if a[i + low : i + high] == b[j + low : j + high]:
            low = high
            step *= 2
            continue
        # The first difference lies in [low, high): binary search for it.
        while high - low > 1:
            mid = (low + high) // 2
            if a[i + low : i + mid] == b[j + low : j + mid]:
                low = mid
            else:
                high = mid
        return low
    return low


def _common_suffix(a: str, i: int, b: str, j: int, limit: int) -> int:
    """Largest n <= limit with a[i-n:i] == b[j-n:j]."""
    if limit <= 0 or a[i - 1] != b[j - 1]:
        return 0
    low, step = 1, 8
    while low < limit:
        high = min(low + step, limit)
        if a[i - high : i - low] == b[j - high : j - low]:
            low = high
            step *= 2
            continue
        while high - low > 1:
            mid = (low + high) // 2
            if a[i - mid : i - low] == b[j - mid : j - low]:
                low = mid
            else:
                high = mid
        return low
    return low


def _positions(text: str, char: str) -> list[int]:
    found = []
    i = text.find(char)
    while i >= 0:
        found.append(i)
        i = text.find(char, i + 1)
    return found


def _seed_chars(a: str, b: str, chars_a: set[str], chars_b: set[str]) -> set[str]:
    """Characters that can seed a match: in both strings and not popular in ``b``."""
    chars = chars_a & chars_b
    n = len(b)
    if n < AUTOJUNK_MIN_LEN or not chars:
        return chars
    limit = n // 100 + 1
    half = n // 2
    seeds = set()
    for c in chars:
        # Frequent characters are already over the limit in the first half of b.
        count = b.count(c, 0, half)
        if count <= limit and count + b.count(c, half) <= limit:
            seeds.add(c)
    return seeds


def _common_runs(a: str, b: str) -> list[Segment]:
    """The maximal diagonal runs of two or more seed pairs when ``b`` has no popular
    characters: every equal pair then seeds, so a run is a common substring. It starts at
    an equal two-character string whose preceding characters differ, and runs as far as
    the strings agree (a slice search, not a chain of pair lookups)."""
    in_b: dict[str, list[int]] = {}
    for j in range(len(b) - 1):
        in_b.setdefault(b[j : j + 2], []).append(j)
    la, lb = len(a), len(b)
    segments: list[Segment] = []
    pairs = 0
    for i in range(la - 1):
        found = in_b.get(a[i : i + 2])
        if not found:
            continue
        pairs += len(found)
        if pairs > MAX_DOUBLES:
            raise _TooDense
        for j in found:
            if i and j and a[i - 1] == b[j - 1]:
                continue  # inside a run that started earlier
            m = 2
            if i + 2 < la and j + 2 < lb and a[i + 2] == b[j + 2]:
                m += _common_prefix(a, i + 2, b, j + 2, min(la - i, lb - j) - 2)
            segments.append((m, i, j, i + m - 1, j + m - 1))
    return segments


class _Seeds:
    """Where the seed pairs are, indexed for box queries.

    A seed pair is ``(i, j)`` with ``a[i] == b[j]`` a seed character. ``rows`` lists the
    ``i`` holding a seed character; ``columns[c]`` the ``j`` holding ``c``, ascending (the
    order of difflib's ``b2j`` lists). ``segments`` lists the maximal diagonal runs of two
    or more seed pairs as ``(length, start_i, start_j, end_i, end_j)``, longest first: a
    box's best seed is either such a run cut to the box or, failing that, its first pair.
    """

    def __init__(self, a: str, b: str, chars: set[str]) -> None:
        # Seed characters are rare in b by construction (and usually in a): str.find jumps
        # between occurrences at memchr speed.
        if len(b) < AUTOJUNK_MIN_LEN:
            # No autojunk: every shared character seeds, one pass over each string is
            # cheaper than a search per character.
            rows = [i for i, c in enumerate(a) if c in chars]
            columns: dict[str, list[int]] = {c: [] for c in chars}
            for j, c in enumerate(b):
                if c in columns:
                    columns[c].append(j)
        else:
            rows = sorted(i for c in chars for i in _positions(a, c))
            columns = {c: _positions(b, c) for c in chars}
        self.rows, self.columns = rows, columns
        if len(b) < AUTOJUNK_MIN_LEN:
            self.segments = _common_runs(a, b)
            self.segments.sort(key=lambda seg: -seg[0])
            return
        # Runs of two or more: match two-character seed strings first (far fewer pairs
        # than single characters), then chain them along their diagonals.
        in_b: dict[str, list[int]] = {}
        seeds_b = sorted(j for js in columns.values() for j in js)
        for j, nxt in pairwise(seeds_b):
            if nxt == j + 1:
                in_b.setdefault(b[j : j + 2], []).append(j)
        doubles: set[tuple[int, int]] = set()
        if in_b:
            for i, nxt in pairwise(rows):
                if nxt == i + 1:
                    found = in_b.get(a[i : i + 2])
                    if found:
                        doubles.update((i, j) for j in found)
                        if len(doubles) > MAX_DOUBLES:
                            raise _TooDense

        segments = []
        for i, j in doubles:
            if (i - 1, j - 1) in doubles:
                continue  # not the start of its run
            m = 1
            while (i + m, j + m) in doubles:
                m += 1
            segments.append((m + 1, i, j, i + m, j + m))
        segments.sort(key=lambda seg: -seg[0])
        self.segments = segments

    def longest(
        self,
        a: str,
        box: tuple[int, int, int, int],
        segments: list[Segment],
    ) -> tuple[int, int, int]:
        """difflib's best seed in the box, before extension: ``(i, j, size)``.

        difflib keeps the first strictly longer run while scanning ``i`` then ``j``
        upwards, i.e. the longest run (cut at the box's edges) ending at the smallest
        ``(i, j)``. A run of one is only chosen when nothing longer exists, and then it
        is the box's first pair. ``segments`` include every run crossing the box (and
        maybe some that do not: their cut length is then < 1 and never wins).
        """
        alo, ahi, blo, bhi = box
        rows, columns = self.rows, self.columns
        r = bisect_left(rows, alo)
        while r < len(rows):
            i = rows[r]
            if i >= ahi:
                return alo, blo, 0
            js = columns[a[i]]
            c = bisect_left(js, blo)
            if c < len(js) and js[c] < bhi:
                endi, endj = i, js[c]
                break
            r += 1
        else:
            return alo, blo, 0
        size = 1
        for length, si, sj, _, _ in segments:
            if length < size:
                break
            # The part of the diagonal run inside the box, and where it ends.
            d = sj - si
            start = max(si, alo, blo - d)
            end = min(si + length - 1, ahi - 1, bhi - 1 - d)
            cut = end - start + 1
            if cut > size or (cut == size and cut > 1 and (end, end + d) < (endi, endj)):
                size, endi, endj = cut, end, end + d
        return endi - size + 1, endj - size + 1, size


def matching_characters(
    a: str, b: str, chars_a: set[str] | None = None, chars_b: set[str] | None = None
) -> int:
    """Sum of the sizes of ``SequenceMatcher(None, a, b).get_matching_blocks()``.

    ``chars_a`` and ``chars_b`` are ``set(a)`` and ``set(b)`` when the caller has them.
    """
    if a == b:
        # The first block difflib finds is then the whole diagonal (docs/lexical.md).
        return len(a)
    chars = _seed_chars(
        a, b, set(a) if chars_a is None else chars_a, set(b) if chars_b is None else chars_b
    )
    try:
        seeds = _Seeds(a, b, chars) if chars else None
    except _TooDense:
        return sum(block.size for block in SequenceMatcher(None, a, b).get_matching_blocks())
    total = 0
    boxes = [((0, len(a), 0, len(b)), seeds.segments if seeds else [])]
    while boxes:
        box, segments = boxes.pop()
        alo, ahi, blo, bhi = box
        if seeds is None:
            besti, bestj, bestsize = alo, blo, 0
        else:
            besti, bestj, bestsize = seeds.longest(a, box, segments)
        # Extend over equal characters; most extensions stop at once, so test the first
        # character inline before paying for the slice search.
        if besti > alo and bestj > blo and a[besti - 1] == b[bestj - 1]:
            back = _common_suffix(a, besti, b, bestj, min(besti - alo, bestj - blo))
            besti -= back
            bestj -= back
            bestsize += back
        iend, jend = besti + bestsize, bestj + bestsize
        if iend < ahi and jend < bhi and a[iend] == b[jend]:
            ahead = _common_prefix(a, iend, b, jend, min(ahi - iend, bhi - jend))
            bestsize += ahead
            iend += ahead
            jend += ahead
        if not bestsize:
            continue
        total += bestsize
        # Children get the runs that may cross them: a cheap superset, filtered on the
        # sides the split moved (the parent already satisfied the others).
        if alo < besti and blo < bestj:
            left = [seg for seg in segments if seg[1] < besti and seg[2] < bestj]
            boxes.append(((alo, besti, blo, bestj), left))
        if iend < ahi and jend < bhi:
            right = [seg for seg in segments if seg[3] >= iend and seg[4] >= jend]
            boxes.append(((iend, ahi, jend, bhi), right))
    return total


def sequence_ratio(a: str, b: str) -> float:
    """``difflib.SequenceMatcher(None, a, b).ratio()``, exactly."""
    return _ratio(matching_characters(a, b), len(a) + len(b))


class Output:
    """One cleaned output, with what the pair tests need, each computed at most once.

    ``vocabulary`` is ``set(words)`` when the caller already has it.
    """

    __slots__ = ("_bigrams", "_chars", "_opening", "text", "vocabulary", "words")

    def __init__(self, words: Sequence[str], vocabulary: set[str] | None = None) -> None:
        self.words = words
        self.text = " ".join(words)
        self.vocabulary = set(words) if vocabulary is None else vocabulary
        self._bigrams: set[tuple[str, str]] | None = None
        self._chars: set[str] | None = None
        self._opening: set[str] | None = None

    @property
    def opening(self) -> set[str]:
        """The distinct words among the first :data:`OPENING_WORDS`."""
        if self._opening is None:
            self._opening = set(self.words[:OPENING_WORDS])
        return self._opening

    @property
    def bigrams(self) -> set[tuple[str, str]]:
        if self._bigrams is None:
            self._bigrams = set(pairwise(self.words))
        return self._bigrams

    @property
    def chars(self) -> set[str]:
        if self._chars is None:
            self._chars = _distinct_chars(self.text)
        return self._chars


# The characters most (lower-cased) text is made of. For ASCII text, a membership test per
# character (memchr) finds which of them occur, and translate() drops them so set() only
# walks the rest: together some 5x faster than set(text), which hashes every character.
_COMMON = string.ascii_lowercase + string.digits + string.punctuation + " "
_DROP_COMMON = dict.fromkeys(map(ord, _COMMON))


def _distinct_chars(text: str) -> set[str]:
    """``set(text)``."""
    if not text.isascii():
        # translate() is only fast on ASCII text; set(text) is faster than its slow path.
        return set(text)
    chars = set(filter(text.__contains__, _COMMON))
    chars.update(text.translate(_DROP_COMMON))
    return chars


def _jaccard_bound(x: Output, y: Output, lacking: int | None = None) -> float:
    """An upper bound of :func:`bigram_jaccard` from the two vocabularies alone.

    ``lacking`` is how many words of x's vocabulary y lacks, or any lower bound of it (say,
    counted on a part of x's vocabulary): the bound is then looser but still a bound, as
    below only_x and only_y grow with it and smaller (non-negative) values of them only
    raise c's maximum and lower the union's floors.

    Think of a bigram set as the edges of a walk over the words. Every distinct word of x
    but its first word is entered, at its first occurrence, by an edge ending in it: these
    edges are distinct, so x has at least ``|vocabulary| - 1`` bigrams, and those entering
    a word y lacks (``only_x`` of them) are not shared. So with c shared bigrams:

    - c <= (bigrams of x) - only_x <= len(x.words) - 1 - only_x, and the same for y;
    - union = c + (x's unshared) + (y's unshared) >= c + only_x + only_y;
    - union >= |x.vocabulary| - 1 + only_y (x's entering edges, then y's into words x
      lacks), and the same the other way round.

    c / max(c + only_x + only_y, floor) grows with c, so it is largest at c's maximum.
    Correctly rounded division is monotone, so the float bound holds too.
    """
    if len(x.words) < 2 or len(y.words) < 2:
        return 0.0
    if lacking is None:
        # When this is needed the outputs share most words, and then a difference builds a
        # smaller set than an intersection.
        lacking = len(x.vocabulary - y.vocabulary)
    only_x = max(0, lacking - (x.words[0] not in y.vocabulary))
    only_y = max(
        0, len(y.vocabulary) - len(x.vocabulary) + lacking - (y.words[0] not in x.vocabulary)
    )
    common = min(len(x.words) - 1 - only_x, len(y.words) - 1 - only_y)
    union = max(
        common + only_x + only_y,
        len(x.vocabulary) - 1 + only_y,
        len(y.vocabulary) - 1 + only_x,
    )
    return common / union if union > 0 else 1.0


def _common_characters(x: Output, y: Output) -> int:
    """``sum((Counter(x.text) & Counter(y.text)).values())``, difflib's quick_ratio count:
    a str.count per shared character is cheaper than hashing every character."""
    a, b = x.text, y.text
    shared = x.chars & y.chars
    return sum(map(min, map(a.count, shared), map(b.count, shared)))


def _jaccard(x: Output, y: Output) -> float:
    if len(x.words) < 2 or len(y.words) < 2:
        return 0.0
    set_x, set_y = x.bigrams, y.bigrams
    common = len(set_x & set_y)
    union = len(set_x) + len(set_y) - common
    return common / union if union else 0.0


def best_adjacent(cleaned: Iterable[Output | None], threshold: float) -> tuple[float, int]:
    """``(max similarity, i)`` over adjacent pairs ``(i, i + 1)``; ``(0.0, -1)`` for none.

    ``cleaned`` may be a generator: it is read once, in order. ``None`` entries (outputs
    deepeval skips) break the pairs they belong to. As in deepeval's loop, ``i`` is the
    first pair reaching the maximum. The value is exact whenever it is ``>= threshold``;
    below the threshold the caller only learns that. Reading stops at the first pair of
    similarity 1.0, which no later pair can beat.

    Why skipping is exact: a pair changes deepeval's outcome only if its similarity
    s = max(jaccard, ratio) is >= the threshold and > the best so far (first pair wins
    ties). Each term is computed only when its upper bound passes both tests; a term left
    out is provably <= the other term, <= the best, or < the threshold, so the value used
    is <= s and equals s whenever s could change the outcome.
    """
    best, where = 0.0, -1
    ratios: dict[tuple[str, str], float] = {}
    # Each output takes part in two pairs; only two are alive at a time (hundreds of live
    # bigram sets are slower to allocate).
    outputs = iter(cleaned)
    x = next(outputs, None)
    for i, y in enumerate(outputs):
        if x is None or y is None:
            x = y
            continue
        a, b = x.text, y.text
        length = len(a) + len(b)
        ratio_bound = _ratio(min(len(a), len(b)), length)  # difflib's real_quick_ratio
        jaccard_bound = 1.0
        if len(x.words) > OPENING_WORDS:
            # First from the opening words y lacks (a short output's opening words are all
            # of them), then, if that cannot rule the Jaccard out, from all of them.
            jaccard_bound = _jaccard_bound(x, y, len(x.opening - y.vocabulary))
        if jaccard_bound >= threshold and jaccard_bound > best:
            jaccard_bound = _jaccard_bound(x, y)
        jaccard = ratio = 0.0
        if jaccard_bound >= threshold and jaccard_bound > best:
            jaccard = _jaccard(x, y)
        if ratio_bound > jaccard and ratio_bound > best and ratio_bound >= threshold:
            if length < 800:
                # On short texts difflib's quick_ratio bound is cheap and often decisive.
                ratio_bound = _ratio(_common_characters(x, y), length)
            if ratio_bound > jaccard and ratio_bound > best and ratio_bound >= threshold:
                cached = ratios.get((a, b))
                if cached is None:
                    cached = ratios[a, b] = _ratio(
                        matching_characters(a, b, x.chars, y.chars), length
                    )
                ratio = cached
        similarity = max(jaccard, ratio)
        if similarity > best:
            best, where = similarity, i
            if best >= 1.0:
                # Neither term exceeds 1.0 and ties keep the first pair: the rest of the
                # outputs cannot change the result, so they are not even cleaned.
                break
        x = y
    return best, where
