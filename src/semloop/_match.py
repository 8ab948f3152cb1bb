"""Dunetrace's policy ``match`` expressions: parsed once, evaluated without ``eval``.

A *block* is a mapping whose entries must all hold:

- ``"<prefix>.<path>": {<operator>: <value>, ...}`` tests the field at that dotted path;
  several operators on one field must all hold (a range: ``{"gt": 10, "lt": 100}``);
- ``"and": [<block>, ...]`` holds when every block does, ``"or": [...]`` when any does.

Prefixes: ``args`` (the tool call's arguments), ``run``, ``event``, and ``agent`` and
``org`` (accepted, never present, as in Dunetrace's SDK). Blocks nest at most
:data:`MAX_DEPTH` deep, the top block counting as one. Parsing rejects anything else with
a :class:`MatchError` naming where, so a bad policy fails when it is stored or registered,
never while an agent runs.

Evaluation is a walk over mappings and a fixed table of comparisons (Dunetrace's rules):

- a missing field fails every operator but ``not_exists`` (``exists`` is its opposite);
- ``eq``/``ne``: equal values, where a number equals the same number written as a string,
  a boolean equals only a boolean, and a list equals the same items in the same order;
- ``gt gte lt lte``: a number and a numeric string compare as numbers; values Python
  cannot order (a string and a number) are false;
- ``in``/``not_in``: the field is (is not) ``eq`` to some listed value; ``contains``: a
  string field holds the substring, a list field holds an ``eq`` item;
- ``starts_with``/``ends_with``/``matches``: string fields only; ``matches`` is
  :func:`re.search`. Python's ``re`` has no time limit, so patterns that nest unbounded
  repeats (``(a+)+``, the catastrophic-backtracking shape) are refused when parsed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "MAX_DEPTH",
    "OPERATORS",
    "PREFIXES",
    "AllOf",
    "AnyOf",
    "MatchError",
    "Node",
    "Test",
    "evaluate",
    "parse_match",
]

PREFIXES = ("args", "run", "event", "agent", "org")
OPERATORS = ("eq", "ne", "gt", "gte", "lt", "lte", "in", "not_in", "contains",
             "starts_with", "ends_with", "matches", "exists", "not_exists")
#: The flat conditions' spelling of ``ne``, accepted here too.
ALIASES = {"neq": "ne"}
MAX_DEPTH = 3

_PRESENCE = frozenset({"exists", "not_exists"})
_MISSING: Any = object()


class MatchError(ValueError):
    """A malformed ``match`` block; ``where`` is the path to the fault (``match.or[1]``)."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


@dataclass(frozen=True)
class Test:
    """``field`` ``operator`` ``value``; ``path`` is ``field`` split at the dots."""

    field: str
    path: tuple[str, ...]
    operator: str
    value: Any


@dataclass(frozen=True)
class AllOf:
    parts: tuple[Node, ...]


@dataclass(frozen=True)
class AnyOf:
    parts: tuple[Node, ...]


Node = Test | AllOf | AnyOf


# -- parsing ---------------------------------------------------------------------------------


def parse_match(raw: Any, where: str = "match") -> Node:
    """The expression tree of a ``match`` block; raises :class:`MatchError`."""
    return _block(raw, where, 1)


def _block(raw: Any, where: str, depth: int) -> Node:
    if depth > MAX_DEPTH:
        raise MatchError(where, f"blocks nest at most {MAX_DEPTH} deep")
    if not isinstance(raw, Mapping) or not raw:
        raise MatchError(where, "must be a non-empty object of field tests, 'and' or 'or'")
    parts: list[Node] = []
    for key, value in raw.items():
        if not isinstance(key, str):
            raise MatchError(where, f"keys must be strings, not {key!r}")
        if key in ("and", "or"):
            if not isinstance(value, list) or not value:
                raise MatchError(f"{where}.{key}", "must be a non-empty list of blocks")
            blocks = tuple(_block(b, f"{where}.{key}[{i}]", depth + 1)
                           for i, b in enumerate(value))
            parts.append(AllOf(blocks) if key == "and" else AnyOf(blocks))
        else:
            parts.extend(_tests(key, value, f"{where}.{key}"))
    return parts[0] if len(parts) == 1 else AllOf(tuple(parts))


def _tests(field: str, raw: Any, where: str) -> list[Test]:
    prefix, _, rest = field.partition(".")
    if prefix not in PREFIXES or not rest:
        raise MatchError(where, f"a field is '<prefix>.<path>' with a prefix among "
                         f"{', '.join(PREFIXES)}, or the key is 'and' or 'or'")
    path = tuple(field.split("."))
    if "" in path:
        raise MatchError(where, "a field path has no empty segment")
    if not isinstance(raw, Mapping) or not raw:
        raise MatchError(where, "must be an object of operator to value, e.g. {\"gt\": 10}")
    tests = []
    for op, value in raw.items():
        operator = ALIASES.get(op, op) if isinstance(op, str) else op
        if operator not in OPERATORS:
            raise MatchError(f"{where}.{op}", f"unknown operator (known: "
                             f"{', '.join(OPERATORS)}, and neq for ne)")
        tests.append(Test(field, path, operator, _value(operator, value, f"{where}.{op}")))
    return tests


def _value(operator: str, value: Any, where: str) -> Any:
    if operator in _PRESENCE:
        return None  # presence tests take no value; whatever was given is ignored
    if operator in ("in", "not_in"):
        if not isinstance(value, list):
            raise MatchError(where, "takes a list of values")
        return tuple(value)
    if operator in ("starts_with", "ends_with", "matches") and not isinstance(value, str):
        raise MatchError(where, "takes a string")
    if operator == "matches":
        try:
            re.compile(value)
        except re.error as exc:
            raise MatchError(where, f"not a regular expression: {exc}") from None
        if _nests_repeats(value):
            raise MatchError(where, "a repeated group that itself repeats can take "
                             "exponential time; rewrite it without the nesting")
    return tuple(value) if isinstance(value, list) else value


def _nests_repeats(pattern: str) -> bool:
    """True when a group holding an unbounded repeat (or an alternation) is repeated
    without bound: ``(a+)+``, ``(\\w+\\s?)*``, ``(a|aa)+``."""
    stack: list[bool] = []  # per open group: holds a repeat or an alternation
    risky_group = False  # the group just closed, awaiting a quantifier
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        unbounded = c in "*+" or (c == "{" and _open_brace(pattern, i))
        if unbounded:
            if risky_group:
                return True
            if stack:
                stack[-1] = True
        risky_group = False
        if c == "\\":
            i += 2
            continue
        if c == "[":
            i = _class_end(pattern, i)
        elif c == "(":
            stack.append(False)
        elif c == ")" and stack:
            risky_group = stack.pop()
            if risky_group and stack:
                stack[-1] = True
        elif c == "|" and stack:
            stack[-1] = True
        i += 1
    return False


def _open_brace(pattern: str, i: int) -> bool:
    """``{m,}`` or ``{m,n}`` with n > 1 at ``i``: a repeat that can take many."""
    m = re.match(r"\{(\d*)(,(\d*))?\}", pattern[i:])
    if m is None:
        return False
    if m.group(2) is None:
        return int(m.group(1) or 0) > 1
    return not m.group(3) or int(m.group(3)) > 1


def _class_end(pattern: str, i: int) -> int:
    """The index of the ``]`` closing the character class opened at ``i``."""
    j = i + 1
    if j < len(pattern) and pattern[j] == "^":
        j += 1
    if j < len(pattern) and pattern[j] == "]":
        j += 1  # a leading ] is a literal
    while j < len(pattern) and pattern[j] != "]":
        j += 2 if pattern[j] == "\\" else 1
    return j


# -- evaluation ------------------------------------------------------------------------------


def evaluate(node: Node, fields: Mapping[str, Any],
             checks: list[dict[str, Any]] | None = None) -> bool:
    """Whether ``node`` holds over ``fields`` (``{"args": {...}, "run": {...}, ...}``).

    With ``checks``, every test is run (no short cut) and appended to it as Dunetrace's
    ``policy.evaluated`` records them: ``field_path, operator, expected, actual, result,
    present``.
    """
    if isinstance(node, Test):
        actual = _resolve(fields, node.path)
        result = _holds(node, actual)
        if checks is not None:
            present = actual is not _MISSING
            checks.append({"field_path": node.field, "operator": node.operator,
                           "expected": None if node.operator in _PRESENCE else node.value,
                           "actual": actual if present else "<absent>", "result": result,
                           "present": present})
        return result
    results: Iterable[bool] = (evaluate(part, fields, checks) for part in node.parts)
    if checks is not None:
        results = list(results)  # run every test, for a complete record
    return all(results) if isinstance(node, AllOf) else any(results)


def _resolve(fields: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    value: Any = fields
    for key in path:
        if not isinstance(value, Mapping) or key not in value:
            return _MISSING
        value = value[key]
    return value


def _holds(test: Test, actual: Any) -> bool:
    op = test.operator
    if op == "exists":
        return actual is not _MISSING
    if op == "not_exists":
        return actual is _MISSING
    if actual is _MISSING:
        return False
    if op == "matches":
        return isinstance(actual, str) and re.search(test.value, actual) is not None
    return _COMPARE[op](actual, test.value)


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _as_numbers(a: Any, b: Any) -> tuple[Any, Any]:
    """A number and a numeric string become two numbers; anything else is unchanged."""
    try:
        if _number(a) and isinstance(b, str):
            return a, float(b)
        if _number(b) and isinstance(a, str):
            return float(a), b
    except ValueError:
        pass
    return a, b


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return list(a) == list(b)
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    a, b = _as_numbers(a, b)
    return bool(a == b)


def _ordered(compare: Callable[[Any, Any], bool]) -> Callable[[Any, Any], bool]:
    def test(a: Any, b: Any) -> bool:
        a, b = _as_numbers(a, b)
        try:
            return compare(a, b)
        except TypeError:  # values Python cannot order (a string and a number...)
            return False
    return test


def _contains(a: Any, b: Any) -> bool:
    if isinstance(a, str):
        return isinstance(b, str) and b in a
    if isinstance(a, (list, tuple)):
        return any(_equal(item, b) for item in a)
    return False


_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "eq": _equal,
    "ne": lambda a, b: not _equal(a, b),
    "gt": _ordered(lambda a, b: bool(a > b)),
    "gte": _ordered(lambda a, b: bool(a >= b)),
    "lt": _ordered(lambda a, b: bool(a < b)),
    "lte": _ordered(lambda a, b: bool(a <= b)),
    "in": lambda a, b: any(_equal(a, item) for item in b),
    "not_in": lambda a, b: not any(_equal(a, item) for item in b),
    "contains": _contains,
    "starts_with": lambda a, b: isinstance(a, str) and a.startswith(b),
    "ends_with": lambda a, b: isinstance(a, str) and a.endswith(b),
}
