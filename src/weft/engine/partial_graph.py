"""Graph helpers of partial execution (n8n ``partial-execution-utils``: ``DirectedGraph``, ``filterDisabledNodes``,
``findSubgraph``, ``handleCycles``).

:class:`DirectedGraph` is an editable copy of a workflow's connections: node names in workflow order and
:class:`~weft.workflow.Edge` values in connection order (n8n keeps both in insertion-ordered maps, and every
traversal below depends on that order). Nothing here reads run data.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from weft.workflow import MAIN, Edge, Workflow


@dataclass
class DirectedGraph:
    """Nodes (by name) and connections, both in insertion order."""

    nodes: dict[str, None] = field(default_factory=dict)
    edges: dict[Edge, None] = field(default_factory=dict)

    @classmethod
    def from_workflow(cls, workflow: Workflow) -> DirectedGraph:
        return cls(dict.fromkeys(workflow.nodes), dict.fromkeys(workflow.edges()))

    def has(self, name: str) -> bool:
        return name in self.nodes

    def add_edge(self, edge: Edge) -> None:
        self.nodes.setdefault(edge.source)
        self.nodes.setdefault(edge.target)
        self.edges.setdefault(edge)

    def child_edges(self, name: str) -> list[Edge]:
        return [e for e in self.edges if e.source == name]

    def parent_edges(self, name: str) -> list[Edge]:
        return [e for e in self.edges if e.target == name]

    def children(self, name: str) -> dict[str, None]:
        """All descendants, depth-first; ``name`` itself is among them when it is part of a cycle."""
        found: dict[str, None] = {}
        pending = [name]
        while pending:
            current = pending.pop()
            for edge in reversed(self.child_edges(current)):
                if edge.target not in found:
                    found[edge.target] = None
                    pending.append(edge.target)
        return found

    def ancestor_edges(self, name: str) -> dict[Edge, None]:
        """Every connection on some path into ``name`` (n8n ``getParentConnections``), all connection types."""
        found: dict[Edge, None] = {}
        pending = [name]
        while pending:
            for edge in self.parent_edges(pending.pop()):
                if edge not in found:
                    found[edge] = None
                    pending.append(edge.source)
        return found

    def remove_node(self, name: str, *, reconnect_main: bool) -> None:
        """Drop ``name``; with ``reconnect_main`` every main parent is wired to every main child instead."""
        incoming = [e for e in self.parent_edges(name) if e.type == MAIN]
        outgoing = [e for e in self.child_edges(name) if e.type == MAIN]
        bridges = [replace(i, target=o.target, target_index=o.target_index) for i in incoming for o in outgoing]
        self.edges = {e: None for e in self.edges if name not in (e.source, e.target)}
        if reconnect_main:
            self.edges.update(dict.fromkeys(bridges))
        del self.nodes[name]

    def depth_first_search(self, start: str, predicate: Callable[[str], bool]) -> str | None:
        """The first node, from ``start`` (included) depth-first along connection order, that ``predicate`` accepts."""
        seen: set[str] = set()
        pending = [start]
        while pending:
            current = pending.pop()
            if current in seen:
                continue
            seen.add(current)
            if predicate(current):
                return current
            pending.extend(e.target for e in reversed(self.child_edges(current)))
        return None

    def strongly_connected_components(self) -> list[set[str]]:
        """Tarjan's algorithm, as n8n's ``getStronglyConnectedComponents`` (a lone node is a component too)."""
        return _Tarjan(self).run()


class _Tarjan:
    def __init__(self, graph: DirectedGraph) -> None:
        self.graph = graph
        self.next_id = 0
        self.ids: dict[str, int] = {}
        self.low: dict[str, int] = {}
        self.stack: list[str] = []
        self.components: list[set[str]] = []

    def run(self) -> list[set[str]]:
        for name in self.graph.nodes:
            self.follow(name)
        return self.components

    def follow(self, name: str) -> None:
        if name in self.ids:
            return
        self.ids[name] = self.low[name] = self.next_id
        self.next_id += 1
        self.stack.append(name)
        for edge in self.graph.child_edges(name):
            self.follow(edge.target)
            if edge.target in self.stack:
                self.low[name] = min(self.low[edge.target], self.low[name])
        if self.ids[name] == self.low[name]:
            component: set[str] = set()
            while self.stack and self.low[self.stack[-1]] == self.ids[name]:
                component.add(self.stack.pop())
            if component:
                self.components.append(component)


def filter_disabled_nodes(graph: DirectedGraph, workflow: Workflow) -> DirectedGraph:
    """A copy without disabled nodes, their main parents bridged to their main children (``filterDisabledNodes``)."""
    filtered = DirectedGraph(dict(graph.nodes), dict(graph.edges))
    for name in list(filtered.nodes):
        if workflow.nodes[name].disabled:
            filtered.remove_node(name, reconnect_main=True)
    return filtered


def find_subgraph(graph: DirectedGraph, trigger: str, destination: str) -> DirectedGraph:
    """Every main connection on a path from ``trigger`` to ``destination`` (``findSubgraph``).

    Walking back from the destination, a branch is kept when it reaches the trigger or closes a cycle, and
    dropped when it reaches a node without parents or comes back to the destination. Then the non-main
    connections into the kept nodes and their ancestors (AI sub-nodes) are added back.
    """
    subgraph = DirectedGraph()
    _collect_branches(graph, subgraph, trigger, destination, destination, [])
    for name in list(subgraph.nodes):
        for edge in graph.ancestor_edges(name):
            if edge.type != MAIN:
                subgraph.add_edge(edge)
    return subgraph


def _collect_branches(
    graph: DirectedGraph, subgraph: DirectedGraph, trigger: str, destination: str, current: str, branch: list[Edge]
) -> None:
    if current == trigger:
        subgraph.nodes.setdefault(trigger)
        _keep(subgraph, branch)
        return
    parents = graph.parent_edges(current)
    if not parents:
        return
    targets = {e.target for e in branch}
    if current == destination and destination in targets:
        return
    if current in targets:
        _keep(subgraph, branch)
        return
    for edge in parents:
        if edge.type == MAIN:
            _collect_branches(graph, subgraph, trigger, destination, edge.source, [*branch, edge])


def _keep(subgraph: DirectedGraph, branch: Iterable[Edge]) -> None:
    for edge in branch:
        subgraph.add_edge(edge)


def handle_cycles(graph: DirectedGraph, start_nodes: dict[str, None], trigger: str) -> dict[str, None]:
    """Replace each start node inside a cycle by the cycle's first node, found depth-first from the trigger."""
    cycles = [c for c in graph.strongly_connected_components() if len(c) > 1]
    result = dict(start_nodes)
    for start in start_nodes:
        for cycle in cycles:
            if start not in cycle:
                continue
            first = graph.depth_first_search(trigger, cycle.__contains__)
            if first is None:  # n8n asserts: the trigger reaches every cycle of the subgraph
                raise AssertionError("the trigger must be connected to the cycle")
            result.pop(start, None)
            result.setdefault(first)
    return result
