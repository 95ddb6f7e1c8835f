"""The runner's hot path on SQLite (the stdlib writer): what it keeps between executions changes nothing stored.

A prepared workflow's snapshot is encoded once and reused; each execution's ``$execution.resumeUrl`` is signed once
per execution. Both must store and answer exactly what encoding and signing each time would.
"""

from __future__ import annotations

import gc
import json
import sqlite3
from typing import Any

from weft.db import Store
from weft.db.lite import LiteExecutions
from weft.services.import_export import open_store
from weft.services.prepared import prepare
from weft.services.runner import WorkflowRunner
from weft.settings import Settings
from weft.testing.workflows import connect, node, workflow


def _workflow(name: str) -> dict[str, Any]:
    url = {"id": "u", "name": "url", "value": "={{ $execution.resumeUrl }}", "type": "string"}
    data = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("Set", "n8n-nodes-base.set", {"assignments": {"assignments": [url]}}, version=3.4),
        node("Again", "n8n-nodes-base.set", {"assignments": {"assignments": [url]}}, version=3.4),
        connect("Start", "Set"),
        connect("Set", "Again"),
    )
    data["id"], data["name"] = "wf-hot", name
    return data


def _raw_snapshot(settings: Settings, execution_id: str) -> str:
    path = settings.database_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as connection:
        row = connection.execute(
            "SELECT workflow_data FROM execution_data WHERE execution_id = ?", (int(execution_id),)
        ).fetchone()
    return str(row[0])


async def test_each_execution_stores_its_own_snapshot_and_signed_url(
    inline_runner: WorkflowRunner, settings: Settings
) -> None:
    first, renamed = (
        prepare(_workflow("first"), inline_runner.registry),
        prepare(_workflow("renamed"), inline_runner.registry),
    )
    results = [await inline_runner.run(p, mode="trigger") for p in (first, first, renamed, first)]
    store: Store = inline_runner.store
    for result, prepared in zip(results, (first, first, renamed, first), strict=True):
        stored = store.executions.get(result.execution_id)
        assert stored is not None and stored.status == "success"
        assert stored.workflow_data == prepared.data
        run_data: Any = stored.data
        expected = f"{settings.base_url.rstrip('/')}/webhook-waiting/{result.execution_id}?signature="
        expected += inline_runner.signer.sign(result.execution_id)
        for name in ("Set", "Again"):
            assert run_data["resultData"]["runData"][name][0]["data"]["main"][0][0]["json"] == {"url": expected}
        if isinstance(inline_runner.executions, LiteExecutions):  # byte for byte what the repository writes
            assert _raw_snapshot(settings, result.execution_id) == json.dumps(prepared.data)


def test_the_repository_is_given_no_snapshot_text(settings: Settings) -> None:
    store = open_store(settings)
    runner = WorkflowRunner(store, settings)  # not inline: the SQLAlchemy repository creates the rows
    try:
        assert runner.snapshot_texts.keywords(runner.executions, prepare(_workflow("x"), runner.registry)) == {}
    finally:
        runner.close()
        store.close()


async def test_a_snapshot_text_lives_only_as_long_as_its_workflow(inline_runner: WorkflowRunner) -> None:
    prepared = prepare(_workflow("short-lived"), inline_runner.registry)
    await inline_runner.run(prepared, mode="trigger")
    kept = len(inline_runner.snapshot_texts.texts)
    assert kept == (1 if isinstance(inline_runner.executions, LiteExecutions) else 0)
    del prepared
    gc.collect()
    assert inline_runner.snapshot_texts.texts == {}
