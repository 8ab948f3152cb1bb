"""A HALLUCINATION claim that says what the context says the other way: a negated
sentence, a yes/no key, a record's status, an unset value, another cause.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from ._claims import _FUNCTION as _FUNCTION_WORDS
from ._claims import (
    _words,
    clauses,
    contradicts,
    date_supported,
    dates,
    is_hedged,
    negation_scope,
    number_supported,
    quantities,
    stem,
    word_stems,
)
from ._figures import _FALL, _RISE
from ._offers import _STEM_PREFIX, _VERBS
from ._records import (
    _CAMEL,
    _NAME_WORDS,
    _NONE,
    _NULL,
    _OUT_OF,
    _PAIR,
    _PAIR_SPLIT,
    _YES_NO,
    _given,
    _key_words,
    _named_records,
    _said,
)
from ._times import _FROM_TO, _zone_gap
from ._wording import _ADDED, _CONDITIONAL, _NEGATOR, _PARTS, _negated_before, _short

if TYPE_CHECKING:
    from ._grounding import _Evidence


# Statuses of one thing that exclude each other: a claim of one where the context states
# another (and not the claim's) contradicts it in words that share no negation.
_STATES = tuple(
    tuple(re.compile(rf"\b(?:{alt})\b", re.IGNORECASE) for alt in group)
    for group in (
        # an event moved to a new date is neither cancelled nor on as planned
        ("on time|on schedule", "delayed", "cancell?ed", "rescheduled|postponed"),
        ("approved|accepted", "rejected|denied|declined", "pending|under review|in review|being reviewed"),
        ("delivered", "out for delivery|in transit|on its way|on the way"),
        # sent, where the context's state is still before sending ("label_created")
        ("shipped|dispatched|sent out|posted out",
         "label[ _]created|[a-z_]*awaiting[ _](?!delivery)[a-z]+|not (?:yet )?(?:shipped|dispatched)|unshipped"),
        ("in stock|\\d+ (?:left|remaining)", "out of stock|sold out|backordered|on backorder"),
        # a spec's bounds, or a period's window ("within the 30-day return window") where a
        # record's code says it is not ("OUTSIDE_WINDOW"); a policy's prose "outside the
        # 24-hour window" is a rule, no record's state
        ("within (?:spec|tolerance|limits|(?:the |your )?(?:[\\w-]+ ){0,2}window)|in spec",
         "out of (?:spec|tolerance)|outside (?:spec|tolerance|window)"),
        # a service, account or card in force, where the context's is held or ended
        ("active|in force", "suspended|deactivated|inactive|lapsed|frozen|terminated"),
        # an inspection's outcome where the record asks for corrections; not "passed to
        # billing", "the deadline has passed". (Not "failed": a test run's lines pass and
        # fail by the dozen, the state of one item among them.)
        (("(?<!has )(?<!have )(?<!had )passed(?!\\s+(?:on\\s+to|along|away|over|by|to|through)\\b)|(?:has|have|had) passed "
          "(?:the |its |their |all )?(?:[\\w-]+ )?(?:inspections?|reviews?|audits?)"),
         "corrections? required|re-?inspection required|did not pass inspection"),
    )
)
_SNAKE = re.compile(r"(?<=[a-z])_(?=[a-z])", re.IGNORECASE)

_RESTATED_WORDS = 2


def _negated_stems(text: str) -> frozenset[str]:
    singles, phrases = negation_scope(text)
    return singles.union(*phrases)


def _about_another(part: str, theirs: str, others: Sequence[str], negated: str) -> bool:
    """The claim's clause shares no word with the evidence clause but the negated one, and
    speaks of another clause of the same evidence sentence: shares a word with it ("the rack
    is not included" against "Charger included; pannier rack sold separately" speaks of the
    rack), or negates what it negates ("the recipe has no nuts" against "Contains no nuts,
    but is made in a kitchen that handles tree nuts" restates the first clause)."""
    stems = set(negated.split())
    mine = word_stems(part) - stems
    if mine & word_stems(theirs):
        return False
    denied = stems <= _negated_stems(part)
    return any(mine & word_stems(o) or (denied and stems <= _negated_stems(o))
               for o in others if o != theirs)


def _joined_about_another(part: str, theirs: str, others: Sequence[str], negated: str,
                          need: int, own: frozenset[str]) -> bool:
    """The claim's clause joins two facts ("travel is free within 15 km and the tuning is
    £85" against "tuning fee: 85; free travel radius km: 15"): the one that flips the
    evidence clause does so only with the other's words, and speaks of another clause."""
    joined = _ADDED.split(part)
    flipping = [c for c in joined if contradicts(c, theirs, need, own) == negated]
    return len(joined) > 1 and bool(flipping) and all(
        _about_another(c, theirs, others, negated) for c in flipping)


_PREFIXED = re.compile(r"\b(?:non-?|un)([a-z]{4,})", re.IGNORECASE)


def _premise(flipped: str, question: str) -> bool:
    """The negated word is the user's own ("as the non-birthing parent", "I'm unemployed"):
    the answer restates whom it answers about, it asserts nothing of it."""
    return any(stem(m.group(1).lower()) == flipped for m in _PREFIXED.finditer(question))


_COUNTED_REST = re.compile(r"\b\d[\d,.]*\s+(?:[a-z]+\s+)?(?:non-?|un)([a-z]{4,})", re.IGNORECASE)


def _rest_counted(part: str, flipped: str) -> bool:
    """The claim counts both sides of a whole ("180 seats are assigned, leaving 60
    unassigned", "4 paid and 2 unpaid"): the prefixed side is the rest, no denial of the
    other."""
    return any(stem(m.group(1).lower()) == flipped
               and flipped in word_stems(part[: m.start()] + part[m.end() :])
               for m in _COUNTED_REST.finditer(part))


def _negation_restated(part: str, parts: Sequence[str], theirs: str) -> bool:
    """Another clause of the claim restates the evidence clause, negated where it is negated,
    often with its verb left out ("the certificate is included, but the exam fee isn't"
    against "exam fees are not included"): that clause, not ``part``, is about it."""
    negated = bool(_NEGATOR.search(theirs))
    stems = word_stems(theirs)
    return any(other is not part and bool(_NEGATOR.search(other)) == negated
               and len(word_stems(other) & stems) >= _RESTATED_WORDS for other in parts)


_DENIED_NEED = re.compile(r"\b(?:(?:doesn't|does not|don't|do not|won't|will not)\s+(?:have|need)\s+to|"
                         r"needn't|need not|not (?:required|needed|necessary) to)\b", re.IGNORECASE)
_EXEMPTS = re.compile(r"\b(?:exempt\w*|excluded|not (?:required|needed|necessary))\b", re.IGNORECASE)


def _exempted(part: str, flipped: str, sentences: Sequence[str]) -> bool:
    """"so a logo doesn't have to meet 4.5:1" where the context says "Logotypes and purely
    decorative text are exempt": a requirement denied of what another sentence of the
    context exempts, named by two words of the claim besides the requirement's."""
    if not _DENIED_NEED.search(part):
        return False
    mine = word_stems(part) - set(flipped.split())
    return any(_EXEMPTS.search(s) and len((word_stems(s) & mine) - word_stems("exempt")) >= _PARTS
               for s in sentences)


# "Closed Mondays, except Bank Holiday Mondays (26 August: open 11:00-17:00)": a rule and a
# case it leaves out.
_EXCEPTION = re.compile(r"\b(?:except|unless|other than|apart from|save for|excluding)\b", re.IGNORECASE)


def _excepted(flipped: str, sentence: str, own: frozenset[str]) -> bool:
    """The evidence ``sentence`` denies the ``flipped`` word but for a case the claim (its
    stems ``own``) speaks of: two words after the exception (see ``_EXCEPTION``) that the
    rule before it lacks."""
    m = _EXCEPTION.search(sentence)
    if m is None:
        return False
    after = word_stems(sentence[m.end():]) - word_stems(sentence[: m.start()]) - set(flipped.split())
    return len(after & own) >= _PARTS


def _negation_agrees(part: str, flipped: str, clause: str, theirs: Sequence[str],
                     need: int) -> bool:
    """The claim negates what the evidence ``clause`` asserts, but another clause of the
    sentence negates it in words and speaks of what ``part`` speaks of: "charged separately as
    disbursements" restates "disbursements are not included ... payable separately", not
    the listing verb of "these include searches". A clause of another thing ("parking is
    not included") shares no words besides the flipped one and agrees with nothing; nor
    does a record's implied one ("free visit radius"), whose side of a limit it leaves out."""
    stems, mine = set(flipped.split()), word_stems(part) | _letter_names(part)
    if stems <= negation_scope(clause)[0]:
        return False
    return any(other is not clause and bool(_NEGATOR.search(other))
               and stems <= negation_scope(other)[0]
               and len(((word_stems(other) | _letter_names(other)) & mine) - stems) >= need for other in theirs)


# "Letters h and w are not coded", "Plan B": a letter standing alone names a thing, a word
# the stems leave out ("a" and "I" are words).
_LETTER_NAME = re.compile(r"(?<![\w'\u2019.-])[b-hj-z](?![\w'\u2019-])", re.IGNORECASE)


def _letter_names(text: str) -> set[str]:
    return {m.group(0).lower() for m in _LETTER_NAME.finditer(text)}


_NOT_SET = re.compile(r"(?:not|no)\s+\w+$")  # "reopen: not scheduled", "date: no date"


def _unset_given(claim: str, missing: Sequence[str], ev: _Evidence) -> str:
    """A value no context gives, said in a clause whose words are those of a record's key the
    record leaves unset ("auction scheduled: null", "reopen: not scheduled"): "the unit is
    scheduled for auction on 20 December" gives the key a value the record says it lacks."""
    if not missing:
        return ""
    for clause in _ADDED.split(claim):
        said = [t for t in missing if t in clause]
        if not said or _DENIED.search(clause):
            continue
        own = word_stems(clause)
        for record in ev.records:
            for key, value in record.pairs:
                words = word_stems(" ".join(_key_words(key)))
                if words and words <= own and (value == _NULL or value.lower() in _NONE
                                               or _NOT_SET.fullmatch(value.lower())):
                    return f'{said[0]} for "{key}", which the record leaves unset ({value})'
    return ""


# "within the 5-year / 60,000 km powertrain warranty", "inside your 30-day return window":
# a bound of a cover or a term, its figures in the phrase.
_WITHIN_BOUND = re.compile(r"\b(?:within|inside|under)\s+(?:the\s+|your\s+|its\s+|their\s+)?"
                           r"((?:[\w.,/-]+\s+){0,6}?)(?:warranty|window|limit|allowance|period|cap|coverage|"
                           r"term|guarantee)\b", re.IGNORECASE)


def _past_bound(claim: str) -> str:
    """A claim that a thing is within a bound ("within the 60,000 km warranty") while it
    states the thing's own figure past it ("odometer 61,200 km"): its own numbers deny it."""
    for m in _WITHIN_BOUND.finditer(claim):
        if _negated_before(claim, m.start()):
            continue
        bounds = [q for q in quantities(m.group(1)) if q.unit]
        rest = claim[: m.start()] + " " + claim[m.end():]
        for q in quantities(rest):
            if any(b.unit == q.unit and q.value > b.value for b in bounds):
                return f'"{m.group(0)}", though the claim gives {q.text}'
    return ""


# A key's last word that says it holds a date ("move_out_date", "closed_at"): the words
# before it name the event.
_DATE_KEY_ENDS = frozenset({"date", "at", "on", "day"})
_MODAL = re.compile(r"\b(?:will|would|should|could|may|might|can|expected|scheduled|planned|due|likely|"
                    r"probably|until|unless|if|once|when)\b", re.IGNORECASE)


def _unset_dated(claim: str, ev: _Evidence) -> str:
    """A date said of an event whose date the record leaves unset ("move_out_date: null")
    where the date is another field's whose words the clause does not use ("lease_end"):
    "she is moving out on 30 April" gives the unset event the lease's end. A clause that
    hedges, plans or denies it says no date happened."""
    for clause in _ADDED.split(claim):
        said = dates(clause)
        if not said or _DENIED.search(clause) or _MODAL.search(clause) or is_hedged(clause):
            continue
        own = word_stems(clause)
        named = _named_records(clause, ev) or ev.records
        for record in named:
            unset = [words for key, value in record.pairs if value == _NULL and len(kw := _key_words(key)) > 1
                     and kw[-1] in _DATE_KEY_ENDS and (words := word_stems(" ".join(kw[:-1]))) and words <= own]
            givers = [word_stems(" ".join(_key_words(key))) for key, value in record.pairs
                      if any(date_supported(r, [p for _, rs in dates(value) for p in rs]) for _, r in said)]
            if unset and givers and not any(g & own for g in givers):
                return f'{said[0][0]} for an event the record leaves undated'
    return ""


_SPAN_BREAK = re.compile(r"[,;:()]|\s[-\u2013\u2014]\s")
_DENIAL_BEFORE, _DENIAL_AFTER = 4, 3  # words: "no way to add insurance", "insurance is not included"


def _denied_near(part: str, stems: frozenset[str]) -> bool:
    """Whether a negator stands by the clause's word for the key's thing: the clause denies
    it too, in its own words, as a record's "insurance: no" does ("there is no way to add
    insurance", "insurance is not included"), whichever word the negator binds."""
    for span in _SPAN_BREAK.split(part):  # "No, your booking has insurance" denies nothing of it
        # The distance in content words: "no way for me to add travel insurance".
        words = [w for w in _words(span) if w not in _FUNCTION_WORDS or _NEGATOR.fullmatch(w)]
        negators = [i for i, w in enumerate(words) if _NEGATOR.fullmatch(w)]
        if any(stem(w) in stems and any(-_DENIAL_AFTER <= i - n <= _DENIAL_BEFORE for n in negators)
               for i, w in enumerate(words)):
            return True
    return False


_THEN = re.compile(r",?\s+(?:and\s+)?then\s+", re.IGNORECASE)  # events in sequence: one clause each
# "- Stock: 0", "Deposit: none", "waterproof set to **no**": the claim's own pair of nothing
# says "no stock", as a record's does.
_NONE_PAIR = re.compile(r"\b([A-Za-z][\w ]{0,30}?):\s*(?:0|none|nil)(?![\w.,])|"
                        r"\b((?:[A-Za-z]+\s+)?[A-Za-z]+)\s+set to\s+[*_]*(?:0|none|no|false)\b[*_]*", re.IGNORECASE)
_CHANGED = re.compile(r"\s*(?:->|=>|\u2192)\s*")  # "3254583681 (blue) -> 9440686670 (green)": two records' states


def _other_kind(part: str, pair: str, mine: frozenset[str]) -> bool:
    """The clause gives the key's thing another qualifier than the key's missing one:
    "standard shipping" is not the "express shipping" of "express shipping: False"."""
    keys = [stem(w) for w in _key_words(pair.rpartition(": ")[0])]
    missing = [i for i, k in enumerate(keys[:-1]) if k not in mine]
    if len(missing) != 1 or any(k not in mine for k in keys[missing[0] + 1:]):
        return False
    head = keys[missing[0] + 1]
    words = _words(part.lower())
    return any(stem(w) == head and (b := words[i - 1]).isalpha() and b not in _FUNCTION_WORDS
               and b not in _VERBS and stem(b) not in keys and not _NEGATOR.fullmatch(b)
               for i, w in enumerate(words) if i)


def _meant_other(claim: str, pair: str, ev: _Evidence) -> bool:
    """Records that give the pair's key the other way ("waterproof: yes" of one variant,
    "no" of the next), one of which the claim names at least as well as the pair's: the
    claim may speak of that one ("$466.75, 4K, waterproof, black" of the variant at $466.75),
    so its yes or no is no conflict with the pair."""
    key, _, value = pair.partition(": ")
    entries = ev.entries
    mine = next(((path, pairs) for path, pairs in entries if (key, value) in pairs), None)
    if mine is None:
        return False
    column = _key_words(key)[len(mine[0]):]
    named = _given((v for _, v in mine[1]), claim)
    # Or named by the same values as the pair's own ("green, 20-hour battery, not water
    # resistant" of two green 20-hour variants, one water resistant and one not): the claim
    # cannot tell them apart, and may mean either. Two records each named by their own
    # values ("beat Ashgrove at home and won away at Dunmore") are told apart.
    for path, pairs in entries:
        if not any(_key_words(k)[len(path):] == column and v.lower() != value.lower() for k, v in pairs):
            continue
        theirs = _given((v for _, v in pairs), claim)
        if len(theirs) > len(named) or named and {v.lower() for v in theirs} == {v.lower() for v in named}:
            return True
    return False


# "I can't share them without his written authorization on file": after a refusal,
# "without" names what the act needs (an "unless"), and says nothing of whether it is there.
_REFUSED_WITHOUT = re.compile(r"(\b(?:can't|cannot|can not|won't|unable to|not able to|not allowed to)\b"
                              r"[^.;!?]*?)\s*\bwithout\b[^,;.!?]*", re.IGNORECASE)


_ZERO_WORD = re.compile(r"\bzero\b", re.IGNORECASE)
# "The client dinner is missing its receipt", "lacks a signature": it has none of the thing.
_MISSING = re.compile(r"\b(?:is|are)\s+(?:still\s+)?missing\s+(?:its|their|his|her|your|the|a|an|any)\s+"
                      r"|\blacks?\s+(?:its|their|his|her|your|the|a|an|any)\s+", re.IGNORECASE)


# "14 would match if the date were widened": a case put as one that would hold, no value.
_WOULD_IF = re.compile(r"\b(?:would|could)\b[^,;.!?]*\bif\b", re.IGNORECASE)


def _key_conflict(claim: str, ev: _Evidence, own: frozenset[str]) -> str:
    """A clause of the claim that says a yes/no value of the context the other way: it
    names the key's words (its last, the predicate, may be said in another word) and
    flips one of them."""
    parts = [p for c in clauses(claim) for t in _THEN.split(c) for p in _CHANGED.split(t)
             if p.strip() and not _WOULD_IF.search(p)]
    for part in parts:
        said = _NONE_PAIR.sub(lambda m: f"no {m.group(1) or m.group(2)}", _OUT_OF.sub("no", _MISSING.sub(" has no ", _REFUSED_WITHOUT.sub(r"\1", part))))
        mine = word_stems(said)
        # A clause naming a record speaks of it, not of another record's value: "won 2-1 at
        # home to Ashgrove, then lost away at Dunmore" against Dunmore's "home: False".
        records = _named_records(part, ev)
        for key, stated, pair, shared in ev.keyed:
            if records and not any(_said(n, stated.lower()) for r in records for n in r.names) and any(
                    _said(n, stated.lower()) for r in ev.records if r not in records for n in r.names):
                continue
            named = len(key - mine) <= min(1, len(key) - 1) and not _other_kind(part, pair, mine)
            # With no other word in common, only a plainly affirmative sentence is read: one
            # with a zero ("the late fee is 0 EUR", "a limit of zero") or a negator ("refunds
            # are not possible"; "Medium is $228/year but none are free") may say the same.
            doubt = not shared and (_NEGATOR.search(claim) is not None or _ZERO_WORD.search(part) is not None
                                    or any(q.value == 0 for q in quantities(part)))
            flipped = contradicts(said, stated, shared, own) if named and not doubt else ""
            if flipped and set(flipped.split()) & key and not _negation_restated(part, parts, stated) and not (
                    _NEGATOR.search(stated) and _denied_near(part, frozenset(flipped.split()))) and not (
                    _meant_other(part, pair, ev)):
                return f'"{flipped}" where the context says "{pair}"'
    return ""


# A yes/no key whose last word says the thing is there or asked for ("deposit_required",
# "breakfast_included"): a claim that there is none of the thing ("there is no deposit to
# pay") denies a true one, whatever word it uses for the predicate; and a claim that the
# thing is needed affirms a false requirement.
_NEEDED = frozenset(stem(w) for w in ("required", "needed", "mandatory", "necessary"))
_PRESENCE = _NEEDED | frozenset(stem(w) for w in (
    "included", "available", "allowed", "permitted", "provided", "offered", "accepted", "payable",
    "applicable", "enabled", "supported"))


def _presence_conflict(claim: str, ev: _Evidence) -> str:
    for own, _, pair, _ in ev.keyed:
        key, _, value = pair.rpartition(": ")
        said = _YES_NO.get(value.strip().lower())
        words = _key_words(key)
        subject = [w for w in words[:-1] if stem(w) in own]  # its own words, not its path
        if said is None or not subject or stem(words[-1]) not in _PRESENCE or (
                ev.lower.count(f"{key.lower()}:") != 1):
            continue  # one record's key: which record a claim means is not read here
        name = r"\s+".join(re.escape(w) for w in subject) + r"\w*"
        if said:
            found = re.search(rf"\b(?:no|without(?:\s+(?:a|an|any))?|not\s+(?:a|an|any)|"
                              rf"(?:n't|not)\s+(?:need|have)\s+(?:to\s+\w+\s+)?(?:a|an|any)|"
                              rf"zero)\s+(?:\w+\s+)?{name}\b|\b{name}\s+(?:is|are|will be)(?:n't|\s+not)\s+"
                              r"(?:needed|required|necessary|due|payable)\b", claim, re.IGNORECASE)
        elif stem(words[-1]) in _NEEDED:
            found = re.search(rf"\b(?:need|needs|must|have to|has to|required to)\s+(?:\w+\s+){{0,2}}"
                              rf"(?:a|an|the|your)\s+{name}\b|\b{name}\s+(?:is|are|will be)\s+"
                              r"(?:needed|required|necessary|mandatory|due|payable)\b", claim, re.IGNORECASE)
            if found is not None and (_negated_before(claim, found.start())
                                      or _CONDITIONAL.search(claim[: found.start()])):
                found = None
        else:
            continue
        if found is not None:
            return f'"{found.group(0)}" where the context says "{pair}"'
    return ""


# "Vouchers are issued for approved claims", "labels come with all delivered orders": a
# state that picks out a kind of record (before a plural noun) states a rule, not the
# state of the record at hand.
_KIND_LEAD = re.compile(r"\b(?:for|on|to|with|of|all|any|only)\s+$", re.IGNORECASE)
_PLURAL_NEXT = re.compile(r"\s+[a-z]+s\b", re.IGNORECASE)


def _kind_of_record(claim: str, m: re.Match[str]) -> bool:
    return bool(_KIND_LEAD.search(claim[: m.start()]) and _PLURAL_NEXT.match(claim, m.end()))


# "Approved duplicate-charge refunds are returned within 10 days": a state before the plural
# subject of a rule picks out a kind of record; the text states no record in it.
_RULE_SUBJECT = re.compile(r"(?:\s+[\w-]+){0,2}?\s+[a-z-]+s\s+(?:are|get|go|will|can|may|must)\b",
                           re.IGNORECASE)


def _state_conflict(claim: str, ev: _Evidence) -> str:
    # What the user asks ("is it on time?") states nothing; "in stock: False" states no
    # "in stock".
    facts = ev.facts
    for group in _STATES:
        for mine in group:
            m = mine.search(claim)
            if m is None or _negated_before(claim, m.start()) or (
                    _CONDITIONAL.search(claim[: m.start()])) or _kind_of_record(claim, m) or (
                    _EARLIER.search(claim[: m.start()])) or _SET_AGAINST.search(claim[: m.start()]):
                continue
            # Where another record has the claim's state ("Tier 1 ... sold out"), the line
            # of the one record the claim names ("GA Pit ... 6 left") is what it states.
            held = facts if not mine.search(facts) else _named_line(claim[: m.start()] + claim[m.end():], facts)
            if mine.search(held):
                continue
            found = next((f for t in group if t is not mine for f in t.finditer(held)
                          if not _RULE_SUBJECT.match(held, f.end())), None)
            if found is not None:
                return f'"{m.group(0)}" where the context says "{found.group(0)}"'
    return ""


# "postponed rather than cancelled": the state set against the one said, denied.
_SET_AGAINST = re.compile(r"\b(?:rather than|instead of)\s+(?:being\s+)?$", re.IGNORECASE)


# "Before that it ... went out for delivery at 09:12": a state the record passed through on
# its way to the one it holds now, told as its history.
_EARLIER = re.compile(r"\b(?:before that|before then|prior to that|earlier|previously|initially|at first)\b",
                      re.IGNORECASE)


def _named_line(claim: str, facts: str) -> str:
    """The one line of the facts that the claim names by a word no other line has ("GA
    Pit" of "GA Pit — KES 9,000 — 6 left"), or nothing."""
    lines = facts.splitlines()
    words = [word_stems(line) for line in lines]
    lines_with = Counter(w for line_words in words for w in line_words)
    own = word_stems(claim)
    named = [i for i, line_words in enumerate(words) if any(lines_with[w] == 1 for w in line_words & own)]
    return lines[named[0]] if len(named) == 1 else ""


# A state a claim says a record has reached ("has been completed", "is now active") and the
# states a record's status may hold that fall short of one: still waiting, under way, held
# or refused ("pending_compliance_review", "in_progress", "provisional", "suspended").
_REACHED = re.compile(r"\b(?:is|are|'s|was|were|has been|have been)\s+(?:(?:now|already|fully|all|"
                      r"successfully)\s+){0,2}(complete|completed|finished|resolved|confirmed|approved|"
                      r"active|activated|ready|released|contained|credited|restored|cleared|settled|"
                      r"fixed|closed|online|paid|refunded|shipped|delivered|dispatched|guaranteed)\b"
                      # "has shipped", "have cleared customs": the state reached, said as the act
                      r"|\b(?:has|have)\s+(?:(?:now|already|all)\s+)?(shipped|delivered|cleared|dispatched)\b",
                      re.IGNORECASE)
_SHORT_OF = re.compile(r"\b(?:pending|awaiting|waiting|waitlist\w*|standby|review|progress|provisional|open|suspended|"
                       r"backorder\w*|queued|hold|held|draft|failed|quarantined|processing|requested|tentative|"
                       r"blocked|partial|incomplete|offline|inactive|paused|disabled|rejected|declined)\b")
_STATE_KEYS = frozenset({"status", "state"})
_AWAITED = re.compile(r"\b(?:until|till|unless|before|once)\b", re.IGNORECASE)
# A state that undoes the one reached: the record was called off.
_CALLED_OFF = re.compile(r"\b(?:cancell?ed|voided|withdrawn|revoked|expired)\b")


@lru_cache(maxsize=256)
def _given_states(texts: tuple[str, ...]) -> frozenset[str]:
    """The stems of the texts' words but their keys': "estimated_completion" gives no
    "completed" state, "status: completed" does."""
    return frozenset().union(*(word_stems(m.group(2) if (m := _PAIR.match(part)) else part)
                               for t in texts for part in _PAIR_SPLIT.split(t)))


def _overstated(claim: str, ev: _Evidence) -> str:
    """A claim that a record has reached a state ("CH-4471 is confirmed") where the record's
    status is short of it ("status: provisional") and no text gives that state at all: the
    status is the record's, so the record the claim speaks of must be plain (it names it, the
    status's key is the clause's subject, "monitoring … is active", or one status is given)."""
    pairs = [(key, value.replace("_", " ").lower(), r) for r in ev.records for key, value in r.pairs
             if len(value.replace("_", " ").split()) <= _NAME_WORDS and value.lower() not in _YES_NO
             and _key_words(key)]
    states = {v for k, v, _ in pairs if _key_words(k)[-1] in _STATE_KEYS}
    for m in _REACHED.finditer(claim):
        clause = re.split(r"[,;:()\u2014\u2013]|\bbut\b", claim[: m.start()])[-1]
        if _negated_before(claim, m.start()) or _CONDITIONAL.search(clause) or _SHORT_OF.search(clause.lower()):
            continue
        named = _named_records(claim, ev)
        # Where some text gives the state, only the one record the state's own clause names
        # is read: "Mochi's 10:15 cleaning is confirmed" where Mochi's status is "cancelled"
        # and another pet's "confirmed"; a state awaited ("… until the lift plan is
        # approved") is no state said.
        given = stem(m.group(1) or m.group(2)) in _given_states(tuple(ev.texts))
        if given:
            named = [r for r in _named_records(clause, ev) if any(_key_words(k)[-1] in _STATE_KEYS for k, _ in r.pairs)]
            if len(named) != 1 or _AWAITED.search(clause):
                continue
        for key, value, record in pairs:
            status = _key_words(key)[-1] in _STATE_KEYS
            subject = not status and word_stems(key) <= word_stems(clause)
            short = set(_SHORT_OF.findall(value)) | (set(_CALLED_OFF.findall(value)) if given else set())
            # A claim that says the record's own state too ("finished but still awaiting
            # cooldown") gives the status as well.
            if (status and record in named if given else subject or status and (
                    record in named or len(states) == 1)) and short and not (
                    short & set(_SHORT_OF.findall(claim.lower()))):
                return f'"{m.group(0).strip()}" where the record says "{key}: {value}"'
    return ""


# A cause the answer gives ("because the tariff increased", "caused by a GC pause"): the
# clause after the connective, to the end of the sentence. "Since" before a date is when.
# "due to" before a verb ("due to be sent out on 12 May", "due to arrive Friday") schedules;
# it gives no cause; nor does "due to" a payee before a deadline ("due to HMRC by 22 December").
_CAUSE = re.compile(r"\b(?:because(?: of)?|due to(?!\s+(?:be|arrive|leave|depart|land|start|begin|end|"
                    r"finish|open|close|reopen|expire|renew|ship|launch|resume|return)\b)"
                    r"(?!(?:\s+[\w&.'-]+){1,3}\s+(?:by|within|no later than)\s+(?:\d|the\s+\d|end\b|"
                    r"tomorrow|today|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)\w*))"
                    r"|caused by|as a result of|owing to|"
                    r"since(?!\s+(?:\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|last|"
                    r"then|yesterday|monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
                    # "since the deploy": from an event on, a time, no cause
                    r"(?:the|this|that|our|your|its)\s+(?:last\s+|latest\s+|recent\s+)?(?:deploy|deployment|release|"
                    r"upgrade|update|migration|rollout|rollback|restart|reboot|outage|incident|launch|cutover|"
                    r"merge|patch)s?\b)))\s+"
                    # A fronted cause ends where the main clause starts: "Since X, we Y", "…, the Y".
                    # Or at a gerund: "Since you have insurance, canceling would refund you".
                    r"((?:[^.;!?]|\.(?=\d))+?)(?=,\s+(?:we|i|you|it|they|this|that|there|your|our|so|the|its|their|my|"
                    r"[a-z]{3,}ing)\b|[;!?]|\.(?!\d)|$)",
                    re.IGNORECASE)
# "since I only have the allergen list", "since that needs information my tools don't
# give": the answer's own reach, no fact about the world.
# So is the chat's own course ("since we've tried a few variations without success"): a
# perfect "we" tells what the two of them did, where a present one ("since we don't ship
# there") states the company's practice.
_SPEAKER = re.compile(r"\bI\b|\bI'(?:m|ve|d)\b|\b(?:my|me)\b|\b[Ww]e(?:'ve| have)\s+(?:already\s+|now\s+)?\w+ed\b")
# "Since you'd prefer not to be transferred", "since you were told …": the customer's own
# wish or report, said back to them.
_LISTENER = re.compile(r"you(?:'d| would| do not| don't| did not| didn't)?\s+(?:\w+\s+)?(?:like|prefer|want|"
                       r"wish|said|mentioned|told|asked|chose|decided|confirmed|rather)\b", re.IGNORECASE)
# "since your flights are not cancelled or delayed": what a cause denies, a record that
# never happened holds no word for; the negation check weighs it against one that did.
_DENIED = re.compile(r"\b(?:not|never|no longer|\w+n't)\s+(?:been\s+|be\s+|yet\s+)?(\w+)(?:\s+(?:or|nor)\s+(\w+))?",
                     re.IGNORECASE)
# "You mentioned you were told you didn't need it because you had it before": a cause inside
# the customer's own report, said back to them.
_USER_REPORT = re.compile(r"\byou(?:'ve| have)?\s+(?:\w+\s+)?(?:said|mentioned|told me|explained|noted|reported)\b",
                       re.IGNORECASE)
# "because two other people have holds on it" of "item has 2 holds": who a record's count
# stands for, unnamed, is no word a context lacks.
_UNNAMED_PEOPLE = re.compile(r"\b(?:(?:an)?other\s+)?(?:people|persons?|others|some(?:one|body)(?:\s+else)?|"
                             r"any(?:one|body)(?:\s+else)?)\b", re.IGNORECASE)
_CAUSE_MISSING = 0.5  # share of the cause's content words the evidence lacks
_CAUSE_WORDS = 2  # and at least this many of them


# "This may be due to a network problem", "it could have been caused by": a guess at the
# cause, offered as one, in the clause just before it.
_GUESSED = re.compile(r"\b(?:may|might|could)\s+(?:also\s+|well\s+)?(?:be|have\s+been)\s+$", re.IGNORECASE)
_CLAUSE_START = re.compile(r".*[,;:(]")
# "Since there are no nonstop flights on May 17": a cause that says there is none of a thing.
_NONE_THERE = re.compile(r"^(?:there (?:are|is|were|was) no|no)\b", re.IGNORECASE)


# "since it can happen when cues were timed against another rate": what may bring such a
# thing about, in general, offered as a possibility and no finding of this case's cause.
_POSSIBLE = re.compile(r"\b(?:can|may|might|could|sometimes)\s+(?:\w+\s+)?(?:happen|occur|arise)s?\b", re.IGNORECASE)


def _guessed(before: str) -> bool:
    """The cause is offered as a guess: a hedge in its own clause ("probably because")."""
    clause = _CLAUSE_START.sub("", before)
    return bool(_GUESSED.search(clause)) or is_hedged(clause)


# A record's field that says why ("hold reason: COMPLIANCE_REVIEW", "Reason: OOMKilled",
# "diagnosis: Faulty water inlet valve"); a finding the claim reports as its cause.
_WHY_KEY = re.compile(r"\b(?:reasons?|causes?|diagnosis)\b", re.IGNORECASE)
# ("identified your account" finds a record, no cause: only a diagnosis reports one.)
_DIAGNOSED = re.compile(r"\bdiagnosed\s+(?:it as\s+|as\s+)?(?:an?\s+|the\s+)?([^,.;]+)", re.IGNORECASE)


def _given_causes(ev: _Evidence) -> list[tuple[str, frozenset[str]]]:
    """The values of the context's why-fields, each with its stems (a code's parts too)."""
    out = []
    for text in ev.texts:
        for line in text.splitlines():
            for part in _PAIR_SPLIT.split(line):
                m = _PAIR.match(part)
                if m and _WHY_KEY.search(m.group(1).replace("_", " ")) and m.group(2).lower() not in {"null", *_NONE}:
                    stems = word_stems(_CAMEL.sub(" ", m.group(2).replace("_", " ")))
                    if stems:
                        out.append((m.group(2), stems))
    return out


def _other_cause(claim: str, ev: _Evidence) -> str:
    """A cause the claim gives ("delayed because of network congestion", "diagnosed a failed
    drain pump") that shares no word with any cause the context's records give ("hold
    reason: COMPLIANCE_REVIEW", "diagnosis: Faulty water inlet valve"): another cause than
    the record's, not a rewording of it."""
    given = _given_causes(ev)
    if not given:
        return ""
    for m in [*_CAUSE.finditer(claim), *_DIAGNOSED.finditer(claim)]:
        words = word_stems(m.group(1))
        # "Since these are being refunded to PayPal, you'll see …": a premise, no cause found.
        if m.group(0).lower().startswith("since") or len(words) < _CAUSE_WORDS or any(
                w[:_STEM_PREFIX] == g[:_STEM_PREFIX] for w in words for _, stems in given for g in stems):
            continue
        return f'the cause "{_short(m.group(1), 8)}", where the context gives "{_short(given[0][0], 8)}"'
    return ""


_VERSUS = re.compile(r"\b(?:vs\.?|versus|compared (?:with|to)|against)\s", re.IGNORECASE)


def _unsupported_cause(claim: str, ev: _Evidence) -> str:
    """The cause a claim gives whose words the evidence mostly lacks: an invented reason."""
    for m in _CAUSE.finditer(claim):
        if _SPEAKER.search(m.group(1)) or _LISTENER.match(m.group(1)) or _guessed(claim[: m.start()]) or \
                _POSSIBLE.search(m.group(1)) or \
                _USER_REPORT.search(claim[: m.start()]) or _zone_gap(m.group(1), claim, ev):
            continue
        # None of a thing, where a lookup of it (its name or arguments) returned nothing.
        if _NONE_THERE.match(m.group(1)) and any(word_stems(m.group(1)) & asked for asked in ev.empty):
            continue
        # "usage went up: 512 kWh vs 410 kWh": a change the cause reads off two of the
        # records' figures, in the direction they take, is worked out, not invented.
        figures = [q.value for q in quantities(m.group(1)) if number_supported(q, ev.direct)]
        rise, fall = _RISE.search(m.group(1)), _FALL.search(m.group(1))
        # "went up: 512 vs 410" puts the new figure first, "rose from 410 to 512" the old.
        newest_first = _VERSUS.search(m.group(1)) and not _FROM_TO.search(m.group(1))
        if len(figures) == _PARTS and bool(rise) != bool(fall) and (
                (figures[0] > figures[1]) == bool(rise)) == bool(newest_first):
            continue
        # A figure of it the context gives ("found a $412.60 shortage") is no word it lacks.
        given = {w for q in quantities(m.group(1)) if number_supported(q, ev.direct) for w in word_stems(q.text)}
        denied = {w for d in _DENIED.finditer(m.group(1)) for w in word_stems(" ".join(filter(None, d.groups())))}
        unnamed = {w for u in _UNNAMED_PEOPLE.finditer(m.group(1)) for w in word_stems(u.group(0))}
        words = word_stems(m.group(1)) - given - denied - unnamed
        # Stems meet on their first letters, as offered items' do: "a gold member" is the
        # record's "membership: gold".
        # A cause the answer works out from several of its rules and the records ("does not
        # meet any of the cancellation criteria (not booked within 24 hours, no insurance)")
        # lacks only words that neither holds.
        ruled = frozenset().union(*ev.reasons)
        missing = {w for w in words - ev.stems - ruled if w[:_STEM_PREFIX] not in ev.stem_prefixes}
        if len(missing) >= _CAUSE_WORDS and len(missing) >= _CAUSE_MISSING * len(words) and not any(
                len(words & line) >= max(_CAUSE_WORDS, _CAUSE_MISSING * len(words))
                for line in [*ev.line_stems, *ev.reasons]):
            # (A cause half of whose words one record line holds says that record in its own
            # words: "since this reservation was booked without travel insurance"; or one
            # line of the agent's rules, the rule it applies: "health or weather reasons".)
            return m.group(1)
    return ""
