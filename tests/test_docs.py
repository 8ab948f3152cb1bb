"""The docs stay true: every file they name exists, and so does every ``semloop`` command.

Checked in README.md and docs/*.md: markdown links, and paths in code (a token with a
slash and a file extension, or ending in a slash); ``path::test`` must name a test in
that file. Commands: every ``semloop WORD …`` in code must be a command of the CLI, with
subcommands and ``--options`` it really has.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
import typer

from semloop.cli import app

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

_FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
_SPAN = re.compile(r"`([^`\n]+)`")
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_TOKEN = re.compile(r"[^\s`'\"()<>\[\]{},;|=]+")
_EXTENSIONS = {"py", "md", "sh", "jsonl", "json", "yml", "yaml", "png", "ini", "toml", "sql",
               "txt", "pb", "cfg"}
# Not paths of this repository: the venv, the shared reference folder beside the clone.
_ELSEWHERE = (".venv/", "../shared/")


def _as_path(token: str) -> str | None:
    """``token`` if it names a file (``a/b.py``, ``a/b.py::test``) or a folder of two
    levels or more (``tests/store/``) of the repository, else None."""
    token = token.rstrip(".:")
    if ("/" not in token or "://" in token or token.startswith(("/", "-", "$", "~"))
            or any(c in token for c in "<…{$%")):
        return None
    file, _, test = token.partition("::")
    if "*" in file or not re.fullmatch(r"\w*\*?", test):
        return None
    if file.endswith("/"):
        return token if file.rstrip("/").count("/") >= 1 else None
    return token if file.rsplit(".", 1)[-1] in _EXTENSIONS and "." in file else None


def _code(text: str) -> list[str]:
    """The code in a markdown text: fenced blocks and inline spans."""
    blocks = _FENCE.findall(text)
    rest = _FENCE.sub("", text)
    return [*blocks, *_SPAN.findall(rest)]


def _files() -> list[str]:
    # The repository's files as a fresh clone has them: no venv, caches or build output.
    skip = {".git", ".venv", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache",
            ".hypothesis", "build", "dist"}
    found = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in skip and not d.endswith(".egg-info")]
        found += [str((Path(folder) / f).relative_to(ROOT)) for f in files]
    return sorted(found)


FILES = _files()


def _exists(path: str) -> bool:
    """Whether ``path`` is a file or folder of the repository: from its root, or from a
    folder of it (docs say ``store/_dialect.py`` for ``src/semloop/store/_dialect.py``)."""
    path = path.rstrip("/")
    return any(f == path or f.endswith("/" + path) or f.startswith(path + "/")
               or ("/" + path + "/") in ("/" + f) for f in FILES)


def _named_paths(doc: Path) -> list[str]:
    text = doc.read_text(encoding="utf-8")
    prose = _SPAN.sub("", _FENCE.sub("", text))
    found = [link.split("#")[0] for link in _LINK.findall(prose)
             if "://" not in link and not link.startswith("#")]
    found += [path for code in _code(text) for token in _TOKEN.findall(code)
              if (path := _as_path(token))]
    return [p for p in found if p and not p.startswith(_ELSEWHERE)]


def _missing(doc: Path) -> list[str]:
    missing = []
    for named in _named_paths(doc):
        path, _, test = named.partition("::")
        if named.startswith("../"):
            resolved = (doc.parent / path).resolve()
            ok = resolved.exists()
        else:
            ok = _exists(path) or (doc.parent / path).exists()
        if ok and test:
            candidates = [ROOT / f for f in FILES if f == path or f.endswith("/" + path)]
            name = re.escape(test.rstrip("*")) + ("" if test.endswith("*") else r"\b")
            ok = any(re.search(rf"^\s*(?:def |class ){name}|^{name}\w*\s*[:=]", c.read_text(),
                               re.MULTILINE) for c in candidates)
        if not ok:
            missing.append(named)
    return missing


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_file_a_doc_names_exists(doc: Path) -> None:
    assert _missing(doc) == []


def _cli() -> Any:
    return typer.main.get_command(app)


# A command line: at the start of a span or line (after a prompt or a venv's bin/), or
# after a shell operator. Not prose in code ("a semloop Trace") or bench output.
_COMMAND = re.compile(r"(?:^|&&|;|\|\||\$\(|\bthen)\s*(?:\$ )?(?:\.venv/bin/)?semloop"
                      r"((?: +[a-z][^\s#;&|`)]*)(?: +[^\s#;&|`)]+)*)")


def _named_commands(doc: Path) -> list[list[str]]:
    named = []
    for code in _code(doc.read_text(encoding="utf-8")):
        for line in code.splitlines():
            for match in _COMMAND.finditer(line.strip()):
                named.append(match.group(1).split())
    return named


def _problem(words: list[str]) -> str | None:
    """What is wrong with ``semloop WORDS…`` as a command line, or None."""
    command = _cli()
    path: list[str] = []
    for word in words:
        subcommands = getattr(command, "commands", None)
        if subcommands is None or word.startswith("-"):
            break
        # "worker detector|loop|alerts" names the choices of an argument, not commands.
        if word not in subcommands:
            return f"semloop {' '.join([*path, word])}: no such command"
        path.append(word)
        command = subcommands[word]
    if getattr(command, "commands", None) is not None and path:
        return None  # a group named alone, e.g. `semloop keys`
    options = {opt for param in command.params for opt in getattr(param, "opts", [])}
    options |= {opt for param in command.params for opt in getattr(param, "secondary_opts", [])}
    options.add("--help")
    for word in words[len(path):]:
        flag = word.strip("[]").split("=", 1)[0]
        if flag.startswith("--") and flag not in options:
            return f"semloop {' '.join(path)}: no option {flag}"
    return None


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_command_a_doc_names_exists(doc: Path) -> None:
    problems = [p for words in _named_commands(doc) if (p := _problem(words))]
    assert problems == []


def test_the_checks_find_what_they_check() -> None:
    # Checks that found nothing would pass: each doc set must name paths and commands.
    readme = ROOT / "README.md"
    assert "bench/dataset.jsonl" in _named_paths(readme)
    assert ["prune", "--older-than", "30d"] in _named_commands(readme)
    assert _problem(["prune", "--older-than", "30d"]) is None
    assert _problem(["frobnicate"]) == "semloop frobnicate: no such command"
    assert _problem(["up", "--colour"]) == "semloop up: no option --colour"
    assert _problem(["keys", "create", "--org", "x"]) is None
    assert not _exists("src/semloop/worker/_loop.py") and _exists("store/_dialect.py")
