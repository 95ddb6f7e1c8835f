"""Building n8n test workflows in a compact form and reading their results the way n8n's tests do.

A scenario names its source in n8n-io/n8n; the graph (names, types, versions, positions, parameters,
connections) and the expectations are restated as facts, not copied files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

BASE = "n8n-nodes-base."

#: ``{source: [[(target, input index), ...] per output]}``, in n8n's connection order.
Connections = dict[str, list[list[tuple[str, int]]]]


def n(
    name: str,
    type_: str,
    position: tuple[int, int],
    parameters: dict[str, Any] | None = None,
    version: float = 1,
    **settings: Any,
) -> dict[str, Any]:
    """A node; ``type_`` may be short (``"set"``)."""
    full = type_ if "." in type_ else BASE + type_
    return {
        "name": name,
        "type": full,
        "typeVersion": version,
        "position": list(position),
        "parameters": parameters if parameters is not None else {},
        **settings,
    }


def set_v1(name: str, position: tuple[int, int], version: float = 1, options: bool = False, **values: Any) -> dict:
    """Set v1/v2 with ``values.{number,string,boolean}``: ``number=[("value1", 1)]``; a bare name has no value."""
    params: dict[str, Any] = {
        "values": {
            kind: [{"name": e} if isinstance(e, str) else {"name": e[0], "value": e[1]} for e in entries]
            for kind, entries in values.items()
        }
    }
    if options:
        params["options"] = {}
    return n(name, "set", position, params, version)


def if_v1(name: str, position: tuple[int, int], **conditions: Any) -> dict:
    return n(name, "if", position, {"conditions": conditions})


def workflow(nodes: list[dict[str, Any]], connections: Connections, order: str = "v1") -> dict[str, Any]:
    return {
        "name": "n8n conformance",
        "nodes": nodes,
        "connections": {
            source: {"main": [[{"node": t, "type": "main", "index": i} for t, i in out] for out in outputs]}
            for source, outputs in connections.items()
        },
        "settings": {"executionOrder": order},
    }


@dataclass(frozen=True)
class Scenario:
    """One ``WorkflowTestData`` of ``packages/core/test/helpers/constants.ts``."""

    description: str
    nodes: list[dict[str, Any]]
    connections: Connections
    order: list[str]
    node_data: dict[str, list[Any]] = field(default_factory=dict)
    """Per run: output-0 json (legacy suite), or a list of outputs' json (v1 suite)."""
    all_outputs: bool = False
    """n8n's ``testAllOutputs``: compare every output, not only output 0."""


def execution_order(run: dict[str, Any]) -> list[str]:
    """n8n's check: ``nodeExecutionOrder[taskData.executionIndex] = nodeName``."""
    slots: dict[int, str] = {}
    for name, tasks in run["data"]["resultData"]["runData"].items():
        for task in tasks:
            slots[task["executionIndex"]] = name
    return [slots[i] for i in sorted(slots)]


def node_runs(run: dict[str, Any], name: str, *, v1: bool, all_outputs: bool = False) -> list[Any]:
    """Each run's output json, shaped as the scenario's ``node_data``."""
    result: list[Any] = []
    for task in run["data"]["resultData"]["runData"][name]:
        main = (task.get("data") or {}).get("main")
        if main is None:
            result.append(None)
            continue
        outputs = main if all_outputs else [main[0]]
        jsons = [[item["json"] for item in out or []] for out in outputs]
        result.append(jsons if v1 else jsons[0])
    return result
