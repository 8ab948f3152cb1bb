"""The wording HALLUCINATION's checks read alike: a sentence's negators, conditions,
clauses and short items, and the question a request asks.
"""

from __future__ import annotations

import re

from ._claims import _FUNCTION as _FUNCTION_WORDS
from ._claims import _words, split_claims, stem

# "+" between spaces is "plus" written as its sign: "$250 from the certificate + $5 from the Visa".
_ADDED = re.compile(r",?\s+(?:and|plus|also|as well as|but)\s+|;\s+|\s+[\u2014\u2013+]\s+",
                    re.IGNORECASE)

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


_NEGATOR = re.compile(r"\b(?:not|no|never|none|nothing|nobody|without|\w+n't|cannot)\b", re.IGNORECASE)
# A negator at most two words before the end: the word that follows is denied ("not yet
# delivered", "no free parking", "doesn't come with").
_NEGATED_END = re.compile(rf"{_NEGATOR.pattern}(?:\s+\w+){{0,2}}\s*$", re.IGNORECASE)


def _negated_before(text: str, at: int) -> bool:
    """The word of ``text`` that starts at ``at`` is denied by a negator just before it."""
    return bool(_NEGATED_END.search(text[:at]))


# "compensation is only available when the flight is cancelled": a rule's condition, not
# the flight's state; it reaches to the clause's end.
_CONDITIONAL = re.compile(r"\b(?:if|when|whenever|unless|once|only for|in case)\b[^,;.!?]*$", re.IGNORECASE)

_ITEM_WORDS = 3

_CLAUSE_BREAK = re.compile(r"[,;:()]|\s[\u2014\u2013-]\s")

_PARTS = 2  # a total is of two parts or more
_BOUND_WORDS = 14  # only a short claim is bound: a long one mixes several facts

_NUMBER_RANGE = re.compile(r"(?<![\w.\-\u2013])(\d[\d,.]*)\s*(?:-|\u2013|\u2014|to)\s*(\d[\d,.]*)(?![\w.\-\u2013])")

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


_QUESTION_WORDS = 40  # a question, not a long request
# "Who …", "In which year …", "The director of X is based in what city?"
_ASKS = re.compile(r"\b(?:who|whom|whose|when|where|which|what|how)\b", re.IGNORECASE)


def _question(text: str) -> str:
    """The question a short request ends with ("who", "which", "how" …), or ""."""
    asked = [s for s in split_claims(text) if s.rstrip().endswith("?")]
    if not asked or len(text.split()) > _QUESTION_WORDS or not _ASKS.search(asked[-1]):
        return ""
    return asked[-1]


def _short(text: str, words: int = 14) -> str:
    parts = text.split()
    return " ".join(parts[:words]) + (" …" if len(parts) > words else "")
