"""Small workflow builders for node tests: real workflows, run by the real engine.

The usual shape is Manual Trigger → ``Input`` (a NoOp whose pin data are the test items) → ``Node``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from tests.recorded._read_spy import pytest_runtest_call  # noqa: F401  (each parameter a node reads is described)

from weft.engine import run_workflow
from weft.workflow import Run

BASE = "n8n-nodes-base."


class Flow:
    """A workflow dict under construction; node types may be given short (``"set"``)."""

    def __init__(self) -> None:
        self.nodes: list[dict[str, Any]] = []
        self.connections: dict[str, Any] = {}
        self.pin_data: dict[str, list[Any]] = {}

    def add(
        self, name: str, node_type: str, parameters: dict[str, Any] | None = None, *, version: float = 1, **extra: Any
    ) -> Flow:
        full_type = node_type if "." in node_type else BASE + node_type
        position = extra.pop("position", [len(self.nodes) * 200, 0])
        node = {"name": name, "type": full_type, "typeVersion": version, "parameters": parameters or {}}
        self.nodes.append({**node, "position": position, **extra})
        return self

    def connect(self, source: str, target: str, *, out: int = 0, into: int = 0) -> Flow:
        outputs = self.connections.setdefault(source, {"main": []})["main"]
        while len(outputs) <= out:
            outputs.append([])
        outputs[out].append({"node": target, "type": "main", "index": into})
        return self

    def pin(self, name: str, items: list[Any]) -> Flow:
        self.pin_data[name] = [i if "json" in i else {"json": i} for i in items]
        return self

    def build(self) -> dict[str, Any]:
        return {
            "name": "test",
            "nodes": self.nodes,
            "connections": self.connections,
            "pinData": self.pin_data,
            "settings": {"executionOrder": "v1"},
        }

    async def run(self) -> Run:
        return await run_workflow(self.build())


def start(items: list[Any]) -> Flow:
    """Manual Trigger → ``Input`` (NoOp pinned with ``items``)."""
    flow = Flow().add("Trigger", "manualTrigger").add("Input", "noOp").connect("Trigger", "Input")
    return flow.pin("Input", items)


RunNode = Callable[..., Awaitable[Run]]


@pytest.fixture
def flow() -> Callable[[list[Any]], Flow]:
    """``flow(items)``: Manual Trigger → ``Input`` pinned with ``items``; add nodes and connect them."""
    return start


@pytest.fixture
def new_flow() -> type[Flow]:
    """``new_flow()``: an empty workflow to build by hand."""
    return Flow


@pytest.fixture
def run_node() -> RunNode:
    """``await run_node("set", params, items, version=3.4, **node_fields)``: runs Input → ``Node``."""

    async def run(node_type: str, parameters: dict[str, Any], items: list[Any], **extra: Any) -> Run:
        flow = start(items).add("Node", node_type, parameters, **extra).connect("Input", "Node")
        return await flow.run()

    return run


def main(run: Run, name: str = "Node", run_index: int = 0) -> list[list[dict[str, Any]]]:
    """The node's ``data.main`` of one run (every output, items with their pairedItems)."""
    task = run["data"]["resultData"]["runData"][name][run_index]
    assert "data" in task, f"{name} has no output: {task.get('error', {}).get('message')}"
    return task["data"]["main"]  # type: ignore[return-value]


def jsons(run: Run, name: str = "Node", output: int = 0, run_index: int = 0) -> list[dict[str, Any]]:
    """The json of the items on one output."""
    return [item["json"] for item in main(run, name, run_index)[output]]


@pytest.fixture
def out() -> Callable[..., list[list[dict[str, Any]]]]:
    return main


@pytest.fixture
def js() -> Callable[..., list[dict[str, Any]]]:
    return jsons
