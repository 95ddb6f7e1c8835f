"""A worker's lease renewal (PostgreSQL): a renewal that fails because the worker's own last write ended the claim
does not stop the execution (its end would never reach the main, whose webhook call would wait forever); one that
fails because another worker took the execution over does."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from weft.db.test_support import TEST_DATABASE_URL, reset_schema
from weft.queue.tasks import task_app
from weft.services.import_export import open_store
from weft.services.queue_worker import QueueWorker
from weft.services.runner import WorkflowRunner
from weft.settings import Settings
from weft.workflow.items import empty_run_data

pytestmark = pytest.mark.postgres
WORKFLOW = {"id": "wf1", "name": "leases", "nodes": [], "connections": {}}


@pytest.fixture
def worker(tmp_path: Path) -> Iterator[QueueWorker]:
    if not TEST_DATABASE_URL:
        pytest.skip("queue mode needs PostgreSQL: set WEFT_TEST_DATABASE_URL (bash scripts/start_postgres.sh)")
    url = reset_schema(TEST_DATABASE_URL, "weft_leases")
    env = {"WEFT_USER_FOLDER": str(tmp_path), "WEFT_DATABASE_URL": url, "WEFT_EXECUTIONS_MODE": "queue"}
    settings = Settings.from_env(env)
    store = open_store(settings)
    runner = WorkflowRunner(store, settings)
    try:
        yield QueueWorker(runner, task_app(settings.database_url), name="w1")
    finally:
        runner.close()
        store.close()


def _claimed(worker: QueueWorker) -> tuple[str, object]:
    store = worker.runner.store
    execution_id = store.executions.create(WORKFLOW, "webhook", "new")
    store.claims.queue(execution_id)
    claim = store.claims.claim(execution_id, worker.name, 30)
    assert claim is not None
    return execution_id, claim


def test_a_renewal_that_comes_after_the_workers_own_last_write_does_not_stop_the_execution(
    worker: QueueWorker,
) -> None:
    store = worker.runner.store
    execution_id, claim = _claimed(worker)
    run = {"status": "success", "finished": True, "mode": "webhook", "data": empty_run_data()}
    store.executions.finish(execution_id, run, claim=claim)  # type: ignore[arg-type]
    assert not store.claims.renew(execution_id, claim)  # type: ignore[arg-type]
    assert not asyncio.run(worker._taken_over(execution_id))


def test_a_renewal_that_finds_the_execution_taken_over_stops_it(worker: QueueWorker) -> None:
    store = worker.runner.store
    execution_id, claim = _claimed(worker)
    with store.db.engine.begin() as connection:
        connection.execute(
            text("UPDATE execution_claim SET lease_until = now() - interval '1 second' WHERE execution_id = :id"),
            {"id": int(execution_id)},
        )
    assert [e for e, _ in store.claims.release_expired()] == [execution_id]
    assert store.claims.claim(execution_id, "w2", 30) is not None
    assert not store.claims.renew(execution_id, claim)  # type: ignore[arg-type]
    assert asyncio.run(worker._taken_over(execution_id))
