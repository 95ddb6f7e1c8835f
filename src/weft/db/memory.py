"""Chat memory of agents (the Simple Memory node): messages in order, per session key."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import delete, func, select

from weft.db.base import rowcount
from weft.db.engine import Database
from weft.db.orm import ChatMemoryEntity


class ChatMemoryRepository:
    """Messages (JSON objects) per session, appended in order and read back oldest first."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def append(self, session_key: str, messages: Iterable[dict[str, Any]]) -> None:
        """Add messages after the session's last one."""
        with self._db.transaction() as session:
            last = session.scalar(
                select(func.max(ChatMemoryEntity.position)).where(ChatMemoryEntity.session_key == session_key)
            )
            start = -1 if last is None else last
            for offset, message in enumerate(messages, start=1):
                session.add(ChatMemoryEntity(session_key=session_key, position=start + offset, message=message))

    def load(self, session_key: str, *, last: int | None = None) -> list[dict[str, Any]]:
        """The session's messages, oldest first; only the newest ``last`` ones when given."""
        query = select(ChatMemoryEntity.message).where(ChatMemoryEntity.session_key == session_key)
        if last is not None:
            query = query.order_by(ChatMemoryEntity.position.desc()).limit(last)
            with self._db.sessions() as session:
                return list(reversed(session.scalars(query).all()))
        with self._db.sessions() as session:
            return list(session.scalars(query.order_by(ChatMemoryEntity.position)))

    def clear(self, session_key: str) -> int:
        """Forget the session; returns how many messages it had."""
        with self._db.transaction() as session:
            return rowcount(
                session.execute(delete(ChatMemoryEntity).where(ChatMemoryEntity.session_key == session_key))
            )


__all__ = ["ChatMemoryRepository"]
