from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from weft.db import Cipher, NotFoundError, Store, empty_run_data
from weft.db.transitions import CANCEL, CRASH, RESUME
from weft.workflow.items import Run

MakeWorkflow = Callable[..., dict[str, Any]]
T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def iso(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


def make_run(status: str, *, mode: str = "webhook", stopped: datetime = T0, wait_till: str | None = None) -> Run:
    data = empty_run_data()
    data["resultData"]["runData"] = {
        "Start": [{"startTime": 1, "executionIndex": 0, "executionTime": 2, "source": [], "data": {"main": [[]]}}]
    }
    if status == "error":
        data["resultData"]["error"] = {"message": "boom", "name": "NodeOperationError", "node": {"name": "Set"}}
        data["resultData"]["lastNodeExecuted"] = "Set"
    if wait_till:
        data["waitTill"] = wait_till
    run: Run = {
        "data": data,
        "mode": mode,
        "startedAt": iso(stopped - timedelta(seconds=1)),
        "stoppedAt": iso(stopped),
        "status": status,  # type: ignore[typeddict-item]
        "finished": status == "success",
    }
    if wait_till:
        run["waitTill"] = wait_till
    return run


@pytest.fixture
def workflow(store: Store, make_workflow: MakeWorkflow) -> dict[str, Any]:
    return store.workflows.create(make_workflow(id="wf1")).data


def test_create_and_get(store: Store, workflow: dict[str, Any]) -> None:
    execution_id = store.executions.create(workflow, "manual", "running", parent_execution_id="7", retry_of="3")
    assert execution_id.isdigit()
    stored = store.executions.get(execution_id)
    assert stored is not None
    assert (stored.workflow_id, stored.mode, stored.status, stored.finished) == ("wf1", "manual", "running", False)
    assert (stored.parent_execution_id, stored.retry_of) == ("7", "3")
    assert stored.started_at is not None and stored.started_at.tzinfo is not None
    assert stored.workflow_data == workflow
    assert stored.data == empty_run_data()
    assert store.executions.get(execution_id, include_data=False).data is None  # type: ignore[union-attr]
    assert store.executions.get("999") is None and store.executions.get("not-a-number") is None


def test_a_failing_execution_is_stored_with_its_error_and_run_data(store: Store, workflow: dict[str, Any]) -> None:
    execution_id = store.executions.create(workflow, "webhook", "running")
    store.executions.update(execution_id, make_run("error"))
    stored = store.executions.get(execution_id)
    assert stored is not None and stored.status == "error" and stored.finished is False
    assert stored.stopped_at == T0
    assert stored.data is not None
    assert stored.data["resultData"]["error"]["message"] == "boom"
    assert "Start" in stored.data["resultData"]["runData"]
    assert stored.to_json()["stoppedAt"] == "2026-01-01T12:00:00.000Z"


def test_update_of_a_missing_execution(store: Store) -> None:
    with pytest.raises(NotFoundError, match="'42'"):
        store.executions.update("42", make_run("success"))


def test_waiting_run_stores_wait_till_and_is_found_when_due(store: Store, workflow: dict[str, Any]) -> None:
    soon = store.executions.create(workflow, "webhook", "running")
    later = store.executions.create(workflow, "webhook", "running")
    store.executions.update(soon, make_run("waiting", wait_till="2026-01-01T13:00:00.000Z"))
    store.executions.update(later, make_run("waiting", wait_till="3000-01-01T00:00:00.000Z"))
    assert store.executions.find_waiting(T0) == []
    due = store.executions.find_waiting(T0 + timedelta(hours=2))
    assert [e.id for e in due] == [soon]
    assert due[0].wait_till == datetime(2026, 1, 1, 13, tzinfo=UTC)


def test_a_move_happens_only_from_its_sources(store: Store, workflow: dict[str, Any]) -> None:
    execution_id = store.executions.create(workflow, "webhook", "waiting")
    assert store.executions.move(execution_id, RESUME) is True
    assert store.executions.move(execution_id, RESUME) is False  # a second resume link loses the race
    assert store.executions.get(execution_id).started_at is not None  # type: ignore[union-attr]
    assert store.executions.move(execution_id, CANCEL) is False  # running: Stop must reach the process
    assert store.executions.move(execution_id, CRASH) is True
    assert store.executions.get(execution_id).status == "crashed"  # type: ignore[union-attr]


def test_mark_crashed(store: Store, workflow: dict[str, Any]) -> None:
    running = store.executions.create(workflow, "webhook", "running")
    waiting = store.executions.create(workflow, "webhook", "waiting")
    new = store.executions.create(workflow, "webhook", "new")
    assert store.executions.mark_crashed() == [running]
    assert store.executions.get(running).status == "crashed"  # type: ignore[union-attr]
    assert store.executions.get(running).stopped_at is not None  # type: ignore[union-attr]
    assert store.executions.get(waiting).status == "waiting"  # type: ignore[union-attr]
    assert store.executions.get(new).status == "new"  # type: ignore[union-attr]
    assert store.executions.mark_crashed() == []


def test_list_filters_and_pages(store: Store, workflow: dict[str, Any]) -> None:
    ids = [store.executions.create(workflow, "webhook", "running") for _ in range(5)]
    other = store.executions.create({"id": "other"}, "manual", "running")
    store.executions.update(ids[0], make_run("error"))
    assert [e.id for e in store.executions.list()] == [other, *reversed(ids)]
    assert [e.id for e in store.executions.list(workflow_id="wf1", limit=2)] == [ids[4], ids[3]]
    assert [e.id for e in store.executions.list(workflow_id="wf1", last_id=ids[3])] == [ids[2], ids[1], ids[0]]
    assert [e.id for e in store.executions.list(statuses=["error"])] == [ids[0]]
    assert [e.id for e in store.executions.list(started_before=T0)] == [ids[0]]
    assert ids[0] not in [e.id for e in store.executions.list(started_after=T0)]
    assert store.executions.count(workflow_id="wf1") == 5
    assert store.executions.count(statuses=["running"]) == 5


def test_delete(store: Store, workflow: dict[str, Any]) -> None:
    a, b = store.executions.create(workflow, "manual"), store.executions.create(workflow, "manual")
    assert store.executions.delete([a, "12345"]) == 1
    assert store.executions.get(a) is None and store.executions.get(b) is not None
    assert store.executions.delete([]) == 0


def test_prune_by_age_keeps_unfinished(store: Store, workflow: dict[str, Any]) -> None:
    old = store.executions.create(workflow, "webhook", "running")
    store.executions.update(old, make_run("success", stopped=T0 - timedelta(hours=400)))
    recent = store.executions.create(workflow, "webhook", "running")
    store.executions.update(recent, make_run("error", stopped=T0 - timedelta(hours=1)))
    still_running = store.executions.create(workflow, "webhook", "running")
    assert store.executions.prune(336, 0, now=T0) == [old]
    assert {e.id for e in store.executions.list()} == {recent, still_running}


def test_prune_by_count(store: Store, workflow: dict[str, Any]) -> None:
    ids = []
    for _ in range(5):
        ids.append(store.executions.create(workflow, "webhook", "running"))
        store.executions.update(ids[-1], make_run("success", stopped=T0))
    waiting = store.executions.create(workflow, "webhook", "waiting")
    # The newest 3 are the waiting one and ids[4], ids[3]; of the rest, the waiting one is never pruned.
    assert sorted(store.executions.prune(0, 3, now=T0), key=int) == ids[:3]
    assert [e.id for e in store.executions.list()] == [waiting, ids[4], ids[3]]
    assert store.executions.prune(0, 0, now=T0) == []


def test_finish_keeps_or_deletes_by_the_save_settings(store: Store, workflow: dict[str, Any]) -> None:
    kept = store.executions.create(workflow, "webhook", "running")
    assert store.executions.finish(kept, make_run("success")) is True
    assert store.executions.get(kept).status == "success"  # type: ignore[union-attr]

    dropped = store.executions.create(workflow, "webhook", "running")
    settings = {"saveDataSuccessExecution": "none"}
    assert store.executions.finish(dropped, make_run("success"), workflow_settings=settings) is False
    assert store.executions.get(dropped) is None

    waiting = store.executions.create(workflow, "webhook", "running")
    run = make_run("waiting", wait_till="3000-01-01T00:00:00.000Z")
    assert store.executions.finish(waiting, run, workflow_settings={"saveDataErrorExecution": "none"}) is True


def test_large_unicode_data_round_trips(store: Store, workflow: dict[str, Any]) -> None:
    execution_id = store.executions.create(workflow, "webhook", "running")
    run = make_run("success")
    items = [{"json": {"i": i, "text": "héllo ✓ 日本"}} for i in range(5000)]
    run["data"]["resultData"]["runData"]["Start"][0]["data"] = {"main": [items]}  # type: ignore[list-item]
    store.executions.update(execution_id, run)
    stored = store.executions.get(execution_id)
    assert stored is not None and stored.data == run["data"]


def test_concurrent_writers_from_threads(store: Store, workflow: dict[str, Any], db_url: str) -> None:
    """The server calls repositories through asyncio.to_thread; a second process has its own Store."""
    other = Store.open(db_url, Cipher("test-encryption-key"), upgrade=False)

    def one(index: int) -> str:
        repository = (store if index % 2 else other).executions
        execution_id = repository.create(workflow, "webhook", "running")
        repository.finish(execution_id, make_run("success"))
        return execution_id

    try:
        with ThreadPoolExecutor(8) as pool:
            ids = list(pool.map(one, range(200)))
    finally:
        other.close()
    assert len(set(ids)) == 200
    assert store.executions.count(statuses=["success"]) == 200
