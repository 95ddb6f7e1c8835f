"""Streamed chat chunks on the wire.

A chunk is n8n's ``StructuredChunk``: ``{"type": "begin" | "item" | "end" | "error", "content", "metadata":
{nodeId, nodeName, runIndex, itemIndex, timestamp}}``. n8n writes one JSON object per line (NDJSON) on a chunked
``application/json`` response; Weft does the same, and writes server-sent events (one ``data: <json>`` event per
chunk, ``text/event-stream``) when the client asks for them with ``Accept: text/event-stream``.
"""

from __future__ import annotations

import json
import time
from typing import Any

NDJSON_TYPE = "application/json; charset=utf-8"
SSE_TYPE = "text/event-stream; charset=utf-8"


def wants_sse(accept: str | None) -> bool:
    """Whether an ``Accept`` header asks for server-sent events."""
    return bool(accept) and "text/event-stream" in str(accept).lower()


def stamp_chunk(chunk: dict[str, Any]) -> dict[str, Any]:
    """The chunk with n8n's full metadata (``itemIndex`` 0 and the time in ms when the node did not set them)."""
    metadata = dict(chunk.get("metadata") or {})
    metadata.setdefault("itemIndex", 0)
    metadata.setdefault("timestamp", int(time.time() * 1000))
    return {"type": chunk.get("type"), "content": chunk.get("content"), "metadata": metadata}


def encode_chunk(chunk: dict[str, Any], *, sse: bool) -> bytes:
    """One chunk as bytes: a JSON line (NDJSON), or a ``data:`` event (SSE)."""
    text = json.dumps(chunk, separators=(",", ":"), ensure_ascii=False)
    return f"data: {text}\n\n".encode() if sse else f"{text}\n".encode()


def text_chunks(text: str, metadata: dict[str, Any]) -> list[dict[str, Any]]:
    """``begin``, ``item`` (the whole text), ``end``: an answer that was not streamed, sent as a stream."""
    return [
        stamp_chunk({"type": "begin", "metadata": metadata}),
        stamp_chunk({"type": "item", "content": text, "metadata": metadata}),
        stamp_chunk({"type": "end", "metadata": metadata}),
    ]


__all__ = ["NDJSON_TYPE", "SSE_TYPE", "encode_chunk", "stamp_chunk", "text_chunks", "wants_sse"]
