"""What the embedded judge's three task answers share: the run read once (its sentences
embedded for all three, the replies of a chat), and every helper more than one of them
reads (the request's words, parts and acts, the tool calls that failed, read or acted, the
names and ids a text gives).

Each answer has its own module:

- ``_completion.py``: TASK_COMPLETION, did the run do what was asked;
- ``_understanding.py``: TASK_UNDERSTANDING_FAILURE, did it do the thing asked, and not
  another;
- ``_drift.py``: OFF_TOPIC_DRIFT, did it stay on it.

Each reads a case into named evidence (``*_evidence``); the learned head of its evaluator
(``_head.py``, trained by calibration/train_heads.py) weighs it into the answer.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from ...case import RunCase, ToolCall
from ._answerer import Embed
from ._claims import (
    _COMMON_CAPITALS,
    _words,
    head,
    key_terms,
    request_parts,
    split_claims,
    stem,
    word_stems,
)

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

# An answer that says it cannot give the value yet ("I can't give you a firm timeframe",
# "we're unable to quote a price until …") took up the question asked.
_WITHHELD = re.compile(r"\b(?:can'?t|cannot|can not|unable to|not able to|no way to|won'?t be able to)\s+"
                       r"(?:\w+\s+){0,2}(?:give|say|tell|confirm|predict|estimate|promise|quote|guarantee)\b"
                       r"(?:\s+\w+){0,4}?\s+(?:time\s?frame|timeline|time|date|estimate|figure|number|amount|"
                       r"price|cost|fee|how (?:long|much|many)|when)\b", re.IGNORECASE)


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
        off): whom and what the run's acts were for. Their values: a key ("client_id")
        names what a value is, for no one."""
        return set(re.findall(r"[^\W\d_]+", " ".join(
            json.dumps(list(c.args.values()), ensure_ascii=False) for c in self.case.tools_called
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


_FAILED_OUTPUT = re.compile(
    r"\"?(?:error|errors|exception|fault)\"?\s*[:=]|\b(?:timed out|timeout|failed|failure|"
    r"denied|forbidden|unauthori[sz]ed|not found|exceeded|invalid|unavailable|refused|"
    r"rejected|declined)\b|\"ok\"\s*:\s*false|\"success\"\s*:\s*false",
    re.IGNORECASE,
)

_ASKING = re.compile(
    r"\b(?:could|can|would) you (?:please )?(?:provide|give|share|confirm|tell|send|let me know)|"
    r"please (?:provide|share|confirm|send|tell)|what(?:'s| is) your|which (?:\w+ )?(?:would|do|did)"
    r" you|may i (?:have|ask)|i(?:'ll| will) need your|can i (?:have|get) your",
    re.IGNORECASE,
)
# A reply that asks the user for what the work needs ("I can look you up with your name and
# date of birth. Please go ahead and share those with me.", "… and the policy number. Send
# those over and I'll file it."): what it says it can do, and the work still to do, wait on
# the user's answer; it is a question, not work put off.
_ASKS_USER = re.compile(_ASKING.pattern + r"|\bplease (?:go ahead and |just )?(?:provide|share|send|"
                        r"give|tell)\b|\b(?:just |please )?share (?:those|these|them|it|that) with me\b|"
                        r"(?:^|(?<=[.!?:;\u2014\u2013]\s))(?:just )?send (?:those|these|them) (?:over|across|through)\b|"
                        r"\b(?:could|can|would) you (?:please )?(?:tell|give|send) me\b", re.IGNORECASE)


# A tool that refuses answers "Error: not enough seats" (tau's tools) or {"error": …}, and
# a framework that only saw the call return still records it as made: an output that
# opens on an error failed, whatever the flag says.
_OPENS_ON_ERROR = re.compile(r"\s*\{?\s*\"?error\"?\s*[:=]", re.IGNORECASE)


def _failed(call: ToolCall) -> bool:
    return call.success is False or bool(_OPENS_ON_ERROR.match(call.output)) or (
        call.success is None and bool(_FAILED_OUTPUT.search(call.output[:400]))
    )


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


# "whats the best grind", "hows the weather": a question word run into its verb, as terse
# and non-native requests write it, still opens a question (a part, not background).
_RUN_IN_ASK = re.compile(r"\b(what|how|where|who|when)s\b", re.IGNORECASE)


def _parts(request: str) -> list[str]:
    """The request's parts (``request_parts``), its run-in question words read apart."""
    return request_parts(_RUN_IN_ASK.sub(r"\1 is", request))


def _part_stems(part: str) -> frozenset[str]:
    return frozenset(s for s in word_stems(part) if s not in _REQUEST_WORDS)


_NAME = re.compile(r"\b[A-Z][a-z]{2,}\b")


def _names(text: str) -> set[str]:
    """The names a text gives (Milo, Pieter): days, months, request words and the word a
    sentence opens on ("Reset my VPN password") aside."""
    return {m.group(0).lower() for m in _NAME.finditer(text) if text[:m.start()].strip(" \t\"'(") and
            not re.search(r"[.!?:;\n]\W*$", text[:m.start()])
            and stem(m.group(0).lower()) not in _REQUEST_WORDS and m.group(0).lower() not in _COMMON_CAPITALS}


# The lead before a request's act: a greeting, "please", "can you", "I want to".
_ACT_LEAD = re.compile(r"^(?:(?:hello|hi|hey|ok|okay|also|and|then|so|please|pls|plz|kindly)\b[,!]?\s*)*"
                       r"(?:(?:can|could|would|will) (?:you|u) (?:please )?|"
                       r"i(?:'m| am)? (?:want|need|would like|'d like|wanting)(?: you)? to )?", re.IGNORECASE)


def _imperative(clause: str, leads: re.Pattern[str] = _ACT_LEAD) -> str | None:
    """The act a clause opens on in the imperative, its verb followed by its object ("switch
    my billing email", "book him in"): the verb's stem."""
    lead = leads.match(clause)
    rest = clause[lead.end() if lead else 0:]
    # "get it waived", "have the fee reversed": the act is the participle's.
    if (caused := _CAUSATIVE.match(rest)) and stem(caused.group(1).lower()) in _ACTION_VERBS:
        return stem(caused.group(1).lower())
    m = _VERB_OBJECT.match(rest)
    return stem(m.group(1).lower()) if m and stem(m.group(1).lower()) in _IMPERATIVE_VERBS else None


_CAUSATIVE = re.compile(r"(?:get|have)\s+(?:it|them|this|that|these|those|(?:my|our|the|his|her|their)(?:\s+[\w-]+){1,2})"
                        r"\s+([a-z]+(?:ed|en))\b", re.IGNORECASE)


def _opens_on_act(clause: str) -> bool:
    """The clause, after its lead, opens on an act in the imperative ("Turn off …", "I want
    to extend …"), not on a statement ("We're moving from Trello", "moving house and …")."""
    lead = _ACT_LEAD.match(clause)
    rest = (clause[lead.end():] if lead else clause).lower()
    first = re.match(r"[a-z]+\b", rest)
    if first is None or re.search(r"(?:ing|ed)$", first.group(0)):
        return False
    return stem(first.group(0)) in _ACTION_VERBS or any(rx.match(rest) for rx, _ in _PHRASAL)


_DURATION_UNITS = frozenset({"h", "min", "s", "day", "week", "month", "year"})
_MONEY_UNITS = frozenset({"$", "€", "£", "¥", "₹", "chf", "%"})

# A yes-or-no question, and the words that answer one (or say it depends on something).
_ASKS_YES_OR_NO = re.compile(r"(?:^|[.!?,;:\u2014\u2013-]\s*|\b(?:so|but|and|ok|okay)\s+)(?:can|could|may|is|are|am|do|does|did|will|would|"
                     r"should|shall|has|have)\s+(?:i|we|he|she|it|they|my|our|this|that|there|you)\b",
                     re.IGNORECASE)

# "Please let me know if there's anything else": the user's to do, no work promised.
_LET_ME_KNOW = re.compile(r"\blet me know\b", re.IGNORECASE)

_AWAITS_REPLY = re.compile(r"\b(?:then|once|as soon as|when|after) (?:you|i have|i get|i've got|"
                           r"i receive)\b|\bthen i(?:'ll| will)\b", re.IGNORECASE)


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


_NEGATED = re.compile(r"\b(?:not|never|nothing|no|none|n't)\b|n't\b", re.IGNORECASE)

# A text the request asks the agent to write ("Draft the declination letter", "write a
# notice to tenants"), and the answer's lead into it ("Here's the notice:", "Dear residents,").
_WRITE_ASKED = re.compile(r"(?:^|[.!?]\s+|\b(?:please|can you|could you|would you|and|then)\s+)"
                          r"(write|draft|compose|redraft|rewrite|prepare)\s+(?:me\s+|us\s+)?(?:a|an|the|my|our|this|that|"
                          r"some|up)\b", re.IGNORECASE)
_TEXT_LEAD = re.compile(r"^.{0,80}:\s*$|^(?:dear|hi|hello|to whom)\b[^\n]{0,60},?\s*$|^subject:", re.IGNORECASE | re.MULTILINE)


def _drafted(case: RunCase) -> str:
    """The text the answer hands in when the request asks for one written: what follows its
    lead line ("Here's the notice:" or a salutation). Its lines speak to its own readers
    ("Call the office on …"), not to the user; ``""`` when there is none."""
    if not _WRITE_ASKED.search(case.input):
        return ""
    lead = _TEXT_LEAD.search(case.output)
    return case.output[lead.start():] if lead else ""


def _asked_acts(case: RunCase) -> list[ToolCall]:
    """The successful calls that did an act the request asks: each opens on its verb or a
    verb of the same act (send_rfq for "send the RFQ")."""
    asked = word_stems(_asked_text(case.input))
    return [c for c in case.tools_called if not _failed(c) and not _reads(c) and not _hands_off(c)
            and _alike(_call_verb(_NAMESPACE.sub("", c.name))) & asked]


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


def _handed_to_person(case: RunCase) -> bool:
    """The run ends by passing the request to a person: its answer says so, or its last
    call is a hand-off that ran."""
    calls = case.tools_called
    return any(_hands_over(s) for s in split_claims(case.output)) or bool(
        calls and _hands_off(calls[-1]) and not _failed(calls[-1]))


# A unified diff: what a coding run hands over when it submits (SWE-agent's ``submit``,
# mini-swe-agent's ``git diff --cached``).
_PATCH = re.compile(r"^diff --git a/\S+ b/|^--- (?:a/)?\S+.*\n\+\+\+ (?:b/)?\S+.*\n@@ ", re.MULTILINE)


def _patch_handed_in(case: RunCase) -> str:
    """The change the run ends by handing in: what its last call that returned anything
    returned, when that call ran and returned a patch (a submission may return nothing
    after the patch it shows); else ``""``."""
    said = [c for c in case.tools_called if c.output.strip()]
    return said[-1].output if said and said[-1].success is not False and _PATCH.search(said[-1].output) else ""


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


_NAMESPACE = re.compile(r"^.*(?:\.|/|::|__)(?=[A-Za-z])")

_ACTION_VERBS = frozenset(stem(w) for w in """cancel change update book submit file send create
    add remove delete set reset move transfer refund order schedule reschedule downgrade upgrade
    apply open close register enroll enrol renew pay mark migrate rotate disable enable activate
    deactivate block unblock raise lower increase decrease extend return exchange replace
    issue generate make email forward share assign escalate approve reject dispute port
    terminate suspend resume restart deploy rollback merge run fix install
    waive reverse void reinstate unlock freeze unfreeze reactivate withdraw rebook reissue resend
    reship redeliver arrange pause restore publish unpublish notify subscribe unsubscribe allocate
    revoke""".split())  # noqa: SIM905
# Left out, though acts too: "reserve", "switch", "stop", "lock", "grant", "release",
# "archive" and "invite" name things as often ("inv.reservation", a network switch, a bus
# stop, a research grant), and a tool or a request named by such a noun would read as an act.

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


# The word after a possessive or a definite determiner ("my order", "the order", "your
# booking") names a thing the user has, not an act asked: "check when my order arrives" asks
# for no ordering. "I want a refund" still asks for one.
_DETERMINED = re.compile(r"\b(?:the|my|our|your|his|her|their|its|this|these|those)\s+[a-z]+\b", re.IGNORECASE)
# A determiner, a word and the word after it, nothing between: the third word is the head
# of a noun phrase ("the garden waste order", "the new place"), no act; unless an object
# follows it, when the phrase was its subject ("have the team cancel my order").
_COMPOUND_HEAD = re.compile(r"\b(?:a|an|the|my|your|our|his|her|their|its)\s+"
                            r"(?!(?:i|we|you|they|he|she|it)\b)[a-z]+\s+(?=([a-z]+)\b"
                            r"(?!\s+(?:my|our|your|his|her|their|the|a|an|it|them|him|me|us|this|that|these|those)\b))")


def _act_words(text: str) -> list[str]:
    """The words of ``text``, lower case, less the nouns after a determiner (``_DETERMINED``)
    and the heads of the noun phrases it opens (``_COMPOUND_HEAD``)."""
    lower = text.lower()
    heads = {m.start(1) for m in _COMPOUND_HEAD.finditer(lower)}
    nouns = [m.span() for m in _DETERMINED.finditer(lower)]
    return [m.group(0) for m in re.finditer(r"[a-z]+", lower)
            if m.start() not in heads and not any(a <= m.start() < b for a, b in nouns)]


def _asked_text(request: str) -> str:
    """The request without what it rules out: "pause it, not cancel" does not ask to cancel;
    nor what it quotes ("translate 'Add to cart'") or the topic it opens on ("home book: LR
    2024 vs 2025"), which name things, not acts."""
    named = _NAMED_TEXT.sub(" ", request.replace("\u2019", "'"))
    return re.sub(r"\b(?:not|don'?t|do not|never|instead of|rather than|but not|without)\s+"
                  r"(?:\w+\s+){0,1}\w+", " ", named, flags=re.IGNORECASE)


_NAMED_TEXT = re.compile(r"(?<!\w)'[^'\n]{1,60}'(?!\w)|\"[^\"\n]{1,60}\"|`[^`\n]+`|\u2018[^\u2019\n]{1,60}\u2019|"
                         r"\u201c[^\u201d\n]{1,60}\u201d|^\s*\w+(?: \w+)?:(?=\s)")

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


# A question for a value of one kind: an amount, a count or a duration.
_ASKS_VALUE = re.compile(r"\b(?:how (?:much|many|long)|what(?:'s| is| does) (?:the |it )?"
                         r"(?:cost|price|fee))\b", re.IGNORECASE)
_FREE = _phrases(r"free|no (?:extra )?(?:charge|cost|fee)|included|costs? nothing|at no cost")
_LIST_MARK = re.compile(r"^\s*\d{1,2}[.)]\s", re.MULTILINE)

# Translating, named in the languages users write in: "translate", "traducir", "übersetzen",
# "çevir", "tłumaczenie", "перевод", "翻訳", "dịch", "अनुवाद", "ترجمة", "μετάφραση".
_TRANSLATE = re.compile(r"translat|tradu[cçizs]|[üu]bersetz|çevir|cevir|tłumacz|перев[оеё]д|翻[訳译譯]|번역|"
                        r"\bdịch|अनुवाद|ترجم|μετάφρ|vertaal|overs[æä]tt?|käänn|fordít", re.IGNORECASE)

_DAY_OF_MONTH = re.compile(r"\bthe (\d{1,2})(?:st|nd|rd|th)\b", re.IGNORECASE)

_SOURCE_MARGIN = 0.1


def _argmax(xs: Sequence[float]) -> int:
    return max(range(len(xs)), key=xs.__getitem__)


def _written(stem_: str, text: str) -> str:
    """The stem as the text writes it ("charge" for "charg"), for reasoning a person reads."""
    for w in _words(text):
        if stem(w.replace("-", "")) == stem_:
            return w.lower()
    return stem_


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


_AMOUNT = re.compile(r"^\d+(?:\.\d+)?(?:gb|mb|tb|kb|kg|mg|ml|km|cm|mm|lbs?|oz|l|g|m|k|x|h|s|pm|am)$")
