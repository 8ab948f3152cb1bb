"""The fast ratio path against difflib itself, on strings built to stress its corner cases."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator
from difflib import SequenceMatcher
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import semloop._lexical_ratio as ratio_module
from semloop._lexical_ratio import (
    Output,
    _common_characters,
    _distinct_chars,
    _jaccard,
    _jaccard_bound,
    _ratio,
    _seed_chars,
    best_adjacent,
    bigram_jaccard,
    matching_characters,
    sequence_ratio,
)
from semloop.lexical import STOP_WORDS, _meaningful

from ._lexical_peer import DEEPEVAL_STOP_WORDS, stagnation_traces

# English-like letter weights: a few letters stay below difflib's "popular" cut-off on long
# strings and seed matches, the rest are popular; tiny alphabets make runs and ties common.
ENGLISH = "eeeeeeeeeeeetttttttttaaaaaaaaoooooooiiiiiiinnnnnnnsssssshhhhhhrrrrrrddddllllcccuuummwwffggyyppbbvkjxqz"
ALPHABETS = ["ab", "abc", "ab ", "abcdefgh", ENGLISH + "   ", "aaaaaaaaab", "xyz.,!?0123456789"]


@st.composite
def string_pairs(draw: st.DrawFn) -> tuple[str, str]:
    # The alphabet, lengths and kind of edit are Hypothesis' draws; the characters come from
    # a plain Random it seeds (a Hypothesis-backed one draws each of up to 1,500 characters
    # through the engine, which cost more than the comparisons themselves).
    rnd = draw(st.randoms(use_true_random=True))
    alphabet = draw(st.sampled_from(ALPHABETS))
    # Lengths on both sides of autojunk's 200-character boundary.
    length = draw(st.sampled_from([0, 1, 3, 40, 150, 199, 200, 201, 260, 600, 1500]))
    a = "".join(rnd.choices(alphabet, k=length))
    kind = draw(st.sampled_from(["edit", "edit", "fresh", "swap", "same"]))
    if kind == "fresh":
        other = draw(st.sampled_from([0, 1, 40, 199, 200, 201, 600, 1500]))
        b = "".join(rnd.choices(alphabet, k=other))
    elif kind == "same":
        b = a
    else:
        chars = list(a)
        for _ in range(draw(st.integers(1, 12))):
            pos = rnd.randint(0, len(chars))
            op = rnd.random()
            if op < 0.4 and chars:
                chars[min(pos, len(chars) - 1)] = rnd.choice(alphabet + "QZ")
            elif op < 0.7:
                chars[pos:pos] = rnd.choices(alphabet + "QZ", k=rnd.randint(1, 5))
            elif chars:
                del chars[pos : pos + rnd.randint(1, 5)]
        b = "".join(chars)
        if kind == "swap" and b:
            cut = rnd.randrange(len(b))
            b = b[cut:] + b[:cut]
    if draw(st.booleans()):
        a, b = b, a
    return a, b


def difflib_matches(a: str, b: str) -> int:
    return sum(block.size for block in SequenceMatcher(None, a, b).get_matching_blocks())


@settings(max_examples=400, deadline=None)
@given(pair=string_pairs())
def test_matching_characters_equals_difflib(pair: tuple[str, str]) -> None:
    a, b = pair
    reference = SequenceMatcher(None, a, b)  # one matcher: ratio() reuses its matching blocks
    assert matching_characters(a, b) == sum(
        block.size for block in reference.get_matching_blocks())
    # The ratio is the same float, bit for bit.
    assert sequence_ratio(a, b) == reference.ratio()


def test_matching_characters_on_seeded_random_text() -> None:
    rnd = random.Random(7)
    for _ in range(150):
        words = [
            "".join(rnd.choices(ENGLISH, k=rnd.randint(3, 9))) for _ in range(rnd.randint(20, 250))
        ]
        other = list(words)
        for _ in range(rnd.randint(0, 8)):
            other[rnd.randrange(len(other))] = "".join(rnd.choices(ENGLISH, k=rnd.randint(3, 9)))
        a, b = " ".join(words), " ".join(other)
        assert matching_characters(a, b) == difflib_matches(a, b)
        assert matching_characters(b, a) == difflib_matches(b, a)


def test_identical_strings_match_entirely() -> None:
    rnd = random.Random(3)
    for length in (1, 199, 200, 201, 5000):
        text = "".join(rnd.choices("ab c", k=length))
        assert matching_characters(text, text) == length == difflib_matches(text, text)
    assert sequence_ratio("", "") == SequenceMatcher(None, "", "").ratio() == 1.0


def best_of(cleaned: Iterable[list[str] | None], threshold: float) -> tuple[float, int]:
    """``best_adjacent`` on word lists, read lazily as the port reads its outputs."""
    return best_adjacent((None if words is None else Output(words) for words in cleaned), threshold)


def deepeval_best(cleaned: list[list[str] | None], threshold: float) -> tuple[float, int]:
    """deepeval's own loop over adjacent pairs, with difflib, as the reference."""
    best, where = 0.0, -1
    for i in range(len(cleaned) - 1):
        a, b = cleaned[i], cleaned[i + 1]
        if a is None or b is None:
            continue
        similarity = max(
            bigram_jaccard(a, b), SequenceMatcher(None, " ".join(a), " ".join(b)).ratio()
        )
        if similarity > best:
            best, where = similarity, i
    return best, where


WORDS = [
    "search",
    "repo",
    "handler",
    "guest",
    "checkout",
    "retry",
    "tool.",
    "cache",
    "vexing",
    "quiz",
    "jinx",
]


@st.composite
def output_runs(draw: st.DrawFn) -> list[list[str] | None]:
    rnd = draw(st.randoms(use_true_random=True))  # seeded by Hypothesis, as in string_pairs
    if draw(st.booleans()):
        vocabulary = WORDS  # few words, many repeats
    else:
        # Many distinct words: the vocabulary bound on the Jaccard is then tight, and one
        # changed word keeps the Jaccard high while autojunk sinks difflib's ratio.
        vocabulary = ["".join(rnd.choices(ENGLISH, k=rnd.randint(3, 9))) for _ in range(400)]
    base = rnd.choices(vocabulary, k=draw(st.integers(20, 90)))
    outputs: list[list[str] | None] = []
    for _ in range(draw(st.integers(0, 7))):
        kind = draw(
            st.sampled_from(["same", "edit", "edit", "fresh", "none", "previous", "extend"])
        )
        if kind == "none":
            outputs.append(None)
        elif kind == "previous" and outputs:
            outputs.append(outputs[-1])
        elif kind == "extend" and outputs and outputs[-1] is not None:
            # A prefix of the next output: the ratio then equals difflib's real_quick_ratio
            # bound exactly, the boundary case for skipping a pair.
            outputs.append([*outputs[-1], *rnd.choices(vocabulary, k=rnd.randint(1, 6))])
        elif kind == "fresh":
            outputs.append(rnd.choices(vocabulary, k=rnd.randint(20, 90)))
        else:
            words = list(base)
            for _ in range(0 if kind == "same" else rnd.randint(1, 4)):
                words[rnd.randrange(len(words))] = rnd.choice(vocabulary)
            outputs.append(words)
    return outputs


@settings(max_examples=150, deadline=None)
@given(
    outputs=output_runs(),
    threshold=st.sampled_from([0.85, 0.0, 0.3, 0.5, 0.7, 0.9, 0.95, 0.96, 1.0]),
)
def test_best_adjacent_agrees_with_deepeval_loop(
    outputs: list[list[str] | None], threshold: float
) -> None:
    expected = deepeval_best(outputs, threshold)
    got = best_of(outputs, threshold)
    if expected[0] >= threshold:
        assert got == expected
    else:
        assert got[0] < threshold


@settings(max_examples=60, deadline=None)
@given(outputs=output_runs())
def test_best_adjacent_at_thresholds_equal_to_a_pair_value(outputs: list[list[str] | None]) -> None:
    # Thresholds exactly at achieved similarities exercise every >= and > boundary.
    values = {deepeval_best(outputs[i : i + 2], -1.0)[0] for i in range(len(outputs) - 1)}
    for threshold in values:
        expected = deepeval_best(outputs, threshold)
        got = best_of(outputs, threshold)
        if expected[0] >= threshold:
            assert got == expected
        else:
            assert got[0] < threshold


def test_threshold_exactly_at_a_ratio_that_equals_its_upper_bound() -> None:
    # b extends a: the ratio equals real_quick_ratio, the bound used to skip pairs, and
    # exceeds the Jaccard. A threshold at exactly that value must still count the pair.
    rnd = random.Random(5)
    a = rnd.choices(WORDS, k=20)
    b = [*a, *rnd.choices(WORDS, k=3)]
    matcher = SequenceMatcher(None, " ".join(a), " ".join(b))
    ratio = matcher.ratio()
    assert ratio == matcher.real_quick_ratio() > bigram_jaccard(a, b)
    assert best_of([a, b], ratio) == (ratio, 0) == deepeval_best([a, b], ratio)
    assert best_of([a, b, a, b], ratio) == (ratio, 0)
    assert best_of([a, b], ratio + 1e-9)[0] < ratio + 1e-9


@settings(max_examples=300, deadline=None)
@given(
    words_a=st.lists(st.sampled_from(WORDS[:6] + ["x1", "x2", "x3"]), min_size=1, max_size=40),
    words_b=st.lists(st.sampled_from(WORDS[:6] + ["y1", "y2"]), min_size=1, max_size=40),
    distinct=st.booleans(),
    shift=st.sampled_from([None, 0, 1, -1]),
)
def test_jaccard_bound_is_an_upper_bound(
    words_a: list[str], words_b: list[str], distinct: bool, shift: int | None
) -> None:
    if distinct:  # no repeated words: the bound is at its tightest
        words_a, words_b = list(dict.fromkeys(words_a)), list(dict.fromkeys(words_b))
    if shift is not None:  # b is a, or a with its first or last word dropped
        words_b = words_a[1:] if shift == 1 else words_a[:-1] if shift == -1 else list(words_a)
        words_b = words_b or words_a
    x, y = Output(words_a), Output(words_b)
    assert _jaccard_bound(x, y) >= bigram_jaccard(words_a, words_b)
    assert _jaccard(x, y) == bigram_jaccard(words_a, words_b)


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    vocabulary=st.sampled_from([3, 12, 60, 250, 2000]),
    lengths=st.tuples(st.integers(2, 120), st.integers(2, 120)),
    kind=st.sampled_from(["fresh", "edit", "shuffle", "rotate"]),
)
def test_jaccard_bound_holds_on_many_vocabularies_and_orders(
    seed: int, vocabulary: int, lengths: tuple[int, int], kind: str
) -> None:
    # Few words (bigrams repeat, the "entering edge" counts are far below the length) to
    # many (every bigram distinct, the bound at its tightest); b is fresh, an edit, a
    # shuffle (same vocabulary, other order) or a rotation (nearly the same bigrams).
    rnd = random.Random(seed)
    words = [f"w{n}" for n in range(vocabulary)]
    a = rnd.choices(words, k=lengths[0])
    if kind == "fresh":
        b = rnd.choices(words, k=lengths[1])
    elif kind == "edit":
        b = list(a)
        for _ in range(rnd.randint(1, 5)):
            b[rnd.randrange(len(b))] = rnd.choice(words)
    elif kind == "shuffle":
        b = rnd.sample(a, len(a))
    else:
        cut = rnd.randrange(len(a))
        b = a[cut:] + a[:cut]
    for x, y in ((Output(a), Output(b)), (Output(b), Output(a))):
        jaccard = bigram_jaccard(x.words, y.words)
        assert _jaccard_bound(x, y) >= jaccard
        # Fed any lower bound of the words y lacks (the opening words' count, or less),
        # the bound stays a bound.
        lacking = len(x.vocabulary - y.vocabulary)
        assert len(x.opening - y.vocabulary) <= lacking
        for part in {0, lacking // 2, len(x.opening - y.vocabulary), lacking}:
            assert _jaccard_bound(x, y, part) >= jaccard


def test_opening_words_rule_out_unrelated_outputs_of_distinct_words() -> None:
    # Long outputs of mostly distinct words lack most of each other's opening words, which
    # already brings the bound under the threshold without the whole vocabularies.
    rnd = random.Random(8)
    words = ["".join(rnd.choices("abcdefghijklmnopqrstuvwxyz", k=7)) for _ in range(3000)]
    for _ in range(20):
        x, y = Output(rnd.choices(words, k=400)), Output(rnd.choices(words, k=400))
        assert (
            bigram_jaccard(x.words, y.words)
            <= _jaccard_bound(x, y, len(x.opening - y.vocabulary))
            < 0.85
        )


def test_jaccard_bound_rules_out_unrelated_outputs_over_a_few_hundred_words() -> None:
    # Outputs drawn from the same 300 tokens share most of their words, so a bound from
    # shared-word counts alone stays above 1; the words each output lacks from the other
    # enter bigrams that cannot be shared, which brings the bound under the threshold.
    rnd = random.Random(4)
    tokens = [
        "".join(rnd.choices("abcdefghijklmnopqrstuvwxyz", k=rnd.randint(3, 10))) for _ in range(300)
    ]
    for _ in range(20):
        a, b = rnd.choices(tokens, k=400), rnd.choices(tokens, k=400)
        shared = len(set(a) & set(b))
        assert (len(a) - len(set(a)) + shared) / (len(set(a)) - 1) > 1  # the old bound
        assert bigram_jaccard(a, b) <= _jaccard_bound(Output(a), Output(b)) < 0.85


@settings(max_examples=400, deadline=None)
@given(pair=string_pairs())
def test_seed_characters_are_the_shared_ones_difflib_does_not_call_popular(
    pair: tuple[str, str],
) -> None:
    a, b = pair
    popular = SequenceMatcher(None, a, b).bpopular  # type: ignore[attr-defined]  # not in typeshed
    assert _seed_chars(a, b, set(a), set(b)) == (set(a) & set(b)) - popular


def deepeval_clean(text: str) -> list[str]:
    """deepeval's cleaning, written from its spec, with its own stop-word set."""
    return [w for w in text.lower().split() if w not in DEEPEVAL_STOP_WORDS and len(w) > 2]


def test_stop_words_are_deepevals() -> None:
    assert STOP_WORDS == DEEPEVAL_STOP_WORDS


@settings(max_examples=300, deadline=None)
@given(trace=stagnation_traces())
def test_cleaned_words_are_deepevals_word_for_word(trace: dict[str, Any]) -> None:
    # Unicode, odd whitespace, short tokens without stop words, stop words only past the
    # opening words: the shortcut for text with nothing to drop must never drop too little.
    for span in trace["children"]:
        output = span["output"]
        got = _meaningful(output)
        expected = deepeval_clean(output) if isinstance(output, str) else []
        if len(expected) < 20:
            assert got is None
        else:
            assert got is not None
            assert (got.words, got.vocabulary, got.text) == (
                expected,
                set(expected),
                " ".join(expected),
            )


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(st.text(), st.text(st.characters(max_codepoint=127)), st.text("ab \t~Z")))
def test_distinct_chars_is_set_of_text(text: str) -> None:
    # Common ASCII characters are found by membership tests, the rest by translate().
    assert _distinct_chars(text) == set(text)
    assert _distinct_chars(text * 50 + "\x00\x7f") == set(text) | {"\x00", "\x7f"}


@settings(max_examples=200, deadline=None)
@given(pair=string_pairs())
def test_common_characters_is_difflibs_quick_ratio_count(pair: tuple[str, str]) -> None:
    words_a, words_b = pair[0].split() or ["x"], pair[1].split() or ["y"]
    x, y = Output(words_a), Output(words_b)
    expected = sum((Counter(x.text) & Counter(y.text)).values())
    assert _common_characters(x, y) == expected
    assert _ratio(expected, len(x.text) + len(y.text)) == (
        SequenceMatcher(None, x.text, y.text).quick_ratio()
    )


def test_reading_stops_at_the_first_pair_of_similarity_one() -> None:
    # No later pair can beat 1.0 (ties keep the first), so the outputs after it are never
    # read: a generator that fails past that point must not be touched.
    rnd = random.Random(6)
    first, second, later = (rnd.choices(WORDS, k=30) for _ in range(3))

    def read() -> Iterator[list[str] | None]:
        yield from (first, second, second)
        raise AssertionError("read past the identical pair")

    assert deepeval_best([first, second, second, later, later], 0.85) == (1.0, 1)
    assert best_of(read(), 0.85) == (1.0, 1)


def test_high_jaccard_low_ratio_pair_is_scored_by_its_jaccard() -> None:
    # Distinct words, one changed: the Jaccard stays high while autojunk sinks the ratio,
    # so the Jaccard decides, and its bound must not skip it.
    rnd = random.Random(0)
    words = list(dict.fromkeys("".join(rnd.choices(ENGLISH, k=7)) for _ in range(60)))[:45]
    changed = list(words)
    changed[20] = "zzzzzzz"
    jaccard = bigram_jaccard(words, changed)
    ratio = SequenceMatcher(None, " ".join(words), " ".join(changed)).ratio()
    assert jaccard >= 0.85 > ratio
    assert best_of([words, changed], 0.85) == (jaccard, 0) == deepeval_best([words, changed], 0.85)


def test_dense_repetitive_text_falls_back_to_difflib(monkeypatch: pytest.MonkeyPatch) -> None:
    # Repetitive text against a short b pairs up too many positions; difflib takes over.
    a, b = "ab" * 3000, "ab" * 70 + "c"
    assert matching_characters(a, b) == difflib_matches(a, b) == 140
    monkeypatch.setattr(ratio_module, "MAX_DOUBLES", 5)
    rnd = random.Random(2)
    for _ in range(30):
        x = "".join(rnd.choices("abc ", k=rnd.randint(50, 400)))
        y = "".join(rnd.choices("abc ", k=rnd.randint(50, 190)))
        assert matching_characters(x, y) == difflib_matches(x, y)
