"""A webhook body of hundreds of thousands of items cannot freeze the server or fill its memory: one node run
may output at most ``WEFT_EXECUTION_ITEMS_MAX`` items (the execution then fails with an error naming the node
and the setting, and is stored so), and nodes that loop over items let other requests through meanwhile."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from weft.engine import EngineOptions, Execution
from weft.engine.runaway import ItemCapError
from weft.expressions import offload
from weft.settings import Settings
from weft.testing.workflows import connect, node, workflow
from weft.workflow import Workflow, parse_workflow

from ._extra_server import extra_server
from .conftest import Server, wait_for


def _split_and_set(path: str | None = None) -> dict[str, Any]:
    """Webhook (or Manual Trigger) → Split Out ``body.items`` → Set (one expression per item)."""
    assignment = {"id": "a", "name": "double", "value": "={{ $json.i * 2 }}", "type": "number"}
    webhook = {"httpMethod": "POST", "path": path, "responseMode": "lastNode", "options": {}}
    start = (
        node("Start", "n8n-nodes-base.webhook", webhook, version=2.1, webhookId=f"id-{path}")
        if path
        else node("Start", "n8n-nodes-base.manualTrigger")
    )
    return workflow(
        start,
        node("Split Out", "n8n-nodes-base.splitOut", {"fieldToSplitOut": "body.items"}),
        node("Edit Fields", "n8n-nodes-base.set", {"assignments": {"assignments": [assignment]}}, version=3.4),
        connect("Start", "Split Out"),
        connect("Split Out", "Edit Fields"),
    )


def _body(count: int) -> dict[str, Any]:
    return {"body": {"items": [{"i": n} for n in range(count)]}}


async def _run(count: int, options: EngineOptions) -> dict[str, Any]:
    execution = Execution(Workflow(parse_workflow(_split_and_set())), options=options)
    run: dict[str, Any] = await execution.run(trigger_items=[{"json": _body(count)}])
    return run


async def test_a_node_that_outputs_more_than_the_cap_fails_naming_itself_and_the_setting() -> None:
    run = await _run(30, EngineOptions(max_items=10))
    assert run["status"] == "error"
    error = run["data"]["resultData"]["error"]
    assert error["node"]["name"] == "Split Out"
    assert error["message"] == "Node 'Split Out' output 30 items, more than the 10 one node may output " + (
        "(WEFT_EXECUTION_ITEMS_MAX)"
    )
    assert "WEFT_EXECUTION_ITEMS_MAX" in error["description"]
    assert "Edit Fields" not in run["data"]["resultData"]["runData"]  # nothing ran on the oversized output


async def test_up_to_the_cap_the_items_go_through() -> None:
    run = await _run(10, EngineOptions(max_items=10))
    assert run["status"] == "success"
    items = run["data"]["resultData"]["runData"]["Edit Fields"][0]["data"]["main"][0]
    assert [item["json"]["double"] for item in items] == [n * 2 for n in range(10)]


def test_the_cap_error_is_typed() -> None:
    error = ItemCapError("Split Out", 900_000, 500_000)
    assert error.node_name == "Split Out" and (error.count, error.cap) == (900_000, 500_000)
    assert error.to_json()["context"] == {"items": 900_000, "cap": 500_000}


def test_the_cap_is_a_setting() -> None:
    assert Settings.from_env({}).execution_items_max == 500_000
    assert Settings.from_env({"WEFT_EXECUTION_ITEMS_MAX": "1000"}).execution_items_max == 1000
    assert Settings.from_env({"WEFT_EXECUTION_ITEMS_MAX": "0"}).execution_items_max is None


@pytest.fixture
def every_call_yields(monkeypatch: pytest.MonkeyPatch) -> None:
    """Node runs give the loop up at every chance (the time slice is zero), so the count below is exact."""
    monkeypatch.setattr(offload, "SLICE_S", 0.0)


async def test_other_work_runs_while_nodes_loop_over_items(every_call_yields: None) -> None:
    done = asyncio.Event()
    turns = 0

    async def other_request() -> None:
        nonlocal turns
        while not done.is_set():
            turns += 1
            await asyncio.sleep(0)

    other = asyncio.ensure_future(other_request())
    run = await _run(3000, EngineOptions())
    done.set()
    await other
    assert run["status"] == "success"
    # Set gave the loop up before each of its 3,000 expressions; without that, only between node runs
    assert turns >= 3000


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with extra_server(tmp_path_factory.mktemp("weft-capped"), {"WEFT_EXECUTION_ITEMS_MAX": "1000"}) as server:
        yield server


def test_a_large_body_ends_in_a_stored_failed_execution(capped: Server) -> None:
    workflow_id = capped.import_workflow({**_split_and_set("many"), "name": "many items"})
    body = _body(5000)["body"]
    answer = httpx.post(f"{capped.url}/webhook/many", json=body, timeout=30)
    assert answer.status_code == 500
    rows = wait_for(lambda: [r for r in capped.executions(workflow_id) if r["status"] == "error"])
    stored = capped.owner.get(f"/rest/executions/{rows[0]['id']}").json()["data"]["data"]["resultData"]
    assert stored["error"]["message"].startswith("Node 'Split Out' output 5,000 items, more than the 1,000")
    assert stored["runData"]["Split Out"][0]["error"]["message"] == stored["error"]["message"]
    assert "Edit Fields" not in stored["runData"]
