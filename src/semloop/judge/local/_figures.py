"""HALLUCINATION's numbers: a figure the evidence supports as given, converted or worked
out (sums, rates, counts, shares), and the ways a figure goes wrong.
"""

from __future__ import annotations

import ast
import contextlib
import itertools
import math
import operator
import re
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from ._claims import (
    _APPROX,
    _CONVERSIONS,
    Quantity,
    _dimension,
    _words,
    clock_times,
    converted,
    date_supported,
    dates,
    derived_values,
    key_terms,
    keyed_units,
    labelled_values,
    number_supported,
    quantities,
    stem,
    unit_slip,
    word_stems,
    worded_clock_times,
)
from ._claims import _FUNCTION as _FUNCTION_WORDS
from ._records import (
    _PAIR,
    _PAIR_SPLIT,
    _REPLACED,
    _holds,
    _named_records,
    _named_state,
    _Record,
    _said,
    _state_lists,
    _text_records,
)
from ._times import (
    _COMPOUND_DURATION,
    _COUNTED_BACK,
    _DAY_MINUTES,
    _MASKED,
    _MERIDIEM,
    _MIN_SEC,
    _NEXT_CYCLE,
    _NOON,
    _ONE_DAY,
    _PERIOD_WORDS,
    _TERM,
    _TIME_ZONE,
    _UNTIL,
    _UTC_OFFSET,
    _ZONE_GAP,
    _age_from_year,
    _clock_worked,
    _days_between,
    _home_zone,
    _in_seconds,
    _offset_minutes,
    _periods,
    _searched_empty,
    _seconds_apart,
    _shifted,
    _span_ends,
    _wrong_days,
    _wrong_weekday,
    _year_edge,
    _zone_gap,
    _zone_offset,
    _zone_offsets,
)
from ._wording import _ADDED, _ITEM_WORDS, _NEGATOR, _PARTS, _short

if TYPE_CHECKING:
    from ._grounding import _Evidence


_SMALL_COUNT, _COUNT = 3, 1.5  # a bare count up to 3 that no evidence holds: weak evidence

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
    r"\bleav(?:es|ing)\s+(?:(?:you|us|it)\s+(?:with\s+)?)?(?:about\s+|roughly\s+|just\s+)?[$€£¥]?\d|"  # "that leaves 47.4 t"
    r"\bbalance\s+(?:of\s+|due\s+|is\s+|:\s*)?[$€£¥]?\d|"  # "Balance of £3,160.80 due": what the deposit leaves
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


# "£1,134.50 in deductions (income tax £640.20, pension £494.30)": a total the answer
# itemises in brackets just after it. "£4,200.00 gross minus £1,134.50": a step it spells out.
_ITEMISED = re.compile(r"^[^\d()]{0,30}\(([^()]*)\)")
_STEP = re.compile(r"^\s*(?:[a-z]+\s+){0,2}(minus|less|plus|[-\u2212+])\s+(?:the\s+|your\s+|a\s+)?$",
                   re.IGNORECASE)
_BRACKETED = re.compile(r"\([^()]*\)")


def _shown(claims: Sequence[str], values: Sequence[float]) -> list[float]:
    """The results whose working the answer shows, from operands the evidence supports (in
    ``values``): the sum of the parts it itemises, one number plus or minus the next; and
    the result of a working it writes out ("200 × 1,500 = 300,000", see ``_equated``). A
    result stated apart from its working ("Your take-home is £3,065.50. That's £4,200 minus
    …") is then supported wherever the answer states it."""
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
            if _equated(q, claim):
                out.append(q.value)
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


def _lines_added(claims: Sequence[str], known: Sequence[Quantity]) -> list[float]:
    """"Research: 5 × $65 = $325.00", "Rush surcharge: $81.25", "Certificates: $36.00",
    "Total: $442.25": the sums of the results (each line's last figure, one of ``known``, in
    one unit) of the lines just before a line that totals (a word of it: every line's colon
    is no total)."""
    results = [q[-1] if (q := quantities(c)) and q[-1] in known else None for c in claims]
    out: list[float] = []
    for i, claim in enumerate(claims):
        if all(m.group(0).startswith(":") for m in _TOTAL_WORDS.finditer(claim)):
            continue
        run: list[Quantity] = []
        for r in reversed(results[:i]):
            if r is None or run and r.unit != run[0].unit:
                break
            run.append(r)
            if len(run) > 1:
                out.append(sum(x.value for x in run))
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


_SCALES = (1e3, 1e6, 1e9)

_OPERAND_STEPS = 2
# "score: 0-3", "ref: 0.27-4.20": two small numbers or two decimals joined by a hyphen, a pair
# or a range that states both (the day/month/year reading takes "27-4.20" for a date).
_PAIRED = re.compile(r"(?<![\w.,:/\-\u2013])(\d{1,3}(?:\.\d+)?)\s?[-\u2013]\s?(\d{1,3}(?:\.\d+)?)(?![\w.,:/\-\u2013]*\d)")
_FRACTION = re.compile(r"(?<![\w/.,])(\d{1,3}(?:,\d{3})+|\d+)\s?/\s?(\d{1,3}(?:,\d{3})+|\d+)(?![\w/.])")

_SHOWN = re.compile(r"[×*÷=]|\d\s?x\s?\d")  # working shown: "$49 × 12 = $588"


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
_HOUR_DASH = re.compile(r"(?<![\w.,:/\-\u2013])(\d{1,2})\s?[-\u2013]\s?(\d{1,2})(?![\w:/%\-\u2013]|[.,]\d)")
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
    # "about 210 orders" of 212: the value rounded to the figure's own place, said so.
    rounded = q.approx and q.place > 1
    # "the remaining 1,300,000 calls" past "included calls: 1,000,000": a rest the claim
    # works out, where the context's slot is no rest, is no copy of that slot.
    rest = labels & _REST_STEMS
    return any(theirs.quantity is not None and theirs.labels & labels and (theirs.labels & rest or not rest)
               and theirs.quantity.value == int(theirs.quantity.value)
               and theirs.quantity.unit == q.unit
               and not (rounded and round(theirs.quantity.value / q.place) * q.place == q.value)
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


# A claim's labels of what remains, as stems (see ``_miscopied``).
_REST_STEMS = word_stems("remain remains remaining left outstanding unpaid rest balance leaves leaving")


def _wrong_rest(q: Quantity, stated: Sequence[Quantity], claim: str, ev: _Evidence) -> bool:
    """A percentage a claim gives as the rest of another it gives (a word of what remains
    follows that other) that is not 100 minus it, nor a value the evidence states: the rest
    of a whole is worked out one way only, whatever chance sums of other numbers match it."""
    others = [p for p in stated if p.unit == "%" and p is not q and p.value != q.value]
    return (q.unit == "%" and bool(others) and not number_supported(q, ev.direct)
            and any(claim.find(p.text) < claim.find(q.text) for p in others)
            and _REST.search(claim) is not None
            and not number_supported(q, sorted(100 - p.value for p in others)))


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


def _turned(claim: str, ev: _Evidence) -> str:
    """The claim's change told as a rise that the context gives as a fall (``_against_sign``)."""
    q = next((q for q in quantities(claim) if _against_sign(q, claim, ev)), None)
    return f"{q.text} told as a rise, where the context's change is a fall" if q else ""


# "Average ammonia across the three tanks is about 0.58 ppm": a column's mean, where said so.
_MEAN = re.compile(r"\b(?:average|mean|on avg|avg|per)\b", re.IGNORECASE)
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


def _rate_applied(q: Quantity, given: Sequence[Quantity], ev: _Evidence) -> bool:
    """"On US$20,000 the premium is US$70" at the 0.35% a year the rules give: a percentage
    of the evidence applied to an amount the claim states from the evidence, or to one the
    answer worked out before ("Research: 5 × $65 = $325.00 … Rush surcharge (25%): $81.25";
    not the request's own amount, which each line's own rate is applied to). Only that way round:
    a percentage the claim states may be the wrong row's ("employer 2%" where 2% is the
    employee's), which its product with the right amount would hide."""
    if q.unit == "%":
        return False
    worked = [o for o in ev.operands if not number_supported(o, ev.direct)]
    return number_supported(q, sorted(c.value * r for c in [*given, *worked] if c is not q and c.unit != "%"
                                      and (c.unit == q.unit or not c.unit or not q.unit) for r in ev.shares))


def _counted_price(q: Quantity, given: Sequence[Quantity], ev: _Evidence) -> bool:
    """"once you reach 500 points you get ₦5,000 off" where a point is worth ₦10: an amount
    that is a count the claim states from the evidence, whole and bare, times a price the
    evidence gives in the amount's own currency."""
    if _dimension(q.unit) != "money":
        return False
    prices = [x.value for x in ev.found if x.unit == q.unit and x.value > 0]
    counts = [c.value for c in given if not c.unit and c.value == int(c.value) and c.value > 1]
    return number_supported(q, sorted(n * p for n in counts for p in prices))


_PER_UNIT = re.compile(r"\bper\s+(\w+)$")


def _unit_priced(q: Quantity, given: Sequence[Quantity], ev: _Evidence) -> bool:
    """"20 kg … R1 790.00" of "price zar per kg: 89.5": an amount that is a measure the claim
    states from the evidence, at the evidence's price per that measure's unit."""
    if q.unit and _dimension(q.unit) != "money":
        return False
    prices = [(said[0].unit, x[0].value) for r in ev.records for k, v in r.pairs
              if (m := _PER_UNIT.search(k)) and (said := quantities(f"1 {m.group(1)}")) and said[0].unit
              and len(x := quantities(v)) == 1]
    return number_supported(q, sorted(c.value * p for c in given for unit, p in prices if c.unit == unit))


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


# "1/8\" bleed", "a 3/16-inch drill": a fraction of an inch, as trades write it.
_INCH_FRACTION = re.compile(r"(?<![\w/.])(\d{1,2})/(\d{1,2})\s?(?:\"|\u2033|-?inch(?:es)?\b|in\b)")


_MM_PER_INCH = 25.4


def _inch_fractions(claim: str, ev: _Evidence) -> list[Quantity]:
    """The claim's fractions of an inch (see ``_INCH_FRACTION``) that the evidence gives,
    as a decimal ("bleed in: 0.125" for 1/8") or written so, in inches and in millimetres,
    as trades restate them ("about 3 mm"): the same fact."""
    out: list[Quantity] = []
    for m in _INCH_FRACTION.finditer(claim):
        a, b = int(m.group(1)), int(m.group(2))
        q = Quantity(m.group(0), a / b, "in", 0.001, False) if b else None
        if q and (number_supported(q, ev.direct) or f"{a}/{b}" in ev.lower):
            out += [q, replace(q, value=q.value * _MM_PER_INCH, unit="mm")]
    return out


def _from_worked(q: Quantity, given: Sequence[Quantity], worked: Sequence[Quantity]) -> bool:
    """``q`` is the sum or the difference of a figure the answer worked out (``worked``: its
    shares and its written-out results) and another of the claim's supported or worked
    figures, none of them ``q`` itself."""
    return number_supported(q, sorted(v for w in worked if w.value != q.value for a in [*given, *worked]
                                      if a is not w and a.value != q.value
                                      for v in (a.value + w.value, abs(a.value - w.value))))


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
        changes = _reading_changes(part, ev)
        out |= {q.text for q in quantities(part) if number_supported(q, changes)}
        named = _named_records(part, ev)
        if len(named) != 1:
            continue
        mine = [x for _, value in named[0].pairs for x in quantities(value)]
        keyed = {w for k, _ in named[0].pairs for w in word_stems(k)} & word_stems(part)
        if len(mine) > 1 and not keyed:
            worked = derived_values(mine)
            out |= {q.text for q in quantities(part) if number_supported(q, worked)}
    return out


def _reading_changes(part: str, ev: _Evidence) -> list[float]:
    """"R-102 lost 11.5 PG" of "entry barrel: R-102; entry pg: 60.8" and "current barrel:
    R-102; current pg: 49.3": one thing read twice, in two lists whose keys the first word
    parts (entry, current), named in the clause by the value that identifies it there. The
    change of each of its measures between the two readings is worked out, not copied."""
    lower = part.lower()
    readings: dict[tuple[str, str], dict[str, dict[str, float]]] = {}
    for r in ev.records:
        split = [(*k.split(" ", 1), v) for k, v in r.pairs if " " in k]
        ids = [(rest, v.lower()) for _, rest, v in split if re.search(r"[^\W\d_]", v) and _said(v.lower(), lower)]
        if len(split) != len(r.pairs) or len({first for first, _, _ in split}) != 1 or len(ids) != 1:
            continue
        measures = {rest: q[0].value for _, rest, v in split if len(q := quantities(v)) == 1 and q[0].text == v.strip()}
        readings.setdefault(ids[0], {})[split[0][0]] = measures
    return sorted(abs(a[m] - b[m]) for read in readings.values() for a, b in itertools.combinations(read.values(), 2)
                  for m in a.keys() & b.keys())


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


def _unit_defined(stated: Sequence[Quantity]) -> set[str]:
    """"(1 cu ft ≈ 0.0283 m³)": one of a unit and its value in another unit, both stated:
    the factor of a conversion, no fact of the run."""
    return {t for one in stated if one.value == 1 and one.unit for other in stated
            if other.unit not in ("", one.unit) and number_supported(other, sorted(converted(one)))
            for t in (one.text, other.text)}


# "110 kW, which is about 82 hp", "2.3 MW (2,300 kW)": the same amount restated in a unit
# directly linked to the first.
_RESTATING = re.compile(r"^\s*(?:\(|,?\s*(?:which is|which comes to|that is|that's|i\.e\.|or|=|≈)\s*"
                        r"(?:about|around|roughly|approximately|approx\.?|~|≈)?\s*)$", re.IGNORECASE)


def _misconverted(claim: str, given: Sequence[Quantity]) -> list[str]:
    """A supported amount the claim restates at once in another unit of a direct conversion,
    as a number no conversion of it gives ("110 kW, which is about 82 hp": 147.5 hp): the
    conversion worked out wrong, whatever number of the context it matches by chance."""
    stated = quantities(claim)
    out: list[str] = []
    for a, b in itertools.pairwise(stated):
        at, bt = claim.find(a.text), claim.find(b.text)
        if (a in given and a.unit and b.unit and a.unit != b.unit and 0 <= at < bt
                and ((a.unit, b.unit) in _CONVERSIONS or (b.unit, a.unit) in _CONVERSIONS or {a.unit, b.unit} == {"c", "f"})
                and _RESTATING.match(claim[at + len(a.text):bt])
                # Either side may be the rounded one: "about 5 minutes (312 s)".
                and not number_supported(b, sorted(converted(a))) and not number_supported(a, sorted(converted(b)))):
            out.append(b.text)
    return out


_ROW_TOTAL = re.compile(r"\b(?:totall?ed|totall?ing|across|combined|together)\b", re.IGNORECASE)


def _row_worked(q: Quantity, claim: str, ev: _Evidence) -> bool:
    """An amount of one of the context's rows (its price times its count), or their total
    where the claim says it totals (see ``_row_amounts``); in money, or bare."""
    if q.unit and _dimension(q.unit) != "money":
        return False
    amounts, totals = ev.rows
    return number_supported(q, amounts) or (
        bool(_TOTAL_WORDS.search(claim) or _ROW_TOTAL.search(claim)) and number_supported(q, totals))


# "invoiced as weekly × 52 ÷ 12, so £4,979.52 a month": a rule's working written on a named
# amount, its numbers and operators after the name.
_NAMED_WORKING = re.compile(r"[^\W\d_]\s*((?:[×x*÷/]\s*\d[\d,]*(?:\.\d+)?\s*){1,3})(?![\d.,]*\d)")


def _named_working(q: Quantity, claim: str, ev: _Evidence) -> bool:
    """``q``, stated after such a working, is the working applied to an amount the evidence
    or the answer's own supported figures give (``ev.values``)."""
    at = _stated_at(claim, q)
    for m in _NAMED_WORKING.finditer(claim):
        if at < m.end():
            continue
        factor = 1.0
        for op, n in re.findall(r"([×x*÷/])\s*(\d[\d,]*(?:\.\d+)?)", m.group(1)):
            value = float(n.replace(",", ""))
            if value == 0:
                break
            factor = factor * value if op in "×x*" else factor / value
        else:
            if factor != 1.0 and number_supported(q, sorted(v * factor for v in ev.values if v > 0)):
                return True
    return False


# A period's length in a smaller unit, stated beside the period ("$83,200 a year over 52
# weeks"): the calendar's, no fact of the records. (unit, value): the period's word.
_CALENDAR = {("week", 52.0): "year", ("month", 12.0): "year", ("day", 365.0): "year",
             ("day", 7.0): "week", ("h", 24.0): "day"}
_PERIOD_NAMED = {"year": re.compile(r"\b(?:years?|yearly|annual(?:ly)?|per annum|a year)\b", re.IGNORECASE),
                 "week": re.compile(r"\b(?:weeks?|weekly)\b", re.IGNORECASE),
                 "day": re.compile(r"\b(?:days?|daily)\b", re.IGNORECASE)}


def _calendar_lengths(claim: str, stated: Sequence[Quantity]) -> tuple[list[Quantity], list[float]]:
    """The claim's figures that are such a length, its period named too, and another figure
    of the claim carried over it ("about $1,600 a week, roughly $83,200 a year over 52
    weeks"), each length only where some figure of the claim is so carried: alone, "24
    hours" or "12 months" is a term the records set, no calendar fact."""
    lengths, carried = [], []
    for k in stated:
        period = _CALENDAR.get((k.unit, k.value))
        if not period or not _PERIOD_NAMED[period].search(claim.replace(k.text, " ")):
            continue
        over = sorted(a.value * k.value for a in stated if a is not k and a.unit not in ("", k.unit))
        if any(number_supported(q, over) for q in stated if q is not k):
            lengths.append(k)
            carried += over
    return lengths, sorted(carried)


_NEXT = re.compile(r"\b(?:next|reach|reaching|following|move up|level up)\b", re.IGNORECASE)


def _next_step(q: Quantity, claim: str, ev: _Evidence) -> bool:
    """"You need 1,250 XP to reach tier 35" of "current tier: 34": the step after the one a
    record gives under the same label, where the claim or the request speaks of the next."""
    if q.unit or q.value != int(q.value) or not _NEXT.search(f"{claim} {ev.given}"):
        return False
    labels = frozenset().union(*(v.labels for v in labelled_values(claim) if v.text == q.text))
    return any(v.quantity is not None and v.quantity.value == q.value - 1 and v.labels & labels
               for v in ev.valued)


_UNREAD_SHARE = 8  # at most one word in this many of English's function words ("me" is Fijian too)
_UNREAD_WORDS = 4


def _unread(claim: str) -> bool:
    """A claim of a few words, next to none English words of function: in a language whose
    words for the hour, the weekday or the month the rules do not know."""
    words = re.findall(r"[^\W\d_][\w']*", claim.lower())
    return len(words) >= _UNREAD_WORDS and _UNREAD_SHARE * sum(w in _FUNCTION_WORDS for w in words) <= len(words)


# "Lotulevu, 16 Okotova": a day's number with the words around it, a weekday before it.
_DAY_WORDS = re.compile(r"(?:\b([^\W\d_]+),?\s+)?\b(\d{1,2})\.?\s+([^\W\d_]+)")


def _date_words(claim: str, ev: _Evidence) -> set[str]:
    """In a claim the rules do not read, the month's name after the day of a date the
    evidence gives ("16 Okotova" of 2025-10-16) and the weekday's just before it: the date's
    words in the claim's language, no names the context lacks."""
    if not _unread(claim):
        return set()
    days = {d for y, m, d in ev.date_readings if y and m and d}
    return {w.lower() for m in _DAY_WORDS.finditer(claim) if int(m.group(2)) in days
            for w in m.group(1, 3) if w}


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
    # "Bensin ten ngranjing": in a language the rules do not read (the request's, the claim
    # without a word of English's) an English number's word is a word of that language ("ten"
    # is Balinese for "not"); only digits are figures there.
    if _unread(ev.given) and not set(_words(claim)) & _FUNCTION_WORDS:
        stated = [q for q in stated if any(c.isdigit() for c in q.text)]
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
    # "between 2 and 6 pm", "from 8 to 12" for a slot of 14:00-18:00: the hours, said plainly;
    # so is "weekdays 8–6" of 08:00–18:00, a dash between two such hours.
    hours = {h for m in ev.minutes for h in (m // 60, (m // 60 - 1) % 12 + 1)}
    in_range = {n for m in _HOUR_RANGE.finditer(claim) for n in m.groups()} | {
        n for m in _HOUR_DASH.finditer(claim) if {int(h) for h in m.groups()} <= hours for n in m.groups()}
    # "namel long 8 kilok moning", "na 7 ena mataka" of 08:00, 7:00am: in a claim the rules
    # do not read, its word for o'clock unknown, a bare hour of a time on the hour.
    unread_hours = {h for m in ev.minutes if m % 60 == 0 for h in (m // 60, (m // 60 - 1) % 12 + 1)
                    } if _unread(claim) else set()
    labels = {v.text: v.labels for v in labelled_values(claim) if v.quantity is not None}
    # "about 5 minutes (312 s)": a number the claim also gives in another unit, from the
    # evidence, is the same fact restated.
    restated = sorted(v for c in [*(c for c in stated if number_supported(c, ev.direct)),
                                  *_inch_fractions(claim, ev)] for v in converted(c))
    # "780/kg, sold in 50 kg bags (39,000 a bag)": a result of two numbers the claim itself
    # states from the evidence is its own working, whatever its wording.
    worked_here = _record_worked(claim, ev) | _unit_defined(stated)
    given = [c for c in stated if number_supported(c, ev.direct) or c.text in worked_here]
    # A product of the count and another figure the claim states, exact ("Rp 350,000 … 4 days
    # … Rp 1,400,000"), no percentage: no slip of a value one digit away (see _miscopied). Of
    # a figure the claim does not state, or near by rounding, it may be one.
    products = {id(q) for q, c in worked if q.unit != "%" and any(
        b is not q and b is not c and math.isclose(q.value, c.value * b.value) for b in given)}

    # "The three jobs need 12 sheets in total" where the request says each needs 4: worked
    # out from the request's own numbers.
    asked = quantities(ev.given) if arithmetic else []
    requested = derived_values(asked) if len(asked) > 1 else []

    def own_form(q: Quantity) -> bool:
        """The claim's own working or layout, which no slip of a copied digit explains."""
        return (q.text in worked_here or _equated(q, claim) or _run_total(q, stated, given) or _counts_its_list(q, claim)
                or _counts_named_after(q, claim) or _bound_between(q, claim, ev)
                or number_supported(q, requested))
    # "$96.00 now; two more at $29 brings it to $154.00": a count the claim states times an
    # amount it gives, added to or taken from another amount it gives in that unit.
    added = [a.value + sign * c.value * b.value for c in stated if _multiplier(c) for b in given
             if b.unit and b is not c for a in given if a.unit == b.unit and a is not b for sign in (1, -1)]
    own = sorted(derived_values(given) + added) if len(given) > 1 else []
    # "10% on the first $500 ($50)": a share the claim takes of an amount it states is worked
    # out, though a tenth of the amount is one digit from it (see _miscopied).
    shares = sorted(x.value * p.value / 100 for p in given if p.unit == "%" for x in given if x.unit != "%")
    # "… 60% of it, 318,000; the rest 212,000", "… = MK 300,000. Delivery MK 15,000, MK 315,000
    # in all": a share the claim works out, or a result whose working the answer shows
    # (``ev.shown``), is an operand of the claim's next step, its words read or not (in another
    # language they say nothing of arithmetic).
    worked_by_answer = [q for q in stated if number_supported(q, shares)] + [
        Quantity(f"{v:g}", v, "", 1.0, False) for v in ev.shown]
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
    calendar, over = _calendar_lengths(claim, stated)
    for q in stated:
        # A rate applied is worked out, though its result may be one digit from a value.
        applied = _rate_applied(q, given, ev)
        # So is a step on from the answer's own working.
        stepped_on = _from_worked(q, given, worked_by_answer)
        supported = (q.text in tails or number_supported(q, ev.direct) or number_supported(q, rates)
                     or number_supported(q, ev.totals) or number_supported(q, ev.shown)
                     or number_supported(q, sorted(t for names, ts in ev.groups if names <= claim_stems for t in ts))
                     or (arithmetic and number_supported(q, ev.values))
                     or (q.unit in ("min", "h") and number_supported(q, ev.durations))
                     or _in_seconds(q, arithmetic, ev) or _seconds_apart(q, ev)
                     or (q.text in in_range and q.value in hours)
                     or (not q.unit and q.value in unread_hours)
                     or id(q) in times or number_supported(q, restated)
                     or number_supported(q, own) or number_supported(q, ev.ages)
                     or stepped_on or (_COMMA_GROUPED.search(q.text) is not None
                                       and number_supported(q, _dot_wholes(ev.texts)))
                     or _age_from_year(q, claim, stated, ev)
                     or _year_edge(q, claim, ev) or _signed_size(q, ev)
                     or _code_number(q, claim, ev) or _at_rate(q, given, claim, ev) or _priced(q, claim, ev)
                     or _counted_price(q, given, ev) or _unit_priced(q, given, ev) or applied
                     or _zone_offset(q, claim, ev) or (q.unit == "h" and _zone_gap(claim, claim, ev))
                     or own_form(q) or _days_between(q, claim, ev)
                     or (bool(_MEAN.search(claim)) and number_supported(q, ev.means))
                     or _row_worked(q, claim, ev) or _named_working(q, claim, ev)
                     or any(q is k for k in calendar) or number_supported(q, over))
        # The next step is one from the record's value by design, no digit slipped.
        stepped = not supported and _next_step(q, claim, ev)
        # Support by another unit or by arithmetic does not stand against the same slot's
        # value one digit slip away ("about 8 months" for "about 18 months", 8 being 2.4 m
        # in feet): only the value itself, in its unit, does.
        # The evidence's number in another currency or unit of its dimension is another
        # amount: "$24" for "adult eur: 24".
        slip = unit_slip(q.unit, ev.units.get(q.value, ())) or _rescaled(q, ev)
        # Working shown puts the context's values in new roles: only copies are swapped.
        swapped = not arithmetic and _value_swapped(q, labels, stated, ev) or _field_crossed(
            q, labels.get(q.text, frozenset()), claim, ev) or _other_records_value(q, labels.get(q.text, frozenset()), claim, ev)
        if stepped or supported and not slip and not swapped and not _wrong_rest(q, stated, claim, ev) and not (
                _against_sign(q, claim, ev)) and (
                any(x.unit == q.unit and x.value == q.value for x in ev.found)
                or number_supported(q, mine) or number_supported(q, shares) or applied or own_form(q)
                or id(q) in products or stepped_on or not _miscopied(q, labels.get(q.text, frozenset()), ev)):
            continue
        # A small bare count ("two options", "step 1") is how an answer is laid out as
        # often as a fact: it cannot decide a claim alone (see _score_claim).
        (counts if _small_count(q) else missing).append(q.text)
    missing += [t for t in _misconverted(claim, given) if t not in missing and t not in worked_here]
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
            all(day is None for _, _, day in readings) and date_supported(readings, ev.months)
        ) and not (
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
    ends |= _clock_worked(claim, ev) | ev.offset_minutes
    clocks = clock_times(claim)
    # "03:29 in Tehran (UTC+3:30)" of 23:59 UTC: a zone half an hour off the hour shifts
    # the minutes too, by an offset the claim states or its zones keep. A whole-hour offset
    # moves no minutes: the test below of whole hours away already holds it.
    told = list(_UTC_OFFSET.finditer(claim)) if zoned and clocks else []
    kept = _zone_offsets(claim, ev) if zoned and clocks else set()
    shifts = {d for o in {_offset_minutes(m) for m in told} | kept if o % 60 for d in (o, -o)}
    # "(UTC+3:30)" of Tehran: the zone's offset, no clock time.
    told_offsets = {m.group(0)[3:].strip(" +-\u2212") for m in told if _offset_minutes(m) in kept}
    for text, minutes in clocks:
        if text in told_offsets:
            continue
        # The same minutes a whole number of hours away is the time in another zone.
        # "arrive for 6:45" without am or pm may mean the context's 6:45pm, and "finish around
        # 1:30" the 13:30 worked out: twelve hours on.
        if minutes not in ev.minutes and not (
            zoned and (any((minutes - m) % 60 == 0 for m in ev.minutes) or any(
                (minutes - m - shift) % _DAY_MINUTES == 0 for m in ev.minutes for shift in shifts))
            and not _home_zone(claim, text, ev)
        ) and not (60 <= minutes < _NOON and minutes + _NOON in ev.minutes | ends
                   and not _MERIDIEM.search(text)) and minutes not in ends:
            missing.append(text)
    # "Roughly €14,300: about €11,900 in BTC, €2,150 in ETH and €250 in USDC": a total the
    # claim itemises is its own sum.
    summed = [q.text for q in stated if q.text in missing and _total_parts(claim, q, stated, missing)[1]]
    return [t for t in missing if t not in summed], counts


_DOT_GROUPED = re.compile(r"(?<![\d.,])\d{1,3}(?:\.\d{3})+(?!\d|[.,]\d)")


# Thousands parted by a space with no money mark the claim's reader knows ("15 000 ლარი"),
# cents after them ("R1 790.00").
_SPACE_GROUPED = re.compile(r"(?<![\w.,])[1-9]\d{0,2}(?:[ \u00a0\u202f]\d{3})+(?P<cents>\.\d{1,2})?(?![\d.,]*\d)")


def _spaced_whole(text: str, known: Container[float], every: bool = False) -> str:
    """The text with each number parted by spaces ("2 800") written whole where that whole
    number is one of ``known`` (or ``every`` such number is read whole) and not each of its
    parts is. With its cents ("1 790.00"), a number is one amount: two are never written so."""
    def spaced(m: re.Match[str]) -> str:
        groups = re.split(r"[ \u00a0\u202f]", m.group(0))
        n = "".join(groups)
        return n if m.group("cents") or (every or float(n) in known) and not all(
            float(g) in known for g in groups) else m.group(0)
    return _SPACE_GROUPED.sub(spaced, text)


_COMMA_GROUPED = re.compile(r"\d,\d{3}(?!\d)")


def _dot_wholes(texts: Sequence[str]) -> list[float]:
    """"Tiragem: 1.500 ex.": each number of the texts written with a dot between thousands,
    as a whole number, for a claim that groups its own by commas ("1,500 copies"); read
    alone, the dot is a decimal point (1.5)."""
    return sorted(float(m.group(0).replace(".", "")) for t in texts for m in _DOT_GROUPED.finditer(t))


def _ungrouped(claim: str, ev: _Evidence) -> str:
    """The claim with each number written with a dot between thousands ("kr 1.380",
    "Rp 750.000.000"), as much of Europe and Asia writes it, written whole where the
    evidence gives that whole number (1380) with none of its own written so: the amount,
    not 1.38, which the claim's working (at a rate of 17.250) then uses as such. So too a
    number parted by spaces, where the evidence gives it whole and not each of its parts."""
    whole = {x.value for x in ev.found}
    claim = _spaced_whole(claim, whole)
    if any("." in t and _DOT_GROUPED.search(t) for t in ev.texts):
        return claim
    return _DOT_GROUPED.sub(lambda m: n if float(n := m.group(0).replace(".", "")) in whole else m.group(0), claim)


# A code whose digit groups a dot parts ("HS 8517.13", "tariff 0402.21.91"): six digits or
# more, so no measure ("12.5") reads as one.
_DOTTED_CODE = re.compile(r"(?<![\w.,])\d{2,4}(?:\.\d{2,4})+(?![\w.]|,\d)")
_CODE_DIGITS = 6


def _undotted(claim: str, ev: _Evidence) -> str:
    """The claim with each dotted code written as the evidence's record prints it, its
    digits run together ("8517.13" for "HS 851713"), where the evidence states no number
    of the dotted value: the same code, no decimal the context lacks."""
    # Most claims hold no such code: the evidence's values are gathered only for one that does.
    if not _DOTTED_CODE.search(claim):
        return claim
    values = {x.value for x in ev.found}

    def joined(m: re.Match[str]) -> str:
        digits = m.group(0).replace(".", "")
        if len(digits) < _CODE_DIGITS or m.group(0).count(".") == 1 and float(m.group(0)) in values:
            return m.group(0)
        return digits if any(re.search(rf"(?<![\w.,]){digits}(?![\w]|[.,]\d)", t) for t in ev.texts) else m.group(0)
    return _DOTTED_CODE.sub(joined, claim)


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


# A total stated with the parts it is of: "€186.85, covering …", "37 hours this week: 8 on …".
_TOTAL_WORDS = re.compile(r"\b(?:total|totals|altogether|in all|comes? to|adds? up|sum|overall|"
                          r"covering|made up of)\b|:\s", re.IGNORECASE)


def _misadded(claim: str, missing: Sequence[str]) -> str:
    """An unsupported total that the supported parts the claim lists with it do not add up
    to: the claim got the sum wrong, not the parts."""
    if not missing or not _TOTAL_WORDS.search(claim) or _AVERAGED.search(claim):
        return ""
    stated = quantities(claim)
    for total in stated:
        # "26 weeks, about six months": a supported figure rounded in another unit.
        if total.text not in missing or total.approx and any(
                q.text not in missing and q.unit != total.unit and _dimension(q.unit) == _dimension(total.unit)
                for q in stated if q.unit):
            continue
        parts, added = _total_parts(claim, total, stated, missing)
        if parts and not added and not _netted(total, parts):
            return (f"the listed {', '.join(q.text for q in parts[:4])} add up to "
                    f"{sum(q.value for q in parts):g}, not {total.text}")
    return ""


# "dropping the 55 gives an average of 90.67": the listed figures are averaged, not added.
_AVERAGED = re.compile(r"\b(?:average|averaged|averages|mean)\b", re.IGNORECASE)
_NETTED_PARTS = 7  # beyond this, 3**n signed sums make a chance match likely


def _netted(total: Quantity, parts: Sequence[Quantity]) -> bool:
    """Some of the listed parts, added or taken away, give the total: a payment "£400.14
    plus £650.00 minus £66.69", or "19 credits: your current 15 (3, 4, 4, 4) plus 4", whose
    list holds a subtotal and its own parts. The claim did that arithmetic right; a colon
    or "total" beside the figures does not make every one of them an addend."""
    if len(parts) > _NETTED_PARTS:
        return False
    # Each signed sum with how many parts it takes and whether it adds one, grown a part at
    # a time in the parts' order (the same float additions as summing each sign pattern):
    # one pass over the 3**n patterns, not a product and a sum apiece (seven parts: 8 ms, not 60).
    sums: list[tuple[float, int, bool]] = [(0, 0, False)]
    for q in parts:
        sums = [(a + s * q.value, n + (s != 0), added or s == 1) for a, n, added in sums for s in (1, 0, -1)]
    return number_supported(total, sorted(a for a, n, added in sums if n >= 2 and added))


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
_EQ_MARK = re.compile(r"\s*(?:[^\w\s]{1,3}|[A-Z][A-Za-z]{1,2})?\s*")  # "= ₱139,700", "= EUR 121", "= MK 300"
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
            # A number right after another starts the working anew: "1,500 a stem, so 200 ×
            # 1,500" is no 1500200.
            if tokens and tokens[-1][-1].isdigit():
                tokens = []
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
    # it is no part of the measure. A count of other things is none either, unless the
    # claim lists it after the total's colon ("17 centrepieces: 14 for …, 2 spares …").
    end = _stated_at(claim, total) + len(total.text)
    its_list = _TOTAL_LIST.match(claim[end:])
    listed = range(end + its_list.start(1), end + its_list.end(1)) if its_list else range(0)
    parts = [q for q in stated if q is not total and q.text not in missing
             and q.unit in (total.unit, "") and 0 < q.value < total.value
             and not (total.unit and _small_count(q))
             and not (not q.unit and _counted(claim, q) not in ("", _counted(claim, total))
                      and _stated_at(claim, q) not in listed)]
    # "(8.5 h each)": a part that several items share adds up to more than itself.
    if len(parts) < _PARTS or any(q.unit != parts[0].unit for q in parts) or any(
            _EACH.match(claim, claim.find(q.text) + len(q.text)) for q in parts):
        return [], False
    return parts, number_supported(total, [sum(q.value for q in parts)])


_TOTAL_LIST = re.compile(r"^[^:.;!?()]{0,40}:\s*([^.;!?]+)")  # not one a bracket closes before
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


_AMOUNT = re.compile(r"-?\d[\d.,]*")


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
            # "11 detections", "3 boxes missing" where each record gives its own number of
            # them ("detections: 7", "ballot_boxes_required: 2"): a sum over the records,
            # not a count of them.
            amounts = [v for r in records for k, v in r.pairs if stem(noun) in k.lower()]
            if amounts and all(_AMOUNT.fullmatch(v.strip()) for v in amounts) and not any(
                    stem(noun) in v.lower() for r in records for _, v in r.pairs):
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


# A price comparison: which side of "than" costs less.
_PRICE_ORDER = re.compile(r"\b(?:(?P<low>cheaper|less expensive|lower-priced)|"
                          r"(?P<high>more expensive|pricier|dearer|costlier))\s+than\b", re.IGNORECASE)


def _self_compared(claim: str) -> str:
    """A price comparison whose own figures say the opposite: "CoolFix (€186) is cheaper than
    Nordic (€171)". The last amount before the comparison and the first after "than", of one
    currency, in one clause; after a working ("cheaper than 7 × £12 = £84"), its result."""
    for part in _ADDED.split(claim):
        m = _PRICE_ORDER.search(part)
        if m is None:
            continue
        before = [q for q in quantities(part[: m.start()]) if q.unit]
        compared = re.split(r"[,;]|\.(?!\d)", part[m.end() :])[0]
        after = [q for q in quantities(compared.rpartition("=")[2]) if q.unit] or [
            q for q in quantities(compared) if q.unit]
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
