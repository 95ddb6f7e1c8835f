"""The process-wide in-memory :class:`~weft.nodes.contract.ChatMemoryStore`, used when the host keeps none.

n8n's Simple Memory lives in the process too (``MemoryChatBufferSingleton``): it is lost on restart. The server
provides a database-backed store as ``services.chat_memory`` instead.
"""

from __future__ import annotations

import copy
import threading
from typing import Any


class InMemoryChatMemoryStore:
    """Messages as JSON per session key, oldest first; safe to share between threads."""

    def __init__(self) -> None:
        self._sessions: dict[str, list[dict[str, Any]]] = {}
        self._lock = threading.Lock()

    def load(self, session_key: str, *, last: int | None = None) -> list[dict[str, Any]]:
        with self._lock:
            messages = self._sessions.get(session_key, [])
            chosen = messages[-last:] if last is not None and last > 0 else (messages if last is None else [])
            return copy.deepcopy(chosen)

    def append(self, session_key: str, messages: list[dict[str, Any]]) -> None:
        with self._lock:
            self._sessions.setdefault(session_key, []).extend(copy.deepcopy(messages))

    def clear(self, session_key: str) -> None:
        with self._lock:
            self._sessions.pop(session_key, None)


#: The store used when the host provides none (``ctx.services.chat_memory``).
PROCESS_STORE = InMemoryChatMemoryStore()

__all__ = ["PROCESS_STORE", "InMemoryChatMemoryStore"]
