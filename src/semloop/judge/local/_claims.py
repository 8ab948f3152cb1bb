"""What the run-level answers read from an answer's text, besides embeddings. Stdlib only.

Claims (sentences and list items), quantities with their value normalised (``1,200`` /
``1.2k`` / ``twelve hundred``; percentages; currencies; units), dates in several formats,
negation, hedges, refusals, promises of future work and the parts of a multi-part request.
Nothing here knows a domain: the word lists are English function words and the words of
hedging, refusing, promising and negating, not of any subject.
"""

from __future__ import annotations

import bisect
import csv
import itertools
import json
import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any
from xml.etree import ElementTree

from .._types import Answer
from ._calendar import DIGITS, MONTH_ALT, MONTH_WORD, WEEKDAY_WORD, month_of

__all__ = [
    "DateParts",
    "Quantity",
    "Valued",
    "aligned_records",
    "clauses",
    "clock_times",
    "continental",
    "contradicts",
    "converted",
    "date_supported",
    "dates",
    "delimited_records",
    "derived_values",
    "head",
    "hour_range_times",
    "is_generic_advice",
    "is_hedged",
    "is_refusal",
    "key_terms",
    "labelled_values",
    "negation_scope",
    "number_supported",
    "promises_only",
    "quantities",
    "request_parts",
    "split_claims",
    "spoken_numbers",
    "stem",
    "table_records",
    "timetable_times",
    "tool_text",
    "verdict",
    "word_stems",
    "worded_clock_times",
]

_P_FLOOR, _P_CEIL = 0.02, 0.98


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def verdict(logit: float, reasoning: str) -> Answer:
    """A noul answer from log-odds of "the failure happened", with its reasoning."""
    # Rounded so that the last bits of a float dot product can never reach an answer.
    p = round(min(_P_CEIL, max(_P_FLOOR, _sigmoid(logit))), 4)
    return Answer(
        type="noul",
        value=p,
        probability=max(p, round(1.0 - p, 4)),
        probabilities={True: p, False: round(1.0 - p, 4)},
        reasoning=reasoning,
    )


# A short letter mark glued to an amount (R148,900, Rs1,250.00, KSh780.50) is a currency
# sign, whatever the country: an amount has grouped thousands or cents, an id has neither.
_GLUED_MARK = re.compile(r"\b([A-Z][A-Za-z]{0,2}\$?)(?=[-\u2212]?(?:\d{1,3}(?:,\d{3})+|\d+\.\d\d)(?![\d.,]*\d)(?!\w))")


# Typography some models write (gpt-oss: "1995\u201104\u201107", "Basic\u202fEconomy"): a
# non-breaking hyphen is a hyphen and a narrow or non-breaking space a space, or a date
# falls apart into three stray numbers.
_TYPOGRAPHY = DIGITS | str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"',
                             "\u2010": "-", "\u2011": "-", "\u202f": " ", "\u00a0": " "})
# (``DIGITS``: a number in Bengali, Devanagari or Arabic-Indic digits is read as in ASCII ones.)


# Continental numbers (1.234,56 €; 12,5 %; 0,312): a comma before one, two or four-plus
# digits, or after grouped thousands, is a decimal point; an English number never has one
# there. A text whose fields a bare comma separates ("sku,qty") is left as it is.
_GROUPED_DECIMAL = re.compile(r"(?<![\w.,\-\[])(\d{1,3}(?:\.\d{3})+|\d{1,3}(?: \d{3})+),(\d+)(?![\w.]|,\d)")
_COMMA_DECIMAL = re.compile(r"(?<![\w.,\-\[])(\d+),(\d{1,2}|\d{4,})(?![\w\]]|[.,]\d)|(?<![\w.,\-\[])(0),(\d+)(?![\w\]]|[.,]\d)")
_COMMA_FIELDS = re.compile(r"[A-Za-z_\d],[A-Za-z_\d]")
# In such a text "3.200" and "1.120" are thousands too, as are groups in any text (1.234.567)
# and those of a euro amount with its sign after it, the continental way (128.400 €); a
# range's second number too (180.000-250.000).
_DOT_THOUSANDS = re.compile(r"(?<![\w.,\[])(?<!(?<!\d)-)[1-9]\d{0,2}(?:\.\d{3})+(?!\w|[.,]\d)(?P<after>\s?(?:€|EUR\b))?")


# A round money amount grouped by a dot ("€180.000", "8.000 €"): no price has three decimal
# zeros, so the text groups thousands by dots.
_DOT_ROUND_AMOUNT = re.compile(r"[€$£]\s?[1-9]\d{0,2}(?:\.000)+(?![\d.,])|(?<![\w.,])[1-9]\d{0,2}(?:\.000)+\s?(?:€|EUR\b)")


@lru_cache(maxsize=4096)
def continental(text: str) -> bool:
    """The text writes numbers the continental way, a comma for the decimal point."""
    return bool(_GROUPED_DECIMAL.search(text) or _DOT_ROUND_AMOUNT.search(text)) or (
        bool(_COMMA_DECIMAL.search(text)) and not _COMMA_FIELDS.search(_COMMA_DECIMAL.sub("", text)))


_SLASH_DATE = re.compile(r"\b([0-3]?\d)/([01]?\d)/((?:19|20)?\d{2})\b")


def _english_numbers(text: str, dots: bool = False) -> str:
    """The text with continental numbers written the English way; ``dots`` where another
    text of the same run shows the way."""
    if "," not in text and "." not in text and not dots:
        return text
    dots = dots or continental(text)
    text = _GROUPED_DECIMAL.sub(lambda m: f"{re.sub('[. ]', '', m.group(1))}.{m.group(2)}", text)
    if dots:
        text = _COMMA_DECIMAL.sub(lambda m: ".".join(g for g in m.groups() if g is not None), text)
        # Its dates are day first too: 07/01/2027 as 07.01.2027, which is read so.
        text = _SLASH_DATE.sub(r"\1.\2.\3", text)
    # A text that groups one number by dots (8.500.000) groups its others so (950.000). The
    # groups stay, by commas: a long amount is then no id (``_ID_DIGITS``).
    dots = dots or any(m.group(0).count(".") > 1 for m in _DOT_THOUSANDS.finditer(text))
    return _DOT_THOUSANDS.sub(
        lambda m: m.group(0).replace(".", ",") if dots or m.group("after") else m.group(0), text)


# "1.2M downloads", "3.5B": a capital glued to a decimal is its scale, not metres or a grade.
_DECIMAL_SCALE = re.compile(r"(?<![\w.,])(\d+\.\d+)([MB])\b")


# Swiss grouping, an apostrophe between thousands ("4'850.00 CHF"): one number, not 4 and 850.
_APOSTROPHE_THOUSANDS = re.compile(r"(?<![\w.,'])[1-9]\d{0,2}(?:'\d{3})+(?![\w'])")


@lru_cache(maxsize=8192)  # most checks read a text so, each text many times
def _plain(text: str) -> str:
    text = _APOSTROPHE_THOUSANDS.sub(lambda m: m.group(0).replace("'", ""), text.translate(_TYPOGRAPHY))
    for amount in _SPACED_AMOUNTS:
        text = amount.sub(lambda m: m.group(0).replace(" ", "") if m.group(0)[:1] != " "
                          else " " + m.group(0)[1:].replace(" ", ""), text)
    text = _english_numbers(text)
    text = _DECIMAL_SCALE.sub(lambda m: f"{m.group(1)} {'million' if m.group(2) == 'M' else 'billion'}", text)
    marks = {m.group(1) for m in _GLUED_MARK.finditer(text)}
    if not marks:
        return text
    # A mark an amount shows to be a currency marks its round amounts too (R38.50, so R120).
    return re.sub(rf"\b({'|'.join(map(re.escape, marks))})(?=[\d.,]*\d)", r"\1 ", text)


# ISO 8601's basic form (iCalendar's DTSTART:20261209T100000): the date and time it is.
_BASIC_DATETIME = re.compile(r"\b((?:19|20)\d\d)(0[1-9]|1[0-2])([0-3]\d)T([01]\d|2[0-3])([0-5]\d)(?:[0-5]\d)?Z?\b")


_HTTP_HEAD = re.compile(r"\s*(HTTP/\d(?:\.\d)?\s+\d{3}\b[^\n]*)\n(?:[\w-]+:[^\n]*\n)*\s*\n")


def _json_lines(output: str) -> list[Any]:
    """The records of an output of one JSON object a line, two or more; none otherwise."""
    rows = []
    for line in output.splitlines():
        if line.strip():
            try:
                rows.append(json.loads(line))
            except ValueError:
                return []
    return rows if len(rows) >= 2 and all(isinstance(r, dict) for r in rows) else []


# iCalendar and vCard: "BEGIN:VEVENT", then a property a line ("DTSTART;TZID=Africa/Nairobi:
# 20250313T170000"), then "END:VEVENT".
_CALENDAR_BEGIN = re.compile(r"^\s*BEGIN:V[A-Z]+\s*$", re.MULTILINE)
_PROPERTY = re.compile(r"^([A-Z][A-Z0-9-]*)((?:;[A-Z-]+=[^;:\n]*)*):(.*)$")


def _calendar_records(text: str) -> str:
    """An iCalendar or vCard text as one record per component (``summary: DSMB review;
    dtstart: 20250313T140000Z``), as a JSON object is flattened: a property's name (DTEND,
    UID) is a field's key, not a name the text gives; a time zone parameter stays on its
    value. Other texts as they are."""
    if not _CALENDAR_BEGIN.search(text):
        return text
    out: list[str] = []
    props: list[str] = []
    for line in text.splitlines():
        m = _PROPERTY.match(line.strip())
        if m is None:
            continue
        key, params, value = m.groups()
        if key in ("BEGIN", "END"):
            if props:
                out.append("; ".join(props))
            props = []
            continue
        zone = re.search(r";TZID=([^;:]+)", params)
        props.append(f"{key.lower()}: {value.strip()}{' ' + zone.group(1) if zone else ''}")
    return "\n".join([*out, "; ".join(props)] if props else out)


# A YAML-like line: its indent, a list item's dash, a key and its value after one space
# (none for a section's head: "prescriptions:"). A printout's columns aligned by spaces
# ("Strategy:        Canary", kubectl describe) are no YAML.
_INDENTED_PAIR = re.compile(r"^(?P<pad>\s*)(?P<dash>-\s+)?(?P<key>[A-Za-z_][\w .-]{0,40}?):(?: (?P<value>\S.*?))?\s*$")


def _indented_records(text: str) -> str:
    """An indented output (YAML, a call sheet's "shoot_day: 14" with its fields under it)
    with each block on one line (``shoot_day: 14; location: Porto di Varenna; call: 06:30``),
    as a JSON object is flattened: the fields under a key, or of one list item, are one
    record's, not loose lines any record's value could be read from. Texts with no such
    block as they are."""
    lines = text.splitlines()
    out: list[str] = []
    record: list[str] = []
    inside = -1  # the indent a record's fields are deeper than
    blocks = 0

    def close() -> None:
        nonlocal blocks
        blocks += len(record) > 1
        out.append("; ".join(record))

    for i, line in enumerate(lines):
        m = _INDENTED_PAIR.match(line)
        pad = len(m.group("pad")) if m else -1
        if m and record and pad > inside and m.group("value") is not None and not m.group("dash"):
            record.append(f"{m.group('key').strip()}: {m.group('value')}")
            continue
        if record:
            close()
        record, inside = [], -1
        nxt = next((x for x in lines[i + 1 :] if x.strip()), "")
        if m and m.group("value") is not None and (m.group("dash") or len(nxt) - len(nxt.lstrip()) > pad):
            record, inside = [f"{m.group('key').strip()}: {m.group('value')}"], pad
        else:
            out.append(line)
    if record:
        close()
    return "\n".join(out) if blocks else text


# A log's line of pairs ("booked=4 min_required=6 status=GUARANTEE_PENDING decision_at=Fri
# 18:00"): it opens on a key and gives three or more; not a command's argument ("env=prod").
_LOGFMT_KEY = re.compile(r"(?<!\S)[A-Za-z_][\w.]{0,40}=(?=[^\s=])")
_LOGFMT_GAP = re.compile(r"\s+(?=[A-Za-z_][\w.]{0,40}=[^\s=])")  # the space before the next pair
_LOGFMT_PAIRS = 3


def _logfmt_records(text: str) -> str:
    """Each line of key=value pairs as one record's pairs (``booked=4; status=PENDING``)."""
    return "\n".join(_LOGFMT_GAP.sub("; ", line)
                     if _LOGFMT_KEY.match(line.strip()) and len(_LOGFMT_KEY.findall(line)) >= _LOGFMT_PAIRS
                     else line for line in text.split("\n"))


@lru_cache(maxsize=4096)
def tool_text(output: str) -> str:
    """A tool's output as readable text: JSON flattened to one line per record
    (``dept: Cardiology; date: 2026-12-10; time: 09:15``)."""
    try:
        data = json.loads(output)
    except (ValueError, TypeError):
        # A response printed with its headers ("HTTP/1.1 200 OK", "Content-Type: …"): its
        # status line, then its body read as any output.
        head = _HTTP_HEAD.match(output)
        if head and output[head.end():].strip():
            return f"{head.group(1)}\n{tool_text(output[head.end():])}"
        # JSON Lines: one record a line, read as their list.
        rows = _json_lines(output)
        if rows:
            return tool_text(json.dumps(rows))
        return _BASIC_DATETIME.sub(r"\1-\2-\3 \4:\5", _calendar_records(_indented_records(_logfmt_records(output))))
    lines: list[str] = []

    def walk(value: Any, key: str, currency: str) -> None:
        if isinstance(value, dict):
            value = _row_records(value)
            currency = next((v for k, v in value.items() if isinstance(v, str)
                             and _CURRENCY_KEY.search(k) and v.upper() in _ISO_CURRENCIES), currency)
            flat = [_in_units(k, "null" if v is None else v, currency) for k, v in value.items()
                    if not isinstance(v, (dict, list))]
            if flat:
                lines.append("; ".join(f"{f'{key} {k}'.strip().replace('_', ' ')}: {v}"
                                       for k, v in flat))
            for k, v in value.items():
                if isinstance(v, (dict, list)):
                    walk(v, f"{key} {k}".strip(), currency)
        elif isinstance(value, list):
            for v in _unnamed_rows(value):
                walk(v, key, currency)
            if len(value) > 1:  # how many there are is a fact the answer may state
                lines.append(f"{key.replace('_', ' ')} count: {len(value)}".strip())
        else:
            lines.append(f"{key.replace('_', ' ')}: {'null' if value is None else value}".strip(": "))

    walk(data, "", "")
    return "\n".join(lines) if lines else output


def xml_json(output: str) -> str:
    """A tool's XML (or well-formed HTML) output as the JSON it would be, for
    :func:`tool_text` to flatten the same way: an element's attributes and its leaf
    children are one record's fields (``<order id="TR-5521"><status>IN_REVIEW</status>``:
    ``order id: TR-5521; order status: IN_REVIEW``), repeated children a list of records.
    Text between an element's children is prose, read as its text. Anything else is
    returned as it is."""
    if not output.lstrip().startswith("<"):
        return output
    try:
        root = ElementTree.fromstring(output.strip())
    except ElementTree.ParseError:
        return output
    return json.dumps(_element(root))


def _element(el: ElementTree.Element) -> Any:
    children = list(el)
    text = (el.text or "").strip()
    if children and (text or any((c.tail or "").strip() for c in children)):
        return " ".join("".join(el.itertext()).split())
    if not children:
        return {**el.attrib, "": text} if el.attrib else text
    value: dict[str, Any] = dict(el.attrib)
    for child in children:
        item = _element(child)
        if child.tag in value:
            held = value[child.tag]
            value[child.tag] = [*held, item] if isinstance(held, list) else [held, item]
        else:
            value[child.tag] = [item] if sum(c.tag == child.tag for c in children) > 1 else item
    return value


_PROSE_WORDS = 6  # a string value this long is said, not a field's value


# A markdown table's header row and the rule under it name columns; they state nothing.
_TABLE_HEAD = re.compile(r"^[ \t]*\|[^\n]*\|[ \t]*\n[ \t]*\|?[ \t]*:?-{2,}[-:| \t]*$", re.MULTILINE)


def answer_text(output: str) -> str:
    """An answer given as JSON (``{"message": "Done - your line …"}``, a reply in sections)
    as what it says: each string of prose on its own lines, every other value as ``key:
    value``. Read whole, the envelope is one sentence with its line breaks escaped, so its
    list items and headings run together. Any other answer is returned as it is, without
    the header rows of its markdown tables."""
    if not output.lstrip().startswith(("{", "[")):
        return _TABLE_HEAD.sub("", output)
    try:
        data = json.loads(output)
    except ValueError:
        return output
    lines: list[str] = []

    def walk(value: Any, key: str) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, str(k).replace("_", " "))
        elif isinstance(value, list):
            for v in value:
                walk(v, key)
        elif isinstance(value, str) and ("\n" in value or len(value.split()) >= _PROSE_WORDS):
            lines.append(value)
        else:
            lines.append(f"{key}: {'null' if value is None else value}".strip(": "))

    walk(data, "")
    return _TABLE_HEAD.sub("", "\n".join(lines)) if lines else output


_CALL_NAME = frozenset({"name", "function", "tool", "tool_name"})
_CALL_ARGS = frozenset({"parameters", "arguments", "args", "input"})


def written_call(output: str) -> bool:
    """The answer is a tool call written out as JSON text (``{"name": "update_reservation",
    "parameters": {…}}``), a call the model meant to make: no words to the user."""
    if not output.lstrip().startswith(("{", "[")):
        return False
    try:
        data = json.loads(output)
    except ValueError:
        return False
    calls = data if isinstance(data, list) else [data]
    return bool(calls) and all(isinstance(c, dict) and c.keys() & _CALL_NAME and c.keys() & _CALL_ARGS
                               and len(c) <= len(_CALL_NAME) for c in calls)


_COLUMNS = ("columns", "headers", "fields", "cols")
_ROWS = ("rows", "data", "values", "records")


def _row_records(value: dict[str, Any]) -> dict[str, Any]:
    """A query result given as column names and rows of values (``{"columns": ["region",
    "orders"], "rows": [["EMEA", 1204]]}``) as one record per row, each value under its
    column, as a table is read."""
    columns = next((value[k] for k in _COLUMNS if isinstance(value.get(k), list)), None)
    rows = next((k for k in _ROWS if isinstance(value.get(k), list)), None)
    if not columns or rows is None or not all(isinstance(c, str) for c in columns) or not all(
            isinstance(r, list) and len(r) == len(columns) for r in value[rows]):
        return value
    return {**{k: v for k, v in value.items() if k not in _COLUMNS},
            rows: [dict(zip(columns, r, strict=True)) for r in value[rows]]}


def _unnamed_rows(value: list[Any]) -> list[Any]:
    """Rows of values without column names (``{"rows": [["DAL-02", 1204], ["ATL-01",
    987]]}``) as one record per row, each value under its column's letter: a row's label
    and its value are one record's, and a column sums over the rows, not over every cell."""
    if not value or not all(isinstance(r, list) and len(r) == len(value[0]) > 1 and not any(
            isinstance(v, (dict, list)) for v in r) for r in value):
        return value
    return [{f"col {chr(ord('a') + i)}": v for i, v in enumerate(r)} for r in value]


_CURRENCY_KEY = re.compile(r"(?:^|_)currency$", re.IGNORECASE)
_CENTS_KEY = re.compile(r"^(?P<name>.*?)[_ ]?(?:cents|Cents)$")


def _in_units(key: str, value: Any, currency: str) -> tuple[str, Any]:
    """A key's value in the units an answer says it in: an amount in cents
    (``"fare_cents": 2340``) is the amount in its currency (``fare usd: 23.40``), the
    currency from its record or one around it (``"currency": "USD"``)."""
    m = _CENTS_KEY.match(key)
    if not m or isinstance(value, bool) or not isinstance(value, int):
        return key, value
    name = " ".join(w for w in (m.group("name"), currency.lower()) if w)
    return name or "amount", f"{value / 100:.2f}"


_TABLE_ROW = re.compile(r"^\s*\|(.*)\|\s*$")
_TABLE_RULE = re.compile(r"^\s*:?-{2,}:?\s*$")


def table_records(text: str) -> str:
    """A text with each markdown table written as one record per row, every cell under its
    header (``Product: Fix5; Rate: 4.49%; Arrangement fee: 0 GBP``), as a JSON record is
    flattened: the header row names the columns and states nothing itself."""
    lines = text.splitlines()
    out: list[str] = []
    header: list[str] = []
    for line in lines:
        row = _TABLE_ROW.match(line)
        if row is None:
            header = []
            out.append(line)
            continue
        cells = [c.strip() for c in row.group(1).split("|")]
        if all(_TABLE_RULE.match(c) for c in cells):
            continue
        if not header:
            header = cells
        elif len(cells) == len(header):
            out.append("; ".join(f"{h}: {c}" if h else c for h, c in zip(header, cells, strict=True) if c))
        else:
            out.append(line)
    return "\n".join(out)


_DELIMITERS = ("|", ";", "\t", ",")
_RULE_CELL = re.compile(r"^\s*:?-{2,}:?\s*$")
_RULE_LINE = re.compile(r"^[\s|+:=-]*-{2,}[\s|+:=-]*$")  # "------+------": a SQL client's rule
_ROW_COUNT = re.compile(r"^\s*\(\d+ rows?\)\s*$")
_CELL_AMOUNT = re.compile(r"[-\u2212]?\d[\d.,]*(?:\s?\S{1,4})?")
_HEADER_UNIT = re.compile(r"^(?P<name>.*?)\s*[(\[](?P<unit>[^()\[\]]+)[)\]]\s*$")


# A cell of one number grouped by spaces, the SI way ("281 344"): one number, not 281 and
# 344. Only a whole cell, where nothing else shares the space.
_SPACED_CELL = re.compile(r"[1-9]\d{0,2}(?: \d{3})+")


def _cells(line: str, sep: str) -> list[str]:
    """A row's cells, stripped; a quoted cell of a CSV keeps its separator ("Access blocked,
    parked car"). Outer pipes come in pairs: a row's pipe at its end alone closes an empty
    last cell ("R. Siregar | 8.500.000 | 1.200.000 |" under "Name | Base | OT | Gross")."""
    if sep == "|":
        line = line.strip()
        cells = line.strip("|").split(sep) if line.startswith("|") else line.split(sep)
    else:
        cells = next(csv.reader([line.strip()], delimiter=sep), [])
    cells = [c.strip() for c in cells]
    return [c.replace(" ", "") if _SPACED_CELL.fullmatch(c) else c for c in cells]


def delimited_records(text: str) -> str:
    """A tool's plain-text table as :func:`_delimited_table` reads it; a table with a line
    before or after it that is none of its rows (a title, "payment_methods=MPESA;CARD",
    "Generated 2026-03-01") is read in its block of rows, the other lines kept as they are."""
    read = _delimited_table(text)
    if read != text or text.lstrip().startswith(("{", "[")):
        return read
    lines = text.splitlines()
    for sep in _DELIMITERS:
        if sum(sep in ln for ln in lines) < _TABLE_LINES:
            continue
        widths = [len(_cells(ln, sep)) if ln.strip() else 0 for ln in lines]
        starts = [i for i, w in enumerate(widths) if w > 1 and (i == 0 or widths[i - 1] != w)]
        runs = [(start, end) for start in starts if (end := _run_end(widths, start)) - start >= _TABLE_LINES]
        for start, end in sorted(runs, key=lambda r: r[0] - r[1]):
            block = "\n".join(lines[start:end])
            table = _delimited_table(block)
            if table != block:
                return "\n".join([*lines[:start], table, *lines[end:]])
    return text


_TABLE_LINES = 3  # a header and two rows


def _run_end(widths: Sequence[int], start: int) -> int:
    """Where the run of lines as wide as the one at ``start`` ends."""
    end = start
    while end < len(widths) and widths[end] == widths[start]:
        end += 1
    return end


_FIELD_NAME = re.compile(r"[a-z_][a-z0-9_.]*")


def _delimited_table(text: str) -> str:
    """A tool's plain-text table (CSV, ``;``-separated, ``a | b`` without outer pipes) as one
    record per row, each cell under its header, a header's unit ("Fläche (ha)") on its
    numbers; and each all-number column's total, which an answer may state as a sum. A
    JSON output is flattened by :func:`tool_text` instead."""
    # A SQL client's footer ("(1 row)") counts the rows; it is none of them.
    lines = [ln for ln in _english_numbers(text).splitlines() if ln.strip() and not _ROW_COUNT.match(ln)]
    if len(lines) < 2 or text.lstrip().startswith(("{", "[")):
        return text
    for sep in _DELIMITERS:
        header, *rows = [_cells(ln, sep) for ln in lines]
        ruled = [r for r in rows if not all(_RULE_CELL.match(c) for c in r) and not _RULE_LINE.match(sep.join(r))]
        # One row is a table where a rule sets its header apart ("staff | er_ni", "---+---"),
        # or where a CSV's header is field names ("pair,rate,source").
        rows, least = ruled, 1 if len(ruled) < len(rows) or (
            sep == "," and all(map(_FIELD_NAME.fullmatch, header))) else 2
        if (len(header) < 2 or len(rows) < least or any(len(r) != len(header) for r in rows)
                or any(not c or ":" in c or quantities(c) for c in header)):
            continue
        units, keys = [], []
        for h in header:
            m = _HEADER_UNIT.match(h)
            unit = m.group("unit").strip() if m else ""
            units.append(unit if unit.lower() in _UNITS or unit.lower() in _CURRENCY else "")
            # A key as a JSON key is written: in lower case (a header names no thing), its
            # unit, when on its values, out of it.
            key = m.group("name") if m and units[-1] else re.sub(r"[()\[\]]", " ", h)
            keys.append(" ".join(key.lower().split()))
        rows = [[f"{c} {u}" if u and quantities(c) else c for c, u in zip(r, units, strict=True)]
                for r in rows]
        # A column of units ("Menge;Einheit": "4,8;t") gives the number column before it its unit.
        for i in range(1, len(keys)):
            if all(r[i].lower() in _UNITS and _CELL_AMOUNT.fullmatch(r[i - 1]) for r in rows):
                rows = [[f"{c} {r[i]}" if j == i - 1 else c for j, c in enumerate(r)] for r in rows]
        out = ["; ".join(f"{h}: {c}" for h, c in zip(keys, r, strict=True)) for r in rows]
        if len(rows) == 1:
            return "\n".join(out)
        # How many rows there are, as a JSON list's count. "the": a line of the whole table
        # reads as no record's, its first word no name.
        out.append(f"the {keys[0]} count: {len(rows)}")
        for i, h in enumerate(keys):
            column = [quantities(r[i]) for r in rows]
            # A column of amounts, not of ids, each cell one number and nothing else.
            if all(len(q) == 1 and _CELL_AMOUNT.fullmatch(_plain(r[i])) and not _ID_DIGITS.search(r[i])
                   for q, r in zip(column, rows, strict=True)) and len({q[0].unit for q in column}) == 1:
                # Grouped by commas (a large sum stays one number), with no trailing zeros.
                total = f"{sum(q[0].value for q in column):,.2f}".rstrip("0").rstrip(".")
                out.append(f"the {h} total: {total} {units[i]}".rstrip())
        return "\n".join(out)
    return text


# A printed table's columns: " | " in psql's, two spaces or a tab in a console's (pandas,
# kubectl); its rule line ("----+----") and a header cell's digits (``orders_q2``).
_ALIGNED_CELL = re.compile(r"\s*\|\s*|\t\s*|\s{2,}")
_ALIGNED_RULE = re.compile(r"^[\s+|=:-]*-[\s+|=:-]*$")
_HEADER_DIGIT = re.compile(r"(?<![A-Za-z_@])\d")
_HEADER_WORDS = 4
_NUMBER_CELL = 24  # a cell of one number is short
_STATISTIC = re.compile(r"^(\d{1,2})%$")  # describe()'s percentiles: "25%"


def _aligned_cells(line: str) -> list[str]:
    return [c for c in _ALIGNED_CELL.split(line.strip().strip("|")) if c]


def aligned_records(text: str) -> str:
    """A console's printed table (a query result in psql, a DataFrame, a Series, ``kubectl
    get``) as one record per row, each cell under its column's header, as a JSON row is
    flattened: which record and which column a number is said of is then read as for one.
    A DataFrame's index has no header (its name, when set, on a line of its own under the
    header); a Series' one header line names its index. Other lines are kept as they are."""
    lines = text.splitlines()
    split = [_aligned_cells(line) for line in lines]  # each line's cells, read once
    out: list[str] = []
    i = 0
    while i < len(lines):
        header = split[i]
        j = i + 1
        index = ""
        if j < len(lines) and len(split[j]) < 2 and _ALIGNED_RULE.match(lines[j]):
            j += 1
        if j < len(lines) and len(split[j]) == 1 and lines[i][:1].isspace() and j + 1 < len(lines):
            index, j = split[j][0], j + 1  # a DataFrame's index name
        rows: list[list[str]] = []
        while j + len(rows) < len(lines):
            cells = split[j + len(rows)]
            if len(cells) not in (len(header), len(header) + 1) or len(cells) < 2 or (
                    rows and len(cells) != len(rows[0])) or not any(
                    len(c) < _NUMBER_CELL and _CELL_AMOUNT.fullmatch(_plain(c)) for c in cells[1:]):
                break
            rows.append(cells)
        if (len(rows) < 2 or any(_HEADER_DIGIT.search(h) or len(h.split()) > _HEADER_WORDS for h in header)
                or (len(header) == 1 and (len(rows[0]) != 2 or lines[i][:1].isspace()))):
            out.append(lines[i])
            i += 1
            continue
        if len(rows[0]) == len(header):
            keys = header
        elif len(header) == 1:
            keys = [header[0], "value"]  # a Series: its index's name, then its values
        else:
            keys = [index or "name", *header]
        keys = [" ".join(k.lower().replace("_", " ").split()) for k in keys]
        stats = [_STATISTIC.sub(lambda m: "median" if m.group(1) == "50" else f"p{m.group(1)}", r[0]) for r in rows]
        if keys[0] == "name" and {"count", "mean"} <= set(stats):
            # describe()'s rows are statistics of each column: a record per column, as said
            # ("the median latency", "payload's mean"), its percentiles by their names.
            out.extend("; ".join([f"column: {k}", *(f"{st}: {r[c]}" for st, r in zip(stats, rows, strict=True))])
                       for c, k in enumerate(keys) if c)
        else:
            out.extend("; ".join(f"{k}: {c}" for k, c in zip(keys, r, strict=True)) for r in rows)
        i = j + len(rows)
    return "\n".join(out)


def head(text: str, words: int) -> str:
    """The first ``words`` words: what a sentence is about is said early, and the model's
    time grows with tokens."""
    parts = text.split()
    return text if len(parts) <= words else " ".join(parts[:words])


# --- claims -------------------------------------------------------------------------

# A sentence ends at . ! ? followed by space and a capital, digit, quote or bullet; a
# decimal point, "e.g." or "U.S." does not end one. Lines and list items are claims too.
# A title's full stop ("Dr. Haddad", "Mrs. Okafor") ends no sentence: the name follows.
_TITLES = ("Dr", "Mr", "Mrs", "Ms", "Prof")
_SENTENCE_END = re.compile(r"(?<=[.!?])(?<!\be\.g\.)(?<!\bi\.e\.)(?<!\b[A-Z]\.)"
                           + "".join(rf"(?<!\b{t}\.)" for t in _TITLES) + r"\s+(?=[\"'(A-Z0-9*•-])")
_TITLED = re.compile(rf"\b(?:{'|'.join(_TITLES)})\.\s+$")
_MARKUP = re.compile(r"\*\*|__|`|^#+\s*")  # markdown emphasis and headings
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)]|\(?[a-z]\))\s+")


_MARKS = ("So", "Sk", "Cf", "Mn")  # emoji, their modifiers and joiners


def split_claims(text: str) -> list[str]:
    """The answer's sentences and list items, in order, without bullets."""
    out: list[str] = []
    for line in _plain(text).splitlines():
        line = _BULLET.sub("", line).strip()
        if not line:
            continue
        for part in _SENTENCE_END.split(line):
            # "…act on them: 1) The bike arrived damaged. 2) Request …": a list in a line;
            # "✅ Change cabin class", "📞 Call the clinic": a symbol that marks a line.
            part = _BULLET.sub("", _MARKUP.sub("", part)).strip()
            part = part.lstrip("".join(c for c in part[:4] if unicodedata.category(c) in _MARKS)).strip()
            if len(part) > 1:
                out.append(part)
    return out


_CLAUSE = re.compile(r",?\s+(?:but|whereas|while|although|though|however|except)\s+|;\s+|\s+[\u2014\u2013]\s+",
                     re.IGNORECASE)


def clauses(text: str) -> list[str]:
    """A claim's clauses: "X is covered, but Y is not" is two statements of opposite sign."""
    return [c for c in _CLAUSE.split(text) if c.strip()]


# --- words ---------------------------------------------------------------------------

_WORD = re.compile(r"[a-z0-9]+(?:['.-][a-z0-9]+)*")
_FUNCTION = frozenset(
    """a an the is are was were be been being am i me my we our us you your it its this that
    these those of in on at to for from by with about into over under again once more most and
    or but so if then than as do does did doing done have has had having will would shall
    should can could may might must let i'm i'll i've i'd we'll we're we've it's that's there
    here now just also still very too some any all each every which what who whom whose when
    where why how up down out off before after above below while because until through during
    one ok okay yes please thanks thank hi hello dear sure well get got make made know need
    want like also per via there's they they're them their he she his her him hers s t you're
    you've you'll you'd we'd it'll yes absolutely""".split()  # noqa: SIM905
)


# Plurals no suffix rule reaches, so that "children" meets "child" ("child_eur").
_IRREGULAR_PLURALS = {"children": "child", "people": "person", "men": "man", "women": "woman",
                      "feet": "foot", "teeth": "tooth", "mice": "mouse", "geese": "goose"}


def _spells(acronym: str, words: Sequence[str]) -> bool:
    """Whether the acronym is each of the words' first letters or more, in order, every
    word used: "okc" spells ["oklahoma", "city"]."""
    if not words:
        return not acronym
    first = words[0]
    return any(acronym[:n] == first[:n] and _spells(acronym[n:], words[1:])
               for n in range(1, min(len(first), len(acronym)) + 1))


_GLUE = frozenset({"of", "and", "for", "the", "on", "to", "in", "a", "an"})


def spelt_out(acronym: str, text: str) -> bool:
    """Whether the letters of ``acronym`` are the initials of words the text writes in a
    row, small words between them taken or skipped (HELOC: home equity line of credit)."""
    words = re.findall(r"[a-z]+(?:'[a-z]+)?", text.lower())
    spelled = ("".join(w[0] for w in words), "".join(w[0] for w in words if w not in _GLUE))
    return acronym.lower() not in words and any(acronym.lower() in initials for initials in spelled)


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A crude English stem: enough that "refunds", "refunded", "refunding" and "notice",
    "notices" meet."""
    w = word.lower().strip("'")
    w = _IRREGULAR_PLURALS.get(w, w)
    if w.endswith("ss") and not w.endswith("ness"):
        return w[:7]  # "mass", "address": no plural's "s" to drop ("masses" is "mass" + es)
    for suffix in ("ational", "ations", "ation", "ings", "ing", "edly", "ness", "ments", "ment",
                   "ies", "ied", "es", "ed", "ly", "s"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            if suffix == "es" and not w.endswith(("ses", "xes", "zes", "ches", "shes")):
                continue  # "notices" is "notice" + s
            w = w[: -len(suffix)] + ("y" if suffix in ("ies", "ied") else "")
            break
    if len(w) > 3 and w.endswith("e"):
        w = w[:-1]  # "notice" and "notic(es)", "use" and "us(ed)"
    return w[:7]


@lru_cache(maxsize=16384)
def _words(text: str) -> tuple[str, ...]:
    return tuple(_WORD.findall(_plain(text).lower()))


@lru_cache(maxsize=16384)
def word_stems(text: str) -> frozenset[str]:
    """Stems of the text's content words (function words dropped)."""
    return frozenset(
        stem(w.replace("-", "")) for w in _words(text)
        if w not in _FUNCTION and w not in _NOT and w not in _NO and len(w) > 1
    )


_ACRONYM = re.compile(r"\b[A-Z][A-Z0-9&]{1,7}s?\b(?!,\d{3}(?!\d))")  # not "R38" of "R38,640" (see _CODE)
_CAPITAL = re.compile(r"\b[A-Z][a-z][\w'-]*\b")
# An id mixes digits with capitals (AP-22918, HO-3); "35-minute" and "31st" are not ids.
# Latin letters and digits only: "GN-01은" is the code GN-01 and a Korean particle. A group
# of thousands after it makes it an amount, its currency's letter glued on ("R38,640.00").
_CODE = re.compile(r"(?<![\w-])(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Z])[A-Za-z0-9_-]{3,}(?![A-Za-z0-9_-]|,\d{3}(?!\d))")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+|\n\s*|[\"'(]\s*)$")
_SPACES = re.compile(r"\s*")
# An initial's full stop ends no sentence: "G. Bianchi", "A. Greco" are names.
_INITIAL = re.compile(r"(?<![\w.])[A-Z]\.\s+$")
# A spaced dash opens a clause ("Patient ID — If you're able…", "Cancel it - Since it's
# pending…"): a function word capitalised after one opens it, no name.
_DASHED = re.compile(r"\s[-\u2013\u2014]\s+\Z")
_SUBORDINATORS = frozenset("since although though unless whereas otherwise".split())  # noqa: SIM905
_WINDOW = 64


def _ends_with(pattern: re.Pattern[str], text: str, end: int, run: re.Pattern[str]) -> bool:
    """Whether ``pattern`` (anchored by ``$``, no lookbehind) is found in ``text[:end]``,
    for a pattern whose match is one character then characters ``run`` (``[...]*``)
    matches: searched in a window at the end, the whole prefix only when the window is all
    such characters. A long tool output is then not rescanned before each of its words or
    numbers."""
    start = max(0, end - _WINDOW)
    if pattern.search(text, start, end):
        return True
    return start > 0 and bool(run.fullmatch(text, start, end)) and bool(pattern.search(text, 0, end))
_COMMON_CAPITALS = frozenset(
    """i i'm i'll i've i'd ok okay yes no hi hello dear thanks please monday tuesday wednesday
    thursday friday saturday sunday january february march april may june july august september
    october november december jan feb mar apr jun jul aug sep sept oct nov dec mon tue wed
    thu fri sat sun am pm utc gmt id true false none null""".split()  # noqa: SIM905
)


@lru_cache(maxsize=8192)
def key_terms(text: str) -> frozenset[str]:
    """The names in a text: acronyms, capitalised words not at a sentence start, codes with
    digits. Lowercased; a plural acronym ("HSAs") is its singular."""
    text = _plain(text)
    found: set[str] = set()
    for m in _ACRONYM.finditer(text):
        tok = m.group(0)
        if tok.endswith("s") and tok[:-1].isupper():
            tok = tok[:-1]
        found.add(tok.lower())
    for m in _CAPITAL.finditer(text):
        word = m.group(0).lower()
        if (not _ends_with(_SENTENCE_START, text, m.start(), _SPACES)
                or _TITLED.search(text, max(0, m.start() - _WINDOW), m.start())
                or _INITIAL.search(text, max(0, m.start() - _WINDOW), m.start())) and not (
                (word in _FUNCTION or word in _SUBORDINATORS) and _DASHED.search(text, 0, m.start())):
            found.add(word)
    for m in _CODE.finditer(text):
        found.add(m.group(0).lower())
    return frozenset(t for t in found if t not in _COMMON_CAPITALS and not t.isdigit()) - _calendar_names(text)


# A month or weekday in the user's language ("1 Mac 2025", "2-da Juun", "(Sabtu)") is read by
# the date checks, no name; so is an English weekday's plural ("Tuesdays and Thursdays").
# Another language's month counts so only inside a date the text gives, its weekday only
# right beside a number or listed with another weekday: "3 June from Marta", "Domingo
# Pérez", "the Mayo desk" stay names.
_BESIDE = 4  # characters either side of a weekday: "martes 3", "2025 (Sabtu)"
_LISTED_GAP = 6  # "Lunes y Martes", "Isnin, Rabu": two weekdays listed


def _calendar_names(text: str) -> frozenset[str]:
    if not _CAPITAL.search(text):
        return frozenset()
    out: set[str] = set()
    in_dates = _date_spans(text)
    for m in MONTH_WORD.finditer(text):
        if any(a <= m.start() and m.end() <= b for a, b in in_dates):
            out.update(w.lower() for w in m.group(0).split())
    spans = [m.span() for m in WEEKDAY_WORD.finditer(text)]
    for a, b in spans:
        word = text[a:b]
        beside = text[max(0, a - _BESIDE):a] + " " + text[b:b + _BESIDE]
        if word.lower().endswith("days") or re.search(r"\d", beside) or any(
                c != a and (0 <= c - b <= _LISTED_GAP or 0 <= a - d <= _LISTED_GAP) for c, d in spans):
            out.update(w.lower() for w in word.split())
    return frozenset(out)


# --- quantities ----------------------------------------------------------------------

@dataclass(frozen=True)
class Quantity:
    """A number the text states: its value, its unit (``%``, ``$``, ``km`` …, or ``""``),
    its precision (the place of its last significant digit) and whether it was hedged
    ("about", "over", "~")."""

    text: str
    value: float
    unit: str
    place: float
    approx: bool


# "m" and "b" alone are metres and bytes unless money comes with them ($5m), see below.
_SCALE = {"k": 1e3, "thousand": 1e3, "mm": 1e6, "million": 1e6, "mn": 1e6, "bn": 1e9, "billion": 1e9, "trillion": 1e12, "lakh": 1e5, "crore": 1e7,
          # An analyst's answer in another language scales its amounts in its words: "₺2,87
          # milyon", "€1,4 miljoen", "12,5 millió Ft", "R$ 3 milhões".
          "milyon": 1e6, "milyar": 1e9, "miljoen": 1e6, "miljard": 1e9, "millió": 1e6, "milliárd": 1e9,
          "millionen": 1e6, "millones": 1e6, "millón": 1e6, "milhões": 1e6,
          "milhão": 1e6, "milioni": 1e6, "miljoner": 1e6, "miljon": 1e6,
          # Slavic and Romanian: "17,23 miliona dinara", "2 milijuna kuna", "3 miliony zł".
          "milion": 1e6, "miliona": 1e6, "milijun": 1e6, "milijuna": 1e6, "milijona": 1e6,
          "miliony": 1e6, "milionów": 1e6, "milioane": 1e6,
          "millioner": 1e6, "milliarder": 1e9, "milliarden": 1e9, "milliard": 1e9, "milliards": 1e9,
          "miljoonaa": 1e6, "miljardia": 1e9,
          "dozen": 12, "hundred": 100}
# Scales abbreviated, as Nordic, German, Dutch, Polish and Russian papers write them ("1,2
# mio.", "3 mia.", "2,5 mln", "4 mld", "1,3 млн", "12 tys."): read only after a number, since
# alone they are names or words ("Mia").
_SCALE_ABBREVIATED = {"mio": 1e6, "mia": 1e9, "mrd": 1e9, "mln": 1e6, "mld": 1e9, "млн": 1e6, "млрд": 1e9,
                      "тыс": 1e3, "tys": 1e3}
_SCALE.update(_SCALE_ABBREVIATED)
# Which signs, codes and words name which currency, one row a currency; every currency table
# below is read from it, so a new currency is one row. Its columns: the ISO 4217 code; the
# signs it is written with, the first the unit all its amounts are read in ("₱182,000" and
# "PHP 182,000" are one amount; a currency with no sign of its own is read in its code);
# signs it shares as one more reading ("$" may be any dollar's or peso's, "¥" the yuan's);
# the words read as an amount's currency ("450 NIS", "182,000 dollars"; a code in lower case
# only where listed: "try 3" and "all 5" are no money); the other words of its name ("Swiss
# francs" is no name the code CHF abbreviates). A sign or a word several rows list reads as
# the unit they share ("$" and "dollars" of USD, CAD and AUD), else as none.
_Currency = tuple[str, str, str, str, str]
_CURRENCIES: tuple[_Currency, ...] = (
    ("USD", "$ US$", "", "usd dollar dollars", "us american"),
    ("CAD", "$", "", "cad dollar dollars", "canadian"),
    ("AUD", "$", "", "aud dollar dollars", "australian"),
    ("EUR", "€", "", "eur euro euros", ""),
    ("GBP", "£", "", "gbp pound pounds", "british sterling"),
    ("JPY", "¥", "", "jpy yen", "japanese"),
    ("CNY", "", "¥", "", "chinese yuan renminbi"),
    ("INR", "₹", "", "inr rupees", "indian rupee"),
    ("CHF", "", "", "chf", "swiss franc francs"),
    ("ILS", "₪", "", "ils nis", ""),
    ("KRW", "₩", "", "krw", "korean won"),
    ("VND", "₫", "", "vnd", "vietnamese dong"),
    ("NGN", "₦", "", "ngn", "nigerian naira"),
    ("UAH", "₴", "", "uah", ""),
    ("THB", "฿", "", "thb", "thai baht"),
    ("PHP", "₱", "", "", "philippine peso pesos"),
    ("RUB", "₽", "", "", ""),
    ("TRY", "₺", "", "", "turkish lira"),
    ("CRC", "₡", "", "", ""),
    ("PYG", "₲", "", "", ""),
    ("GHS", "₵", "", "", ""),
    ("KZT", "₸", "", "", ""),
    ("AZN", "₼", "", "", ""),
    ("GEL", "₾", "", "", ""),
    ("LAK", "₭", "", "", ""),
    ("MNT", "₮", "", "", ""),
    ("KHR", "៛", "", "", ""),
    ("AMD", "֏", "", "", ""),
    ("BDT", "৳", "", "", ""),
    ("AFN", "؋", "", "", ""),
    ("KGS", "\u20c0", "", "", ""),
    ("NZD", "", "$", "", "new zealand dollar dollars"),
    ("HKD", "", "$", "", "hong kong dollar dollars"),
    ("SGD", "", "$", "", "singapore dollar dollars"),
    ("MXN", "", "$", "", "mexican peso pesos"),
    *((code, "", "$", "", "") for code in ("BBD", "BMD", "BND", "BSD", "BZD", "FJD", "GYD", "JMD",
                                            "KYD", "LRD", "NAD", "SBD", "SRD", "TTD", "TWD", "XCD",
                                            "ARS", "CLP", "COP", "UYU", "CUP", "DOP")),
    ("SEK", "", "", "", "swedish krona kronor"),
    ("NOK", "", "", "", "norwegian krone kroner"),
    ("DKK", "", "", "", "danish krone kroner"),
    ("ISK", "", "", "", "icelandic krona kronur"),
    ("ZAR", "", "", "", "south african rand"),
    ("PLN", "", "", "", "polish zloty"),
    ("CZK", "", "", "", "czech koruna"),
    ("HUF", "", "", "", "hungarian forint"),
    ("BRL", "", "", "", "brazilian real reais"),
    ("IDR", "", "", "", "indonesian rupiah rp"),
    ("MYR", "", "", "", "malaysian ringgit rm"),
    ("KES", "", "", "", "kenyan shilling shillings ksh"),
)


def _currency_unit(code: str, signs: str) -> str:
    """The unit a currency's amounts are read in: its first sign, else its code."""
    return signs.split()[0] if signs else code.lower()


def _code_units(rows: Iterable[_Currency]) -> dict[str, str]:
    """Each code, in lower case, to its currency's unit ("php" is "₱")."""
    return {code.lower(): _currency_unit(code, signs) for code, signs, *_ in rows}


# A sign's full-width and small forms ("＄", "﹩", "￡") are the sign.
_SIGN_FORMS = "﹩＄￠￡￥￦"


def _forms(signs: str) -> list[str]:
    """The signs, each with its full-width and small forms."""
    return [f for sign in signs.split() for f in (sign, *(c for c in _SIGN_FORMS
                                                          if unicodedata.normalize("NFKC", c) == sign))]


def _mark_units(rows: Iterable[_Currency]) -> dict[str, str]:
    """The signs and words read as an amount's currency, in lower case, each to the unit of
    the currencies that list it where they have one ("dollars" is "$")."""
    units: dict[str, set[str]] = {}
    for code, signs, _, words, _ in rows:
        for mark in (*_forms(signs), *words.split()):
            units.setdefault(mark.lower(), set()).add(_currency_unit(code, signs))
    return {mark: next(iter(u)) for mark, u in units.items() if len(u) == 1}


def _mark_codes(rows: Iterable[_Currency]) -> dict[str, frozenset[str]]:
    """Each sign to the codes it may stand for: its own currencies' and those it is a further
    sign of ("$" is any dollar's or peso's)."""
    codes: dict[str, set[str]] = {}
    for code, signs, shared, _, _ in rows:
        for mark in _forms(f"{signs} {shared}"):
            codes.setdefault(mark, set()).add(code)
    return {mark: frozenset(c) for mark, c in codes.items()}


def _currency_names(rows: Iterable[_Currency]) -> dict[str, frozenset[str]]:
    """Each code to the words of its currency's name, the code itself left out."""
    return {code: frozenset((*words.split(), *name.split())) - {code.lower()}
            for code, _, _, words, name in rows if words or name}


_CODE_UNITS = _code_units(_CURRENCIES)
_CURRENCY = _mark_units(_CURRENCIES)
_MARK_CODES = _mark_codes(_CURRENCIES)
# A currency's code does not abbreviate its name ("CHF" for Swiss francs, "JPY" for yen).
_CURRENCY_NAMES = _currency_names(_CURRENCIES)


def _money_unit(mark: str) -> str:
    """The unit of an amount under a currency's sign, word or code (lower case); an unlisted
    sign or code is its own."""
    return _CURRENCY.get(mark) or _CODE_UNITS.get(mark, mark)


# Every currency sign (Unicode category Sc) and every ISO 4217 code, in capitals, marks an
# amount: "NOK 450", "1,890 CHF", "₦68,500". Unlisted, a code read as a label word and tied
# every amount in that currency together.
_CURRENCY_SIGNS = "$¢£¤¥֏؋৲৳৻૱௹฿៛\u20a0-\u20c0꠸﷼﹩＄￠￡￥￦"
_ISO_CURRENCIES = frozenset("""AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD
    BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP
    ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK
    JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK
    MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG
    QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SYP SZL THB TJS TMT TND
    TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST XAF XCD XOF XPF YER ZAR ZMW ZWL""".split())  # noqa: SIM905
# An amount grouped by spaces, the Nordic, Slavic or French way ("4 600 kr", "≈351 680 ₽",
# "2 000 元", "EUR 12 500"): one number where money marks it, before or after; elsewhere
# a space parts two numbers as often as it groups one.
_SPACED = r"(?<![\w.,])[1-9]\d{0,2}(?: \d{3})+(?![\d.,]*\d)"
_MONEY_WORDS = r"kr\b|元|руб|zł|kč\b"
_MONEY_MARK = rf"[{_CURRENCY_SIGNS}]|(?-i:\b(?:{'|'.join(sorted(_ISO_CURRENCIES))})\b)"
_SPACED_AMOUNTS = (re.compile(rf"{_SPACED}(?=\s?(?:{_MONEY_MARK}|{_MONEY_WORDS}))", re.IGNORECASE),
                   re.compile(rf"(?<=[{_CURRENCY_SIGNS}])\s?{_SPACED}|(?<=\b[A-Z]{{3}} ){_SPACED}"))
_UNITS = {
    "%": "%", "percent": "%", "per cent": "%", "pct": "%", "percentage points": "%",
    "km": "km", "kilometres": "km", "kilometers": "km", "kilometre": "km", "kilometer": "km",
    "mi": "mi", "miles": "mi", "mile": "mi", "m": "m", "metres": "m", "meters": "m",
    "ft": "ft", "feet": "ft", "foot": "ft", "cm": "cm", "mm": "mm", "inches": "in",
    "kg": "kg", "kilograms": "kg", "kilos": "kg", "g": "g", "grams": "g", "lb": "lb",
    "lbs": "lb", "pounds-weight": "lb", "oz": "oz", "ounces": "oz", "l": "l", "litres": "l",
    "liters": "l", "ml": "ml", "gal": "gal", "gallons": "gal",
    "°c": "c", "c": "c", "celsius": "c", "°f": "f", "f": "f", "fahrenheit": "f",
    "ms": "ms", "s": "s", "sec": "s", "secs": "s", "seconds": "s", "second": "s",
    "min": "min", "mins": "min", "minutes": "min", "minute": "min", "h": "h", "hr": "h",
    "hrs": "h", "hours": "h", "hour": "h", "days": "day", "day": "day", "weeks": "week",
    "week": "week", "months": "month", "month": "month", "years": "year", "year": "year",
    "gb": "gb", "mb": "mb", "tb": "tb", "kb": "kb",
    # Binary sizes, as a disk or a database counts them: 15 MiB of 15,728,640 bytes.
    "bytes": "byte", "byte": "byte", "kib": "kib", "mib": "mib", "gib": "gib", "tib": "tib",
    "t": "t", "tonnes": "t", "tonne": "t",
    "tons": "t", "ton": "t", "m2": "m2", "m²": "m2", "sq m": "m2", "sqm": "m2",
    "square metres": "m2", "square meters": "m2", "ft2": "ft2", "ft²": "ft2", "sq ft": "ft2",
    "sqft": "ft2", "square feet": "ft2", "square foot": "ft2",
    "m3": "m3", "m³": "m3", "cbm": "m3", "cubic metres": "m3", "cubic meters": "m3",
    "ft3": "ft3", "ft³": "ft3", "cu ft": "ft3", "cuft": "ft3", "cubic feet": "ft3", "cubic foot": "ft3",
    # A wind's or a current's speed as a forecast model gives it ("12.0 m/s", ~43 km/h).
    "m/s": "mps", "mps": "mps",
    "inch": "in", "km/h": "kmh", "kph": "kmh", "mph": "mph", "knots": "kn", "knot": "kn",
    "kn": "kn", "kts": "kn", "bar": "bar", "psi": "psi", "kpa": "kpa", "kcal": "kcal", "kj": "kj",
    "kw": "kw", "w": "w", "watts": "w", "watt": "w", "hp": "hp", "bhp": "hp", "kwh": "kwh", "mwh": "mwh",
    # Power and energy at every scale a plant or grid reports them ("2.41 MW" of 2412 kW).
    "kilowatts": "kw", "kilowatt": "kw", "mw": "mw", "megawatts": "mw", "megawatt": "mw",
    "gw": "gw", "gigawatts": "gw", "gigawatt": "gw", "gwh": "gwh",
    # Heat as a district-heating or gas bill gives it ("4.6 GJ", "120 therms").
    "gj": "gj", "mj": "mj", "therms": "therm", "therm": "therm", "wh": "wh",
    # A grain market's weight: a quintal is 100 kg ("₹2,275 per quintal", "qtl").
    "quintals": "quintal", "quintal": "quintal", "qtl": "quintal",
    # An assay's or a water test's mass fraction: 1 g/t is 1 ppm, 1,000 ppb.
    "ppm": "ppm", "ppb": "ppb", "g/t": "gpt", "gpt": "gpt", "mg/kg": "ppm",
    "horsepower": "hp", "ha": "ha", "hectares": "ha", "hectare": "ha", "acres": "acre",
    "acre": "acre", "kwp": "kw", "business days": "workday", "business day": "workday",
    "working days": "workday", "working day": "workday", "workdays": "workday",
    "workday": "workday", "calendar days": "day", "calendar day": "day",
}
# Factors between units of one dimension (value in `a` times factor = value in `b`).
_CONVERSIONS: dict[tuple[str, str], float] = {
    ("km", "mi"): 0.621371, ("m", "ft"): 3.28084, ("cm", "in"): 0.393701, ("kg", "lb"): 2.20462,
    ("g", "oz"): 0.035274, ("l", "gal"): 0.264172, ("km", "m"): 1000.0, ("m", "cm"): 100.0,
    ("cm", "mm"): 10.0, ("kg", "g"): 1000.0, ("l", "ml"): 1000.0, ("h", "min"): 60.0,
    ("min", "s"): 60.0, ("s", "ms"): 1000.0, ("day", "h"): 24.0, ("week", "day"): 7.0,
    ("year", "month"): 12.0, ("t", "kg"): 1000.0, ("year", "day"): 365.0, ("month", "day"): 30.0,
    ("tb", "gb"): 1000.0, ("gb", "mb"): 1000.0, ("mb", "kb"): 1000.0, ("m2", "ft2"): 10.7639,
    ("m3", "l"): 1000.0, ("kn", "kmh"): 1.852, ("mph", "kmh"): 1.609344, ("kn", "mph"): 1.150779,
    ("bar", "psi"): 14.5038, ("bar", "kpa"): 100.0, ("kpa", "psi"): 0.145038, ("kcal", "kj"): 4.184,
    ("kw", "hp"): 1.34102, ("kw", "w"): 1000.0, ("ha", "m2"): 10000.0, ("mwh", "kwh"): 1000.0,
    ("mw", "kw"): 1000.0, ("gw", "mw"): 1000.0, ("gwh", "mwh"): 1000.0,
    ("ha", "acre"): 2.47105, ("week", "workday"): 5.0,
    ("kb", "byte"): 1000.0, ("kib", "byte"): 1024.0, ("mib", "kib"): 1024.0, ("gib", "mib"): 1024.0,
    ("tib", "gib"): 1024.0, ("gj", "mj"): 1000.0, ("mj", "kwh"): 1 / 3.6, ("gj", "kwh"): 1000 / 3.6,
    ("therm", "kwh"): 29.3071, ("kwh", "wh"): 1000.0, ("quintal", "kg"): 100.0, ("t", "quintal"): 10.0,
    ("ppm", "ppb"): 1000.0, ("gpt", "ppb"): 1000.0, ("gpt", "ppm"): 1.0,
    ("m3", "ft3"): 35.3147, ("mps", "kmh"): 3.6,
}
_WORD_NUMBERS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90, "half": 0.5, "a": 1, "an": 1,
    "single": 1, "double": 2, "twice": 2, "triple": 3, "once": 1,
}
# "up to 10", "at least 5" state a limit, which the context states as it is: no hedge.
_APPROX = re.compile(
    r"(?:about|around|roughly|approximately|approx\.?|nearly|almost|close to|just over|"
    r"just under|over|under|more than|less than|some|~|≈|circa|ca\.)"
    r"\s*(?:a|an)?\s*$",
    re.IGNORECASE,
)
_UNIT_ALT = "|".join(sorted((re.escape(u) for u in _UNITS), key=len, reverse=True))
_CUR_ALT = "|".join([*sorted((re.escape(c) for c in _CURRENCY), key=len, reverse=True),
                     "(?-i:" + "|".join(sorted(_ISO_CURRENCIES)) + ")", f"[{_CURRENCY_SIGNS}]"])
_SCALE_ALT = "|".join(sorted(_SCALE, key=len, reverse=True))
_NUMERIC = re.compile(
    rf"(?P<cur>{_CUR_ALT})?\s?"
    # A number glued to capitals by a hyphen (W-2, HO-3) is part of a name, not a quantity;
    # to a word ("under-6", "over-65s") it is one.
    # Indian grouping ("₹1,85,000", "12,50,000") puts commas every two digits before the
    # last three; read whole, else only its first group ("1") is taken for the amount.
    r"(?P<num>(?<![\w.,])(?-i:(?<![A-Z]-))[-−]?\d{1,2}(?:,\d{2})+,\d{3}(?!\d|,\d)(?:\.\d+)?"
    r"|(?<![\w.,])(?-i:(?<![A-Z]-))[-−]?\d{1,3}(?:,\d{3})+(?:\.\d+)?"
    r"|(?<![\w.,])(?-i:(?<![A-Z]-))[-−]?\d+(?:\.\d+)?|(?<![\w\d])\.\d+)"
    rf"(?:\s?(?P<scale>{_SCALE_ALT})\b)?"
    rf"(?:\s?(?P<cur2>{_CUR_ALT})\b)?"
    rf"(?:[\s-]?(?P<unit>{_UNIT_ALT})(?![a-z\d]))?",  # "5c2a" is an id, not 5 °C
    re.IGNORECASE,
)
_NUMBER_WORD_ALT = "|".join(
    sorted([w for w in _WORD_NUMBERS if w not in ("a", "an", "once")]
           + [w for w in _SCALE if len(w) > 2 and w not in _SCALE_ABBREVIATED], key=len, reverse=True)
)
# "double-check", "single-handed": words made with a multiple, no count.
_MULTIPLE_GLUED = re.compile(r"(?:an?\s+)?(?:single|double|triple)-[a-z]", re.IGNORECASE)
# "four and a half minutes", "two and a half hours": one number, 4.5 and 2.5.
_WORDED = re.compile(
    rf"\b(?:(?:a|an|{_NUMBER_WORD_ALT})[\s-]+)*(?:{_NUMBER_WORD_ALT})(?:\s+and\s+a\s+half)?\b"
    rf"(?:\s?(?P<unit>{_UNIT_ALT})(?![a-z]))?",
    re.IGNORECASE,
)


# A number after a hyphen ends an id when the word before it joins a chain or has digits.
_HYPHEN_ID = re.compile(r"(?:[\w]*-|[A-Za-z]*\d\w*)-$")
_ID_CHARS = re.compile(r"[\w-]*")
_LETTER_AFTER = re.compile(r"-?[A-Za-z]")
_SLASH_DIGIT = re.compile(r"/\d")
# "(mean coverage 22x, ...)": a multiple that closes its phrase is a value; before a word
# ("2x faster") it is a manner of speaking, no figure to check.
_TIMES_AFTER = re.compile(r"[x\u00d7](?=[,;)]|\s*$)")


_BY = re.compile(r"\s?[x×]\s?")
_MAX_COUNT = 12


_YEAR = re.compile(r"1\d{3}|20\d{2}")
# "(1872-1881)": two years, a span, not an id's parts ("2024-1234").
_YEARS = re.compile(r"(?<![\w-])(1\d{3}|20\d{2})-(1\d{3}|20\d{2})$")


def _year_span(text: str, end: int) -> bool:
    m = _YEARS.search(text, 0, end)
    return m is not None and int(m.group(1)) < int(m.group(2))
_NAME_AFTER = re.compile(r"\s+[A-Z][a-z]")  # "the 1900 World's Fair", "1900 Summer Olympics"
_YEAR_BEFORE = re.compile(r"\b(?:in|since|from|until|till|by|year|circa|after|before)\s+$",
                          re.IGNORECASE)


def _place(num: str) -> float:
    digits = num.replace(",", "").lstrip("-−")
    if "." in digits:
        return 10.0 ** -len(digits.split(".")[1])
    stripped = digits.rstrip("0")
    return 10.0 ** (len(digits) - len(stripped)) if stripped else 1.0


def _worded_value(text: str) -> float | None:
    total, current, seen, article = 0.0, 0.0, False, False
    for word in re.split(r"[\s-]+", text.lower()):
        if word in ("a", "an"):
            article = not current
            current = current or 1.0
            continue
        if word == "half" and article:  # "a half" is a half, not one and a half
            current, seen, article = 0.5, True, False
            continue
        if word in _WORD_NUMBERS and article and current == 1.0:  # "a three-day pass", "a single fee"
            current, seen, article = float(_WORD_NUMBERS[word]), True, False
            continue
        article = False
        if word in _WORD_NUMBERS:
            current += _WORD_NUMBERS[word]
            seen = True
        elif word == "hundred":
            current = (current or 1.0) * 100
            seen = True
        elif word == "dozen":
            current = (current or 1.0) * 12
            seen = True
        elif word in _SCALE:
            total += (current or 1.0) * _SCALE[word]
            current, seen = 0.0, True
    return total + current if seen else None


# --- numbers said aloud ----------------------------------------------------------------
# A voice agent's answer is read out, so it says its figures in words: "one point two million
# đồng", "four hundred and twelve euros fifty", "at eight-forty", "A3 six-oh-one". Written in
# digits they are checked as any other figure; left in words, each word reads as a number of
# its own (two million, twelve, fifty) that no record holds.
_SPOKEN_WORD = rf"(?:{_NUMBER_WORD_ALT})"
_SPOKEN_RUN = (rf"{_SPOKEN_WORD}(?:(?:[\s-]+|(?:(?<=hundred)|(?<=thousand)|(?<=million)|(?<=billion))\s+and\s+)"
               rf"(?:{_SPOKEN_WORD}))*")
_SPOKEN_ANY = re.compile(rf"\b{_SPOKEN_WORD}\b", re.IGNORECASE)
_DIGIT_WORDS = {w: str(v) for w, v in _WORD_NUMBERS.items() if isinstance(v, int) and 0 <= v <= 9
                and w not in ("a", "an", "single", "once", "double", "twice", "triple")} | {"oh": "0"}
_DIGIT_ALT = "|".join(_DIGIT_WORDS)
_SPOKEN_POINT = re.compile(rf"\b({_SPOKEN_RUN})\s+point\s+((?:{_DIGIT_ALT})(?:[\s-]+(?:{_DIGIT_ALT}))*)\b",
                           re.IGNORECASE)
# "four hundred and twelve": the "and" joins one number after its hundreds or thousands.
_SPOKEN_AND = re.compile(rf"\b(?:a\s+)?{_SPOKEN_RUN}\b", re.IGNORECASE)
_MONEY_WORD = "|".join(sorted({w for ws in _CURRENCY_NAMES.values() for w in ws if w in _CURRENCY
                               or w.endswith("s")} | {"reais", "real"}, key=len, reverse=True))
_AMOUNT = rf"(?:\d[\d,]*|{_SPOKEN_RUN})"
# "four hundred and twelve euros fifty", "20 dollars and five cents": the cents said after
# the currency.
_SPOKEN_CENTS = re.compile(rf"(?<![\w.,])({_AMOUNT})\s+({_MONEY_WORD})\s+(?:(?:and\s+)?({_AMOUNT})\s+"
                           rf"(?:cents?|pence|centavos?|centimes?)\b|({_AMOUNT})(?=\s*(?:[.,;:!?)]|$)|"
                           r"\s+(?:a|per|each|for|in total)\b))", re.IGNORECASE)
# "a"/"an" are no hour: "at a twenty-minute walk" is no 1:20.
_HOUR_ALT = "|".join(sorted((w for w, v in _WORD_NUMBERS.items() if isinstance(v, int) and 1 <= v <= 20
                             and w not in ("a", "an", "single", "double", "triple", "once", "twice")),
                            key=len, reverse=True))
_TENS_ALT = "twenty|thirty|forty|fifty"
_MINUTE = (rf"(?:oh[\s-](?:{_DIGIT_ALT})|(?:{_TENS_ALT})(?:[\s-](?:{_DIGIT_ALT}))?|ten|eleven|twelve|thirteen|"
           r"fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)")
# "at eight-forty", "leaving at seven-forty", "thirteen-fifty local time": an hour and its
# minutes; without a clock's word before or after them they may be a price or a number.
_SPOKEN_CLOCK = re.compile(
    r"\b(?P<pre>(?:at|by|from|until|till|before|after|around|about|between)\s+(?:about\s+|around\s+)?)"
    rf"(?P<h>{_HOUR_ALT})[\s-](?P<mi>{_MINUTE})\b|\b(?P<h2>{_HOUR_ALT})[\s-](?P<mi2>{_MINUTE})"
    r"(?=\s+(?:a\.?m\.?|p\.?m\.?|in the (?:morning|afternoon|evening)|tonight|local time|o'?clock)\b)",
    re.IGNORECASE)
# "six-oh-one": digits said one by one, an "oh" among them.
_SPOKEN_DIGITS = re.compile(rf"\b(?:{_DIGIT_ALT})(?:[\s-](?:{_DIGIT_ALT}))*[\s-]oh(?:[\s-](?:{_DIGIT_ALT}))+\b",
                            re.IGNORECASE)
# "from seven to half past ten": a range's bare first hour is a clock time as its end is.
_SPOKEN_RANGE = re.compile(rf"\b(from|between)\s+({_HOUR_ALT})(?=\s+(?:to|until|till|and)\s+"
                           r"(?:half|(?:a\s+)?quarter)\s+(?:past|to)\b|\s+(?:to|until|till|and)\s+\d{1,2}:\d\d)",
                           re.IGNORECASE)


def _spoken_value(words: str) -> str:
    value = _worded_value(re.sub(r"\s+and\s+", " ", words))
    return words if value is None else f"{value:.10g}" if value != int(value) else str(int(value))


def _cents(m: re.Match[str]) -> str:
    cents = _spoken_value(m.group(3) or m.group(4))
    if not cents.isdigit() or int(cents) > 99:
        return m.group(0)
    return f"{_spoken_value(m.group(1))}.{int(cents):02d} {m.group(2)}"


def _digits(words: str) -> str:
    return "".join(_DIGIT_WORDS[w] for w in re.split(r"[\s-]+", words.lower()))


def _clock(m: re.Match[str]) -> str:
    hour, minutes = m.group("h") or m.group("h2"), m.group("mi") or m.group("mi2")
    said = sum(_WORD_NUMBERS[p] for p in re.split(r"[\s-]+", minutes.lower()) if p != "oh")
    return f"{m.group('pre') or ''}{_WORD_NUMBERS[hour.lower()]:g}:{said:02g}"


@lru_cache(maxsize=4096)
def spoken_numbers(text: str) -> str:
    """The text with the figures it says in words written in digits, where words alone are
    no way to write them (a decimal point, an "and" inside a number, cents after the currency,
    an hour with its minutes, digits said one by one); a plain "twelve" stays as it is."""
    if not _SPOKEN_ANY.search(text):
        return text
    text = _SPOKEN_CLOCK.sub(_clock, text)
    text = _SPOKEN_DIGITS.sub(lambda m: _digits(m.group(0)), text)
    text = _SPOKEN_RANGE.sub(lambda m: f"{m.group(1)} {_WORD_NUMBERS[m.group(2).lower()]:g}:00", text)
    text = _SPOKEN_POINT.sub(lambda m: f"{_spoken_value(m.group(1))}.{_digits(m.group(2))}", text)
    text = _SPOKEN_AND.sub(lambda m: _spoken_value(m.group(0)) if re.search(r"\sand\s", m.group(0)) else m.group(0),
                           text)
    return _SPOKEN_CENTS.sub(_cents, text)


def _date_spans(text: str) -> list[tuple[int, int]]:
    return [m.span() for pattern in (_DAY_MONTH_RANGE, *_DATE_PATTERNS) for m in pattern.finditer(text)]


# "40x30x15 cm": a size written without spaces is its dimensions, as "40 x 30 x 15 cm" is
# (a hex number, "0x1f", is not: it starts with a bare 0).
_JOINED_BY = re.compile(r"(?<![\w.])([1-9]\d*(?:\.\d+)?|0\.\d+)[x\u00d7](?=\d)")


def _span_index(spans: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    ordered = sorted(spans)
    return [a for a, _ in ordered], list(itertools.accumulate((b for _, b in ordered), max))


@lru_cache(maxsize=8192)
def _quantities(text: str) -> tuple[Quantity, ...]:
    text = _plain(text)
    while _JOINED_BY.search(text):
        text = _JOINED_BY.sub(r"\1 x ", text)
    taken = (_date_spans(text) + [m.span() for m in _TIME.finditer(text)]
             + [m.span() for m in _RANGE_START.finditer(text)])
    out: list[Quantity] = []
    # The spans by start, and the furthest end any of them up to each reaches: a span is
    # free when those that start before its end all end by its start (a log or a listing
    # holds thousands of numbers and dates; checking each against all was quadratic). The
    # numbers found below never overlap one another, so only the words' pass adds them.
    starts, reach = _span_index(taken)

    def free(span: tuple[int, int]) -> bool:
        k = bisect.bisect_left(starts, span[1])
        return k == 0 or reach[k - 1] <= span[0]

    for m in _NUMERIC.finditer(text):
        if (not free(m.span("num")) or (_LETTER_AFTER.match(text, m.end()) and not _TIMES_AFTER.match(text, m.end()))
                or _SLASH_DIGIT.match(text, m.end("num")) or text.endswith("/", 0, m.start("num"))):
            continue  # taken by a date or a time, part of a name (1040-X, 3B), or 24/7
        if (_ends_with(_HYPHEN_ID, text, m.start("num"), _ID_CHARS)
                and not _year_span(text, m.end("num"))) or (
                text[m.start("num") - 1 : m.start("num")] == "-" and m.group("num").startswith("0")):
            continue  # "lb-edge-02", "node2-3": an id's last part
        num = m.group("num").replace("−", "-")
        value = float(num.replace(",", ""))
        # "in 1990", "since 1880": a year is exact, never 1994 rounded to tens.
        place = 1.0 if _YEAR.fullmatch(num) and (_YEAR_BEFORE.search(text, 0, m.start("num"))
                                                 or _NAME_AFTER.match(text, m.end("num"))) else _place(num)
        scale = (m.group("scale") or "").lower()
        cur = (m.group("cur") or m.group("cur2") or "").lower()
        if scale == "mm" and not cur:
            scale = ""  # "$5mm" is five million; "5 mm" without money is millimetres
        if scale:
            value *= _SCALE[scale]
            place *= _SCALE[scale]
        unit = (_CURRENCY.get(cur.strip(), "") or _UNITS.get((m.group("unit") or "").lower(), "")
                or _money_unit(cur.strip()) or ("mm" if (m.group("scale") or "").lower() == "mm" else ""))
        raw_unit = (m.group("unit") or "").lower()
        # "₹18.4 L": a rupee amount's L is lakh, no litres.
        if unit == "₹" and raw_unit == "l" and not scale:
            value *= _SCALE["lakh"]
            place *= _SCALE["lakh"]
        if cur and raw_unit in ("m", "b") and not scale:
            value *= 1e6 if raw_unit == "m" else 1e9
            place *= 1e6 if raw_unit == "m" else 1e9
            unit = _money_unit(cur.strip())
        approx = bool(_APPROX.search(text[max(0, m.start() - 24) : m.start()]))
        # "8.5 x 11.7 inches": the dimensions of one size share the unit said last; a small
        # whole number before "x" is a count ("2 x 10 kg bags").
        last = out[-1] if out else None
        if (last and unit and not last.unit and _BY.fullmatch(text[taken[-1][1] : m.start()])
                and (last.value != int(last.value) or last.value > _MAX_COUNT)):
            out[-1] = replace(out[-1], unit=unit)
        out.append(Quantity(m.group(0).strip(), value, unit, place, approx))
        taken.append(m.span())
    starts, reach = _span_index(taken)
    for m in _WORDED.finditer(text):
        if not free(m.span()):
            continue
        words = m.group(0)
        if m.group("unit"):
            words = words[: m.start("unit") - m.start()]
        if _MULTIPLE_GLUED.match(text, m.start()):
            continue
        worded = _worded_value(words)
        # "a"/"one" alone is an article or a pronoun far more often than a count.
        if worded is None or (worded <= 1 and not m.group("unit")):
            continue
        unit = _UNITS.get((m.group("unit") or "").lower(), "")
        approx = bool(_APPROX.search(text[max(0, m.start() - 24) : m.start()]))
        # "and a half" states the number to the half (4.5 is not 4).
        place = 0.5 if worded % 1 == 0.5 else max(1.0, _place(str(int(worded))))
        out.append(Quantity(m.group(0).strip(), worded, unit, place, approx))
    return tuple(out)


def quantities(text: str) -> list[Quantity]:
    """Every number stated in the text, dates and clock times excepted (see :func:`dates`)."""
    return list(_quantities(text))


# --- dates ---------------------------------------------------------------------------

_MONTHS = {m: i + 1 for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"])}
_MONTHS.update({m[:3]: i for m, i in list(_MONTHS.items())})
_MONTHS["sept"] = 9
_MONTH_ALT = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DAY = r"(?P<d>[0-3]?\d)(?:st|nd|rd|th)?"
# A reservation system's or a carrier's date, day and month glued in capitals with an
# optional two-digit year: "BA 117 09JUN LHRJFK", "ISSUED 08OCT26".
_GLUED_DATE = re.compile(rf"(?<![A-Za-z\d])(?P<d>[0-3]\d)(?P<mon>{'|'.join(m.upper() for m in _MONTHS if len(m) == 3)})"
                         r"(?P<y>\d\d)?(?![A-Za-z\d])")
_DATE_PATTERNS = (
    re.compile(r"\b(?P<y>(?:19|20)\d{2})[-/.](?P<m>[01]?\d)[-/.](?P<d>[0-3]?\d)(?!\d)"),
    re.compile(r"\b(?P<a>[0-3]?\d)[/.-](?P<b>[0-3]?\d)[/.-](?P<y>(?:19|20)?\d{2})\b"),
    re.compile(rf"\b{_DAY}(?:\s+of)?\s+(?P<mon>{_MONTH_ALT})\.?(?:,?\s+(?P<y>(?:19|20)\d{{2}}))?\b",
               re.IGNORECASE),
    re.compile(rf"\b(?P<mon>{_MONTH_ALT})\.?\s+{_DAY}\b(?:,?\s+(?P<y>(?:19|20)\d{{2}}))?",
               re.IGNORECASE),
    re.compile(rf"\b(?P<mon>{_MONTH_ALT})\.?,?\s+(?P<y>(?:19|20)\d{{2}})\b", re.IGNORECASE),
    # A record's compact date (mainframe, fixed-width, file names): "RECV-DATE 20261128".
    re.compile(r"(?<![\w.,-])(?P<y>(?:19|20)\d{2})(?P<m>[01]\d)(?P<d>[0-3]\d)(?![\w.,])"),
    _GLUED_DATE,
    # A date in the user's language (``_calendar``): "1 Mac 2025", "2-da Juun", "martes 3 de
    # junio de 2025", "15. heinäkuuta", "3 Μαρτίου"; month first: "október 12-én", "kovo 1 d.",
    # "martxoaren 3an"; month and year: "junho de 2025".
    re.compile(rf"(?<![\w.,])(?P<d>[0-3]?\d)(?:\.|º|ª|er|ème|-[^\W\d_]{{1,3}}|an|a|e|i|o)?(?:\s+(?:de|del|di|of|ng))?"
               rf"\s+(?P<fmon>{MONTH_ALT})(?![^\W\d_])\.?(?:,?\s+(?:(?:de|del|of|ng)\s+)?(?P<y>(?:19|20)\d{{2}}))?",
               re.IGNORECASE),
    re.compile(rf"(?<![^\W\d_])(?:(?P<y>(?:19|20)\d{{2}})(?:\.|eko|\s+m\.|\.\s+gada)?\s+)?(?P<fmon>{MONTH_ALT})(?![^\W\d_])"
               r"\.?\s+(?P<d>[0-3]?\d)(?![\d:.,]\d)(?:\.|-?[^\W\d_]{1,3}(?![^\W\d_]))?", re.IGNORECASE),
    re.compile(rf"(?<![^\W\d_])(?P<fmon>{MONTH_ALT})(?![^\W\d_])\.?,?\s+(?:(?:de|del|of)\s+)?(?P<y>(?:19|20)\d{{2}})(?!\d)",
               re.IGNORECASE),
    # Months by their number: Vietnamese "ngày 5 tháng 3 năm 2025", "tháng 3/2025"; Chinese,
    # Japanese and Korean "2025年3月1日", "3월 1일".
    re.compile(r"(?:\b(?P<d>[0-3]?\d)\s+)?\btháng\s+(?P<m>1[0-2]|0?[1-9])(?!\d)(?:\s*(?:/|,?\s*năm\s+)(?P<y>(?:19|20)\d{2}))?",
               re.IGNORECASE),
    re.compile(r"(?:(?P<y>(?:19|20)\d{2})\s*[年년]\s*)?(?P<m>1[0-2]|0?[1-9])\s*[月월]\s*(?:(?P<d>[0-3]?\d)\s*[日일])?"),
)
# A stay or booking written "14/08–16/08" gives no year, so neither half is a d/m/y date;
# as a range of two zero-padded day/month pairs each half is a date (fractions, "2/3 - 1/3",
# are not padded).
_DAY_MONTH_RANGE = re.compile(r"(?<![\w/.])(?P<a>[0-3]\d)/(?P<b>[0-3]\d)\s?[\u2013-]\s?"
                              r"(?P<a2>[0-3]\d)/(?P<b2>[0-3]\d)(?![\w/.])")
_TIME = re.compile(r"(?<![\d:.])(?:[01]?\d|2[0-3])(?::[0-5]\d(?:\s?(?:am|pm|a\.m\.|p\.m\.)(?=\W|$)|(?!\d))"
                   r"|\s?(?:am|pm|a\.m\.|p\.m\.)(?=\W|$))", re.IGNORECASE)
DateParts = tuple[int | None, int | None, int | None]
_CLOCK = re.compile(r"\b(?P<h>[01]?\d|2[0-3])(?::(?P<mi>[0-5]\d))?(?::[0-5]\d)?\s?(?P<ap>[ap])?\.?m?\.?(?=\W|$)",
                    re.IGNORECASE)


# The start of a range whose end carries am/pm ("4–9 PM", "6:30 to 9:30 pm", "between 9 and
# 11am"): the start's too.
_RANGE_START = re.compile(r"(?<![\d:.])(?P<h>[01]?\d)(?::(?P<mi>[0-5]\d))?(?=\s?(?:[\u2013-]|to|until|till|and)\s?"
                          r"(?:[01]?\d)(?::[0-5]\d)?\s?(?P<ap>[ap])\.?m\b)", re.IGNORECASE)


# A timetable's clock time as four digits, on a line that gives a glued date
# (``_GLUED_DATE``): "09JUN LHRJFK OLD 1140/1440", "12OCT 1 LHRHND HK1 1920 1535+1".
_TIMETABLE_TIME = re.compile(r"(?<![\w.,:-])(?:[01]\d|2[0-3])[0-5]\d(?=/|\+1\b|\s|$)(?!/\d{1,2}\b)")


def timetable_times(text: str) -> list[int]:
    """Four-digit clock times (``1455``) of the lines that also give a glued date, as
    minutes after midnight."""
    return [int(t[:2]) * 60 + int(t[2:]) for line in text.splitlines() if _GLUED_DATE.search(line)
            for t in _TIMETABLE_TIME.findall(line)]


# Hours as a 24-hour range of bare two-digit hours ("quiet hours: 22–07", "Mo–Fr 08-20"),
# as much of Europe writes a span of the clock; no count follows ("10-12 business days").
_BARE_HOUR_RANGE = re.compile(r"(?<![\w.,:/+-])([01]\d|2[0-4])\s?[-\u2013]\s?([01]\d|2[0-4])(?![\w,:%/+-]|\.\d|\s*[A-Za-z])")


# "visits at 12 and 5", "ring me around 9": hours said bare, as people speak them; no
# count or measure ("at 12 months", "at 5%").
_SPOKEN_HOURS = re.compile(r"\b(?:at|around|about|by)\s+(1[0-2]|0?[1-9])(?:\s*(?:,|and|or|&)\s*(1[0-2]|0?[1-9]))?"
                           r"(?![\w%:/-]|[.,]\d|\s*(?:[%$\u20ac\u00a3]|(?:a\.?m|p\.?m|o'clock|percent|per|months?|"
                           r"weeks?|days?|years?|hours?|minutes?|mins?|hrs?|kg|km|miles?|people|persons?|items?|of)\b))",
                           re.IGNORECASE)


def spoken_hours(text: str) -> list[int]:
    """The clock times, as minutes after midnight, that hours said bare may be: morning or
    afternoon ("at 5" is 05:00 or 17:00)."""
    hours = [int(h) for m in _SPOKEN_HOURS.finditer(text) for h in m.groups() if h]
    return [(h % 12 + half) * 60 for h in hours for half in (0, 12)]


def hour_range_times(text: str) -> list[int]:
    """The clock times, as minutes after midnight, that a range of bare hours gives."""
    return [int(h) * 60 % (24 * 60) for m in _BARE_HOUR_RANGE.finditer(text) for h in m.groups()]


def clock_times(text: str) -> list[tuple[str, int]]:
    """Clock times (``9:00 AM``, ``19:30``, ``4 pm``, the 4 of ``4–9 PM``) as minutes after
    midnight."""
    return list(_clock_times(text))


@lru_cache(maxsize=8192)
def _clock_times(text: str) -> tuple[tuple[str, int], ...]:
    out: list[tuple[str, int]] = []
    starts: set[int] = set()
    for m in _RANGE_START.finditer(_plain(text)):
        hour = int(m.group("h")) % 12 + (12 if m.group("ap").lower() == "p" else 0)
        out.append((m.group(0), hour * 60 + int(m.group("mi") or 0)))
        starts.add(m.start())
    for m in _TIME.finditer(_plain(text)):
        c = _CLOCK.match(m.group(0))
        if c is None or m.start() in starts:
            continue
        hour, minute = int(c.group("h")), int(c.group("mi") or 0)
        ap = (c.group("ap") or "").lower()
        if ap == "p" and hour < 12:
            hour += 12
        elif ap == "a" and hour == 12:
            hour = 0
        out.append((m.group(0), hour * 60 + minute))
    return tuple(out)


_HOUR_WORDS = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
_WORDED_CLOCK = re.compile(
    rf"\b(?:(?P<part>half|(?:a\s+)?quarter)\s+(?P<rel>past|to)\s+)?(?P<h>{'|'.join(_HOUR_WORDS)})"
    r"(?P<oc>\s+o'?clock)?(?:\s+(?P<when>(?:in the|this|tomorrow) (?:morning|afternoon|evening)|at night|"
    r"tonight|noon|midnight|a\.?m\.?|p\.?m\.?)(?!\w))?", re.IGNORECASE)


def worded_clock_times(text: str) -> list[tuple[str, frozenset[int]]]:
    """Clock times in words (``half past ten``, ``quarter to seven in the evening``, ``nine
    o'clock``) as minutes after midnight: both halves of the day unless it says which. A
    bare number word is no time."""
    out: list[tuple[str, frozenset[int]]] = []
    for m in _WORDED_CLOCK.finditer(text):
        if not (m.group("part") or m.group("oc") or m.group("when")):
            continue
        hour = _HOUR_WORDS.index(m.group("h").lower()) + 1
        minutes = {"half": 30, "quarter": 15, "a quarter": 15}.get(
            re.sub(r"\s+", " ", (m.group("part") or "").lower()), 0)
        if m.group("rel") and m.group("rel").lower() == "to":
            hour, minutes = hour - 1, 60 - minutes
        when = (m.group("when") or "").lower()
        pm = when.startswith(("p", "noon")) or when.endswith(("afternoon", "evening", "night"))
        halves = (12,) if pm else (0,) if when else (0, 12)
        out.append((m.group(0), frozenset(((hour % 12) + h) * 60 + minutes for h in halves)))
    return out


@lru_cache(maxsize=8192)
def _dates(text: str) -> tuple[tuple[str, frozenset[DateParts]], ...]:
    text = _plain(text)
    # One text writes its dates one way: 25/03/2026 beside it makes 03/04/2026 day first.
    parts = [(int(m.group("a")), int(m.group("b"))) for m in _DATE_PATTERNS[1].finditer(text)
             if "." not in m.group(0)]
    day_first, month_first = any(a > 12 for a, _ in parts), any(b > 12 for _, b in parts)
    out: list[tuple[str, frozenset[DateParts]]] = []
    spans: list[tuple[int, int]] = []
    for m in _DAY_MONTH_RANGE.finditer(text):
        pairs = ((int(m.group("a")), int(m.group("b"))), (int(m.group("a2")), int(m.group("b2"))))
        # Day first unless a half can only be month first (as _english_numbers' dates).
        month_first = any(b > 12 >= a for a, b in pairs) and not any(a > 12 for a, _ in pairs)
        for (start, end), (first, second) in zip((("a", "b"), ("a2", "b2")), pairs):
            month, dom = (first, second) if month_first else (second, first)
            if 1 <= month <= 12 and 1 <= dom <= 31:
                out.append((text[m.start(start):m.end(end)], frozenset({(None, month, dom)})))
        spans.append(m.span())
    for pattern in _DATE_PATTERNS:
        for m in pattern.finditer(text):
            if any(not (m.end() <= a or m.start() >= b) for a, b in spans):
                continue
            groups = m.groupdict()
            year = int(groups["y"]) if groups.get("y") else None
            if year is not None and year < 100:
                year += 2000
            readings: set[DateParts] = set()
            if groups.get("mon"):
                day = int(groups["d"]) if groups.get("d") else None
                readings.add((year, _MONTHS[groups["mon"].lower().rstrip(".")], day))
            elif groups.get("fmon"):
                day = int(groups["d"]) if groups.get("d") else None
                if day is None or 1 <= day <= 31:
                    readings.update((year, mon, day) for mon in month_of(groups["fmon"]))
            elif groups.get("a"):
                a, b = int(groups["a"]), int(groups["b"])
                # 03/05/2024 is 5 March in the US and 3 May elsewhere: either reading; a
                # dotted date (03.05.2024) is day first, as are slashed ones among continental
                # numbers (see _english_numbers).
                orders = ((b, a),) if "." in m.group(0) or day_first and not month_first else (
                    ((a, b),) if month_first and not day_first else ((a, b), (b, a)))
                for mon, day in orders:
                    if 1 <= mon <= 12 and 1 <= day <= 31:
                        readings.add((year, mon, day))
            else:
                mon, day = int(groups["m"]), int(groups["d"]) if groups.get("d") else None
                if 1 <= mon <= 12 and (day is None or 1 <= day <= 31):
                    readings.add((year, mon, day))
            if readings:
                out.append((m.group(0), frozenset(readings)))
                spans.append(m.span())
    return tuple(out)


def dates(text: str) -> list[tuple[str, frozenset[DateParts]]]:
    """Dates in the text, each with its possible (year, month, day) readings (``None`` for
    a part not given)."""
    return list(_dates(text))


# A record's month, ISO 8601's year and month ("billing_month": "2024-08").
_YEAR_MONTH = re.compile(r"(?<![\w.,/-])((?:19|20)\d{2})-(0[1-9]|1[0-2])(?![\w.,/-]|:\d)")


def year_months(text: str) -> list[DateParts]:
    """The months a text gives as ISO years and months, each with no day: evidence for a
    month said alone ("8월", "in August 2024"), never for a day of it."""
    return [(int(m.group(1)), int(m.group(2)), None) for m in _YEAR_MONTH.finditer(_plain(text))]


def date_supported(readings: Iterable[DateParts], evidence: Iterable[DateParts]) -> bool:
    """Some reading agrees with some evidence date on every part both give."""
    ev = list(evidence)
    for r in readings:
        for e in ev:
            if all(x is None or y is None or x == y for x, y in zip(r, e)) and (
                (r[1] is not None and e[1] is not None) or r[0] == e[0]
            ):
                return True
    return False


# --- what a value is of ----------------------------------------------------------------

# A value's label is the content words next to it in its phrase: "refills remaining: 1",
# "your 50 GB plan". A phrase ends at punctuation (a JSON key's colon excepted: the key is
# the label) and at another number, which has its own label.
_LABEL_END = re.compile(r"[,;()\[\]{}\n=|]|\.(?!\d)|\s[\u2014\u2013]\s")
_NOT_LABELS = (frozenset(_UNITS) | frozenset(_CURRENCY) | frozenset(_SCALE)
               | frozenset(c.lower() for c in _ISO_CURRENCIES))
_LABEL_WORDS = 2


@dataclass(frozen=True)
class Valued:
    """A number or a date the text states, with the stems of the words that label it."""

    text: str
    quantity: Quantity | None  # None for a date
    readings: frozenset[DateParts]
    labels: frozenset[str]


def _label_words(words: Iterable[str]) -> list[str]:
    out: list[str] = []
    for w in words:
        if not w[0].isalpha():
            break
        if w in _FUNCTION or w in _NOT or w in _NO or len(w) < 2 or w in _NOT_LABELS:
            continue
        out.append(stem(w))
        if len(out) == _LABEL_WORDS:
            break
    return out


@lru_cache(maxsize=4096)
def _labelled(text: str) -> tuple[Valued, ...]:
    plain = _plain(text)
    items: list[tuple[str, Quantity | None, frozenset[DateParts]]] = [
        (q.text, q, frozenset()) for q in quantities(plain)]
    items += [(t, None, r) for t, r in dates(plain)]
    out: list[Valued] = []
    cursor: dict[str, int] = {}
    # Phrase ends found once: splitting all the text before and after each of a long tool
    # output's hundreds of values was most of the time it took to read.
    ends = [m.span() for m in _LABEL_END.finditer(plain)]
    for t, q, readings in items:
        at = plain.find(t, cursor.get(t, 0))
        if at < 0:
            continue
        cursor[t] = at + len(t)
        left = plain[_phrase_start(plain, ends, at) : at]  # _LABEL_END.split(plain[:at])[-1]
        after = _LABEL_END.search(plain, at + len(t))
        right = plain[at + len(t) : after.start() if after else len(plain)]
        labels = _label_words(reversed(_words(left))) + _label_words(_words(right))
        out.append(Valued(t, q, readings, frozenset(labels)))
    return tuple(out)


def _phrase_start(plain: str, ends: Sequence[tuple[int, int]], at: int) -> int:
    """Where the last piece of ``_LABEL_END.split(plain[:at])`` starts. A match of it reads
    at most two characters past its start, so the matches over the whole text that start
    three before ``at`` or earlier are the prefix's too; the rest is scanned again."""
    k = bisect.bisect_right(ends, at - 3, key=lambda span: span[0])
    start = ends[k - 1][1] if k else 0
    tail = [m.end() for m in _LABEL_END.finditer(plain, max(start, at - 2), at)]
    return tail[-1] if tail else start


def labelled_values(text: str) -> list[Valued]:
    """The text's numbers and dates, each with the words next to it that say what it is."""
    return list(_labelled(text))


# A key in words or in snake case ("floor_area_m2: 85" of a YAML-like output, not flattened).
_KEYED_NUMBER = re.compile(r"(?:^|;\s|\n)(?P<key>[a-z][a-z0-9 _]*?)\s?:\s?(?P<num>-?\d+(?:\.\d+)?)(?=;|\n|$)")


_CAMEL_KEY = re.compile(r"(?<=[a-z])([A-Z])(?=[a-z]+[a-zA-Z]*\s?:\s?-?\d)")


# A key's words of a speed, whose "ms" is metres a second: "wind ms", "gust ms".
_SPEEDS = frozenset({"wind", "gust", "speed", "velocity", "current"})
# What a measure is of, before its one-letter unit: "read time s", "weight g", "temp c".
_MEASURED = frozenset({"time", "duration", "length", "weight", "mass", "distance", "height",
                       "width", "depth", "volume", "temp", "temperature", "elapsed", "runtime"})


def keyed_units(text: str) -> list[tuple[float, str]]:
    """The numbers of a flattened record whose key ends in a unit or a currency
    (``price czk: 450``, ``radius km: 15``, ``read time s: 371``), each with that unit: the
    value's unit though the value is bare. A one-letter ending (``plan b``, ``zone c``) is
    too often no unit unless it follows what a measure is of; a key naming two units or a
    "per" is a rate (``rate usd per gbp``, ``pace s per km``), in neither unit."""
    out: list[tuple[float, str]] = []
    # A camelCase key ("lifetimeInMinutes: 480") in its words, as a snake_case one.
    for m in _KEYED_NUMBER.finditer(_CAMEL_KEY.sub(lambda k: " " + k.group(1).lower(), text)):
        words = m.group("key").replace("_", " ").split()
        named = [u for w in words if (u := _key_unit(w))]
        # A two-word unit first: ``processing business days`` counts workdays, not days.
        unit = _UNITS.get(" ".join(words[-2:]), "") if len(words) > 1 else ""
        unit = unit or _key_unit(words[-1]) or (_UNITS.get(words[-1], "") if len(words) > 1
                                                and words[-2] in _MEASURED else "")
        if unit and "per" not in words and len(named) <= 1:
            out.append((float(m.group("num")), "mps" if unit == "ms" and _SPEEDS & set(words) else unit))
    return out


_KEY_SCALE = re.compile(r"(?P<a>m|mm|mn|bn|k)(?P<c>[a-z]{3})|(?P<d>[a-z]{3})(?P<b>m|mm|mn|bn|k)")
_SCALE_LETTER = {"m": 1e6, "mm": 1e6, "mn": 1e6, "bn": 1e9, "k": 1e3}


def keyed_scales(text: str) -> list[float]:
    """The numbers of a flattened record whose key ends in a scale glued to a currency
    (``q3 bookings meur: 4.2``, ``revenue usdm: 18.6``) or in a plural scale (``sales
    millions: 3.1``), at full size: the record's 4.2 is €4.2M."""
    out: list[float] = []
    for m in _KEYED_NUMBER.finditer(text):
        last = m.group("key").replace("_", " ").split()[-1]
        k = _KEY_SCALE.fullmatch(last)
        scale = _SCALE_LETTER[k.group("a") or k.group("b")] if k and (
            k.group("c") or k.group("d")).upper() in _ISO_CURRENCIES else (
            _SCALE.get(last.removesuffix("s"), 0.0) if len(last) > len("bn") else 0.0)  # "top k: 4" is no 4,000
        if scale >= 1e3:
            out.append(float(m.group("num")) * scale)
    return out


def _key_unit(word: str) -> str:
    return _CURRENCY.get(word) or (_CODE_UNITS.get(word, word) if word.upper() in _ISO_CURRENCIES else "") or (
        _UNITS.get(word, "") if len(word) > 1 else "")


def _dimension(unit: str) -> str:
    """A name shared by the units one value can be stated in: ``money`` for every currency,
    else the units ``_CONVERSIONS`` links (km, mi, m, ...), named by the least of them."""
    if unit in _CURRENCY.values() or unit.upper() in _ISO_CURRENCIES or re.fullmatch(
            f"[{_CURRENCY_SIGNS}]", unit):
        return "money"
    if unit in ("c", "f"):
        return "c"
    linked, todo = {unit}, [unit]
    while todo:
        u = todo.pop()
        for a, b in _CONVERSIONS:
            for x, y in ((a, b), (b, a)):
                if x == u and y not in linked:
                    linked.add(y)
                    todo.append(y)
    return min(linked)


# Currencies whose sign is a "$" (every dollar's, "FJ$ 25.00" of "fee fjd: 25", the peso's
# and the real's too: "$24.000" of "tarifa clp: 24000", "R$ 12.450,00" of "gross sales
# brl"): their amounts under a bare "$" are no slip.
_DOLLAR_SIGNED = frozenset({code.lower() for code in _MARK_CODES["$"]} | {"brl"})


def unit_slip(unit: str, units: Iterable[str]) -> bool:
    """The claim's unit is not the evidence's for the same value, though of its dimension:
    ``$24`` for ``adult eur: 24``, ``15 miles`` for ``radius km: 15``."""
    units = set(units)
    if unit == "$":
        units -= _DOLLAR_SIGNED
    return bool(unit) and unit not in units and any(
        _dimension(unit) == _dimension(u) for u in units)


# --- number support ------------------------------------------------------------------

def _tolerance(claim: Quantity) -> float:
    if claim.approx:
        return max(0.05 * abs(claim.value), 0.5 * claim.place)
    # A claim rounds the evidence to its own precision: 3.5 from 3.47, 1,200 from 1,180; a
    # whole number under 100 must be the evidence rounded to a whole number (45 is not 50).
    tol = 0.5 * claim.place if abs(claim.value) >= 100 or claim.place < 1 else 0.5
    return tol + 1e-9 * max(1.0, abs(claim.value))


@lru_cache(maxsize=256)
def _factors(unit: str) -> tuple[tuple[float, bool], ...]:
    """The unit's factors in ``_CONVERSIONS``, in its order, each with whether it multiplies."""
    return tuple((factor, a == unit) for (a, b), factor in _CONVERSIONS.items() if unit in (a, b))


# "4 ft 2 in", "5' 10\"", "1 m 12 cm", "1 метр 12 сантиметров": a length in two units is one
# length (50 inches, 112 cm), in the unit of its smaller part.
_COMPOUND_LENGTHS = (
    (re.compile(r"(?<![\w.,])(\d{1,2})\s?(?:ft|feet|foot|')\s*(?:and\s+)?(\d{1,2})\s?"
                r"(?:in(?:ch(?:es)?)?\b|\"|\u2033)", re.IGNORECASE), 12.0, "in"),
    (re.compile(r"(?<![\w.,])(\d{1,2})\s?(?:m|metres?|meters?|метр\w*|м)\s*(?:and\s+)?(\d{1,2})\s?"
                r"(?:cm|centimet(?:re|er)s?|сантиметр\w*|см)(?!\w)", re.IGNORECASE), 100.0, "cm"),
)


def compound_lengths(text: str) -> list[Quantity]:
    """The lengths the text gives in two units (see ``_COMPOUND_LENGTHS``), each whole."""
    return [Quantity(m.group(0), factor * float(m.group(1)) + float(m.group(2)), unit, 1.0, False)
            for pattern, factor, unit in _COMPOUND_LENGTHS for m in pattern.finditer(text)]


_DATA_UNITS = ("kb", "mb", "gb", "tb")
# Bytes and their binary multiples, each 1,024 of the one before: a count of bytes is stated
# in any of them (524,288,000 bytes are 500 MiB), and in the decimal units too.
_BINARY_UNITS = ("byte", "kib", "mib", "gib", "tib")


def converted(q: Quantity) -> Iterable[float]:
    """The quantity's value, and its value in each unit it converts to."""
    yield q.value
    if q.unit == "%":
        yield q.value / 100
    elif not q.unit and 0 < abs(q.value) < 1:
        yield q.value * 100  # a share written as a fraction, stated as a percentage
    for factor, times in _factors(q.unit):  # derived values convert thousands of sums
        yield q.value * factor if times else q.value / factor
    # A data size may be counted in 1024s ("data_mb: 3789" is 3.7 GB to a phone's meter).
    for ladder in (_DATA_UNITS, _BINARY_UNITS):
        if q.unit in ladder:
            at = ladder.index(q.unit)
            yield from (q.value * 1024.0 ** (at - to) for to in range(len(ladder)) if to != at)
    if q.unit == "byte":
        yield from (q.value / 1000.0 ** to for to in range(2, len(_DATA_UNITS) + 1))
    if q.unit == "c":
        yield q.value * 9 / 5 + 32
    elif q.unit == "f":
        yield (q.value - 32) * 5 / 9


_ID_DIGITS = re.compile(r"\d{7,}")


def derived_values(evidence: Sequence[Quantity], limit: int = 24) -> list[float]:
    """Values an answer may state from its evidence, sorted: each number, converted to other
    units, and two numbers' sum and difference (same unit), product, ratio, percentage
    change and a percentage applied. Only the first ``limit`` numbers are combined: the more pairs, the likelier an
    invented number matches one by chance."""
    values: list[float] = []
    for q in evidence:
        values.extend(converted(q))
        if q.unit == "%" and 0 < q.value < 100:
            values.append(100 - q.value)  # the rest of a whole: 20% coinsurance, 80% paid
    # An id of seven digits or more ("item 3254583681") is no amount: it would only take
    # an operand's place.
    firsts = list({(q.value, q.unit): q for q in evidence
                   if q.unit or not _ID_DIGITS.fullmatch(q.text)}.values())[:limit]
    if limit:
        by_unit: dict[str, float] = {}
        for q in firsts:
            by_unit[q.unit] = by_unit.get(q.unit, 0.0) + q.value
        values.extend(by_unit.values())  # a total of line items
    for i, qa in enumerate(firsts):
        for qb in firsts[i + 1 :]:
            a, b = qa.value, qb.value
            # One number, bare and with its unit ("14.2", "14.2 km"), is no two to add up.
            if (qa.unit == qb.unit or not qa.unit or not qb.unit) and (a != b or qa.unit == qb.unit):
                # In their unit and in the units it converts to: 412 − 394 m³ is 18,000 l.
                unit = qa.unit or qb.unit
                for v in (a + b, abs(b - a)):
                    values.extend(converted(Quantity("", v, unit, 1.0, False)))
            values.append(a * b)
            # A rate applied to an amount: 5% of 10,200, and the amount with it added or taken.
            for x, pct in ((a, qb), (b, qa)):
                if pct.unit == "%" and (qa.unit != "%" or qb.unit != "%"):
                    values.extend((x * pct.value / 100, x * (1 + pct.value / 100),
                                   x * (1 - pct.value / 100)))
            for x, y in ((a, b), (b, a)):
                if y:
                    values.extend((x / y, x / y * 100, (x - y) / y * 100, (y - x) / y * 100))
    return sorted(values)


def number_supported(claim: Quantity, values: Sequence[float]) -> bool:
    """Some value (from :func:`derived_values`, sorted) is the claim at its precision."""
    tol = _tolerance(claim)
    i = bisect.bisect_left(values, claim.value - tol)
    return i < len(values) and values[i] <= claim.value + tol


# --- stance --------------------------------------------------------------------------

# Negators and the words they govern: "not"-like ones negate the next content word (the
# verb or adjective: "do not cover", "isn't taxable"); "no"-like ones a short noun phrase
# ("no appraisal gap", "without a referral"), up to two content words.
_NOT = frozenset("""not never cannot can't won't don't doesn't didn't isn't aren't wasn't weren't
    hasn't haven't hadn't shouldn't mustn't wouldn't couldn't nor neither""".split())  # noqa: SIM905
_ADJECTIVE_ENDINGS = ("able", "ible", "al", "ive", "ed", "ing", "ent", "ant", "ary", "ory")
# Irregular participles and plain adjectives ("paid", "sold", "known", "done", "healthy",
# "clear", "safe"); a bare verb ("block", "lock", "pack") ends otherwise.
_PARTICIPLE_ENDINGS = ("id", "ld", "lt", "nt", "en", "wn", "ght", "ne", "y", "ar", "fe", "re")
_NO = frozenset("no none without nobody nothing".split())  # noqa: SIM905
# A table's cell rule ("| pass | none |") ends a clause: "none" in one cell denies nothing
# in the next.
_TOKEN = re.compile(r"[a-z0-9]+(?:'[a-z]+)?(?:-[a-z]+)?|[.,;:!?()|\u2014\u2013-]")
# Attributes of a service whose opposite is said in a word of its own, with no negator:
# "closed" is "not open", "free" is "not charged", "prohibited" is "not allowed". Each word
# reads as (the attribute, whether it states its opposite); a negator before a word of
# the opposite flips it back ("isn't free" states a charge).
_POLAR_GROUPS = (
    ("open", "open opens", "closed shut"),
    ("allow", "allowed allows permitted", "prohibited forbidden banned disallowed"),
    ("charg", "charged charge charges billed fee fees cost costs", "free complimentary waived"),
    ("includ", "included includes include", "excluded excludes separately"),
    ("accept", "accepted accepts accept", "rejected refused declined"),
)
_OUT_OF_USE = re.compile(r"\bout of (?:use|order|service|operation|action)\b")
_ASSIGNED_NONE = re.compile(r"=\s*none\b")  # "timeout=None": code setting a value, denying nothing
_POLAR = {w: (attr, opposite) for attr, *sides in _POLAR_GROUPS
          for opposite, words in enumerate(sides) for w in words.split()}


@lru_cache(maxsize=8192)
def _words_of(text: str) -> tuple[str, ...]:
    """A text's lower-cased words and clause marks, as the negation checks read them:
    ``contradicts`` reads each text for its negations, polar words and qualifiers. A
    phrase that says a polar word's opposite ("out of use") is read as that word."""
    return tuple(_TOKEN.findall(_ASSIGNED_NONE.sub("=null", _OUT_OF_USE.sub("closed", _plain(text).lower()))))


def _attribute(tok: str) -> str:
    """A word's stem, or the attribute a word of a polar pair names ("permitted": allow)."""
    polar = _POLAR.get(tok)
    return polar[0] if polar is not None and not polar[1] else stem(tok)


def _polar(toks: Sequence[str]) -> tuple[set[str], set[str]]:
    """The attributes the tokens state in a polar word: (asserted, denied)."""
    asserted: set[str] = set()
    denied: set[str] = set()
    for i, tok in enumerate(toks):
        if tok not in _POLAR:
            continue
        attr, opposite = _POLAR[tok]
        negated = i > 0 and toks[i - 1] in _NOT  # "not allowed" is negation_scope's
        if opposite and not negated:
            denied.add(attr)
        elif opposite or not negated:
            asserted.add(attr)
    return asserted, denied


# A negation narrowed to a time, place or case ("no pickup in December", "not serviced
# in-house") denies only that case: the thing itself, said without it, is no contradiction.
# "until" is left out: "closed until 15 March" is the state now.
_QUALIFIERS = frozenset("in on at during after before outside inside within between for".split())  # noqa: SIM905
_QUALIFIED_PREFIXES = ("in-", "on-", "off-")
# The case on the other side of a limit: "not refundable after 14 days" restates
# "refundable within 14 days only".
_COMPLEMENT = {"after": {"within", "before", "until"}, "before": {"after"},
               "outside": {"in", "inside", "within"}, "inside": {"outside"}}


# A negation a negator states: a single stem ("not"), or a phrase ("no"), with its qualifier.
_Negated = tuple[bool, frozenset[str], frozenset[tuple[str, str]]]


_POSSESS = (("have",), ("has",), ("had",))
_COPULAS = frozenset("is are was were be".split())  # noqa: SIM905
# A requirement, in any of its words.
_REQUIRED = frozenset("needed necessary mandatory required".split())  # noqa: SIM905
_SUBJECT_WORDS = 4


# "no longer pending": "longer" says since when the negation holds; what it negates comes
# after it, as after the adverbs that only stress it ("don't actually need", "isn't
# currently open"). ("not yet approved" stays as it is: read as "not approved", a condition
# that follows it, "confirmed once it is approved", read as its denial.)
_NEGATION_ASPECT = frozenset("longer actually really even ever currently presently".split())  # noqa: SIM905


def _denied_need(toks: Sequence[str], at: int) -> int | None:
    """Where "no" at ``at`` begins a subject that a copula calls required ("no prior
    authorization is needed"): the index of that predicate."""
    for k in range(at + 2, min(at + 2 + _SUBJECT_WORDS, len(toks) - 1)):
        if not toks[k - 1][0].isalnum():
            return None
        if toks[k] in _COPULAS:
            return k + 1 if toks[k + 1] in _REQUIRED else None
    return None


_TIME_BOUND = (("before",), ("until",), ("till",), ("prior",))


def _negations(text: str) -> tuple[set[str], list[_Negated]]:
    """What a text negates with no negator word (a prefix, a polar word) as stems, and what
    its negators negate, each with the qualifier stems of its clause after it."""
    toks = _words_of(text)
    singles: set[str] = _polar(toks)[1]
    scoped: list[_Negated] = []
    for i, tok in enumerate(toks):
        if tok not in _NOT and tok not in _NO:
            # "unpaid", "non-refundable": the prefix negates the adjective it is glued to;
            # "non-compete" or "non-disclosure" is the name of a thing, not a negation. On a
            # bare verb "un" names the undoing, which presupposes the state ("unblock on
            # payment": it is blocked), so only an adjective or a participle is negated.
            for prefix in ("non-", "non", "un"):
                rest = tok[len(prefix) :]
                if tok.startswith(prefix) and len(rest) >= 4 and rest.endswith(
                    _ADJECTIVE_ENDINGS + (_PARTICIPLE_ENDINGS if prefix == "un" else ())
                ):
                    singles.add(stem(rest))
                    break
            continue
        if tok == "no" and (i == 0 or toks[i - 1] in ".;:!?") and (
            i + 1 < len(toks) and toks[i + 1] in ",.;:!?\u2014\u2013-"
        ):
            continue
        # "policy no: HX-883102", "Ref no. 4411": a number's abbreviation after its noun.
        if tok == "no" and i and toks[i - 1][:1].isalnum() and toks[i + 1 : i + 2] in ((":",), (".",)):
            continue
        # "no more than 20 kg", "not later than 18:00": a bound stated, not a fact denied;
        # "not before the inspector signs" makes the signing a condition, it denies nothing.
        if toks[i + 2 : i + 3] == ("than",) or toks[i + 1 : i + 2] in _TIME_BOUND:
            continue
        window: list[str] = []
        # "earns no rewards", "charges no fee": the verb before "no" is negated with its
        # object (the text does not assert "earns").
        before = toks[i - 1] if i else ""
        if (tok in _NO and before[:1].isalnum() and len(before) > 1
                and before not in _FUNCTION and before not in _NOT):
            window.append(stem(before))
        limit = 2 + len(window)
        # "does not have travel insurance" says "has no travel insurance": the phrase is denied.
        single = tok in _NOT and toks[i + 1 : i + 2] not in _POSSESS
        for nxt in toks[i + 1 : i + 7]:
            if not nxt[0].isalnum():
                break
            if nxt not in _FUNCTION and nxt not in _NOT and nxt not in _NO and len(nxt) > 1 \
                    and nxt not in _NEGATION_ASPECT:
                window.append(_attribute(nxt))
                if single or len(window) == limit:
                    break
        need = _denied_need(toks, i) if tok in _NO else None
        if need is not None:
            # "No visa is needed" denies the need, not the visa: "visa not required".
            scoped.append((True, frozenset({"requir"}), _qualifier(toks[need + 1 :])))
        elif window:
            scoped.append((single, frozenset(window[:1] if single else window),
                           _qualifier(toks[i + 1 :])))
            if single:
                # "must not be self-employed, work as a sportsperson, or fill a vacancy": the
                # negator reaches each item of a list that "or" ends.
                scoped.extend((False, words, _qualifier(toks[j + 1 :])) for j, words in _or_listed(toks, i))
    return singles, scoped


_OR_LIST_REACH = 24  # tokens after a negator that a list it governs may run to
_LIST_ENDS = frozenset("and such including like except but unless".split())  # noqa: SIM905


def _or_listed(toks: Sequence[str], at: int) -> list[tuple[int, frozenset[str]]]:
    """After the negator at ``at``, each later item of a list joined by commas and ended by
    "or" or "nor", in the same clause (none without the "or"): where it starts, and its first
    two content words, as a "no" denies a short phrase ("keep reptiles")."""
    span: list[str] = []
    for tok in toks[at + 1 : at + 1 + _OR_LIST_REACH]:
        # "may not reveal any details, such as its status or usage, to anyone": examples or
        # an exception, no items of the act denied.
        if tok in ".;:!?()|" or tok in _LIST_ENDS:
            break
        span.append(tok)
    if not any(tok in ("or", "nor") for tok in span) or "," not in span:
        return []
    out: list[tuple[int, frozenset[str]]] = []
    start = -1
    words: list[str] = []
    for j, tok in enumerate([*span, ","]):
        if tok in (",", "or", "nor"):
            if start >= 0 and words:
                out.append((at + 1 + start, frozenset(words)))
            start, words = j, []
        elif start >= 0 and len(words) < 2 and tok[0].isalnum() and tok not in _FUNCTION \
                and tok not in _NOT and len(tok) > 1:
            words.append(_attribute(tok))
    return out


_DEICTIC = frozenset("this that these those it".split())  # noqa: SIM905


def _qualifier(toks: Sequence[str]) -> frozenset[tuple[str, str]]:
    """Each content stem after a qualifying preposition (or an "in-house" word) up to the
    clause's end, with that preposition: "after 14 days" is not "within 14 days"."""
    out: set[tuple[str, str]] = set()
    prep = ""
    for tok in toks:
        if not tok[0].isalnum():
            break
        if tok in _QUALIFIERS:
            prep = tok
            continue
        if prep and tok in _DEICTIC:
            # "for this service": the thing spoken of already, no narrower case
            prep = ""
            continue
        if tok.startswith(_QUALIFIED_PREFIXES):
            prep = tok
        if prep and tok not in _NOT:
            out.update((prep, x) for x in word_stems(tok))
    return frozenset(out)


def _qualifiers(text: str) -> frozenset[tuple[str, str]]:
    """Every qualifier a text states, clause by clause."""
    toks = _words_of(text)
    return frozenset().union(*(_qualifier(toks[i:]) for i, t in enumerate(toks)
                               if t in _QUALIFIERS or t.startswith(_QUALIFIED_PREFIXES)))


@lru_cache(maxsize=8192)
def negation_scope(text: str) -> tuple[frozenset[str], frozenset[frozenset[str]]]:
    """The stems a text negates: single stems under "not", phrases (stem sets) under "no".
    A leading "No," answers the question and negates nothing."""
    singles, scoped = _negations(text)
    singles.update(x for single, stems, _ in scoped if single for x in stems)
    return frozenset(singles), frozenset(stems for single, stems, _ in scoped if not single)


_SHARED = 2  # other content words the two texts must share to speak of the same thing
# The two sides of a threshold: "orders over 50 GBP get free delivery" and "below 50 GBP
# there's a fee" speak of different orders.
_SIDES = {"over": "above", "above": "above", "more": "above", "beyond": "above",
          "under": "below", "below": "below", "less": "below", "fewer": "below",
          "within": "below"}
_SIDE_WORDS = 2  # words after the side word that name the threshold


@lru_cache(maxsize=8192)
def _sides(text: str) -> frozenset[tuple[str, str]]:
    """(side, word) for each threshold a text states: "over 50 GBP" gives (above, 50) and
    (above, gbp)."""
    toks = _words_of(text)
    out: set[tuple[str, str]] = set()
    for i, tok in enumerate(toks):
        side = _SIDES.get(tok)
        if side is None:
            continue
        rest = toks[i + 2 :] if tok in ("more", "less", "fewer") and toks[i + 1 : i + 2] == ("than",) else (
            toks[i + 1 :] if tok not in ("more", "less", "fewer") else ())
        words = [t for t in rest[: _SIDE_WORDS + 1] if t[0].isalnum() and t not in _FUNCTION]
        out.update((side, w) for w in words[:_SIDE_WORDS])
    return frozenset(out)


_CONDITION = re.compile(r"^\W*(?:if|once|when|as soon as)\b", re.IGNORECASE)


def _other_side(a: str, b: str) -> bool:
    """The two texts state the same threshold from opposite sides, or one is a case ("if
    you add 7.70 GBP, delivery is free") and the other a threshold's side ("below that the
    fee is 3.99"): a rule with a threshold holds both."""
    mine, theirs = _sides(a), _sides(b)
    if (theirs and _CONDITION.search(a)) or (mine and _CONDITION.search(b)):
        return True
    return any(("below" if side == "above" else "above", w) in theirs for side, w in mine)


# "All parents, regardless of whether they gave birth", "whether or not you are a member":
# the words after it hold either way; the text neither asserts nor denies them.
_EITHER_WAY = (("regardless", "of"), ("irrespective", "of"), ("whether", "or", "not"))


@lru_cache(maxsize=8192)
def _either_way(text: str) -> frozenset[str]:
    """The stems of the clauses a text says hold either way (see ``_EITHER_WAY``), and of a
    "whether … or not" clause."""
    toks = _words_of(text)
    out: set[str] = set()
    for i, tok in enumerate(toks):
        lead = next((len(w) for w in _EITHER_WAY if toks[i : i + len(w)] == w), 0)
        clause = list(itertools.takewhile(lambda t: t[0].isalnum(), toks[i + lead :]))
        if not lead and not (tok == "whether" and "".join(clause[-2:]) == "ornot"):
            continue
        out.update(stem(t) for t in clause if t not in _FUNCTION and t not in _NOT)
    return frozenset(out)


_GATE = re.compile(r"\b(?:only (?:if|when|once|where)|unless|provided that|as long as)\b",
                   re.IGNORECASE)


_INCLUD = re.compile(r"\binclud\w*", re.IGNORECASE)
# (A clause cut at "but" ends on the bare "including".)
_EXAMPLES = re.compile(r"\bincluding,?\s*(?:$|but\s+not\s+limited\s+to\b|without\s+limitation\b)", re.IGNORECASE)


def _examples_only(text: str) -> set[str]:
    """"Including but not limited to" introduces examples of a list ("EXCLUSIONS: major
    components, including but not limited to motors"): it asserts no inclusion. ("€95
    including VAT" does: only the idiom is read so.)"""
    said = len(_INCLUD.findall(text))
    return {"includ"} if said and said == len(_EXAMPLES.findall(text)) else set()


def _not_yet(text: str) -> frozenset[str]:
    """What a text says has not happened yet ("not yet delivered", "hasn't yet been
    shipped"): denied only as "yet" (see ``_NEGATION_ASPECT``), it is not asserted either,
    so a record's "non-delivered" agrees with it."""
    toks = _words_of(text)
    return frozenset(
        stem(nxt) for i, tok in enumerate(toks) if tok in _NOT and toks[i + 1 : i + 2] == ("yet",)
        for nxt in itertools.islice(itertools.takewhile(lambda t: t[0].isalnum(), toks[i + 2 :]), 3)
        if nxt not in _FUNCTION)


# "not Ashley Down Primary as before", "no longer at Gate 4": what was so and is not now;
# a record's "previous: Ashley Down Primary School" says the same.
_AS_BEFORE = re.compile(r"\b(?:as (?:before|previously|it was|in the past)|like before|any ?more|no longer|"
                        r"formerly)\b", re.IGNORECASE)
_FORMER = re.compile(r"\b(?:previous(?:ly)?|former(?:ly)?|prior|original(?:ly)?|earlier)\b", re.IGNORECASE)


# An act allowed only from some point on, however it is worded: "can't be filed until 30
# days have passed", "may be filed no sooner than 30 days after", "only after approval".
_ONLY_AFTER = re.compile(r"\b(?:not|never|cannot|\w+n't)\b(?:\s+[\w-]+){0,5}?\s+(?:until|till|before|prior to)\b|"
                         r"\bno (?:sooner|earlier) than\b|\bonly (?:after|once|from)\b|\bat the earliest\b",
                         re.IGNORECASE)


def _both_only_after(a: str, b: str) -> bool:
    """Both texts allow the act only from some point on: each one's negated verb is the
    other's permitted one, the same rule; whether the points agree is the figures' test."""
    return bool(_ONLY_AFTER.search(a) and _ONLY_AFTER.search(b))


def _then_and_now(a: str, b: str) -> bool:
    """One text says a thing is no longer so, the other gives it as the former one."""
    return any(_AS_BEFORE.search(x) and _FORMER.search(y)
               and any(t in _NOT or t in _NO for t in _words_of(x)) for x, y in ((a, b), (b, a)))


_BEFORE_NOT = 3  # words of a noun phrase a record's postposed "not" denies


def _denied_before(text: str) -> frozenset[str]:
    """What a record's postposed "not" denies with no verb before it ("egg mass count not
    recorded", "parking not available"): the noun phrase before it is not asserted either.
    ("The deposit is not refundable" asserts the deposit.)"""
    toks = _words_of(text)
    out: set[str] = set()
    for i, tok in enumerate(toks):
        if tok != "not" or not i or not toks[i - 1][0].isalnum() or toks[i - 1] in _FUNCTION:
            continue
        phrase = list(itertools.takewhile(lambda t: t[0].isalnum(), reversed(toks[:i])))[:_BEFORE_NOT + 1]
        if any(t in _FUNCTION or t in _COPULAS for t in phrase) or len(phrase) > _BEFORE_NOT:
            continue  # a verb or an article before it: a sentence, not a record's cell
        out.update(stem(t) for t in phrase)
    return frozenset(out)


def contradicts(claim: str, evidence: str, shared_words: int = _SHARED,
                sentence: frozenset[str] = frozenset()) -> str:
    """The stem one text negates that the other asserts (``""`` when none): "flood is
    covered" against "we do not cover flood" gives ``cover``. The two must also share two
    other content words, so that they speak of the same thing; the claim's may come from
    the rest of its ``sentence`` (stems): "it's on the 3rd floor but the building has an
    elevator" against "3rd floor, no elevator"."""
    if _other_side(claim, evidence) or _then_and_now(claim, evidence) or _both_only_after(claim, evidence):
        return ""
    mine, theirs = word_stems(claim) | sentence, word_stems(evidence)
    shared = mine & theirs
    # A rule the evidence gives only on a condition ("refunded only when the charger
    # faulted") is denied outside it: the claim's "can't refund" is that other case.
    pairs = ((claim, evidence, theirs), (evidence, claim, mine))
    for a, b, b_said in pairs[1:] if _GATE.search(evidence) else pairs:
        bare, scoped = _negations(a)
        b_singles, b_phrases = negation_scope(b)
        b_negated = set(b_singles).union(*b_phrases) if b_phrases else set(b_singles)
        # "yet" only ever marks a negation's aspect ("hasn't been allocated yet"): no fact.
        b_positive = (word_stems(b) | _polar(_words_of(b))[0]) - b_negated - _either_way(b) - _examples_only(b) \
            - _not_yet(b) - {"yet"} - _denied_before(b)
        either = _either_way(a)
        # Singles first, then phrases; a qualified one only where the other text states
        # its case too, and not the case on the other side of a limit.
        b_qualifiers = _qualifiers(b)
        # (stems, how denied): "implied" by a polar word or a prefix, a "single" word after
        # "not", a "phrase" after "no".
        implied = _polar(_words_of(a))[1]
        negated = [(frozenset({s}), "implied" if s in implied else "prefix") for s in bare] + [
            (stems, "single" if single else "phrase") for single, stems, qualifier in sorted(scoped, key=lambda n: not n[0])
            if not qualifier or ({x for _, x in qualifier} & b_said and not any(
                (other, x) in b_qualifiers for prep, x in qualifier
                for other in _COMPLEMENT.get(prep, ())))]
        for stems, how in negated:
            # A polar word implies the denial ("registered separately"): it is read against
            # a clause of the same thing, two shared words, as a clause the claim does not
            # plainly restate needs.
            need = max(shared_words, _SHARED) if how == "implied" else shared_words
            if stems <= b_positive and not stems <= either and len(shared - stems) >= need \
                    and not ((how == "single" or a is claim) and _asserted_too(a, stems, scoped)):
                return " ".join(sorted(stems))
    return ""


def _asserted_too(text: str, stems: frozenset[str], scopes: Sequence[_Negated]) -> bool:
    """The text says a word a "not" negates again outside any negation ("Can't make the new
    date: within 10 days of the new date being published, …"): the negator denies a verb it
    skipped ("make"), not that word, which the text itself asserts. A claim that says a
    thing and its lack ("$150 exit fee" for one plan, "no exit fee" for another) speaks of
    cases, each against its own record. ``scopes``: what the text's negators negate
    (``_negations``), read once by the caller."""
    toks = [_attribute(t) for t in _words_of(text) if t[0].isalnum()]
    return all(toks.count(s) > max(1, sum(s in words for _, words, _ in scopes)) for s in stems)


_HEDGE = re.compile(
    r"\b(?:might|possibly|perhaps|maybe|probably|likely|unlikely|i think|i believe|"
    r"i guess|i suspect|it seems|seems to|appears? to|not sure|unsure|not certain|uncertain|"
    r"unclear|i'm not|as far as i know|if i recall|typically|usually|generally|in general|"
    r"often|tends? to|i would (?:guess|estimate)|my understanding|presumably|"
    r"it depends|depending on|check with|verify|confirm with|"
    # "consult your GP" advises; "your consult on 9 December" is an appointment.
    r"(?<!\byour )(?<!\bthe )(?<!\ba )(?<!\bmy )(?<!\bour )consult)\b"
)
# What the material is: "included", "provided", "covers" say that it lacks something only
# with the material as their subject or place ("the page doesn't include prices"); said of
# a thing ("breakfast is not included", "the plan does not cover dental") they state a fact.
_MATERIAL = (r"(?:documents?|docs|context|information|info|sources?|data|page|article|records?|"
             r"details|faq|results?|text|material|excerpts?|passages?|notes|files?|manual|"
             r"guide|website|site|output|snippets?|listing)")
_REFUSAL = re.compile(
    r"\b(?:i (?:don't|do not|can't|cannot|couldn't|could not) (?:know|find|say|tell|determine|"
    r"confirm|answer|see|locate|access|verify)|(?:is|are|was|were)n't (?:mentioned|stated|"
    r"specified|listed|given)|(?:is|are|was|were) not (?:mentioned|stated|specified|listed|"
    r"given|clear)|no (?:information|data|details|record|mention)|"
    r"not (?:in|part of) the (?:provided|given|available)|"
    r"(?:does|do|did) not (?:say|mention|specify|state)|"
    r"(?:doesn't|don't|didn't) (?:say|mention|specify|state)|"
    rf"{_MATERIAL}(?: \w+)? (?:(?:does|do|did)(?: not|n't) (?:include|cover|contain|provide|"
    r"list|show)|(?:is|are|was|were)(?: not|n't) (?:provided|included|available))|"
    rf"(?:not|\w+n't) (?:provided|included|available|covered) (?:in|by) (?:the|your|this)(?: \w+)? {_MATERIAL}|"
    r"unable to (?:find|determine|confirm|answer|verify|locate)|i'm not able|i am not able|"
    r"not enough information|insufficient information|can't be determined|cannot be determined|"
    r"i have no|i do not have|i don't have|beyond what|outside (?:of )?what)\b"
)
_ADVICE = re.compile(
    r"^(?:please|try|make sure|consider|remember|note that|feel free|let me know|you (?:can|"
    r"could|should|may|might|will want)|we (?:recommend|suggest)|i (?:recommend|suggest)|"
    r"it(?:'s| is) (?:a good idea|best|worth|important|recommended)|(?:best|better) to|"
    r"ask|if your?|for (?:more|"
    r"further)|hope|thanks|thank you|good luck|happy to|glad to|always|don't forget|"
    r"contact|reach out|see|check|keep)\b"
)


def is_hedged(text: str) -> bool:
    """The claim is offered as a guess, a tendency or with a caveat, not stated as fact."""
    return bool(_HEDGE.search(_plain(text).lower()))


def is_refusal(text: str) -> bool:
    """The claim says the answer is not known or not in the material."""
    return bool(_REFUSAL.search(_plain(text).lower()))


# "Version Control: keep track of …", "Document the Process: if your team …": a bullet's
# title-cased heading (two to four words and a colon) names the advice that follows it;
# "Good news: you can …" is no heading.
_HEADING = re.compile(r"^[A-Z][\w'-]*(?:\s+(?:[A-Z][\w'-]*|[a-z]{1,3})){1,3}:\s+(?=\S)")


# A handover's to-do under its addressee ("Night shift: check SB-8812 result and finish the
# firewall review"): a task set, whatever case the label is written in.
_TO_DO = re.compile(r"^[A-Z][\w'-]*(?:\s+[\w'-]+){0,2}:\s+(?:check|confirm|verify|finish|follow up|monitor|"
                    r"watch|chase|escalate|re-?run)\b")


def is_generic_advice(text: str) -> bool:
    """An instruction, a pleasantry or advice: it asserts nothing about the world."""
    plain = _plain(text).lstrip("\"'( ")
    return any(_ADVICE.search(t.lower()) for t in (plain, _HEADING.sub("", plain))) or bool(_TO_DO.match(plain))


# --- promises ------------------------------------------------------------------------

_PROMISE = re.compile(
    r"\b(?:i'll|i will|i'm going to|i am going to|we'll|we will|let me|i'll be|i can (?:look|"
    r"check)|i'm (?:looking|checking|working|investigating)|i am (?:looking|checking|working)|"
    r"will (?:get back|follow up|look into|check|send|update|let you know|circle back|"
    r"investigate|review|reach out)|working on it|looking into (?:it|this|that)|"
    r"get back to you|in (?:a|the) (?:moment|bit|while)|shortly|asap|as soon as|stay tuned|"
    r"once i (?:have|get|hear)|bear with me|give me (?:a|some))\b"
)
_DONE = re.compile(
    r"\b(?:i(?:'ve| have) (?:\w+ed|sent|made|done|found|put|set|built|written|run|got|taken)|"
    r"here (?:is|are)|here's|below is|attached|(?:is|are|was|were|has been|have been) "
    r"(?:\w+ed|done|sent|made|set|built|written)|(?<!it's )(?<!it is )(?<!is )done|completed|"
    r"finished|successfully|"
    r"the (?:answer|result|total|fix|cause|reason) (?:is|was)|i found|found that|"
    r"[=:]\s*\S)"
)


def promises_only(text: str, given: str = "") -> bool:
    """The text promises work it does not show: "I'll look into it", "let me check". A
    number it only repeats from ``given`` (the request) shows nothing."""
    plain = _plain(text).lower()
    if not _PROMISE.search(plain):
        return False
    known = {q.value for q in _quantities(given)}
    return not _DONE.search(plain) and all(q.value in known for q in _quantities(text))


# --- requests ------------------------------------------------------------------------

_PART_SPLIT = re.compile(
    r"(?:\?+\s*|\n+|;\s+|(?<=\.)\s+|\s+(?=\d[.)]\s)|,?\s+(?:and also|and then|as well as|plus|also)\s+)",
    re.IGNORECASE,
)
# Verbs that start a new part when a comma or an "and" comes before them ("change the
# address, add gift wrap, and tell me the date"; "find a hotel and book the cheapest").
_PART_VERBS = (
    "what|how|when|where|why|who|which|whether|is|are|can|could|do|does|please|tell|give|send|"
    "list|explain|show|check|confirm|update|book|cancel|find|add|change|remove|delete|create|"
    "set|reset|move|transfer|refund|schedule|reschedule|compare|recommend|calculate|summari[sz]e|"
    "translate|write|draft|fix|apply|open|close|email|call|order|pay|mark|submit|file|let"
)
# A part asks for something; a statement between questions is background to them.
_ASKS = re.compile(rf"^(?:(?:and|also|then|so|but|ok|okay|now)\s+)?(?:{_PART_VERBS})\b|\b(?:can|could|would|will)"
                   r" you\b|\bplease\b|\bi (?:need|want|would like|'d like)\b|\b(?:tell|show|give) me\b|"
                   r"\blet me know\b|\bneed to know\b", re.IGNORECASE)
_VERB_SPLIT = re.compile(rf",?\s+and\s+(?=(?:{_PART_VERBS})\b)|,\s+(?=(?:{_PART_VERBS})\b)",
                         re.IGNORECASE)
_LIST = re.compile(r"^(?P<head>.*?\b(?:me|us|the|on|about|for|of)\s+)(?P<items>[^,]{1,40}(?:,\s+[^,]{1,40})+"
                   r",?\s+and\s+[^,]{1,40})$", re.IGNORECASE)


# Two numbers to three decimals or more joined by a comma ("51.5072, -0.1276"): one
# point's coordinates, not two items.
_COORDINATES = re.compile(r"(?<![\d.])([-+\u2212]?\d{1,3}\.\d{3,}),\s+(?=[-+\u2212]?\d{1,3}\.\d{3,}(?![\d.]))")


def _split_list(piece: str) -> list[str]:
    """ "give me the timeline, the root cause, and the action items" is three parts; each
    item is kept on its own ("the root cause"), since the shared head says nothing."""
    m = _LIST.match(_COORDINATES.sub(r"\1,", piece))
    if not m:
        return [piece]
    items = [i for i in re.split(r",?\s+and\s+|,\s+", m.group("items")) if i.strip()]
    return [f"{m.group('head')}{items[0]}", *items[1:]]


def request_parts(text: str) -> list[str]:
    """The parts of a multi-part request: numbered or bulleted items, several questions or
    sentences, a list of things, verbs joined by "and" or commas. A short lead-in before a
    colon ("I need three things:") opens the part after it; a part of fewer than two content
    words (not a list item) is folded into the one before."""
    lines = [ln for ln in _plain(text).splitlines() if ln.strip()]
    items = [_BULLET.sub("", ln).strip() for ln in lines if _BULLET.match(ln)]
    if len(items) >= 2:
        return items
    parts: list[str] = []
    lead = ""
    for piece in re.split(r"(?<=:)\s+", _plain(text)):
        if piece.endswith(":") and len(piece.split()) <= 6:
            lead = f"{lead}{piece} "
            continue
        for chunk in _PART_SPLIT.split(piece):
            listed = _split_list(chunk.strip(" ,.?!:"))
            subs = listed if len(listed) > 1 else _VERB_SPLIT.split(listed[0])
            for item in subs:
                item = _BULLET.sub("", item.strip(" ,.?!:")).strip()
                if not item:
                    continue
                is_item = len(listed) > 1
                asks = is_item or bool(_ASKS.search(item))
                if lead and asks:
                    item, lead = f"{lead}{item}", ""
                if not asks and not parts:
                    lead = f"{item}. "  # background before the first question
                elif parts and (not asks or (not is_item and len(word_stems(item)) < 2)):
                    parts[-1] = f"{parts[-1]} {item}"
                else:
                    parts.append(item)
    if lead and parts:
        parts[-1] = f"{parts[-1]} {lead}"
    elif lead:
        parts.append(lead.strip(" ."))
    return parts
