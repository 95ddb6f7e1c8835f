"""What a worker tells the process that holds an execution's request, through PostgreSQL.

A worker writes a row to ``execution_message`` (``response``: a Respond to Webhook answer; ``chunk``: a streamed
chunk; ``finished``: the run)
and ``NOTIFY weft_execution, '<execution id>'`` in the same transaction. The main process that queued the
execution listens on that channel (:class:`Mailbox`) and takes the rows of the executions it waits for, so a
synchronous webhook is answered as soon as the worker has the answer, not when the execution is saved. Rows no
one takes (the main stopped meanwhile) are pruned (:func:`prune`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, func, insert, text

from weft.db.engine import Database
from weft.db.orm import Base, ExecutionMessageEntity, utcnow

if TYPE_CHECKING:
    import psycopg

log = logging.getLogger("weft.queue")

CHANNEL = "weft_execution"
#: Where mains ask workers to stop an execution (the payload is its id).
STOP_CHANNEL = "weft_stop"
RESPONSE = "response"
CHUNK = "chunk"
FINISHED = "finished"
#: What the main that queued an execution reads.
TO_MAIN = frozenset({RESPONSE, CHUNK, FINISHED})
#: The output of a node run on another worker, read by the worker that runs the execution.
TOOL_RESULT = "tool_result"
#: Seconds between checks for messages whose notification was missed (a reconnect of the listening connection).
SWEEP_SECONDS = 2.0

_MESSAGES = Base.metadata.tables[ExecutionMessageEntity.__tablename__]
#: Notifications reach every session of the database: the payload names the schema, so instances that share a
#: database in separate schemas ignore each other's (``<schema>/<execution id>``).
_NOTIFY = text("SELECT pg_notify(:channel, current_schema() || '/' || :payload)")
_SCHEMA = "SELECT current_schema()"


async def _listen(connection: Any, channel: str) -> str:
    """LISTEN on ``channel``; the prefix of this schema's payloads."""
    row = await (await connection.execute(_SCHEMA)).fetchone()
    await connection.execute(f"LISTEN {channel}")
    return f"{row[0]}/"


def publish(db: Database, execution_id: str, kind: str, payload: Any) -> None:
    """Leave a message for the process waiting on the execution, and wake it."""
    row = {"execution_id": int(execution_id), "kind": kind, "payload": json.dumps(payload), "created_at": utcnow()}
    with db.engine.begin() as connection:
        connection.execute(insert(_MESSAGES).values(row))
        connection.execute(_NOTIFY, {"channel": CHANNEL, "payload": str(execution_id)})


def publish_stop(db: Database, execution_id: str) -> None:
    """Ask the worker that runs the execution to stop it."""
    with db.engine.begin() as connection:
        connection.execute(_NOTIFY, {"channel": STOP_CHANNEL, "payload": str(execution_id)})


async def listen_stops(conninfo: str, stop: Callable[[str], Any]) -> None:
    """Call ``stop(execution id)`` for each stop request, until cancelled (a worker's background task)."""
    import psycopg

    async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as connection:
        prefix = await _listen(connection, STOP_CHANNEL)
        async for notice in connection.notifies():
            if notice.payload.startswith(prefix):
                stop(notice.payload[len(prefix) :])


def take(db: Database, execution_ids: list[str], kinds: frozenset[str] = TO_MAIN) -> list[tuple[str, str, Any]]:
    """Remove and return the messages of ``kinds`` of these executions, oldest first: ``(execution id, kind,
    payload)``."""
    keys = [int(i) for i in execution_ids]
    query = (
        delete(_MESSAGES)
        .where(_MESSAGES.c.execution_id.in_(keys), _MESSAGES.c.kind.in_(sorted(kinds)))
        .returning(_MESSAGES.c.id, _MESSAGES.c.execution_id, _MESSAGES.c.kind, _MESSAGES.c.payload)
    )
    with db.engine.begin() as connection:
        rows = sorted(connection.execute(query).all())
    return [(str(execution_id), kind, json.loads(payload)) for _, execution_id, kind, payload in rows]


def prune(db: Database, older_than_s: float = 3600.0) -> int:
    """Delete messages nobody took within ``older_than_s``."""
    cutoff = func.now() - timedelta(seconds=older_than_s)
    with db.engine.begin() as connection:
        return int(connection.execute(delete(_MESSAGES).where(_MESSAGES.c.created_at < cutoff)).rowcount)


class Mailbox:
    """The messages of ``kinds`` of the executions this process waits for (a main: what workers tell it; a worker:
    the results of nodes it had run elsewhere)."""

    def __init__(self, db: Database, conninfo: str, kinds: frozenset[str] = TO_MAIN) -> None:
        self._db = db
        self._kinds = kinds
        self._conninfo = conninfo
        self._inboxes: dict[str, asyncio.Queue[tuple[str, Any]]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._connection: psycopg.AsyncConnection[Any] | None = None
        self._prefix = ""

    async def start(self) -> None:
        import psycopg

        self._connection = await psycopg.AsyncConnection.connect(self._conninfo, autocommit=True)
        self._prefix = await _listen(self._connection, CHANNEL)
        self._tasks = [asyncio.ensure_future(self._listen()), asyncio.ensure_future(self._sweep())]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._connection is not None:
            await self._connection.close()
            self._connection = None

    def expect(self, execution_id: str) -> asyncio.Queue[tuple[str, Any]]:
        """The inbox of an execution: call before queueing it, so that no message can come first."""
        inbox: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self._inboxes[execution_id] = inbox
        return inbox

    def forget(self, execution_id: str) -> None:
        self._inboxes.pop(execution_id, None)

    async def _listen(self) -> None:
        assert self._connection is not None
        async for notice in self._connection.notifies():
            execution_id = notice.payload.removeprefix(self._prefix)
            if execution_id in self._inboxes:
                await self._deliver([execution_id])

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            if self._inboxes:
                try:
                    await self._deliver(list(self._inboxes))
                except Exception:  # the database is away for a moment: the next sweep retries
                    log.exception("Reading execution messages failed")

    async def _deliver(self, execution_ids: list[str]) -> None:
        for execution_id, kind, payload in await asyncio.to_thread(take, self._db, execution_ids, self._kinds):
            inbox = self._inboxes.get(execution_id)
            if inbox is not None:
                inbox.put_nowait((kind, payload))


__all__ = [
    "CHANNEL",
    "CHUNK",
    "FINISHED",
    "RESPONSE",
    "STOP_CHANNEL",
    "TOOL_RESULT",
    "TO_MAIN",
    "Mailbox",
    "listen_stops",
    "prune",
    "publish",
    "publish_stop",
    "take",
]
