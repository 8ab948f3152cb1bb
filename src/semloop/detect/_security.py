"""Detectors of untrusted text steering the agent: injection in the user's input, in
retrieved or tool content, and tool arguments made up out of nothing."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from ..events import Run, Severity, Signal
from ._patterns import (
    ID_SCAN_LIMIT,
    addresses,
    encoded_text_blobs,
    executor_tool,
    identifiers,
    injection_markers,
    injection_matches,
    opaque_token,
    placeholder_address,
    unquoted,
)
from ._registry import Detector, Param, signal
from ._view import Call, view_of
from .baseline import Baseline

__all__ = ["PROMPT_INJECTION_SIGNAL", "RETRIEVED_CONTENT_INJECTION", "TOOL_ARGUMENT_FABRICATION"]


def _first_step(run: Run) -> int:
    view = view_of(run)
    return view.calls[0].step if view.calls else 0


def _prompt_injection(run: Run, p: dict[str, Any], baseline: Baseline | None) -> Signal | None:
    view = view_of(run)
    matches = injection_matches(view.input_text)
    flagged = view.started.get("injection_signal")
    if not matches and not flagged:
        return None
    confidence = 0.95 if len(matches) >= 2 or (matches and flagged) else 0.85
    # "What does 'ignore previous instructions' do?" cites an attack, it does not make one.
    quoted = bool(matches) and not flagged and not injection_matches(unquoted(view.input_text))
    if quoted:
        confidence = 0.6
    return signal(run, "PROMPT_INJECTION_SIGNAL", Severity.CRITICAL, confidence,
                  [_first_step(run)], patterns=matches, sdk_flag=bool(flagged),
                  quoted=quoted, input_chars=len(view.input_text))


PROMPT_INJECTION_SIGNAL = Detector(
    name="PROMPT_INJECTION_SIGNAL",
    check=_prompt_injection,
    params=(),
    severity="CRITICAL",
    rule="the user input matches an injection pattern (ignore previous instructions, new "
         "instructions:, you are now DAN, reveal your system prompt, fake <system> tags…) or "
         "the SDK flagged it at run start (injection_signal)",
    guards=(("when every match sits inside quotes (the user cites an attack, e.g. asks what "
             "it does) confidence drops to 0.6"),
            ("inputs over 32 KiB are scanned head 16 KiB + tail 16 KiB, as the SDK does, so "
            "cost is bounded"),),
)


def _content_findings(call: Call) -> tuple[list[str], list[str], int]:
    text = call.output or ""
    phrases = injection_matches(text)
    markers = injection_markers(text)
    hidden = 0
    for decoded in encoded_text_blobs(text):
        inner = injection_matches(decoded)
        if inner:
            phrases.extend(f"base64:{name}" for name in inner)
        hidden += 1
    return phrases, markers, hidden


def _retrieved_content_injection(run: Run, p: dict[str, Any],
                                 baseline: Baseline | None) -> Signal | None:
    view = view_of(run)
    hits: list[tuple[Call, list[str], list[str], int]] = []
    for call in view.calls:
        if call.kind == "llm" or not call.output:
            continue
        phrases, markers, hidden = _content_findings(call)
        if phrases or markers or hidden:
            hits.append((call, phrases, markers, hidden))
    if not hits:
        return None
    first = hits[0][0]
    deviation: list[Call] = []
    if p["detect_behavior_deviation"]:
        idx = view.position(first)
        known = {c.name for c in view.calls[: idx + 1] if c.kind == "tool"}
        user = view.input_text.lower()
        for call in view.calls[idx + 1:]:
            if call.kind == "tool" and call.name not in known and call.name.lower() not in user:
                deviation.append(call)
                known.add(call.name)
    phrases = [x for _, ph, _, _ in hits for x in ph]
    markers = [x for _, _, mk, _ in hits for x in mk]
    hidden = sum(h for _, _, _, h in hits)
    if deviation:
        severity, confidence = Severity.CRITICAL, 0.95
    elif phrases:
        severity, confidence = Severity.HIGH, 0.85
    else:
        severity, confidence = Severity.HIGH, 0.6
    return signal(run, "RETRIEVED_CONTENT_INJECTION", severity, confidence,
                  [c.step for c, *_ in hits] + [c.step for c in deviation],
                  sources=[f"{c.kind}:{c.name}" for c, *_ in hits], phrases=sorted(set(phrases)),
                  markers=sorted(set(markers)), encoded_text_blobs=hidden,
                  new_tools_after=[c.name for c in deviation])


RETRIEVED_CONTENT_INJECTION = Detector(
    name="RETRIEVED_CONTENT_INJECTION",
    check=_retrieved_content_injection,
    params=(Param("detect_behavior_deviation", True,
                  "escalate when a new tool, not named by the user, is called afterwards"),),
    severity="HIGH; CRITICAL when the agent then calls a tool it had not used and the user "
             "did not name",
    rule="a retrieval or tool output contains injection phrases, role prefixes (system:, "
         "assistant:), [INST]/<<SYS>> tags, or base64 text of ≥ 100 chars",
    guards=("base64 is decoded: images and files (binary) are ignored, only hidden text counts",
            "markers or encoded text alone give confidence 0.6; injection phrases 0.85"),
)

_DESTRUCTIVE = ("delete_", "remove_", "drop_", "transfer_", "send_", "pay_")


# Numbers under these keys are settings, quantities or positions the agent chooses (a page
# size, a timeout, an amount, a line range), not identifiers it must have been given.
_QUANTITY_KEY = re.compile(
    r"(?:^|_)(?:limit|size|count|max|min|timeout|offset|page|per_page|top_k|k|n|lines|amount"
    r"|price|total|quantity|qty|days|hours|minutes|seconds|ms|year|width|height|port|version"
    r"|retries|depth|temperature|tokens|max_tokens|radius|length|num|number_of|rows|records"
    r"|items|range|line|start|end|col|column)(?:_[a-z]+)?$",
    re.IGNORECASE)

# A tool that writes or creates names its own destination: a new file path is the agent's
# choice, not an identifier it was given.
_WRITER_TOOL = re.compile(r"^(?:write|create|save|export|mkdir|touch|new)(?:_|$)", re.IGNORECASE)
_DESTINATION_KEY = re.compile(
    r"^(?:path|file|filename|file_path|dest|destination|output|output_path|out|target|name)$",
    re.IGNORECASE)
# A multi-command tool (an editor with command=create|view|...) writes when its verb does.
_VERB_KEY = frozenset({"command", "action", "operation", "op", "mode"})
_WRITER_VERB = frozenset({"create", "write", "save", "new", "touch", "mkdir"})

# Keys whose value is text the agent authors, whatever the tool: a program, an
# expression, a thought, a file's contents, an edit, a message or summary it writes.
_AUTHORED_KEY = frozenset({
    "command", "cmd", "code", "script", "program", "source_code", "expression", "expr",
    "thought", "thoughts", "reasoning", "content", "contents", "text", "body", "file_text",
    "new_str", "old_str", "new_content", "patch", "diff", "message", "summary",
    "description", "note", "notes", "comment", "reason", "explanation"})
# What a program creates: the target of a redirect, tee, touch or mkdir.
_CREATED = re.compile(r"(?:>>?|\btee\s+(?:-a\s+)?|\btouch\s+|\bmkdir\s+(?:-p\s+)?)\s*"
                      r"(['\"]?)([^\s'\";|&<>()]+)\1")


def _leaves(value: Any, key: str = "", out: list[tuple[str, Any]] | None = None,
            ) -> list[tuple[str, Any]]:
    """(key, value) of every scalar in ``value``, in order; a list's items keep its key."""
    if out is None:
        out = []
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, (dict, list, tuple)):
                _leaves(v, str(k), out)
            else:
                out.append((str(k), v))
    elif isinstance(value, (list, tuple)):
        for v in value:
            if isinstance(v, (dict, list, tuple)):
                _leaves(v, key, out)
            else:
                out.append((key, v))
    else:
        out.append((key, value))
    return out


# Tool names and argument keys come from a small vocabulary: each is judged once.
@lru_cache(maxsize=256)
def _is_writer(tool: str) -> bool:
    return bool(_WRITER_TOOL.match(tool))


@lru_cache(maxsize=1024)
def _is_quantity(key: str) -> bool:
    return bool(_QUANTITY_KEY.search(key))


def _writes(tool: str, leaves: list[tuple[str, Any]]) -> bool:
    return _is_writer(tool) or any(
        k.lower() in _VERB_KEY and isinstance(v, str) and v.strip().lower() in _WRITER_VERB
        for k, v in leaves)


def _arg_identifiers(args: Any, small_int_max: int, tool: str = "",
                     created: set[str] | None = None) -> list[str]:
    """Values of the call's arguments that claim to name something from the world.

    What the agent authors is not a claim: a program's numbers and paths, a note, a
    file's contents (only emails, URLs and UUIDs in them name the world), and the
    destination a writing call creates. Those destinations, and the files a program
    creates, are added to ``created``: a later call that names them refers to the
    agent's own work."""
    found: dict[str, None] = {}
    leaves = _leaves(args)
    writer = _writes(tool, leaves)
    executor = executor_tool(tool)
    for key, leaf in leaves:
        if isinstance(leaf, bool) or leaf is None:
            continue
        if writer and _DESTINATION_KEY.match(key):
            if created is not None and isinstance(leaf, str):
                created.add(leaf.strip().lower())
            continue
        if executor or key.lower() in _AUTHORED_KEY:
            if not isinstance(leaf, str):
                continue  # a number the agent put in its own program or note
            if created is not None:
                created.update(m.group(2).lower()
                               for m in _CREATED.finditer(leaf[:ID_SCAN_LIMIT]))
            for ref in addresses(leaf):
                if not placeholder_address(ref):
                    found.setdefault(ref, None)
            continue
        if isinstance(leaf, (int, float)):
            if isinstance(leaf, int) and leaf > small_int_max and not _is_quantity(key):
                found.setdefault(str(leaf), None)
            continue
        if not isinstance(leaf, str):
            continue
        stripped = leaf.strip()
        if opaque_token(stripped):
            found.setdefault(stripped, None)  # the whole id, not the digits inside it
            continue
        for ident in identifiers(leaf, small_int_max=small_int_max):
            found.setdefault(ident, None)
    return list(found)


_MAX_FABRICATED = 20

# Keys under which an object in a list names itself, and an ordinal label: a short word
# and a small number ("opt-1", "step_2", "q3"): how an agent numbers items it lays out.
_OWN_ID_KEY = re.compile(r"^(?:id|key|value|(?:option|choice|item|step|slot)_?id)$",
                         re.IGNORECASE)
_ORDINAL = re.compile(r"^[a-z][a-z_-]{0,11}?[-_]?(\d{1,6})$", re.IGNORECASE)


def _minted_labels(args: Any, small_int_max: int) -> set[str]:
    """Ordinal labels the call gives to objects it lists (options, steps, choices).

    An agent that offers ``[{"id": "opt-1", ...}, {"id": "opt-2", ...}]`` chose those
    names; when it later passes ``"opt-1"`` it refers to its own list, not to an id it
    invented. Real-world ids (ORD-99812, UUIDs) carry large numbers and stay checked.
    """
    minted: set[str] = set()
    if isinstance(args, dict) and not any(isinstance(v, (dict, list, tuple))
                                          for v in args.values()):
        return minted  # flat arguments list nothing (most calls)
    stack = [args]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, (list, tuple)):
            for item in value:
                if isinstance(item, dict):
                    for k, v in item.items():
                        if (isinstance(v, str) and _OWN_ID_KEY.match(str(k))
                                and (m := _ORDINAL.match(v.strip()))
                                and int(m.group(1)) <= small_int_max):
                            minted.add(v.strip().lower())
                stack.append(item)
    return minted


def _grounded(ident: str, corpus: str) -> bool:
    low = ident.lower()
    # rfind: ids are mostly taken from the latest outputs, at the end of the text.
    if corpus.rfind(low) >= 0:
        return True
    if low.startswith(("http://", "https://")):
        # An agent builds URLs on a known host (API base + path); only an unknown host
        # means the address was invented.
        try:
            host = urlsplit(low).hostname or ""
        except ValueError:  # a malformed URL (bad port, bracket) has no usable host
            return False
        return bool(host) and host in corpus
    if low.replace(",", "").isdigit():
        digits = low.replace(",", "")
        return digits in corpus or (len(digits) <= 18 and f"{int(digits):,}" in corpus)
    return False


def _tool_argument_fabrication(run: Run, p: dict[str, Any],
                               baseline: Baseline | None) -> Signal | None:
    view = view_of(run)
    # What the agent had been shown so far, lowercased. A local string, so CPython can
    # grow it in place: appending stays linear on long runs.
    corpus = view.input_text.lower() + "\n" + view.system_prompt.lower()
    fabricated: list[tuple[Call, list[str]]] = []
    own: set[str] = set()  # labels it gave to items it listed, files it created
    count = 0
    for call in view.calls:
        if call.kind == "llm":
            prompt = call.request.get("prompt")
            if prompt:
                corpus += "\n" + str(prompt).lower()
            continue
        if call.kind == "tool":
            own |= _minted_labels(call.parsed_args, p["small_int_max"])
            idents = _arg_identifiers(call.parsed_args, p["small_int_max"], call.name, own)
            missing = [i for i in idents if i.lower() not in own and not _grounded(i, corpus)]
            if missing:
                fabricated.append((call, missing))
                count += len(missing)
                if count >= _MAX_FABRICATED:
                    break  # enough evidence; the rest would only cost time
        else:
            corpus += "\n" + str(call.args or "").lower()
        if call.response is not None and call.output is None:
            break  # an unrecorded output may hold any id: checking further would guess
        if call.output:
            corpus += "\n" + call.output.lower()
    if not fabricated:
        return None
    idents = list(dict.fromkeys(i for _, found in fabricated for i in found))
    destructive = any(c.name.lower().startswith(_DESTRUCTIVE) for c, _ in fabricated)
    # Without a system prompt or any recorded prompt we do not know what the model was
    # shown (a ticket, a host list): the id may have come from there.
    context_recorded = bool(view.system_prompt) or any(
        c.request.get("prompt") for c in view.llms)
    confidence = 0.85 if len(idents) >= 2 else 0.7
    if not context_recorded:
        confidence -= 0.2
    return signal(run, "TOOL_ARGUMENT_FABRICATION",
                  Severity.CRITICAL if destructive else Severity.HIGH,
                  confidence, [c.step for c, _ in fabricated],
                  tools=sorted({c.name for c, _ in fabricated}), identifiers=idents[:20],
                  destructive=destructive, context_recorded=context_recorded)


TOOL_ARGUMENT_FABRICATION = Detector(
    name="TOOL_ARGUMENT_FABRICATION",
    check=_tool_argument_fabrication,
    params=(Param("small_int_max", 100, "integers up to this are ordinary values, not ids",
                  0, 10**9),),
    severity="HIGH; CRITICAL for tools named delete_, remove_, drop_, transfer_, send_, pay_",
    rule="a tool argument holds an identifier (UUID, email, URL, path, integer > "
         "small_int_max, letter-digit token) found nowhere in the user input, system prompt, "
         "recorded prompts or earlier tool/retrieval outputs; in text the agent authors (a "
         "program, note or file content) only UUIDs, emails and URLs count",
    guards=(("checking stops at the first unrecorded output, which could have held the id, "
             "and after 20 invented ids (enough evidence)"),
            "URLs on a host that appears in the context are grounded (agents build API paths)",
            "dates and times are computed, not identifiers",
            ("numbers under quantity or position keys (limit, page_size, timeout, amount, "
             "rows, days, view_range, line, start…) are choices, not identifiers"),
            ("the destination of a writing tool (write_/create_/save_/export_… or a verb "
             "argument such as command=create, with a path, file or output argument) is a "
             "name the agent chooses"),
            ("text the agent authors is not a reference: every argument of a tool that runs "
             "or holds what it writes (bash, shell, python, run_command, execute_code, "
             "calculate, think…) and any command, code, script, expression, thought, "
             "content, text, body, patch, message, summary or note argument. Its numbers (line ranges, sizes, test "
             "data) and paths are the agent's own; only UUIDs, emails and URLs in it name "
             "the world, and not under names that reach nothing (example.com, .example, .test, "
             ".invalid, localhost, a one-letter top-level domain)"),
            ("what the agent created is its own: a path a writing call named, or a program "
             "wrote to (>, >>, tee, touch, mkdir), is grounded for later calls"),
            ("confidence drops by 0.2 when neither a system prompt nor any prompt was "
             "recorded: the model may have been shown the id"),
            "each argument is scanned in its first 8 KiB, which bounds the cost of huge ones",
            ("the model's own earlier outputs do not ground an id: that is where invented ids "
            "come from"),
            ("ordinal labels (a short word and a number up to small_int_max: opt-1, step_2) "
             "that a call gives to objects it lists (under id, key, value, option_id…) are "
             "names the agent chose; passing one later refers to its own list")),
)
