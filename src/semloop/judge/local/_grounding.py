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

This module holds the claim loop (``_score_claim``, ``hallucination_evidence``), the
evidence read once per case (``_Evidence``) and the answer read into claims (``_read``).
Each check is in the module of its job: ``_figures.py`` (numbers), ``_times.py`` (dates,
clock times, zones), ``_names.py``, ``_records.py``, ``_contradictions.py`` (negation,
yes/no keys, statuses, causes), ``_offers.py`` and ``_short_answers.py``; ``_wording.py``
holds what they read alike.
"""

from __future__ import annotations

import calendar
import datetime
import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from typing import Any

from ...case import RunCase, ToolCall
from .._types import Answer
from ._answerer import Embed
from ._calendar import ascii_digits
from ._claims import _FUNCTION as _FUNCTION_WORDS
from ._claims import (
    _MONTHS,
    DateParts,
    Quantity,
    Valued,
    _dimension,
    _english_numbers,
    _plain,
    aligned_records,
    answer_text,
    clauses,
    clock_times,
    compound_lengths,
    continental,
    contradicts,
    date_supported,
    dates,
    delimited_records,
    derived_values,
    head,
    hour_range_times,
    is_generic_advice,
    is_hedged,
    is_refusal,
    key_terms,
    keyed_scales,
    keyed_units,
    labelled_values,
    number_supported,
    quantities,
    split_claims,
    spoken_hours,
    spoken_numbers,
    stem,
    table_records,
    timetable_times,
    tool_text,
    verdict,
    word_stems,
    xml_json,
    year_months,
)
from ._completion import _asks_action
from ._contradictions import (
    _SNAKE,
    _about_another,
    _excepted,
    _exempted,
    _joined_about_another,
    _key_conflict,
    _negation_agrees,
    _negation_restated,
    _other_cause,
    _overstated,
    _past_bound,
    _premise,
    _presence_conflict,
    _rest_counted,
    _state_conflict,
    _unset_dated,
    _unset_given,
    _unsupported_cause,
)
from ._figures import (
    _COUNT,
    _FRACTION,
    _OPERAND_STEPS,
    _PAIRED,
    _SHOWN,
    _date_words,
    _inexact,
    _lines_added,
    _misadded,
    _miscounted,
    _misworked,
    _near_digits,
    _number_findings,
    _rivals,
    _self_compared,
    _shown,
    _spaced_whole,
    _state_miscounted,
    _turned,
    _undotted,
    _ungrouped,
    _unstated_releases,
    _value_units,
    _worked_earlier,
    _worked_out,
)
from ._head import Evidence, head_answer
from ._names import (
    _CURRENCY_CODES,
    _NAME_RUN,
    _abbreviated,
    _acronym_found,
    _currency_named,
    _fold,
    _name_found,
    _named_with_found,
    _other_currency,
    _peoples,
    _renamed,
)
from ._offers import (
    _STEM_PREFIX,
    _excluded_items,
    _invented_items,
    _misfiled,
    _unsaid,
    _unsaid_exemption,
    _widened,
)
from ._records import (
    _NULL,
    _PAIR,
    _PAIR_SPLIT,
    _ROLE_WINDOW,
    _YES_NO,
    _column_swap,
    _column_totals,
    _crossed_pair,
    _crossed_records,
    _entries,
    _group_totals,
    _is_record,
    _key_words,
    _keyed,
    _line_crossed,
    _mixed_rows,
    _month_swap,
    _name_spans,
    _not_the_extreme,
    _nothing,
    _other_record,
    _parent_swap,
    _person_keys,
    _Record,
    _record_swap,
    _records,
    _role_held,
    _role_swap,
    _row_amounts,
    _row_swap,
    _said,
    _segments,
    _stated,
    _swapped,
    _tokens,
    _unpaired,
    _versions,
)
from ._short_answers import (
    _LINKS,
    _both_wrong,
    _comparison,
    _misbound,
    _miscast,
    _off_question,
    _span_end,
    _unanchored,
)
from ._task import _failed
from ._times import (
    _CLOCK_PLACE,
    _COMPOUND_DURATION,
    _DAY_MINUTES,
    _IANA,
    _MIN_SEC,
    _MONTH_NAMED,
    _PER_PERIOD,
    _PLACE_TIME,
    _SECOND_READINGS,
    _WEEKDAYS,
    _ZONE_NAME,
    _bare_year,
    _date_or_none,
    _known_zones,
    _log_durations,
    _offset_times,
    _periods,
    _reversed_change,
    _shifted,
    _today,
    _zone_unconverted,
    second_readings,
    zoned_minutes,
)
from ._tokenizer import vocab_words
from ._wording import (
    _ADDED,
    _CONDITIONAL,
    _PARTS,
    _YES,
    _role_stems,
    _short,
    _told,
    _yes_no_questions,
)

__all__ = ["answer_hallucination"]


# Log-odds of "this claim is not supported". Round values set from what each piece of
# evidence means; checked on calibration/hallucination.jsonl (see docs/local-judge.md).
_BASE = -2.5  # a claim with nothing against it
_NUMBER = 5.0  # a number or date no evidence supports: the claim is wrong or invented
_MORE_NUMBERS = 1.0  # each further one

_NAME = 1.75  # a name the evidence never mentions
_MAX_NAMES = 3.5
# A short answer (a few words, e.g. a bare name) none of whose names the evidence holds.
_SHORT_WORDS, _SHORT_ANSWER = 5, 5.0

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

_EVIDENCE_SENTENCES = 10  # evidence sentences embedded, the most word-sharing first
_EMBED_WORDS = 24  # words of each embedded; a claim's subject and its fact come early
_NO_CLAIMS = -2.5  # nothing asserted: hedges, refusals, advice only

_Segmented = tuple[list[bool], list[str], list[set[str]], list[set[str]], list[list[Quantity]],
                   list[frozenset[str]], list[bool]]

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

_KEY_NUMBER = re.compile(r"(?<=[A-Za-z]_)(\d{1,4})(?=_[A-Za-z])")
# "PX2_20240308_0701": a scene's, a file's or a batch's name that holds its date, year first.
_NAMED_DATE = re.compile(r"(?<=[A-Za-z\d][_-])((?:19|20)\d\d)(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?=[_-]|\.[a-z]|\b)")
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
    months: list[tuple[int | None, int | None, int | None]] = field(default_factory=list)
    found: list[Quantity] = field(default_factory=list)
    date_parts: list[Quantity] = field(default_factory=list)
    minutes: set[int] = field(default_factory=set)
    durations: list[float] = field(default_factory=list)
    periods: frozenset[str] = frozenset()
    shifted: list[DateParts] = field(default_factory=list)
    valued: list[Valued] = field(default_factory=list)
    keyed: list[tuple[frozenset[str], str, str, int]] = field(default_factory=list)  # see _keyed
    records: list[_Record] = field(default_factory=list)  # see _records
    # The records the run's own tool arguments give: each call's request, not a record
    # beside the one it returned.
    queries: frozenset[tuple[tuple[str, str], ...]] = frozenset()
    arguments: frozenset[str] = frozenset()  # the texts of those arguments
    totals: list[float] = field(default_factory=list)  # see _column_totals
    groups: list[tuple[frozenset[str], list[float]]] = field(default_factory=list)  # see _group_totals
    shown: list[float] = field(default_factory=list)  # see add_operands
    operands: list[Quantity] = field(default_factory=list)  # the answer's supported figures: see add_operands
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
            self.found.extend(compound_lengths(text))
            self.minutes.update(m for _, m in clock_times(text))
            self.minutes.update(timetable_times(text))
            self.minutes.update(hour_range_times(text))
            self.months.extend(year_months(text))
            self.date_readings.extend((int(y), int(m), int(d)) for y, m, d in _NAMED_DATE.findall(text))
            for _, readings in dates(text):
                self.date_readings.extend(readings)
                # "the 31st", "in 2026": a date's parts may be stated as plain numbers, but
                # are no operands of arithmetic (12 + 18 from 2026-12-18 is chance).
                parts = {p for r in readings for p in r if p is not None}
                self.date_parts.extend(Quantity(str(p), float(p), "", 1.0, False) for p in parts)
        self.minutes.update(spoken_hours(told))
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
        # An instant written in UTC ("2025-03-10T15:40:00Z") of a record in a zone the texts
        # name ("timezone": "America/Chicago") is told in its local time (10:40). After the
        # gaps: the zone's offset is no time between two of the records' times.
        self.minutes.update(zoned_minutes(self.texts, self.zones))
        # A duration the evidence states in parts ("cut-off 3 h 30 min") is its total too:
        # 210 minutes, 3.5 hours.
        totals = [60 * float(m.group("hv")) + float(m.group("mv"))
                  for text in [*self.texts, told] for m in _COMPOUND_DURATION.finditer(text)]
        totals += [float(m.group("mv")) + float(m.group("sv")) / 60
                   for text in [*self.texts, told] for m in _MIN_SEC.finditer(text)]
        # To the second where the evidence reads so: "acknowledged 13:06:40" of "created
        # 13:02:11" is four and a half minutes later, and a timer's "00:05:41" is 5 min 41 s.
        clocked = list(dict.fromkeys(r for text in [*self.texts, told] for r in second_readings(text)))
        clocked = clocked[:_SECOND_READINGS]
        totals += [r / 60 for r in clocked]
        # A measure in seconds ("duration_seconds: 2730") in minutes: 45 min 30 s.
        totals += [q.value / 60 for q in [*self.found, *keyed] if q.unit == "s"]
        totals += [((b - a) % (_DAY_MINUTES * 60)) / 60 for a in clocked for b in clocked if a != b]
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
    def clauses(self) -> list[str]:
        """Every clause of the evidence sentences as a statement (see ``_stated``): where
        the negation checks look for a claim's negation said in another sentence."""
        return [c for sentence in self.sentences for c in _statements(sentence)]

    @cached_property
    def means(self) -> list[float]:
        """Each column's mean over the records (see ``_column_totals``), worked out once."""
        return _column_totals(self.records, mean=True)

    @cached_property
    def rows(self) -> tuple[list[float], list[float]]:
        """The records' row amounts and their totals (see ``_row_amounts``), worked out once,
        where a number no other evidence supports asks for them."""
        return _row_amounts(self.records)

    @cached_property
    def shares(self) -> list[float]:
        """Each percentage the evidence gives, as a share of one (0.35% as 0.0035): the rates
        an answer may apply (see ``_rate_applied``), gathered once per case."""
        return [q.value / 100 for q in self.found if q.unit == "%"]

    @cached_property
    def offset_minutes(self) -> set[int]:
        """The clock times the evidence's own offsets move its times to (``_offset_times``),
        worked out once per case, not once per claim."""
        return _offset_times(self)

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
    def whole_dates(self) -> frozenset[datetime.date]:
        """The calendar dates the texts give whole, year, month and day."""
        return frozenset(g for y, m, d in self.date_readings if y and m and d and (g := _date_or_none(y, m, d)))

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
        numbers, its names and whether the run's own arguments give it. None when there
        are fewer than two."""
        if self._segmented is None:
            pairs = [p for t in self.texts for p in _segments(t)]
            segs = [g for g, _ in pairs]
            self._segmented = (
                [_is_record(line) for t in self.texts for line in t.splitlines() for _ in _segments(line)],
                segs, [_tokens(g) for g in segs], [_tokens(g) for _, g in pairs],
                [quantities(g) for g in segs], [key_terms(g) | _versions(g) for g in segs],
                [t in self.arguments for t in self.texts for _ in _segments(t)])
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
            # A column's total stated ("entered at 242.8 in all") is an operand too: 43.6 lost
            # since is that total less the current one.
            new = [q for q, rates in stated if q not in extra
                   and (number_supported(q, self.values) or number_supported(q, rates)
                        or number_supported(q, self.totals))]
            if not new:
                break
            extra += new
            total: dict[str, float] = {}
            for q in extra:
                total[q.unit] = total.get(q.unit, 0.0) + q.value
            # The answer's own supported numbers first, as operands of its next step.
            self.values = sorted(derived_values([*extra, *self.found]) + list(total.values())
                                 + _lines_added(said, extra) + [q.value for q in self.date_parts])
        self.operands = extra
        self.shown = sorted(_shown(said, self.values))


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
    unread: bool = False  # the answer's language is one the embedder does not read


_EMPTY = frozenset({"[]", "{}", "null", ""})


def _statements(sentence: str) -> list[str]:
    """A sentence's clauses as statements (see ``_stated``). A pair the record leaves unset
    ("egg masses: null") states nothing: neither the thing nor its lack."""
    return [_stated(c) for c in clauses(sentence)
            if not ((m := _PAIR.match(c.rstrip("."))) and m.group(2).lower() == _NULL)]

_HEADING = re.compile(r"^\W*(?:[A-Z][\w'&/-]*\s+){0,3}[A-Z][\w'&/-]*\s*:(?:\s|$)")


_ASKED_FOR = re.compile(r"\b(?:if you (?:can |could )?|please |(?:could|can|would) you )(?:give|send|share|provide|"
                        r"tell|forward)\s+(?:me|us)\s+([^.;!?\u2014\u2013]*)", re.IGNORECASE)
# What is only supposed ("If the quote came from the Q&A scrum, …") or advised ("I'd contact
# Residence Life", "you may want to ask Facilities"): its names say nothing of the records.
_SUPPOSED_OR_ADVISED = re.compile(r"\b(?:(?:if|unless|in case)\b([^,.;:!?\u2014\u2013]*)|(?:i(?:'d|\u2019d| would)|you(?:'d|\u2019d| would)|"
                                  r"you (?:may|might) want to|you (?:should|could)|(?:i|we) (?:recommend|suggest))\s+"
                                  r"([^.;!?\u2014\u2013]*))", re.IGNORECASE)


def _other_measure(claim: str, sentence: str) -> bool:
    """The sentence measures in another amount what the claim measures ("battery life: 20
    hours" against "the blue variant with 8 hours battery life"): another record's row,
    whose other values the claim does not speak of (the number checks weigh the amount). A
    rule's prose ("less than 24 hours' notice") is no row: the claim may restate it wrongly."""
    if not _is_record(sentence):
        return False
    said, given = quantities(claim), quantities(sentence)
    # "a 12-month contract at 49.90 EUR a month" against "term months: 24; monthly eur:
    # 39.9": a row that holds none of the claim's several numbers is another row.
    if len({q.value for q in said}) >= _PARTS and given and not {q.value for q in said} & {q.value for q in given}:
        return True
    mine = {(q.unit, q.value) for q in said if q.unit}
    theirs = {(q.unit, q.value) for q in given if q.unit}
    units = {u for u, _ in mine} & {u for u, _ in theirs}
    return any(not {v for x, v in mine if x == u} & {v for x, v in theirs if x == u} for u in units)


# What _score_claim takes for no name: an amount with its scale's letter ("$937K"), and a word
# an answer read out puts in capitals for stress ("NOT blocked").
_SCALED_AMOUNT = re.compile(r"\d+(?:\.\d+)?(?:k|m|bn|b)")
_GLUED_QUANTITY = re.compile(r"\d[\d.,]*[a-z\u00b5\u00b0]+")
_MARKED_AMOUNT = re.compile(r"[a-z]{1,2}(\d+(?:\.\d+)?)")
_STRESSED = frozenset("not never only all any every must now yet still already both cannot".split())  # noqa: SIM905


def _in_digits(figure: str) -> bool:
    return any(c.isdigit() for c in figure)


def _score_claim(claim: _Claim, ev: _Evidence, vec: Any, ev_vecs: Any) -> None:
    from ._comparison import (  # reads this module
        both_named,
        other_end,
        yes_no_compared,
        yes_no_tied,
    )
    missing, counts = _number_findings(_undotted(_ungrouped(claim.text, ev), ev), ev)
    if claim.unread:
        # In a language the embedder does not read, an English number word ("ten", Balinese
        # for "not") is that language's own word: only figures in digits are read.
        missing, counts = [t for t in missing if _in_digits(t)], [t for t in counts if _in_digits(t)]
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
    stated = sum(not claim.unread or _in_digits(q.text) for q in quantities(claim.text)) + len(
        dates(claim.text)) - len(releases)  # read as 5.11 too
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
    # what it lacks, no fact; nor does what it only supposes or advises. Each branch has its
    # own group, which may match empty ("…, if."): the one that took part.
    for m in (*_ASKED_FOR.finditer(claim.text), *_SUPPOSED_OR_ADVISED.finditer(claim.text)):
        terms -= set(key_terms(next(g for g in m.groups() if g is not None)))
    if claim.text.rstrip(" *").endswith(":"):
        # A line that introduces what follows ("Updated Itinerary - Both flights on May 27:",
        # "Return (Same Day!):") is a title, capitalised as one: its words name nothing.
        terms -= {w.lower() for w in re.findall(r"\b[A-Z][a-z][\w'-]*", claim.text)}
    # A currency's code ("currency: USD") is the unit of the amounts, checked with them; so
    # is a unit after a number ("8 GB", "1.53 MWh").
    terms -= _CURRENCY_CODES | {q.unit for q in quantities(claim.text)}
    # So is a number glued to its unit ("412kWh", "100kW"), and an amount to its scale's
    # letter ("$937K", "€4.2M"): each checked as the quantity, no code.
    terms = {t for t in terms if not _SCALED_AMOUNT.fullmatch(t)
             and not (_GLUED_QUANTITY.fullmatch(t) and any(q.unit for q in quantities(t)))}
    # So is a figure the records state under a mark glued before it ("K150" for a fee of 150).
    terms = {t for t in terms
             if not ((mark := _MARKED_AMOUNT.fullmatch(t)) and float(mark.group(1)) in ev.direct)}
    if claim.unread:
        # In a language the embedder does not read, a capitalised word that is no English word
        # is that language's own ("Jumatatu" for Monday), no name; a code with digits or in
        # capitals ("WIB") is one in any language.
        acronyms = {w.lower() for w in re.findall(r"\b[A-Z]{2,}\b", claim.text)}
        terms = {t for t in terms if _in_digits(t) or t in acronyms or t in vocab_words()}
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
    terms -= _date_words(claim.text, ev)
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
                                                         or _month_swap(claim.text, ev)
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
            theirs_parts = _statements(aligned)
            flipped = next((f for part in parts for theirs_part in theirs_parts
                            if (f := contradicts(part, theirs_part, need, own))
                            and not _negation_restated(part, parts, theirs_part)
                            and not _negation_agrees(part, f, theirs_part, theirs_parts, need)
                            # another sentence of the context says it as the claim does ("You
                            # do not need your card to vote" beside "Replacement card: free")
                            and not _negation_agrees(part, f, theirs_part, ev.clauses, need)
                            # a clause that names one record speaks of it, not the other's
                            and not _other_record(part, aligned, ev)
                            and not _premise(f, ev.given)
                            and not _rest_counted(part, f)
                            and not _exempted(part, f, ev.sentences)
                            and not _excepted(f, aligned, own)
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


_BOUND = 5.0  # a value the context gives for another record or attribute than the claim's

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


def _foreign_miscopy(said: str, texts: Sequence[str], asked: str) -> str:
    """A number of an answer in another language that copies an evidence value of its unit
    one digit slip away ("Yıllık faiz: %28" for "annual_rate_pct: 38"), worked out from no
    evidence values: its words are not read, its figures are the evidence's or wrong. Years
    are left out ("2027" beside "2026" is the next one, not a slip), and so are numbers in
    words, which may be words of the answer's language. The request's numbers (``asked``)
    are operands too: "3 hours at 15 000" is 45 000."""
    given = [q for t in texts for q in quantities(t)]
    derived = derived_values(given + quantities(asked))
    # "2 800 FC", "420 000 FC": the languages that part thousands by a space write numbers
    # so; its parts are numbers only where the evidence gives each.
    said = _spaced_whole(said, {q.value for q in given}, every=True)
    # "21 Gicurasi 2024": the day of an evidence date, in a month's name the rules do not know.
    days = {float(d) for t in texts for _, readings in dates(t) for _, _, d in readings if d is not None}

    def whole(q: Quantity) -> bool:
        return (q.value == int(q.value) and q.value >= 10 and not 1900 <= q.value <= 2100
                and any(c.isdigit() for c in q.text))

    for q in quantities(_english_numbers(said, continental(said))):
        if not whole(q) or number_supported(q, derived) or q.value in days:
            continue
        near = next((g for g in given if whole(g) and g.unit == q.unit
                     and _near_digits(str(int(q.value)), str(int(g.value)))), None)
        if near is not None:
            return f'"{q.text}" where the context gives {near.text}'
    return ""


def _foreign_misdate(said: str, texts: Sequence[str]) -> str:
    """A date of an answer in another language, read in its own words ("30 noiembrie
    2025"), that gives an evidence date's year and day in another month: a copied date
    whose month slipped. A date the evidence gives is the evidence's; one in another day
    may be worked out ("48 horas antes": 12 from 14 September), which the answer's words,
    not read, would tell."""
    given = [(y, m, d) for t in texts for _, readings in dates(t) for y, m, d in readings
             if y is not None and m is not None and d is not None]
    for text, readings in dates(said):
        if date_supported(readings, given):
            continue
        slipped = next((g for g in given for y, m, d in readings
                        if y == g[0] and d == g[2] and m is not None and m != g[1]), None)
        if slipped is not None:
            return f'"{text}" where the context gives {datetime.date(*slipped).isoformat()}'
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


_CLAUSE_OPENER = re.compile(r"^\W*(?:which|who|that|so|but|because|since|while|although|though|if|when|where|"
                            r"whereas|yet)\b", re.IGNORECASE)


def _items_listed(text: str, listed: Sequence[frozenset[str]]) -> tuple[int, list[frozenset[str]]]:
    """How many of the text's items restate an item of the context's lists (most of the
    item's words are the listed item's), and the stems of the items that restate none."""
    restated, others = 0, []
    for at, piece in enumerate(_LIST_ITEM.split(text)):
        # A list in brackets ("12 credits (HIST 2110, POLS 1101)") lists what they hold, and a
        # clause ("which is exactly the minimum", "so taking both would cover it") is prose
        # about the list, no item of it.
        item = piece.rsplit("(", 1)[-1].split(")", 1)[0]
        if _CLAUSE_OPENER.match(item):
            continue
        # "Wed 9 Dec": a date's names are the date checks', no word of an item.
        stems = word_stems(item) - _CALENDAR_STEMS
        if not stems:
            continue
        # The first item carries the sentence's lead-in ("At the inspection on 22 April they
        # found three slipped slates"): it restates a listed item that is mostly in it.
        if any(2 * len(stems & listed_item) >= (min(len(stems), len(listed_item)) if at == 0 else len(stems))
               for listed_item in listed):
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


def _ascii_case(case: RunCase) -> RunCase:
    """The case with every script's digits as ASCII ones (``ascii_digits``), in the answer
    and the evidence alike: "৯টা ১২ মিনিটে" states the 9 and 12 of "09:12", "٢٥٠ درهم" the
    context's 250."""
    texts = [case.output, *case.context, *case.told, *(t.output for t in case.tools_called)]
    if all(t.isascii() for t in texts):
        return case
    return replace(case, output=ascii_digits(case.output), context=tuple(ascii_digits(c) for c in case.context),
                   told=tuple(ascii_digits(t) for t in case.told),
                   tools_called=tuple(replace(t, output=ascii_digits(t.output)) for t in case.tools_called))


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
    from ._conversation import _unread  # reads this module
    unread = _unread(said)
    claims = [] if _foreign(said) else [
        _Claim(i + 1, _unaddressed(p), alone=len(pieces) == 1, affirms=affirms if i == 0 else frozenset(),
               unread=unread)
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
    case = _ascii_case(case)
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
    evidence.queries = frozenset(r.pairs for r in _records(asked))
    evidence.arguments = frozenset(asked)
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
    case = _ascii_case(case)
    read = _read(case)
    texts, claims, pieces = read
    if not pieces:
        return verdict(_NO_CLAIMS, "the answer is empty: it states nothing")
    if not claims:
        said = answer_text(case.output)
        if not _foreign(said):
            return verdict(_NO_CLAIMS, "the answer states no fact: it hedges, refuses or advises")
        miscopy = _foreign_miscopy(said, texts, case.input) or _foreign_misdate(said, texts)
        return verdict(_BASE + _NUMBER, f"the answer is in another language; its figure {miscopy}") \
            if miscopy else verdict(_NO_CLAIMS, "the answer is in another language: not read")
    if not texts:
        return verdict(0.0, "no context and no tool output to check the answer against")
    return head_answer("hallucination", hallucination_evidence(case, embed, read),
                       f"{len(claims)} claim(s), each supported by the context")
