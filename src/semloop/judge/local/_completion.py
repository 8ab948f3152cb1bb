"""The embedded judge's TASK_COMPLETION answer: did the run do what was asked?

It reads the request's parts against the answer (each part must be met by the answer's
words or by one of its sentences in meaning), the tool calls (a failed call followed by a
claim of success), and the answer's form (a promise of future work, a remainder announced
as "next", instructions where an action was asked for, a question for something the user
already gave, a reply that names nothing of the request).

It reads a case into named evidence (``task_completion_evidence``); the learned head of
TASK_COMPLETION (``_head.py``, trained by calibration/train_heads.py) weighs it into the
answer. What the three task answers share is in ``_task.py``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from itertools import combinations
from typing import Any

from ...case import RunCase, ToolCall
from .._types import Answer
from ._answerer import Embed
from ._claims import (
    _WORD_NUMBERS,
    clock_times,
    dates,
    head,
    key_terms,
    promises_only,
    quantities,
    split_claims,
    stem,
    tool_text,
    verdict,
    word_stems,
)
from ._drift import _not_english
from ._head import Evidence, head_answer, heads
from ._task import (
    _ACT_LEAD,
    _ACTION_VERBS,
    _ALIKE,
    _ASKING,
    _ASKS_USER,
    _ASKS_VALUE,
    _ASKS_YES_OR_NO,
    _ATTRIBUTE_WORDS,
    _AWAITS_REPLY,
    _CLOSING,
    _COMPOUND_HEAD,
    _DAY_OF_MONTH,
    _DURATION_UNITS,
    _EMBED_WORDS,
    _FREE,
    _HANDOFF_SAID,
    _IMPERATIVE_VERBS,
    _LET_ME_KNOW,
    _LIST_MARK,
    _MONEY_UNITS,
    _NAMED_TEXT,
    _NAMESPACE,
    _NEGATED,
    _NOT_HANDED,
    _OPPOSITES,
    _PHRASAL,
    _READ_VERBS,
    _REQUEST_WORDS,
    _TRANSLATE,
    _VERB_OBJECT,
    _WITHHELD,
    _WRITE_ASKED,
    _act_words,
    _alike,
    _all_said,
    _announces_handoff,
    _asked_acts,
    _asked_text,
    _call_records,
    _call_verb,
    _chatted,
    _conversed,
    _csv_rows,
    _drafted,
    _failed,
    _hands_off,
    _hands_over,
    _idents,
    _imperative,
    _json_outputs,
    _names,
    _opens_on_act,
    _part_stems,
    _parts,
    _patch_handed_in,
    _phrasal_act,
    _phrases,
    _prose,
    _read_records,
    _reads,
    _replies,
    _Run,
    _scalar_values,
    _scalars,
    _short,
    _written,
)

__all__ = ["answer_task_completion"]


_EMPTY = 5.0  # no answer at all: nothing was done
_PART_COS = 0.45  # a sentence at this cosine to a part addresses it
_PART_STEMS = 0.5  # or this share of the part's own content words is in the answer
_PART_COS_WORDS = 3

_CLAIMS_SUCCESS = _phrases(
    r"done|all set|completed?|successfully|has been|have been|is now|are now|went through|"
    r"i(?:'ve| have) (?:\w+ed|sent|made|set|put|moved|booked|cancelled|canceled)|confirmed|"
    r"processed|(?:is|are|was|were) (?:\w+ed|ready|live|up)|(?:'ve|'s) been|you're good|"
    # "All booked!", "All updated.": the act said done in one word.
    r"^all \w+ed(?=\s*[.!])|"
    r"good to go|ready",
)
_ADMITS_FAILURE = _phrases(
    r"couldn't|could not|wasn't able|was not able|weren't able|unable|failed|didn't go|"
    r"did not go|can't|cannot|not possible|unfortunately|error|isn't possible|wouldn't|"
    # "Sorry the trip didn't work out" is about the user's plans, not the work.
    r"rejected|declined|denied|blocked|didn't work(?! out)|did not work(?! out)|not able|no longer possible|"
    r"retr(?:y|ied)|re-?ran|second attempt|first attempt|instead|timed out|went wrong|"
    # "I tried, but pauses aren't available on annual memberships"; "I tried to remove it but
    # I don't have the role, so the change was refused".
    r"tried,? but|tried to [^.;!?]{0,80}?\bbut\b|refused|(?:isn't|aren't|is not|are not) (?:available|allowed|permitted)",
)
_REMAINING = re.compile(
    # An ellipsis that ends a sentence, or opens one after a list ("…and so on through the
    # year"): it stands for the items not given.
    r"(?:\.\.\.|…)\s*$|^(?:\.\.\.|…)|\b(?:(?:is|are) next|next,? i(?:'ll| will)|next up|"
    # The user's part is no work the run left ("you would still need to pay $40"), nor is
    # what a choice would require ("the $192 difference would still need to be paid").
    r"(?<!you )(?<!would )(?<!you'd )(?<!you will )(?<!you'll )still (?:need|have) to|"
    # The agent's own ongoing work, not the user's new state ("You're now working Sunday").
    r"(?:(?:^|\b(?:i'm|i am|we're|we are|i\u2019m|we\u2019re) )now (?:looking|checking|working|reviewing|going))|"
    r"left to do|yet to|haven't (?:yet )?(?:done|started|finished)|not yet (?:done|started)|"
    # The agent's own work ahead, not a thing's course ("the order will continue through processing").
    r"(?:i|we)(?:'ll|\u2019ll| will) (?:continue|finish|do the rest)|to be continued|i'll continue|i will continue|"
    r"in the next step|after that i(?:'ll| will)|i(?:'ll| will) \w+ [^.?!]{0,40}\bnext(?=\s*[.!]?\s*$)|continuing|so far,? i|i(?:'ve| have) [^.]{0,40} so far|"
    # "Moving on to SOC-7102 next.": the next item named, the sentence ending on it.
    r"(?:mov(?:e|ing)|go(?:ing)?|turn(?:ing)?) on to [^.?!]{1,40}\bnext(?=\s*[.!]?\s*$)|"
    r"starting (?:the|on|with)|(?:carry on|continue|get to|move on to|start on|finish) (?:with )?"
    r"the (?:others|rest|remaining)|(?:mov(?:e|ing)|go(?:ing)?|get(?:ting)?) on to the "
    # The rest of the items promised by any verb ("I'll queue the remaining three").
    r"(?:next|others|rest|remaining)|i(?:'ll| will) \w+ the (?:others|rest|remaining)|"
    r"first (?:batch|part|step|half) of|(?:the )?next step(?:s)? (?:is|are|will be|would be)|^next(?=\s*:)|"
    # The rest of the work promised with a report to follow: "I'll check with them whether
    # they can do the 20th and come back to you tomorrow" (not "I'll get back to you when…").
    r"^(?:\w+,? )?i(?:'ll| will) (?!get back|come back)\w+[^.?!]{0,80}\band (?:get|come) back to you)\b",
    re.IGNORECASE,
)
# The rest of the work offered ("Let me know if you want the rest", "Shall I do the
# remaining ones?"): what the answer gave was part of what was asked, unless it says so
# ("Here are the first 4 of your 11 open tickets … Shall I fetch the rest?").
_REST_OFFERED = re.compile(r"\b(?:if you(?:'d| would)? (?:like|want|need)|want me to|shall i|should i|i can|i could)\b"
                           r"[^.?!]{0,30}?\bthe (?:rest|remaining)\b(?! of)", re.IGNORECASE)
_PORTION_SAID = re.compile(r"\b(?:first|only|so far|partial\w*)\b|\b\d+ of (?:the |your )?\d+\b", re.IGNORECASE)
# "New return economy: Let me calculate..." with the working after it: the ellipsis leads
# into what the answer goes on to give, no work left.
_LEADS_IN = re.compile(r"\b(?:let me|i'll|i will|i'm going to)\b[^.?!]*(?:\.\.\.|\u2026)\s*$", re.IGNORECASE)


def _led_in(sentence: str, sentences: Sequence[str]) -> bool:
    at = sentences.index(sentence) if sentence in sentences else len(sentences)
    return bool(_LEADS_IN.search(sentence)) and any(quantities(t) for t in sentences[at + 1 :])


# After a failure, the retry handed back to the user: the work is left, not done. One the run
# offers ("I could resubmit it tonight if you like") hands nothing back.
_HANDED_BACK = re.compile(r"(?<!\bi can )(?<!\bwe can )(?<!\bi could )(?<!\bwe could )"
                          r"(?<!\bshall i )(?<!\bshould i )\b(?:try|retry|resubmit)(?: it| this| that| again)* (?:later|tomorrow|"
                          r"in (?:a few|a|an|\d+) (?:minutes?|hours?|days?|while))\b|"
                          r"\bcheck back (?:later|tomorrow)\b", re.IGNORECASE)
# The answer lays out how it would do the work, and stops before acting.
_PLAN = _phrases(
    r"here(?:'s| is) (?:how|what) i(?:'ll| will| would| plan)|i(?:'ll| will| would) (?:first|start by|then)|"
    r"(?:my|the) plan is|the steps (?:are|would be|will be)|steps? (?:i(?:'ll| will)|to get)|"
    r"to get (?:this|that|those|these|it) (?:done|scheduled|booked|sorted|submitted)",
)
# Sent elsewhere to have it done: "please call our service desk", "contact the branch".
_REDIRECT = _phrases(
    r"(?:please )?(?:call|phone|ring|contact|email|e-mail|visit|reach out to|get in touch with)"
    r" (?:us|our|the|your|a|them)",
)
# A call that ran but reports an item it did not do: {"renewed": false}, "status": "failed",
# {"result": "rejected", "reason": "SLOT_UNAVAILABLE"}.
# The same status in any serialisation a tool writes: an XML element
# (<status>error</status>) or a plain "status=error" / "result: rejected".
_ITEM_FAILED = re.compile(
    r"\"(?:ok|success|done|(\w+ed))\"\s*:\s*false|\"(?:status|result|outcome)\"\s*:\s*\"(?:failed|error|rejected|declined|partial)\"|"
    r"<(?:status|result|outcome)>\s*(?:failed|error|rejected|declined|partial)\s*</|"
    r"\b(?:status|result|outcome)\s*[=:]\s*(?:failed|error|rejected|declined|partial)\b(?![\"\w])",
    re.IGNORECASE,
)
# A batch that did some items: a count of failures above nought, or a list of them, by
# name or as records ({"moved": 3, "failed": 2, "failed_ids": ["T-104", …]}, "failed":
# [{"id": "T3", "reason": …}]; a test run's "1 failed, 3 passed").
_BATCH_LEFT = re.compile(r"\"(?:failed|failures|errors|skipped|rejected)(?:_\w+)?\"\s*:\s*"
                         r"(?:([1-9]\d*)|\[\s*(?:\"([^\"]+)\"|\{))|\b([1-9]\d*) (?:failed|errors?|failures?)\b",
                         re.IGNORECASE)
# Said of items a batch left: "two were skipped", "only 3 moved", "1 test still fails".
_SPEAKS_OF_LEFT = re.compile(r"\b(?:skipped|remain\w*|left|still|fail\w*|errors?|not|only (?:\d+|one|two|three|"
                             r"four|five|some|part))\b|n't\b", re.IGNORECASE)
# Checks said to pass: "Tests pass now", "the build is green".
_PASSES = re.compile(r"\b(?:tests?|checks?|suite|build)\b[^.;]{0,30}?\b(?:pass(?:es|ed|ing)?|green|succeed\w*)\b",
                     re.IGNORECASE)


def _items_failed(call: ToolCall, answer: str, *, last: bool) -> bool:
    """The call reports an item not done ({"renewed": false}, "status": "partial", a batch
    with failures) that the answer does not speak of."""
    return any(not (m.group(1) and _ends_state(call, m.group(1))) for m in _ITEM_FAILED.finditer(call.output)) \
        or _batch_left_unsaid(call, answer, last=last)


def _batch_left_unsaid(call: ToolCall, answer: str, *, last: bool) -> bool:
    """The call's batch left items (failed, skipped) and the answer says nothing of items
    left or failed and names none of them. A test run's count of failures counts only in
    the last call of its tool: a later run may have fixed them."""
    left = [m for m in _BATCH_LEFT.finditer(call.output) if last or not m.group(3)]
    return bool(left) and not (_SPEAKS_OF_LEFT.search(answer) or _ADMITS_FAILURE.search(answer) or any(
        m.group(2) and m.group(2).lower() in answer.lower() for m in left))


# A clause of a sentence: "…0093 and …3381 are now blocked, so new charges will be declined".
_CLAUSE_CUT = re.compile(r"[,;:]\s*|\s+(?:and|but|while|so)\s+", re.IGNORECASE)
_CODE_ARG = re.compile(r"[A-Za-z0-9][\w-]*\d[\w-]*")
_DIGIT_RUN = re.compile(r"\d{3,}")


def _failed_item_claimed(case: RunCase) -> str | None:
    """A call on one item (its own code in the arguments) that reports the item not done
    ({"result": "rejected", "status": "ACTIVE"} for block crd_3381), no later call of its
    tool that did it, and a clause of the answer that names the item (its code or the
    code's digits) and claims it done, admitting nothing there ("…3381 are now blocked"):
    the claim is aligned to the record that says otherwise, whatever another clause says
    ("new charges will be declined"). The act's own participle ("blocked") admits nothing.
    The item's code."""
    calls = case.tools_called
    for i, call in enumerate(calls):
        if _reads(call) or not (_failed(call) or any(
                not (m.group(1) and _ends_state(call, m.group(1))) for m in _ITEM_FAILED.finditer(call.output))):
            continue
        # The item's own code: not a date, nor one a call that worked shares (the booking
        # both a late checkout and a parking space were asked on).
        shared = {str(v) for c in calls if c is not call and not _failed(c) and not _ITEM_FAILED.search(c.output)
                  for v in c.args.values()}
        codes = {v for v in call.args.values() if isinstance(v, str) and _CODE_ARG.fullmatch(v)
                 and not _ISO_DAY.search(v) and v not in shared}
        if not codes or any(c.name == call.name and codes <= set(map(str, c.args.values())) and not _failed(c)
                            and not _ITEM_FAILED.search(c.output) for c in calls[i + 1:]):
            continue
        own = _call_verb(call.name)
        marks = {m for code in codes for m in [code.lower(), *_DIGIT_RUN.findall(code)]}
        for sentence in split_claims(case.output):
            for clause in _CLAUSE_CUT.split(sentence):
                if not (_claims_success(clause, [call]) or _states_done(clause, [call])):
                    continue
                if not any(re.search(rf"(?<![\w-]){re.escape(m)}(?![\w-])", clause.lower()) for m in marks):
                    continue
                # "I've filed the dispute — reference DSP-41180" after file_dispute returned it
                # and attaching its evidence failed: the clause tells the act that was done.
                if any(_tells_call(clause, c) and any(code in c.output for code in codes)
                       for c in calls if c is not call and not _failed(c) and not _reads(c)):
                    continue
                said = " ".join(w for w in re.findall(r"[A-Za-z']+", clause) if stem(w.lower().rstrip("ed")) != own
                                and stem(w.lower()[:-2]) != own)
                if not _ADMITS_FAILURE.search(said) and not _NEGATED.search(said) and not _CONDITION.search(said):
                    return min(codes)
    return None


def _tells_call(clause: str, call: ToolCall) -> bool:
    """The clause names the call's act in its own verb ("filed" of file_dispute)."""
    act = _call_verb(call.name)
    return any(_names_act(stem(w.lower()), act) for w in re.findall(r"[A-Za-z]+", clause))


def _failure_unsaid(case: RunCase) -> str | None:
    """A look-up on an item the user named (WR-4 of "WR-1 to WR-4") that failed and was
    never made good, and an answer that admits no failure, asks nothing and never names the
    item: that part of the work was left without a word. The item."""
    text = case.output
    calls, asked = case.tools_called, case.input.lower()
    # A failure word in a sentence about an item whose call worked tells that item's record
    # ("WR-3 had only two following-error warnings"), not a failure of the run.
    worked = {str(v).lower() for c in calls if not _failed(c) for v in c.args.values()
              if isinstance(v, (str, int)) and not isinstance(v, bool) and _CODE_ARG.fullmatch(str(v))}
    if "?" in text or any(_ADMITS_FAILURE.search(s) and not any(w in s.lower() for w in worked)
                          for s in split_claims(text)):
        return None
    for i, call in enumerate(calls):
        if not _failed(call) or _hands_off(call):
            continue
        later = calls[i + 1:]
        if not _reads(call):  # a failed act the run ended on is _ended_failed's
            continue
        mine = {str(v) for v in call.args.values() if isinstance(v, (str, int)) and not isinstance(v, bool)
                and _CODE_ARG.fullmatch(str(v)) and not _ISO_DAY.search(str(v)) and str(v).lower() in asked}
        if mine and not any(c.name == call.name and not _failed(c) and mine <= set(map(str, c.args.values()))
                            for c in later) and not any(m.lower() in text.lower() for m in mine):
            return min(mine)
    return None


def _ends_state(call: ToolCall, field: str) -> bool:
    """The false field is the state the call's act ends ("locked": false after
    unlock_account, "enabled": false after disable_mfa), not an item it failed to do."""
    verb = re.split(r"[_\W]+", call.name.lower())[0]
    state = field.lower().removesuffix("ed")
    undone = {verb[len(p):] for p in ("un", "de", "dis") if verb.startswith(p)}
    undone |= {a for pair in _OPPOSITES if verb in pair for a in pair if a != verb}
    return len(state) >= 3 and any(u.startswith(state[:-1]) for u in undone)


_HOW_TO_ASKED = _phrases(
    r"how (?:do|can|should|would) (?:i|we|you)|how to|what(?:'s| is) the way|steps to|"
    r"where (?:do|can) i|instructions|guide|walk me through|explain how",
)
# "log in", "login to the portal"; "even if you know their login" names the noun.
_INSTRUCTING = _phrases(
    r"go to|log in(?:to)?|login to|sign in|click|tap|navigate|open the|select|choose|follow (?:these|the)|"
    r"head to|you can (?:do|submit|cancel|change|update|request|file|find)|here(?:'s| is) how (?:to|you)\b|"
    r"you(?:'ll| will) need to|to (?:\w+ )?(?:do|submit|cancel|change|downgrade|upgrade|update|"
    r"request|file|reset|book),? (?:go|log|click|visit|open|use|call|contact)",
)


def _name_stems(call: ToolCall) -> frozenset[str]:
    """The stems of the words of a call's name ("notice_send": notice, send)."""
    return word_stems(call.name.replace("_", " "))


def _unrecovered_failures(calls: Sequence[ToolCall]) -> list[ToolCall]:
    """Failed calls with no later successful call that retried or redid them."""
    return [call for i, call in enumerate(calls) if _failed(call) and not any(
        _retries(c, call, calls[:i]) or _redoes(c, call) and not _next_source(c, call)
        for c in calls[i + 1:] if not _failed(c))]


# A word of a tool's name that says it reads or acts: a verb, not the thing it is done to.
_READ_OR_ACT = _ACTION_VERBS | _READ_VERBS


def _tried_again(calls: Sequence[ToolCall]) -> bool:
    """The run retried a failed act itself: a later call of its tool, a retry of it, failed
    too."""
    return any(_failed(call) and not _reads(call) and any(_failed(c) and _retries(c, call, calls[:i])
                                                          for c in calls[i + 1:])
               for i, call in enumerate(calls))


def _next_source(later: ToolCall, failed: ToolCall) -> bool:
    """The later call is the same act on another source or thing, its name differing from the
    failed one's in one word that is no verb (crm_export failed, then ticket_export on the
    same data subject): the next item of a sweep, not the failed one redone."""
    a, b = (re.split(r"[_\W]+", c.name.lower()) for c in (later, failed))
    differ = [(x, y) for x, y in zip(a, b, strict=False) if x != y]
    return len(a) == len(b) and len(differ) == 1 \
        and not {stem(w) for w in differ[0]} & _READ_OR_ACT


def _retries(later: ToolCall, failed: ToolCall, earlier: Sequence[ToolCall]) -> bool:
    """A later call of the failed call's tool retried it, unless the run was acting item by
    item (a backfill a partition a call, one that worked before the failure): then the next
    item's call is no retry, and only a call that carries a value of the failed item's own
    (not one the items share) retried it."""
    if later.name != failed.name:
        return False
    if _reads(failed):
        return True
    # One that leaves out the argument the failure named ("report.pdf not found", then the
    # same message with no attachment) did not redo what failed.
    if any(not _listed_values(later.args.get(k)) and any(len(x) >= _NAMED_MIN and x in failed.output
                                                         for x in _listed_values(v))
           for k, v in failed.args.items()):
        return False
    done = {v for c in earlier if c.name == failed.name and not _failed(c) for v in _arg_values(c)}
    own = _arg_values(failed) - done
    return not done or not own or bool(own & _arg_values(later))


_NAMED_MIN = 4  # a value shorter ("1", "yes") may stand in any output


def _listed_values(value: Any) -> list[str]:
    """An argument's value, a list's items each one."""
    return [str(x) for x in (value if isinstance(value, list) else [value]) if x not in (None, "")]


def _arg_values(call: ToolCall) -> frozenset[str]:
    """The call's argument values, a list's items each one."""
    return frozenset(x for v in call.args.values() for x in _listed_values(v))


def _redoes(later: ToolCall, failed: ToolCall) -> bool:
    """Another tool did the failed call's work: it is no read or hand-off and is given every
    value the failed call was (the exchange refused for an order not yet delivered, redone as
    a change to the pending order: the same order, items and payment)."""
    given = _arg_values(failed)
    return bool(given) and given <= _arg_values(later) and not _reads(later) and not _hands_off(later)


def _missing_parts(run: _Run) -> list[tuple[str, bool]]:
    """The request's parts the answer does not meet, each with whether it asks for an act
    that nothing performed."""
    parts = _parts(run.case.input)
    if not _COVERS_ALL.search(run.case.output):
        # Items the user numbered are the parts they count, whatever the sentences hold
        # ("1) swap … 2) move … 3) tell me …" in one sentence reads as two clauses).
        numbered = _numbered(run.case.input)
        if len(numbered) > max(len(parts), 1):
            parts = numbered
        elif len(parts) < 2:
            parts = _listed(run.case.input) or _act_parts(run.case.input) or parts
        else:
            # A sentence may join two acts ("send the TTO request to pharmacy, and notify
            # the district nurses"): each is a part of its own.
            parts = [a for p in parts for a in (_act_parts(p) or [p])]
    if not run.sentences:
        return []
    if len(parts) < 2:
        # One part, yet two things in it ("renew my permit and my library card").
        one = parts[0] if parts else run.case.input
        # An address the request gives that no call used and the answer never says, in any
        # language: the act for it was not done, unless the answer owns a failure, asks back
        # or says what it will do.
        text = run.case.output
        if _address_unused(run.case.input, run.case) and not (_ADMITS_FAILURE.search(text) or _asks_back(run.case)
                                                                or _WE_WILL.search(text)):
            return [(one, True)]
        return [] if _COVERS_ALL.search(text) else _pair_missed(one, run, bool(_part_acts(one)))
    reasons = _reasons(run.case.input)
    parts = [p for p in parts if not any(p in r for r in reasons) and not _STATEMENT.match(p)] or parts
    answer = _with_irregular(word_stems(_ALL_SET.sub(" ", run.case.output)))
    told = _with_irregular(word_stems(_RECORD_NAME.sub(" ", _ALL_SET.sub(" ", run.case.output))))
    vectors = run.embed([head(p, _EMBED_WORDS) for p in parts])
    run.ensure()
    # "Both done": the answer says one call did every part ("change it to $50 and move it to the 15th").
    tools = _tools_by_part(parts if not _COVERS_ALL.search(run.case.output) else [run.case.input] * len(parts),
                           run.case.tools_called)
    # A refusal with its reason that names the request's act ("I can't change the payment
    # account: our policy requires …") answers the details given for that act too (the
    # account's numbers, who the user is): they ask nothing of their own.
    refused = any(_REASONED_REFUSAL.search(s) and word_stems(s) & word_stems(_asked_text(run.case.input))
                  & (_ACTION_VERBS | {stem(w) for w in _CAUSED.findall(run.case.input.lower())}) for s in run.sentences)
    missing = []
    labels = _record_labels(run.case)
    for i, part in enumerate(parts):
        own = _part_stems(part)
        share = len(own & answer) / len(own) if own else 1.0
        best = max(float(vectors[i] @ run.vectors[j + 1]) for j in range(len(run.sentences)))
        # An action asked for ("book the cheapest") is met only by the answer or a
        # successful call naming it: finding the hotel is not booking it.
        # A verb is met by itself or its like (a change made by update_recurring); what is
        # sent to the user (instructions, the list) is delivered by the answer that holds it.
        verbs = [v for v in _part_acts(part) if v not in labels]
        # A verb the answer uses for another part's own act ("move the delivery … and change
        # the address": "I've moved the delivery") tells nothing of this part's.
        others = {v for p in parts if p != part for v in _part_acts(p)} - set(verbs)
        undone = bool(verbs) and (not any(_acts_of({v}) & (told - others | tools[i]) for v in verbs)
                                  and not (_phrasal_act(part) and _phrasal_act(part) == _phrasal_act(run.case.output))
                                  or _address_unused(part, run.case))
        # A short part ("the root cause") embeds too loosely for its cosine to count.
        met = (share >= _PART_STEMS or (len(own) >= _PART_COS_WORDS and best >= _PART_COS)
               or _kind_met(part, run.case.output) and not _amount_of_other(part, parts, run.case.output)
               or _amount_met(part, run.case.output)
               or _outcome_told(part, run.case.output)
               or _act_told(part, verbs, answer, tools[i], run.case))
        if _elided_act_left(part, parts, run.case):
            met, undone = False, True
        if _placed(part, answer, run.case) or _looks_first(part) and _looked_and_told(run.case) \
                or _run_by_object(part, run.case) or _carried_in_act(part, answer, run.case) \
                or _superlative_told(part, run.case) or _new_state_told(part, run.case.output) \
                or verbs and (_dated_act(part, run.case) or _act_in_argument(part, verbs, answer, run.case)):
            met, undone = True, False
        # The same act asked for two ("book Luna for her dental cleaning and, separately,
        # book her brother Milo for his vaccines"): the act told for one ("Luna is booked")
        # does not tell it for the other, whom neither the acting calls nor the answer name.
        elif verbs and not _names(part) & run.answer_names and _done_for_others(part, parts, run):
            met, undone = False, True
        # "can I set it lower than 300?" is answered by "Yes, you can go lower than 300", and
        # "can I extend my rental?" by "I couldn't extend TB-6620: …": a yes or a no that
        # names the part's own words answers it, and the act was the user's to ask about.
        # A refusal with its reason that names the part's own words ("I can't share another
        # employee's salary: compensation records are confidential") answers it too.
        if any((_ASKS_YES_OR_NO.match(part) and _ANSWERS_YES_OR_NO.search(s) or _REASONED_REFUSAL.search(s))
               and word_stems(s) & (own - _ATTRIBUTE_WORDS) for s in run.sentences) \
                or refused and not verbs and "?" not in part or _said_undone(part, run.case):
            met, undone = True, False
        if undone or not met:
            missing.append((part, undone or _value_left(part) or _choice_left(part, run.case)
                            or _item_left(part, parts, run) or _list_item_left(part, run.case.input)
                            or _given_unused(part, run.case) or _read_item_dropped(part, run.case)
                            or _untouched(part, run.case) or _record_left(part, run.case)))
        elif not _COVERS_ALL.search(run.case.output):
            missing += _pair_missed(part, run, bool(verbs))
    return missing


_ELIDED = re.compile(r"^(?:(?:and|also|please)\s+)*(?:on|for|to|in|with)\s+(?:my|our|the|his|her|their)\s+", re.IGNORECASE)


def _elided_act_left(part: str, parts: Sequence[str], case: RunCase) -> bool:
    """A part that borrows the act before it ("Update the address on my V5C … and also on my
    driving licence"), whose own thing neither the answer nor a successful call names: the
    act was done for the first thing only."""
    i = parts.index(part)
    if i == 0 or not _ELIDED.match(part) or not _part_acts(parts[i - 1]):
        return False
    things = _part_stems(_ELIDED.sub("", part)) - _ATTRIBUTE_WORDS
    done = " ".join(c.name + " " + json.dumps(c.args) for c in case.tools_called if not _failed(c))
    return bool(things) and not things & (word_stems(case.output) | word_stems(tool_text(done)))


_NOW = re.compile(r"\bnow\b", re.IGNORECASE)
_UPDATE_ALIKE = _alike(stem("update"))


def _new_state_told(part: str, answer: str) -> bool:
    """Asked to change a thing ("update arrears"), the answer gives its new state in a
    sentence that names the thing and says "now" ("Arrears now stand at €250")."""
    words = re.findall(r"[a-z]+", part.lower())
    if not words or not _alike(stem(words[0])) & _UPDATE_ALIKE:
        return False
    things = _part_stems(" ".join(words[1:])) - _ATTRIBUTE_WORDS
    return bool(things) and any(_NOW.search(s) and things <= word_stems(s) for s in split_claims(answer))


def _said_undone(part: str, case: RunCase) -> bool:
    """An act tried failed, the answer admits it, and it says this part's act was not done
    ("I couldn't create the label … I haven't emailed anything" for "send it to the
    shopper"), or, for a question for a time or an amount, that it cannot give the value
    ("No order exists, so I can't give you a delivery date" for "tell me when it'll
    arrive"): the part is told honestly, not dropped."""
    if not _ADMITS_FAILURE.search(case.output) or not any(_failed(c) and not _reads(c) for c in case.tools_called):
        return False
    verb = _imperative(part, _POLITE)
    if verb is None:
        return _value_left(part) and bool(_WITHHELD.search(case.output))
    acts = _acts_of({verb})
    return any(word_stems(m.group(1)) & acts for m in _NOT_ACT.finditer(case.output))


# "Which flight has the earliest departure?": a question for the one item that is most.
_WHICH_MOST = re.compile(r"^\W*(?:and\s+)?(?:which|what)\b.*?\b(earliest|latest|cheapest|soonest|nearest|closest|"
                         r"shortest|longest|largest|smallest|highest|lowest|fastest|oldest|newest|best|most|least)\b",
                         re.IGNORECASE)


def _superlative_told(part: str, case: RunCase) -> bool:
    """A question for the one item that is most ("which of my flights has the earliest
    departure") is answered by the answer naming an item a call returned with that word
    ("BA117 … is the earliest"), whatever else of the question it repeats."""
    m = _WHICH_MOST.match(part)
    return m is not None and re.search(rf"\b{m.group(1)}\b", case.output, re.IGNORECASE) is not None \
        and _looked_and_told(case)


def _carried_in_act(part: str, answer: frozenset[str] | set[str], case: RunCase) -> bool:
    """A part that asks to add a thing ("add the filter replacement to the same visit") is
    done when a successful call that acted carries the thing among its listed items
    (book_visit's "services": [..., "filter_replacement"]) and the answer names it."""
    words = re.findall(r"[a-z]+", part.lower())
    if not words or stem(words[0]) not in _alike(stem("add")):
        return False
    own = _part_stems(part)
    return any(len(item) >= 2 and item <= own and item <= answer
               for c in case.tools_called if not _failed(c) and not _reads(c)
               for v in c.args.values() if isinstance(v, list)
               for item in (word_stems(str(x).replace("_", " ")) for x in v))


def _act_in_argument(part: str, verbs: Sequence[str], answer: frozenset[str] | set[str], case: RunCase) -> bool:
    """The part's act carried by a successful acting call as an argument of its own, its key
    named by the act's verb and its value naming the part's thing (cancel_reservation's
    "refund_to": "original_card" for "refund to my card"), the answer naming the thing: the
    call did the act with its own, whatever words the answer tells it in."""
    acts = _acts_of(set(verbs))
    things = _part_stems(part) - acts - _ATTRIBUTE_WORDS
    return bool(acts) and any(
        acts & word_stems(key.replace("_", " ")) and (told := things & word_stems(str(value).replace("_", " ")))
        and told & answer
        for c in case.tools_called if not _failed(c) and not _reads(c) for key, value in c.args.items()
        if value not in (None, False, ""))


def _dated_act(part: str, case: RunCase) -> bool:
    """A part that asks an act on a day, at a time ("add an extra one on Saturday the 16th
    at 2pm"), done by a successful call that acted with that day and that time among its
    arguments (book_visit's "2024-11-16", "14:00"), whatever verb names it: the act asked
    for, in the booking system's words."""
    days = {d for _, readings in dates(part) for _, _, d in readings if d is not None} | {
        int(m.group(1)) for m in _DAY_OF_MONTH.finditer(part)}
    minutes = {m for _, m in clock_times(part)}
    if not days or not minutes:
        return False
    for c in case.tools_called:
        if _failed(c) or _reads(c) or _hands_off(c):
            continue
        args = " ".join(str(v) for v in c.args.values())
        if {d for _, readings in dates(args) for _, _, d in readings} & days \
                and {m for _, m in clock_times(args)} & minutes:
            return True
    return False


# Verbs that name no act of their own ("run sanctions screening", "perform the audit"):
# the act is their object's.
_RUN_VERBS = frozenset(stem(w) for w in ("run", "perform", "conduct", "do"))


def _run_by_object(part: str, case: RunCase) -> bool:
    """A part that asks to run its object ("Run sanctions screening for APP-4021") is done
    by a successful call named by that object (sanctions_screen), whatever verb opens the
    call's name: the call is the screening run."""
    words = re.findall(r"[a-z]+", _OWN_CODE.sub(" ", part).lower())
    if not words or stem(words[0]) not in _RUN_VERBS:
        return False
    own = _part_stems(part) - _RUN_VERBS
    # A call that opens on the run verb itself (run_tests) is judged as the verb's act.
    return any(not _failed(c) and not _reads(c) and _call_verb(c.name) not in _RUN_VERBS
               and (_name_stems(c) - _RUN_VERBS) & own for c in case.tools_called)


# A part that only says where the result goes ("put it in a new tab", "save them to the
# shared drive"): its verb may be any, the place is what it asks.
_PLACING = re.compile(r"^(?:\w+\s+){0,2}?(?:it|them|this|that|these|those)\s+(?:in|into|on|onto|to|under)\s+"
                      r"(?:(?:a|an|the|my|our|its|their)\s+)?(?:(?:new|separate|own|shared)\s+)?([a-z]{3,})\b", re.IGNORECASE)


def _placed(part: str, answer: frozenset[str] | set[str], case: RunCase) -> bool:
    """A part that says where the result goes is met when the answer names the place and a
    successful call that changed something was given it (``dest_tab``, ``folder``): the
    act asked put it there, whatever verb the part used."""
    m = _PLACING.match(part)
    place = stem(m.group(1).lower()) if m else ""
    return bool(place) and place in answer and any(
        place in {stem(w) for w in re.split(r"[_\W]+", json.dumps(c.args).lower())}
        for c in case.tools_called if not _failed(c) and not _reads(c))


# A record named by its act's noun and its code ("Booking RB-20931 has been cancelled",
# "Reservation 55810"): the noun names the record, it tells no act done.
_RECORD_NAME = re.compile(r"\b[A-Za-z]+(?:ing|ion|ment)\s+(?:#\s*)?(?=[\w-]*\d)[\w-]{3,}")


# An act asked through "get" or "have" ("can you get my bag delivered today", "have the
# invoice reissued"): the participle is the act.
_CAUSED = re.compile(r"\b(?:get|have)\s+(?:[a-z]+\s+){1,3}?([a-z]+ed)\b")


def _record_labels(case: RunCase) -> set[str]:
    """The stems of words that name a record before its code ("File KULMH20931", "order
    GP-77310") where a call passed that code under a key holding the word (``file_ref``,
    ``order_id``): a noun naming the record, not an act asked ("Cancel PO-77812" is passed
    as ``po``)."""
    out = set()
    for m in re.finditer(r"\b([A-Za-z]+)\s+#?\s*" + _OWN_CODE.pattern, case.input):
        word, code = m.group(1).lower(), m.group(0)[len(m.group(1)):].strip(" #")
        if any(word in k.lower() and str(v) == code for c in case.tools_called for k, v in c.args.items()):
            out.add(stem(word))
    return out


def _act_told(part: str, verbs: Sequence[str], answer: frozenset[str] | set[str], called: set[str],
              case: RunCase) -> bool:
    """The part's act done by a call and told in the answer: in its own verb ("Cancelled 3
    March." after cancel_appointment, "Logged as SV-118" after log_job), or by a time or an
    id the acting call set or returned ("New check: 12 March, 16:20" after book_appointment
    at 16:20). The part is met however tersely its details are told. The act's verb is a
    listed one or one told by its shape; "cancelled" and "logged" stem with their doubled
    last letter."""
    acts = _acts_of(set(verbs) or {v for v in [_verb_by_shape(part)] if v}) & called
    said = set(answer) | {w[:-1] for w in answer if len(w) > 3 and w[-1] == w[-2] and w.isalpha()}
    if not acts or acts & said:
        return bool(acts)
    told = (set(_TIME_OR_ID.findall(case.output)) | _spoken_clock(case.output)) \
        - set(_TIME_OR_ID.findall(case.input)) - _spoken_clock(case.input)
    return any(t in f"{json.dumps(c.args)} {c.output}" for c in case.tools_called
               if not _failed(c) and _call_verb(c.name) in acts for t in told)


_TIME_OR_ID = re.compile(r"\b\d{1,2}:\d{2}\b|\b(?=[\w-]*\d)(?=[\w-]*[A-Z])[\w-]{3,}\b")
# A clock time as a voice agent says it ("nine-twenty", "five thirty", "six oh five"): an
# hour word and its minutes in words, not a count of something ("two thirty-minute slots").
_ONES = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
_TEENS = ["ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS = ["twenty", "thirty", "forty", "fifty"]
_SPOKEN_CLOCK = re.compile(
    rf"\b(?P<h>{'|'.join(_ONES + _TEENS[:3])})[\s-]+(?:oh[\s-]+(?P<oh>{'|'.join(_ONES)})|(?P<teen>{'|'.join(_TEENS)})"
    rf"|(?P<tens>{'|'.join(_TENS)})(?:[\s-]+(?P<unit>{'|'.join(_ONES)}))?)\b(?![\s-]*(?:minutes?|mins?|hours?|hrs?|"
    r"days?|weeks?|months?|years?|percent|per|pounds?|dollars?|euros?|people|items?|times)\b)", re.IGNORECASE)


@lru_cache(maxsize=1024)  # read again for every part of the request
def _spoken_clock(text: str) -> frozenset[str]:
    """The clock times the text says in words, written as a clock shows them ("9:20",
    "21:20")."""
    out: set[str] = set()
    for m in _SPOKEN_CLOCK.finditer(text):
        hour = int(_WORD_NUMBERS[m.group("h").lower()])
        # The minutes' words add up as the number words they are: "forty" "five" is 45.
        minute = int(sum(_WORD_NUMBERS[w.lower()] for w in m.group("oh", "teen", "tens", "unit") if w))
        # Said without its half of the day: "two-forty" is 14:40 as well as 2:40.
        out |= {f"{hour}:{minute:02d}", f"{hour % 12 + 12}:{minute:02d}"}
    return frozenset(out)


_ASKS_IF_DONE = re.compile(r"^(?:and |then )?(?:tell me|let me know|confirm)\s+(?:if|whether)\b", re.IGNORECASE)


def _outcome_told(part: str, answer: str) -> bool:
    """ "tell me if it worked" is met by the outcome said, in any words ("The second attempt
    succeeded", "it failed again")."""
    return bool(_ASKS_IF_DONE.match(part)) and bool(_CLAIMS_SUCCESS.search(answer) or _ADMITS_FAILURE.search(answer)
                                                    or re.search(r"\bsucceed\w*|\bworked\b", answer, re.IGNORECASE))


def _done_for_others(part: str, parts: Sequence[str], run: _Run) -> bool:
    """The part names who or what the request's act is for, and the run's acting calls name
    another part's names and never this part's: the act was done for the others."""
    own = _names(part)
    if not own or own & run.acted_on:
        return False
    others = set().union(*(_names(p) for p in parts if p != part)) - own
    return bool(others & run.acted_on)


def _item_left(part: str, parts: Sequence[str], run: _Run) -> bool:
    """A part that asks no act of its own but names who or what the request's act is for
    ("three rooms: one for me (Sanne de Wit), one for Pieter Bakker …"), done for the
    others, not for it."""
    return not _part_acts(part) and _done_for_others(part, parts, run)


# What a part gives for its act to use: a code ("the TETHANG50 voucher", "ref KX-220") or an
# email address, written or spoken ("k dot ahmed at mailbox dot com").
_ADDRESS = r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"
_GIVEN_CODE = re.compile(rf"\b(?=[\w-]*\d)(?=[\w-]*[A-Z])[\w-]{{4,}}\b|{_ADDRESS}")
_SPOKEN_EMAIL = re.compile(r"\b([a-z0-9]+(?:\s+(?:dot|underscore)\s+[a-z0-9]+)*)\s+at\s+([a-z0-9-]+(?:\s+dot\s+[a-z]+)+)\b",
                           re.IGNORECASE)


def _bare(text: str) -> str:
    """The text's letters and digits alone, lower-cased: a code as any punctuation writes it."""
    return re.sub(r"[\W_]+", "", text).lower()


def _given_values(text: str) -> set[str]:
    """The codes and email addresses the text holds, by their letters and digits alone."""
    written = _SPOKEN_EMAIL.sub(lambda m: f"{m.group(1)}@{m.group(2)}".replace(" dot ", ".")
                                .replace(" underscore ", "_"), text)
    return {_bare(v) for v in _GIVEN_CODE.findall(written)}


def _given_unused(part: str, case: RunCase) -> bool:
    """An unmet part gives a value for its act to use (the voucher's code, the new email
    address) that no call carried or returned and the answer never says: the act that
    needed it was not done, a detail was not just left out."""
    given = _given_values(part)
    if not given:
        return False
    seen = _bare(" ".join(f"{json.dumps(c.args)} {c.output}" for c in case.tools_called))
    return not any(v in seen for v in given) and not given & _given_values(case.output)


def _address_unused(part: str, case: RunCase) -> bool:
    """A part that gives an email address for its act ("email the confirmation to my wife
    too, her email is …") that no call carried or returned and the answer never says: the
    act was not done for that address, whatever the answer tells of a confirmation sent."""
    return bool(re.search(_ADDRESS, part) or _SPOKEN_EMAIL.search(part)) and _given_unused(part, case)


def _read_item_dropped(part: str, case: RunCase) -> bool:
    """An unmet part that only names an item of the request's list ("districts V, XI and
    XIII"), and a call returned a row for it by that name: the answer left out what the run
    had read."""
    if len(part.split()) > 3 or _part_acts(part) or not re.search(r"[A-Z0-9]", part):
        return False
    named = re.compile(rf"(?<![\w-]){re.escape(part.strip())}(?![\w-])")
    return any(named.search(c.output) for c in case.tools_called if not _failed(c))


# A record's field that says its thing was not done: "refund_status": "not_requested".
_LEFT_FIELD = re.compile(r"\"(\w+)\"\s*:\s*\"not[_ -]\w+\"", re.IGNORECASE)
_STATE_KEYS = frozenset(stem(w) for w in ("status", "state", "result"))


def _record_left(part: str, case: RunCase) -> bool:
    """An unmet part whose own thing a successful call's record says was not done ("request
    the deposit refund" after a cancellation returned "refund_status": "not_requested"): the
    act was left, not a detail."""
    own = _part_stems(part)
    return any({stem(w) for w in m.group(1).lower().split("_")} - _STATE_KEYS & own
               for c in case.tools_called if not _failed(c) for m in _LEFT_FIELD.finditer(c.output))


def _untouched(part: str, case: RunCase) -> bool:
    """An unmet item the user numbered that asks to find something out ("(2) which 5
    categories drove the growth"), which the run's successful calls never touched: none
    carried or returned a word of it, though the run read for the other items. Its work was
    not begun. An item that names an act is weighed by its verb."""
    if part not in _numbered(case.input) or _part_acts(part):
        return False
    done = [c for c in case.tools_called if not _failed(c)]
    own = _part_stems(part) - _ATTRIBUTE_WORDS
    return bool(done) and len(own) >= 2 and not any(own & word_stems(tool_text(f"{json.dumps(c.args)} {c.output}"))
                                                    for c in done)


def _list_item_left(part: str, request: str) -> bool:
    """A part that is an item of the list the request's act is for ("translate the notice
    into German and Turkish"), left out: the act was not done for it, a detail was not
    missed. A list asked about ("what are the hours of Tesco and Lidl?") asks no act, and an
    item with a verb of its own ("1) change my donation to $50 2) move it to the 15th") is an
    act the request's parts weigh by themselves."""
    if part not in _listed(request) or _part_acts(part):
        return False
    sentence = next((s for s in re.split(r"(?<=[.!?])\s+", request) if part in s), request)
    return bool(_part_acts(sentence) or _verb_by_shape(sentence))


def _tools_by_part(parts: Sequence[str], calls: Sequence[ToolCall]) -> list[set[str]]:
    """The words of the names of the successful calls that may have done each part: a call
    did the parts its arguments share a word with (update_billing_contact's "email" is the
    billing email's part, not "switch us to annual billing"); a call whose arguments share
    none with any part may have done any."""
    out: list[set[str]] = [set() for _ in parts]
    stems = [_part_stems(p) for p in parts]
    # A call that opens on a part's own verb did that part, whatever its arguments share:
    # "book the next free one" names its object through the part before it ("ortho check").
    # A verb only alike (update_… for "switch us to annual billing") is not enough here.
    acts = [set(_part_acts(p)) for p in parts]
    for c in calls:
        if _failed(c):
            continue
        args = word_stems(tool_text(json.dumps(c.args)))
        shared = [bool(s & args) for s in stems]
        first = {_call_verb(c.name), _name_verb(c)}
        for i in range(len(parts)):
            if shared[i] or not any(shared) or first & acts[i]:
                out[i] |= {stem(w) for w in re.split(r"[_\W]+", c.name.lower())}
    return out


# A clause after the ask that gives the user's reason ("…, it was a gift and never used!!",
# "…, I'm moving abroad"): a pronoun and a form of "be", asking nothing.
_REASON = re.compile(r"^(?:and |but |because |since |as )?(?:it|this|that|they|he|she|i|we)(?:'s|'m|'re|\s+"
                     r"(?:was|were|is|am|are)|(?<=i) (?:think|believe|feel|suspect|guess))\b(?!.*\b(?:whether|if|how|what|which|why|when|where)\b)", re.IGNORECASE)


def _reasons(request: str) -> list[str]:
    """The request's clauses, after its first, that only give the user's reason."""
    clauses = [c.strip() for c in re.split(r"[,.;:!?\n]+", request)]
    return [c for c in clauses[1:] if _REASON.match(c)]


# "Order confirmation and chat with the seller are attached": a part that says what is so,
# its verb a "be" after its subject, asks nothing, whatever word it opens on. An act's object
# opens on a determiner ("Cancel the order that was placed"), a relative clause's verb is
# not the part's.
_STATEMENT = re.compile(r"^(?!\S+\s+(?:the|my|our|your|a|an|this|that|these|those|it|them|me|us|his|her|their)\b)"
                        r"(?!.*\b(?:please|you|can|could|would|will|that|which|who)\b.*\b(?:is|are|was|were)\b)"
                        r"(?:[\w'-]+\s+){1,8}?(?:is|are|was|were|has been|have been)\s+(?:\w+ly\s+)?\w+(?:ed|en)\b",
                        re.IGNORECASE)


_DETERMINERS = frozenset("a an the my our your his her their this that these those".split())  # noqa: SIM905


def _part_acts(part: str) -> list[str]:
    """The acts a part asks for: an action verb among its first three words ("please
    cancel", "can you book"), or a verb with its particle ("turn off" is disabling). A
    want stated in a chat's opening ("Hi, I need to cancel …") is not read as the act
    asked of this answer: the run may have refused it by policy many turns before."""
    if _STATEMENT.match(part):
        return []
    # A capitalised word after the first is a name ("what's Mark Delaney's salary"); a word
    # after a determiner is a noun ("reship the order", "create a return label").
    words = re.findall(r"[A-Za-z]+", part)[:3]
    verbs = [stem(w.lower()) for i, w in enumerate(words)
             if stem(w.lower()) in _ACTION_VERBS and stem(w.lower()) not in _DELIVERY_VERBS
             and not (i and (w[0].isupper() or words[i - 1].lower() in _DETERMINERS))]
    phrasal = _phrasal_act(" ".join(part.split()[:4]))
    # "set up a standing order" is creating one, not setting (changing) anything: a verb
    # that opens its phrasal act is read as that act.
    if phrasal and verbs and _opens_phrasal(part, verbs[0]):
        return [stem(phrasal), *verbs[1:]]
    opening = _imperative(part, _POLITE)
    acts = verbs + ([stem(phrasal)] if phrasal and not verbs else []) or (
        [opening] if opening and (opening not in _DELIVERY_VERBS or _TO_OTHERS.match(part)
                                  or _OUT_OF_CHAT.search(part)) else [])
    # The grievance told first, the act after a dash or a semicolon ("you charged me 39
    # euros on Oct 1 … — refund that please"): the last clause's act is the part's.
    if not acts and len(clauses := _CLAUSE_BREAK.split(part)) > 1:
        return _part_acts(clauses[-1])
    return acts + _made_act(part) if stem("make") in acts else acts


# "make" with a thing made after it: "make me a pivot", "make a booking".
_MAKES = re.compile(r"\bmake\s+(?:me\s+|us\s+)?(?:a|an|another)\s+(?:new\s+)?([a-z]+)", re.IGNORECASE)


def _made_act(part: str) -> list[str]:
    """The act "make" names when a thing made follows it: the thing's own act when it is one
    ("make a booking" books, "make a payment" pays), else creating ("make me a pivot" is
    done by create_pivot or "Created tab …"). "make sure" and "can't make the date" name
    no act of their own."""
    m = _MAKES.search(part)
    if m is None:
        return []
    thing = stem(m.group(1).lower())
    return [thing if thing in _ACTION_VERBS else stem("create")]


# A delivery to someone else ("email their billing contact a confirmation", "forward it to
# the landlord"): no answer to the user delivers it, only a call.
_TO_OTHERS = re.compile(r"\W*(?:(?:please|pls|also|and|then|now|just)\s+)*(?:send|email|forward|share)\w*\s+"
                        r"(?:(?:it|this|that|them|a copy|the \w+)\s+)?(?:to\s+)?(?!(?:me|us|myself|you)\b)"
                        r"(?:their|his|her|the \w+ (?:team|contact|customer|client|manager|landlord|supplier)s?)\b",
                        re.IGNORECASE)


# Or a message over a channel the chat is not ("by email", to an email address, "email the
# certificate"): only a call delivers it, whoever receives it. Goods sent "to my new
# address" go with the order that ships them.
_OUT_OF_CHAT = re.compile(r"^\W*(?:(?:please|pls|also|and|then|now|just)\s+)*(?:e-?mail\b|(?:send|forward|share)\w*\b"
                          r".*?(?:\bby (?:e-?mail|text|sms)\b|\bto my (?:e-?mail|inbox)\b|[\w.+-]+@[\w-]+\.\w))", re.IGNORECASE)


# Only a polite word before a part's own verb: "Hi, I need to make a change" states a want.
_POLITE = re.compile(r"(?:(?:please|pls|kindly|also|and|then|now|just)\b[,!]?\s*)*", re.IGNORECASE)


def _opens_phrasal(part: str, verb: str) -> bool:
    """The part's phrasal act opens on ``verb`` ("set" of "set up")."""
    lead = " ".join(part.split()[:4])
    return any(m is not None and stem(m.group(0).split()[0].lower()) == verb
               for m in (rx.search(lead) for rx, _ in _PHRASAL))


# A request in sentences or clauses that _parts read as one: "Turn off the flag in
# production and tell me how many users had it on" (an imperative outside its verb list).
_CLAUSE_SPLIT = re.compile(r"(?<=[.!?])\s+|,?\s+(?:and(?:\s+then)?|then)\s+(?=(?:also\s+)?(?:please\s+)?(?:tell|give|show|let|"
                           r"send|confirm|what|how|when|which)\b)", re.IGNORECASE)
# A clause that asks for something to be told or sent, not "can you help me with that";
# or a yes-or-no question of fact ("Also is there any transaction I didn't make?").
_ASKS_BACK = re.compile(r"^(?:(?:also|and|then|please|pls)\s+)*(?:(?:can|could|would) you (?:please )?)?"
                        r"(?:tell|give|show|let me know|send|confirm|what|how|when|where|which)\b|"
                        r"^(?:(?:also|and|then)\s+)*(?:is|are|was|were|did|does|do|has|have)\s+"
                        r"(?:there|it|they|i|my|our|any|this|that)\b", re.IGNORECASE)


def _act_parts(request: str) -> list[str]:
    """The clauses of a request that each ask an act or a question, when one opens on an act
    ("Turn off X and tell me Y"; "I am wanting to extend X. Also please tell me Y")."""
    clauses = [c.strip(" ,.?!") for piece in _CLAUSE_SPLIT.split(request) for c in _joined_acts(piece)
               if c.strip(" ,.?!")]
    acting = [c for c in clauses if _opens_on_act(c) or _imperative(c) or _verb_by_shape(c)]
    # A look the request asks first ("Get quotes from our three printers, then tell me
    # which one to go with") is a step of its own before what is asked back.
    looking = [c for c in clauses if _looks_first(c)]
    asking = [c for c in clauses if c in acting or c in looking or _ASKS_BACK.match(c)]
    return asking if len(asking) >= 2 and (acting or looking) else []


def _looks_first(clause: str) -> bool:
    """The clause opens on a verb of looking with its object ("get quotes from …", "pull the
    readings")."""
    lead = _ACT_LEAD.match(clause)
    m = _VERB_OBJECT.match(clause[lead.end() if lead else 0:])
    return m is not None and stem(m.group(1).lower()) in _READ_VERBS


_JOINS = re.compile(r"(?<=:)\s+|\s+[\u2014\u2013]\s+|,?\s+and\s+(?=\w)|,\s+then\s+(?=\w)", re.IGNORECASE)


def _joined_acts(clause: str) -> list[str]:
    """The clause cut where a colon, a dash or an "and" opens another act on its own object: "Two
    things: renew his prescription and book him in for a check-up" is two acts; "cancel
    the red and blue shirts" or "my phone and charge cable" is one. After a dash or a colon
    a bare act opens the piece ("Need to change my rental — cancel booking RB-20931 and …")."""
    pieces, start = [], 0
    for m in _JOINS.finditer(clause):
        rest = clause[m.end():]
        if _purpose_goes_on(clause[start:m.start()]) and m.group(0).strip() == "and":
            continue
        if _imperative(rest) or _verb_by_shape(rest) or _opens_on_particle(rest) \
                or m.group(0).strip() in ("", "\u2014", "\u2013") and _opens_on_act(rest):
            pieces.append(clause[start:m.start()])
            start = m.end()
    return [*pieces, clause[start:]]


def _purpose_goes_on(piece: str) -> bool:
    """The piece opens on an act and ends on what it is for, an infinitive with its object
    ("Send someone tonight to open it"): an "and" after it joins another verb of that "to"
    ("… and swap the lock back"), the work of whom the act sends, no act of its own."""
    lead = _ACT_LEAD.match(piece)
    rest = piece[lead.end() if lead else 0:]
    to = re.search(r"\bto\s+(?=\w)", rest)
    return _opens_on_act(rest) and to is not None and _imperative(rest[to.end():]) is not None


def _opens_on_particle(clause: str) -> bool:
    """The clause opens on a verb with its particle ("turn on DNSSEC for it", "set up a
    direct debit"): an act of its own, though no object follows the verb itself."""
    lead = _ACT_LEAD.match(clause)
    rest = clause[lead.end() if lead else 0:]
    return any(m is not None and m.start() == 0 for m in (rx.search(rest) for rx, _ in _PHRASAL))


# Words that open a clause on something other than a verb: question words, auxiliaries,
# pronouns, joins and greetings ("Sorry the app…", "Because my card…"); "keep it short"
# says how, and "help me", "tell me" ask for help or words, not an act of their own; "last 5
# home games", "top 10 SKUs" count what is asked of, as an object follows a verb; so does a
# number word ("Two quotes for emptying it: …").
_NOT_VERBS = frozenset("""what which who whose when where why how is are was were be am do does did have has had
    can could would will shall should may might must i you he she it we they this that these those there here
    and or but so if for with from to in on at by of as about after before since until because while per via
    like not also just only all both each every no yes hi hello hey dear sorry thanks thank ok okay please
    today tomorrow yesterday now then my our your the a an keep help tell let explain remind assist show give
    need want know see try last next first past previous recent final other same top""".split())  # noqa: SIM905


def _verb_by_shape(clause: str) -> str | None:
    """The clause opens on a verb outside the lists, told by its shape: a word that is
    none of the closed words above, nor a participle, with an object after it ("Rename
    the function", "Pull all open invoices", "export them"). A request's own words for an
    act are open-ended; its parts are still the clauses it opens with one. A verb of
    looking ("check it and correct it") asks no act of its own. The verb's stem."""
    lead = _ACT_LEAD.match(clause)
    m = _VERB_OBJECT.match(clause[lead.end() if lead else 0:])
    word = m.group(1).lower() if m else ""
    return stem(word) if len(word) >= 3 and word not in _NOT_VERBS and word not in _WORD_NUMBERS \
        and stem(word) not in _READ_VERBS \
        and not re.search(r"(?:ing|ed|ly|(?<!s)s)$", word) else None


# Two things of one act, each with its determiner: "extend the sofa and the desk".
_PAIR = re.compile(r"\b(?:the|my|our|your|his|her|their) ([a-z]{3,}) and (?:the|my|our|your|his|her|their) "
                   r"([a-z]{3,})\b", re.IGNORECASE)


def _pair_missed(part: str, run: _Run, act: bool) -> list[tuple[str, bool]]:
    """Of two things a met part names together, the one the answer never names (nor, for an
    act, a successful call's arguments) when it names the other."""
    answer = word_stems(run.case.output)
    called = word_stems(" ".join(json.dumps(c.args) for c in run.case.tools_called if not _failed(c)))
    out = []
    for m in _PAIR.finditer(part):
        a, b = stem(m.group(1)), stem(m.group(2))
        for said, left in ((a, b), (b, a)):
            if said in answer and left not in answer:
                out.append((m.group(2) if left == b else m.group(1), act and left not in called))
    return out + _second_thing_missed(part, run, answer, called)


# Two things asked of one verb, each with its own details ("can I get a wake-up call at five
# thirty and a taxi to the airport at six fifteen"): the first thing, then the second's noun.
_TWO_THINGS = re.compile(r"\b(?:a|an|the|my|our|your) ([a-z][\w-]{2,})\b(?:\s+[\w'-]+){1,6}?\s+and\s+(?:also\s+)?"
                         r"(?:a|an|the|my|our|your) (?:new |second |another )?([a-z]{3,})\b", re.IGNORECASE)

_FOR_PEOPLE = re.compile(r"\b(?:me|us|him|her|them|myself)\s+and\s+(?:also\s+)?(?:a|an|the|my|our|your)\s+"
                         r"(?:new |second |another )?$", re.IGNORECASE)


def _second_thing_missed(part: str, run: _Run, answer: frozenset[str], called: frozenset[str]) -> list[tuple[str, bool]]:
    """Of two things asked with their own details, the second the answer never names nor
    any call's name or arguments, when the answer names the first: it was dropped, and as
    no call touched it, nothing was done for it."""
    named = called | {stem(w) for c in run.case.tools_called if not _failed(c) for w in re.split(r"[_\W]+", c.name.lower())}
    for m in _TWO_THINGS.finditer(part):
        first, second = word_stems(m.group(1)), stem(m.group(2))
        # "a tour … for me and my sister": the people it is for, not a second thing.
        if _FOR_PEOPLE.search(part[:m.start(2)]):
            continue
        if first and first <= answer and second not in answer | named and second not in first:
            return [(part[m.start(2):], True)]
    return []


# A list the request's parts missed: items after a colon ("I need: how many were scrapped,
# the reason breakdown, and the cost") or names joined by "and" ("into French and German").
# A clock's or an address's colon ("14:00", "https://") opens no list.
_COLON_LIST = re.compile(r"(?<!\d):(?!\d|//)(?!\s*['\"\u2018\u201c\u00ab])\s*([^:;?]+?)[.?!]?$")
# Said of the items together ("both", "all three", "each of them"); "each with the labour
# itemised" or "all set" says nothing of how many were done.
_COVERS_ALL = re.compile(r"\b(?:both|neither|either)\b|\ball(?= (?:of|the|these|those|your|our|my|"
                         r"\d+|two|three|four|five|six|seven|eight|nine|ten)\b|\s*[.!,;]|\s*$)|"
                         r"\beach (?:of|one)\b|\b(?:them|these|those) all\b|\bevery one\b",
                         re.IGNORECASE)
_NAMED_PAIR = re.compile(r"(?<=[a-z] )([A-Z][a-z]{2,}) and ([A-Z][a-z]{2,})\b")


# Items numbered inline ("reports: 1) the tap drips, 2) the alarm chirps, 3) …"), counted
# from 1 in order; the last ends with its sentence.
_NUMBERED = re.compile(r"(?:^|(?<=[\s:]))\(?([1-9])[.)]\s+")


def _numbered(request: str) -> list[str]:
    marks = list(_NUMBERED.finditer(request))
    if len(marks) < 2 or [int(m.group(1)) for m in marks] != list(range(1, len(marks) + 1)):
        return []
    ends = [m.start() for m in marks[1:]] + [len(request)]
    items = [request[m.end():end] for m, end in zip(marks, ends)]
    items[-1] = re.split(r"[.?!;](?:\s|$)", items[-1])[0]
    return [i.strip(" ,;") for i in items if i.strip(" ,;")]


def _listed(request: str) -> list[str]:
    numbered = _numbered(request)
    if len(numbered) >= 2:
        return numbered
    m = _COLON_LIST.search(request)
    if m:
        items = [i for i in re.split(r",\s+(?:and\s+)?|\s+and\s+", m.group(1)) if i.strip()]
        if len(items) >= 2 and all(len(i.split()) <= 8 for i in items):
            return items
    pair = _NAMED_PAIR.search(request)
    return list(pair.groups()) if pair else []


_ASKS_WHEN = re.compile(r"\b(?:when|what time|hours|opening|how long|deadline|what date|"
                        r"which day|due)\b", re.IGNORECASE)
_ASKS_AMOUNT = re.compile(r"\b(?:how much|price|cost|fee|charge|rate|balance|total|pay)\b",
                          re.IGNORECASE)


def _kind_met(part: str, answer: str) -> bool:
    """A question for a time or an amount is met by an answer that states one (hours by
    "10:00-18:00", a fee by "€12"), whatever words it uses. A part that opens on an act
    ("put a cap on data spending so I don't get a huge bill when it runs out") asks the
    act: its "when" is the act's own clause, and a time told does not meet it; an amount
    told may be the act's ("use my balance for the extra charges": $40 charged to it)."""
    if _ASKS_WHEN.search(part) and not (_part_acts(part) or _verb_by_shape(part)) and (
        clock_times(answer) or dates(answer)
        or any(q.unit in _DURATION_UNITS for q in quantities(answer))
    ):
        return True
    return bool(_ASKS_AMOUNT.search(part)) and any(
        q.unit in _MONEY_UNITS for q in quantities(answer)
    )


def _amount_of_other(part: str, parts: Sequence[str], answer: str) -> bool:
    """Asked for several things, amounts the answer states only in clauses that take up
    another part's words and none of this one's ("Your outstanding balance is €187,342" for
    "what's my balance", "how much would it save me", "any fee?") answer that part only."""
    if not _ASKS_AMOUNT.search(part) or _ASKS_WHEN.search(part):
        return False
    own = _thing_words(part)
    others = [_thing_words(p) - own for p in parts if p != part]
    priced = _priced_clauses(answer)
    return bool(priced) and all(not w & own and any(w & o for o in others) for w in priced)


def _thing_words(text: str) -> frozenset[str]:
    """The stems of what a text names, less request and attribute words ("late-withdrawal")."""
    return _part_stems(text.replace("-", " ")) - _ATTRIBUTE_WORDS


@lru_cache(maxsize=1024)  # read again for every part of the request
def _priced_clauses(answer: str) -> tuple[frozenset[str], ...]:
    """The words of each clause of the answer that states an amount of money: the clause
    that holds it ("…, and a late withdrawal costs $75") is what the amount answers."""
    return tuple(_thing_words(c) for s in split_claims(answer) for c in _CLAUSE_CUT.split(s)
                 if any(q.unit in _MONEY_UNITS for q in quantities(c)))


_HOW_MUCH = re.compile(r"\bhow (?:much|many)\b", re.IGNORECASE)


def _amount_met(part: str, answer: str) -> bool:
    """"How much data do I have left" is met by "3.4 GB left of your 20 GB": a question for
    an amount of something, and a sentence that states a measured amount (a number with its
    unit) and shares a word of the question's own."""
    if not _HOW_MUCH.search(part) or _part_acts(part):
        return False
    own = _part_stems(part) - _ATTRIBUTE_WORDS
    return any(any(q.unit and q.unit not in _MONEY_UNITS for q in quantities(s)) and word_stems(s) & own
               for s in split_claims(answer))


_CLAUSE_BREAK = re.compile(r"\s[\u2014\u2013-]\s|;\s")


def _asks_for_given(case: RunCase) -> bool:
    """The answer asks for something (a number, a name) the request already holds."""
    if not _ASKING.search(case.output):
        return False
    given = key_terms(case.input) | {q.text for q in quantities(case.input)}
    if not given:
        return False
    # What a question asks is its last clause: "Your appointment tomorrow stays until you
    # pick one — which would you like?" asks for a pick, not for the day it mentions.
    questions = [_CLAUSE_BREAK.split(s)[-1] for s in split_claims(case.output) if s.rstrip().endswith("?")]
    asked = word_stems(" ".join(questions)) if questions else frozenset()
    # The noun the request puts right before its number or name ("policy AP-55801",
    # "my number 555-0133") is what the answer asks for again.
    labels = {
        stem(m.group(1))
        for m in re.finditer(r"([A-Za-z]{3,})\s*[:#]?\s*[A-Z0-9][\w-]*\d", case.input)
    } | {stem(w) for t in key_terms(case.input) for w in t.split()}
    # "My number is 07700 900123", "our postcode is SW1A 1AA": the noun before "is".
    labels |= {stem(m.group(1)) for m in re.finditer(
        r"\b(?:my|our)\s+(?:[a-z]+\s+)?([a-z]{3,})\s+(?:is|was)\s+[A-Z0-9+(]", case.input)}
    # A day or a time the request gave ("on Tuesday at 2pm"), asked for again.
    if (clock_times(case.input) or dates(case.input) or _WEEKDAY.search(case.input)) \
            and _ASKS_WHEN_AGAIN.search(" ".join(questions)):
        return True
    return bool(labels & asked)


_WHICH = re.compile(r"\bwhich ([a-z]{3,})\b", re.IGNORECASE)
# A code of the request's own: five digits or more, or letters and three digits or more.
_OWN_CODE = re.compile(r"\b(?:\d{5,}|[A-Za-z]+-?\d{3,}[\w-]*|\d{3,}-\d+)\b")


def _asks_which_given(case: RunCase) -> bool:
    """The answer asks "which book?" of a thing the request names with its own code ("the
    book with barcode 31190055123"), offering no choice found by a call: the request gave it.
    The thing is among the four words before the code ("which date?" of "move APT-5512 to a
    later date" asks what the request lacks)."""
    named = {stem(w) for m in _OWN_CODE.finditer(case.input)
             for w in re.findall(r"[A-Za-z]+", case.input[:m.start()])[-4:]}
    if not named or _read_records(case.tools_called):
        return False
    asked = [m.group(1) for s in split_claims(case.output) if s.rstrip().endswith("?") and " or " not in s
             for m in _WHICH.finditer(s)]
    return any(stem(w) in named for w in asked)


_WEEKDAY = re.compile(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\btomorrow\b", re.IGNORECASE)
_ASKS_WHEN_AGAIN = re.compile(r"\b(?:what|which) (?:day|date|time)|\bwhen would\b", re.IGNORECASE)

_ANSWERS_YES_OR_NO = re.compile(r"\b(?:yes|yeah|yep|no|not|nope|\w+n't|cannot|unfortunately|afraid|of course|"
                    r"absolutely|definitely|certainly|sure|only (?:if|when|after|before)|as long as|"
                    r"unless|provided|eligible|allowed|permitted|fine|okay|ok|"
                    # A degree answers "does it hurt much?" as well: "moderate", "a little".
                    r"mild(?:ly)?|moderate(?:ly)?|slight(?:ly)?|a (?:little|bit)|barely|hardly|"
                    r"rarely|seldom)\b", re.IGNORECASE)

# "I'll be here whenever you're ready", "I'll do my best to assist you": help offered for
# whatever the user asks next, no work promised. So is a look offered on the user's wish
# ("I can check whether it qualifies for cancellation if you want").
_OFFERS_HELP = re.compile(r"\b(?:i|we)(?:'ll|\u2019ll| will) (?:be (?:here|around|available)\b|"
                          r"(?:be (?:happy|glad)|do (?:my|our) best) to (?:help|assist)\b)|"
                          r"\b(?:i|we) (?:can|could) (?:look|check)\b(?=[^.?!]*\bif you(?:'d| would)? "
                          r"(?:like|want|wish|prefer)\b)|\bif you(?:'d| would)? (?:like|want|wish|prefer)\b"
                          r"[^.?!]{0,30}?,\s*(?:i|we) (?:can|could) (?:look|check)\b", re.IGNORECASE)

_IF_YOU = re.compile(r"\bif you(?:'d| would)?\b", re.IGNORECASE)
# "If the November report is the one you need, tell me and I'll attach it": the work
# waits on the user's word, as a question's does.
_ON_USERS_WORD = re.compile(r"\b(?:tell me|let me know|confirm|say (?:so|which))\b[^.?!]{0,60}?\b(?:and|then) "
                            r"i(?:'ll|\u2019ll| will)\b", re.IGNORECASE)
_PLACEHOLDER = re.compile(r"\[(?:[A-Za-z][\w ]{0,30})\]|\{\{?\s*\w+\s*\}?\}|<[A-Z][A-Z_ ]{2,}>|\bTBD\b|\bXXX+\b")
# The line under a closing ("Many thanks,\n[Your name]") is where the user signs a text
# written for them to send: theirs to fill, not a fact the run left out.
_SIGNATURE = re.compile(r"^[^\n\[\]]{1,40},[ \t]*\n[ \t]*\[[^\]\n]{1,30}\][ \t]*$", re.MULTILINE)


# "Just fill in your name and mailing address before sending": the blanks the answer hands
# the user, of what only they know.
_FILL_IN = re.compile(r"\b(?:fill(?:ing)? (?:in|out)|insert|enter|replace|put in|add your|complete)\b[^.!?\n]*",
                      re.IGNORECASE)


def _blanks_left(text: str) -> bool:
    """A placeholder the answer leaves that it does not tell the user to fill in."""
    told = set().union(*(word_stems(m.group(0)) for m in _FILL_IN.finditer(text)))
    return any(not (blank and blank <= told) for blank in (word_stems(m.group(0)) for m in _PLACEHOLDER.finditer(text)))


# "I've started the rename", "we've begun on the first files": the work begun, not done.
_BEGUN = re.compile(r"\b(?:i|we)(?:'ve| have) (?:only |just )?(?:started|begun|made a start)\b|"
                    # "I'm still looking into this", "we're currently going through the files".
                    r"\b(?:i'm|i am|we're|we are) (?:still|currently) (?:looking|checking|working|going|digging|"
                    r"reviewing|investigating|searching|gathering)\b|"
                    r"\b(?:part|half)-?way (?:through|done)\b|"
                    r"\b(?:the )?(?:others|rest|remaining \w+) (?:still )?(?:need|needs|remain|are left)\b",
                    re.IGNORECASE)
# "I've started it, and Elham now needs to accept it", "it needs your signature before it can
# be filed": what is left is another's turn, said with a verb or with the thing they owe.
_OTHERS_TURN = re.compile(r"\b(?:needs|has) to\b|\b(?:needs|requires|awaits|waits (?:on|for)|is waiting (?:on|for)|"
                          r"is pending) (?:your|his|her|their|\w+'s)\b|\bwaiting (?:on|for) (?:you|him|her|them)\b",
                          re.IGNORECASE)
# A hold a sentence ends on ("…, one moment please"): the work still under way, unless a call
# that acts followed it (a chat's last message may be the hold before the calls that did it).
_HOLD = re.compile(r"\b(?:(?:one|just a|a) (?:moment|sec(?:ond)?|minute),? please|please hold|hang (?:on|tight)|"
                   r"bear with me)\W*$", re.IGNORECASE)
_NOT_BEFORE = re.compile(r"(?:\bnot|\bnever|n't)\W+(?:\w+\W+)?$", re.IGNORECASE)  # "haven't changed"
_DONE_MARK = re.compile("[\u2705\u2714\u2713]")  # ✅ ✔ ✓


_YOU = re.compile(r"\byou(?:r|rs|rself)?\b", re.IGNORECASE)
_I_OR_WE = re.compile(r"\b(?:i|we|me|us|my|our)\b", re.IGNORECASE)


def _to_user(sentence: str) -> bool:
    """The sentence speaks of the user's doing, not the agent's: "you", never "I" or "we"."""
    return bool(_YOU.search(sentence)) and not _I_OR_WE.search(sentence)


def _states_done(sentence: str, failures: Sequence[ToolCall]) -> bool:
    """The sentence states a failed call's own act as done: "Pickup scheduled ✅" after
    ``schedule_pickup`` failed ("scheduled" of its verb, or "sent" of ``send_``, not
    negated), or a done mark."""
    if _DONE_MARK.search(sentence):
        return True
    acts = {stem(w) for c in failures for w in re.split(r"[_\W]+", c.name.lower())
            if stem(w) in _ACTION_VERBS}
    return any(stem(_IRREGULAR.get(m.group(0).lower(), m.group(0))) in acts
               and not _NOT_BEFORE.search(sentence[:m.start()])
               for m in re.finditer(r"[A-Za-z]+(?:ed|en|ent)\b", sentence))


# "is cancelled", "I've updated": a success claim only when the participle names an act
# ("are priced at $822", "I have exhausted the tools" describe, they claim nothing done).
_PARTICIPLE_CLAIM = re.compile(r"(?:i(?:'ve| have)|is|are|was|were) (\w+ed)", re.IGNORECASE)


def _claims_success(sentence: str, failures: Sequence[ToolCall]) -> bool:
    """The sentence claims work done: a phrase of success, its participle (if any) one too
    ("processed") or an act's verb, of the acts in general or of a failed call's name."""
    acts = _ACTION_VERBS.union(*_ALIKE, *(_name_stems(c) for c in failures))
    for m in _CLAIMS_SUCCESS.finditer(sentence):
        done = _PARTICIPLE_CLAIM.fullmatch(m.group(0))
        word = done.group(1).lower() if done else ""
        if not done or _CLAIMS_SUCCESS.fullmatch(word) or {stem(word), stem(word[:-2]), stem(word[:-3])} & acts:
            return True
    return False


def _value_left(part: str) -> bool:
    """A question for a time or an amount ("how much does it cost", "when is it due"): left
    unanswered, the thing asked for is not given at all."""
    return bool(_ASKS_WHEN.search(part) or _ASKS_AMOUNT.search(part)) and not _part_acts(part)


# A question that asks the run to pick ("which one to go with", "which of them should we
# use", "what would you recommend").
_ASKS_CHOICE = re.compile(r"\bwhich (?:one|of (?:them|these|those|the)\b)|\b(?:recommend|suggest)\b|"
                          r"\bshould (?:i|we) (?:go with|pick|choose|take|use)\b", re.IGNORECASE)
_CHOSEN = re.compile(r"\b(?:recommend|suggest|go with|pick|choose|best|better|only one|winner)\w*", re.IGNORECASE)


def _choice_left(part: str, case: RunCase) -> bool:
    """A part that asks the run to pick, unmet, when the answer neither picks nor asks: what
    was asked for (the choice) is not given at all, only the material for it."""
    return bool(_ASKS_CHOICE.search(part)) and not _CHOSEN.search(case.output) and "?" not in case.output


# "Make sure the client is up to date", "ensure product safety is maintained": a state the
# user is told to bring about, not one the answer says it reached.
_USERS_CHECK = re.compile(r"\b(?:make|makes|making) sure\b[^.;!?]*|\bensur(?:e|es|ing)\b[^.;!?]*|"
                          r"\b(?:check|verify|confirm)(?:ing)? (?:that|whether|if)\b[^.;!?]*", re.IGNORECASE)


def _new_names(names: frozenset[str], request: str) -> frozenset[str]:
    """The names not of the request: a name the request holds as a word, where key_terms did
    not read it as one (``GlobalProtect gives …`` opens the sentence), is the request's."""
    words = set(re.findall(r"[\w-]+", request.lower()))
    return frozenset(n for n in names - key_terms(request) if n not in words)


def _unspecific(run: _Run) -> bool:
    """A reply that may repeat the request's words but gives nothing specific to it: the
    request names a number or a name, the answer states none of its own or of the request's,
    no date or time, asks nothing, claims no work done, and opens or closes on stock words
    ("Bills can vary for a number of reasons … Is there anything else?")."""
    case = run.case
    text = case.output
    given = {q.text for q in quantities(case.input)} | key_terms(case.input)
    # What a generality says done ("any difference will be corrected once a reading is
    # received", "bills are marked estimated when …") claims no work on this request.
    told = " ".join(s for s in run.sentences if not _GENERALISING.search(s))
    if not given or not run.sentences or quantities(text) or _new_names(key_terms(text), case.input) \
            or dates(text) or clock_times(text) or _CLAIMS_SUCCESS.search(_USERS_CHECK.sub(" ", told)):
        return False
    if any(_ASKS_USER.search(s) and not _ANYTHING_ELSE.search(s) or _REASONED_REFUSAL.search(s)
           for s in run.sentences):
        return False
    if any(c.output.strip() and not _failed(c) for c in case.tools_called):
        return False
    lower = text.lower()
    stock = [s for s in run.sentences if _BOILERPLATE.search(s)]
    return bool(stock) and not any(t.lower() in lower for t in given if any(ch.isdigit() for ch in t))


_HANDING = re.compile(r"\b(?:transfer|connect|escalat|hand|pass|put)\w*\s+(?:you|this|it|your)\b", re.IGNORECASE)
_GENERALISING = re.compile(
    r"\b(?:can|could|may|might|will|would|should)\s+(?:\w+\s+)?be\b|\b(?:typically|usually|generally|normally|"
    r"often|sometimes|in (?:some|many|most) cases|for (?:a number of|various|several|many|a few) reasons|"
    r"depends? on|based on)\b", re.IGNORECASE)


# An offer to do something ("Want me to let the attendees know?", "I can also add it to
# your calendar if you'd like", "Let me know if you'd like me to send the reminders"): the
# thing offered is not done.
_OFFER = re.compile(r"^(?:(?:\w+[,!]\s+)?(?:do you )?(?:want|would you like|shall|should|may) (?:me|i)\b"
                    r"|let me know if you(?:'d| would)? (?:like|want) me to\b"
                    r"|(?=.*\bif you(?:'d| would)? (?:like|want|wish|prefer)\b)(?:if you[\w' ]*,\s*)?i (?:can|could) )",
                    re.IGNORECASE)


_CHOICE_ASKED = re.compile(r"\bor\b(?!\s+(?:not|anything|something|so)\b)[^?]*\?\s*$", re.IGNORECASE)


def _offered_parts(run: _Run) -> list[tuple[str, bool]]:
    """The parts of the request that only an offer of the answer takes up: asked to move the
    meeting and tell the attendees, an answer that moves it and asks "Want me to let the
    attendees know?" left the second part undone. An offer of an extra nobody asked for
    takes up no part."""
    # "Should I archive in your personal inbox only, or in the shared box too?" asks the user
    # to choose how the act is done before doing it: a clarifying question, not an offer.
    kept = [s for s in run.sentences if not _OFFER.search(s) or _CHOICE_ASKED.search(s)]
    # Offered after a refusal or a failure, it is an alternative, not the work asked.
    if len(kept) == len(run.sentences) or not kept or _ADMITS_FAILURE.search(run.case.output):
        return []
    before = {part for part, _ in _missing_parts(run)}
    without = _missing_parts(_Run.of(replace(run.case, output=" ".join(kept)), run.embed))
    offered = [(part, True) for part, _ in without if part not in before]
    # A part the request's parts did not split ("book it and put it in my calendar"): the
    # offer alone takes up words of the request ("calendar") that no other sentence says.
    # Not words of a look asked ("check if any orders shipped"): an offer to look at more of
    # such things ("I can also check orders not yet shipped") goes past the look, done.
    only = _part_stems(_CHECKED.sub(" ", run.case.input)) - word_stems(" ".join(kept))
    words = sorted(w for s in run.sentences if _OFFER.search(s) for w in word_stems(s) & only if len(w) >= 4)
    parts = [p for p in _parts(run.case.input) if words and words[0] in word_stems(p)]
    return offered or [(p, True) for p in parts[:1]]


_ALL_OF = re.compile(r"[a-z]+\s+(?:(?:me|us)\s+)?(?:all|every|each)\b", re.IGNORECASE)
_ID_KEY = re.compile(r"(?:^|_)id$|^(?:code|number|key|ref|reference)$", re.IGNORECASE)
_ISO_DAY = re.compile(r"\b\d{4}-\d{2}-(\d{2})(?!\d)")
_ACT_CLAUSES = re.compile(r"[.;!?,]+\s*")
# Attributes asked of what the run picks, and the field of a record that says it has none
# ("nonstop", "direct": no stops, changes or connections).
_NONE_OF = {"nonstop": "stops changes connections layovers transfers", "non-stop": "stops changes connections "
            "layovers transfers", "direct": "stops changes connections layovers transfers"}


def _picked(case: RunCase) -> list[tuple[dict[str, Any], list[dict[str, Any]], str]]:
    """Each record of a list the run read that a later successful acting call names by one
    of its values, with the list and that value."""
    calls = case.tools_called
    read = [_call_records(c) for c in calls]  # each output parsed once
    # A value names a record only where no other record the run read holds it: "SEA", the
    # destination of every flight searched, names none of them.
    holders: dict[str, set[str]] = {}
    for r in (r for lists in read for rows in lists for r in rows):
        for v in set(_scalars(r)):
            holders.setdefault(v, set()).add(json.dumps(r, sort_keys=True, default=str))
    out = []
    for i, call in enumerate(calls):
        if _failed(call) or _reads(call):
            continue
        values = {str(v).lower() for v in call.args.values() if isinstance(v, (str, int))
                  and not isinstance(v, bool) and len(str(v)) >= 3}
        values = {v for v in values if len(holders.get(v, ())) <= 1}
        for rows in (r for lists in read[:i] for r in lists):
            hits = [r for r in rows if values & set(_scalars(r))]
            if len(hits) == 1:
                value = next(v for v in _scalars(hits[0]) if v in values)
                out.append((hits[0], rows, value))
    return out


def _act_marks(request: str) -> tuple[set[int], set[str]]:
    """The days of the month and the codes the request's acting clauses name ("cancel the
    one on the 14th; I can still make the 21st": the 14th)."""
    clauses = [c for c in _ACT_CLAUSES.split(request) if c and c.strip()]
    acting = [c for c in clauses if _opens_on_act(c.strip())] or [request]
    text = " ".join(acting)
    days = {int(m.group(1)) for m in _DAY_OF_MONTH.finditer(text)}
    days |= {p[2] for _, readings in dates(text) for p in readings if p[2] is not None}
    return days, {t for t, kind in _idents(text).items() if kind != "name"}


def _other_record(case: RunCase) -> tuple[str, str] | None:
    """The run acted on a record of a list it read whose day or code is not the one the
    request's act names, while another record of that list has it: (asked, acted on)."""
    days, codes = _act_marks(case.input)
    if not days and not codes:
        return None
    for record, rows, value in _picked(case):
        def holds(r: dict[str, Any]) -> set[str]:
            flat = " ".join(_scalars(r))
            return ({f"the {int(d)}" for d in _ISO_DAY.findall(flat) if int(d) in days}
                    | {c for c in codes if c in flat})
        asked = set().union(*(holds(r) for r in rows if r is not record))
        if asked and not holds(record):
            return min(asked), value
    return None


def _all_verbs(request: str) -> set[str]:
    """The stems of the verbs that open a clause of the request whose object is all of
    something ("archive all the resolved tickets", "can you send me every invoice"), not "all
    over the place"."""
    verbs = set()
    for clause in _ACT_CLAUSES.split(request):
        lead = _ACT_LEAD.match(clause.strip())
        if m := _ALL_OF.match(clause.strip()[lead.end() if lead else 0:]):
            verbs.add(stem(m.group(0).split()[0].lower()))
    return verbs


def _other_act_than_all(call: ToolCall, verbs: set[str]) -> bool:
    """The call does another act than the one asked of all ("cancel all my pending orders",
    then a return of one item of a delivered order; "share all the choices", then one
    exchange): its items are not the ones the "all" asks for."""
    asked = verbs & _ACTION_VERBS
    head = _call_verb(call.name)
    return bool(asked) and head in _ACTION_VERBS and head not in _acts_of(asked)


def _fewer_than_all(case: RunCase) -> str | None:
    """Asked for all of something, the run read the items and acted on fewer of them (the
    values of one id field of a list it read), naming none it left out (no reason given):
    the first item left out."""
    verbs = _all_verbs(case.input)
    if not verbs:
        return _fewer_by_calls(case)
    calls = case.tools_called
    for i, call in enumerate(calls):
        lists = [v for v in call.args.values() if isinstance(v, list) and v and all(isinstance(x, str) for x in v)]
        if _failed(call) or _reads(call) or not lists or _other_act_than_all(call, verbs):
            continue
        acted = {x.lower() for x in lists[0]}
        for rows in _read_records(calls[:i]):
            for key in {k for r in rows for k in r if _ID_KEY.search(k)}:
                ids = [str(r[key]) for r in rows if isinstance(r.get(key), (str, int))]
                left = [x for x in ids if x.lower() not in acted]
                if acted < {x.lower() for x in ids} and not any(x.lower() in case.output.lower() for x in left):
                    return left[0]
    return _fewer_by_calls(case)


def _fewer_by_calls(case: RunCase) -> str | None:
    """The same, one call an item: asked for all of a stated number ("all 4 of my tickets"),
    the run read a list of that many codes (TK-1 … TK-4), then called one act on some of
    them, each by its code, and names none of the rest. The number ties the list read to
    the things asked; a list of another length may be other things of the user's."""
    counts = {int(n) for n in re.findall(r"\ball (?:the |of the )?(\d{1,2})\b", case.input, re.IGNORECASE)}
    calls = case.tools_called
    for i, read in enumerate(calls):
        if _failed(read) or not _reads(read):
            continue
        for codes in (c for c in _code_lists(read.output) + _id_lists(read) if len(c) in counts):
            for name in dict.fromkeys(c.name for c in calls[i + 1:] if not _failed(c) and not _reads(c)):
                acted = {str(v).lower() for c in calls[i + 1:] if c.name == name and not _failed(c)
                         for v in c.args.values()} & {x.lower() for x in codes}
                left = [x for x in codes if x.lower() not in acted]
                if acted and left and not any(x.lower() in case.output.lower() for x in left):
                    return left[0]
    return None


# Two things of one request joined by "and", each with its determiner: "the Friday dinner
# (R-4410) and the catering order (CT-982)", "the brown brogues and the black Chelsea boots".
_AND_THE = re.compile(r"\s+and\s+(?=(?:the|my|our|your|his|her|their)\s)", re.IGNORECASE)
_DETERMINER = re.compile(r"\b(?:the|my|our|your|his|her|their)\s+", re.IGNORECASE)
_SIDE_END = re.compile(r"[.;!?\n]|,\s|\s+(?:and|but|then|so|because|as)\s", re.IGNORECASE)


def _thing_marks(side: str) -> set[str]:
    """What names one thing of a pair: its codes when it has any, else its own words."""
    codes = {c.lower() for c in _OWN_CODE.findall(side)}
    return codes or {w for w in word_stems(side) if w not in _REQUEST_WORDS and not w.isdigit()}

_FILE_EXTENSION = re.compile(r"(?<=[a-z])\.[a-z0-9]{2,4}\b")


def _one_of_two(case: RunCase) -> str | None:
    """Asked to act on two things ("cancel the dinner (R-4410) and the catering order
    (CT-982)", "resole the brown brogues and the black Chelsea boots"), the run's acting
    calls name one of them and neither a call that acted nor the answer names the other:
    the act was done for one, and the other left without a word ("Both done"). The thing
    left."""
    acted = [c for c in case.tools_called if not _failed(c) and not _reads(c) and not _hands_off(c)]
    if not acted or not (_asks_action(case.input) or any(_imperative(c.strip()) for c in _ACT_CLAUSES.split(case.input))):
        return None
    args = " ".join(tool_text(json.dumps(c.args, ensure_ascii=False)) for c in acted).lower()
    # A file's name names its thing ("statement.pdf").
    arg_stems, answer = word_stems(_FILE_EXTENSION.sub(" ", args)), case.output.lower()
    answer_stems = word_stems(case.output)
    for m in _AND_THE.finditer(case.input):
        before = case.input[:m.start()]
        opens = list(_DETERMINER.finditer(before))
        if not opens:
            continue
        left = before[opens[-1].end():]
        right = case.input[m.end():]
        right = _DETERMINER.sub("", right[:(e.start() if (e := _SIDE_END.search(right)) else len(right))], count=1)
        a, b = _thing_marks(left), _thing_marks(right)
        a, b = a - b, b - a
        if not a or not b:
            continue

        def named(marks: set[str], stems: frozenset[str], text: str) -> bool:
            return any(m in text if not m.isalpha() else m in stems for m in marks)
        for done, undone, text in ((a, b, right), (b, a, left)):
            if named(done, arg_stems, args) and not named(undone, arg_stems, args) \
                    and not named(undone, answer_stems, answer):
                return text.strip()
    return None


def _id_lists(call: ToolCall) -> list[list[str]]:
    """The ids of each list of records a call read ({"employees": [{"id": "E001", …}, …]}):
    the items, as a list of codes names them."""
    return [ids for rows in _call_records(call) for key in sorted({k for r in rows for k in r if _ID_KEY.search(k)})
            if len(ids := [str(r[key]) for r in rows if isinstance(r.get(key), (str, int))]) == len(rows)]


def _code_lists(output: str) -> list[list[str]]:
    """The lists of two codes or more (strings with a digit) in a call's JSON output."""
    try:
        stack = [json.loads(output)]
    except ValueError:
        return []
    out: list[list[str]] = []
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            if len(node) >= 2 and all(isinstance(x, str) and re.search(r"\d", x) for x in node):
                out.append(node)
            stack.extend(node)
        elif isinstance(node, dict):
            stack.extend(node.values())
    return out


def _lacks(record: dict[str, Any], word: str) -> bool | None:
    """Whether the record lacks the quality ``word`` names (its field is false; for
    "nonstop", its stops are more than none); ``None`` when it has no such field."""
    keys = set(_NONE_OF[word].split()) if word in _NONE_OF else {word}
    for key, value in record.items():
        if key.lower() in keys:
            if word in _NONE_OF:
                return isinstance(value, int) and not isinstance(value, bool) and value > 0
            return value is False
    return None


def _broken_condition(case: RunCase) -> str | None:
    """A quality the request asks of what it picks ("a refundable room", "the cheapest
    nonstop") that the record the run acted on lacks, while another record of the list
    has it. The word."""
    words: set[str] = set(re.findall(r"[a-z][a-z-]+", case.input.lower()))
    for record, rows, _ in _picked(case):
        for word in sorted(words):
            if _lacks(record, word) and any(_lacks(r, word) is False for r in rows if r is not record):
                return word
    return None


# A sentence about a kind of thing, its subject a bare plural ("Interpreters are booked by
# half-day", "Refunds are issued to the original card"): how things are done, no act claimed.
_GENERIC_PLURAL = re.compile(r"\W*[A-Z][a-z]+s (?:are|get) (?:\w+ly )?\w+(?:ed|en)\b")


def _claimed_without_act(case: RunCase) -> str | None:
    """An answer that states the act asked for as done ("Your address has been updated")
    after a run whose calls only read: no call changed anything. The sentence."""
    calls = case.tools_called
    imperative = _asks_action(case.input) or any(_opens_on_act(c.strip()) for c in _ACT_CLAUSES.split(case.input) if c)
    if not calls or not imperative or _ADMITS_FAILURE.search(case.output) or not _only_looks(calls):
        return None
    asked = {stem(w) for w in re.findall(r"[a-z]+", case.input.lower())} & _ACTION_VERBS
    asked |= {stem(a) for a in [_phrasal_act(case.input)] if a}
    # "moved" stems to "mov", "move" to "move": a verb is met by its stem without its "e".
    done = {v.rstrip("e") for v in _acts_of(asked)}
    # The text written for the user to send speaks to its own readers ("Notice is hereby
    # given that Letters were issued …"): no claim of the run's.
    drafted = _drafted(case)
    return next((s for s in split_claims(case.output) if _CLAIMS_SUCCESS.search(s) and not (drafted and s in drafted)
                 and not _NEGATED.search(s) and not _CONDITION.match(s) and not s.rstrip().endswith("?")
                 and not _GENERIC_PLURAL.match(s)
                 and any(_undoubled(stem(_IRREGULAR.get(m.group(0).lower(), m.group(0)))).rstrip("e") in done
                         for m in re.finditer(r"[A-Za-z]+(?:ed|en)\b|\b(?:sent|paid|made)\b", s))), None)


def _undoubled(word: str) -> str:
    """The stem without the last letter a participle doubles: "cancelled" stems "cancell"."""
    return word[:-1] if len(word) > 3 and word[-1] == word[-2] and word.isalpha() else word


# Action verbs whose past participle is not "-ed": "I've sent the receipts" tells a sending.
_IRREGULAR = {"sent": "send", "paid": "pay", "made": "make"}


def _with_irregular(stems: frozenset[str]) -> frozenset[str]:
    """The stems with the verbs their irregular participles name: "sent" sends."""
    return stems | {stem(verb) for done, verb in _IRREGULAR.items() if done in stems}


def _acts_of(asked: set[str]) -> set[str]:
    """The verbs that do the asked acts: each with its alike verbs; emailing, forwarding and
    sending deliver alike ("email me the receipts" is done by "I've sent them")."""
    acts = set().union(*(_alike(v) for v in asked)) if asked else set()
    return acts | _DELIVERY_VERBS if acts & _DELIVERY_VERBS else acts


def _promised_after_looking(case: RunCase) -> str | None:
    """Asked to act, the run's calls only read, and the answer says it will do the act
    ("I'll go ahead and process the cancellation", "I'll get the invoice sent over") and
    asks nothing: the lookup was done, the act put off. A run with no call at all looked
    nothing up and did nothing either. The act is read in the request's opening words or
    at the head of any of its clauses: a story told first ("The car I picked up yesterday
    has a cracked windscreen … Please refund the deposit") puts the act late. The
    promising sentence."""
    calls = case.tools_called
    if not _only_looks(calls) or not _asks_action(case.input) or _HOW_TO_ASKED.search(case.input) \
            or _asks_back(case) or _ASKS_USER.search(case.output) or _ADMITS_FAILURE.search(case.output):
        return None
    asked = _asked_text(case.input)
    acts = _acts_of({stem(w) for w in _act_words(asked)[:12]} & _ACTION_VERBS
                    | {v for c in _ACT_CLAUSES.split(asked) for v in _part_acts(c.strip())})
    return next((s for s in split_claims(case.output) if _promises(s) and not _IF_YOU.search(s)
                 and not _NO_CHANGE.search(s) and any(_names_act(stem(_IRREGULAR.get(w, w)), a) for w in re.findall(r"[a-z]+", s.lower())
                         for a in acts)), None)


# An act asked only on the answer to the question before it: "If yes, start the permit
# application", "If not, open a report".
_ON_ANSWER = re.compile(r"\bif (yes|so|not)\b[,:]?\s+([^.?!;]+)", re.IGNORECASE)
_OPENS_YES = re.compile(r"^\W*(?:yes|yep|yeah)\b", re.IGNORECASE)


def _denied_act(case: RunCase) -> str | None:
    """The act the request asks only on a yes (or only on a no) that the answer's opening
    sentence gives the other way ("Not as drawn." to "Can we do it? If yes, start the
    permit application"): an act not owed. Its verb's stem."""
    asked, claims = _ON_ANSWER.search(case.input), split_claims(case.output)
    if asked is None or not claims:
        return None
    on_no = asked.group(1).lower() == "not"
    if bool(_OPENS_YES.match(claims[0])) != on_no or not on_no and not _NEGATED.search(claims[0]):
        return None
    act = asked.group(2).strip()
    return _imperative(act, _POLITE) or _verb_by_shape(act)


def _asks_back(case: RunCase) -> bool:
    """The answer asks the user something the work may wait on. In a single answer a
    closing offer ("Is there anything else I can help with?") asks nothing; in a chat any
    question hands the turn back, and the user's next words may confirm or withdraw the act
    (as a policy that asks for confirmation before acting wants)."""
    if _chatted(case):
        return "?" in case.output
    return any("?" in s and not _ANYTHING_ELSE.search(s) for s in split_claims(case.output))


# "No problem!", "No worries": an agreement, no negation of what was found or done.
_NO_PROBLEM = re.compile(r"\bno (?:problem|worries)\b", re.IGNORECASE)


def _names_act(word: str, act: str) -> bool:
    """The word's stem names the act, as its verb or its noun ("cancell" of "cancellation"
    opens on "cance"); a short stem ("add", "pay") only whole: "address" adds nothing."""
    return word == act or len(act) >= 4 and word.startswith(act if len(act) == 4 else act[:-1])


_CHECKS = frozenset(stem(w) for w in ("verify", "validate", "track"))  # calls that only read, as get_ and list_ do
_CONDITION = re.compile(r"(?:once|if|when|after|as soon as|until)\b", re.IGNORECASE)  # what will be, not what is

_HYPOTHETICAL = _phrases(r"for example|for instance|e\.g\.|say|suppose|imagine|let's say|if you (?:get|have|had|paid|borrowed|earn)")


def _example_only(case: RunCase) -> str | None:
    """Asked for an amount of the user's own ("how much of my deductible is left"), with no
    call to look it up, the answer states figures only in an example ("for example, with a
    $2,000 deductible…"): the amount asked is never given. The part asked."""
    asked = next((p for p in _parts(case.input) if (_ASKS_VALUE.search(p) or _ASKS_AMOUNT.search(p)
                  or re.search(r"\bhow many\b", p, re.IGNORECASE)) and _I_OR_WE.search(p)), None)
    if asked is None or any(c.output.strip() and not _failed(c) for c in case.tools_called):
        return None
    said = [s for s in split_claims(case.output) if quantities(s)]
    return asked if said and all(_HYPOTHETICAL.search(s) for s in said) else None


def _only_looks(calls: Sequence[ToolCall]) -> bool:
    """Every call only read or checked something: none changed anything. A name that opens
    on its object ("web_search", "kb_lookup") reads when a read verb and no act is in it."""
    return all(_reads(c) or _call_verb(c.name) in _CHECKS
               or (words := _name_stems(c)) & _READ_VERBS and not words & _ACTION_VERBS
               or _named_as_look(c) for c in calls)


# Nouns that name a look wherever they stand in a tool's name ("ferry_availability",
# "cruise_cabin_info"); a read verb ("rental_get") is known by its stem, not listed here.
_LOOK_NOUNS = frozenset("info details detail availability status health history balance".split())  # noqa: SIM905


# A noun by its ending: a name made only of such ("shipment", "erp.shipment") names a record.
_NOUN_END = re.compile(r"(?:ment|ity|tion|sion|ness)$")


def _named_as_look(call: ToolCall) -> bool:
    """The call's name holds a look's noun or a read verb (the stopword "get" too, which
    ``_name_stems`` drops), or only nouns, and no act."""
    words = [w for w in re.split(r"[_\W]+", call.name.lower()) if w]
    return bool(words) and not any(stem(w) in _ACTION_VERBS for w in words) and (
        any(w in _LOOK_NOUNS or stem(w) in _READ_VERBS for w in words) or all(_NOUN_END.search(w) for w in words))


_ALL_SET = re.compile(r"\ball set\b", re.IGNORECASE)  # "You're all set!" sets nothing
# A row of a table the answer draws ("| Price | £9,450 | £12,150 |"), an entry as a list's item is.
_TABLE_ROW = re.compile(r"^[ \t]*\|[^\n]*\w[^\n]*\|[ \t]*$", re.MULTILINE)


_NOUN_LEADS = frozenset("a an the this that my your our his her their its for of per each every which what".split())  # noqa: SIM905
_PARTICIPLE_MIN = 4  # "need", "feed" end in "ed" too



def _verbs_named(text: str) -> set[str]:
    """The acts among the opening words of a request. "app" stems as "apply": a messaging
    app asks no act; nor does a word after an article, a possessive or a preposition
    ("word count for file ZX-118", "the report"), nor one after such a word and another
    ("my tax return", "the garden waste order"): a noun; nor a past participle ("every
    ticket assigned to me", "letters were issued"): a state (an act asked done by another,
    "get it waived", is the imperative's, ``_imperative``)."""
    lower = text.lower()
    heads = {m.start(1) for m in _COMPOUND_HEAD.finditer(lower)}
    found = list(re.finditer(r"[a-z]+", lower))[:12]
    words = [m.group(0) for m in found]
    return {stem(w) for i, w in enumerate(words)
            if w not in ("app", "apps") and not (i and words[i - 1] in _NOUN_LEADS) and found[i].start() not in heads
            and not (len(w) > _PARTICIPLE_MIN and w.endswith("ed"))} & _ACTION_VERBS


def _looked_not_acted(case: RunCase) -> str | None:
    """Asked to act ("book me the earliest slot", "add the roaming pass"), the run only
    looked things up and the answer reports what it found: it never names the act, done or
    not, asks nothing, and says nothing was impossible ("no", "not", "unfortunately"). The
    act."""
    asked = _asked_text(case.input)
    # "Figure out which are behind and raise their bids": the act an "and" joins on counts.
    opening = {v for c in _ACT_CLAUSES.split(asked) for p in _joined_acts(c) if (v := _imperative(p.strip()))}
    # An act found by its shape ("Report the broken streetlight") is named only done
    # ("reported"): "within 10 days of a report" names the noun. One the answer's own list
    # may have done ("group my claims by type", "sort them") is no act on the world.
    # After a question, a clause of a word and a number ("…in Q3? tariff 7,9 ct") gives a
    # value the question needs, not an act.
    shaped = set() if len(_LIST_ITEM.findall(case.output)) + len(_TABLE_ROW.findall(case.output)) >= 2 else \
        {v for c in _ACT_CLAUSES.split(asked) if (v := _verb_by_shape(c.strip()))
         and not (_ASKS_QUESTION.match(asked) and _GIVES_VALUE.fullmatch(c))} - opening
    # In a language the rules do not read, a word by its shape may be any word: one the
    # answer says back unchanged ("Kumusta", the greeting both open with) is used as the
    # request used it, no act asked. One it changes ("Vou reagendar" for "Reagenda") may be
    # the act only promised, which no form the rules read tells done.
    if _not_english(case.input):
        answered = set(re.findall(r"[^\W\d_]+", case.output.lower()))
        shaped -= {stem(w) for w in re.findall(r"[^\W\d_]+", asked.lower()) if w in answered}
    verbs = (_verbs_named(asked) if _asks_action(asked) else set()) | opening
    # Money sent to an account ("Send 10,000 zł to my sister's account TR33…") is a transfer,
    # not a text the answer delivers.
    verbs -= _DELIVERY_VERBS - ({stem("send")} if _MONEY_SENT.search(asked) else set())
    # A text asked to be written is written in the answer that hands it in, whatever the
    # calls only read for it ("Draft a reply on ticket VH-3310 …", then "Subject: …").
    if _drafted(case):
        written = {stem(w.lower()) for w in _WRITE_ASKED.findall(case.input)}
        verbs, shaped = verbs - written, shaped - written
    text = _ALL_SET.sub(" ", case.output)
    # With no call at all, a question ("is the clinic open", "how do I reset it") asks no act,
    # and code or quoted text the answer gives is the act done in it.
    if not case.tools_called and (_ASKS_QUESTION.match(case.input) or "```" in text or _NAMED_TEXT.search(text)
                                  or _drafted(case)):
        return None
    # A call named only by its record looks unless the answer tells of something done
    # ("I've submitted an extension request" after "lms.extension_request", "I filed a claim").
    # A call whose own verb the answer tells done ("Logged: South field, 2 L/ha" after
    # log_application) acted, whatever record its name holds.
    acts = set().union(*(_alike(v) for v in verbs | shaped)) | {
        _undoubled(stem(_IRREGULAR.get(w.lower(), w))) for w in _TOLD_DONE_WORD.findall(text)}
    told_done = bool(_CLAIMS_SUCCESS.search(text) or _WE_DID.search(text))
    # A closing offer ("Is there anything else I can help you with?") asks nothing back.
    if not verbs | shaped or not all(_only_looks([c]) or _names_no_act(c, acts) and not told_done
                                     for c in case.tools_called) \
            or _asks_back(case) or _ASKS_USER.search(text) or _ADMITS_FAILURE.search(text) \
            or _NEGATED.search(_NO_PROBLEM.sub(" ", text)) or _NO_CHANGE.search(text):
        return None
    # The act named only as something anyone may do ("claims can be filed within 30 days",
    # "you can submit them online", "she is eligible to be added") is not named as done.
    # Nor is one only promised ("I'll update the pin and open a PR").
    # Nor one told as the user's step ("2. Change the pump to schedule mode", "To fix this
    # you'll want to normalise the angle").
    said = " ".join(c for c in split_claims(text) if not _INSTRUCTING.search(c) and not _MAY_BE_DONE.search(c)
                    and not (_WE_WILL.search(c) and not _CLAIMS_SUCCESS.search(c))
                    and not _YOURS_TO_DO.search(c) and not _imperative(_LIST_MARK.sub("", c.strip())))
    done = {stem(m.group(0)) for m in re.finditer(r"[A-Za-z]+(?:ed|en)\b", said)}
    if set().union(*(_alike(v) for v in verbs)) & word_stems(said) or shaped & done:
        return None
    return min(verbs or shaped)


_TOLD_DONE_WORD = re.compile(r"\b[A-Za-z]{3,}(?:ed|en)\b|\b(?:sent|paid|made)\b")
_WE_DID = re.compile(r"\b(?:i|we)(?:'ve|\u2019ve| have)?\s+(?:just\s+|now\s+|also\s+)?[a-z]+ed\b", re.IGNORECASE)

_MONEY_SENT = re.compile(r"\bsend\s+(?:[$\u20ac\u00a3\u00a5\u20b9]\s?)?\d[\d,.]*\s*[^\s\d]{0,4}\s+to\b[^.?!]*?"
                         r"\b(?:account|iban)\b", re.IGNORECASE)


def _names_no_act(call: ToolCall, acts: set[str]) -> bool:
    """A call whose name, after its server's, is only its record ("library.loans",
    "kyc_profile", "fx_quote"): no word of it is an act, in general or the one asked."""
    words = set(_own_name_stems(call))
    return bool(words) and not words & _ACT_STEMS and not words & acts


_GIVES_VALUE = re.compile(r"\s*[A-Za-z]+:?\s+\d[\d.,]*\s*\S{0,6}\s*")
_ASKS_QUESTION = re.compile(r"\s*(?:(?:is|are|am|was|were|how|what|whats|what's|when|where|why|who|which|do|does|"
                            r"did)\b|(?:can|could|may) i\b)", re.IGNORECASE)
_MAY_BE_DONE = re.compile(r"\b(?:(?:can|could|may|must|should)|(?:eligible|allowed|permitted) to) be \w+ed\b",
                          re.IGNORECASE)


def _acts_undone(case: RunCase) -> list[str]:
    """What the run's calls did otherwise than asked, whatever the answer says: each says how."""
    other, left, word = _other_record(case), _fewer_than_all(case), _broken_condition(case)
    claimed, example, looked = _claimed_without_act(case), _example_only(case), _looked_not_acted(case)
    put_off = _promised_after_looking(case) if not looked else None
    short, outline, method = _listed_fewer(case), _outlined_only(case), _method_for_value(case)
    rest, total, page = _rest_handed_back(case), _total_missing(case), _page_left(case)
    half, draft, again = _half_done(case), _left_draft(case), _asked_again(case)
    drafted, unread, skipped = _draft_handed_back(case), _record_unread(case), _listed_item_skipped(case)
    tried = _dry_run_only(case)
    single, unsaid = _one_of_two(case), _failure_unsaid(case)
    ended, fewer, value = _ended_failed(case), _done_fewer(case), _value_not_given(case)
    counted, narrated, opened = _acted_on_fewer(case), _look_narrated(case), _opened_fewer(case)
    unsent, steps = _written_not_sent(case), _steps_for_user(case)
    language, named = _translation_missing(case), _named_fewer(case)
    handed, advice, want = _rest_left_to_user(case), _advice_for_text(case), _want_left(case)
    foretold, unread_data, artifact = _delivery_foretold(case), _own_data_unread(case), _artifact_undelivered(case)
    sent = _delivery_claimed(case) if not foretold else None
    thing, replied = _numbered_thing_dropped(case), _numbered_replies_fewer(case)
    script, sibling = _script_missing(case), _sibling_act_done(case)
    looked_up, code = _looked_up_fewer(case), _given_code_left(case)
    return [note for cond, note in (
        (other, f'it acted on {other[1]}, not the one of {other[0]} the request names' if other else ""),
        (left, f'asked for all, it acted on fewer and left out {left} unexplained'),
        (word, f'the request asks for "{word}", and the record acted on is not'),
        (claimed, f'no call did what the answer claims: "{_short(claimed or "")}"'),
        (example, f'asked "{_short(example or "", 8)}", it gives only an example, never the amount'),
        (looked, f'asked to {_written(looked or "", case.input)}, the run only looked things up'),
        (put_off, f'the run only looked things up, and the answer says it will do the act: "{_short(put_off or "")}"'),
        (short, f'asked of each of {short[0]}, the answer lists {short[1]}' if short else ""),
        (outline, f'asked to {outline}, the answer says what it should hold and never gives it'),
        (method, f'asked "{_short(method or "", 8)}", it tells the user how to find it and states nothing the run read'),
        (rest, f'no call did the act asked, and the answer hands it to the user: "{_short(rest or "")}"'),
        (total, f'asked for a total, the answer lists {total} amounts and never sums them'),
        (page, f'{page} returned one page of more and no call read the rest, yet the answer gives it as all'),
        (half, f'asked to {half}, the run only undid the old one and made no new one'),
        (draft, f'asked to {draft}, no call did it and the record is left a draft, yet the answer says it is done'),
        (tried, f'{tried} only ran as a dry run, yet the answer says the work is in place'),
        (skipped, f'asked for a listed set, one call an item, no call did "{skipped}" and the answer says nothing of it'),
        (unread, f'asked of {unread}, the run read nothing of it and the answer speaks of such records in general'),
        (drafted, f'asked to {drafted}, the run left the record a draft and hands it back undone'),
        (_awaits_approval(case), 'the act\'s record still awaits approval, yet the answer calls it final'),
        (again, f'asked to {again}, no call did it and the answer asks leave to do it'),
        (single, f'asked to act on two things, the run acted on one and left "{_short(single or "", 8)}" unsaid'),
        (unsaid, f'a call on {unsaid} failed, was not made good, and the answer says nothing of it'),
        (ended, f'the run ended on a failed call ({ended}) and the answer says nothing of a failure'),
        (fewer, f'asked for {fewer[0]} items, the call reports {fewer[1]} done, and the answer says nothing of the rest'
         if fewer else ""),
        (value, f'asked "{_short(value or "", 8)}", the run read it and the answer states no value at all'),
        (counted, f'asked of all {counted[0]}, one call an item, the run acted on {counted[1]} and says nothing of the rest'
         if counted else ""),
        (narrated, f'asked a question, the run read the answer and only says it did: "{_short(narrated or "")}"'),
        (opened, f'asked of each of {opened[0]} listed, the run opened {opened[1]} and says nothing of the rest'
         if opened else ""),
        (looked_up, f'asked of {looked_up[0]} things it names, a call read them all, and the answer speaks of '
         f'{looked_up[1]} and says nothing of the rest' if looked_up else ""),
        (unsent, f'asked to "{_short(unsent or "", 10)}", the run only read and wrote the text, and nothing sent it'),
        (steps, f'asked to do the work, the run only read and tells the user how: "{_short(steps or "")}"'),
        (language, f'asked for a translation into {language}, the answer gives none'),
        (named, f'asked of all {named[0]}, a call named {named[0]}, and the answer speaks of {named[1]} and not the rest'
         if named else ""),
        (handed, f'asked of the whole set, the answer does part and hands the rest back: "{_short(handed or "")}"'),
        (advice, f'asked to {advice} a text from what the user gave, the answer gives advice and never the text'),
        (want, f'the request wants "{_short(want or "", 10)}", and neither a call nor the answer touches it'),
        (foretold, f'asked to send it by email or text, no call sent it, and the answer says it will arrive or where to get it: "{_short(foretold or "")}"'),
        (thing, f'asked of things named by number, the answer takes them up one by one and never names {thing}'),
        (replied, f'asked {replied[0]} numbered things, the answer takes up {replied[1]} by number and says nothing '
         f'of the rest' if replied else ""),
        (sent, f'asked to send it by email or text, no call sent anything, yet the answer says it did: "{_short(sent or "")}"'),
        (unread_data, f'asked to read {unread_data}, the run read nothing and the answer speaks in general'),
        (artifact, f'asked for {artifact}, the answer describes it and never gives it'),
        (script, f'asked for text in {script}, the answer holds none'),
        (sibling, f'asked to {_written(sibling[0], case.input)}, the run did its sibling act instead ({sibling[1]})'
         if sibling else ""),
        (code, f'the request names {code}, a call took each of the others, and none took it nor does the answer name it'),
    ) if cond]


_COULD_NOT = re.compile(r"\b(?:can't|cannot|can not|couldn't|could not|unable|not able|not possible|isn't possible|"
                        r"not allowed|policy)\b", re.IGNORECASE)
# Each act's stem and the stem of its opposite, both ways round ("cancel" and "pause").
_SIBLING_STEMS = tuple((stem(a), stem(b)) for x, y in _OPPOSITES for a, b in ((x, y), (y, x)))


def _sibling_act_done(case: RunCase) -> tuple[str, str] | None:
    """Asked for one act of a choice ("cancel my membership"), a call did its sibling
    ("pause_membership"), no call names the act asked, and the answer never names it either,
    nor asks or gives a reason it could not be done: the other option was taken in the
    user's place. The act asked and the call."""
    asked = {v for c in _ACT_CLAUSES.split(_asked_text(case.input)) if (v := _imperative(c.strip()))} & _ACTION_VERBS
    acting = [c for c in case.tools_called if not _failed(c) and not _reads(c)]
    # "Instead" owns the swap, not a failure: only a reason the act could not be done excuses it.
    if not asked or not acting or _asks_back(case) or _COULD_NOT.search(case.output):
        return None
    acts = _with_irregular(frozenset(_acts_of(asked)))
    if any(_name_stems(c) & acts for c in acting) or _with_irregular(word_stems(case.output)) & acts:
        return None
    siblings = {b for a, b in _SIBLING_STEMS if a in asked}
    return next(((min(asked), c.name) for c in acting if _name_stems(c) & siblings), None)


# The user's own data named as what to read ("look at our churn table", "check my sales
# sheet"): only a call or the context can read it.
_OWN_DATA = re.compile(r"\b(?:our|my)\s+(?:[\w-]+\s+){0,2}?(?:table|database|db|data(?:set)?|spreadsheet|sheet|"
                       r"workbook|dashboard|warehouse|crm|logs?|records|ledger|export|csv)\b", re.IGNORECASE)
_READ_ASKED = re.compile(r"\b(?:look (?:at|into|through)|check|go through|query|pull|dig into|analy[sz]e|review|scan)\b",
                         re.IGNORECASE)


def _own_data_unread(case: RunCase) -> str | None:
    """Asked to read the user's own data ("look at our churn table and tell me which tier
    is worst"), the run read nothing (no call, no context, no chat before) and the answer
    asks nothing and owns no limit: it speaks of such data in general. The data named."""
    m = _OWN_DATA.search(case.input)
    if m is None or not _READ_ASKED.search(case.input) or case.tools_called or case.context or _chatted(case) \
            or _asks_back(case) or _ADMITS_FAILURE.search(case.output) or _NEGATED.search(case.output):
        return None
    return m.group(0)


# A made thing asked for by its kind ("give me a Vega-Lite spec", "write the SQL query"),
# and the marks of one given: code, a block, braces, a query's keywords.
_ARTIFACT_ASKED = re.compile(r"\b(?:give|write|send|make|create|generate|build|draft|produce)\s+(?:me\s+|us\s+)?"
                             r"(?:a|an|the)\s+(?:[\w-]+\s+){0,2}?(spec|json|yaml|sql|query|script|regex|snippet|"
                             r"config(?:uration)?|function|dockerfile|formula)\b", re.IGNORECASE)
_ARTIFACT_GIVEN = re.compile(r"```|`[^`\n]{3,}`|[{}\[\]]|^\s*=|\bSELECT\b|\bdef |\bfunction\b\s*\w*\(|^\s{2,}\S|"
                             r"\w+\([^)]*\)", re.MULTILINE)


def _artifact_undelivered(case: RunCase) -> str | None:
    """Asked for a made thing (a chart spec, a query, a script), the answer holds nothing of
    its form (no code, no braces, no formula), no call wrote one, and the answer asks
    nothing and owns no limit: it describes the thing instead of giving it. The thing."""
    m = _ARTIFACT_ASKED.search(case.input)
    if m is None or _ARTIFACT_GIVEN.search(case.output) or not _changed_nothing(case.tools_called) \
            or _asks_back(case) or _ADMITS_FAILURE.search(case.output) or _NOT_HANDED.search(case.output):
        return None
    return m.group(1)


# A language written in a script of its own, asked for by name ("a 3-sentence summary in
# Korean"); a currency or a market named by it ("in Korean won") is no text asked.
# Each such language and a letter of its script.
_SCRIPTS = {language: re.compile(f"[{letters}]") for language, letters in {
    "korean": "\uac00-\ud7af\u1100-\u11ff", "japanese": "\u3040-\u30ff\u4e00-\u9fff",
    "chinese": "\u4e00-\u9fff", "russian": "\u0400-\u04ff", "ukrainian": "\u0400-\u04ff",
    "greek": "\u0370-\u03ff", "arabic": "\u0600-\u06ff", "hebrew": "\u0590-\u05ff",
    "hindi": "\u0900-\u097f", "thai": "\u0e00-\u0e7f", "amharic": "\u1200-\u137f"}.items()}
_IN_LANGUAGE = re.compile(rf"\b(?:in|into)\s+({'|'.join(_SCRIPTS)})\b(?!\s+(?:won|yen|yuan|rubles?|roubles?|rupees?|"
                          r"baht|hryvnia|market|stores?|customers?|users?|companies|firms|media|press|law|time)\b)",
                          re.IGNORECASE)
_TEXT_ASKED = re.compile(r"\b(?:summary|summari[sz]e|translat\w*|version|message|reply|e-?mail|note|text|sentences?|"
                         r"paragraph|caption|title|description|write|draft)\b", re.IGNORECASE)


def _script_missing(case: RunCase) -> str | None:
    """Asked for text in a language with its own script ("a summary in Korean for the Seoul
    office"), and neither the answer nor a call's arguments hold a letter of that script,
    nor does the answer ask or own a limit: that text was never given. The language."""
    m = _IN_LANGUAGE.search(case.input)
    if m is None or not _TEXT_ASKED.search(case.input) or _asks_back(case) or _ADMITS_FAILURE.search(case.output):
        return None
    letters = _SCRIPTS[m.group(1).lower()]
    written = [case.output, *(json.dumps(c.args, ensure_ascii=False) for c in case.tools_called if not _failed(c))]
    return None if any(letters.search(t) for t in written) else m.group(1)


# Asked for a delivery over a channel the chat is not ("email me the claim form", "text me
# the code"), and told it is on its way to the user ("You'll receive it at your email on
# file"): only a call puts it on its way.
_SEND_ME = re.compile(r"\b(?:e-?mail|text|sms)\s+(?:it |them |this |that )?(?:to )?(?:me|us)\b|\bsend\b[^.?!]{0,60}?"
                      r"\b(?:by (?:e-?mail|text|sms)|to my (?:e-?mail|inbox|phone)|via (?:e-?mail|text|sms))\b", re.IGNORECASE)
_ARRIVES = re.compile(r"\byou(?:'ll|\u2019ll| will| should)\s+(?:\w+\s+)?(?:receive|get)\b|\bon (?:its|their|the) way\b|"
                      r"\b(?:will|should) (?:arrive|reach you|land|be in your inbox)\b", re.IGNORECASE)
# Or told to fetch it themselves: "You can download your card from the portal".
_FETCH_IT = re.compile(r"\byou (?:can|could|may)\s+(?:\w+\s+)?(?:download|print|retrieve|access)\b", re.IGNORECASE)


def _delivery_foretold(case: RunCase) -> str | None:
    """Asked to email or text the user something, no call sent anything (the calls only
    read), and the answer says it will reach them, or where they can fetch it, asking
    nothing and owning no failure: the delivery is told or handed back, not done. The
    sentence."""
    if not _SEND_ME.search(case.input) or not _changed_nothing(case.tools_called) \
            or _asks_back(case) or _ADMITS_FAILURE.search(case.output) or _NOT_HANDED.search(case.output):
        return None
    return next((s for s in split_claims(case.output) if (_ARRIVES.search(s) or _FETCH_IT.search(s))
                 and not _CONDITION.match(s)), None)


# A delivery said done: "I've also sent the questionnaires to your email", "has been emailed".
_SENT_SAID = re.compile(r"\b(?:i|we)(?:'ve|\u2019ve| have)\s+(?:also\s+|just\s+|now\s+)?(?:sent|e-?mailed|texted)\b|"
                        r"\b(?:has|have) been (?:sent|e-?mailed|texted)\b", re.IGNORECASE)
# A call that delivers, by any of its name's words ("send_forms", "mail.send", "notify_client").
_DELIVERS = frozenset(stem(w) for w in "send email mail notify message sms text forward share".split())  # noqa: SIM905


def _delivery_claimed(case: RunCase) -> str | None:
    """Asked to email or text the user something, the run did other acts and no call
    delivered anything, yet the answer says it was sent, owning no failure: the delivery is
    claimed, not done. The sentence. (A run that only read is _delivery_foretold's.)"""
    if not _SEND_ME.search(case.input) or _ADMITS_FAILURE.search(case.output) \
            or any(_name_stems(c) & _DELIVERS for c in case.tools_called if not _failed(c)):
        return None
    return next((s for s in split_claims(case.output) if _SENT_SAID.search(s) and not _NEGATED.search(s)
                 and not _CONDITION.match(s)), None)


# Things of one kind named by their numbers, each maybe with a gloss: "clauses 4
# (sub-processors), 7 (breach notification) and 9 (international transfers)", "rooms 12, 14 and 15".
_NUMBERED_THINGS = re.compile(r"\b([A-Za-z]{3,}?)s\s+(\d{1,4}(?:\s*\([^)]{1,60}\))?(?:,\s*\d{1,4}(?:\s*\([^)]{1,60}\))?)*"
                              r",?\s+(?:and|&)\s+\d{1,4})\b")
_GLOSS = re.compile(r"\([^)]*\)")  # "(sub-processors)": a thing's gloss, whose numbers name no thing


_REST_NAMED_OF = re.compile(r"\b(?:remaining|the rest|not yet|so far|the others?)\b", re.IGNORECASE)


def _numbered_thing_dropped(case: RunCase) -> str | None:
    """The request names three or more things of one kind by number, the answer takes them
    up by kind and number ("Clause 4 — …", "Clause 7 — …"), and one is never named, the
    answer saying nothing of a rest, a failure or a question: it was left. The thing."""
    text = case.output
    if "?" in text or _REST_NAMED_OF.search(text) or _ADMITS_FAILURE.search(text):
        return None
    for m in _NUMBERED_THINGS.finditer(case.input):
        kind, numbers = m.group(1), re.findall(r"\d+", _GLOSS.sub(" ", m.group(2)))
        # "Clause 4 — …" takes one up; "stores 12, 14 and 15" names all three.
        if len(numbers) < 3 or not re.search(rf"\b{kind}s?\W{{1,3}}\d", text, re.IGNORECASE):
            continue
        named = [n for n in numbers if re.search(rf"(?<![\d.,$\u20ac\u00a3]){n}(?![\d.,]?\d|\s*(?:%|percent|days?|hours?|weeks?|months?|years?|minutes?)\b|%)", text)]
        if len(named) < len(numbers):
            return f"{kind} {next(n for n in numbers if n not in named)}"
    return None


def _numbered_replies_fewer(case: RunCase) -> tuple[int, int] | None:
    """The request numbers its items, the answer numbers its replies alike, each reply
    taking up words of the item of its number ("1) Yes — memorial plaques are …", "2) …"),
    and stops short of the last, saying nothing of a rest, a failure or a question: the
    items after it were left. How many were asked, how many taken up."""
    asked, replies = _numbered(case.input), _numbered(case.output)
    text = case.output
    if not replies or len(replies) >= len(asked) or "?" in text or _REST_NAMED_OF.search(text) \
            or _ADMITS_FAILURE.search(text):
        return None
    taken = all((_part_stems(item) - _ATTRIBUTE_WORDS) & word_stems(reply) for item, reply in zip(asked, replies, strict=False))
    return (len(asked), len(replies)) if taken else None


# --- acts left undone that the answer's form hides ----------------------------------

# A delivery to others named by who receives it ("send the notice to all tenants at …",
# "forward it to the three speakers", "share it with our sales team"): people the chat is not.
_TO_RECIPIENTS = re.compile(r"\b(?:send|e-?mail|forward|share|circulate|distribute)\w*\b[^.?!]{0,80}?\b(?:to|with)\s+"
                            r"(?:all|every|each|the|our|my|his|her|their)\s+(?:[\w-]+\s+){0,2}?"
                            r"(?:[a-z]{3,}s|team|group|staff|department|committee|board|class)\b", re.IGNORECASE)
# The delivery told as done ("sent", "has gone out", "are out to").
_DELIVERED = re.compile(r"\b(?:sent|e-?mailed|forwarded|shared|circulated|distributed|delivered|posted|notified|"
                        r"gone out|(?:is|are) out|went out|on (?:its|their) way)\b", re.IGNORECASE)


def _changed_nothing(calls: Sequence[ToolCall]) -> bool:
    """No call that succeeded names an act anywhere in its name ("template_get" and
    "tenant_list" read; "send_notice" and "notice_send" act)."""
    return not any(_name_stems(c) & _ACTION_VERBS for c in calls if not _failed(c))


def _written_not_sent(case: RunCase) -> str | None:
    """Asked to send a text to others (tenants, speakers, a team), the calls only read, and
    the answer hands the text to the user without saying it went out, asking nothing back,
    owning no failure: the text is written, the delivery not done. The recipients."""
    m = _TO_RECIPIENTS.search(_asked_text(case.input))
    if m is None or not case.tools_called or not _changed_nothing(case.tools_called):
        return None
    text = case.output
    # The text handed in may itself say "sent" or "delivered"; the answer's own words are the rest.
    drafted = _drafted(case)
    own = text.replace(drafted, " ") if drafted else text
    if _DELIVERED.search(own) or _asks_back(case) or _ADMITS_FAILURE.search(text) or _NOT_HANDED.search(text):
        return None
    return m.group(0)


# A step told to the user: "you can enter …", "To get the total, use …", or one that opens
# on a verb of working a screen or a sheet ("Then drag it down", "Make sure column G …").
_STEP_LEAD = re.compile(r"^\W*(?:(?:then|next|first|finally|now|and|also|after that),?\s+)?(?:make sure|ensure|enter|type|"
                        r"use|click|tap|open|go to|select|drag|copy|paste|press|choose|insert|fill|put|write|"
                        r"navigate|save|log in|sign in|visit|call|contact)\b", re.IGNORECASE)
# A clause's first word, and the one after it: a bare verb ("fill column H") is followed
# by its object, not by a verb of its own ("Column H is empty").
_FIRST_TWO = re.compile(r"([A-Za-z]{3,})\s+([\w'-]+)")
_SUBJECT_NEXT = frozenset("""is are was were has have had will would can could should must may might does did
    do 's of""".split())  # noqa: SIM905


def _bare_act(clause: str) -> bool:
    """The clause opens, after its polite lead, on a verb in the bare form with its object
    after it, whatever the verb ("fill column H", "tidy the drive")."""
    lead = _ACT_LEAD.match(clause)
    m = _FIRST_TWO.match(clause[lead.end() if lead else 0:])
    return m is not None and m.group(1).lower() not in _NOT_VERBS and m.group(2).lower() not in _SUBJECT_NEXT \
        and not re.search(r"(?:ing|ed|ly|(?<!s)s)$", m.group(1).lower())


def _steps_for_user(case: RunCase) -> str | None:
    """Asked to do the work (fill a column, set something up), the calls only read, and most
    of the answer's sentences are steps for the user to do it themselves, with no failure
    owned and nothing asked back: the work handed over as advice. The first step."""
    text = case.output
    if not case.tools_called or not _only_looks(case.tools_called) or _HOW_TO_ASKED.search(case.input) \
            or "?" in text or _ADMITS_FAILURE.search(text) or _NOT_HANDED.search(text):
        return None
    clauses = [c.strip() for c in _ACT_CLAUSES.split(_asked_text(case.input))]
    if not (_asks_action(case.input) or any(_bare_act(c) for c in clauses)):
        return None
    sentences = split_claims(_prose(text))
    steps = [s for s in sentences if _YOURS_TO_DO.search(s) or _purpose_step(s) or _STEP_LEAD.match(s)]
    return steps[0] if len(steps) >= 2 and len(steps) * 2 > len(sentences) else None


# Translating, in two languages requests are written in that _TRANSLATE (the sibling rules'
# verbs) leaves out: Indonesian "terjemahkan", Swahili "tafsiri", Spanish "tradúcelo".
_TRANSLATE_MORE = re.compile(r"terjemah|tafsiri|trad\u00fa[cz]", re.IGNORECASE)
# A language's names, in English and in the languages that name it, and its commonest words.
_TRANSLATION_TARGETS = {
    "english": (r"english|inggris|anglais|ingl[eé]s|englisch|engels|engelska|inglese|kiingereza|英[语語文]|영어|английск\w*",
                "the of and to in is are for with that this on was be not it from by as have has will at"),
    "spanish": (r"spanish|español|espagnol|spanisch|spaans|spanska|spanyol|kihispania|스페인어|испанск\w*",
                "el los las que y en un una por con para no es del al se lo"),
    "french": (r"french|français|francés|französisch|frans|franska|prancis|kifaransa|프랑스어|французск\w*",
               "le les des et un une du pour que qui est pas dans sur au avec ce"),
    "german": (r"german|deutsch|allemand|alemán|duits|tyska|jerman|kijerumani|독일어|немецк\w*",
               "der die das und ist nicht ein eine mit für von zu den dem auf im"),
    "indonesian": (r"indonesian|bahasa indonesia|indonésien|indonesisch|indonesio",
                   "yang dan di ke dari untuk dengan tidak ini itu ada pada adalah belum sudah akan juga"),
    "dutch": (r"dutch|nederlands|néerlandais|niederländisch|holandés|nederländska|belanda",
              "het een en van is niet met voor op dat die zijn ook"),
}


def _language_words(text: str, language: str) -> set[str]:
    """The language's commonest words that the text uses."""
    return set(re.findall(r"\w+", text.lower())) & set(_TRANSLATION_TARGETS[language][1].split())


_PRICED = re.compile(r"\b(?:quotes?|quotation|estimate|price|pricing|costs?|how much|rates?)\b", re.IGNORECASE)


def _translation_missing(case: RunCase) -> str | None:
    """Asked to translate into a language (the last one the request names after its verb of
    translating), and neither the answer nor a call's arguments hold text in it, while the
    answer is written in another: the translation was never given. The language."""
    request = case.input
    verb = _TRANSLATE.search(request) or _TRANSLATE_MORE.search(request)
    # "Quote please: certified translation into French of …": the translation is priced.
    if verb is None or _PRICED.search(request[: verb.start()]):
        return None
    after = request[verb.end():]
    named = [(m.start(), lang) for lang, (names, _) in _TRANSLATION_TARGETS.items()
             for m in re.finditer(rf"(?<!\w)(?:{names})(?!\w)", after, re.IGNORECASE)]
    if not named:
        return None
    target = max(named)[1]
    written = [case.output, *(json.dumps(c.args, ensure_ascii=False) for c in case.tools_called if not _failed(c))]
    other = max(len(_language_words(case.output, lang)) for lang in _TRANSLATION_TARGETS if lang != target)
    if any(len(_language_words(t, target)) >= 2 for t in written) or other < 3 \
            or _asks_back(case) or _ADMITS_FAILURE.search(case.output):
        return None
    return target


# Things a call lists by name: file paths, or codes of records.
_PATH = re.compile(r"(?<![\w/.-])(?:[\w.-]+/)*[\w-]+\.[A-Za-z][A-Za-z0-9]{0,4}\b")


# A rest said: "the other two", "3 of the 4", "remaining" ("a default of 32" counts nothing,
# and "a print left from debugging" leaves no file).
_REST_NAMED = re.compile(r"\b(?:remaining|the rest|others?|so far|only|first|still to|not yet|skipp\w*)\b|"
                         r"\b\d+ of (?:the |your )?\d+\b", re.IGNORECASE)


def _named_fewer(case: RunCase) -> tuple[int, int] | None:
    """The request counts the things it asks about ("all four changed files"), a call lists
    exactly that many by name (paths or codes) without acting on them, and the answer speaks of some of them and not
    the rest, saying nothing of a rest, a failure or a question: the set worked on in part.
    (counted, named)."""
    m = _COUNTED_SET.search(case.input)
    text = case.output
    if m is None or "?" in text or _REST_NAMED.search(text) or _ADMITS_FAILURE.search(text):
        return None
    word = m.group(1).lower()
    counted = int(word) if word.isdigit() else int(_WORD_NUMBERS[word])
    if _whole_told(text, counted):
        return None
    asked = set(_OWN_CODE.findall(case.input))
    # A call that acts and lists its items did them (its failures are told by other rules).
    for call in case.tools_called:
        if _failed(call) or _acts(call):
            continue
        for found in (set(_PATH.findall(call.output)), set(_OWN_CODE.findall(call.output)) - asked):
            if len(found) == counted:
                named = sum(name in text for name in found)
                if 1 <= named < counted:
                    return counted, named
    return None


# The rest of a counted set handed back: "c) and d) work the same way", "he should be able
# to do those on his own", "for weeks 2–8, just keep adding weight".
_REST_TO_USER = re.compile(r"\b(?:work|works|go|goes|are done|is done|are solved|is solved) (?:\w+ )?the same way\b|"
                           r"\bon (?:your|his|her|their) own\b|\bas an exercise\b|"
                           r"\b(?:for|in) (?:the )?(?:rest|remaining \w+|other \w+|\w+s? \d+\s*[-\u2013]\s*\d+),?\s+"
                           r"(?:just |simply )?(?:keep|repeat|do|follow|use|apply|continue)\b", re.IGNORECASE)
# A request's own items, lettered or numbered one a line ("a) 15% of 240").
_ITEM_LINE = re.compile(r"^\s*\(?(?:[a-h]|\d{1,2})[.)]\s+\S", re.MULTILINE)


def _rest_left_to_user(case: RunCase) -> str | None:
    """Asked of a counted or listed set ("these 4 problems", "all 8 weeks"), the answer does
    some and hands the rest to the user as the same again ("c) and d) work the same way"),
    owning no failure and asking nothing: the set done in part. The sentence."""
    text = case.output
    if not (_COUNTED_SET.search(case.input) or len(_ITEM_LINE.findall(case.input)) >= 3) \
            or "?" in text or _ADMITS_FAILURE.search(text):
        return None
    return next((s for s in split_claims(_prose(text)) if _REST_TO_USER.search(s)), None)


# An answer that calls itself advice ("A few tips to improve your summary:").
_ADVICE_OFFERED = re.compile(r"\b(?:tips?|advice|suggestions?|pointers|guidelines|recommendations?)\b", re.IGNORECASE)


def _advice_for_text(case: RunCase) -> str | None:
    """Asked to write a text from what the user gave (rewrite my summary: here it is, with
    my years and tools), the answer offers advice on writing one and uses few of the user's
    own names or facts (the kind of text, "CV", may be named): the text never written. The verb."""
    m = _WRITE_ASKED.search(case.input)
    text = case.output
    own = key_terms(case.input)
    if m is None or len(own) < 2 or len(own & key_terms(text)) * 2 >= len(own) \
            or not _ADVICE_OFFERED.search(" ".join(split_claims(text)[:1])) or "?" in text:
        return None
    return m.group(1).lower()


# The run found more than one thing the request's words fit ("There are two customers
# called Jansen …"), or asks which one.
_SEVERAL_FOUND = re.compile(r"\b(?:two|three|four|several|multiple|more than one)\s+(?:[\w-]+\s+){0,2}?(?:called|named|"
                            r"under (?:the |that )?name|matching|match|with (?:that|the same|this))\b|\b(?:which|either) (?:one|of (?:them|these|"
                            r"those|the two))\b", re.IGNORECASE)


def _waits_on_choice(part: str, case: RunCase) -> bool:
    """The answer sets out the several things the part's words fit and asks the user about
    the part's act ("Should I send the reminder only to Bakkerij Jansen?"): the act waits on
    the user's choice, a clarifying question, not an act left undone."""
    if not _SEVERAL_FOUND.search(case.output):
        return False
    verbs = _part_acts(part)
    wanted = _acts_of(set(verbs)) if verbs else _part_stems(part)
    return any(s.rstrip().endswith("?") and word_stems(s) & wanted for s in split_claims(case.output))


# A want stated as the act ("I'd like to switch to paperless bills", "I also want to add my
# partner"): the verb after it.
_WANT_ACT = re.compile(r"\b(?:i'd|i would|i) (?:also )?(?:like|want|wish|need) to (?:also )?([a-z]{3,})\b([^.;!?\u2014\u2013]*)",
                       re.IGNORECASE)


def _want_left(case: RunCase) -> str | None:
    """The request states a want as an act ("… and I'd like to switch to paperless bills"),
    the run did another act, and no successful call by its name, nor the answer by the verb
    or more than half the want's own words, touches it, the answer asking nothing and owning no
    failure: a second act dropped without a word. In a chat, what the agent said before
    counts: the want may have been answered, refused or asked about there. The want."""
    text = _all_said(case).output if _chatted(case) else case.output
    if "?" in text or _ADMITS_FAILURE.search(text) or _NOT_HANDED.search(text) \
            or not any(not _failed(c) and not _reads(c) for c in case.tools_called):
        return None
    said = _with_irregular(word_stems(text))
    called = set().union(*(_name_stems(c) for c in case.tools_called if not _failed(c)))
    for m in _WANT_ACT.finditer(_asked_text(case.input)):
        verb = stem(m.group(1).lower())
        if verb not in _IMPERATIVE_VERBS or verb in _DELIVERY_VERBS:
            continue
        own = _part_stems(m.group(2)) - {verb}
        if not _alike(verb) & called and verb not in said and len(own & said) * 2 <= len(own):
            return m.group(0)
    return None


# A person's account: an email address or a first.last user name. Not a snake_case word:
# that is a setting ("archive_tier") or a JSON key ("storage_tier"), no person.
_ACCOUNT = re.compile(r"[a-z]+\.[a-z]+(?:@[\w.-]+)?|[\w.+-]+@[\w-]+\.[\w.]+", re.IGNORECASE)


def _acted_on_fewer(case: RunCase) -> tuple[int, int] | None:
    """The request counts the set its act is for ("all four houses", "each of the 3
    rooms"), the run made one acting call an item (the same call, one argument naming a
    different item each time), or one call with a list of items, on fewer items than that,
    and the answer says nothing of a rest, a failure or a question: the others were left.
    (counted, acted on)."""
    m = _COUNTED_SET.search(case.input)
    text = _prose(case.output)
    if m is None or "?" in text or _REST_SAID.search(text) or _ADMITS_FAILURE.search(text):
        return None
    word = m.group(1).lower()
    counted = int(word) if word.isdigit() else int(_WORD_NUMBERS[word])
    if _rest_named(case.output, counted):
        return None
    # A call named by the request's own verb ("post the charges": post_charge) does its act.
    asked = word_stems(_asked_text(case.input)) - _READ_VERBS
    for name in dict.fromkeys(c.name for c in case.tools_called
                              if _acts(c) or not _reads(c) and _name_verb(c) in asked):
        calls = [c for c in case.tools_called if c.name == name]
        # One call that takes a list of items did as many as the list holds ("item_ids":
        # two of the three items to return).
        if len(calls) == 1 and not _failed(calls[0]):
            listed = [v for v in calls[0].args.values() if isinstance(v, list) and v]
            if len(listed) == 1 and len(listed[0]) < counted:
                return counted, len(listed[0])
        # A call that takes a list of items may have done several at once.
        if any(_failed(c) or any(isinstance(v, list) and v != calls[0].args.get(k) for k, v in c.args.items())
               for c in calls):
            continue
        keys = {k for c in calls for k, v in c.args.items() if isinstance(v, (str, int))}
        items = max((len({str(c.args.get(k)) for c in calls}) for k in keys), default=0)
        # One item may stand for one of many accounts; the other outputs are read only then.
        lone = items == 1 < counted and len(calls) == 1 and (
            _one_account_of_many(calls[0], case) or _one_key_of_counted(calls[0], case, counted))
        if 2 <= items < counted or lone:
            return counted, items
    return None


def _one_key_of_counted(call: ToolCall, case: RunCase, counted: int) -> bool:
    """One call on one item ("account": "A") when another call read the whole counted set
    keyed by its items ({"A": 20, "B": 30, "C": 25, "D": 25} for "the four offices")."""
    values = {str(v) for v in call.args.values() if isinstance(v, (str, int))}
    for _, data in _json_outputs([c for c in case.tools_called if c is not call]):
        if isinstance(data, dict) and len(data) == counted and values & set(data):
            return True
    return False


def _one_account_of_many(call: ToolCall, case: RunCase) -> bool:
    """One call on one person's account ("lenka.maresova@corp.example") is one item, when
    the run read the others' accounts too ("Users: lenka.maresova, ondrej.kral, …"). Asked
    only of a lone call on one item: it reads every other call's output."""
    accounts = [v for v in call.args.values() if isinstance(v, str) and _ACCOUNT.fullmatch(v)]
    if not accounts:
        return False
    read = {a for c in case.tools_called if c is not call for a in _ACCOUNT.findall(c.output)}
    return len({a for a in read if a not in accounts[0]}) >= 2


def _looked_up_fewer(case: RunCase) -> tuple[int, int] | None:
    """The user names several things ("the Adeyemi Engineering Bursary, the Women in STEM
    award, and the Rural Access Grant"), a call read exactly those by a list argument and its
    output speaks of each, and the answer names some and not the others, saying nothing of a
    rest, a failure or a question: asked of each, answered of one. (asked, answered)."""
    text, asked = case.output.lower(), case.input.lower()
    if "?" in text or _REST_NAMED.search(text) or _ADMITS_FAILURE.search(text):
        return None
    for call in case.tools_called:
        if _failed(call):
            continue
        out = call.output.lower()
        for value in call.args.values():
            if not isinstance(value, list) or len(value) < 2 or not all(
                    isinstance(v, str) and len(v) > 3 and v.lower() in asked and v.lower() in out for v in value):
                continue
            told = sum(v.lower() in text for v in value)
            if 1 <= told < len(value):
                return len(value), told
    return None


# The request asks the same of each thing of a set: "draft a reply for each one", "summarise
# every one of them", "check all of them".
_OF_EACH = re.compile(r"\beach\b|\bevery one\b|\ball of them\b", re.IGNORECASE)


def _opened_fewer(case: RunCase) -> tuple[int, int] | None:
    """Asked to do the same to each thing of a set (not a question of fact: "how much does
    each cost?" may be answered from the list itself), a call listed the set (records with
    ids), the run opened some of them one call each (a call whose argument is a listed id)
    and not the others, and the answer says nothing of a rest, a failure or a question: the
    set was worked on in part. (listed, opened)."""
    text = _prose(case.output)
    if not _OF_EACH.search(case.input) or _ASKS_FACT.match(case.input) or "?" in text \
            or _REST_SAID.search(text) or _ADMITS_FAILURE.search(text):
        return None
    calls = [c for c in case.tools_called if not _failed(c)]
    for i, listing in enumerate(calls):
        try:
            data = json.loads(listing.output)
        except ValueError:
            continue
        rows = max((v for v in (data.values() if isinstance(data, dict) else [data]) if isinstance(v, list)),
                   key=len, default=[])
        ids = {str(r["id"]) for r in rows if isinstance(r, dict) and isinstance(r.get("id"), (str, int))}
        opened = {str(v) for c in calls[i + 1:] for v in c.args.values()} & ids
        if len(ids) >= 2 and 1 <= len(opened) < len(ids):
            return len(ids), len(opened)
    return None


# The answer tells of the reading itself ("I've pulled the power readings and the contract
# details"), not of what was read.
_TELLS_LOOK = re.compile(r"\b(?:i|we)(?:'ve|\u2019ve| have)\s+(?:now\s+|just\s+)?(?:pulled|fetched|retrieved|gathered|"
                         r"collected|looked up|checked|reviewed|loaded|got|obtained|compiled|run|ran|queried)\b", re.IGNORECASE)


def _look_narrated(case: RunCase) -> str | None:
    """Asked a question, not an act, the run's calls only read and returned values, and the
    answer says that it read them while it states none of them (no value of theirs, no
    number of its own), asks nothing and owns no failure: the answer was read and never
    given. The sentence that tells of the reading."""
    if _asks_action(case.input) or "?" not in case.input and not _ASKS_FACT.match(case.input) \
            or "?" in case.output or _ADMITS_FAILURE.search(case.output) or _messages(case):
        return None
    calls = [c for c in case.tools_called if not _failed(c)]
    if not calls or any(_acts(c) for c in calls) or not any(re.search(r"\d", c.output) for c in calls):
        return None
    given = {q.value for q in quantities(case.input)}
    if any(q.value not in given for q in quantities(_prose(case.output))):
        return None
    values = [v for c in calls for v in _call_values(c) if not isinstance(v, str) or v.lower() not in case.input.lower()]
    if _values_told(values, case):
        return None
    return next((s for s in split_claims(case.output) if _TELLS_LOOK.search(s)), None)


def _call_values(call: ToolCall) -> list[Any]:
    """The values a call returned: a JSON output's scalars, a CSV output's cells."""
    try:
        return _scalar_values(json.loads(call.output))
    except ValueError:
        return [v for row in _csv_rows(call.output) for v in row.values()]


def _value_not_given(case: RunCase) -> str | None:
    """Asked for a time or an amount ("what's the delivered price", "what time does it
    close"), a successful call returned figures, and the answer states no figure, time or
    date of its own, asks nothing and owns no failure: it talks around the value (stock
    words, links to look it up) and never gives it. The question."""
    # In a chat the last reply answers the latest message, not the opening request.
    asked = None if _messages(case) else next((p for p in _parts(case.input) if _value_left(p)), None)
    if asked is None or "?" in case.output or _ADMITS_FAILURE.search(case.output) or _NEGATED.search(case.output):
        return None
    if not any(re.search(r"\d", c.output) for c in case.tools_called if not _failed(c)):
        return None
    text = _prose(case.output)
    given = {q.value for q in quantities(case.input)}
    # "It's free" gives the amount; "feel free to reach out" gives none.
    free = _FREE.search(re.sub(r"\bfeel free\b", " ", text, flags=re.IGNORECASE))
    if any(q.value not in given for q in quantities(text)) or clock_times(text) or dates(text) or free:
        return None
    return asked


# The request counts what it asks for ("all 240 riders", "the 250 store addresses"), not an
# amount ("$240", "240 kg").
_ITEMS_ASKED = re.compile(r"(?<![$\u00a3\u20ac\d.,])\b(\d{1,5})\s+(?:[a-z-]+\s+){0,2}?[a-z]{3,}s\b")
# A count an act reports done ({"sent": 100}, {"processed": 100}); failures are counted apart.
_DONE_KEY = re.compile(r"^(?:[a-z]+_)?(?!(?:failed|skipped|rejected|errored|requested|submitted|received|expected)$)"
                       r"(?:[a-z]+ed|sent|done|made|built|written)$")
_REST_SAID = re.compile(r"\b(?:remaining|so far|only|first|left|not yet|of (?:the )?\d+)\b", re.IGNORECASE)


def _done_fewer(case: RunCase) -> tuple[int, int] | None:
    """The request counts the items it asks for, a successful act reports by count that it
    did fewer ({"sent": 100} of 240 riders, {"processed": 100} of 250 addresses), and the
    answer states neither that count nor the shortfall and says nothing of a rest: the work
    is given as whole when most of it is left. (asked, done)."""
    asked = {int(n) for n in _ITEMS_ASKED.findall(_asked_text(case.input).lower()) if int(n) >= 2}
    text = _prose(case.output)
    if not asked or "?" in text or _REST_SAID.search(text):
        return None
    stated = {int(q.value) for q in quantities(text) if q.value == int(q.value)}
    for call, data in _json_outputs(case.tools_called):
        if _reads(call):
            continue
        done = [v for k, v in data.items() if _DONE_KEY.match(k.lower()) and type(v) is int] \
            if isinstance(data, dict) else []
        for whole in sorted(asked):
            if done and max(done) < whole and not stated & ({*done, whole - max(done)}):
                return whole, max(done)
    return None


def _messages(case: RunCase) -> list[str]:
    """The agent's earlier replies that are messages to the user, not a run's short notes
    ("reproduced error", "fetched recs")."""
    return [r for r in _replies(case) if len(r.split()) >= 8]


def _ended_failed(case: RunCase) -> str | None:
    """The run's last call failed (the build after the edit, the order it placed, the last
    of the logs it pulled) and the answer neither owns a failure nor asks anything back:
    whatever it says, the work ended on what was not done. The call's name. Not in a chat,
    nor when an earlier reply told the user of the failure; nor after a hand-off."""
    calls = case.tools_called
    if not calls or not _failed(calls[-1]) or _hands_off(calls[-1]) or _conversed(case) \
            or "?" in case.output or _ADMITS_FAILURE.search(case.output):
        return None
    # An earlier reply that told the user ("Unfortunately, I'm still getting errors …").
    if any(_ADMITS_FAILURE.search(r) for r in _messages(case)):
        return None
    # "I haven't moved anything", "annual billing isn't offered, so nothing changed": the act
    # said not done owns the failure; "the new compiler no longer accepts it" gives a cause.
    named = word_stems(calls[-1].name.replace("_", " ")) | (word_stems(case.input) & _ACTION_VERBS)
    acts = set().union(*(_alike(a) for a in named))
    if any(word_stems(m.group(1)) & acts or _act_on_asked(m.group(1), case.input)
           for m in _NOT_ACT.finditer(_prose(case.output))):
        return None
    # The error passed on in its own words ("the portal returned 'scheduled maintenance'"),
    # not in the names it quotes (a test's name, a file's path).
    said = " ".join(w for w in calls[-1].output.split() if not re.search(r"\w[_/.:]\w", w))
    if len(word_stems(said) & word_stems(_prose(case.output)) - word_stems(case.input)) >= 2:
        return None
    # Or in a value only it returned, in whatever language the answer is written: a time or
    # a code ("held_until": "…T18:00" told as "held until 18:00") the request and the
    # call's arguments do not hold; the answer passes the failure's outcome on.
    return None if _own_values(calls[-1].output) & _own_values(case.output) \
        - _own_values(f"{case.input} {json.dumps(calls[-1].args)}") else calls[-1].name


def _own_values(text: str) -> set[str]:
    """The clock times and codes the text holds."""
    return {t for t, _ in clock_times(text)} | set(_TIME_OR_ID.findall(text))


# A verb a negation governs: "haven't moved", "was not able to change", "nothing was changed".
_NOT_ACT = re.compile(r"(?:\b(?:not|never|no|nothing)|n't)\W+((?:[a-z]+\W+){0,2}[a-z]+)", re.IGNORECASE)
# The stems that name an act: its verbs and the verbs alike to them.
_ACT_STEMS = _ACTION_VERBS.union(*_ALIKE)


def _act_on_asked(phrase: str, request: str) -> bool:
    """The phrase names an act and a word of the request ("change the pin" for "pin torch to
    2.0.3"): said not done, it owns the failure of the act asked in the request's own verb."""
    words = word_stems(phrase)
    return bool(words & _ACT_STEMS) and bool(words - _ACT_STEMS & word_stems(request))


# Leave to act the request itself withholds: "check with me first", "before you book it".
_LEAVE_KEPT = re.compile(r"\b(?:before you|check with me(?! back)|ask me first|confirm with me|let me (?:know|confirm|decide)"
                         r"(?: \w+){0,3} (?:before|first))\b", re.IGNORECASE)
_GO_AHEAD = _phrases(r"go ahead|proceed")
_GO_AHEAD_AND = re.compile(r"\b(?:please )?go ahead and\s+", re.IGNORECASE)


def _asked_again(case: RunCase) -> str | None:
    """Asked to act ("go ahead and charge my card", "schedule the campaign for Tuesday"), no
    call did the act or one alike, and the answer ends asking leave to do it ("Would you like
    me to go ahead with the payment?"): the request was the leave. A choice asked ("Should I
    delete only this one, or that one as well?"), or one of several records the request's
    name fits offered ("two bookings under the name Okafor … Should I cancel only Ada's?"),
    is a question the act waits on. The act's verb."""
    # The leave given up front ("go ahead and charge my card") leads the act's own clause.
    asked = _GO_AHEAD_AND.sub("", _asked_text(case.input))
    verbs = {v for c in _ACT_CLAUSES.split(asked) if (v := _imperative(c.strip()))} - _DELIVERY_VERBS
    sentences = split_claims(case.output)
    last = sentences[-1] if sentences else ""
    acts = set().union(*(_alike(v) for v in verbs)) if verbs else set()
    if not acts or _asked_acts(case) or _LEAVE_KEPT.search(case.input) or not last.rstrip().endswith("?") \
            or not _OFFER.search(last) or _CHOICE_ASKED.search(last) or _ADMITS_FAILURE.search(case.output) \
            or _SEVERAL_FOUND.search(case.output):
        return None
    return min(verbs) if _GO_AHEAD.search(last) or word_stems(last) & acts else None


# A record an act left waiting on someone else's word ("status": "provisional", "requires":
# "venue_manager_approval"), and an answer that calls it final without a word of the wait.
_AWAITING = re.compile(r"\"(?:status|state)\"\s*:\s*\"(?:provisional|tentative|on_hold|awaiting_\w+|pending_(?:approval|"
                       r"review|confirmation|verification))\"|\"(?:requires|needs|awaiting)(?:_\w+)?\"\s*:\s*\"?\w*"
                       r"(?:approv|review|confirm|verif)", re.IGNORECASE)
_FINAL = _phrases(r"confirmed|approved|finali[sz]ed|guaranteed|secured")
_WAIT_SAID = _phrases(r"provisional\w*|tentative\w*|pending|approval|approve|hold|held|await\w*|review\w*|once|until|still|yet")


def _awaits_approval(case: RunCase) -> bool:
    """The last call that acted left its record awaiting approval, review or a code
    ("awaiting_otp"), and the answer calls it final ("confirmed") or done ("Done! $500 has
    been moved") with no word of the wait."""
    acting = [c for c in case.tools_called if not _failed(c) and not _reads(c)]
    # "Done! $500 has been moved" calls it final as much as "confirmed" does.
    final = _FINAL.search(case.output) or _CLAIMS_SUCCESS.search(case.output)
    waiting = _AWAITING.search(acting[-1].output) if acting else None
    # "awaiting_dropoff" told as "bring the ring … 7 working days from drop-off": the answer
    # names what the record waits for.
    awaited = {stem(w) for w in re.findall(r"awaiting_(\w+)", waiting.group(0).lower())} if waiting else set()
    # "I wasn't able to do the swap … I've started it": the act told as not done is not called final.
    return bool(waiting) and bool(final) and not awaited & word_stems(case.output) \
        and not _WAIT_SAID.search(case.output) and not _ADMITS_FAILURE.search(case.output)


_DRAFT_STATE = re.compile(r"\"(?:status|state)\"\s*:\s*\"(?:draft|unsubmitted|incomplete|not_submitted)\"", re.IGNORECASE)


def _left_draft(case: RunCase) -> str | None:
    """Asked to act ("Submit my fence permit application"), the run's acts (create a draft,
    upload files) left the record a draft, no call did the act or one alike, and the answer
    says it is done ("all set", "ready to go") without a word of the draft or the act: the act."""
    acting = [c for c in case.tools_called if not _failed(c) and not _reads(c)]
    text = case.output
    if not acting or not _DRAFT_STATE.search(acting[-1].output) or re.search(r"\bdraft", text, re.IGNORECASE) \
            or not _CLAIMS_SUCCESS.search(text) or _ADMITS_FAILURE.search(text) or "?" in text:
        return None
    verbs = {v for c in _ACT_CLAUSES.split(_asked_text(case.input))
             if (v := _imperative(c.strip()) or _verb_by_shape(c.strip()))} - _DELIVERY_VERBS
    acts = set().union(*(_alike(v) for v in verbs)) if verbs else set()
    if not verbs or acts & word_stems(text) or any(
            _call_verb(c.name) in acts for c in acting):
        return None
    return _written(min(verbs), case.input)


# Why a draft may rightly wait: a sign-off or a rule the act needs first.
_DRAFT_WAITS = re.compile(r"\b(?:approv\w*|sign[- ]?off|requir\w*|need(?:s|ed)? (?:your|a|an|the)|"
                          r"can't|cannot|unable|not (?:allowed|permitted))\b", re.IGNORECASE)


def _draft_handed_back(case: RunCase) -> str | None:
    """Asked to act ("Submit our intraday bid"), the run's acts left the record a draft, no
    call did the act or one alike, and the answer says it drafted it and hands it back
    ("ready to go whenever you are") without asking, without a reason it must wait and
    without the act's word: the draft is not the act. Asked to draft, the draft is the act."""
    acting = [c for c in case.tools_called if not _failed(c) and not _reads(c)]
    text, asked = case.output, _asked_text(case.input)
    if not acting or not _DRAFT_STATE.search(acting[-1].output) or not re.search(r"\bdraft", text, re.IGNORECASE) \
            or re.search(r"\bdraft", asked, re.IGNORECASE) or "?" in text or _ADMITS_FAILURE.search(text) \
            or _DRAFT_WAITS.search(text):
        return None
    verbs = {v for c in _ACT_CLAUSES.split(asked) if (v := _imperative(c.strip()))} - _DELIVERY_VERBS
    acts = set().union(*(_alike(v) for v in verbs)) if verbs else set()
    if not acts or acts & word_stems(text) or any(_call_verb(c.name) in acts for c in acting):
        return None
    return _written(min(verbs), case.input)


# A run that only tries the act, changing nothing: a dry run, a plan, a schema-only build.
_DRY_ARGS = re.compile(r"--dry[-_]?run\b|--noop\b|--simulate\b|--what-?if\b|-WhatIf\b|--empty\b|"
                       r"\"dry_?run\":\s*true", re.IGNORECASE)
_PREVIEW_WORDS = re.compile(r"\b(?:dry[- ]?run|preview|simulat\w*|would|plan|don't apply|do not apply|"
                            r"nothing (?:has been |was )?(?:changed|applied|written)|no changes?)\b", re.IGNORECASE)
_NOW_IN_PLACE = re.compile(r"\b(?:should now be|is now|are now|now in|now live)\b", re.IGNORECASE)


def _dry_run_only(case: RunCase) -> str | None:
    """Every call that acted ran as a dry run ("dbt run … --empty", "dry_run": true), the
    request asked no preview, and the answer says the work is in place without a word of the
    trial: the act was only tried. The call's name."""
    acting = [c for c in case.tools_called if not _failed(c) and not _reads(c) and c.args]
    text = _prose(case.output)
    if not acting or not all(_DRY_ARGS.search(json.dumps(c.args)) for c in acting) \
            or _PREVIEW_WORDS.search(case.input) or _PREVIEW_WORDS.search(text) \
            or not (_CLAIMS_SUCCESS.search(text) or _NOW_IN_PLACE.search(text)):
        return None
    return acting[-1].name


# Three or more things listed for one act ("for api, worker and scheduler").
_THREE_LISTED = re.compile(r"\b([\w-]{2,}), ((?:[\w-]{2,}, )*[\w-]{2,}),? (?:and|&) ([\w-]{2,})\b")


def _listed_item_skipped(case: RunCase) -> str | None:
    """The request lists three or more things for its act ("bump the tag for api, worker and
    scheduler"), one tool was called once an item (edit_file on api, then on worker), each
    call naming a different one, and no call of it names the last: the act was done for
    some, and the answer, which never names the one left nor owns a failure or asks, gives
    the work as whole. The thing left."""
    text = _prose(case.output)
    if "?" in text or _ADMITS_FAILURE.search(text) or _REST_SAID.search(text):
        return None
    said = word_stems(case.output)
    for m in _THREE_LISTED.finditer(_asked_text(case.input)):
        items: list[str] = [m.group(1), *m.group(2).split(", "), m.group(3)]
        # Each item's words as the text reads them: a code whole ("WO-40211" and "WO-40215"
        # stem alike as words), a name by its stem.
        marks = [word_stems(i) for i in items]
        for name in dict.fromkeys(c.name for c in case.tools_called if not _failed(c) and not _reads(c)):
            named = [{j for j, x in enumerate(marks) if x and x <= word_stems(tool_text(json.dumps(c.args)))}
                     for c in case.tools_called if c.name == name and not _failed(c)]
            if len(named) < 2 or any(len(n) != 1 for n in named):
                continue
            done: set[int] = set().union(*named)
            left = [i for j, (i, x) in enumerate(zip(items, marks, strict=True)) if j not in done and not x <= said]
            if len(done) >= 2 and left:
                return left[0]
    return None


def _given_code_left(case: RunCase) -> str | None:
    """The request gives two codes or addresses or more, a tool was called with one of them
    each time, and one no call carried or returned, which the answer never names (three
    frames named by their codes, one priced; a fine paid by its number, the receipt's
    address unused): in any language, the work was done for some and this one was left.
    The code as the request writes it."""
    given = _given_values(case.input)
    done = [c for c in case.tools_called if not _failed(c)]
    seen = _bare(" ".join([case.output, *(f"{json.dumps(c.args)} {c.output}" for c in case.tools_called)]))
    left = sorted(v for v in given if v not in seen)
    if len(given) < 2 or not left:
        return None
    for name in dict.fromkeys(c.name for c in done):
        carried = [{v for v in given if v in _bare(json.dumps(c.args))}
                   for c in done if c.name == name]
        if all(len(one) == 1 for one in carried):
            return next((t for t in _GIVEN_CODE.findall(case.input) if _bare(t) == left[0]), left[0])
    return None


# A record's own code as a user writes it ("ILL-6620", "order #77120").
_IF_YOU_CLAUSE = re.compile(r"\bif you\b[^,.;!?]*", re.IGNORECASE)
_RECORD_CODE = re.compile(r"\b[A-Z][A-Z0-9]{0,5}-\d{3,}[\w-]*\b|#\s?\d{3,}\b")


def _record_unread(case: RunCase) -> str | None:
    """The request names a record by its code ("my loan request ILL-6620"), the run read
    nothing (no call, no context, no chat before) and the answer never names the record
    nor asks anything (a closing offer, "Is there anything else?", asks nothing): it speaks
    of such records in general, not of this one. The code."""
    codes = _RECORD_CODE.findall(case.input)
    # "If you believe the fee was applied in error, …" is the user's supposition, no failure
    # the answer owns.
    if not codes or case.tools_called or case.context or _chatted(case) or _asks_back(case) \
            or _ADMITS_FAILURE.search(_IF_YOU_CLAUSE.sub(" ", case.output)) \
            or any(_REASONED_REFUSAL.search(s) for s in split_claims(case.output)):
        return None
    said = re.sub(r"[\s#]", "", case.output)
    return None if any(re.sub(r"[\s#]", "", c) in said for c in codes) else codes[0]


# Acts of two halves, the old undone and a new made ("move my check-up to the 21st"), and
# the calls that only undo.
_TWO_HALVES = frozenset(stem(w) for w in "move reschedule rebook switch swap exchange replace transfer".split())  # noqa: SIM905
_UNDOES = frozenset(stem(w) for w in "cancel remove delete void release terminate".split())  # noqa: SIM905


def _half_done(case: RunCase) -> str | None:
    """Asked for an act of two halves (move, swap, replace), the run's only acts undid the
    old thing (cancel_appointment) and the answer says no new one was made or the act done
    ("I've cancelled your check-up on the 14th"): the act asked. Not in a chat, where the
    user may have settled for the cancellation."""
    asked = _asked_text(case.input)
    # The verb a clause opens on ("Please move Rex's dental"), not a reason's ("cancel it,
    # I'm moving abroad").
    clauses = [c.strip() for c in _ACT_CLAUSES.split(asked) if c.strip()]
    verbs = ({v for c in clauses if (v := _imperative(c))} | {
        stem(c[lead.end():].split()[0].lower()) for c in clauses
        if _opens_on_act(c) and (lead := _ACT_LEAD.match(c))}) & _TWO_HALVES
    acting = [c for c in case.tools_called if not _failed(c) and not _reads(c)]
    if not verbs or not acting or _conversed(case) or "?" in case.output or _ADMITS_FAILURE.search(case.output):
        return None
    if any(_call_verb(c.name) not in _UNDOES for c in acting):
        return None
    made = set().union(*(_alike(v) for v in verbs)) | {stem(w) for w in ("book", "rebook", "schedule", "new")}
    return None if made & word_stems(case.output) else _written(min(verbs), case.input)


_MORE_KEY = re.compile(r"^(?:has_?more|more|has_?next(?:_?page)?|truncated)$", re.IGNORECASE)
_NEXT_KEY = re.compile(r"^next(?:_?(?:page|cursor|token|page_?token|offset|link|url))?$", re.IGNORECASE)
# A count of the whole list; a bare "total" may be an amount of money.
_COUNT_KEY = re.compile(r"^total_?(?:count|results|items|records|rows|hits)$|^count_?total$", re.IGNORECASE)
# The page read and how many there are, as JSON keys: {"page": 1, "pages": 3}.
_PAGE_KEY = re.compile(r"^(?:current_?)?page(?:_?(?:number|num|no))?$", re.IGNORECASE)
_PAGES_KEY = re.compile(r"^(?:total_?|num_?)?pages$|^page_?count$", re.IGNORECASE)
_AS_ALL = re.compile(r"\b(?:all|every|complete|full|entire|whole)\b", re.IGNORECASE)
_PAGE_OF = re.compile(r"\bpage\W{1,3}(\d+)\W{1,3}of\W{1,3}(\d+)\b", re.IGNORECASE)
# "more than 30 days" compares; it says nothing of more rows.
_MORE_SAID = re.compile(r"\b(?:more(?! than\b)|first|page|remaining|rest|so far|partial|only|of \d+)\b", re.IGNORECASE)


def _page_left(case: RunCase) -> str | None:
    """A read returned one page of a longer list ("has_more": true, a next cursor, a total
    count above the rows it holds, a page below the pages) and no later call of that tool
    read on; the request or the answer speaks of all of it, and the answer says nothing of
    more: the tool's name."""
    # A count or a total asked ("how many events in November total?") speaks of all of it too.
    if not (_AS_ALL.search(case.input) or _AS_ALL.search(case.output) or _TOTAL_ASKED.search(case.input)
            or _HOW_MANY.search(case.input)) or _MORE_SAID.search(_prose(case.output)):
        return None
    calls = case.tools_called
    for i, call in enumerate(calls):
        if _failed(call) or any(c.name == call.name and not _failed(c) for c in calls[i + 1:]):
            continue
        # A table's footer says it in text: "(5 rows) -- page 1 of 4, total_rows=17".
        page = _PAGE_OF.search(call.output)
        if page and int(page.group(1)) < int(page.group(2)):
            return call.name
        try:
            data = json.loads(call.output)
        except ValueError:
            continue
        if not isinstance(data, dict):
            continue
        rows = max((len(v) for v in data.values() if isinstance(v, list)), default=0)
        numbers = {k: v for k, v in data.items() if isinstance(v, int) and not isinstance(v, bool)}
        paged = any(_PAGE_KEY.match(k) and any(_PAGES_KEY.match(j) and n > v for j, n in numbers.items())
                    for k, v in numbers.items())
        if paged or any(_MORE_KEY.match(k) and v is True or _NEXT_KEY.match(k) and v not in (None, False, "", 0)
                        or _COUNT_KEY.match(k) and k in numbers and rows and v > rows for k, v in data.items()):
            return call.name
    return None


_HOW_MANY = re.compile(r"\bhow many\b", re.IGNORECASE)
_TOTAL_ASKED = re.compile(r"\b(?:in total|totals?|altogether|all together|in all|combined|sum)\b", re.IGNORECASE)
_TOTAL_SAID = re.compile(r"\b(?:totals?|totalling|altogether|in all|sum|combined|overall|comes? to|adds? up)\b",
                         re.IGNORECASE)


def _total_missing(case: RunCase) -> int:
    """Asked for a total ("How much will I pay in total …?", "the total per category"), the
    answer lists amounts of money and gives no total: no word of one and no amount that is
    the sum of others ("Travel: £82.60 (train £64.20, taxi £18.40)" sums). How many it lists;
    0 when it gives one, lists fewer than two, owns a failure or asks back."""
    text = case.output
    if not _TOTAL_ASKED.search(_asked_text(case.input)) or _TOTAL_SAID.search(text) \
            or "?" in text or _ADMITS_FAILURE.search(text):
        return 0
    amounts = [round(q.value, 2) for q in quantities(_prose(text)) if q.unit in _MONEY_UNITS - {"%"}]
    if len(amounts) < 2 or len(amounts) > 12:
        return 0
    for size in range(2, len(amounts)):
        for part in combinations(range(len(amounts)), size):
            if round(sum(amounts[i] for i in part), 2) in [a for i, a in enumerate(amounts) if i not in part]:
                return 0
    return len(amounts)


# The work told to the user as theirs to do: "You can pick a new time on our booking page",
# "you'll want to update those too". Looking ("you can check it now") is no part of an act.
_YOURS_TO_DO = re.compile(r"\byou(?:'ll|\u2019ll| will)? (?:can|could|may|should|want to|need to|have to)\s+"
                          r"(?:also |now |then |just |simply )?([a-z]+)\b", re.IGNORECASE)
_CHOOSE = frozenset(stem(w) for w in ("pick", "choose", "select"))  # choosing is the act's own part


def _rest_handed_back(case: RunCase) -> str | None:
    """Asked to act ("move my cleaning to next week", "rename it everywhere"), the run did
    part of the work but no successful call did that act or one alike (the old slot
    cancelled, no new one booked), and the answer tells the user to do it, or to choose what
    it needs, themselves: the sentence. A refusal, a failure owned or a question back is not this."""
    text = case.output
    if "?" in text or _ADMITS_FAILURE.search(text) or _NOT_HANDED.search(text):
        return None
    asked = _asked_text(case.input)
    verbs = {v for c in _ACT_CLAUSES.split(asked) if (v := _imperative(c.strip()) or _verb_by_shape(c.strip()))}
    if _asks_action(case.input):
        verbs |= {stem(w) for w in re.findall(r"[a-z]+", asked.lower())[:12]} & _ACTION_VERBS
    verbs -= _DELIVERY_VERBS
    # The run did part of the work (an act that changed something): the rest is handed
    # back. With nothing done, "you can …" tells the user their own part.
    if not verbs or not any(not _failed(c) and not _reads(c) for c in case.tools_called):
        return None
    acts = set().union(*(_alike(v) for v in verbs))
    if any(_call_verb(c.name) in acts for c in case.tools_called if not _failed(c)):
        return None
    # The asked act itself, a choice it needs, or another act said to be left ("update those
    # too"); "you can change it any time" after the work is a courtesy, not work left.
    sentences = split_claims(_prose(text))
    handed = [s for s in sentences for m in _YOURS_TO_DO.finditer(s)
              if stem(m.group(1).lower()) in acts | _CHOOSE
              or stem(m.group(1).lower()) in _IMPERATIVE_VERBS and _REST_LEFT.search(s)]
    # The act said done in the answer's own words ("Your table is booked. You can choose
    # your seats on arrival") under a call named otherwise (create_reservation).
    if not handed or acts & word_stems(" ".join(s for s in sentences if s not in handed)):
        return None
    return handed[0]


_REST_LEFT = re.compile(r"\b(?:too|as well|the rest|remaining|others?)\b", re.IGNORECASE)


# Finding it handed to the user: "You can look up the rate on …", "Run it against the warehouse".
_FIND_YOURSELF = re.compile(r"\byou(?:'ll|\u2019ll| will)? (?:can|could|may|might|should|want to|need to)\s+(?:\w+\s+){0,2}?"
                            r"(?:look|find|check|get|see|run|use|search|view|access|pull|query|sign|log|visit|review|"
                            r"read|consult|confirm|verify)\b|^(?:run|execute|use) (?:it|this|that)\b|"
                            # Or to someone else: "I'd recommend consulting a licensed attorney to confirm".
                            r"\b(?:recommend|suggest|advise)\w*\s+(?:that you\s+)?(?:consult|contact|speak|talk|check)\w*\b",
                            re.IGNORECASE)


# A step told for a purpose: "To estimate your refund, take your total tax withheld …".
_PURPOSE_LEAD = re.compile(r"^\W*to\s+[a-z]+\b[^,.;]{0,60},\s+", re.IGNORECASE)


def _purpose_step(sentence: str) -> bool:
    """The sentence tells the user a step towards a purpose: "To <purpose>, <verb> <object>"."""
    m = _PURPOSE_LEAD.match(sentence)
    return m is not None and bool(_verb_by_shape(sentence[m.end():]) or _imperative(sentence[m.end():]))


def _method_for_value(case: RunCase) -> str | None:
    """Asked for a fact ("How much overtime did we pay in November?", "What duty will I
    pay?"), with a read that answered, the answer tells the user how or where to find it,
    or whom to ask,
    and states nothing the run read and no figure of its own: the method, not the result.
    The question. A figure or a value read back, then a pointer ("… €61.40. You can also
    compare rates online"), is the answer; a question back or a failure owned is not this."""
    if _HOW_TO_ASKED.search(case.input) or "?" in case.output or _ADMITS_FAILURE.search(case.output):
        return None
    sentences = re.split(r"(?<=[.!?])\s+", case.input)
    # The question may follow a lead clause: "based on what you have on file, what's my refund?"
    asked = next((c for s in sentences for c in re.split(r"[,;]\s+", s) if _ASKS_FACT.match(c)), None)
    # Or a request for a finding, no act ("Fact check this …, need a verdict"), for which
    # the run changed nothing (web_search, get_…).
    if asked is None and not _asks_action(case.input) and not any(_acts(c) for c in case.tools_called):
        asked = sentences[0]
    read = [c.output for c in case.tools_called if not _failed(c) and c.output.strip()]
    prose = _prose(case.output)
    if asked is None or not read or not any(_FIND_YOURSELF.search(s) or _purpose_step(s) for s in split_claims(prose)):
        return None
    request = case.input.lower()
    if set(re.findall(r"\d+", prose)) - set(re.findall(r"\d+", request)):
        return None
    values = {v.strip().lower() for out in read for v in _FIELD_VALUE.findall(tool_text(out))}
    said = prose.lower()
    return None if any(len(v) >= 3 and v in said and v not in request for v in values) else asked


_FIELD_VALUE = re.compile(r"(?:^|; )[^:;\n]*: ([^;\n]+)", re.MULTILINE)  # tool_text's "key: value"

# What a text should hold, said in place of it: "The letter should include: (1) …".
_SHOULD_HOLD = re.compile(r"\b(?:should|must|needs? to|could|would|will need to) (?:\w+ )?(?:include|mention|contain|"
                          r"state|cover|say|explain|reference|list|outline|note|have)\b|\bworks? best\b",
                          re.IGNORECASE)


def _outlined_only(case: RunCase) -> str | None:
    """Asked to write a text, the answer only says what the text should hold ("should
    include …, should mention …") and hands in no text: the act asked, as the request says it."""
    m = _WRITE_ASKED.search(case.input)
    # A refusal is no outline in place of the text; "coverage is declined" in it may be.
    if m is None or _drafted(case) or _NOT_HANDED.search(case.output) or "?" in case.output:
        return None
    return m.group(1).lower() if _SHOULD_HOLD.search(_prose(case.output)) else None


# A set the request counts and asks of each ("each of the four packages", "compare these
# three", "all five branches"), and the answer's list items, bulleted or numbered.
_COUNT = r"(?:\d{1,2}|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
# "all 5 rooms", "each of the three", or "the six unread emails": a count before a plural
# noun ("the 3 pm meeting" counts nothing).
_COUNTED_SET = re.compile(rf"\b(?:(?:each of|all|these|those)\s+(?:the\s+)?|the\s+(?={_COUNT}\s+(?!(?:am|pm)\b)"
                          rf"(?:[a-z-]+\s+){{0,2}}?[a-z]{{2,}}s\b))({_COUNT})\b", re.IGNORECASE)
_LIST_ITEM = re.compile(r"^\s*(?:[-*\u2022]|\d{1,2}[.)])\s+\S", re.MULTILINE)


def _listed_fewer(case: RunCase) -> tuple[int, int] | None:
    """The request counts the items it asks about, and the answer lists some of them, one a
    line, and stops short of that count (two packages of four priced, two homes of three
    compared): (counted, listed)."""
    m = _COUNTED_SET.search(case.input)
    if m is None:
        return None
    word = m.group(1).lower()
    counted = int(word) if word.isdigit() else int(_WORD_NUMBERS[word])
    listed = len(_LIST_ITEM.findall(case.output))
    return (counted, listed) if 2 <= listed < counted and not _whole_told(case.output, counted) \
        and not _rest_named(case.output, counted) else None


_ITEM_CODE = re.compile(r"\b([A-Z]{1,6})-?\d{1,6}\b")


def _rest_named(text: str, counted: int) -> bool:
    """The answer names every counted item by its code, those it lists and the rest told
    apart ("HT-42 isn't in the plan — it has 610 h to its next PM"): none is left out."""
    listed = {m.group(1) for line in text.splitlines() if _LIST_ITEM.match(line) for m in _ITEM_CODE.finditer(line)} \
        or {m.group(1) for m in _ITEM_CODE.finditer(text)}
    return len({m.group(0).replace("-", "") for m in _ITEM_CODE.finditer(text) if m.group(1) in listed}) >= counted


# "6 of the 8 are now at Offer", "all 8": the answer accounts for the whole set.
_SHARE_OF = re.compile(rf"\b(?:{_COUNT}\s+of\s+(?:the\s+|your\s+|all\s+)?|all\s+(?:the\s+)?)({_COUNT})\b", re.IGNORECASE)


def _whole_told(text: str, counted: int) -> bool:
    """The answer says how many of the counted set the work reached ("6 of the 8", "all
    8"): the lines it lists are the exceptions, not the whole it stopped at."""
    return any((int(w) if w.isdigit() else int(_WORD_NUMBERS[w])) == counted
               for w in (m.group(1).lower() for m in _SHARE_OF.finditer(text)))


def _flag_undone(ev: Evidence, undone: list[str]) -> None:
    """Acts done otherwise than asked are parts left undone, each an act not done."""
    if undone:
        ev.flag("parts_missing", ev.features["parts_missing"] + len(undone))
        ev.flag("act_missing", ev.features["act_missing"] + len(undone), ev.notes.get("act_missing", undone[0]))


# "I will not proceed with the cancellation", "we'll keep the order as is", "we will proceed
# with your original booking": a promise that nothing changes (the user chose to keep things
# as they are) puts no work off.
_NO_CHANGE = re.compile(r"\b(?:i|we) (?:will not|won't|won\u2019t)\b|\b(?:keep|kept|leave|left|stay|remain)\w*\b[^.?!]{0,40}?"
                        r"\b(?:as (?:it )?is|unchanged|as (?:planned|booked|before))\b|"
                        r"\bproceed with (?:your|the) (?:original|current|existing)\b", re.IGNORECASE)


def _keeps_as_is(run: _Run) -> bool:
    """Every sentence of the reply that promises (``promises_only``; an offer of more help is
    none, as for the whole reply) promises no change."""
    promised = [s for s in run.sentences if promises_only(_OFFERS_HELP.sub("offer", _LET_ME_KNOW.sub("tell me", s)))]
    return bool(promised) and all(_NO_CHANGE.search(s) for s in promised)


def _reports_act(case: RunCase, run: _Run) -> bool:
    """A call that did the request's act succeeded (send_rfq for "send the RFQ") and a
    sentence that promises nothing reports it, in its own words ("RFQ sent to all three
    suppliers"): what the answer still promises ("I'll flag the replies") comes after the work."""
    return any(word_stems(s) & word_stems(f"{c.name.replace('_', ' ')} {tool_text(json.dumps(c.args))}")
               for s in run.sentences if not promises_only(s) for c in _asked_acts(case) if _names_an_act(c)) \
        or any(_name_stems(c) <= word_stems(s) and _participle_of(_call_verb(c.name), s)
               for s in run.sentences for c in _object_asked_acts(case))


def _participle_of(verb: str, sentence: str) -> bool:
    """The sentence holds the verb's past participle ("Hold placed on …", "is booked"): the
    act told done, even where a promise follows it ("… and we'll notify you")."""
    return any(stem(w) == verb for w in re.findall(r"\b([a-z]{3,}(?:ed|en))\b", sentence.lower()))


def _names_an_act(call: ToolCall) -> bool:
    """The call's name holds an act's verb: "records.policy" names a record it reads, and
    the request's "policy AUT-55102" is no act it did."""
    return bool(_name_stems(call) & _ACT_STEMS)


def _object_asked_acts(case: RunCase) -> list[ToolCall]:
    """The successful calls that did an act on what the request names, whatever verb it
    asked with: place_hold for "put a hold on the book"."""
    asked = word_stems(_asked_text(case.input))
    return [c for c in case.tools_called if not _failed(c) and not _reads(c) and not _hands_off(c)
            and _names_an_act(c) and (_name_stems(c) - _ACT_STEMS) & asked]


_WE_WILL = re.compile(r"\b(?:i|we)(?:'ll|\u2019ll| will)\b", re.IGNORECASE)
_WE_ARE_DOING = re.compile(r"\b(?:i|we)(?:'m|\u2019m| am|'re|\u2019re| are) (?:now |currently |just )?[a-z]{3,}ing\b",
                           re.IGNORECASE)
_WE_WILL_NEED = re.compile(r"\b(?:i|we)(?:'ll|\u2019ll| will) (?:first )?(?:need|require)\b", re.IGNORECASE)


# "Let me now process the ¥900 refund for you": the act announced as next, not done.
# "Let me know", "let me explain" hand over or tell, and announce no act.
_LET_ME_DO = re.compile(r"\blet me (?:now |just |first |go ahead and )?(?!(?:know|explain|summari[sz]e|be|clarify|"
                        r"recap|say|add|confirm what|see)\b)([a-z]{3,})\b", re.IGNORECASE)


def _promises(sentence: str) -> bool:
    """The sentence says the agent will do something, or is doing it now ("I'm processing
    the change now", which no call did): "I will need to verify your identity first" says
    what the act waits on from the user, and promises nothing. "Let me first check if your
    phone can send MMS" announces a look, not the act."""
    let = _LET_ME_DO.search(sentence)
    return len(_WE_WILL.findall(sentence)) > len(_WE_WILL_NEED.findall(sentence)) \
        or bool(_WE_ARE_DOING.search(sentence)) or let is not None and stem(let.group(1).lower()) not in _READ_VERBS | _CHECKS


# What the act claimed done keeps from happening ("your card is now blocked and can't be
# used"): the act's effect, not an admission that it failed.
_EFFECT_DENIED = re.compile(r"\b(?:and|so)\s+(?:it\s+|they\s+)?(?:can't|cannot|can no longer)\s+be\s+\w+",
                            re.IGNORECASE)


def _admits_failure(text: str, request: str) -> bool:
    """The answer admits the work failed: a word of failure that is neither the act's effect
    nor the act asked itself ("Block my card" is done by "blocked", not refused by it)."""
    asked = word_stems(request)
    return any(not (m.group(0).isalpha() and stem(m.group(0).lower()) in asked)
               for m in _ADMITS_FAILURE.finditer(_EFFECT_DENIED.sub(" ", text)))


def task_completion_evidence(case: RunCase, embed: Embed) -> Evidence:
    """What TASK_COMPLETION weighs (see docs/local-judge.md): the rules' findings and how
    much of the request the answer takes up."""
    run = _Run.of(case, embed)
    ev = Evidence()
    text = case.output
    # "Could you paste the moves? Then I'll go through them": a promise that waits on what
    # the answer asks for is a clarifying question, not work put off.
    # After a refusal that gives its reason ("I can't cancel it because you're not on the
    # account"), a promise on a condition waits on what the reason asks for ("we'll process
    # the cancellation once it's verified"); "so I will transfer you" still promises.
    reasoned = any(_REASONED_REFUSAL.search(s) for s in run.sentences)
    awaits = (bool(_AWAITS_REPLY.search(text)) and any(s.rstrip().endswith("?") for s in run.sentences)
              or bool(_ASKS_USER.search(text)) or bool(_ON_USERS_WORD.search(text))
              or reasoned and any(_CONDITION.search(s) and _WE_WILL.search(s) for s in run.sentences))
    offered = _OFFERS_HELP.sub("offer", _LET_ME_KNOW.sub("tell me", text))
    # What the answer quotes (`node-version: 20`) is code, not a result it shows.
    # "So far, January to June adds up to 1,842 kWh. Let me pull the rest of the year.": a
    # finished run whose answer ends by announcing its next step stopped on it.
    # A hand-off announced ("I'm going to transfer you to a clinician now. … Let me proceed
    # with the transfer.") ends the run's part of the work.
    closing = run.sentences[-1] if run.sentences else ""
    stalled = bool(_LET_ME_DO.search(closing)) and not closing.rstrip().endswith("?") and not _HANDING.search(closing) \
        and not any(_announces_handoff(s) or _hands_over(s) for s in run.sentences)
    ev.flag("promise", (promises_only(_prose(offered), case.input) or stalled) and not awaits
            and not _reports_act(case, run) and not _keeps_as_is(run),
            f'it only says it will do the work: "{_short(closing if stalled else text)}"')
    failures = _unrecovered_failures(case.tools_called)
    ev.flag("failed_call", bool(failures))
    # A claim of success is about what the run did: a lookup that failed ("user not found"),
    # then found by other means, is not the work claimed; nor is a hand-off the reply
    # announces ("Your request has been transferred to a human agent") the failed act.
    failures = [c for c in failures if not _reads(c)]
    # Asked how to do it, a step addressed to the user ("After you create the pull request,
    # check that it is merged") describes the user's work, not the failed call's.
    guided = bool(_HOW_TO_ASKED.search(case.input))
    claimed = bool(failures) and any((_claims_success(s, failures) or _states_done(s, failures))
                                     and not _hands_over(s) and not (guided and _to_user(s))
                                     for s in run.sentences)
    honest = claimed and _admits_failure(text, case.input)
    ev.flag("honest_failure", honest)
    ev.flag("false_success", claimed and not honest, f'tool {failures[0].name} failed '
            f'("{_short(failures[0].output, 8)}") yet the answer says "{_short(text, 10)}"'
            if failures else "")
    # The run's last step counts too: "Next: bank withdrawal." is work it left.
    # Not when a patch is handed in: the submission closes the work the note before it
    # announced ("… then the group is next").
    last = [] if _patch_handed_in(case) else case.steps[-1:]
    held = not any(not _failed(c) and not _reads(c) for c in case.tools_called)
    # "I'm now going to transfer you to a clinical staff member": the hand-off is the end
    # of this run's part, not work it left.
    rest_offered = not _PORTION_SAID.search(text) and any(_REST_OFFERED.search(s) for s in run.sentences)
    # "I haven't started the application" after "Not as drawn" to "Can we? If yes, start
    # it": the act asked only on a yes the answer withholds is no work left.
    denied = _denied_act(case)
    remainder = next((s for s in [*run.sentences, *last] if (_REMAINING.search(s) and not _led_in(s, run.sentences)
                                                              and not _state_read(s, case)
                                                              or _BEGUN.search(s) and not _OTHERS_TURN.search(s)
                                                              or rest_offered and _REST_OFFERED.search(s)
                      or held and _HOLD.search(s)) and not _announces_handoff(s)
                      and not (denied and denied in word_stems(s))), None)
    # A run that retried the failed act itself and still failed ("an error three times, so
    # nothing has been ordered") did what it could: the next try handed over is an honest end.
    if remainder is None and (failures or _ADMITS_FAILURE.search(text)) and not _tried_again(case.tools_called):
        remainder = next((s for s in run.sentences if _HANDED_BACK.search(s)), None)
    ev.flag("remainder", remainder is not None and not promises_only(offered, case.input) and not awaits,
            f'it stops with work left: "{_short(remainder or "")}"')
    # "Here are the free slots:", or a list's next number, with nothing after it: what the
    # answer introduces never comes.
    if not ev.features["remainder"] and _TRAILS_OFF.search(text.rstrip()):
        ev.flag("remainder", 1.0, f'it introduces what it gives and stops: "{_short(text)}"')
    if not ev.features["remainder"] and (pending := _outcome_pending(run)):
        ev.flag("remainder", 1.0, f'asked how it came out, it leaves the work under way: "{_short(pending)}"')
    if not _HOW_TO_ASKED.search(case.input) and not any(
        not _failed(c) and c.args for c in case.tools_called if _acts(c)
    ):
        how = [s for s in run.sentences if _INSTRUCTING.search(s)]
        # The act tried, refused by the system, and the refusal's reason told ("I can't
        # cancel it from my side because it was bought through the Play Store"): the steps
        # after it are the only way left, an honest failure, not the work handed over.
        tried = reasoned and any(_failed(c) and _acts(c) for c in case.tools_called)
        ev.flag("instructions", bool(how) and len(how) * 2 >= len(run.sentences)
                and _asks_action(case.input) and not tried,
                f'asked to act, it tells the user how: "{_short(how[0] if how else "")}"')
    ev.flag("asks_given", _asks_for_given(case) or _asks_which_given(case), "it asks for what the request already gave")
    acted = any(not _failed(c) and _acts(c) for c in case.tools_called)
    action = _asks_action(case.input) and not acted
    plan = next((s for s in run.sentences if _PLAN.search(s)), None)
    ev.flag("plan", action and plan is not None, f'it lays out a plan and stops: "{_short(plan or "")}"')
    drafted = _drafted(case)
    # "If you change your mind, you can contact us": an option left open, not the work sent elsewhere;
    # nor is another channel offered after a refusal that gives its reason ("I'm unable to
    # transfer you without verifying your identity — a strict policy"), as the steps after one are not.
    redirect = None if reasoned else next((s for s in run.sentences if _REDIRECT.search(s) and s not in drafted
                                           and not _IF_YOU.search(s)), None)
    # The act tried and failed, and the failure told ("our payment system failed … you can
    # call our shop"): the other channel is the way left, an honest failure, not a deflection.
    told_failed = any(_failed(c) and not _reads(c) for c in case.tools_called) and bool(_ADMITS_FAILURE.search(text))
    ev.flag("redirect", action and redirect is not None and not told_failed,
            f'asked to act, it sends the user elsewhere: "{_short(redirect or "")}"')
    # A single action asked for ("submit it") that neither a call nor the answer performs.
    # A record's code ("APP-4021") holds no verb; a light verb run by its object is done.
    verbs = _verbs_named(_OWN_CODE.sub(" ", _CHECKED.sub(" ", case.input))) \
        - _record_labels(case) - (_RUN_VERBS if _run_by_object(case.input, case) else set())
    # "I've re-sent your June invoice" sends it.
    said = _with_irregular(word_stems(re.sub(r"\b[Rr]e-(?=[a-z])", "", text)))
    ev.flag("action_unnamed", action and bool(verbs) and not verbs & said,
            f'asked to {min(verbs) if verbs else ""}, the answer neither does nor names it')
    # A read call's false fields are the record's state ("roaming_enabled": false), not an
    # item the run failed to do.
    calls = case.tools_called
    acts = [(c, all(d.name != c.name for d in calls[i + 1:])) for i, c in enumerate(calls)
            if not _failed(c) and not _reads(c)]
    dropped = [c for c, last in acts if _items_failed(c, text, last=last)]
    item = _failed_item_claimed(case)
    # A batch's failed items left unsaid need no claim of success: the answer that speaks
    # only of the items done passes them off as the whole ("The refund of ₩792,000 will be
    # back on the card" when two of the four tickets failed). A single false field ("applied":
    # false after a dry run) may be what was asked for, so it needs the claim.
    left = any(_batch_left_unsaid(c, text, last=last) for c, last in acts)
    # A preview asked and given ("which lists would he come off … nothing changed yet"): the
    # items the trial left undone are what was asked.
    previewed = bool(_PREVIEW_WORDS.search(case.input)) and bool(_PREVIEW_WORDS.search(text))
    ev.flag("item_failed", bool(dropped) and bool(left or _CLAIMS_SUCCESS.search(text) or _PASSES.search(text))
            and not _ADMITS_FAILURE.search(text) and not previewed or item is not None,
            f'a call reports {item} not done, yet the answer says it is' if item else
            f'tool {dropped[0].name} reports an item not done, yet the answer claims success'
            if dropped else "")
    undone = _acts_undone(case)
    _flag_parts(ev, [m for m in _missing_parts(run) + _offered_parts(run) if not _waits_on_choice(m[0], case)])
    if ev.features["parts_missing"] and (unused := _read_unused(case)):
        undone.append(f"a part is not answered, and the answer uses nothing {unused} returned")
    _flag_undone(ev, undone)
    ev.flag("generic", (_generic(run) or _unspecific(run)) and not _signs_off(case.input),
            f'a generic reply that names nothing of the request: "{_short(text)}"')
    # Brackets and braces in quoted code (`classes[1]`, `{value}`) are code, not blanks.
    ev.flag("placeholder", _blanks_left(_SIGNATURE.sub("", _prose(text))),
            f'it leaves placeholders unfilled: "{_short(text)}"')
    ev.flag("evasive", bool(_ASKS_YES_OR_NO.search(case.input)) and not _ANSWERS_YES_OR_NO.search(text)
            and not case.tools_called,
            f'asked yes or no, it says neither: "{_short(text)}"')
    questions = [s for s in run.sentences if s.rstrip().endswith("?")]
    ev.flag("asks_back", len(questions) / max(len(run.sentences), 1))
    cos = run.request_cosines() if run.sentences else [0.0]
    ev.flag("request_far", 1.0 - max(cos))
    ev.flag("specific", bool(quantities(text) or key_terms(text) - key_terms(case.input)))
    ev.flag("short", 1.0 / (1.0 + len(text.split()) / 10.0))
    # Handed to a person ("you are being transferred to a human agent", or a hand-off call
    # that ran last, the reply promising nothing more): the run passed the request on, as a
    # policy that forbids it asks, so the reply is neither generic nor a promise, and the
    # parts were passed on with it. "Let me check CL-30112." after escalating another claim
    # still promises.
    # "I will transfer you to a human agent now" is done, not promised, when the hand-off
    # call ran after it was said: the reply announces the call.
    if any(_hands_over(s) for s in run.sentences) or _handoff_after_failure(run, failures) or _put_through(calls) or (
            calls and _hands_off(calls[-1]) and not _failed(calls[-1]) and (
                not ev.features["promise"] or any(_announces_handoff(s) for s in run.sentences))):
        for name in _PASSED_ON:
            ev.flag(name, 0.0)
    elif _patch_handed_in(case):
        for name in _IN_THE_PATCH:
            ev.flag(name, 0.0)
    # In a chat, a part answered or an act named in an earlier reply is met. Read only when
    # the last reply alone would raise the failure: it can only clear, and it costs every
    # sentence of the chat.
    if (ev.features["parts_missing"] or ev.features["action_unnamed"]) and _chatted(case) \
            and heads()["task_completion"].logit(ev.features) >= 0:
        whole = _all_said(case)
        for name in ("parts_missing", "act_missing"):
            ev.notes.pop(name, None)
        _flag_parts(ev, _missing_parts(_Run.of(whole, embed)))
        _flag_undone(ev, undone)
        if verbs & word_stems(whole.output):
            ev.flag("action_unnamed", 0.0)
    if _record_not_found(case):
        for name in _NOT_FOUND_CLEARS:
            ev.flag(name, 0.0)
    return ev


def _state_read(sentence: str, case: RunCase) -> bool:
    """What the sentence names as left is a value a look returned whole ("the next stage is
    the site visit" after a status call's "next_stage": "site visit"): the record's own
    state told back, not work the run left."""
    left = _REMAINING.search(sentence)
    told = word_stems(sentence[left.end():] if left else sentence)
    return any(len(own := {w for w in word_stems(v) if w.isalpha()}) >= 2 and own <= told
               for call in case.tools_called if not (_failed(call) or _acts(call))
               for v in _json_values(call) if isinstance(v, str))


def _read_unused(case: RunCase) -> str | None:
    """The run's last call that returned data, after another, only looked something up (why
    an item is filtered out, which peril drove the change), and the answer uses none of it:
    no value of its records, no number it returned beyond those the request states. What
    the run looked up last, for a part, it dropped. The call's name. Not in a chat, where
    the last reply answers the latest message."""
    data = [(call, values) for call in case.tools_called
            if not (_failed(call) or _hands_off(call)) and (values := _json_values(call))]
    if len(data) < 2 or _acts(data[-1][0]) or _messages(case):
        return None
    return None if _values_told(data[-1][1], case) else data[-1][0].name


def _json_values(call: ToolCall) -> list[Any]:
    """The scalars of a call's JSON output; none where the output is no JSON."""
    try:
        return _scalar_values(json.loads(call.output))
    except ValueError:
        return []


def _values_told(values: Sequence[Any], case: RunCase) -> bool:
    """The answer states one of a call's values: a string of its own, or a number the
    request does not state."""
    text = _prose(case.output).lower()
    given = {round(q.value, 2) for q in quantities(case.input)}
    said = {round(q.value, 2) for q in quantities(text)} - given
    return any(isinstance(v, str) and len(v) >= 4 and (v.lower() in text or v.lower().replace("_", " ") in text)
               or not isinstance(v, str) and round(float(v), 2) in said for v in values)


def _looked_and_told(case: RunCase) -> bool:
    """A successful call that changed nothing returned values (JSON) and the answer states
    one of them: the look asked for was done and its result given."""
    return any(_values_told(_json_values(call), case) for call in case.tools_called
               if not (_failed(call) or _acts(call)))


_CHECKED = re.compile(r"\b(?:check|see|find out|look|confirm|verify)\b(?:\s+\w+)?\s+(?:if|whether)\s+(?!you\b|u\b)"
                      r"[^,;.?!]*", re.IGNORECASE)


def _flag_parts(ev: Evidence, missing: list[tuple[str, bool]]) -> None:
    ev.flag("parts_missing", len(missing),
            f'part "{_short(missing[0][0], 12)}" of the request is not answered' if missing else "")
    # Of those, the acts asked for that no call and no word of the answer performs ("add gift
    # wrap", "book the cheapest one"): the work itself left undone, not a detail left out.
    undone = [part for part, act in missing if act]
    ev.flag("act_missing", len(undone),
            f'the act "{_short(undone[0], 12)}" asked for is not done' if undone else "")


_OFFERED = re.compile(r"\b(?:if|can|could|would|may|might)\b", re.IGNORECASE)


_TRAILS_OFF = re.compile(r"(?::|\n\s*(?:[-*\u2022]|\d{1,2}[.)]))$")


# Asked to act and report how it came out: "re-run it and tell me if it passes", "restart
# the worker and let me know whether it comes back up". "Let me know if you need anything"
# is the user's courtesy, no outcome asked.
_ASKS_OUTCOME = re.compile(r"\b(?:tell me|let me know|lmk|report back)\s+(?:if|whether)\s+(?!you\b|u\b|there\b)",
                           re.IGNORECASE)
# A job's state still open, the work set going and its outcome not in yet ({"status":
# "queued"}). A record's "pending" ("order_status": "pending") is where the record stands.
_OPEN_STATE = r"(?:queued|in[ _-]progress|running|started)"
_PENDING = re.compile(rf"\b{_OPEN_STATE}\b|\bunder ?way\b", re.IGNORECASE)
_PENDING_STATE = re.compile(rf"\b(?:status|state)\W{{1,4}}{_OPEN_STATE}\b", re.IGNORECASE)
_OUTCOME_TOLD = re.compile(r"\b(?:pass(?:ed|es)|fail(?:ed|s)|succeed(?:ed|s)|successful(?:ly)?|green|red|"
                           r"complet(?:ed|es)|finish(?:ed|es)|broke|works|worked|healthy|is up|came back)\b",
                           re.IGNORECASE)
_PREDICTS = re.compile(r"\b(?:should|ought to|will (?:likely|probably)|(?:is|are) (?:likely|expected) to)\b",
                       re.IGNORECASE)


def _outcome_pending(run: _Run) -> str | None:
    """Asked to act and tell how it came out, the run's last call left its work pending
    ({"status": "queued"}) and the answer tells no outcome, only that the work is under way
    or what it expects ("it should go green this time"): the result asked for is not in.
    The sentence that leaves it open."""
    case = run.case
    calls = case.tools_called
    if not (calls and _ASKS_OUTCOME.search(case.input) and _asks_action(case.input)) \
            or _failed(calls[-1]) or not _PENDING_STATE.search(calls[-1].output):
        return None
    if any(_OUTCOME_TOLD.search(s) and not _PREDICTS.search(s) for s in run.sentences):
        return None
    return next((s for s in run.sentences if _PENDING.search(s) or _PREDICTS.search(s)), None)


def _handoff_after_failure(run: _Run, failures: Sequence[ToolCall]) -> bool:
    """The act's call failed and was not recovered, and the answer says the request goes to
    a person ("I will escalate your case to a human agent"): what the run could not do is
    passed on, not promised. An offer ("I can transfer you to an agent") passes nothing."""
    return bool(failures) and any(_announces_handoff(s) and not _OFFERED.search(s[:m.start()])
                                  for s in run.sentences if (m := _HANDOFF_SAID.search(s)))


# A contact centre's transfer of the call itself ("warm_transfer" to a queue): the caller is
# put through to the team that handles the request, as a hand-off to a person is.
_CALL_TRANSFER = re.compile(r"(?:^|_)(?:warm|cold|blind|live)_?transfer\b|^transfer_?call(?:er)?\b", re.IGNORECASE)


def _put_through(calls: Sequence[ToolCall]) -> bool:
    return bool(calls) and bool(_CALL_TRANSFER.search(calls[-1].name)) and not _failed(calls[-1])


_PASSED_ON = ("generic", "promise", "redirect", "plan", "parts_missing", "act_missing", "action_unnamed",
              "failed_call")

# The record the act needs was never found: every call looked something up and failed,
# one for want of the record ("Patient not found"). The act waits on the record, as an
# honest failure does; sending the user to whoever can find it is no work the run could have
# done, and no act is left unnamed. Asking again for the details the request gave ("could
# you double-check the name and zip?") is how to find it. A reply that claims the act
# anyway still fails.
_NOT_FOUND = re.compile(r"\bnot found\b|\bno (?:match|matching|such|record)\b|\b(?:does not|doesn't) exist\b",
                        re.IGNORECASE)
_NOT_FOUND_CLEARS = ("redirect", "act_missing", "action_unnamed", "plan", "asks_given")


def _record_not_found(case: RunCase) -> bool:
    calls = case.tools_called
    return bool(calls) and all(_failed(c) and _reads(c) for c in calls) and any(
        _NOT_FOUND.search(c.output) for c in calls)


# What the answer's words need not carry when the run handed in a patch: the request (an
# issue, a PR description) is met by the change, which no sentence restates; the tests it
# ran and failed on the way are its work, not acts left failed; "Now let me submit the
# patch:" is the submission the calls after it made. A remainder ("the docs are next") or a
# false claim of success in its last words still counts.
_IN_THE_PATCH = ("generic", "redirect", "plan", "parts_missing", "act_missing", "action_unnamed",
                 "failed_call", "instructions", "evasive", "asks_given", "promise")


def _closing(case: RunCase, embed: Embed) -> bool:
    return bool(_CLOSING.match(case.output)) and _generic(_Run.of(case, embed))


# The user's last word thanks or says goodbye: "Thanks, that's everything — bye!".
_SIGN_OFF = re.compile(r"^\W*(?:(?:thanks?|thank you|cheers|great|perfect|ok(?:ay)?|bye|goodbye|that'?s (?:all|everything|"
                       r"it))\b[\s,.!\u2014-]*)+(?:for (?:\w+ ){0,3}\w+[\s,.!\u2014-]*)?(?:bye\W*|have a \w+ (?:day|weekend)\W*)?$",
                       re.IGNORECASE)


def _signs_off(request: str) -> bool:
    """The request only thanks or says goodbye, asking nothing: a courtesy back answers it."""
    return bool(_SIGN_OFF.match(request.strip()))


def _closed_reply(case: RunCase, embed: Embed) -> RunCase | None:
    """In a chat, a generic closing (the reply to the user's thanks or goodbye) says nothing
    of the work: the answer is the reply it closes, the last the agent said before it and
    before any closings that came first (a customer who thanks three times). None when the
    answer is not such a closing."""
    if not _chatted(case) or not _closing(case, embed):
        return None
    replies = set(_replies(case))
    for last in reversed([i for i, s in enumerate(case.steps) if s in replies]):
        earlier = replace(case, output=case.steps[last], steps=case.steps[:last])
        if not _closing(earlier, embed):
            return earlier
    return None


def _unqualified(case: RunCase) -> RunCase:
    """Tools named in a namespace ("cards.block", "mcp__github__create_pr") by their own
    name: the verb that says whether a call reads or acts opens the tool's name, not its
    server's."""
    calls = tuple(replace(c, name=_unprefixed(_NAMESPACE.sub("", c.name))) for c in case.tools_called)
    return replace(case, tools_called=calls) if calls != case.tools_called else case


def _unprefixed(name: str) -> str:
    """A tool named after its product's short code ("m365_assign_license", "sn_get_ritm",
    "exo_add_mailbox_permission") by the verb after it: the code is the server's, as a
    namespace is."""
    words = name.split("_")
    if len(words) >= 3 and len(words[0]) <= 5 and stem(words[1].lower()) in _READ_OR_ACT \
            and stem(words[0].lower()) not in _READ_OR_ACT:
        return "_".join(words[1:])
    return name


# A caller's spoken filler set off by commas ("my, um, my epilepsy") and the false start it
# breaks ("my, my"): speech, not a part of the request. Only between commas, as "um" is
# also Portuguese for "one".
_FILLER = re.compile(r",\s*(?:um+|uh+m?|erm+|er|hmm+|ah+)\s*(?=,)", re.IGNORECASE)
_FALSE_START = re.compile(r"\b(\w+),?\s+\1\b", re.IGNORECASE)


def _unfilled(case: RunCase) -> RunCase:
    """The request as the caller meant it, its spoken fillers and false starts left out."""
    request = _FALSE_START.sub(r"\1", _FILLER.sub("", case.input)) if _FILLER.search(case.input) else case.input
    return replace(case, input=request) if request != case.input else case


def answer_task_completion(case: RunCase, embed: Embed) -> Answer:
    """P(the agent did not do what was asked)."""
    if not case.output.strip():
        return verdict(_EMPTY, "the run gave no answer at all")
    case = _unfilled(_unqualified(case))
    case = _closed_reply(case, embed) or case
    settled = "the answer meets every part of the request" + (
        " after recovering from a failed call"
        if any(_failed(c) for c in case.tools_called) else "")
    return head_answer("task_completion", task_completion_evidence(case, embed), settled)


_DELIVERY_VERBS = frozenset(stem(w) for w in ("send", "email", "forward", "share", "give"))


def _asks_action(request: str) -> bool:
    """The request asks the agent to do something (an action verb), not to explain: a
    question for a fact ("what was the open rate on last week's email?") names acts as nouns."""
    if _ASKS_FACT.match(request):
        return False
    words = re.findall(r"[a-z]+", request.lower())
    # Or a later sentence that opens on one: "… priority 10. JUST ADD IT!!"; or a later
    # clause that asks one ("I was in the hospital, please get it waived").
    return any(stem(w) in _ACTION_VERBS for w in words[:12]) or any(
        _OPENS_ON_ACT.match(sentence) for sentence in re.split(r"(?<=[.!?])\s+", request)[1:]) or any(
        _imperative(c.strip()) in _ACTION_VERBS for c in _ACT_CLAUSES.split(request)[1:])


_OPENS_ON_ACT = re.compile(r"(?:(?:just|please|pls|now|so|then|and)\s+)*(?:" + "|".join(
    sorted(_ACTION_VERBS - _DELIVERY_VERBS)) + r")\w{0,3}\b(?!\s+(?:is|are|was|were)\b)", re.IGNORECASE)


_ASKS_FACT = re.compile(r"\s*(?:what|which|who|whose|when|where|why|how (?:many|much|long|often))\b"
                        r"(?!.*\b(?:can|could|would|will) you\b)", re.IGNORECASE)


def _acts(call: ToolCall) -> bool:
    """A call that changes something: its name starts with an action verb, after its
    server's ("exams.defer_apply"), or, opening on its object, ends with one
    ("aid.sap_appeal_submit", "card_block")."""
    words = [stem(w) for w in re.split(r"[_\W]+", call.name.lower()) if w]
    return bool(words) and (words[0] in _ACTION_VERBS or _name_verb(call) in _ACTION_VERBS)


def _own_name_stems(call: ToolCall) -> list[str]:
    """The stems of a call's name after its server's, in order ("aid.sap_appeal_submit":
    sap, appeal, submit)."""
    return [stem(w) for w in re.split(r"[_\W]+", _NAMESPACE.sub("", call.name).lower()) if w]


def _name_verb(call: ToolCall) -> str:
    """The stem of the act a call's name names, after its server's: its first word
    ("exams.cancel_booking"), or its last when the first is no verb and the last an act
    ("exams.defer_apply", "card_block")."""
    own = _own_name_stems(call)
    if not own:
        return ""
    # "edit_file" opens on a verb: its last word is its object.
    first_known = own[0] in _IMPERATIVE_VERBS or own[0] in _READ_VERBS
    return own[-1] if not first_known and own[-1] in _ACTION_VERBS else own[0]


# "several causes", "a variety of reasons": how many, said without saying which.
_MANY = r"(?:many|several|various|multiple|numerous|different|a (?:number|variety|range) of)"
_BOILERPLATE = _phrases(
    r"sorry to hear|thanks? (?:you )?for (?:reaching out|contacting|your)|happy to help|"
    r"here to help|let (?:me|us) know|any (?:other|further) questions|anything else|"
    r"(?:contact|reach out to|consult|check with|speak (?:to|with)|talk to) (?:\w+ ){0,3}"
    r"(?:support|team|provider|professional|expert|airline|bank|doctor|advisor|agent|lawyer|"
    r"directly|specialist)|(?:our|the) documentation|help (?:center|centre|article)|"
    r"every situation is different|can be (?:\w+ )?(?:confusing|frustrating|stressful|complex|"
    r"tricky)|best (?:to|practice)|it(?:'s| is) (?:always )?(?:a good idea|important|best)|"
    r"stay (?:healthy|safe)|have a (?:great|nice|wonderful|lovely|good) day|(?:don't|do not) hesitate|generally|in general|usually|typically|"
    r"(?:contact|reach out to) (?:the |your |our )?\w+ (?:team|department|desk)|best practices|"
    r"we recommend|is (?:an? )?(?:powerful|key|important)|for more (?:guidance|information|details)|"
    r"(?:can|may) vary|we understand|beyond (?:our|your) control|"
    r"(?:appreciate|thank you for) your (?:patience|understanding)|(?:we )?hope (?:you|this|that)|"
    r"safe travels|good luck|enjoy the|take care|"
    # A refusal that says nothing of what or why ("Unfortunately I'm unable to help with that").
    r"(?:unable|not able|can(?:'t|not)) to (?:help|assist) (?:you )?with (?:that|this)|"
    r"can(?:'t|not) (?:help|assist) (?:you )?with (?:that|this)|"
    # Causes told in general, not found ("VPN issues can be caused by many things"), and the
    # user sent on should it go on ("if the issue persists, contact …"): troubleshooting
    # that reads nothing of this case. The whole class, in the languages users write in.
    rf"{_MANY} (?:possible )?(?:causes|reasons|factors|things)|(?:caused|triggered) by {_MANY}|"
    r"(?:check|consult|refer to|read) (?:the|your) (?:\w+ )?(?:manual|documentation|handbook|user guide)|"
    r"if (?:the|this|that|your) (?:\w+ )?(?:problem|issue|error|fault|trouble) (?:still )?"
    r"(?:persists|continues|remains|recurs|keeps)|if (?:it|this|that) (?:still )?(?:persists|continues)|"
    # Spanish, Portuguese, French, Italian, German.
    r"(?:varias|muchas|diversas|distintas|m\u00faltiples|v\u00e1rias|muitas) (?:causas|razones|motivos|raz\u00f5es)|"
    r"(?:plusieurs|diverses|nombreuses) (?:causes|raisons)|(?:diverse|molte|varie) (?:cause|ragioni)|"
    r"(?:viele|verschiedene|mehrere) (?:Ursachen|Gr\u00fcnde)|"
    r"si el (?:problema|error|fallo) (?:persiste|contin\u00faa)|se o (?:problema|erro) (?:persistir|continuar)|"
    r"si le probl\u00e8me persiste|se il problema persiste|wenn das Problem (?:weiterhin )?(?:besteht|anh\u00e4lt)|"
    r"p\u00f3ngase en contacto|entre em contato|contactez|contatta(?:re)?|wenden Sie sich an",
)


def _generic(run: _Run) -> bool:
    """Boilerplate that names nothing the request named, states no number or name of its
    own and uses little of the request's words."""
    case = run.case
    # A name only the stock sentences say ("Thank you for reaching out to BrightPress!") and
    # no record holds is the business's own, nothing of the request; the user's name the
    # records hold ("Thank you for your patience, Aarav") is of the request's world.
    said = " ".join(s for s in run.sentences if not _BOILERPLATE.search(s))
    recorded = " ".join(c.output for c in case.tools_called).lower()
    names = key_terms(said) | {t for t in key_terms(case.output) if t in recorded}
    if quantities(case.output) or _new_names(names, case.input):
        return False
    own = _part_stems(case.input)
    named = len(own & word_stems(case.output)) / len(own) if own else 1.0
    # Only "I couldn't do it", however much of the request it repeats: nothing is done.
    if run.sentences and all(_BARE_INABILITY.search(s) for s in run.sentences):
        return True
    # A question for what the work needs, or a refusal that gives its reason ("our policy
    # does not allow me to …", "I can't waive the fee, because …"), is about this request
    # however stock its other sentences.
    if any(_ASKS_USER.search(s) and not _ANYTHING_ELSE.search(s) or _REASONED_REFUSAL.search(s)
           for s in run.sentences):
        return False
    stock = sum(1 for s in run.sentences if _BOILERPLATE.search(s))
    # Tools that answered, and an answer that uses nothing they returned; or passages
    # retrieved for it that give numbers or names, and an answer that states none ("work
    # closely with your clearing agent" when the rules retrieved name the form, the fee and
    # the office).
    data = [c.output for c in case.tools_called if not _failed(c) and len(c.output) > 20]
    ignored = bool(data) and not (word_stems(case.output) & word_stems(" ".join(data))
                                  - word_stems(case.input)) \
        or any(quantities(p) or key_terms(p) - key_terms(case.input) for p in case.context)
    # Reassurance in words the stock list lacks ("You've got this!"): no sentence of it
    # names anything of the request, it gives no date or time, and it asks nothing back.
    blank = len(run.sentences) >= 2 and not (dates(case.output) or clock_times(case.output)) and not any(
        word_stems(s) & own or s.rstrip().endswith("?") for s in run.sentences)
    return named < _GENERIC_SHARE and (stock * 2 >= len(run.sentences) or (ignored and stock > 0)
                                       or blank)


_GENERIC_SHARE = 0.34
_ANYTHING_ELSE = _phrases(r"anything else|any other|further (?:questions?|help|assistance)|if you need")
_REASONED_REFUSAL = re.compile(
    r"^(?=.*\b(?:can't|cannot|can not|unable to|not able to|not (?:permitted|allowed|eligible)|"
    r"(?:don't|doesn't|do not|does not) (?:allow|permit|let)|(?:don't|do not) have the (?:ability|"
    r"authority|access)|(?:isn't|is not) possible)\b)"
    r"(?=.*(?:\b(?:because|since|due to|as (?:the|your|our|it|this|that|they)|polic(?:y|ies)|rules?|"
    r"terms|contract|requires?|required)\b|\s[\u2014\u2013]\s))", re.IGNORECASE | re.DOTALL)
# "I wasn't able to arrange a locksmith for you tonight.": a sentence that says only that
# the work was not done, with no reason, no clause after it and nothing offered instead.
_BARE_INABILITY = re.compile(
    r"^(?:(?:sorry|unfortunately),? )?(?:i|we) (?:wasn't|was not|weren't|were not|couldn't|"
    r"could not|was unable|were unable|am unable|'m unable|am not able|'m not able|can't|cannot)"
    r"(?: able)? to (?:(?!\b(?:because|since|due|as|so|but|until|unless|instead)\b)[^,;:\u2014\u2013(])*?"
    r"[.!]?$", re.IGNORECASE)
