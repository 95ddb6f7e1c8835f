"""Running workflows as stored executions: create the row, run the engine, save the outcome.

Invariants:

* An execution's row exists (status ``running``) before its first node runs, so a crash leaves a trace that
  :meth:`WorkflowRunner.recover_on_startup` turns into ``crashed``.
* The outcome is saved by the ``workflowExecuteAfter`` hook (:mod:`weft.services.save_hooks`), honouring
  ``saveDataSuccessExecution``, ``saveDataErrorExecution`` and ``saveManualExecutions``; a waiting execution is always
  saved whole and its memory released (nothing of it stays in this process).
* Resuming goes through :func:`weft.services.waiting.claim_waiting`, which moves ``waiting → running``
  atomically: only one resume of an execution ever runs.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any, TypeVar

from weft.binary import Location
from weft.binary.filesystem import FilesystemManager
from weft.db.cipher import load_encryption_key
from weft.db.save_policy import SaveDefaults
from weft.db.transitions import CRASH
from weft.engine import Execution
from weft.engine.state import restore_waiting_keys
from weft.errors import ExecutionCancelledError, TimeoutExecutionCancelledError
from weft.nodes.registry import NodeRegistry
from weft.services.binary_data import store_pending
from weft.services.db_calls import DbCalls
from weft.services.db_services import DbServices, ResponseSink
from weft.services.engine_setup import configure_process, engine_options
from weft.services.error_workflow import error_workflow_hooks
from weft.services.execution_writer import SnapshotTexts, open_writer
from weft.services.prepared import PreparedWorkflow, WorkflowCache, prepare, server_registry
from weft.services.push import PushHub
from weft.services.resume_data import first_task, seed_resume
from weft.services.run_result import ChunkSink, RunResult
from weft.services.save_hooks import add_save_hooks
from weft.services.signing import ResumeSigner
from weft.services.subworkflows import link_to_parent, resume_parent
from weft.services.write_lock import sqlite_write_lock
from weft.settings import Settings
from weft.workflow import Item, Run, RunExecutionData
from weft.workflow.items import empty_run_data

log = logging.getLogger("weft.executions")

if TYPE_CHECKING:
    from weft.db.claims import Claim
    from weft.db.executions import StoredExecution
    from weft.db.store import Store
    from weft.services.queue_client import QueueClient

T = TypeVar("T")


class WorkflowRunner(DbCalls):
    """Runs, resumes, stops and retries stored executions of one instance.

    ``store=None`` opens the instance's store only when something needs it (credentials, sub-workflows, memory):
    with ``inline_db`` on a SQLite file at the head revision, a run that needs none of them (most ``weft execute``
    runs) is created and saved through :class:`~weft.db.lite.LiteExecutions` and never imports SQLAlchemy.
    """

    def __init__(
        self,
        store: Store | None,
        settings: Settings,
        registry: NodeRegistry | None = None,
        *,
        inline_db: bool = False,
    ) -> None:
        self._store = store
        self._owns_store = store is None
        self.settings = settings
        self.registry = server_registry(registry)
        self.cache = WorkflowCache(self.registry)
        key = load_encryption_key(settings.user_folder, settings.encryption_key)
        self.signer = ResumeSigner.from_encryption_key(key)
        self.save_defaults = SaveDefaults(
            success=settings.save_data_on_success,
            error=settings.save_data_on_error,
            manual=settings.save_manual_executions,
        )
        configure_process(settings)
        self.options = engine_options(settings, self.signer, lambda: self.store.db)
        super().__init__(inline_db=inline_db, write_lock=sqlite_write_lock(settings.database_url))
        self.log_errors = False
        """Log each failed execution's error with its stack (the server; the API shows no stack)."""
        self.executions: Any = open_writer(settings, self.inline_db, self.write_lock, lambda: self.store)
        """Where the hot path creates and saves executions (:mod:`weft.services.execution_writer`)."""
        self.batch_writes_of(self.executions)
        self.snapshot_texts = SnapshotTexts()
        self._running: dict[str, Execution] = {}
        self._background: set[asyncio.Task[Any]] = set()
        self._outcomes: dict[str, dict[str, bool]] = {}
        self.push = PushHub()
        """Live events of manual executions for the editor (``GET /rest/push``)."""
        self.queue: QueueClient | None = None
        """Queue mode, in a main process: where :meth:`run` hands executions to workers."""
        self.claims: dict[str, Claim] = {}
        """Queue mode, in a worker: its hold on each execution it runs; every write of one checks it."""

    @property
    def store(self) -> Store:
        """The instance's store (opened, and migrated, on first use when the runner was given none)."""
        if self._store is None:
            from weft.services.import_export import open_store

            self._store = open_store(self.settings)
        return self._store

    # ------------------------------------------------------------------ plumbing

    async def delete_executions(self, execution_ids: list[str]) -> int:
        """Delete executions, their data and their files; how many existed."""
        count = await self.db(self.store.executions.delete, execution_ids)
        await self.delete_binary(execution_ids)
        return count

    async def delete_workflow(self, workflow_id: str) -> bool:
        """Delete a workflow with its executions and their files; False if it did not exist."""
        deleted = await self.db(self.store.workflows.delete, workflow_id)
        files = self.options.binary_data.managers.get("filesystem")
        if deleted and isinstance(files, FilesystemManager):
            await files.delete_workflow(workflow_id)
        return deleted

    async def delete_binary(self, execution_ids: list[str]) -> None:
        """Delete the files these executions stored on disk (the database mode's rows go with the executions)."""
        await self.options.binary_data.delete_executions(execution_ids, modes=("filesystem",))

    def spawn(self, work: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        """Run ``work`` in the background; the runner keeps a reference and :meth:`drain` waits for it."""
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._forget)
        return task

    def _forget(self, task: asyncio.Task[Any]) -> None:
        self._background.discard(task)
        if not task.cancelled():
            task.exception()  # retrieved: the execution's own row records what went wrong

    async def drain(self, grace_seconds: float | None = None) -> None:
        """Wait for background executions (shutdown, CLI exit), at most ``grace_seconds``."""
        if self._background:
            await asyncio.wait(list(self._background), timeout=grace_seconds)

    def close(self) -> None:
        """Release the write lock's file and the hot-path writer; the store too when the runner opened it."""
        if self._store is None or self.executions is not self._store.executions:
            self.batch_writes_of(None)
            self.executions.close()  # the stdlib writer
            if self._store is not None:
                self.executions = self._store.executions
        if self._owns_store and self._store is not None:
            self._store.close()
            self._store = None
        if self.write_lock is not None:
            self.write_lock.close()
            self.write_lock = None

    def running_ids(self) -> list[str]:
        return list(self._running)

    # ------------------------------------------------------------------ use cases

    async def run(
        self,
        prepared: PreparedWorkflow,
        *,
        mode: str,
        start_node: str | None = None,
        trigger_items: list[Item] | None = None,
        parent_execution_id: str | None = None,
        retry_of: str | None = None,
        respond: ResponseSink | None = None,
        depth: int = 0,
        parent_execution: dict[str, Any] | None = None,
        started: Callable[[str], None] | None = None,
        begin: Callable[[Execution], Awaitable[Run]] | None = None,
        chunks: ChunkSink | None = None,
    ) -> RunResult:
        """Create the execution (``running``), run it to its end or its first wait, and save it.

        ``parent_execution`` (a sub-workflow's ``parentExecution``) is written into its data, so that a resumed child
        can resume its parent (:mod:`weft.services.subworkflows`). ``started`` is told the execution's id as soon
        as its row exists. ``begin`` starts the execution instead of running it from ``start_node`` (the editor's
        partial execution: ``Execution.run_partial``). ``chunks`` turns streaming on and gets each chunk the nodes
        send (a streaming chat). In queue mode a worker runs it
        (:mod:`weft.services.queue_client` says which executions stay here)."""
        if self.queue is not None and self.queue.takes(mode, begin, parent_execution):
            return await self.queue.run(
                prepared,
                mode=mode,
                start_node=start_node,
                trigger_items=trigger_items,
                parent_execution_id=parent_execution_id,
                retry_of=retry_of,
                respond=respond,
                started=started,
                chunks=chunks,
            )
        execution_id = await self.db_write(
            self.executions.create,
            prepared.data,
            mode,
            "running",
            parent_execution_id=parent_execution_id,
            retry_of=retry_of,
            **self.snapshot_texts.keywords(self.executions, prepared),
        )
        if started is not None:
            started(execution_id)
        services = DbServices(self, execution_id=execution_id, depth=depth, respond=respond)
        location = Location(str(prepared.workflow.id or ""), execution_id)
        trigger_items = await store_pending(self.options.binary_data, location, trigger_items)
        execution = self._execution(prepared, mode, execution_id, services, chunks=chunks)
        if parent_execution is not None:
            execution.hooks.on("workflowExecuteBefore", link_to_parent(parent_execution))
        if begin is not None:
            return await self._drive(execution, prepared, lambda: begin(execution))
        return await self._drive(
            execution, prepared, lambda: execution.run(start_node=start_node, trigger_items=trigger_items)
        )

    async def resume_claimed(
        self,
        stored: StoredExecution,
        *,
        resume_items: list[Item] | None = None,
        resume_request: dict[str, Any] | None = None,
        respond: ResponseSink | None = None,
    ) -> RunResult:
        """Continue an execution claimed by :func:`~weft.services.waiting.claim_waiting` (now ``running``).

        ``resume_items`` become the input the waiting node passes through (n8n: the resume webhook's output).
        A node that waits with ``waitReason: 'resume-node'`` runs again instead, and finds the request under
        its stack entry's ``metadata.resumeRequest``.
        """
        if stored.data is None or stored.workflow_data is None:
            loaded = await self.db(self.store.executions.get, stored.id)
            stored = loaded if loaded is not None else stored
        data = restore_waiting_keys(stored.data or empty_run_data())
        location = Location(str(stored.workflow_id or ""), stored.id)
        resume_items = await store_pending(self.options.binary_data, location, resume_items)
        seed_resume(data, resume_items, resume_request)
        if self.queue is not None:  # a worker runs it, and resumes its parent if it has one
            return await self.queue.resume(stored.id, data, respond)
        return await self._run_stored(stored, data, respond, from_start=False)

    async def run_queued(
        self, stored: StoredExecution, *, respond: ResponseSink | None = None, chunks: ChunkSink | None = None
    ) -> RunResult:
        """Run an execution a queue worker claimed: from its start when no node ran yet, else on from its last saved
        node (it was taken back from a worker that died, or it resumes from a wait)."""
        data = restore_waiting_keys(stored.data or empty_run_data())
        fresh = not data["resultData"]["runData"]
        return await self._run_stored(stored, data, respond, chunks, from_start=fresh)

    async def _run_stored(
        self,
        stored: StoredExecution,
        data: RunExecutionData,
        respond: ResponseSink | None,
        chunks: ChunkSink | None = None,
        *,
        from_start: bool,
    ) -> RunResult:
        """Drive a stored execution with ``data``; a sub-workflow that waited then resumes its parent."""
        prepared = prepare(stored.workflow_data or {}, self.registry)
        services = DbServices(self, execution_id=stored.id, depth=0, respond=respond)
        execution = self._execution(prepared, stored.mode, stored.id, services, data=data, chunks=chunks)
        result = await self._drive(execution, prepared, execution.start_prepared if from_start else execution.resume)
        if data.get("parentExecution"):  # a sub-workflow that waited: its parent waits for it
            self.spawn(resume_parent(self, result))
        return result

    async def stop_anywhere(self, execution_id: str) -> bool:
        """Cancel an execution running here, or (queue mode) on a worker or waiting in the queue; False when it does
        not run anywhere."""
        if self.stop(execution_id):
            return True
        return self.queue is not None and await self.queue.stop(execution_id)

    def stop(self, execution_id: str) -> bool:
        """Cancel an execution running in this process; False when it does not run here."""
        execution = self._running.get(execution_id)
        if execution is None:
            return False
        execution.cancel(ExecutionCancelledError("The execution was stopped", execution_id=execution_id))
        return True

    async def retry(self, stored: StoredExecution) -> RunResult:
        """Run a finished execution's workflow again from its start, with the same trigger input (mode ``retry``)."""
        first = first_task(stored.data or empty_run_data())
        prepared = prepare(stored.workflow_data or {}, self.registry)
        start = first[0] if first else None
        items = first[1] if first else None
        result = await self.run(prepared, mode="retry", start_node=start, trigger_items=items, retry_of=stored.id)
        if result.run.get("status") == "success":  # as n8n: the failed one is marked, and is offered no retry any more
            await self.db(self.store.executions.set_retry_success, stored.id, result.execution_id)
        return result

    # ------------------------------------------------------------------ internals

    def _execution(
        self,
        prepared: PreparedWorkflow,
        mode: str,
        execution_id: str,
        services: DbServices,
        data: RunExecutionData | None = None,
        chunks: ChunkSink | None = None,
    ) -> Execution:
        hooks = error_workflow_hooks(self, prepared, mode, execution_id)  # settings.errorWorkflow on failure
        add_save_hooks(self, hooks, prepared.settings, execution_id, self._outcomes.setdefault(execution_id, {}))
        if mode == "manual":  # the editor follows its runs live
            self.push.attach(hooks, execution_id, prepared.workflow.id)
        options = self.options
        if chunks is not None:  # a streaming answer: nodes that can stream send their chunks to it
            options = dataclasses.replace(options, streaming=True)
            hooks.on("sendChunk", chunks)
        return Execution(
            prepared.workflow,
            registry=self.registry,
            mode=mode,
            hooks=hooks,
            services=services,
            execution_id=execution_id,
            options=options,
            data=data,
        )

    async def _drive(
        self, execution: Execution, prepared: PreparedWorkflow, start: Callable[[], Awaitable[Run]]
    ) -> RunResult:
        execution_id = execution.execution_id or ""
        self._running[execution_id] = execution
        timer = self._instance_timeout(execution, prepared)
        try:
            run = await start()
        except BaseException:
            if self.log_errors:
                log.exception("Execution %s crashed", execution_id)
            await self.db_write(self.executions.move, execution_id, CRASH, **self.claim_of(execution_id))
            raise
        finally:
            self._running.pop(execution_id, None)
            if timer is not None:
                timer.cancel()
        if self.log_errors and run.get("status") == "error":
            _log_failure(execution_id, run)
        saved = self._outcomes.pop(execution_id, {}).get("saved", True)
        return RunResult(execution_id=execution_id, run=run, saved=saved)

    def claim_of(self, execution_id: str) -> dict[str, Claim]:
        """The keyword that makes a write check this worker's claim (none outside queue workers)."""
        claim = self.claims.get(execution_id)
        return {} if claim is None else {"claim": claim}

    def _instance_timeout(self, execution: Execution, prepared: PreparedWorkflow) -> asyncio.TimerHandle | None:
        timeout = self.settings.execution_timeout
        if timeout is None or prepared.workflow.settings.executionTimeout is not None:
            return None
        return asyncio.get_running_loop().call_later(timeout, execution.cancel, TimeoutExecutionCancelledError(timeout))


def _log_failure(execution_id: str, run: Run) -> None:
    error = (run.get("data") or {}).get("resultData", {}).get("error") or {}
    node = error.get("node")
    name = node.get("name") if isinstance(node, dict) else None
    log.warning(
        "Execution %s failed%s: %s\n%s",
        execution_id,
        f" in node {name!r}" if name else "",
        error.get("message"),
        error.get("stack") or "",
    )


__all__ = ["ChunkSink", "RunResult", "WorkflowRunner"]
