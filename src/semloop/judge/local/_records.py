"""The context's records for HALLUCINATION (``key: value`` lines, table rows): what
each states, which a claim names, and a claim giving one record's value to another.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache, wraps
from typing import TYPE_CHECKING

from ._claims import (
    _CELL_AMOUNT,
    _ID_DIGITS,
    _ISO_CURRENCIES,
    _TITLES,
    _UNITS,
    DateParts,
    Quantity,
    Valued,
    _dimension,
    _ends_with,
    clauses,
    clock_times,
    converted,
    date_supported,
    dates,
    key_terms,
    keyed_units,
    labelled_values,
    quantities,
    spelt_out,
    stem,
    word_stems,
    year_months,
)
from ._claims import _FUNCTION as _FUNCTION_WORDS
from ._wording import _ADDED, _CLAUSE_BREAK, _ITEM_WORDS, _NUMBER_RANGE, _PARTS, _role_stems

if TYPE_CHECKING:
    from ._grounding import _Evidence


@dataclass(frozen=True)
class _Record:
    """A flattened record (a line of several ``key: value`` pairs): the names only it
    gives (short values with no number or date) and its pairs."""

    names: frozenset[str]
    pairs: tuple[tuple[str, str], ...]


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
_KEY_PREPOSITIONS = frozenset({"in", "on", "for", "by", "to", "with", "at", "from", "after", "before", "during", "under"})


def _statement(words: Sequence[str], said: bool) -> str:
    """A key's words as a statement: negated before the predicate when no. The predicate is
    the last word before any word of time ("parking_available", "open_today"), unless that
    is a noun: then the first predicate a preposition qualifies ("rental_included_in_total"),
    else a verb in -ing that comes first ("accepting_new_patients": "not accepting new
    patients")."""
    if said:
        return " ".join(words)
    at = len(words) - 1
    while at > 0 and words[at] in _KEY_WHEN:
        at -= 1
    if not words[at].endswith(_PREDICATE_ENDINGS):
        # "rental_included_in_total", "fee_waived_for_students": a predicate the key
        # qualifies with a preposition is negated, not the noun that ends the key.
        qualified = next((i for i in range(at) if words[i].endswith(_PREDICATE_ENDINGS)
                          and words[i + 1] in _KEY_PREPOSITIONS), None)
        at = qualified if qualified is not None else next(
            (i for i, w in enumerate(words[:at]) if w.endswith("ing")), at)
    return " ".join([*words[:at], "not", *words[at:]])


_HEAD_WORDS = 2
_KEY_UNITS = frozenset(_UNITS) | {c.lower() for c in _ISO_CURRENCIES}


def _head(words: Sequence[str]) -> list[str]:
    """A flattened key's head, its last words before a unit ("delivery receipt exceptions"
    is "receipt exceptions", "device fee eur" is "device fee"): "no" denies two words, not
    the parent's."""
    end = len(words)
    while end > 1 and words[end - 1] in _KEY_UNITS:
        end -= 1
    return list(words[max(0, end - _HEAD_WORDS) : end])


def _stated(clause: str) -> str:
    """A clause that is one yes/no pair ("towels provided: False") as the statement it
    makes, and one of nothing ("arrangement fee: 0 GBP", "early repayment charge: none")
    as "no …"; any other clause as it is."""
    m = _PAIR.match(clause.rstrip("."))
    if m is None:
        return clause
    value = m.group(2).lower()
    if value in _NONE or _ZERO.fullmatch(value):
        return "no " + " ".join(_head(_key_words(m.group(1))))
    said = _YES_NO.get(value)
    return clause if said is None else _statement(_key_words(m.group(1)), said)


def _nothing(value: str, key: frozenset[str]) -> bool:
    """A value that gives none of its key's thing: nil, a zero, or "no" and the key's word."""
    lower = value.lower()
    return (lower in _NONE or bool(_ZERO.fullmatch(lower))
            or (lower.startswith("no ") and bool(word_stems(lower[3:]) & key)))


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


_BOUND_VALUES = 2


def _entry_holds(value: Quantity, claim: str, ev: _Evidence) -> bool:
    """A record gives the claim's number beside two more values the claim gives ("$466.75
    (4K, black)" of the variant at 466.75 with 4K and black): the number is that record's.
    (One name beside it, "Bruno needs 23.4 mg" of Bruno's weight, binds no attribute.) So
    does a series' reading, its one value beside the clock time the claim gives it ("back
    up to 8.2 by 09:00" of {t: 09:00, v: 8.2})."""
    minutes = {m for _, m in clock_times(claim)}
    return any(any(abs(x.value - value.value) < 1e-9 for _, v in pairs for x in quantities(v))
               and (_score((v for _, v in pairs), claim) > _BOUND_VALUES or len(pairs) == _PARTS and any(
                   m in minutes for _, v in pairs for _, m in clock_times(v))) for _, pairs in ev.entries)


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


_TOKEN = re.compile(r"[a-z0-9]+")


def _tokens(text: str) -> set[str]:
    return {stem(t) if t.isalpha() else t for t in _TOKEN.findall(text.lower())
            if t not in _FUNCTION_WORDS}


_SPAN_END = re.compile(r"[.!?](?:\s|$)|\n")
_LISTED = re.compile(r"(?:[,;:(|\u2022]|^|\n)\s*(?:(?:and|or)\s+)?(?:[-*]\s+)?$")
_LISTED_TAIL = re.compile(r"[\sandor*-]*")  # what _LISTED matches after its first character
_SWAP_WORDS = 2  # words of the claim another name's span must hold, and the claim's none
_SPELT = 3  # an acronym's letters the claim's words must spell: two are any words' initials


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
    # "a root protection area of 7.4 m around T1" of the context's "RPA": the claim names
    # the other too, in the words its initials spell.
    if best < _SWAP_WORDS or all(len(t) >= _SPELT and spelt_out(t, claim) for t in other):
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


_STATE_WORDS = 3  # a state is a short value: "FAIL", "repair", "on hold"
_STATE_STEM = 3


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


@lru_cache(maxsize=4096)
def _key_unit_of(key: str) -> str:
    """The unit a record's key names (``lag bytes``: byte; see ``keyed_units``), or none."""
    return next((u for _, u in keyed_units(f"{key}: 1")), "")


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
    out = {t for v in column.values() if len(v) > 1 for t in (sum(v), abs(sum(v)))}
    # A column whose key names its unit ("lag bytes") totals in that unit's others too: three
    # replicas' lag bytes are "518 MiB combined".
    for key, v in column.items():
        unit = _key_unit_of(key) if len(v) > 1 else ""
        if unit and _dimension(unit) != "money":
            out.update(converted(Quantity("", sum(v), unit, 1.0, False)))
    return sorted(out)


# A key that prices what another key counts: its unit is a currency ("tarifa clp",
# "thb per kg") or it names a price.
_PRICE_KEY = re.compile(r"\b(?:price|prices|rate|rates|fee|fees|cost|costs|tariff|per)\b")


def _row_amounts(records: Sequence[_Record]) -> tuple[list[float], list[float]]:
    """Each record's price times a count it gives (``jornadas: 88; tarifa clp: 24000`` is
    $2,112,000; ``kg: 4000; thb per kg: 78`` ฿312,000), and each such product's total over
    the records, where two or more give it: a line's amount and an order's total worked out
    from its rows. Only a price times a count within one record (a number with no unit, or
    the one the price is per): the products of any two numbers would support almost any
    figure. Values stated, never operands."""
    column: dict[tuple[str, str], list[float]] = {}
    for r in records:
        prices, counts = [], []
        for key, value in r.pairs:
            found = quantities(value)
            if len(found) != 1 or found[0].text != value.strip():
                continue
            words = key.replace("_", " ")
            unit = _key_unit_of(key)
            if (_dimension(unit) == "money" if unit else bool(_PRICE_KEY.search(words))):
                prices.append((key, words, found[0].value))
            elif not unit or _dimension(unit) != "money":
                counts.append((key, unit, found[0].value))
        for key, words, price in prices:
            for other, unit, count in counts:
                # "wetsuit mm: 5" is no count of what "daily rate usd" prices; "kg" is of "per kg".
                if not unit or re.search(rf"\bper {re.escape(other.split()[-1])}$", words):
                    column.setdefault((key, other), []).append(price * count)
    amounts = sorted({v for vs in column.values() for v in vs})
    return amounts, sorted({sum(vs) for vs in column.values() if len(vs) > 1})


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
        # A ledger writes a credit as minus ("WAIVE -6.40" of "the €6.40 fine was waived"):
        # where a row gives the amount with a sign, which row the claim means is unread.
        # A zero has no sign: its minus copy is the row's own cell.
        signed = replace(v.quantity, value=-v.quantity.value) if v.quantity is not None and v.quantity.value else None
        if len(rows) != 1 or signed is not None and any(
                _holds(value, signed, v.readings) for r in listed for _, value in r.pairs):
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
        # Sorted, longest first: the pair named must not hang on set order (hash seed).
        for a, b in itertools.product(*(sorted(side, key=lambda n: (-len(n), n)) for side in (left, right))):
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
    airport, two flights' day). A call's arguments ("room: DLX; nights: 3") ask for the record
    it returned, and are no sibling of it."""
    records = [r for r in dict.fromkeys(ev.records) if r.pairs not in ev.queries]
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
            # "pH 7.2, TDS 410 (limit 500), iron 0.21 (limit 0.3)": a third row the part states
            # by both records' keys makes it a list of rows, each with its values; the row it
            # names in words of its own ("iron" for "Fe") is no other row's.
            if own_a and own_b and len(own_a) + len(own_b) > _PARTS and not any(
                    c is not a and c is not b and own_a.keys() | own_b.keys() <= {
                        k for k, t in hc.items() if _said(t.lower(), part.lower())}
                    for c, hc in zip(records, hits, strict=True)):
                (ka, ta), (kb, tb) = min(own_a.items()), min(own_b.items())
                return f'"{ta}" is one record\'s {ka} and "{tb}" another\'s {kb}'
    return ""


def _month_of(record: _Record) -> tuple[int | None, int | None] | None:
    """The one ISO year and month a record gives ("period: 2026-10"), or None."""
    months = {(y, m) for _, value in record.pairs for y, m, _ in year_months(value)}
    return next(iter(months)) if len(months) == 1 else None


def _month_swap(claim: str, ev: _Evidence) -> str:
    """A claim that says one month and a number, of records kept one a month (a payroll's or
    a statement's "period: 2026-10"): the number is another month's record's under a key
    where the month said has another value ("net pay for October 2026 was €2,894.15" when
    €2,894.15 is November's net and October's is €2,731.40). Of several records of that
    month, the one whose words the claim says (the employee's name)."""
    months = {(y, m) for _, readings in dates(claim) for y, m, day in readings if day is None and m}
    if len(months) != 1:
        return ""
    ((year, month),) = months
    dated = [(r, ym) for r in ev.records if (ym := _month_of(r))]
    lower = claim.lower()

    def words_said(r: _Record) -> bool:
        return any(_said(v.lower(), lower) for _, v in r.pairs if not quantities(v) and not year_months(v)
                   and len(v) > 2)

    mine = [r for r, (y, m) in dated if m == month and year in (None, y)]
    if len(mine) > 1:
        mine = [r for r in mine if words_said(r)]
    if len(mine) != 1:
        return ""
    (own,) = mine
    pairs = dict(own.pairs)
    named = words_said(own)
    for v in labelled_values(claim):
        q = v.quantity
        if q is None or any(_near(value, q) for value in pairs.values()):
            continue
        for other, (y, m) in dated:
            key = next((k for k, value in other.pairs if k in pairs and _near(value, q)), None)
            if other is not own and key is not None and quantities(pairs[key]) \
                    and (not named or words_said(other)):
                return f"{v.text} is the {key} of {y}-{m:02d}, not of {year or y}-{month:02d} ({pairs[key]})"
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
_LABELLED_ITEM = re.compile(r"\s*[^\W\d_][\w-]*(?:\s+[^\W\d_][\w-]*){0,2}\s+[$€£]?\d")


def _row_label(record: _Record) -> str:
    """The words a row is called by: its first value, where that is a few words, not a bare
    number ("Data Privacy 101", "APAC")."""
    value = record.pairs[0][1] if record.pairs else ""
    return value.lower() if re.search("[a-z]", value, re.IGNORECASE) and len(value.split()) <= _ROW_WORDS else ""


_IDENTIFIER_PART = re.compile(r"[A-Z]?[a-z]+")  # "Render.ShadowDepth": render, shadow, depth


def _row_words(rows: Sequence[_Record]) -> dict[int, frozenset[str]]:
    """Each row labelled by an identifier ("Physics.Step", "Render.ShadowDepth") and its words
    of four letters or more no other row's label has: an answer calls it "physics", "the
    shadow pass". A label of several words is called by its word of four letters or more
    that no other label has, too: "client dinner" calls the "Client meal" row."""
    words = {id(r): frozenset(stem(w) for w in _IDENTIFIER_PART.findall(r.pairs[0][1]) if len(w) >= _NAME_WORD)
             if " " not in r.pairs[0][1].strip() and re.search(r"[._/]|[a-z][A-Z]", r.pairs[0][1]) else frozenset()
             for r in rows}
    shared = Counter(w for ws in words.values() for w in ws)
    words = {k: frozenset(w for w in ws if shared[w] == 1) for k, ws in words.items()}
    labelled = {id(r): word_stems(" ".join(w for w in label if len(w) >= _NAME_WORD))
                for r in rows if len(label := re.findall(r"[a-z]+", _row_label(r))) > 1}
    said = Counter(w for stems in labelled.values() for w in stems) + Counter(
        w for r in rows if id(r) not in labelled for w in word_stems(_row_label(r)))
    for k, stems in labelled.items():
        words[k] = words[k] | frozenset(w for w in stems if said[w] == 1)
    return words


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

    # A list's items are read apart where it calls several rows, or where each item gives
    # its own label before its value ("ALP 102 U/L, bilirubin 14 µmol/L": the 14 is
    # bilirubin's, whichever row the answer calls by that word).
    for part in [p for a in _ADDED.split(claim) for p in (_ROW_PART.split(a) if len(
            [r for r in rows if calls(r, a)]) > 1 or sum(
            bool(_LABELLED_ITEM.match(i)) for i in _ROW_PART.split(a)) > 1 else [a])]:
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
