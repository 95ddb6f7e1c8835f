"""A parent whose child finished while the process was gone (after the child's end, before its parent's resume)
is resumed at the next start. Real SQLite; the crash is a runner that never starts the parent's resume."""

from __future__ import annotations

from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from weft.services.import_export import open_store
from weft.services.prepared import prepare
from weft.services.runner import WorkflowRunner
from weft.services.subworkflows import resume_orphaned_parents
from weft.services.waiting import claim_waiting
from weft.settings import Settings

from .conftest import sub_wait_pair


class _DiesBeforeResumingParents(WorkflowRunner):
    """Drops the background work it is given, as a process killed right after a child finished would."""

    def spawn(self, work: Coroutine[Any, Any, Any]) -> Any:
        work.close()
        return None


async def test_a_parent_left_waiting_for_a_finished_child_is_resumed_at_start(tmp_path: Path) -> None:
    settings = Settings(user_folder=tmp_path, database_url=f"sqlite:///{tmp_path / 'weft.sqlite'}", encryption_key="k")
    store = open_store(settings)
    parent, child = sub_wait_pair("orphan")
    store.workflows.create(child)
    dying = _DiesBeforeResumingParents(store, settings)
    started = await dying.run(prepare(parent, dying.registry), mode="webhook", trigger_items=[{"json": {}}])
    assert started.run["status"] == "waiting"
    (child_row,) = [e for e in store.executions.list() if e.parent_execution_id == started.execution_id]
    claimed = await claim_waiting(dying, child_row.id, check_signature=False)
    finished = await dying.resume_claimed(claimed, resume_items=[{"json": {"body": {"answer": "late"}}}])
    assert finished.run["status"] == "success"
    assert store.executions.get(started.execution_id).status == "waiting"  # type: ignore[union-attr]
    dying.close()

    restarted = WorkflowRunner(store, settings)
    assert await resume_orphaned_parents(restarted) == [started.execution_id]
    done = store.executions.get(started.execution_id)
    assert done is not None and done.status == "success" and done.data is not None
    assert done.data["resultData"]["runData"]["Done"][0]["data"]["main"][0][0]["json"] == {"final": "hello Ada: late"}
    assert await resume_orphaned_parents(restarted) == []
    restarted.close()
    store.close()
