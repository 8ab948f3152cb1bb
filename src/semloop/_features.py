"""Evidence read from a trace's text and tool calls: pure functions, stdlib only.

The embedded judge reads it besides embeddings; the library's exact tool-repetition check
reads it to tell a repeat from a new attempt (a call made again after a write).

Nothing here knows any domain: no tool names, phrases or file names. Rules work on the
shape of the data (is this value a path, a number, free text; is this key passed on every
call of the tool; did the output change) so they carry over to traces from anywhere.
"""

from __future__ import annotations

import json
import math
import posixpath
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

__all__ = [
    "SCRIPT_STOP",
    "Call",
    "StepView",
    "adds_to_plan",
    "announces_plan",
    "call_changes_state",
    "call_restores_state",
    "content_tokens",
    "empty_signature",
    "entities",
    "is_empty_output",
    "is_transient_error",
    "normalise_input",
    "normalise_output",
    "normalise_value",
    "numbers",
    "opaque_ids",
    "outputs_same",
    "parse_args",
    "reports_outcome",
    "run_writes",
    "same_but_ids",
    "same_but_settings",
    "same_identifier",
    "script_words",
    "shared_ngrams",
    "strip_shared",
    "surface_words",
    "tokens",
]

_TRUNCATION = re.compile(r"\s*… \[truncated \d+ chars(?:, rest ([0-9a-f]{8}))?\]\s*$")
_TOKEN = re.compile(r"\w+(?:[./'-]\w+)*")  # any script; snake_case, paths and ids stay whole

# Function words carry no content: a difference in them says nothing about the work.
_STOP = frozenset(
    """a an the is are was were be been being am i me my we our you your it its this that these
    those of in on at to for from by with about into over under again once more and or but so
    if then than as not no do does did doing have has had having will would shall should can
    could may might must let lets let's i'm i'll i've we'll we're it's that's there here now
    just also still very too some any all each every which what who whom whose when where why
    how up down out off before after above below while because until through during one""".split()  # noqa: SIM905
)

# Patterns of concrete things: a new one of these in a step is new information.
_ENTITY_PATTERNS = (
    re.compile(r"https?://[^\s\"'<>)]+"),
    re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"),
    # paths and file names: something/with/slashes or name.ext
    re.compile(
        r"(?<![\w@])(?:[\w.-]*/)+[\w.-]+|(?<![\w@/])[\w-]+(?:\.[\w-]+)*\.[A-Za-z][\w]{0,5}\b"
    ),
    # identifiers that mix letters with digits, underscores, inner capitals or dashes+digits
    re.compile(
        r"\b(?=[\w-]*\d)\w[\w-]*\w\b|\b\d\b|\b\w+_\w+\b|\b[a-z]+[A-Z]\w*\b|\b[A-Z]{2,}\w*\b"
    ),
    re.compile(r"\b\d+(?:[.,:/]\d+)*%?"),
)
# A single quote opens only where no letter precedes it and closes only where none follows:
# the apostrophes of "I'm ... don't" are not a quotation.
_QUOTED = re.compile(
    r"\"([^\"\n]{1,80})\"|(?<!\w)'([^'\n]{2,80})'(?!\w)|`([^`\n]{1,80})`|“([^”\n]{1,80})”"
)
_PROPER = re.compile(r"(?<![.!?:]\s)(?<!^)\b[A-Z][a-z]{2,}\b")

# What changes on every step of a run without saying anything new: timestamps, clock
# times, uuids, durations.
_VOLATILE = tuple(re.compile(p, re.IGNORECASE) for p in (
    r"\d{4}-\d{2}-\d{2}[t ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}:?\d{2})?",
    r"\b\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\b",
    r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b",
    r"\b(?:took|in|after|elapsed)\s+\d+(?:\.\d+)?\s*(?:ms|s|sec|secs|seconds)\b",
))
_EMPTY = re.compile(
    r"^(?:|\[\]|\{\}|null|none|nil|n/a|empty|no output|\"\"|0)$"
    r"|\b(?:no|zero|0)\s+(?:\w+\s+)?(?:results?|matches|hits|rows|records|items|entries|documents|"
    r"files|messages|tickets|options|data)\b"
    r"|\bnot found\b|\bnothing (?:found|matched|returned)\b|\bempty (?:result|response|list|set)\b"
)
_ERROR = re.compile(
    r"^(?:error|err|failed|failure|exception|traceback)\b|\b(?:timed out|timeout|unavailable|"
    r"denied|refused|forbidden|unauthori[sz]ed|rate limit\w*|exceeded|invalid|unreachable)\b"
    r"|\berror\s*[:(\[]|\berror \d{3}\b|\b(?:failed to|could not|did not (?:answer|respond)|"
    r"no response)\b"
)


def clean_text(text: str) -> str:
    """The text without the detector's truncation marker (its number would look like news).

    The digest of the cut part stays, as one opaque word: two texts cut at the same point
    that differ after it are two texts."""
    return _TRUNCATION.sub(lambda m: f" rest{m.group(1)}" if m.group(1) else "", text or "")


@lru_cache(maxsize=16384)
def _tokens(text: str) -> tuple[str, ...]:
    return tuple(_TOKEN.findall(clean_text(text).lower()))


def tokens(text: str) -> list[str]:
    """Lowercased word tokens; file names, paths and ids stay whole."""
    return list(_tokens(text))


_PREFIX = 5  # a word's first letters stand for it in any language: its endings vary


# The full stops of other scripts (Devanagari, Ethiopic, Myanmar, Arabic, CJK), which a
# splitter reading Latin punctuation leaves inside one sentence.
SCRIPT_STOP = re.compile(r"(?<=[\u0964\u0965\u1362\u104b\u061f\u06d4\u3002\uff01\uff1f])\s*")


def script_words(text: str) -> list[str]:
    """A text's words as any script writes them: its runs of letters, marks and digits (a
    word of an Indic script whole, its vowel signs being marks)."""
    return "".join(c if unicodedata.category(c)[0] in "LMN" else " " for c in text).split()


def surface_words(text: str) -> frozenset[str]:
    """A text's words as any script writes them (:func:`script_words`) cut to their first
    letters, and its numbers in ASCII digits; words under four letters are left out. For
    texts in languages no stemmer here knows."""
    out: set[str] = set()
    for word in script_words(text.lower()):
        if word.isdecimal():
            out.add("".join(str(unicodedata.digit(c)) for c in word).lstrip("0") or "0")
        elif len(word) >= 4:
            out.add(word[:_PREFIX])
    return frozenset(out)


def content_tokens(toks: Iterable[str]) -> list[str]:
    return [t for t in toks if t not in _STOP and len(t) > 1]


def _norm_entity(raw: str) -> str:
    ent = raw.strip().strip(".,;:!?()[]{}<>\"'`").lower()
    while ent.startswith("./"):
        ent = ent[2:]
    return ent


@lru_cache(maxsize=16384)
def entities(text: str) -> frozenset[str]:
    """Concrete things named in the text: paths, file names, URLs, ids, numbers, quoted
    strings and capitalised names (not at a sentence start)."""
    text = clean_text(text)
    found: set[str] = set()
    for pattern in _ENTITY_PATTERNS:
        for match in pattern.finditer(text):
            found.add(_norm_entity(match.group(0)))
    for match in _QUOTED.finditer(text):
        inner = next(g for g in match.groups() if g is not None)
        found.add(_norm_entity(inner))
    for match in _PROPER.finditer(text):
        found.add(match.group(0).lower())
    found.discard("")
    return frozenset(e for e in found if e not in _STOP)


def shared_ngrams(texts: Sequence[Sequence[str]], n: int = 4) -> frozenset[tuple[str, ...]]:
    """Token n-grams found in more than half of the texts (at least two of them).

    These are templates and preambles: text the agent writes on every step whatever the
    step does. With fewer than 3 texts nothing is shared; a pair alone cannot tell a
    template from a repeat.
    """
    if len(texts) < 3:
        return frozenset()
    counts: Counter[tuple[str, ...]] = Counter()
    for toks in texts:
        counts.update({tuple(toks[k : k + n]) for k in range(len(toks) - n + 1)})
    need = len(texts) // 2 + 1
    return frozenset(gram for gram, c in counts.items() if c >= need)


def strip_shared(toks: Sequence[str], shared: frozenset[tuple[str, ...]], n: int = 4) -> list[str]:
    """The tokens not covered by any shared n-gram: what this step says that the others don't."""
    if not shared:
        return list(toks)
    covered = [False] * len(toks)
    for k in range(len(toks) - n + 1):
        if tuple(toks[k : k + n]) in shared:
            for m in range(k, k + n):
                covered[m] = True
    return [t for t, c in zip(toks, covered) if not c]


def _looks_like_path(value: str) -> bool:
    return (
        value in {".", "./", "/"}
        or "/" in value
        or bool(re.fullmatch(r"[\w.-]+\.[a-z]\w{0,5}", value))
    )


def normalise_value(value: Any) -> Any:
    """An argument value with cosmetic differences removed (case, spacing, ``./`` prefixes,
    trailing slashes, number formatting)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return float(value) if math.isfinite(float(value)) else str(value)
    if isinstance(value, str):
        text = " ".join(value.strip().lower().split())
        if _looks_like_path(text) and " " not in text:
            text = posixpath.normpath(text) if text else text
            text = text.rstrip("/") or text
        return text
    if isinstance(value, Mapping):
        return tuple(sorted((str(k).lower(), normalise_value(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(normalise_value(v) for v in value)
    return str(value)


_JSON_SPACE = " \t\n\r"


def parse_args(text: str) -> dict[str, Any] | None:
    """A tool input as a key-value object, or ``None`` when it is not one."""
    # A JSON object opens with "{" and then '"' or "}" (JSON whitespace between): anything
    # else, Python's str() of a dict included, is not one, found without json.loads's
    # costly exception.
    if isinstance(text, str):
        head = text.lstrip(_JSON_SPACE)
        if head[:1] != "{" or head[1:].lstrip(_JSON_SPACE)[:1] not in ('"', "}"):
            return None
    try:
        parsed = json.loads(text)
    except (TypeError, ValueError):
        return None
    if isinstance(parsed, Mapping):
        return {str(k).lower(): v for k, v in parsed.items()}
    return None


def without_volatile(text: str) -> str:
    """The text with its volatile parts blanked: a new clock time is not a new fact."""
    for pattern in _VOLATILE:
        text = pattern.sub(" ", text)
    return text


def normalise_input(text: str) -> str:
    """A call's input as compared: cleaned, lower case, whitespace collapsed."""
    return " ".join(clean_text(text).lower().split())


def normalise_output(text: str) -> str:
    """An output with whitespace, case and volatile parts (timestamps, durations, uuids) removed."""
    out = " ".join(clean_text(text).lower().split())
    for pattern in _VOLATILE:
        out = pattern.sub("#", out)
    return out


def _structurally_empty(value: Any) -> bool | None:
    """For JSON: True when every list/object in it is empty and every number is 0 (strings
    are messages or ids, not results); None when there is no container to judge by."""
    containers = 0
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            containers += 1
            stack.extend(item.values())
            if item and all(isinstance(v, (str, bool)) or v is None for v in item.values()):
                return False  # an object of plain fields is a record, not an empty result
        elif isinstance(item, list):
            if item:
                return False
            containers += 1
        elif isinstance(item, (int, float)) and not isinstance(item, bool) and item != 0:
            return False
    return True if containers else None


_ERROR_KEYS = frozenset({"error", "errors", "err", "exception", "fault"})


def _error_object(norm: str) -> bool:
    # {"error": "...", "code": 503}: a structured error is as empty as an error message.
    try:
        value = json.loads(norm)
    except (TypeError, ValueError):
        return False
    return isinstance(value, Mapping) and any(value.get(k) for k in _ERROR_KEYS)


_TRANSIENT = re.compile(
    r"\b(?:5\d\d|timed? ?out|timeout|unavailable|temporar\w*|try again|rate limit\w*|"
    r"too many requests|connection (?:reset|refused|error)|overloaded|busy)\b")


def is_transient_error(norm: str) -> bool:
    """The output reports a failure that may pass on its own (a 503, a timeout, a rate
    limit), not one that an identical retry cannot change (declined, locked, invalid)."""
    return bool(_TRANSIENT.search(norm)) and (bool(_ERROR.search(norm)) or _error_object(norm))


def is_empty_output(norm: str) -> bool:
    """The output reports nothing found or an error: repeating it brings no information."""
    try:
        structural = _structurally_empty(json.loads(norm))
    except (TypeError, ValueError):
        structural = None
    if structural is False and _error_object(norm):
        return True
    if structural is not None:
        return structural
    return bool(_EMPTY.search(norm) or _ERROR.search(norm))


_OPAQUE = re.compile(r"\b(?=[\w-]*\d)(?=[\w-]*[a-z])[\w-]{8,}\b")


def same_but_ids(a: str, b: str) -> bool:
    """Two outputs that differ only in opaque tokens (request ids, nonces, hashes). The judge
    asks this of empty or error outputs only: nothing found is nothing found, whatever the
    request id."""
    return _OPAQUE.sub("#", a) == _OPAQUE.sub("#", b)


def opaque_ids(text: str) -> frozenset[str]:
    """The opaque tokens (ids, nonces, hashes) of a lower-cased text, as :func:`same_but_ids`
    reads them."""
    return frozenset(_OPAQUE.findall(text))


_NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.]*\d)")
_ID_PART = re.compile(r"\d+|[^\W\d_]+")


@lru_cache(maxsize=16384)
def numbers(text: str) -> frozenset[str]:
    """The free-standing numbers in a text, written one way (``20.0`` and ``20`` alike)."""
    out = set()
    for match in _NUMBER.finditer(text):
        value = float(match.group(0))
        out.add(str(int(value)) if value.is_integer() else repr(value))
    return frozenset(out)


def _id_parts(value: str) -> tuple[str, list[str]]:
    # Digits read as one number (separators and padding zeros are formatting), letters kept.
    parts = _ID_PART.findall(value.lower())
    digits = "".join(p for p in parts if p.isdigit())
    letters = [p for p in parts if not p.isdigit()]
    return (digits.lstrip("0") or "0") if digits else "", letters


def same_identifier(a: str, b: str) -> bool:
    """One identifier written two ways: case, separators, padding zeros, or a letter
    prefix dropped (``PT-00872``, ``pt00872``, ``PT 872``, ``00872``). Short codes only, so
    two sentences never match here."""
    if a == b:
        return True
    if len(a.split()) > 3 or len(b.split()) > 3:
        return False
    (da, la), (db, lb) = _id_parts(a), _id_parts(b)
    if not da and not db:
        return bool(la) and la == lb  # quarterly-churn / Quarterly_Churn
    return da == db and (la == lb or not la or not lb)


def same_but_settings(a: str, b: str, data_numbers: frozenset[str]) -> bool:
    """Two raw inputs that differ only in numbers the agent chose (not in ``data_numbers``:
    a timeout, a retry count) and in how they are written."""

    def skeleton(text: str) -> list[str]:
        # Only free-standing numbers can be settings; ids (SKU-1180, v2) stay whole.
        out = []
        for tok in _TOKEN.findall(clean_text(text).lower()):
            number = numbers(tok) if _NUMBER.fullmatch(tok) else frozenset()
            out.append("#" if number and not number & data_numbers else tok)
        return out

    sa, sb = skeleton(a), skeleton(b)
    return sa == sb and any(t != "#" for t in sa)


_DIGITS = re.compile(r"[\w.-]*\d[\w.-]*")


def empty_signature(output: str, input_text: str) -> str:
    """What an empty or error result says, without what varies between attempts: numbers
    and ids (codes, request ids, echoed settings), the call's own input echoed back
    (``no results for 'x'``), and in JSON every string value (``{"query": …, "hits": []}``).
    Two attempts with one signature got the same nothing."""
    try:
        value = json.loads(output)
    except (TypeError, ValueError):
        value = None
    if isinstance(value, (Mapping, list)):
        return json.dumps(_skeleton(value), sort_keys=True)
    echoed = set(tokens(input_text))
    kept = [t for t in tokens(_DIGITS.sub(" # ", output)) if t not in echoed]
    return " ".join(kept)


def _skeleton(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _skeleton(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_skeleton(v) for v in value]
    if isinstance(value, str):
        return "s"
    return value


@lru_cache(maxsize=16384)
def _token_set(text: str) -> frozenset[str]:
    return frozenset(_tokens(text))


def outputs_same(a: str, b: str) -> bool:
    """Two normalised outputs say the same thing (equal, or long and nearly equal)."""
    if a == b:
        return True
    if min(len(a), len(b)) < 40:
        return False
    ta, tb = _token_set(a), _token_set(b)
    if min(len(ta), len(tb)) < 0.9 * max(len(ta), len(tb)):
        return False  # |ta & tb| <= min and |ta | tb| >= max: the ratio cannot reach 0.9
    return len(ta & tb) / max(1, len(ta | tb)) >= 0.9


@dataclass(frozen=True)
class Call:
    """One tool call, normalised for comparison."""

    name: str
    raw: str
    args: Mapping[str, Any] | None
    output: str
    empty: bool
    entities: frozenset[str]
    empty_sig: str = ""  # for empty/error results: see empty_signature
    # The tool's own words report an error or nothing: `empty` without the numbered file
    # listing (``cat -n``) an editor echoes after a write, whose code may say "invalid".
    reports_failure: bool = False

    @classmethod
    def of(cls, name: str, input_text: str, output_text: str) -> Call:
        args = parse_args(input_text)
        norm_args = None if args is None else {k: normalise_value(v) for k, v in args.items()}
        out = normalise_output(output_text)
        raw = normalise_input(input_text)
        empty = is_empty_output(out)
        return cls(
            name=" ".join(str(name).lower().split()),
            raw=raw,
            args=norm_args,
            output=out,
            empty=empty,
            entities=entities(input_text),
            empty_sig=empty_signature(out, raw) if empty else "",
            reports_failure=empty and _reports_failure(output_text),
        )


# A line of a numbered file listing: the line number, a tab, the file's text.
_LISTING = re.compile(r"^ *\d+\t.*$", re.MULTILINE)


def _reports_failure(output: str) -> bool:
    said = _LISTING.sub("", output)
    return said == output or is_empty_output(normalise_output(said))


@dataclass
class StepView:
    """One step as the judge sees it: its reasoning text and the tool calls it made."""

    index: int
    text: str
    calls: list[Call]
    toks: list[str] = field(default_factory=list)
    residual: list[str] = field(default_factory=list)
    text_entities: frozenset[str] = frozenset()
    entities: frozenset[str] = frozenset()  # of the text and of the tool arguments
    prompt: str = ""  # what the step answered (a user's reply), when it says so


# A step that announces what it will do: future tense, intent, or the words agents use
# to lay out a plan. English only, like the model.
_INTENT = re.compile(
    r"\b(?:i'll|i will|i'm going to|i am going to|going to|i should|i need to|i must|"
    r"i want to|i plan|i intend|let me|let's|the plan|my plan|plan:|approach|the idea|"
    r"the way to|the way forward|next|what i will|what i need|"
    r"first i|then i|step by step|will|should|must|method|the steps)\b"
)
# A step that reports something it learned, did or decided: the words of a result or a
# conclusion, not of a plan.
_OUTCOME = re.compile(
    r"\b(?:found|finds|shows?|showed|shown|returned|returns|got|came back|confirmed|"
    r"done|finished|completed|succeeded|failed|sent|moved|resolved|fixed|turns out|"
    r"turned out|according to|so far|resulted in|answer is|there (?:is|are|was|were)|"
    r"it is|it was|they are|it has|has been|have been|no longer|now (?:is|are|has|shows)|"
    r"recommend\w*|decided|conclu\w+|therefore|which means|means that|because|given that|"
    r"was|were|rose|held|grew|doubled|halved|went live|suggests|indicates|likely|lines up|"
    r"points to|explains|didn't|did not|couldn't|could not|wasn't|weren't|no luck)\b"
)


def announces_plan(text: str) -> bool:
    """True when the text states an intention (``I'll``, ``the plan is``, ``let me``)."""
    return bool(_INTENT.search(text.lower().replace("\u2019", "'")))


def reports_outcome(text: str) -> bool:
    """True when the text reports a result (``found``, ``returned``, ``it is``, ``done``)."""
    return bool(_OUTCOME.search(text.lower().replace("\u2019", "'")))


# A step that adds an item to a plan rather than saying it again ("I'll also cache the
# lookups", "Finally I will document the API").
_ADDITION = re.compile(
    r"\b(?:also|as well|in addition|additionally|besides|on top of|apart from)\b|"
    r"(?:^|[.;:!?]\s+)(?:finally|lastly|last of all)\b"
)


def adds_to_plan(text: str) -> bool:
    """True when the text adds an item (``also``, ``as well``, a leading ``Finally``)."""
    return bool(_ADDITION.search(text.lower()))


# What changes the world a later call reads: the verbs of writes in tool names
# (update_reservation, create_file, cancel_order, str_replace_editor's sub-commands) and in
# command lines (sed -i, cp, mv, rm, patch, git apply, pip install, redirections). Words of
# English and of the shell, not of any one tool set.
_WRITE_WORD = re.compile(
    r"^(?:write|edit|update|create|insert|delete|remove|cancel|book|modify|"
    r"set|add|put|post|patch|apply|save|commit|exchange|return|replace|str_replace|append|"
    r"upgrade|change|move|rename|install|reset|restore|revert|undo_edit|assign|submit|"
    r"toggle|enable|disable|grant|revoke|reboot|restart|connect|disconnect|activate|"
    r"deactivate|resume|suspend)"
    r"(?:$|[_\-\s(])",
    re.IGNORECASE,
)
# Code that writes a file, in a command or in a script a command wrote.
_CODE_WRITE = re.compile(r"\bopen\([^)]*['\"][wa]['\"]|\.write_text\(|\.write\(|\bsed\s+-i\b")
_SHELL_WRITE = re.compile(
    r"(?:^|[;&|\s(])(?:sed\s+-i|perl\s+-p?i|"
    r"git\s+(?:apply|checkout|restore|reset|commit|stash|am|cherry-pick|revert)|"
    r"(?:pip|pip3|npm|yarn|apt-get|apt|conda|poetry|uv)\s+(?:install|add|remove|uninstall))\b"
    # A program's name only where a program runs: `cat patch.txt` reads a file named patch.
    r"|(?:^|[;&|\s(])(?:cp|mv|rm|touch|mkdir|tee|patch|chmod|ln|truncate|"
    r"edit|create|insert|append|str_replace)(?=\s|$)"
    r"|(?<![<>&0-9])>{1,2}\s*(?!&|/dev/null)[\w./~-]"
    r"|(?:^|[;&|\s(])find\s[^;&|]*\s-delete\b"
    r"|" + _CODE_WRITE.pattern
)
# Actions on a user interface change the page the next look reads: a click, keystrokes, a
# navigation (click, type_text, navigate; browser_click, page.go_back, mouse_scroll: a verb
# alone or after one word naming the surface, never after a read verb as in get_type).
_UI_ACTION = re.compile(
    r"^(?:(?!(?:get|list|search|find|read|view|show|check|count|query|fetch|lookup|is|has)_)"
    r"[a-z]+_)?(?:click|double_click|right_click|type|type_text|fill|press|press_key|"
    r"select_option|navigate|go_back|go_forward|scroll|hover|drag|tap|swipe)$",
    re.IGNORECASE,
)
_COMMAND_KEYS = ("command", "cmd", "code", "script", "input", "query", "args", "action")


def call_changes_state(call: Call) -> bool:
    """True when the call wrote something (a file, a record, a setting) and did not fail:
    after it, the same read or the same test is a new attempt, not a repeat."""
    if not _went_through(call):
        return False
    args = call.args or {}
    sub = args.get("command") if isinstance(args.get("command"), str) else None
    if sub is not None and len(sub.split()) == 1:
        # A sub-command (str_replace_editor's view / create / str_replace) says what it does.
        return bool(_WRITE_WORD.search(sub))
    text = _command_text(call)
    if text is not None and _SHELL_WRITE.search(text):
        return True
    # Verb-first tool names (update_reservation, create_file): the last part of a dotted
    # name is the operation (statuspage.update), its first word the verb.
    last = re.split(r"[./:]", call.name)[-1]
    return (bool(_WRITE_WORD.search(last) or _UI_ACTION.match(last))
            and call.name not in _READ_ONLY_NAMES)


def call_restores_state(call: Call) -> bool:
    """True for a write that puts things back as they were (``git checkout FILE``,
    ``git restore``, ``git stash``, a copy from a backup, a ``restore``/``revert``/``undo``
    tool): the world after it does not depend on what was written before it."""
    text = _command_text(call) or ""
    return bool(_RESTORE.search(text) or _RESTORE_NAME.match(re.split(r"[./:]", call.name)[-1]))


def action_kind(call: Call, writes: bool | None = None) -> str:
    """What kind of action a call is: the tool, and for a generic runner the program its
    command runs (``sed``, ``python``, ``pytest``) or its sub-command (``str_replace``);
    ``:write`` after it when the call changed the state. One program both reads and writes
    (``sed -n`` / ``sed -i``): a read after a write of the same program is a look at a
    changed world, not the write again. ``writes`` is what `run_writes` found for the call
    in its run, when known (a script the run wrote is only a write in that run)."""
    text = _command_text(call)
    # ``cd /testbed && sed -i …``: the program is what runs in that directory, not cd.
    words = _CD_PREFIX.sub("", text or "").split()
    kind = f"{call.name}:{words[0]}" if words else call.name
    if writes is None:
        writes = call_changes_state(call)
    return f"{kind}:write" if writes else kind


def run_writes(calls: Sequence[Call]) -> list[bool]:
    """Per call of one run, in order: did it change the state? `call_changes_state`, and
    also a run of a script that the run itself wrote with code that writes files
    (``python fix.py`` after ``cat > fix.py`` holding ``open(path, 'w')``): what the run
    does is in the call that wrote the script, not in the command that runs it. A script
    that only reads (a reproduction) stays a read."""
    writers: set[str] = set()  # names of scripts written with code that writes
    out: list[bool] = []
    for call in calls:
        text = _command_text(call) or ""
        ran = {posixpath.basename(m) for m in _RUNS_SCRIPT.findall(text)}
        changed = call_changes_state(call) or bool(ran & writers and _went_through(call))
        if changed:
            # What the call wrote: redirect targets in a command line, the path of an
            # editor's create (its text in another argument).
            args = call.args or {}
            body = " ".join(str(v) for v in args.values()) if args else call.raw
            targets = _SCRIPT_TARGET.findall(body) + [
                v for k, v in args.items()
                if k in _PATH_KEYS and isinstance(v, str) and _SCRIPT.fullmatch(v)]
            names = {posixpath.basename(t) for t in targets}
            if _CODE_WRITE.search(body):
                writers |= names
            else:
                writers -= names  # rewritten as a script that only reads
        out.append(changed)
    return out


def _command_text(call: Call) -> str | None:
    """The command line of a generic runner's call (or the raw input without arguments)."""
    args = call.args or {}
    text = next((v for k in _COMMAND_KEYS if isinstance(v := args.get(k), str)), None)
    return call.raw if text is None and call.args is None else text


def prints_nothing(call: Call) -> bool:
    """The call printed nothing (a silent edit), as harnesses wrap that or not."""
    return _OK_SILENT.fullmatch(call.output) is not None


def _went_through(call: Call) -> bool:
    """False for an error or empty answer: a failed write changed nothing. (A silent shell
    command, e.g. a redirection, prints nothing and still wrote.)"""
    return not (call.reports_failure and not call.output.strip().startswith(("[file:", "file "))
                and call.output and not _OK_SILENT.fullmatch(call.output))


# A script named in a command, and a command that runs one (``python3 -u fix.py``,
# ``bash run.sh``, ``./run.sh``).
_SCRIPT = re.compile(r"[\w./~-]+\.(?:py|sh)")
_SCRIPT_TARGET = re.compile(r"(?:(?<![<>&0-9])>{1,2}|\btee(?:\s+-a)?)\s*([\w./~-]+\.(?:py|sh))\b")
_PATH_KEYS = frozenset({"path", "file", "filename", "file_path"})
_RUNS_SCRIPT = re.compile(
    r"(?:^|[;&|\s(])(?:(?:python[\d.]*|bash|sh)\s+(?:-\w+\s+)*|\./)([\w./~-]+\.(?:py|sh))\b")
_RESTORE = re.compile(
    r"(?:^|[;&|\s(])(?:git\s+(?:checkout|restore|reset|stash)\b"
    r"|(?:cp|mv)\s+(?:-\w+\s+)*\S*(?:backup|\.bak|\.orig)\S*\s+\S)|^(?:undo_edit|revert)$")
_RESTORE_NAME = re.compile(r"(?:restore|revert|reset|undo)(?:$|[_\-\s])", re.IGNORECASE)
_CD_PREFIX = re.compile(r"^\s*(?:cd(?:\s+\S+)?\s*(?:&&|;)\s*)+")


# Generic runners: their name says nothing about what a call does (the command does).
_READ_ONLY_NAMES = frozenset({"bash", "shell", "sh", "python", "run", "execute", "exec",
                              "terminal", "http", "cmd", "command"})
# A shell command that printed nothing, as harnesses wrap it (mini-swe-agent, SWE-agent).
_OK_SILENT = re.compile(r"(?:<returncode>0</returncode>\s*<output>\s*</output>|)\s*")
