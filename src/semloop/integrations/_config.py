"""``integrations.yml``: which providers each org pulls from, and with which credentials.

```yaml
integrations:
  - org_id: org_1a2b
    provider: langfuse            # langfuse | langsmith | braintrust
    base_url: https://cloud.langfuse.com
    public_key: pk-lf-...
    secret_key_env: LANGFUSE_SECRET_KEY   # or secret_key: (in the file)
  - org_id: org_1a2b
    provider: braintrust
    base_url: https://api.braintrust.dev
    api_key_env: BRAINTRUST_API_KEY
    project_id: 7f3c...
```

A secret is read from the environment variable ``<key>_env`` names, or from ``<key>`` in
the file. Every error names the file and the key (``integrations[1].project_id``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .._config import read_yaml
from .._exceptions import ConfigError

__all__ = ["PROVIDERS", "Integration", "integrations_from_dict", "load_integrations"]

#: Provider -> (secrets it needs, other keys it needs, optional keys).
PROVIDERS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    "langfuse": (("secret_key",), ("public_key",), ()),
    "langsmith": (("api_key",), (), ("project_id",)),
    "braintrust": (("api_key",), ("project_id",), ()),
}
_COMMON = ("org_id", "provider", "base_url")
_OPTIONAL = ("name", "page_size", "timeout_s")


@dataclass(frozen=True)
class Integration:
    """One org's pull from one provider. ``name`` (default: the provider) keys its cursor."""

    org_id: str
    provider: str
    base_url: str
    credentials: Mapping[str, str]
    name: str = ""
    project_id: str | None = None
    page_size: int = 100
    timeout_s: float = 10.0

    @property
    def key(self) -> str:
        return self.name or self.provider


def load_integrations(path: str | Path, environ: Mapping[str, str] | None = None,
                      ) -> list[Integration]:
    """Read and validate ``integrations.yml``."""
    return integrations_from_dict(read_yaml(path, "reading integrations.yml"),
                                  source=str(path), environ=environ)


def integrations_from_dict(data: Any, *, source: str = "<config>",
                           environ: Mapping[str, str] | None = None) -> list[Integration]:
    env = os.environ if environ is None else environ
    if not isinstance(data, Mapping) or set(data) != {"integrations"}:
        raise ConfigError("the file must hold one key, integrations: a list", source=source)
    items = data["integrations"]
    if not isinstance(items, Sequence) or isinstance(items, (str, bytes)):
        raise ConfigError("must be a list", key="integrations", source=source)
    found = [_integration(item, f"integrations[{i}]", source, env)
             for i, item in enumerate(items)]
    seen: set[tuple[str, str]] = set()
    for i, integration in enumerate(found):
        pair = (integration.org_id, integration.key)
        if pair in seen:
            raise ConfigError(f"a second {integration.key!r} for org {integration.org_id!r}; "
                              "give one a distinct name", key=f"integrations[{i}].name",
                              source=source)
        seen.add(pair)
    return found


def _integration(item: Any, at: str, source: str, env: Mapping[str, str]) -> Integration:
    if not isinstance(item, Mapping):
        raise ConfigError(f"must be a mapping, not {type(item).__name__}", key=at, source=source)
    provider = str(item.get("provider"))
    if provider not in PROVIDERS:
        raise ConfigError(f"must be one of {', '.join(PROVIDERS)}, not {item.get('provider')!r}",
                          key=f"{at}.provider", source=source)
    secrets, required, optional = PROVIDERS[provider]
    known = {*_COMMON, *_OPTIONAL, *required, *optional, *secrets,
             *(f"{s}_env" for s in secrets)}
    for key in item:
        if key not in known:
            raise ConfigError(f"unknown key for {provider} (known: {', '.join(sorted(known))})",
                              key=f"{at}.{key}", source=source)
    for key in (*_COMMON, *required, *optional, "name"):
        value = item.get(key)
        if value is None and key not in optional and key != "name":
            raise ConfigError(f"required for {provider}", key=f"{at}.{key}", source=source)
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise ConfigError(f"must be a non-empty string, not {value!r}", key=f"{at}.{key}",
                              source=source)
    if not str(item["base_url"]).startswith(("http://", "https://")):
        raise ConfigError(f"must be an http:// or https:// URL, not {item['base_url']!r}",
                          key=f"{at}.base_url", source=source)
    credentials = {key: item[key] for key in required if key != "project_id"}
    for secret in secrets:
        credentials[secret] = _secret(item, secret, at, source, env)
    page_size = item.get("page_size", 100)
    if isinstance(page_size, bool) or not isinstance(page_size, int) or not 1 <= page_size <= 100:
        raise ConfigError(f"must be a whole number from 1 to 100, not {page_size!r}",
                          key=f"{at}.page_size", source=source)
    timeout = item.get("timeout_s", 10.0)
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0:
        raise ConfigError(f"must be a positive number of seconds, not {timeout!r}",
                          key=f"{at}.timeout_s", source=source)
    return Integration(org_id=item["org_id"], provider=provider,
                       base_url=item["base_url"].rstrip("/"), credentials=credentials,
                       name=item.get("name") or "", project_id=item.get("project_id"),
                       page_size=page_size, timeout_s=float(timeout))


def _secret(item: Mapping[str, Any], secret: str, at: str, source: str,
            env: Mapping[str, str]) -> str:
    named: Any = item.get(f"{secret}_env")
    if named is not None and secret in item:
        raise ConfigError(f"give {secret} or {secret}_env, not both", key=f"{at}.{secret}",
                          source=source)
    if named is not None:
        from_env = env.get(str(named), "")
        if not from_env:
            raise ConfigError(f"the environment variable {named!r} is not set",
                              key=f"{at}.{secret}_env", source=source)
        return from_env
    value: Any = item.get(secret)
    if not isinstance(value, str) or not value:
        raise ConfigError(f"required for {item['provider']} (or {secret}_env)",
                          key=f"{at}.{secret}", source=source)
    return value
