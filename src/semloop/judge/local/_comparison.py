"""HALLUCINATION on short answers to questions over pasted passages (knowledge QA, RAG):
answers that name a value the passages hold, but not as the answer to the question.

- **yes/no comparisons**: "Is A older than B?", "Was A founded before B?" answered against
  the passages' own figures for A and B (read as ``_comparison`` reads "which is older, A
  or B");
- **the wrong hop**: "What is the capacity of the venue where the final is played?" answered
  with the figure the passages give for another venue than the one the question goes
  through, said the same way ("capacity 41,000" beside "capacity 28,500");
- **the wrong relation**: "Where was the director of X born?" answered with the place the
  passages tie to another relation ("studied … in London") while the asked one leads to
  another value ("Born in South Shields").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ._claims import split_claims
from ._grounding import (
    _CAPITALISED,
    _NO,
    _YES,
    _comparison,
    _Evidence,
    _name_words,
    _Paragraph,
    _paragraphs,
    _question,
    _Role,
    _role_stems,
    _role_values,
    _same_value,
    _yes_no_questions,
)

_SHORT = 14  # words: a short answer, one value and its frame
_LEAD_WORDS = 4  # the words before a value that say what it is ("ISO 14001 certified")

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


# --- the value of another entity, or of another relation ------------------------------------
def _values(sentence: str) -> list[_Role]:
    return sorted(_role_values(sentence), key=lambda v: v.start)


def _lead(sentence: str, value: _Role) -> frozenset[str]:
    """What the sentence says the value is: its lower-case words just before it."""
    words = re.findall(r"[\w'-]+", sentence[: value.start])[-_LEAD_WORDS:]
    return _role_stems(" ".join(w for w in words if w.islower()))


def _answer_value(claim: str, question: str, named: frozenset[str]) -> _Role | None:
    """The answer's value: its first name, year or number the question does not give."""
    return next((v for v in _values(claim) if v.text not in question
                 and (v.kind in ("name", "year") or v.kind.startswith("number"))
                 and not (v.kind == "name" and v.key & named)), None)


def _sentences(paragraphs: Sequence[_Paragraph]) -> list[tuple[str, _Paragraph]]:
    return [(x, p) for p in paragraphs for x in split_claims(p.text)]


def _owners(sentence: str, paragraph: _Paragraph, value: _Role) -> list[frozenset[str]]:
    """What a value in the sentence is said of: the sentence's other names, and its
    paragraph's subject (a sentence going on with "It" or "Its capital" is about it)."""
    return [v.key for v in _values(sentence) if v.kind == "name" and v.key != value.key] + (
        [paragraph.subject] if paragraph.subject else [])


def other_hop(claim: str, ev: _Evidence) -> str:
    """A short answer whose value the passages give only for an entity the question's chain
    never reaches, while an entity it reaches (a name in the passage about what the question
    names, or, where it names nothing, in the passage its words fit best) gets a value of the
    same kind said the same way: "Harbour Park: capacity 41,000" for the venue of a final
    "played at Kingsmead Arena", whose "capacity 28,500" the passages give too."""
    question = _question(ev.given)
    if (len(claim.split()) > _SHORT or not question or _yes_no_questions(ev.given)
            or re.search(r"\bor\b", question)):
        return ""
    named = _name_words(" ".join(m.group(0) for m in _CAPITALISED.finditer(question)))
    value = _answer_value(claim, question, named)
    named_any = bool(named)
    paragraphs = _paragraphs(ev.texts[: ev.documents])
    if value is None or len(paragraphs) < 2:
        return ""
    sentences = _sentences(paragraphs)
    holding = [(x, p) for x, p in sentences if any(_same_value(v, value) for v in _values(x))]
    held = {id(p) for _, p in holding}
    # What the question goes through: its names the value's passages do not give ("the
    # Aurora 2 pump", not the "ISO 14001" asked of the plant). Where they give them all, the
    # answer is one hop from them.
    named -= frozenset().union(*(v.key for _, p in holding for v in p.values if v.kind == "name"))
    if named:
        anchors = [p for p in paragraphs if any(v.kind == "name" and v.key & named for v in p.values)]
    elif named_any:
        return ""
    else:
        wanted = _role_stems(question)
        scores = {id(p): len(wanted & p.stems) for p in paragraphs if id(p) not in held}
        best = max(scores.values(), default=0)
        anchors = [p for p in paragraphs if best and scores.get(id(p)) == best]
    bridges = [v.key for p in anchors for v in p.values
               if v.kind == "name" and not v.key & named and not _same_value(v, value)]
    if not holding or not bridges:
        return ""

    def reached(owners: list[frozenset[str]]) -> bool:
        return any(o & named or any(o <= b or b <= o for b in bridges) for o in owners)

    for x, p in holding:
        # The value itself names the bridge ("Ghent" for "the Ghent plant"), or is said of it.
        if reached([value.key] if value.kind == "name" else []) or reached(_owners(x, p, value)):
            return ""
    x, p = holding[0]
    mine = max((v for v in _values(x) if _same_value(v, value)), key=lambda v: v.key == value.key)
    lead = _lead(x, mine)
    for y, q in sentences:
        for w in _values(y):
            if (w.kind == value.kind and not _same_value(w, value) and not (w.kind == "name" and w.key & named)
                    and lead & _lead(y, w) and reached(_owners(y, q, w))
                    and not any(w.key <= b or b <= w.key for b in bridges if w.kind == "name")):
                return (f"the context gives {value.text} for another entity than the one the "
                        f"question goes through, for which it gives {w.text}")
    return ""
