"""Packages keep their private modules to themselves and never import each other in a circle.

A *package* is a first-level name under ``semloop``: a subpackage (``api``, ``store``,
``judge`` with ``judge.local`` inside it, ...) or a root-level module (``events``,
``trace``, ...); ``semloop/__init__.py`` itself is the package ``semloop``.

- Privacy: no module may import ``semloop.<other>._x`` (or a ``_name`` of another
  package). Root-level private modules (``semloop._exceptions``, ``semloop._config``,
  ...) are shared infrastructure, open to everyone.
- Cycles: no two packages may import each other, directly or through others. Imports
  inside functions count (they run, only later); imports under ``if TYPE_CHECKING:`` are
  exempt from this rule, as they never run, but not from the privacy rule.

Read from the source with :mod:`ast`, so nothing is imported to check it.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from pathlib import Path

import pytest

SRC = Path(__file__).parents[1] / "src" / "semloop"


@dataclass(frozen=True)
class Import:
    source: str  # the importing module, dotted
    target: tuple[str, ...]  # the imported module or name, as path parts from "semloop"
    line: int
    type_checking: bool

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line} imports {'.'.join(self.target)}"


def _module_parts(path: Path, root: Path) -> tuple[str, ...]:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return parts[:-1] if parts[-1] == "__init__" else parts


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


@functools.cache  # three tests read the same source tree: parse it once per session
def imports_of(root: Path) -> tuple[Import, ...]:
    """Every import of a ``semloop`` module or name in the package at ``root``."""
    found: list[Import] = []
    for path in sorted(root.rglob("*.py")):
        me = _module_parts(path, root)
        here = me if path.name == "__init__.py" else me[:-1]  # what "." means

        def visit(node: ast.AST, guarded: bool, me: tuple[str, ...] = me,
                  here: tuple[str, ...] = here) -> None:
            if isinstance(node, ast.If) and _is_type_checking(node.test):
                for child in node.body:
                    visit(child, True)
                for child in node.orelse:
                    visit(child, guarded)
                return
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                if isinstance(node, ast.Import):
                    targets = [tuple(alias.name.split(".")) for alias in node.names]
                else:
                    base = here[:len(here) - node.level + 1] if node.level else ()
                    module = base + (tuple(node.module.split(".")) if node.module else ())
                    # "from pkg import x": x is a submodule or a name; either is the target.
                    targets = [(*module, alias.name) for alias in node.names]
                found.extend(Import(".".join(me), target, node.lineno, guarded)
                             for target in targets if target[0] == "semloop")
            for inner in ast.iter_child_nodes(node):
                visit(inner, guarded)

        visit(ast.parse(path.read_text(encoding="utf-8"), str(path)), False)
    return tuple(found)


def _first_level(root: Path) -> set[str]:
    return {p.stem for p in root.glob("*.py") if p.stem != "__init__"} | {
        p.name for p in root.iterdir() if (p / "__init__.py").exists()}


def _package(parts: tuple[str, ...], first_level: set[str]) -> str:
    # semloop.x.… is package x when x is a module or subpackage; else a name of semloop.
    return parts[1] if len(parts) > 1 and parts[1] in first_level else "semloop"


def private_imports(root: Path) -> list[str]:
    """Imports of another package's private module or name."""
    first = _first_level(root)
    bad = []
    for imp in imports_of(root):
        source = tuple(imp.source.split("."))
        mine, theirs = _package(source, first), _package(imp.target, first)
        if theirs == mine or theirs.startswith("_"):
            continue
        rest = imp.target[2:] if theirs != "semloop" else imp.target[1:]
        if any(part.startswith("_") and not part.startswith("__") for part in rest):
            bad.append(imp.where)
    return bad


def package_cycles(root: Path) -> list[list[str]]:
    """Each set of packages that import one another in a circle, with the imports."""
    first = _first_level(root)
    edges: dict[str, dict[str, list[str]]] = {}
    for imp in imports_of(root):
        if imp.type_checking:
            continue
        mine = _package(tuple(imp.source.split(".")), first)
        theirs = _package(imp.target, first)
        if mine != theirs:
            edges.setdefault(mine, {}).setdefault(theirs, []).append(imp.where)
    cycles = []
    for group in _strongly_connected(edges):
        if len(group) > 1:
            cycles.append(sorted(w for a in group for b, ws in edges.get(a, {}).items()
                                 if b in group for w in ws))
    return cycles


def _strongly_connected(edges: dict[str, dict[str, list[str]]]) -> list[set[str]]:
    # Tarjan's algorithm; the graph has a few dozen nodes, so recursion is fine.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in edges.get(node, {}):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == node:
                    break
            groups.append(group)

    for node in sorted({*edges, *(b for bs in edges.values() for b in bs)}):
        if node not in index:
            connect(node)
    return groups


def test_no_package_imports_another_packages_private_module() -> None:
    assert private_imports(SRC) == []


def test_no_import_cycle_between_packages() -> None:
    assert package_cycles(SRC) == []


def test_the_scan_sees_the_imports_it_checks() -> None:
    # A scan that found nothing would pass both tests above.
    seen = {(i.source, i.target) for i in imports_of(SRC)}
    assert ("semloop.api.ingest", ("semloop", "ingest", "batch", "validate_batch")) in seen
    assert ("semloop.cli.up", ("semloop", "api", "create_app")) in seen  # inside a function


@pytest.fixture
def fake(tmp_path: Path) -> Path:
    root = tmp_path / "semloop"
    for name, text in {
        "__init__.py": "",
        "_shared.py": "",
        "events.py": "",
        "trace.py": "from .b._hidden import z\n",
        "a/__init__.py": "from ..b import public\n",
        "a/_inner.py": "from semloop._shared import x\nfrom .. import events\n",
        "b/__init__.py": "public = 1\n",
        "b/_hidden.py": "",
        "b/user.py": ("from typing import TYPE_CHECKING\n"
                      "if TYPE_CHECKING:\n    from ..c import T\n"
                      "def later():\n    from ..a._inner import y\n"),
        "c/__init__.py": "from semloop.b import _hidden\n",
    }.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


def test_the_rules_on_a_made_up_package(fake: Path) -> None:
    assert private_imports(fake) == [
        "semloop.b.user:5 imports semloop.a._inner.y",
        "semloop.c:1 imports semloop.b._hidden",
        "semloop.trace:1 imports semloop.b._hidden.z",
    ]
    # a -> b at import time, b -> a inside a function: a cycle. b -> c is TYPE_CHECKING
    # only, so c -> b closes none.
    assert package_cycles(fake) == [[
        "semloop.a:1 imports semloop.b.public",
        "semloop.b.user:5 imports semloop.a._inner.y",
    ]]
