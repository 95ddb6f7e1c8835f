import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from weft.db import NotFoundError, Store, WebhookSpec
from weft.errors import WorkflowFileError

from .conftest import EXAMPLES

MakeWorkflow = Callable[..., dict[str, Any]]


def test_create_generates_an_n8n_style_id(store: Store, make_workflow: MakeWorkflow) -> None:
    stored = store.workflows.create(make_workflow("A"))
    assert re.fullmatch(r"[0-9A-Za-z]{16}", stored.id)
    assert stored.name == "A" and stored.active is False and stored.version_id
    assert store.workflows.get(stored.id) == stored
    assert stored.model().nodes[1].name == "Set"


def test_create_keeps_the_json_id_and_refuses_a_taken_one(store: Store, make_workflow: MakeWorkflow) -> None:
    assert store.workflows.create(make_workflow(id="wf1")).id == "wf1"
    with pytest.raises(WorkflowFileError, match="'wf1' already exists"):
        store.workflows.create(make_workflow(id="wf1"))


def test_invalid_workflow_json_is_refused(store: Store) -> None:
    with pytest.raises(WorkflowFileError, match="nodes"):
        store.workflows.create({"name": "x", "nodes": [{"name": "no type"}], "connections": {}})


def test_update_replaces_content_and_version(store: Store, make_workflow: MakeWorkflow) -> None:
    first = store.workflows.create(make_workflow("A"), active=True)
    second = store.workflows.update(first.id, make_workflow("B"))
    assert second.name == "B" and second.active is True
    assert second.version_id != first.version_id
    assert second.created_at == first.created_at and second.updated_at >= first.updated_at
    with pytest.raises(NotFoundError, match="'nope'"):
        store.workflows.update("nope", make_workflow())


def test_list_activate_deactivate(store: Store, make_workflow: MakeWorkflow) -> None:
    a = store.workflows.create(make_workflow("A"))
    b = store.workflows.create(make_workflow("B"))
    assert store.workflows.activate(b.id).active is True
    assert [w.name for w in store.workflows.list()] == ["A", "B"]
    assert [w.id for w in store.workflows.list(active=True)] == [b.id]
    assert store.workflows.export_workflow(b.id)["active"] is True
    store.workflows.deactivate(b.id)
    assert store.workflows.list(active=True) == []
    assert store.workflows.get(a.id) is not None


def test_static_data_is_stored_and_exported(store: Store, make_workflow: MakeWorkflow) -> None:
    wf = store.workflows.create(make_workflow())
    store.workflows.set_static_data(wf.id, {"node:Poll": {"lastTimeChecked": "2026-01-01"}})
    assert store.workflows.export_workflow(wf.id)["staticData"] == {"node:Poll": {"lastTimeChecked": "2026-01-01"}}


def test_delete_removes_its_executions_and_webhooks(store: Store, make_workflow: MakeWorkflow) -> None:
    wf = store.workflows.create(make_workflow())
    execution_id = store.executions.create(wf.data, "manual")
    store.webhooks.register(wf.id, [WebhookSpec(method="POST", path="hook", node="Start")])
    assert store.workflows.delete(wf.id) is True
    assert store.workflows.get(wf.id) is None
    assert store.executions.get(execution_id) is None
    assert store.webhooks.list() == []
    assert store.workflows.delete(wf.id) is False


def test_import_and_export_round_trip_unknown_fields(store: Store) -> None:
    original = json.loads((EXAMPLES / "webhook_set_respond.json").read_text())
    original["someFutureField"] = {"kept": [1, 2]}
    original["nodes"][0]["unknownNodeField"] = "kept too"
    stored = store.workflows.import_workflow(original)
    assert stored.id == original["id"] == "bnchW1webhook001"
    assert store.workflows.export_workflow(stored.id) == original


def test_import_replaces_by_id_and_activates_on_request(store: Store, make_workflow: MakeWorkflow) -> None:
    store.workflows.import_workflow(make_workflow("Old", id="same", active=True))
    assert store.workflows.get("same").active is False  # type: ignore[union-attr]
    store.workflows.import_workflow(make_workflow("New", id="same"), activate=True)
    [only] = store.workflows.list()
    assert (only.id, only.name, only.active) == ("same", "New", True)


def test_export_of_a_missing_workflow(store: Store) -> None:
    with pytest.raises(NotFoundError):
        store.workflows.export_workflow("missing")


def test_example_files_import(store: Store) -> None:
    for path in sorted(Path(EXAMPLES).glob("*.json")):
        data = json.loads(path.read_text())
        stored = store.workflows.import_workflow(data)
        assert store.workflows.export_workflow(stored.id)["nodes"] == data["nodes"]
