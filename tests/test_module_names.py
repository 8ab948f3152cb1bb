"""No module binds one top-level name twice: the later binding silently replaces the earlier
for every function that reads it (the task rules once had two ``_REASON`` patterns, and the
user's reason clauses were read as parts of the request). Read with :mod:`ast`."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import pytest

SRC = Path(__file__).parents[1] / "src" / "semloop"


def _bound(tree: ast.Module) -> Counter[str]:
    names: Counter[str] = Counter()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] += 1
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] += 1
    return names


@pytest.mark.parametrize("path", sorted(SRC.rglob("*.py")), ids=lambda p: str(p.relative_to(SRC)))
def test_a_module_binds_each_top_level_name_once(path: Path) -> None:
    twice = [name for name, n in _bound(ast.parse(path.read_text())).items() if n > 1]
    assert not twice, f"{path.relative_to(SRC)} binds {twice} more than once"


def test_the_check_sees_a_name_bound_twice() -> None:
    assert _bound(ast.parse("_A = 1\ndef f(): pass\n_A = 2\n"))["_A"] == 2
