"""Which of n8n's node types Weft runs: every type n8n ships (``n8n_node_types.json``, exported from n8n's own
descriptions by ``scripts/export_node_catalog.py``) against a registry.

A type's state is ``native`` when the registry has it, ``declarative`` when a registry entry runs it from n8n's
declarative description, and ``missing`` otherwise; for the first two, ``versions`` are the ``typeVersion``\\ s
Weft accepts of the ones n8n ships.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Literal

from weft.nodes.registry import NodeRegistry

State = Literal["native", "declarative", "missing"]


@dataclass(frozen=True, kw_only=True, slots=True)
class TypeCoverage:
    """One n8n node type and what Weft does with it."""

    type: str
    """n8n's full type name, such as ``n8n-nodes-base.googleSheets``."""
    display_name: str
    state: State
    n8n_versions: tuple[float, ...]
    """Every ``typeVersion`` the recorded n8n releases ship."""
    versions: tuple[float, ...]
    """The ones Weft runs (empty when missing)."""
    n8n_declarative: bool
    """n8n runs it from its description (``requestDefaults`` / ``routing``)."""
    trigger: bool


@cache
def n8n_node_types() -> dict[str, Any]:
    """``{"n8nVersions": [...], "types": {type: summary}}`` as exported from n8n."""
    text = resources.files("weft.nodes").joinpath("n8n_node_types.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def coverage(registry: NodeRegistry) -> list[TypeCoverage]:
    """Every n8n node type, in type-name order, with its state in ``registry``."""
    return [_one(registry, name, summary) for name, summary in n8n_node_types()["types"].items()]


def refusals(registry: NodeRegistry, nodes: Iterable[tuple[str, Any]]) -> list[str]:
    """Why ``registry`` would refuse nodes of these ``(type, typeVersion)`` (each distinct reason once); empty when
    it runs them all. A real workflow is refused for nothing else as often as for this."""
    found: dict[str, None] = {}
    for type_name, version in nodes:
        number = float(version) if isinstance(version, int | float) and not isinstance(version, bool) else 1.0
        reason = registry.check(str(type_name), number)
        if reason is not None:
            found.setdefault(reason)
    return list(found)


def skeleton_loads(registry: NodeRegistry, skeleton: dict[str, Any]) -> bool:
    """Whether a workflow of the skeleton's nodes (``[type, typeVersion]`` each) and connections (``[from index,
    connection type, output, to index, input]``) loads and validates against ``registry``: the measure of a
    sample of real workflows kept without their contents (``scripts/sample_public_workflows.py``)."""
    from weft.errors import WeftError
    from weft.workflow import parse_workflow, validate_workflow

    nodes = [
        {"name": f"n{i}", "type": kind, "typeVersion": version, "parameters": {}, "position": [0, 0]}
        for i, (kind, version) in enumerate(skeleton["nodes"])
    ]
    connections: dict[str, dict[str, list[list[dict[str, Any]]]]] = {}
    for source, kind, output, target, index in skeleton.get("connections", []):
        outputs = connections.setdefault(f"n{source}", {}).setdefault(kind, [])
        outputs.extend([] for _ in range(output + 1 - len(outputs)))
        outputs[output].append({"node": f"n{target}", "type": kind, "index": index})
    try:
        validate_workflow(parse_workflow({"nodes": nodes, "connections": connections}), registry)
    except WeftError:
        return False
    return True


def _one(registry: NodeRegistry, name: str, summary: dict[str, Any]) -> TypeCoverage:
    n8n_versions = tuple(float(v) for v in summary["versions"])
    cls = registry.type_class(name)
    state: State = "missing"
    versions: tuple[float, ...] = ()
    if cls is not None:
        state = "declarative" if getattr(cls, "declarative", False) else "native"
        versions = tuple(v for v in n8n_versions if v in cls.description.versions)
    return TypeCoverage(
        type=name,
        display_name=str(summary["displayName"]),
        state=state,
        n8n_versions=n8n_versions,
        versions=versions,
        n8n_declarative=bool(summary["declarative"]),
        trigger=bool(summary["trigger"]),
    )


def markdown_table(rows: list[TypeCoverage], n8n_versions: list[str]) -> str:
    """The coverage table of ``docs/node-coverage.md``."""
    counts = {state: sum(r.state == state for r in rows) for state in ("native", "declarative", "missing")}
    lines = [
        "# n8n node types in Weft",
        "",
        f"Every node type of n8n {' and '.join(n8n_versions)} (`n8n-nodes-base` and `@n8n/n8n-nodes-langchain`), "
        "and whether Weft runs it. Made by `weft nodes --markdown`; `weft nodes` prints the same list in the "
        "terminal (`--state missing`, `--json`).",
        "",
        f"{len(rows)} types: {counts['native']} native, {counts['declarative']} declarative, "
        f"{counts['missing']} missing.",
        "",
        "| Type | Name | State | Weft versions | n8n versions |",
        "| --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        lines.append(
            f"| `{row.type}` | {row.display_name} | {row.state} | {_versions(row.versions)} | "
            f"{_versions(row.n8n_versions)} |"
        )
    return "\n".join(lines) + "\n"


def _versions(versions: tuple[float, ...]) -> str:
    return ", ".join(f"{v:g}" for v in versions) or "—"


__all__ = ["State", "TypeCoverage", "coverage", "markdown_table", "n8n_node_types"]
