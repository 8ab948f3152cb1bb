"""The embedded judge's task answers: did the run do what was asked, the thing asked, and
stay on it?

- TASK_COMPLETION reads the request's parts against the answer (each part must be met by
  the answer's words or by one of its sentences in meaning), the tool calls (a failed call
  followed by a claim of success), and the answer's form (a promise of future work, a
  remainder announced as "next", instructions where an action was asked for, a question
  for something the user already gave, a reply that names nothing of the request).
- TASK_UNDERSTANDING_FAILURE looks for the answer addressing a sibling of what was asked:
  the request's names (acronyms, capitalised names, codes) missing from a complete answer
  that names others of the same kind instead; and for another task told in plain words
  (another act stated as the answer's purpose, a value asked for and never given, another
  kind of text or sender, someone else's thing answered as the user's).
- OFF_TOPIC_DRIFT finds the sentences and steps that relate neither to the request nor
  to the context the run retrieved, and how much of the run they take after it started
  on topic, or in steps that go off to other work.

Each reads a case into named evidence (``*_evidence``); the learned head of its evaluator
(``_head.py``, trained by calibration/train_heads.py) weighs it into the answer.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from itertools import combinations, pairwise
from typing import Any

from ...case import RunCase, ToolCall
from .._types import Answer
from ._answerer import Embed
from ._claims import (
    _COMMON_CAPITALS,
    _TITLES,
    _WORD_NUMBERS,
    _words,
    clauses,
    clock_times,
    date_supported,
    dates,
    head,
    is_refusal,
    key_terms,
    promises_only,
    quantities,
    request_parts,
    split_claims,
    stem,
    tool_text,
    verdict,
    word_stems,
    written_call,
)
from ._head import Evidence, head_answer, heads

__all__ = ["answer_off_topic_drift", "answer_task_completion", "answer_task_understanding_failure"]

# --- shared ---------------------------------------------------------------------------

_MAX_UNITS = 48  # sentences or steps read, in order: bounds the time on a very long run
_EMBED_WORDS = 24  # words of a text embedded (its subject is stated early; time grows with tokens)

# Words of asking, not of the thing asked: a part is met by its other words.
_REQUEST_WORDS = frozenset(stem(w) for w in """please can could would you tell me give show
    let know need want help check find get i my our us what whats what's how when where why who
    which is are do does there any some the a an and also just quickly asap thanks thank hi hey
    hello pls plz kindly whether about for of on in to with from""".split())  # noqa: SIM905
# Words for what is asked about a thing (its time, limit, price), not for the thing: a
# right answer may give the value without the word.
_ATTRIBUTE_WORDS = frozenset(stem(w) for w in """time date day limit much many long price cost
    rate amount number status detail details info information option options way kind type
    total current today now next last new right""".split())  # noqa: SIM905


def _phrases(alternatives: str) -> re.Pattern[str]:
    """Any of the alternatives (``a|b|c``, regular expressions) as whole words, in any case."""
    return re.compile(rf"\b(?:{alternatives})\b", re.IGNORECASE)


def _short(text: str, words: int = 14) -> str:
    parts = text.split()
    return " ".join(parts[:words]) + (" …" if len(parts) > words else "")


# What a text quotes rather than says: code in a fenced block or an inline span, and the
# links it cites. A coding request (an issue) and a coding agent's notes quote code, logs
# and tracebacks; the ids, numbers and names in them are the code's, not a record the user
# named or a case the run took up.
_FENCED = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
_QUOTED = re.compile(_FENCED.pattern + r"|`[^`\n]+`|\bhttps?://\S+", re.DOTALL)


def _prose(text: str) -> str:
    return _QUOTED.sub(" ", text)


@dataclass
class _Run:
    """A case with its sentences embedded once, for the three answers to share."""

    case: RunCase
    embed: Embed
    sentences: list[str]
    vectors: Any = None  # rows: the request, then the answer's sentences

    @classmethod
    def of(cls, case: RunCase, embed: Embed) -> _Run:
        return cls(case, embed, split_claims(case.output)[:_MAX_UNITS])

    def ensure(self) -> None:
        if self.vectors is None:
            self.vectors = self.embed([head(t, _EMBED_WORDS) for t in [self.case.input, *self.sentences]])

    def request_cosines(self) -> list[float]:
        self.ensure()
        return [float(self.vectors[0] @ self.vectors[i + 1]) for i in range(len(self.sentences))]

    @cached_property
    def acted_on(self) -> set[str]:
        """The words of the arguments of the calls that acted (not failed, read or handed
        off): whom and what the run's acts were for."""
        return set(re.findall(r"[^\W\d_]+", " ".join(
            json.dumps(c.args, ensure_ascii=False) for c in self.case.tools_called
            if not _failed(c) and not _reads(c) and not _hands_off(c)).lower()))

    @cached_property
    def answer_names(self) -> set[str]:
        return _names(self.case.output)


# A chat: the agent asked the user something before its last reply, so the user answered
# and the chat went on. The case's request is the user's first message, but the last reply
# answers their latest one (a question about parking after the booking was moved, "You're
# welcome!" after thanks); what the run told the user about the request may be in any of
# its replies. An importer writes a turn that only called tools as ``name({...})``: work,
# not words to the user.
_RENDERED_CALL = re.compile(r"[A-Za-z_][\w.]*\((?:\{.*\})?\)", re.DOTALL)


def _is_rendered_call(text: str) -> bool:
    return bool(text.strip()) and all(
        _RENDERED_CALL.fullmatch(line.strip()) for line in text.splitlines() if line.strip())


def _replies(case: RunCase) -> list[str]:
    """The agent's earlier words to the user: its steps, less rendered tool calls."""
    return [s for s in case.steps if s.strip() and not _is_rendered_call(s)]


def _conversed(case: RunCase) -> bool:
    return any("?" in s for s in _replies(case))


def _all_said(case: RunCase) -> RunCase:
    """The case with everything the agent said to the user as its answer."""
    return replace(case, output="\n\n".join([*_replies(case), case.output]))


# --- TASK_COMPLETION ------------------------------------------------------------------

_EMPTY = 5.0  # no answer at all: nothing was done
_PART_COS = 0.45  # a sentence at this cosine to a part addresses it
_PART_STEMS = 0.5  # or this share of the part's own content words is in the answer
_PART_COS_WORDS = 3

_FAILED_OUTPUT = re.compile(
    r"\"?(?:error|errors|exception|fault)\"?\s*[:=]|\b(?:timed out|timeout|failed|failure|"
    r"denied|forbidden|unauthori[sz]ed|not found|exceeded|invalid|unavailable|refused|"
    r"rejected|declined)\b|\"ok\"\s*:\s*false|\"success\"\s*:\s*false",
    re.IGNORECASE,
)
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
    # "I tried, but pauses aren't available on annual memberships".
    r"tried,? but|(?:isn't|aren't|is not|are not) (?:available|allowed|permitted)",
)
_REMAINING = re.compile(
    # An ellipsis that ends a sentence, or opens one after a list ("…and so on through the
    # year"): it stands for the items not given.
    r"(?:\.\.\.|…)\s*$|^(?:\.\.\.|…)|\b(?:(?:is|are) next|next,? i(?:'ll| will)|next up|"
    # The user's part is no work the run left ("you would still need to pay $40"), nor is
    # what a choice would require ("the $192 difference would still need to be paid").
    r"(?<!you )(?<!would )(?<!you'd )(?<!you will )(?<!you'll )still (?:need|have) to|"
    r"now (?:looking|checking|working|reviewing|going)|"
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
    r"first (?:batch|part|step|half) of|(?:the )?next step(?:s)? (?:is|are|will be)|^next(?=\s*:)|"
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


# After a failure, the retry handed back to the user: the work is left, not done.
_HANDED_BACK = re.compile(r"\b(?:try|retry|resubmit)(?: it| this| that| again)* (?:later|tomorrow|"
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
_ASKING = re.compile(
    r"\b(?:could|can|would) you (?:please )?(?:provide|give|share|confirm|tell|send|let me know)|"
    r"please (?:provide|share|confirm|send|tell)|what(?:'s| is) your|which (?:\w+ )?(?:would|do|did)"
    r" you|may i (?:have|ask)|i(?:'ll| will) need your|can i (?:have|get) your",
    re.IGNORECASE,
)
# A reply that asks the user for what the work needs ("I can look you up with your name and
# date of birth. Please go ahead and share those with me."): what it says it can do, and the
# work still to do, wait on the user's answer; it is a question, not work put off.
_ASKS_USER = re.compile(_ASKING.pattern + r"|\bplease (?:go ahead and |just )?(?:provide|share|send|"
                        r"give|tell)\b|\b(?:just |please )?share (?:those|these|them|it|that) with me\b|"
                        r"\b(?:could|can|would) you (?:please )?(?:tell|give|send) me\b", re.IGNORECASE)


# A tool that refuses answers "Error: not enough seats" (tau's tools) or {"error": …}, and
# a framework that only saw the call return still records it as made: an output that
# opens on an error failed, whatever the flag says.
_OPENS_ON_ERROR = re.compile(r"\s*\{?\s*\"?error\"?\s*[:=]", re.IGNORECASE)


def _failed(call: ToolCall) -> bool:
    return call.success is False or bool(_OPENS_ON_ERROR.match(call.output)) or (
        call.success is None and bool(_FAILED_OUTPUT.search(call.output[:400]))
    )


def _name_stems(call: ToolCall) -> frozenset[str]:
    """The stems of the words of a call's name ("notice_send": notice, send)."""
    return word_stems(call.name.replace("_", " "))


def _call_verb(name: str) -> str:
    """The stem of a call name's first word, the act it names ("get_order" reads, "cancel_order" cancels)."""
    return stem(re.split(r"[_\W]+", name.lower())[0])


def _json_outputs(calls: Sequence[ToolCall]) -> Iterator[tuple[ToolCall, Any]]:
    """The succeeded calls whose output is JSON, each with its parsed output."""
    for call in calls:
        if _failed(call):
            continue
        try:
            yield call, json.loads(call.output)
        except ValueError:
            continue


def _unrecovered_failures(calls: Sequence[ToolCall]) -> list[ToolCall]:
    """Failed calls with no later successful call that retried or redid them."""
    return [call for i, call in enumerate(calls) if _failed(call) and not any(
        _retries(c, call, calls[:i]) or _redoes(c, call) for c in calls[i + 1:] if not _failed(c))]


def _retries(later: ToolCall, failed: ToolCall, earlier: Sequence[ToolCall]) -> bool:
    """A later call of the failed call's tool retried it, unless the run was acting item by
    item (a backfill a partition a call, one that worked before the failure): then the next
    item's call is no retry, and only a call that carries a value of the failed item's own
    (not one the items share) retried it."""
    if later.name != failed.name:
        return False
    if _reads(failed):
        return True
    done = {v for c in earlier if c.name == failed.name and not _failed(c) for v in _arg_values(c)}
    own = _arg_values(failed) - done
    return not done or not own or bool(own & _arg_values(later))


def _arg_values(call: ToolCall) -> frozenset[str]:
    """The call's argument values, a list's items each one."""
    return frozenset(str(x) for v in call.args.values()
                     for x in (v if isinstance(v, list) else [v]) if x not in (None, ""))


def _redoes(later: ToolCall, failed: ToolCall) -> bool:
    """Another tool did the failed call's work: it is no read or hand-off and is given every
    value the failed call was (the exchange refused for an order not yet delivered, redone as
    a change to the pending order: the same order, items and payment)."""
    given = _arg_values(failed)
    return bool(given) and given <= _arg_values(later) and not _reads(later) and not _hands_off(later)


# "whats the best grind", "hows the weather": a question word run into its verb, as terse
# and non-native requests write it, still opens a question (a part, not background).
_RUN_IN_ASK = re.compile(r"\b(what|how|where|who|when)s\b", re.IGNORECASE)


def _parts(request: str) -> list[str]:
    """The request's parts (``request_parts``), its run-in question words read apart."""
    return request_parts(_RUN_IN_ASK.sub(r"\1 is", request))


def _part_stems(part: str) -> frozenset[str]:
    return frozenset(s for s in word_stems(part) if s not in _REQUEST_WORDS)


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
        return [] if _COVERS_ALL.search(run.case.output) else _pair_missed(one, run, bool(_part_acts(one)))
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
        undone = bool(verbs) and not any(_acts_of({v}) & (told - others | tools[i]) for v in verbs) \
            and not (_phrasal_act(part) and _phrasal_act(part) == _phrasal_act(run.case.output))
        # A short part ("the root cause") embeds too loosely for its cosine to count.
        met = (share >= _PART_STEMS or (len(own) >= _PART_COS_WORDS and best >= _PART_COS)
               or _kind_met(part, run.case.output) or _amount_met(part, run.case.output)
               or _outcome_told(part, run.case.output)
               or _act_told(part, verbs, answer, tools[i], run.case))
        if _placed(part, answer, run.case) or _looks_first(part) and _looked_and_told(run.case) \
                or _run_by_object(part, run.case) or _carried_in_act(part, answer, run.case) \
                or _superlative_told(part, run.case):
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
                or refused and not verbs and "?" not in part:
            met, undone = True, False
        if undone or not met:
            missing.append((part, undone or _value_left(part) or _choice_left(part, run.case)
                            or _item_left(part, parts, run) or _list_item_left(part, run.case.input)))
        elif not _COVERS_ALL.search(run.case.output):
            missing += _pair_missed(part, run, bool(verbs))
    return missing


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


_NAME = re.compile(r"\b[A-Z][a-z]{2,}\b")


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
    told = set(_TIME_OR_ID.findall(case.output)) - set(_TIME_OR_ID.findall(case.input))
    return any(t in f"{json.dumps(c.args)} {c.output}" for c in case.tools_called
               if not _failed(c) and _call_verb(c.name) in acts for t in told)


_TIME_OR_ID = re.compile(r"\b\d{1,2}:\d{2}\b|\b(?=[\w-]*\d)(?=[\w-]*[A-Z])[\w-]{3,}\b")
_ASKS_IF_DONE = re.compile(r"^(?:and |then )?(?:tell me|let me know|confirm)\s+(?:if|whether)\b", re.IGNORECASE)


def _outcome_told(part: str, answer: str) -> bool:
    """ "tell me if it worked" is met by the outcome said, in any words ("The second attempt
    succeeded", "it failed again")."""
    return bool(_ASKS_IF_DONE.match(part)) and bool(_CLAIMS_SUCCESS.search(answer) or _ADMITS_FAILURE.search(answer)
                                                    or re.search(r"\bsucceed\w*|\bworked\b", answer, re.IGNORECASE))


def _names(text: str) -> set[str]:
    """The names a text gives (Milo, Pieter): days, months, request words and the word a
    sentence opens on ("Reset my VPN password") aside."""
    return {m.group(0).lower() for m in _NAME.finditer(text) if text[:m.start()].strip(" \t\"'(") and
            not re.search(r"[.!?:;\n]\W*$", text[:m.start()])
            and stem(m.group(0).lower()) not in _REQUEST_WORDS and m.group(0).lower() not in _COMMON_CAPITALS}


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
        first = _call_verb(c.name)
        for i in range(len(parts)):
            if shared[i] or not any(shared) or first in acts[i]:
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


# The lead before a request's act: a greeting, "please", "can you", "I want to".
_ACT_LEAD = re.compile(r"^(?:(?:hello|hi|hey|ok|okay|also|and|then|so|please|pls|plz|kindly)\b[,!]?\s*)*"
                       r"(?:(?:can|could|would|will) (?:you|u) (?:please )?|"
                       r"i(?:'m| am)? (?:want|need|would like|'d like|wanting)(?: you)? to )?", re.IGNORECASE)


# "Order confirmation and chat with the seller are attached": a part that says what is so,
# its verb a "be" after its subject, asks nothing, whatever word it opens on. An act's object
# opens on a determiner ("Cancel the order that was placed"), a relative clause's verb is
# not the part's.
_STATEMENT = re.compile(r"^(?!\S+\s+(?:the|my|our|your|a|an|this|that|these|those|it|them|me|us|his|her|their)\b)"
                        r"(?!.*\b(?:please|you|can|could|would|will|that|which|who)\b.*\b(?:is|are|was|were)\b)"
                        r"(?:[\w'-]+\s+){1,8}?(?:is|are|was|were|has been|have been)\s+(?:\w+ly\s+)?\w+(?:ed|en)\b",
                        re.IGNORECASE)


def _part_acts(part: str) -> list[str]:
    """The acts a part asks for: an action verb among its first three words ("please
    cancel", "can you book"), or a verb with its particle ("turn off" is disabling). A
    want stated in a chat's opening ("Hi, I need to cancel …") is not read as the act
    asked of this answer: the run may have refused it by policy many turns before."""
    if _STATEMENT.match(part):
        return []
    # A capitalised word after the first is a name ("what's Mark Delaney's salary").
    verbs = [stem(w.lower()) for i, w in enumerate(re.findall(r"[A-Za-z]+", part)[:3])
             if stem(w.lower()) in _ACTION_VERBS and stem(w.lower()) not in _DELIVERY_VERBS
             and not (i and w[0].isupper())]
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
        if _imperative(rest) or _verb_by_shape(rest) or _opens_on_particle(rest) \
                or m.group(0).strip() in ("", "\u2014", "\u2013") and _opens_on_act(rest):
            pieces.append(clause[start:m.start()])
            start = m.end()
    return [*pieces, clause[start:]]


def _opens_on_particle(clause: str) -> bool:
    """The clause opens on a verb with its particle ("turn on DNSSEC for it", "set up a
    direct debit"): an act of its own, though no object follows the verb itself."""
    lead = _ACT_LEAD.match(clause)
    rest = clause[lead.end() if lead else 0:]
    return any(m is not None and m.start() == 0 for m in (rx.search(rest) for rx, _ in _PHRASAL))


def _imperative(clause: str, leads: re.Pattern[str] = _ACT_LEAD) -> str | None:
    """The act a clause opens on in the imperative, its verb followed by its object ("switch
    my billing email", "book him in"): the verb's stem."""
    lead = leads.match(clause)
    m = _VERB_OBJECT.match(clause[lead.end() if lead else 0:])
    return stem(m.group(1).lower()) if m and stem(m.group(1).lower()) in _IMPERATIVE_VERBS else None


# Words that open a clause on something other than a verb: question words, auxiliaries,
# pronouns, joins and greetings ("Sorry the app…", "Because my card…"); "keep it short"
# says how, and "help me", "tell me" ask for help or words, not an act of their own.
_NOT_VERBS = frozenset("""what which who whose when where why how is are was were be am do does did have has had
    can could would will shall should may might must i you he she it we they this that these those there here
    and or but so if for with from to in on at by of as about after before since until because while per via
    like not also just only all both each every no yes hi hello hey dear sorry thanks thank ok okay please
    today tomorrow yesterday now then my our your the a an keep help tell let explain remind assist show give
    need want know see try""".split())  # noqa: SIM905


def _verb_by_shape(clause: str) -> str | None:
    """The clause opens on a verb outside the lists, told by its shape: a word that is
    none of the closed words above, nor a participle, with an object after it ("Rename
    the function", "Pull all open invoices", "export them"). A request's own words for an
    act are open-ended; its parts are still the clauses it opens with one. A verb of
    looking ("check it and correct it") asks no act of its own. The verb's stem."""
    lead = _ACT_LEAD.match(clause)
    m = _VERB_OBJECT.match(clause[lead.end() if lead else 0:])
    word = m.group(1).lower() if m else ""
    return stem(word) if len(word) >= 3 and word not in _NOT_VERBS and stem(word) not in _READ_VERBS \
        and not re.search(r"(?:ing|ed|ly|(?<!s)s)$", word) else None


def _opens_on_act(clause: str) -> bool:
    """The clause, after its lead, opens on an act in the imperative ("Turn off …", "I want
    to extend …"), not on a statement ("We're moving from Trello", "moving house and …")."""
    lead = _ACT_LEAD.match(clause)
    rest = (clause[lead.end():] if lead else clause).lower()
    first = re.match(r"[a-z]+\b", rest)
    if first is None or re.search(r"(?:ing|ed)$", first.group(0)):
        return False
    return stem(first.group(0)) in _ACTION_VERBS or any(rx.match(rest) for rx, _ in _PHRASAL)


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
    return out


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
_DURATION_UNITS = frozenset({"h", "min", "s", "day", "week", "month", "year"})
_MONEY_UNITS = frozenset({"$", "€", "£", "¥", "₹", "chf", "%"})


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


# A yes-or-no question, and the words that answer one (or say it depends on something).
_ASKS_YES_OR_NO = re.compile(r"(?:^|[.!?,;:\u2014\u2013-]\s*|\b(?:so|but|and|ok|okay)\s+)(?:can|could|may|is|are|am|do|does|did|will|would|"
                     r"should|shall|has|have)\s+(?:i|we|he|she|it|they|my|our|this|that|there|you)\b",
                     re.IGNORECASE)
_ANSWERS_YES_OR_NO = re.compile(r"\b(?:yes|yeah|yep|no|not|nope|\w+n't|cannot|unfortunately|afraid|of course|"
                    r"absolutely|definitely|certainly|sure|only (?:if|when|after|before)|as long as|"
                    r"unless|provided|eligible|allowed|permitted|fine|okay|ok|"
                    # A degree answers "does it hurt much?" as well: "moderate", "a little".
                    r"mild(?:ly)?|moderate(?:ly)?|slight(?:ly)?|a (?:little|bit)|barely|hardly|"
                    r"rarely|seldom)\b", re.IGNORECASE)

# "Please let me know if there's anything else": the user's to do, no work promised.
_LET_ME_KNOW = re.compile(r"\blet me know\b", re.IGNORECASE)
# "I'll be here whenever you're ready", "I'll do my best to assist you": help offered for
# whatever the user asks next, no work promised. So is a look offered on the user's wish
# ("I can check whether it qualifies for cancellation if you want").
_OFFERS_HELP = re.compile(r"\b(?:i|we)(?:'ll|\u2019ll| will) (?:be (?:here|around|available)\b|"
                          r"(?:be (?:happy|glad)|do (?:my|our) best) to (?:help|assist)\b)|"
                          r"\b(?:i|we) (?:can|could) (?:look|check)\b(?=[^.?!]*\bif you(?:'d| would)? "
                          r"(?:like|want|wish|prefer)\b)|\bif you(?:'d| would)? (?:like|want|wish|prefer)\b"
                          r"[^.?!]{0,30}?,\s*(?:i|we) (?:can|could) (?:look|check)\b", re.IGNORECASE)
_AWAITS_REPLY = re.compile(r"\b(?:then|once|as soon as|when|after) (?:you|i have|i get|i've got|"
                           r"i receive)\b|\bthen i(?:'ll| will)\b", re.IGNORECASE)
_IF_YOU = re.compile(r"\bif you(?:'d| would)?\b", re.IGNORECASE)
# "If the November report is the one you need, tell me and I'll attach it": the work
# waits on the user's word, as a question's does.
_ON_USERS_WORD = re.compile(r"\b(?:tell me|let me know|confirm|say (?:so|which))\b[^.?!]{0,60}?\b(?:and|then) "
                            r"i(?:'ll|\u2019ll| will)\b", re.IGNORECASE)
_PLACEHOLDER = re.compile(r"\[(?:[A-Za-z][\w ]{0,30})\]|\{\{?\s*\w+\s*\}?\}|<[A-Z][A-Z_ ]{2,}>|\bTBD\b|\bXXX+\b")
# The line under a closing ("Many thanks,\n[Your name]") is where the user signs a text
# written for them to send: theirs to fill, not a fact the run left out.
_SIGNATURE = re.compile(r"^[^\n\[\]]{1,40},[ \t]*\n[ \t]*\[[^\]\n]{1,30}\][ \t]*$", re.MULTILINE)


# "I've started the rename", "we've begun on the first files": the work begun, not done.
_BEGUN = re.compile(r"\b(?:i|we)(?:'ve| have) (?:only |just )?(?:started|begun|made a start)\b|"
                    # "I'm still looking into this", "we're currently going through the files".
                    r"\b(?:i'm|i am|we're|we are) (?:still|currently) (?:looking|checking|working|going|digging|"
                    r"reviewing|investigating|searching|gathering)\b|"
                    r"\b(?:part|half)-?way (?:through|done)\b|"
                    r"\b(?:the )?(?:others|rest|remaining \w+) (?:still )?(?:need|needs|remain|are left)\b",
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
    ``schedule_pickup`` failed ("scheduled" of its verb, not negated), or a done mark."""
    if _DONE_MARK.search(sentence):
        return True
    acts = {stem(w) for c in failures for w in re.split(r"[_\W]+", c.name.lower())
            if stem(w) in _ACTION_VERBS}
    return any(stem(m.group(0)) in acts and not _NOT_BEFORE.search(sentence[:m.start()])
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


def _unspecific(run: _Run) -> bool:
    """A reply that may repeat the request's words but gives nothing specific to it: the
    request names a number or a name, the answer states none of its own or of the request's,
    no date or time, asks nothing, claims no work done, and opens or closes on stock words
    ("Bills can vary for a number of reasons … Is there anything else?")."""
    case = run.case
    text = case.output
    given = {q.text for q in quantities(case.input)} | key_terms(case.input)
    if not given or not run.sentences or quantities(text) or key_terms(text) - key_terms(case.input) \
            or dates(text) or clock_times(text) or _CLAIMS_SUCCESS.search(text):
        return False
    if any(_ASKS_USER.search(s) and not _ANYTHING_ELSE.search(s) or _REASONED_REFUSAL.search(s)
           for s in run.sentences):
        return False
    if any(c.output.strip() and not _failed(c) for c in case.tools_called):
        return False
    lower = text.lower()
    stock = [s for s in run.sentences if _BOILERPLATE.search(s)]
    return bool(stock) and not any(t.lower() in lower for t in given if any(ch.isdigit() for ch in t))


# An offer to do something ("Want me to let the attendees know?", "I can also add it to
# your calendar if you'd like"): the thing offered is not done.
_OFFER = re.compile(r"^(?:(?:\w+[,!]\s+)?(?:do you )?(?:want|would you like|shall|should|may) (?:me|i)\b"
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
    only = _part_stems(run.case.input) - word_stems(" ".join(kept))
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


def _read_records(calls: Sequence[ToolCall]) -> list[list[dict[str, Any]]]:
    """The lists of records (JSON objects) the run's successful calls returned."""
    return [rows for call in calls for rows in _call_records(call)]


_CSV_HEADER = re.compile(r"[A-Za-z_][\w ]{0,30}(?:,[A-Za-z_][\w ]{0,30})+")


def _csv_rows(output: str) -> list[dict[str, Any]]:
    """A comma-separated table's rows as records, keyed by its header ("plan,annual_gbp" then
    "Swarm Watch,48"): a table is a list of records as a JSON array is. None when any row
    has another number of fields than the header (prose with commas)."""
    lines = [line.strip() for line in output.strip().splitlines() if line.strip()]
    if len(lines) < 3 or not _CSV_HEADER.fullmatch(lines[0]):
        return []
    keys = lines[0].split(",")
    rows = [line.split(",") for line in lines[1:]]
    if any(len(r) != len(keys) for r in rows):
        return []
    return [dict(zip(keys, (v.strip() for v in r), strict=True)) for r in rows]


def _call_records(call: ToolCall) -> list[list[dict[str, Any]]]:
    """The lists of two records or more (JSON objects) in a successful call's output."""
    out: list[list[dict[str, Any]]] = []
    if _failed(call):
        return out
    if not call.output.lstrip().startswith(("{", "[")):
        table = _csv_rows(call.output)
        return [table] if len(table) >= 2 else out
    try:
        stack = [json.loads(call.output)]
    except ValueError:
        return out
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            rows = [n for n in node if isinstance(n, dict)]
            if len(rows) >= 2:
                out.append(rows)
            stack.extend(node)
        elif isinstance(node, dict):
            stack.extend(node.values())
    return out


def _scalars(record: dict[str, Any]) -> list[str]:
    return [str(v).lower() for v in record.values() if isinstance(v, (str, int, float)) and not isinstance(v, bool)]


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
    arg_stems, answer = word_stems(args), case.output.lower()
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
    return next((s for s in split_claims(case.output) if _CLAIMS_SUCCESS.search(s)
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
            or _asks_back(case) or _ADMITS_FAILURE.search(case.output):
        return None
    asked = _asked_text(case.input)
    acts = _acts_of({stem(w) for w in _act_words(asked)[:12]} & _ACTION_VERBS
                    | {v for c in _ACT_CLAUSES.split(asked) for v in _part_acts(c.strip())})
    return next((s for s in split_claims(case.output) if _promises(s) and not _IF_YOU.search(s)
                 and not _NO_CHANGE.search(s) and any(_names_act(stem(_IRREGULAR.get(w, w)), a) for w in re.findall(r"[a-z]+", s.lower())
                         for a in acts)), None)


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
_NEGATED = re.compile(r"\b(?:not|never|nothing|no|none|n't)\b|n't\b", re.IGNORECASE)
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
               for c in calls)


_ALL_SET = re.compile(r"\ball set\b", re.IGNORECASE)  # "You're all set!" sets nothing
# A row of a table the answer draws ("| Price | £9,450 | £12,150 |"), an entry as a list's item is.
_TABLE_ROW = re.compile(r"^[ \t]*\|[^\n]*\w[^\n]*\|[ \t]*$", re.MULTILINE)


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
    # "app" stems as "apply": a messaging app asks no act.
    verbs = ({stem(w) for w in re.findall(r"[a-z]+", asked.lower())[:12] if w not in ("app", "apps")}
             & _ACTION_VERBS if _asks_action(asked) else set()) | opening
    verbs -= _DELIVERY_VERBS
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
    # A closing offer ("Is there anything else I can help you with?") asks nothing back.
    if not verbs | shaped or not _only_looks(case.tools_called) \
            or _asks_back(case) or _ASKS_USER.search(text) or _ADMITS_FAILURE.search(text) \
            or _NEGATED.search(_NO_PROBLEM.sub(" ", text)) or _NO_CHANGE.search(text):
        return None
    # The act named only as something anyone may do ("claims can be filed within 30 days",
    # "you can submit them online") is not named as done.
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


_GIVES_VALUE = re.compile(r"\s*[A-Za-z]+:?\s+\d[\d.,]*\s*\S{0,6}\s*")
_ASKS_QUESTION = re.compile(r"\s*(?:(?:is|are|am|was|were|how|what|whats|what's|when|where|why|who|which|do|does|"
                            r"did)\b|(?:can|could|may) i\b)", re.IGNORECASE)
_MAY_BE_DONE = re.compile(r"\b(?:can|could|may|must|should) be \w+ed\b", re.IGNORECASE)


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
        (unsent, f'asked to "{_short(unsent or "", 10)}", the run only read and wrote the text, and nothing sent it'),
        (steps, f'asked to do the work, the run only read and tells the user how: "{_short(steps or "")}"'),
        (language, f'asked for a translation into {language}, the answer gives none'),
        (named, f'asked of all {named[0]}, a call named {named[0]}, and the answer speaks of {named[1]} and not the rest'
         if named else ""),
        (handed, f'asked of the whole set, the answer does part and hands the rest back: "{_short(handed or "")}"'),
        (advice, f'asked to {advice} a text from what the user gave, the answer gives advice and never the text'),
        (want, f'the request wants "{_short(want or "", 10)}", and neither a call nor the answer touches it'),
    ) if cond]


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


def _translation_missing(case: RunCase) -> str | None:
    """Asked to translate into a language (the last one the request names after its verb of
    translating), and neither the answer nor a call's arguments hold text in it, while the
    answer is written in another: the translation was never given. The language."""
    request = case.input
    verb = _TRANSLATE.search(request) or _TRANSLATE_MORE.search(request)
    if verb is None:
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
    for name in dict.fromkeys(c.name for c in case.tools_called if _acts(c)):
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
        if 2 <= items < counted:
            return counted, items
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
    return calls[-1].name


# A verb a negation governs: "haven't moved", "was not able to change", "nothing was changed".
def _act_on_asked(phrase: str, request: str) -> bool:
    """The phrase names an act and a word of the request ("change the pin" for "pin torch to
    2.0.3"): said not done, it owns the failure of the act asked in the request's own verb."""
    words = word_stems(phrase)
    return bool(words & _ACTION_VERBS.union(*_ALIKE)) and bool(words - _ACTION_VERBS.union(*_ALIKE) & word_stems(request))


_NOT_ACT = re.compile(r"(?:\b(?:not|never|no|nothing)|n't)\W+((?:[a-z]+\W+){0,2}[a-z]+)", re.IGNORECASE)


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
    return bool(acting) and bool(_AWAITING.search(acting[-1].output)) and bool(final) \
        and not _WAIT_SAID.search(case.output)


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
        stems = [stem(i.lower()) for i in items]
        for name in dict.fromkeys(c.name for c in case.tools_called if not _failed(c) and not _reads(c)):
            named = [{x for x in stems if x in word_stems(tool_text(json.dumps(c.args)))}
                     for c in case.tools_called if c.name == name and not _failed(c)]
            if len(named) < 2 or any(len(n) != 1 for n in named):
                continue
            done: set[str] = set().union(*named)
            left = [i for i, x in zip(items, stems, strict=True) if x not in done and x not in said]
            if len(done) >= 2 and left:
                return left[0]
    return None


# A record's own code as a user writes it ("ILL-6620", "order #77120").
_RECORD_CODE = re.compile(r"\b[A-Z][A-Z0-9]{0,5}-\d{3,}[\w-]*\b|#\s?\d{3,}\b")


def _record_unread(case: RunCase) -> str | None:
    """The request names a record by its code ("my loan request ILL-6620"), the run read
    nothing (no call, no context, no chat before) and the answer never names the record
    nor asks anything: it speaks of such records in general, not of this one. The code."""
    codes = _RECORD_CODE.findall(case.input)
    if not codes or case.tools_called or case.context or _chatted(case) or "?" in case.output \
            or _ADMITS_FAILURE.search(case.output) or any(_REASONED_REFUSAL.search(s) for s in split_claims(case.output)):
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
_AS_ALL = re.compile(r"\b(?:all|every|complete|full|entire|whole)\b", re.IGNORECASE)
_PAGE_OF = re.compile(r"\bpage\W{1,3}(\d+)\W{1,3}of\W{1,3}(\d+)\b", re.IGNORECASE)
# "more than 30 days" compares; it says nothing of more rows.
_MORE_SAID = re.compile(r"\b(?:more(?! than\b)|first|page|remaining|rest|so far|partial|only|of \d+)\b", re.IGNORECASE)


def _page_left(case: RunCase) -> str | None:
    """A read returned one page of a longer list ("has_more": true, a next cursor, a total
    count above the rows it holds) and no later call of that tool read on; the request or the
    answer speaks of all of it, and the answer says nothing of more: the tool's name."""
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
        if any(_MORE_KEY.match(k) and v is True or _NEXT_KEY.match(k) and v not in (None, False, "", 0)
               or _COUNT_KEY.match(k) and isinstance(v, int) and not isinstance(v, bool) and rows and v > rows
               for k, v in data.items()):
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


# A text the request asks the agent to write ("Draft the declination letter", "write a
# notice to tenants"), and the answer's lead into it ("Here's the notice:", "Dear residents,").
_WRITE_ASKED = re.compile(r"(?:^|[.!?]\s+|\b(?:please|can you|could you|would you|and|then)\s+)"
                          r"(write|draft|compose|redraft|rewrite|prepare)\s+(?:me\s+|us\s+)?(?:a|an|the|my|our|this|that|"
                          r"some|up)\b", re.IGNORECASE)
_TEXT_LEAD = re.compile(r"^.{0,80}:\s*$|^(?:dear|hi|hello|to whom)\b[^\n]{0,60},?\s*$|^subject:", re.IGNORECASE | re.MULTILINE)
# What a text should hold, said in place of it: "The letter should include: (1) …".
_SHOULD_HOLD = re.compile(r"\b(?:should|must|needs? to|could|would|will need to) (?:\w+ )?(?:include|mention|contain|"
                          r"state|cover|say|explain|reference|list|outline|note|have)\b|\bworks? best\b",
                          re.IGNORECASE)


def _drafted(case: RunCase) -> str:
    """The text the answer hands in when the request asks for one written: what follows its
    lead line ("Here's the notice:" or a salutation). Its lines speak to its own readers
    ("Call the office on …"), not to the user; ``""`` when there is none."""
    if not _WRITE_ASKED.search(case.input):
        return ""
    lead = _TEXT_LEAD.search(case.output)
    return case.output[lead.start():] if lead else ""


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
    return (counted, listed) if 2 <= listed < counted and not _whole_told(case.output, counted) else None


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
    return bool(_name_stems(call) & (_ACTION_VERBS.union(*_ALIKE)))


def _object_asked_acts(case: RunCase) -> list[ToolCall]:
    """The successful calls that did an act on what the request names, whatever verb it
    asked with: place_hold for "put a hold on the book"."""
    asked = word_stems(_asked_text(case.input))
    return [c for c in case.tools_called if not _failed(c) and not _reads(c) and not _hands_off(c)
            and _names_an_act(c) and (_name_stems(c) - _ACTION_VERBS.union(*_ALIKE)) & asked]


def _asked_acts(case: RunCase) -> list[ToolCall]:
    """The successful calls that did an act the request asks: each opens on its verb or a
    verb of the same act (send_rfq for "send the RFQ")."""
    asked = word_stems(_asked_text(case.input))
    return [c for c in case.tools_called if not _failed(c) and not _reads(c) and not _hands_off(c)
            and _alike(_call_verb(_NAMESPACE.sub("", c.name))) & asked]


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
    awaits = (bool(_AWAITS_REPLY.search(text)) and any(s.rstrip().endswith("?") for s in run.sentences)
              or bool(_ASKS_USER.search(text)) or bool(_ON_USERS_WORD.search(text))
              or any(_REASONED_REFUSAL.search(s) for s in run.sentences)
              and any(_CONDITION.search(s) and _WE_WILL.search(s) for s in run.sentences))
    offered = _OFFERS_HELP.sub("offer", _LET_ME_KNOW.sub("tell me", text))
    # What the answer quotes (`node-version: 20`) is code, not a result it shows.
    ev.flag("promise", promises_only(_prose(offered), case.input) and not awaits and not _reports_act(case, run)
            and not _keeps_as_is(run),
            f'it only says it will do the work: "{_short(text)}"')
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
    honest = claimed and bool(_ADMITS_FAILURE.search(text))
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
    remainder = next((s for s in [*run.sentences, *last] if (_REMAINING.search(s) and not _led_in(s, run.sentences)
                                                              or _BEGUN.search(s)
                                                              or rest_offered and _REST_OFFERED.search(s)
                      or held and _HOLD.search(s)) and not _announces_handoff(s)), None)
    if remainder is None and (failures or _ADMITS_FAILURE.search(text)):
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
        tried = any(_failed(c) and _acts(c) for c in case.tools_called) \
            and any(_REASONED_REFUSAL.search(s) for s in run.sentences)
        ev.flag("instructions", bool(how) and len(how) * 2 >= len(run.sentences)
                and _asks_action(case.input) and not tried,
                f'asked to act, it tells the user how: "{_short(how[0] if how else "")}"')
    ev.flag("asks_given", _asks_for_given(case) or _asks_which_given(case), "it asks for what the request already gave")
    acted = any(not _failed(c) and _acts(c) for c in case.tools_called)
    action = _asks_action(case.input) and not acted
    plan = next((s for s in run.sentences if _PLAN.search(s)), None)
    ev.flag("plan", action and plan is not None, f'it lays out a plan and stops: "{_short(plan or "")}"')
    drafted = _drafted(case)
    # "If you change your mind, you can contact us": an option left open, not the work sent elsewhere.
    redirect = next((s for s in run.sentences if _REDIRECT.search(s) and s not in drafted
                     and not _IF_YOU.search(s)), None)
    # The act tried and failed, and the failure told ("our payment system failed … you can
    # call our shop"): the other channel is the way left, an honest failure, not a deflection.
    told_failed = any(_failed(c) and not _reads(c) for c in case.tools_called) and bool(_ADMITS_FAILURE.search(text))
    ev.flag("redirect", action and redirect is not None and not told_failed,
            f'asked to act, it sends the user elsewhere: "{_short(redirect or "")}"')
    # A single action asked for ("submit it") that neither a call nor the answer performs.
    # A record's code ("APP-4021") holds no verb; a light verb run by its object is done.
    verbs = {stem(w) for w in re.findall(r"[a-z]+", _OWN_CODE.sub(" ", _CHECKED.sub(" ", case.input)).lower())[:12]} \
        & _ACTION_VERBS - _record_labels(case) - (_RUN_VERBS if _run_by_object(case.input, case) else set())
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
    ev.flag("placeholder", bool(_PLACEHOLDER.search(_SIGNATURE.sub("", _prose(text)))),
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
    if any(_hands_over(s) for s in run.sentences) or _handoff_after_failure(run, failures) or (
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


# What a look asks about ("check if my permit got approved", "see whether it was paid"):
# the act there is the one asked about, not the one asked for. "see if you can cancel it"
# still asks the run to cancel.
def _scalar_values(node: Any) -> list[Any]:
    """Every string and number a JSON value holds, at any depth."""
    if isinstance(node, dict):
        return [v for x in node.values() for v in _scalar_values(x)]
    if isinstance(node, list):
        return [v for x in node for v in _scalar_values(x)]
    return [] if isinstance(node, bool) or node is None else [node]


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


_HANDED_OVER = re.compile(r"\b(?:transferr(?:ed|ing)|escalat(?:ed|ing)|connect(?:ed|ing)|pass(?:ed|ing)"
                          r"(?: it| this| you)? on)\b(?:\s+[\w']+){0,5}?\s+to (?:a |an |our |the )?"
                          r"(?:human|live|senior|specialist|supervisor|support|customer service)", re.IGNORECASE)
# An offer ("Would you like me to transfer you to an agent?") or a refusal ("I can't
# transfer you to a human agent") hands nothing over.
_NOT_HANDED = re.compile(r"\?\s*$|\b(?:can't|cannot|can not|unable|not able|won't|will not|no way)\b",
                         re.IGNORECASE)


def _hands_over(sentence: str) -> bool:
    """The sentence says the request is, or is being, handed to a person."""
    return bool(_HANDED_OVER.search(sentence)) and not _NOT_HANDED.search(sentence)


_HANDOFF_SAID = re.compile(r"\b(?:transfer|escalat|connect|pass|hand)\w*(?:\s+[\w']+){0,4}?\s+(?:over |on )?to "
                           r"(?:a |an |our |the |one of our )?(?:[\w-]+ ){0,2}(?:human|agents?|person|staff|"
                           r"specialists?|supervisor|team|representative|colleague|nurse|doctor|clinician|"
                           r"pharmacist)\b", re.IGNORECASE)


def _announces_handoff(sentence: str) -> bool:
    """The sentence says the request is, or will now be, handed to a person."""
    return bool(_HANDOFF_SAID.search(sentence)) and not _NOT_HANDED.search(sentence)


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


def _handed_to_person(case: RunCase) -> bool:
    """The run ends by passing the request to a person: its answer says so, or its last
    call is a hand-off that ran."""
    calls = case.tools_called
    return any(_hands_over(s) for s in split_claims(case.output)) or bool(
        calls and _hands_off(calls[-1]) and not _failed(calls[-1]))


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


# A unified diff: what a coding run hands over when it submits (SWE-agent's ``submit``,
# mini-swe-agent's ``git diff --cached``).
_PATCH = re.compile(r"^diff --git a/\S+ b/|^--- (?:a/)?\S+.*\n\+\+\+ (?:b/)?\S+.*\n@@ ", re.MULTILINE)


def _patch_handed_in(case: RunCase) -> str:
    """The change the run ends by handing in: what its last call that returned anything
    returned, when that call ran and returned a patch (a submission may return nothing
    after the patch it shows); else ``""``."""
    said = [c for c in case.tools_called if c.output.strip()]
    return said[-1].output if said and said[-1].success is not False and _PATCH.search(said[-1].output) else ""


# What the answer's words need not carry when the run handed in a patch: the request (an
# issue, a PR description) is met by the change, which no sentence restates; the tests it
# ran and failed on the way are its work, not acts left failed; "Now let me submit the
# patch:" is the submission the calls after it made. A remainder ("the docs are next") or a
# false claim of success in its last words still counts.
_IN_THE_PATCH = ("generic", "redirect", "plan", "parts_missing", "act_missing", "action_unnamed",
                 "failed_call", "instructions", "evasive", "asks_given", "promise")


# A reply to the user's thanks, good news or goodbye: "You're welcome!", "Glad to hear it's
# working", "Take care!", "Sounds good! I'll be here whenever you're ready". Any one word
# may open it ("Absolutely! I'll be here whenever you're ready", "Fantastic! Glad to hear").
_CLOSING = re.compile(r"[\s{\"]*(?:message\"?\s*:\s*\"?)?(?:[a-z]+(?:[!,.]\s*|\s*[\u2014\u2013]\s*|\s+))?"
                      r"(?:i(?:'ll|\u2019ll| will) be (?:here|around)|"
                      r"(?:i(?:'m|\u2019m| am) )?looking forward|"
                      r"you(?:'re|\u2019re| are) (?:very |most )?welcome|my pleasure|"
                      r"(?:i'm |i\u2019m |i am |so |really )?glad (?:to hear|that|it|you|i could)|"
                      r"happy to (?:hear|have helped)|no problem at all|anytime|thank you|thanks|"
                      r"(?:good)?bye|take care|talk soon|sounds good|have a (?:great|good|nice|"
                      r"wonderful|lovely) (?:day|evening|night|weekend))\b", re.IGNORECASE)


def _chatted(case: RunCase) -> bool:
    """A chat: an earlier reply asked the user something, or waited on them ("Please let me
    know once the card is added"), so the user answered and the chat went on."""
    return _conversed(case) or any(_ASKS_USER.search(s) or _LET_ME_KNOW.search(s)
                                   or _AWAITS_REPLY.search(s) for s in _replies(case))


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


_NAMESPACE = re.compile(r"^.*(?:\.|/|::|__)(?=[A-Za-z])")


def _unqualified(case: RunCase) -> RunCase:
    """Tools named in a namespace ("cards.block", "mcp__github__create_pr") by their own
    name: the verb that says whether a call reads or acts opens the tool's name, not its
    server's."""
    calls = tuple(replace(c, name=_NAMESPACE.sub("", c.name)) for c in case.tools_called)
    return replace(case, tools_called=calls) if calls != case.tools_called else case


def answer_task_completion(case: RunCase, embed: Embed) -> Answer:
    """P(the agent did not do what was asked)."""
    if not case.output.strip():
        return verdict(_EMPTY, "the run gave no answer at all")
    case = _unqualified(case)
    case = _closed_reply(case, embed) or case
    settled = "the answer meets every part of the request" + (
        " after recovering from a failed call"
        if any(_failed(c) for c in case.tools_called) else "")
    return head_answer("task_completion", task_completion_evidence(case, embed), settled)


_ACTION_VERBS = frozenset(stem(w) for w in """cancel change update book submit file send create
    add remove delete set reset move transfer refund order schedule reschedule downgrade upgrade
    apply open close register enroll enrol renew pay mark migrate rotate disable enable activate
    deactivate block unblock raise lower increase decrease extend return exchange replace
    issue generate make email forward share assign escalate approve reject dispute port
    terminate suspend resume restart deploy rollback merge run fix install""".split())  # noqa: SIM905


_DELIVERY_VERBS = frozenset(stem(w) for w in ("send", "email", "forward", "share", "give"))
# Verbs that name one act in general English: a change is an update, a move a reschedule.
_ALIKE = tuple(frozenset(stem(w) for w in group.split()) for group in (
    "change update modify edit set adjust move reschedule switch fix correct",
    "book reserve schedule",
    "pay charge",
    "buy purchase order",
    "cancel terminate stop end close",
    "add create open register enroll enrol place",
    "remove delete",
    "move transfer migrate relocate port",
    "swap exchange replace trade",
    # A figure raised or lowered is changed: update_standing_order does "raise it to €25".
    "raise increase extend change update set adjust",
    "lower decrease reduce change update set adjust",
))


def _alike(verb: str) -> frozenset[str]:
    """The verb with the verbs that name the same act."""
    return frozenset({verb}.union(*(g for g in _ALIKE if verb in g)))


def _asks_action(request: str) -> bool:
    """The request asks the agent to do something (an action verb), not to explain: a
    question for a fact ("what was the open rate on last week's email?") names acts as nouns."""
    if _ASKS_FACT.match(request):
        return False
    words = re.findall(r"[a-z]+", request.lower())
    # Or a later sentence that opens on one: "… priority 10. JUST ADD IT!!"
    return any(stem(w) in _ACTION_VERBS for w in words[:12]) or any(
        _OPENS_ON_ACT.match(sentence) for sentence in re.split(r"(?<=[.!?])\s+", request)[1:])


_OPENS_ON_ACT = re.compile(r"(?:(?:just|please|pls|now|so|then|and)\s+)*(?:" + "|".join(
    sorted(_ACTION_VERBS - _DELIVERY_VERBS)) + r")\w{0,3}\b(?!\s+(?:is|are|was|were)\b)", re.IGNORECASE)


_ASKS_FACT = re.compile(r"\s*(?:what|which|who|whose|when|where|why|how (?:many|much|long|often))\b"
                        r"(?!.*\b(?:can|could|would|will) you\b)", re.IGNORECASE)


def _acts(call: ToolCall) -> bool:
    """A call that changes something (its name starts with an action verb)."""
    head = re.split(r"[_\W]+", call.name.lower())[0]
    return stem(head) in _ACTION_VERBS


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
    r"(?:can|may) vary|a number of reasons|we understand|beyond (?:our|your) control|"
    r"(?:appreciate|thank you for) your (?:patience|understanding)|(?:we )?hope (?:you|this|that)|"
    r"safe travels|good luck|enjoy the|take care|"
    # A refusal that says nothing of what or why ("Unfortunately I'm unable to help with that").
    r"(?:unable|not able|can(?:'t|not)) to (?:help|assist) (?:you )?with (?:that|this)|"
    r"can(?:'t|not) (?:help|assist) (?:you )?with (?:that|this)",
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
    if quantities(case.output) or names - key_terms(case.input):
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


# --- TASK_UNDERSTANDING_FAILURE -------------------------------------------------------


# Pairs of words that name opposite or sibling options of one choice. General English
# (directions, environments, money flows, trade modes), not any one domain's terms.
_OPPOSITES = tuple(tuple(pair.split("/")) for pair in """
    inbound/outbound incoming/outgoing import/export arrival/departure arrivals/departures
    upload/download uplink/downlink push/pull deposit/withdrawal credit/debit buy/sell purchase/sale rent/sale
    renting/buying lease/purchase income/expense gross/net before/after pre/post
    staging/production dev/production development/production test/production sandbox/production
    internal/external public/private individual/joint personal/business single/married
    one-way/round-trip domestic/international archive/delete refund/exchange quote/invoice estimate/invoice
    pause/cancel upgrade/downgrade enable/disable activate/deactivate lock/unlock block/unblock
    open/close add/remove increase/decrease raise/lower accept/decline approve/reject
    maximum/minimum max/min first/last oldest/newest earliest/latest monthly/annual daily/weekly
    weekly/monthly morning/evening morning/afternoon weekday/weekend inches/millimetres
    inches/centimetres imperial/metric celsius/fahrenheit child/adult patient/clinician
    customer/internal beginner/advanced summary/full short/long formal/informal
    front/rear front/back left/right upper/lower top/bottom north/south east/west
    indoor/outdoor inside/outside swap/refund leave/join leaving/join port-out/port-in
    """.split())  # noqa: SIM905
# Operations that undo each other, named as nouns as often as verbs: a derivative asked, an
# integral worked out. Apart from the options above, which the completion rules read too.
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
                  and not _dated_from(asked, rx)]
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


_ASKS_DATE = re.compile(r"\b(?:when|what date|which day|deadline|due|last day|until|by when|expir\w*)\b", re.IGNORECASE)
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
_IDENT_NUMBER = re.compile(r"(?<![\w.,$€£-])\d{3,}(?:-\d+)*(?![\w.,%]*\d)(?!\s?(?:%|am|pm|kg|km|mi|cm|mm|sq|ft|feet|"
                           r"lb|gb|mb|tb|ml|mg|days?|hours?|minutes?|weeks?|months?|years?))", re.IGNORECASE)


_LOWER_ID = re.compile(r"\b[a-z]{1,6}[_-]\d{3,}\b")  # ac_3301, inc-2291


_FIELD_LABELS = frozenset({"id", "ids", "no", "ref", "pin", "dob"})


def _idents(text: str) -> dict[str, str]:
    """The request's or answer's identifying names with their kind: acronyms, codes,
    capitalised names, identifier-like numbers (order 48821, 2025)."""
    out: dict[str, str] = {}
    # In the order the text names them, so the one reported does not hang on set order.
    lower = text.lower()
    for term in sorted(key_terms(text), key=lambda t: (lower.find(t) % (len(lower) + 1), t)):
        kind = "code" if any(c.isdigit() for c in term) else "name"
        # "My booking ID is GH-3307": a field's label in capitals names nothing; nor does an
        # amount with its unit ("256GB", "500ml") name a thing.
        if term in _FIELD_LABELS or _AMOUNT.match(term):
            continue
        # "PO" in "PO-4471" is the code's prefix, not a name of its own.
        if kind == "name" and not re.search(rf"(?i)\b{re.escape(term)}\b(?!-\d)", text):
            continue
        out[term] = kind
    for m in _IDENT_NUMBER.finditer(text):
        out.setdefault(m.group(0), "number")
    for m in _LOWER_ID.finditer(text):
        out.setdefault(m.group(0).lower(), "code")
    return out


def _near(a: str, b: str) -> bool:
    """Spelled almost alike: same length, one character different (HSA / FSA, 202 / 201),
    or in a longer name two (SHP-40912 / SHP-40921); two neighbours swapped count as one
    (card 7731 / 7713: the usual slip of a misread id)."""
    a, b = a.lower(), b.lower()
    if len(a) != len(b) or a == b:
        return False
    diff = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
    swapped = len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] \
        and a[diff[1]] == b[diff[0]]
    return swapped or len(diff) <= (1 if len(a) <= 4 else 2)


def _present(term: str, text_lower: str, stems: frozenset[str]) -> bool:
    # The substring test first: a term the text lacks needs no pattern of its own compiled.
    if term in text_lower and re.search(rf"(?<![a-z0-9]){re.escape(term)}s?(?![a-z0-9])", text_lower):
        return True
    words = [w for w in re.split(r"[\s_-]+", term) if w]
    return bool(words) and all(stem(w) in stems for w in words)


def _parallel(a: str, b: str, segments: Sequence[str]) -> bool:
    """Two names the evidence lists as parallel entries: each in its own segment, never
    together, each with a number, date or time of its own (Seattle 10.35% / Portland 0%)."""
    with_a, with_b = _naming(a, tuple(segments)), _naming(b, tuple(segments))
    return bool(with_a and with_b) and not set(with_a) & set(with_b) and all(
        quantities(s) or dates(s) or clock_times(s) for s in (*with_a, *with_b)
    )


# Each name of the request is paired with each of the answer's: their segments are found
# once per name, not once per pair (a coding run's logs: a third of TUF's time).
@lru_cache(maxsize=256)
def _naming(term: str, segments: tuple[str, ...]) -> tuple[str, ...]:
    """The segments that name the term."""
    found = re.compile(rf"(?<![a-z0-9]){re.escape(term)}")
    return tuple(s for s in segments if found.search(s))


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
    missing = [t for t in asked if not _present(t, out_lower, out_stems)]
    segments = [seg.lower() for seg in _segments(case)]
    extra = [t for t in answered if not _present(t, in_lower, in_stems)
             and not _set_apart(t, case.output) and not _found_unfit(t, case.output)] if missing else []
    for a in missing:
        for b in extra:
            same_kind = asked[a] == answered[b] or {asked[a], answered[b]} <= {"code", "number"}
            # Only a stand-in spelled almost alike counts (48821 / 48812, HSA / FSA, the 45L
            # and the 30L pack): other new names are as often details of a right answer.
            if same_kind and (_near(a, b) or _same_shape(a, b) or _one_part(a, b)
                              or _parallel(a, b, segments)) and not _told_from_entry(a, b, case, segments):
                return a, b
    return _sibling_swap(case) or _year_swap(case) or _jurisdiction_swap(case) or _size_swap(case) \
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
_RATE_OR_SUM = re.compile(r"(?<![\d:.,])(?:[$€£¥₹]\s?\d[\d,]*(?:\.\d+)?|\d[\d,]*(?:\.\d+)?\s?%|"
                          r"(?!(?:19|20)\d\d\b)(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{3,}(?:\.\d+)?|\d+\.\d+))(?![\d:])")


def _rates_and_sums(text: str) -> set[str]:
    """The rates and sums a text writes, as figures."""
    return {f"{float(n):g}" for n in (_NOT_DIGIT.sub("", m) for m in _RATE_OR_SUM.findall(text))}


_NOT_DIGIT = re.compile(r"[^\d.]")


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


def _year_swap(case: RunCase) -> tuple[str, str] | None:
    """A year the request names as a label ("my 2025 taxes"), never a label in the answer,
    which labels its subject with a year next to it ("your 2024 return"). A year inside a
    date ("due April 15, 2025") is when something happens, not what the answer is about."""
    def labels(text: str) -> list[str]:
        for written, _ in dates(text):
            text = text.replace(written, " ")
        return _YEAR.findall(text)

    said = labels(case.output)
    for year in labels(_asked_text(case.input)):
        other = next((y for y in said if y not in case.input and _near(year, y)), None)
        if year not in said and other:
            return year, other
    return None


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
        or _part_dropped(case.input, args, acted=True) or _excluded_done(case)


# A clause of the request that rules a thing out: "skip that one", "she doesn't need shoes",
# one that opens on "not" ("Not enrollments — people"),
# "the login page was done last sprint", "other than the Paris office".
_RULES_OUT = re.compile(r"^\s*not\b|\b(?:skip\w*|except|exclud\w*|other than|apart from|rather than|instead of|leave out|"
                        r"(?:do|does|did)(?:n't| not) need|no need|(?:was|were|is|are|been) (?:already )?done|"
                        r"already (?:done|have|has|had|got))\b", re.IGNORECASE)
_RULED_PHRASE = re.compile(r"\b(?:except|excluding|other than|apart from|rather than|instead of|leave out|skip)\b"
                           r"(?:(?!\b(?:from|of|in|on|at|for|with|to)\b)[^,;.])*", re.IGNORECASE)
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
_SLOT = re.compile(r"\b([A-Za-z]{3,})\s+(?:no\.?\s*|#\s*)?(\d{1,3}[A-Za-z]?|[A-Z])\b(?![.,:]\d)"
                   r"(?!\s+[a-z]{3,}s\b)(?!\s*(?:%|(?:kg|km|mm|cm|ml|mg|lbs?|oz|min|hrs?|am|pm|[hmglst])\b))")


# A preposition before a number says when or how much ("since 5 day", "since 9 October",
# "for 2 nights"), never which thing: it is no label.
_NO_LABEL = frozenset("""since for until till after before from within over under about around
    than per during""".split())  # noqa: SIM905


def _slots(text: str) -> set[tuple[str, str]]:
    return {(stem(m.group(1).lower()), m.group(2).lower()) for m in _SLOT.finditer(text)
            if word_stems(m.group(1)) and stem(m.group(1).lower()) not in _REQUEST_WORDS
            and m.group(1).lower() not in _NO_LABEL}


def _slot_swap(case: RunCase) -> tuple[str, str] | None:
    """The request names a thing by label and number (line 3); the answer names the same
    label with another number (Line 1) and never the one asked."""
    asked, said = _slots(_asked_text(case.input)), _slots(case.output)
    for label, value in sorted(asked):
        if (label, value) in said:
            continue
        other = sorted(v for lab, v in said if lab == label and (label, v) not in asked)
        if other:
            return f"{label} {value}", f"{label} {other[0]}"
    return None


@lru_cache(maxsize=4096)
def _phrase(word: str) -> re.Pattern[str]:
    # "one-way" also as "one way"/"oneway"; a word with its inflections ("cancelled").
    body = r"[\s-]?".join(re.escape(w) for w in word.split("-"))
    return re.compile(rf"\b{body}\w{{0,4}}\b", re.IGNORECASE)


# The word after a possessive or a definite determiner ("my order", "the order", "your
# booking") names a thing the user has, not an act asked: "check when my order arrives" asks
# for no ordering. "I want a refund" still asks for one.
_DETERMINED = re.compile(r"\b(?:the|my|our|your|his|her|their|its|this|these|those)\s+[a-z]+\b", re.IGNORECASE)


def _act_words(text: str) -> list[str]:
    """The words of ``text``, lower case, less the nouns after a determiner (``_DETERMINED``)."""
    return re.findall(r"[a-z]+", _DETERMINED.sub(" ", text).lower())


def _asked_text(request: str) -> str:
    """The request without what it rules out: "pause it, not cancel" does not ask to cancel;
    nor what it quotes ("translate 'Add to cart'") or the topic it opens on ("home book: LR
    2024 vs 2025"), which name things, not acts."""
    named = _NAMED_TEXT.sub(" ", request.replace("\u2019", "'"))
    return re.sub(r"\b(?:not|don'?t|do not|never|instead of|rather than|but not|without)\s+"
                  r"(?:\w+\s+){0,1}\w+", " ", named, flags=re.IGNORECASE)


_NAMED_TEXT = re.compile(r"(?<!\w)'[^'\n]{1,60}'(?!\w)|\"[^\"\n]{1,60}\"|`[^`\n]+`|\u2018[^\u2019\n]{1,60}\u2019|"
                         r"\u201c[^\u201d\n]{1,60}\u201d|^\s*\w+(?: \w+)?:(?=\s)")


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


def _opposite(case: RunCase) -> tuple[str, str] | None:
    asked, said = _LAST_PERIOD.sub(" ", _asked_text(case.input)), case.output
    if _SELLS.search(asked) and _BUYS.search(said) and not _SALE_SAID.search(said):
        return "sell", "buy"
    for a, b in (*_OPPOSITES, *_INVERSE_OPERATIONS):
        for x, y in ((a, b), (b, a)):
            px, py = _phrase(x), _phrase(y)
            # "Exchanged … the price difference refunded": the asked act named by a verb of
            # the same act ("swap" as "exchange") is done, the other a part of it.
            if px.search(asked) and not py.search(case.input) and py.search(said) and not px.search(said) \
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


# Operations that change a thing's state and have alternatives a run can confuse: asked
# for one, did another. Delivery verbs (send, show, find) are not among them.
_OPERATIONS = frozenset(stem(w) for w in """cancel pause archive delete remove withdraw exchange
    refund return change reschedule upgrade downgrade block unblock dispute transfer close open
    suspend terminate disable enable deactivate activate freeze unfreeze lock unlock waitlist
    merge revert rollback restart reserve place charge renew subscribe unsubscribe redeem sell
    buy purchase donate drain move relocate""".split())  # noqa: SIM905


# The verbs a request's act may open on; an object after it tells the verb from a noun.
_IMPERATIVE_VERBS = _ACTION_VERBS | _OPERATIONS | frozenset().union(*_ALIKE)
_VERB_OBJECT = re.compile(r"(?:(?:then|also)\s+)?([a-z]+)\s+(?:my|our|your|his|her|their|the|a|an|it|them|"
                          r"him|me|us|this|that|these|those|all|every|each|\d{1,3}(?=\s+(?-i:[a-z]))|"
                          r"[a-z]{3,}s\s+(?:from|for)(?=\s))\b", re.IGNORECASE)  # "get quotes from"


_LEVEL_CHANGES = frozenset(stem(w) for w in ("upgrade", "downgrade"))
_GENERAL_CHANGES = frozenset(stem(w) for w in ("change", "update", "modify", "edit", "adjust", "switch"))


_READ_VERBS = frozenset(stem(w) for w in """get list fetch read search find lookup look query show
    view describe check""".split())  # noqa: SIM905


# A hand-off to a person (transfer_to_human_agents, escalate_to_human): the run passed the
# request on, often because policy forbids it; it performed no other operation on it.
_HANDOFF = re.compile(r"transfer\w*_(?:human|agent|person|staff|support)|escalat|hand_?off|handover",
                      re.IGNORECASE)


def _reads(call: ToolCall) -> bool:
    """A call that only reads (get_order, search_flights): its name opens on a read verb,
    after its server's ("supplier.search" reads; "supplier" is no act the request asks)."""
    return _call_verb(_NAMESPACE.sub("", call.name)) in _READ_VERBS


def _hands_off(call: ToolCall) -> bool:
    return bool(_HANDOFF.search(call.name))


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


def _other_action(case: RunCase) -> tuple[str, str] | None:
    """The request names an operation; the run performed another (a successful call whose
    name holds a different operation) and never the one asked."""
    # A verb in the past tells what happened ("I've changed my mind", "it was cancelled"),
    # not what is asked.
    # Nor a verb in a clause that says which thing ("the ticket I buy for Saturday", "the
    # car we rent"): it names the object, the act asked comes after.
    asked = {stem(w) for w in _act_words(_WHICH_THING.sub(" ", _asked_text(case.input)))
             if not w.endswith("ed")} & _OPERATIONS
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
        acts.append((c, set(words) & (_OPERATIONS | _ACTION_VERBS)))
    # A call's name opens on its act (cancel_order cancels; the subscription of
    # cancel_subscription is its object): a run that performed an asked act did what was
    # asked, whatever else the request's words name ("my open order").
    # A call that changes a thing in general (change_plan, update_subscription) can carry an
    # upgrade or a downgrade, which are changes of level; its name says no other act.
    if any(_alike(first) & asked or first in _GENERAL_CHANGES and asked & _LEVEL_CHANGES
           for first in (_call_verb(c.name) for c, _ in acts)):
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


# Light verbs that name an act with their particle, the thing between them or not ("take my
# son off the squad", "put it on hold"): the act they name. "Take out" names withdrawing
# only with the thing between ("take money out"; "take out a loan" is borrowing); taking
# time off ("take a day off") removes nothing.
_NOT_TIME = r"(?!(?:\s+\w+){0,2}\s+(?:days?|time|weeks?|weekend|morning|afternoon|evening|leave)\b)"
_PHRASAL = tuple((re.compile(pattern.replace("_", r"(?:\s+[\w'-]+){0,3}?\s+"), re.IGNORECASE), act)
                 for pattern, act in (
    (rf"\b(?:take|taking|took){_NOT_TIME}_off\b", "remove"),
    (r"\b(?:get|getting) rid of\b", "remove"),
    (r"\b(?:put|putting)_on hold\b", "pause"),
    (r"\b(?:set|setting)_up\b", "create"),
    (r"\b(?:sign|signing|signed)_up\b", "register"),
    (r"\b(?:turn|turning|turned|switch|switching|switched)_off\b", "disable"),
    (r"\b(?:turn|turning|turned|switch|switching|switched)_on\b", "enable"),
    (r"\b(?:pay|paying) in(?:to)?\b", "deposit"),
    (r"\b(?:take|taking|took)(?:\s+[\w'-]+){1,3}?\s+out\b", "withdraw"),
    (r"\b(?:top|topping|topped)_up\b", "add"),
    (r"\bmoney back\b", "refund"),
))


def _phrasal_act(text: str) -> str | None:
    return next((act for rx, act in _PHRASAL if rx.search(text)), None)


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
        # A change in general ("You can switch in the app") carries an upgrade or a
        # downgrade, as a change_plan call does in _other_action.
        if stem(verb) in _GENERAL_CHANGES and asked & _LEVEL_CHANGES:
            return None
        return said, verb
    return None


# A question for a value of one kind: an amount, a count or a duration.
_ASKS_VALUE = re.compile(r"\b(?:how (?:much|many|long)|what(?:'s| is| does) (?:the |it )?"
                         r"(?:cost|price|fee))\b", re.IGNORECASE)
_FREE = _phrases(r"free|no (?:extra )?(?:charge|cost|fee)|included|costs? nothing|at no cost")
_LIST_MARK = re.compile(r"^\s*\d{1,2}[.)]\s", re.MULTILINE)
_COUNT_WORDS = _phrases(r"one|two|three|four|five|six|seven|eight|nine|ten|twelve|none|a few|"
                        r"several|dozens?")
_DURATION_WORDS = _phrases(r"days?|weeks?|hours?|minutes?|months?|years?|overnight")


def _value_unmet(case: RunCase) -> str | None:
    """A question (the request's only one) for an amount, a count or a duration, and an
    answer of two sentences or more that states none and is no refusal or question back:
    it answered another question (`how much does it cost` with upload steps)."""
    asked_text = _asked_text(case.input)
    m = _ASKS_VALUE.search(asked_text)
    out = case.output
    # Of a request in several parts, one left unanswered is a partial answer, not this.
    if m is None or len(_parts(asked_text)) > 1 or len(split_claims(out)) < 2 \
            or out.rstrip().endswith("?") or is_refusal(out):
        return None
    # Any number counts (10p, a rate in a unit nobody lists), but not a list's own.
    numbered = bool(re.search(r"(?<![A-Za-z])\d", _LIST_MARK.sub(" ", out)))
    asked = m.group(0).lower()
    if asked == "how long":
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
    if m is None or _THIRD_PERSON_WORDS.search(out) or not re.search(r"\byour\b", out, re.IGNORECASE) \
            or (len(split_claims(out)) < 2 and not _USERS_OWN.search(out)) or _drafted(case):
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


# Translating, named in the languages users write in: "translate", "traducir", "übersetzen",
# "çevir", "tłumaczenie", "перевод", "翻訳", "dịch", "अनुवाद", "ترجمة", "μετάφραση".
_TRANSLATE = re.compile(r"translat|tradu[cçizs]|[üu]bersetz|çevir|cevir|tłumacz|перев[оеё]д|翻[訳译譯]|번역|"
                        r"\bdịch|अनुवाद|ترجم|μετάφρ|vertaal|overs[æä]tt?|käänn|fordít", re.IGNORECASE)


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
_DAY_OF_MONTH = re.compile(r"\bthe (\d{1,2})(?:st|nd|rd|th)\b", re.IGNORECASE)


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
        if first not in request and names and not names & set(flat.split()):
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
_SOURCE_MARGIN = 0.1
_DRAWN_MARGIN = 3  # or this many more of the answer's own words come from its source
_ENTRY_WORDS = 5  # and this much closer than to any part that holds the asked-for word
_SEGMENT = re.compile(r"(?<=[.;])\s+|\n+|\s+[\u2014\u2013]\s+(?=[A-Z])")


def _argmax(xs: Sequence[float]) -> int:
    return max(range(len(xs)), key=xs.__getitem__)


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
_GLUE = frozenset({"of", "and", "for", "the", "on", "to", "in", "a", "an"})


def _spelled_out(evidence: str, request: str) -> set[str]:
    """The evidence's acronyms whose letters are the initials of words the request writes in
    a row, small words between them skipped (HELOC: home equity line of credit)."""
    words = re.findall(r"[a-z]+(?:'[a-z]+)?", request.lower())
    spelled = ("".join(w[0] for w in words), "".join(w[0] for w in words if w not in _GLUE))
    return {stem(a.lower()) for a in _ACRONYM_WORD.findall(evidence)
            if any(a.lower() in initials for initials in spelled) and a.lower() not in words}


def _written(stem_: str, text: str) -> str:
    """The stem as the text writes it ("charge" for "charg"), for reasoning a person reads."""
    for w in _words(text):
        if stem(w.replace("-", "")) == stem_:
            return w.lower()
    return stem_


def _titled(doc: str, word: str) -> bool:
    """The word is in the document's title ("Product sheet (80 lb concrete mix): …"), which
    names what every entry of it is about."""
    title, colon, _ = doc.partition(":")
    return bool(colon) and doc.count(":") == 1 and word in word_stems(title)


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
    # heading): it is the part asked about.
    if cos[best] < _SOURCE_COS or any(w in seg_stems[best] and not all(w in st for st in seg_stems)
                                      for w in missing):
        return None
    # Where each clause of the answer comes from: one drawn from an entry holding the
    # word means the answer did take up the thing asked about. Embedded only now: most
    # answers stop at the test above (a vector does not depend on its batch).
    # Bounded: in a chat the answer read may be everything the agent said.
    parts = [c for sent in split_claims(case.output) for c in clauses(sent)][:_MAX_UNITS]
    clause_vectors = embed([head(t, _EMBED_WORDS) for t in parts]) if parts else []
    sources = {_argmax([float(v @ vectors[i + 1]) for i in range(n)]) for v in clause_vectors}
    where = entries[best][1]
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
        lexical = where not in other and drawn[where] - max(drawn[s] for s in other) >= _DRAWN_MARGIN
        if best not in holding and not titled and not sources & set(holding) \
                and (cos[best] - max(cos[i] for i in holding) >= _SOURCE_MARGIN or lexical):
            return _written(w, part), segments[best]
    return None


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


_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _marks(text: str) -> set[str]:
    """What tells one record from another as a text writes it: its words' stems and its
    numbers of three digits or with decimals ("14,99 €" is 14.99, "$1,284" is 1284). A name
    in the possessive ("Luna's results") is the name."""
    out = set(word_stems(re.sub(r"['\u2019]s\b", "", text)))
    for n in _NUMBER.findall(text):
        n = n.replace(",", ".") if re.fullmatch(r"\d+,\d\d", n) else n.replace(",", "")
        if "." in n or len(n) >= 3:
            out.add(f"{float(n):g}")
    return out


def _record_swap(case: RunCase) -> tuple[str, str] | None:
    """Of a list of records the run read, the request names one by what only it holds
    ("my savings account", "the 1200 crystals", "my HOME insurance"), and the answer tells
    another by two things only that one holds (its name, its price, its code) and nothing
    of the named one: it answered about the wrong record. (asked word, record told)."""
    asked = _marks(_asked_text(case.input))
    told = _marks(case.output)
    for rows in _read_records(case.tools_called):
        marks = [_marks(" ".join(_scalars(r))) for r in rows]
        own = [m - set().union(*(o for j, o in enumerate(marks) if j != i)) for i, m in enumerate(marks)]
        # A word of the request names a record by its start too ("home" for "homeowners").
        named = [{w for w in o if w in asked or any(len(a) >= 4 and w.startswith(a) for a in asked)}
                 for o in own]
        best = max(range(len(rows)), key=lambda i: len(named[i]))
        if not named[best] or sum(len(n) == len(named[best]) for n in named) > 1 or own[best] & told:
            continue
        other = next((i for i, o in enumerate(own) if i != best and len(o & told) >= 2), None)
        if other is not None:
            return _written(min(named[best]), case.input), "; ".join(
                f"{k}: {v}" for k, v in rows[other].items() if isinstance(v, (str, int, float)))
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
    told = _marks(case.output)
    said = word_stems(case.output)
    plain = word_stems(" ".join(t for t in split_claims(case.output) if not _SETS_APART.search(t)))
    for rows in _read_records(case.tools_called):
        marks = [_marks(" ".join(_scalars(r))) for r in rows]
        own = [m - set().union(*(o for j, o in enumerate(marks) if j != i)) for i, m in enumerate(marks)]
        for key in {k for r in rows for k, v in r.items() if isinstance(v, str)}:
            kinds = {str(r.get(key, "")).lower() for r in rows}
            # A kind is named by a word no other kind holds ("Skyfarm" is in both the game
            # and "500 Coins (Skyfarm)": it names neither).
            words = {v: word_stems(v.replace("_", " ")) for v in kinds}
            own_words = {v: w - set().union(*(o for u, o in words.items() if u != v)) for v, w in words.items()}
            named = [v for v in kinds if v and own_words[v] & asked and not words[v] & said]
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
                return _written(min(own_words[named[0]] & asked), case.input), "; ".join(
                    f"{k}: {v}" for k, v in rows[other].items() if isinstance(v, (str, int, float)))
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
            parts += [(str(k), v if isinstance(v, str) else json.dumps(v)) for k, v in data.items()]
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
    if not named or any((_key_words(k) - _ATTRIBUTE_WORDS) & word_stems(case.output) for k, _ in named):
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
                    or _named(w, case.input) != _named(s, case.output):
                continue
            # What the request calls the named passage, that the other does not hold.
            label = word_stems(mine[0]) & request - word_stems(" ".join(theirs))
            only_theirs = own & (_told_marks(" ".join(theirs)) - _told_marks(" ".join(mine)))
            only_mine = own & (_told_marks(" ".join(mine)) - _told_marks(" ".join(theirs)))
            if len(only_theirs) - len(only_mine) >= _DRAWN_MARGIN and not only_mine & _figures(case.output) \
                    and not label & word_stems(first):
                return _written(w, case.input), _written(s, case.output)
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


def _field_swap(case: RunCase) -> tuple[str, str] | None:
    """One record of figures the run read ({"ndcg@10": 0.287, "precision@10": 0.164,
    "recall@10": 0.412}), the request naming one field by its key ("recall@10"): the answer
    states other fields' values and never the named one's, nor its name. (asked field,
    field told)."""
    asked = case.input.lower()
    told = {m for m in _marks(case.output) if re.fullmatch(r"[\d.]+", m)}
    for _, data in _json_outputs(case.tools_called):
        for fields in _numeric_fields(data):
            # A short key names a figure when it holds a digit ("f1", "p95"), not "id" or "n".
            named = [k for k in fields if (len(k) >= 3 or re.search(r"\d", k)) and re.search(rf"(?<![\w@]){re.escape(k.lower())}(?![\w@])", asked)]
            if len(named) != 1:
                continue
            # The figure named in the answer, or given as a percentage (0.025 as "2.5%"), is told.
            value = fields[named[0]]
            if {f"{value:g}", f"{value * 100:g}"} & told or named[0].lower() in case.output.lower():
                continue
            shown = [k for k, v in fields.items() if k != named[0] and v != value
                     and f"{v:g}" in told and ("." in f"{v:g}" or abs(v) >= 100)]
            if shown:
                return named[0], shown[0]
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


# A measure's short name, two capitals or more and letters only: "ADR", "RevPAR", "MTTR".
_ACRONYM = re.compile(r"\b(?=[a-z]*[A-Z][a-z]*[A-Z])[A-Za-z]{2,8}\b")
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


# The findings that say the run took up another task (the rest of the evidence measures),
# each as read on a case.
_OTHER_TASK: dict[str, Callable[[RunCase, Embed], object]] = {
    "substitute": lambda case, embed: _substitutes(case) or _sibling_phrase(case) or _acronym_swap(case),
    "opposite": lambda case, embed: _opposite(case) or _changed_other_way(case) or _other_side(case),
    "slot_swap": lambda case, embed: _slot_swap(case),
    "reversed": lambda case, embed: _reversed_route(case) or _unit_swap(case) or _reversed_conversion(case),
    "wrong_source": lambda case, embed: (_wrong_source(case, embed) or _record_swap(case) or _kind_swap(case)
                                         or _field_swap(case) or _sibling_passage(case)),
    "acted_on": lambda case, embed: _acted_sibling(case, embed),
    "other_action": lambda case, embed: _other_action(case),
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
    sub = _substitutes(case) or _sibling_phrase(case) or _acronym_swap(case)
    ev.flag("substitute", sub is not None,
            f'asked about "{sub[0]}", the answer is about "{sub[1]}" instead' if sub else "")
    opp = _opposite(case) or _changed_other_way(case) or _other_side(case)
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
              or _branch_swap(case) or _sibling_passage(case) or _key_swap(case)) \
        if sub is None and sources else None
    ev.flag("wrong_source", source is not None,
            f'the request\'s "{source[0]}" is in the evidence, but the answer restates another '
            f'part of it: "{_short(source[1], 10)}"' if source else "")
    acted = _acted_sibling(case, embed)
    ev.flag("acted_on", acted is not None,
            f'asked about "{acted[0]}", the run acted on "{acted[1]}"' if acted else "")
    action = _other_action(case)
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


# --- OFF_TOPIC_DRIFT ------------------------------------------------------------------

_OFF_COS = 0.3  # a unit this far from the request, naming none of its words, is off it
_ANCHOR_COS = 0.4  # the run began on the request: some unit at least this close to it
_COHESION_COS = 0.4
_TAIL_COS = 0.2  # an unannounced stretch must be far from the request on average
_TAIL_UNITS, _TAIL_SHARE = 2, 0.35  # off units in a row, and their share of the run's words

# Words that announce a digression: an aside, an anecdote, a bit of history or trivia.
_DIGRESSION = re.compile(
    r"^(?:(?:but|and|so|oh),? )?(?:by the way|btw|interestingly|fun fact|incidentally|on a side note|side note|"
    r"while (?:you're|you are|i'm|i am|i was) (?:here|at it|checking)|while checking|"
    r"also,? did you know|did you know|that reminds me|honestly|looking back|as an aside|"
    r"it(?:'s| is) worth stepping back|now looking at|switching to|also reviewing|"
    r"talking of|on an? (?:completely |totally |entirely )?(?:different|unrelated|separate) note|"
    r"on (?:that|this|a related) (?:subject|topic)|while (?:we're|we are) on the (?:subject|topic)|"
    r"unrelated(?:ly)?,|off[- ]topic|random(?:ly)?,|as an ai|i also took the (?:chance|opportunity)|"
    r"(?:and )?let me tell you|fun story|true story|a bit of history)\b|"
    r"\b(?:is|are) (?:so |really |truly )?(?:fascinating|an interesting (?:world|topic|story|"
    r"field))|\b(?:fascinating|interesting),? actually\b|\btakes me back\b|\bthe history of\b|"
    r"\bgoes back to\b|\bspeaking of\b|\bi remember\b|\bwhen i was\b|\bback in (?:my|the)\b|"
    r"\bi once\b|\breminds me\b|\bmore broadly\b|\bhave you (?:thought about|considered)\b|"
    r"\blast (?:summer|year|week|month|winter|spring) i\b|\bmy (?:cousin|friend|roommate|wife|"
    r"husband|mom|dad|sister|brother|grandmother|grandfather)\b|\bwhen you work with\b|"
    r"#1\b|\baward-winning\b|\bmakes? (?:you|me|one|us) wonder\b|"
    # A sentence that turns to the subject in general ("Pumpkin is such a versatile
    # ingredient!", "Trams have a long history here", "Student debt is a huge topic").
    r"^(?:[\w'-]+ ){1,5}(?:is|are|has|have) (?:(?:such|so|a|an|really|quite|truly) )*(?:huge|"
    r"big|great|long|rich|fascinating|versatile|wonderful|amazing|hot|controversial) (?:\w+ )?"
    r"(?:topic|history|subject|story|debate|issue|day|ingredient|thing)\b",
    re.IGNORECASE,
)
_PROMOTION = re.compile(
    r"\b(?:upgrade|premium|pro tier|tier|discount|\d+% off|free (?:trial|months?|router)|"
    r"special offer|limited[- ]time|exclusive|refer a friend|loyal customers|check out our|"
    r"our new|new \w+ (?:plan|tier|feature)|customer stories|bundle|sign up|subscribe|"
    r"prizes|challenge|classes|deal|(?:for|from) (?:just|only)|why not|have you (?:heard|seen)|"
    r"don't miss|introducing|join our|follow us|our sister|sister (?:company|brand|store|shop|"
    r"nursery|site|clinic|centre|center)|ranked|top \d+ (?:nationally|in the)|state-of-the-art|"
    r"world-class|boasts?|social media)\b",
    re.IGNORECASE,
)
# Those words sell only in a selling frame: the business speaking of its own offer ("our",
# "we offer"), a price or a saving, or a call to buy. Alone they are ordinary verbs and
# nouns: "you can challenge the ticket", "the deal depends on the spread".
_SELLING_FRAME = re.compile(
    r"\b(?:our|we offer|we're running|we are running)\b|[$€£] ?\d|\b\d+(?:[.,]\d+)? ?(?:dollars|"
    r"euros|pounds|bucks)\b|\b(?:a|per) (?:month|year)\b|/mo\b|% off|\bfree\b|\bsign up\b|"
    r"\bsubscribe\b|\bjoin\b|\bfollow us\b|\bhave you (?:heard|seen|tried|checked)\b|\bwhy not\b|"
    r"\bdon't miss\b|\bintroducing\b|\btoday\b|\bcode\b|\b(?:for|from) (?:just|only)\b",
    re.IGNORECASE,
)


@lru_cache(maxsize=4096)  # asked twice of a unit after the anchor
def _sells(unit: str) -> bool:
    text = _prose(unit)
    return _together(text, _PROMOTION, _SELLING_FRAME) or _together(text, _SELLING_FRAME, _PROMOTION)


def _together(unit: str, one: re.Pattern[str], then: re.Pattern[str]) -> bool:
    """One statement says both: a sentence says ``one``, and it or the next says ``then``.
    A long note (a coding agent's reasoning) holds "classes" in one paragraph and "code"
    in another."""
    if not (one.search(unit) and then.search(unit)):
        return False
    sentences = split_claims(unit) or [unit]
    return any(one.search(s) and then.search(" ".join(sentences[i:i + 2])) for i, s in enumerate(sentences))


# A request about pricing its own goods ("mark down the puffer jackets") asks for discounts
# and competitors' prices: no selling.
_ASKS_OFFERS = re.compile(r"\b(?:cheaper|plan|plans|offer|deal|discounts?|upgrade|price|cost|save|"
                          r"mark(?:ing)? (?:it |them |\w+ )?down|markdowns?|promotions?|clearance)\b",
                          re.IGNORECASE)


def _units(case: RunCase) -> list[tuple[str, bool]]:
    """The run's texts in order, steps first, then the answer's sentences; each with
    whether it is a list item (a facet of the answer, never a digression by itself)."""
    # A fenced block in a step quotes the code or output the run read or wrote: material,
    # not where the run went.
    steps = [_FENCED.sub(" ", s).strip() for s in case.steps]
    out: list[tuple[str, bool]] = [(s, False) for s in steps if s]
    # A tool call written out as JSON is where the run went, not words on a subject.
    for line in [] if written_call(case.output) else case.output.splitlines():
        # A table's rule line ("|---|---|") says nothing; each row is an entry of the table,
        # as an item is of a list.
        if not re.search(r"\w", line):
            continue
        listed = bool(re.match(r"^\s*(?:[-*•]|\d+[.)])\s+|^\s*\|", line))
        # Items numbered within one line ("… checklist: (1) … (2) Anmeldung — register …")
        # are the list's items too, each a facet of the answer.
        out.extend((sent, listed or bool(_INLINE_ITEM.match(sent))) for sent in split_claims(line))
    return out[:_MAX_UNITS]


_INLINE_ITEM = re.compile(r"\s*\(\d{1,2}\)\s")


_WHEN_LEAD = re.compile(r"^(?:on|before|after|when|once|at|tomorrow|tonight)\b(?:\s+[\w'-]+){0,4},\s*", re.IGNORECASE)
_ADVICE = re.compile(
    r"^(?:(?:please|just|also|then|and|but) )?(?:bring|wear|take|keep|pack|use|try|check|avoid|"
    r"add|put|remember|don't|do not|make sure|be sure)\b|"
    r",? so (?:a|an|the|you|your|it)\b[^.!?]*\b(?:helps?|is (?:a good|worth)|need|should|"
    r"(?:is|are) (?:useful|handy|wise))\b",
    re.IGNORECASE,
)
# The service around a request, in any domain: sympathy ("I completely understand you're in
# pain"), the identity check and the rule behind it ("I'm required to verify your identity"),
# asking the user for their details, a hand-off or a hold. It names none of the request's
# words yet is the agent serving it; an aside that opens on sympathy is still an aside.
_SERVICE = _phrases(
    r"i (?:completely |totally |fully |really |do )?(?:understand|appreciate|hear you)|(?:i'm|i am) "
    r"(?:so |very |really |truly )?sorry|sorry (?:to hear|for|about)|i apologi[sz]e|"
    r"verif(?:y|ied|ication)|identity|authenticat\w*|security (?:check|questions?)|privacy|"
    r"polic(?:y|ies) (?:is|are|requires?|says|states|does|do|to|that)|(?:per|under) (?:our |the )?"
    r"(?:\w+ )?polic(?:y|ies)|(?:please )?(?:hold|stay on the line)|one moment"
)
# A brief well-wish that closes the work ("Have fun!", "Enjoy the game!"): courtesy, not
# a subject of its own.
_WELL_WISH = _phrases(r"have (?:fun|a (?:\w+ )?(?:time|trip|game|stay|visit|day|evening|weekend))|"
                      r"enjoy|good luck|best of luck|safe travels|bon voyage")
_WISH_WORDS = 6


def _serves(unit: str) -> bool:
    """The unit is service around the request: sympathy, an identity check, its rule, a
    question for the user's details, a hand-off or a hold, a closing well-wish."""
    return not (_PERSONAL.search(unit) or _DIGRESSION.search(unit)) and bool(
        _SERVICE.search(unit) or _ASKS_USER.search(unit) or _announces_handoff(unit)
        or (len(unit.split()) <= _WISH_WORDS and _WELL_WISH.search(unit)))


_PERSONAL = re.compile(
    r"\b(?:I|we) (?:went|make|love|loved|grew up|used to|lived|once)\b|\bmy (?:family|favourite|"
    r"favorite|own|top tips|friends?|flatmates?|childhood)\b|\bfamily favou?rite\b|"
    r"\bwhen (?:I|we) (?:first )?(?:was|were|toured|travell?ed|traveled|lived|visited|grew|started|"
    r"began|joined|worked)\b|\bI (?:still )?remember (?:when|the time|once|one)\b|"
    r"\b(?:a few|many|some|two|three) years ago\b",
)
# A step that opens a piece of work rather than reporting a result: a gerund first ("Drafting
# a proposal…", "Pulling last year's data"), or an announced next move.
_NEW_WORK = re.compile(r"^(?:(?:now|also|meanwhile|next),? )?(?:[A-Za-z]+ing\b|let me\b|"
                       r"(?:i'm |i am )?going to\b|i'll\b|switching to\b)", re.IGNORECASE)
# The agent reporting work of its own: "I've also refreshed…", "I topped up…".
_REPORTS_WORK = re.compile(r"^(?:(?:also|and|then),? )?(?:i|we)(?:'ve| have)? (?:also |just |now )?[a-z]+ed\b|"
                           r"^(?:(?:also|and|then),? )?(?:i|we)(?:'ve| have) (?:also |just |now )?(?:re)?(?:sent|made|"
                           r"set|put|done|written|drawn|taken|built|run|begun)\b", re.IGNORECASE)
_TOPIC_COS = 0.45  # after a digression marker, a unit this far from request and answer is chat
_FAR_COS = 0.25  # a unit this far from the request is about something else, whatever its words


def _marked_digressions(
    units: Sequence[tuple[str, bool]], cos: Sequence[float], vectors: Any, words: Sequence[int],
    total: int,
) -> list[tuple[int, int, float]]:
    """Digressions announced in so many words ("Interestingly, …", "I remember …",
    "X is fascinating"): for each marked unit after the answer's first on-request unit,
    (that unit, how many units from it on, and their share of the run's words, serve
    neither the request nor that first unit: they talk around the subject)."""
    anchor = max(range(min(2, len(units))), key=lambda i: cos[i])
    out = []
    for start in range(anchor + 1, len(units)):
        if units[start][1] or not _DIGRESSION.search(units[start][0]):
            continue
        loose = [i for i in range(start, len(units)) if not units[i][1] and max(
            cos[i], float(vectors[i + 1] @ vectors[anchor + 1])) < _TOPIC_COS]
        out.append((start, len(loose), sum(words[i] for i in loose) / total))
    return out


_AMOUNT = re.compile(r"^\d+(?:\.\d+)?(?:gb|mb|tb|kb|kg|mg|ml|km|cm|mm|lbs?|oz|l|g|m|k|x|h|s|pm|am)$")


def _is_id(term: str) -> bool:
    """An id names one thing (CL-30112, unit 3B, 55120); "3GB" or "10kg" is an amount."""
    digits = sum(c.isdigit() for c in term)
    return (digits >= 3 or (digits >= 1 and any(c.isalpha() for c in term))) and not _AMOUNT.match(term)


# The commonest words of English and of the Romance languages: a sentence is in the one
# whose words it uses.
_ENGLISH = frozenset({
    "the", "and", "to", "of", "is", "you", "your", "i", "it", "for", "that", "in", "on", "with",
    "my", "can", "this", "me", "be", "are", "have", "was", "what", "please", "will", "we",
})
_ROMANCE = frozenset({
    "el", "la", "los", "las", "de", "del", "que", "en", "por", "para", "con", "una", "es", "tu",
    "su", "lo", "se", "le", "les", "y", "al", "como", "pero", "más", "muy", "este", "esta", "et",
    "est", "pour", "dans", "une", "il", "du", "des", "ou", "não", "em", "um", "uma", "os", "da",
    "do",
})


def _foreign(request: str, units: Sequence[tuple[str, bool]]) -> list[bool]:
    """Which units are in another language than an English request."""
    def shares(text: str) -> tuple[float, float]:
        words = re.findall(r"[^\W\d_]+", text.lower()) or [""]
        return (sum(w in _ENGLISH for w in words) / len(words),
                sum(w in _ROMANCE for w in words) / len(words))
    en, other = shares(request)
    if en <= other:
        return [False] * len(units)
    return [other >= 0.15 and other > 2 * en for other, en in
            (shares(u)[::-1] for u, _ in units)]


def _record_words(case: RunCase, asked: frozenset[str]) -> frozenset[str]:
    """The words the run's successful calls on the request returned (a call whose output
    itself names a word of the request: the job record's "battery_install"), beyond the
    request's own. A search sent off with the request's words ("vegetarian restaurants
    Lisbon", EV listings near the user's town) returns another subject's records."""
    out: set[str] = set()
    for c in case.tools_called:
        said = word_stems(tool_text(c.output).replace("_", " "))
        if not _failed(c) and said & asked:
            out |= said
    return frozenset(out - asked)


def _drift_by_meaning(
    case: RunCase, units: Sequence[tuple[str, bool]], lexical_off: Sequence[bool],
    asked: frozenset[str], embed: Embed, ev: Evidence,
) -> None:
    """The embedding half of OFF_TOPIC_DRIFT: stretches far from the request, announced
    digressions, selling, and how much of the run is far from the request."""
    # A tool call an importer rendered as a step (``get_order({"id": …})``) is the run's work
    # on the request; its JSON is far from any sentence to the embedder, whatever it does,
    # and costs twice a sentence's tokens. It stands where the request does: on it.
    calls = [_is_rendered_call(u) for u, _ in units]
    said = embed([head(t, _EMBED_WORDS) for t in [case.input, *(u for (u, _), c in zip(units, calls) if not c)]])
    rows = iter(range(1, len(said)))
    vectors = said[[0, *(0 if c else next(rows) for c in calls)]]
    # A unit in another language than the request (a reply in Spanish to a request in
    # English) is far from it to the embedder whatever it says: its distance is no evidence.
    foreign = _foreign(case.input, units)
    # A side matter the call doing the asked act carries ("I saw an open recall, so I've
    # added it to the same visit", the booking's arguments naming the recall) is part of
    # that work, however far its words are from the request's. Such a matter is an argument
    # that names nothing the request does: "world_connect_india" is the pack asked for. A
    # call that names nothing of the request, by its name or an argument (an edit to the
    # Dockerfile when a billing test was to be fixed), carries nothing of it: other work.
    carried = {w for c in _asked_acts(case)
               if any(word_stems(re.sub(r"_", " ", str(v))) & asked for v in [c.name, *c.args.values()])
               for v in c.args.values()
               for item in (v if isinstance(v, list) else [v])
               if not word_stems(str(item)) & asked for w in word_stems(str(item)) if w.isalpha()}
    cos = [1.0 if foreign[i] or word_stems(units[i][0]) & carried else float(vectors[0] @ vectors[i + 1])
           for i in range(len(units))]
    cos = _nearer_to_ask(case, vectors, cos, embed)
    # Advice to the user ("Bring a cap…", "…, so a spare layer helps") serves the goal
    # whatever it names: a tangent narrates, it does not tell the user what to do.
    # A unit that tells what a call on the request returned ("They'll need access to the
    # meter cupboard", the job's record naming it) is the answer's own matter.
    record = _record_words(case, asked)
    off = [lexical_off[i] and cos[i] < _OFF_COS and not _ADVICE.search(units[i][0]) and not _serves(units[i][0])
           and len(word_stems(units[i][0]) & record) < 2 for i in range(len(units))]
    # Once the asked act is done (the slot booked), what its call returned (the booking's
    # ref) and advice on carrying it out ("On the day, bring your ID card") serve it: they
    # are no share of the run far from the request, however far their words.
    acts = _asked_acts(case)
    booked = frozenset().union(*(word_stems(tool_text(c.output).replace("_", " ")) for c in acts)) - asked
    served = [bool(acts) and (bool(_ADVICE.search(_WHEN_LEAD.sub("", u))) or _serves(u)
                              or len(word_stems(u) & booked) >= 2) for u, _ in units]
    # A unit close to an earlier unit that is on the request continues that answer (the
    # next tip, a consequence), however few of the request's words it repeats.
    for i in range(len(units)):
        if off[i] and any(not off[j] and float(vectors[i + 1] @ vectors[j + 1]) >= _COHESION_COS
                          for j in range(i)):
            off[i] = False
    words = [len(u.split()) for u, _ in units]
    total = sum(words) or 1
    # Steps off the request that start other work ("Pulling the Q1 fleet report…", "Let me
    # see what's trending"), wherever they fall: a run may wander first and answer last.
    n_steps = min(sum(1 for s in case.steps if s.strip()), len(units))
    # A step whose words the answer's finding on the request takes up ("the problem is DNS
    # … from our VPC" after "Compare DNS from VPC vs public") was the way to that answer.
    taken = _taken_up(units, cos, n_steps)
    stray = [i for i in range(n_steps) if off[i] and _NEW_WORK.search(units[i][0]) and i not in taken] or _wandered(
        [lexical_off[i] and cos[i] < _OFF_COS and i not in taken for i in range(n_steps)])
    # The answer's report of that other work ("I've also refreshed the Room B equipment
    # list") is more of it, once the steps show the run went off to it.
    if stray:
        stray += [i for i in range(n_steps, len(units)) if off[i] and _REPORTS_WORK.search(units[i][0])]
    # The answer telling what a call about something else returned is that other work too.
    drawn = [i for i in _drawn_off(case, units, n_steps, embed) if i not in stray]
    ev.flag("stray_work", sum(words[i] for i in stray + drawn) / total,
            f'a step goes off to other work: "{_short(units[stray[0]][0])}"' if stray else
            f'it tells what a call about something else returned: "{_short(units[drawn[0]][0])}"' if drawn else "")
    anchored = max(cos) >= _ANCHOR_COS or any(word_stems(u) & asked for u, _ in units[:2])
    # The longest run of off units after the first unit that is on the request.
    first_on = next((i for i, o in enumerate(off) if not o), len(off))
    later = range(first_on + 1, len(units))
    ev.flag("off_share", sum(words[i] for i in later if off[i]) / total)
    ev.flag("min_far", max((1.0 - cos[i] for i in later if not units[i][1]), default=0.0))
    tail = [1.0 - c for c in cos[len(cos) * 2 // 3 :]] if len(cos) > 1 else [0.0]
    ev.flag("tail_far", sum(tail) / len(tail))
    ev.flag("never_on", 1.0 - max(cos))
    # A unit far from the request and from the answer's opening on it is about something
    # else, whatever words it shares with the request.
    anchor = max(range(min(2, len(units))), key=lambda i: cos[i])
    reach = [max(cos[i], float(vectors[i + 1] @ vectors[anchor + 1])) for i in range(len(units))]
    loose = [i for i in range(anchor + 1, len(units)) if not units[i][1]]
    ev.flag("isolation", max((1.0 - reach[i] for i in loose), default=0.0))
    ev.flag("isolated_share", sum(words[i] for i in loose if reach[i] < _OFF_COS and not served[i]) / total)
    best_start, best_len, start = -1, 0, -1
    for i in range(first_on + 1, len(off) + 1):
        if i < len(off) and off[i]:
            start = i if start < 0 else start
            continue
        if start >= 0 and i - start > best_len:
            best_start, best_len = start, i - start
        start = -1
    tail_cos = sum(cos[best_start : best_start + best_len]) / best_len if best_len else 1.0
    ev.flag("stretch", 0.0)
    ev.flag("digression", 0.0)
    if anchored and best_len >= 1 and tail_cos < _TAIL_COS:
        share = sum(words[best_start : best_start + best_len]) / total
        opener = units[best_start][0] if best_start >= 0 else ""
        marked = bool(_DIGRESSION.search(opener)) or (
            best_start > 0 and bool(_DIGRESSION.search(units[best_start - 1][0]))
        )
        if (best_len >= _TAIL_UNITS and share >= _TAIL_SHARE) or (marked and share >= _TAIL_SHARE):
            ev.flag("stretch", 1.0, f'units {best_start + 1}-{best_start + best_len} ({share:.0%} '
                    f'of the run) leave the request: "{_short(opener)}"')
    announced = _marked_digressions(units, cos, vectors, words, total) if anchored else []
    # However short: "Speaking of gambling, last summer I went to Vegas…" after a long answer.
    ev.flag("marked_share", max((share for _, _, share in announced), default=0.0))
    if "stretch" not in ev.notes:
        start, share = next(((start, share) for start, n, share in announced
                             if n >= _TAIL_UNITS and share >= _TAIL_SHARE), (-1, 0.0))
        if start >= 0:
            ev.flag("digression", 1.0, f'from unit {start + 1} ({share:.0%} of the run) it '
                    f'digresses: "{_short(units[start][0])}"')
    subject = _other_subject(case, units, cos, vectors, n_steps)
    if subject is not None and not ev.features["stretch"]:
        ev.flag("stretch", 1.0, f'no sentence of the answer is on the request; it tells of another '
                f'subject: "{_short(subject)}"')
    # A story of the past in place of the answer digresses however close its words keep.
    past = _past_told(case, units, cos, n_steps)
    if past is not None:
        note = f'most of the answer tells the past of something else: "{_short(past)}"'
        ev.flag("stretch", 1.0, ev.notes.get("stretch", note))
        ev.flag("digression", 1.0, note)
    # By meaning alone, whatever words they repeat: the units after the anchor far from
    # the request ("Pumpkin is such a versatile ingredient! For Thanksgiving I make…" after a
    # question about a dog eating pumpkin), and how far the rest of the run falls from it.
    after = [i for i in range(anchor + 1, len(units)) if not units[i][1]]
    ev.flag("far_share", sum(words[i] for i in after if cos[i] < _FAR_COS and not served[i]) / total)
    rest = sum(words[i] for i in after)
    ev.flag("fall", max(cos[anchor] - sum(cos[i] * words[i] for i in after) / rest, 0.0)
            if rest else 0.0)
    # The agent's own life ("For Thanksgiving I make…", "last summer I went…"): an anecdote.
    ev.flag("personal_share", sum(words[i] for i in after if _PERSONAL.search(units[i][0])) / total)
    promos = [u for i, (u, _) in enumerate(units) if _sells(u) and cos[i] < _OFF_COS]
    pitched = [i for i in after if _sells(units[i][0])]
    ev.flag("promo_share", 0.0 if _ASKS_OFFERS.search(case.input)
            else sum(words[i] for i in pitched) / total)
    ev.flag("promotion", len(promos) >= 2 and not _ASKS_OFFERS.search(case.input),
            f'it sells what was not asked about: "{_short(promos[0] if promos else "")}"')


def _nearer_to_ask(case: RunCase, vectors: Any, cos: list[float], embed: Embed) -> list[float]:
    """Each unit's cosine to the request, or to the parts of it that ask when those leave
    out chat ("omg the wedding is SO chaotic lol. anyway can I rent the piano again?"): the
    chat embeds with the request and pulls it away from every unit that answers."""
    ask = " ".join(_parts(case.input))
    if not ask or len(ask.split()) >= len(case.input.split()):
        return cos
    v = embed([head(ask, _EMBED_WORDS)])[0]
    return [max(c, float(v @ vectors[i + 1])) for i, c in enumerate(cos)]


# A sentence that names what caused the trouble asked about: a diagnosis's finding.
_NAMES_CAUSE = re.compile(r"\bthe (?:real |actual |root )?(?:problem|issue|cause|culprit) (?:is|was)\b|"
                          r"\bcaused by\b|\bbecause of\b", re.IGNORECASE)


def _taken_up(units: Sequence[tuple[str, bool]], cos: Sequence[float], n_steps: int) -> set[int]:
    """The steps that share a word with an answer sentence close to the request that names
    the cause of its trouble: the look they took found it."""
    on = frozenset().union(*(word_stems(units[i][0]) for i in range(n_steps, len(units))
                             if cos[i] >= _ANCHOR_COS and _NAMES_CAUSE.search(units[i][0])))
    return {i for i in range(n_steps) if word_stems(units[i][0]) & on}


def _wandered(far: Sequence[bool]) -> list[int]:
    """The steps after the run's first one on the request, when most of them, and at least
    _TAIL_UNITS, are far from it and name none of its words: the run went on to other work,
    however each step is worded ("Rewrote the README badges", "edited Dockerfile"). Steps
    of that other work are close to one another, so no step continues the request by its
    closeness to the one before it. One far step among many on it is a look around."""
    first_on = next((i for i, f in enumerate(far) if not f), len(far))
    later = [i for i in range(first_on + 1, len(far)) if far[i]]
    return later if len(later) >= _TAIL_UNITS and 2 * len(later) > len(far) - first_on - 1 else []


_SOURCE_MARKS = 2  # an answer unit shares this many words or numbers with what it restates
_SEARCHES = re.compile(r"search|find|query|look_?up|browse", re.IGNORECASE)


def _drawn_off(case: RunCase, units: Sequence[tuple[str, bool]], n_steps: int, embed: Embed) -> list[int]:
    """The answer's units that restate what a call returned about something else: each
    unit's source is the evidence item it shares most words and numbers with (a record of
    a list, else a call with its arguments), and that item is far from the request while
    another item of the run is nearer to it by a margin, or none is near (a search for ski
    resorts beside the sales query a demand forecast wanted; the "global recycling facts"
    result beside the collection calendar). What the run read for the request, however
    it answers, is no drift."""
    items: list[str] = []
    # A record of a listing is read with the call that listed it: an email of the inbox the
    # request asks about is that inbox's, however far its sender and subject are from the
    # request. A search's results are read alone: it returns whatever matches its words, a
    # review of the band's album for "Marlow Keys ticket resale rules".
    meant: list[str] = []
    keys: list[set[str]] = []  # the record each item's call was made on: an argument that is an id
    for call in case.tools_called:
        if _failed(call):
            continue
        lists = _call_records(call)
        asked = f"{call.name.replace('_', ' ')} {tool_text(json.dumps(call.args))}"
        records = [" ".join(_scalars(r)) for r in lists[0]] if lists else [f"{asked} {tool_text(call.output)}"]
        items += records
        meant += [f"{asked} {r}" for r in records] if lists and not _SEARCHES.search(call.name) else records
        keys += [{v.lower() for v in map(str, call.args.values()) if " " not in v and _is_id(v.lower())}] * len(records)
    if len(items) < 2:
        return []
    marks = [_marks(t) for t in items]
    sources = {}
    for i in range(n_steps, len(units)):
        if _reports_asked_act(case.input, units[i][0]):
            continue
        shared = [len(_marks(units[i][0]) & m) for m in marks]
        best = _argmax(shared)
        if shared[best] >= _SOURCE_MARKS and shared.count(shared[best]) == 1:
            sources[i] = shared
    # Fewer words restate a result than half the answer's: however far the results, the
    # test at the end fails, so nothing is embedded for it.
    if not sources or 2 * sum(len(units[i][0].split()) for i in sources) < sum(
            len(u.split()) for u, _ in units[n_steps:]):
        return []
    vectors = embed([head(t, _EMBED_WORDS) for t in [case.input, *meant]])
    cos = [float(vectors[0] @ vectors[j + 1]) for j in range(len(items))]
    near = [j for j, c in enumerate(cos) if c >= _OFF_COS or c > max(cos) - _SOURCE_MARGIN]
    # A call made on the same record as one near the request (the fee waived on the account
    # whose bill was compared) works on the user's case, however far its words.
    case_ids = set().union(*(keys[j] for j in near))
    near += [j for j in range(len(items)) if j not in near and keys[j] & case_ids]
    # A unit that restates a far result and at most a word of a near one ("held at the
    # Carlisle depot because of the snow warning" tells the tracking record too).
    off = [i for i, shared in sources.items() if _argmax(shared) not in near
           and sum(shared[j] for j in near) <= 1]
    # An answer that also tells what the run read for the request uses the far result to
    # explain or extend it (the storm that holds the flight): only an answer drawn wholly
    # from far results, and most of it, left the request.
    words = [len(units[i][0].split()) for i in range(n_steps, len(units))]
    if len(off) < len(sources) or 2 * sum(len(units[i][0].split()) for i in off) < sum(words):
        return []
    return off


def _reports_asked_act(request: str, unit: str) -> bool:
    """The unit opens on the request's own verb, done ("Fixed." for "Fix the hydration
    warning…", "Cancelled" for "Cancel…"): it reports the asked work, whatever files or
    records it names on the way."""
    asked = re.match(r"\W*(?:please\s+)?([a-z]+)", request, re.IGNORECASE)
    done = re.match(r"\W*(?:i(?:'ve| have)?\s+)?([a-z]+(?:ed|d))\b", unit, re.IGNORECASE)
    if not (asked and done):
        return False
    verb, did = asked.group(1).lower(), done.group(1).lower()
    return verb != did and stem(verb) == stem(did)


_SUBJECT_WORDS = 8  # a request this long states its subject; a terse note embeds poorly
_SUBJECT_UNITS = 3  # the answer's sentences that tell one subject at length
# A request twice that long states its subject beyond doubt: two sentences far from it
# tell another one (moving tips for a demurrage question that mentions a house move in
# passing), unless they frame a list.
_FULL_SUBJECT_WORDS = 2 * _SUBJECT_WORDS


def _other_subject(case: RunCase, units: Sequence[tuple[str, bool]], cos: Sequence[float],
                   vectors: Any, n_steps: int) -> str | None:
    """The answer's opening sentence when the whole answer is about another subject: a
    request that states its subject, and an answer of several sentences none of which, nor
    their sum, comes near it, whatever words they share with it ("fall", "student ID" in
    a football schedule given for a tuition due date). A chat's last reply answers the
    last message (a closing courtesy its thanks or goodbye), and a patch is the work; items
    of a list answer a broad goal one facet each: none is read."""
    if (len(case.input.split()) < _SUBJECT_WORDS or _chatted(case) or _CLOSING.match(case.output)
            or _patch_handed_in(case)):
        return None
    said = [i for i in range(n_steps, len(units)) if not units[i][1]]
    # A yes or a no to the request's question, in its own words ("Should we raise the BAR
    # for 8 November?" "Yes, I'd raise it."), takes that question up: its reasons (an event
    # that night, the comp set's rates) may sit far from the request to the embedder.
    if said and _ASKS_YES_OR_NO.search(case.input) and _REPLY.match(units[said[0]][0]) \
            and word_stems(units[said[0]][0]) & _part_stems(case.input):
        return None
    # A bare "Yes." to a question that asks whether something is so ("Is the IP … known-bad?"),
    # followed by what a call returned, answers it from the run's evidence: the reasons (a
    # Tor exit node, two threat feeds) may sit far from the request's words.
    if said and _bare_reply(case, [units[i][0] for i in said]):
        return None
    # The answer names the request's subject by its initials ("OTP" for "on-time
    # performance"): the embedder reads the two as strangers.
    if any(_initialled(case.input, units[i][0]) for i in said):
        return None
    # "Fixed." for "Fix the hydration warning": the answer reports the asked work done.
    if said and _reports_asked_act(case.input, units[said[0]][0]):
        return None
    # A call made on the request (its arguments name the request's words) returned a record,
    # and the answer restates nothing of it: one sentence far from the request is enough,
    # as the run had the asked thing in hand and told of something else ("magnitude" of
    # stars for a quake the catalogue returned).
    least = 1 if _record_ignored(case) else _SUBJECT_UNITS - (
        len(case.input.split()) >= _FULL_SUBJECT_WORDS and not any(listed for _, listed in units))
    # Two sentences that share no word with the request and are far from it even for a
    # terse note (TV picks for a double charge) tell another subject, however short.
    asked = _part_stems(case.input) | key_terms(case.input)
    if said and max(cos[i] for i in said) < _FAR_COS and not any(word_stems(units[i][0]) & asked for i in said):
        least = min(least, 2)
    if len(said) < least or max(cos[i] for i in said) >= _ANCHOR_COS or _restates_evidence(case, [units[i][0] for i in said]) \
            or _restates_own_reads(case, [units[i][0] for i in said]):
        return None
    whole = vectors[[i + 1 for i in said]].sum(axis=0)
    if float(vectors[0] @ whole) / max(float((whole @ whole) ** 0.5), 1e-9) >= _ANCHOR_COS:
        return None
    return units[said[0]][0]


_REPLY = re.compile(r"\W*(?:yes|no|probably(?: not)?|not)\b", re.IGNORECASE)
_BARE_REPLY = re.compile(r"\W*(?:yes|no|yeah|nope)\W*", re.IGNORECASE)
# A question whether something is so; "Can you …" / "Will you …" asks for an act, and its "Yes"
# agrees to do it.
_WHETHER = re.compile(r"\W*(?:is|are|was|were|does|do|did|has|have|had|should)\s+(?!you\b|u\b)\w",
                      re.IGNORECASE)


def _bare_reply(case: RunCase, said: Sequence[str]) -> bool:
    """The answer opens on a bare yes or no to a whether-question, and a later sentence of it
    restates what a successful call returned (two words or figures beyond the request's)."""
    if len(said) < 2 or not _BARE_REPLY.fullmatch(said[0]) or not _WHETHER.match(case.input):
        return False
    own = _marks(case.input)
    read = [_marks(tool_text(c.output)) - own for c in case.tools_called if not _failed(c)]
    return any(len(_marks(u) & m) >= _SOURCE_MARKS for u in said[1:] for m in read)


_INITIALS = re.compile(r"\b[A-Z]{3,6}\b")


def _initialled(request: str, unit: str) -> bool:
    """The unit writes in capitals the initials of words in a row of the request ("OTP",
    "on-time performance")."""
    words = re.findall(r"[^\W\d_]+", request.lower())
    firsts = "".join(w[0] for w in words)
    return any(a.lower() in firsts
               for a in _INITIALS.findall(unit) if not re.search(rf"\b{a}\b", request))


# The world's past told as a story: a year before this one's era ("in 1858", "the 1970s",
# "(1977)"), an age ("antiquity", "the 18th century"), a founding or an invention, a name's
# origin. A form number (1099-NEC), a reading (1222°C) or a tracking code is no year; an act
# "held by" or "made by" someone is the user's own matter, not history.
_PAST_TOLD = re.compile(
    r"(?:\b(?:in|since|from|until|till|by|circa|around|of|the|early|late|mid)\s+|\()1[0-9]{3}s?\b"
    r"(?![-\u2013/.,]?\d|\s?\u00b0|-)|(?<![\w$\u00a3\u20ac#/.-])1[0-9]{3}s\b|"
    r"\b(?:\d{1,2}(?:st|nd|rd|th)|[a-z]+(?:teenth|tieth)|first|second|third) century\b|"
    r"\b(?:antiquity|ancient|medieval|middle ages|the romans|bronze age|iron age|stone age)\b|"
    r"\b(?:was|were) (?:first )?(?:founded|invented)\b|\bdates? back\b|\b(?:takes|took|got|gets) (?:its|their) name\b|"
    r"\b(?:long|rich|fascinating|interesting|storied) history\b|\bhistorically\b",
    re.IGNORECASE,
)
_PAST_COS = 0.55  # a past told this close to the request is its background (a bridge's old piers)
# A past that draws its consequence for now explains the answer ("printed in huge numbers in
# 1840, so a used one sells for £30"): a reason, not a story.
_SO_NOW = re.compile(r",\s*so\b|\bwhich is why\b|\bthat(?:'s| is) why\b|\bthat'?s how\b", re.IGNORECASE)


def _past_told(case: RunCase, units: Sequence[tuple[str, bool]], cos: Sequence[float],
               n_steps: int) -> str | None:
    """The answer's first sentence of a story of the world's past, when that story is most
    of the answer and the request asks nothing of the past: a request for a route, a card's
    rate, a battery, answered with when toll roads, film credits or the company began. The
    request's words ("toll roads", "Canon") pull the story close to it for the embedder, so
    its own sentences may sit at an anchor's cosine; told in the past of the world, they are
    no answer to a task in the present. What follows the story's first sentence and stays
    far from the request ("Edwards later received the Nobel Prize") is more of it."""
    if _PAST_TOLD.search(case.input) or _chatted(case) or _patch_handed_in(case):
        return None
    said = [i for i in range(n_steps, len(units)) if not units[i][1]]
    told = [i for i in said if _PAST_TOLD.search(units[i][0]) and cos[i] < _PAST_COS
            and not _SO_NOW.search(units[i][0])]
    if not told:
        return None
    # Advice or service after the story ("Check the margins…") is the answer resumed.
    story = [i for i in said if i in told or (i > told[0] and cos[i] < _OFF_COS
                                             and not _ADVICE.search(units[i][0]) and not _serves(units[i][0]))]
    words = {i: len(units[i][0].split()) for i in said}
    if 2 * sum(words[i] for i in story) <= sum(words.values()):
        return None
    return units[told[0]][0]


def _restates_evidence(case: RunCase, said: Sequence[str]) -> bool:
    """Most of the answer's sentences restate a passage retrieved on the request (one that
    names two or more of its words): an answer in its source's terms
    ("release Encarsia formosa at 3-5 per m²" from the whitefly guide) is far from the
    request to the embedder, yet on it."""
    asked = _part_stems(case.input) | key_terms(case.input)
    own = _marks(case.input)
    # The passages retrieved for it, not what a call returned: a search sent with the
    # request's words returns other subjects' pages too ("wasp nest" cover in an insurer's).
    sources = [_marks(t) - own for t in case.context if len(word_stems(t) & asked) >= _SOURCE_MARKS]
    drawn = [u for u in said if any(len(_marks(u) & m) >= _SOURCE_MARKS for m in sources)]
    return 2 * len(drawn) > len(said)


_WEB_ADDRESS = re.compile(r"https?://|www\.")


def _restates_own_reads(case: RunCase, said: Sequence[str]) -> bool:
    """Most of the answer's sentences restate what a call on the request's own thing
    returned (an argument names a word of the request, and the call is no search): a
    diagnosis in its logs' and disks' terms ("No space left on device", "100%") for
    "matchmaking keeps crashlooping on prod-eu" is far from the request to the embedder,
    yet it is the run's finding on it. A search, or a web page fetched, returns whatever
    matches its words (a company's share price for its account's shortlist)."""
    asked = _part_stems(case.input) | key_terms(case.input)
    own = _marks(case.input)
    read = [_marks(tool_text(c.output)) - own for c in case.tools_called
            if not _failed(c) and not _SEARCHES.search(c.name) and not _WEB_ADDRESS.search(json.dumps(c.args))
            and word_stems(tool_text(json.dumps(c.args, ensure_ascii=False))) & asked]
    drawn = [u for u in said if any(len(_marks(u) & m) >= _SOURCE_MARKS for m in read)]
    return 2 * len(drawn) > len(said)


def _record_ignored(case: RunCase) -> bool:
    """Successful calls were made on the request (an argument names its words), and the
    answer restates nothing any of them returned beyond what the request itself says."""
    asked = _part_stems(case.input) | key_terms(case.input)
    on = [c for c in case.tools_called if not _failed(c) and c.output.strip()
          and word_stems(tool_text(json.dumps(c.args, ensure_ascii=False))) & asked]
    told = _marks(case.output) - _marks(case.input)
    return bool(on) and not any(_marks(tool_text(c.output)) & told for c in on)


# The user drops a question and asks another: "…actually never mind, found it. Different
# question: how do I lock the game to landscape?" The run answers the last one.
# Only a question dropped: "another question: …" asks one more beside the first.
_WITHDRAWN = re.compile(r"\b(?:never ?mind|nvm|forget (?:it|that|about (?:it|that))|scratch that)\b[^.?!:]*[.?!:]?",
                        re.IGNORECASE)


def _last_ask(request: str) -> str:
    """The request after its last withdrawn question, when it asks more; else the request."""
    ends = [m.end() for m in _WITHDRAWN.finditer(request)]
    rest = request[ends[-1]:].strip() if ends else ""
    return rest if len(rest.split()) >= 3 else request


def off_topic_evidence(case: RunCase, embed: Embed) -> Evidence:
    """What OFF_TOPIC_DRIFT weighs: stretches of the run far from the request, announced
    digressions, selling, another customer's case."""
    case = replace(case, input=_last_ask(case.input))
    units = _units(case)
    if not units:
        return Evidence()
    asked = _part_stems(case.input) | key_terms(case.input)
    names = key_terms(case.input)
    lexical_off = [not listed and not (word_stems(u) & asked) and not (key_terms(u) & names)
                   for u, listed in units]
    ev = Evidence()
    ev.flag("lexical_off", sum(lexical_off) / len(units))
    ev.flag("marker", any(_DIGRESSION.search(u) for u, _ in units[1:]))
    _drift_by_meaning(case, units, lexical_off, asked, embed, ev)
    mine = _case_ids(case.input)
    # An id the user named is theirs, however near another of theirs it is (col1, col2).
    others = {t for u, _ in units for t in _case_ids(u) - mine if any(_near(t, m) for m in mine)}
    ev.flag("other_case", bool(others),
            f"it works on {min(others)}, not the user's {min(mine)}" if others else "")
    # The person the request names ("Cancel tomorrow's visit for Mr Ahmed") is its own case;
    # another's matter found to cause the user's ("that tenant logged a leaking hose, very
    # likely the source") is the user's problem traced.
    other = next((u for u, _ in units if not _CAUSE.search(u) and any(
        _BARE_NAME.sub("", m.group(0)) not in case.input for m in _OTHER_PARTY.finditer(_VOCATIVE.sub("", u)))), None)
    ev.flag("other_party", other is not None, f'it turns to someone else\'s case: "{_short(other or "")}"')
    # A record the run came across and took up for its owner: "while checking, I saw unit
    # 3D has…, so I've sent them a notice"; the user is "you", that owner a third person.
    # The noticing and its owner in one statement: a long note holds an "I saw earlier"
    # and, paragraphs away, a "they" about something else.
    noticed = next((u for u, _ in units if not _SECOND_PERSON.search(u)
                    and _together(u, _NOTICED, _THIRD_PERSON)), None)
    ev.flag("noticed_other", noticed is not None,
            f'it takes up a case it came across: "{_short(noticed or "")}"')
    ev.flag("new_names", _new_names(case, units, others))
    return ev


# Someone other than the user, whose case the run takes up: "another customer", "that
# member", "the Hendersons' move", "Mrs. Patel"; not "that user ID RF12345" or "another
# user ID", a field of the user's own.
_OTHER_PARTY = re.compile(
    r"\b(?:another|other|that|a different|a second|one more) (?:customer|member|user|client|"
    r"passenger|patient|guest|donor|account ?holder|tenant|subscriber|player|student|family)\b"
    r"(?!\s+(?i:ids?|number|no|name|account)\b)|"
    r"\b(?:the )?[A-Z][a-z]+s' (?:\w+ )?(?:move|order|account|booking|case|ticket|claim|request)\b|"
    # A titled person with a matter of their own ("Mr Okafor's order") or unknown to the
    # user ("a Mrs. Patel"); one who serves the user's case ("confirm with Dr. Kiptoo",
    # "Dr. Haddad prefers…", "her teacher, Mr Adeyemi") is no other case.
    r"\b(?:Mr|Mrs|Ms|Dr)\.? [A-Z][a-z]+['\u2019]s\b|\ban? (?:Mr|Mrs|Ms|Dr)\.? [A-Z][a-z]+",
)
_BARE_NAME = re.compile(r"^an? |['\u2019]s$")  # "a Mrs. Patel", "Mr Okafor's": the name the request may give
_CAUSE = re.compile(r"\b(?:the|its) (?:likely |probable |possible )?(?:source|cause|culprit)\b", re.IGNORECASE)
# A title and name the run speaks to ("Thank you, Mr. Smith.") is the user, addressed.
_VOCATIVE = re.compile(r"(?:^|,\s*)(?:Mr|Mrs|Ms|Dr)\.? [A-Z][a-z]+(?=\s*[.!?,])")
_YEAR_OR_DECADE = re.compile(r"\b1[0-9]{3}\b|\b20[0-9]{2}s?\b")
_NOTICED = re.compile(r"\bwhile (?:i was|i'm|checking|looking)\b|\bi (?:also )?(?:saw|noticed|"
                      r"spotted|came across)\b", re.IGNORECASE)
_THIRD_PERSON = re.compile(r"\b(?:they|them|their|she|her|he|him|his)\b", re.IGNORECASE)
_YOURS = re.compile(r"\byour((?: [\w&'.-]+){1,3})")
_SECOND_PERSON = re.compile(r"\b(?:you|your|yours)\b", re.IGNORECASE)


_SCALE_STEP = re.compile(r"^[a-z]\d$", re.IGNORECASE)


def _new_names(case: RunCase, units: Sequence[tuple[str, bool]], others: set[str]) -> float:
    """The share of the run's words in units that bring names or years neither the request
    nor anything the run read holds: a tangent into history, brands or people names its own
    cast, where an answer names what its sources name."""
    known = " ".join([case.input, *case.context, *(tool_text(c.output) for c in case.tools_called),
                      *(json_args for c in case.tools_called for json_args in map(str, c.args.values()))])
    # Every word the sources hold, however written: a name a tool output puts at a line's
    # start (`first_name: Tyler`) or an id spells (`sophia_taylor_9065`) is one they hold.
    have = _inflected(key_terms(known) | set(_YEAR_OR_DECADE.findall(known))
                      | set(re.findall(r"[a-z][a-z'-]+", known.lower())))
    # A unit naming the user's own thing ("Penny Blacks were printed in 1840 …") may bring
    # a detail or two of it; one that names a cast (a maker's history, its share price) has
    # left it, whether or not it starts from that thing.
    asked = _inflected(key_terms(case.input))
    words = [len(u.split()) for u, _ in units]
    total = sum(words) or 1
    # A letter and a digit ("A1 to B2", "A4", "C2") mark a step of a scale (a language
    # level, a paper size, a grade): the answer's measure, not a cast it names.
    new = [{t for t in key_terms(_unformatted(u)) | set(_YEAR_OR_DECADE.findall(u))
            if not _SCALE_STEP.match(t) and not _figure_unit(t, u)} - have for u, _ in units]
    # A name the answer calls the user's own ("Many CC&Rs cap increases… check your
    # CC&Rs", "your county's code") is background their question turns on, the rule or
    # document that governs it, not a tangent's cast.
    owned = {t for u, _ in units for t in key_terms(" ".join(_YOURS.findall(u)))}
    # A unit naming a record the run's own tool calls read or wrote (a reservation, an
    # order, an item id) reports work on the user's case, whatever else it names: a chat's
    # later messages bring the details (cities, products) the opening request left out.
    # Not ``others``: ids a letter away from the user's own are another customer's case.
    touched = _ids(" ".join([*(tool_text(c.output) for c in case.tools_called),
                             *(str(a) for c in case.tools_called for a in c.args.values())])) - others
    # A tangent names its cast densely: two names new to a 3,000-word note (a coding
    # agent's reasoning) are its vocabulary, not a cast.
    # Advice names what the user must bring or apply for ("take photo ID, or apply for a
    # Voter Authority Certificate"): what serves their goal, not a tangent's cast.
    # A record fetched by an id the user gave (their booking, their bag's file) is their own
    # case: a unit on the request's words that restates it ("the closest beach is Pantai
    # Tengah, about 450 m …" from the listing) tells it, with a detail or two of its own
    # (the street down to it). Not a search's results, sent off with the request's words,
    # nor the record's other fields told instead (a laptop's warranty for its VPN fault).
    mine, on = _case_ids(case.input), _part_stems(case.input)
    theirs = [_marks(tool_text(c.output)) - _marks(case.input) for c in case.tools_called
              if not _failed(c) and _ids(" ".join(map(str, c.args.values()))) & mine]
    return sum(words[i] for i in range(1, len(units))
               if not units[i][1] and not _ADVICE.search(units[i][0])
               and len(new[i] - owned) >= (3 if key_terms(units[i][0]) & asked else 2) + words[i] // _CAST_WORDS
               and not (_ids(units[i][0]) & touched) and not _closing_wish(units, i)
               and not (word_stems(units[i][0]) & on
                        and any(len(_marks(units[i][0]) & m) >= _SOURCE_MARKS for m in theirs))) / total


def _figure_unit(term: str, unit: str) -> bool:
    """A code of three letters or fewer written against a figure ("KES 620", "Rp 77,500",
    "125 IDR/KES", "40 GB"): the currency or unit of a breakdown, its measure, not a cast."""
    return len(term) <= 3 and term.isalpha() and bool(
        re.search(rf"\d\s?{term}\b|\b{term}\s?\d", unit, re.IGNORECASE))


_HOPE = re.compile(r"^\W*(?:i |we )?hope\b|^\W*(?:glad|thanks|thank you)\b", re.IGNORECASE)


def _closing_wish(units: Sequence[tuple[str, bool]], i: int) -> bool:
    """The run's last unit, a courtesy that closes the work ("Hope the rest of your trip
    goes well — and if you're in town for Loy Krathong…", "Enjoy the festival in Gion!"):
    small talk after the task, whatever places or events it names."""
    unit = units[i][0]
    return i == len(units) - 1 and bool(_HOPE.search(unit) or _WELL_WISH.match(unit.lstrip(" \u2014-")))


_CAST_WORDS = 100


# Markdown's marks before a line's first word (`- **Route:**`, `1. `, `## `), and a line
# written in capitals (`YOU ARE BEING TRANSFERRED…`): its words open a sentence or shout,
# they are not names.
_LINE_MARKS = re.compile(r"^[\s>#*_•-]*(?:\d{1,2}[.)]\s*)?[*_]*", re.MULTILINE)
_SHOUTED = re.compile(r"^(?=(?:[^a-z\n]*[A-Z]){12})[^a-z\n]+$", re.MULTILINE)


# A markdown table's cell opens like a line (`| Option | What will happen |`), and words
# shouted in a row inside a line (`do the following RIGHT NOW`) are emphasis, not names.
_CELL = re.compile(r"[ \t]*\|[ \t]*")
_SHOUTED_WORDS = re.compile(r"\b[A-Z]{2,}(?:[ \t]+[A-Z]{2,})+\b")
# A label in capitals that opens a line ("THOUGHT:", "NOTE:"): the reply's format, not a name.
_LABEL = re.compile(r"^[ \t]*[A-Z]{2,}(?:[ _][A-Z]{2,})*:", re.MULTILINE)


def _unformatted(text: str) -> str:
    text = _SHOUTED.sub(lambda m: m.group(0).capitalize(), _LABEL.sub("", text))
    text = _SHOUTED_WORDS.sub(lambda m: m.group(0).lower(), _CELL.sub("\n", text))
    return _LINE_MARKS.sub("", text).replace("**", "").replace("__", "")


def _ids(text: str) -> set[str]:
    """The ids a text names: "CL-30112", "#W5362037", "55120"."""
    return {t for t in [*key_terms(text), *re.findall(r"\b\d{4,}\b", text)] if _is_id(t)}


# A bare year or round number is a date or a quantity (2022, 1000), not a record's id.
_YEAR_OR_ROUND = re.compile(r"(?:19|20)\d\d|\d+00")


def _case_ids(text: str) -> set[str]:
    """The ids of records a text names in its own words (not in the code or links it
    quotes), less years and round numbers: what another case would be told apart by."""
    return {t for t in _ids(_prose(text)) if not _YEAR_OR_ROUND.fullmatch(t)}


def _inflected(names: frozenset[str] | set[str]) -> set[str]:
    """The names with their plurals: "Penny Blacks" after "a Penny Black" is that name."""
    return {*names, *(f"{t}{end}" for t in names for end in ("s", "es"))}


def answer_off_topic_drift(case: RunCase, embed: Embed) -> Answer:
    """P(the run wandered away from the user's goal to an unrelated subject)."""
    if not _units(case) or not case.input.strip():
        return verdict(0.0, "no request or no run text to compare")
    return head_answer("off_topic_drift", off_topic_evidence(case, embed),
                       f"every part of the run stays on the request ({len(_units(case))} units)")
