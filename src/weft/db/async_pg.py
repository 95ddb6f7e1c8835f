"""Queue mode's hot-path statements on an asyncio PostgreSQL pool: no worker thread per statement.

A main stores and queues each execution, a worker claims it and tells its main the answer: one statement each, on
the path of every webhook's answer. Run from the event loop through :func:`asyncio.to_thread` (as the repositories
are), each paid a thread hop and, on a busy machine, a wait for the interpreter lock that cost more than the
statement (``bench/bench_queue.py``). These run on psycopg's asyncio connections instead (the task engine's pool,
autocommit). The statements are SQLAlchemy Core ones, the same the synchronous repositories run, compiled once
for psycopg; values go as they are (JSON ones wrapped) and rows come back with attribute access and timestamps
in UTC, as :class:`~weft.db.orm.UtcDateTime` gives them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from sqlalchemy.dialects.postgresql.psycopg import dialect as psycopg_dialect
from sqlalchemy.engine.interfaces import Compiled
from sqlalchemy.sql import ClauseElement

if TYPE_CHECKING:
    import psycopg_pool

_DIALECT = psycopg_dialect()  # type: ignore[no-untyped-call]


class AsyncStatements:
    """Run Core statements on the pool ``pool()`` returns (looked up at each call: it opens after this is made)."""

    def __init__(self, pool: Callable[[], psycopg_pool.AsyncConnectionPool]) -> None:
        self._pool = pool

    async def execute(self, statement: ClauseElement, params: Mapping[str, Any]) -> None:
        async with self._pool().connection() as connection:
            await connection.execute(*_bound(statement, params))

    async def first(self, statement: ClauseElement, params: Mapping[str, Any]) -> SimpleNamespace | None:
        """The first row (attributes named as its columns), or None."""
        async with self._pool().connection() as connection:
            cursor = await connection.execute(*_bound(statement, params))
            row = await cursor.fetchone()
            names = [column.name for column in cursor.description or ()]
        return None if row is None else SimpleNamespace(**{n: _utc(v) for n, v in zip(names, row, strict=True)})


@functools.cache
def _compiled(statement: ClauseElement) -> Compiled:
    return statement.compile(dialect=_DIALECT)


def _bound(statement: ClauseElement, params: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """The SQL text and its values: ``params`` and the statement's own constants."""
    from psycopg.types.json import Json

    compiled = _compiled(statement)
    values = compiled.construct_params(dict(params)) or {}
    return compiled.string, {key: Json(v) if isinstance(v, dict) else v for key, v in values.items()}


def _utc(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    return value


__all__ = ["AsyncStatements"]
