"""Reading request bodies within the size limit."""

from __future__ import annotations

import json
import math
import re
import zlib
from typing import Any

from fastapi import HTTPException, Request

from ..ingest.batch import Unstorable

__all__ = ["parse_json", "read_body"]


def _too_large(limit: int) -> HTTPException:
    return HTTPException(413, f"request body exceeds the {limit}-byte limit")


async def read_body(request: Request, limit: int) -> bytes:
    """The body, gunzipped if sent gzip-encoded; 413 as soon as it passes ``limit`` bytes."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise _too_large(limit)  # refuse before reading a byte of it
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise _too_large(limit)
        chunks.append(chunk)
    body = b"".join(chunks)
    encoding = request.headers.get("content-encoding", "identity").strip().lower()
    if encoding == "gzip":
        # Bounded: a small compressed body must not expand past the limit (zip bomb).
        inflater = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
        try:
            body = inflater.decompress(body, limit + 1)
        except zlib.error as exc:
            raise HTTPException(400, f"request body is not valid gzip: {exc}") from None
        if len(body) > limit or inflater.unconsumed_tail:
            raise _too_large(limit)
    elif encoding not in ("identity", ""):
        raise HTTPException(415, f"unsupported Content-Encoding {encoding!r}; use gzip or none")
    return body


#: A ``\uD800``-``\uDFFF`` escape: the only way a UTF-8 body yields an unpaired surrogate.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


class _Numbers:
    """json.loads hooks that swap unstorable numbers for :class:`Unstorable` and say so."""

    def __init__(self) -> None:
        self.seen = False

    def constant(self, name: str) -> Unstorable:
        self.seen = True
        return Unstorable(name)

    def float(self, text: str) -> float | Unstorable:
        value = float(text)
        if math.isinf(value):
            self.seen = True
            return Unstorable(text)
        return value

    def int(self, text: str) -> int | Unstorable:
        if len(text.lstrip("-")) > 4000:  # under the interpreter's 4300-digit limit
            self.seen = True
            return Unstorable(text)
        return int(text)


def parse_json(body: bytes) -> tuple[Any, bool]:
    """The JSON document in ``body``, and whether it may hold values no database stores
    (:class:`Unstorable` numbers, unpaired surrogates); 400 saying where it broke."""
    numbers = _Numbers()
    try:
        try:
            doc = json.loads(body, parse_constant=numbers.constant, parse_float=numbers.float)
        except ValueError as exc:
            if isinstance(exc, (UnicodeDecodeError, json.JSONDecodeError)):
                raise
            # Only an integer past the conversion limit gets here: parse again, paying a
            # hook per integer, so that just the event holding it is refused.
            doc = json.loads(body, parse_constant=numbers.constant, parse_float=numbers.float,
                             parse_int=numbers.int)
    except UnicodeDecodeError as exc:
        raise HTTPException(400, f"request body is not UTF-8 text: {exc.reason}") from None
    except json.JSONDecodeError as exc:
        raise HTTPException(
            400,
            f"request body is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}",
        ) from None
    except RecursionError:
        raise HTTPException(400, "request body is nested too deeply to parse") from None
    return doc, numbers.seen or _SURROGATE_ESCAPE.search(body) is not None
