"""Background work of the instance: resuming time waits, and pruning old executions.

Both read their state from the database on every tick, so they survive restarts: a wait that fell due while
the server was down resumes on the first tick after it starts. Only one process per instance runs them
(:mod:`weft.services.leader`); a resume is claimed atomically anyway, so a second scheduler could not run a
wait twice.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta

from weft.db.executions import StoredExecution
from weft.services.errors import ExecutionConflictError, ExecutionNotFoundError
from weft.services.runner import WorkflowRunner
from weft.services.waiting import claim_waiting

log = logging.getLogger("weft.scheduler")


class WaitScheduler:
    """Polls for waits due within ``lead_seconds`` every ``poll_seconds`` and resumes each on time."""

    def __init__(self, runner: WorkflowRunner, *, poll_seconds: float = 1.0, lead_seconds: float = 5.0) -> None:
        self.runner = runner
        self.poll_seconds = poll_seconds
        self.lead = timedelta(seconds=lead_seconds)
        self._scheduled: set[str] = set()

    async def run_forever(self) -> None:
        while True:
            try:
                await self.tick()
            except Exception:  # a failing tick (database down) must not end the scheduler
                log.exception("Resuming waiting executions failed; retrying in %s s", self.poll_seconds)
            await asyncio.sleep(self.poll_seconds)

    async def tick(self) -> list[str]:
        """Schedule the resume of every wait due soon; returns the ids newly scheduled."""
        due = await self.runner.db(self.runner.store.executions.find_waiting, datetime.now(UTC) + self.lead)
        started = []
        for stored in due:
            if stored.id not in self._scheduled:
                self._scheduled.add(stored.id)
                self.runner.spawn(self._resume_at(stored))
                started.append(stored.id)
        return started

    async def _resume_at(self, stored: StoredExecution) -> None:
        try:
            if stored.wait_till is not None:
                delay = (stored.wait_till - datetime.now(UTC)).total_seconds()
                if delay > 0:
                    await asyncio.sleep(delay)
            try:
                claimed = await claim_waiting(self.runner, stored.id, check_signature=False)
            except (ExecutionConflictError, ExecutionNotFoundError):
                return  # resumed by its webhook, stopped or deleted meanwhile
        finally:
            self._scheduled.discard(stored.id)
        await self.runner.resume_claimed(claimed)


class Pruner:
    """Deletes finished executions beyond ``WEFT_EXECUTIONS_DATA_MAX_AGE`` hours / ``…_PRUNE_MAX_COUNT``, and
    expired login sessions."""

    def __init__(self, runner: WorkflowRunner, *, every_seconds: float = 3600.0) -> None:
        self.runner = runner
        self.every_seconds = every_seconds

    async def prune(self) -> list[str]:
        settings = self.runner.settings
        if not settings.executions_data_prune:
            return []
        pruned: list[str] = await self.runner.db(
            self.runner.store.executions.prune,
            settings.executions_data_max_age,
            settings.executions_data_prune_max_count,
        )
        await self.runner.delete_binary(pruned)
        return pruned

    async def run_forever(self) -> None:
        while True:
            try:
                pruned = await self.prune()
                if pruned:
                    log.info("Pruned %d executions", len(pruned))
                await self.runner.db(self.runner.store.users.delete_expired_sessions)
            except Exception:
                log.exception("Pruning executions failed")
            await asyncio.sleep(self.every_seconds)


__all__ = ["Pruner", "WaitScheduler"]
