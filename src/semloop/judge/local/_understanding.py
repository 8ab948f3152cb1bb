"""The embedded judge's TASK_UNDERSTANDING_FAILURE answer: did the run do the thing asked?

It looks for the answer addressing a sibling of what was asked: the request's names
(acronyms, capitalised names, codes) missing from a complete answer that names others of
the same kind instead; and for another task told in plain words (another act stated as the
answer's purpose, a value asked for and never given, another kind of text or sender,
someone else's thing answered as the user's).

It reads a case into named evidence (``task_understanding_evidence``); the learned head of
TASK_UNDERSTANDING_FAILURE (``_head.py``, trained by calibration/train_heads.py) weighs it
into the answer. What the three task answers share is in ``_task.py``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Iterator, Sequence
from functools import lru_cache
from itertools import pairwise, permutations
from typing import Any, TypeVar

from ...case import RunCase, ToolCall
from .._types import Answer
from ._answerer import Embed
from ._claims import (
    _ISO_CURRENCIES,
    _MONTHS,
    _TABLE_ROW,
    _TABLE_RULE,
    _TITLES,
    _YEAR_MONTH,
    _words,
    clauses,
    clock_times,
    date_supported,
    dates,
    head,
    is_refusal,
    key_terms,
    quantities,
    spelt_out,
    split_claims,
    stem,
    table_records,
    tool_text,
    verdict,
    word_stems,
)
from ._completion import _ID_KEY
from ._head import Evidence, head_answer, heads
from ._task import (
    _ACTION_VERBS,
    _ASKS_VALUE,
    _ASKS_YES_OR_NO,
    _ATTRIBUTE_WORDS,
    _CLOSING,
    _DAY_OF_MONTH,
    _DURATION_UNITS,
    _EMBED_WORDS,
    _FREE,
    _LIST_MARK,
    _MAX_UNITS,
    _MONEY_UNITS,
    _NAME,
    _NAMESPACE,
    _NEGATED,
    _NUMBER,
    _OPERATIONS,
    _OPPOSITES,
    _READ_VERBS,
    _REQUEST_WORDS,
    _SOURCE_MARGIN,
    _TRANSLATE,
    _WITHHELD,
    _act_words,
    _alike,
    _all_said,
    _argmax,
    _asked_text,
    _call_verb,
    _conversed,
    _drafted,
    _failed,
    _handed_to_person,
    _hands_off,
    _idents,
    _imperative,
    _json_outputs,
    _marks,
    _near,
    _opens_on_act,
    _part_stems,
    _parts,
    _patch_handed_in,
    _phrasal_act,
    _phrases,
    _prose,
    _read_records,
    _Run,
    _scalar_values,
    _scalars,
    _short,
    _written,
)
from ._tokenizer import vocab_words
from ._wording import _IRREGULAR_VERBS

__all__ = ["answer_task_understanding_failure"]


# Operations that undo each other, named as nouns as often as verbs: a derivative asked, an
# integral worked out. Apart from the options of ``_OPPOSITES``, which the completion rules
# read too.
_INVERSE_OPERATIONS = (("derivative", "integral"), ("derivative", "integration"), ("differentiate", "integrate"))
# Closed sets of general-English siblings: asked about one member, an answer that names
# another and never the first is about the wrong one (October / November, German /
# Spanish, Python / JavaScript, Terraform / CloudFormation, a puppy / a kitten, a vegan /
# a gluten-free recipe). One group is one member under its names: fall is autumn, a puppy
# is a dog, español is Spanish. Not weekdays: a request's
# day is often only when it starts ("starting Monday"), and the answer's another date.
_SIBLING_SETS: dict[str, tuple[str, ...]] = {
    "period": ("january", "february", "march", "april", "may", "june", "july", "august", "september",
               "october", "november", "december", "spring", "summer", "autumn fall", "winter"),
    "language": ("english", "spanish español castilian", "french français", "german deutsch",
                 "italian italiano", "portuguese português", "dutch", "polish", "russian",
                 "chinese mandarin cantonese", "japanese", "korean", "arabic", "hindi", "turkish",
                 "greek", "swedish", "norwegian", "danish", "finnish", "ukrainian", "vietnamese"),
    "programming language": ("python", "javascript js node.js", "typescript", "java", "ruby",
                             "php", "rust", "kotlin", "c# csharp", "c++ cpp", "perl", "scala",
                             "haskell", "golang"),
    "infrastructure tool": ("terraform", "cloudformation", "pulumi", "ansible"),
    "database": ("postgres postgresql", "mysql mariadb", "sqlite", "mongodb", "dynamodb", "cassandra"),
    "cloud": ("aws", "azure", "gcp"),
    "animal": ("dog puppy pup", "cat kitten kitty", "rabbit bunny", "hamster", "guinea pig",
               "ferret", "parrot budgie parakeet", "horse pony foal", "goat", "sheep lamb",
               "cow cattle calf", "pig piglet", "chicken hen chick", "duck", "tortoise turtle",
               "snake", "lizard gecko", "goldfish"),
    # A developer's siblings: the platform a build is for, the resource a pod uses, the bus
    # a chip talks on.
    "mobile platform": ("ios iphone ipad xcode cocoapods", "android gradle"),
    "compute resource": ("cpu cpus processor", "memory ram"),
    "serial bus": ("i2c", "spi", "uart"),
    # An epidemiologist's rates: new cases in a period, all cases at a time, deaths.
    "disease rate": ("incidence", "prevalence", "mortality"),
    "diet": ("vegan plant-based", "vegetarian veggie", "gluten-free coeliac celiac", "dairy-free lactose-free",
             "keto ketogenic", "paleo", "low-carb", "halal", "kosher", "nut-free", "sugar-free"),
}


def _member(word: str) -> str:
    # May the month is May as written, never the verb ("May I…", "it may be").
    if word == "may":
        return r"(?-i:(?<![\w#+.])May(?![\w#+])(?!\s+(?:I|we|you|be|have|not|also)\b))"
    # A noun with its plural ("puppies", "ponies", "kittens"); a name as written.
    body = re.escape(word)
    if word.endswith("y") and word.isalpha():
        body = re.escape(word[:-1]) + "(?:y|ies)"
    elif word.isalpha():
        body += "(?:s|es)?"
    return rf"(?<![\w#+.]){body}(?![\w#+])"


_SIBLINGS = tuple(
    (kind, group.split()[0], re.compile("|".join(_member(w) for w in group.split()), re.IGNORECASE))
    for kind, groups in _SIBLING_SETS.items() for group in groups
)


# A language named after a country is also that country's adjective ("a Swedish company",
# "on the Norwegian side"): where a text names the country, the word may be about the place
# it names, so it is neither missing from that text nor new to it.
_COUNTRY_OF = {"english": "england", "spanish": "spain", "french": "france", "german": "germany",
               "italian": "italy", "portuguese": "portugal", "dutch": "netherlands holland",
               "polish": "poland", "russian": "russia", "chinese": "china", "japanese": "japan",
               "korean": "korea", "turkish": "turkey türkiye", "greek": "greece", "swedish": "sweden",
               "norwegian": "norway", "danish": "denmark", "finnish": "finland",
               "ukrainian": "ukraine", "vietnamese": "vietnam"}
_COUNTRY = {name: re.compile(rf"\b(?:{'|'.join(places.split())})\b", re.IGNORECASE)
            for name, places in _COUNTRY_OF.items()}


def _names_member(name: str, rx: re.Pattern[str], text: str) -> bool:
    """The text names the member, or, for a language, the country it is named after."""
    country = _COUNTRY.get(name)
    return bool(rx.search(text) or (country and country.search(text)))


def _sibling_swap(case: RunCase) -> tuple[str, str] | None:
    """A member of a closed set asked about and missing from the answer, which names
    another member of the same set that the request does not, or, for the user's own
    member, one the request names beside it: (asked, answered)."""
    asked = _asked_text(case.input)
    for kind in _SIBLING_SETS:
        groups = [(name, rx) for k, name, rx in _SIBLINGS if k == kind]
        wanted = [name for name, rx in groups
                  if rx.search(asked) and not _names_member(name, rx, case.output)
                  and not _dated_from(asked, rx) and not _dates_own_act(asked, rx)]
        given = [name for name, rx in groups
                 if rx.search(case.output) and (not _names_member(name, rx, case.input)
                                                or _said_to_work(rx, case.input))]
        if wanted and given:
            return wanted[0], given[0]
        # The user's own member ("my cat") never named, the answer on another the request
        # names beside it ("the spot-on meant for dogs"): it answered for that one.
        mine = [name for name, rx in groups if name in wanted and any(
            _OWNED.search(asked[:m.start()]) for m in rx.finditer(asked))]
        beside = [name for name, rx in groups if name not in wanted and rx.search(asked)
                  and rx.search(case.output)]
        if mine and beside:
            return mine[0], beside[0]
    return None


# A member named only as the one that works ("Android is fine", "it builds on Android") is
# ruled out: the fault asked about is the other one's.
_WORKS = re.compile(r"\b(?:is|are|works?|working|runs?|builds?)\s+(?:fine|ok|okay|well|great)\b|"
                    r"\b(?:works?|builds?|runs?) (?:fine )?(?:on|in|for)\b", re.IGNORECASE)


def _said_to_work(rx: re.Pattern[str], request: str) -> bool:
    clauses = [c for c in re.split(r"[.;!?\n]+|,\s*(?:but|and)?\s*", request) if rx.search(c)]
    return bool(clauses) and all(_WORKS.search(c) for c in clauses)


# (Or the time left to one: "how long do I have to return the boots I got on 20 February?")
_ASKS_DATE = re.compile(r"\b(?:when|what date|which day|deadline|due|last day|until|by when|expir\w*|how long|"
                        r"how many (?:more )?days|how much time)\b", re.IGNORECASE)
_DAY_NUMBER = re.compile(r"\d{1,2}(?:st|nd|rd|th)?(?![\d:])")


def _dated_from(asked: str, rx: re.Pattern[str]) -> bool:
    """A request that asks for a date ("the deadline for a mark published 6 November",
    "when is it due if I filed on March 3rd?") and names its month only in a full date it
    counts from: the date it wants is another day, often in another month, so that month
    is the answer's value, not a sibling taken for the one asked about."""
    found = list(rx.finditer(asked))
    return bool(found) and bool(_ASKS_DATE.search(asked)) and all(
        _DAY_NUMBER.fullmatch(asked[:m.start()].split()[-1] if asked[:m.start()].split() else "")
        or _DAY_NUMBER.match(asked[m.end():].lstrip(" ")) for m in found)


# The user's own act, done, up to the word that dates it: "we cancelled in", "I filled in the
# form at the desk in", "we've paid on".
_DONE_ON = re.compile(r"\b(?:i|we)(?:'ve|\s+have|\s+had)?\s+(?:\w+\s+)?(?:[a-z]{2,}ed|sent|paid|made)\b"
                      r"[^.?!;\n]{0,60}?\b(?:in|on|during)\s+$", re.IGNORECASE)


def _dates_own_act(asked: str, rx: re.Pattern[str]) -> bool:
    """The request names the member only to date what the user already did, in a sentence
    that asks nothing ("Has the refund come through? We cancelled in January."): when the
    thing asked about began, not the thing, so the answer's other member is its own date."""
    found = list(rx.finditer(asked))
    return bool(found) and all(
        _DONE_ON.search(re.split(r"[.?!\n]", asked[:m.start()])[-1])
        and not re.match(r"[^.?!\n]*\?", asked[m.end():]) for m in found)


_OWNED = re.compile(r"\b(?:my|our)\s+(?:[\w-]+\s+)?$", re.IGNORECASE)
# Either place may carry an article ("from the airport into downtown"); it is not the place.
# Or a possessive ("from my savings into my current account"), and the place may be named
# more fully in brackets ("from Lyon Warehouse (12 Rue des Tanneurs) to …").
# "from Dublin back to Holyhead": the way home is still from the one to the other.
_ROUTE = re.compile(r"\bfrom\s+(?:(?:the|my|your|our|their)\s+)?([A-Z][\w.-]*(?:\s+[A-Z][\w.-]*)?|"
                    r"[a-z]{3,}(?:\s+(?!(?:to|into|back)\b)[a-z]{3,})?)(?:\s*\([^()]{0,60}\))?\s+"
                    r"(?:back\s+)?(?:to|into|→)\s+(?:(?:the|my|your|our|their)\s+)?"
                    r"([A-Z][\w.-]*(?:\s+[A-Z][\w.-]*)?|[a-z]{3,})|([A-Z][\w.-]+)\s*(?:→|->)\s*"
                    r"([A-Z][\w.-]+)")
# Where the request sends something, without saying from where: "send it BACK to our Lyon
# warehouse", "put 200 into my current account".
_MOVED_TO = re.compile(r"\b(?i:send|sent|sending|ship|shipping|return|returning|move|moved|moving|transfer|"
                       r"transferring|put|bring|take|deliver|post|mail)\b[^.?!;]{0,40}?\b(?i:back\s+)?"
                       r"(?i:to|into)\s+(?:(?:the|my|your|our|their)\s+)?([A-Z][\w-]*(?:\s+[A-Z][\w-]*)?|"
                       r"[a-z]{3,})")


def _present(term: str, text_lower: str, stems: frozenset[str]) -> bool:
    # The substring test first: a term the text lacks needs no pattern of its own compiled.
    if term in text_lower and re.search(rf"(?<![a-z0-9]){re.escape(term)}s?(?![a-z0-9])", text_lower):
        return True
    words = [w for w in re.split(r"[\s_-]+", term) if w]
    return bool(words) and all(stem(w) in stems for w in words)


def _parallel(a: str, b: str, segments: Sequence[str]) -> bool:
    """Two names the evidence lists as parallel entries: each in its own segment, never
    together, each with a number, date or time of its own (Seattle 10.35% / Portland 0%).
    A part of the asked record (its actions, "actions desc: bund liner repair") is no entry
    beside it; the record that holds the asked part (a parent of a dependant) is."""
    with_a, with_b = _naming(a, tuple(segments)), _naming(b, tuple(segments))
    return bool(with_a and with_b) and not set(with_a) & set(with_b) and all(
        quantities(s) or dates(s) or clock_times(s) for s in (*with_a, *with_b)
    ) and not any(_nested_in(y, x) for x in with_a for y in with_b)


# Each name of the request is paired with each of the answer's: their segments are found
# once per name, not once per pair (a coding run's logs: a third of TUF's time).
@lru_cache(maxsize=256)
def _naming(term: str, segments: tuple[str, ...]) -> tuple[str, ...]:
    """The segments that name the term."""
    found = re.compile(rf"(?<![a-z0-9]){re.escape(term)}")
    return tuple(s for s in segments if found.search(s))


def _key_heads(segment: str) -> set[str]:
    return {part.split(":", 1)[0].split()[0] for part in segment.split(";") if ":" in part and part.split(":", 1)[0].split()}


_ITEM_FIELDS = 2  # an item of a list is a record of two fields or more, no line of prose


def _nested_in(part: str, record: str) -> bool:
    """``part`` is an item of a list inside ``record``: its fields ("actions id", "actions
    desc") all begin with the list's key, while the record's fields do not share one, or
    the record is one field over an item of fields of its own (a submission's id over its
    "items coin: …; items grade: …")."""
    inner, outer = _key_heads(part), _key_heads(record)
    if part.count(":") < _ITEM_FIELDS or len(inner) != 1 or inner <= outer:
        return False
    return len(outer) > 1 or (record.count(":") == 1 and len(part.split("; ")) >= _ITEM_FIELDS)


def _substitutes(case: RunCase) -> tuple[str, str] | None:
    """A request name missing from the answer with an answer name of the same kind, spelled
    almost alike, that the request does not have: (asked, answered)."""
    asked = _idents(case.input)
    answered = _idents(case.output)
    # What the evidence writes as a name is one, however the user or the answer wrote it
    # ("cardiology appointment" against a record "dept: Cardiology").
    records = "\n".join(tool_text(c.output) for c in case.tools_called)
    named = {t for t in key_terms(" ".join([*case.context, records]))
             if not any(ch.isdigit() for ch in t)}
    named |= {m.lower() for m in re.findall(r":\s*([A-Z][a-z][\w'-]*)", records)}
    named |= _record_names(case)
    for text, found in ((case.input, asked), (case.output, answered)):
        for word in re.findall(r"[a-z][a-z'-]+", text.lower()):
            if word in named:
                found.setdefault(word, "name")
        for word in [*_COMPOUND.findall(text.lower()), *_CODE_NAME.findall(text.lower())]:
            found.setdefault(word, "compound")
    out_lower, out_stems = case.output.lower(), word_stems(case.output)
    in_lower, in_stems = case.input.lower(), word_stems(case.input)
    # A lower-case prefix hyphened to a name ("kwi-Starward": "in" Starward, as Xhosa glues
    # it) is the language's, no part of a series the name belongs to.
    missing = [t for t in asked if not _present(t, out_lower, out_stems) and not _spanned(t, case.output)
               and not re.search(rf"(?<![\w-]){re.escape(t.split('-')[0])}-[A-Z]", case.input)]
    segments = [seg.lower() for seg in _segments(case)]
    # A currency's code ("CHF 25") is the unit of an amount, no thing in the asked one's place.
    extra = [t for t in answered if not _present(t, in_lower, in_stems) and t.upper() not in _ISO_CURRENCIES
             and not _set_apart(t, case.output) and not _found_unfit(t, case.output)] if missing else []
    # An answer that restates the request's own rate or sum ("a 15% rise would breach the
    # clause" for "raise my rent 15%") is about the asked thing, whatever word of the
    # evidence (the CPI that caps it) it names beside it: no word stands in for the thing.
    # Only a figure with its sign: a bare number is as often the record's id (APP-5120).
    kept = bool(_rates_and_sums(_asked_text(case.input), signed=True)
                & _rates_and_sums(case.output, signed=True))
    for a in missing:
        for b in extra:
            same_kind = asked[a] == answered[b] or {asked[a], answered[b]} <= {"code", "number"}
            # Only a stand-in spelled almost alike counts (48821 / 48812, HSA / FSA, the 45L
            # and the 30L pack): other new names are as often details of a right answer.
            if same_kind and (_near(a, b) or _same_shape(a, b) or _one_part(a, b)
                              or _parallel(a, b, segments)) and not _told_from_entry(a, b, case, segments) \
                    and not _heading_over(a, b, case) and not (asked[a] == "name" and _looked_up(a, case)) \
                    and not (asked[a] == "name" and kept):
                return a, b
    return _sibling_swap(case) or _year_swap(case) or _year_read(case) or _month_read(case) or _jurisdiction_swap(case) or _size_swap(case) \
        or _period_swap(case) or _date_swap(case) or _part_dropped(case.input, [_subject(case.output)]) \
        or _answered_beside(case, asked, missing, segments)


def _answered_beside(case: RunCase, asked: dict[str, str], missing: Sequence[str],
                     segments: Sequence[str]) -> tuple[str, str] | None:
    """The request asks about one record and names another of its kind beside it, in a
    sentence that does not ask ("When is Misty due? … same account as Bruno"); the answer
    tells of that other one and never the asked one, and the evidence lists the two as
    parallel entries: it answered for the one named in passing. (asked, answered)."""
    sentences = split_claims(case.input)
    if len(sentences) < 2:
        return None
    asking = next((t.lower() for t in sentences if t.rstrip().endswith("?")), sentences[0].lower())
    out_lower, out_stems = case.output.lower(), word_stems(case.output)
    for a in missing:
        # "Priya's shift" is answered by "Priya is on …".
        if a not in asking or _present(a.removesuffix("'s"), out_lower, out_stems):
            continue
        for b, kind in asked.items():
            if b not in asking and kind == asked[a] and _present(b, out_lower, out_stems) and (
                    _parallel(a, b, segments) or _two_records(a, b, case)):
                return a, b
    return None


def _two_records(a: str, b: str, case: RunCase) -> bool:
    """Two records of one list that the run read hold the two names in one field."""
    a, b = a.removesuffix("'s"), b.removesuffix("'s")
    return any({a, b} <= {str(r.get(key, "")).lower() for r in rows}
               for rows in _read_records(case.tools_called) for key in rows[0])


# A sentence that sets a thing apart from the answer's subject: "(report-gen's error is a
# separate problem)", "unlike your metformin, …", "that's a different job".
_SETS_APART = re.compile(r"\b(?:separate|unrelated|unlike|different from|a different|another (?:issue|problem|"
                         r"matter|story)|differs?|as opposed to|whereas|by contrast|not related)\b", re.IGNORECASE)


def _set_apart(term: str, answer: str) -> bool:
    """Every sentence of the answer that names the term sets it apart: a sibling named to
    contrast it with the one answered about, not answered in its place."""
    naming = [s for s in split_claims(answer) if term in s.lower()]
    return bool(naming) and all(_SETS_APART.search(s) for s in naming)


# A sentence that tells a thing was found unfit or not to be had: "Tuesday only had 1-hour
# gaps", "the 08:10 is sold out", "the suite isn't available".
_FOUND_UNFIT = re.compile(r"\bonly (?:had|has|have|offers?|offered|got|gets|came up with)\b|"
                          r"\b(?:not|isn't|wasn't|aren't|weren't|no longer) (?:available|free|open|possible)\b|"
                          r"\bunavailable\b|\bsold out\b|\b(?:fully|already) booked\b|\bbooked up\b|"
                          r"\btoo (?:short|long|small|big|early|late)\b", re.IGNORECASE)


def _found_unfit(term: str, answer: str) -> bool:
    """Every sentence of the answer that names the term says it was found unfit, none of
    them its opening: a sibling told as why the answer's own pick was made (a 2-hour slot
    found, "Tuesday only had 1-hour gaps"), not taken in its place."""
    term = _flat(term)
    naming = [s for s in split_claims(answer) if term in _flat(s)]
    return bool(naming) and term not in _flat(_opening(answer)) and all(_FOUND_UNFIT.search(s) for s in naming)


def _flat(text: str) -> str:
    """The text in lower case with its hyphens and runs of spaces as one space: "2 bed" as
    the compound's reader writes it is the answer's "2-bed"."""
    return re.sub(r"[\s_-]+", " ", text.lower())


_LOOKUP_TOLD = 2  # values of the looked-up record the answer restates
_TOLD_VALUE = 4  # characters of a value that is no short code or flag ("in_person", not "no")


def _looked_up(asked: str, case: RunCase) -> bool:
    """A call that worked was made on the asked name (get_booking for "Santos"), and the
    answer restates values of what it returned ("Beatriz Monteiro", "Taylor House"): it
    answered for the record asked about, whether or not it names it again. Or made on
    another thing the request gives (the user's address), and one of the record's own fields
    holds the asked name (the day it had before). (For a name: a member number looked up
    holds every record of the member, the asked one and others, in a list: none its own.)"""
    request = case.input.lower()
    for call, data in _json_outputs(case.tools_called):
        on = [str(v).lower() for v in call.args.values()]
        fields = [str(v).lower() for v in data.values() if isinstance(v, str)] if isinstance(data, dict) else []
        if not any(asked in v for v in on) and not (
                any(len(v) >= _TOLD_VALUE and v in request for v in on)
                and any(re.search(rf"\b{re.escape(asked)}\b", v) for v in fields)):
            continue
        if _restated(data, case.output, but=asked) >= _LOOKUP_TOLD:
            return True
    return False


_ISO_DAY = re.compile(r"\d{4}-\d\d-\d\d")


def _restated(data: Any, answer: str, but: str = "") -> int:
    """How many of a record's text values (no short code or flag, nor ``but``) the answer
    restates; a date in any form ("2025-03-02" as "2 March")."""
    text = answer.lower()
    days = [r for _, rs in dates(answer) for r in rs]
    values = {str(v).lower() for v in _scalar_values(data) if isinstance(v, str) and len(v) >= _TOLD_VALUE}
    return sum(v in text or (_ISO_DAY.fullmatch(v) is not None and any(date_supported(rs, days) for _, rs in dates(v)))
               for v in values - {but})


def _heading_over(asked: str, answered: str, case: RunCase) -> bool:
    """A document whose title line alone names the asked thing lists the answered one in
    its body ("Rate card – Court & Legal Interpreting", then its Tier A row): the answer
    gave the asked thing's entry, under that heading."""
    for doc in case.context:
        title, rest = (t.lower() for t in _title_line(doc))
        if title and asked in title and asked not in rest and answered in rest:
            return True
    return False


def _told_from_entry(asked: str, answered: str, case: RunCase, segments: Sequence[str]) -> bool:
    """The answer restates a figure that only the evidence's entries naming the asked
    thing hold (not the request): it answered for it, by another of its names (Tanzania's
    18% VAT, told beside the EAC's tariff that Tanzania applies)."""
    # Entries may join a short one to the next (a price list's lines): each sentence alone.
    sentences = tuple(t for seg in segments for t in re.split(r"(?<=[.;])\s+", seg))
    with_asked = [t for t in _naming(asked, sentences) if t not in _naming(answered, sentences)]
    others = _figures(" ".join(_naming(answered, tuple(segments)))) | _figures(case.input)
    return bool((_rates_and_sums(" ".join(with_asked)) - others) & _rates_and_sums(case.output))


def _figures(text: str) -> set[str]:
    """The numbers a text writes, as figures ("18%", "1,170" and "1170" alike)."""
    return {f"{float(n.replace(',', '')):g}" for n in _NUMBER.findall(text)}


# A rate or a sum: a figure with a per cent or currency sign, or of three digits or more; a
# year, a clock time or a small count is no one record's own.
_SIGNED_FIGURE = r"[$€£¥₹]\s?\d[\d,]*(?:\.\d+)?|\d[\d,]*(?:\.\d+)?\s?%"
_RATE_OR_SUM = re.compile(rf"(?<![\d:.,])(?:{_SIGNED_FIGURE}|"
                          r"(?!(?:19|20)\d\d\b)(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{3,}(?:\.\d+)?|\d+\.\d+))(?![\d:])")
_SIGNED = re.compile(rf"(?<![\d:.,])(?:{_SIGNED_FIGURE})")
_NOT_DIGIT = re.compile(r"[^\d.]")


def _rates_and_sums(text: str, *, signed: bool = False) -> set[str]:
    """The rates and sums a text writes, as figures; ``signed``, only those written with
    their per cent or currency sign."""
    figures = (_SIGNED if signed else _RATE_OR_SUM).findall(text)
    return {f"{float(n):g}" for n in (_NOT_DIGIT.sub("", m) for m in figures)}


# A period named from today: the one before ("last month's bill") and the one running
# ("month-to-date", "so far", "this week").
_PAST_PERIOD = re.compile(r"\b(?:last|previous|past) (?:month|week|year|quarter)\b|\byesterday\b",
                          re.IGNORECASE)
_RUNNING_PERIOD = re.compile(r"\b(?:month|week|year|quarter)[- ]to[- ]date\b|\bso far\b|\bto date\b|"
                             r"\bthis (?:month|week|year|quarter)\b|\btoday\b", re.IGNORECASE)


def _period_swap(case: RunCase) -> tuple[str, str] | None:
    """Asked about the period before this one, the answer opens on the running one and
    never names the past one: (asked, answered)."""
    asked, opening = _PAST_PERIOD.search(_asked_text(case.input)), _RUNNING_PERIOD.search(_opening(case.output))
    if asked and opening and not _PAST_PERIOD.search(case.output):
        return asked.group(0).lower(), opening.group(0).lower()
    return None


def _date_swap(case: RunCase) -> tuple[str, str] | None:
    """Asked about a day ("next weekend (19–20 Dec)", "the 3 March hearing"), the run's
    calls were made on other days and the answer tells those ("Saturday 12 December"),
    never the asked one: the period next to it was read. (asked, answered)."""
    def days(text: str) -> list[tuple[str, frozenset[Any]]]:
        return [(t, frozenset(r for r in rs if r[1] is not None and r[2] is not None)) for t, rs in dates(text)]

    asked = [(t, rs) for t, rs in days(_asked_text(case.input)) if rs]
    told = [(t, rs) for t, rs in days(case.output) if rs]
    called = [r for c in case.tools_called if not _failed(c)
              for _, rs in days(tool_text(json.dumps(c.args))) for r in rs]
    if not asked or not told or not called:
        return None
    if any(date_supported(rs, [*called, *(r for _, o in told for r in o)]) for _, rs in asked):
        return None
    drawn = [t for t, rs in told if date_supported(rs, called)]
    return (asked[0][0], drawn[0]) if drawn else None


# A size written with its unit: 40' (a container), 10x10 (a storage unit), 2-bedroom, 65-inch.
_SIZE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(?:\s?(['\u2032\u2019](?!s\b)|\"|\u2033)|"
                   r"\s?(ft|foot|feet|inch|inches|sq ?ft|sqm|m2|m\u00b2)\b|"
                   r"\s?x\s?(\d+(?:\.\d+)?)\b|-(bedroom|bed|seater|door|person|litre|liter|gallon|inch|foot)s?\b)",
                   re.IGNORECASE)
_SIZE_UNITS = {"'": "ft", "\u2032": "ft", "\u2019": "ft", "foot": "ft", "feet": "ft", '"': "in", "\u2033": "in",
               "inches": "in", "inch": "in", "liter": "litre", "bedroom": "bed", "m\u00b2": "m2", "sq ft": "sqft"}


def _sizes(text: str) -> set[tuple[str, str]]:
    """The sizes a text names, as (unit, size): ("ft", "40"), ("x", "10x10")."""
    out = set()
    for m in _SIZE.finditer(text):
        if m.group(4):
            out.add(("x", f"{m.group(1)}x{m.group(4)}"))
            continue
        unit = (m.group(2) or m.group(3) or m.group(5)).lower()
        out.add((_SIZE_UNITS.get(unit, unit), m.group(1)))
    return out


def _size_swap(case: RunCase) -> tuple[str, str] | None:
    """The request's thing has a size the answer never names, and the answer names the
    thing in another size of the same unit that the request does not (a 40' container
    asked, a 20' quoted; a 10x10 unit asked, a 5x5 priced): (asked, answered)."""
    asked, said = _sizes(_asked_text(case.input)), _sizes(case.output)
    bounds = _ranges(case.output)
    for unit, size in sorted(asked - said):
        # A bound that holds the asked size ("under 40m²" for 20 m2) names its bracket.
        held = {f"{lo if hi == float('inf') else hi:g}" for lo, hi, _ in bounds
                if unit != "x" and lo <= float(size) <= hi}
        # The answer placed the asked size in its bracket ("extensions up to 40 m² need only
        # a DP"): its other sizes are the rule's other thresholds ("unless the house would
        # exceed 150 m²"), not the thing in another size.
        # A size told only as what was found unfit ("only had 2-bed cabins left") is no stand-in.
        other = [] if held else sorted(v for u, v in said - asked if u == unit and v != size
                                       and not _found_unfit(f"{v} {u}", case.output))
        if other:
            return f"{size} {unit}", f"{other[0]} {unit}"
    return None


# A year may end a sentence or clause ("in 2025."); a digit after the point or comma makes
# it a number (2025.5, 2,025).
_YEAR = re.compile(r"(?<![\d.,/-])(?:19|20)\d{2}(?![\d/%]|[.,]\d|-\d{3})")


# Years given as a span: "2012–2019 Panda", "models 2018 to 2021".
_YEAR_SPAN = re.compile(r"\b((?:19|20)\d{2})\s*(?:[-\u2013\u2014]|to|through|until)\s*((?:19|20)\d{2})\b")


def _spanned(year: str, text: str) -> bool:
    """A span of years in ``text`` covers ``year``: a catalogue's "2012–2019" names 2016."""
    return bool(_YEAR.fullmatch(year)) and any(a <= year <= b for a, b in _YEAR_SPAN.findall(text))


def _undated(text: str) -> str:
    """The text with each date it writes blanked out."""
    for written, _ in dates(text):
        text = text.replace(written, " ")
    return text


def _year_labels(text: str) -> list[str]:
    """The years a text names as labels ("my 2025 taxes"): a year inside a date ("due April
    15, 2025") is when something happens, not what it is about."""
    return _YEAR.findall(_undated(text))


def _year_swap(case: RunCase) -> tuple[str, str] | None:
    """A year the request names as a label ("my 2025 taxes"), never a label in the answer,
    which labels its subject with a year next to it ("your 2024 return")."""
    said = _year_labels(case.output)
    for year in _year_labels(_asked_text(case.input)):
        other = next((y for y in said if y not in case.input and _near(year, y)), None)
        if year not in said and other and not _spanned(year, case.output):
            return year, other
    return None


_Read = TypeVar("_Read", bound=Collection[Any])


def _read_on_other(case: RunCase, asked: Collection[object],
                   read_of: Callable[[str], _Read], *, figures: bool = False) -> _Read | None:
    """What ``read_of`` finds in the arguments of a call whose record the answer restates
    (its values, and with ``figures`` its numbers too), where it finds something and none
    of it ``asked``: the run read the thing beside the asked one. ``None`` otherwise."""
    told = _figures_told(case.output) if figures else set()
    for call, data in _json_outputs(case.tools_called) if asked else ():
        read = read_of(" ".join(str(v) for v in call.args.values()))
        numbers = {f"{float(v):g}" for v in _scalar_values(data)
                   if isinstance(v, int | float) and not isinstance(v, bool)} if figures else set()
        if read and not set(read) & set(asked) and _restated(data, case.output) + len(numbers & told) >= _LOOKUP_TOLD:
            return read
    return None


def _year_read(case: RunCase) -> tuple[str, str] | None:
    """A year the request names as a label ("the 1939 register") and the answer never
    writes, while a call whose record the answer restates was made on another year and not
    on the asked one ({"collection": "1911 Census"}): the run read the year beside it.
    (asked, read)."""
    asked = [y for y in _year_labels(_asked_text(case.input)) if y not in case.output]
    read = _read_on_other(case, asked, _year_labels)
    return (asked[0], read[0]) if read else None


def _month_read(case: RunCase) -> tuple[str, str] | None:
    """A month the request names ("booked for March") and the answer never writes, while a
    call whose record the answer restates (two of its values, words or figures) was made on
    another month ({"booked_for_month": "2024-04"}) and on no asked one: the run read the
    month beside it. (asked, read)."""
    asked = {_MONTHS[name]: name for kind, name, rx in _SIBLINGS
             if kind == "period" and name in _MONTHS and rx.search(_asked_text(case.input)) and not rx.search(case.output)}
    read = _read_on_other(case, asked, lambda text: {int(m): f"{y}-{m}" for y, m in _YEAR_MONTH.findall(text)},
                          figures=True)
    return (next(iter(asked.values())), read[min(read)]) if read else None


# Regions that make their own rules (states, provinces, a UK nation, a country), each with
# its largest cities: a place the user names is governed by its region's law. No container
# of another region (the US, Canada, the UK) and no city two regions share a name for.
_REGIONS = tuple(re.compile(r"\b(?:" + names.strip() + r")\b") for names in """
    California|Los Angeles|San Diego|San Francisco|San Jose|Sacramento|Oakland|Fresno
    New York|NYC|Brooklyn|Manhattan|Queens|Bronx|Buffalo|Albany
    Texas|Houston|Dallas|Austin|San Antonio|Fort Worth|El Paso
    Florida|Miami|Orlando|Tampa|Jacksonville
    Illinois|Chicago
    Washington State|Seattle|Spokane|Tacoma
    Colorado|Denver|Boulder
    Arizona|Phoenix|Tucson|Scottsdale
    Massachusetts|Boston
    Pennsylvania|Philadelphia|Pittsburgh
    Georgia|Atlanta
    Nevada|Las Vegas|Reno
    Michigan|Detroit
    Ohio|Cleveland|Cincinnati
    North Carolina|Charlotte|Raleigh
    New Jersey|Newark|Jersey City
    Minnesota|Minneapolis
    Tennessee|Nashville|Memphis
    Oregon
    Utah|Salt Lake City
    Louisiana|New Orleans
    Maryland|Baltimore
    Ontario|Toronto|Ottawa|Mississauga
    British Columbia|Vancouver
    Quebec|Québec|Montreal|Montréal
    Alberta|Calgary|Edmonton
    England|London|Manchester|Leeds|Liverpool|Bristol|Sheffield
    Scotland|Edinburgh|Glasgow|Aberdeen
    Wales|Cardiff|Swansea
    Northern Ireland|Belfast
    New South Wales|Sydney
    Queensland|Brisbane
    France|Paris|Lyon|Marseille
    Germany|Berlin|Munich|Hamburg|Frankfurt
    Spain|Madrid|Barcelona
    Italy|Rome|Milan
    Ireland|Dublin
    Netherlands|Amsterdam|Rotterdam
    """.strip().splitlines())
# The answer states a rule of that region: "Under New York's … Act", "In Los Angeles,
# LADBS exempts …", "Florida's point system".
_RULE_WORDS = re.compile(r"\b(?:under|per|according to|laws?|legal\w*|act|statutes?|code|"
                         r"regulations?|rules?|requires?|required|entitled|exempts?|points? system|"
                         r"ordinances?)\b", re.IGNORECASE)


def _jurisdiction_swap(case: RunCase) -> tuple[str, str] | None:
    """The request names where the user is; the answer states the rules of another region
    the request never names, and never names the user's region or any place in it
    (San Diego asked, New York's law answered): (asked, answered)."""
    asked = [(rx, m.group(0)) for rx in _REGIONS if (m := rx.search(case.input))]
    if not asked or any(rx.search(case.output) for rx, _ in asked):
        return None
    for sentence in split_claims(case.output):
        for rx in _REGIONS:
            m = rx.search(sentence)
            if m and not rx.search(case.input) and _RULE_WORDS.search(sentence):
                return asked[0][1], m.group(0)
    return None


def _same_shape(a: str, b: str) -> bool:
    """Two codes that differ only in their digits (error E24 / E15, room B12 / B07): the
    same series, another member of it."""
    a, b = a.lower(), b.lower()
    if len(a) != len(b) or a == b or not re.search(r"[a-z]", a) or not re.search(r"\d", a):
        return False
    return all(x == y or (x.isdigit() and y.isdigit()) for x, y in zip(a, b))


# A name written as a hyphenated compound (billing-prod, in-the-ear): its parts name a
# series, and another member differs in one of them (billing-dev, behind-the-ear).
_COMPOUND = re.compile(r"(?<![\w-])[a-z0-9]+(?:-[a-z0-9]+)+(?![\w-])")


# A name in code: a path, a file, a function, a table (config/prod.yaml, parse_date,
# orders.archive), its parts parted by "_", "/" or ".": another member differs in one.
_CODE_NAME = re.compile(r"(?<![\w./-])[a-z][a-z0-9]*(?:[_/.][a-z0-9]+)+(?![\w/-])")


def _one_part(a: str, b: str) -> bool:
    pa, pb = a.split("-"), b.split("-")
    if len(pa) == len(pb) == 1:
        # A name in code: the part both keep must name the series ("date" of parse_date),
        # not only number it (req_201 / email_201 are two records of one case).
        pa, pb = re.split(r"[_/.]", a), re.split(r"[_/.]", b)
        if not any(x == y and re.search(r"[a-z]", x) for x, y in zip(pa, pb)):
            return False
    return len(pa) == len(pb) > 1 and sum(x != y for x, y in zip(pa, pb)) == 1


# A name in code with its parts: config/prod.yaml, requirements-dev.txt, invoices_archive.
_CODE_PARTS = re.compile(r"(?<![\w./-])[a-z0-9]+(?:[_./-][a-z0-9]+)+(?![\w/-])")


def _shorter(name: str) -> list[str]:
    """The name with one of its parts dropped (invoices for invoices_archive,
    requirements.txt for requirements-dev.txt): another member of its series. Not a leading
    folder or qualifier (app.py is src/app.py written short, getmodpath self.getmodpath),
    nor the file's extension."""
    pieces = re.split(r"([_./-])", name)
    out = []
    for i in range(0, len(pieces), 2):
        if (i == 0 and pieces[1] in "/.") or (i == len(pieces) - 1 and pieces[i - 1] == "."):
            continue
        kept = pieces[:i - 1] + pieces[i + 1:] if i else pieces[2:]
        out.append("".join(kept))
    return out


def _subject(answer: str) -> str:
    """The answer's first words, where it names what it is about ("`compute_premium` is the
    main entry point"); a name further on may be a part of the thing asked ("it calls
    compute_premium twice")."""
    return " ".join(re.sub(r"`|\*\*", "", answer).split()[:_SUBJECT_AT])


_SUBJECT_AT = 3


def _part_dropped(request: str, texts: Sequence[str], *, acted: bool = False) -> tuple[str, str] | None:
    """The request names a thing in code (``invoices_archive``, ``compute_premium_adjustment``)
    which none of the texts (the run's arguments, or its answer) names, and they name it
    with a part dropped: the run took the series' other member. (asked, taken). An answer's
    word the request writes alone too ("how many invoices…") may be its own; an argument
    that stands where the asked name should (``FROM invoices``) is acted on."""
    lower = [t.lower() for t in texts]
    # A name in backticks is a name still; a pasted block is material, not the request.
    asked = _asked_text(_HANDED_TEXT.sub(" ", request).replace("`", " ")).lower()
    for name in dict.fromkeys(_CODE_PARTS.findall(asked)):
        # Words joined by hyphens are English (check-in, full-size), not a name in code.
        if not re.search(r"[_./\d]", name) or any(name in t for t in lower):
            continue
        for short in _shorter(name):
            alone = re.compile(rf"(?<![\w./-]){re.escape(short)}(?![\w/-])")
            if len(short) >= 4 and any(alone.search(t) for t in lower) and (acted or not alone.search(asked)):
                return name, short
    return None


def _acted_sibling(case: RunCase, embed: Embed) -> tuple[str, str] | None:
    """A sibling of the asked thing that a successful call acted on: (asked, acted on)."""
    # Code a call runs (a shell command, a patch) writes names short as a matter of course.
    args = [str(v) for c in case.tools_called if not _failed(c) for k, v in c.args.items()
            if not _program(k, str(v))]
    return _acted_on(case) or _read_other_person(case) or _other_member(case, embed) \
        or _part_dropped(case.input, args, acted=True) or _excluded_done(case) or _record_acted(case)


# A clause of the request that rules a thing out: "skip that one", "she doesn't need shoes",
# one that opens on "not" ("Not enrollments — people"),
# "the login page was done last sprint", "other than the Paris office".
_RULES_OUT = re.compile(r"^\s*not\b|\b(?:skip\w*|except|exclud\w*|other than|apart from|rather than|instead of|leave out|"
                        r"(?:do|does|did)(?:n't| not) need|no need|(?:was|were|is|are|been) (?:already )?done|"
                        r"already (?:done|have|has|had|got))\b", re.IGNORECASE)
_RULED_PHRASE = re.compile(r"\b(?:except|excluding|other than|apart from|rather than|instead of|leave out|skip)\b"
                           r"(?:(?!\b(?:from|of|in|on|at|for|with|to)\b)[^,;.])*", re.IGNORECASE)
_KEPT = re.compile(r"\bkeep(?:ing)?\s+(?:the|my|our|this|that|these|those)\b(?:(?!\b(?:but|and|so)\b)[^,;.])*",
                   re.IGNORECASE)
_REQUEST_CLAUSE = re.compile(r"[.;:!?\n\u2014\u2013]+|,\s*(?:so|but|and)?\s*|\s+(?:so|but)\s+", re.IGNORECASE)


_BECAUSE = re.compile(r"\b(?:because|since|as|cause)\b[^,;.]*$", re.IGNORECASE)


def _rules_out(clause: str) -> bool:
    """The clause puts a thing aside; "cancel them because I don't need them" gives the
    asked act's reason instead."""
    m = _RULES_OUT.search(clause)
    return m is not None and not _BECAUSE.search(clause[:m.start()])


def _excluded_done(case: RunCase) -> tuple[str, str] | None:
    """The request rules a thing out ("The login page was done last sprint, so skip that
    one"; "trim her hooves, she doesn't need shoes"), and the run's call was made on it: an
    argument names a word only the ruling-out clauses hold, the answer names it outside a
    negation, and a word of the asking clauses is in neither the answer nor any argument.
    The run did the thing the user put aside, not the one asked. (asked, done)."""
    clauses = [c for c in _REQUEST_CLAUSE.split(case.input) if c and c.strip()]
    # "return everything except the tablet from my recent order": what such a word rules out
    # is the phrase after it, up to a preposition; the rest of the clause still asks.
    cut = [(c, m) for c in clauses if (m := _RULED_PHRASE.search(c))]
    clauses = [p for c in clauses for p in next(
        ([c[:m.start()], m.group(0), c[m.end():]] for d, m in cut if d is c), [c]) if p.strip()]
    ruled = [c for c in clauses if _rules_out(c)]
    # "…was done last sprint, so skip that one": the thing a pointing clause rules out is
    # named in the clause before it.
    for i, c in enumerate(clauses):
        if _rules_out(c) and re.search(r"\b(?:that|this|it|them|those)\b", c, re.IGNORECASE) and i:
            ruled.append(clauses[i - 1])
    asking = [c for c in clauses if c not in ruled]
    if not ruled or not asking:
        return None
    own = {w for c in asking for w in _part_stems(c) if w.isalpha()}
    out = {w for c in ruled for w in _part_stems(c) if w.isalpha()} - own - _LIGHT_STEMS
    out -= {stem(m.group(0).split()[0].lower()) for m in _RULES_OUT.finditer(case.input)}
    calls = [c for c in case.tools_called if not _failed(c) and not _hands_off(c)]
    args = set().union(*(word_stems(tool_text(json.dumps(c.args, ensure_ascii=False))) for c in calls)) \
        if calls else frozenset()
    kept = [s for s in split_claims(case.output) if not _NEGATED.search(s)]
    said = set().union(*(word_stems(s) for s in kept)) if kept else frozenset()
    done = out & args & said
    missed = own - args - word_stems(case.output) - _LIGHT_STEMS
    if done and missed:
        return _written(min(missed), case.input), _written(min(done), case.output)
    return None


def _record_names(case: RunCase) -> set[str]:
    """Word values that tell a tool's records apart ("fuel: gas" / "fuel: electricity"):
    a key that holds two or more of them names the records, as a capitalised name would.
    Calls with the same arguments read one thing: a value that changed between them
    (`status: open`, then `status: cancelled` from the cancelling call) is what the run did
    to it, not another record."""
    by_key: dict[str, set[str]] = {}
    holders: dict[str, set[str]] = {}
    for c in case.tools_called:
        target = _called_on(c)
        lines = tool_text(c.output).splitlines()
        for i, line in enumerate(lines):
            # One record is one line of an output, or the whole output of a call on a target.
            record = target if len(lines) == 1 else f"{target}#{i}"
            for field in line.split("; "):
                key, _, value = field.partition(": ")
                key, value = key.strip(), value.strip().lower()
                if value and re.fullmatch(r"[a-z][a-z'-]+(?: [a-z][a-z'-]+)?", value):
                    by_key.setdefault(key, set()).add(value)
                    holders.setdefault(key, set()).add(record)
    return {v for key, values in by_key.items() if len(values) >= 2 and len(holders[key]) >= 2
            for v in values}


# A thing named by a label and a short number or letter: line 3, shaft 5, gate B, unit 4B.
# A number followed by a plural or a unit counts something ("take 2 tablets", "3 days").
_SLOT_NUMBER = (r"(\d{1,3}[A-Za-z]?|[A-Z])\b(?![.,:]\d)"
                r"(?!\s+[a-z]{3,}s\b)(?!\s*(?:%|(?:kg|km|mm|cm|ml|mg|lbs?|oz|min|hrs?|am|pm|[hmglst])\b))")
_SLOT = re.compile(r"\b([A-Za-z]{3,})\s+(?:no\.?\s*|#\s*)?" + _SLOT_NUMBER)
# The label's other numbers offered beside it ("bay 2 or 5", "kiln 1, 3 or 4"): each is asked.
_OTHER_SLOT = re.compile(r"\s*(?:,|/|\bor\b|\band\b)\s*" + _SLOT_NUMBER)


# A preposition before a number says when or how much ("since 5 day", "since 9 October",
# "for 2 nights"), never which thing: it is no label.
_NO_LABEL = frozenset("""since for until till after before from within over under about around
    than per during""".split())  # noqa: SIM905


def _slots(text: str) -> set[tuple[str, str]]:
    # "March 1", "June 16": a month and its day are a date, which a term may move (due on
    # the 1st, grace through the 31st), not a thing picked from its siblings. The label is
    # an English word: "je gor 30 ljudi" counts people ("gor", up), it names no slot.
    return {(stem(m.group(1).lower()), value.lower()) for m in _SLOT.finditer(text)
            if word_stems(m.group(1)) and stem(m.group(1).lower()) not in _REQUEST_WORDS
            and m.group(1).lower() not in _NO_LABEL and not dates(m.group(0))
            and m.group(1).lower() in vocab_words() for value in (m.group(2), *_other_slots(text, m))}


def _other_slots(text: str, slot: re.Match[str]) -> Iterator[str]:
    """The numbers the text offers beside the slot's, of its form (digits or a letter)."""
    end = slot.end()
    while (m := _OTHER_SLOT.match(text, end)) and m.group(1)[0].isdigit() == slot.group(2)[0].isdigit():
        yield m.group(1)
        end = m.end()


# A label and number said as where the user stands now ("it's week 8", "we're in year 2"):
# when the question is asked, not the thing it asks about.
_NOW_SLOT = re.compile(r"\b(?:it'?s|it is|we'?re (?:in|at|on)|we are (?:in|at|on)|i'?m (?:in|at|on)|"
                       r"i am (?:in|at|on)|currently(?: in| at| on)?)\s+(?:only\s+|already\s+)?"
                       r"([A-Za-z]{3,})\s+(\d{1,3}[A-Za-z]?)\b", re.IGNORECASE)


def _slot_swap(case: RunCase) -> tuple[str, str] | None:
    """The request names a thing by label and number (line 3); the answer names the same
    label with another number (Line 1) and never the one asked."""
    asked_text = _asked_text(case.input)
    now = {(stem(m.group(1).lower()), m.group(2).lower()) for m in _NOW_SLOT.finditer(asked_text)}
    asked, said = _slots(asked_text) - now, _slots(case.output)
    for label, value in sorted(asked):
        if (label, value) in said:
            continue
        other = sorted(v for lab, v in said if lab == label and (label, v) not in asked)
        if other:
            return f"{label} {value}", f"{label} {other[0]}"
    return None


def _phrase_body(word: str) -> str:
    # "one-way" also as "one way"/"oneway".
    return r"[\s-]?".join(re.escape(w) for w in word.split("-"))


@lru_cache(maxsize=4096)
def _phrase(word: str) -> re.Pattern[str]:
    # A word with its inflections ("cancelled").
    return re.compile(rf"\b{_phrase_body(word)}\w{{0,4}}\b", re.IGNORECASE)


def _says(word: str, text: str) -> bool:
    """The text writes the word, inflected ("cancelled") or in an irregular form ("sold"
    for sell, "paid" for pay)."""
    return bool(_phrase(word).search(text)) or any(
        _IRREGULAR_VERBS.get(w) == word for w in re.findall(r"[a-z]+", text.lower()))


# The user's side of a trade: selling their own thing (to the business or through it).
_SELLS = re.compile(r"\b(?:sell|selling|resell|reselling|resale|put (?:\w+ ){0,4}up for (?:re)?sale|"
                    r"list (?:it|them|my \w+) for sale|trade(?:-| )in)\b", re.IGNORECASE)
# An answer that treats the user as a buyer: stock to buy, a seat to reserve, a test drive.
_BUYS = re.compile(r"\b(?:in stock|reserve|buy|purchase|test drive|(?:tickets?|seats?) (?:are |is )?(?:still )?"
                   r"available|add (?:it|them) to (?:your )?(?:cart|basket))\b", re.IGNORECASE)
_SALE_SAID = re.compile(r"\b(?:sell\w*|sold|sale|resale|resell\w*|list\w*|valuation|valu\w+|offer\w*|"
                        r"payout|pay you|buy ?back|trade)\b", re.IGNORECASE)


# "Last week", "last Tuesday": when something was, not the last of several.
_LAST_PERIOD = re.compile(r"\blast (?:night|week|weekend|month|year|time|quarter|season|summer|winter|spring|"
                          r"autumn|fall|\w+day)\b", re.IGNORECASE)


# "left" and "right" as sides ("the left lane", "turn right"), not as what remains ("no
# BBQ left") or a time ("right now").
_SIDE = re.compile(r"\b(?:(?:on|to|at|from) (?:the|your|my|our) |turn |keep |bear |far |top |bottom |upper |lower |"
                   r"the )(left|right)\b|\b(left|right)[- ](?:hand|side|lane|wing|turn|exit|bank|corner|of)\b",
                   re.IGNORECASE)
# A yes-no question whose last word asks a state ("is the pool open tomorrow?", "was my
# claim approved?"): its opposite in the answer is the answer "no".
_YES_NO_LEAD = re.compile(r"^\W*(?:is|are|was|were|will|does|do|did|has|have|can|could)\b", re.IGNORECASE)
_STATE_END = r"\w{0,4}(?=\s*(?:[?.,!]|$)|\s+(?:tomorrow|today|tonight|now|yet|still|on|at|in|this|next|over|during|for|until|after|before)\b)"


def _state_asked(word: str, asked: str) -> bool:
    return any(_YES_NO_LEAD.match(q) and re.search(rf"\b{_phrase_body(word)}{_STATE_END}", q, re.IGNORECASE)
               for q in split_claims(asked))


def _opposite(case: RunCase) -> tuple[str, str] | None:
    asked, said = _LAST_PERIOD.sub(" ", _asked_text(case.input)), case.output
    if _SELLS.search(asked) and _BUYS.search(said) and not _SALE_SAID.search(said):
        return "sell", "buy"
    side_asked, side_said = ({(m.group(1) or m.group(2)).lower() for m in _SIDE.finditer(t)} for t in (asked, said))
    for a, b in (*_OPPOSITES, *_INVERSE_OPERATIONS):
        if {a, b} == {"left", "right"}:
            if (a in side_asked) != (b in side_asked) and (b if a in side_asked else a) in side_said - side_asked:
                return (a, b) if a in side_asked else (b, a)
            continue
        for x, y in ((a, b), (b, a)):
            if _state_asked(x, asked):
                continue
            px, py = _phrase(x), _phrase(y)
            # "Exchanged … the price difference refunded": the asked act named by a verb of
            # the same act ("swap" as "exchange") is done, the other a part of it.
            if px.search(asked) and not py.search(case.input) and py.search(said) and not _says(x, said) \
                    and not {v for v in _alike(stem(x)) - {stem(x)} if len(v) >= 5} & word_stems(said):
                return x, y
    return None


# An answer that frames itself for one side of a sale: "how to negotiate when buying",
# "tips for sellers".
_BUYER_SIDE = re.compile(r"\b(?:when|if you(?:'re| are)?|as an?|for(?: the)?) (?:buying|purchasing|a buyer|buyers|the buyer)\b",
                         re.IGNORECASE)
_SELLER_SIDE = re.compile(r"\b(?:when|if you(?:'re| are)?|as an?|for(?: the)?) (?:selling|a seller|sellers|the seller)\b",
                          re.IGNORECASE)
_BUYING = re.compile(r"\b(?:buy|buying|purchase|purchasing)\b", re.IGNORECASE)


def _other_side(case: RunCase) -> tuple[str, str] | None:
    """The user sells (or buys), and the answer's opening frames its advice for the other
    side ("I'm SELLING my Octavia" answered "how to negotiate when buying a 2015 Octavia")
    and never for the user's: (asked, answered)."""
    asked, opening = _asked_text(case.input), _opening(case.output)
    if _SELLS.search(asked) and not _BUYING.search(asked) and _BUYER_SIDE.search(opening) \
            and not _SELLER_SIDE.search(case.output):
        return "sell", "buy"
    if _BUYING.search(asked) and not _SELLS.search(asked) and _SELLER_SIDE.search(opening) \
            and not _BUYER_SIDE.search(case.output):
        return "buy", "sell"
    return None


# Asked to move a quantity one way, the run moved it the other: "lower the spawn rate by
# 20%" answered "changed spawnRatePerMinute from 10 to 12". The verbs of a change's
# direction, not of any domain.
_DOWN = _phrases(r"lower|reduce|decrease|cut|shorten|shrink|drop|bring down|turn down|tone down|slow down")
_UP = _phrases(r"raise|increase|boost|bump up|extend|lengthen|grow|turn up|speed up")
_FROM_TO = re.compile(r"\bfrom\s+\$?(\d+(?:\.\d+)?)\s*\S{0,3}\s+to\s+\$?(\d+(?:\.\d+)?)", re.IGNORECASE)


def _changed_other_way(case: RunCase) -> tuple[str, str] | None:
    """The request asks to lower (or raise) something, and every change the answer reports
    "from A to B" goes the other way: (asked, done). A sentence that declines or negates
    ("I can't lower it: it moved from 40 to 45 in April") tells no change of the run's."""
    asked = _asked_text(case.input)
    down, up = bool(_DOWN.search(asked)), bool(_UP.search(asked))
    moves = [(float(a), float(b), m.group(0)) for sentence in split_claims(case.output)
             if not _NEGATED.search(sentence)
             for m in _FROM_TO.finditer(sentence) for a, b in [m.groups()] if a != b]
    if down == up or not moves:
        return None
    if all((b > a) == down for a, b, _ in moves):
        return ("lower" if down else "raise"), moves[0][2]
    return None


def _reversed_route(case: RunCase) -> tuple[str, str] | None:
    def routes(text: str) -> list[tuple[str, str]]:
        out = []
        for m in _ROUTE.finditer(text):
            src, dst = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            out.append((src.lower(), dst.lower()))
        out += [(m.group(1).lower(), m.group(2).lower()) for m in _LEGS.finditer(text)]
        return out

    def same(a: str, b: str) -> bool:
        # "downtown" and "Downtown Central" are one place, named more or less fully.
        wa, wb = set(a.split()), set(b.split())
        return wa <= wb or wb <= wa

    asked, answered = routes(case.input), routes(case.output)
    # An answer that also goes the asked way (a round trip's outbound leg before its
    # return) did not turn the request round.
    if any(same(src, a) and same(dst, b) for src, dst in answered for a, b in asked):
        return None
    for src, dst in answered:
        if any(same(dst, a) and same(src, b) for a, b in asked):
            return src, dst
    if (side := _moved_side(case)) is not None:
        return side
    # Asked to move something to a place, the answer moves it out of that place, and never
    # into it: the other way round.
    wanted = [m.group(1).lower() for m in _MOVED_TO.finditer(_asked_text(case.input))]
    if not any(same(dst, w) for _, dst in answered for w in wanted):
        for src, dst in answered:
            if any(same(src, w) for w in wanted):
                return src, dst
    return None


# A hire's two ends told as its legs: "pick up in Cluj-Napoca on 19 Dec, drop off in Brașov",
# "collected at Heathrow and returned to Gatwick".
_PLACE = r"([A-Z\u00c0-\u00de][\w.-]*(?:[ -][A-Z\u00c0-\u00de][\w.-]*)?)"
_LEGS = re.compile(r"\b(?i:pick(?:ed|ing|s)?[- ]?up|collect(?:ed|ing|s)?)\s*(?i:in|at|from|:)?\s+" + _PLACE
                   + r"[^.?!]{0,80}?\b(?i:drop(?:ped|ping|s)?[- ]?off|return(?:ed|ing|s)?)\s*(?i:in|at|to|:)?\s+"
                   + _PLACE)


# A move told from where each side stands: the user moves a thing to the agent "over here",
# "to you", "with you"; the agent, to itself, "to us", "into our …", and out of itself
# "out of our pharmacy", "away from us".
_MOVE_TO = r"\b(?:mov|transfer|switch|port|bring|migrat)\w*\b[^.?!]{0,60}?\b"
_TO_YOU = re.compile(_MOVE_TO + r"(?:over here|to here|(?:over )?to you|with you)\b", re.IGNORECASE)
_FROM_YOU = re.compile(_MOVE_TO + r"(?:out of|away from|from) (?:you|your)\b", re.IGNORECASE)
_TO_US = re.compile(_MOVE_TO + r"(?:(?:over )?to|into|with) (?:us|our)\b", re.IGNORECASE)
_FROM_US = re.compile(_MOVE_TO + r"(?:out of|away from|from) (?:us|our)\b", re.IGNORECASE)


def _moved_side(case: RunCase) -> tuple[str, str] | None:
    """Asked to move a thing to the agent's side, the answer moves it out of it and never
    into it, or the other way: (from, to) as the answer goes."""
    asked = _asked_text(case.input)
    if _TO_YOU.search(asked) and _FROM_US.search(case.output) and not _TO_US.search(case.output):
        return "us", "elsewhere"
    if _FROM_YOU.search(asked) and _TO_US.search(case.output) and not _FROM_US.search(case.output):
        return "elsewhere", "us"
    return None


# Units of one dimension: an amount asked in one and answered, same number, in another is
# a conversion the wrong way round (800 EUR asked, "$800 gets you €736" answered).
_DIMENSIONS = (frozenset(_MONEY_UNITS - {"%"}), frozenset({"km", "mi", "m", "ft", "cm", "in", "mm"}),
               frozenset({"kg", "lb", "g", "oz", "t"}), frozenset({"l", "ml", "gal"}),
               frozenset({"c", "f"}), frozenset({"m2", "ft2"}))


# A currency named with its country ("850 US dollars", "300 Canadian dollars") is that
# currency: the country between the number and the unit hides the amount's unit.
_CURRENCY_COUNTRY = re.compile(r"(?<=\d)\s+(?:U\.?S\.?|American|Canadian|Australian|New Zealand|"
                               r"Hong Kong|Singapore|British|Japanese)(?=\s+(?:dollar|pound|yen)s?\b)")


def _unit_swap(case: RunCase) -> tuple[str, str] | None:
    """The request's amount comes back with the same number in another unit of its
    dimension, and never in its own: (asked, answered)."""
    said = quantities(_CURRENCY_COUNTRY.sub("", case.output))
    for q in quantities(_CURRENCY_COUNTRY.sub("", _asked_text(case.input))):
        dim = next((d for d in _DIMENSIONS if q.unit in d), None)
        if dim is None or any(a.value == q.value and a.unit == q.unit for a in said):
            continue
        other = next((a for a in said if a.value == q.value and a.unit in dim - {q.unit}), None)
        if other is not None:
            return q.text, other.text
    return None


# What a change in general carries: an upgrade or a downgrade (a change of level); an exchange,
# a swap or a replacement (a change of item: modify_order_items exchanges a pending item).
_CARRIED_CHANGES = frozenset(stem(w) for w in ("upgrade", "downgrade", "exchange", "swap", "replace"))
_GENERAL_CHANGES = frozenset(stem(w) for w in ("change", "update", "modify", "edit", "adjust", "switch"))


def _compound_stems(text: str) -> frozenset[str]:
    """The text's stems, with each hyphenated compound's words besides ("two-storey",
    "late-return" name "storey" and "return")."""
    return word_stems(text) | word_stems(text.replace("-", " "))


_WHICH_THING = re.compile(r"\b(?:the|my|our|this|that|these|those)\s+[a-z]+\s+(?:i|we|you|u)\s+[a-z]+\b",
                          re.IGNORECASE)


_INSTEAD = re.compile(r"\binstead\b", re.IGNORECASE)


_IMPLIED_ACTS = ((re.compile(r"\b(?:my|the|our|their|her|his) money back\b|\breimburse", re.IGNORECASE), "refund"),
                 (re.compile(r"\b(?:in|into|under|to) (?:her|his|their|\w+['\u2019]s) name\b", re.IGNORECASE),
                  "transfer"))


_NEGATED_ACT = re.compile(r"\b(?:don'?t|do not|never|not)\s+([a-z]+)", re.IGNORECASE)


def _taken_back(request: str) -> set[str]:
    """The stems of the acts the request negates ("don't cancel"); "not cancelled" tells a
    state, not an act taken back."""
    return {stem(w) for w in (m.group(1).lower() for m in _NEGATED_ACT.finditer(request.replace("\u2019", "'")))
            if not w.endswith(("ed", "ing"))}


# Arguments that name a generic call's act: lic_request({"action": "assign"}).
_ACT_KEYS = frozenset({"action", "operation", "op"})


def _act_argument(call: ToolCall) -> set[str]:
    """The act a generic call performs, as an argument names it in one word."""
    return {stem(str(v).lower()) for k, v in call.args.items()
            if k.lower() in _ACT_KEYS and isinstance(v, str) and v.isalpha()}


# A request that sets what it asks against what it does not: "I want to APPEAL this
# ticket, not pay it", "the daily fixed bit, not the usage", "refund it rather than credit".
_RULED_OUT_TAIL = re.compile(r"(?:,|\s[\u2014\u2013-])\s*(?:and\s+)?(?:not|rather than|instead of)\s+"
                             r"(?:(?:the|my|a|an|to|for)\s+)?([a-z][a-z-]{2,})\b", re.IGNORECASE)


_NOT_RULING = frozenset("just only sure even also yet now all too very really that this".split())  # noqa: SIM905


def _ruled_out_told(case: RunCase) -> tuple[str, str] | None:
    """The request asks one thing and rules out another in the same sentence ("appeal this
    ticket, not pay it"); the answer names the ruled-out one ("You can pay PCN …") and none
    of the words of what the sentence asks: it took up the thing the user set aside.
    (asked, told)."""
    said = word_stems(case.output)
    # The request as written: the asked text drops what it rules out.
    for sentence in split_claims(case.input):
        m = _RULED_OUT_TAIL.search(sentence)
        # "not just …", "not only …" add; "not yet", "not sure" rule nothing out.
        if m is None or m.group(1).lower() in _NOT_RULING:
            continue
        ruled, asking = stem(m.group(1).lower()), _part_stems(sentence[:m.start()])
        wanted = [w for w in _in_order(asking - _LIGHT_STEMS, sentence) if len(w) >= 3 and w.isalpha()]
        if ruled in said and wanted and not set(wanted) & said and ruled not in asking:
            return _written(wanted[0], sentence), _written(ruled, case.output)
    return None


def _other_action(case: RunCase) -> tuple[str, str] | None:
    """The request names an operation; the run performed another (a successful call whose
    name holds a different operation) and never the one asked."""
    # A verb in the past tells what happened ("I've changed my mind", "it was cancelled"),
    # not what is asked.
    # Nor a verb in a clause that says which thing ("the ticket I buy for Saturday", "the
    # car we rent"): it names the object, the act asked comes after.
    asked = {stem(w) for w in _act_words(_WHICH_THING.sub(" ", _asked_text(case.input)))
             if not w.endswith("ed")} & _OPERATIONS
    # A caller who takes an act back ("cancel my order, no no wait, don't cancel, just
    # change the address") no longer asks it, wherever it was said first.
    asked -= _taken_back(case.input)
    # A date put in place of the booked one ("I booked the 20th but need to go on 22 Nov
    # instead") asks a change, however worded.
    if not asked and _INSTEAD.search(case.input) and dates(case.input):
        asked = {stem("change")}
    # An act asked by what it brings about, with no operation word: "I want my money back"
    # asks a refund, "put the ticket in her name" a transfer.
    asked |= {stem(act) for said, act in _IMPLIED_ACTS if said.search(_asked_text(case.input))}
    # Some operation words are also nouns ("the $89 charge", "my subscription"), in the
    # answer and in a call's name alike: what counts is an asked act the answer never names.
    # Named in a verb of the same act too: "I moved your booking" names the change asked.
    said = _compound_stems(case.output)
    unnamed = {a for a in asked if not _alike(a) & said}
    if not unnamed:
        return None
    acts = []
    for c in case.tools_called:
        words = [stem(w) for w in re.split(r"[_\W]+", c.name.lower()) if w]
        # A call that opens on a read verb (get_order, list_events) changes nothing: the
        # operation word after it is the thing read.
        if _failed(c) or not words or words[0] in _READ_VERBS or _hands_off(c):
            continue
        # An act an argument names counts when the answer reports it too ("submitted the
        # request to assign"): told as another word ("paused" for "suspend"), it was a
        # synonym of the asked act.
        acts.append((c, (set(words) | _act_argument(c) & said) & (_OPERATIONS | _ACTION_VERBS)))
    # A call's name opens on its act (cancel_order cancels; the subscription of
    # cancel_subscription is its object): a run that performed an asked act did what was
    # asked, whatever else the request's words name ("my open order").
    # A call that changes a thing in general (change_plan, update_subscription,
    # modify_order_items) can carry what _CARRIED_CHANGES names; its name says no other act.
    # A call's own name follows its service's ("plans.terminate", "billing.change_plan"); a
    # change it names anywhere ("tenant.schedule_change") is a change all the same.
    own = [_NAMESPACE.sub("", c.name) for c, _ in acts]
    if any(_alike(_call_verb(name)) & asked
           or _GENERAL_CHANGES & {stem(w) for w in re.split(r"[_\W]+", name.lower())} and asked & _CARRIED_CHANGES
           for name in own):
        return None
    for c, verbs in acts:
        # A call named by a verb of the same act (reserve_table for "book") did what was asked.
        if verbs and not any(_alike(v) & unnamed for v in verbs):
            request = _asked_text(case.input)
            did = min(v for v in verbs if v not in asked) if verbs - asked else min(verbs)
            return (_written(_in_order(unnamed, request)[0], request),
                    _written(did, c.name.replace("_", " ")))
    return None


# --- another task, told in plain words ---
# The request's act: the verb after its lead ("how do I clear…", "can you correct…", "I want
# to withdraw…"). Light verbs carry their meaning in what follows them ("set up", "take off",
# "get rid of"), so they name no act of their own; nor do the other words a lead or a
# purpose clause may catch ("you can also…", "for example").
_ASK_LEAD = re.compile(r"\b(?:how (?:do|can|should|would|could|shall) (?:i|we|you|u|one)|how to|"
                       r"(?:can|could|would|will) (?:you|u)(?: please)?|please|pls|plz|"
                       r"i (?:want|need|would like|'d like|wanna) to|i'm trying to|help me)\s+([a-z]+)",
                       re.IGNORECASE)
# The answer's stated purpose: "To equalise, …", "For removing the background…", "You can
# sort…", or a sentence that opens on a gerund ("Keeping the chain clean…").
_PURPOSE = re.compile(r"(?:^|[.!?]\s+|\n)(?:(?:sure|ok|okay|no problem|hello|hi|yes)[!,.]*\s+)?"
                      r"(?:to|for) ([a-z]+)\b|(?<!so )(?<!that )(?<!then )\byou can (?:easily |simply |also )?([a-z]+)\b|"
                      r"(?:^|\n)([A-Z][a-z]{2,}ing)\b(?<!thing)(?<!morning)(?<!evening)"
                      r"(?<!during)(?<!spring)", re.IGNORECASE)
_LIGHT_VERBS = frozenset("""i we you a an the my me it this that your our be do have get make go
    know tell help find see use set put take give keep let look try start begin need want like
    now also example instance more check name""".split())  # noqa: SIM905


def _act_swap(case: RunCase) -> tuple[str, str] | None:
    """The request asks one act and the answer, never naming it or a verb of the same act,
    states as its purpose another that the request does not name (asked to remove
    duplicates, "You can sort a list…"; asked to take him off the squad, "you can put his
    registration on hold"): (asked, answered)."""
    request = _asked_text(case.input)
    m = _ASK_LEAD.search(request)
    lead = m.group(1).lower() if m else ""
    # A verb with its particle is the act it names ("turn off" is disabling).
    said = _phrasal_act(request[m.start():] if m else request) or (
        lead if lead not in _LIGHT_VERBS else "")
    if not said:
        return None
    asked = _alike(stem(said))
    if asked & word_stems(case.output):
        return None
    for p in _PURPOSE.finditer(" ".join(split_claims(case.output)[:2])):
        # "For April to June…" opens on a name, not on a purpose.
        if p.group(1) and p.group(1)[0].isupper():
            continue
        verb = next(g for g in p.groups() if g).lower()
        verb = _phrasal_act(case.output[p.start():p.end() + 40]) or (
            verb if verb not in _LIGHT_VERBS else "")
        if not verb:
            continue
        if stem(verb) in word_stems(case.input) or stem(verb) in asked or _alike(stem(verb)) & asked:
            return None
        # A change in general ("You can switch in the app") carries an upgrade, a downgrade
        # or an exchange, as a change_plan call does in _other_action.
        if stem(verb) in _GENERAL_CHANGES and asked & _CARRIED_CHANGES:
            return None
        return said, verb
    return None


_COUNT_WORDS = _phrases(r"one|two|three|four|five|six|seven|eight|nine|ten|twelve|none|a few|"
                        r"several|dozens?")
# A length of time as the languages users write in name it: English, and after a number
# (some are English words too: "ore", "an") Spanish, Portuguese, French, Italian, German, Dutch.
_DURATION_WORDS = re.compile(
    r"\b(?:days?|weeks?|hours?|minutes?|months?|years?|overnight)\b|\d\s*(?:d[ií]as?|semanas?|horas?|"
    r"minutos?|mes(?:es)?|m[eê]s|a[ñn]os?|jours?|semaines?|heures?|mois|ans?|ann[ée]es?|giorn[oi]|"
    r"settiman[ae]|or[ae]|minut[io]|mes[ei]|ann[oi]|tage?n?|wochen?|stunden?|minuten|monate?n?|jahre?n?|"
    r"dagen|dag|weken|maand(?:en)?|jaar|uur)\b", re.IGNORECASE)
_LONG_ANSWER_WORDS = 20  # one sentence this long says more than "until the spray dries"
# A question for a length of time, in the same languages: "how long", "how many weeks",
# "how much time", "cuánto tiempo", "combien de temps", "wie lange".
_ASKS_DURATION = re.compile(
    r"\b(?:how long|how much time|how many (?:days|weeks|months|years|hours|minutes)|"
    r"cu[aá]nto tiempo|cu[aá]ntos (?:d[ií]as|meses|a[ñn]os)|quanto tempo|combien de temps|"
    r"combien de (?:jours|semaines|mois)|wie lange|wie viele (?:tage|wochen|monate|jahre)|hoe lang)\b",
    re.IGNORECASE)


def _value_unmet(case: RunCase) -> str | None:
    """A question (the request's only one) for an amount, a count or a duration, and an
    answer of two sentences or more (for a duration, one long one) that states none and
    is no refusal or question back: it answered another question (`how much does it cost`
    with upload steps; `how many months to pay back` with the lifetime value)."""
    asked_text = _asked_text(case.input)
    m = _ASKS_DURATION.search(asked_text) or _ASKS_VALUE.search(asked_text)
    out = case.output
    # A duration asked is met by a length of time, whatever else the answer counts: one
    # long sentence of figures that are no time answers another question too.
    duration = m is not None and m.re is _ASKS_DURATION
    long_enough = len(split_claims(out)) >= 2 or duration and len(out.split()) >= _LONG_ANSWER_WORDS
    # Of a request in several parts, one left unanswered is a partial answer, not this.
    if m is None or len(_parts(asked_text)) > 1 or not long_enough \
            or out.rstrip().endswith("?") or is_refusal(out) or _WITHHELD.search(out):
        return None
    # Any number counts (10p, a rate in a unit nobody lists), but not a list's own.
    numbered = bool(re.search(r"(?<![A-Za-z])\d", _LIST_MARK.sub(" ", out)))
    asked = m.group(0).lower()
    if duration:
        met = bool(dates(out) or clock_times(out) or _DURATION_WORDS.search(out)) or any(
            q.unit in _DURATION_UNITS for q in quantities(out))
    else:
        met = numbered or bool(_FREE.search(out) or asked == "how many" and _COUNT_WORDS.search(out))
    return None if met else asked


# Kinds of text a user asks to have written; an answer headed by another kind wrote that.
_TEXT_KINDS = frozenset("""email letter note message caption post tweet memo memorandum reply
    invoice reminder announcement receipt report summary agenda poem speech toast bio review
    """.split())  # noqa: SIM905
_WRITE = re.compile(r"\b(?:write|draft|compose|create|prepare)\b(?:\s+(?:me|us|up))?\s+"
                    r"(?:a|an|the|my|our)?\s*(?:[\w'-]+\s+){0,3}?(" + "|".join(sorted(_TEXT_KINDS))
                    + r")s?\b", re.IGNORECASE)
_TO_WHOM = re.compile(r"\bto\s+(?:(?:my|our|the)\s+)?((?:[A-Z][a-z]+\s+)?[A-Z][a-z]+|[a-z]+)")


def _draft_swap(case: RunCase) -> tuple[str, str] | None:
    """Asked to write one kind of text (a caption, a reminder, a letter to someone), the
    answer is headed as another (``MEMORANDUM``, ``INVOICE #0087``) or signed by the one
    it was to be sent to: (asked, written)."""
    m = _WRITE.search(case.input)
    lines = [line.strip() for line in case.output.strip().splitlines() if line.strip()]
    if m is None or not lines:
        return None
    kind = m.group(1).lower()
    first = re.match(r"[#*\s]*([A-Za-z]+)", lines[0])
    heading = first.group(1).lower() if first else ""
    if heading in _TEXT_KINDS and heading != kind and kind not in case.output.lower() \
            and {heading, kind} != {"memo", "memorandum"}:
        return kind, f"{'an' if heading[0] in 'aeiou' else 'a'} {heading}"
    # A signature: the last line, a few words, after a body of two lines or more.
    if len(lines) >= 3 and len(lines[-1].split()) <= 4:
        signed = {w.lower().strip(",.") for w in lines[-1].split()}
        for to in _TO_WHOM.finditer(case.input[m.start():]):
            whom = {w.lower() for w in to.group(1).split()} - {"me", "you", "us", "them", "it"}
            if whom & signed:
                return f"{kind} to {to.group(1)}", f'signed "{lines[-1]}"'
    return None


# Who a text is written to: the words after "to" up to what it is to say ("… to our
# translator Yuki telling her …", "… to the florist (Bloom & Wild Stems) confirming …").
_ADDRESSEE = re.compile(r"\s+to\s+([^.;:!?\n]{2,60}?)(?=,?\s+(?:\w+ing|that|about|re|for|with|so|and)\b|[.;:!?\n]|$)")
# A text's greeting line ("Dear Mr. Tanaka,", "Hi Mara,", "Dear Northgate team,").
_GREETING = re.compile(r"^[ \t]*(?:dear|hi|hello|hey)\s+([^\n,]{1,50}?)[ \t]*[,:!]?[ \t]*$", re.IGNORECASE | re.MULTILINE)
_ADDRESS_WORDS = frozenset({"mr", "mrs", "ms", "miss", "dr", "prof", "sir", "madam"})  # titles and forms of address


def _greeted_other(case: RunCase) -> tuple[str, str] | None:
    """Asked to write to someone the request names ("a short email to our translator Yuki",
    "a note to our insurer, Marlow Marine"), the text greets someone else by name: none of
    the addressee's names is in its greeting, none of the greeting's names is anywhere in
    the request ("Dear Mr. Tanaka,"), and the evidence names both. A greeting to no one by name ("Hi everyone,", "Dear
    Sir or Madam,") and an addressee named only by role ("the tenor") tell nothing.
    (addressee, greeting)."""
    # A title's full stop ("to Dr. Okafor asking …") does not end the addressee.
    request = re.sub(rf"\b({_TITLE})\.", r"\1", case.input)
    m = _WRITE.search(request)
    to = _ADDRESSEE.match(request, m.end()) if m else None
    greeting = _GREETING.search(case.output)
    if to is None or greeting is None:
        return None
    names = {w.lower() for w in re.findall(r"\b[A-Z][\w'-]+", to.group(1))}
    greeted = {w.lower() for w in re.findall(r"\b[A-Z][\w'-]+", greeting.group(1))} - _ADDRESS_WORDS
    # An addressee named by role ("to the florist") and a greeting to a name the request
    # gives only after the addressee, as what the message is about ("the Ramos service"):
    # the text is written to the party it is about.
    about = {w.lower() for w in re.findall(r"\b[A-Z][\w'-]+", request[to.end():])}
    if not names and greeted and greeted <= about and _ROLE_ADDRESSEE.fullmatch(to.group(1).strip()):
        return to.group(1).strip(), greeting.group(1).strip()
    if not names or not greeted or names & greeted \
            or greeted & {w.lower() for w in re.findall(r"[\w'-]+", case.input)}:
        return None
    # Only where the evidence names both, as two parties: a name the request does not give
    # may be the addressee's own ("to our distributor in Osaka", "Tanaka-san"; "the Ashbys",
    # "Anna and Tom").
    known = {w.lower() for w in re.findall(r"[\w'-]+", " ".join([*case.context, *(c.output for c in case.tools_called)]))}
    named = names & known and greeted & known or _PERSON_AT.match(to.group(1)) and _GREETED_NAME.match(greeting.group(1))
    return (to.group(1).strip(), greeting.group(1).strip()) if named else None


# An addressee by role alone: "the florist", "our landlord", "my kid's teacher".
_ROLE_ADDRESSEE = re.compile(r"(?:the|my|our|his|her|their)\s+(?:[a-z'-]+\s+)?[a-z]{3,}")
# A person by name, not a place or a firm: with a title ("Mr. Okafor", "Dr Patel"), or one
# name with where they are ("Anna at Kessler Bakery", "Lena from accounts"); a greeting's
# name alone ("Marco"). Two such names that differ are two people, whatever the evidence
# says; a firm is not one ("to Acme": its "Dear Ms. Lee" greets a person there).
_TITLE = "|".join(_TITLES)
_TITLED = rf"(?:{_TITLE})\.?\s+[A-Z][a-z]+"
_PERSON_AT = re.compile(rf"(?:{_TITLED}|[A-Z][a-z]+\s+(?:at|from)\s+\S.*)$")
_GREETED_NAME = re.compile(rf"(?:{_TITLED}|[A-Z][a-z]+)$")


# Someone other than the user: a relation or a third person's pronoun. Relations come in
# groups that name one person alike (my son is "your child"); another group's word names
# someone else ("your parent account" is the user's own).
_KIN_GROUPS = ("son daughter kid kids child children baby toddler teen teenager",
               "wife husband partner boyfriend girlfriend spouse",
               "mom mum mother dad father parent parents",
               "brother sister sibling", "grandma grandpa grandmother grandfather",
               "niece nephew", "colleague coworker boss employee", "tenant", "friend")
_KIN = {w: group.split() for group in _KIN_GROUPS for w in group.split()}
_THIRD_PARTY = re.compile(r"\b(?:my|our)\s+(?:\d+\s*(?:yo|year[- ]old)\s+)?("
                          + "|".join(sorted(_KIN, key=len, reverse=True)) + r")\b|"
                          r"\b(?:her|his|their)\b", re.IGNORECASE)
_GIVER = re.compile(r"\s+(?:\w+\s+)?(?:gave|got|bought|sent|lent|left|gifted|passed|handed|"
                    r"made|recommended)\s+(?:me|us|it|them)\b", re.IGNORECASE)
_THIRD_PERSON_WORDS = re.compile(r"\b(?:he|she|him|her|his|hers|they|them|their)\b", re.IGNORECASE)


_POSSESSIVE = re.compile(r"['\u2019]s?\b")
_USERS_OWN = re.compile(r"\byour own\b|\(you\)|\byourself\b", re.IGNORECASE)
# The request asks for the user's own beside the other person's: "everyone else in my family
# has it for their flights, I need it sorted for mine" ("not mine" rules it out instead).
_MINE = re.compile(r"(?<!not )(?<!n't )\b(?:mine|my own)\b", re.IGNORECASE)


def _owner_shift(case: RunCase) -> str | None:
    """The request is about someone else's thing (my daughter's login, his pass) and the
    answer of two sentences or more speaks only of the user's own (your password, your
    account), never naming that person (their relation or name) or a third person: the
    person asked about. Another relation in the answer is the user's ("your parent
    account")."""
    # "the card my sister gave me", "a voucher from my boss": the person gave the thing, it
    # is the user's own; so is the thing passed on "to my sister": she receives it.
    # But "to my daughter's line" is hers: the possessive names her thing, not a receiver.
    m = next((m for m in _THIRD_PARTY.finditer(case.input)
              if not _GIVER.match(case.input, m.end())
              and not (case.input[:m.start()].lower().endswith(("from ", "to "))
                       and not _POSSESSIVE.match(case.input, m.end()))), None)
    out = case.output
    # A text written to that person ("Dear Mr Varga, could you come in …") speaks to them as
    # "you". A one-sentence answer says whose only when it names the user as the one served
    # ("for Hiroshi Sato (you)", "your own line").
    # A reply to thanks or goodbye ("You're welcome! … your understanding") is about no thing.
    if m is None or _THIRD_PERSON_WORDS.search(out) or not re.search(r"\byour\b", out, re.IGNORECASE) \
            or (len(split_claims(out)) < 2 and not _USERS_OWN.search(out)) or _drafted(case) \
            or _MINE.search(case.input) or _CLOSING.match(out):
        return None
    # The person by name ("my daughter Lily") or by a word of the same relation. A name is
    # a capitalised word inside a sentence: "GLUCO-FIT" names the trial, not the person.
    names = [w.group(0) for w in _NAME.finditer(case.input)
             if w.start() and not re.search(r"[.!?]\s*$", case.input[:w.start()])]
    names += _KIN[m.group(1).lower()] if m.group(1) else []
    if any(re.search(rf"\b{re.escape(n)}\b", out, re.IGNORECASE) for n in names):
        return None
    return m.group(0)


# Written or explained for a child or a beginner: the answer must be in plain words.
_FOR_A_CHILD = re.compile(r"\b(?:write|explain|tell|describe|note|story|letter|message)\b.*\b(?:for|to) "
                          r"(?:my |our |a |an )?(?:\d+[- ]?(?:year[- ]old|yo)|kids?|child(?:ren)?|"
                          r"toddlers?|beginners?)\b", re.IGNORECASE | re.DOTALL)
_LONG_WORDS = 0.15  # share of words of nine letters or more: a clinician's or a lawyer's register


def _register_swap(case: RunCase) -> float:
    """Asked to write or explain for a child or a beginner, the answer is in an expert's
    register ("Tonsillectomy is indicated for recurrent tonsillitis…"): the share of its long
    words, or 0."""
    if not _FOR_A_CHILD.search(case.input):
        return 0.0
    words = re.findall(r"[A-Za-z]+", case.output)
    share = sum(len(w) >= 9 for w in words) / len(words) if words else 0.0
    return share if share >= _LONG_WORDS else 0.0


def _another_task(case: RunCase) -> str:
    """The answer does another task than the one asked, read from the words alone: another
    act, a value of another kind, another kind of text or sender, another person's
    thing, another audience. What it says, or ""."""
    if act := _act_swap(case):
        return f'asked to "{act[0]}", the answer sets out to "{act[1]}"'
    if value := _value_unmet(case):
        return f'asked "{value}", the answer states no such value'
    if draft := _draft_swap(case):
        return f"asked for a {draft[0]}, the answer is {draft[1]}"
    if greeted := _greeted_other(case):
        return f'asked to write to {greeted[0]}, the text greets "{greeted[1]}"'
    if whose := _owner_shift(case):
        return f'asked about "{whose}", the answer speaks only of the user\'s own'
    if long_words := _register_swap(case):
        return f"asked in plain words for a child or a beginner, {long_words:.0%} of the answer's words are long"
    if condition := _condition_swap(case):
        return f'asked about "{condition[0]}", the answer is for "{condition[1]}"'
    if _translated_unasked(case):
        return "asked to work on the text given, the answer translates it instead"
    if kinds := _presented_other_kind(case) or _presented_other_statement(case):
        return f"asked for a {kinds[0]}, the answer presents a {kinds[1]}"
    return ""


# The statements a bookkeeper draws up, each under its names: a cash-flow overview is no
# profit and loss.
_STATEMENTS = {
    "cash-flow statement": r"cash[- ]?flows?",
    "profit and loss": r"profit (?:and|&) loss|p ?& ?l|income statement|resultatrekening",
    "balance sheet": r"balance sheet|balans",
    "budget": r"budget",
}
_FINANCIAL_STATEMENT = re.compile("|".join(f"(?P<s{i}>{rx})" for i, rx in enumerate(_STATEMENTS.values())),
                                  re.IGNORECASE)
_PRESENTS_STATEMENT = re.compile(r"^\W*(?:(?:sure|ok|okay|done)\W+)?(?:here(?:'s| is| are)|below (?:is|are)|"
                                 r"attached (?:is|are)|i(?:'ve| have) (?:made|built|drafted|prepared|put together))\s+"
                                 r"(?:a|an|the|your|my)?\s*(?:[\w'-]+\s+){0,3}?(?=" + _FINANCIAL_STATEMENT.pattern + ")",
                                 re.IGNORECASE)


def _statements(text: str) -> set[str]:
    """The statements a text names, each by its first name."""
    names = list(_STATEMENTS)
    return {names[int(k[1:])] for m in _FINANCIAL_STATEMENT.finditer(text) for k, v in m.groupdict().items() if v}


def _presented_other_statement(case: RunCase) -> tuple[str, str] | None:
    """Asked for one financial statement (a cash-flow overview), the answer opens by
    presenting another (a profit and loss) and never names the asked one: (asked,
    presented)."""
    asked = _statements(_asked_text(case.input))
    presented = _PRESENTS_STATEMENT.match(case.output)
    if not asked or presented is None:
        return None
    shown = _statements(case.output[presented.end():][:40])
    if not shown or shown & asked or asked & _statements(case.output) or shown & _statements(case.input):
        return None
    return min(asked), min(shown)


# Kinds of document a user asks to have drawn up, by family: a letter and an email are one
# family ("draft a reply" answered "here's an email"), a checklist and a letter are not.
_DOCUMENT_FAMILIES = {
    "message": "email letter note message reply memo memorandum announcement reminder notice invitation",
    "list": "checklist list agenda itinerary schedule timetable plan",
    "bill": "invoice receipt quote estimate",
    "contract": "contract lease agreement waiver",
    "prose": "report summary review bio poem speech toast caption post tweet essay proposal",
    "title": "headline tagline slogan title",
}
_DOCUMENT_FAMILY = {kind: family for family, kinds in _DOCUMENT_FAMILIES.items() for kind in kinds.split()}
_DOCUMENT_KIND = "|".join(sorted(_DOCUMENT_FAMILY, key=len, reverse=True))
_DRAW_UP = re.compile(r"\b(?:write|draft|compose|create|prepare|draw up)\b(?:\s+(?:me|us|up))?\s+"
                      rf"(?:a|an|the|my|our)?\s*(?:[\w'-]+\s+){{0,3}}({_DOCUMENT_KIND})s?\b", re.IGNORECASE)
# The answer presenting what it drew up: "Here's the lease renewal letter for unit 4B:".
_PRESENTS = re.compile(r"^\W*(?:here(?:'s| is| are)|below (?:is|are)|attached (?:is|are)|"
                       r"i(?:'ve| have) (?:drafted|written|prepared|put together))\s+(?:a|an|the|your|my)?\s*"
                       rf"(?:[\w'-]+\s+){{0,3}}({_DOCUMENT_KIND})s?\b", re.IGNORECASE)


def _presented_other_kind(case: RunCase) -> tuple[str, str] | None:
    """Asked to draw up one kind of document (a move-in inspection checklist), the answer
    opens by presenting one of another family (a lease renewal letter) and never names the
    asked kind: it drew up another document. (asked, presented)."""
    asked, presented = _DRAW_UP.search(_asked_text(case.input)), _PRESENTS.search(case.output)
    if asked is None or presented is None:
        return None
    want, got = asked.group(1).lower(), presented.group(1).lower()
    if _DOCUMENT_FAMILY[want] == _DOCUMENT_FAMILY[got] or re.search(rf"\b{want}", case.output, re.IGNORECASE):
        return None
    return want, got


def _translated_unasked(case: RunCase) -> bool:
    """The user hands over a text to work on (to fix, shorten, answer) and asks no
    translation in any language; the answer opens on a translation of it: it did another
    task with the right text."""
    request = case.input
    if not _HANDED_TEXT.search(request) or _TRANSLATE.search(_HANDED_TEXT.sub(" ", request)):
        return False
    first = next((line for line in case.output.splitlines() if line.strip()), "")
    return bool(_TRANSLATE.search(first))


# The condition the user puts on the question: a role ("as a landlord"), and a bound
# ("kids under 5", "over 65").
_ROLE = re.compile(r"\bas an? ((?:[a-z]+[- ])?[a-z]{3,})\b", re.IGNORECASE)
# A unit may follow the bound's number unspaced ("under 40m²").
_BOUND = re.compile(r"\b(?:(under|below|less than|younger than|up to|over|above|more than|older than|"
                    r"at least)\s+(\d+)(?!\d|\.\d)|(\d+)\s*(?:\+|and (?:over|up|above|older)|or (?:over|more|older))\b)",
                    re.IGNORECASE)
_FOR_THING = re.compile(r"\bfor (?:a|an|the|my|our) ((?:[\w-]+ )?[\w-]{3,})", re.IGNORECASE)
_OPENS_FOR = re.compile(r"(?:(?:sure|ok|okay|yes|no)[!,.]*\s+)?for (?:a|an|the|your) ((?:[\w-]+ )?[\w-]{3,}),?",
                        re.IGNORECASE)
_UPPER = frozenset({"under", "below", "less than", "younger than", "up to"})
_PERIOD = re.compile(r"\b(?:night|day|weekend|week|fortnight|month|year|season|summer|winter|spring|autumn|"
                     r"holidays?|morning|afternoon|evening|term|semester|quarter)s?$", re.IGNORECASE)


def _ranges(text: str) -> list[tuple[float, float, str]]:
    out = []
    for m in _BOUND.finditer(text):
        word, n = (m.group(1) or "").lower(), float(m.group(2) or m.group(3))
        out.append((float("-inf"), n, m.group(0)) if word in _UPPER else (n, float("inf"), m.group(0)))
    return out


def _condition_swap(case: RunCase) -> tuple[str, str] | None:
    """The answer holds for another condition than the one asked, and never for the asked
    one: another role (a landlord asks, "as a homeowner living in the property" answers),
    or a bound that cannot meet the asked one ("under 5" asked, "aged 8 and over"
    answered). (asked, answered)."""
    out, answer = case.output, _compound_stems(case.output)
    asked_role = _ROLE.search(case.input)
    given_role = _ROLE.search(out)
    if asked_role and given_role and not word_stems(asked_role.group(1)) & answer \
            and not word_stems(given_role.group(1)) & word_stems(case.input):
        return asked_role.group(0), given_role.group(0)
    # "grind size for a Moka pot" answered "For a French press go coarse…": the answer
    # opens on the thing it is for, and that is not the thing asked.
    # "for the weekend" is how long, not what for.
    asked_for = next((m for m in _FOR_THING.finditer(case.input) if not _PERIOD.search(m.group(1))), None)
    given_for = _OPENS_FOR.match(out.strip())
    if asked_for and given_for and not word_stems(asked_for.group(1)) & answer \
            and not word_stems(given_for.group(1)) & word_stems(case.input):
        return asked_for.group(0), given_for.group(0).rstrip(" ,")
    asked_ranges, given_ranges = _ranges(case.input), _ranges(out)
    if asked_ranges and given_ranges and all(
        not re.search(rf"(?<![\d.]){a[0] if a[0] != float('-inf') else a[1]:g}(?![\d.])", out)
        for a in asked_ranges
    ):
        for a in asked_ranges:
            for g in given_ranges:
                if a[1] <= g[0] or g[1] <= a[0]:
                    return a[2], g[2]
    return None


# The one a call's argument names, by its role: a person or an animal the run looked up.
_PERSON_ARGS = frozenset("""child kid student pupil patient employee member customer client
    donor player pet passenger guest tenant user person name""".split())  # noqa: SIM905
_PERSON_VALUE = re.compile(r"[A-Z][a-z]+(?:\s+[A-Z][a-z]*\.?)?")

# An argument that holds a program (a command line, code, a file's new text) is what the
# run ran or wrote, not the record it acted on: its numbers are line numbers and literals.
_PROGRAM_ARGS = frozenset("command cmd code script source file_text old_str new_str content patch".split())  # noqa: SIM905


def _program(key: str, value: str) -> bool:
    return key in _PROGRAM_ARGS or "\n" in value.strip()


def _acted_on(case: RunCase) -> tuple[str, str] | None:
    """The thing a successful call acted on is a sibling of the one asked, which no call
    names: another code of the series (billing-prod asked, `account: billing-dev` read),
    another person (Leo asked, `child: Mia R.`), another day of the month (the 11th asked,
    `date: 2026-12-12`). The answer may never say so. (asked, acted on)."""
    args = [(key.lower(), str(value)) for call in case.tools_called if not _failed(call)
            for key, value in call.args.items() if isinstance(value, (str, int))
            and not isinstance(value, bool) and not _program(key, str(value))]
    if not args:
        return None
    flat = " ".join(value for _, value in args).lower()
    request = case.input.lower()
    asked = {t: k for t, k in _idents(_prose(case.input)).items() if k != "name"}
    asked.update((w, "compound") for w in _COMPOUND.findall(_prose(case.input).lower()))
    for term, kind in asked.items():
        if term in flat:
            continue
        for _, value in args:
            found = {**_idents("- " + value), **{w: "compound" for w in _COMPOUND.findall(value.lower())}}
            for other, other_kind in found.items():
                if other not in request and (other_kind == kind or {kind, other_kind} <= {"code", "number"}) \
                        and (_near(term, other) or _same_shape(term, other) or _one_part(term, other)):
                    return term, value
    if kind_of := _other_of_kind(case.input, args, flat):
        return kind_of
    people = [value for key, value in args if key.split("_")[0] in _PERSON_ARGS
              and _PERSON_VALUE.fullmatch(value.strip())]
    names = {t for t, k in _idents(case.input).items() if k == "name" and t.isalpha()}
    for value in people:
        first = value.split()[0].lower()
        # The record read on the person holds a name the request gives (the address
        # "Hillcrest, Leeds" of a job asked about in Hillcrest): that person is the user.
        read = " ".join(tool_text(c.output) for c in case.tools_called
                        if not _failed(c) and value in map(str, c.args.values())).lower()
        if first not in request and names and not names & set(flat.split()) \
                and not names & set(re.findall(r"[a-z]+", read)):
            return min(names), value
    place = _other_region(case)
    if place is not None:
        return place
    days = {int(m.group(1)) for m in _DAY_OF_MONTH.finditer(case.input)}
    acted = {parts[2] for _, value in args for _, readings in dates(value) for parts in readings
             if parts[2] is not None}
    if days and acted and not days & acted:
        return f"the {min(days)}", next(value for _, value in args if dates(value))
    return None


# A person the request names by their tie to the user: "my daughter Ella", "Jordan Ellis on
# my team".
_TIED_PERSON = re.compile(r"\b(?:my|our)\s+(?:" + "|".join(sorted(_KIN, key=len, reverse=True)) + r")\s+"
                          r"([A-Z][a-z]+)\b|\b([A-Z][a-z]+ [A-Z][a-z]+),? (?:on|in|from) (?:my|our) "
                          r"(?:team|staff|department|class)\b")


def _read_other_person(case: RunCase) -> tuple[str, str] | None:
    """The request names someone by their tie to the user; the run read another person's
    record (``name: Daniel Hughes`` for "my daughter Ella") and neither the answer nor any
    record names the one asked: (asked, read)."""
    asked = [m.group(1) or m.group(2) for m in _TIED_PERSON.finditer(case.input)]
    if not asked:
        return None
    seen = f"{case.output}\n" + "\n".join(tool_text(c.output) for c in case.tools_called)
    if any(re.search(rf"\b{re.escape(name.split()[0])}\b", seen) for name in asked):
        return None
    for call in case.tools_called:
        for line in tool_text(call.output).splitlines():
            for field in line.split("; "):
                key, _, value = field.partition(": ")
                last = key.split()[-1].split("_")[0] if key.split() else ""
                if last in _PERSON_ARGS and _PERSON_VALUE.fullmatch(value.strip()):
                    return asked[0], value.strip()
    return None


def _other_of_kind(request: str, args: list[tuple[str, str]], flat: str) -> tuple[str, str] | None:
    """A code the request names by its kind ("the release/2.4 branch", "bay 12B"), which
    no call names, and a call that ran under that kind's key on another value
    (``branch: main``). Dates and times are left to the day check: they are written many
    ways."""
    for key, value in args:
        for kind in (k for k in key.split("_") if len(k) >= 3):
            m = re.search(rf"(?<![\w/.-])([\w./-]*[\d/][\w./-]*)\s+{kind}s?\b|\b{kind}\s+([\w./-]*[\d/][\w./-]*)",
                          request, re.IGNORECASE)
            named = (m.group(1) or m.group(2)).lower().strip(".,/") if m else ""
            # A code (a letter or a slash with its digits), not a count ("5 clients") or a
            # bare number, which the checks of near spellings read.
            if re.search(r"[a-z/]", named) and named not in flat and value.lower() not in request.lower() \
                    and not (dates(named) or clock_times(named) or dates(value) or clock_times(value)):
                return named, f"{key}: {value}"
    return None


# A place with its region: "Portland, Maine", "Springfield, IL".
_QUALIFIED = re.compile(r"\b([A-Z][a-z]+(?: [A-Z][a-z]+)*), ([A-Z][a-z]+|[A-Z]{2})\b")


def _region_of(short: str, full: str) -> bool:
    """One region written twice: equal, or the short one its initial and then some of its
    letters in order (ME of Maine)."""
    short, full = short.lower(), full.lower()
    rest = iter(full[1:])
    return short == full or short[0] == full[0] and all(ch in rest for ch in short[1:])


def _other_region(case: RunCase) -> tuple[str, str] | None:
    """The request names a place with its region; a successful call was made on (or
    returned) the same place name in another region, and none in the one asked (Portland,
    Maine asked, `location: Portland, OR` read)."""
    calls = [c for c in case.tools_called if not _failed(c)]
    run = [text for c in calls for text in (" ".join(str(v) for v in c.args.values()),
                                            tool_text(c.output))]
    read = [(m.group(1), m.group(2)) for text in run for m in _QUALIFIED.finditer(text)]
    for m in _QUALIFIED.finditer(case.input):
        name, region = m.group(1), m.group(2)
        same = [r for n, r in read if n.lower() == name.lower()]
        if same and not any(_region_of(r, region) or _region_of(region, r) for r in same):
            return m.group(0), f"{name}, {same[0]}"
    return None


_SOURCE_COS = 0.5  # the answer is drawn from that part: at least this close to it
_REMARK_COS = 0.35  # a clause farther than this from every part is drawn from none

_DRAWN_MARGIN = 3  # or this many more of the answer's own words come from its source
_ENTRY_WORDS = 5  # and this much closer than to any part that holds the asked-for word
_SEGMENT = re.compile(r"(?<=[.;])\s+|\n+|\s+[\u2014\u2013]\s+(?=[A-Z])")


def _entries(case: RunCase) -> list[tuple[str, int]]:
    """The evidence in entries, each with its source (context documents first, then tool
    outputs): a document's sentences and clauses, a short one (a heading, "1099-NEC:
    nonemployee compensation.") joined to the one after it; a tool output's records, one
    per line."""
    out: list[tuple[str, int]] = []
    for d, doc in enumerate(case.context):
        pending = ""
        for seg in _SEGMENT.split(doc):
            seg = f"{pending} {seg}".strip()
            if len(seg.split()) < _ENTRY_WORDS:
                pending = seg
                continue
            out.append((seg, d))
            pending = ""
        if pending:
            out.append((pending, d))
    for c, call in enumerate(case.tools_called, len(case.context)):
        # A hand-off's receipt ("Transfer successful") holds nothing the answer draws on.
        if not _hands_off(call):
            out.extend((line, c) for line in tool_text(call.output).splitlines() if len(line.split()) >= 2)
    return out


def _called_on(call: ToolCall) -> str:
    """What a call was made on: its arguments. Calls with the same arguments read one thing."""
    return json.dumps(call.args, sort_keys=True, default=str)


def _target(case: RunCase, source: int) -> str | None:
    """What an evidence source was called on; None for a context document."""
    if source < len(case.context):
        return None
    return _called_on(case.tools_called[source - len(case.context)])


def _segments(case: RunCase) -> list[str]:
    return [text for text, _ in _entries(case)]


def _in_order(stems: frozenset[str] | set[str], text: str) -> list[str]:
    """The stems in the order the text first writes a word of them (those it never writes
    last, alphabetically): what a rule reports must not hang on set order."""
    first: dict[str, int] = {}
    for i, w in enumerate(_words(text)):
        first.setdefault(stem(w.replace("-", "")), i)
    return sorted(stems, key=lambda s: (first.get(s, len(first)), s))


_ACRONYM_WORD = re.compile(r"\b[A-Z]{4,6}\b")
def _spelled_out(evidence: str, request: str) -> set[str]:
    """The evidence's acronyms the request spells out (``spelt_out``), as stems."""
    return {stem(a.lower()) for a in _ACRONYM_WORD.findall(evidence) if spelt_out(a, request)}


_TITLE_WORDS = 8  # a title is short


def _titled(doc: str, word: str) -> bool:
    """The word is in the document's title, which names what every entry of it is about:
    the short lead of its one colon ("Product sheet (80 lb concrete mix): …", not the
    terms' every clause before the one that has a colon), a short first line ("Fan Fest
    licence conditions"), or a short first sentence in title case ("Drivers' Terms and
    Conditions Agreement 2019.")."""
    title, colon, _ = doc.partition(":")
    if colon and doc.count(":") == 1 and word in word_stems(title) \
            and len(re.findall(r"[A-Za-z][\w'-]*", title)) <= _TITLE_WORDS:
        return True
    first, newline, _ = doc.strip().partition("\n")
    sentence = split_claims(first)[0] if first.strip() else ""
    words = re.findall(r"[A-Za-z][\w'-]*", sentence)
    short = 0 < len(words) <= _TITLE_WORDS
    line_title = bool(newline) and sentence == first.strip() and short and not first.rstrip().endswith(".")
    # A title tells no figure (a year at most) and heads more text.
    cased = short and len(doc.strip()) > len(sentence) and not re.search(r"\d", re.sub(r"\b(?:19|20)\d\d\b", "", sentence)) \
        and _title_cased(words)
    return (line_title or cased) and word in word_stems(sentence)


def _title_cased(words: Sequence[str]) -> bool:
    """Half the longer words or more open on a capital, as a title writes them."""
    longer = [w for w in words if len(w) > 3]
    return 2 * sum(w[0].isupper() for w in longer) >= len(longer)


# A sentence that opens by pointing back at the one before: it is the same passage.
_GOES_ON = re.compile(r"(?:where|when|if|unless|except|otherwise|in (?:that|which|this|such) case|however|"
                      r"but|it|this|that|these|those|such|they)\b", re.IGNORECASE)


# A year ("2024/25") or a reference ("ref BC/24/1187") in a title tells no figure.
_TITLE_MARKS = re.compile(r"\b(?:19|20)\d\d(?:/\d\d)?\b|\S*[A-Za-z/]\S*\d\S*|\S*\d\S*[A-Za-z/]\S*")


def _title_line(doc: str) -> tuple[str, str]:
    """A document's first line where it is a title over more lines (no figure in it but a
    year or a reference), and the rest; ``("", doc)`` where it has none. An event's heading
    in title case says when it is ("Spring Fair — Sunday 8 May 2025, Town Hall"); a
    sentence that states dates ("… applies to those born after 6 April 1951") is none."""
    first, newline, rest = doc.strip().partition("\n")
    if not newline:
        return "", doc
    if re.search(r"\d", _TITLE_MARKS.sub(" ", first)) and (
            re.search(r"\d", _TITLE_MARKS.sub(" ", _undated(first)))
            or not _title_cased(re.findall(r"[A-Za-z][\w'-]*", first))):
        return "", doc
    return first, rest


def _wrong_source(case: RunCase, embed: Embed) -> tuple[str, str] | None:
    """The evidence holds a word of the request that the answer lacks, and the answer is
    plainly drawn from another part of the evidence: it answered from the wrong document
    or row (the FSA line for an HSA question). Returns (missing word, that part)."""
    entries = _entries(case)
    segments = [text for text, _ in entries]
    if len(segments) < 2:
        return None
    said = word_stems(case.output)
    # A tool record holds a word in its values: a field's name ("rooms", "balance") is in
    # every record of its kind and tells none apart.
    seg_stems = [word_stems(seg if src < len(case.context) else "; ".join(
        f.partition(": ")[2] or f for f in seg.split("; "))) for seg, src in entries]
    # Of a multi-part request, the part the answer took up: a part left out is
    # TASK_COMPLETION's business, not a misunderstanding.
    part = max(_parts(_asked_text(case.input)) or [case.input],
               key=lambda p: len(_part_stems(p) & said))
    missing = [w for w in _in_order(_part_stems(part) - said - _ATTRIBUTE_WORDS, part)
               if len(w) >= 3 and any(w in st for st in seg_stems)]
    # An acronym of the evidence that the request spells out ("home equity line of credit"
    # for HELOC) is the request's word too.
    missing += [a for a in sorted(_spelled_out(" ".join(segments), part))
                if a not in said and a not in missing and any(a in st for st in seg_stems)]
    if not missing:
        return None
    vectors = embed([head(t, _EMBED_WORDS) for t in [case.output, *segments]])
    n = len(segments)
    cos = [float(vectors[0] @ vectors[i + 1]) for i in range(n)]
    best = max(range(n), key=lambda i: cos[i])
    # The part the answer is drawn from holds a word of the request the answer lacks too,
    # one that tells it from other parts (the dissent, in a case named in the majority's
    # heading): it is the part asked about. Not a word of its document's title that other
    # entries of the document hold too ("Harbor terms." over each clause of the terms):
    # it tells that document from others, not one of its entries.
    where = entries[best][1]
    # Not where another part holds each word of the request this one holds, and more (the
    # inside dimensions asked, the outside ones told: "dimensions" tells neither apart).
    asked = (_part_stems(part) | set(missing)) - frozenset.intersection(*seg_stems)
    held = {w for w in asked & seg_stems[best] if not _titled_over(case, entries, seg_stems, best, w)}
    if cos[best] < _SOURCE_COS or held & set(missing) and not any(
            held < asked & st for i, st in enumerate(seg_stems) if i != best):
        return None
    # Where each clause of the answer comes from: one drawn from an entry holding the
    # word means the answer did take up the thing asked about; a clause of an entry's
    # length that is far from every entry ("That's plenty for most homes.") is the
    # answer's own remark, drawn from none ("Yes.", a name, is too short to tell).
    # Embedded only now: most answers stop at the test above (a vector does not depend on
    # its batch).
    # Bounded: in a chat the answer read may be everything the agent said.
    parts = [c for sent in split_claims(case.output) for c in clauses(sent)][:_MAX_UNITS]
    clause_vectors = embed([head(t, _EMBED_WORDS) for t in parts]) if parts else []
    clause_cos = [[float(v @ vectors[i + 1]) for i in range(n)] for v in clause_vectors]
    sources = {_argmax(c) for c, t in zip(clause_cos, parts, strict=True)
               if max(c) >= _REMARK_COS or len(t.split()) < _ENTRY_WORDS}
    # The answer's own words (those the request does not bring) by source: the document or
    # tool output they were taken from, when the cosines alone cannot tell two entries apart.
    own = said - word_stems(case.input)
    drawn = {src: len(own & word_stems(" ".join(t for t, s in entries if s == src)))
             for src in {s for _, s in entries}}
    for w in missing:
        holding = [i for i, st in enumerate(seg_stems) if w in st]
        # A document whose title holds the word is about the thing asked, in every entry.
        titled = where < len(case.context) and _titled(case.context[where], w)
        other = {entries[i][1] for i in holding}
        # Calls with the same arguments read one thing: a word it held before the run acted
        # on it (`status: open`, then `cancelled`) is that thing's past, not another part.
        if all(_target(case, s) is not None and _target(case, s) == _target(case, where)
               for s in other):
            continue
        # The sentence right after the one drawn on, in the same document, that points back
        # to it goes on with its passage (a rule and its exception: "Where it does, the
        # departmental award is reduced."): the answer drew on the part that names the word.
        if best + 1 in holding and where < len(case.context) and entries[best + 1][1] == where \
                and _GOES_ON.match(entries[best + 1][0]):
            continue
        # One tool output's record and a part of it of another kind (an incident and its
        # actions, "actions desc: bund liner repair"): the answer drew on the asked record.
        if where >= len(case.context) and any(entries[i][1] == where and _nested_in(segments[best], segments[i])
                                               for i in holding):
            continue
        lexical = where not in other and drawn[where] - max(drawn[s] for s in other) >= _DRAWN_MARGIN
        # A word found only in the run's own records (the caller's job history: "the leak you
        # fixed"), the answer drawn from a document that holds another word of the request the
        # answer says and no such record holds ("under warranty"): the request asks what the
        # rules say of its thing, and the answer took that up. Unless the answer names what
        # the request does not ("Care Plus" asked, "Care Basic" told): it took another thing.
        if where < len(case.context) and all(s >= len(case.context) for s in other) \
                and _part_stems(part) & said & seg_stems[best] - set().union(*(seg_stems[i] for i in holding)) \
                and key_terms(case.output) <= key_terms(case.input):
            continue
        # The word only in the opening entry or the title line of the document the answer
        # drew on ("Westgate Clinic fit-out: Date for Completion …"): that document is about
        # the thing asked. Not in the line under a title line too short to stand alone,
        # joined to it (the first of a list: "BLUE bin: …"): the title is the opening.
        if where < len(case.context) and other == {where}:
            title, rest = _title_line(case.context[where])
            if all(i == 0 or entries[i - 1][1] != where for i in holding) and (not title or w in word_stems(title)) \
                    or w in word_stems(title) and w not in word_stems(rest):
                continue
        # A word only a table's header holds names a column, which the row drawn on holds as
        # every row does ("Max weight" over each size's row): that row may be the asked one.
        if where < len(case.context) and _in_header_only(case.context[where], segments[best], w):
            continue
        if best not in holding and not titled and not sources & set(holding) \
                and (cos[best] - max(cos[i] for i in holding) >= _SOURCE_MARGIN or lexical):
            return _written(w, part), segments[best]
    return None


def _titled_over(case: RunCase, entries: Sequence[tuple[str, int]], seg_stems: Sequence[frozenset[str]],
                 at: int, word: str) -> bool:
    """The word is in the title of the document the entry is from, and another entry of
    that document holds it too."""
    doc = entries[at][1]
    return doc < len(case.context) and _titled(case.context[doc], word) and any(
        word in seg_stems[i] for i, (_, d) in enumerate(entries) if d == doc and i != at)


def _in_header_only(doc: str, row: str, word: str) -> bool:
    """The row (or its part up to a semicolon) is one of a table the document holds, whose
    header holds the word and none of whose rows does."""
    entry = row.strip()
    return any(word in word_stems(header) and all(word not in word_stems(r) for r in rows)
               and any(r in entry or entry in r for r in rows) for header, rows in _markdown_tables(doc))


def _markdown_tables(doc: str) -> list[tuple[str, list[str]]]:
    """The document's markdown tables, each as its header line and its rows' lines (the
    rule under the header is neither)."""
    tables: list[tuple[str, list[str]]] = []
    within = False
    for line in doc.splitlines():
        row = _TABLE_ROW.match(line)
        within = within and row is not None
        if row is None or all(_TABLE_RULE.match(c) for c in row.group(1).split("|")):
            continue
        if within:
            tables[-1][1].append(line.strip())
        else:
            tables.append((line.strip(), []))
            within = True
    return tables


_KIN_COS = 0.45  # two names at least this close to the embedder are of one kind (two cities)
_SAME_COS = 0.8  # two plain words this close name one thing
# A plain word is kin only when clearly so: at names' 0.45 a verb or a kind word finds some
# value near it ("failing" and "denied", "airport" and "LAX"); two members sit closer (cello,
# violin 0.68).
_PLAIN_KIN = 0.6
_MEMBER_WORDS = 4  # a member is a name ("full-size cello"), not a sentence
_MEMBER_WORD = re.compile(r"[A-Za-z]{3,}")
# A word that orders, adds or ranks ("a second guest", "the nearest branch") picks which
# one, and names no member.
_PICKS = re.compile(r"second|third|fourth|fifth|next|last|extra|additional|another|new|\w+est")


def _other_member(case: RunCase, embed: Embed) -> tuple[str, str] | None:
    """The request names one member of a kind, which no call, record or word of the answer
    names, and a successful call ran on another member of it, which the answer names: the
    kind is an argument's key the request names after its member ("the downtown branch",
    ``branch: airport``), or the member is a name and the embedder puts the call's word
    beside it (Barcelona asked, ``property: maritim-valencia`` read; Oakland asked, a search
    for "Berkeley shed permit"). (asked, acted on)."""
    calls = [c for c in case.tools_called if not _failed(c)]
    args = [(key.lower(), str(value)) for c in calls for key, value in c.args.items()
            if isinstance(value, str) and not _program(key, value)]
    if not args:
        return None
    seen = " ".join([*(v for _, v in args), *(tool_text(c.output) for c in calls), case.output]).lower()
    said, asked = word_stems(case.output), word_stems(case.input)
    skip = _REQUEST_WORDS | _LIGHT_STEMS | _WHICH_STEMS
    # A name is also written with a capital inside it ("iOS", "eBay").
    names = sorted({n for n in key_terms(_asked_text(case.input)) if n.isalpha() and len(n) >= 3}
                   | {w.lower() for w in re.findall(r"\b[a-z]+[A-Z][A-Za-z]*\b", _asked_text(case.input))})
    for key, value in args:
        members = {w.lower() for w in _MEMBER_WORD.findall(value) if not re.search(r"\d", value)}
        # The call's member, as the answer says it, and nowhere in the request.
        theirs = [w for w in members if word_stems(w) & said and not word_stems(w) & asked]
        if not theirs:
            continue
        kinds = [k for k in key.split("_") if len(k) >= 3]
        by_key = [m.group(1) for k in kinds for m in re.finditer(rf"\b([A-Za-z]{{3,}})\s+{k}s?\b", case.input,
                                                                  re.IGNORECASE)]
        mine = [w.lower() for w in by_key if not word_stems(w) & skip and not _PICKS.fullmatch(w.lower())]
        for word in mine:
            if not re.search(rf"\b{re.escape(word)}", seen):
                return f"{word} {kinds[0]}", f"{key}: {value}"
        # A plain word of the request names its thing too ("a full-size cello"), when no
        # call, record or word of the answer has it, nor its short form (euros, EUR). Only
        # a short value is a member: prose an argument carries (a thought, a message) is not.
        held = word_stems(seen)
        things = sorted({w for w in re.findall(r"[a-z]{4,}", _asked_text(case.input).lower())
                         if not word_stems(w) & (skip | held) and w not in names
                         and not any(len(t) >= 3 and w.startswith(t) for t in held)}
                        ) if len(value.split()) <= _MEMBER_WORDS else []
        if not names and not things:
            continue
        # The call's word stands for the request's name closest to it: "Milano" in a
        # search for a Milan-to-Florence train is Milan (a capital at the sentence's start
        # too), not a sibling of Florence.
        rivals = sorted({w.lower() for w in re.findall(r"\b[A-Z][a-z]{2,}\b", case.input)} | set(names)
                        | set(things))
        vectors = embed([*rivals, *theirs])
        for i in range(len(theirs)):
            cos = [float(vectors[j] @ vectors[len(rivals) + i]) for j in range(len(rivals))]
            name = rivals[_argmax(cos)]
            # A plain word this close is the same thing in other words (bike, bicycle).
            if max(cos) >= _KIN_COS and (name in names or name in things and _PLAIN_KIN <= max(cos) < _SAME_COS) \
                    and not re.search(rf"\b{re.escape(name)}", seen):
                return name, f"{key}: {value}"
    return None


def _holder_marks(case: RunCase, rows: list[dict[str, Any]]) -> set[str]:
    """The marks of the records that hold the list ``rows`` (the incident whose actions they
    are), values and field names: a word of the request they hold names that record, not
    an item of its list."""
    out: set[str] = set()
    for _, data in _json_outputs(case.tools_called):  # the calls rows are read from: those that worked
        stack = [data]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                if any(isinstance(v, list) and [n for n in v if isinstance(n, dict)] == rows for v in node.values()):
                    # Its fields' names too: "findings_closed" is what "is it closed?" asks of it.
                    out |= _marks(" ".join([*_scalars(node), *(str(k).replace("_", " ") for k in node)]))
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)
    return out


def _record_marks(answer: str) -> set[str]:
    """What tells a record apart as the answer writes it: its marks, with each hyphened
    compound's words besides ("a medium-roast bag" names the "medium" row)."""
    return _marks(answer) | _compound_stems(answer)


# A sum of four digits or more ("1140", "12.50" is not), no year: one record's own, as
# telling as its name and price together.
_OWN_SUM = re.compile(r"(?!(?:19|20)\d\d$)\d{4,}")


def _own_of(groups: Sequence[set[str]]) -> list[set[str]]:
    """What only each group holds: its marks less every other group's."""
    return [g - set().union(*(o for j, o in enumerate(groups) if j != i)) for i, g in enumerate(groups)]


def _asked_record(case: RunCase, rows: list[dict[str, Any]]) -> tuple[list[set[str]], int, set[str]] | None:
    """Of a list of records the run read, what only each holds, and the one the request
    names by what only it holds ("my savings account", "the 1200 crystals", "my HOME
    insurance") with those words; None where it names none, or two alike."""
    # What it rules out ("everything except the tablet", "keep the kettle, return the
    # rest") names a record the act is not for.
    asked = _marks(_KEPT.sub(" ", _RULED_PHRASE.sub(" ", _asked_text(case.input))))
    own = _own_of([_marks(" ".join(_scalars(r))) for r in rows])
    # A word of the request names a record by its start too ("home" for "homeowners").
    here = asked - _holder_marks(case, rows)
    named = [{w for w in o if w in here or any(len(a) >= 4 and w.startswith(a) for a in here)}
             for o in own]
    best = max(range(len(rows)), key=lambda i: len(named[i]))
    if not named[best] or sum(len(n) == len(named[best]) for n in named) > 1:
        return None
    return own, best, named[best]


def _asked_records(case: RunCase, *, tables: bool = False) -> Iterator[tuple[list[dict[str, Any]], list[set[str]], int, set[str]]]:
    """Each list of records the run read in which the request names one (``_asked_record``):
    the rows, each row's own marks, the named row and the request's words naming it. With
    ``tables``, a document's tables too: a row of one is a record as a call's is."""
    documents = [rows for doc in case.context for rows in _doc_tables(doc)] if tables else []
    for rows in [*_read_records(case.tools_called), *documents]:
        found = _asked_record(case, rows)
        if found is not None:
            yield rows, *found


def _record_swap(case: RunCase) -> tuple[str, str] | None:
    """Of a list of records the run read, the request names one, and the answer tells
    another by two things only that one holds (its name, its price, its code), or by a sum
    of its own, and nothing of the named one: it answered about the wrong record. (asked
    word, record told)."""
    told = _record_marks(case.output)
    for rows, own, best, named in _asked_records(case, tables=True):
        if own[best] & told:
            continue
        other = next((i for i, o in enumerate(own) if i != best and (len(o & told) >= 2 or any(
            _OWN_SUM.fullmatch(m) for m in o & told))), None)
        if other is not None:
            return _written(min(named), case.input), _record_line(rows[other])
    return None


def _record_line(row: dict[str, Any]) -> str:
    """A record's plain fields as one line, for reasoning a person reads."""
    return "; ".join(f"{k}: {v}" for k, v in row.items() if isinstance(v, (str, int, float)))


def _record_acted(case: RunCase) -> tuple[str, str] | None:
    """Of a list of records the run read, the request names one, and a call that acts (no
    read) was made on what only another holds (its id) and on nothing only the named one
    holds: it did the asked act to the wrong record, whatever the answer says of the
    named one ("your winter storage stays as it is"). (asked word, record acted on)."""
    acting = [c for c in case.tools_called
              if not _failed(c) and not _hands_off(c) and _call_verb(c.name) not in _READ_VERBS]
    if not acting:
        return None
    args = _marks(" ".join(str(v) for c in acting for v in c.args.values()))
    for rows, own, best, named in _asked_records(case):
        if own[best] & args:
            continue
        other = next((i for i, o in enumerate(own) if i != best and o & args), None)
        if other is not None:
            return _written(min(named), case.input), _record_line(rows[other])
    return None


def _kind_swap(case: RunCase) -> tuple[str, str] | None:
    """The same, when the request names a kind several records share ("add a battery" of
    two battery options and a panel one: a field whose value tells them apart): the answer
    tells a record of another kind by two things only it holds, nothing only a record of
    the named kind holds, and never the kind's own word. (asked kind, record told)."""
    # The kind is named where the request asks ("…what would a battery cost?"), not in a
    # statement ("I'm keeping the game") nor where it rules one out ("Not the washing machine").
    sentences = re.split(r"(?<=[.?!])\s+", case.input.strip())
    asking = [t for t in sentences if t.rstrip().endswith("?") or _opens_on_act(t) or _imperative(t)] or sentences
    asked = frozenset().union(*(word_stems(c) for t in asking for c in _REQUEST_CLAUSE.split(t)
                                if c and not _NEGATED.search(c) and not _RULES_OUT.search(c)))
    told = _record_marks(case.output)
    said = word_stems(case.output)
    plain = word_stems(" ".join(t for t in split_claims(case.output) if not _SETS_APART.search(t)))
    for rows in _read_records(case.tools_called):
        own = _own_of([_marks(" ".join(_scalars(r))) for r in rows])
        here = asked - _holder_marks(case, rows)
        for key in {k for r in rows for k, v in r.items() if isinstance(v, str)}:
            kinds = {str(r.get(key, "")).lower() for r in rows}
            # A kind is named by a word no other kind holds ("Skyfarm" is in both the game
            # and "500 Coins (Skyfarm)": it names neither).
            words = {v: set(word_stems(v.replace("_", " "))) for v in kinds}
            own_words = dict(zip(words, _own_of(list(words.values())), strict=True))
            named = [v for v in kinds if v and own_words[v] & here and not words[v] & said]
            if len(kinds) < 2 or len(named) != 1:
                continue
            mine = [i for i, r in enumerate(rows) if str(r.get(key, "")).lower() == named[0]]
            if len(mine) == len(rows) or any(own[i] & told for i in mine):
                continue
            # Told by two things only it holds, or by its kind's own word (the "contract" sent
            # when the deposit invoice was asked for) outside a sentence that sets it apart.
            other = next((i for i in range(len(rows)) if i not in mine and (
                len(own[i] & told) >= 2 or own_words[str(rows[i].get(key, "")).lower()] & plain)), None)
            if other is not None:
                return _written(min(own_words[named[0]] & asked), case.input), _record_line(rows[other])
    return None


def _doc_tables(doc: str) -> list[list[dict[str, str]]]:
    """The document's tables (a markdown one: a header row over rows), each as its rows,
    every cell under its header, as ``table_records`` writes them."""
    tables: list[list[dict[str, str]]] = []
    rows: list[dict[str, str]] = []
    for line in [*table_records(doc).splitlines(), ""]:
        fields = [f.partition(": ") for f in line.split("; ")]
        row = {k: v for k, sep, v in fields if sep} if all(sep for _, sep, _ in fields) else {}
        if len(row) >= _ITEM_FIELDS and (not rows or list(row) == list(rows[0])):
            rows.append(row)
            continue
        if len(rows) >= _ITEM_FIELDS:
            tables.append(rows)
        rows = [row] if len(row) >= _ITEM_FIELDS else []
    return tables


def _column_swap(case: RunCase) -> tuple[str, str] | None:
    """Of a table a document holds, the request names one column by a word only its header
    holds ("next season (2026)" of columns 2025 and 2026), and the answer restates rates or
    sums that only another column's cells hold and none of the named one's: it read the
    wrong column. (asked word, the column read)."""
    asked = _marks(_asked_text(case.input))
    told = _rates_and_sums(case.output)
    for doc in case.context:
        for rows in _doc_tables(doc):
            own = dict(zip(rows[0], _own_of([_marks(h) for h in rows[0]]), strict=True))
            named = [h for h in own if own[h] & asked]
            if len(named) != 1:
                continue
            cells = {h: _rates_and_sums(" ".join(r[h] for r in rows)) for h in own}
            mine = cells[named[0]]
            if not mine or mine & told:
                continue
            other = next((h for h in own if h != named[0] and not own[h] & asked and (cells[h] - mine) & told), None)
            if other is not None:
                return _written(min(own[named[0]] & asked), case.input), other
    return None


def _numeric_fields(node: Any) -> list[dict[str, float]]:
    """The JSON objects of three numeric fields or more, nested anywhere in ``node``."""
    out: list[dict[str, float]] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            nums = {str(k): float(v) for k, v in n.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
            if len(nums) >= 3:
                out.append(nums)
            stack.extend(n.values())
        elif isinstance(n, list):
            stack.extend(n)
    return out


def _numbers_in(node: Any) -> set[float]:
    return {float(v) for v in _scalar_values(node) if isinstance(v, int | float) and not isinstance(v, bool)}


def _sibling_branches(calls: Sequence[ToolCall]) -> list[list[tuple[str, set[float]]]]:
    """Groups of things the run read side by side, each by its label and its figures: the
    branches of one record ("baggage": {"checked": {...}, "cabin": {...}}), and the outputs
    of one tool called with different arguments (list_statements for ELECTRICITY, for GAS),
    labelled by the arguments that differ."""
    groups: list[list[tuple[str, set[float]]]] = []
    outputs: dict[str, list[tuple[ToolCall, Any]]] = {}
    for call, data in _json_outputs(calls):
        outputs.setdefault(call.name, []).append((call, data))
        stack = [data]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                kids = [(str(k), v) for k, v in node.items() if isinstance(v, dict)]
                if len(kids) >= 2:
                    groups.append([(k.replace("_", " "), _numbers_in(v)) for k, v in kids])
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)
    for same in outputs.values():
        if len(same) < 2:
            continue
        keys = set().union(*(c.args for c, _ in same))
        differ = [k for k in keys if len({str(c.args.get(k)) for c, _ in same}) == len(same)]
        groups.append([(" ".join(str(c.args.get(k, "")) for k in differ), _numbers_in(d)) for c, d in same])
    return groups


def _branch_swap(case: RunCase) -> tuple[str, str] | None:
    """Of two things the run read side by side (the cabin and the checked allowance, the gas
    and the electricity statements), the request names one by its label, the answer never
    names it and restates two figures only the other holds, and none only the named one
    holds: it answered about the sibling. (asked, told)."""
    asked = word_stems(_asked_text(case.input).lower())
    said = word_stems(case.output.lower())
    told = {q.value for q in quantities(case.output)}
    for group in _sibling_branches(case.tools_called):
        labels = [word_stems(label.lower()) - _REQUEST_WORDS - _WHICH_STEMS for label, _ in group]
        named = [i for i, words in enumerate(labels) if words & asked]
        if len(named) != 1 or labels[named[0]] & said:
            continue
        own = group[named[0]][1]
        for j, (label, figures) in enumerate(group):
            if j == named[0] or labels[j] & asked:
                continue
            shown = (figures - own) & told
            if len(shown) >= 2 and any(v >= 10 or v != int(v) for v in shown) and not (own - figures) & told:
                return group[named[0]][0], label
    return None


def _key_words(key: str) -> frozenset[str]:
    """The words of a key or a call's name ("credit_limit_thb", "records.intraday_positions":
    the last name after a dot is the call's own), units and codes dropped: "thb", "mw", "2026"."""
    name = re.sub(r"[_\-]|(?<=[a-z])(?=[A-Z])", " ", key.rsplit(".", 1)[-1])
    return frozenset(w for w in _part_stems(name) if w.isalpha() and len(w) >= 4)


_CLOCK_OR_DATE = re.compile(r"\b\d{1,2}:\d{2}\b|\b\d{4}-\d{2}-\d{2}\b")


_INSTANT = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)?")


def _key_swap(case: RunCase) -> tuple[str, str] | None:
    """The run read a matter in parts under keys: a record's fields ({"credit_limit_thb": …,
    "dividend_2026_thb": …}) or calls ("records.intraday_positions" beside
    "researcher.dam_results"). The request names one part by every word of its key ("his
    remaining credit limit", "net intraday position"), and the answer restates figures of
    another part while it gives no figure or name of the named one, nor the word that names
    it ("credit"; a word for what is asked of it, "limit", may go unsaid). (asked key, key told)"""
    asked = _part_stems(case.input)
    parts: list[tuple[str, str]] = []
    for call in case.tools_called:
        if _failed(call) or not call.output.strip():
            continue
        parts.append((call.name, call.output))
        try:
            data = json.loads(call.output)
        except ValueError:
            continue
        if isinstance(data, dict):
            # An id names its record: where the request writes another of the record's values
            # (its name, "Harbour Quay"), it asks about that record, and the id is no part of it.
            by_value = any(isinstance(v, str) and len(v) >= _TOLD_VALUE and not _ID_KEY.search(str(k))
                           and re.search(rf"(?<!\w){re.escape(v)}(?!\w)", case.input) for k, v in data.items())
            parts += [(str(k), v if isinstance(v, str) else json.dumps(v)) for k, v in data.items()
                      if not (by_value and _ID_KEY.search(str(k)))]
    # A clock time or a date qualifies what is told (the peak's 16:30-19:00 beside its
    # headway): figures are amounts.
    figures = {m for m in _marks(_CLOCK_OR_DATE.sub(" ", case.output)) if not m.isalpha()}
    # A part named for a figure (a limit, a position): a field of names ("yard": "Antwerp
    # North") tells where the thing is, not what is asked of it.
    named = [(k, v) for k, v in parts if (words := _key_words(k)) and words <= asked
             and words - _ATTRIBUTE_WORDS and any(not m.isalpha() for m in _marks(v))]
    # The call that returned the whole record ("yard.container") names the record, not a
    # part of it, when a field inside it is named too.
    named = [(k, v) for k, v in named if not any(w != v and _marks(w) < _marks(v) for _, w in named)]
    # A part whose value the request writes ("submission PG-551" for "submission":
    # "PG-551") is the id of the record asked about: named by it alone, the request names
    # the record, and every other part is that record's.
    given = _marks(case.input)
    if not named or all(_marks(v) <= given for _, v in named) \
            or any((_key_words(k) - _ATTRIBUTE_WORDS) & word_stems(case.output) for k, _ in named):
        return None
    # A timestamp ("counted_at": when the stock was counted) says when: no part told apart.
    named = [(k, v) for k, v in named if any(not m.isalpha() for m in _marks(_CLOCK_OR_DATE.sub(" ", _INSTANT.sub(" ", v))))]
    if not named:
        return None
    for key, value in parts:
        # The call that returned the whole record holds the named part too: a part beside
        # it is what was told instead.
        # A part inside the named one ("items" of the order asked about) is its own matter.
        if not _key_words(key) or _key_words(key) <= asked or any(
                _marks(v) <= _marks(value) or _marks(value) <= _marks(v) for _, v in named):
            continue
        told = {m for m in _marks(value) if not m.isalpha()} & figures
        if not told:
            continue
        # A figure both parts hold (the hour 10 of either table) tells neither apart.
        if any(({m for m in _marks(v) if not m.isalpha()} - _marks(value)) & figures
               or key_terms(v) & key_terms(case.output) - key_terms(case.input) for _, v in named):
            return None
        return named[0][0], key
    return None


def _key_named(key: str, stems: frozenset[str]) -> bool:
    """The stems name the key: every word of it, or the key run together ("load-in" of
    load_in)."""
    words = _key_words(key)
    return bool(words) and words <= stems or stem(re.sub(r"[\W_]", "", key.lower())) in stems


# What asks when a thing happens: "what time is load-in", "when do the doors open".
_ASKS_TIME = re.compile(r"\b(?:when|what time|which time|how early|how late)\b", re.IGNORECASE)
_HALF_DAY = 12 * 60  # "7:00" is 07:00 or 19:00: a clock time is read on either half of the day


def _clock_swap(case: RunCase) -> tuple[str, str] | None:
    """Asked when one thing of a record happens, named by every word of its key ("load-in"
    of load_in, beside doors and curfew), the answer gives neither its time nor its word,
    and gives the times of two other fields of the record: it told the record's other
    times. Each record's own fields; a figure's key is ``_key_swap``'s. (asked key, key
    told)."""
    if not _ASKS_TIME.search(_asked_text(case.input)):
        return None
    asked, said = _part_stems(case.input), word_stems(case.output)
    told = {t % _HALF_DAY for _, t in clock_times(case.output)}
    for _, data in _json_outputs(case.tools_called):
        stack = [data]
        while stack:
            node = stack.pop()
            if isinstance(node, list):
                stack.extend(node)
            if not isinstance(node, dict):
                continue
            stack.extend(node.values())
            times = {str(k): found[0][1] % _HALF_DAY for k, v in node.items()
                     if isinstance(v, str) and len(found := clock_times(v)) == 1}
            named = [k for k in times if _key_named(k, asked)]
            if len(named) != 1 or times[named[0]] in told or _key_named(named[0], said) \
                    or _key_words(named[0]) & said:
                continue
            others = [k for k, t in times.items() if t in told and t != times[named[0]]]
            if len(others) >= 2:
                return named[0], others[0]
    return None


def _sibling_passage(case: RunCase) -> tuple[str, str] | None:
    """Of two passages the retrieved documents hold apart (demurrage in the terminal and
    detention outside it; Early Action and Early Decision), the request names one by a
    word the answer never writes, the answer opens on a word that names only the other and
    never on what the request calls the named one, and it restates three more words or
    figures that only that other passage holds than the named one's, and no figure only
    the named one holds (Tanzania's 18% VAT beside the EAC's tariff): it answered about
    the sibling. Each passage opens an entry of its own (a capital, not the clause "hire a
    second tutor" after "Appendix B, recommendations: …;"). Not where that other passage
    holds a word of the request the answer leaves out too (the dissent asked, told as
    "Alvarez, J., dissenting"). (asked, told)."""
    if not case.context:
        return None
    said, request = word_stems(case.output), word_stems(case.input)
    # Of a request in several parts, the one the answer took up: a part left out (the
    # alcohol of "side effects, and can I drink with it?") is TASK_COMPLETION's business.
    part = max(_parts(_asked_text(case.input)) or [case.input], key=lambda p: len(_part_stems(p) & said))
    missing = _part_stems(part) - said
    asked = sorted(w for w in missing if len(w) >= 4)
    first = _opening(case.output)
    opening = [w for w in _in_order(word_stems(first) - request - _REQUEST_WORDS, first)
               if len(w) >= 4 and w.isalpha()]
    entries = [(word_stems(t), t, d) for t, d in _entries(case) if d < len(case.context)]
    own = _told_marks(case.output) - _told_marks(case.input)
    for w in asked:
        for s in opening:
            mine, theirs = _passage(entries, w, s), _passage(entries, s, w)
            if not mine or not theirs or word_stems(" ".join(theirs)) & missing \
                    or not (w in _lead(mine[0]) and s in _lead(theirs[0])) \
                    or not (mine[0][:1].isupper() and theirs[0][:1].isupper()) \
                    or _named(w, case.input) != _named(s, case.output) or _heading_over(w, s, case):
                continue
            # What the request calls the named passage, that the other does not hold.
            label = word_stems(mine[0]) & request - word_stems(" ".join(theirs))
            only_theirs = own & (_told_marks(" ".join(theirs)) - _told_marks(" ".join(mine)))
            only_mine = own & (_told_marks(" ".join(mine)) - _told_marks(" ".join(theirs)))
            if len(only_theirs) - len(only_mine) >= _DRAWN_MARGIN and not only_mine & _figures(case.output) \
                    and not label & word_stems(first):
                return _written(w, case.input), _written(s, case.output)
    return None


_HEADING_WORDS = 8  # a retrieved document's opening words: its heading, what it is about


def _heading(doc: str) -> frozenset[str]:
    return frozenset(w for w in word_stems(" ".join(doc.split()[:_HEADING_WORDS])) if len(w) >= 4 and w.isalpha())


def _stem_shared(stems: frozenset[str] | set[str], others: frozenset[str] | set[str]) -> bool:
    """A stem of one set begins one of the other's: the stems of a word's forms may differ
    in their ends ("cancel", "cancell" of cancellation)."""
    return any(a.startswith(b) or b.startswith(a) for a in stems for b in others if min(len(a), len(b)) >= 4)


_CLOCK_NOTE_WORDS = 8


def _clock_note(doc: str) -> bool:
    """A short note of the session's date ("Session info: today is 2024-06-11"): when the
    question is asked, which an answer counts days from; no passage beside the asked one."""
    return len(doc.split()) <= _CLOCK_NOTE_WORDS and bool(dates(doc))


def _sibling_heading(case: RunCase) -> tuple[str, str] | None:
    """Of the retrieved documents, the request names a word that one holds and another
    does not (an Incomplete grade beside the Pass/Fail election; note-taking support beside
    exam accommodations), the answer never writes it, and the answer's first sentence names
    what heads that other document alone, never what heads the one named: it answered the
    neighbouring question the other document covers, however short the documents are
    ("Grading handbook §3.6 Pass/Fail election..."). (asked, that other document)."""
    docs = case.context
    if len(docs) < 2:
        return None
    headings = [_heading(d) for d in docs]
    whole = [word_stems(d) for d in docs]
    said, request = word_stems(case.output), word_stems(case.input)
    first = word_stems(_opening(case.output))
    # Each document's own heading, and what the answer's opening and the request name of
    # it, read once a document rather than once a pair (a run may retrieve many documents).
    own = [h.difference(*headings[:i], *headings[i + 1:]) for i, h in enumerate(headings)]
    opens_on = [_stem_shared(o, first) for o in own]
    requested = [_stem_shared(o, request) for o in own]
    unsaid = sorted(w for w in request - said if len(w) >= 4)
    new = sorted(first - request)
    heads = [[w for w in new if _stem_shared({w}, o)] for o in own]
    notes = [_clock_note(d) for d in docs]
    for a, b in permutations(range(len(docs)), 2):
        if opens_on[a] or requested[b] or notes[b]:
            continue
        asked = [w for w in unsaid if w in whole[a] and w not in whole[b]]
        told = [w for w in heads[b] if w not in whole[a]]
        if asked and told:
            return _written(asked[0], case.input), docs[b]
    return None


def _lead(entry: str) -> frozenset[str]:
    """The stems of an entry's words before its first figure, six at most: what the entry
    is of ("… tariff — Demurrage (in terminal): 5 free days" is of demurrage; "Freelancer
    service fees: 10% on the first $500" is not of "first")."""
    return word_stems(" ".join(re.split(r"\d", entry, maxsplit=1)[0].split()[:6]))


def _named(stem_: str, text: str) -> bool:
    """The text writes a word of the stem with a capital inside a sentence: a name (the
    Okafor trial, Early Decision), not a plain word (detention, body weight)."""
    return any(stem(w) == stem_ for w in re.findall(r"(?<=[a-z,;:()'\"] )[A-Z][\w'-]*", text))


def _passage(entries: Sequence[tuple[frozenset[str], str, int]], word: str, other: str) -> list[str]:
    """The entries of a document from each one that names the word and not the other, up
    to the next that names the other or the document's end: what is told of that one."""
    taken, on, doc = [], False, -1
    for stems, text, d in entries:
        if d != doc:
            on, doc = False, d
        if other in stems:
            on = False
        elif word in stems:
            on = True
        if on:
            taken.append(text)
    return taken


def _told_marks(text: str) -> set[str]:
    """A text's words' stems and every number it writes."""
    return set(word_stems(text)) | _figures(text)


# A figure's unit in a key ("tare_kg", "lead_days", "price_inr") says how it is counted, not
# what it is.
_KEY_UNITS = frozenset("""kg g lb lbs t mm cm m km ml l pct percent usd eur gbp inr jpy chf aud cad
    cny thb ms sec secs s min mins h hr hrs hour hours day days week weeks month months year years""".split())  # noqa: SIM905
# Thousands grouped by a space, as many locales write them ("39 000 kg", "₹4 850").
_SPACED_THOUSANDS = re.compile(r"(?<![\d.,])\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?![\d.,]\d)")


def _figures_told(text: str) -> set[str]:
    """The numbers a text writes (as ``_marks`` reads them, and any of one or two digits),
    thousands grouped by a space read whole too."""
    joined = _SPACED_THOUSANDS.sub(lambda m: re.sub(r"\D", "", m.group()), text)
    found = {m for m in _marks(f"{text}\n{joined}") if re.fullmatch(r"[\d.]+", m)}
    return found | {f"{float(n):g}" for n in re.findall(r"(?<![\d.,])\d{1,2}(?![\d.,]?\d)", text)}


def _field_words(key: str) -> list[str]:
    """The words of a record's key, lowercased, but its units and numbers ("lead_days_2026":
    lead; "fuelCostEur": fuel, cost)."""
    words = (w.lower() for w in re.split(r"[_\-\s]+|(?<=[a-z])(?=[A-Z])", key) if w.isalnum() and not w.isdigit())
    return [w for w in words if w not in _KEY_UNITS]


def _names_key(key: str, request: str, asked: frozenset[str]) -> bool:
    """Whether the request names a record's field: by its key as written ("recall@10"), by
    every word of it but units ("tare_kg": the tare weight; "lead_days": lead times), or by
    the words a short key's letters are the initials of ("scc": somatic cell count)."""
    low = key.lower()
    # A short key names a figure when it holds a digit ("f1", "p95"), not "id" or "n".
    if (len(low) >= 3 or re.search(r"\d", low)) and re.search(rf"(?<![\w@]){re.escape(low)}(?![\w@])", request.lower()):
        return True
    words = _field_words(key)
    if len(words) == 1 and 3 <= len(words[0]) <= 5 and spelt_out(words[0], request):
        return True
    stems = {stem(w) for w in words if len(w) >= 3}
    return bool(stems) and len(stems) == len(words) and stems <= asked and bool(stems - _ATTRIBUTE_WORDS)


def _numeric_columns(node: Any) -> list[dict[str, set[float]]]:
    """The figures the run read side by side under their keys: a record of three numeric
    fields or more, and a table (a list of records) of two numeric columns or more, each
    column's values together."""
    out: list[dict[str, set[float]]] = [{k: {v} for k, v in fields.items()} for fields in _numeric_fields(node)]
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            stack.extend(n.values())
        elif isinstance(n, list):
            stack.extend(n)
            rows = [r for r in n if isinstance(r, dict)]
            if len(rows) < 2:
                continue
            columns: dict[str, set[float]] = {}
            for row in rows:
                for k, v in row.items():
                    if isinstance(v, (int, float)) and not isinstance(v, bool):
                        columns.setdefault(str(k), set()).add(float(v))
            if len(columns) >= 2:
                out.append(columns)
    return out


def _field_swap(case: RunCase) -> tuple[str, str] | None:
    """Figures the run read under keys (a record {"ndcg@10": 0.287, "precision@10": 0.164,
    "recall@10": 0.412}, a table of quotes [{"price_inr": 4850, "lead_days": 63}, …]), the
    request naming one field by its key or its words ("recall@10", "lead times", "somatic
    cell count" for "scc"): the answer states other fields' values and never the named
    one's, nor its name. (asked field, field told)."""
    asked = _part_stems(case.input)
    answer = case.output.lower()
    told = _figures_told(case.output)
    for _, data in _json_outputs(case.tools_called):
        for fields in _numeric_columns(data):
            named = [k for k in fields if _names_key(k, case.input, asked)]
            if len(named) != 1:
                continue
            # The named field is told by its figure (or as a percentage: 0.025 as "2.5%"), its
            # key, or a word of its key ("tare" of tare_kg) that no other key holds: "height"
            # of ellipsoidal_height and orthometric_height tells neither.
            values = fields[named[0]]
            shared = {stem(w) for k in fields if k != named[0] for w in _field_words(k)}
            if any({f"{v:g}", f"{v * 100:g}"} & told for v in values) or named[0].lower() in answer \
                    or any(stem(w) in word_stems(answer) - shared for w in _field_words(named[0])):
                continue
            # Another field's figures stated: one telling (with decimals, or 100 or more), or a
            # series of two or more.
            for k, column in fields.items():
                shown = {v for v in column - values if f"{v:g}" in told}
                if k != named[0] and (len(shown) >= 2 or any("." in f"{v:g}" or abs(v) >= 100 for v in shown)):
                    return named[0], k
    return None


# With no evidence to read, a request's thing is named by its phrase ("parental leave",
# "vaccination record"): an answer that never names its own word of that phrase, and opens
# on the phrase with another word the request never uses ("annual leave", "vaccination
# appointment"), is about a sibling of the same kind.
_PHRASE_WORD = re.compile(r"[a-z0-9][\w'-]*")
_LIGHT_STEMS = frozenset(stem(w) for w in _LIGHT_VERBS)
# Words that pick which one ("our own caterer", "the last day"), not what kind it is.
_WHICH_STEMS = _ATTRIBUTE_WORDS | frozenset(stem(w) for w in """own other same such first whole full
    either neither each every both""".split())  # noqa: SIM905
# Text the user hands over to work on (to summarise, translate, fix) is not what is asked.
_HANDED_TEXT = re.compile(r"""(['"\u2018\u201c])[^\n]{40,}?(?:['"\u2019\u201d]|$)|```.*?(?:```|\Z)""", re.DOTALL)
_ACT_FORM = re.compile(r"...(?:ing|ed)$")  # "worth fighting" / "worth contesting": acts, not kinds
_CLAUSE = re.compile(r"[.!?;:,()\[\]\n\u2014\u2013→]+|\s-\s")


def _phrase_pairs(text: str) -> list[tuple[str, str]]:
    """Neighbouring content words, as stems, within a clause: "my vaccination record" gives
    (vaccination, record). A function word, a number or a code between two words parts
    them; a word that picks which one ("own", "last") is no part of a kind's name, nor is a
    name, nor an act: a word in -ing or -ed, or one that goes on to "to" (``records sent
    to``)."""
    pairs = []
    skip = _REQUEST_WORDS | _LIGHT_STEMS | _WHICH_STEMS
    names = key_terms(text)  # a name's sibling is the name check's to find
    for clause in _CLAUSE.split(text.lower()):
        words = _PHRASE_WORD.findall(clause)
        for i, (a, b) in enumerate(pairwise(words)):
            if not (a.isalpha() and b.isalpha()) or words[i + 2:i + 3] == ["to"] \
                    or {a, b} & names or any(_ACT_FORM.search(w) for w in (a, b)):
                continue
            sa, sb = word_stems(a), word_stems(b)
            if sa and sb and not (sa | sb) & skip:
                pairs.append((next(iter(sa)), next(iter(sb))))
    return pairs


def _opening(text: str) -> str:
    """The answer's first sentence, where it says what it is about."""
    return re.split(r"(?<=[.!?])\s+|\n\s*\n", _prose(text).strip(), maxsplit=1)[0]


def _sibling_phrase(case: RunCase) -> tuple[str, str] | None:
    """A two-word phrase of the request and one of the answer's opening that share one
    word and differ in the other, the request's word absent from the whole answer and the
    answer's from the request: (asked, answered). Where there is evidence, only when it
    lists both words as parallel entries (a fare table's weekend pass and monthly pass, each
    with its prices; the answer giving the monthly one for the weekend one asked): the thing
    asked was there, and the answer took its sibling. Two words of one entry ("Rabies
    boosters: … cats every year with the non-adjuvanted vaccine") are one thing told. Otherwise what the answer draws on is weighed instead."""
    # A yes-or-no question ("can I bring my touring bike?", "is there a cheaper plan?") is
    # rightly answered with the thing that is allowed or offered instead.
    if _ASKS_YES_OR_NO.search(case.input):
        return None
    evidence = tuple(text.lower() for text, _ in _entries(case)) if case.context or case.tools_called else None
    said, asked = word_stems(case.output), word_stems(case.input)
    request = _asked_text(_HANDED_TEXT.sub(" ", case.input))
    wanted = _content_pairs(request)
    opening = _opening(case.output)
    for b in _content_pairs(opening):
        for a in wanted:
            for keep, mine, theirs in ((0, a[1], b[1]), (1, a[0], b[0])):
                if a[keep] == b[keep] and mine != theirs and mine not in said \
                        and theirs not in asked and (evidence is None or _parallel(mine, theirs, evidence)) \
                        and not (_within_name(opening, b, keep) and not _within_name(request, a, keep)):
                    return " ".join(a), " ".join(b)
    return None


# The dimension a figure is to be broken down by: "air spend broken down by department",
# "split by recruiter channel", "grouped by region".
# The thing broken down may stand between the verb and its dimension, in the same clause
# ("break down last week's scrap on the paint line by shift").
_ASKED_BREAKDOWN = re.compile(r"\b(?:broken down|break(?: it| them)? down|breakdown|split|group(?:ed)?|sort(?:ed)?|"
                              r"rank(?:ed)?)\b[^.?!;:\n\u2014]{0,60}?\bby\s+([a-z]+(?:[ -][a-z]+)?)", re.IGNORECASE)
# The answer's breakdown, headed: "Here's Q2 air spend by traveller:", "By department: …".
_TOLD_BREAKDOWN = re.compile(r"\b[Bb]y\s+([a-z]+(?:[ -][a-z]+)?)\s*:")


def _breakdown_swap(case: RunCase) -> tuple[str, str] | None:
    """Asked for a figure broken down by one dimension, the answer heads its breakdown with
    another and never names the one asked (spend by department asked, "spend by
    traveller:" told; leavers by recruiter channel asked, "By department:" told).
    (asked, told)."""
    asked = _ASKED_BREAKDOWN.search(case.input)
    told = _TOLD_BREAKDOWN.search(case.output)
    if not asked or not told:
        return None
    # Each dimension by its last word, its head ("recruiter channel" is a channel).
    want, got = asked.group(1).split()[-1].lower(), told.group(1).replace("-", " ").split()[-1].lower()
    if stem(want) in word_stems(case.output) or stem(got) in word_stems(case.input):
        return None
    return asked.group(1), told.group(1)


# A measure's short name, two capitals or more and letters only: "ADR", "RevPAR", "MTTR".
_ACRONYM = re.compile(r"\b(?=[a-z]*[A-Z][a-z]*[A-Z])[A-Za-z]{2,8}\b")
# Written right after a figure, a short name is that figure's unit ("6:15 PM", "3.2 GHz"),
# no measure named.
_AFTER_FIGURE = re.compile(r"\d\s?$")
# What asks for a figure: "what was our ADR", "how high is the NPS".
_ASKS_WHAT = re.compile(r"\b(?:what|how)\b", re.IGNORECASE)


def _acronym_swap(case: RunCase) -> tuple[str, str] | None:
    """A question for a measure the request names by its short name (ADR), which the answer
    never writes; the answer's opening gives a figure for another short name (RevPAR) the
    request does not write: it reported a sibling measure. Not where the evidence writes
    the answer's name and never the request's: there it may be the system's name for the
    same measure. (asked, answered)."""
    asked_text = _asked_text(case.input)
    if not _ASKS_WHAT.search(asked_text):
        return None
    opening = _opening(case.output)
    evidence = " ".join([*case.context, *(tool_text(c.output) for c in case.tools_called)]).lower()
    for a in dict.fromkeys(_ACRONYM.findall(asked_text)):
        if re.search(rf"\b{a}\b", case.output, re.IGNORECASE):
            continue
        for m in _ACRONYM.finditer(opening):
            b = m.group(0)
            if re.search(rf"\b{b}\b", case.input, re.IGNORECASE) or not _VALUE_AFTER.match(opening, m.end()) \
                    or _AFTER_FIGURE.search(opening, 0, m.start()) \
                    or (re.search(rf"\b{b.lower()}\b", evidence) and not re.search(rf"\b{a.lower()}\b", evidence)):
                continue
            return a, b
        if spelled := _spelled_sibling(a, opening):
            return a, spelled
    return None


# A figure given for what was just named: "RevPAR at Seminyak was Rp 1,142,000", "NPS: 41",
# "… was about 15.3 days".
_VALUE_AFTER = re.compile(r"[^.;\n]{0,40}?(?:\b(?:was|is|were|are|came to|stood at|of)\b|[:=])"
                          r"\s*(?:[^\d\s.;]{1,6}\s+)?[^\d\s]{0,4}\s?\d")


def _spelled_sibling(acronym: str, opening: str) -> str | None:
    """Words of the opening, as many as the acronym's letters, whose initials start as it
    does and end otherwise, given a figure ("Mean time between failures … was about 15.3
    days" for MTTR), where no run of words spells the acronym itself: a sibling measure
    written out."""
    letters = acronym.lower()
    words = list(re.finditer(r"[A-Za-z]+", opening))
    runs = [words[i:i + len(letters)] for i in range(len(words) - len(letters) + 1)]
    initials = ["".join(w.group(0)[0].lower() for w in run) for run in runs]
    if len(letters) < 3 or letters in initials:
        return None
    return next((opening[run[0].start():run[-1].end()] for run, spelled in zip(runs, initials)
                 if spelled[:2] == letters[:2] and _VALUE_AFTER.match(opening, run[-1].end())), None)


# Articles, pronouns and particles of the other languages users write in (Dutch, German,
# French, Spanish, Italian, Swedish), which the English list of function words lets through:
# "de keuken" and "de uitloop" share an article, not a kind.
_OTHER_FUNCTION_WORDS = frozenset("""de het een van en op bij uit met voor naar mijn je ik wat kan niet als zit
    om te aan dat deze dit der das dem des ein eine einen einem mein meine und ist nicht von zu im am le la les un
    une du et est mon ma mes pour avec dans sur au aux el los las una unos del y es mi mis con para por ett och
    är mitt för med på av till il lo gli della è mio""".split())  # noqa: SIM905


def _content_pairs(text: str) -> list[tuple[str, str]]:
    """The text's phrase pairs less those holding another language's function word."""
    return [pair for pair in _phrase_pairs(text) if not set(pair) & _OTHER_FUNCTION_WORDS]


def _within_name(text: str, pair: tuple[str, str], keep: int) -> bool:
    """The pair is part of a longer name: one more content word before it, where it shares
    its last word ("reloadable debit card", "home equity conversion mortgage"), or after
    it, where it shares its first ("stamp duty land tax"). Such a name, against a
    request's shorter one, is as often its full form (a prepaid card is a reloadable debit
    card) as a sibling; an act before it ("book annual leave", "to claim sick pay") is no
    part of it."""
    skip = _REQUEST_WORDS | _LIGHT_STEMS | _WHICH_STEMS | _ACTION_VERBS
    for clause in _CLAUSE.split(text.lower()):
        words = _PHRASE_WORD.findall(clause)
        for i, (x, y) in enumerate(pairwise(words)):
            if (stem(x), stem(y)) != pair:
                continue
            j = i - 1 if keep == 1 else i + 2
            near = word_stems(words[j]) if 0 <= j < len(words) else frozenset()
            if near and not near & skip and not (keep == 1 and words[j - 1:j] == ["to"]):
                return True
    return False


# Asked to turn one format, unit or language into another, the answer's own conversion
# goes the other way: from what was asked for to what the user has (CSV to JSON asked,
# "write JSON data out to a CSV file" answered).
# Points or funds moved between accounts go one way too ("transfer my miles to Hertz").
_CONVERSION = re.compile(r"\b(?:convert|turn|change|transform|export|translate|write|save|"
                         r"switch|migrate|transfer|move)\w*\b([^.?!\n]{0,60}?)\b(?:to|into)\s+(?:an?\s+|the\s+|my\s+|our\s+|your\s+)?"
                         r"([A-Za-z][\w+#]*)", re.IGNORECASE)


def _conversions(text: str) -> list[tuple[str, str]]:
    """Each conversion the text names: (what lies between the verb and "to", target)."""
    return [(m.group(1).lower(), m.group(2).lower()) for m in _CONVERSION.finditer(text)
            if word_stems(m.group(2))]


def _reversed_conversion(case: RunCase) -> tuple[str, str] | None:
    """(asked target, answered target) when the answer converts into what the request
    converts from, out of what the request asks for, and never into the asked target."""
    asked = _conversions(_asked_text(case.input))
    answered = _conversions(_prose(case.output))
    if not asked or any(dst == want for _, dst in answered for _, want in asked):
        return None
    request = case.input.lower()
    for mid, dst in answered:
        for _, want in asked:
            if dst != want and re.search(rf"\b{re.escape(want)}\b", mid) \
                    and re.search(rf"\b{re.escape(dst)}\b", request):
                return want, dst
    return None


def _stand_in(case: RunCase) -> tuple[str, str] | None:
    """Another thing answered in the asked one's place, by any of the word checks."""
    return _substitutes(case) or _sibling_phrase(case) or _acronym_swap(case) or _breakdown_swap(case)


def _opposite_told(case: RunCase) -> tuple[str, str] | None:
    """The asked thing's opposite or other side answered."""
    return _opposite(case) or _changed_other_way(case) or _other_side(case)


def _act_not_asked(case: RunCase) -> tuple[str, str] | None:
    """Another act done than the one asked, or the one the request ruled out."""
    return _other_action(case) or _ruled_out_told(case)


# The findings that say the run took up another task (the rest of the evidence measures),
# each as read on a case.
_OTHER_TASK: dict[str, Callable[[RunCase, Embed], object]] = {
    "substitute": lambda case, embed: _stand_in(case),
    "opposite": lambda case, embed: _opposite_told(case),
    "slot_swap": lambda case, embed: _slot_swap(case),
    "reversed": lambda case, embed: _reversed_route(case) or _unit_swap(case) or _reversed_conversion(case),
    "wrong_source": lambda case, embed: (_wrong_source(case, embed) or _record_swap(case) or _kind_swap(case)
                                         or _field_swap(case) or _column_swap(case) or _sibling_passage(case)
                                         or _sibling_heading(case)),
    "acted_on": lambda case, embed: _acted_sibling(case, embed),
    "other_action": lambda case, embed: _act_not_asked(case),
    "another_task": lambda case, embed: _another_task(case),
}


# The findings that compare the answer's words with the request's.
_IN_WORDS = ("substitute", "opposite", "slot_swap", "reversed", "wrong_source")


def task_understanding_evidence(case: RunCase, embed: Embed) -> Evidence:
    """What TASK_UNDERSTANDING_FAILURE weighs: the answer pointing at a sibling of what was
    asked, and how far its subject is from the request's."""
    # Handing in a patch, the answer's words announce or sum up the change, drawn from the
    # code it edited and the tests it ran (no record restated from the wrong row); the
    # request reports a fault, which the fix reverses ("whitespace is removed": it now adds
    # it). What was changed is in the patch, which no word rule reads. So the wrong-source
    # check, which embeds every tool output of the run, is not even made.
    patch = bool(_patch_handed_in(case))
    ev = _understanding_evidence(case, embed, sources=not patch)
    if patch:
        for name in _IN_WORDS:
            if ev.features[name]:
                ev.flag(name, 0.0)
    found = [name for name in _OTHER_TASK if ev.features[name]]
    # Only what would raise the failure is read again: the earlier replies can only clear
    # a finding, and reading them costs a chat's every sentence.
    if not found or heads()["task_understanding_failure"].logit(ev.features) < 0:
        cleared = []
    elif _handed_to_person(case):
        # Handed to a person (as a policy that forbids the request asks): the run passed
        # the request on and took up no task of its own.
        cleared = found
    elif patch:
        cleared = []
    elif _conversed(case):
        # In a chat the last reply answers the user's latest message: a finding stands only
        # if everything the agent said to the user misses the request the same way (a
        # question about parking after the appointment was moved is no misunderstanding;
        # an FSA balance given for an HSA question, and never the HSA, is one).
        whole = _all_said(case)
        cleared = [name for name in found if not _OTHER_TASK[name](whole, embed)]
    else:
        cleared = []
    for name in cleared:
        ev.flag(name, 0.0)
    return ev


def _understanding_evidence(case: RunCase, embed: Embed, *, sources: bool) -> Evidence:
    ev = Evidence()
    sub = _stand_in(case)
    ev.flag("substitute", sub is not None,
            f'asked about "{sub[0]}", the answer is about "{sub[1]}" instead' if sub else "")
    opp = _opposite_told(case)
    ev.flag("opposite", opp is not None,
            f'asked for "{opp[0]}", the answer gives "{opp[1]}"' if opp else "")
    slot = _slot_swap(case)
    ev.flag("slot_swap", slot is not None,
            f'asked about "{slot[0]}", the answer is about "{slot[1]}"' if slot else "")
    route = _reversed_route(case) or _reversed_conversion(case)
    swap = _unit_swap(case) if route is None else None
    ev.flag("reversed", route is not None or swap is not None,
            f"the answer goes from {route[0]} to {route[1]}, the other way round" if route else
            f'asked about {swap[0]}, the answer converts {swap[1]}, the other way round' if swap else "")
    source = (_wrong_source(case, embed) or _record_swap(case) or _kind_swap(case) or _field_swap(case)
              or _column_swap(case) or _branch_swap(case) or _sibling_passage(case) or _key_swap(case) or _clock_swap(case)
              or _sibling_heading(case)) \
        if sub is None and sources else None
    ev.flag("wrong_source", source is not None,
            f'the request\'s "{source[0]}" is in the evidence, but the answer restates another '
            f'part of it: "{_short(source[1], 10)}"' if source else "")
    acted = _acted_sibling(case, embed)
    ev.flag("acted_on", acted is not None,
            f'asked about "{acted[0]}", the run acted on "{acted[1]}"' if acted else "")
    action = _act_not_asked(case)
    ev.flag("other_action", action is not None,
            f'asked to "{action[0]}", the run did "{action[1]}"' if action else "")
    another = _another_task(case)
    ev.flag("another_task", bool(another), another)
    run = _Run.of(case, embed)
    cos = run.request_cosines() if run.sentences else [0.0]
    ev.flag("request_far", 1.0 - max(cos))
    asked = _part_stems(case.input)
    # A patch handed in is the run's answer too: what it changed names what was asked.
    done = f"{case.output}\n{_patch_handed_in(case)}"
    ev.flag("uncovered", 1.0 - len(asked & word_stems(done)) / len(asked) if asked else 0.0)
    names = key_terms(case.input)
    ev.flag("names_dropped", len(names - key_terms(case.output)) / len(names) if names else 0.0)
    theirs = key_terms(case.output)
    ev.flag("names_new", len(theirs - names) / len(theirs) if theirs else 0.0)
    # The request's name gone and others in its place: a sibling, however it is spelled.
    ev.flag("names_swapped", ev.features["names_dropped"] * ev.features["names_new"])
    return ev


def answer_task_understanding_failure(case: RunCase, embed: Embed) -> Answer:
    """P(the answer addresses a different task than the one asked)."""
    if not case.output.strip() or not case.input.strip():
        return verdict(0.0, "no request or no answer to compare")
    return head_answer("task_understanding_failure", task_understanding_evidence(case, embed),
                       "the answer names what the request names and does what it asks")
