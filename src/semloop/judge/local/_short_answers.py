"""A short answer to a question on documents: whether its value is the one the
question asks for (its role, its paragraph, the side a comparison favours).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ._claims import (
    _COMMON_CAPITALS,
    Quantity,
    date_supported,
    dates,
    key_terms,
    quantities,
    split_claims,
    word_stems,
)
from ._claims import _FUNCTION as _FUNCTION_WORDS
from ._figures import _HIGHER, _LOWER, _equated, _listed_parts, _operands, _small_count, _stated_at
from ._names import _CURRENCY_CODES, _name_found, _peoples
from ._records import (
    _entry_holds,
    _holds,
    _is_record,
    _named_records,
    _said,
    _segments,
    _text_records,
    _tokens,
)
from ._times import _PERIOD_WORDS, _bare_year
from ._tokenizer import strip_accents
from ._wording import _BOUND_WORDS, _NUMBER_RANGE, _YES, _question, _role_stems, _yes_no_questions

if TYPE_CHECKING:
    from ._grounding import _Evidence


_LINKS = frozenset("of the a an and for de la von van du".split())  # noqa: SIM905


def _misbound(claim: str, question: str, ev: _Evidence, names: Iterable[str]) -> str:
    """The claim's value (a number, or its names) where the context states it only next to
    none of what the question and claim are about, while another context segment that is
    about them states a different value of the same kind: right value, wrong thing."""
    if len(claim.split()) > _BOUND_WORDS:
        return ""
    # A year is when, not what: many records of one context share it. A small bare count
    # ("the three shipments") is how many records there are, not one record's attribute.
    stated = quantities(claim)
    # "within 5-7 business days": a range's ends bound the value, neither is it. Nor is the
    # result of the working the claim writes out ("Subtotal £3,512 + VAT £702.40 = £4,214.40"),
    # which the line's first word names no more than its operands.
    ends = {n for m in _NUMBER_RANGE.finditer(claim) for n in m.groups()}
    parts = _listed_parts(stated) | {i for i, q in enumerate(stated)
                                      if q.text.split()[0] in _operands(claim) or q.text in ends
                                      or _equated(q, claim)}
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
    in_record, segs, seg_tokens, about, seg_q, seg_names, asked = segmented
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
            # A year ("period='2026-11'") is when, as above, no rival value; nor is a value of
            # the run's own arguments ("member: 55821937"), a request, no record's.
            rival = [not asked[i] and any(x.unit == value.unit and abs(x.value - value.value) > 1e-9
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


_TIMED = re.compile(r"\b(?:older|oldest|younger|youngest|earlier|earliest|later|latest|newer|"
                    r"newest|first|before|after|when)\b", re.IGNORECASE)

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
_ABOUT_MARGIN = 1  # question words the question's paragraph holds beyond the answer's


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
