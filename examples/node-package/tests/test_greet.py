"""The Greet node in a real Weft workflow run (pytest from this folder, with Weft installed)."""

from __future__ import annotations

from typing import Any

from weft_node_example import Greet

from weft.engine import run_workflow
from weft.nodes import NodeRegistry
from weft.testing.workflows import connect, node, workflow

SEED = "return [{json: {name: 'Ada'}}, {json: {name: 'Grace'}}, {json: {}}];"


async def _run(parameters: dict[str, Any], **settings: Any) -> dict[str, Any]:
    registry = NodeRegistry()
    registry.register(Greet)
    flow = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("Seed", "n8n-nodes-base.code", {"jsCode": SEED}, version=2),
        node("Greet", "weft-node-example.greet", parameters, **settings),
        connect("Start", "Seed"),
        connect("Seed", "Greet"),
    )
    return await run_workflow(flow, registry=registry)  # type: ignore[return-value]


async def test_greets_each_item_and_names_the_item_it_cannot_greet() -> None:
    run = await _run({"greeting": "Hi"})
    error = run["data"]["resultData"]["error"]
    assert error["message"] == "Item 2 has no 'name' to greet"


async def test_continue_on_fail_keeps_the_others() -> None:
    run = await _run({"greeting": "Hi"}, onError="continueRegularOutput")
    items = run["data"]["resultData"]["runData"]["Greet"][0]["data"]["main"][0]
    assert [item["json"].get("greeting") for item in items] == ["Hi, Ada!", "Hi, Grace!", None]
    assert items[2]["json"] == {"error": "Item 2 has no 'name' to greet"}


async def test_a_greeting_as_a_file() -> None:
    run = await _run({"asFile": True}, onError="continueRegularOutput")
    entry = run["data"]["resultData"]["runData"]["Greet"][0]["data"]["main"][0][0]["binary"]["data"]
    assert (entry["fileName"], entry["mimeType"], entry["fileSize"]) == ("greeting.txt", "text/plain", "11 B")
