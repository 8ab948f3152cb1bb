"""Organizations and their API keys: a key's id and prefix are public, its secret only hashed."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
import uuid
from typing import Any

from .._exceptions import StoreError
from . import queries as q
from ._connector import Area
from ._errors import translate_errors
from ._records import KEY_PREFIX, KeyInfo

__all__ = ["Orgs", "hash_key", "key_id_of"]

_KEY_ID_LEN = 12


def hash_key(key: str) -> str:
    """The sha256 a key is stored and compared as."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def key_id_of(key: str) -> str | None:
    """The public id inside a key's text, or ``None`` when it is not shaped like a key."""
    if not key.startswith(KEY_PREFIX) or len(key) < len(KEY_PREFIX) + _KEY_ID_LEN + 2:
        return None
    return key[len(KEY_PREFIX):len(KEY_PREFIX) + _KEY_ID_LEN]


class Orgs(Area):
    """Organizations and API keys."""

    def create_org(self, name: str) -> str:
        """The id of the organization called ``name``, created if it does not exist yet."""
        if not name or not name.strip():
            raise StoreError("an organization needs a name")
        with translate_errors("create an organization"), self._db.write() as conn:
            existing = conn.execute(q.org_by_name(name)).scalar()
            if existing is not None:
                return str(existing)
            org_id = uuid.uuid4().hex
            conn.execute(
                q.insert_org(), {"id": org_id, "name": name, "created_at": time.time()}
            )
            return org_id

    def create_api_key(self, org_id: str) -> str:
        """A new key for ``org_id``. The plaintext is returned once; only its sha256 is kept."""
        key_id = secrets.token_hex(_KEY_ID_LEN // 2)
        key = f"{KEY_PREFIX}{key_id}_{secrets.token_urlsafe(32)}"
        with translate_errors("create an API key"), self._db.write() as conn:
            conn.execute(
                q.insert_api_key(),
                {"org_id": org_id, "key_id": key_id, "key_hash": hash_key(key),
                 "created_at": time.time(), "revoked_at": None},
            )
        return key

    def org_for_key(self, key: str) -> str | None:
        """The org a key belongs to, or ``None`` for a malformed, unknown or revoked key."""
        key_id = key_id_of(key)
        if key_id is None:
            return None
        with translate_errors("look up an API key"), self._db.read() as conn:
            row = conn.execute(q.key_by_key_id(key_id)).first()
        if row is None or not hmac.compare_digest(row.key_hash, hash_key(key)):
            return None
        return str(row.org_id)

    def org_for_key_id(self, key_id: str) -> str | None:
        """The org of the live key whose public id is ``key_id``; ``None`` once revoked.

        For a session that recorded which key signed it in, never the key itself.
        """
        with translate_errors("look up an API key"), self._db.read() as conn:
            row = conn.execute(q.key_by_key_id(key_id)).first()
        return None if row is None else str(row.org_id)

    def find_org(self, name: str) -> str | None:
        """The id of the organization called ``name``, or ``None``."""
        with translate_errors("look up an organization"), self._db.read() as conn:
            found = conn.execute(q.org_by_name(name)).scalar()
        return None if found is None else str(found)

    def api_keys(self, org_id: str) -> list[KeyInfo]:
        """The keys of one org, oldest first, revoked ones included (never their secret)."""
        with translate_errors("list API keys"), self._db.read() as conn:
            return [_key_info(row) for row in conn.execute(q.keys_of_org(org_id=org_id))]

    def revoke_api_key(self, key_id: str) -> KeyInfo | None:
        """Revoke the key whose public id is ``key_id`` (``sl_<id>`` and the full key work
        too); ``None`` if there is no such key. Revoking twice keeps the first time.

        The API looks every key up on every request, so the next request with it gets 401.
        """
        key_id = _key_id_of(key_id)
        with translate_errors("revoke an API key"), self._db.write() as conn:
            conn.execute(q.revoke_key(key_id, time.time()))
            row = conn.execute(q.keys_of_org(key_id=key_id)).first()
        return None if row is None else _key_info(row)


def _key_id_of(text: str) -> str:
    # Accept what `keys list` prints (sl_<id>_) and a whole key, as well as the bare id.
    text = text.strip()
    text = text.removeprefix(KEY_PREFIX)
    return text[:_KEY_ID_LEN] if len(text) > _KEY_ID_LEN and text[_KEY_ID_LEN] == "_" else text


def _key_info(row: Any) -> KeyInfo:
    return KeyInfo(row.key_id, row.org_id, row.org_name, float(row.created_at),
                   None if row.revoked_at is None else float(row.revoked_at))
