"""What a worker tells the process that holds an execution's request, through PostgreSQL.

A worker writes a row to ``execution_message`` (``response``: a Respond to Webhook answer; ``chunk``: a streamed
chunk; ``finished``: the run) and notifies channel ``weft_execution`` in the same statement. The main process that
queued the execution listens on that channel (:class:`Mailbox`), so a synchronous webhook is answered as soon as
the worker has the answer, not when the execution is saved. A message that fits in a notification (most do) is
carried in it: ``<schema>/<execution id>/<message id>/<kind>/<payload JSON>``; the main passes it on at once and
deletes its row later, in batches. A larger one is announced as ``<schema>/<execution id>/<message id>`` and read
from the table. The row is the safety net: every few seconds the main reads the rows of the executions it still
waits for, so a notification lost (its listening connection broke) delays a message, never loses it. Each message
is passed on once (its id is remembered per execution). Rows no one takes (the main stopped meanwhile) are pruned
(:func:`prune`).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import json
import logging
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import Select, String, bindparam, cast, delete, func, insert, select, text

from weft.db.async_pg import AsyncStatements
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
#: The longest payload (in bytes of JSON) carried in the notification itself: PostgreSQL refuses more than 8000
#: bytes per notification, and the prefix takes some.
INLINE_BYTES = 7000
#: How many executions' messages a mailbox keeps that came before anyone expected them (a main learns an
#: execution's id when the statement that stores and queues it returns: a fast worker may answer first).
EARLY_EXECUTIONS = 256
#: Seconds a main gathers the rows of messages it passed on before it deletes them in one statement.
DONE_BATCH_SECONDS = 0.1

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


async def publish(statements: AsyncStatements, execution_id: str, kind: str, payload: Any) -> None:
    """Leave a message for the process waiting on the execution, and wake it (one statement)."""
    body = json.dumps(payload)
    inline = len(body.encode()) <= INLINE_BYTES
    params = {
        "b_execution_id": int(execution_id),
        "b_kind": kind,
        "b_payload": body,
        "b_created_at": utcnow(),
        "b_channel": CHANNEL,
        "b_note": f"/{execution_id}/",
        "b_inline": f"/{kind}/{body}" if inline else "",
    }
    await statements.execute(_PUBLISH, params)


def _publishing() -> Select[Any]:
    columns = ("execution_id", "kind", "payload", "created_at")
    values = {name: bindparam(f"b_{name}", type_=_MESSAGES.c[name].type) for name in columns}
    message = insert(_MESSAGES).values(values).returning(_MESSAGES.c.id).cte("message")
    note = func.current_schema().concat(bindparam("b_note", type_=String())).concat(cast(message.c.id, String))
    note = note.concat(bindparam("b_inline", type_=String()))
    return select(func.pg_notify(bindparam("b_channel", type_=String()), note)).select_from(message)


_PUBLISH = _publishing()


def publish_stop(db: Database, execution_id: str) -> None:
    """Ask the worker that runs the execution to stop it."""
    with db.autocommit() as connection:
        connection.execute(_NOTIFY, {"channel": STOP_CHANNEL, "payload": str(execution_id)})


async def listen_stops(conninfo: str, stop: Callable[[str], Any]) -> None:
    """Call ``stop(execution id)`` for each stop request, until cancelled (a worker's background task)."""
    import psycopg

    async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as connection:
        prefix = await _listen(connection, STOP_CHANNEL)
        async for notice in connection.notifies():
            if notice.payload.startswith(prefix):
                stop(notice.payload[len(prefix) :])


def take(db: Database, execution_ids: list[str], kinds: frozenset[str] = TO_MAIN) -> list[tuple[str, int, str, Any]]:
    """Remove and return the messages of ``kinds`` of these executions, oldest first: ``(execution id, message id,
    kind, payload)``."""
    keys = [int(i) for i in execution_ids]
    query = (
        delete(_MESSAGES)
        .where(_MESSAGES.c.execution_id.in_(keys), _MESSAGES.c.kind.in_(sorted(kinds)))
        .returning(_MESSAGES.c.id, _MESSAGES.c.execution_id, _MESSAGES.c.kind, _MESSAGES.c.payload)
    )
    with db.autocommit() as connection:
        rows = sorted(connection.execute(query).all())
    return [(str(execution_id), key, kind, json.loads(payload)) for key, execution_id, kind, payload in rows]


def forget(db: Database, message_ids: list[int]) -> None:
    """Delete messages passed on from their notifications."""
    with db.autocommit() as connection:
        connection.execute(delete(_MESSAGES).where(_MESSAGES.c.id.in_(message_ids)))


def prune(db: Database, older_than_s: float = 3600.0) -> int:
    """Delete messages nobody took within ``older_than_s``."""
    cutoff = func.now() - timedelta(seconds=older_than_s)
    with db.engine.begin() as connection:
        return int(connection.execute(delete(_MESSAGES).where(_MESSAGES.c.created_at < cutoff)).rowcount)


@dataclasses.dataclass
class _Inbox:
    queue: asyncio.Queue[tuple[str, Any]] = dataclasses.field(default_factory=asyncio.Queue)
    #: Ids of the messages passed on (a message may come both from its notification and from the table).
    seen: set[int] = dataclasses.field(default_factory=set)

    def put(self, message_id: int, kind: str, payload: Any) -> bool:
        if message_id in self.seen:
            return False
        self.seen.add(message_id)
        self.queue.put_nowait((kind, payload))
        return True


class Mailbox:
    """The messages of ``kinds`` of the executions this process waits for (a main: what workers tell it; a worker:
    the results of nodes it had run elsewhere)."""

    def __init__(self, db: Database, conninfo: str, kinds: frozenset[str] = TO_MAIN) -> None:
        self._db = db
        self._kinds = kinds
        self._conninfo = conninfo
        self._inboxes: dict[str, _Inbox] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._connection: psycopg.AsyncConnection[Any] | None = None
        self._prefix = ""
        #: Rows of messages passed on from their notifications, to delete (in batches, off the answer's path).
        self._done: list[int] = []
        self._done_added = asyncio.Event()
        #: Messages of executions not (yet) expected, from notifications: ``execution id -> [(id, kind, payload)]``.
        self._early: collections.OrderedDict[str, list[tuple[int, str, Any]]] = collections.OrderedDict()

    async def start(self) -> None:
        import psycopg

        self._connection = await psycopg.AsyncConnection.connect(self._conninfo, autocommit=True)
        self._prefix = await _listen(self._connection, CHANNEL)
        self._tasks = [asyncio.ensure_future(task) for task in (self._listen(), self._sweep(), self._delete_done())]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._connection is not None:
            await self._connection.close()
            self._connection = None
        if self._done:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(forget, self._db, self._done)

    def expect(self, execution_id: str) -> asyncio.Queue[tuple[str, Any]]:
        """The inbox of an execution: call before queueing it, so that no message can come first."""
        inbox = self._inboxes[execution_id] = _Inbox()
        for message_id, kind, payload in self._early.pop(execution_id, ()):
            self._passed_on(inbox, message_id, kind, payload)
        return inbox.queue

    def forget(self, execution_id: str) -> None:
        self._inboxes.pop(execution_id, None)

    async def _listen(self) -> None:
        assert self._connection is not None
        async for notice in self._connection.notifies():
            if not notice.payload.startswith(self._prefix):
                continue  # another schema's
            execution_id, _, rest = notice.payload[len(self._prefix) :].partition("/")
            message_id, _, inline = rest.partition("/")
            inbox = self._inboxes.get(execution_id)
            if not inline:  # too large for a notification: in the table (the sweep reads it if not expected yet)
                if inbox is not None:
                    await self._deliver([execution_id])
                continue
            kind, _, body = inline.partition("/")
            if kind not in self._kinds:
                continue
            if inbox is None:
                self._keep_early(execution_id, int(message_id), kind, json.loads(body))
            else:
                self._passed_on(inbox, int(message_id), kind, json.loads(body))

    def _passed_on(self, inbox: _Inbox, message_id: int, kind: str, payload: Any) -> None:
        if inbox.put(message_id, kind, payload):
            self._done.append(message_id)
            self._done_added.set()

    def _keep_early(self, execution_id: str, message_id: int, kind: str, payload: Any) -> None:
        """Keep a message of an execution no one expects: its main may not know its id yet. Most are another
        main's; the oldest are dropped (their rows stay for their own main)."""
        self._early.setdefault(execution_id, []).append((message_id, kind, payload))
        self._early.move_to_end(execution_id)
        while len(self._early) > EARLY_EXECUTIONS:
            self._early.popitem(last=False)

    async def _delete_done(self) -> None:
        while True:
            await self._done_added.wait()
            await asyncio.sleep(DONE_BATCH_SECONDS)  # let the messages of this moment gather
            self._done_added.clear()
            done, self._done = self._done, []
            try:
                await asyncio.to_thread(forget, self._db, done)
            except Exception:  # the database is away for a moment: pruning removes them later
                log.exception("Deleting execution messages failed")

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            if self._inboxes:
                try:
                    await self._deliver(list(self._inboxes))
                except Exception:  # the database is away for a moment: the next sweep retries
                    log.exception("Reading execution messages failed")

    async def _deliver(self, execution_ids: list[str]) -> None:
        for execution_id, message_id, kind, payload in await asyncio.to_thread(
            take, self._db, execution_ids, self._kinds
        ):
            inbox = self._inboxes.get(execution_id)
            if inbox is not None:
                inbox.put(message_id, kind, payload)


__all__ = [
    "CHANNEL",
    "CHUNK",
    "FINISHED",
    "RESPONSE",
    "STOP_CHANNEL",
    "TOOL_RESULT",
    "TO_MAIN",
    "Mailbox",
    "forget",
    "listen_stops",
    "prune",
    "publish",
    "publish_stop",
    "take",
]
