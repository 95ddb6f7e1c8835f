"""A worker's fetch of a job that also claims the job's execution (PostgreSQL, real Procrastinate functions): the
claim it takes is the one the job's task uses (no second claim), and everything a separate claim refused is
refused still: a job delivered twice, an execution that ended, waits or a live worker holds, a tool job (which
claims nothing); a claim the fetch could not take is taken by the task as before; a worker that dies after the
fetch leaves a lease that expires."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import procrastinate
import pytest
from sqlalchemy import select, text

from weft.db import Store
from weft.db.claims import insert_queued
from weft.db.executions import new_execution
from weft.db.orm import Base, ExecutionClaimEntity
from weft.queue import fetching, tasks
from weft.services.queue_worker import QueueWorker
from weft.services.runner import WorkflowRunner
from weft.settings import Settings

pytestmark = pytest.mark.postgres
WORKFLOW = {"id": "wf1", "name": "fetch claim", "nodes": [], "connections": {}}
_CLAIMS = Base.metadata.tables[ExecutionClaimEntity.__tablename__]
LEASE = 30.0


@dataclass
class Worker:
    app: procrastinate.App
    claimant: fetching.Claimant
    worker_id: int

    async def fetch(self) -> procrastinate.jobs.Job | None:
        return await self.app.job_manager.fetch_job(queues=[tasks.QUEUE], worker_id=self.worker_id)


@pytest.fixture
def store(postgres_store: Store) -> Store:
    return postgres_store


@pytest.fixture
async def worker(store: Store) -> AsyncIterator[Worker]:
    app = tasks.task_app(store.db.engine.url.render_as_string(hide_password=False))
    async with app.open_async():
        await tasks.ensure_schema(app)
        claimant = fetching.Claimant(tasks.statements(app), "w1", LEASE)
        fetching.install(app, claimant)
        yield Worker(app, claimant, await app.job_manager.register_worker())


async def _queued(worker: Worker, status: str = "new") -> str:
    """An execution stored and queued as a main does it: execution, data, claim and job in one statement."""
    row, payload = new_execution(WORKFLOW, "webhook", status, None, None, None)
    return str(await insert_queued(tasks.statements(worker.app), row, payload, tasks.queued_job()))


def _claim(store: Store, execution_id: str) -> Any:
    with store.db.engine.connect() as connection:
        return connection.execute(select(_CLAIMS).where(_CLAIMS.c.execution_id == int(execution_id))).first()


def _set(store: Store, sql: str, execution_id: str) -> None:
    """Change the execution's claim: ``sql`` sets its columns."""
    with store.db.engine.begin() as connection:
        connection.execute(
            text(f"UPDATE execution_claim SET {sql} WHERE execution_id = :id"), {"id": int(execution_id)}
        )


async def test_the_fetch_claims_the_execution_and_the_task_uses_that_claim(store: Store, worker: Worker) -> None:
    execution_id = await _queued(worker)
    job = await worker.fetch()
    assert job is not None and job.task_name == tasks.TASK and job.task_kwargs["execution_id"] == execution_id
    held = _claim(store, execution_id)
    assert held.worker == "w1" and held.lease_until is not None
    assert store.executions.get(execution_id, include_data=False).status == "running"  # type: ignore[union-attr]
    claimed = await worker.claimant.claim(execution_id)
    assert claimed is not None
    claim, stored = claimed
    assert claim.token == _claim(store, execution_id).token  # the fetch's claim: not taken a second time
    assert stored.id == execution_id and stored.status == "running" and stored.workflow_data == WORKFLOW
    assert await worker.fetch() is None


async def test_a_job_delivered_twice_does_nothing_the_second_time(store: Store, worker: Worker) -> None:
    execution_id = await _queued(worker)
    assert await worker.fetch() is not None
    assert await worker.claimant.claim(execution_id) is not None
    token = _claim(store, execution_id).token
    await tasks.defer(worker.app, execution_id)  # the same execution's job again
    again = await worker.fetch()
    assert again is not None and again.task_kwargs["execution_id"] == execution_id
    assert await worker.claimant.claim(execution_id) is None
    assert _claim(store, execution_id).token == token


async def test_a_tool_job_claims_nothing(store: Store, worker: Worker) -> None:
    execution_id = await _queued(worker)
    with store.db.engine.begin() as connection:  # the execution's own job ran
        connection.execute(text("UPDATE procrastinate_jobs SET status = 'succeeded'"))
    arguments = {"execution_id": execution_id, "request": "r1", "entry": {}, "run_index": 0, "inputs": []}
    await tasks.defer_tool(worker.app, **arguments)
    job = await worker.fetch()
    assert job is not None and job.task_name == tasks.TOOL_TASK
    queued = _claim(store, execution_id)
    assert queued.worker is None and queued.lease_until is None
    assert store.executions.get(execution_id, include_data=False).status == "new"  # type: ignore[union-attr]


@pytest.mark.parametrize("status", ["success", "canceled", "waiting"])
async def test_a_claim_whose_execution_may_not_run_is_dropped(store: Store, worker: Worker, status: str) -> None:
    execution_id = await _queued(worker, status)
    assert await worker.fetch() is not None
    assert await worker.claimant.claim(execution_id) is None
    assert _claim(store, execution_id) is None  # the claim the fetch took is ended, not left to expire
    assert store.executions.get(execution_id, include_data=False).status == status  # type: ignore[union-attr]


async def test_an_execution_a_live_worker_holds_is_not_taken(store: Store, worker: Worker) -> None:
    execution_id = await _queued(worker)
    _set(store, "worker = 'w2', lease_until = now() + interval '1 hour'", execution_id)
    assert await worker.fetch() is not None
    assert await worker.claimant.claim(execution_id) is None
    assert _claim(store, execution_id).worker == "w2"


async def test_a_claim_the_fetch_could_not_take_is_taken_by_the_task(store: Store, worker: Worker) -> None:
    """As when the fetch's statement began before the execution was stored (its claim row not yet visible)."""
    execution_id = await _queued(worker)
    _set(store, "worker = 'w2', lease_until = now() + interval '1 hour'", execution_id)
    assert await worker.fetch() is not None
    _set(store, "worker = NULL, lease_until = NULL", execution_id)  # free again
    claimed = await worker.claimant.claim(execution_id)
    assert claimed is not None and _claim(store, execution_id).token == claimed[0].token
    assert _claim(store, execution_id).worker == "w1"


async def test_a_worker_that_dies_after_the_fetch_leaves_a_lease_that_expires(store: Store, worker: Worker) -> None:
    execution_id = await _queued(worker)
    assert await worker.fetch() is not None  # and the worker dies: its task never runs
    _set(store, "lease_until = now() - interval '1 second'", execution_id)
    assert [e for e, _ in store.claims.release_expired()] == [execution_id]
    assert store.claims.claim(execution_id, "w2", LEASE) is not None  # another worker resumes it


async def test_a_main_without_a_claimant_fetches_as_procrastinate_does(store: Store, worker: Worker) -> None:
    execution_id = await _queued(worker)
    manager: Any = worker.app.job_manager
    manager.claimant = None
    job = await worker.fetch()
    assert job is not None and job.task_kwargs["execution_id"] == execution_id
    assert _claim(store, execution_id).lease_until is None


async def test_the_workers_task_runs_on_the_claim_its_fetch_took(store: Store, tmp_path: Path) -> None:
    url = store.db.engine.url.render_as_string(hide_password=False)
    settings = Settings.from_env({"WEFT_USER_FOLDER": str(tmp_path), "WEFT_DATABASE_URL": url})
    runner = WorkflowRunner(store, settings)
    queue_worker = QueueWorker(runner, tasks.task_app(url), name="w1")
    queue_worker.register()
    try:
        async with queue_worker.app.open_async():
            await tasks.ensure_schema(queue_worker.app)
            worker = Worker(
                queue_worker.app, queue_worker.claimant, await queue_worker.app.job_manager.register_worker()
            )
            execution_id = await _queued(worker)  # its start was never stored: the task abandons it, with its claim
            job = await worker.fetch()
            assert job is not None and job.task_kwargs["execution_id"] == execution_id
            await queue_worker.run_job(execution_id)
    finally:
        runner.close()
    assert store.executions.get(execution_id, include_data=False).status == "crashed"  # type: ignore[union-attr]
    assert _claim(store, execution_id) is None
