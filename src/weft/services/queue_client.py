"""Queue mode in a main process (``weft start``, ``weft webhook``): executions go to workers.

:meth:`WorkflowRunner.run` hands an execution here unless it stays in the calling process (:meth:`QueueClient.takes`:
the editor's manual runs and sub-workflows, as in n8n). The execution is stored ``new`` with its start prepared
(trigger items, binary data already stored), a claim row marks it queued, and a job of the task engine names it.
The caller waits for the worker's messages (:mod:`weft.queue.messages`): a Respond to Webhook answer is passed on
the moment it comes; the end of the run returns as if it had run here.
"""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from weft.binary import Location
from weft.db.claims import insert_queued
from weft.db.executions import new_execution
from weft.db.transitions import CANCEL
from weft.engine import Execution
from weft.engine.start import prepare_start
from weft.nodes.webhooks import WebhookResponse
from weft.queue import messages, tasks
from weft.services.binary_data import PendingBinary, store_pending
from weft.services.db_services import ResponseSink
from weft.services.prepared import PreparedWorkflow
from weft.services.run_result import ChunkSink, RunResult
from weft.workflow import Item, RunExecutionData

if TYPE_CHECKING:
    import procrastinate

    from weft.services.runner import WorkflowRunner

#: Modes that run in the process that starts them, as in n8n (manual runs stay on the main unless offloaded).
LOCAL_MODES = frozenset({"manual", "integrated", "cli"})


class QueueClient:
    def __init__(self, runner: WorkflowRunner, app: procrastinate.App, mailbox: messages.Mailbox) -> None:
        self.runner = runner
        self.app = app
        self.mailbox = mailbox
        #: The hot path's statements, on the task engine's asyncio pool (:mod:`weft.db.async_pg`).
        self.statements = tasks.statements(app)

    def takes(self, mode: str, begin: Any, parent_execution: Any) -> bool:
        """Whether an execution of ``mode`` goes to a worker (not a manual run, a partial run, a sub-workflow)."""
        return mode not in LOCAL_MODES and begin is None and parent_execution is None

    async def run(
        self,
        prepared: PreparedWorkflow,
        *,
        mode: str,
        start_node: str | None,
        trigger_items: list[Item] | None,
        parent_execution_id: str | None,
        retry_of: str | None,
        respond: ResponseSink | None,
        started: Callable[[str], None] | None,
        chunks: ChunkSink | None = None,
    ) -> RunResult:
        """Queue the execution and wait for its end; ``respond`` gets the worker's webhook answer first, ``chunks``
        (streaming on) each chunk as the worker's nodes send it."""
        runner = self.runner
        store = runner.store
        links = {"parent_execution_id": parent_execution_id, "retry_of": retry_of}
        execution = Execution(prepared.workflow, registry=runner.registry, mode=mode)
        if not _has_pending_files(trigger_items):  # the usual case: stored and queued in one statement
            prepare_start(execution, start_node, trigger_items, None, None)
            row, payload = new_execution(prepared.data, mode, "new", execution.data, parent_execution_id, retry_of)
            job = tasks.queued_job(stream=chunks is not None)
            execution_id = str(await insert_queued(self.statements, row, payload, job))
            if started is not None:
                started(execution_id)
            return await self.send(execution_id, respond, chunks, queued=True)
        # files in the trigger's items are stored under the execution's id: the row first, then its start
        execution_id = await runner.db(store.executions.create, prepared.data, mode, "new", **links)
        if started is not None:
            started(execution_id)
        location = Location(str(prepared.workflow.id or ""), execution_id)
        trigger_items = await store_pending(runner.options.binary_data, location, trigger_items)
        prepare_start(execution, start_node, trigger_items, None, None)
        await runner.db(store.executions.save_progress, execution_id, execution.data)
        return await self.send(execution_id, respond, chunks)

    async def resume(self, execution_id: str, data: RunExecutionData, respond: ResponseSink | None) -> RunResult:
        """Continue a waiting execution (claimed ``running`` by :func:`~weft.services.waiting.claim_waiting`, its
        resume input seeded into ``data``) on a worker."""
        await self.runner.db(self.runner.store.executions.save_progress, execution_id, data)
        return await self.send(execution_id, respond)

    async def send(
        self, execution_id: str, respond: ResponseSink | None, chunks: ChunkSink | None = None, *, queued: bool = False
    ) -> RunResult:
        """Queue a stored execution for a worker (``queued``: stored queued with its job already; its messages that
        came before are kept for it by the mailbox) and wait for its end."""
        runner, store = self.runner, self.runner.store
        inbox = self.mailbox.expect(execution_id)
        try:
            if not queued:
                await runner.db(store.claims.queue, execution_id)
                await tasks.defer(self.app, execution_id, stream=chunks is not None)
            return await self._outcome(execution_id, inbox, respond, chunks)
        finally:
            self.mailbox.forget(execution_id)

    async def _outcome(
        self,
        execution_id: str,
        inbox: asyncio.Queue[tuple[str, Any]],
        respond: ResponseSink | None,
        chunks: ChunkSink | None,
    ) -> RunResult:
        while True:
            kind, payload = await inbox.get()
            if kind == messages.CHUNK and chunks is not None:
                chunks(payload)
            elif kind == messages.RESPONSE and respond is not None:
                respond(decode_response(payload))
            elif kind == messages.FINISHED:
                return RunResult(execution_id=execution_id, run=payload["run"], saved=bool(payload["saved"]))

    async def stop(self, execution_id: str) -> bool:
        """Stop an execution a worker runs or that waits in the queue; False when it is not running anywhere."""
        store = self.runner.store
        if await self.runner.db(store.executions.move, execution_id, CANCEL):
            return True  # queued or waiting: a claim finds it canceled and lets it be
        if await self.runner.db(store.claims.holder, execution_id) is None:
            return False
        await self.runner.db(messages.publish_stop, store.db, execution_id)
        return True


def _has_pending_files(items: list[Item] | None) -> bool:
    return any(
        isinstance(entry, PendingBinary) for item in items or () for entry in (item.get("binary") or {}).values()
    )


def encode_response(response: WebhookResponse, body: bytes) -> dict[str, Any]:
    """A webhook answer as a message (``body``: the whole body, a streamed one read by the worker)."""
    return {"status": response.status_code, "headers": response.headers, "body": base64.b64encode(body).decode()}


def decode_response(payload: dict[str, Any]) -> WebhookResponse:
    return WebhookResponse(
        status_code=int(payload["status"]), headers=dict(payload["headers"]), body=base64.b64decode(payload["body"])
    )


__all__ = ["LOCAL_MODES", "QueueClient", "decode_response", "encode_response"]
