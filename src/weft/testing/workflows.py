"""Building workflow JSON in tests: ``workflow(node(...), ..., connect("A", "B"))``."""

from __future__ import annotations

from typing import Any


def node(
    name: str,
    type_: str = "n8n-nodes-base.noOp",
    parameters: dict[str, Any] | None = None,
    *,
    position: tuple[float, float] = (0, 0),
    version: float = 1,
    **settings: Any,
) -> dict[str, Any]:
    """A node dict; ``settings`` are node-level fields (``onError``, ``retryOnFail``, ``disabled`` …)."""
    return {
        "name": name,
        "type": type_,
        "typeVersion": version,
        "position": list(position),
        "parameters": parameters or {},
        **settings,
    }


def connect(source: str, target: str, output: int = 0, input: int = 0, type_: str = "main") -> tuple[Any, ...]:
    return (source, target, output, input, type_)


def workflow(
    *parts: dict[str, Any] | tuple[Any, ...],
    pin_data: dict[str, list[dict[str, Any]]] | None = None,
    **settings: Any,
) -> dict[str, Any]:
    """A workflow dict from nodes and :func:`connect` tuples; ``settings`` go to ``settings``."""
    nodes = [p for p in parts if isinstance(p, dict)]
    connections: dict[str, dict[str, list[list[dict[str, Any]]]]] = {}
    for part in parts:
        if isinstance(part, tuple):
            source, target, output, input_index, ctype = part
            outputs = connections.setdefault(source, {}).setdefault(ctype, [])
            while len(outputs) <= output:
                outputs.append([])
            outputs[output].append({"node": target, "type": ctype, "index": input_index})
    data: dict[str, Any] = {
        "name": "test",
        "nodes": nodes,
        "connections": connections,
        "settings": {"executionOrder": "v1", **settings},
    }
    if pin_data:
        data["pinData"] = pin_data
    return data


def chain(*names_and_types: tuple[str, str, dict[str, Any]]) -> list[Any]:
    """Nodes in a line, each connected to the next, laid out left to right."""
    parts: list[Any] = []
    for index, (name, type_, params) in enumerate(names_and_types):
        parts.append(node(name, type_, params, position=(index * 200, 0)))
        if index:
            parts.append(connect(names_and_types[index - 1][0], name))
    return parts


def run_order(run: dict[str, Any]) -> list[str]:
    """Node names ordered by ``executionIndex`` (one entry per run)."""
    runs = [
        (task.get("executionIndex", 0), name)
        for name, tasks in run["data"]["resultData"]["runData"].items()
        for task in tasks
        if task.get("startTime")
    ]
    return [name for _, name in sorted(runs)]


def output_json(run: dict[str, Any], name: str, run_index: int = 0, output: int = 0) -> list[dict[str, Any]]:
    """The json of a node's output items."""
    task = run["data"]["resultData"]["runData"][name][run_index]
    data = task.get("data") or {}
    conn = data.get("main") or data.get("ai_tool") or []
    return [item["json"] for item in (conn[output] or [])] if output < len(conn) else []
