"""HALLUCINATION on short answers to questions over pasted passages (knowledge QA, RAG):
answers that name a value the passages hold, but not as the answer to the question.

- **yes/no comparisons**: "Is A older than B?", "Was A founded before B?" answered against
  the passages' own figures for A and B (read as ``_comparison`` reads "which is older, A
  or B");
- **the other end**: "when did he win his first?" answered with the year the passage gives
  as his last ("the first in 2005 and the last in 2022");
- **yes/no by the passage's verb**: "Was X founded in 1920?" answered yes where the passage
  ties "founded" to 1916 and never to 1920;
- **both**: "Do A and B both flow into the Black Sea?" answered yes where the passage on B
  gives "the Caspian Sea" in its place.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ._claims import split_claims
from ._grounding import _Evidence
from ._names import _PEOPLES
from ._short_answers import (
    _BOTH,
    _CAPITALISED,
    _NO,
    _comparison,
    _name_words,
    _Paragraph,
    _paragraphs,
    _Role,
    _role_values,
    _same_value,
)
from ._wording import _IRREGULAR_VERBS, _YES, _question, _role_stems, _yes_no_questions

_SHORT = 20  # words: a short answer, one value and its frame (a sentence or two)

# --- yes/no comparisons ---------------------------------------------------------------------
# "Is A older than B?", "Was A founded before B?": the comparative, the word before "than",
# or "before"/"after" as "earlier"/"later".
_COMPARED = re.compile(
    r"^\W*(?:is|was|are|were|did|does|do|has|had)\s+(?P<a>.+?)\s+(?P<mid>(?-i:[a-z][\w-]*\s+){0,3}?)"
    r"(?:(?P<comp>(?:more\s+|less\s+)?[a-z][\w-]*)\s+than|(?P<time>before|after|earlier than|later than))"
    r"\s+(?P<b>.+?)\W*$", re.IGNORECASE)
_TIMES = {"before": "earlier", "after": "later", "earlier than": "earlier", "later than": "later"}


def yes_no_compared(answer: str, ev: _Evidence) -> str:
    """A yes or no to "is A <more> than B" the passages' figures for A and B deny: asked as
    "which is <more>, A or B", the yes picks A and the no picks B."""
    yes, no = bool(_YES.match(answer)), bool(_NO.match(answer))
    asked = _yes_no_questions(ev.given)
    m = _COMPARED.match(asked[-1]) if asked and yes != no else None
    if m is None:
        return ""
    comp = _TIMES[m.group("time").lower()] if m.group("time") else m.group("comp")
    a, b = m.group("a"), re.sub(r"\s+(?:is|was|were|did|does|do)(?:\s+\w+)?$", "", m.group("b"))
    # Each by the words of its name the other's lacks: "Lake Victoria", "Lake Tanganyika".
    own_a, own_b = (" ".join(w for w in re.findall(r"[\w'-]+", x) if w.lower() in
                             _name_words(x) - _name_words(y)) for x, y in ((a, b), (b, a)))
    if not own_a or not own_b:
        return ""
    if not _comparison(own_a if yes else own_b, f"Which {m.group('mid')}{comp}, {own_a} or {own_b}?", ev):
        return ""
    return f"the context's figures make {b if yes else a} the {comp}: the answer says otherwise"


def both_named(answer: str, ev: _Evidence) -> str:
    """A yes to "do A and B both flow into the Black Sea" where the passage about one of
    them gives another name of the same kind in its place ("into the Caspian Sea"): a name
    of two words or more that the question gives beside its two subjects."""
    asked = _yes_no_questions(ev.given)
    if not _YES.match(answer) or not asked or not _BOTH.search(asked[-1]):
        return ""
    question = asked[-1]
    about = [p for p in _paragraphs(ev.texts[: ev.documents]) if p.subject & _name_words(question)]
    if len(about) != 2:
        return ""
    subjects = about[0].subject | about[1].subject
    for m in _CAPITALISED.finditer(question):
        words = m.group(0).split()
        if len(words) < 2 or _name_words(m.group(0)) & subjects:
            continue
        for p in about:
            if m.group(0).lower() in p.text.lower():
                continue
            # The same kind of thing: a name ending as it does ("Sea", "University").
            rival = next((v.text for v in p.values if v.kind == "name" and v.text.split()[-1] == words[-1]
                          and len(v.text.split()) > 1), "")
            if rival:
                return f"the context gives {rival}, not {m.group(0)}, for one of the two"
    return ""


# --- the value of another entity, or of another relation ------------------------------------
def _values(sentence: str) -> list[_Role]:
    return sorted(_role_values(sentence), key=lambda v: v.start)


def _answer_value(claim: str, question: str, named: frozenset[str]) -> _Role | None:
    """The answer's value: its last name, year or number the question does not give ("Lena
    Borg, born in Uppsala" answers "born in which city" with Uppsala)."""
    return next((v for v in reversed(_values(claim)) if v.text not in question
                 and (v.kind in ("name", "year") or v.kind.startswith("number"))
                 and not (v.kind == "name" and v.key <= named)), None)


# A clause: what one verb says of its values ("Born in South Shields", "he studied at the
# Royal College of Art in London").
_CLAUSE = re.compile(r"[,;:()]|\s[-\u2013\u2014]\s")
_PREFIX = 5  # letters two stems of one word share
_WINDOW = 4  # words either side of a value that tie it to a relation
# A clause of names alone ("the Netherlands" after "headquartered in Delft", "Anthony Quinn
# and Omar Sharif") goes on with the clause before it.
_BARE = re.compile(r"^\W*(?:(?:and|or|the|of)\b|[A-Z][\w'.-]*|\d[\d,.]*|\W)*$")
# A clause that opens with where or when ("in Albuquerque", "to March 9") is its verb's too.
_DID = re.compile(r"\b(?:do|does|did)\s+(?:(?:[A-Z][\w'-]*|the|an?)\s+)*([a-z][\w-]*)")
_GOES_ON = re.compile(r"^\W*(?:in|on|at|near|from|to|until|during|through)\b")
_DEMONYM = re.compile(r"[a-z]+(?:an|ish|ese|ch|i|ss|ek)")


def _demonym(value: _Role) -> bool:
    """"American", "A French": a people's word, no place or person ("America", "Japan")."""
    return value.kind == "name" and all(
        t in _PEOPLES and _PEOPLES[t][0] != t and bool(_DEMONYM.fullmatch(t)) for t in value.key)


def _clauses(paragraph: _Paragraph) -> list[str]:
    out: list[str] = []
    for x in split_claims(paragraph.text):
        for n, c in enumerate(part for part in _CLAUSE.split(x) if part.strip()):
            if n and (_BARE.match(c) or _GOES_ON.match(c)):
                out[-1] += f", {c}"
            else:
                out.append(c)
    return out


def _tied(clause: str, value: _Role, values: Sequence[_Role], relation: frozenset[str]) -> bool:
    """Whether the words right beside the value, up to its neighbours of its kind, say the
    relation: "starring Peter O'Toole in the title role", "headquartered in Delft"."""
    # Up to the values of its kind: "founded in July 2003 by Martin Eberhard" ties him.
    kin = [v for v in values if v.kind == value.kind]
    before = max((v.start + len(v.text) for v in kin if v.start < value.start), default=0)
    after = min((v.start for v in kin if v.start > value.start), default=len(clause))
    def words(text: str) -> list[str]:  # its words, names and figures aside
        return [w for w in re.findall(r"[\w'-]+", text) if w.islower() or _role_stems(w) <= relation]

    lead = words(clause[before : value.start])[-_WINDOW:]
    trail = words(clause[value.start + len(value.text) : after])[:_WINDOW]
    return _meet(_role_stems(" ".join([*lead, *trail])), relation)


def _meet(stems: frozenset[str], relation: frozenset[str]) -> bool:
    """Whether a stem is the relation's, or begins as one does: "composed" and "composer"
    stem apart ("compos", "compo")."""
    return bool(stems & relation) or any(
        len(a) >= _PREFIX and len(b) >= _PREFIX and a[:_PREFIX] == b[:_PREFIX] for a in stems for b in relation)


# Verbs that say one relation.
_ALIKE = [_role_stems(g) for g in (
    "found establish form create start launch incorporate", "born birth native",
    "headquartered based", "build construct erect", "write author", "release publish issue",
    "die death", "located situated lies")]


def _alike(relation: frozenset[str]) -> frozenset[str]:
    return frozenset().union(*(g for g in _ALIKE if _meet(g, relation)))


# A sentence's first word, capitalised, that names nothing: "Born in …", "Since 2013 …".
_OPENER = re.compile(r"(?i:since|born|[a-z]+(?:ed|ing))")


def _clause_values(clause: str, relation: frozenset[str]) -> list[_Role]:
    return [v for v in _values(clause) if v.kind != "name" or clause[: v.start].strip()
            or not (_OPENER.fullmatch(v.text) or _role_stems(v.text) <= relation)]


def _relation(question: str) -> frozenset[str]:
    """What a yes/no question asks, said by a verb ("born", "founded by", "built"; "did X
    die in …")."""
    verbs = [w for w in re.findall(r"\b[a-z][\w-]*", question)
             if w.endswith("ed") or w in _IRREGULAR_VERBS or w == "born"]
    verbs += _DID.findall(question)
    return _role_stems(" ".join(verbs))


def _holds(v: _Role, value: _Role, named: frozenset[str]) -> bool:
    """Whether the context's value is the answer's: a name holding all of its words, or
    one of its words the question does not give ("Space" is not "European Space Agency")."""
    if v.kind == value.kind == "name":
        return value.key <= v.key or v.key <= value.key and not v.key <= named
    return _same_value(v, value)


_THAN = re.compile(r"\bthan\b|\bbefore\b|\bafter\b", re.IGNORECASE)


def yes_no_tied(answer: str, ev: _Evidence) -> str:
    """A yes or no to "was X born in Y?" that the passages decide: "yes" where the passage
    ties the asked verb to another value of Y's kind and never says Y in a clause with it
    ("Born in South Shields, he studied … in London" for "was he born in London?"); "no"
    where the verb's own words lead to Y."""
    yes, no = bool(_YES.match(answer)), bool(_NO.match(answer))
    asked = _yes_no_questions(ev.given)
    if yes == no or not asked or _BOTH.search(asked[-1]) or _THAN.search(asked[-1]):
        return ""
    question = asked[-1]
    # "Was penicillin discovered in 1945?": a yes/no question asks its own verb, "founded
    # by" too; its subject is what comes before that verb, the value asked about after it.
    relation = _relation(question)
    verb = next((m for m in re.finditer(r"[A-Za-z][\w'-]*", question)
                 if m.start() and _role_stems(m.group(0)) and _role_stems(m.group(0)) <= relation), None)
    if verb is None:
        return ""
    subject = _name_words(re.sub(r"^\W*\w+", "", question[: verb.start()]))
    value = next((v for v in reversed(_values(question[verb.end() :]))
                  if v.kind in ("name", "year")), None)
    if value is None or not subject:
        return ""
    alike = relation | _alike(relation)
    # A yes stands where a clause with the verb gives the value at all ("founded in Munich,
    # Germany"); a no falls only where the verb's own words lead to it.
    said, told, tied = False, False, []
    for p in _paragraphs(ev.texts[: ev.documents]):
        if not subject & _name_words(p.text):
            continue
        for c in _clauses(p):
            vs = _clause_values(c, relation)
            if not _meet(_role_stems(c), alike):
                continue
            said = said or any(_holds(v, value, frozenset()) for v in vs)
            told = told or any(_holds(v, value, frozenset()) and _tied(c, v, vs, relation) for v in vs)
            tied += [v for v in vs if v.kind == value.kind and not v.key <= subject
                     and _tied(c, v, vs, relation) and _demonym(v) == _demonym(value)]
    if yes and not said and tied:
        return f"the context ties {tied[0].text}, not {value.text}, to it"
    if no and told:
        return f"the context says {value.text}"
    return ""


# The ends of a series: the one a question asks, and the other.
_ENDS = {"first": "first", "earliest": "first", "last": "last", "latest": "last", "final": "last"}
_OTHER_END = {"first": "last", "last": "first"}
_END = re.compile(r"\b(?:first|earliest|last|latest|final)\b", re.IGNORECASE)
_END_WORDS = 3  # words before a value that say which end it is ("the last in 2022")


def other_end(claim: str, ev: _Evidence) -> str:
    """A short answer to a question about the first (or last) of a series with the value the
    passage gives as the other end: "the first in 2005 and the last in 2022"."""
    question = _question(ev.given)
    ends = {m.group(0).lower() for m in _END.finditer(question)} if question else set()
    if len(ends) != 1 or len(claim.split()) > _SHORT:
        return ""
    asked = _ENDS[ends.pop()]
    named = _name_words(" ".join(m.group(0) for m in _CAPITALISED.finditer(question)))
    value = _answer_value(claim, question, named)
    if value is None:
        return ""

    def end(text: str, v: _Role) -> str:  # the end the words just before the value say
        near = _END.findall(" ".join(re.findall(r"[\w'-]+", text[: v.start])[-_END_WORDS:]))
        return _ENDS[near[-1].lower()] if near else ""

    for x in (x for t in ev.texts[: ev.documents] for x in split_claims(t)):
        vs = _values(x)
        mine = [end(x, v) for v in vs if _same_value(v, value)]
        right = next((v for v in vs if v.kind == value.kind and not _same_value(v, value)
                      and end(x, v) == asked), None)
        if right is not None and mine and all(e == _OTHER_END[asked] for e in mine):
            return (f"the context gives {value.text} as the {_OTHER_END[asked]} and "
                    f"{right.text} as the {asked}")
    return ""
