"""Declarative nodes under test: a description (n8n's shape) becomes a node type, run by the real engine against
a :class:`~weft.testing.fake_api.FakeApiServer` on 127.0.0.1 that checks and answers each request."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.nodes.contract import NodeDescription
from weft.nodes.registry import NodeRegistry
from weft.nodes.routing import DeclarativeNode

TYPE = "n8n-nodes-base.routingUnderTest"


def declarative_type(description: dict[str, Any]) -> type[DeclarativeNode]:
    """A node type running ``description`` (``properties``, ``requestDefaults``, ``credentials`` …)."""
    described = {"name": TYPE, "displayName": "Routing under test", "version": 1, **description}
    node = NodeDescription(
        name=TYPE,
        display_name="Routing under test",
        credentials=tuple(c["name"] for c in described.get("credentials") or []),
    )
    return type("RoutingUnderTest", (DeclarativeNode,), {"description": node, "routing_description": described})


@dataclass
class Ran:
    """The node's run: its output items (json), its error message, the whole IRun."""

    items: list[dict[str, Any]]
    error: str | None
    run: dict[str, Any]
    full_items: list[dict[str, Any]]


async def run_node(
    description: dict[str, Any],
    parameters: dict[str, Any],
    *,
    items: list[dict[str, Any]] | None = None,
    credentials: dict[str, dict[str, Any]] | None = None,
    **settings: Any,
) -> Ran:
    """Manual Trigger → Input (pinned ``items``) → the node; the node's run."""
    registry = NodeRegistry()
    registry.register(declarative_type(description))
    node = {"name": "Node", "type": TYPE, "typeVersion": 1, "parameters": parameters, **settings}
    if credentials:
        node["credentials"] = {name: {"id": name, "name": name} for name in credentials}
    workflow = {
        "name": "routing",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "Input", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "parameters": {}},
            node,
        ],
        "connections": {
            "T": {"main": [[{"node": "Input", "type": "main", "index": 0}]]},
            "Input": {"main": [[{"node": "Node", "type": "main", "index": 0}]]},
        },
        "pinData": {"Input": [{"json": i} for i in (items or [{}])]},
        "settings": {"executionOrder": "v1"},
    }
    run = await run_workflow(workflow, registry=registry, services=LocalServices(credentials=credentials or {}))
    task = run["data"]["resultData"]["runData"]["Node"][0]
    output = ((task.get("data") or {}).get("main") or [[]])[0] or []
    error = (task.get("error") or {}).get("message")
    return Ran(items=[i["json"] for i in output], error=error, run=dict(run), full_items=output)
