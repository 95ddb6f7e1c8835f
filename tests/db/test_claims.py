"""Queue mode's claims (PostgreSQL): one holder at a time, a taken-over worker's writes refused, leases that
expire and are taken back once."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from weft.db import Store
from weft.db.claims import Claim, StaleClaimError
from weft.db.transitions import CANCEL, CRASH
from weft.workflow.items import empty_run_data

pytestmark = pytest.mark.postgres
WORKFLOW = {"id": "wf1", "name": "claims", "nodes": [], "connections": {}}


@pytest.fixture
def store(postgres_store: Store) -> Store:
    return postgres_store


def _queued(store: Store) -> str:
    execution_id = store.executions.create(WORKFLOW, "webhook", "new")
    store.claims.queue(execution_id)
    return execution_id


def _expire(store: Store, execution_id: str) -> None:
    with store.db.engine.begin() as connection:
        connection.execute(
            text("UPDATE execution_claim SET lease_until = now() - interval '1 second' WHERE execution_id = :id"),
            {"id": int(execution_id)},
        )


def _run(status: str = "success") -> dict[str, object]:
    return {"status": status, "finished": status == "success", "mode": "webhook", "data": empty_run_data()}


def test_only_one_worker_claims_an_execution(store: Store) -> None:
    execution_id = _queued(store)
    first = store.claims.claim(execution_id, "w1", 30)
    assert first is not None
    assert store.claims.claim(execution_id, "w2", 30) is None  # a second delivery of the job does nothing
    assert store.claims.holder(execution_id) == "w1"
    assert store.executions.get(execution_id, include_data=False).status == "running"  # type: ignore[union-attr]


def test_a_worker_whose_lease_was_taken_over_cannot_write(store: Store) -> None:
    execution_id = _queued(store)
    stale = store.claims.claim(execution_id, "w1", 30)
    assert stale is not None
    _expire(store, execution_id)
    assert [e for e, _ in store.claims.release_expired()] == [execution_id]
    fresh = store.claims.claim(execution_id, "w2", 30)
    assert fresh is not None and fresh.token != stale.token
    with pytest.raises(StaleClaimError, match="no longer held by this worker"):
        store.executions.save_progress(execution_id, empty_run_data(), claim=stale)
    with pytest.raises(StaleClaimError):
        store.executions.finish(execution_id, _run("error"), claim=stale)  # type: ignore[arg-type]
    assert not store.claims.renew(execution_id, stale)
    assert store.executions.get(execution_id, include_data=False).status == "running"  # type: ignore[union-attr]
    assert store.executions.finish(execution_id, _run(), claim=fresh)  # type: ignore[arg-type]
    assert store.executions.get(execution_id, include_data=False).status == "success"  # type: ignore[union-attr]


def test_the_last_write_ends_the_claim_and_a_late_delivery_runs_nothing(store: Store) -> None:
    execution_id = _queued(store)
    claim = store.claims.claim(execution_id, "w1", 30)
    assert claim is not None
    store.executions.finish(execution_id, _run(), claim=claim)  # type: ignore[arg-type]
    assert store.claims.holder(execution_id) is None
    assert store.claims.claim(execution_id, "w2", 30) is None
    assert store.claims.release_expired() == []


def test_a_renewed_lease_is_not_taken_back(store: Store) -> None:
    execution_id = _queued(store)
    claim = store.claims.claim(execution_id, "w1", 30)
    assert claim is not None
    _expire(store, execution_id)
    assert store.claims.renew(execution_id, claim)  # renewed before anyone took it back
    assert store.claims.release_expired() == []
    assert store.claims.claim(execution_id, "w2", 30) is None


def test_a_stopped_queued_execution_is_not_run(store: Store) -> None:
    execution_id = _queued(store)
    assert store.executions.move(execution_id, CANCEL)
    assert store.claims.claim(execution_id, "w1", 30) is None
    assert store.claims.holder(execution_id) is None  # the leftover claim row is gone


def test_claims_are_forged_by_no_token_guess(store: Store) -> None:
    execution_id = _queued(store)
    claim = store.claims.claim(execution_id, "w1", 30)
    assert claim is not None
    forged = Claim(token=claim.token + 1, lease_seconds=30)
    with pytest.raises(StaleClaimError):
        store.executions.move(execution_id, CRASH, claim=forged)


def test_an_execution_stored_but_never_queued_is_an_orphan_after_a_while(store: Store) -> None:
    lost = store.executions.create(WORKFLOW, "webhook", "new")  # its main stopped before queueing it
    queued = _queued(store)
    store.claims.set_job(queued, 7)
    with store.db.engine.begin() as connection:
        connection.execute(text("UPDATE execution_entity SET created_at = now() - interval '2 minutes'"))
    assert store.claims.orphans(60) == [lost]
    assert store.claims.orphans(600) == []
