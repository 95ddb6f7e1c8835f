"""The files an execution stores go with it: pruned, not saved, its workflow deleted; in the database mode too."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from weft.db import Store
from weft.services import save_hooks
from weft.services.prepared import prepare
from weft.services.runner import WorkflowRunner
from weft.services.scheduler import Pruner
from weft.settings import Settings
from weft.testing.workflows import connect, node, workflow


def _file_workflow(**settings: Any) -> dict[str, Any]:
    """Manual Trigger → Convert to File (a text file made from a field)."""
    make = node(
        "File",
        "n8n-nodes-base.convertToFile",
        {"operation": "toText", "sourceProperty": "text", "options": {"fileName": "note.txt"}},
        version=1.1,
        position=(400, 0),
    )
    text_node = node(
        "Text",
        "n8n-nodes-base.set",
        {"assignments": {"assignments": [{"name": "text", "value": "hello file", "type": "string"}]}},
        version=3.4,
        position=(200, 0),
    )
    return workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        text_node,
        make,
        connect("Start", "Text"),
        connect("Text", "File"),
        **settings,
    )


async def _run(runner: WorkflowRunner, data: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    result = await runner.run(prepare(data, runner.registry), mode="trigger")
    entry = result.run["data"]["resultData"]["runData"]["File"][0]["data"]["main"][0][0]["binary"]["data"]
    return result.execution_id, entry


def _path(settings: Settings, entry: dict[str, Any]) -> Path:
    return settings.binary_storage_folder / entry["id"].split(":", 1)[1]


async def test_pruning_deletes_the_pruned_executions_files(runner: WorkflowRunner, settings: Settings) -> None:
    data = _file_workflow()
    _, old = await _run(runner, data)
    _, new = await _run(runner, data)
    assert _path(settings, old).read_bytes() == b"hello file"
    object.__setattr__(runner.settings, "executions_data_prune_max_count", 1)
    pruned = await Pruner(runner).prune()
    assert len(pruned) == 1
    assert not _path(settings, old).exists() and not _path(settings, old).parent.parent.exists()
    assert _path(settings, new).read_bytes() == b"hello file"


async def test_an_unsaved_executions_files_go_soon_after_it(
    runner: WorkflowRunner, settings: Settings, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(save_hooks, "UNSAVED_FILES_GRACE_S", 0.05)
    execution_id, entry = await _run(runner, _file_workflow(saveDataSuccessExecution="none"))
    assert store.executions.get(execution_id) is None
    assert _path(settings, entry).exists()  # for a moment, in case an answer streams it
    for _ in range(200):
        if not _path(settings, entry).exists():
            break
        await asyncio.sleep(0.02)
    assert not _path(settings, entry).exists()


async def test_deleting_a_workflow_deletes_its_files(runner: WorkflowRunner, settings: Settings, store: Store) -> None:
    data = {**_file_workflow(), "id": "cleanupWorkflow1"}
    store.workflows.import_workflow(data)
    _, entry = await _run(runner, data)
    assert "/workflows/cleanupWorkflow1/executions/" in str(_path(settings, entry))
    assert _path(settings, entry).exists()
    assert await runner.delete_workflow(data["id"])
    assert not (settings.binary_storage_folder / "workflows" / data["id"]).exists()


async def test_the_database_mode_prunes_rows_with_the_execution(settings: Settings, store: Store) -> None:
    database = Settings(**{**settings.__dict__, "binary_data_mode": "database"})
    runner = WorkflowRunner(store, database)
    try:
        execution_id, entry = await _run(runner, _file_workflow())
        assert entry["data"] == "database" and await runner.options.binary_data.get_bytes(entry) == b"hello file"
        assert await runner.delete_executions([execution_id]) == 1
        with store.db.sessions() as session:
            assert session.execute(text("SELECT count(*) FROM binary_data_chunk")).scalar() == 0
            assert session.execute(text("SELECT count(*) FROM binary_data")).scalar() == 0
    finally:
        runner.close()
