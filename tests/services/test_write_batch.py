"""Group commit of the hot path's SQLite writes: the writes of one event-loop step in one transaction, each caller
with its own result or error, nothing written out of order with a large write."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from weft.db import Store
from weft.db.base import NotFoundError
from weft.db.lite import LiteExecutions
from weft.services.db_calls import DbCalls
from weft.services.runner import WorkflowRunner
from weft.services.write_lock import sqlite_write_lock
from weft.settings import Settings
from weft.workflow.items import Run, empty_run_data

WORKFLOW = {"id": "wf1", "name": "batched", "nodes": [], "connections": {}}


class CountingWriter(LiteExecutions):
    """The stdlib writer, counting its batches (one transaction each)."""

    batches = 0

    def batch(self) -> Any:
        self.batches += 1
        return super().batch()


def _run(status: str = "success") -> Run:
    return {"data": empty_run_data(), "mode": "webhook", "status": status, "finished": status == "success"}  # type: ignore[typeddict-item]


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """SQLite only (the folder's ``store`` fixture opens it): group commit is the stdlib SQLite writer's."""
    return Settings(user_folder=tmp_path, database_url=f"sqlite:///{tmp_path / 'weft.db'}", encryption_key="k")


@pytest.fixture
def calls(store: Store, settings: Settings) -> Iterator[tuple[DbCalls, CountingWriter]]:
    lock = sqlite_write_lock(settings.database_url)
    writer = LiteExecutions.open(settings.database_url, same_thread=False)
    assert writer is not None and lock is not None
    writer.__class__ = CountingWriter
    db = DbCalls(inline_db=True, write_lock=lock)
    db.batch_writes_of(writer)
    yield db, writer  # type: ignore[misc]
    writer.close()
    lock.close()


async def test_the_writes_of_one_step_are_one_transaction(store: Store, calls: tuple[DbCalls, CountingWriter]) -> None:
    db, writer = calls
    ids = await asyncio.gather(*(db.db_write(writer.create, WORKFLOW, "webhook", "running") for _ in range(3)))
    assert writer.batches == 1
    assert len(set(ids)) == 3
    assert await asyncio.gather(*(db.db_write(writer.finish, i, _run()) for i in ids)) == [True, True, True]
    assert writer.batches == 2
    assert [store.executions.get(i).status for i in ids] == ["success"] * 3  # type: ignore[union-attr]


async def test_a_lone_write_is_a_transaction_of_its_own(store: Store, calls: tuple[DbCalls, CountingWriter]) -> None:
    db, writer = calls
    first = await db.db_write(writer.create, WORKFLOW, "webhook", "running")
    second = await db.db_write(writer.create, WORKFLOW, "webhook", "running")
    assert writer.batches == 0 and int(second) == int(first) + 1


async def test_a_failing_write_fails_alone(store: Store, calls: tuple[DbCalls, CountingWriter]) -> None:
    db, writer = calls
    good = await db.db_write(writer.create, WORKFLOW, "webhook", "running")
    outcomes = await asyncio.gather(
        db.db_write(writer.create, WORKFLOW, "webhook", "running"),
        db.db_write(writer.update, "999999", _run()),  # no such execution
        db.db_write(writer.finish, good, _run()),
        return_exceptions=True,
    )
    created, missing, finished = outcomes
    assert isinstance(missing, NotFoundError)
    assert finished is True and store.executions.get(good).status == "success"  # type: ignore[union-attr]
    assert store.executions.get(str(created)).status == "running"  # type: ignore[union-attr]
    assert writer.batches == 1  # tried together, rolled back, then made one by one


async def test_writes_wait_for_a_large_write_in_a_thread(store: Store, calls: tuple[DbCalls, CountingWriter]) -> None:
    """A large write (run data of many items) goes to a thread; a write of the same writer that comes meanwhile is
    made after it, not at the same time on the same connection."""
    db, writer = calls
    execution_id = await db.db_write(writer.create, WORKFLOW, "webhook", "running")
    entered, release = threading.Event(), threading.Event()
    order: list[str] = []

    def large(run: Run) -> bool:
        entered.set()
        release.wait(10)
        order.append("large")
        return writer.finish(execution_id, run)

    large_write = asyncio.ensure_future(db.db_write_large(large, _run()))
    await asyncio.to_thread(entered.wait, 10)
    small = asyncio.ensure_future(db.db_write(writer.create, WORKFLOW, "webhook", "running"))
    for _ in range(5):  # the small write's step, and the flush it scheduled, come and go
        await asyncio.sleep(0)
    assert not small.done() and order == []
    release.set()
    assert await large_write is True
    await small
    assert order == ["large"]


async def test_the_runner_batches_its_executions(settings: Settings, store: Store) -> None:
    """Executions started together are stored and saved right, their writes batched."""
    from weft.services.prepared import prepare

    runner = WorkflowRunner(store, settings, inline_db=True)
    try:
        assert runner.batch is not None and runner.batch.writer is runner.executions
        workflow = {
            "name": "noop",
            "nodes": [{"name": "Start", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "position": [0, 0],
                       "parameters": {}}],
            "connections": {},
        }  # fmt: skip
        prepared = prepare(workflow, runner.registry)
        results = await asyncio.gather(*(runner.run(prepared, mode="webhook") for _ in range(4)))
        stored = [store.executions.get(r.execution_id) for r in results]
        assert [s.status for s in stored] == ["success"] * 4  # type: ignore[union-attr]
        assert len({r.execution_id for r in results}) == 4
    finally:
        runner.close()
    assert runner.batch is None
