"""Queue mode's share of a main process (``weft start``, ``weft webhook``): the task engine to queue executions
on, the mailbox their workers answer through, and the leader lock in PostgreSQL."""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING

from weft.queue import messages, tasks
from weft.queue.leader import PostgresLeader
from weft.services.queue_client import QueueClient
from weft.services.queue_worker import every_third_of_lease, requeue, requeue_expired
from weft.settings import Settings

if TYPE_CHECKING:
    import procrastinate

    from weft.services.runner import WorkflowRunner

log = logging.getLogger("weft.queue")


#: Seconds after which an execution stored ``new`` but never queued is taken for one whose main stopped.
ORPHAN_AFTER_S = 60.0


async def queue_orphan(runner: WorkflowRunner, app: procrastinate.App, execution_id: str) -> None:
    """Queue an execution its main stored but did not queue (it runs from its start, with its stored input)."""
    await runner.db(runner.store.claims.queue, execution_id)
    await requeue(runner, app, execution_id)
    log.warning("Execution %s was stored but never queued (its main stopped): queued now", execution_id)


class QueueMain:
    def __init__(self, settings: Settings, conninfo: str) -> None:
        self.settings = settings
        self.conninfo = conninfo
        self.app: procrastinate.App = tasks.task_app(settings.database_url)
        self.leader = PostgresLeader(conninfo)
        self.mailbox: messages.Mailbox | None = None
        self._opened = False

    @classmethod
    def check(cls, settings: Settings) -> QueueMain | None:
        """Queue mode's parts when ``WEFT_EXECUTIONS_MODE=queue`` (its error names the fix on SQLite)."""
        if settings.executions_mode != "queue":
            return None
        return cls(settings, tasks.libpq_url(settings.database_url))

    async def start(self, runner: WorkflowRunner) -> None:
        """Open the task engine (creating its tables once) and the mailbox; from now ``runner.run`` queues."""
        await self.app.open_async()
        self._opened = True
        await tasks.ensure_schema(self.app)
        self.mailbox = messages.Mailbox(runner.store.db, self.conninfo)
        await self.mailbox.start()
        runner.queue = QueueClient(runner, self.app, self.mailbox)

    async def take_back_forever(self, runner: WorkflowRunner) -> None:
        """The leader's housekeeping: it too takes back executions of dead workers (when every worker is busy or
        gone), queues executions a main stored but stopped before queueing, and prunes messages nobody took."""
        rounds = 0

        async def housekeeping() -> None:
            nonlocal rounds
            await requeue_expired(runner, self.app)
            for execution_id in await runner.db(runner.store.claims.orphans, ORPHAN_AFTER_S):
                await queue_orphan(runner, self.app, execution_id)
            rounds += 1
            if rounds % 1000 == 0:
                await runner.db(messages.prune, runner.store.db)

        await every_third_of_lease(runner, housekeeping, "Queue housekeeping")

    async def close(self) -> None:
        if self.mailbox is not None:
            await self.mailbox.close()
            self.mailbox = None
        if self._opened:
            with contextlib.suppress(Exception):
                await self.app.close_async()
            self._opened = False
        self.leader.release()


__all__ = ["QueueMain"]
