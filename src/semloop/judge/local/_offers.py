"""What a HALLUCINATION claim offers: the items and terms of a service (free WiFi, what
a plan includes, a list's steps, no charge) that the context must name.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ._claims import _FUNCTION as _FUNCTION_WORDS
from ._claims import _WORD_NUMBERS, _words, dates, quantities, stem, word_stems
from ._names import _acronym_found
from ._records import _KEY_WHEN, _PAIR, _PAIR_SPLIT
from ._wording import (
    _CONDITIONAL,
    _ITEM_WORDS,
    _NEGATOR,
    _PARTS,
    _negated_before,
    _question,
    _short,
)

if TYPE_CHECKING:
    from ._grounding import _Evidence


# Words that offer a service's attributes ("free WiFi", "comes with a tamper", "includes
# two walks, a heated kennel and …"): each item after one is an attribute the context must
# name. A context that lists what the service has and not that item did not offer it.
_OFFER = re.compile(r"\b(?:free|complimentary|includes?|including|comes? with|offers?|provides?|"
                    r"features?|equipped with|"
                    r"(?:can|may) (?:also )?(?:borrow|hire|rent|use))\s+(?!of\b)", re.IGNORECASE)
# A clause ends the items, and one that opens them offers none: "can't share anything,
# including whether an account exists". "Such as" opens examples of the item before it.
# A reason ends them as "because" does: "bags are free due to your gold status" offers no "due".
# "Even" opens the clause its conjunction does: "a free card even if they live elsewhere".
_OFFER_END = re.compile(r"[.;:!?()]|\s[\u2014\u2013]\s|(?<!\bsuch)(?:^|,?\s+)(?:even\s+)?(?:but|so|because|since|which|if|when|as|"
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
# "with large hail and damaging winds possible": how sure the items are, after them, names none.
_LIKELIHOOD = frozenset("possible likely unlikely probable expected".split())  # noqa: SIM905
_INDEFINITE = frozenset("anything something everything whatever".split())  # noqa: SIM905


def _item_head(words: Sequence[str]) -> str:
    """The word an offered item is named by: its last, or the one before a category noun."""
    # "guidance tonight": a time word after the item says when, it names no item.
    kept = [w for w in words if w not in _DEGREE and w not in _FUNCTION_WORDS and w not in _KEY_WHEN
            and w not in _LIKELIHOOD]
    while kept and kept[-1] in _CATEGORY_NOUNS:
        kept.pop()
    return kept[-1] if kept else ""


_NON = re.compile(r"\bnon[- ]?$", re.IGNORECASE)
# "3 connectors are free", "has two units free right now": free after what it qualifies.
_PREDICATE_FREE = re.compile(r"(?:(?<!\bthere )\b(?:is|are|was|were|be|been|stays?|remains?)\s+(?:\w+ly\s+)?|"
                             rf"(?:\d+|\b(?:{'|'.join(_WORD_NUMBERS)}))\s+[a-z][\w-]*\s+)free\s+$", re.IGNORECASE)
# What the user owns, which no service offers.
_OWN = re.compile(r"(?:your|my|their|his|her|our)\b", re.IGNORECASE)
# "I can only offer", "I'm unfortunately unable to offer", "allows me to offer": what the
# speaker may do, not what a product comes with.
_SPEAKER_OFFERS = re.compile(r"\b(?:I|I'm|me)\s+(?:[\w']+\s+){0,3}$")


# "The email will include the return window", "the letter you'll get will include …": what a
# message still to come holds, which no record shows yet; it offers nothing.
_MESSAGE_TO_COME = re.compile(r"\b(?:e-?mails?|messages?|letters?|texts?|sms|notices?|notifications?|"
                              r"confirmations?|instructions)\b(?:\s+[\w']+){0,4}?\s+(?:will|would|should)\s+"
                              r"(?:also\s+)?$", re.IGNORECASE)


# "offer" and "feature" are nouns too: with nothing before them, or after a determiner,
# they name the thing ("Offer summary", "the offer expires"); a verb has its subject.
# _NOUN_LEAD is what may stand before such a noun: the claim's start or a determiner.
_NAMED_OFFER = re.compile(r"offer|feature", re.IGNORECASE)
_NOUN_LEAD = re.compile(r"(?:^|\b(?:the|an?|this|that|your|our|their|his|her|my|its)\s+)\W*$", re.IGNORECASE)


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
        if _NAMED_OFFER.fullmatch(m.group(0).strip()) and _NOUN_LEAD.search(claim[: m.start()]):
            continue  # "Offer summary for Hira Baig", "your offer letter": the noun, which offers nothing
        if m.group(0)[:3].lower() in ("can", "may") and _OWN.match(rest):
            continue  # "you can use your phone": the user's own thing
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
# "anything with a limit under 2 hours", "anyone over 65": a universal the claim narrows
# itself, as the context's limit does.
_NARROWED = re.compile(r"(?:\s+[a-z-]+)?\s+(?:with|without|that|which|who|whose|under|over|above|below)\b",
                       re.IGNORECASE)


def _widened(claim: str, restated: str) -> str:
    if _LIMIT.search(claim) or not _LIMIT.search(restated):
        return ""
    theirs = _SPLIT_UNIVERSAL.sub(r"\1\2", restated.lower())
    said = _SPLIT_UNIVERSAL.sub(r"\1\2", claim)
    return next((m.group(0) for m in _UNIVERSAL.finditer(said)
                 if not re.search(rf"\b{m.group(0).lower()}\b", theirs)
                 and not _NARROWED.match(said, m.end())), "")
