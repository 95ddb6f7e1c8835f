""":class:`DbChatMemory`: the Simple Memory of executions kept in the database (the ``chat_memory`` table).

Its one home: :class:`~weft.services.db_services.DbServices` hands it to the nodes, and the chat
(:mod:`weft.services.chat`) reads the same sessions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from weft.db.memory import ChatMemoryRepository
    from weft.services.write_lock import WriteLock


class DbChatMemory:
    """:class:`~weft.nodes.contract.ChatMemoryStore` over the ``chat_memory`` table.

    Each call opens its own session, so any thread may use it; appends take the instance's SQLite write lock.
    """

    def __init__(self, repository: ChatMemoryRepository, write_lock: WriteLock | None = None) -> None:
        self._repository = repository
        self._write_lock = write_lock

    def load(self, session_key: str, *, last: int | None = None) -> list[dict[str, Any]]:
        return self._repository.load(session_key, last=last)

    def append(self, session_key: str, messages: list[dict[str, Any]]) -> None:
        if self._write_lock is None:
            self._repository.append(session_key, messages)
            return
        with self._write_lock.held():
            self._repository.append(session_key, messages)

    def clear(self, session_key: str) -> None:
        self._repository.clear(session_key)


__all__ = ["DbChatMemory"]
