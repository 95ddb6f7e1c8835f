"""Queue mode's worker (``weft worker``): runs the executions the task engine hands it.

For each job it claims the execution (:meth:`weft.db.claims.ClaimRepository.claim`; a job delivered twice, or for
an execution that ended or is held by a live worker, does nothing), runs it with every write checked against the
claim, renews its leases while it runs, and tells the main that queued it what happened
(:mod:`weft.queue.messages`). Any worker also takes back the executions of workers whose lease expired: each is
queued again ahead of new work and resumes on the next free worker from its last saved node.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from typing import TYPE_CHECKING, Any

from weft.db.claims import StaleClaimError
from weft.nodes.webhooks import WebhookResponse
from weft.queue import messages, tasks
from weft.services.queue_client import encode_response

if TYPE_CHECKING:
    import procrastinate

    from weft.services.runner import WorkflowRunner

log = logging.getLogger("weft.worker")


def worker_name() -> str:
    """This process's name in claims: host and pid."""
    return f"{socket.gethostname()}:{os.getpid()}"


class QueueWorker:
    def __init__(self, runner: WorkflowRunner, app: procrastinate.App, *, name: str | None = None) -> None:
        self.runner = runner
        self.app = app
        self.name = name or worker_name()
        self.lease_seconds = runner.settings.queue_lease_seconds

    def register(self) -> None:
        """Make :meth:`run_job` the task engine's handler of execution jobs."""
        self.app.task(name=tasks.TASK, queue=tasks.QUEUE)(self.run_job)

    async def run_job(self, execution_id: str) -> None:
        runner, store = self.runner, self.runner.store
        claim = await runner.db(store.claims.claim, execution_id, self.name, self.lease_seconds)
        if claim is None:
            return  # delivered again: it ended, waits, was stopped, or a live worker holds it
        runner.claims[execution_id] = claim
        try:
            stored = await runner.db(store.executions.get, execution_id)
            if stored is None:
                return
            result = await runner.run_queued(stored, respond=self._responder(execution_id))
            outcome = {"run": result.run, "saved": result.saved}
            await runner.db(messages.publish, store.db, execution_id, messages.FINISHED, outcome)
        except StaleClaimError:
            log.warning("Execution %s was taken over by another worker; this worker's run is dropped", execution_id)
        finally:
            runner.claims.pop(execution_id, None)

    def _responder(self, execution_id: str) -> Any:
        def respond(response: WebhookResponse) -> None:
            self.runner.spawn(self._send_response(execution_id, response))

        return respond

    async def _send_response(self, execution_id: str, response: WebhookResponse) -> None:
        body = response.body
        if response.stream is not None:
            body = b"".join([chunk async for chunk in response.stream])
        payload = encode_response(response, body)
        await self.runner.db(messages.publish, self.runner.store.db, execution_id, messages.RESPONSE, payload)

    async def keep_leases(self) -> None:
        """Renew the leases of the executions this worker runs; stop those another worker took over."""
        while True:
            await asyncio.sleep(self.lease_seconds / 3)
            for execution_id, claim in list(self.runner.claims.items()):
                try:
                    held = await self.runner.db(self.runner.store.claims.renew, execution_id, claim)
                except Exception:
                    log.exception("Renewing the lease of execution %s failed", execution_id)
                    continue
                if not held:
                    self.runner.stop(execution_id)

    async def take_back_expired(self) -> None:
        """Queue again, ahead of new work, the executions of workers whose lease expired."""
        while True:
            await asyncio.sleep(self.lease_seconds / 3)
            try:
                await requeue_expired(self.runner, self.app)
            except Exception:
                log.exception("Taking back expired executions failed")

    async def serve(self, concurrency: int) -> None:
        """Run jobs until cancelled."""
        self.register()
        conninfo = tasks.libpq_url(self.runner.settings.database_url)
        background = [
            asyncio.ensure_future(self.keep_leases()),
            asyncio.ensure_future(self.take_back_expired()),
            asyncio.ensure_future(messages.listen_stops(conninfo, self.runner.stop)),
        ]
        try:
            async with self.app.open_async():
                await tasks.ensure_schema(self.app)
                await self.app.run_worker_async(
                    queues=[tasks.QUEUE],
                    concurrency=concurrency,
                    name=self.name,
                    install_signal_handlers=False,
                    delete_jobs="successful",
                    update_heartbeat_interval=max(1.0, self.lease_seconds / 3),
                    stalled_worker_timeout=self.lease_seconds * 3,
                )
        finally:
            for task in background:
                task.cancel()
            for task in background:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task


async def requeue_expired(runner: WorkflowRunner, app: procrastinate.App) -> list[str]:
    """The executions whose lease expired, queued again (their old jobs closed); their ids. Also the jobs dead
    workers fetched before they claimed the execution (no lease exists to expire: their heartbeat tells)."""
    for job_id in await tasks.retry_stalled(app, runner.settings.queue_lease_seconds):
        log.warning("Job %s was fetched by a worker that stopped answering: queued again", job_id)
    released = await runner.db(runner.store.claims.release_expired)
    for execution_id, old_job in released:
        if old_job is not None:
            with contextlib.suppress(Exception):
                await tasks.fail_job(app, old_job)
        job_id = await tasks.defer(app, execution_id, priority=tasks.RESUMED_PRIORITY)
        await runner.db(runner.store.claims.set_job, execution_id, job_id)
        log.warning("Execution %s lost its worker: queued again (job %s)", execution_id, job_id)
    return [execution_id for execution_id, _ in released]


__all__ = ["QueueWorker", "requeue_expired", "worker_name"]
