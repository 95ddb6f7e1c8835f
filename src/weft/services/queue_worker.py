"""Queue mode's worker (``weft worker``): runs the executions the task engine hands it.

For each job it claims the execution (:mod:`weft.db.claims`), in the statement that fetches the job
(:mod:`weft.queue.fetching`; a job delivered twice, or for an execution that ended or is held by a live worker,
does nothing), runs it with every write checked against the claim, renews its leases while it runs, and tells the
main that queued it what happened (:mod:`weft.queue.messages`). Any worker also takes back the executions of
workers whose lease expired: each is queued again ahead of new work and resumes on the next free worker from its
last saved node.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import socket
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from weft.db.async_pg import AsyncStatements
from weft.db.claims import StaleClaimError
from weft.db.transitions import ABANDON
from weft.engine import gc_policy
from weft.nodes.webhooks import WebhookResponse
from weft.queue import fetching, messages, tasks
from weft.services.queue_client import encode_response
from weft.services.queue_tools import ToolOffload, run_tool_job

if TYPE_CHECKING:
    import procrastinate

    from weft.db.executions import StoredExecution
    from weft.services.runner import WorkflowRunner

log = logging.getLogger("weft.worker")
#: Seconds between the task engine's checks for jobs besides its notifications. Procrastinate clears its "new job"
#: flag after each fetch, so a job queued while a fetch that found nothing was under way waits for this check
#: (its default, 5 s, showed as 5 s answers to webhooks in bench/bench_queue.py).
FETCH_POLLING_SECONDS = 0.5


def worker_name() -> str:
    """This process's name in claims: host and pid."""
    return f"{socket.gethostname()}:{os.getpid()}"


class QueueWorker:
    def __init__(self, runner: WorkflowRunner, app: procrastinate.App, *, name: str | None = None) -> None:
        self.runner = runner
        self.app = app
        self.name = name or worker_name()
        self.lease_seconds = runner.settings.queue_lease_seconds
        #: The hot path's statements, on the task engine's asyncio pool (:mod:`weft.db.async_pg`).
        self.statements = tasks.statements(app)
        #: Its claims, taken as the task engine fetches its jobs (:mod:`weft.queue.fetching`).
        self.claimant = fetching.Claimant(self.statements, self.name, self.lease_seconds)

    def register(self) -> None:
        """Make :meth:`run_job` the task engine's handler of execution jobs (and :meth:`run_tool` of tool jobs), and
        its fetches claim their executions for this worker."""
        fetching.install(self.app, self.claimant)
        self.app.task(name=tasks.TASK, queue=tasks.QUEUE)(self.run_job)
        self.app.task(name=tasks.TOOL_TASK, queue=tasks.QUEUE)(self.run_tool)

    async def run_tool(self, execution_id: str, request: str, entry: Any, run_index: int, inputs: list[Any]) -> None:
        await run_tool_job(self.runner, self.statements, execution_id, request, entry, run_index, inputs)

    async def run_job(self, execution_id: str, stream: bool = False) -> None:
        runner, store = self.runner, self.runner.store
        claimed = await self.claimant.claim(execution_id)
        if claimed is None:
            return  # delivered again: it ended, waits, was stopped, or a live worker holds it
        claim, stored = claimed
        runner.claims[execution_id] = claim
        outbox = Outbox(self.statements, execution_id)
        try:
            if _never_prepared(stored):  # its main stopped before it stored the start: its input is lost
                await runner.db(store.executions.move, execution_id, ABANDON, claim=claim)
                return
            chunks = (lambda chunk: outbox.put(messages.CHUNK, chunk)) if stream else None
            respond = lambda response: outbox.put(messages.RESPONSE, response)  # noqa: E731
            result = await runner.run_queued(stored, respond=respond, chunks=chunks)
            outbox.put(messages.FINISHED, {"run": result.run, "saved": result.saved})
        except StaleClaimError:
            log.warning("Execution %s was taken over by another worker; this worker's run is dropped", execution_id)
        finally:
            runner.claims.pop(execution_id, None)
            await outbox.close()

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
                if not held and await self._taken_over(execution_id):
                    self.runner.stop(execution_id)

    async def _taken_over(self, execution_id: str) -> bool:
        """Whether the execution still runs under another claim. A renewal that races this worker's own last write
        (which ends the claim) finds it ended: stopping then would cancel that write's sending of the end, and the
        main would wait for it forever."""
        stored = await self.runner.db(self.runner.store.executions.get, execution_id, include_data=False)
        return stored is not None and stored.status == "running"

    async def serve(self, concurrency: int) -> None:
        """Run jobs until cancelled."""
        self.register()
        conninfo = tasks.libpq_url(self.runner.settings.database_url)
        background = [
            asyncio.ensure_future(self.keep_leases()),
            asyncio.ensure_future(
                every_third_of_lease(self.runner, lambda: requeue_expired(self.runner, self.app), "Taking back")
            ),
            asyncio.ensure_future(messages.listen_stops(conninfo, self.runner.stop)),
        ]
        tool_results = None
        if self.runner.settings.queue_tools_on_workers:  # tools an agent requests may run on other workers
            tool_results = messages.Mailbox(self.runner.store.db, conninfo, frozenset({messages.TOOL_RESULT}))
            await tool_results.start()
            offload = ToolOffload(self.runner, self.app, tool_results)
            self.runner.options = dataclasses.replace(self.runner.options, offload=offload)
        try:
            async with self.app.open_async():
                await tasks.ensure_schema(self.app)
                gc_policy.settle()  # what the worker loaded stays (see weft.engine.gc_policy)
                await self.app.run_worker_async(
                    queues=[tasks.QUEUE],
                    concurrency=concurrency,
                    name=self.name,
                    install_signal_handlers=False,
                    delete_jobs="successful",
                    fetch_job_polling_interval=FETCH_POLLING_SECONDS,
                    update_heartbeat_interval=max(1.0, self.lease_seconds / 3),
                    stalled_worker_timeout=self.lease_seconds * 3,
                )
        finally:
            for task in background:
                task.cancel()
            for task in background:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            if tool_results is not None:
                await tool_results.close()


def _never_prepared(stored: StoredExecution) -> bool:
    data: dict[str, Any] = dict(stored.data or {})
    execution_data = data.get("executionData") or {}
    return not execution_data.get("nodeExecutionStack") and not (data.get("resultData") or {}).get("runData")


class Outbox:
    """The messages of one execution to its main, sent one after the other in the order they were put (a webhook's
    answer and every chunk before the end)."""

    def __init__(self, statements: AsyncStatements, execution_id: str) -> None:
        self._statements = statements
        self._execution_id = execution_id
        self._queue: asyncio.Queue[tuple[str, Any] | None] = asyncio.Queue()
        self._task = asyncio.ensure_future(self._send())

    def put(self, kind: str, payload: Any) -> None:
        self._queue.put_nowait((kind, payload))

    async def close(self) -> None:
        """Send what was put, then stop."""
        self._queue.put_nowait(None)
        await self._task

    async def _send(self) -> None:
        while (entry := await self._queue.get()) is not None:
            kind, payload = entry
            if isinstance(payload, WebhookResponse):
                body = payload.body
                if payload.stream is not None:  # a file answered by Respond to Webhook: its bytes go in the message
                    body = b"".join([chunk async for chunk in payload.stream])
                payload = encode_response(payload, body)
            try:
                await messages.publish(self._statements, self._execution_id, kind, payload)
            except Exception:  # the main is told nothing more; the execution's row still says how it ended
                log.exception("Telling the main about execution %s failed", self._execution_id)


async def every_third_of_lease(runner: WorkflowRunner, work: Callable[[], Awaitable[Any]], what: str) -> None:
    """Do ``work`` every third of the lease until cancelled; a failure is logged and the next round tries again."""
    while True:
        await asyncio.sleep(runner.settings.queue_lease_seconds / 3)
        try:
            await work()
        except Exception:
            log.exception("%s failed", what)


async def requeue(runner: WorkflowRunner, app: procrastinate.App, execution_id: str) -> int:
    """Queue a job for an execution marked queued, ahead of new work (it was lost once); the job's id."""
    job_id = await tasks.defer(app, execution_id, priority=tasks.RESUMED_PRIORITY)
    await runner.db(runner.store.claims.set_job, execution_id, job_id)
    return job_id


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
        job_id = await requeue(runner, app, execution_id)
        log.warning("Execution %s lost its worker: queued again (job %s)", execution_id, job_id)
    return [execution_id for execution_id, _ in released]


__all__ = ["QueueWorker", "every_third_of_lease", "requeue", "requeue_expired", "worker_name"]
