"""Text patterns the detectors share: injection phrases, completion and acknowledgment
terms, identifiers. Compiled once at import; every function here is pure.
"""

from __future__ import annotations

import base64
import binascii
import re
from functools import lru_cache
from urllib.parse import urlsplit

__all__ = [
    "acknowledges",
    "addresses",
    "claims_completion",
    "encoded_text_blobs",
    "entities",
    "executor_tool",
    "identifiers",
    "injection_markers",
    "injection_matches",
    "instruction_markers",
    "opaque_token",
    "placeholder_address",
    "scan_window",
    "unquoted",
]

# Phrases that try to replace the agent's instructions. Each names one attack so the
# evidence can say which one matched.
_INJECTION = [
    ("ignore_instructions", (r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+)*"
     r"(?:previous|prior|above|earlier|preceding|original|system)\s+"
     r"(?:instructions?|prompts?|rules|directions|messages?)")),
    ("new_instructions", r"\b(?:new|updated|real)\s+(?:system\s+)?instructions?\s*:"),
    ("role_override", (r"\byou\s+are\s+now\s+(?:in\s+)?(?:dan|developer\s+mode|jailbroken|unrestricted|"
     r"an?\s+unfiltered)")),
    ("do_anything_now", r"\bdo\s+anything\s+now\b"),
    ("reveal_prompt", (r"\b(?:reveal|print|show|repeat|output|leak)\s+(?:me\s+)?(?:your|the)\s+"
     r"(?:system\s+prompt|hidden\s+instructions|initial\s+instructions)")),
    ("no_restrictions", (r"\b(?:without|ignore)\s+(?:any\s+)?(?:restrictions|safety\s+guidelines|"
     r"content\s+polic(?:y|ies))\b")),
    ("jailbreak", r"\bjailbreak(?:ing)?\b"),
    ("fake_system_tag", r"</?\s*system\s*>|<\|im_start\|>\s*system"),
]
_INJECTION_RE = [(name, re.compile(rx, re.IGNORECASE)) for name, rx in _INJECTION]

# Markers that only make sense inside a prompt, never inside data a tool returns.
_MARKERS = [
    ("role_prefix", re.compile(r"^\s*(?:system|assistant)\s*:", re.IGNORECASE | re.MULTILINE)),
    ("inst_tag", re.compile(r"\[/?INST\]|<<\s*/?SYS\s*>>")),
]
_BASE64 = re.compile(r"[A-Za-z0-9+/]{100,}={0,2}")

_COMPLETION = re.compile(
    r"\b(?:done|completed?|finished|successfully|all\s+set|task\s+is\s+complete|"
    r"i\s+have\s+(?:completed|finished|done)|here\s+(?:is|are)\s+(?:the|your)|"
    r"has\s+been\s+(?:created|sent|updated|processed|booked|saved|deleted))\b",
    re.IGNORECASE,
)
_ACKNOWLEDGE = re.compile(
    r"\b(?:error|errors|failed|fail|fails|failure|unable|could\s*n[o']t|can\s*n[o']t|cannot|"
    r"unfortunately|issue|problem|sorry|not\s+able|did\s*n[o']t\s+work|"
    r"went\s+wrong|retry|retrying|try\s+again|timed?\s*out|unavailable|denied|invalid)\b",
    re.IGNORECASE,
)

_UUID = re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b")
_EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")
_URL = re.compile(r"\bhttps?://[^\s'\"<>)\]}]+", re.IGNORECASE)
_PATH = re.compile(r"(?:(?<=\s)|^)(?:/[\w.-]+){2,}/?|\b[A-Za-z]:\\[\w\\. -]+")
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b")
_INT = re.compile(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?![\w.])|(?<![\w.,])\d+(?![\w.,])")
# An opaque token: letters and digits mixed, with optional joiners, no spaces.
_TOKEN = re.compile(r"^(?=.*\d)(?=.*[A-Za-z])[A-Za-z0-9][A-Za-z0-9_.:#-]{4,}$")

# Every identifier holds a digit, "@", "/" or "\\": a cheap test that skips most words.
_MAYBE_ID = re.compile(r"[\d@/\\]")
# One pass to rule a text out before naming which phrases matched.
_ANY_INJECTION = re.compile("|".join(f"(?:{rx})" for _, rx in _INJECTION), re.IGNORECASE)
_ANY_MARKER = re.compile("|".join(f"(?:{rx.pattern})" for _, rx in _MARKERS),
                         re.IGNORECASE | re.MULTILINE)

SCAN_LIMIT = 32_768
SCAN_HALF = 16_384


def scan_window(text: str) -> str:
    """The part of ``text`` worth scanning: all of it up to 32 KiB, else head and tail."""
    if len(text) <= SCAN_LIMIT:
        return text
    return text[:SCAN_HALF] + "\n" + text[-SCAN_HALF:]


def injection_matches(text: str) -> list[str]:
    """Names of the injection phrases found in ``text``."""
    if not text:
        return []
    window = scan_window(text)
    if not _may_inject(window) or not _ANY_INJECTION.search(window):
        return []
    return [name for name, rx in _INJECTION_RE if rx.search(window)]


# Every injection phrase holds one of these words (role_override both "you" and "now"). In
# ASCII text a case-insensitive match is a substring of the lowercased text, so a few
# substring tests rule most texts out at a tenth of the alternation's cost. Other text
# goes to the regex: IGNORECASE also folds "ſ", "ı" and "İ" onto ASCII letters.
def _may_inject(window: str) -> bool:
    if not window.isascii():
        return True
    low = window.lower()
    return ("ignore" in low or "disregard" in low or "forget" in low or "override" in low
            or "instruction" in low or "anything" in low or "system" in low
            or "without" in low or "jailbreak" in low or ("you" in low and "now" in low))


_QUOTED = re.compile(r'"[^"\n]{1,300}"|“[^”\n]{1,300}”|`[^`\n]{1,300}`'
                     r"|(?<!\w)'[^'\n]{1,300}'(?!\w)")


def unquoted(text: str) -> str:
    """``text`` without its quoted passages: what the writer says, not what they cite."""
    return _QUOTED.sub(" ", scan_window(text))


def injection_markers(text: str) -> list[str]:
    """Names of prompt-only markers (role prefixes, instruction tags) found in ``text``."""
    if not text:
        return []
    window = scan_window(text)
    # A role prefix needs its colon, a tag "INST]" or "<<": literal characters that no
    # case folding produces, so text without them is ruled out before any regex.
    if ":" not in window and "INST]" not in window and "<<" not in window:
        return []
    if not _ANY_MARKER.search(window):
        return []
    return [name for name, rx in _MARKERS if rx.search(window)]


# What stored memory must never hold, beyond the injection phrases and prompt markers:
# overrides of the agent's rules and chat-template delimiters. Role-play ("act as",
# "you are now a pirate") is left out on purpose: stored personalisation says exactly that.
_MEMORY_OVERRIDES = [
    ("dont_follow_instructions", re.compile(
        r"\bdo\s+not\s+follow\s+(?:your|the|any)\s+(?:previous|prior|original|earlier)\b",
        re.IGNORECASE)),
    ("bypass_safety", re.compile(
        r"\b(?:override|bypass|disable|turn\s+off)\s+(?:all\s+|any\s+|the\s+|your\s+)*"
        r"(?:safety|restrictions?|guardrails?|filters?|content\s+polic(?:y|ies))\b",
        re.IGNORECASE)),
    ("developer_mode", re.compile(r"\bdeveloper\s+mode\s+(?:is\s+)?(?:enabled|on|activated)\b"
                                  r"|\bDAN\s+mode\b", re.IGNORECASE)),
    ("chat_delimiter", re.compile(r"<\|(?:im_start|system)\|>|^\s*#{2,}\s*system\b",
                                  re.IGNORECASE | re.MULTILINE)),
]


def instruction_markers(text: str) -> list[str]:
    """Every sign that ``text`` talks to the model rather than holds data: injection
    phrases, prompt markers, rule overrides and chat delimiters (quoted text excluded:
    a note about an attack is not one)."""
    if not text:
        return []
    said = unquoted(text)
    found = injection_matches(said) + injection_markers(said)
    window = scan_window(said)
    found += [name for name, rx in _MEMORY_OVERRIDES if rx.search(window)]
    return found


def encoded_text_blobs(text: str, limit: int = 4) -> list[str]:
    """Base64 runs of ≥ 100 chars that decode to readable text (the decoded text).

    Tools return base64 images and files all the time; only a blob that hides *text*
    is a way to smuggle instructions, so binary payloads are not reported.
    """
    found: list[str] = []
    if not text or len(text) < 100:
        return found
    for match in _BASE64.finditer(scan_window(text)):
        blob = match.group(0)[:8192]
        blob = blob[: len(blob) - len(blob) % 4]
        try:
            raw = base64.b64decode(blob, validate=True)
        except (binascii.Error, ValueError):
            continue
        try:
            decoded = raw.decode("utf-8")
        except UnicodeDecodeError:
            continue
        printable = sum(ch.isprintable() or ch in "\n\t\r" for ch in decoded)
        if decoded and printable / len(decoded) >= 0.95 and any(c.isalpha() for c in decoded):
            found.append(decoded)
            if len(found) >= limit:
                break
    return found


def claims_completion(text: str) -> bool:
    return bool(_COMPLETION.search(text))


def acknowledges(text: str) -> bool:
    """True when a response mentions a failure (so it did read the tool error)."""
    return bool(_ACKNOWLEDGE.search(text))


ID_SCAN_LIMIT = 8192


def _bounded(text: str) -> str:
    # Identifier patterns can backtrack on long runs of word characters; ids sit near the
    # start of an argument or message, so a bounded head keeps the cost linear and small.
    return text if len(text) <= ID_SCAN_LIMIT else text[:ID_SCAN_LIMIT]


def _present(text: str) -> list[re.Pattern[str]]:
    """The identifier patterns whose anchor character occurs in ``text``."""
    out = []
    if "-" in text:
        out.append(_UUID)
    if "@" in text:
        out.append(_EMAIL)
    if "://" in text:
        out.append(_URL)
    if "/" in text or "\\" in text:
        out.append(_PATH)
    return out


def identifiers(text: str, *, small_int_max: int = 100) -> list[str]:
    """Identifier-like substrings of ``text``: UUIDs, emails, URLs, paths, integers above
    ``small_int_max``. Order of first appearance, no duplicates."""
    seen: dict[str, None] = {}
    text = _bounded(text)
    if text.isascii() and text.isalnum():
        # A plain word or number (most argument values): no pattern but _INT can match,
        # and _INT only the whole text, as a digit run inside it touches a letter.
        return [text] if text.isdigit() and (len(text) > 18 or int(text) > small_int_max) else []
    if not text or not _MAYBE_ID.search(text):
        return []
    for rx in _present(text):
        for m in rx.finditer(text):
            seen.setdefault(m.group(0).rstrip(".,;:"), None)
    # Dates are computed ("next Monday"), not looked up: their digits are not identifiers.
    for m in _INT.finditer(_DATE.sub(" ", text)):
        token = m.group(0)
        if any(token in found for found in seen):
            continue  # the digits of a UUID, URL or path, already reported whole
        digits = token.replace(",", "")
        # Compare lengths first: int() of a 5,000-digit string raises ValueError.
        if len(digits) > 18 or int(digits) > small_int_max:
            seen.setdefault(token, None)
    return list(seen)


def addresses(text: str) -> list[str]:
    """UUIDs, emails and URLs in ``text``: what names a thing in the world even inside
    a program or note the agent writes, where its numbers and paths are its own choices.
    Order of first appearance, no duplicates."""
    seen: dict[str, None] = {}
    text = _bounded(text)
    for rx in _present(text):
        if rx is _PATH:
            continue
        for m in rx.finditer(text):
            seen.setdefault(m.group(0).rstrip(".,;:"), None)
    return list(seen)


# A tool that runs a program the agent writes (a shell, an interpreter, a calculator) or
# keeps its notes. Named by one of these words, or only by run/execute words (run_command,
# execute_code); never run_report or execute_transfer.
_EXECUTOR_WORD = frozenset({
    "bash", "sh", "zsh", "shell", "terminal", "console", "powershell", "python", "ipython",
    "jupyter", "repl", "interpreter", "calculate", "calculator", "calc", "think",
    "scratchpad"})
_RUN_WORD = frozenset({"run", "exec", "execute", "command", "cmd", "code", "script"})
_NAME_WORDS = re.compile(r"[\W_]+")


@lru_cache(maxsize=256)
def executor_tool(name: str) -> bool:
    """True for a tool whose arguments are a program or note the agent writes."""
    words = set(_NAME_WORDS.split(name.lower())) - {""}
    return bool(words & _EXECUTOR_WORD) or bool(words) and words <= _RUN_WORD


# Reserved for examples and tests (RFC 2606, RFC 6761); one-letter top-level domains do
# not exist. An address under them reaches nothing: in code it is test data.
_RESERVED_DOMAINS = ("example.com", "example.net", "example.org")
_RESERVED_TLDS = frozenset({"example", "test", "invalid", "localhost"})


def placeholder_address(address: str) -> bool:
    """True when the email, URL or host ``address`` is under a name that reaches nothing."""
    if "://" in address:
        try:
            host = urlsplit(address).hostname or ""
        except ValueError:
            return False
    else:
        host = address.rsplit("@", 1)[-1]
    host = host.lower().strip(".")
    if host == "localhost" or any(host == d or host.endswith("." + d)
                                  for d in _RESERVED_DOMAINS):
        return True
    head, dot, tld = host.rpartition(".")
    return bool(dot and head) and (tld in _RESERVED_TLDS or len(tld) == 1)


def opaque_token(value: str) -> bool:
    """A no-space string that looks like an id (mixes letters and digits), not a word
    and not a timestamp."""
    # _TOKEN needs five characters; most argument values are shorter words and numbers.
    return len(value) >= 5 and bool(_TOKEN.match(value)) and not _DATE.fullmatch(value)


def entities(text: str) -> list[str]:
    """Entities whose loss in a handoff matters: UUIDs, emails, URLs, integers of 3+ digits."""
    if not text:
        return []
    seen = dict.fromkeys(addresses(text))
    text = _bounded(text)
    for m in _INT.finditer(text):
        token = m.group(0)
        digits = token.replace(",", "")
        if len(digits) >= 3 and not any(token in found for found in seen):
            seen.setdefault(token, None)
    return list(seen)
