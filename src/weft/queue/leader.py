"""Which main process leads in queue mode: the one holding a PostgreSQL advisory lock.

The leader runs what must run once per instance (schedules, polling triggers, timed resumes of waiting
executions, pruning). The lock belongs to one database session: when the leader's process or machine dies, the
database ends the session and releases it, and the next main that tries becomes the leader. Ticks are not fired
twice by two leaders: there is never more than one holder.
"""

from __future__ import annotations

import contextlib
from typing import Any

#: The advisory lock's key: per schema, so instances that share a database in separate schemas lead apart.
LOCK_QUERY = "SELECT pg_try_advisory_lock(hashtext('weft leader ' || current_schema()))"


class PostgresLeader:
    """The lock, once :meth:`try_lead` got it; released by :meth:`release` or by the session's end."""

    def __init__(self, conninfo: str) -> None:
        self._conninfo = conninfo
        self._connection: Any = None

    @property
    def leading(self) -> bool:
        return self._connection is not None

    def try_lead(self) -> bool:
        """Take the lock if no other process holds it; whether this process leads now."""
        if self._connection is not None:
            return True
        import psycopg

        connection = psycopg.connect(self._conninfo, autocommit=True)
        row = connection.execute(LOCK_QUERY).fetchone()
        if row is None or not row[0]:
            connection.close()
            return False
        self._connection = connection
        return True

    def release(self) -> None:
        if self._connection is not None:
            with contextlib.suppress(Exception):
                self._connection.close()
            self._connection = None


__all__ = ["LOCK_QUERY", "PostgresLeader"]
