"""Signed sessions and CSRF tokens. Pure: no I/O.

A session cookie holds ``org id . key id . issued at . nonce``, base64url, and an HMAC of
it under the server's secret. It never holds the key: each request looks the key id up
again, so revoking the key ends every session it opened. The CSRF token of a session is
an HMAC of its nonce, so it needs no server-side state either.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass

__all__ = ["Session", "Sessions"]


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True)
class Session:
    org_id: str
    key_id: str
    issued_at: float
    nonce: str


class Sessions:
    """Issues and reads session tokens signed with ``secret``, valid for ``max_age_s``."""

    def __init__(self, secret: bytes, max_age_s: float) -> None:
        self._secret = secret
        self.max_age_s = max_age_s

    def _mac(self, purpose: str, message: str) -> str:
        return _b64(hmac.new(self._secret, f"{purpose}|{message}".encode(),
                             hashlib.sha256).digest())

    def issue(self, org_id: str, key_id: str, now: float | None = None) -> str:
        issued = int(time.time() if now is None else now)
        body = _b64(f"{org_id}.{key_id}.{issued}.{secrets.token_urlsafe(16)}".encode())
        return f"{body}.{self._mac('session', body)}"

    def read(self, token: str | None, now: float | None = None) -> Session | None:
        """The session in ``token``; ``None`` when absent, forged, malformed or expired."""
        if not token or token.count(".") != 1:
            return None
        body, mac = token.split(".")
        if not hmac.compare_digest(mac, self._mac("session", body)):
            return None
        try:
            org_id, key_id, issued, nonce = _unb64(body).decode().split(".")
            issued_at = float(issued)
        except ValueError:  # signed by us, so only a format change could get here
            return None
        age = (time.time() if now is None else now) - issued_at
        if not 0 <= age < self.max_age_s:
            return None
        return Session(org_id, key_id, issued_at, nonce)

    def csrf_token(self, session: Session) -> str:
        return self._mac("csrf", session.nonce)

    def csrf_ok(self, session: Session, token: str | None) -> bool:
        return bool(token) and hmac.compare_digest(str(token), self.csrf_token(session))
