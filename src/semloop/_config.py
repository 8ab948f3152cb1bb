"""Reading a strict YAML config file, shared by ``detectors.yml`` and the ``alerts:`` config.

Strict means a duplicate key is an error rather than the last one silently winning, and
every failure is a :class:`ConfigError` naming the file (and line, where YAML gives one).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ._exceptions import ConfigError, MissingExtraError


def read_yaml(path: str | Path, purpose: str) -> Any:
    """The parsed contents of ``path``; ``purpose`` names the read in a missing-extra error."""
    try:
        import yaml  # type: ignore[import-untyped,unused-ignore]
    except ImportError as exc:
        raise MissingExtraError(purpose, "server", exc.name or "pyyaml") from exc
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read the file: {exc.strerror or exc}", source=source) from None

    class _Loader(yaml.SafeLoader):  # type: ignore[misc,unused-ignore]
        pass

    def _no_duplicates(loader: Any, node: Any) -> dict[Any, Any]:
        seen: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if key in seen:
                raise ConfigError(f"duplicate key {key!r} (line {key_node.start_mark.line + 1})",
                                  key=str(key), source=source)
            seen[key] = loader.construct_object(value_node, deep=True)
        return seen

    _Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _no_duplicates)
    try:
        return yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise ConfigError(f"not valid YAML{where}: {getattr(exc, 'problem', None) or exc}",
                          source=source) from None
