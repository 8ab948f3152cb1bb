"""The embedded judge's HALLUCINATION answer: is every fact the answer states in its context?

The answer is split into claims (sentences, list items). A claim offered as a guess, a
refusal ("the documents don't say") or advice asserts nothing and is skipped. Every other
claim is checked against the evidence, which is the context documents and the tool outputs
(the user's own words count too: restating them invents nothing):

- **numbers and dates** are decisive: a number is supported when the evidence holds it,
  rounded to the claim's precision, converted to another unit, or as the sum, difference,
  product, ratio or percentage change of two evidence numbers; a date when some evidence
  date agrees with it in every part both give (``2027-01-20`` = ``20 January 2027``);
- **names** (acronyms, capitalised words, codes) the evidence never mentions;
- **negation**: the claim and the evidence sentence it is closest to (by embedding) say
  the same thing with opposite polarity ("we do not cover flood" / "flood is covered",
  or in a word of its own: "closed" / "open", "free" / "charged");
- **coverage and similarity**, soft evidence: the share of the claim's content words the
  evidence holds, and the claim's cosine to its best evidence sentence.

Each claim gets log-odds of being unsupported (the hand-set weights below). The answer's
evidence is its worst claim's log-odds and, per check, the strongest finding over its
claims; the learned head (``_head.py``) weighs them into the answer's value.
"""

from __future__ import annotations

import ast
import calendar
import contextlib
import datetime
import itertools
import json
import math
import operator
import re
import zoneinfo
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache, wraps
from typing import Any

from ...case import RunCase, ToolCall
from .._types import Answer
from ._answerer import Embed
from ._claims import (
    _APPROX,
    _CELL_AMOUNT,
    _COMMON_CAPITALS,
    _CURRENCY_NAMES,
    _ID_DIGITS,
    _ISO_CURRENCIES,
    _MARK_CODES,
    _MONTHS,
    _TITLES,
    DateParts,
    Quantity,
    Valued,
    _dimension,
    _ends_with,
    _english_numbers,
    _plain,
    _words,
    aligned_records,
    answer_text,
    clauses,
    clock_times,
    continental,
    contradicts,
    converted,
    date_supported,
    dates,
    delimited_records,
    derived_values,
    head,
    is_generic_advice,
    is_hedged,
    is_refusal,
    key_terms,
    keyed_scales,
    keyed_units,
    labelled_values,
    negation_scope,
    number_supported,
    quantities,
    split_claims,
    spoken_numbers,
    stem,
    table_records,
    tool_text,
    unit_slip,
    verdict,
    word_stems,
    worded_clock_times,
    xml_json,
)
from ._claims import _FUNCTION as _FUNCTION_WORDS
from ._completion import _asks_action
from ._head import Evidence, head_answer
from ._task import _failed
from ._tokenizer import strip_accents

__all__ = ["answer_hallucination"]

# Log-odds of "this claim is not supported". Round values set from what each piece of
# evidence means; checked on calibration/hallucination.jsonl (see docs/local-judge.md).
_BASE = -2.5  # a claim with nothing against it
_NUMBER = 5.0  # a number or date no evidence supports: the claim is wrong or invented
_MORE_NUMBERS = 1.0  # each further one
_SMALL_COUNT, _COUNT = 3, 1.5  # a bare count up to 3 that no evidence holds: weak evidence
_NAME = 1.75  # a name the evidence never mentions
_MAX_NAMES = 3.5
# A short answer (a few words, e.g. a bare name) none of whose names the evidence holds.
_SHORT_WORDS, _SHORT_ANSWER = 5, 5.0
_LINKS = frozenset("of the a an and for de la von van du".split())  # noqa: SIM905
_PLEASANTRIES = frozenset("yes no sure ok okay thanks thank hi hello i great done".split())  # noqa: SIM905
_CONTRADICTION = 4.5  # opposite polarity to the evidence sentence it restates
_COVERAGE_CENTRE, _COVERAGE_SLOPE = 0.55, 3.0  # share of content words found in the evidence
_COS_CENTRE, _COS_SLOPE = 0.5, 2.5  # cosine to the best evidence sentence
# A claim restates an evidence sentence (and so can contradict it) from this cosine, or
# when it shares this share of its content words with it.
_ALIGN_COS, _ALIGN_OVERLAP = 0.55, 0.5
_MAX_CLAIMS = 40  # claims checked, in order: bounds the time on a very long answer
_RESTATES_COS = 0.6
_ALIGN_TOP = 3  # evidence sentences, the closest first, a claim may contradict
_MIN_SOFT_WORDS = 3
_MIN_CLAUSE_WORDS = 4
# "+" between spaces is "plus" written as its sign: "$250 from the certificate + $5 from the Visa".
_ADDED = re.compile(r",?\s+(?:and|plus|also|as well as|but)\s+|;\s+|\s+[\u2014\u2013+]\s+",
                    re.IGNORECASE)
_EVIDENCE_SENTENCES = 10  # evidence sentences embedded, the most word-sharing first
_EMBED_WORDS = 24  # words of each embedded; a claim's subject and its fact come early
_NO_CLAIMS = -2.5  # nothing asserted: hedges, refusals, advice only
# Words that say a number was worked out: only then may it be a sum, a difference, a
# product or a ratio of evidence numbers (otherwise 40 "supported" by 60 - 20 is luck).
_ARITHMETIC = re.compile(
    r"\b(?:total|sum|combined|altogether|in all|difference|more than|less than|fewer|left|"
    r"remaining|remain|net|average|mean|per|each|times|twice|half|increase[sd]?|decrease[sd]?|"
    r"rose|fell|grew|dropped|change[sd]?|saving|save[sd]?|minus|plus|ratio|share|percent|"
    r"rate|convert\w*|works out|comes to|which is|that's|that is|so you|you'd|you would|"
    r"would be|will be|after(?!\s+\d)|before|earlier|later|ago|less|deduct\w*|"
    r"so (?:the|your|you|it|that))\b|[=×+]|\bso\s+[$€£¥]?\d|"
    r"\d(?:\s?[A-Za-z$€£¥]{1,4})?\s+more\b|"  # "add 7.70 GBP more": a difference
    r"\d\s+of\s+(?:the\s+|all\s+|its\s+)?[$€£¥]?\d",  # "188 of the 500 seats": a part of a whole
    re.IGNORECASE,
)

# "The Ostrel, by about 126 km" after "which is longer?": a number after "by" where the
# question or the claim compares is the gap between the two values, worked out.
_BY_GAP = re.compile(r"\bby\s+(?:(?:about|around|roughly|nearly|almost|some|just|over|under)\s+)?"
                     r"[$€£¥]?\d", re.IGNORECASE)


def _worked_out(claim: str, question: str) -> bool:
    """The claim says it worked a number out (see ``_ARITHMETIC``)."""
    return bool(_ARITHMETIC.search(claim)) or bool(_BY_GAP.search(claim)) and any(
        p.search(f"{question} {claim}") for p in (_HIGHER, _LOWER))


@dataclass(frozen=True)
class _Record:
    """A flattened record (a line of several ``key: value`` pairs): the names only it
    gives (short values with no number or date) and its pairs."""

    names: frozenset[str]
    pairs: tuple[tuple[str, str], ...]


_Segmented = tuple[list[bool], list[str], list[set[str]], list[set[str]], list[list[Quantity]],
                   list[frozenset[str]]]


# A yes-no question, not a request put as one ("Do you have…", "Can you…").
_YES_NO_QUESTION = re.compile(r"^\W*(?:is|are|was|were|did|does|do|has|have|had|will)\b"
                              r"(?![^?]*\byou\b)[^?]*\?\W*$", re.IGNORECASE)
_YES = re.compile(r"^\W*yes\b", re.IGNORECASE)


def _yes_no_questions(text: str) -> list[str]:
    return [s for s in split_claims(text) if _YES_NO_QUESTION.match(s)]


# What a question gives as the user's own ("will my 62 ft boat fit", "can our 4 kids come"):
# a premise, stated though asked about.
_OWN_MEASURE = re.compile(r"\b(?:my|our)\s+(?:[a-z-]+\s+)?\d[\d.,]*\s?[A-Za-z€$£%]*", re.IGNORECASE)


def _told(text: str) -> str:
    """What the user's words state: their yes-no questions left out but for their premises."""
    asked = _yes_no_questions(text)
    own = [m.group(0) for s in asked for m in _OWN_MEASURE.finditer(s)]
    return "\n".join([*(s for s in split_claims(text) if s not in asked), *own]) if asked else text


# A line of source code or of a program's printout in a tool output ("if check and not
# _check(x):", "is_FiniteSet = False", "bulk_update returned: None", a numbered listing's
# "  2200\t    # if elasticnet was used", grep's "1971: x = y"): its "not", "False" and
# "None" are the program's, no statement that denies a claim's word.
_CODE_LINE = re.compile(r"""^\s*(?:\d+\t|(?:\d+[\t:-])?[+-]?\s*(?:
    (?:if|elif|while|for|with|def|class)\b[^\n]*:\s*$
  | (?:else|try|finally)\s*:
  | (?:return|raise|assert|import|lambda|yield)\b[^\n]*[(\[%'"]
  | \#(?!\d)|>>>  # "#4419 2026-12-02 …" is a ticket's number, no comment
  | [A-Za-z_]\w*(?:\.\w+)*(?:\[[^\]\n]*\])?\s*[+\-*/]?=(?!=)[^\n]*$
  | (?=[^\n;]*[:=]\s*(?:None|True|False)\s*$)  # first the end: else every split is tried
    [^\n;]*(?:\w_\w|\w\.\w|\))[^\n;]*[:=]\s*(?:None|True|False)\s*$
))""", re.VERBOSE)  # a printout names a variable ("bulk_update"); a record's key is words


# A query the agent sent ("query: SELECT COUNT(*) … WHERE completed_at IS NULL") is code: its
# NOT and NULL filter rows, they state no fact a claim could contradict.
_QUERY = re.compile(r"^\s*(?:[\w .]+:\s*)?(?:SELECT|WITH|INSERT|UPDATE|DELETE)\s"
                    r"|(?i:\bselect\b.+\bfrom\s+[\w.]+.*\b(?:where|group by|order by|join|limit)\b)")


# A tool output is read for its facts and for its yes/no values, the code regex over each of
# its lines both times (a coding run's long logs: 18% of HALLUCINATION's rule time).
@lru_cache(maxsize=256)
def _code_free(text: str) -> str:
    """The text without its lines of code (see ``_CODE_LINE``)."""
    return "\n".join(line for line in text.splitlines() if not _CODE_LINE.match(line))


_AGES = re.compile(r"\bhow old\b|\bhow many years\b|\bat what age\b", re.IGNORECASE)


# A duration as a log or a build tool prints it ("23m37s", "1h02m", "3m 12s"): no quantity is
# read from the glued form. Its parts as written (an answer echoes "23m") and in words.
_LOG_DURATION = re.compile(r"(?<![\w.])(?:(?P<h>\d+)h\s?)?(?P<m>\d+)m\s?(?:(?P<s>\d+(?:\.\d+)?)s)?(?![\w.])")


def _log_durations(text: str) -> list[Quantity]:
    out: list[Quantity] = []
    for m in _LOG_DURATION.finditer(text):
        if not (m.group("h") or m.group("s")):
            continue  # "512m" alone is a size or a distance
        h, mi, sec = (float(m.group(k) or 0) for k in ("h", "m", "s"))
        seconds = 3600 * h + 60 * mi + sec
        out += [Quantity(m.group(0), mi, unit, 1.0, False) for unit in ("m", "min")]
        out += [Quantity(m.group(0), v, unit, 1.0, False) for v, unit in (
            (sec, "s"), (h, "h"), (seconds, "s"), (seconds / 60, "min"), (seconds / 3600, "h")) if v]
    return out


_KEY_NUMBER = re.compile(r"(?<=[A-Za-z]_)(\d{1,4})(?=_[A-Za-z])")
_GLUED_SIZE = re.compile(r"(?<=[a-z=:])(\d+(?:\.\d+)?)([kmgt])b?(?![\w.])", re.IGNORECASE)


@dataclass
class _Evidence:
    texts: list[str]
    given: str  # the user's request: what it states is not invented by the answer
    told: str | None = None  # what of it counts as support, when not all of it
    sentences: list[str] = field(default_factory=list)
    lower: str = ""
    stems: frozenset[str] = frozenset()
    listed: list[frozenset[str]] = field(default_factory=list)  # see _listed
    values: list[float] = field(default_factory=list)
    direct: list[float] = field(default_factory=list)
    date_readings: list[tuple[int | None, int | None, int | None]] = field(default_factory=list)
    found: list[Quantity] = field(default_factory=list)
    date_parts: list[Quantity] = field(default_factory=list)
    minutes: set[int] = field(default_factory=set)
    durations: list[float] = field(default_factory=list)
    periods: frozenset[str] = frozenset()
    shifted: list[DateParts] = field(default_factory=list)
    valued: list[Valued] = field(default_factory=list)
    keyed: list[tuple[frozenset[str], str, str, int]] = field(default_factory=list)  # see _keyed
    records: list[_Record] = field(default_factory=list)  # see _records
    totals: list[float] = field(default_factory=list)  # see _column_totals
    groups: list[tuple[frozenset[str], list[float]]] = field(default_factory=list)  # see _group_totals
    shown: list[float] = field(default_factory=list)  # see add_operands
    documents: int = 0  # the first texts are the context's documents, the rest tool outputs
    empty: list[frozenset[str]] = field(default_factory=list)  # each call that returned nothing: its name's and arguments' stems
    # The sentences only the run's own tool arguments hold (a hand-off's summary): its words.
    written: frozenset[str] = frozenset()
    # Each line of the rules the agent was given that it may cite as a reason: its stems.
    reasons: list[frozenset[str]] = field(default_factory=list)
    # The words of the names of the calls that worked ("subscribe_incident_sms"): what the
    # run did, which the answer may name ("SMS updates").
    called: frozenset[str] = frozenset()
    # Each value's units where every time the evidence states it it says its unit.
    units: dict[float, frozenset[str]] = field(default_factory=dict)
    ages: list[float] = field(default_factory=list)  # see __post_init__
    # A claim's rates are wanted twice: as operands of the answer's arithmetic, then as support.
    _rates: dict[str, list[float]] = field(default_factory=dict, init=False, repr=False)
    _segmented: _Segmented | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        for text in self.texts:
            self.sentences.extend(split_claims(text))
        told = self.given if self.told is None else self.told
        every = "\n".join([*self.texts, told])
        self.lower = every.lower().replace("_", " ")
        self.stems = word_stems(every)
        # The latest texts first: only the first numbers are combined in arithmetic
        # (``derived_values``), and a long run's closing answer works out its totals from
        # what its last calls returned (the booking made, the refunds of the cancellation),
        # not from the dozens of prices its first searches listed.
        for text in [*reversed(self.texts), told]:
            self.found.extend(quantities(text))
            # A debit of -1850.00 is a payment of $1,850.
            self.found.extend(replace(q, value=-q.value) for q in quantities(text) if q.value < 0)
            # "37/4,000 housings", "2/3 of the seats": a fraction states both of its numbers.
            self.found.extend(Quantity(n, float(n.replace(",", "")), "", 1.0, False)
                              for m in _FRACTION.finditer(text) for n in m.groups())
            # "-Xmx8g", "shm_size: 512m": a size glued to its unit's letter in code or config.
            self.found.extend(Quantity(m.group(0), float(m.group(1)), m.group(2).lower() + "b", 1.0, False)
                              for m in _GLUED_SIZE.finditer(text))
            # "score: 0-3", "ages 4-11": a pair of small numbers states both (an answer may
            # give a score from the other side, "lost 3-0"); an id's parts are longer.
            self.found.extend(Quantity(n, float(n), "", 1.0, False)
                              for m in _PAIRED.finditer(text) for n in m.groups())
            self.found.extend(_log_durations(text))
            self.minutes.update(m for _, m in clock_times(text))
            for _, readings in dates(text):
                self.date_readings.extend(readings)
                # "the 31st", "in 2026": a date's parts may be stated as plain numbers, but
                # are no operands of arithmetic (12 + 18 from 2026-12-18 is chance).
                parts = {p for r in readings for p in r if p is not None}
                self.date_parts.extend(Quantity(str(p), float(p), "", 1.0, False) for p in parts)
        self.values = sorted(derived_values(self.found) + [q.value for q in self.date_parts])
        # "How old was she when it opened?": the years between two of the context's years
        # (one less before the birthday).
        years = {y for y, _, _ in self.date_readings if y} | {
            int(q.value) for q in self.found if _bare_year(q)}
        self.ages = sorted({d for a in years for b in years if a > b for d in (a - b, a - b - 1)}
                           ) if _AGES.search(told) else []
        # A record's measure whose key names its unit ("distance km: 14.2", "read time s:
        # 371") converts (8.8 miles, 6 minutes) as if written with it; stated, no operand (it
        # is the bare 14.2 again). A rate's key ("rate gbp per day") names no unit of its value.
        keyed = [Quantity(str(v), v, unit, 1.0, False) for text in self.texts
                 for v, unit in keyed_units(text) if _dimension(unit) != "money"]
        keyed += [Quantity(f"{v:g}", v, "", 1.0, False) for text in self.texts for v in keyed_scales(text)]
        # "tram_28_interruption_max_min: 10": a number inside a key names its thing (line
        # 28); stated, no operand.
        keyed += [Quantity(n, float(n), "", 1.0, False) for text in self.texts for n in _KEY_NUMBER.findall(text)]
        self.direct = derived_values([*self.found, *self.date_parts, *keyed], limit=0)
        # Time between two clock times (07:52 to 08:29 is 37 minutes, or 1 h 45 min for
        # 07:35 to 09:20), across midnight too.
        gaps = {(b - a) % _DAY_MINUTES for a in self.minutes for b in self.minutes if a != b}
        # A duration the evidence states in parts ("cut-off 3 h 30 min") is its total too:
        # 210 minutes, 3.5 hours.
        totals = [60 * float(m.group("hv")) + float(m.group("mv"))
                  for text in [*self.texts, told] for m in _COMPOUND_DURATION.finditer(text)]
        totals += [float(m.group("mv")) + float(m.group("sv")) / 60
                   for text in [*self.texts, told] for m in _MIN_SEC.finditer(text)]
        self.durations = sorted([*gaps, *(g / 60 for g in gaps), *(g // 60 for g in gaps),
                                 *(g % 60 for g in gaps), *totals, *(t / 60 for t in totals)])
        # A date plus a term the evidence states (given in September 2025, valid 3 years:
        # until September 2028); only where the claim says it counted one. A term whose key
        # names its unit ("review after weeks: 6") counts on from the latest date alone: a
        # record that gives its own later date ("next due") has done that count itself.
        full = [r for r in self.date_readings if None not in r]
        self.shifted = _shifted(self.date_readings, self.found) + (
            _shifted([max(full)], keyed) if full and keyed else [])
        self.periods = _periods(every)
        self.valued = [v for text in self.texts for v in labelled_values(text)]
        self.units = _value_units([*self.texts, told])

    # What the per-claim checks read of the texts alone, worked out once per case.
    @cached_property
    def facts(self) -> str:
        """The texts' lines as statements (see ``_stated``), for ``_state_conflict``; a
        record's snake_case value in words, as its keys are ("status: pending review")."""
        return _SNAKE.sub(" ", "\n".join("; ".join(map(_stated, _PAIR_SPLIT.split(line)))
                                         for text in self.texts for line in _code_free(text).splitlines()))

    @cached_property
    def entries(self) -> list[tuple[list[str], list[tuple[str, str]]]]:
        """The texts' records with their paths (see ``_entries``)."""
        return _entries(self.texts)

    @cached_property
    def folded(self) -> str:
        """``lower`` without accents: "Reina Sofia" names the "Museo Reina Sofía"."""
        return _fold(self.lower)

    @cached_property
    def peoples(self) -> frozenset[str]:
        """The words of every country, continent or people the texts name in any of its
        forms: "a Danish drummer" names Denmark, "an American band" the United States."""
        return _peoples(self.folded)

    @cached_property
    def lists(self) -> dict[str, list[frozenset[str]]]:
        """The stems of each item of each list the texts give under one repeated key, one
        item a line ("hoa includes: trash", "utilities tenant paid: water"), by key."""
        out: dict[str, list[frozenset[str]]] = {}
        for text in self.texts:
            pairs = [m.groups() for line in text.splitlines()
                     if len(_PAIR_SPLIT.split(line)) == 1 and (m := _PAIR.match(line))]
            keys = Counter(k.lower() for k, _ in pairs)
            for k, v in pairs:
                if keys[k.lower()] > 1:
                    out.setdefault(k.lower(), []).append(word_stems(v))
        return out

    @cached_property
    def falls(self) -> list[float]:
        """The sizes of the negative numbers the texts state (a share as a percentage too)."""
        return sorted(v for t in self.texts for q in quantities(t) if q.value < 0
                      for v in (-q.value, -100 * q.value))

    @cached_property
    def rises(self) -> list[float]:
        return sorted(v for t in self.texts for q in quantities(t) if q.value > 0
                      for v in (q.value, 100 * q.value))

    @cached_property
    def today(self) -> datetime.date | None:
        return _today(self.texts)

    @cached_property
    def zones(self) -> frozenset[str]:
        """The IANA zones the texts name ("Asia/Ho_Chi_Minh") that the zone data knows."""
        known = _known_zones()
        return frozenset(z for t in self.texts for z in _IANA.findall(t) if z in known)

    @cached_property
    def name_spans(self) -> list[tuple[frozenset[str], set[str]]]:
        return [sp for t in self.texts for sp in _name_spans(t)]

    @cached_property
    def line_stems(self) -> list[frozenset[str]]:
        """Each line's stems (a flattened record is one line; ``basic_economy`` is two
        words), for ``_unsupported_cause``."""
        return [word_stems(line.replace("_", " ")) for text in self.texts for line in text.splitlines()
                if line.strip()]

    @cached_property
    def text_stems(self) -> frozenset[str]:
        """The stems of the texts (not the question's), for ``_invented_items``."""
        return word_stems("\n".join(self.texts))

    @cached_property
    def stem_prefixes(self) -> frozenset[str]:
        return frozenset(s[:_STEM_PREFIX] for s in self.text_stems)

    @cached_property
    def name_runs(self) -> list[frozenset[str]]:
        """The words of each name of several words the texts give ("United States Navy")."""
        return [frozenset(w.lower() for w in re.findall(r"[\w'-]+", m.group(0))) - {"of", "the", "de"}
                for t in self.texts for m in _NAME_RUN.finditer(t)]

    def says(self, word: str) -> bool:
        """Whether a text (not the question) has the word, or a word of its stem (a word of
        parts, "wi-fi", as one word too)."""
        joined = re.sub(r"[\s-]+", "", word)
        return (stem(word) in self.text_stems or stem(word)[:_STEM_PREFIX] in self.stem_prefixes
                or any(word in t for t in self.lowered) or word in self.peoples
                or _fold(word) in self.folded_texts
                or joined != word and stem(joined) in self.text_stems)

    @cached_property
    def folded_texts(self) -> str:
        return _fold("\n".join(self.lowered))

    @cached_property
    def lowered(self) -> list[str]:
        return [t.lower() for t in self.texts]

    def segmented(self) -> _Segmented | None:
        """The context cut into segments for binding (see ``_misbound``), once per case:
        whether each is a record's, its text, tokens, the tokens of what it is about, its
        numbers and its names. None when there are fewer than two."""
        if self._segmented is None:
            pairs = [p for t in self.texts for p in _segments(t)]
            segs = [g for g, _ in pairs]
            self._segmented = (
                [_is_record(line) for t in self.texts for line in t.splitlines() for _ in _segments(line)],
                segs, [_tokens(g) for g in segs], [_tokens(g) for _, g in pairs],
                [quantities(g) for g in segs], [key_terms(g) | _versions(g) for g in segs])
        return self._segmented if len(self._segmented[1]) >= 2 else None

    def rates(self, claim: str) -> list[float]:
        """The evidence's values restated per a period the claim names, from a period the
        evidence or the claim names ($49 a month is $588 a year; 2.3 million a year is
        6,300 a day); the factor itself too where the claim shows its working (× 12)."""
        if claim not in self._rates:
            self._rates[claim] = self._restated(claim)
        return self._rates[claim]

    def _restated(self, claim: str) -> list[float]:
        mine = _periods(claim)
        factors = {_PER_PERIOD[pair] for a in mine for b in self.periods | mine
                   if (pair := tuple(sorted((a, b)))) in _PER_PERIOD}
        lengths = self.month_lengths(claim) if mine & {"minute", "hour"} else []
        if not factors:
            return lengths
        out = [*lengths, *(v for q in self.found for k in factors for v in (q.value * k, q.value / k))]
        if _SHOWN.search(claim):
            out.extend(factors)
        return sorted(out)

    def month_lengths(self, claim: str) -> list[float]:
        """The hours and minutes of each month the claim names, in a year the evidence
        dates it (February both ways when none does)."""
        out: list[float] = []
        for m in _MONTH_NAMED.finditer(claim):
            month = _MONTHS[m.group(1).lower()]
            years = {y for y, mo, _ in self.date_readings if y and mo == month} or {2023, 2024}
            for y in years:
                days = calendar.monthrange(y, month)[1]
                out += [24.0 * days, 1440.0 * days]
        return sorted(set(out))

    def add_operands(self, claims: Iterable[str]) -> None:
        """Numbers the answer states that the evidence supports may feed its next step of
        arithmetic (£500 x 1.268 = $634, then $634 + $15 fee = $649)."""
        said = list(claims)
        stated = [(q, self.rates(c)) for c in said for q in quantities(c)]
        extra: list[Quantity] = []
        # Twice: a result worked out from an answer's own worked-out number (10% of 4.6 kg
        # is 0.46 kg, so the target is 4.1 kg) is one more step.
        for _ in range(_OPERAND_STEPS):
            new = [q for q, rates in stated if q not in extra
                   and (number_supported(q, self.values) or number_supported(q, rates))]
            if not new:
                break
            extra += new
            total: dict[str, float] = {}
            for q in extra:
                total[q.unit] = total.get(q.unit, 0.0) + q.value
            # The answer's own supported numbers first, as operands of its next step.
            self.values = sorted(derived_values([*extra, *self.found]) + list(total.values())
                                 + [q.value for q in self.date_parts])
        self.shown = sorted(_shown(said, self.values))


# "£1,134.50 in deductions (income tax £640.20, pension £494.30)": a total the answer
# itemises in brackets just after it. "£4,200.00 gross minus £1,134.50": a step it spells out.
_ITEMISED = re.compile(r"^[^\d()]{0,30}\(([^()]*)\)")
_STEP = re.compile(r"^\s*(?:[a-z]+\s+){0,2}(minus|less|plus|[-\u2212+])\s+(?:the\s+|your\s+|a\s+)?$",
                   re.IGNORECASE)
_BRACKETED = re.compile(r"\([^()]*\)")


def _shown(claims: Sequence[str], values: Sequence[float]) -> list[float]:
    """The results whose working the answer shows, from operands the evidence supports (in
    ``values``): the sum of the parts it itemises, one number plus or minus the next. A result
    stated apart from its working ("Your take-home is £3,065.50. That's £4,200 minus …") is
    then supported wherever the answer states it."""
    out: list[float] = []
    for claim in claims:
        placed: list[tuple[Quantity, int, int]] = []
        at = 0
        for q in quantities(claim):
            start = claim.find(q.text, at)
            if start < 0:
                continue
            at = start + len(q.text)
            placed.append((q, start, at))
        for q, _, end in placed:
            m = _ITEMISED.match(claim[end:])
            parts = quantities(m.group(1)) if m else []
            if len(parts) > 1 and all(p.unit in (q.unit, "") and number_supported(p, values) for p in parts) \
                    and number_supported(q, [sum(p.value for p in parts)]):
                out.append(q.value)
        # A step's operands stand outside the brackets that itemise one of them.
        outside = [x for x in placed if claim[: x[1]].count("(") == claim[: x[1]].count(")")]
        for (a, _, end), (b, start, _) in itertools.pairwise(outside):
            step = _STEP.match(_BRACKETED.sub(" ", claim[end:start]))
            if step and a.unit == b.unit and all(number_supported(x, values) or x.value in out for x in (a, b)):
                out.append(a.value + b.value if step.group(1).lower() in ("plus", "+") else a.value - b.value)
    return out


def _worked_earlier(steps: Iterable[str], direct: Sequence[float]) -> list[float]:
    """The figures the agent worked out in its earlier words to the user ("$161 + $192 =
    $353 ... refunded the difference of $207"): a number an earlier turn states that that
    turn's own numbers the evidence gives (``direct``), or that it worked out before, make
    by one step of arithmetic. A closing answer restates them ("a refund of $207") without
    its working; a figure the earlier working did not produce stays unsupported."""
    out: list[float] = []
    for step in steps:
        stated = quantities(step)
        known = [q for q in stated if number_supported(q, direct)]
        rest = [q for q in stated if q not in known]
        while rest and len(known) > 1:
            derived = derived_values(known)
            # A difference said with its sign ("-3.76", a credit) is the difference.
            new = [q for q in rest if number_supported(replace(q, value=abs(q.value)), derived)]
            if not new:
                break
            known += new
            rest = [q for q in rest if q not in new]
            out += [q.value for q in new]
    return sorted(out)


def _value_units(texts: Iterable[str]) -> dict[float, frozenset[str]]:
    """Each value's units, from the amount (``€24``, ``15 km``) or the record key it is the
    value of (``adult eur: 24``); none for a value the evidence also states bare."""
    units: dict[float, set[str]] = {}
    bare: dict[float, int] = {}
    for text in texts:
        for q in quantities(text):
            if q.unit:
                units.setdefault(q.value, set()).add(q.unit)
            else:
                bare[q.value] = bare.get(q.value, 0) + 1
        for value, unit in [*keyed_units(text), *_sibling_units(text)]:
            units.setdefault(value, set()).add(unit)
            bare[value] = bare.get(value, 0) - 1
    return {v: frozenset(u) for v, u in units.items() if bare.get(v, 0) <= 0}


_UNIT_KEY = re.compile(r"^(?P<of>.*?)\s*units?$")


def _sibling_units(text: str) -> list[tuple[float, str]]:
    """A record's bare number whose unit another key of it gives (``distance: 18.2;
    distance units: mi``, ``amount: 40; unit: kg``): the number in that unit, as read from
    "18.2 mi"."""
    out: list[tuple[float, str]] = []
    for line in text.splitlines():
        pairs = {m.group(1).strip().lower(): m.group(2).strip() for p in _PAIR_SPLIT.split(line) if (m := _PAIR.match(p))}
        for key, unit in pairs.items():
            m = _UNIT_KEY.match(key)
            # ``{"net_weight": {"value": 2.27, "unit": "kg"}}`` flattens to "net weight value".
            measured = [k for k in pairs if m and k != key and (
                k in (m.group("of"), f"{m.group('of')} value", f"{m.group('of')} amount") or not m.group("of"))]
            said = quantities(f"1 {unit}")
            if len(measured) == 1 and said and said[0].unit and (q := quantities(pairs[measured[0]])):
                out.append((q[0].value, said[0].unit))
    return out


@dataclass
class _Claim:
    index: int
    text: str
    logit: float = _BASE
    why: list[str] = field(default_factory=list)
    found: dict[str, float] = field(default_factory=dict)  # what each check found, for the head
    alone: bool = False  # the whole answer: only then may a few capitalised words be a name
    # "Yes" to "Is Volvo a Norwegian company?" says what the question asks: its names.
    affirms: frozenset[str] = frozenset()


# A country or continent and the words for its people: one place in several forms.
_PEOPLE_FORMS = [g.split("|") for g in (
    "united states|american|americans|america|usa|u.s|us|u.s.a", "united kingdom|british|britain|uk",
    "england|english", "scotland|scottish|scot|scots", "wales|welsh", "ireland|irish",
    "france|french", "germany|german|germans", "italy|italian|italians", "spain|spanish",
    "portugal|portuguese", "netherlands|dutch|holland", "belgium|belgian", "denmark|danish|dane",
    "sweden|swedish|swede", "norway|norwegian", "finland|finnish|finn", "iceland|icelandic",
    "poland|polish|pole", "austria|austrian", "switzerland|swiss", "greece|greek", "russia|russian",
    "ukraine|ukrainian", "hungary|hungarian", "czech republic|czech", "croatia|croatian",
    "serbia|serbian", "romania|romanian", "turkey|turkish", "israel|israeli", "egypt|egyptian",
    "india|indian", "pakistan|pakistani", "china|chinese", "japan|japanese", "korea|korean",
    "south korea|south korean", "vietnam|vietnamese", "thailand|thai", "indonesia|indonesian",
    "philippines|filipino|philippine", "australia|australian", "new zealand|new zealander",
    "canada|canadian", "mexico|mexican", "brazil|brazilian", "argentina|argentine|argentinian",
    "chile|chilean", "peru|peruvian", "colombia|colombian", "cuba|cuban", "jamaica|jamaican",
    "nigeria|nigerian", "kenya|kenyan", "south africa|south african", "ethiopia|ethiopian",
    "iran|iranian|persian", "iraq|iraqi", "saudi arabia|saudi", "africa|african",
    "europe|european", "asia|asian")]
_PEOPLES = {form: tuple(group) for group in _PEOPLE_FORMS for form in group}
_PEOPLE = re.compile(r"(?<![\w.])(?:" + "|".join(
    re.escape(f) for f in sorted(_PEOPLES, key=len, reverse=True)) + r")(?![\w])")
# An acronym spells the first letters of a name's words, "and"/"of" skipped: "NASA" for
# National Aeronautics and Space Administration, "OKC" for Oklahoma City, "WWII".
_SPELT = re.compile(r"[A-Z][\w'-]*(?:\s+(?:(?:and|of|the|for|&)\s+)?[A-Z][\w'-]*)+")
_ACRONYM_LETTERS = range(2, 7)


def _peoples(text: str) -> frozenset[str]:
    """The words of every form of each people or place the (lower-cased) text names."""
    return frozenset(w for m in _PEOPLE.finditer(text) for form in _PEOPLES[m.group(0)]
                     for w in form.split())


def _spells(acronym: str, words: Sequence[str]) -> bool:
    """Whether the acronym is each of the words' first letters or more, in order, every
    word used: "okc" spells ["oklahoma", "city"]."""
    if not words:
        return not acronym
    first = words[0]
    return any(acronym[:n] == first[:n] and _spells(acronym[n:], words[1:])
               for n in range(1, min(len(first), len(acronym)) + 1))


def _acronym_found(term: str, claim: str, ev: _Evidence) -> bool:
    """Whether the claim writes the term in capitals ("NASA", "U.S.") and it spells a name
    of the texts."""
    letters = term.replace(".", "")
    if (not letters.isalpha() or len(letters) not in _ACRONYM_LETTERS
            or not re.search(rf"(?<![\w.])(?-i:{re.escape(term.upper())})", claim)):
        return False
    for m in _SPELT.finditer("\n".join(ev.texts)):
        words = [w.lower() for w in m.group(0).split() if w not in ("and", "of", "the", "for", "&")]
        if any(_spells(letters, words[i:j]) for i in range(len(words))
               for j in range(i + 2, min(len(words), i + len(letters)) + 1)):
            return True
    return False


# A code the texts write in capitals: "AMS", "CET", "HMRC".
_CAPITALS_CODE = re.compile(r"(?<![\w-])[A-Z]{2,5}(?![\w-])")
_TITLE_RUN = re.compile(r"[A-Z][\w'-]*(?:\s+(?:(?:and|of|the|for|&)\s+)?[A-Z][\w'-]*)*")


def _in_order(letters: str, word: str) -> bool:
    rest = iter(word)
    return all(c in rest for c in letters)


def _abbreviates(code: str, words: Sequence[str]) -> bool:
    """Whether the code is the words shortened: each word gives its first letter and maybe
    later ones, in order, every word used ("cet" for central european time, "ams" for
    amsterdam, "jpy" for japanese yen)."""
    if not words:
        return not code
    first = words[0]
    return bool(code) and code[0] == first[0] and any(
        _in_order(code[1:n], first[1:]) and _abbreviates(code[n:], words[1:])
        for n in range(1, len(code) + 1))


def _abbreviated(term: str, claim: str, ev: _Evidence) -> bool:
    """Whether the term is a word of a name the claim spells out whose code the texts give
    in capitals: "Amsterdam" for AMS, "Central European Time" for CET. One word abbreviates
    only a code of three letters or more."""
    codes = {c.lower() for c in _CAPITALS_CODE.findall("\n".join(ev.texts))}
    if not codes:
        return False
    for m in _TITLE_RUN.finditer(claim):
        words = [w.lower() for w in m.group(0).split() if w not in ("and", "of", "the", "for", "&")]
        spans = [words[i:j] for i in range(len(words)) for j in range(i + 1, len(words) + 1)
                 if term in words[i:j]]
        if any(_abbreviates(code, span) for span in spans for code in codes
               if len(span) > 1 or len(code) > 2):
            return True
    return False


_RECORD_CURRENCY = re.compile(r"\bcurrency\s*[:=]\s*([A-Z]{3})\b")


def _other_currency(claim: str, ev: _Evidence) -> list[str]:
    """An amount the records give in one currency ("currency: ZAR", "currency=SGD"), said in
    another the evidence never uses ("$345,000" for "R 345000.00"; "190.00 USD"): the same
    number, so not converted, under another currency's mark."""
    given = {c for t in ev.texts for c in _RECORD_CURRENCY.findall(t) if c in _ISO_CURRENCIES}
    if len(given) != 1:
        return []
    out = []
    for q in quantities(claim):
        at = claim.find(q.text)
        code = next((c for c in re.findall(r"[A-Z]{3}", q.text) if c in _ISO_CURRENCIES), "")
        mark = next((m for m in _MARK_CODES if m in q.text), "")
        if at > 0 and claim[at - 1].isalpha() or not (code or mark):
            continue
        codes = frozenset({code}) if code else _MARK_CODES[mark]
        if given & codes or any(mark and mark in t or any(re.search(rf"\b{c}\b", t, re.IGNORECASE)
                                                          for c in codes) for t in ev.texts):
            continue
        if any(x.value == q.value for t in ev.texts for x in quantities(t)):
            out.append(q.text)
    return out


def _currency_named(term: str, ev: _Evidence) -> bool:
    """Whether the term is a word of the name of a currency whose code the texts give."""
    return any(term in names and re.search(rf"\b{code}\b", text)
               for code, names in _CURRENCY_NAMES.items() for text in ev.texts)


# Letters with a stroke or a ligature, which no accent stripping takes apart: "Małaszewicze"
# is "Malaszewicze" in an ASCII record, "Søborg" is "Soborg".
_LETTERS = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ı": "i", "ß": "ss", "æ": "ae",
                          "œ": "oe", "þ": "th"})


def _fold(text: str) -> str:
    """Lowercased text as an ASCII record may spell it: accents stripped, letters spelt out."""
    return strip_accents(text).translate(_LETTERS)


_SCALES = (1e3, 1e6, 1e9)
_SCALED_AMOUNT = re.compile(r"\d+(?:\.\d+)?(?:k|m|bn|b)")
_STRESSED = frozenset("not never only all any every must now yet still already both cannot".split())  # noqa: SIM905


def _name_found(term: str, ev: _Evidence) -> bool:
    term = term.replace("_", " ")  # as the evidence is read: "in_1PQ8" is "in 1pq8" there
    term = re.sub(r"['\u2019]s$", "", term)  # "Lord Byron's" names Lord Byron
    # The substring tests first: a term the texts lack needs no pattern of its own compiled.
    folded = _fold(term)
    if term in ev.lower and re.search(rf"(?<![a-z0-9]){re.escape(term)}", ev.lower) or any(
            f in ev.folded and re.search(rf"(?<![a-z0-9]){re.escape(f)}", ev.folded)
            for f in {folded, folded.replace("'", "")}):  # "Xi'an" is "XIAN" in a code
        return True
    parts = [p for p in re.split(r"[\s-]+", term) if p]
    if all(stem(p) in ev.stems for p in parts):
        return True
    # Its parts written as one word: "Wi-Fi" for "wifi", "e-mail" for "email".
    if len(parts) > 1 and stem("".join(parts)) in ev.stems:
        return True
    # Another form of a people's place: "Denmark" for "a Danish drummer".
    return all(p in ev.peoples for p in parts) or _country_coded(term, ev)


# Each country's ISO 3166 code, as a record's field writes it ("roaming_UA=41.30",
# "country: PL"): the country by its first form in _PEOPLE_FORMS.
_COUNTRY_CODES = dict(re.findall(r"([a-z ]+):([A-Z]{2})",
    "united states:US,united kingdom:GB,ireland:IE,france:FR,germany:DE,italy:IT,spain:ES,portugal:PT,"
    "netherlands:NL,belgium:BE,denmark:DK,sweden:SE,norway:NO,finland:FI,iceland:IS,poland:PL,austria:AT,"
    "switzerland:CH,greece:GR,russia:RU,ukraine:UA,hungary:HU,croatia:HR,serbia:RS,romania:RO,turkey:TR,"
    "israel:IL,egypt:EG,india:IN,pakistan:PK,china:CN,japan:JP,vietnam:VN,thailand:TH,indonesia:ID,"
    "philippines:PH,australia:AU,canada:CA,mexico:MX,brazil:BR,argentina:AR,chile:CL,peru:PE,colombia:CO,"
    "cuba:CU,jamaica:JM,nigeria:NG,kenya:KE,ethiopia:ET,iran:IR,iraq:IQ"))
_CODE_FIELD = r"(?:[_=]|:\s?|\bcountry\W{{1,3}}){}(?![A-Za-z])"


def _country_coded(term: str, ev: _Evidence) -> bool:
    """A country the evidence names only by its code in a record's field: "Ukraine" for
    "roaming_UA" (never a code standing alone, which may be a word in capitals: "IN", "NO")."""
    code = _COUNTRY_CODES.get(_PEOPLES.get(term, ("",))[0], "")
    return bool(code) and any(re.search(_CODE_FIELD.format(code), t) for t in ev.texts)


# Capitalised words (and codes) in a row, "of"/"the"/"de" between: one name.
_NAME_RUN = re.compile(r"\b[A-Z][\w'-]*(?:\s+(?:(?:of|the|de)\s+)?[A-Z0-9][\w'-]*)+")


def _name_rivals(ev: _Evidence) -> list[frozenset[str]]:
    """The names whose words another name shares only in part names another thing. In an
    answer to a question on documents, a name the documents give with other words is
    another name: "United States Army" where they say "United States Navy". A person a tool
    gives with another word is another person: "Priya Menon" where the schedule's
    interviewer is "Priya Raman"."""
    rivals = ev.name_runs if len(ev.texts) == ev.documents and _question(ev.given) else []
    return [*rivals, *(frozenset(p.lower().split()) for p in _person_keys(ev))]


def _renamed(claim: str, ev: _Evidence) -> str:
    """A name that keeps a word of one the context gives and puts in its place a word the
    context never gives ("Dr. Amara Mensah" for "Dr. Amara Osei", "Priya Menon" for "Priya
    Raman"): another person or thing, not the context's called another way. An initial
    ("Priya R.") or a name said in part ("Dr. Osei") is the context's. One word for one, in
    the name's last words (a title or role may lead: "Captain Ines Moreau"): "New Flight
    Information" is no "New York"; and not a word a code of the context spells ("San
    Francisco (SFO)" beside "San Antonio")."""
    rivals = _name_rivals(ev)
    for m in _NAME_RUN.finditer(claim):
        said = [w.lower() for w in re.findall(r"[\w'-]+", m.group(0)) if w.lower() not in _FUNCTION_WORDS]
        for rival in rivals:
            tail = set(said[-len(rival):])
            new = {w for w in tail - rival if len(w) > 2 and not w.isdigit() and not _name_found(w, ev)
                   and not _acronym_found(w, claim, ev) and not _abbreviated(w, claim, ev)}
            if len(said) >= len(rival) == len(tail) >= 2 and len(tail & rival) == len(rival) - 1 and new:
                return f'"{m.group(0)}" where the context names "{" ".join(sorted(rival))}"'
    return ""


def _named_with_found(claim: str, ev: _Evidence) -> set[str]:
    """Words of a name some other word of which the evidence holds: "Port of Felixstowe"
    for Felixstowe, "D2 Problem" for D2. The name is the context's; its generic words are
    the answer's way of saying it. A number in a name ("Model 3", "Terminal 2") is no
    word of it that the evidence can hold: numbers are the number checks'."""
    out: set[str] = set()
    rivals = _name_rivals(ev)
    for m in _NAME_RUN.finditer(claim):
        words = {w.lower() for w in re.findall(r"[\w'-]+", m.group(0))} - {"of", "the", "de"}
        found = {w for w in words if not w.isdigit() and _name_found(w, ev)}
        if found and not any(found <= r and r - words for r in rivals):
            out |= words
    return out


# A zone's code in capitals only: case-blind, "[A-Z]{2,4}T" read "next" and "must" as zones.
_ZONE_CODE = r"(?-i:[A-Z]{2,4}T|CET|CEST|EST|EDT|PST|PDT|IST|JST)"
_TIME_ZONE = re.compile(rf"\b(?:utc|gmt|local time|time zone|timezone|[a-z]+ time|{_ZONE_CODE})\b",
                        re.IGNORECASE)
_ZONE_NAME = re.compile(rf"\b{_ZONE_CODE}\b")
_PLACE_TIME = re.compile(r"\b((?:[A-Z][a-z]+ ){1,2})time\b")
# "(18:00 in Warsaw)", "00:10 on 1 December in Berlin": the place a clock time is told in.
# A zone's offset may follow in brackets: "10:30 in Hanoi (GMT+7)".
_CLOCK_PLACE = re.compile(r"\d(?:\s?[ap]\.?m\.?)?(?:\s+(?:on|the)?\s*[\w ]{0,20}?)?\s+in\s+((?:[A-Z][a-z]+\s?){1,2})"
                          r"(?=[).,;]|\((?:UTC|GMT)|$)")
_ONE_DAY = Quantity("1 day", 1.0, "day", 1.0, False)


_DAY_MINUTES = 24 * 60
_NOON = 12 * 60
_MERIDIEM = re.compile(r"[ap]\.?m\b|noon|midnight", re.IGNORECASE)
_COMPOUND_DURATION = re.compile(r"\b(?P<h>(?P<hv>\d{1,2})\s?(?:hours?|hrs?|h))\s*(?:and\s+)?"
                                r"(?P<mi>(?P<mv>[0-5]?\d)\s?(?:minutes?|mins?|m))\b", re.IGNORECASE)
# "23m37s", "4 min 5 s": minutes and seconds, one duration as well.
_MIN_SEC = re.compile(r"\b(?P<mi>(?P<mv>\d{1,3})\s?(?:minutes?|mins?|m))\s*(?:and\s+)?"
                      r"(?P<s>(?P<sv>[0-5]?\d)\s?(?:seconds?|secs?|s))\b", re.IGNORECASE)
_OPERAND_STEPS = 2
_PAIRED = re.compile(r"(?<![\w.,:/\-\u2013])(\d{1,3})\s?[-\u2013]\s?(\d{1,3})(?![\w.,:/\-\u2013]*\d)")
_FRACTION = re.compile(r"(?<![\w/.,])(\d{1,3}(?:,\d{3})+|\d+)\s?/\s?(\d{1,3}(?:,\d{3})+|\d+)(?![\w/.])")
# How many of the shorter period the longer holds.
_PER_PERIOD = {("hour", "minute"): 60.0, ("day", "hour"): 24.0, ("day", "week"): 7.0,
               ("day", "month"): 30.0, ("day", "year"): 365.0, ("week", "year"): 52.0,
               ("month", "year"): 12.0}
_PERIOD_WORDS = {"minute": "minute", "minutes": "minute", "min": "minute", "hour": "hour",
                 "hours": "hour", "hourly": "hour", "hr": "hour", "day": "day", "days": "day",
                 "daily": "day", "week": "week", "weeks": "week", "weekly": "week", "wk": "week",
                 "month": "month", "months": "month", "monthly": "month", "mo": "month",
                 "year": "year", "years": "year", "yearly": "year", "annual": "year",
                 "annually": "year", "yr": "year"}
_PERIOD = re.compile(rf"\b(?:{'|'.join(_PERIOD_WORDS)})\b", re.IGNORECASE)
# A calendar month the claim names by name ("February had 40,320 minutes"): an uptime's or
# a rota's base is its length in days, hours or minutes, which no record states.
_MONTH_NAMED = re.compile(r"\b(january|february|march|april|may|june|july|august|september|october"
                          r"|november|december)\b", re.IGNORECASE)
_SHOWN = re.compile(r"[×*÷=]|\d\s?x\s?\d")  # working shown: "$49 × 12 = $588"


# Statuses of one thing that exclude each other: a claim of one where the context states
# another (and not the claim's) contradicts it in words that share no negation.
_STATES = tuple(
    tuple(re.compile(rf"\b(?:{alt})\b", re.IGNORECASE) for alt in group)
    for group in (
        # an event moved to a new date is neither cancelled nor on as planned
        ("on time|on schedule", "delayed", "cancell?ed", "rescheduled|postponed"),
        ("approved|accepted", "rejected|denied|declined", "pending|under review|in review|being reviewed"),
        ("delivered", "out for delivery|in transit|on its way|on the way"),
        # sent, where the context's state is still before sending ("label_created")
        ("shipped|dispatched|sent out|posted out",
         "label[ _]created|[a-z_]*awaiting[ _](?!delivery)[a-z]+|not (?:yet )?(?:shipped|dispatched)|unshipped"),
        ("in stock|\\d+ (?:left|remaining)", "out of stock|sold out|backordered|on backorder"),
        # a spec's bounds, or a period's window ("within the 30-day return window") where a
        # record's code says it is not ("OUTSIDE_WINDOW"); a policy's prose "outside the
        # 24-hour window" is a rule, no record's state
        ("within (?:spec|tolerance|limits|(?:the |your )?(?:[\\w-]+ ){0,2}window)|in spec",
         "out of (?:spec|tolerance)|outside (?:spec|tolerance|window)"),
        # a service, account or card in force, where the context's is held or ended
        ("active|in force", "suspended|deactivated|inactive|lapsed|frozen|terminated"),
        # an inspection's outcome where the record asks for corrections; not "passed to
        # billing", "the deadline has passed". (Not "failed": a test run's lines pass and
        # fail by the dozen, the state of one item among them.)
        (("(?<!has )(?<!have )(?<!had )passed(?!\\s+(?:on\\s+to|along|away|over|by|to|through)\\b)|(?:has|have|had) passed "
          "(?:the |its |their |all )?(?:[\\w-]+ )?(?:inspections?|reviews?|audits?)"),
         "corrections? required|re-?inspection required|did not pass inspection"),
    )
)
_SNAKE = re.compile(r"(?<=[a-z])_(?=[a-z])", re.IGNORECASE)
_NEGATOR = re.compile(r"\b(?:not|no|never|none|nothing|nobody|without|\w+n't|cannot)\b", re.IGNORECASE)
# A negator at most two words before the end: the word that follows is denied ("not yet
# delivered", "no free parking", "doesn't come with").
_NEGATED_END = re.compile(rf"{_NEGATOR.pattern}(?:\s+\w+){{0,2}}\s*$", re.IGNORECASE)


def _negated_before(text: str, at: int) -> bool:
    """The word of ``text`` that starts at ``at`` is denied by a negator just before it."""
    return bool(_NEGATED_END.search(text[:at]))


_RESTATED_WORDS = 2


def _negated_stems(text: str) -> frozenset[str]:
    singles, phrases = negation_scope(text)
    return singles.union(*phrases)


def _about_another(part: str, theirs: str, others: Sequence[str], negated: str) -> bool:
    """The claim's clause shares no word with the evidence clause but the negated one, and
    speaks of another clause of the same evidence sentence: shares a word with it ("the rack
    is not included" against "Charger included; pannier rack sold separately" speaks of the
    rack), or negates what it negates ("the recipe has no nuts" against "Contains no nuts,
    but is made in a kitchen that handles tree nuts" restates the first clause)."""
    stems = set(negated.split())
    mine = word_stems(part) - stems
    if mine & word_stems(theirs):
        return False
    denied = stems <= _negated_stems(part)
    return any(mine & word_stems(o) or (denied and stems <= _negated_stems(o))
               for o in others if o != theirs)


def _joined_about_another(part: str, theirs: str, others: Sequence[str], negated: str,
                          need: int, own: frozenset[str]) -> bool:
    """The claim's clause joins two facts ("travel is free within 15 km and the tuning is
    £85" against "tuning fee: 85; free travel radius km: 15"): the one that flips the
    evidence clause does so only with the other's words, and speaks of another clause."""
    joined = _ADDED.split(part)
    flipping = [c for c in joined if contradicts(c, theirs, need, own) == negated]
    return len(joined) > 1 and bool(flipping) and all(
        _about_another(c, theirs, others, negated) for c in flipping)


_PREFIXED = re.compile(r"\b(?:non-?|un)([a-z]{4,})", re.IGNORECASE)


def _premise(flipped: str, question: str) -> bool:
    """The negated word is the user's own ("as the non-birthing parent", "I'm unemployed"):
    the answer restates whom it answers about, it asserts nothing of it."""
    return any(stem(m.group(1).lower()) == flipped for m in _PREFIXED.finditer(question))


_COUNTED_REST = re.compile(r"\b\d[\d,.]*\s+(?:[a-z]+\s+)?(?:non-?|un)([a-z]{4,})", re.IGNORECASE)


def _rest_counted(part: str, flipped: str) -> bool:
    """The claim counts both sides of a whole ("180 seats are assigned, leaving 60
    unassigned", "4 paid and 2 unpaid"): the prefixed side is the rest, no denial of the
    other."""
    return any(stem(m.group(1).lower()) == flipped
               and flipped in word_stems(part[: m.start()] + part[m.end() :])
               for m in _COUNTED_REST.finditer(part))


def _negation_restated(part: str, parts: Sequence[str], theirs: str) -> bool:
    """Another clause of the claim restates the evidence clause, negated where it is negated,
    often with its verb left out ("the certificate is included, but the exam fee isn't"
    against "exam fees are not included"): that clause, not ``part``, is about it."""
    negated = bool(_NEGATOR.search(theirs))
    stems = word_stems(theirs)
    return any(other is not part and bool(_NEGATOR.search(other)) == negated
               and len(word_stems(other) & stems) >= _RESTATED_WORDS for other in parts)


_DENIED_NEED = re.compile(r"\b(?:(?:doesn't|does not|don't|do not|won't|will not)\s+(?:have|need)\s+to|"
                         r"needn't|need not|not (?:required|needed|necessary) to)\b", re.IGNORECASE)
_EXEMPTS = re.compile(r"\b(?:exempt\w*|excluded|not (?:required|needed|necessary))\b", re.IGNORECASE)


def _exempted(part: str, flipped: str, sentences: Sequence[str]) -> bool:
    """"so a logo doesn't have to meet 4.5:1" where the context says "Logotypes and purely
    decorative text are exempt": a requirement denied of what another sentence of the
    context exempts, named by two words of the claim besides the requirement's."""
    if not _DENIED_NEED.search(part):
        return False
    mine = word_stems(part) - set(flipped.split())
    return any(_EXEMPTS.search(s) and len((word_stems(s) & mine) - word_stems("exempt")) >= _PARTS
               for s in sentences)


def _negation_agrees(part: str, flipped: str, clause: str, theirs: Sequence[str],
                     need: int) -> bool:
    """The claim negates what the evidence ``clause`` asserts, but another clause of the
    sentence negates it in words and speaks of what ``part`` speaks of: "charged separately as
    disbursements" restates "disbursements are not included ... payable separately", not
    the listing verb of "these include searches". A clause of another thing ("parking is
    not included") shares no words besides the flipped one and agrees with nothing; nor
    does a record's implied one ("free visit radius"), whose side of a limit it leaves out."""
    stems, mine = set(flipped.split()), word_stems(part)
    if stems <= negation_scope(clause)[0]:
        return False
    return any(other is not clause and bool(_NEGATOR.search(other))
               and stems <= negation_scope(other)[0]
               and len((word_stems(other) & mine) - stems) >= need for other in theirs)


# A yes/no value stated under a key ("life_jackets_included": false, "Parking available:
# no", "pool_open=true"): the key's words, negated before their last word when the value
# is no ("life jackets not included"), with the record's short names ("Tandem kayak") so
# that a claim must speak of the same record to contradict it.
_PAIR = re.compile(r"^\s*([A-Za-z][\w .'/-]{0,60}?)\s*[:=]\s*(.+?)\s*$")
_PAIR_SPLIT = re.compile(r";\s+|\n|,\s+(?=[A-Za-z][\w ]{0,40}=)")
_YES_NO = {"true": True, "yes": True, "false": False, "no": False}
_NONE = frozenset({"none", "nil", "n/a"})  # "Early repayment charge: none", or a zero amount
# A JSON null (see tool_text) is a value not set, not "none": "closed_at": null is no
# statement that it is not closed, and "return_items": null none that nothing is returned.
_NULL = "null"
_ZERO = re.compile(r"[$€£¥]?\s?0+(?:[.,]0+)?\s?[a-z€$£¥]{0,4}")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_NAME_WORDS = 4  # a value of at most this many words may name the record
_OUT_OF = re.compile(r"\bout of\b", re.IGNORECASE)  # "out of stock" says in_stock is false


def _key_words(key: str) -> list[str]:
    return _CAMEL.sub(" ", key).replace("_", " ").lower().split()


# A key's trailing word of time qualifies its predicate: "open_today" is "not open today".
_KEY_WHEN = frozenset({"today", "now", "currently", "yet", "tonight", "tomorrow"})
_PREDICATE_ENDINGS = ("ed", "able", "ible", "en")


def _statement(words: Sequence[str], said: bool) -> str:
    """A key's words as a statement: negated before the predicate when no. The predicate is
    the last word before any word of time ("parking_available", "open_today"), unless that
    is a noun and a verb in -ing comes first ("accepting_new_patients": "not accepting new
    patients")."""
    if said:
        return " ".join(words)
    at = len(words) - 1
    while at > 0 and words[at] in _KEY_WHEN:
        at -= 1
    if not words[at].endswith(_PREDICATE_ENDINGS):
        at = next((i for i, w in enumerate(words[:at]) if w.endswith("ing")), at)
    return " ".join([*words[:at], "not", *words[at:]])


def _stated(clause: str) -> str:
    """A clause that is one yes/no pair ("towels provided: False") as the statement it
    makes, and one of nothing ("arrangement fee: 0 GBP", "early repayment charge: none")
    as "no …"; any other clause as it is."""
    m = _PAIR.match(clause.rstrip("."))
    if m is None:
        return clause
    value = m.group(2).lower()
    if value in _NONE or _ZERO.fullmatch(value):
        return "no " + " ".join(_key_words(m.group(1)))
    said = _YES_NO.get(value)
    return clause if said is None else _statement(_key_words(m.group(1)), said)


def _nothing(value: str, key: frozenset[str]) -> bool:
    """A value that gives none of its key's thing: nil, a zero, or "no" and the key's word."""
    lower = value.lower()
    return (lower in _NONE or bool(_ZERO.fullmatch(lower))
            or (lower.startswith("no ") and bool(word_stems(lower[3:]) & key)))


_NOT_SET = re.compile(r"(?:not|no)\s+\w+$")  # "reopen: not scheduled", "date: no date"


def _unset_given(claim: str, missing: Sequence[str], ev: _Evidence) -> str:
    """A value no context gives, said in a clause whose words are those of a record's key the
    record leaves unset ("auction scheduled: null", "reopen: not scheduled"): "the unit is
    scheduled for auction on 20 December" gives the key a value the record says it lacks."""
    if not missing:
        return ""
    for clause in _ADDED.split(claim):
        said = [t for t in missing if t in clause]
        if not said or _DENIED.search(clause):
            continue
        own = word_stems(clause)
        for record in ev.records:
            for key, value in record.pairs:
                words = word_stems(" ".join(_key_words(key)))
                if words and words <= own and (value == _NULL or value.lower() in _NONE
                                               or _NOT_SET.fullmatch(value.lower())):
                    return f'{said[0]} for "{key}", which the record leaves unset ({value})'
    return ""


# "within the 5-year / 60,000 km powertrain warranty", "inside your 30-day return window":
# a bound of a cover or a term, its figures in the phrase.
_WITHIN_BOUND = re.compile(r"\b(?:within|inside|under)\s+(?:the\s+|your\s+|its\s+|their\s+)?"
                           r"((?:[\w.,/-]+\s+){0,6}?)(?:warranty|window|limit|allowance|period|cap|coverage|"
                           r"term|guarantee)\b", re.IGNORECASE)


def _past_bound(claim: str) -> str:
    """A claim that a thing is within a bound ("within the 60,000 km warranty") while it
    states the thing's own figure past it ("odometer 61,200 km"): its own numbers deny it."""
    for m in _WITHIN_BOUND.finditer(claim):
        if _negated_before(claim, m.start()):
            continue
        bounds = [q for q in quantities(m.group(1)) if q.unit]
        rest = claim[: m.start()] + " " + claim[m.end():]
        for q in quantities(rest):
            if any(b.unit == q.unit and q.value > b.value for b in bounds):
                return f'"{m.group(0)}", though the claim gives {q.text}'
    return ""


# A key's last word that says it holds a date ("move_out_date", "closed_at"): the words
# before it name the event.
_DATE_KEY_ENDS = frozenset({"date", "at", "on", "day"})
_MODAL = re.compile(r"\b(?:will|would|should|could|may|might|can|expected|scheduled|planned|due|likely|"
                    r"probably|until|unless|if|once|when)\b", re.IGNORECASE)


def _unset_dated(claim: str, ev: _Evidence) -> str:
    """A date said of an event whose date the record leaves unset ("move_out_date: null")
    where the date is another field's whose words the clause does not use ("lease_end"):
    "she is moving out on 30 April" gives the unset event the lease's end. A clause that
    hedges, plans or denies it says no date happened."""
    for clause in _ADDED.split(claim):
        said = dates(clause)
        if not said or _DENIED.search(clause) or _MODAL.search(clause) or is_hedged(clause):
            continue
        own = word_stems(clause)
        named = _named_records(clause, ev) or ev.records
        for record in named:
            unset = [words for key, value in record.pairs if value == _NULL and len(kw := _key_words(key)) > 1
                     and kw[-1] in _DATE_KEY_ENDS and (words := word_stems(" ".join(kw[:-1]))) and words <= own]
            givers = [word_stems(" ".join(_key_words(key))) for key, value in record.pairs
                      if any(date_supported(r, [p for _, rs in dates(value) for p in rs]) for _, r in said)]
            if unset and givers and not any(g & own for g in givers):
                return f'{said[0][0]} for an event the record leaves undated'
    return ""


def _keyed(text: str) -> list[tuple[frozenset[str], str, str, int]]:
    """The text's yes/no and nothing values as statements of their keys' words, each with the
    stems of its key's own words (without the parents' a flattened key starts with), the pair
    as the text gives it, and the other words a claim must share with the statement."""
    lines = [[m.groups() for part in _PAIR_SPLIT.split(line) if (m := _PAIR.match(part))]
             for line in text.splitlines()]
    # A record is a line of several pairs (flattened JSON), else the text's one-pair lines.
    records = [pairs for pairs in lines if len(pairs) > 1]
    records.append([p for pairs in lines if len(pairs) == 1 for p in pairs])
    out: list[tuple[frozenset[str], str, str, int]] = []
    for pairs in records:
        names = " ".join(v for _, v in pairs if v.lower() not in _YES_NO and v != _NULL
                         and len(v.split()) <= _NAME_WORDS and not quantities(v) and not dates(v))
        names += "".join(f" {_SIZE_WORDS[v.upper()]}" for _, v in pairs if v.upper() in _SIZE_WORDS)
        # Flattened keys of one record share their parents' words: what the pairs all
        # start with is the record's path, not the key.
        keys = [_key_words(k) for k, _ in pairs]
        path = 0
        while len(keys) > 1 and all(len(k) > path + 1 and k[path] == keys[0][path] for k in keys):
            path += 1
        for words, (key, value) in zip(keys, pairs, strict=True):
            said = _YES_NO.get(value.lower())
            own = word_stems(" ".join(words[path:]))
            if said is not None and own:
                out.append((own, f"{_statement(words, said)} {names}".strip(), f"{key}: {value}", 1))
            elif own and _nothing(value, own) and sum(
                    k.lower() == key.lower() for p in records for k, _ in p) == 1:
                # "refund: no refunds", "deposit: 0": none of the key's thing. A claim of the
                # thing needs no other word in common, so only where one record has the key
                # (which record a claim means is not read here); and named by the whole
                # key, its path too: "available seats business: 0" says no business seats,
                # not no business ("5-7 business days").
                out.append((word_stems(" ".join(words)), f"no {' '.join(words[path:])}",
                            f"{key}: {value}", 0))
            elif own and names and _nothing(value, own):
                # Where several records have the key (a table's column, "available: 0"), the
                # record's names say which one has none, as with a yes/no value.
                out.append((own, f"no {' '.join(words[path:])} {names}", f"{key}: {value}", 1))
    return out


_SPAN_BREAK = re.compile(r"[,;:()]|\s[-\u2013\u2014]\s")
_DENIAL_BEFORE, _DENIAL_AFTER = 4, 3  # words: "no way to add insurance", "insurance is not included"


def _denied_near(part: str, stems: frozenset[str]) -> bool:
    """Whether a negator stands by the clause's word for the key's thing: the clause denies
    it too, in its own words, as a record's "insurance: no" does ("there is no way to add
    insurance", "insurance is not included"), whichever word the negator binds."""
    for span in _SPAN_BREAK.split(part):  # "No, your booking has insurance" denies nothing of it
        # The distance in content words: "no way for me to add travel insurance".
        words = [w for w in _words(span) if w not in _FUNCTION_WORDS or _NEGATOR.fullmatch(w)]
        negators = [i for i, w in enumerate(words) if _NEGATOR.fullmatch(w)]
        if any(stem(w) in stems and any(-_DENIAL_AFTER <= i - n <= _DENIAL_BEFORE for n in negators)
               for i, w in enumerate(words)):
            return True
    return False


_THEN = re.compile(r",?\s+(?:and\s+)?then\s+", re.IGNORECASE)  # events in sequence: one clause each
# "- Stock: 0", "Deposit: none", "waterproof set to **no**": the claim's own pair of nothing
# says "no stock", as a record's does.
_NONE_PAIR = re.compile(r"\b([A-Za-z][\w ]{0,30}?):\s*(?:0|none|nil)(?![\w.,])|"
                        r"\b((?:[A-Za-z]+\s+)?[A-Za-z]+)\s+set to\s+[*_]*(?:0|none|no|false)\b[*_]*", re.IGNORECASE)
_CHANGED = re.compile(r"\s*(?:->|=>|\u2192)\s*")  # "3254583681 (blue) -> 9440686670 (green)": two records' states


def _other_kind(part: str, pair: str, mine: frozenset[str]) -> bool:
    """The clause gives the key's thing another qualifier than the key's missing one:
    "standard shipping" is not the "express shipping" of "express shipping: False"."""
    keys = [stem(w) for w in _key_words(pair.rpartition(": ")[0])]
    missing = [i for i, k in enumerate(keys[:-1]) if k not in mine]
    if len(missing) != 1 or any(k not in mine for k in keys[missing[0] + 1:]):
        return False
    head = keys[missing[0] + 1]
    words = _words(part.lower())
    return any(stem(w) == head and (b := words[i - 1]).isalpha() and b not in _FUNCTION_WORDS
               and b not in _VERBS and stem(b) not in keys and not _NEGATOR.fullmatch(b)
               for i, w in enumerate(words) if i)


def _entries(texts: Iterable[str]) -> list[tuple[list[str], list[tuple[str, str]]]]:
    """The texts' records as (their path's words, their pairs): a line of several pairs, and
    the lines after it whose keys go on deeper under its path (a variant's "options" on the
    next line); a line with the same path again is the next record of a list, and a line
    with no path (the top record's) holds none of the records nested under it."""
    out: list[tuple[list[str], list[tuple[str, str]]]] = []
    for text in texts:
        last: list[str] | None = None
        for line in text.splitlines():
            pairs = [(m.group(1), m.group(2)) for part in _PAIR_SPLIT.split(line) if (m := _PAIR.match(part))]
            if len(pairs) < 2:
                last = None
                continue
            keys = [_key_words(k) for k, _ in pairs]
            path = list(itertools.takewhile(lambda ws: len(set(ws)) == 1, zip(*keys, strict=False)))
            words = [w for w, *_ in path]
            if last and len(words) > len(last) and words[: len(last)] == last:
                out[-1][1].extend(pairs)
            else:
                out.append((words, pairs))
                last = words
    return out


def _given(values: Iterable[str], claim: str) -> list[str]:
    """The record's values the claim gives: its names and codes, its numbers."""
    lower, said = claim.lower(), {round(q.value, 6) for q in quantities(claim)}
    return [v for v in values if v.lower() not in _YES_NO and v != _NULL and (
        any(round(q.value, 6) in said for q in quantities(v))
        or (len(v) > 1 or v.isupper()) and _said(v.lower(), lower))]


def _score(values: Iterable[str], claim: str) -> int:
    """How many of a record's values the claim gives."""
    return len(_given(values, claim))


def _meant_other(claim: str, pair: str, ev: _Evidence) -> bool:
    """Records that give the pair's key the other way ("waterproof: yes" of one variant,
    "no" of the next), one of which the claim names at least as well as the pair's: the
    claim may speak of that one ("$466.75, 4K, waterproof, black" of the variant at $466.75),
    so its yes or no is no conflict with the pair."""
    key, _, value = pair.partition(": ")
    entries = ev.entries
    mine = next(((path, pairs) for path, pairs in entries if (key, value) in pairs), None)
    if mine is None:
        return False
    column = _key_words(key)[len(mine[0]):]
    named = _given((v for _, v in mine[1]), claim)
    # Or named by the same values as the pair's own ("green, 20-hour battery, not water
    # resistant" of two green 20-hour variants, one water resistant and one not): the claim
    # cannot tell them apart, and may mean either. Two records each named by their own
    # values ("beat Ashgrove at home and won away at Dunmore") are told apart.
    for path, pairs in entries:
        if not any(_key_words(k)[len(path):] == column and v.lower() != value.lower() for k, v in pairs):
            continue
        theirs = _given((v for _, v in pairs), claim)
        if len(theirs) > len(named) or named and {v.lower() for v in theirs} == {v.lower() for v in named}:
            return True
    return False


_BOUND_VALUES = 2


def _entry_holds(value: Quantity, claim: str, ev: _Evidence) -> bool:
    """A record gives the claim's number beside two more values the claim gives ("$466.75
    (4K, black)" of the variant at 466.75 with 4K and black): the number is that record's.
    (One name beside it, "Bruno needs 23.4 mg" of Bruno's weight, binds no attribute.)"""
    return any(any(abs(x.value - value.value) < 1e-9 for _, v in pairs for x in quantities(v))
               and _score((v for _, v in pairs), claim) > _BOUND_VALUES for _, pairs in ev.entries)


# "I can't share them without his written authorization on file": after a refusal,
# "without" names what the act needs (an "unless"), and says nothing of whether it is there.
_REFUSED_WITHOUT = re.compile(r"(\b(?:can't|cannot|can not|won't|unable to|not able to|not allowed to)\b"
                              r"[^.;!?]*?)\s*\bwithout\b[^,;.!?]*", re.IGNORECASE)


_ZERO_WORD = re.compile(r"\bzero\b", re.IGNORECASE)


def _key_conflict(claim: str, ev: _Evidence, own: frozenset[str]) -> str:
    """A clause of the claim that says a yes/no value of the context the other way: it
    names the key's words (its last, the predicate, may be said in another word) and
    flips one of them."""
    parts = [p for c in clauses(claim) for t in _THEN.split(c) for p in _CHANGED.split(t) if p.strip()]
    for part in parts:
        said = _NONE_PAIR.sub(lambda m: f"no {m.group(1) or m.group(2)}", _OUT_OF.sub("no", _REFUSED_WITHOUT.sub(r"\1", part)))
        mine = word_stems(said)
        # A clause naming a record speaks of it, not of another record's value: "won 2-1 at
        # home to Ashgrove, then lost away at Dunmore" against Dunmore's "home: False".
        records = _named_records(part, ev)
        for key, stated, pair, shared in ev.keyed:
            if records and not any(_said(n, stated.lower()) for r in records for n in r.names) and any(
                    _said(n, stated.lower()) for r in ev.records if r not in records for n in r.names):
                continue
            named = len(key - mine) <= min(1, len(key) - 1) and not _other_kind(part, pair, mine)
            # With no other word in common, only a plainly affirmative clause is read: one
            # with a zero ("the late fee is 0 EUR", "a limit of zero") or a negator ("refunds
            # are not possible") may say the same.
            doubt = not shared and (_NEGATOR.search(part) is not None or _ZERO_WORD.search(part) is not None
                                    or any(q.value == 0 for q in quantities(part)))
            flipped = contradicts(said, stated, shared, own) if named and not doubt else ""
            if flipped and set(flipped.split()) & key and not _negation_restated(part, parts, stated) and not (
                    _NEGATOR.search(stated) and _denied_near(part, frozenset(flipped.split()))) and not (
                    _meant_other(part, pair, ev)):
                return f'"{flipped}" where the context says "{pair}"'
    return ""


# A yes/no key whose last word says the thing is there or asked for ("deposit_required",
# "breakfast_included"): a claim that there is none of the thing ("there is no deposit to
# pay") denies a true one, whatever word it uses for the predicate; and a claim that the
# thing is needed affirms a false requirement.
_NEEDED = frozenset(stem(w) for w in ("required", "needed", "mandatory", "necessary"))
_PRESENCE = _NEEDED | frozenset(stem(w) for w in (
    "included", "available", "allowed", "permitted", "provided", "offered", "accepted", "payable",
    "applicable", "enabled", "supported"))


def _presence_conflict(claim: str, ev: _Evidence) -> str:
    for own, _, pair, _ in ev.keyed:
        key, _, value = pair.rpartition(": ")
        said = _YES_NO.get(value.strip().lower())
        words = _key_words(key)
        subject = [w for w in words[:-1] if stem(w) in own]  # its own words, not its path
        if said is None or not subject or stem(words[-1]) not in _PRESENCE or (
                ev.lower.count(f"{key.lower()}:") != 1):
            continue  # one record's key: which record a claim means is not read here
        name = r"\s+".join(re.escape(w) for w in subject) + r"\w*"
        if said:
            found = re.search(rf"\b(?:no|without(?:\s+(?:a|an|any))?|not\s+(?:a|an|any)|"
                              rf"(?:n't|not)\s+(?:need|have)\s+(?:to\s+\w+\s+)?(?:a|an|any)|"
                              rf"zero)\s+(?:\w+\s+)?{name}\b|\b{name}\s+(?:is|are|will be)(?:n't|\s+not)\s+"
                              r"(?:needed|required|necessary|due|payable)\b", claim, re.IGNORECASE)
        elif stem(words[-1]) in _NEEDED:
            found = re.search(rf"\b(?:need|needs|must|have to|has to|required to)\s+(?:\w+\s+){{0,2}}"
                              rf"(?:a|an|the|your)\s+{name}\b|\b{name}\s+(?:is|are|will be)\s+"
                              r"(?:needed|required|necessary|mandatory|due|payable)\b", claim, re.IGNORECASE)
            if found is not None and (_negated_before(claim, found.start())
                                      or _CONDITIONAL.search(claim[: found.start()])):
                found = None
        else:
            continue
        if found is not None:
            return f'"{found.group(0)}" where the context says "{pair}"'
    return ""


# "compensation is only available when the flight is cancelled": a rule's condition, not
# the flight's state; it reaches to the clause's end.
_CONDITIONAL = re.compile(r"\b(?:if|when|whenever|unless|once|only for|in case)\b[^,;.!?]*$", re.IGNORECASE)


# "Vouchers are issued for approved claims", "labels come with all delivered orders": a
# state that picks out a kind of record (before a plural noun) states a rule, not the
# state of the record at hand.
_KIND_LEAD = re.compile(r"\b(?:for|on|to|with|of|all|any|only)\s+$", re.IGNORECASE)
_PLURAL_NEXT = re.compile(r"\s+[a-z]+s\b", re.IGNORECASE)


def _kind_of_record(claim: str, m: re.Match[str]) -> bool:
    return bool(_KIND_LEAD.search(claim[: m.start()]) and _PLURAL_NEXT.match(claim, m.end()))


def _state_conflict(claim: str, ev: _Evidence) -> str:
    # What the user asks ("is it on time?") states nothing; "in stock: False" states no
    # "in stock".
    facts = ev.facts
    for group in _STATES:
        for mine in group:
            m = mine.search(claim)
            if m is None or _negated_before(claim, m.start()) or (
                    _CONDITIONAL.search(claim[: m.start()])) or _kind_of_record(claim, m) or (
                    _EARLIER.search(claim[: m.start()])) or _SET_AGAINST.search(claim[: m.start()]):
                continue
            # Where another record has the claim's state ("Tier 1 ... sold out"), the line
            # of the one record the claim names ("GA Pit ... 6 left") is what it states.
            held = facts if not mine.search(facts) else _named_line(claim[: m.start()] + claim[m.end():], facts)
            if mine.search(held):
                continue
            found = next((f for t in group if t is not mine and (f := t.search(held))), None)
            if found is not None:
                return f'"{m.group(0)}" where the context says "{found.group(0)}"'
    return ""


# "postponed rather than cancelled": the state set against the one said, denied.
_SET_AGAINST = re.compile(r"\b(?:rather than|instead of)\s+(?:being\s+)?$", re.IGNORECASE)


# "Before that it ... went out for delivery at 09:12": a state the record passed through on
# its way to the one it holds now, told as its history.
_EARLIER = re.compile(r"\b(?:before that|before then|prior to that|earlier|previously|initially|at first)\b",
                      re.IGNORECASE)


def _named_line(claim: str, facts: str) -> str:
    """The one line of the facts that the claim names by a word no other line has ("GA
    Pit" of "GA Pit — KES 9,000 — 6 left"), or nothing."""
    lines = facts.splitlines()
    words = [word_stems(line) for line in lines]
    lines_with = Counter(w for line_words in words for w in line_words)
    own = word_stems(claim)
    named = [i for i, line_words in enumerate(words) if any(lines_with[w] == 1 for w in line_words & own)]
    return lines[named[0]] if len(named) == 1 else ""


# A state a claim says a record has reached ("has been completed", "is now active") and the
# states a record's status may hold that fall short of one: still waiting, under way, held
# or refused ("pending_compliance_review", "in_progress", "provisional", "suspended").
_REACHED = re.compile(r"\b(?:is|are|'s|was|were|has been|have been)\s+(?:(?:now|already|fully|all|"
                      r"successfully)\s+){0,2}(complete|completed|finished|resolved|confirmed|approved|"
                      r"active|activated|ready|released|contained|credited|restored|cleared|settled|"
                      r"fixed|closed|online)\b", re.IGNORECASE)
_SHORT_OF = re.compile(r"\b(?:pending|awaiting|waiting|waitlist\w*|standby|review|progress|provisional|open|suspended|"
                       r"backorder|queued|hold|draft|failed|quarantined|processing|requested|tentative|"
                       r"blocked|partial|incomplete|offline|inactive|paused|disabled|rejected|declined)\b")
_STATE_KEYS = frozenset({"status", "state"})
_AWAITED = re.compile(r"\b(?:until|till|unless|before|once)\b", re.IGNORECASE)
# A state that undoes the one reached: the record was called off.
_CALLED_OFF = re.compile(r"\b(?:cancell?ed|voided|withdrawn|revoked|expired)\b")


@lru_cache(maxsize=256)
def _given_states(texts: tuple[str, ...]) -> frozenset[str]:
    """The stems of the texts' words but their keys': "estimated_completion" gives no
    "completed" state, "status: completed" does."""
    return frozenset().union(*(word_stems(m.group(2) if (m := _PAIR.match(part)) else part)
                               for t in texts for part in _PAIR_SPLIT.split(t)))


def _overstated(claim: str, ev: _Evidence) -> str:
    """A claim that a record has reached a state ("CH-4471 is confirmed") where the record's
    status is short of it ("status: provisional") and no text gives that state at all: the
    status is the record's, so the record the claim speaks of must be plain (it names it, the
    status's key is the clause's subject, "monitoring … is active", or one status is given)."""
    pairs = [(key, value.replace("_", " ").lower(), r) for r in ev.records for key, value in r.pairs
             if len(value.replace("_", " ").split()) <= _NAME_WORDS and value.lower() not in _YES_NO
             and _key_words(key)]
    states = {v for k, v, _ in pairs if _key_words(k)[-1] in _STATE_KEYS}
    for m in _REACHED.finditer(claim):
        clause = re.split(r"[,;:()\u2014\u2013]|\bbut\b", claim[: m.start()])[-1]
        if _negated_before(claim, m.start()) or _CONDITIONAL.search(clause) or _SHORT_OF.search(clause.lower()):
            continue
        named = _named_records(claim, ev)
        # Where some text gives the state, only the one record the state's own clause names
        # is read: "Mochi's 10:15 cleaning is confirmed" where Mochi's status is "cancelled"
        # and another pet's "confirmed"; a state awaited ("… until the lift plan is
        # approved") is no state said.
        given = stem(m.group(1)) in _given_states(tuple(ev.texts))
        if given:
            named = [r for r in _named_records(clause, ev) if any(_key_words(k)[-1] in _STATE_KEYS for k, _ in r.pairs)]
            if len(named) != 1 or _AWAITED.search(clause):
                continue
        for key, value, record in pairs:
            status = _key_words(key)[-1] in _STATE_KEYS
            subject = not status and word_stems(key) <= word_stems(clause)
            short = set(_SHORT_OF.findall(value)) | (set(_CALLED_OFF.findall(value)) if given else set())
            # A claim that says the record's own state too ("finished but still awaiting
            # cooldown") gives the status as well.
            if (status and record in named if given else subject or status and (
                    record in named or len(states) == 1)) and short and not (
                    short & set(_SHORT_OF.findall(claim.lower()))):
                return f'"{m.group(0).strip()}" where the record says "{key}: {value}"'
    return ""


# Words that offer a service's attributes ("free WiFi", "comes with a tamper", "includes
# two walks, a heated kennel and …"): each item after one is an attribute the context must
# name. A context that lists what the service has and not that item did not offer it.
_OFFER = re.compile(r"\b(?:free|complimentary|includes?|including|comes? with|offers?|provides?|"
                    r"features?|equipped with|"
                    r"(?:can|may) (?:also )?(?:borrow|hire|rent|use))\s+(?!of\b)", re.IGNORECASE)
# A clause ends the items, and one that opens them offers none: "can't share anything,
# including whether an account exists". "Such as" opens examples of the item before it.
# A reason ends them as "because" does: "bags are free due to your gold status" offers no "due".
_OFFER_END = re.compile(r"[.;:!?()]|\s[\u2014\u2013]\s|(?<!\bsuch)(?:^|,?\s+)(?:but|so|because|since|which|if|when|as|"
                        r"whether|what|how|who|where|why|(?:due|owing|thanks)(?=\s+to\b))\s", re.IGNORECASE)
# "plus" and "such as" join items as "and" does: "brushes, plus a palette"; "classes such as
# yoga and spin" offers the classes and each example.
_ITEM = re.compile(r",?\s+(?:and|plus|such as)\s+|,\s*(?:plus\s+|such as\s+)?", re.IGNORECASE)
_ITEM_WORD = re.compile(r"[a-z][\w'-]*", re.IGNORECASE)
_ADVERB = re.compile(r"[a-z]{3,}ly", re.IGNORECASE)  # "mostly", "mainly", "largely"
_DETERMINERS = frozenset("a an the some your our its their all every each".split())  # noqa: SIM905
_VERBS = frozenset("is are was were be has have had will would can could may must should do does".split())  # noqa: SIM905
_STEM_PREFIX = 5  # "coverage" is named by "covered": stems meet on their first letters


# A category noun names what kind of thing is offered, not the thing: "checked bag
# allowance", "water damage coverage", "business class" are named by the word before it,
# and "your free allowance", "further guidance" name nothing a context could lack.
_CATEGORY_NOUNS = frozenset({"allowance", "coverage", "guidance", "assistance", "help", "support",
                             "advice", "access", "class", "service", "services", "benefit",
                             "benefits", "option", "options", "care"})
_DEGREE = frozenset("further additional extra similar full same other else standard".split())  # noqa: SIM905
_INDEFINITE = frozenset("anything something everything whatever".split())  # noqa: SIM905


def _item_head(words: Sequence[str]) -> str:
    """The word an offered item is named by: its last, or the one before a category noun."""
    # "guidance tonight": a time word after the item says when, it names no item.
    kept = [w for w in words if w not in _DEGREE and w not in _FUNCTION_WORDS and w not in _KEY_WHEN]
    while kept and kept[-1] in _CATEGORY_NOUNS:
        kept.pop()
    return kept[-1] if kept else ""


_NON = re.compile(r"\bnon[- ]?$", re.IGNORECASE)
_PREDICATE_FREE = re.compile(r"(?<!\bthere )\b(?:is|are|was|were|be|been|stays?|remains?)\s+(?:\w+ly\s+)?free\s+$",
                             re.IGNORECASE)
# "I can only offer", "I'm unfortunately unable to offer", "allows me to offer": what the
# speaker may do, not what a product comes with.
_SPEAKER_OFFERS = re.compile(r"\b(?:I|I'm|me)\s+(?:[\w']+\s+){0,3}$")


# "The email will include the return window", "the letter you'll get will include …": what a
# message still to come holds, which no record shows yet; it offers nothing.
_MESSAGE_TO_COME = re.compile(r"\b(?:e-?mails?|messages?|letters?|texts?|sms|notices?|notifications?|"
                              r"confirmations?|instructions)\b(?:\s+[\w']+){0,4}?\s+(?:will|would|should)\s+"
                              r"(?:also\s+)?$", re.IGNORECASE)


def _offered_items(claim: str) -> list[str]:
    """The head words (the last of the first run of content words) of the items a claim
    offers, unless it denies them ("no free parking")."""
    out: list[str] = []
    for m in _OFFER.finditer(claim):
        rest = claim[m.end():]
        if m.group(0).lower().startswith("includ") and _MESSAGE_TO_COME.search(claim[: m.start()]):
            continue
        if _negated_before(claim, m.start()) or _NEGATOR.match(rest):
            continue  # "no free parking", "there's no charge"
        if _NON.search(claim[: m.start()]) or _SPEAKER_OFFERS.search(claim[: m.start()]):
            continue  # "non-free bags"; "I can only offer compensation when …": the speaker's reach
        # "3 connectors are free right now": free is the state of what came before it, and
        # the words just after say when or for whom; a list's later items are still offered.
        predicate = bool(_PREDICATE_FREE.search(claim[: m.end()]))
        end = _OFFER_END.search(rest)
        for n, item in enumerate(_ITEM.split(rest[: end.start()] if end else rest)):
            words = item.split()
            if words and _ADVERB.fullmatch(words[0]):
                break  # "€1,235 including VAT, mostly the parts": a remark on the whole
            if any(c.isdigit() for c in item):
                continue  # "a 7-year warranty", "Dec 20-24": the number checks'
            run: list[str] = []
            for w in words:
                word = w.lower().strip("'\"")
                if not _ITEM_WORD.fullmatch(word) or (
                        word in _FUNCTION_WORDS and (run or word not in _DETERMINERS)):
                    break  # "free for registered campers" offers nothing
                if word not in _FUNCTION_WORDS:
                    run.append(word)
            if not run:
                break
            if (head := _item_head(run)) and not (predicate and n == 0):
                out.append(head)
            if _VERBS & {w.lower() for w in words}:
                break  # "…, and the Pro is dishwasher-safe": a new clause, not an item
    return out


_LIST_END = re.compile(r"\.(?!\w)|[;:!?()]|\s[\u2014\u2013]\s")
_LIST_ITEMS = 3  # an enumeration: this many short items in a row
_ITEM_WORDS = 3


def _enumerated_items(claim: str) -> list[list[str]]:
    """The head words (each item's last word) of each enumeration in the claim: three or
    more short items in a row, joined by commas, the last by "and" or "or" ("HTML/CSS,
    JavaScript, React and Python"). The first item is the last word of what leads in; a list
    whose lead denies it ("No changes to your plan, device or billing", "not the room, the
    rate or the deposit") states none of its items."""
    out: list[list[str]] = []
    for part in _LIST_END.split(claim):
        pieces = re.split(r"(,?\s+(?:and|or)\s+|,\s*)", part)
        run: list[str] = []
        lead = ""
        for i in range(0, len(pieces), 2):
            words = pieces[i].split()
            last = [w.strip("'\"").lower() for w in words[-2:]]
            head = (_item_head(last) or last[-1]) if last else ""
            if ((i == 0 or len(words) <= _ITEM_WORDS) and _ITEM_WORD.match(head)
                    and head not in _FUNCTION_WORDS and not any(c.isdigit() for c in pieces[i])
                    and not _VERBS & {w.lower() for w in words[1 if i == 0 else 0 :]}):
                lead = lead if run else pieces[i]
                run.append(head)
                # Only a list that ends as one: its last item joined by "and" or "or" ("your
                # spouse, Maria Chen, as beneficiary" is an apposition).
                joined = pieces[i - 1].strip(", ") if i else ""
                if joined in ("and", "or") and len(run) >= _LIST_ITEMS:
                    if not _NEGATOR.search(lead):
                        out.append(run)
                    run = []
                continue
            run, lead = ([head], pieces[i]) if words and len(words) <= _ITEM_WORDS else ([], "")
    return out


def _misfiled(claim: str, ev: _Evidence) -> str:
    """An item the claim lists with items of one of the context's lists, which the context
    lists only under another key: "HOA dues cover water, trash and exterior maintenance"
    where water is under "utilities tenant paid"."""
    for items in [*_enumerated_items(claim), _offered_items(claim)]:
        homes = [{k for k, values in ev.lists.items() if any(stem(w) in v for v in values)} for w in items]
        counts = Counter(k for h in homes for k in h)
        home = [k for k, n in counts.items() if n >= _PARTS]
        if len(home) != 1:
            continue
        wrong = next((w for w, h in zip(items, homes, strict=True) if h and home[0] not in h), None)
        if wrong is not None:
            return f'the context lists {wrong} under another key, not "{home[0]}"'
    return ""


def _invented_items(claim: str, ev: _Evidence) -> list[str]:
    """Offered items no context text names (the question's words are no support: asking
    "is there WiFi?" does not offer it), and the odd items of an enumeration most of whose
    items the context names ("React, Node.js, PostgreSQL and Python" from a curriculum
    without Python)."""
    named = ev.says
    # "modifying a reservation, checking flight statuses, or anything else": an indefinite
    # closing a list names no item.
    odd = [w for items in _enumerated_items(claim)
           if 2 * sum(map(named, items)) > len(items) for w in items
           if not named(w) and w not in _DEGREE and w not in _INDEFINITE]
    return [w for w in dict.fromkeys([*_offered_items(claim), *odd]) if not named(w)] + _odd_steps(claim, ev)


# Where a clause's words reach back to before an item: to its last comma, "but" or "and",
# or the sentence's start.
_ITEM_CLAUSE = re.compile(r"[,;:(!?]|\.(?!\d)|\b(?:but|while|whereas|and)\b", re.IGNORECASE)
_EXCLUDES = re.compile(r"\b(?:except|excluding|other than|apart from|besides)\b", re.IGNORECASE)
_DENIED_AFTER = re.compile(r"^\s*(?:\w+\s+)?(?:is|are|was|were)(?:\s+not\b|n't\b)", re.IGNORECASE)


def _mentions(word: str, ev: _Evidence) -> tuple[list[bool], set[str]]:
    """Whether each mention of the word in the texts is excluded (a negator or "except"
    earlier in its clause, "we are not in network with UnityRx", or a denial just after it,
    "the pool is not included"), and the keys of the lists that give it as a value
    ("utilities tenant paid: water")."""
    excluded: list[bool] = []
    keys: set[str] = set()
    for text in ev.texts:
        for line in text.splitlines():
            for m in re.finditer(rf"\b{re.escape(word)}\b", line, re.IGNORECASE):
                lead = _ITEM_CLAUSE.split(line[: m.start()])[-1]
                excluded.append(bool(_NEGATOR.search(lead) or _EXCLUDES.search(lead)
                                     or _DENIED_AFTER.match(line[m.end():])))
                pair = _PAIR.match(_PAIR_SPLIT.split(line[: m.start()])[-1] + line[m.start():])
                if pair and word in pair.group(2).lower():
                    keys.add(pair.group(1).lower())
    return excluded, keys


def _excluded_items(claim: str, ev: _Evidence) -> list[str]:
    """The items of an enumeration (three or more) the texts name only to exclude them ("We
    are not in network with UnityRx" beside the plans taken), or give only in another list
    than the one the other items share ("utilities tenant paid: water" beside "hoa includes:
    trash"), where the claim lists them with the others, undenied."""
    out: list[str] = []
    for items in _enumerated_items(claim):
        found = {w: _mentions(w, ev) for w in dict.fromkeys(items)}
        lists = Counter(k for _, keys in found.values() for k in keys)
        shared = {k for k, n in lists.items() if n >= _PARTS}  # the others' list
        for w, (excluded, keys) in found.items():
            at = claim.lower().find(w)
            if at < 0 or _NEGATOR.search(_ITEM_CLAUSE.split(claim[:at])[-1]) or not excluded:
                continue
            others = [o for o in found if o != w and not all(found[o][0] or [True])]
            apart = bool(keys) and bool(shared) and not keys & shared
            if len(others) >= _PARTS and (all(excluded) or apart):
                out.append(w)
    return out


# A charge said to be none ("tax-free", "free of charge", "at no extra cost"), and the words
# by which a context says something costs nothing.
# "Senior card holders are exempt": a whole class let off a charge says so too.
_EXEMPT = re.compile(r"\b(?:(?:tax|fee|penalty|commission|interest|duty|charge|cost|rent)[- ]free|exempt|"
                     r"free of (?:any )?(?:charges?|tax|taxes|costs?|fees?)|for free|"
                     r"at no (?:extra |additional )?(?:cost|charge)|without (?:any )?(?:charge|fee|cost)s?)\b",
                     re.IGNORECASE)
_COSTS_NOTHING = re.compile(r"\b(?:free|complimentary|waive[ds]?|exempt|included|includes?|inclusive|"
                            r"no (?:extra |additional )?(?:charge|cost|fee)s?|without charge|at no)\b|"
                            r"(?<![\d.,])0(?:\.0+)?(?![\d.,])", re.IGNORECASE)


# "From 1 December you can leave for free": a charge that runs out (a fee per remaining
# month, a term's end) is none from then on, worked out, not stated.
_FROM_THEN = re.compile(r"\b(?:from|after|once|beyond|past)\b[^,;.!?]*$", re.IGNORECASE)


def _unsaid_exemption(claim: str, ev: _Evidence) -> str:
    """A claim that something costs nothing ("paid out tax-free", "parking is free of charge")
    where no text says anything is free, waived, included or zero: the context's silence
    on a charge (or its "seek advice on the tax treatment") grants no exemption."""
    m = _EXEMPT.search(claim)
    if m is None or _negated_before(claim, m.start()) or _CONDITIONAL.search(claim[: m.start()]) or any(
            _COSTS_NOTHING.search(t) for t in ev.texts) or _FROM_THEN.search(claim[: m.start()]):
        return ""
    return m.group(0)


# Numbered steps written inline: "1) fill in the form, 2) upload …, and 3) attend …".
_STEP_MARK = re.compile(r"(?:^|\s)\(?\d{1,2}[).]\s+")
_STEP_END = re.compile(r",?\s+and\s*$|[,;.]\s*$")
_STEP_WORDS = 2  # a step of fewer content words is no step to judge


def _odd_steps(claim: str, ev: _Evidence) -> list[str]:
    """The steps of an inline numbered list most of whose words the context never says,
    where most of the list's other steps are the context's: a step added to its list."""
    steps = [_STEP_END.sub("", p.strip()) for p in _STEP_MARK.split(claim)[1:]]
    said = [(step, word_stems(step)) for step in steps]
    said = [(step, stems) for step, stems in said if len(stems) >= _STEP_WORDS]
    theirs = [2 * len(stems & ev.stems) >= len(stems) for _, stems in said]
    if len(said) < _LIST_ITEMS or 2 * sum(theirs) <= len(said):
        return []
    return [_short(step, 4) for (step, _), found in zip(said, theirs, strict=True) if not found]


_PHRASE_WORDS = 4  # a bare answer: a phrase, not a sentence


def _unsaid(claim: str, ev: _Evidence) -> list[str]:
    """The words of a bare answer to a question on documents alone that neither the
    question nor the documents say ("goat's milk" from "made from cow's milk", "clay courts"
    from "grass courts"): such an answer is read off the documents, so most of its words
    are theirs. Not an answer with a number or a date (the number checks read those)."""
    if (len(claim.split()) > _PHRASE_WORDS or len(ev.texts) != ev.documents
            or quantities(claim) or dates(claim) or not _question(ev.given)):
        return []
    asked = word_stems(ev.given)
    new = [w for w in dict.fromkeys(_words(claim))
           if w not in _FUNCTION_WORDS and len(w) > 2 and stem(w) not in asked]
    unsaid = [w for w in new if not ev.says(w) and not _acronym_found(w, claim, ev)]
    return unsaid if 2 * len(unsaid) >= len(new) else []


# A rule made universal ("anywhere", "every level", "any course") where the context sentence
# the claim restates limits it ("only", "except", "unless"): the claim dropped the limit. A
# claim that states a limit of its own restates the rule; a universal word the context
# sentence uses too ("every Monday, except…") is the context's.
_UNIVERSAL = re.compile(r"\b(?:any|anywhere|anyone|anything|anytime|every|everywhere|everyone|"
                        r"everything|all|always|whatever|whenever|wherever|regardless)\b",
                        re.IGNORECASE)
_LIMIT = re.compile(r"\b(?:only|except|excluding|unless|apart from|other than|but not|"
                    r"limited to|restricted to)\b", re.IGNORECASE)


# "at any time" is the context's "anytime": one word, spelt in two.
_SPLIT_UNIVERSAL = re.compile(r"\b(any|every)\s+(time|where|one|thing)\b", re.IGNORECASE)


def _widened(claim: str, restated: str) -> str:
    if _LIMIT.search(claim) or not _LIMIT.search(restated):
        return ""
    theirs = _SPLIT_UNIVERSAL.sub(r"\1\2", restated.lower())
    return next((m.group(0) for m in _UNIVERSAL.finditer(_SPLIT_UNIVERSAL.sub(r"\1\2", claim))
                 if not re.search(rf"\b{m.group(0).lower()}\b", theirs)), "")


# A cause the answer gives ("because the tariff increased", "caused by a GC pause"): the
# clause after the connective, to the end of the sentence. "Since" before a date is when.
# "due to" before a verb ("due to be sent out on 12 May", "due to arrive Friday") schedules;
# it gives no cause; nor does "due to" a payee before a deadline ("due to HMRC by 22 December").
_CAUSE = re.compile(r"\b(?:because(?: of)?|due to(?!\s+(?:be|arrive|leave|depart|land|start|begin|end|"
                    r"finish|open|close|reopen|expire|renew|ship|launch|resume|return)\b)"
                    r"(?!(?:\s+[\w&.'-]+){1,3}\s+(?:by|within|no later than)\s+(?:\d|the\s+\d|end\b|"
                    r"tomorrow|today|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)\w*))"
                    r"|caused by|as a result of|owing to|"
                    r"since(?!\s+(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|last|"
                    r"then|yesterday|monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
                    # "since the deploy": from an event on, a time, no cause
                    r"(?:the|this|that|our|your|its)\s+(?:last\s+|latest\s+|recent\s+)?(?:deploy|deployment|release|"
                    r"upgrade|update|migration|rollout|rollback|restart|reboot|outage|incident|launch|cutover|"
                    r"merge|patch)s?\b)))\s+"
                    # A fronted cause ends where the main clause starts: "Since X, we Y", "…, the Y".
                    # Or at a gerund: "Since you have insurance, canceling would refund you".
                    r"((?:[^.;!?]|\.(?=\d))+?)(?=,\s+(?:we|i|you|it|they|this|that|there|your|our|so|the|its|their|my|"
                    r"[a-z]{3,}ing)\b|[;!?]|\.(?!\d)|$)",
                    re.IGNORECASE)
# "since I only have the allergen list", "since that needs information my tools don't
# give": the answer's own reach, no fact about the world.
# So is the chat's own course ("since we've tried a few variations without success"): a
# perfect "we" tells what the two of them did, where a present one ("since we don't ship
# there") states the company's practice.
_SPEAKER = re.compile(r"\bI\b|\bI'(?:m|ve|d)\b|\b(?:my|me)\b|\b[Ww]e(?:'ve| have)\s+(?:already\s+|now\s+)?\w+ed\b")
# "Since you'd prefer not to be transferred", "since you were told …": the customer's own
# wish or report, said back to them.
_LISTENER = re.compile(r"you(?:'d| would| do not| don't| did not| didn't)?\s+(?:\w+\s+)?(?:like|prefer|want|"
                       r"wish|said|mentioned|told|asked|chose|decided|confirmed|rather)\b", re.IGNORECASE)
# "since your flights are not cancelled or delayed": what a cause denies, a record that
# never happened holds no word for; the negation check weighs it against one that did.
_DENIED = re.compile(r"\b(?:not|never|no longer|\w+n't)\s+(?:been\s+|be\s+|yet\s+)?(\w+)(?:\s+(?:or|nor)\s+(\w+))?",
                     re.IGNORECASE)
# "You mentioned you were told you didn't need it because you had it before": a cause inside
# the customer's own report, said back to them.
_USER_REPORT = re.compile(r"\byou(?:'ve| have)?\s+(?:\w+\s+)?(?:said|mentioned|told me|explained|noted|reported)\b",
                       re.IGNORECASE)
_CAUSE_MISSING = 0.5  # share of the cause's content words the evidence lacks
_CAUSE_WORDS = 2  # and at least this many of them


# "This may be due to a network problem", "it could have been caused by": a guess at the
# cause, offered as one, in the clause just before it.
_GUESSED = re.compile(r"\b(?:may|might|could)\s+(?:also\s+|well\s+)?(?:be|have\s+been)\s+$", re.IGNORECASE)
_CLAUSE_START = re.compile(r".*[,;:(]")
# "Since there are no nonstop flights on May 17": a cause that says there is none of a thing.
_NONE_THERE = re.compile(r"^(?:there (?:are|is|were|was) no|no)\b", re.IGNORECASE)
_EMPTY = frozenset({"[]", "{}", "null", ""})


def _guessed(before: str) -> bool:
    """The cause is offered as a guess: a hedge in its own clause ("probably because")."""
    clause = _CLAUSE_START.sub("", before)
    return bool(_GUESSED.search(clause)) or is_hedged(clause)


# A record's field that says why ("hold reason: COMPLIANCE_REVIEW", "Reason: OOMKilled",
# "diagnosis: Faulty water inlet valve"); a finding the claim reports as its cause.
_WHY_KEY = re.compile(r"\b(?:reasons?|causes?|diagnosis)\b", re.IGNORECASE)
# ("identified your account" finds a record, no cause: only a diagnosis reports one.)
_DIAGNOSED = re.compile(r"\bdiagnosed\s+(?:it as\s+|as\s+)?(?:an?\s+|the\s+)?([^,.;]+)", re.IGNORECASE)


def _given_causes(ev: _Evidence) -> list[tuple[str, frozenset[str]]]:
    """The values of the context's why-fields, each with its stems (a code's parts too)."""
    out = []
    for text in ev.texts:
        for line in text.splitlines():
            for part in _PAIR_SPLIT.split(line):
                m = _PAIR.match(part)
                if m and _WHY_KEY.search(m.group(1).replace("_", " ")) and m.group(2).lower() not in {"null", *_NONE}:
                    stems = word_stems(_CAMEL.sub(" ", m.group(2).replace("_", " ")))
                    if stems:
                        out.append((m.group(2), stems))
    return out


def _other_cause(claim: str, ev: _Evidence) -> str:
    """A cause the claim gives ("delayed because of network congestion", "diagnosed a failed
    drain pump") that shares no word with any cause the context's records give ("hold
    reason: COMPLIANCE_REVIEW", "diagnosis: Faulty water inlet valve"): another cause than
    the record's, not a rewording of it."""
    given = _given_causes(ev)
    if not given:
        return ""
    for m in [*_CAUSE.finditer(claim), *_DIAGNOSED.finditer(claim)]:
        words = word_stems(m.group(1))
        # "Since these are being refunded to PayPal, you'll see …": a premise, no cause found.
        if m.group(0).lower().startswith("since") or len(words) < _CAUSE_WORDS or any(
                w[:_STEM_PREFIX] == g[:_STEM_PREFIX] for w in words for _, stems in given for g in stems):
            continue
        return f'the cause "{_short(m.group(1), 8)}", where the context gives "{_short(given[0][0], 8)}"'
    return ""


_VERSUS = re.compile(r"\b(?:vs\.?|versus|compared (?:with|to)|against)\s", re.IGNORECASE)


def _unsupported_cause(claim: str, ev: _Evidence) -> str:
    """The cause a claim gives whose words the evidence mostly lacks: an invented reason."""
    for m in _CAUSE.finditer(claim):
        if _SPEAKER.search(m.group(1)) or _LISTENER.match(m.group(1)) or _guessed(claim[: m.start()]) or \
                _USER_REPORT.search(claim[: m.start()]) or _zone_gap(m.group(1), claim, ev):
            continue
        # None of a thing, where a lookup of it (its name or arguments) returned nothing.
        if _NONE_THERE.match(m.group(1)) and any(word_stems(m.group(1)) & asked for asked in ev.empty):
            continue
        # "usage went up: 512 kWh vs 410 kWh": a change the cause reads off two of the
        # records' figures, in the direction they take, is worked out, not invented.
        figures = [q.value for q in quantities(m.group(1)) if number_supported(q, ev.direct)]
        rise, fall = _RISE.search(m.group(1)), _FALL.search(m.group(1))
        # "went up: 512 vs 410" puts the new figure first, "rose from 410 to 512" the old.
        newest_first = _VERSUS.search(m.group(1)) and not _FROM_TO.search(m.group(1))
        if len(figures) == _PARTS and bool(rise) != bool(fall) and (
                (figures[0] > figures[1]) == bool(rise)) == bool(newest_first):
            continue
        # A figure of it the context gives ("found a $412.60 shortage") is no word it lacks.
        given = {w for q in quantities(m.group(1)) if number_supported(q, ev.direct) for w in word_stems(q.text)}
        denied = {w for d in _DENIED.finditer(m.group(1)) for w in word_stems(" ".join(filter(None, d.groups())))}
        words = word_stems(m.group(1)) - given - denied
        # Stems meet on their first letters, as offered items' do: "a gold member" is the
        # record's "membership: gold".
        # A cause the answer works out from several of its rules and the records ("does not
        # meet any of the cancellation criteria (not booked within 24 hours, no insurance)")
        # lacks only words that neither holds.
        ruled = frozenset().union(*ev.reasons)
        missing = {w for w in words - ev.stems - ruled if w[:_STEM_PREFIX] not in ev.stem_prefixes}
        if len(missing) >= _CAUSE_WORDS and len(missing) >= _CAUSE_MISSING * len(words) and not any(
                len(words & line) >= max(_CAUSE_WORDS, _CAUSE_MISSING * len(words))
                for line in [*ev.line_stems, *ev.reasons]):
            # (A cause half of whose words one record line holds says that record in its own
            # words: "since this reservation was booked without travel insurance"; or one
            # line of the agent's rules, the rule it applies: "health or weather reasons".)
            return m.group(1)
    return ""


_TERM = re.compile(r"\b(?:until|till|through|expir\w*|valid|renew\w*|due|ends?)\b", re.IGNORECASE)


def _shifted(readings: Sequence[DateParts], terms: Iterable[Quantity], back: bool = False) -> list[DateParts]:
    """Each dated reading moved on (or ``back``) by each whole number of years, months, weeks,
    days or working days stated, or by two of the months stated."""
    terms = list(terms)
    months = {int(q.value) * (12 if q.unit == "year" else 1) for q in terms
              if q.unit in ("year", "month") and q.value == int(q.value) and 0 < q.value <= 120}
    # A term and its extension ("24 months", "an additional 12 months") run on together.
    months |= {a + b for a in months for b in months if a < b}
    days = {int(q.value) * (_WEEK if q.unit == "week" else 1) * (-1 if back else 1) for q in terms
            if q.unit in ("week", "day") and q.value == int(q.value) and 0 < q.value <= 366}
    workdays = {int(q.value) for q in terms
                if q.unit == "workday" and q.value == int(q.value) and 0 < q.value <= 366 and not back}
    out: list[DateParts] = []
    for y, m, d in readings:
        if days and y is None and m is not None and d is not None:
            # "notice today (3 March)" and 60 days: 2 May, in a common year or a leap one.
            out += [(None, t.month, t.day) for year in _SOME_YEARS for n in days
                    if (start := _date_or_none(year, m, d)) for t in [start + datetime.timedelta(days=n)]]
        if (days or workdays) and y is not None and m is not None and d is not None:
            start = _date_or_none(y, m, d)
            out += [(t.year, t.month, t.day) for n in days if start
                    for t in [start + datetime.timedelta(days=n)]]
            out += [(t.year, t.month, t.day) for n in workdays if start for t in [_workdays_on(start, n)]]
        for n in months:
            if y is not None and m is not None:
                total = y * 12 + (m - 1) + n
                out.append((total // 12, total % 12 + 1, d))
            elif y is not None and n % 12 == 0:
                out.append((y + n // 12, m, d))
    return out


_SOME_YEARS = (2025, 2028)  # a common year and a leap one, for a date given without its year


def _date_or_none(y: int, m: int, d: int) -> datetime.date | None:
    try:
        return datetime.date(y, m, d)
    except ValueError:
        return None


_COUNTED_BACK = re.compile(r"\b(?:before|prior to|ahead of|earlier than)\b", re.IGNORECASE)


def _workdays_on(start: datetime.date, n: int) -> datetime.date:
    """The date n working days (Monday to Friday) after ``start``."""
    day = start
    while n:
        day += datetime.timedelta(days=1)
        n -= day.weekday() < 5  # Saturday is 5
    return day


def _periods(text: str) -> frozenset[str]:
    return frozenset(_PERIOD_WORDS[m.group(0).lower()] for m in _PERIOD.finditer(text))


def _rivals(claim: str, unsupported: Iterable[str], ev: _Evidence) -> list[str]:
    """The claim's unsupported numbers and dates for whose label (the words next to them:
    "refills left", "your 50 GB plan") the context states another value of the same kind:
    the claim changed a value the context gives, rather than working out a new one."""
    wanted = set(unsupported)
    out: list[str] = []
    for mine in labelled_values(claim):
        if mine.text not in wanted or not mine.labels:
            continue
        for theirs in ev.valued:
            if not mine.labels & theirs.labels:
                continue
            if mine.quantity is None or theirs.quantity is None:
                same_kind = mine.quantity is None and theirs.quantity is None
            else:
                units = (mine.quantity.unit, theirs.quantity.unit)
                same_kind = units[0] == units[1] or not all(units)
            if same_kind:
                out.append(mine.text)
                break
    return out


def _multiplier(q: Quantity) -> bool:
    # "over 10", "about 3" is a limit or a guess, not a count of what is priced.
    return not q.unit and not q.approx and q.value == int(q.value) and 2 <= q.value <= _MAX_MULTIPLIER


_HOUR_RANGE = re.compile(r"\b(?:between|from)\s+(\d{1,2})(?:\s*[ap]\.?m\.?)?\s*(?:and|to|until|till)\s+"
                         r"(\d{1,2})\b", re.IGNORECASE)
_MAX_MULTIPLIER = 12  # "three months", "twelve sessions": a count a price is multiplied by


def _small_count(q: Quantity) -> bool:
    return not q.unit and q.value == int(q.value) and 0 <= q.value <= _SMALL_COUNT


def _near_digits(a: str, b: str) -> bool:
    """Two different digit strings one slip apart: a digit dropped or added ("8" for "18"),
    changed ("60" for "40") or two swapped ("45" for "54"). Any two single digits are one
    change apart, so a change needs two digits or more."""
    if a == b:
        return False
    if len(a) > len(b):
        a, b = b, a
    if len(b) - len(a) == 1:
        return any(b[:i] + b[i + 1:] == a for i in range(len(b)))
    if len(a) != len(b) or len(a) < 2:
        return False
    diff = [i for i in range(len(a)) if a[i] != b[i]]
    return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                              and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])


def _miscopied(q: Quantity, labels: frozenset[str], ev: _Evidence) -> bool:
    """The context gives the number's slot (a shared label, the same unit) a value one
    digit slip away ("a 3-day waiting period" for "waiting period: 30 days"): a copy gone
    wrong, not a result worked out or a value converted."""
    if q.value != int(q.value):
        return False  # 1.2 for 1.23 is rounding: only whole numbers are copied wrong
    mine = str(int(q.value))
    return any(theirs.quantity is not None and theirs.labels & labels
               and theirs.quantity.value == int(theirs.quantity.value)
               and theirs.quantity.unit == q.unit
               and _near_digits(mine, str(int(theirs.quantity.value))) for theirs in ev.valued)


def _value_swapped(q: Quantity, labels: Mapping[str, frozenset[str]], stated: Sequence[Quantity],
                   ev: _Evidence) -> bool:
    """The claim gives two of the context's values crossed: this one labelled as the other's
    slot and never as its own, the other labelled as this one's ("£42 on weekdays and £30 at
    the weekend" for "weekday: 30; weekend: 42"). Words between two numbers label both, so
    one crossed label is no swap ("at 14 against a reorder level of 50" for "on hand: 14;
    reorder at: 50": 50 is not labelled "on hand")."""
    mine = labels.get(q.text, frozenset())
    if not mine:
        return False
    own = [v for v in ev.valued if v.quantity is not None and v.quantity.value == q.value]
    if not own or any(v.labels & mine for v in own):
        return False
    slot = frozenset().union(*(v.labels for v in own))
    others = [s for s in stated if s is not q and s.unit == q.unit
              and labels.get(s.text, frozenset()) & slot]
    return any(v.quantity is not None and any(s.value == v.quantity.value for s in others)
               and v.labels & mine
               and ev.units.get(v.quantity.value, frozenset({q.unit})) & {q.unit}
               for v in ev.valued)


def _field_crossed(q: Quantity, labels: frozenset[str], claim: str, ev: _Evidence) -> bool:
    """The one record the claim names gives the number under a key none of the claim's
    words for it name, and a key they do name holds another number the claim never states
    ("seating up to 150" where the room's row gives seated capacity 120, standing capacity
    150): a field read off its neighbour. (Words near a number label its neighbours too:
    "0.50 ETH at $3,180" gives the limit's value beside the quantity's.)"""
    named = _named_records(claim, ev)
    if len(named) != 1 or not labels:
        return False
    stated = [x.value for x in quantities(claim)]
    held = [k for k, v in named[0].pairs if _holds(v, q, frozenset())]
    other = [[x.value for x in quantities(v)] for k, v in named[0].pairs
             if word_stems(k) & labels and not _holds(v, q, frozenset())]
    return bool(held) and bool(other) and all(o and not set(o) & set(stated) for o in other) and not any(
        word_stems(k) & labels for k in held)


def _other_records_value(q: Quantity, labels: frozenset[str], claim: str, ev: _Evidence) -> bool:
    """The one record the claim names gives another number under a key the claim's words
    for it name whole, and another record gives this one there ("x2lqp … 14 restarts" where
    x2lqp's row has restarts 0 and kq8vn's 14): the value of the wrong record. Of the
    records the claim names, only those with such a key are read."""

    def slot(key: str) -> bool:
        return bool(labels) and word_stems(key) <= labels

    named = [r for r in _named_records(claim, ev) if any(slot(k) for k, _ in r.pairs)]
    # Its own value there is one number ("restarts: 0"), not a ratio or a range ("3/6").
    if len(named) != 1 or any(len(quantities(v)) != 1 or _holds(v, q, frozenset())
                              for k, v in named[0].pairs if slot(k)):
        return False
    return any(r is not named[0] and any(slot(k) and _holds(v, q, frozenset()) for k, v in r.pairs)
               for r in ev.records)


# "45% repaid, so 55% is still outstanding": a share of what is left of the whole.
_REST = re.compile(r"\b(?:remain(?:s|ing)?|left|outstanding|still|to go|unpaid|rest|balance)\b",
                   re.IGNORECASE)


def _wrong_rest(q: Quantity, stated: Sequence[Quantity], claim: str, ev: _Evidence) -> bool:
    """A percentage a claim gives as the rest of another it gives (a word of what remains
    follows that other) that is not 100 minus it, nor a value the evidence states: the rest
    of a whole is worked out one way only, whatever chance sums of other numbers match it."""
    others = [p for p in stated if p.unit == "%" and p is not q and p.value != q.value]
    return (q.unit == "%" and bool(others) and not number_supported(q, ev.direct)
            and any(claim.find(p.text) < claim.find(q.text) for p in others)
            and _REST.search(claim) is not None
            and not number_supported(q, sorted(100 - p.value for p in others)))


_YEAR_EDGE = re.compile(r"\b(after|before)\s+$", re.IGNORECASE)


def _year_edge(q: Quantity, claim: str, ev: _Evidence) -> bool:
    """"after 2020" is "on or after 1 January 2021" (or "after 31 December 2020"), and
    "before 2021" is "before 1 January 2021": a bare year that bounds a period, given by
    the context as the day at its edge."""
    edge = _YEAR_EDGE.search(claim[: claim.find(q.text)]) if _bare_year(q) else None
    if edge is None:
        return False
    year = int(q.value)
    days = {(year + 1, 1, 1), (year, 12, 31)} if edge.group(1).lower() == "after" else {
        (year, 1, 1), (year - 1, 12, 31)}
    return bool(days & set(ev.date_readings))


_OLD = re.compile(r"\s+(?:old|ago)\b", re.IGNORECASE)


def _age_from_year(q: Quantity, claim: str, stated: Sequence[Quantity], ev: _Evidence) -> bool:
    """"24 years old (installed 2002)", "built in 1985, 41 years ago": an age counted from a
    year the context gives (the claim's own, where it states one) up to now, which is no
    earlier than the latest year the context states and no later than today."""
    at = claim.find(q.text)
    if q.unit != "year" or at < 0 or not _OLD.match(claim, at + len(q.text)):
        return False
    years = {y for y, _, _ in ev.date_readings if y} | {int(x.value) for x in ev.found if _bare_year(x)}
    if not years:
        return False
    mine = {int(x.value) for x in stated if _bare_year(x)} & years
    today = max(datetime.date.today().year, ev.today.year if ev.today else 0)
    # One year less before the anniversary: "41 years old" in 2026 of a house built in 1985.
    return any(max(years) <= y + q.value + late <= today for y in mine or years for late in (0, 1))


_RISE = re.compile(r"\b(?:rose|risen|rises|increas\w*|grew|grown|grows|gain\w*|went up|go(?:es)? up|"
                   r"up|higher|climb\w*|jump\w*)\b", re.IGNORECASE)
_FALL = re.compile(r"\b(?:fell|fallen|falls|decreas\w*|declin\w*|drop\w*|went down|go(?:es)? down|"
                   r"down|lower|shr[au]nk\w*|less)\b", re.IGNORECASE)


def _against_sign(q: Quantity, claim: str, ev: _Evidence) -> bool:
    """"rose 8.8%" where the context's change is -8.8 (or -0.088) and never +8.8: a fall told
    as a rise. (A positive change is no rise for certain: data often give a fall's size.)"""
    if q.unit != "%" or q.value <= 0 or not _RISE.search(claim) or _FALL.search(claim):
        return False
    return number_supported(q, ev.falls) and not number_supported(q, ev.rises)


def _signed_size(q: Quantity, ev: _Evidence) -> bool:
    """"price difference: -13.75" where the evidence gives the two prices or the 13.75
    refunded: a difference or a credit said with its sign, as an earlier turn's is
    (``_worked_earlier``); its size is the fact."""
    return q.value < 0 and number_supported(replace(q, value=-q.value), ev.values)


def _inexact(claim: str, missing: Sequence[str]) -> str:
    """An unsupported exact figure given beside its rounded form, which the context supports
    ("about 1,300 — 1,312 precisely" for 1,297): the claim miscopied the figure it rounds."""
    stated = quantities(claim)
    exact = next((e for e in stated if e.text in missing and not e.approx and any(
        a.approx and e.unit in (a.unit, "") and a.text not in missing and number_supported(a, [e.value])
        for a in stated)), None)
    return f"{exact.text} is given as the exact figure the context's rounded one stands for" if exact else ""


# An instant with its offset ("2026-11-08T18:00:00+01:00", "…T09:00:00Z") and a zone's
# name ("Europe/Warsaw"); a clock time told in a zone ("18:00 London time", "09:00 your local
# time", "00:10 on 1 December in Berlin", "23:10 UTC").
_INSTANT = re.compile(r"\b(\d{4}-\d\d-\d\d)[T ](\d\d):(\d\d)(?::\d\d(?:\.\d+)?)?(Z|[+-]\d\d:?\d\d)(?![\w:])")
_IANA = re.compile(r"\b[A-Z][a-z]+/[A-Z][A-Za-z_]+(?:/[A-Z][A-Za-z_]+)?\b")
_TOLD_ZONE = re.compile(r"\s*\(?(?:on [^,;()]{1,20}?\s)?(?:(?:local\s+)?(?P<city>[A-Z][a-z]+(?: [A-Z][a-z]+)?) time\b|"
                        r"in (?P<in>[A-Z][a-z]+(?: [A-Z][a-z]+)?)\b|(?P<utc>UTC|GMT)\b|"
                        r"(?:your |my |the )?(?P<local>local) time\b)")


_RANGE_END = re.compile(r"\s?(?:[-\u2013\u2014]|to)\s?\d{1,2}[:.]\d\d(?:\s?[ap]\.?m\.?)?")


@lru_cache(maxsize=1)
def _city_zones() -> dict[str, str]:
    """IANA zones by their city ("london": "Europe/London"), from the system's zone data."""
    try:
        names = zoneinfo.available_timezones()
    except OSError:  # no zone data on this machine: no zone is read
        return {}
    return {n.rsplit("/", 1)[1].replace("_", " ").lower(): n for n in names if "/" in n}


@lru_cache(maxsize=1)
def _known_zones() -> frozenset[str]:
    return frozenset(_city_zones().values())


# "10:30 in Hanoi (GMT+7)", "UTC-05:00": a zone's offset from UTC, in hours.
_UTC_OFFSET = re.compile(r"\b(?:UTC|GMT)\s?([+\-\u2212])\s?(\d{1,2})(?::?(\d\d))?\b")


def _zone_offset(q: Quantity, claim: str, ev: _Evidence) -> bool:
    """An offset from UTC ("GMT+7") that a zone the context names ("Asia/Ho_Chi_Minh") or
    a city the claim names keeps in winter or in summer: the zone said as its offset, no
    figure of the records."""
    said = [m for m in _UTC_OFFSET.finditer(claim) if m.group(2).lstrip("0") == q.text.lstrip("+-\u2212").lstrip("0")]
    if not said:
        return False
    offsets = _zone_offsets(claim, ev)
    return any(_offset_minutes(m) in offsets for m in said)


# "since Shanghai is 6 hours ahead of Amsterdam": the gap between two places' clocks.
_ZONE_GAP = re.compile(r"\b(\d{1,2}(?:[.,]5)?)\s*(?:hours?|hrs?|h)\s+(?:ahead|behind)\b", re.IGNORECASE)


def _zone_gap(cause: str, claim: str, ev: _Evidence) -> bool:
    """The cause states the gap between two zones ("6 hours ahead of Amsterdam in summer")
    that the offsets of the claim's cities, the context's zones or its instants give
    (+02:00 and +08:00): the working of a converted time, no fact the records lack."""
    gaps = [60 * float(m.group(1).replace(",", ".")) for m in _ZONE_GAP.finditer(cause)]
    if not gaps:
        return False
    offsets = _zone_offsets(claim, ev) | {
        _iso_offset_minutes(m.group(4)) for t in ev.texts for m in _INSTANT.finditer(t)}
    return all(any(abs(a - b) == g for a in offsets for b in offsets) for g in gaps)


def _zone_offsets(claim: str, ev: _Evidence) -> set[int]:
    """The offsets from UTC, in minutes, winter and summer, of the zones the context names
    and of the cities the claim names."""
    zones = ev.zones | {
        zone for w in re.findall(r"[A-Z][a-z]+(?: [A-Z][a-z]+)?", claim) if (zone := _city_zones().get(w.lower()))}
    return set().union(*(_offsets(zone) for zone in zones))


def _iso_offset_minutes(offset: str) -> int:
    """An ISO 8601 offset ("Z", "+05:30", "-0400") in minutes east of UTC."""
    return 0 if offset == "Z" else (-1 if offset[0] == "-" else 1) * (60 * int(offset[1:3]) + int(offset[-2:]))


def _offset_minutes(m: re.Match[str]) -> int:
    return (-1 if m.group(1) != "+" else 1) * (60 * int(m.group(2)) + int(m.group(3) or 0))


@lru_cache(maxsize=256)
def _offsets(zone: str) -> frozenset[int]:
    """The zone's offsets from UTC in minutes, in winter and in summer."""
    try:
        tz = zoneinfo.ZoneInfo(zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):  # no zone data: nothing to read
        return frozenset()
    return frozenset(round(delta.total_seconds() / 60) for month in (1, 7)
                     if (delta := datetime.datetime(2026, month, 1, tzinfo=tz).utcoffset()) is not None)


def _home_zone(claim: str, text: str, ev: _Evidence) -> bool:
    """The clock time is told in the zone of the context's one named zone: "9:30 local time
    (GMT+7)" of a slot in Asia/Ho_Chi_Minh is no other zone's time, and must be its own."""
    # An instant given in UTC or with an offset ("load_in_utc: …T07:00:00Z") is converted
    # into the zone, rightly some hours on: only times the context writes in it are its own.
    if any(_INSTANT.search(t) or "utc" in t.lower() for t in ev.texts):
        return False
    at = claim.find(text)
    told = _TOLD_ZONE.match(claim, at + len(text)) if at >= 0 and len(ev.zones) == 1 else None
    if told is None:
        return False
    zone = next(iter(ev.zones))
    offset = re.match(r"\s*\(\s*(?:UTC|GMT)", claim[told.end():])
    given = _UTC_OFFSET.search(claim, told.end()) if offset else None
    return bool(told.group("local") or _city_zones().get((told.group("city") or told.group("in") or "").lower()) == zone
                or given and _offset_minutes(given) in _offsets(zone))


def _iso_day(text: str) -> datetime.date | None:
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        return None


def _zone_unconverted(claim: str, ev: _Evidence) -> str:
    """A clock time told in a named zone that copies the context's instant as it was written
    in another zone ("18:00 London time" of 18:00+01:00, which is 17:00 in London;
    "09:00 your local time" of 09:00Z at a Dubai property): the time was not converted.
    Only where it matches the context's written time and none of its converted ones."""
    instants = [(day, int(m.group(2)) * 60 + int(m.group(3)), m.group(4))
                for t in ev.texts for m in _INSTANT.finditer(t) if (day := _iso_day(m.group(1)))]
    if not instants:
        return ""
    for text, minutes in clock_times(claim):
        at = claim.find(text)
        # "02:00–04:00 Helsinki time": the zone told after a range is its start's too.
        end = at + len(text) + (len(m.group(0)) if at >= 0 and (m := _RANGE_END.match(claim, at + len(text))) else 0)
        told = _TOLD_ZONE.match(claim, end) if at >= 0 else None
        if told is None:
            continue
        place = (told.group("city") or told.group("in") or "").lower()
        zone = ("UTC" if told.group("utc") else _city_zones().get(place, "") if place
                else next(iter(ev.zones)) if len(ev.zones) == 1 else "")
        if not zone:
            continue
        try:
            tz = zoneinfo.ZoneInfo(zone) if zone != "UTC" else datetime.timezone.utc
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):  # no zone data: nothing to convert with
            continue
        written, converted = set(), set()
        for day, clock, offset in instants:
            shift = _iso_offset_minutes(offset)
            at_utc = datetime.datetime(day.year, day.month, day.day, tzinfo=datetime.timezone.utc) + datetime.timedelta(
                minutes=clock - shift)
            local = at_utc.astimezone(tz)
            written.add(clock)
            converted.add(local.hour * 60 + local.minute)
        if minutes in written and minutes not in converted:
            return f"{text} told in {zone} copies the context's time as written in another zone"
    return ""


def _turned(claim: str, ev: _Evidence) -> str:
    """The claim's change told as a rise that the context gives as a fall (``_against_sign``)."""
    q = next((q for q in quantities(claim) if _against_sign(q, claim, ev)), None)
    return f"{q.text} told as a rise, where the context's change is a fall" if q else ""


# "Average ammonia across the three tanks is about 0.58 ppm": a column's mean, where said so.
_MEAN = re.compile(r"\b(?:average|mean|on avg)\b", re.IGNORECASE)
_NOUN_BEFORE = re.compile(r"\b([a-z]+)\s+#?$", re.IGNORECASE)


def _code_number(q: Quantity, claim: str, ev: _Evidence) -> bool:
    """"locker 22" for "L-22", "turbine 7" for "T-07": an identifier's number said after a
    noun its letters begin, the identifier named by what it is."""
    at = claim.find(q.text)
    noun = _NOUN_BEFORE.search(claim[:at]) if at > 0 and not q.unit and q.value == int(q.value) else None
    return noun is not None and re.search(
        rf"(?<![\w-]){noun.group(1)[0].lower()}[a-z]{{0,3}}-?0*{int(q.value)}(?![\w.-])", ev.lower) is not None


_RATE_NAMED = re.compile(r"\b(?:exchange|fx|conversion) rate\b|\brate of\b", re.IGNORECASE)


def _at_rate(q: Quantity, given: Sequence[Quantity], claim: str, ev: _Evidence) -> bool:
    """"€240 (≈ £206)" at a rate of 0.86 the evidence states: an amount the claim gives
    from the evidence (its currency may be the record's key's, "amount eur: 240"), restated
    in another currency by a fractional number of the evidence, bare or in that currency."""
    if _dimension(q.unit) != "money":
        return False
    rates = [r.value for r in ev.found if r.unit in ("", q.unit) and r.value > 0 and r.value != int(r.value)]
    # "at the desk's rate of Rp 17.250 per euro": a whole rate, where the claim names it one.
    if _RATE_NAMED.search(claim):
        rates += [c.value for c in given if c.value > 1]
    return number_supported(q, sorted(v for c in given if c.unit != q.unit and _dimension(c.unit or "$") == "money"
                                      for r in rates for v in (c.value * r, c.value / r)))


def _priced(q: Quantity, claim: str, ev: _Evidence) -> bool:
    """"€250 in USDC" from a record of 270 USDC held and a USDC price of 0.925: an amount
    the clause gives for a thing it names, the product of a number of that thing's record
    and a number the context keys by its name (a holding at its price, a count at its rate)."""
    if _dimension(q.unit) != "money":
        return False
    for part in _RECORD_CLAUSE.split(claim):
        if q.text not in part:
            continue
        for name in key_terms(part):
            held = [x.value for r in ev.records if name in r.names for _, v in r.pairs for x in quantities(v)]
            keyed = [v.quantity.value for v in ev.valued if v.quantity is not None and stem(name) in v.labels]
            if number_supported(q, sorted(a * b for a in held for b in keyed)):
                return True
    return False


def _rescaled(q: Quantity, ev: _Evidence) -> bool:
    """"1.4 kWh" for "1,412.3 kWh": the evidence's value in the claim's own unit, matched
    only as if converted to another (1.41 MWh), is a slip of scale, not a conversion."""
    return bool(q.unit) and not number_supported(q, sorted(x.value for x in ev.found)) and any(
        x.unit == q.unit and number_supported(q, sorted(converted(x))) for x in ev.found)


_RECORD_CLAUSE = re.compile(r"[,;:]\s*|\s+and\s+")


def _record_worked(claim: str, ev: _Evidence) -> set[str]:
    """"15 in checkout.json, 6 in settings.json" (total 212, translated 197): the numbers
    of a clause that names one record, worked out from that record's own values. Not where
    the clause says one of the record's keys ("North Lot has 24 cars" of cars 21, vans 3):
    that is the key's value, miscopied, unless the claim says it worked it out."""
    out: set[str] = set()
    for part in _RECORD_CLAUSE.split(claim):
        named = _named_records(part, ev)
        if len(named) != 1:
            continue
        mine = [x for _, value in named[0].pairs for x in quantities(value)]
        keyed = {w for k, _ in named[0].pairs for w in word_stems(k)} & word_stems(part)
        if len(mine) > 1 and not keyed:
            worked = derived_values(mine)
            out |= {q.text for q in quantities(part) if number_supported(q, worked)}
    return out


def _run_total(q: Quantity, stated: Sequence[Quantity], given: Sequence[Quantity]) -> bool:
    """"23 strings: 15 in ..., 6 in ... and 2 in ...": a total the claim itemises, the sum
    of a run of its supported numbers in its unit."""
    ok = [x in given and x.unit in (q.unit, "") for x in stated]
    for i in range(len(stated)):
        total = 0.0
        for j in range(i, len(stated)):
            if not ok[j] or stated[j] is q:
                break
            total += stated[j].value
            if j > i and abs(total - q.value) < 0.01:
                return True
    return False


_ITS_LIST = re.compile(r"^[^:.;!?]{0,40}:\s*([^.;!?]+)")
_ITEM_SPLIT = re.compile(r",\s*(?:and\s+)?|\s+and\s+")
_BOUND_BEFORE = re.compile(r"\b(?:above|below|over|under|more than|less than|fewer than|higher than|"
                           r"lower than)\s+$", re.IGNORECASE)


def _counts_its_list(q: Quantity, claim: str) -> bool:
    """"Two sensors are low: the front door at 12% and the garage at 18%": a count of the
    items the claim lists after it, its own."""
    at = claim.find(q.text)
    m = _ITS_LIST.match(claim[at + len(q.text):]) if at >= 0 and _small_count(q) else None
    return m is not None and len(_ITEM_SPLIT.split(m.group(1).strip())) == q.value


_NAMED_AFTER = re.compile(r"^[^:,.;!?]{0,40}[:,]\s*([^.;:!?]+?)(?:,\s+and\s|,\s+(?:which|so|but)\s|[.;:!?]|$)")


def _counts_named_after(q: Quantity, claim: str) -> bool:
    """"Two packages depend on it, openai and respx", "pulls in five: anyio, certifi, …": a
    count of the short items the claim names just after it (a colon or an apposition)."""
    at = claim.find(q.text)
    m = _NAMED_AFTER.match(claim[at + len(q.text):]) if (
        at >= 0 and not q.unit and q.value == int(q.value) and 2 <= q.value <= _MAX_MULTIPLIER) else None
    items = _ITEM_SPLIT.split(m.group(1).strip()) if m else []
    return len(items) == q.value and all(0 < len(i.split()) <= _ITEM_WORDS for i in items)


def _bound_between(q: Quantity, claim: str, ev: _Evidence) -> bool:
    """"All your other sensors are above 60%": a threshold the answer draws between the
    evidence's values in its unit (12%, 18% | 64%, 81%), none of them, to sort the records."""
    at = claim.find(q.text)
    near = [x.value for x in ev.found if x.unit == q.unit] + [
        v for t in ev.texts for v, unit in keyed_units(t) if unit == q.unit]
    return bool(q.unit) and at > 0 and bool(_BOUND_BEFORE.search(claim[:at])) and q.value not in near and (
        min(near, default=q.value) < q.value < max(near, default=q.value))


_MASKED = re.compile(r"(?:\u2026|\.\.\.|[*x\u2022]{2,}|\bend(?:s|ing)\s+(?:in|with)|\blast\s+(?:\w+\s+)?digits"
                     r"(?:\s+(?:are|of))?)\s?(\d{2,})(?![\d.,])", re.IGNORECASE)


def _days_between(q: Quantity, claim: str) -> bool:
    """"Returned on May 29, two days before the May 31 due date": the days between two dates
    the claim states (each checked as a date) are its own working."""
    if q.unit != "day":
        return False
    days = set()
    for _, readings in dates(claim):
        for year, month, day in readings:
            if month and day:
                with contextlib.suppress(ValueError):
                    days.add(datetime.date(year or 2000, month, day))  # a leap year: any day reads
    return any(abs((a - b).days) == q.value for a, b in itertools.combinations(days, 2))


def _number_findings(claim: str, ev: _Evidence) -> tuple[list[str], list[str]]:
    """The claim's numbers, dates and times no evidence supports, and its unsupported small
    bare counts apart."""
    sides = _REPLACED.split(claim)
    if len(sides) > 1:
        found = [_number_findings(side, ev) for side in sides]
        return [m for f, _ in found for m in f], [c for _, f in found for c in f]
    missing: list[str] = []
    counts: list[str] = []
    rates = ev.rates(claim)
    stated = quantities(claim)
    # "February had 40,320 minutes, so …": a month's length stated is the base of a sum.
    lengths = ev.month_lengths(claim) if _periods(claim) & {"minute", "hour"} else []
    arithmetic = _worked_out(claim, ev.given) or any(number_supported(q, lengths) for q in stated)
    # "2 hours 15 minutes" is one duration, 135 minutes: its parts are no facts alone.
    spans = list(_COMPOUND_DURATION.finditer(claim))
    seconds = list(_MIN_SEC.finditer(claim))
    parts = {m.group(k) for m in spans for k in ("h", "mi")} | {m.group(k) for m in seconds for k in ("mi", "s")}
    stated = [q for q in stated if q.text not in parts]
    # "syn 1.0.109": a release is checked whole (``_unstated_releases``); its "1.0" is no number.
    releases = [m.span() for m in _RELEASE.finditer(claim)]
    stated = [q for q in stated if not any(a <= _stated_at(claim, q) < b for a, b in releases)]
    # "€4.2M against COGS of €25.5M, so DIO = 4.2 / 25.5 × 365": the working writes the
    # claim's own amounts without their scale; they are checked as those amounts.
    stated = [q for q in stated if q.unit or not any(
        c is not q and q.text in c.text and any(math.isclose(c.value, q.value * k) for k in _SCALES)
        for c in stated)]
    missing += [m.group(0) for m in seconds if not any(
        abs(d - float(m.group("mv")) - float(m.group("sv")) / 60) < 1e-6 for d in ev.durations)]
    # "half past ten": a clock time in words, whose hour is no number alone.
    worded = worded_clock_times(claim)
    hours_said = {w for text, _ in worded for w in re.findall(r"\w+", text.lower())}
    stated = [q for q in stated if q.text.lower() not in hours_said]
    for m in spans:
        total = Quantity(m.group(0), 60 * float(m.group("hv")) + float(m.group("mv")), "min", 1.0,
                         bool(_APPROX.search(claim[max(0, m.start() - 24) : m.start()])))
        if not (number_supported(total, ev.durations) or number_supported(total, ev.direct)
                or number_supported(total, [v * 60 for v in ev.direct])):
            missing.append(total.text)
    # "Two adult tickets are 32 GBP", "five sessions at 4.50 make 22.50": a count the claim
    # states times an evidence value is worked out in the claim itself, wording or not.
    # The count is then the claim's own operand, supported with its product.
    worked = [(q, c) for q in stated for c in stated if c is not q and _multiplier(c)
              and number_supported(q, sorted(c.value * v for v in ev.direct if v != 1))]
    times = {id(x) for pair in worked for x in pair}
    # "between 2 and 6 pm", "from 8 to 12" for a slot of 14:00-18:00: the hours, said plainly.
    hours = {h for m in ev.minutes for h in (m // 60, (m // 60 - 1) % 12 + 1)}
    in_range = {n for m in _HOUR_RANGE.finditer(claim) for n in m.groups()}
    labels = {v.text: v.labels for v in labelled_values(claim) if v.quantity is not None}
    # "about 5 minutes (312 s)": a number the claim also gives in another unit, from the
    # evidence, is the same fact restated.
    restated = sorted(v for c in stated if number_supported(c, ev.direct) for v in converted(c))
    # "780/kg, sold in 50 kg bags (39,000 a bag)": a result of two numbers the claim itself
    # states from the evidence is its own working, whatever its wording.
    worked_here = _record_worked(claim, ev)
    given = [c for c in stated if number_supported(c, ev.direct) or c.text in worked_here]

    # "The three jobs need 12 sheets in total" where the request says each needs 4: worked
    # out from the request's own numbers.
    asked = quantities(ev.given) if arithmetic else []
    requested = derived_values(asked) if len(asked) > 1 else []

    def own_form(q: Quantity) -> bool:
        """The claim's own working or layout, which no slip of a copied digit explains."""
        return (q.text in worked_here or _equated(q, claim) or _run_total(q, stated, given) or _counts_its_list(q, claim)
                or _counts_named_after(q, claim) or _bound_between(q, claim, ev)
                or number_supported(q, requested))
    own = derived_values(given) if len(given) > 1 else []
    # "10% on the first $500 ($50)": a share the claim takes of an amount it states is worked
    # out, though a tenth of the amount is one digit from it (see _miscopied).
    shares = sorted(x.value * p.value / 100 for p in given if p.unit == "%" for x in given if x.unit != "%")
    # "Riverside Park with 14 bikes in total" (bikes 11, e-bikes 3): a result worked out
    # from the values of the one record the claim names is no slip of one of them.
    named = _named_records(claim, ev)
    mine = derived_values([x for r in named for _, value in r.pairs for x in quantities(value)]
                          ) if arithmetic and len(named) == 1 else []
    # "(…8817)", "ending in 5521": an identifier the context gives, masked to its last digits.
    digits = re.findall(r"\d+", ev.lower) if _MASKED.search(claim) else []
    tails = {t for m in _MASKED.finditer(claim) if any(
        d.endswith(t := m.group(1)) and len(d) > len(t) for d in digits)}
    claim_stems = word_stems(claim)  # a group's totals where the claim names the group
    for q in stated:
        supported = (q.text in tails or number_supported(q, ev.direct) or number_supported(q, rates)
                     or number_supported(q, ev.totals) or number_supported(q, ev.shown)
                     or number_supported(q, sorted(t for names, ts in ev.groups if names <= claim_stems for t in ts))
                     or (arithmetic and number_supported(q, ev.values))
                     or (q.unit in ("min", "h") and number_supported(q, ev.durations))
                     or _in_seconds(q, arithmetic, ev)
                     or (q.text in in_range and q.value in hours)
                     or id(q) in times or number_supported(q, restated)
                     or number_supported(q, own) or number_supported(q, ev.ages)
                     or _age_from_year(q, claim, stated, ev)
                     or _year_edge(q, claim, ev) or _signed_size(q, ev)
                     or _code_number(q, claim, ev) or _at_rate(q, given, claim, ev) or _priced(q, claim, ev)
                     or _zone_offset(q, claim, ev) or (q.unit == "h" and _zone_gap(claim, claim, ev))
                     or own_form(q) or _days_between(q, claim)
                     or (bool(_MEAN.search(claim)) and number_supported(q, _column_totals(ev.records, mean=True))))
        # Support by another unit or by arithmetic does not stand against the same slot's
        # value one digit slip away ("about 8 months" for "about 18 months", 8 being 2.4 m
        # in feet): only the value itself, in its unit, does.
        # The evidence's number in another currency or unit of its dimension is another
        # amount: "$24" for "adult eur: 24".
        slip = unit_slip(q.unit, ev.units.get(q.value, ())) or _rescaled(q, ev)
        # Working shown puts the context's values in new roles: only copies are swapped.
        swapped = not arithmetic and _value_swapped(q, labels, stated, ev) or _field_crossed(
            q, labels.get(q.text, frozenset()), claim, ev) or _other_records_value(q, labels.get(q.text, frozenset()), claim, ev)
        if supported and not slip and not swapped and not _wrong_rest(q, stated, claim, ev) and not (
                _against_sign(q, claim, ev)) and (
                any(x.unit == q.unit and x.value == q.value for x in ev.found)
                or number_supported(q, mine) or number_supported(q, shares) or own_form(q)
                or not _miscopied(q, labels.get(q.text, frozenset()), ev)):
            continue
        # A small bare count ("two options", "step 1") is how an answer is laid out as
        # often as a fact: it cannot decide a claim alone (see _score_claim).
        (counts if _small_count(q) else missing).append(q.text)
    # "a 24-month warranty from 18 June 2024 ended in June 2026", "6 weeks from 3 January:
    # 14 February": a date counted on from the context's by a term the claim states.
    terms = [q for q in stated if q.unit in ("year", "month", "week", "day") and number_supported(q, ev.direct)]
    # A claim that states the context's term beside its date counts too ("the extra 12
    # months, which takes it to 17/05/2027").
    counted = arithmetic or bool(_TERM.search(claim)) or bool(terms)
    # "30 days before expiry": the term counted back from the context's date.
    counted_on = (_shifted(ev.date_readings, terms) + _shifted(ev.date_readings, terms, back=bool(
        _COUNTED_BACK.search(claim)))) if terms else []
    zoned = bool(_TIME_ZONE.search(claim) or _ZONE_GAP.search(claim))
    # "23:10 UTC on 30 November (00:10 on 1 December in Berlin)": a time told in another
    # zone may fall on the day before or after the context's.
    if zoned:
        counted_on += _shifted(ev.date_readings, [_ONE_DAY]) + _shifted(ev.date_readings, [_ONE_DAY], back=True)
    # "resets on 1 June" of a cycle ending 31 May: the next cycle starts the day after.
    if _NEXT_CYCLE.search(claim):
        counted_on += _shifted(ev.date_readings, [_ONE_DAY])
    for text, readings in dates(claim):
        if not date_supported(readings, ev.date_readings) and not (
            counted and date_supported(readings, ev.shifted)
        ) and not date_supported(readings, counted_on) and not _searched_empty(
            claim, text, readings, ev
        ) or _wrong_weekday(claim, text, readings, ev.date_readings):
            missing.append(text)
    missing.extend(_wrong_days(claim, ev))
    for text, said in worded_clock_times(claim):
        if not said & ev.minutes:
            missing.append(text)
    ends = _span_ends(ev) if _UNTIL.search(claim) else set()
    ends |= _clock_worked(claim, ev)
    for text, minutes in clock_times(claim):
        # The same minutes a whole number of hours away is the time in another zone.
        # "arrive for 6:45" without am or pm may mean the context's 6:45pm: twelve hours on.
        if minutes not in ev.minutes and not (
            zoned and any((minutes - m) % 60 == 0 for m in ev.minutes) and not _home_zone(claim, text, ev)
        ) and not (60 <= minutes < _NOON and minutes + _NOON in ev.minutes
                   and not _MERIDIEM.search(text)) and minutes not in ends:
            missing.append(text)
    # "Roughly €14,300: about €11,900 in BTC, €2,150 in ETH and €250 in USDC": a total the
    # claim itemises is its own sum.
    summed = [q.text for q in stated if q.text in missing and _total_parts(claim, q, stated, missing)[1]]
    return [t for t in missing if t not in summed], counts


_NEXT_CYCLE = re.compile(r"\b(?:resets?|renews?|restarts?|rolls? over|refreshes|tops? up)\b", re.IGNORECASE)


# When a span ends, said of a start the context gives: "runs until about 8:20 pm" of an
# 18:10 showing of 130 min.
_UNTIL = re.compile(r"\b(?:until|till|ends?|ending|finish\w*|(?:over|out|back|done) by|runs? to)\b",
                    re.IGNORECASE)


def _in_seconds(q: Quantity, arithmetic: bool, ev: _Evidence) -> bool:
    """Milliseconds the context gives as bare seconds, where it measures in seconds
    ("http_request_duration_seconds" … 0.4127 for "about 410 ms")."""
    if q.unit != "ms" or "seconds" not in ev.lower:
        return False
    seconds = replace(q, value=q.value / 1000, place=q.place / 1000)
    return number_supported(seconds, ev.direct) or arithmetic and number_supported(seconds, ev.values)


def _clock_worked(claim: str, ev: _Evidence) -> set[int]:
    """Clock times the claim works out from the context's by the durations it states itself
    ("landed 23:40 … 10 hours from on-blocks plus the 30-minute post-flight duty, so rest
    starts 00:10 and her earliest report is 10:10"): a context time plus one or both of the
    claim's durations the evidence supports, and such a worked time plus them again."""
    spans = [round(q.value * (60 if q.unit == "h" else 1)) for q in quantities(claim)
             if q.unit in ("min", "h") and number_supported(q, ev.direct)]
    if not spans:
        return set()
    steps = {d for n in (1, 2) for pick in itertools.combinations(spans, n) if 0 < (d := sum(pick)) < _DAY_MINUTES}
    worked = {(m + d) % _DAY_MINUTES for m in ev.minutes for d in steps}
    return worked | {(m + d) % _DAY_MINUTES for m in worked for d in steps}


def _span_ends(ev: _Evidence) -> set[int]:
    """Each clock time of the context plus each duration in minutes or hours it states."""
    spans = {round(q.value * (60 if q.unit == "h" else 1)) for q in ev.found if q.unit in ("min", "h")}
    return {(m + d) % _DAY_MINUTES for m in ev.minutes for d in spans if 0 < d < _DAY_MINUTES}


_CLAUSE_BREAK = re.compile(r"[,;:()]|\s[\u2014\u2013-]\s")


def _searched_empty(claim: str, text: str, readings: Iterable[DateParts], ev: _Evidence) -> bool:
    """"Nothing booked for Friday 11 December" of a search from 7 to 13 December: a day of
    the span one text gives (a lookup's from and to), denied in its own clause, is a day
    the search found nothing on."""
    at = claim.find(text)
    if not _NEGATOR.search(_CLAUSE_BREAK.split(claim[:at])[-1]):
        return False
    for spanned in ev.texts:
        ends = sorted({(y, m, d) for _, found in dates(spanned) for y, m, d in found
                       if y is not None and m is not None and d is not None})
        if len(ends) != _PARTS:
            continue
        if any(ends[0] < (ends[0][0] if y is None else y, m, d) < ends[1]
               for y, m, d in readings if m is not None and d is not None):
            return True
    return False


_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY_BEFORE = re.compile(rf"\b({'|'.join(_WEEKDAYS)}),?\s+(?:the\s+)?$", re.IGNORECASE)


def _wrong_weekday(claim: str, text: str, readings: Iterable[DateParts],
                   evidence: Sequence[DateParts]) -> bool:
    """The claim names the date's weekday ("Tuesday 14 March 2026") and no reading of the
    date, its year from the claim or the evidence, falls on it."""
    at = claim.find(text)
    said = _WEEKDAY_BEFORE.search(claim[:at]) if at >= 0 else None
    if said is None:
        return False
    days = set()
    for year, month, day in readings:
        years = {year} if year else {y for y, m, d in evidence if y and m == month and d == day}
        for y in years:
            try:
                days.add(datetime.date(y, month or 0, day or 0).weekday())
            except ValueError:
                continue
    return bool(days) and _WEEKDAYS.index(said.group(1).lower()) not in days


_TODAY = re.compile(r"\b(?:today|current date|date today|now)\b", re.IGNORECASE)
_FROM_TODAY = {"yesterday": -1, "today": 0, "tonight": 0, "tomorrow": 1}
_DAY_WORD = re.compile(rf"\b(?:yesterday|today|tonight|tomorrow|{'|'.join(_WEEKDAYS)})\b"
                       r"(?!,?\s+(?:the\s+)?\d)", re.IGNORECASE)  # a weekday before a date: _wrong_weekday
_WEEK = 7


def _today(texts: Iterable[str]) -> datetime.date | None:
    """The date a context sentence gives as today's ("Current date: Thursday 16 April
    2026", "Today is 2026-04-16"), where exactly one is given."""
    days = {datetime.date(y, m, d) for text in texts for sentence in split_claims(text)
            if _TODAY.search(sentence) for _, readings in dates(sentence)
            for y, m, d in readings if y and m and d}
    return days.pop() if len(days) == 1 else None


def _wrong_days(claim: str, ev: _Evidence) -> list[str]:
    """Days the claim names by a word ("tomorrow", "Sunday") that fall on no date the
    evidence gives, counted from the context's today: "Sunday at 2:10 pm" for a screening
    on Saturday the 18th. Only where the evidence dates things besides today, and never a
    weekday the evidence names itself ("closed on Sundays")."""
    today = ev.today
    if today is None:
        return []
    dated = [r for r in ev.date_readings if all(r) and r != (today.year, today.month, today.day)]
    if not dated:
        return []
    out = []
    for m in _DAY_WORD.finditer(claim):
        word = m.group(0).lower()
        if word in _FROM_TODAY:
            day = today + datetime.timedelta(days=_FROM_TODAY[word])
        elif re.search(rf"\b{word[:3]}", ev.lower):
            continue
        else:
            day = today + datetime.timedelta(days=(_WEEKDAYS.index(word) - today.weekday()) % _WEEK)
        if not date_supported([(day.year, day.month, day.day)], ev.date_readings):
            out.append(m.group(0))
    return out


_CURRENCY_CODES = frozenset(c.lower() for c in _ISO_CURRENCIES)
_HEADING = re.compile(r"^\W*(?:[A-Z][\w'&/-]*\s+){0,3}[A-Z][\w'&/-]*\s*:(?:\s|$)")


_ASKED_FOR = re.compile(r"\b(?:if you (?:can |could )?|please |(?:could|can|would) you )(?:give|send|share|provide|"
                        r"tell|forward)\s+(?:me|us)\s+([^.;!?\u2014\u2013]*)", re.IGNORECASE)


_DOT_GROUPED = re.compile(r"(?<![\d.,])\d{1,3}(?:\.\d{3})+(?!\d|[.,]\d)")


def _ungrouped(claim: str, ev: _Evidence) -> str:
    """The claim with each number written with a dot between thousands ("kr 1.380",
    "Rp 750.000.000"), as much of Europe and Asia writes it, written whole where the
    evidence gives that whole number (1380) with none of its own written so: the amount,
    not 1.38, which the claim's working (at a rate of 17.250) then uses as such."""
    if any("." in t and _DOT_GROUPED.search(t) for t in ev.texts):
        return claim
    whole = {x.value for x in ev.found}
    return _DOT_GROUPED.sub(lambda m: n if float(n := m.group(0).replace(".", "")) in whole else m.group(0), claim)


def _other_measure(claim: str, sentence: str) -> bool:
    """The sentence measures in another amount what the claim measures ("battery life: 20
    hours" against "the blue variant with 8 hours battery life"): another record's row,
    whose other values the claim does not speak of (the number checks weigh the amount). A
    rule's prose ("less than 24 hours' notice") is no row: the claim may restate it wrongly."""
    if not _is_record(sentence):
        return False
    mine = {(q.unit, q.value) for q in quantities(claim) if q.unit}
    theirs = {(q.unit, q.value) for q in quantities(sentence) if q.unit}
    units = {u for u, _ in mine} & {u for u, _ in theirs}
    return any(not {v for x, v in mine if x == u} & {v for x, v in theirs if x == u} for u in units)


def _score_claim(claim: _Claim, ev: _Evidence, vec: Any, ev_vecs: Any) -> None:
    from ._comparison import (  # reads this module
        both_named,
        other_end,
        yes_no_compared,
        yes_no_tied,
    )
    missing, counts = _number_findings(_ungrouped(claim.text, ev), ev)
    releases = _unstated_releases(claim.text, ev)
    missing += releases + [t for t in _other_currency(claim.text, ev) if t not in missing]
    if missing:
        claim.logit += _NUMBER + _MORE_NUMBERS * (len(missing) - 1 + len(counts))
    elif counts:
        claim.logit += _COUNT
    claim.found["numbers"] = len(missing)
    claim.found["counts"] = len(counts)
    rivals = _rivals(claim.text, [*missing, *counts], ev)
    claim.found["rival"] = len(rivals)
    # An answer that shows its working ("$49 x 12 = $588, so you'd save $89") states
    # results the number checks may not derive; the head weighs that apart.
    stated = len(quantities(claim.text)) + len(dates(claim.text)) - len(releases)  # read as 5.11 too
    claim.found["numbers_ok"] = max(0, stated - len(missing) - len(counts))
    # A percentage is working shown ("5% GST"), but licenses no result alone: any ratio of
    # two context numbers would support an invented "2% surcharge".
    claim.found["worked"] = float(bool(missing) and (_worked_out(claim.text, ev.given)
                                                     or "%" in claim.text))
    misadded = (_misadded(claim.text, missing) or _misworked(claim.text, missing) or _turned(claim.text, ev) or _inexact(claim.text, missing)
                or _zone_unconverted(claim.text, ev) or _other_cause(claim.text, ev)
                or _unset_given(claim.text, missing, ev) or _unset_dated(claim.text, ev) or _past_bound(claim.text)
                or _renamed(claim.text, ev))
    if misadded:
        claim.found["bound"] = 1.0
        claim.logit += _BOUND
        claim.why.append(misadded)
    elif rivals:
        claim.why.append(f"the context gives another value for {', '.join(rivals[:3])}")
    elif missing or counts:
        claim.why.append(f"no context supports {', '.join([*missing, *counts][:3])}")
    # A heading's words ("Processing Time: 5 to 7 business days", "New Flights:") label
    # what follows; they name nothing.
    terms = set(key_terms(_HEADING.sub("", claim.text))) | claim.affirms
    # "if you can send me its asset tag or IP": what the answer asks the user for names
    # what it lacks, no fact.
    for m in _ASKED_FOR.finditer(claim.text):
        terms -= set(key_terms(m.group(1)))
    if claim.text.rstrip(" *").endswith(":"):
        # A line that introduces what follows ("Updated Itinerary - Both flights on May 27:",
        # "Return (Same Day!):") is a title, capitalised as one: its words name nothing.
        terms -= {w.lower() for w in re.findall(r"\b[A-Z][a-z][\w'-]*", claim.text)}
    # A currency's code ("currency: USD") is the unit of the amounts, checked with them; so
    # is a unit after a number ("8 GB", "1.53 MWh").
    terms -= _CURRENCY_CODES | {q.unit for q in quantities(claim.text)}
    # "$937K", "€4.2M": an amount and its scale's letter, checked as the amount, no code.
    terms = {t for t in terms if not _SCALED_AMOUNT.fullmatch(t)}
    if not re.search(r"[a-z]", claim.text):
        # "YOU ARE BEING TRANSFERRED TO A HUMAN AGENT.": shouted words, no acronyms.
        terms = {t for t in terms if any(c.isdigit() for c in t)}
    # A word put in capitals for stress ("so it is NOT blocked yet", "ONLY on weekdays"), as
    # an answer read out marks what to say firmly: no acronym.
    terms -= {w.lower() for w in re.findall(r"\b[A-Z]{2,}\b", claim.text)} & _STRESSED
    words = re.findall(r"[A-Za-z][\w'-]*", claim.text)
    # Only capitalised words (and "of", "the"): a bare name, not a short sentence.
    short = claim.alone and not stated and 0 < len(words) <= _SHORT_WORDS and all(
        w[0].isupper() or w.lower() in _LINKS for w in words
    )
    if short:
        # A bare answer ("Delhi.", "Arthur's Magazine") is its name: the first word too. (In
        # a longer answer a one-word sentence, "Partly.", is a reply, not a name.)
        terms |= {w.lower() for w in re.findall(r"\b[A-Z][\w'-]+", claim.text)
                  if w.lower() not in _PLEASANTRIES}
        terms -= _LINKS
    if clock_times(claim.text):
        # "11:00 in New York (EST)": a zone's code beside a clock time is the time's, no name.
        terms -= {m.group(0).lower() for m in _ZONE_NAME.finditer(claim.text)}
        # "09:00 Lisbon time", "New York time": the place names the clock's zone, a
        # conversion's label (its time is checked as a time), not a thing of the records.
        terms -= {w.lower() for pattern in (_PLACE_TIME, _CLOCK_PLACE)
                  for m in pattern.finditer(claim.text) for w in m.group(1).split()}
    names = sorted(t for t in terms if not _name_found(t, ev) and stem(t) not in ev.called
                   and not _acronym_found(t, claim.text, ev)
                   and not _abbreviated(t, claim.text, ev) and not _currency_named(t, ev))
    if names and not short:
        names = sorted(set(names) - _named_with_found(claim.text, ev))
    if claim.alone:
        names = sorted({*names, *_unsaid(claim.text, ev)})
    # A bare name is the context's when most of its words are ("the river Ammel" for
    # "Ammel River"); one distinctive word of two missing makes it another name.
    if names and short and 2 * len(names) >= len(terms):
        claim.logit += _SHORT_ANSWER
        claim.found["bare_name"] = 1.0
        claim.why.append(f"the answer is {', '.join(names[:3])}, which the context never names")
    elif names:
        claim.logit += min(_MAX_NAMES, _NAME * len(names))
        claim.found["names"] = len(names)
        claim.why.append(f"the context never names {', '.join(names[:3])}")
    if not missing:
        bound = _misbound(claim.text, ev.given, ev, terms | _versions(claim.text))
        # Which of two is older, longer, cheaper: a short answer's question. In a longer
        # answer ("Enjoy your new Action Camera!" closing a chat whose opening asked for
        # "nothing more expensive") the sentence answers no comparison.
        winner = "" if bound or not claim.alone else _comparison(claim.text, ev.given, ev)
        miscast = "" if bound or winner else (_miscast(claim.text, ev.given, ev)
                                              or (claim.alone and (_off_question(claim.text, ev)
                                                                   or _span_end(claim.text, ev)
                                                                   or _unanchored(claim.text, ev)
                                                                   or other_end(claim.text, ev))))
        swapped = "" if bound or winner or miscast else (_swapped(claim.text, ev)
                                                         or _record_swap(claim.text, ev)
                                                         or _crossed_pair(claim.text, ev)
                                                         or _mixed_rows(claim.text, ev)
                                                         or _crossed_records(claim.text, ev)
                                                         or _line_crossed(claim.text, ev)
                                                         or _unpaired(claim.text, ev)
                                                         or _column_swap(claim.text, ev)
                                                         or _row_swap(claim.text, ev)
                                                         or _self_compared(claim.text)
                                                         or _not_the_extreme(claim.text, ev)
                                                         or _reversed_change(claim.text, ev)
                                                         or _role_swap(claim.text, ev)
                                                         or _role_held(claim.text, ev)
                                                         or _miscounted(claim.text, ev)
                                                         or _state_miscounted(claim.text, ev)
                                                         or _parent_swap(claim.text, ev))
        if winner or bound or miscast or swapped:
            claim.found["bound"] = 1.0
            claim.logit += _BOUND
        if winner:
            claim.why.append(f"the context's figures favour {winner}, not the answer's choice")
        elif miscast:
            claim.why.append(miscast)
        elif bound:
            claim.why.append(f"the context gives {bound} for another record or attribute")
        elif swapped:
            claim.why.append(swapped)
    own = word_stems(claim.text)
    coverage = len(own & ev.stems) / len(own) if own else 1.0
    # A claim that adds an unsupported clause to a supported one ("… built in 1998, and
    # it's in the top-rated Lincoln district") is as unsupported as its worst clause.
    for part in _ADDED.split(claim.text):
        part_stems = word_stems(part)
        if len(part_stems) >= _MIN_CLAUSE_WORDS:
            coverage = min(coverage, len(part_stems & ev.stems) / len(part_stems))
    sims = ev_vecs @ vec if ev_vecs is not None else None
    best_cos = float(sims.max()) if sims is not None else 0.0
    # A claim of one or two content words ("Yes, you're covered.") is too short for word
    # coverage or similarity to say anything.
    soft = 0.0
    if len(own) >= _MIN_SOFT_WORDS:
        soft += _COVERAGE_SLOPE * (_COVERAGE_CENTRE - coverage)
        if sims is not None:
            soft += _COS_SLOPE * (_COS_CENTRE - best_cos)
    contradicted = False
    restated: list[str] = []  # the evidence sentences the claim restates, the closest first
    if sims is not None:
        order = sorted(range(len(ev.sentences)), key=lambda i: -float(sims[i]))[:_ALIGN_TOP]
        for i in order:
            aligned = ev.sentences[i]
            theirs = word_stems(aligned)
            overlap = len(own & theirs) / len(own) if own else 0.0
            # Nor the run's own words in a call ("user is asking for an exception" in a
            # hand-off's summary): what it wrote, no record to deny.
            if float(sims[i]) < _ALIGN_COS and overlap < _ALIGN_OVERLAP or _other_record(
                    claim.text, aligned, ev) or _CODE_LINE.match(aligned) or _QUERY.search(aligned) \
                    or aligned in ev.written or _other_measure(claim.text, aligned):
                continue
            restated.append(aligned)
            # A sentence the claim plainly restates needs one more shared word, not two.
            need = 1 if float(sims[i]) >= _RESTATES_COS else 2
            parts = clauses(claim.text)
            theirs_parts = [_stated(c) for c in clauses(aligned)]
            flipped = next((f for part in parts for theirs_part in theirs_parts
                            if (f := contradicts(part, theirs_part, need, own))
                            and not _negation_restated(part, parts, theirs_part)
                            and not _negation_agrees(part, f, theirs_part, theirs_parts, need)
                            # a clause that names one record speaks of it, not the other's
                            and not _other_record(part, aligned, ev)
                            and not _premise(f, ev.given)
                            and not _rest_counted(part, f)
                            and not _exempted(part, f, ev.sentences)
                            and not _about_another(part, theirs_part, theirs_parts, f)
                            and not _joined_about_another(part, theirs_part, theirs_parts, f,
                                                          need, own)), "")
            if flipped:
                contradicted = True
                claim.found["negation"] = 1.0
                claim.logit += _CONTRADICTION
                claim.why.append(f'"{flipped}" negated against the context\'s "{_short(aligned)}"')
                break
    widened = next(((w, r) for r in restated if (w := _widened(claim.text, r))), None)
    if widened:
        # Staged in the head like ``offered``: the worst claim's log-odds are left as they were.
        claim.found["scope"] = 1.0
        claim.why.append(f'"{widened[0]}" where the context\'s "{_short(widened[1])}" limits it')
    cause = _unsupported_cause(claim.text, ev)
    if cause:
        # Staged in the head like ``offered``.
        claim.found["cause"] = 1.0
        claim.why.append(f'the cause "{_short(cause, 8)}" is not in the context')
    invented = _invented_items(claim.text, ev)
    if invented:
        # The head alone weighs it (a staged feature, calibration/train_heads.py): the
        # worst claim's log-odds stay as the head's other features were fitted on.
        claim.found["offered"] = len(invented)
        claim.why.append(f"offers {', '.join(invented[:3])}, which the context never names")
    exempt = _unsaid_exemption(claim.text, ev)
    if exempt:
        # Staged in the head like ``offered``.
        claim.found["offered"] = claim.found.get("offered", 0.0) + 1
        claim.why.append(f'"{exempt}", which no text says of any charge')
    excluded = _excluded_items(claim.text, ev)
    if excluded:
        # Staged in the head like ``offered``.
        claim.found["offered"] = claim.found.get("offered", 0.0) + len(excluded)
        claim.why.append(f"lists {', '.join(excluded[:3])}, which the context excludes or lists apart")
    state = "" if contradicted else (_state_conflict(claim.text, ev) or _key_conflict(claim.text, ev, own)
                                     or _presence_conflict(claim.text, ev) or _misfiled(claim.text, ev)
                                     or _overstated(claim.text, ev)
                                     or (claim.index == 1 and (_both_wrong(claim.text, ev)
                                                               or yes_no_compared(claim.text, ev)
                                                               or both_named(claim.text, ev)
                                                               or yes_no_tied(claim.text, ev))))
    if state:
        contradicted = True
        claim.found["negation"] = 1.0
        claim.logit += _CONTRADICTION
        claim.why.append(state)
    # A wrong number or a flipped negation sits in a sentence that otherwise restates the
    # evidence closely: that closeness is no support then, only the lack of it is news.
    claim.logit += max(soft, 0.0) if missing or contradicted else soft
    if len(own) >= _MIN_SOFT_WORDS:
        claim.found["uncovered"] = 1.0 - coverage
        claim.found["evidence_far"] = 1.0 - best_cos if sims is not None else 1.0
    if not claim.why and claim.logit > 0:
        claim.why.append(
            f"little of it is in the context (words {coverage:.0%}, best cosine {best_cos:.2f})"
        )


_SENTENCES = re.compile(r"(?<=[.;!?])" + "".join(rf"(?<!\b{t}\.)" for t in _TITLES) + r"\s+")  # "Dr. Lowe" is one


def _segments(text: str) -> list[tuple[str, str]]:
    """The text's sentences and lines, each with what it may be about: itself and the
    sentence before it on its line ("The 2009 final was played at X. Redhill beat Ashby
    3-1." — the second is about the final). A line (a record) stands alone."""
    out: list[tuple[str, str]] = []
    for line in text.splitlines():
        sentences = [x for x in _SENTENCES.split(line) if x.strip()]
        out.extend((x, " ".join(sentences[max(0, i - 1) : i + 1])) for i, x in enumerate(sentences))
    return out


def _is_record(line: str) -> bool:
    """A line of several pairs: a flattened record ("hotel: Harbourview Lisbon; room: …")."""
    return sum(bool(_PAIR.match(p)) for p in _PAIR_SPLIT.split(line)) >= 2


_VERSION = re.compile(r"(?<![\w.])v\d+(?:\.\d+)+(?![\w.]*\w)", re.IGNORECASE)


def _versions(text: str) -> frozenset[str]:
    """Releases ("v4.3"): names to bind, though no name check reads them."""
    return frozenset(m.group(0).lower() for m in _VERSION.finditer(text))


# A release of three or more parts, its pre-release after it ("5.11.2", "4.0.0-rc.2"): read
# as a number it is 5.11, which "5.11.0" supports.
_RELEASE = re.compile(r"(?<![\w.])v?(\d+(?:\.\d+){2,}(?:-[0-9a-z]+(?:\.\d+)*)?)(?![\w.]*\w)", re.IGNORECASE)
_PRE_RELEASE = re.compile(r"\b(?:rc|release candidates?|beta|alpha|preview|pre-?release)\b", re.IGNORECASE)


def _unstated_releases(claim: str, ev: _Evidence) -> list[str]:
    """The claim's releases no text or request states whole ("fixed in 5.11.2" beside
    "firmware at 5.11.0"; "the newest stable is 4.0.0" where only 4.0.0-rc.2 is given). A
    bare release said of its pre-releases ("the 4.0.0 release candidates") is theirs."""
    given = {m.group(1).lower() for m in _RELEASE.finditer(ev.lower)}
    cores = {g.split("-")[0] for g in given} if _PRE_RELEASE.search(claim) else set()
    return [m.group(0) for m in _RELEASE.finditer(claim) if not dates(m.group(0))
            and m.group(1).lower() not in given | cores]


_BOUND = 5.0  # a value the context gives for another record or attribute than the claim's
_PARTS = 2  # a total is of two parts or more
_BOUND_WORDS = 14  # only a short claim is bound: a long one mixes several facts
_TOKEN = re.compile(r"[a-z0-9]+")


def _tokens(text: str) -> set[str]:
    return {stem(t) if t.isalpha() else t for t in _TOKEN.findall(text.lower())
            if t not in _FUNCTION_WORDS}


_NUMBER_RANGE = re.compile(r"(?<![\w.\-\u2013])(\d[\d,.]*)\s*(?:-|\u2013|\u2014|to)\s*(\d[\d,.]*)(?![\w.\-\u2013])")


# A total stated with the parts it is of: "€186.85, covering …", "37 hours this week: 8 on …".
_TOTAL_WORDS = re.compile(r"\b(?:total|totals|altogether|in all|comes? to|adds? up|sum|overall|"
                          r"covering|made up of)\b|:\s", re.IGNORECASE)


def _misadded(claim: str, missing: Sequence[str]) -> str:
    """An unsupported total that the supported parts the claim lists with it do not add up
    to: the claim got the sum wrong, not the parts."""
    if not missing or not _TOTAL_WORDS.search(claim):
        return ""
    stated = quantities(claim)
    for total in stated:
        # "26 weeks, about six months": a supported figure rounded in another unit.
        if total.text not in missing or total.approx and any(
                q.text not in missing and q.unit != total.unit and _dimension(q.unit) == _dimension(total.unit)
                for q in stated if q.unit):
            continue
        parts, added = _total_parts(claim, total, stated, missing)
        if parts and not added:
            return (f"the listed {', '.join(q.text for q in parts[:4])} add up to "
                    f"{sum(q.value for q in parts):g}, not {total.text}")
    return ""


# "…, which comes to R$ 907.65", "that's $1,850": a result the claim works out there and then.
_RESULT = re.compile(r"\b(?:comes? to|came to|works? out (?:to|at)|which is|that(?:'s| is)|leaving|leaves)"
                     r"\s*(?:about\s+)?\S{0,3}\s?$|=\s*\S{0,3}\s?$", re.IGNORECASE)
_OPERANDS = 5  # more figures than this and a chance match among their workings is likely


# The working a claim writes out before "=": numbers (a currency mark glued on), the
# operators between them in signs or words, brackets; other words ("₱15,000 deductible")
# only name an operand.
_EQ_TOKEN = re.compile(r"(?P<num>(?<![\w.,])\d[\d,]*(?:\.\d+)?(?![\w%]))|(?P<op>[-+−×*/÷()]|(?<!\w)x(?!\w)|\b(?:less|minus|plus|times|"
                       r"divided by|multiplied by)\b)|(?P<stop>[:;=%]|\b(?:of|at|per)\b)", re.IGNORECASE)
_EQ_OPS = {"−": "-", "×": "*", "x": "*", "÷": "/", "less": "-", "minus": "-", "plus": "+", "times": "*",
           "divided by": "/", "multiplied by": "*"}
_EQ_MARK = re.compile(r"\s*(?:[^\w\s]{1,3}|[A-Z]{3})?\s*")  # "= ₱139,700", "= EUR 121"
_EQ_FORM = re.compile(r"\(*\d+(?:\.\d+)?\)*(?:[-+*/]\(*\d+(?:\.\d+)?\)*)+")


def _equated(q: Quantity, claim: str) -> bool:
    """The claim states ``q`` as the result of the working it writes out just before it
    ("₱182,000 less ₱15,000 less ₱27,300 = ₱139,700", "(118.20 + 124.60) / 2 = €121.40"), and
    the working gives it: the claim's own arithmetic, right, whatever its operands' support."""
    at = _stated_at(claim, q)
    eq = claim.rfind("=", 0, max(at, 0))
    if at < 0 or eq < 0 or not _EQ_MARK.fullmatch(claim[eq + 1 : at]):
        return False
    tokens: list[str] = []
    for m in _EQ_TOKEN.finditer(claim[:eq]):
        if m.group("stop"):
            tokens = []
        elif m.group("num"):
            tokens.append(m.group("num").replace(",", ""))
        else:
            tokens.append(_EQ_OPS.get(m.group("op").lower(), m.group("op")))
    # The longest well-formed working that ends at the "=": "the 4 days (118.20 + …) / 4".
    for start in range(len(tokens)):
        text = "".join(tokens[start:])
        if text.count("(") == text.count(")") and _EQ_FORM.fullmatch(text):
            with contextlib.suppress(ArithmeticError, SyntaxError):
                return number_supported(q, [_worked_value(ast.parse(text, mode="eval").body)])
            return False
    return False


_OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}


def _worked_value(node: ast.expr) -> float:
    """The value of a working of numbers and the four operators (``_EQ_FORM``'s)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return float(node.value)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        return float(_OPERATORS[type(node.op)](_worked_value(node.left), _worked_value(node.right)))
    raise SyntaxError("not a working")


def _misworked(claim: str, missing: Sequence[str]) -> str:
    """The one unsupported figure of a claim, given as the result of the working it shows
    ("after the $200 deductible we reimburse 80%, which comes to $907.65"), that no one or
    two steps of the claim's own supported figures give: the working went wrong, the
    figures were copied right."""
    stated = quantities(claim)
    wrong = [q for q in stated if q.text in missing]
    operands = [q for q in stated if q.text not in missing]
    if len(wrong) != 1 or not _PARTS <= len(operands) <= _OPERANDS or len(missing) != 1:
        return ""
    result = wrong[0]
    at = _stated_at(claim, result)
    if result.approx or at < 0 or not _RESULT.search(claim[:at]):
        return ""
    steps = derived_values(operands)
    # The first step's value in the result's unit: "80%" is no amount to take from it.
    again = [v for x in steps for op in operands
             for v in derived_values([Quantity("", x, result.unit, 1.0, False), op], limit=2)]
    if number_supported(result, sorted([*steps, *again])):
        return ""
    return f"{result.text} does not follow from the claim's own {', '.join(q.text for q in operands[:4])}"


def _total_parts(claim: str, total: Quantity, stated: Sequence[Quantity],
                 missing: Sequence[str]) -> tuple[list[Quantity], bool]:
    """The supported parts a claim lists with a total it states (none where it has too few,
    or another unsupported figure in the total's unit that may be one), and whether they add
    up to it, to its precision."""
    if not _TOTAL_WORDS.search(claim) or any(
            q is not total and q.text in missing and q.unit == total.unit for q in stated):
        return [], False
    # A bare small count beside a measure ("two claims" by "24 years") counts things,
    # it is no part of the measure.
    parts = [q for q in stated if q is not total and q.text not in missing
             and q.unit in (total.unit, "") and 0 < q.value < total.value
             and not (total.unit and _small_count(q))
             and not (not q.unit and _counted(claim, q) not in ("", _counted(claim, total)))]
    # "(8.5 h each)": a part that several items share adds up to more than itself.
    if len(parts) < _PARTS or any(q.unit != parts[0].unit for q in parts) or any(
            _EACH.match(claim, claim.find(q.text) + len(q.text)) for q in parts):
        return [], False
    return parts, number_supported(total, [sum(q.value for q in parts)])


_EACH = re.compile(r"\s*(?:each|apiece|a piece|per (?:item|person|head|day|night|shift))\b", re.IGNORECASE)


def _counted(claim: str, q: Quantity) -> str:
    """The word a number counts ("0.14 BTC", "three jobs"), or "": a bare number that counts
    other things than the total ("€250" beside "0.14 BTC", "12 sheets" beside "three jobs") is
    no part of it."""
    m = re.search(rf"(?<![\w.]){re.escape(q.text)}\s+([^\W\d_]+)", claim)
    word = m.group(1).lower() if m else ""
    return "" if word in _FUNCTION_WORDS else stem(word)


def _listed_parts(stated: Sequence[Quantity]) -> set[int]:
    """The claim's numbers that are listed as the parts of a total it also states ("€1,044
    (€384 + €300 + €360)"): each is one record's, not the claim's value for its subject."""
    out: set[int] = set()
    for t, total in enumerate(stated):
        for i in range(len(stated)):
            run: list[int] = []
            for j in range(i, len(stated)):
                # "7.80 GBP: 5.20 for you and 2.60 for …": a bare part takes the total's unit.
                if j == t or stated[j].unit not in (total.unit, ""):
                    break
                run.append(j)
                if len(run) >= 2 and abs(sum(stated[k].value for k in run) - total.value) < 0.01:
                    out.update(run)
    return out


# "40% of R 148,900": the amount a rate is taken of is an operand too; any currency mark.
_OPERATION = re.compile(r"([\d.,]*\d)\s*(?:minus|plus|times|less|[x×*+−÷]|divided by|"
                        r"multiplied by|%\s+of(?:\s+the)?)\s*(?:[^\d\s]{1,3}\s?)?([\d.,]*\d)",
                        re.IGNORECASE)


def _operands(claim: str) -> set[str]:
    """The numbers a claim shows its working with ("412 minus 394", "40% of 1,200"): operands of its own
    arithmetic, each a record's value rather than the claim's for its subject."""
    return {n for m in _OPERATION.finditer(claim) for n in m.groups()}


def _misbound(claim: str, question: str, ev: _Evidence, names: Iterable[str]) -> str:
    """The claim's value (a number, or its names) where the context states it only next to
    none of what the question and claim are about, while another context segment that is
    about them states a different value of the same kind: right value, wrong thing."""
    if len(claim.split()) > _BOUND_WORDS:
        return ""
    # A year is when, not what: many records of one context share it. A small bare count
    # ("the three shipments") is how many records there are, not one record's attribute.
    stated = quantities(claim)
    # "within 5-7 business days": a range's ends bound the value, neither is it.
    ends = {n for m in _NUMBER_RANGE.finditer(claim) for n in m.groups()}
    parts = _listed_parts(stated) | {i for i, q in enumerate(stated)
                                      if q.text.split()[0] in _operands(claim) or q.text in ends}
    # "(pipeline #51204)": a number after "#" names its record, it is no value of one.
    values: list[tuple[str, Any]] = [("n", q) for i, q in enumerate(stated)
                                     if not _small_count(q) and i not in parts
                                     and not claim[: max(_stated_at(claim, q), 0)].endswith("#")
                                     and (q.unit or not 1000 <= q.value <= 2999)]
    found_names = frozenset(n for n in names if _name_found(n, ev))
    # A name the question offers as an alternative ("A or B?") is the comparison's answer.
    if found_names and not values and not found_names & key_terms(question):
        values.append(("e", found_names))
    # The context's segments are read only for a claim with a value to bind (most have none).
    segmented = ev.segmented() if values else None
    if segmented is None:
        return ""
    in_record, segs, seg_tokens, about, seg_q, seg_names = segmented
    wanted = _tokens(question) | _tokens(claim)
    named = _named_records(claim, ev)
    for kind, value in values:
        if kind == "n" and len(named) == 1 and any(_holds(v, value, frozenset()) for _, v in named[0].pairs):
            continue  # "ATL-01 — 987": the one record the claim names gives the value; it is bound
        if kind == "n" and _entry_holds(value, claim, ev):
            continue
        if kind == "n":
            # The claim's other numbers are facts of their own ("312 kWh against 275 kWh"),
            # not what this one is about.
            own = _tokens(value.text) | {t for q in stated for t in _tokens(q.text) if t.isdigit()}
            holds = [any(abs(x.value - value.value) < 1e-9 and x.unit == value.unit
                         for x in seg_q[i]) for i in range(len(segs))]
            # A year ("period='2026-11'") is when, as above, no rival value.
            rival = [any(x.unit == value.unit and abs(x.value - value.value) > 1e-9
                         and (x.unit or not 1000 <= x.value <= 2999)
                         for x in seg_q[i]) for i in range(len(segs))]
        else:
            # A flattened record's name is the whole record's, not one of its pairs'.
            own = set().union(*(_tokens(n) for n in value))
            holds = [not in_record[i] and all(n in segs[i].lower() for n in value)
                     for i in range(len(segs))]
            rival = [not in_record[i] and bool(seg_names[i] - value - key_terms(question))
                     for i in range(len(segs))]
        if not any(holds):
            continue
        # A number a record gives is bound by words: flattened records are full of small
        # numbers (seats, counts, list places), so the digits of other numbers ("1" of
        # "$1,387", "4" of "4 hours") match them by chance, not as what they are about.
        by_words = kind == "n" and all(in_record[i] for i in range(len(segs)) if holds[i])
        anchors = {t for t in wanted - own
                   if not (by_words and t.isdigit()) and 0 < sum(t in st for st in seg_tokens) < len(segs)}
        own_v = max(len(anchors & seg_tokens[i]) for i in range(len(segs)) if holds[i])
        best_v = max(len(anchors & about[i]) for i in range(len(segs)) if holds[i])
        best_o = max((len(anchors & seg_tokens[i]) for i in range(len(segs))
                      if rival[i] and not holds[i]), default=0)
        # The value's sentence names nothing asked, and another value's says more of it
        # than the value's sentence with the one before it; unless the value's sentence is
        # about a name that one gives and the answer is that value alone (a question through
        # another entity: "the birth name of Frazier's opponent" where "Ali and Frazier"
        # leads to "Muhammad Ali (born Cassius Clay)").
        # Nor where the claim names the entity that joins the two itself ("run by the
        # Halden Institute, which is in Bergen"): it walks the join, it does not skip it.
        if own_v == 0 and best_o >= 1 and best_o > best_v and not (kind == "e" and any(
                _bridged(seg_names[i] | _capitalised(segs[i]), seg_names[j], question, ev) if _tokens(claim) <= own
                else _bridged(value, frozenset(n for n in value if _said(n, segs[j].lower())), question, ev)
                for i in range(len(segs)) if holds[i]
                for j in range(len(segs)) if not holds[j] and anchors & seg_tokens[j])):
            return value.text if kind == "n" else " ".join(sorted(value))
    return ""


def _bridged(holder: frozenset[str], asked: frozenset[str], question: str, ev: _Evidence) -> bool:
    """Whether two segments name one entity the question does not: a name, not a people
    ("American" is said of many), nor a word of the question ("which observatory" is no
    bridge from "Kestrel Ridge Observatory" to "Marrow Point Observatory")."""
    words = set(re.findall(r"[\w'-]+", question.lower()))
    return bool((holder & asked) - words - ev.peoples - _CURRENCY_CODES)


_SPAN_END = re.compile(r"[.!?](?:\s|$)|\n")
_LISTED = re.compile(r"(?:[,;:(|\u2022]|^|\n)\s*(?:(?:and|or)\s+)?(?:[-*]\s+)?$")
_LISTED_TAIL = re.compile(r"[\sandor*-]*")  # what _LISTED matches after its first character
_SWAP_WORDS = 2  # words of the claim another name's span must hold, and the claim's none


def _name_spans(text: str) -> list[tuple[frozenset[str], set[str]]]:
    """Each name the text gives (its words in a row: "Priya Raman") with the words after
    it up to the next name or the sentence's end: what the text says of that name ("Priya
    Raman (back and neck pain), Lena Voss (rehabilitation after surgery)"). A line of
    several pairs (a flattened record) is about one thing throughout: its names have no
    spans of their own."""
    text = "\n".join(line for line in text.splitlines() if not _is_record(line))
    lower = text.lower()
    spots = sorted((m.start(), m.end(), t) for t in key_terms(text)
                   for m in re.finditer(rf"(?<![\w-]){re.escape(t)}(?![\w-])", lower))
    names: list[tuple[int, int, set[str]]] = []
    for start, end, t in spots:
        if names and not lower[names[-1][1] : start].strip():
            names[-1] = (names[-1][0], end, names[-1][2] | {t})
        else:
            names.append((start, end, {t}))
    out: list[tuple[frozenset[str], set[str]]] = []
    for i, (start, end, terms) in enumerate(names):
        # Only a listed name ("…: Jonas Berger (…), Priya Raman (…)") owns the words after
        # it; in prose the words after a name ("based in Emeryville, released Toy Story in
        # 1995") go on with the sentence's subject.
        if not _ends_with(_LISTED, lower, start, _LISTED_TAIL):
            continue
        stop = names[i + 1][0] if i + 1 < len(names) else len(text)
        cut = _SPAN_END.search(text, end, stop)
        out.append((frozenset(terms), _tokens(text[end : cut.start() if cut else stop])))
    return out


def _swapped(claim: str, ev: _Evidence) -> str:
    """A claim that says of one context name what the context says of another ("book Priya
    Raman, our specialist for rehabilitation after surgery" where the context lists "Lena
    Voss (rehabilitation after surgery)"): the claim's words are in another name's span,
    none in its own name's."""
    mine = key_terms(claim)
    spans = ev.name_spans
    named = {terms for terms, _ in spans if terms & mine}
    if len(named) != 1:
        return ""
    (name,) = named
    anchors = _tokens(claim) - set().union(*(_tokens(t) for t in mine))
    own: set[str] = set().union(*(toks for terms, toks in spans if terms == name))
    # A name the context describes only before it ("the back specialist is Priya Raman")
    # has no span to compare.
    if anchors & own or len(own) < _SWAP_WORDS:
        return ""
    best, other = max(((len(anchors & toks), terms) for terms, toks in spans if terms != name),
                      key=lambda x: x[0], default=(0, frozenset()))
    if best < _SWAP_WORDS:
        return ""
    return (f"the context says that of {' '.join(sorted(other))}, "
            f"not of {' '.join(sorted(name))}")


_NAME_WORD = 4  # a word of a record's name this long may name it alone
_TITLE_WORDS = 8  # a record's name may be a title ("The Left Hand of Darkness")


_SIZE_WORDS = {"XS": "extra small", "S": "small", "M": "medium", "L": "large", "XL": "extra large",
               "XXL": "extra extra large"}


def _records(texts: Iterable[str]) -> list[_Record]:
    """The texts' flattened records, each with the names no other record gives."""
    found: list[tuple[set[str], tuple[tuple[str, str], ...]]] = []
    for text in texts:
        for line in text.splitlines():
            if not _is_record(line):
                continue
            pairs = tuple((m.group(1).strip().lower(), m.group(2).strip())
                          for p in _PAIR_SPLIT.split(line) if (m := _PAIR.match(p.rstrip(";"))))
            # A clock time or a nil is a value many records may have, never a name.
            names = {v.lower() for _, v in pairs if v.lower() not in _YES_NO and len(v) > 2
                     and v.lower() not in _NONE and v != _NULL and len(v.split()) <= _TITLE_WORDS
                     and not quantities(v) and not dates(v) and not clock_times(v)}
            found.append((names, pairs))
    # A name's own long words name the record too ("Dunmore" for "Dunmore Athletic"), where
    # no other record's name has them.
    # A list's "Surname, Initial" ("Lindqvist, E") is named by its surname: a word's own
    # comma or colon is no part of it.
    found = [({*names, *(w for n in names for w in (x.strip(",:;") for x in n.split()) if len(n.split()) > 1
                         and len(w) >= _NAME_WORD and w.isalpha() and w not in _FUNCTION_WORDS)},
              pairs) for names, pairs in found]
    # A size's code ("size: M") is named by its whole word ("the medium", "the extra large").
    found = [(names | {_SIZE_WORDS[v.upper()] for _, v in pairs if v.upper() in _SIZE_WORDS}, pairs)
             for names, pairs in found]
    # Counted once, not each record's against every other's (a long lookup has hundreds).
    given = Counter(n for names, _ in found for n in names)
    return [_Record(frozenset(n for n in names if given[n] == 1), pairs) for names, pairs in found]


@lru_cache(maxsize=1024)
def _text_records(text: str) -> tuple[_Record, ...]:
    """One text's records, read once: every claim's checks ask for them again."""
    return tuple(_records([text]))


def _other_record(claim: str, sentence: str, ev: _Evidence) -> bool:
    """The sentence is another record's than the one the claim names: "Flex … with no
    contract" is not contradicted by "name: Saver; contract months: 24"."""
    said = sentence.lower()
    named = _named_records(claim, ev)
    return bool(named) and any(any(_said(n, said) for n in r.names) for r in ev.records
                               if r not in named)


# A person's name as a value: two to four capitalised words (accented too: "Tomás"), no digits.
# Latin Extended letters too ("Trần Minh Khoa", "Łukasz Wójcik"), whose blocks mix the cases.
_PERSON = re.compile(r"[A-Z\u00c0-\u00de\u0100-\u024f\u1e00-\u1eff][a-z\u00df-\u024f\u1e00-\u1eff'-]+"
                     r"(?:\s+[A-Z\u00c0-\u00de\u0100-\u024f\u1e00-\u1eff][a-z\u00df-\u024f\u1e00-\u1eff'-]+){1,3}")
_NAME_KEY_WORDS = frozenset({"name", "full", "display", "first", "last", "id"})
_ROLE_WINDOW = 4  # the words before a name that say its role ("approved by", "agent is")


@lru_cache(maxsize=1024)
def _person_pairs(text: str) -> tuple[tuple[str, str], ...]:
    """The people the text's pairs give ("approver name: Gareth Lloyd"), each with its key's
    words, name words aside; read once per text: every claim's role checks ask again."""
    out = []
    for line in text.splitlines():
        pairs = [m for part in _PAIR_SPLIT.split(line) if (m := _PAIR.match(part))]
        people = [m for m in pairs if _PERSON.fullmatch(m.group(2))]
        # "crew role: lead; crew name: Trần Minh Khoa": the role is a field of the person's
        # own line, which holds no other person.
        held = [m.group(2) for m in pairs if len(people) == 1 and m not in people
                and _key_words(m.group(1))[-1:] in (["role"], ["position"], ["title"])]
        for m in people:
            words = [w for w in _key_words(m.group(1)) if w not in _NAME_KEY_WORDS]
            out.append((m.group(2), " ".join([*words, *held])))
    return tuple(out)


def _person_keys(ev: _Evidence) -> dict[str, set[str]]:
    """Each person a tool's output gives as a value, with the words of the keys that hold
    them, name words aside: "approver name: Gareth Lloyd" makes Gareth Lloyd the approver."""
    roles: dict[str, set[str]] = {}
    for text in ev.texts[ev.documents :]:
        for person, key in _person_pairs(text):
            roles.setdefault(person, set()).add(key)
    return roles


def _key_head(key: str) -> str:
    return next((w for w in reversed(key.split()) if w not in _FUNCTION_WORDS), "")


def _held_roles(keys: Iterable[str]) -> set[str]:
    """The role stems a person's keys give them: each key's role is its last content word
    ("teaching assistant" assists, though it says "teaching")."""
    return set().union(*(_role_stems(_key_head(k)) for k in keys))


_ASIDE = re.compile(r"\([^()]*\)")
_OBJECT_VERB = re.compile(r"[a-z]{3,}[^s\W]s")  # "holds", "owns", "lists": an active verb's present


def _role_swap(claim: str, ev: _Evidence) -> str:
    """A person the claim names in a role (the words just before the name: "approved by
    Helen Cho") that another person's key in the context holds ("approver name: Gareth
    Lloyd") and the named person's own key does not ("requested by name: Helen Cho")."""
    roles = {person: _held_roles(keys) for person, keys in _person_keys(ev).items()}
    if len(roles) < _PARTS:
        return ""
    for person, own in roles.items():
        at = claim.find(person)
        if at < 0:
            continue
        # "The lead installer for the Pham residence (12 panels) is Nguyễn Văn Hiếu": named
        # by a copula, the person holds the role its clause's subject says.
        head = _ASIDE.sub(" ", claim[:at])
        before = re.findall(r"[A-Za-z]+", head)[-_ROLE_WINDOW:]
        if before and before[-1].lower() in ("is", "was"):
            before = re.findall(r"[A-Za-z]+", _CLAUSE_BREAK.split(head)[-1])
        if before and before[-1].lower() in ("at", "in"):
            continue  # "all room types at Hotel Calle": a place named, no one in a role
        # "the plot holds Margaret Ellison": a verb's object, not its doer (the holder).
        if before and _OBJECT_VERB.fullmatch(before[-1]) and not claim[:at].rstrip().endswith(","):
            before = before[:-1]
        said = _role_stems(" ".join(before))
        other = next((p for p, theirs in roles.items() if p != person and said & theirs), None)
        if other is not None and not said & own:
            return f"{person} named as {', '.join(sorted(said & roles[other]))}, the context's role of {other}"
    return ""


def _role_held(claim: str, ev: _Evidence) -> str:
    """A person the claim names as a deed's agent ("cancelled … by Priya Nair") whose own
    keys hold another role ("booked by"), where the record's agent of that deed is a holder
    that is no person's name alone ("cancelled by: staff:marco.r", "approved by:
    programmer:Liam Greer"): ``_role_swap`` reads only holders that are names."""
    people = _person_keys(ev)
    for person, keys in people.items():
        at = claim.find(person)
        if at < 0:
            continue
        words = re.findall(r"[A-Za-z]+", claim[:at])[-_ROLE_WINDOW:]
        if not words or words[-1] != "by":
            continue
        said = _role_stems(" ".join(words))
        if said & _held_roles(keys):
            continue
        for text in ev.texts[ev.documents :]:
            for part in _PAIR_SPLIT.split(text):
                m = _PAIR.match(part)
                if m is None or m.group(2) in people or not re.search(r"[A-Za-z]", m.group(2)) or (
                        m.group(2).lower() in _YES_NO or m.group(2) in (_NULL, *_NONE)
                        or quantities(m.group(2)) or dates(m.group(2))):
                    continue
                key = _key_words(m.group(1))
                if key[-1] == "by" and said & _role_stems(_key_head(" ".join(key))):
                    return f'{person} named as {m.group(1)}, which the context gives as "{m.group(2)}"'
    return ""


# "improved from 7.2% to 6.1%": a change told from one value to another.
_FROM_TO = re.compile(r"\bfrom\s+(\S+?)\s+to\s+(\S+?)(?=[\s,;)]|\.?$|\.\s)")


def _period_order(a: str, b: str) -> int:
    """-1 where period ``a`` comes before ``b``, 1 where after, 0 where not known: two dates,
    or two labels that differ in one number alone ("Q2 FY26", "Q3 FY26")."""
    days = [next((r for _, rs in dates(v) for r in rs if None not in r), None) for v in (a, b)]
    if days[0] and days[1] and days[0] != days[1]:
        return -1 if days[0] < days[1] else 1
    nums = [re.findall(r"\d+", v) for v in (a, b)]
    differ = [(int(x), int(y)) for x, y in zip(*nums) if x != y]
    if re.sub(r"\d+", "#", a) != re.sub(r"\d+", "#", b) or len(nums[0]) != len(nums[1]) or len(differ) != 1:
        return 0
    return -1 if differ[0][0] < differ[0][1] else 1


def _reversed_change(claim: str, ev: _Evidence) -> str:
    """A change told "from" the later period's value "to" the earlier one's, of one thing the
    claim names: "Moema improved from 7.2% to 6.1%" where 6.1 is Q2's and 7.2 Q3's."""
    for m in _FROM_TO.finditer(claim):
        said = [quantities(m.group(k)) for k in (1, 2)]
        if not (said[0] and said[1]):
            continue
        start, end = said[0][0].value, said[1][0].value
        # Only rows that hold one of the two values: a long lookup has thousands.
        holding = [[r for r in ev.records if any(q.value == v for _, x in r.pairs for q in quantities(x))]
                   for v in (start, end)]
        for first, second in itertools.product(*holding):
            one, two = dict(first.pairs), dict(second.pairs)
            if first is second or one.keys() != two.keys():
                continue
            differ = [k for k in one if one[k] != two[k]]
            # The two rows are one thing's (no name differs) in two periods ("Q2 FY26", a date).
            if any(not re.search(r"\d", one[k]) for k in differ):
                continue
            periods = [k for k in differ if re.search(r"[A-Za-z]", one[k]) or dates(one[k])]
            shared = [v for k, v in one.items() if v == two[k] and not re.search(r"\d", v)
                      and _said(v.lower(), claim.lower())]
            valued = [k for k in differ if k not in periods and [q.value for q in quantities(one[k])] == [start]
                      and [q.value for q in quantities(two[k])] == [end]]
            if shared and valued and [_period_order(one[k], two[k]) for k in periods] == [1]:
                return f"{m.group(0)} runs backwards: {start:g} is the later period's {valued[0]}, {end:g} the earlier's"
    return ""


_LATEST = re.compile(r"\b(?:most recent|latest|newest)\b", re.IGNORECASE)
_EARLIEST = re.compile(r"\b(?:earliest|oldest)\b", re.IGNORECASE)


def _not_the_extreme(claim: str, ev: _Evidence) -> str:
    """The claim calls one record the latest (or earliest) and states its date, where another
    record has a later (earlier) date under the same key: "the most recent charge … posted
    on 2 December" of a list whose newest was posted on 3 December."""
    latest = _LATEST.search(claim)
    extreme = latest or _EARLIEST.search(claim)
    said = [r for _, readings in dates(claim) for r in readings]
    if extreme is None or not said:
        return ""
    by_key: dict[str, list[tuple[int, int, int]]] = {}
    for record in ev.records:
        for key, value in record.pairs:
            full = [(y, m, d) for _, rs in dates(value) for y, m, d in rs
                    if y is not None and m is not None and d is not None]
            if len(full) == 1:
                by_key.setdefault(key, []).append(full[0])
    for key, days in by_key.items():
        stated = [d for d in days if date_supported(said, [d])]
        if len(days) < _PARTS or len(stated) != 1:
            continue
        best = max(days) if latest else min(days)
        if stated[0] != best:
            word = extreme.group(0).lower()
            return f'"{word}" of a record whose {key} is not the {word} ({best[0]}-{best[1]:02d}-{best[2]:02d})'
    return ""


# What follows a count: its noun, plural, with at most two words before it ("5 spin
# classes", "two open orders").
_COUNTED = re.compile(r"\s+((?:[a-z][\w-]*\s+){0,2}?[a-z][\w-]*(?<!s)s)\b", re.IGNORECASE)
# Words that count only some of what the records pick out, before the count ("the first
# 3") or after it ("2 more", "2 spin classes before noon", "3 rooms left under $200"): a
# subset the records' words cannot tell.
_SUBSET_BEFORE = re.compile(r"\b(?:other|another|more|additional|further|extra|first|last|next|top|"
                            r"remaining)\s+$", re.IGNORECASE)
# "two smaller add-on lines", "the 3 cheapest rooms": records picked by a comparison of their
# values, which the records' words cannot tell.
_COMPARED = re.compile(r"\b(?:small|larg|bigg|cheap|dear|old|new|earli|lat|short|long|high|low|light|"
                       r"heavi|fast|slow|near|young|great)(?:er|est)\b", re.IGNORECASE)
_RANGE_BEFORE = re.compile(r"\d\s*(?:to|or|-|\u2013)\s*$", re.IGNORECASE)
# Their sum is no subset: "2 unpaid invoices totalling $1,860.00".
_TOTALLING = re.compile(r"\b(?:totall?ing|worth|amounting to|adding up to)\s+\S*?\d(?:[\d.,]*\d)?",
                        re.IGNORECASE)
_SUBSET_AFTER = re.compile(r"^[^:;.!?()\n\u2014\u2013]*?\b(?:before|after|under|over|below|above|less|"
                           r"more|other|additional|further|extra|cheaper|within|between|until|left|"
                           r"remaining|available|still|that|which|who|where|with|without|except|\d|"
                           r"(?:are|is|were|was)\s+(?!all\b|in\s+total\b)[a-z])",
                           re.IGNORECASE)


# "If you were to book a new flight, you'd be paying for two flights": a count in a case
# the claim supposes counts that case's things, not the records'.
_SUPPOSED = re.compile(r"^\W*(?:if|unless|suppose|supposing|should you|were you to)\b", re.IGNORECASE)


def _stated_at(claim: str, q: Quantity) -> int:
    """Where the claim states ``q``: "5" of "User 55102 took 5 rides" is not inside the id."""
    m = re.search(rf"(?<![\w.,]){re.escape(q.text)}(?![\d])", claim)
    return m.start() if m else claim.find(q.text)


def _miscounted(claim: str, ev: _Evidence) -> str:
    """The claim counts the records of one list that some of its words pick out ("5 spin
    classes" of a week's classes, "two ebooks" of the loans), and as many records of that
    list do not have those words: it counted the whole list, or miscounted. Only words some
    but not all of the list's records hold pick records out; a count of the whole list
    ("5 classes") is the number checks'."""
    # A list is one text's (two searches may overlap), of records that share most of their
    # keys: an item may give one more ("alarm").
    lists: list[tuple[frozenset[str], list[_Record]]] = []
    for text in ev.texts:
        found: dict[frozenset[str], list[_Record]] = {}
        for record in dict.fromkeys(_text_records(text)):
            mine = frozenset(k for k, _ in record.pairs)
            keys = next((k for k in found if 2 * len(k & mine) >= max(len(k), len(mine))), mine)
            found.setdefault(keys, []).append(record)
        lists += found.items()
    for q in quantities(claim):
        at = _stated_at(claim, q)
        m = _COUNTED.match(claim, at + len(q.text)) if at >= 0 and _multiplier(q) else None
        if m is None or _SUPPOSED.match(claim) or _SUBSET_BEFORE.search(claim[:at]) or _COMPARED.search(m.group(1)) or _SUBSET_AFTER.search(
                _TOTALLING.sub("", claim[m.start():])):
            continue
        wanted = word_stems(m.group(1))
        noun = m.group(1).split()[-1].lower()
        if noun in _PERIOD_WORDS or _RANGE_BEFORE.search(claim[:at]):
            continue  # "5 to 7 business days": a time, no records
        if noun in _FUNCTION_WORDS:
            continue  # "lists the engine 2 borescope as planned": "as" counts no records
        verdicts = []
        for keys, records in lists:
            rows = [word_stems(" ".join(v for _, v in r.pairs)) for r in records]
            picks = {w for w in wanted if 0 < sum(w in r for r in rows) < len(rows)}
            # The noun must name the list's records (its key, "class: Spin 45", or a value,
            # "format: ebook"); and a record that states the count ("mug: blue; qty: 3") is
            # counted in, not by the records.
            if len(rows) < _PARTS or stem(noun) not in " ".join(
                    [*keys, *(v.lower() for r in records for _, v in r.pairs)]):
                continue
            # With no word to pick records out, the count is the whole list's, where its key
            # names the noun ("invoices id") and every other word is each record's or only
            # outside the records: what the lookup was asked for ("status: unpaid").
            whole = not picks and stem(noun) in " ".join(keys) and all(
                all(w in r for r in rows) or (w in ev.text_stems and not any(w in r for r in rows))
                for w in wanted - word_stems(noun))
            if not picks and not whole:
                continue
            # "Three sites failed": a count of the records in the state its clause names
            # (``_state_miscounted``), not of the whole list.
            clause = _count_clause(claim, q, at)
            if not picks and clause is not None and _named_state(clause, records):
                continue
            # "three antennas" over six bookings: the key's different values counted.
            if not picks and int(q.value) in {len({v for r in records for k2, v in r.pairs if k2 == k})
                                              for k in keys if stem(k.split()[-1]) == stem(noun)}:
                continue
            picked = [r for r, row in zip(records, rows, strict=True) if picks <= row]
            if any(x.value == q.value for r in picked for _, v in r.pairs for x in quantities(v)):
                continue
            verdicts.append(len(picked))
        if verdicts and int(q.value) not in verdicts:
            return f'"{q.text} {m.group(1)}" where the context lists {verdicts[0]}'
    return ""


# The clause a count heads: to its end, or to a list it introduces.
_COUNT_CLAUSE = re.compile(r"[^:;.!?()\n\u2014\u2013]*")
# Words that narrow a count to a part of the state's records the records' values cannot tell
# ("2 failed after the retry", "3 lots failed above 2.0").
_NARROWED = re.compile(r"\b(?:before|after|under|over|below|above|within|between|until|except|without|"
                       r"other|more|another|additional|remaining|first|last|next|top|only\s+\w+\s+of)\b|\d",
                       re.IGNORECASE)
_STATE_WORDS = 3  # a state is a short value: "FAIL", "repair", "on hold"
_STATE_STEM = 3


def _state_miscounted(claim: str, ev: _Evidence) -> str:
    """"Three dye lots failed" where four of the listed lots give "result: FAIL": a count
    whose clause names one state of a key the list's records hold in two or more states
    (a status, a result, a yes or no), and as many records of the list are not in it.
    The state may follow the counted noun ("two ranks need repair", "4 of the 7 passed")
    where ``_miscounted`` reads only the words before it."""
    for q in quantities(claim):
        at = _stated_at(claim, q)
        clause = _count_clause(claim, q, at)
        if clause is None:
            continue
        for records in _state_lists(ev):
            named = _named_state(clause, records)
            if named and int(q.value) not in (*named[1], len(records)):
                return (f'"{q.text} {_short(clause.strip(), 8)}" where {named[1][0]} of the {len(records)} '
                        f'listed records hold "{named[0]}"')
    return ""


def _count_clause(claim: str, q: Quantity, at: int) -> str | None:
    """The words a count heads to its clause's end, where they may pick records by a state:
    none for a count narrowed by more than a state, or negated."""
    if at < 0 or not _multiplier(q) or _SUBSET_BEFORE.search(claim[:at]):
        return None
    # "4 of the 7 applicants": the whole list's size is no narrowing.
    rest = re.sub(r"^\s+of\s+(?:the\s+)?\w+", "", claim[at + len(q.text):])
    clause = _COUNT_CLAUSE.match(rest).group(0)  # type: ignore[union-attr]
    if _NARROWED.search(clause) or _COMPARED.search(clause) or _NEGATOR.search(clause):
        return None
    return clause


def _named_state(clause: str, records: Sequence[_Record]) -> tuple[str, list[int]] | None:
    """The one state of the records' keys the clause names, with how many records hold it
    (per key that has it); a key of yes and no is named by its own words ("have checked in"
    of "checked in: yes"). None for no state named, or two ("passed or withdrawn")."""
    said = word_stems(clause)
    states: dict[str, list[int]] = {}
    for key in {k for k, _ in records[0].pairs}:
        values = [dict(r.pairs).get(key, "").lower() for r in records]
        kinds = set(values)
        if len(kinds) < _PARTS or len(kinds) == len(values) or any(
                not v or quantities(v) or len(v.split()) > _STATE_WORDS for v in kinds):
            continue
        for kind in kinds - {"no", "false"}:
            words = word_stems(" ".join(_key_words(key)) if kind in _YES_NO else kind)
            # "pass" and "passed" meet on their first letters, not their stems.
            if words and all(any(min(len(w), len(x)) >= _STATE_STEM and (x.startswith(w) or w.startswith(x))
                                 for x in said) for w in words):
                states.setdefault(kind, []).append(values.count(kind))
    return next(iter(states.items())) if len(states) == 1 else None


def _state_lists(ev: _Evidence) -> list[list[_Record]]:
    """Each text's list of records that share all their keys, of two or more."""
    out = []
    for text in ev.texts:
        found: dict[frozenset[str], list[_Record]] = {}
        for record in dict.fromkeys(_text_records(text)):
            found.setdefault(frozenset(k for k, _ in record.pairs), []).append(record)
        out += [rs for rs in found.values() if len(rs) >= _PARTS]
    return out


def _column_totals(records: Sequence[_Record], mean: bool = False) -> list[float]:
    """Each key's total over the records that give it a number, where two or more do:
    "3,611 orders across the three regions" states the orders column's sum, no working
    word needed. Only as a value stated, never an operand: totals met by chance in sums.
    With ``mean``, each column's mean instead (see ``_MEAN``)."""
    column: dict[str, list[float]] = {}
    for r in records:
        for key, value in r.pairs:
            found = quantities(value)
            if len(found) == 1 and found[0].text == value.strip():
                column.setdefault(key, []).append(found[0].value)
    # Debits listed as negative amounts ("amount": -12.5) are spent as positive ones.
    if mean:
        return sorted({sum(v) / len(v) for v in column.values() if len(v) > 1})
    return sorted({t for v in column.values() if len(v) > 1 for t in (sum(v), abs(sum(v)))})


def _group_totals(records: Sequence[_Record]) -> list[tuple[frozenset[str], list[float]]]:
    """Per value of a key that groups the records (two or more records each, in two or
    more groups: "antenna: ANT-1"), the words that name the group (its value, or the key
    of a yes: "renewed: true") with each numeric column's sum over it and how many records
    it holds: "ANT-1 has 135 minutes over three passes" totals one group's rows."""
    out: list[tuple[frozenset[str], list[float]]] = []
    for key in {k for r in records for k, _ in r.pairs}:
        groups: dict[str, list[_Record]] = {}
        for r in records:
            value = dict(r.pairs).get(key, "")
            if value and not quantities(value):
                groups.setdefault(value, []).append(r)
        if len(groups) < _PARTS:
            continue
        for value, group in groups.items():
            said = _YES_NO.get(value.lower())
            names = word_stems(key.split()[-1]) if said else word_stems(value)  # "results renewed"
            if len(group) > 1 and names and said is not False:
                out.append((names, [float(len(group)), *(t for t in _column_totals(group) if t >= 0)]))
    return out


def _named_records(claim: str, ev: _Evidence) -> list[_Record]:
    """The flattened records the claim names by a name only that record gives."""
    lower = claim.lower()
    return [r for r in ev.records if any(_said(n, lower) for n in r.names)]


def _said(name: str, text: str) -> bool:
    return _name_pattern(name).search(text) is not None


@lru_cache(maxsize=8192)  # a run's records give more names than re's own cache keeps
def _name_pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")


def _holds(value: str, q: Quantity | None, readings: frozenset[DateParts]) -> bool:
    """A pair's value states the claim's number (same value; a unit, where both give one)
    or date."""
    if q is not None:
        return any(x.value == q.value and (x.unit == q.unit or not x.unit or not q.unit)
                   for x in quantities(value))
    return any(date_supported(readings, r) for _, r in dates(value))


_SAID_WORDS = 2


def _said_apart(v: Valued, ev: _Evidence) -> bool:
    """A sentence of the context, not a record, states the value with the claim's words for
    it ("2 free checked bags for each economy passenger", a policy): the claim gives that
    rule, not another record's value under the same key."""
    labels = word_stems(" ".join(v.labels))
    return any(not _is_record(s) and _holds(s, v.quantity, v.readings)
               and len(labels & word_stems(s)) >= _SAID_WORDS for s in ev.sentences)


_LOWER_START = re.compile(r"(?<=[a-z)])\.\s+(?=[a-z])")
# "The 17-inch laptop has been replaced with the 13-inch one": a replacement names the record
# given up on one side and the one taken on the other, each side's values its own record's.
_REPLACED = re.compile(r"\b(?:replaced|swapped|exchanged|traded|switched)\s+(?:with|for|by|to)\b"
                       r"|\binstead of\b|\bin place of\b", re.IGNORECASE)


def _each_side(check: Callable[[str, _Evidence], str]) -> Callable[[str, _Evidence], str]:
    """``check`` read on each side of a replacement apart (see ``_REPLACED``)."""
    @wraps(check)
    def read(claim: str, ev: _Evidence) -> str:
        sides = _REPLACED.split(claim)
        return next((found for side in sides if (found := check(side, ev))), "")
    return read


def _record_swap(claim: str, ev: _Evidence) -> str:
    """A claim that names one record and gives it the value another record has under the
    same key, where its own record has another value there ("lb-edge-02's certificate
    expires on 3 May" when 3 May is lb-edge-01's ``cert_expiry``)."""
    # A sentence that opens in lower case ("... from Friday. yr.no puts Friday at 20%") is a
    # claim of its own: the answer's claims were not split there.
    sentences = _LOWER_START.split(claim)
    if len(sentences) == 1:
        sentences = _REPLACED.split(claim)
    if len(sentences) > 1:
        return next((found for sentence in sentences if (found := _record_swap(sentence, ev))), "")
    # Only a record of a list names what the claim speaks of: "sku: PAL-4411" above the
    # list of its sites' levels is their heading, not a record beside them.
    named = [r for r in _named_records(claim, ev) if any(
        o is not r and {k for k, _ in o.pairs} & {k for k, _ in r.pairs} for o in ev.records)]
    parts = _ADDED.split(claim)
    if len(named) > 1 and len(parts) > 1:
        # "X has a 25 minute wait, and Y a 90 minute one": each part names its own record.
        return next((found for part in parts if (found := _record_swap(part, ev))), "")
    if len(named) != 1:
        return ""
    (mine,) = named
    own = dict(mine.pairs)
    values = labelled_values(claim)
    # Of the record's list only: a heading's value ("qty: 50000" above the quotes) is the
    # whole list's, said beside any one of them.
    holding = {id(r) for r in ev.records for v in values if {k for k, _ in r.pairs} & own.keys()
               and any(_holds(value, v.quantity, v.readings) for _, value in r.pairs)}
    if len(holding) > 1:
        return ""  # the values of several records: a list of them ("pads $118, rotors $196")
    for v in values:
        if any(_holds(value, v.quantity, v.readings) for _, value in mine.pairs) or _said_apart(v, ev):
            continue
        # Not a number the claim says inside a record's whole name ("Fixed 12 has the lowest
        # rate; Flex …"): it names that record, it gives no value of this one.
        if any(re.search("[a-z]", value, re.IGNORECASE) and _holds(value, v.quantity, v.readings)
               and _said(value.lower(), claim.lower()) for r in ev.records for _, value in r.pairs):
            continue
        for other in ev.records:
            key = next((k for k, value in other.pairs
                        if k in own and _holds(value, v.quantity, v.readings)), None)
            if other is not mine and key is not None:
                return f'{v.text} is the {key} of another record, not of this one ({own[key]})'
    return ""


def _first_said(names: Iterable[str], lower: str) -> int:
    """Where the claim first says one of a record's names (-1: never)."""
    return min((m.start() for n in names if (m := _name_pattern(n).search(lower))), default=-1)


def _crossed_pair(claim: str, ev: _Evidence) -> str:
    """A claim that names two sibling records and gives two values, each the other record's
    under one key where its own holds the other value: "Haddad's 4.6 against Lindqvist's
    4.4", "Sunday at €65, compared with €75 on Saturday", where the records say the reverse.
    The values are the names' in the order said (name, value, name, value; or the values
    between the names). Two names before both values ("A scored lower than B's 4.6, at
    4.4") bind no value to a name by order: not read."""
    lower = claim.lower()
    named = [(at, r) for r in _named_records(claim, ev) if (at := _first_said(r.names, lower)) >= 0]
    values = [v for v in labelled_values(claim) if v.quantity is not None and not v.text.isalpha()]
    if len(named) != 2 or len(values) != 2:
        return ""
    (at_a, a), (at_b, b) = sorted(named, key=lambda n: n[0])
    at_1, at_2 = lower.find(values[0].text.lower()), lower.rfind(values[1].text.lower())
    if not (at_1 < at_b < at_2 or at_a < at_1 <= at_2 < at_b) or min(at_1, at_2) < 0:
        return ""
    own_a, own_b = dict(a.pairs), dict(b.pairs)
    for key in own_a.keys() & own_b.keys():
        first = _holds(own_a[key], values[0].quantity, values[0].readings)
        second = _holds(own_b[key], values[1].quantity, values[1].readings)
        theirs = (_holds(own_b[key], values[0].quantity, values[0].readings)
                  and _holds(own_a[key], values[1].quantity, values[1].readings))
        if theirs and not first and not second:
            return f"{values[0].text} and {values[1].text} are each the other record's {key}"
    return ""


@lru_cache(maxsize=1024)
def _held_values(text: str) -> tuple[tuple[str, tuple[str, ...], str], ...]:
    """The text's values of keys of an attribute after an object's words ("recycling day:
    Thursday"), read once: every claim's ``_parent_swap`` asks again."""
    out = []
    for line in text.splitlines():
        for part in _PAIR_SPLIT.split(line):
            m = _PAIR.match(part)
            words = _key_words(m.group(1)) if m else []
            if m and len(words) > 1 and len(m.group(2).split()) <= _ITEM_WORDS and not any(
                    c.isdigit() for c in m.group(2)):
                out.append((words[-1], tuple(words[:-1]), m.group(2)))
    return tuple(out)


def _modifies(text: str, value: frozenset[str], named: frozenset[str]) -> bool:
    """A word of the value stands just before a word that names the object, as its
    modifier ("the 80% forecast threshold" of "threshold type: PERCENTAGE" beside
    "notification type: FORECASTED"): the phrase names that thing by both of its fields."""
    words = [stem(w) for w in re.findall(r"[\w'-]+", text)]
    return any(a in value and b in named for a, b in itertools.pairwise(words))


def _parent_swap(claim: str, ev: _Evidence) -> str:
    """A clause that names one object of the context ("recycling") and gives it the value
    another object has under the same attribute ("general waste day: Tuesday" beside
    "recycling day: Thursday"), neither naming the other object nor giving its own value:
    the nested objects' values swapped. Names and words only; numbers are the number checks'."""
    held: dict[str, dict[tuple[str, ...], str]] = {}  # attribute -> object's words -> value
    for text in ev.texts:
        for attribute, words, value in _held_values(text):
            held.setdefault(attribute, {})[words] = value
    for part in [p for c in clauses(claim) for p in _ADDED.split(c)]:
        mine = word_stems(part)
        for attribute, objects in held.items():
            if len(objects) < _PARTS or len(set(objects.values())) < len(objects):
                continue
            # By its own words: "shift" names both "opening shift" and "closing shift".
            common = frozenset.intersection(*(word_stems(" ".join(o)) for o in objects))
            named = [o for o in objects if (word_stems(" ".join(o)) - common) & mine]
            # A value of the named object's own words ("entity type: meal_plans" beside "meal
            # type: Dinner") is said in naming it.
            given = [o for o, value in objects.items() if word_stems(value) and word_stems(value) <= mine
                     and not word_stems(value) & word_stems(" ".join(k for n in named for k in n))]
            if len(named) == 1 and len(given) == 1 and named != given and not _modifies(
                    part, word_stems(objects[given[0]]), word_stems(" ".join(named[0])) - common):
                return (f'{objects[given[0]]} is the {" ".join(given[0])} {attribute}, '
                        f'not the {" ".join(named[0])} one ({objects[named[0]]})')
    return ""


@_each_side
def _mixed_rows(claim: str, ev: _Evidence) -> str:
    """The claim joins two values that rows of one list (records of the same keys) give,
    from two different rows ("retiring at 65 gives £1,840 a month" where the age-65 row
    gives £1,656 and £1,840 is the age-67 row's): one row's condition, another's result."""
    keys = [frozenset(k for k, _ in r.pairs) for r in ev.records]
    listed = [r for r, ks in zip(ev.records, keys) if keys.count(ks) > 1]
    hits: dict[str, tuple[str, _Record]] = {}
    for v in labelled_values(claim):
        if v.text.isalpha():
            continue  # "three quarters of them": a number in words is no cell the answer quotes
        rows = [(k, r) for r in listed for k, value in r.pairs
                if _holds(value, v.quantity, v.readings)]
        if len(rows) != 1:
            continue
        key, row = rows[0]
        if key in hits:
            return ""  # two values under one key: a list of rows, each stated
        hits[key] = (v.text, row)
    # Two rows of one list have the same keys: an object nested in a row ("options: 10-inch"
    # beside the row's "price: 903.95") is read as a record of its own keys, but is that row's.
    for (k1, (t1, r1)), (k2, (t2, r2)) in itertools.combinations(hits.items(), 2):
        if r1 is not r2 and {k for k, _ in r1.pairs} == {k for k, _ in r2.pairs}:
            return f"{t1} is one record's {k1} and {t2} another's {k2}"
    return ""


def _record_hits(claim: str, record: _Record) -> dict[str, str]:
    """Each key of the record whose value the claim says, with the claim's words for it: a
    name the record alone gives (or an acronym of it, "MRI"), or its number or date."""
    lower = claim.lower()
    values = labelled_values(claim)
    hits: dict[str, str] = {}
    for key, value in record.pairs:
        # The value's own order, not the set's: which form a claim is matched by names the
        # record in the reasoning, and a set's order changes with the hash seed.
        forms = [n for n in (value.lower(), *value.lower().split()) if n in record.names]
        if len(value.split()) > 1:
            forms += [w.lower() for w in value.split() if len(w) > 1 and w.isupper() and w.isalpha()]
        # A share said as a percentage is a bare fraction in a record ("4.1%": 0.041).
        said = next((f for f in forms if _said(f, lower)), None) or next(
            (v.text for v in values if _holds(value, v.quantity, v.readings) or (
                v.quantity is not None and v.quantity.unit == "%"
                and _holds(value, replace(v.quantity, value=round(v.quantity.value / 100, 6), unit=""),
                           v.readings))), None)
        if said:
            hits[key] = said
    return hits


_LINE_ID = re.compile(r"\b[A-Za-z]{2,}[-_]\d+[A-Za-z]?\b")  # "WTG-07", "conveyor-3", "INC-4410"
_ID_LINES = 3  # a log or a list: this many lines, each of one unit's id


def _line_values(line: str, *, exact: bool = False) -> set[tuple[str, float]]:
    """A line's clock times and its numbers of a unit or of two digits or more: what a
    claim may take from it (``exact``: not the rounded ones, "about 80 °C")."""
    return {("clock", float(m)) for _, m in clock_times(line)} | {
        (q.unit, q.value) for q in quantities(line)
        if not (exact and q.approx) and (q.unit or sum(c.isdigit() for c in q.text) > 1)}


def _line_crossed(claim: str, ev: _Evidence) -> str:
    """The claim names one unit of a log whose lines each name one ("WTG-07 overnight: ...
    peaking at 82 °C at 02:14") and gives it a time or reading that only other units' lines
    hold (the 82.0C at 02:14:05 is WTG-08's): another line's value given to the unit asked of."""
    for text in ev.texts:
        lines = [(ids.pop().upper(), line) for line in text.splitlines()
                 if len(ids := {i.upper().replace("_", "-") for i in _LINE_ID.findall(line)}) == 1]
        units = {u for u, _ in lines}
        if len(lines) < _ID_LINES or len(units) < _PARTS:
            continue
        named = [u for u in units if re.search(rf"(?<![\w-]){'[-_ ]?'.join(map(re.escape, u.split('-')))}(?![\w-])",
                                               claim, re.IGNORECASE)]
        if len(named) != 1:
            continue
        for value in sorted(_line_values(claim, exact=True)):
            held = {u for u, line in lines if value in _line_values(line)}
            if held and named[0] not in held:
                return f"{value[1]:g} is {min(held)}'s, not {named[0]}'s"
    return ""


# "Team Harimau face Garuda Esports", "Ana is paired with Ben": two names the claim pairs.
_PAIRED_WITH = re.compile(r"\s+(?:faces?|play(?:s|ing)?|meets?|vs\.?|versus|against|(?:is |are )?paired with)\s+",
                          re.IGNORECASE)


def _unpaired(claim: str, ev: _Evidence) -> str:
    """The claim pairs two names ("Team Harimau face Garuda Esports in the semifinal") that
    records give, but no record gives together while the first's gives another pair: each
    is in another match, the opponent taken from the wrong record."""
    lower = claim.lower()
    for m in _PAIRED_WITH.finditer(lower):
        before, after = lower[: m.start()], lower[m.end():]
        left = {n for r in ev.records for n in r.names if before.endswith(n)}
        right = {n for r in ev.records for n in r.names if after.startswith(n)}
        for a, b in itertools.product(left, right):
            if a != b and not any(a in r.names and b in r.names for r in ev.records) and any(
                    a in r.names and len(r.names) > 1 for r in ev.records):
                return f"the context never pairs {a} with {b}"
    return ""


def _crossed_records(claim: str, ev: _Evidence) -> str:
    """A part of the claim says values of two sibling records (mostly the same keys), each
    under keys it says of the other none of: one record's name given another's values ("your
    plasma donation is on 11 February at Northgate Centre", where the date and the site are
    the whole-blood appointment's). A key the claim says of both is a list or a comparison,
    each stated; a word or number another record gives too names neither (an itinerary's
    airport, two flights' day)."""
    records = list(dict.fromkeys(ev.records))
    hits = [_record_hits(claim, r) for r in records]
    held = Counter(t for h in hits for t in set(h.values()))
    for (a, ha), (b, hb) in itertools.combinations([(r, h) for r, h in zip(records, hits, strict=True) if h], 2):
        # Siblings: most of the fewer keys shared (a record may give more, "processed on").
        keys_a, keys_b = {k for k, _ in a.pairs}, {k for k, _ in b.pairs}
        if len(keys_a & keys_b) < _PARTS or 2 * len(keys_a & keys_b) < min(len(keys_a), len(keys_b)):
            continue
        words_a, words_b = (" ".join(v for _, v in r.pairs).lower() for r in (a, b))
        ha = {k: t for k, t in ha.items() if held[t] == 1 and not _said(t.lower(), words_b)}
        hb = {k: t for k, t in hb.items() if held[t] == 1 and not _said(t.lower(), words_a)}
        if ha.keys() & hb.keys():
            continue
        for part in [p for side in _REPLACED.split(claim) for p in _ADDED.split(side)]:
            own_a = {k: t for k, t in ha.items() if _said(t.lower(), part.lower())}
            own_b = {k: t for k, t in hb.items() if _said(t.lower(), part.lower())}
            if own_a and own_b and len(own_a) + len(own_b) > _PARTS:
                (ka, ta), (kb, tb) = min(own_a.items()), min(own_b.items())
                return f'"{ta}" is one record\'s {ka} and "{tb}" another\'s {kb}'
    return ""


def _near(value: str, q: Quantity) -> bool:
    """A cell's number is the claim's, rounded as the claim writes it (14.902113 as 14.9)."""
    return any(abs(x.value - q.value) <= q.place / 2 and (x.unit == q.unit or not x.unit or not q.unit)
               for x in quantities(value))


def _amount(value: str) -> bool:
    """A cell of one number (and its unit), no id or text: a column a number may be misread from."""
    return (bool(_CELL_AMOUNT.fullmatch(value.strip())) and not _ID_DIGITS.search(value)
            and len(quantities(value)) == 1)


_BESIDE = 3  # words each side of a number that say what it is
_PAID_BY = re.compile(r"(?:/|\bper\s+)\s*[A-Za-z]\w*")


@_each_side
def _column_swap(claim: str, ev: _Evidence) -> str:
    """A number the records give under one column only, said in words that name another
    column of the same record and none of its own ("precision@10 = 0.31" where 0.31 is the
    row's recall_at_10; "6,030 orders in Q3" where 6,030 is orders_q2): the column misread."""
    for part in _ADDED.split(claim):
        said = [v.quantity for v in labelled_values(part) if v.quantity is not None and not v.text.isalpha()]
        # "within 5-7 business days": a range's ends bound a value, neither is a cell's.
        ends = {n for m in _NUMBER_RANGE.finditer(part) for n in m.groups()}
        at = 0
        for q in said:
            at = max(part.find(q.text, at), 0)
            if q.text in ends:
                continue
            # The words beside the number in its clause say what it is ("precision@10 = 0.31",
            # "6,030 orders in Q3"); a rounded one ("about $120") may be any column's.
            left, right = _CLAUSE_BREAK.split(part[:at])[-1], _CLAUSE_BREAK.split(part[at + len(q.text):])[0]
            # "0.32 €/kWh", "$4 per kg": the unit a rate is paid by names no column beside it.
            left, right = _PAID_BY.sub(" ", left), _PAID_BY.sub(" ", right)
            mine = word_stems(" ".join([*left.split()[-_BESIDE:], *right.split()[:_BESIDE]]))
            held = [] if q.approx else [(r, k) for r in ev.records for k, value in r.pairs if _near(value, q)]
            if not held or len({k for _, k in held}) > 1:
                continue
            record, key = held[0]
            for other, value in record.pairs:
                theirs, own = word_stems(other) - word_stems(key), word_stems(key) - word_stems(other)
                # Not where another number of the part is that column's: the words are its.
                if (other != key and own and theirs and theirs <= mine and not own & word_stems(part)
                        and _amount(value) and not _near(value, q) and not any(_near(value, x) for x in said)):
                    return f"{q.text} is the record's {key}, not its {other} ({value})"
    return ""


_ROW_PART = re.compile(r",\s+")  # a list's items: "A 91%, B 78%"; "Oakline ($585)" is one
_ROW_WORDS = 4


def _row_label(record: _Record) -> str:
    """The words a row is called by: its first value, where that is a few words, not a bare
    number ("Data Privacy 101", "APAC")."""
    value = record.pairs[0][1] if record.pairs else ""
    return value.lower() if re.search("[a-z]", value, re.IGNORECASE) and len(value.split()) <= _ROW_WORDS else ""


_IDENTIFIER_PART = re.compile(r"[A-Z]?[a-z]+")  # "Render.ShadowDepth": render, shadow, depth


def _row_words(rows: Sequence[_Record]) -> dict[int, frozenset[str]]:
    """Each row labelled by an identifier ("Physics.Step", "Render.ShadowDepth") and its words
    of four letters or more no other row's label has: an answer calls it "physics", "the
    shadow pass". A label of several words is said whole."""
    words = {id(r): frozenset(stem(w) for w in _IDENTIFIER_PART.findall(r.pairs[0][1]) if len(w) >= _NAME_WORD)
             if " " not in r.pairs[0][1].strip() and re.search(r"[._/]|[a-z][A-Z]", r.pairs[0][1]) else frozenset()
             for r in rows}
    shared = Counter(w for ws in words.values() for w in ws)
    return {k: frozenset(w for w in ws if shared[w] == 1) for k, ws in words.items()}


def _kin_values(rows: Sequence[_Record], records: Sequence[_Record]) -> dict[int, frozenset[str]]:
    """Each row's label said in another form: the values only one record holds, of a record
    that holds the label as a value too. A payment row "credit_card_4421486: 5" is the card
    whose record gives "last four: 7447", so "$5 from the Visa ending in 7447" calls it."""
    held = Counter(v.lower() for r in records for _, v in r.pairs)
    return {id(row): frozenset(v.lower() for o in records if o is not row and any(
        v.lower() == _row_label(row) for _, v in o.pairs) for _, v in o.pairs
        if held[v.lower()] == 1 and v.lower() != _row_label(row)) for row in rows}


@_each_side
def _row_swap(claim: str, ev: _Evidence) -> str:
    """A part of the claim that calls one row of a table by its label and gives it a number
    another row of the same columns holds, where its own row holds another there ("Data
    Privacy 101 78%" where 78 is Code of Conduct's and Data Privacy 101's is 64)."""
    keys = [frozenset(k for k, _ in r.pairs) for r in ev.records]
    rows = [r for r, ks in zip(ev.records, keys, strict=True) if keys.count(ks) > 1 and _row_label(r)]
    labels = Counter(_row_label(r) for r in rows)
    rows = [r for r in rows if labels[_row_label(r)] == 1]
    words = _row_words(rows)
    kin = _kin_values(rows, ev.records)

    def calls(row: _Record, text: str) -> bool:
        lower = text.lower()
        return _said(_row_label(row), lower) or bool(words[id(row)] & word_stems(text)) or any(
            _said(v, lower) for v in kin[id(row)])

    for part in [p for a in _ADDED.split(claim) for p in (_ROW_PART.split(a) if len(
            [r for r in rows if calls(r, a)]) > 1 else [a])]:
        named = [r for r in rows if calls(r, part)]
        if len(named) != 1:
            continue
        (mine,) = named
        for v in labelled_values(part.lower().replace(_row_label(mine), " ")):
            q = v.quantity
            if q is None or v.text.isalpha() or any(_near(value, q) for _, value in mine.pairs):
                continue
            holders = [(r, k) for r in rows for k, value in r.pairs if _near(value, q)]
            # Not where the part names the holding row too, in any form ("two 10x10s … $129 each").
            # Nor a number the context's prose states too ("Section 5.3 of the Lease"): no cell only.
            if len(holders) == 1 and holders[0][0] is not mine and _row_label(holders[0][0]) not in part.lower() \
                    and not calls(holders[0][0], part) and not any(
                        not _is_record(x) and _near(x, q) for x in ev.sentences):
                other, key = holders[0]
                own = dict(mine.pairs).get(key)
                if own is not None and quantities(own):
                    return f"{v.text} is the {key} of {_row_label(other)}, not of {_row_label(mine)} ({own})"
    return ""


# A price comparison: which side of "than" costs less.
_PRICE_ORDER = re.compile(r"\b(?:(?P<low>cheaper|less expensive|lower-priced)|"
                          r"(?P<high>more expensive|pricier|dearer|costlier))\s+than\b", re.IGNORECASE)


def _self_compared(claim: str) -> str:
    """A price comparison whose own figures say the opposite: "CoolFix (€186) is cheaper than
    Nordic (€171)". The last amount before the comparison and the first after "than", of one
    currency, in one clause."""
    for part in _ADDED.split(claim):
        m = _PRICE_ORDER.search(part)
        if m is None:
            continue
        before = [q for q in quantities(part[: m.start()]) if q.unit]
        after = [q for q in quantities(re.split(r"[,;]|\.(?!\d)", part[m.end() :])[0]) if q.unit]
        if before and after and before[-1].unit == after[0].unit and (
                before[-1].value > after[0].value if m.group("low") else before[-1].value < after[0].value):
            return f'"{m.group(0)}" of {before[-1].text} against {after[0].text}'
    return ""


# A comparison the question asks, and which way its number goes for the winner.
_HIGHER = re.compile(r"\b(?:warmer|hotter|higher|larger|bigger|more|longer|heavier|taller|"
                     r"newer|later|younger|faster|greater|most|largest|highest|longest|youngest)\b",
                     re.IGNORECASE)
_LOWER = re.compile(r"\b(?:colder|cooler|lower|smaller|fewer|less|shorter|lighter|older|"
                    r"earlier|first|cheaper|slower|least|smallest|lowest|oldest|earliest)\b",
                    re.IGNORECASE)


_TIMED = re.compile(r"\b(?:older|oldest|younger|youngest|earlier|earliest|later|latest|newer|"
                    r"newest|first|before|after|when)\b", re.IGNORECASE)


def _bare_year(q: Quantity) -> bool:
    return not q.unit and q.value.is_integer() and 1000 <= q.value <= 2999


_PRONOUN_START = re.compile(r"(?:it|its|they|their|he|his|she|her|this|these)\b", re.IGNORECASE)


_DEFINITE = re.compile(r"(?i:the|this|that)\s+[a-z]")


def _capitalised(text: str) -> set[str]:
    """The text's first word when it is capitalised and not a function word ("Draba has
    more species": Draba; "The Ostrel": none)."""
    first = re.match(r"\W*([A-Z][\w'-]+)", text)
    return {first.group(1).lower()} - _FUNCTION_WORDS if first else set()


_WHICH_ONE = re.compile(r"\W*(?:which|who|what)\b", re.IGNORECASE)
_OWN_ORDINAL = re.compile(r"\b(?:his|her|its|their|my|our|your)\s+(?:\w+\s+)?(?:first|last|latest|earliest)\b",
                          re.IGNORECASE)


def _comparison(claim: str, question: str, ev: _Evidence) -> str:
    """A short answer to "which is older/warmer/…, A or B" that names the candidate the
    context's numbers do not favour. Candidates are the names the question offers that the
    context's segments are about; each one's number is the first after the question's
    measure word ("opened", "born") in its segment, or after any question word where no
    segment of it holds one."""
    if len(claim.split()) > _BOUND_WORDS or not question.rstrip().endswith("?"):
        return ""
    up, down = bool(_HIGHER.search(question)), bool(_LOWER.search(question))
    if up == down:
        return ""
    timed = bool(_TIMED.search(question))
    # "Which of them died first": of a life's span "(1874 – 1965)" its end.
    ending = timed and bool(_ENDS.search(question))
    # A flattened record is one segment: its name and its numbers are separate pairs.
    # Each text's segments, a text's first after None: a pronoun there has nothing before.
    segs = [g for t in ev.texts for g in [None, *(
        x.strip() for line in t.splitlines()
        for x in ([line] if _is_record(line) else [x for x, _ in _segments(line)]))]]
    claimed = key_terms(claim) | _capitalised(claim)
    asked = _tokens(question)
    words = set(re.findall(r"[\w'-]+", question.lower()))
    scores: dict[str, tuple[bool, float]] = {}
    names: list[str] = []
    for g in segs:
        if g is None:
            names = []
            continue
        lower = g.lower()
        # A record is named by its short values ("plan: Basic"), words apart.
        listed = {w for r in _text_records(g) for n in r.names for w in n.split()} - _FUNCTION_WORDS
        # "It runs for 538 km", "The magazine was started in 1989" are about the sentence
        # before's subject.
        # Sorted: the winner named in the reasoning must not depend on the hash seed.
        own = sorted(key_terms(g) | _capitalised(g[:1].upper() + g[1:]) | listed)
        if _PRONOUN_START.match(g):
            # "It was founded in 1865 in Tampere": still Nokia's sentence, Tampere named too.
            names = [*own, *names]
        else:
            names = own or (names if _DEFINITE.match(g) else [])
        # "the larger of the two basins": a small count is how many, not a value compared;
        # a year is compared only by a question of time ("who won more medals" is no year's).
        nums = [q for q in quantities(g) if not _small_count(q)
                and (timed or not _bare_year(q))]
        if timed:
            # When is a point in time: "the Hundred Years' War" is how long, no when.
            nums = [q for q in nums if q.unit not in _PERIOD_WORDS.values()]
            # "(born 3 June 1986)": a date compares by its year, month and day.
            found = [Quantity(text, y + ((mo or 1) - 1) / 12 + ((d or 1) - 1) / 366, "", 1.0, False)
                     for text, readings in dates(g)
                     for y, mo, d in sorted(r for r in readings if r[0])[:1] if y]
            nums += found
            nums.sort(key=lambda q: lower.find(q.text.lower()))
            points = [q for q in nums if q in found or _bare_year(q)]
            if ending and len(points) > 1:
                nums.remove(points[0])
        if not names or not nums:
            continue
        # The number right after the first word of the question the segment holds, its
        # measure word (not a name: "opened", "born") first.
        measure = asked - _tokens(" ".join(names))
        spots = [m.start() for t in measure for m in re.finditer(rf"\b{re.escape(t)}", lower)]
        measured = bool(spots)
        spots = spots or [m.start() for t in asked for m in re.finditer(rf"\b{re.escape(t)}", lower)]
        start = min(spots, default=0)
        after = [q for q in nums if lower.find(q.text.lower(), start) >= 0] or nums
        for n in names:
            if n not in scores or measured and not scores[n][0]:
                scores[n] = (measured, after[0].value)
    # The names the question offers compete ("which opened first, A or B"). Where it offers
    # none, every name of the context does, but only in a question about which one ("which
    # observatory houses the larger telescope"): "in which city was X first published",
    # "his first title" compare nothing.
    values = {n: v for n, (_, v) in scores.items() if n in words}
    if len(values) < 2 and _WHICH_ONE.match(question) and not _OWN_ORDINAL.search(question):
        values = {n: v for n, (_, v) in scores.items()}
    mine = [values[n] for n in claimed if n in values]
    if not mine or len(set(values.values())) < 2:
        return ""
    best = max(values.values()) if up else min(values.values())
    if all(v != best for v in mine):
        return next(n for n, v in values.items() if v == best)
    return ""


# --- roles: which of a sentence's values the question's verb is said of -------------------
# "directed by Ilse Marten and written by Jonas Kell": each value of a clause is tied to the
# content words between it and the value before it (its lead). A clause ends at
# punctuation, a dash, a coordinating word or a relative pronoun.
_ROLE_BREAK = re.compile(r"[,;:()\[\]]|\.(?!\d)|\s[\u2014\u2013]\s|"
                         r"\b(?:and|but|while|whereas|who|which|whose)\b", re.IGNORECASE)
_WH = re.compile(r"^\W*(?:(?:in|on|at|for|from|by|to|during)\s+)?(?:who|whom|when|where|which|what)\b",
                 re.IGNORECASE)
_CAPITALISED = re.compile(r"[A-Z][\w'\u2019-]*(?:\s+(?:(?:of|the|de|von|van)\s+)?[A-Z][\w'\u2019-]*)*")


@dataclass(frozen=True)
class _Role:
    """A value of a clause: its kind ("name", "year", "date", or a number's unit), its key
    (a name's words, the years, the readings, the number) and the stems of the words that
    lead to it from the value before it."""

    kind: str
    key: Any
    lead: frozenset[str]
    start: int
    text: str
    prior: frozenset[str]  # every word before it in its clause: a verb governs them all
    # The clause's words after its last value: "replacing Rio de Janeiro as the capital".
    then: frozenset[str] = frozenset()


def _name_words(text: str) -> frozenset[str]:
    words = (re.sub(r"['\u2019]s$", "", w.lower()) for w in re.findall(r"[\w'\u2019-]+", text))
    return frozenset(w for w in words if w not in _FUNCTION_WORDS and w not in _LINKS)


def _role_values(clause: str) -> list[_Role]:
    spans: list[tuple[int, int, str, Any]] = []

    def free(a: int, b: int) -> bool:
        return all(b <= x or a >= y for x, y, _, _ in spans)

    for text, readings in dates(clause):
        at = clause.find(text)
        if at < 0:
            continue
        # "14 June 1876": a year the date patterns do not read (before 1900) is still its.
        year = re.match(r",?\s+(\d{4})\b", clause[at + len(text) :])
        years = frozenset(y for y, _, _ in readings if y) or frozenset(
            {int(year.group(1))} if year else ())
        end = at + len(text) + (year.end() if year else 0)
        spans.append((at, end, "year", years) if years else (at, end, "date", readings))
    for q in quantities(clause):
        at = clause.find(q.text)
        if at < 0 or not free(at, at + len(q.text)):
            continue
        bare_year = _bare_year(q)
        spans.append((at, at + len(q.text), "year" if bare_year else f"number {q.unit}",
                      frozenset({int(q.value)}) if bare_year else q.value))
    for m in _CAPITALISED.finditer(clause):
        words = _name_words(m.group(0)) - _COMMON_CAPITALS
        if words and free(*m.span()):
            spans.append((m.start(), m.end(), "name", words))
    out: list[_Role] = []
    end = 0
    ordered = sorted(spans, key=lambda x: x[0])
    for n, (a, b, kind, key) in enumerate(ordered):
        out.append(_Role(kind, key, _role_stems(clause[end:a]), a, clause[a:b],
                         _role_stems(clause[:a]),
                         _role_stems(clause[b:]) if n == len(ordered) - 1 else frozenset()))
        end = b
    return out


_COPULA = re.compile(r"\s*(?:\([^)]*\)\s*)?(?:is|was|are|were|became|serves as|served as)\b", re.IGNORECASE)


def _cast(sentence: str) -> list[_Role]:
    """A sentence's values with the role each is given: the words that lead to it ("directed
    by X"); the words after it when a verb "to be" follows ("X is the band's lead singer");
    for a bare item of a list ("written by A and B"), the first item's."""
    out: list[_Role] = []
    for part in _ROLE_BREAK.split(sentence):
        values = _role_values(part)
        for n, v in enumerate(values):
            if v.lead:
                out.append(v)
                continue
            if _COPULA.match(part, v.start + len(v.text)):
                trail = _role_stems(part[v.start + len(v.text) :])
                out.append(replace(v, lead=trail, prior=v.prior | trail))
            elif out and not part[: v.start].strip() and not part[v.start + len(v.text) :].strip():
                out.append(replace(v, lead=out[-1].lead, prior=out[-1].prior))
            else:
                out.append(v)
    return out


def _same_value(a: _Role, b: _Role) -> bool:
    if a.kind != b.kind:
        return False
    if a.kind in ("name", "year"):
        return bool(a.key & b.key)
    if a.kind == "date":
        return date_supported(a.key, b.key)
    return bool(abs(a.key - b.key) < 1e-9)


# English verbs whose past forms no suffix rule reaches: "wrote" and "written" are "write".
_IRREGULAR_VERBS = {form: base for base, forms in (
    ("write", "wrote written writer"), ("build", "built builder"), ("make", "made maker"),
    ("win", "won winner"), ("lead", "led leader"), ("hold", "held holder"),
    ("take", "took taken"), ("give", "gave given"), ("sing", "sang sung singer"),
    ("draw", "drew drawn"), ("begin", "began begun"), ("buy", "bought buyer"),
    ("sell", "sold seller"), ("teach", "taught teacher"), ("speak", "spoke spoken speaker"),
    ("choose", "chose chosen"), ("fly", "flew flown"), ("grow", "grew grown"),
    ("ride", "rode ridden rider"), ("run", "ran runner"), ("beat", "beaten"),
    ("lose", "lost loser"), ("sink", "sank sunk"), ("shoot", "shot"), ("bring", "brought"),
    ("think", "thought thinker"), ("pay", "paid payer"), ("send", "sent sender"),
    ("sit", "sat"), ("stand", "stood"), ("tell", "told"), ("see", "saw seen"),
    ("know", "knew known"), ("throw", "threw thrown thrower"), ("break", "broke broken"),
) for form in (base, *forms.split())}


def _role_stems(text: str) -> frozenset[str]:
    """The stems of the text's content words, an irregular form or an agent noun as its
    verb ("wrote", "written": write; "designer", "director", "founder": design, direct,
    found)."""
    return frozenset(stem(_IRREGULAR_VERBS.get(w) or re.sub(r"(?<=\w{4})(?:er|or)$", "", w))
                     for w in _words(text) if w not in _FUNCTION_WORDS and len(w) > 2)


def _plays(role: str, lead: frozenset[str]) -> bool:
    return role in lead


_Asked = tuple[frozenset[str], frozenset[str], frozenset[str], frozenset[str]]


def _asked_role(question: str) -> _Asked:
    """What a "who / which N / when / where" question asks: the kinds of value that answer
    it, its role words (the first and the last content word after the question word and
    its noun, names aside: "directed" in "Who directed X?", "owns" in "Which museum owns
    X?", "open" in "When did X open?"), the role a bare answer answers, and the words of
    the names it is about. A bare answer ("Jonas Kell") answers only a question whose verb
    follows its question word and which asks through nothing else: "Who directed the
    film that starred X?" is answered through another entity, by a name of another role."""
    m = _WH.match(question)
    none: _Asked = frozenset(), frozenset(), frozenset(), frozenset()
    if not m:
        return none
    word = m.group(0).split()[-1].strip(" \t\"'(").lower()  # "In which": which
    rest = question[m.end() :]
    if word in ("which", "what"):
        noun = re.match(r"\s*([A-Za-z-]+)", rest)
        if not noun or noun.group(1).lower() in _FUNCTION_WORDS:
            return none
        kinds = {"year", "date"} if noun.group(1).lower() in ("year", "date", "day") else {"name"}
        rest = rest[noun.end() :]
    else:
        kinds = {"year", "date"} if word == "when" else {"name"}
    named = _name_words(" ".join(x.group(0) for x in _CAPITALISED.finditer(rest)))
    content = [r for w in re.findall(r"\b[a-z][\w-]*", rest) if w not in _NO_ROLE
               and w not in named for r in _role_stems(w)]
    roles = frozenset(content[:1] + content[-1:])
    # "Who is the lead singer of X?": the verb "to be" and an article ask through nothing
    # (but "where was the director of X born" asks the director's birthplace).
    first = re.match(r"\s*(?:(?:is|was|are|were)\s+(?:(?:the|a|an)\s+)?)?([a-z][\w-]*)"
                     if word in ("who", "whom", "what", "which") else r"\s*([a-z][\w-]*)", rest)
    plain = (first is not None and content[:1] == [*_role_stems(first.group(1))]
             and not _RELATIVE.search(rest))
    # "Where does the director of X live?": the verb after "do" closes the question.
    if re.match(r"\s*(?:do|does|did)\b", rest) and not _RELATIVE.search(rest):
        return frozenset(kinds), roles, frozenset(content[-1:]), named
    return frozenset(kinds), roles, frozenset(content[:1] if plain else ()), named


_RELATIVE = re.compile(r"\b(?:that|who|whom|whose|which|where|when)\b", re.IGNORECASE)
_NO_ROLE = frozenset("first last earliest latest".split())  # noqa: SIM905  ("which opened first")


def _miscast(claim: str, question: str, ev: _Evidence) -> str:
    """A short answer to "who directed / when did it open / which museum owns" that gives
    a value the context ties to another role ("written by Jonas Kell", "authorised in
    1871") and never to the asked one, while a sentence that names what the question is
    about ties the asked role to another value of the same kind ("directed by Ilse Marten",
    "opened on 14 June 1876")."""
    if len(claim.split()) > _BOUND_WORDS:
        return ""
    kinds, roles, plain, named = _asked_role(question)
    if not roles or not named:
        return ""
    words = re.findall(r"[A-Za-z][\w'-]*", claim)
    # A bare value: a name ("Jonas Kell") or a number alone ("1911").
    bare = all(w[0].isupper() or w.lower() in _LINKS for w in words)
    said = [v for part in _ROLE_BREAK.split(claim) for v in _role_values(part)]
    values: list[tuple[str, _Role]] = []  # (the role the claim gives it, the claim's value)
    for part in _ROLE_BREAK.split(claim):
        mine = [v for v in _role_values(part) if v.kind in kinds and not v.key & named]
        for r in plain if bare else roles & _role_stems(part):
            at = next((m.start() for m in re.finditer(r"[A-Za-z][\w'-]*", part)
                       if _role_stems(m.group(0)) == {r}), -1)
            after = [v for v in mine if v.start > at]
            before = [v for v in mine if v.start < at]
            if after or before:
                values.append((r, after[0] if after else before[-1]))
    if not values:
        return ""
    verb = max(roles, key=question.lower().rfind)
    # A word the question capitalises and the context writes small is a topic, not a name:
    # "the Nobel Prize in Physics" asks the year the context gives beside "physics".
    text = "\n".join(ev.texts)
    topics = {t for w in named if re.search(rf"\b{re.escape(w)}\b", text)
              and not re.search(rf"\b{re.escape(w.capitalize())}\b", text) for t in _role_stems(w)}
    values += [(t, v) for _, v in values for t in topics]
    casts: list[list[_Role]] = []
    about: list[bool] = []  # the sentence is about what the question names
    subjects: list[frozenset[str]] = []  # the subject of each sentence's paragraph
    for t in ev.texts:
        for n, x in enumerate(split_claims(t)):
            casts.append(_cast(x))
            opens = not n or bool(_DEFINES.match(x))
            first = casts[-1][0] if casts[-1] and casts[-1][0].kind == "name" else None
            subjects.append((first.key if first and first.start == 0 else frozenset())
                            if opens else subjects[-1])
            # "Its chief designer was …", "Mick Jagger is the band's lead singer" go on about
            # the paragraph's subject; a sentence that defines a subject of its own does not.
            about.append(any(v.kind == "name" and v.key & named for v in casts[-1]) or (
                not opens and about[-1]))
    # Through another entity: the paragraph about a name the question's sentences give
    # ("directed by Clara Voss", then "Clara Voss is …; she now lives in …").
    given = [v.key for cast, its in zip(casts, about, strict=True) if its for v in cast
             if v.kind == "name"]
    about = [its or bool(sub) and any(k <= sub or sub <= k for k in given)
             for its, sub in zip(about, subjects, strict=True)]
    for role, value in values:
        held = [v for cast in casts for v in cast if _same_value(v, value)]
        # Not where the context ties the value to the asked role, or to the question's
        # closing verb ("headquartered in Brussels" for "which city is the alliance …
        # headquartered"), before it or after it ("Rio de Janeiro as the capital").
        if not held or any(not v.lead or any(_plays(r, v.prior | v.then) for r in {role, verb})
                           for v in held):
            continue
        # The sentence that holds the answer's value first, then any about the question's
        # subject ("The screenplay was written by Howard Koch" after "directed by Michael Curtiz").
        for near in (True, False):
            for cast, its in zip(casts, about, strict=True):
                if not its or near and not any(_same_value(v, value) for v in cast):
                    continue
                right = next((v for v in cast if v.kind == value.kind and _plays(role, v.lead)
                              and not _same_value(v, value) and not v.key & named), None)
                if right and not any(_same_value(v, right) for v in said):
                    return f"the context gives {right.text}, not {value.text}, as the one asked"
    return ""


# --- paragraphs: which of the context's passages the question is about ---------------------
# Knowledge pasted from several articles: each paragraph is about its own subject, and a
# sentence that goes on with a pronoun or "the film" is its paragraph's. A short answer to
# a question about one paragraph that gives a value only another paragraph holds, about a
# subject the question's paragraph never names, answers about the wrong thing.
_QUESTION_WORDS = 40  # a question, not a long request
# "Who …", "In which year …", "The director of X is based in what city?"
_ASKS = re.compile(r"\b(?:who|whom|whose|when|where|which|what|how)\b", re.IGNORECASE)
_ABOUT_MARGIN = 1  # question words the question's paragraph holds beyond the answer's


def _question(text: str) -> str:
    """The question a short request ends with ("who", "which", "how" …), or ""."""
    asked = [s for s in split_claims(text) if s.rstrip().endswith("?")]
    if not asked or len(text.split()) > _QUESTION_WORDS or not _ASKS.search(asked[-1]):
        return ""
    return asked[-1]


@dataclass(frozen=True)
class _Paragraph:
    text: str
    stems: frozenset[str]
    values: tuple[_Role, ...]
    subject: frozenset[str]  # the words of the name its first sentence opens with
    surname: str = ""  # that name's last word: "Robert Marsh" is the "Bob Marsh" named before


# An article's opening sentence defines its subject: "Arthur's Magazine (1844-1846) was an
# American literary periodical", "The Rolling Stones are an English rock band".
_DEFINES = re.compile(r"^\W*(?!(?:It|Its|He|His|She|Her|They|Their|This|These|That|Those)\b)[A-Z][\w'\u2019.-]*(?:\s+(?:(?:of|the|de|von|van|and|&)\s+)?[A-Z0-9][\w'\u2019.-]*)*"
                      r"\s*(?:\([^)]*\)\s*)?(?:is|was|are|were)\s+"
                      r"(?:a|an|one|the(?!\s+[\w-]+['\u2019]s?\s))\b")


def _paragraphs(texts: Iterable[str]) -> list[_Paragraph]:
    groups: list[list[str]] = []
    for text in texts:
        for n, sentence in enumerate(split_claims(text)):
            if n and not _DEFINES.match(sentence):
                groups[-1].append(sentence)
            else:
                groups.append([sentence])
    out = []
    for group in groups:
        values = tuple(v for x in group for part in _ROLE_BREAK.split(x) for v in _role_values(part))
        # The name it opens with, after a quote or "The" ('"Silver Creek" is a 2011 film').
        first = values[0] if values and values[0].kind == "name" and not re.sub(
            r"[\W_]|\bthe\b", "", group[0][: values[0].start], flags=re.IGNORECASE) else None
        last = re.sub(r"['\u2019]s$", "", first.text.split()[-1].lower()) if first else ""
        out.append(_Paragraph(" ".join(group), _role_stems(" ".join(group)), values,
                              first.key if first is not None else frozenset(), last))
    return out


def _names(paragraph: _Paragraph, other: _Paragraph) -> bool:
    """Whether the paragraph names the other's subject: a name holding its words, held by
    them, or ending as it does ("Bob Marsh" for "Robert Marsh")."""
    subject = other.subject
    return bool(subject) and any(v.kind == "name" and (v.key <= subject or subject <= v.key
                                                       or other.surname in v.key)
                                 for v in paragraph.values)


def _share(paragraph: _Paragraph, other: _Paragraph, named: frozenset[str], ev: _Evidence) -> bool:
    """Whether both paragraphs give a name of two words or more (or one the question does
    not give and no people's) that holds the other's words."""
    return any(v.kind == w.kind == "name" and (v.key <= w.key or w.key <= v.key)
               and (len(v.key) > 1 or not v.key & named and not v.key <= ev.peoples)
               and not (v.key | w.key) <= named
               for v in paragraph.values for w in other.values)


def _off_question(claim: str, ev: _Evidence) -> str:
    """A short answer whose value the context gives only in a paragraph about something
    else than the question: "Who wrote Wuthering Heights?" answered "Jane Austen" from a
    paragraph on Austen when the paragraph on Wuthering Heights names Emily Bronte. Not when
    the answer's paragraph is about a subject the question's paragraph names (a question
    through another entity: "where is the director of X based")."""
    question = _question(ev.given)
    if len(claim.split()) > _BOUND_WORDS or not question:
        return ""
    named = _name_words(" ".join(m.group(0) for m in _CAPITALISED.finditer(question)))
    years = {int(y) for y in re.findall(r"\b\d{4}\b", question)}
    def new(v: _Role) -> bool:  # a value the question does not give
        if v.kind == "name":
            return not v.key & named
        return not v.key & years if v.kind == "year" else v.text not in question

    mine = [v for part in _ROLE_BREAK.split(claim) for v in _role_values(part) if new(v)]
    paragraphs = _paragraphs(ev.texts[: ev.documents])
    if not mine or len(paragraphs) < 2:
        return ""
    wanted = _role_stems(question) | named
    scores = [len(wanted & p.stems) for p in paragraphs]
    best = max(scores)
    top = [p for p, n in zip(paragraphs, scores, strict=True) if n == best]
    for value in mine:
        holders = [(p, n) for p, n in zip(paragraphs, scores, strict=True)
                   if any(_same_value(x, value) for x in p.values)]
        # A paragraph about a subject the question names is the question's too ("which was
        # founded first, X or Y": Y's year is Y's paragraph's).
        if (not holders or max(n for _, n in holders) + _ABOUT_MARGIN > best
                or any(p.subject and p.subject <= named for p, _ in holders)):
            continue
        # "Mount Kenya" is not "Mount Kilimanjaro": one name must hold the other's words.
        # Two passages that name one person (the author "George Orwell" of a book, and
        # "Eric Blair, better known as George Orwell") are one question's hops.
        if any(_names(a, b) or _names(b, a) or _share(a, b, named, ev) for a, _ in holders for b in top):
            continue
        right = next((v for t in top for v in t.values if v.kind == value.kind and new(v)
                      and not _same_value(v, value)), None)
        if right is not None:
            return (f"the context gives {value.text} only in a passage about something else; "
                    f"the passage the question is about gives {right.text}")
    return ""


_LEAD_WORDS = 3  # the words before a value that say what it is: "was founded in", "born in"


def _unanchored(claim: str, ev: _Evidence) -> str:
    """A short answer whose value the context gives only in sentences that hold none of the
    question's words, while a word of the question leads to another value of its kind:
    "when was the company founded?" answered with the year of the console's release when
    the context says "it was founded in 1946"; "where was the architect born?" answered with
    the town his later studio is near. A value that opens a sentence (what a passage is
    about) is no rival; a question offering its choices ("A or B?") is the comparison's."""
    question = _question(ev.given)
    if (len(claim.split()) > _BOUND_WORDS or not question or _yes_no_questions(ev.given)
            or re.search(r"\bor\b", question)):
        return ""
    named = _name_words(" ".join(m.group(0) for m in _CAPITALISED.finditer(question)))
    # The answer is its first value: "Venus, at about 464 degrees Celsius" is Venus.
    value = next((v for part in _ROLE_BREAK.split(claim) for v in _role_values(part)
                  if v.kind in ("name", "year") and not v.key & named), None)
    # The question's content words, names aside: what the answer is said with.
    words = frozenset(r for w in re.findall(r"\b[a-z][\w-]*", question) if w not in named
                      for r in _role_stems(w))
    # A rival is led to by what the question asks of its answer, not by the class of the
    # answer ("which team") or of what it goes through ("the singer of the band"): those
    # lead to any value of theirs ("a team based in Chicago").
    asks = words - _role_stems(" ".join(re.findall(r"\b(?:which|what|of\s+(?:the|an?))\s+([a-z][\w-]*)",
                                                   question, re.IGNORECASE)))
    if value is None or not asks:
        return ""
    sentences = [x for text in ev.texts[: ev.documents] for x in split_claims(text)]
    casts = [_role_values(x) for x in sentences]
    holders = [x for x, cast in zip(sentences, casts, strict=True) if any(_same_value(v, value) for v in cast)]
    if not holders or any(_role_stems(x) & words for x in holders):
        return ""
    subjects = [v for cast in casts for v in cast if not v.start]
    people = bool(_peoples(value.text.lower()))  # "Finnish" is no rival of a place, nor it of a people
    for x, cast in zip(sentences, casts, strict=True):
        for v in cast:
            lead = _role_stems(" ".join(re.findall(r"[\w'-]+", x[: v.start])[-_LEAD_WORDS:]))
            if (v.start and lead & asks and v.kind == value.kind and not v.key & named
                    and bool(_peoples(v.text.lower())) == people and not _same_value(v, value)
                    and not any(_same_value(v, s) for s in subjects)):
                return f"the context says {v.text}, not {value.text}, where it says what the question asks"
    return ""


# "Are X and Y both …?", "Were X and Y of the same nationality?": a comparison whose yes or
# no the two subjects' paragraphs decide.
_BOTH = re.compile(r"\bboth\b|\bsame\b", re.IGNORECASE)
_NO = re.compile(r"^\W*no\b", re.IGNORECASE)
# A nationality-like word ("an American director", "a Polish physicist"); not a compound
# ("American-born"), which says two.
_KIND = re.compile(r"\b(?:is|was|are|were)\s+(?:an?|the)\s+(?:[a-z]+\s+)?"
                   r"([A-Z][a-z]+(?:an|ish|ese|ch|i))\b(?!-)")


def _both_wrong(answer: str, ev: _Evidence) -> str:
    """A yes or no to "are X and Y both A" (or "of the same B") that the paragraphs about
    X and Y contradict: "yes" where one of them says none of A's words, "no" where both say
    all of them; for "same", the kind each paragraph's opening gives ("an American
    director") decides."""
    yes, no = bool(_YES.match(answer)), bool(_NO.match(answer))
    asked = _yes_no_questions(ev.given)
    if yes == no or not asked or not _BOTH.search(asked[-1]):
        return ""
    question = asked[-1]
    about = [p for p in _paragraphs(ev.texts[: ev.documents]) if p.subject & _name_words(question)]
    if len(about) != 2:
        return ""
    if re.search(r"\bsame\b", question, re.IGNORECASE):
        kinds = [k.group(1) for p in about if (k := _KIND.search(p.text))]
        if len(kinds) != 2 or (kinds[0].lower() == kinds[1].lower()) == yes:
            return ""
        return f"the context gives {kinds[0]} for one and {kinds[1]} for the other"
    attrs = word_stems(question) - word_stems(" ".join(w for p in about for w in p.subject)) - {"both"}
    if not attrs:
        return ""
    # What each paragraph says of its subject, with the paragraph on a name it gives ("by
    # C. S. Lewis", then "Lewis was a fellow … at Oxford"), and a people's place in any of
    # its forms ("an African lake" is in Africa).
    everything = _paragraphs(ev.texts[: ev.documents])
    said = [word_stems(" ".join([p.text, *(o.text for o in everything if o is not p and _names(p, o))]))
            for p in about]
    said = [st | word_stems(" ".join(_peoples(strip_accents(p.text.lower())))) for st, p in zip(said, about, strict=True)]
    # A "no" needs each paragraph to say all of it itself.
    held = [len(attrs & word_stems(p.text)) for p in about]
    # A "yes" is denied only by a name ("both American"): a class may be said in other words
    # ("magazines" of a "periodical").
    names = word_stems(" ".join(key_terms(question))) & attrs
    if yes and names and min(len(names & st) for st in said) == 0:
        return "one of the two the question names is said to be none of it"
    if no and min(held) == len(attrs):
        return "the context says it of both"
    return ""


# A span of years, "(1872–1881)", "(c. 1356–1862)": its first year is a start (founded,
# born), its second an end (closed, died).
_SPAN = re.compile(r"(?<![\w.,])(1\d{3}|20\d{2})\s?[-\u2013\u2014]\s?(1\d{3}|20\d{2})(?![\w.,]*\d)")
_STARTS = re.compile(r"\b(?:start\w*|beg[ia]n\w*|found\w*|establish\w*|born|birth|launch\w*|"
                     r"open\w*|first|creat\w*|form\w*|introduc\w*)\b", re.IGNORECASE)
_ENDS = re.compile(r"\b(?:end\w*|die\w*|death|clos\w*|ceas\w*|last|fold\w*|dissolv\w*|"
                   r"disband\w*|abolish\w*)\b", re.IGNORECASE)


def _span_end(claim: str, ev: _Evidence) -> str:
    """A year that answers "when was X founded" with the end of the context's span for X
    ("(1872–1881)": 1881), or "when did X die" with its start."""
    question = _question(ev.given)
    starts, ends = bool(_STARTS.search(question)), bool(_ENDS.search(question))
    years = {int(y) for y in re.findall(r"(?<!\d)(?:1\d{3}|20\d{2})(?!\d)", claim)}
    if not question or starts == ends or len(years) != 1 or len(claim.split()) > _BOUND_WORDS:
        return ""
    year = years.pop()
    text = "\n".join(ev.texts)
    spans = [(int(a), int(b)) for a, b in _SPAN.findall(text) if int(a) < int(b)]
    wrong = [s for s in spans if s[1 if starts else 0] == year]
    # Only when the context gives that year nowhere else, in the asked role perhaps.
    if not wrong or len(re.findall(rf"(?<!\d){year}(?!\d)", text)) > len(wrong):
        return ""
    a, b = wrong[0]
    return (f"the context's {a}–{b} ends with {year}; the question asks when it began" if starts
            else f"the context's {a}–{b} begins with {year}; the question asks when it ended")


def _short(text: str, words: int = 14) -> str:
    parts = text.split()
    return " ".join(parts[:words]) + (" …" if len(parts) > words else "")


# The rules read English. A claim in another language is not read: every word of it would
# be a name the context lacks. Known by Spanish's inverted marks, or by function words of
# the Romance languages or German (and accented words) outnumbering English ones.
_ENGLISH = frozenset("the a an is are was were be to of and or you your i we it in on for "  # noqa: SIM905
                     "with this that have has will can my our at by from not do does".split())
_ROMANCE = frozenset("que el la los las de del en por para con una es y le les des et est "  # noqa: SIM905
                     "une il di che per nao em um uma mis tu su sus pero muy "
                     "der die das und ist sind nicht mit ein eine einen zu von auf dem ihr ihre ich wir "
                     "sie im bei auch noch nur wird werden oder aber".split())
_ACCENTED = re.compile(r"[áéíóúñçãõàèìòùâêôüäöß]", re.IGNORECASE)
_INVERTED = re.compile("[¡¿]")


def _foreign(text: str) -> bool:
    if _INVERTED.search(text):
        return True
    words = re.findall(r"[^\W\d_]+", text.lower())
    other = sum(w in _ROMANCE or bool(_ACCENTED.search(w)) for w in words)
    return other >= 2 and other > sum(w in _ENGLISH for w in words)


def _foreign_miscopy(said: str, texts: Sequence[str]) -> str:
    """A number of an answer in another language that copies an evidence value of its unit
    one digit slip away ("Yıllık faiz: %28" for "annual_rate_pct: 38"), worked out from no
    evidence values: its words are not read, its figures are the evidence's or wrong. Years
    are left out ("2027" beside "2026" is the next one, not a slip), and so are numbers in
    words, which may be words of the answer's language."""
    given = [q for t in texts for q in quantities(t)]
    derived = derived_values(given)

    def whole(q: Quantity) -> bool:
        return (q.value == int(q.value) and q.value >= 10 and not 1900 <= q.value <= 2100
                and any(c.isdigit() for c in q.text))

    for q in quantities(_english_numbers(said, continental(said))):
        if not whole(q) or number_supported(q, derived):
            continue
        near = next((g for g in given if whole(g) and g.unit == q.unit
                     and _near_digits(str(int(q.value)), str(int(g.value)))), None)
        if near is not None:
            return f'"{q.text}" where the context gives {near.text}'
    return ""


# A name the answer addresses ("Thanks, Sofia.", "I hope you feel better soon, Olivia.")
# is the reader's, no claim: the last words after a comma, capitalised, where the sentence
# speaks to the reader or is a pleasantry; or such a name set off mid-sentence after a word
# that is no name ("your frustration, Mohamed, and …", "that decision, Sarah — it's"),
# and before an emoji ("Take care of yourself, Sarah. 💛").
_VOCATIVE = re.compile(r",\s+[A-Z][\w'\u2019-]+(?:\s+[A-Z][\w'\u2019-]+)?\s*(?=[.!?]*[^\w.!?]*$)"
                       r"|(?P<word>\b[a-z][\w'\u2019]*),\s+[A-Z][\w'\u2019-]+(?=\s*,\s|\s+[\u2014\u2013]\s)")
_ADDRESSED = re.compile(r"\b(?:you|your|yours|yourself|you're|thanks|thank|welcome|hope|glad|sorry|apologies|"
                        r"great|perfect|hello|hi|confirmed|done|sure|okay|ok|certainly|"
                        r"absolutely|noted|understood|all set)\b", re.IGNORECASE)


def _unaddressed(text: str) -> str:
    return _VOCATIVE.sub(lambda m: m.group("word") or "", text) if _ADDRESSED.search(text) else text


# "Again, I apologize for the trouble", "I hope you feel better soon", "I'm sorry things are
# tight": the speaker's own feelings, which no context states or denies.
_FEELING = re.compile(
    r"^\W*(?:(?:again|once again|so|and|also|first|however|otherwise|meanwhile|of course),?\s+)?(?:"
    # "We look forward to welcoming you": a wish as "we hope to see you" is.
    r"(?:i|we)\s+(?:(?:really|sincerely|truly|do|deeply)\s+)?(?:hope|appreciate|wish|look forward to)\b|"
    r"(?:(?:i|we)\s+(?:(?:really|sincerely|truly|do|deeply)\s+)?apologi[sz]e|"
    r"(?:i'm|i am|we're|we are)\s+(?:(?:so|very|really|truly|sincerely|deeply)\s+)?sorry|sorry)"
    r"(?:\s+(?:for|about|to hear|again)\b|\W*$)|"
    # "I'm glad I could help you book …", "happy to have assisted": the help is the news.
    r"(?:i'm|i am|we're|we are)\s+(?:(?:so|very|really|truly)\s+)?(?:glad|happy|pleased)\s+"
    r"(?:(?:that\s+)?(?:i|we)\s+(?:could|was able|were able|have been able)|to (?:have )?(?:help|assist)\w*)\b|"
    # "I would be happy to pass your details to reception": an offer, not a fact.
    r"(?:i|we)(?:'d| would) be (?:happy|glad|delighted) to\b)", re.IGNORECASE)


# Words of a norm, not of doubt: "is usually processed within 3 weeks" states the figure.
_NORM = re.compile(r"\b(?:typically|usually|generally|in general|often)\b", re.IGNORECASE)


def _hedged(text: str) -> bool:
    """Hedged, unless only a norm's word hedges a figure (see ``_NORM``)."""
    return is_hedged(text) and not (quantities(text) and not is_hedged(_NORM.sub("", text)))


def _asserted(text: str) -> bool:
    # A question ("Is there anything else I can help you with?") asks; it states nothing.
    return not (is_refusal(text) or _hedged(text) or _foreign(text) or text.rstrip().endswith("?") or (
        (is_generic_advice(text) or _FEELING.match(_plain(text))) and not quantities(text) and not dates(text)
    ))


def _ranked(sentences: Sequence[str], claims: Iterable[str]) -> list[str]:
    wanted: frozenset[str] = frozenset().union(*(word_stems(c) for c in claims))
    order = sorted(range(len(sentences)), key=lambda i: (-len(word_stems(sentences[i]) & wanted), i))
    return [sentences[i] for i in sorted(order[:_EVIDENCE_SENTENCES])]


# A call that only looks something up (get_order, searchFlights): it changes no record, and
# takes no action an answer may claim.
_READ_CALL = re.compile(r"(?i:get|list|search|check|find|fetch|look_?up|read|query|view|show|"
                        r"retrieve|calculate|compute|describe)(?:_|[A-Z]|$)")
_ID_KEY = re.compile(r"(?:^|_)(?:id|ref|reference|number|code)$", re.IGNORECASE)


def _current_keyed(calls: Sequence[ToolCall], texts: Sequence[str]) -> list[tuple[frozenset[str], str, str, int]]:
    """The yes/no and nothing values of the tool outputs (``_keyed``) that still hold: none
    of a record a later call changed (its id among the arguments, a name that is no
    lookup's), nor one a later lookup of it gives again under its key. A lookup, the change,
    a lookup again: "total baggages: 0" before the bags were added is no longer the
    booking's state. ``texts`` are the calls' outputs as read (see ``_read``)."""
    # The id's value names the record, whatever the key ("id", "line_id").
    ids = [{str(v) for k, v in t.args.items() if isinstance(v, (str, int)) and _ID_KEY.search(k)}
           for t in calls]
    keys: dict[int, set[str]] = {}  # each later output's keys, read when first wanted
    out = []
    for k, text in enumerate(texts):
        after = [j for j in range(k + 1, len(calls)) if ids[k] & ids[j]]
        if any(not _READ_CALL.match(calls[j].name) for j in after):
            continue  # changed since ("refuel_data", "update_reservation_baggages")
        for j in after:
            if j not in keys:
                keys[j] = {m.group(1).lower() for line in texts[j].splitlines()
                           for part in _PAIR_SPLIT.split(line) if (m := _PAIR.match(part))}
        later = set().union(*(keys[j] for j in after))
        out += [s for s in _keyed(_code_free(text)) if s[2].split(":")[0].lower() not in later]
    return out


# Paragraphs pasted together lose the space between them ("…in the 19th century.First for
# Women is…"): the two sentences, and the two subjects, are read apart.
_JOINED = re.compile(r"(?<=[a-z0-9)][.!?])(?=[A-Z][a-z])")


def _listed(texts: Iterable[str]) -> list[frozenset[str]]:
    """The stems of each item of a list a text gives under one repeated key ("steps: …",
    "documents: …"), where the item has words of its own (no bare number or code)."""
    out: list[frozenset[str]] = []
    for text in texts:
        # A line of one pair: a line of several is a record (flattened JSON), not an item.
        pairs = [(k.lower(), v) for line in text.splitlines()
                 if len(_PAIR_SPLIT.split(line)) == 1 and (m := _PAIR.match(line)) for k, v in [m.groups()]]
        keys = Counter(k for k, _ in pairs)
        out.extend(stems for k, v in pairs if keys[k] > 1 and len(stems := word_stems(v)) > 1)
    return out


# An answer's list items: in a sentence ("do X, then Y, and Z", "1) X, 2) Y") or a line each.
_LIST_ITEM = re.compile(r"[,;:]\s*(?:and\s+|then\s+)*|\s+(?:and\s+)?then\s+|\s+and\s+|\s*\b\d\)\s*|\n",
                        re.IGNORECASE)


_CALENDAR_STEMS = frozenset(stem(w) for w in [*_MONTHS, *_WEEKDAYS, *(d[:3] for d in _WEEKDAYS)])


def _items_listed(text: str, listed: Sequence[frozenset[str]]) -> tuple[int, list[frozenset[str]]]:
    """How many of the text's items restate an item of the context's lists (most of the
    item's words are the listed item's), and the stems of the items that restate none."""
    restated, others = 0, []
    for item in _LIST_ITEM.split(text):
        # "Wed 9 Dec": a date's names are the date checks', no word of an item.
        stems = word_stems(item) - _CALENDAR_STEMS
        if not stems:
            continue
        if any(2 * len(stems & listed_item) >= len(stems) for listed_item in listed):
            restated += 1
        else:
            others.append(stems)
    return restated, others


def _unlisted_items(claims: Sequence[_Claim], ev: _Evidence) -> None:
    """An answer that gives the context's list (steps, documents, what a package includes),
    two items of it or more, and an item besides that the context never names: the list
    is the context's, so the added item is invented, as an offered item is (staged in the
    head like ``offered``). Instructions too: they restate the context's steps."""
    found = [_items_listed(c.text, ev.listed) for c in claims]
    if sum(n for n, _ in found) < 2:
        return
    single = [restated + len(others) == 1 for restated, others in found]
    for i, (claim, (restated, others)) in enumerate(zip(claims, found, strict=True)):
        # Only a list gives the context's list, not prose whose clauses split on "and" (a
        # coding run's "the usages seem to be tests and the definition"): a claim that
        # restates two items of it among three or more of its own ("1) … 2) … 3) …"), or a
        # line of one item between two lines wholly of the context's list (bullets).
        in_line = restated >= 2 and restated + len(others) >= 3
        beside = 0 < i < len(found) - 1 and all(found[j][0] and not found[j][1] for j in (i - 1, i + 1))
        if not (in_line or single[i] and beside):
            continue
        # Two words the context never has: an item of its own, not a rewording.
        invented = [o for o in others if sum(w.isalpha() for w in o - ev.stems) >= 2]
        if invented and not claim.found.get("offered"):  # not counted twice by the item checks
            claim.found["offered"] = claim.found.get("offered", 0.0) + len(invented)
            claim.why.append(f"lists {', '.join(sorted(invented[0] - ev.stems)[:3])}, which the context's list never names")


# A language the context gives by its ISO 639-1 code, in a pair or a locale ("ES-DE",
# "de-DE", "pt_BR"): an answer names it in words.
_LANGUAGE_PAIR = re.compile(r"(?<![\w-])([A-Za-z]{2})[-_]([A-Za-z]{2})(?![\w-])")
_LANGUAGES = dict(pair.split(":") for pair in (  # noqa: SIM905
    "ar:arabic bg:bulgarian cs:czech da:danish de:german el:greek en:english es:spanish "
    "et:estonian fi:finnish fr:french he:hebrew hi:hindi hr:croatian hu:hungarian id:indonesian "
    "it:italian ja:japanese ko:korean lt:lithuanian lv:latvian nl:dutch no:norwegian pl:polish "
    "pt:portuguese ro:romanian ru:russian sk:slovak sl:slovenian sv:swedish th:thai tr:turkish "
    "uk:ukrainian vi:vietnamese zh:chinese").split())


def _language_names(texts: Sequence[str]) -> list[str]:
    named = {_LANGUAGES[code.lower()] for text in texts for m in _LANGUAGE_PAIR.finditer(text)
             if (m.group(1).isupper() or m.group(2).isupper()) for code in m.groups()
             if code.lower() in _LANGUAGES}
    return [f"languages: {', '.join(sorted(named))}"] if named else []


# "Is it under a different spelling? (e.g., Davíd, Chenn)": examples of what a question asks.
_EXAMPLES = re.compile(r"^\W*(?:e\.\s?g\.|(?:for example|for instance|such as|like)\b)", re.IGNORECASE)


def _examples_asked(before: Sequence[str], piece: str) -> bool:
    """The piece only gives examples of the answers the question before it asks for: it
    offers them as possibilities, asserting none."""
    return bool(before) and before[-1].rstrip(" )*").endswith("?") and bool(_EXAMPLES.match(piece))


# A source's marker after a sentence or a word ("… too small [2].", "[1, 3]") cites; it states
# no number (an index after a name, "rows[2]", is code and is kept; so is a link's text).
_CITATION = re.compile(r"\s*(?:(?<=\s)|(?<=[.,;:!?)]))(?:\[\d{1,2}(?:\s*[,\u2013-]\s*\d{1,2})*\])+(?!\()")


def _read(case: RunCase) -> tuple[list[str], list[_Claim], list[str]]:
    """The evidence texts, the answer's pieces and the claims among them that assert."""
    texts = [table_records(_JOINED.sub(" ", c)) for c in case.context if c.strip()]
    # Numbers as the claims' are read (1.234,56 as 1234.56), so a value's text is found in its
    # record; a run whose tools write numbers the continental way writes its dates so too.
    outputs = [tool_text(xml_json(t.output)) for t in case.tools_called if t.output.strip()]
    dots = any(continental(o) for o in outputs)
    texts += [table_records(_english_numbers(aligned_records(delimited_records(o)), dots)) for o in outputs]
    texts += _language_names(outputs)
    # What the agent passed to a tool is known to it (an account number, the new address).
    texts += [_english_numbers(tool_text(json.dumps(dict(t.args))), dots) for t in case.tools_called if t.args]
    # What the user stated later in a chat is known to the agent too.
    texts += [_english_numbers(t, dots) for t in case.told if t.strip()]
    # An answer read out says its figures in words ("at eight-forty"): read in digits.
    said = spoken_numbers(_CITATION.sub("", answer_text(case.output)))
    pieces = split_claims(said)
    # An answer in another language is not read, its short lines ("[Transfiriendo a Asesor
    # Académico]") too, whose few words cannot tell their language alone.
    asked = _yes_no_questions(case.input)
    # Not an acronym: "an NBA team" is often the context's "National Basketball Association".
    acronyms = {a.lower() for a in re.findall(r"\b[A-Z][A-Z0-9&]+\b", asked[-1])} if asked else set()
    affirms = (key_terms(asked[-1]) - acronyms if asked and pieces and _YES.match(pieces[0])
               else frozenset())
    # Instructions that restate the context's listed steps give its facts: they are read.
    listed = _listed(texts)
    claims = [] if _foreign(said) else [
        _Claim(i + 1, _unaddressed(p), alone=len(pieces) == 1, affirms=affirms if i == 0 else frozenset())
        for i, p in enumerate(pieces) if not _examples_asked(pieces[:i], p) and (_asserted(p) or (
            listed and not p.rstrip().endswith("?") and _items_listed(p, listed)[0]))][:_MAX_CLAIMS]
    return texts, claims, pieces


# Each check's finding for the answer is its strongest over the claims.
_FINDINGS = ("numbers", "counts", "numbers_ok", "worked", "bare_name", "names", "bound",
             "negation", "uncovered", "evidence_far", "rival", "offered", "scope",
             "cause")


# An action the answer says it took ("I've added you to the standby list") needs a call
# that could take it: none did where every call only looked something up or failed.
# "Done — the wagon has been reassigned", "All set — the room is booked" say it as the
# answer's own deed too.
_DONE_VERBS = (r"(?:added|booked|cancell?ed|registered|scheduled|submitted|sent|logged|raised|created|updated|"
               r"changed|rebooked|reserved|placed|processed|issued|refunded|arranged|put|"
               r"enrolled|upgraded|filed|escalated|moved|applied|reset|renewed|transferred|"
               r"deferred|postponed|credited|waived|reassigned|assigned|removed|deleted|restarted|extended|"
               r"unlocked|activated|deactivated|approved)\b")
_DONE = re.compile(rf"\bI(?:'ve| have)\s+(?:just\s+|now\s+|also\s+|gone ahead and\s+)?{_DONE_VERBS}|"
                   rf"^\W*(?:Done|All set)\b[^.?!]*?\b(?:(?:has|have) been|is|are)\s+(?:\w+ly\s+)?{_DONE_VERBS}")


# A clause that reports a deed as done, whatever its verb: "I cleared …", "I've paged …",
# "… has been posted", "you're booked", "Done — …". Its verb is matched to a call by stem.
_DEED_DONE = re.compile(r"\b(?:I|we)(?:'ve| have| had)?\s+(?:just\s+|now\s+|also\s+|already\s+)?\w+ed\b"
                        r"|\b(?:has|have) been\s+(?:\w+ly\s+)?\w+(?:ed|t|n)\b"
                        r"|\b\w+(?:'re|'s| is| are)\s+(?:now\s+|all\s+|also\s+)?\w+ed\b|^\W*(?:Done|All set)\b")
# A clause that admits the deed undone, or only promises it: it claims nothing done.
_DEED_ADMITTED = re.compile(r"n't\b|\b(?:not|no|unable|fail\w*|error|denied|will|would|could|can|"
                            r"once|if|when|pending|try|tried|attempt\w*|again|needs?|nothing|none)\b", re.IGNORECASE)


def _deed_words(call: ToolCall) -> frozenset[str]:
    """What a call does, as stems: its name's words and each command's verb (the first word
    of a several-word argument, "clear bgp 203.0.113.9" of ``ssh_exec``)."""
    verbs = [v.split()[0] for v in call.args.values() if isinstance(v, str) and len(v.split()) > 1]
    return word_stems(" ".join([*_key_words(call.name.rpartition(".")[2]), *verbs]))


def _failed_deeds(claims: Sequence[_Claim], calls: Sequence[ToolCall]) -> None:
    """A clause that reports done the deed of a call that failed ("You're booked!" after
    ``book_slot`` answered 409; "a replacement card has been posted" after
    ``order_replacement_card`` failed): a word of what the failed call does, that no call
    which worked does, in a clause put as a deed done and admitting nothing."""
    worked = frozenset().union(*(_deed_words(c) for c in calls if not _failed(c)))
    undone = frozenset().union(*(_deed_words(c) for c in calls if _failed(c)
                                 and not _READ_CALL.match(c.name.rpartition(".")[2]))) - worked
    if not undone:
        return
    for claim in claims:
        if claim.found.get("offered"):
            continue
        for clause in _ADDED.split(claim.text):
            deed = _DEED_DONE.search(clause)
            # The deed's own verb, or its thing as the subject ("a replacement card … has been
            # posted"); after a state ("you're entitled to a refund") it is no deed done.
            words = word_stems(clause[: deed.end()]) & undone if deed else frozenset()
            if deed and words and not _DEED_ADMITTED.search(clause):
                claim.found["offered"] = 1.0
                claim.why.append(f'"{deed.group(0)}", but the call that would do it ({min(words)}) failed')
                break


# "Both books are renewed", "all three are cancelled": the deed told done of every item.
_EVERY = re.compile(r"\b(?:both|all|every|each)\b", re.IGNORECASE)


def _failed_items(claims: Sequence[_Claim], calls: Sequence[ToolCall], records: Sequence[_Record]) -> None:
    """A deed told done of an item whose own call failed, where the same call worked for
    another ("renew" answered 409 for one of two books): the clause names the failed item
    (its record's name for the id the call was given) or says the deed of every item."""
    given_ok = {str(v) for c in calls if not _failed(c) for v in c.args.values()}
    for at, call in enumerate(calls):
        verb = _deed_words(call)
        # A call that failed and was made again and worked is a retry (its arguments set
        # right), no item left undone: only a failure after the same call worked counts.
        if not _failed(call) or _READ_CALL.match(call.name.rpartition(".")[2]) or not any(
                not _failed(c) and c.name == call.name for c in calls[:at]) or any(
                not _failed(c) and c.name == call.name for c in calls[at + 1:]):
            continue
        ids = {str(v) for v in call.args.values()} - given_ok
        names = {v.lower() for r in records if any(v in ids for _, v in r.pairs) for _, v in r.pairs
                 if v not in ids and re.search(r"[A-Za-z]{3}", v) and not re.search(r"\d", v)}
        for claim in claims:
            for clause in _ADDED.split(claim.text) if not claim.found.get("offered") else ():
                deed = _DEED_DONE.search(clause)
                if deed is None or _DEED_ADMITTED.search(clause) or not (
                        word_stems(clause[: deed.end()]) & verb or _EVERY.search(clause)):
                    continue
                item = next((n for n in names if _said(n, clause.lower())), "")
                if item or (_EVERY.search(clause) and word_stems(deed.group(0)) & verb):
                    claim.found["offered"] = 1.0
                    claim.why.append(f'"{deed.group(0)}", but the {call.name} call for '
                                     f'{item or "one of them"} failed')
                    break


# A lookup's result reported as nothing ("No interaction was found", "the check found no
# open recalls", "there are no allergens listed"): the words after "no", then a reporting
# verb in the same clause, or the verb first.
_REPORTED = r"(?:found|listed|reported|recorded|returned|shown|showing|shows?|flagged|detected|identified)"
_NONE_FOUND = re.compile(rf"\b(?:no|zero)\s+(?P<a>(?:[a-z][\w-]*\s+){{0,3}}[a-z][\w-]*)"
                         rf"[^,;:.!?\u2014\u2013]*?\b{_REPORTED}\b|"
                         rf"\b{_REPORTED}\s+(?:no|zero)\s+(?P<b>(?:[a-z][\w-]*\s+){{0,3}}[a-z][\w-]*)\b",
                         re.IGNORECASE)
# A narrower thing than the lookup's ("no flights with seats left", "no rooms under $200"):
# what it returned may all be outside it.
_NARROWER = re.compile(r"\b(?:available|left|remaining|with|without|under|over|cheaper|before|after|"
                       r"that|which|within|\d)", re.IGNORECASE)


def _none_found(claims: Sequence[_Claim], calls: Sequence[ToolCall], outputs: Sequence[str]) -> None:
    """A claim that a lookup found none of a thing, where the lookup of it (the thing in its
    name, "check_interaction", or a key of its output, "allergens") returned one: a record
    beyond the arguments it was given, with no nil, zero or no among its values to read it by
    ("severity: major" is an interaction found)."""
    for claim in claims:
        m = _NONE_FOUND.search(claim.text)
        if m is None or _CONDITIONAL.search(claim.text[: m.start()]) or _NARROWER.search(m.group(0)):
            continue
        wanted = word_stems(m.group("a") or m.group("b"))
        for call, text in zip(calls, outputs, strict=True):
            pairs = [(k.lower(), v.strip()) for line in text.splitlines()
                     for part in _PAIR_SPLIT.split(line) if (mp := _PAIR.match(part)) for k, v in [mp.groups()]]
            given = {str(v).lower() for v in call.args.values()}
            values = [(k, v) for k, v in pairs if v.lower() not in given and not k.endswith("count")]
            if not call.success or not _READ_CALL.match(call.name) or not values or any(
                    _nothing(v, word_stems(k)) or v.lower() in _YES_NO or v == _NULL for k, v in values):
                continue
            named = wanted & word_stems(" ".join(_key_words(call.name)))
            keyed = [k for k, _ in values if wanted & word_stems(k)]
            if named or keyed:
                claim.found["negation"] = 1.0
                claim.logit += _CONTRADICTION
                claim.why.append(f'"{_short(m.group(0), 8)}" where {call.name} returned '
                                 f'"{_short("; ".join(": ".join(p) for p in values[:2]), 8)}"')
                break


_ROLE_COS, _ROLE_MARGIN = 0.5, 0.1  # a role's words this near another's key, this much nearer
_GIVES_ROLE = re.compile(r"by|is|are|was|were|be")


def _roles_by_meaning(claims: Sequence[_Claim], ev: _Evidence, embed: Embed) -> None:
    """A person a claim names in a role said in other words than the keys ("taught by Priya
    Raman" where she is the ``teaching assistant`` and another person the ``instructor``):
    the clause's words just before the name mean another person's key, by the embedder,
    clearly more than any of the person's own. The words ``_role_swap`` reads by their
    stems, here by meaning."""
    roles = {p: {k for k in keys if k} for p, keys in _person_keys(ev).items()}
    roles = {p: keys for p, keys in roles.items() if keys}
    if len(roles) < _PARTS:
        return
    leads: list[tuple[_Claim, str, str]] = []
    for claim in claims:
        for person in roles:
            at = claim.text.find(person)
            clause = re.split(r"[,;:()\u2014\u2013]", claim.text[: max(at, 0)])[-1]
            # Lower-case words only: a name or a title before it names, it casts no one.
            lower = [w for w in re.findall(r"[A-Za-z]+", clause) if w.islower()][-_ROLE_WINDOW:]
            # Only words that give the name a role: an agent's "by" ("taught by") or a verb
            # "to be" ("your coach is"); "booked with", "sent to" name a counterpart.
            words = " ".join(w for w in lower if w == "by" or w not in _FUNCTION_WORDS)
            if (at >= 0 and lower and _GIVES_ROLE.fullmatch(lower[-1]) and _role_stems(words)
                    and not claim.found.get("bound")):
                leads.append((claim, person, words))
    if not leads:
        return
    keys = sorted({k for ks in roles.values() for k in ks})
    vectors = embed([*keys, *(lead for _, _, lead in leads)])
    near = dict(zip(keys, vectors[: len(keys)], strict=True))
    for (claim, person, lead), vec in zip(leads, vectors[len(keys) :], strict=True):
        own = max(float(near[k] @ vec) for k in roles[person])
        other, key = max(((float(near[k] @ vec), k) for p, ks in roles.items() if p != person
                          for k in ks - roles[person]), default=(0.0, ""))
        if other >= _ROLE_COS and other - own >= _ROLE_MARGIN and not claim.found.get("bound"):
            claim.found["bound"] = 1.0
            claim.logit += _BOUND
            claim.why.append(f'{person} "{lead}", in the sense of the context\'s {key}, another person\'s role')


def hallucination_evidence(case: RunCase, embed: Embed,
                           read: tuple[list[str], list[_Claim], list[str]] | None = None) -> Evidence:
    """What HALLUCINATION weighs: per check, its strongest finding over the answer's
    asserted claims, the hand-weighted worst claim, and how much of the answer hedges.
    ``read`` is the case as ``_read`` gives it, when the caller has read it already."""
    texts, claims, pieces = read or _read(case)
    ev = Evidence()
    # A hedge or a refusal asserts nothing; a greeting or advice neither hedges nor asserts.
    # The share keeps the head's fitted reading (a norm's word hedges): a norm's figure is
    # checked as a claim (``_asserted``) but moves no run's share past what the head learnt.
    ev.flag("hedged_share", sum(is_hedged(p) or is_refusal(p) for p in pieces) / max(len(pieces), 1))
    if not claims or not texts:
        return ev
    # A yes-no question the user asks ("Is Volvo a Norwegian company?") states nothing: a
    # "yes" must find its words in the context. (A "no" may repeat them to deny them.)
    evidence = _Evidence(texts, case.input, _told(case.input) if _YES.match(pieces[0]) else None)
    evidence.reasons = [word_stems(line.replace("_", " ")) for r in case.reasons for line in r.splitlines()]
    evidence.called = frozenset(stem(w) for t in case.tools_called if t.success and t.output.strip()
                                for w in re.split(r"[\W_]+", t.name) if w)
    # A figure of a rule the answer applies ("not booked within the last 24 hours", "refunded
    # in 5 to 7 business days") is its instructions', not invented, though the rule is no
    # fact of the run: a value, never an operand of the answer's arithmetic.
    evidence.direct = sorted([*evidence.direct, *(q.value for r in case.reasons for q in quantities(r))])
    # Not from a tool's arguments (the last texts): {"gift_wrap": true} is asked, not told.
    # Nor from a record a later call on it returned anew: "total baggages: 0" before the
    # bags were added is no longer the booking's state.
    contexts = sum(bool(c.strip()) for c in case.context)
    evidence.documents = contexts
    returned = iter(texts[contexts:])
    outputs = [next(returned) if t.output.strip() else "" for t in case.tools_called]
    evidence.keyed = [s for text in texts[:contexts] for s in _keyed(_code_free(text))]
    evidence.keyed += _current_keyed(case.tools_called, outputs)
    # "total baggages: 0" says none of the thing only where one record gives the key: beside
    # other bookings' (several lookups), which one a claim means is not read here.
    given = Counter(m.group(1).lower() for text in texts for line in text.splitlines()
                    for part in _PAIR_SPLIT.split(line) if (m := _PAIR.match(part)))
    evidence.keyed = [s for s in evidence.keyed if s[3] or given[s[2].split(":")[0].lower()] == 1]
    evidence.records = _records(texts)
    # The arguments' texts come just before what the user told (``_read``).
    told = sum(bool(t.strip()) for t in case.told)
    asked = texts[len(texts) - told - sum(bool(t.args) for t in case.tools_called): len(texts) - told]
    evidence.written = frozenset(s for t in asked for s in split_claims(t)) - {
        s for t in texts if t not in asked for s in split_claims(t)}
    # Nor what the customer asked for later ("Refund W5490111 to the card I used for the
    # other order"): a request, no record that an answer refusing it denies.
    evidence.written |= {s for t in texts[len(texts) - told:] if told for s in split_claims(t) if _asks_action(s)}
    evidence.empty = [word_stems(" ".join([*_key_words(t.name), *map(str, t.args.values())]))
                      for t in case.tools_called if t.success and t.output.strip().lower() in _EMPTY]
    evidence.listed = _listed(texts)
    evidence.totals = _column_totals(evidence.records)
    evidence.groups = _group_totals(evidence.records)
    evidence.sentences = _ranked(evidence.sentences, (c.text for c in claims))
    evidence.add_operands(c.text for c in claims)
    evidence.shown = sorted([*evidence.shown, *_worked_earlier(case.steps, evidence.direct)])
    vectors = embed([head(t, _EMBED_WORDS) for t in [*(c.text for c in claims),
                                                     *evidence.sentences]])
    ev_vecs = vectors[len(claims) :] if evidence.sentences else None
    for row, claim in enumerate(claims):
        _score_claim(claim, evidence, vectors[row], ev_vecs)
    # A namespaced tool ("billing.get_invoice") is named by its last part.
    # A call whose output opens on an error failed, whatever its flag says (``_failed``).
    if case.tools_called and all(_READ_CALL.match(t.name.rpartition(".")[2]) or _failed(t)
                                 for t in case.tools_called):
        for claim in claims:
            done = _DONE.search(claim.text)
            if done:
                # Staged in the head like ``offered``: an action is no thing the context names.
                claim.found["offered"] = claim.found.get("offered", 0.0) + 1
                claim.why.append(f'"{done.group(0)}", but every call only read or failed')
    _failed_deeds(claims, case.tools_called)
    _failed_items(claims, case.tools_called, evidence.records)
    _unlisted_items(claims, evidence)
    _none_found(claims, case.tools_called, outputs)
    _roles_by_meaning(claims, evidence, embed)
    worst = max(claims, key=lambda c: c.logit)
    note = f'sentence {worst.index} "{_short(worst.text)}" — ' + "; ".join(worst.why)
    ev.flag("rule", min(max(worst.logit, -5.0), 10.0), note if worst.why else "")
    for name in _FINDINGS:
        strongest = max(claims, key=lambda c: c.found.get(name, 0.0))
        value = strongest.found.get(name, 0.0)
        ev.flag(name, value, f'sentence {strongest.index} "{_short(strongest.text)}" — '
                + "; ".join(strongest.why) if strongest.why else "")
    return ev


def answer_hallucination(case: RunCase, embed: Embed) -> Answer:
    """P(the final answer states as fact what its own context does not support)."""
    read = _read(case)
    texts, claims, pieces = read
    if not pieces:
        return verdict(_NO_CLAIMS, "the answer is empty: it states nothing")
    if not claims:
        said = answer_text(case.output)
        if not _foreign(said):
            return verdict(_NO_CLAIMS, "the answer states no fact: it hedges, refuses or advises")
        miscopy = _foreign_miscopy(said, texts)
        return verdict(_BASE + _NUMBER, f"the answer is in another language; its figure {miscopy}") \
            if miscopy else verdict(_NO_CLAIMS, "the answer is in another language: not read")
    if not texts:
        return verdict(0.0, "no context and no tool output to check the answer against")
    return head_answer("hallucination", hallucination_evidence(case, embed, read),
                       f"{len(claims)} claim(s), each supported by the context")
