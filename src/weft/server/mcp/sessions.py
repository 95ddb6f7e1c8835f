"""MCP sessions: one per SSE stream (it lives as long as the stream) or per streamable-HTTP ``initialize``.

Streamable-HTTP sessions idle longer than the timeout (``WEFT_MCP_SESSION_IDLE_TTL`` seconds, default 900: n8n's
``N8N_MCP_SERVER_SESSION_IDLE_TTL_MS``) are forgotten; a later request with that id gets 404 ``Session not
found``. Sessions live in the process that created them, as n8n's main process keeps them in memory.
"""

from __future__ import annotations

import asyncio
import os
import time
import uuid
from dataclasses import dataclass, field
from typing import Literal

#: Idle seconds after which a streamable-HTTP session is dropped (n8n: 15 minutes).
DEFAULT_IDLE_TTL = 900.0
IDLE_TTL_ENV = "WEFT_MCP_SESSION_IDLE_TTL"

Kind = Literal["sse", "streamable"]


@dataclass(kw_only=True, eq=False)
class McpSession:
    """One client's session."""

    id: str
    kind: Kind
    last_seen: float = field(default_factory=time.monotonic)
    events: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    """SSE sessions: the messages to send on the stream (``None`` ends it)."""


class SessionStore:
    """The sessions of one server process."""

    def __init__(self, idle_ttl: float | None = None) -> None:
        self.idle_ttl = idle_ttl if idle_ttl is not None else idle_ttl_from_env()
        self._sessions: dict[str, McpSession] = {}
        self._next_sweep = time.monotonic() + min(self.idle_ttl, 60.0)

    def __len__(self) -> int:
        return len(self._sessions)

    def create(self, kind: Kind) -> McpSession:
        self.sweep()
        session = McpSession(id=str(uuid.uuid4()), kind=kind)
        self._sessions[session.id] = session
        return session

    def get(self, session_id: str) -> McpSession | None:
        """The session, marked as used now; ``None`` when unknown or expired."""
        now = time.monotonic()
        if now >= self._next_sweep:
            self.sweep(now)
        session = self._sessions.get(session_id)
        if session is None:
            return None
        if session.kind == "streamable" and now - session.last_seen > self.idle_ttl:
            self.close(session_id)
            return None
        session.last_seen = now
        return session

    def close(self, session_id: str) -> None:
        session = self._sessions.pop(session_id, None)
        if session is not None and session.kind == "sse":
            session.events.put_nowait(None)

    def sweep(self, now: float | None = None) -> list[str]:
        """Forget the idle streamable-HTTP sessions (SSE sessions end with their stream); their ids."""
        now = time.monotonic() if now is None else now
        self._next_sweep = now + min(self.idle_ttl, 60.0)
        idle = [s.id for s in self._sessions.values() if s.kind == "streamable" and now - s.last_seen > self.idle_ttl]
        for session_id in idle:
            self.close(session_id)
        return idle


def idle_ttl_from_env() -> float:
    raw = os.environ.get(IDLE_TTL_ENV)
    if not raw:
        return DEFAULT_IDLE_TTL
    try:
        value = float(raw)
    except ValueError:
        from weft.errors import ConfigurationError

        raise ConfigurationError(
            f"{IDLE_TTL_ENV}={raw!r} is not a number of seconds; set it to e.g. 900 (15 minutes)."
        ) from None
    return max(value, 0.0)


__all__ = ["DEFAULT_IDLE_TTL", "IDLE_TTL_ENV", "Kind", "McpSession", "SessionStore", "idle_ttl_from_env"]
