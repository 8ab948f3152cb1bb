"""Reading request bodies within the size limit."""

from __future__ import annotations

import json
import zlib
from typing import Any

from fastapi import HTTPException, Request

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


def parse_json(body: bytes) -> Any:
    """The JSON document in ``body``; 400 saying where it broke if it is not JSON."""
    try:
        return json.loads(body)
    except UnicodeDecodeError as exc:
        raise HTTPException(400, f"request body is not UTF-8 text: {exc.reason}") from None
    except json.JSONDecodeError as exc:
        raise HTTPException(
            400,
            f"request body is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}",
        ) from None
