"""HALLUCINATION's dates, clock times and time zones: a date moved on by a term, a
weekday or a day counted from today, a time told in another zone.
"""

from __future__ import annotations

import contextlib
import datetime
import itertools
import re
import zoneinfo
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING

from ._calendar import WEEKDAY_ALT, weekday_of
from ._claims import (
    DateParts,
    Quantity,
    clock_times,
    date_supported,
    dates,
    number_supported,
    quantities,
    split_claims,
)
from ._records import _said
from ._wording import _CLAUSE_BREAK, _NEGATOR, _PARTS

if TYPE_CHECKING:
    from ._grounding import _Evidence


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
# "13:02:11", "00:05:41.930": a clock reading or a timer to the second.
_TO_SECOND = re.compile(r"(?<![\d:.])(?P<h>[01]?\d|2[0-3]):(?P<m>[0-5]\d):(?P<s>[0-5]\d)(?:\.\d+)?(?![\d:])")
_SECOND_READINGS = 12  # the first readings only: their gaps grow as their square


def second_readings(text: str) -> list[int]:
    """The text's clock readings to the second, as seconds since midnight (a timer's
    ``00:05:41.930`` is 341 seconds)."""
    return [3600 * int(m.group("h")) + 60 * int(m.group("m")) + int(m.group("s"))
            for m in _TO_SECOND.finditer(text)]

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


_ZONES_READ = 2  # more named zones than this: which instant is whose is unknown


def zoned_minutes(texts: Sequence[str], zones: frozenset[str]) -> set[int]:
    """The local clock time, in minutes after midnight, of each instant the texts write
    with an offset ("…T15:40:00Z") in each zone they name, DST kept as on its day."""
    if not zones or len(zones) > _ZONES_READ:
        return set()
    out: set[int] = set()
    for zone in zones:
        try:
            tz = zoneinfo.ZoneInfo(zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):  # no zone data: nothing to convert with
            continue
        for t in texts:
            for m in _INSTANT.finditer(t):
                day = _iso_day(m.group(1))
                if day is not None:
                    out.add(_local_minutes(day, int(m.group(2)) * 60 + int(m.group(3)), m.group(4), tz))
    return out


def _local_minutes(day: datetime.date, clock: int, offset: str, tz: datetime.tzinfo) -> int:
    """An instant's clock time (minutes after midnight, written with its ISO ``offset``)
    in the zone ``tz``."""
    at_utc = datetime.datetime(day.year, day.month, day.day, tzinfo=datetime.timezone.utc) + datetime.timedelta(
        minutes=clock - _iso_offset_minutes(offset))
    local = at_utc.astimezone(tz)
    return local.hour * 60 + local.minute


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
            written.add(clock)
            converted.add(_local_minutes(day, clock, offset, tz))
        if minutes in written and minutes not in converted:
            return f"{text} told in {zone} copies the context's time as written in another zone"
    return ""


_MASKED = re.compile(r"(?:\u2026|\.\.\.|[*x\u2022]{2,}|\bend(?:s|ing)\s+(?:in|with)|\blast\s+(?:\w+\s+)?digits"
                     r"(?:\s+(?:are|of))?)\s?(\d{2,})(?![\d.,])", re.IGNORECASE)


def _days_between(q: Quantity, claim: str, ev: _Evidence) -> bool:
    """"Returned on May 29, two days before the May 31 due date": the days between two dates
    the claim states (each checked as a date) are its own working; so are the days from a
    date it states to a whole date of the evidence ("checked in on 21 November, so it's been
    15 days" beside today's 2026-12-06), in the evidence's year."""
    if q.unit != "day":
        return False
    stated = [(y, m, d) for _, readings in dates(claim) for y, m, d in readings if m and d]
    if not stated:
        return False
    days = set()
    given = ev.whole_dates  # the evidence's dates, read once per case, not once per claim
    years = {g.year for g in given} | {g.year - 1 for g in given}
    for year, month, day in stated:
        with contextlib.suppress(ValueError):
            days.add(datetime.date(year or 2000, month, day))  # a leap year: any day reads
        for y in {year} if year else years:
            if (mine := _date_or_none(y, month, day)) and any(abs((mine - g).days) == q.value for g in given):
                return True
    return any(abs((a - b).days) == q.value for a, b in itertools.combinations(days, 2))


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


def _seconds_apart(q: Quantity, ev: _Evidence) -> bool:
    """"Rang the keyholder 44 seconds later": seconds between two of the evidence's readings
    to the second, which its durations hold in minutes."""
    return q.unit == "s" and number_supported(replace(q, value=q.value / 60, place=q.place / 60), ev.durations)


# "Last admission 45 minutes before closing", "check-in opens 2 hours prior to departure":
# a duration the evidence sets off from one of its times.
_OFFSET = re.compile(r"(?P<v>\d{1,3})\s?(?P<u>minutes?|mins?|hours?|hrs?|h)\s+(?:before|after|prior to|ahead of)\b",
                     re.IGNORECASE)


def _offset_times(ev: _Evidence) -> set[int]:
    """Each clock time of the evidence moved by a duration the evidence states as an offset
    from a time (see ``_OFFSET``), either way: "last entry 8:15pm" of closing at 21:00."""
    spans = {int(m.group("v")) * (1 if m.group("u").lower().startswith("m") else 60)
             for text in ev.texts for m in _OFFSET.finditer(text)}
    return {(m + sign * d) % _DAY_MINUTES for m in ev.minutes for d in spans if 0 < d < _DAY_MINUTES
            for sign in (1, -1)}


def _clock_worked(claim: str, ev: _Evidence) -> set[int]:
    """Clock times the claim works out from the context's by the durations it states itself
    ("landed 23:40 … 10 hours from on-blocks plus the 30-minute post-flight duty, so rest
    starts 00:10 and her earliest report is 10:10"; "opens at 18:15, 90 minutes before the
    19:45 kick-off"): a context time plus or minus one or both of the claim's durations the
    evidence supports, and such a worked time plus them again."""
    spans = [round(q.value * (60 if q.unit == "h" else 1)) for q in quantities(claim)
             if q.unit in ("min", "h") and number_supported(q, ev.direct)]
    if not spans:
        return set()
    steps = {d for n in (1, 2) for pick in itertools.combinations(spans, n) if 0 < (d := sum(pick)) < _DAY_MINUTES}
    worked = {(m + sign * d) % _DAY_MINUTES for m in ev.minutes for d in steps for sign in (1, -1)}
    return worked | {(m + d) % _DAY_MINUTES for m in worked for d in steps}


def _span_ends(ev: _Evidence) -> set[int]:
    """Each clock time of the context plus each duration in minutes or hours it states."""
    spans = {round(q.value * (60 if q.unit == "h" else 1)) for q in ev.found if q.unit in ("min", "h")}
    return {(m + d) % _DAY_MINUTES for m in ev.minutes for d in spans if 0 < d < _DAY_MINUTES}


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
# The weekday in the user's language too ("martes 3 de junio", "Dienstag, 3. Juni").
_WEEKDAY_BEFORE = re.compile(rf"(?<![^\W\d_])({'|'.join(_WEEKDAYS)}|{WEEKDAY_ALT}),?\s+(?:the\s+|el\s+|le\s+|den\s+)?$",
                             re.IGNORECASE)


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
    word = said.group(1).lower()
    named = {_WEEKDAYS.index(word)} if word in _WEEKDAYS else weekday_of(word)
    return bool(days) and bool(named) and not named & days


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


def _bare_year(q: Quantity) -> bool:
    return not q.unit and q.value.is_integer() and 1000 <= q.value <= 2999
