"""One Weft instance as a server process sees it: the store, the runner and the background work.

The composition root (``weft.server.app``) opens it on start-up and closes it on shutdown.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import Any

from weft.db.store import Store
from weft.nodes.registry import NodeRegistry
from weft.services.activation import ActiveWorkflows
from weft.services.auth import AuthService
from weft.services.import_export import open_store
from weft.services.leader import LeaderLock, try_lead
from weft.services.listening import TestWebhooks
from weft.services.polling import PollingTriggers
from weft.services.queue_main import QueueMain
from weft.services.runner import WorkflowRunner
from weft.services.scheduler import Pruner, WaitScheduler
from weft.services.schedules import ScheduleTriggers
from weft.services.subworkflows import resume_orphaned_parents
from weft.services.trigger_webhooks import ensure_registered
from weft.settings import Settings

log = logging.getLogger("weft.instance")

#: Seconds between checks for workflows (de)activated by another process.
REFRESH_SECONDS = 2.0


@dataclass(kw_only=True)
class Instance:
    settings: Settings
    store: Store
    runner: WorkflowRunner
    active: ActiveWorkflows
    test_webhooks: TestWebhooks
    waits: WaitScheduler
    schedules: ScheduleTriggers
    pruner: Pruner
    polling: PollingTriggers
    auth: AuthService
    leader: LeaderLock | None = None
    queue: QueueMain | None = None
    """Queue mode (``WEFT_EXECUTIONS_MODE=queue``): the task engine, the mailbox and the PostgreSQL leader lock."""
    _tasks: list[asyncio.Task[Any]] = field(default_factory=list)

    @classmethod
    def open(
        cls,
        settings: Settings,
        registry: NodeRegistry | None = None,
        *,
        store: Store | None = None,
        inline_db: bool | None = None,
    ) -> Instance:
        """Open the database (migrating it) and build the services; nothing runs until :meth:`start`."""
        queue = QueueMain.check(settings)  # before the database: queue mode refuses SQLite with the fix
        store = store or open_store(settings)
        if inline_db is None:
            inline_db = store.db.dialect == "sqlite"
        runner = WorkflowRunner(store, settings, registry, inline_db=inline_db)
        runner.log_errors = True
        return cls(
            settings=settings,
            store=store,
            runner=runner,
            active=ActiveWorkflows(runner),
            test_webhooks=TestWebhooks(runner),
            waits=WaitScheduler(runner),
            schedules=ScheduleTriggers(runner),
            pruner=Pruner(runner),
            polling=PollingTriggers(runner),
            auth=AuthService(store.users, session_hours=settings.session_duration_hours),
            queue=queue,
        )

    async def start(self, *, recover: bool = True, background: bool = True) -> None:
        """Recover crashed executions, load the active workflows, start the schedulers (in the leader).

        In queue mode nothing is marked crashed (workers on other machines run executions; an execution whose
        worker died is taken back when its lease expires), and the leader is elected in PostgreSQL, again and again
        until this process leads or stops (``background=False``: a ``weft webhook`` process never leads)."""
        if self.queue is not None:
            await self.queue.start(self.runner)
            recover = False
        if recover:
            crashed = await self.recover_on_startup()
            if crashed:
                log.warning("Executions %s were left running by a previous process: marked crashed", crashed)
        await self.active.refresh()
        self._tasks.append(asyncio.ensure_future(self._refresh_forever()))
        if background and self.queue is not None:
            self._tasks.append(asyncio.ensure_future(self._lead_when_free(self.queue)))
        elif background:
            self.leader = try_lead(self.settings.user_folder)
            if self.leader is not None:
                self._lead()

    async def _lead_when_free(self, queue: QueueMain) -> None:
        while True:  # polling a lock held by another process: no event to wait on
            if await asyncio.to_thread(queue.leader.try_lead):
                break
            await asyncio.sleep(REFRESH_SECONDS)
        log.info("This process leads the instance (schedules, polling, timed resumes)")
        self._lead()
        self._tasks.append(asyncio.ensure_future(queue.take_back_forever(self.runner)))

    def _lead(self) -> None:
        """Start what runs once per instance: schedules, polling, webhook registration, timed resumes, pruning."""
        self.active.listeners.append(self.schedules.sync)
        self.schedules.sync(self.active.workflows)
        self.active.listeners.append(self.polling.sync)
        self.polling.sync(self.active.workflows)
        self.runner.spawn(ensure_registered(self.runner, dict(self.active.workflows)))
        self._tasks.append(asyncio.ensure_future(self.waits.run_forever()))
        self.runner.spawn(resume_orphaned_parents(self.runner))  # children that finished while we were down
        self._tasks.append(asyncio.ensure_future(self.pruner.run_forever()))

    async def recover_on_startup(self) -> list[str]:
        """Executions left ``running`` by a crashed process become ``crashed``."""
        return await asyncio.to_thread(self.store.executions.mark_crashed)

    async def close(self, grace_seconds: float = 10.0) -> None:
        """Stop the background work, let running executions finish (up to ``grace_seconds``), close the database."""
        self.schedules.stop()
        self.polling.stop()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
        await self.runner.drain(grace_seconds)
        # what still runs after the grace period (an endless loop) is stopped, so it is saved as canceled with its
        # run data instead of being found "crashed" at the next start
        stopped = [execution_id for execution_id in self.runner.running_ids() if self.runner.stop(execution_id)]
        if stopped:
            await self.runner.drain(5.0)
        if self.leader is not None:
            self.leader.release()
            self.leader = None
        if self.queue is not None:
            await self.queue.close()
        self.runner.close()
        self.store.close()

    async def _refresh_forever(self) -> None:
        while True:
            await asyncio.sleep(REFRESH_SECONDS)
            try:
                await self.active.refresh()
            except Exception:
                log.exception("Reloading the active workflows failed")


__all__ = ["REFRESH_SECONDS", "Instance"]
