"""Judges by name: ``make_backend("jev", model=...)`` for the CLI and the bench.

Each backend is imported only when asked for, so ``local`` (which needs the ``local``
extra) and ``deepeval`` (the ``deepeval`` extra, about a second to import) cost nothing
to the others. ``oracle`` is not here: it needs each trace's family
label, so the bench builds it per row (:mod:`semloop.benchmark.oracle`).
"""

from __future__ import annotations

import importlib
import inspect
import os
from collections.abc import Mapping
from typing import Any

from .._exceptions import ConfigError
from ._types import Backend

__all__ = ["BACKENDS", "default_judge", "make_backend"]

#: name -> "module:class", imported lazily.
BACKENDS: dict[str, str] = {
    "deepeval": "semloop.judge.deepeval:DeepEvalBackend",
    "jev": "semloop.judge.jev:JevBackend",
    "llm": "semloop.judge.llm:LLMJudgeBackend",
    "local": "semloop.judge.local:LocalBackend",
    "mock": "semloop.judge.mock:MockBackend",
}


def default_judge(environ: Mapping[str, str] | None = None) -> str:
    """The judge workers use when none is named: a configured hosted judge, else ``local``.

    ``TYPESAFE_API_KEY`` selects ``jev``; otherwise the embedded judge, which needs no key.
    An OpenAI key alone does not select ``llm``: it is often set for other tools, and an
    LLM judge's cost should be chosen, not inherited.
    """
    env = os.environ if environ is None else environ
    return "jev" if env.get("TYPESAFE_API_KEY") else "local"


def make_backend(name: str, **options: Any) -> Backend:
    """A backend by name. Options that are ``None`` are left to the backend's defaults;
    an option the backend does not take is a :class:`ConfigError` naming it."""
    target = BACKENDS.get(name)
    if target is None:
        raise ConfigError(f"unknown judge {name!r}; known: {sorted(BACKENDS)}", key="judge")
    module_name, class_name = target.split(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    given = {k: v for k, v in options.items() if v is not None}
    params = inspect.signature(cls).parameters
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())
    unknown = sorted(k for k in given if k not in params)
    if unknown and not takes_any:
        raise ConfigError(
            f"judge {name!r} does not take option(s) {', '.join(unknown)}", key=unknown[0]
        )
    backend: Backend = cls(**given)
    return backend
