"""The runtime view of a workflow: nodes by name and connections indexed both ways."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from weft.workflow.model import NodeModel, WorkflowModel


@dataclass(frozen=True, slots=True)
class Edge:
    """One connection: ``source`` output ``source_index`` → ``target`` input ``target_index`` of ``type``."""

    source: str
    source_index: int
    target: str
    target_index: int
    type: str


class Workflow:
    """A loaded workflow with graph queries. Built once per execution; treat it as read-only."""

    def __init__(self, model: WorkflowModel) -> None:
        self.model = model
        self.id = model.id
        self.name = model.name
        self.active = model.active
        self.settings = model.settings
        self.nodes: dict[str, NodeModel] = {node.name: node for node in model.nodes}
        self.pin_data: dict[str, list[dict[str, Any]]] = dict(model.pinData or {})
        self.static_data: dict[str, Any] = dict(model.staticData or {})
        # by_source[source][type][output_index] -> edges; by_target[target][type][input_index] -> edges
        self.by_source: dict[str, dict[str, list[list[Edge]]]] = {}
        self.by_target: dict[str, dict[str, list[list[Edge]]]] = {}
        for source, by_type in model.connections.items():
            for ctype, outputs in by_type.items():
                for out_index, conns in enumerate(outputs):
                    for conn in conns or ():
                        self._add_edge(Edge(source, out_index, conn.node, conn.index, conn.type or ctype))

    def _add_edge(self, edge: Edge) -> None:
        outs = self.by_source.setdefault(edge.source, {}).setdefault(edge.type, [])
        while len(outs) <= edge.source_index:
            outs.append([])
        outs[edge.source_index].append(edge)
        ins = self.by_target.setdefault(edge.target, {}).setdefault(edge.type, [])
        while len(ins) <= edge.target_index:
            ins.append([])
        ins[edge.target_index].append(edge)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Workflow:
        from weft.workflow.model import parse_workflow

        return cls(parse_workflow(data))

    # ------------------------------------------------------------------ nodes

    def node(self, name: str) -> NodeModel | None:
        return self.nodes.get(name)

    @cached_property
    def _node_json(self) -> dict[str, dict[str, Any]]:
        return {name: node.to_json() for name, node in self.nodes.items()}

    def node_json(self, name: str) -> dict[str, Any]:
        """The node as JSON (a fresh shallow copy: callers may add keys)."""
        return dict(self._node_json[name])

    # ------------------------------------------------------------------ edges

    def outputs(self, source: str, ctype: str = "main") -> list[list[Edge]]:
        """Edges leaving ``source`` per output index."""
        return self.by_source.get(source, {}).get(ctype, [])

    def inputs(self, target: str, ctype: str = "main") -> list[list[Edge]]:
        """Edges arriving at ``target`` per input index."""
        return self.by_target.get(target, {}).get(ctype, [])

    def input_count(self, target: str, ctype: str = "main") -> int:
        """How many inputs of ``ctype`` the node has connected (n8n's ``connectionsByDestinationNode``)."""
        return len(self.inputs(target, ctype))

    def connection_types_into(self, target: str) -> list[str]:
        return list(self.by_target.get(target, {}))

    def edges(self) -> Iterator[Edge]:
        for by_type in self.by_source.values():
            for outs in by_type.values():
                for conns in outs:
                    yield from conns

    def parents(self, name: str, ctype: str | None = "main", depth: int = -1) -> list[str]:
        """Ancestors of ``name`` through ``ctype`` edges (all types when ``None``), nearest first."""
        return self._walk(name, ctype, depth, self.by_target, lambda e: e.source)

    def children(self, name: str, ctype: str | None = "main", depth: int = -1) -> list[str]:
        """Descendants of ``name`` through ``ctype`` edges (all types when ``None``), nearest first."""
        return self._walk(name, ctype, depth, self.by_source, lambda e: e.target)

    def _walk(self, start: str, ctype: str | None, depth: int, index: Any, other: Any) -> list[str]:
        seen: dict[str, None] = {}
        frontier = [start]
        level = 0
        while frontier and (depth < 0 or level < depth):
            level += 1
            nxt: list[str] = []
            for name in frontier:
                for t, slots in index.get(name, {}).items():
                    if ctype is not None and t != ctype:
                        continue
                    for edges in slots:
                        for edge in edges:
                            n = other(edge)
                            if n not in seen and n != start:
                                seen[n] = None
                                nxt.append(n)
            frontier = nxt
        return list(seen)

    def sub_nodes(self, name: str, ctype: str) -> list[str]:
        """Nodes connected into ``name`` through a non-main ``ctype`` (models, tools, memory …), in input order."""
        out: list[str] = []
        for edges in self.inputs(name, ctype):
            for edge in edges:
                if edge.source not in out:
                    out.append(edge.source)
        return out
