"""Structural validation of a workflow, with errors that name the node and say the fix."""

from __future__ import annotations

from collections import Counter
from typing import Protocol

from weft.errors import UnknownNodeTypeError, WorkflowDefinitionError
from weft.workflow.model import WorkflowModel


class NodeTypeLookup(Protocol):
    """What validation needs to know about installed node types."""

    def check(self, type_name: str, version: float) -> str | None:
        """``None`` when the type exists at that version, else the reason it cannot be used."""
        ...


def validate_workflow(model: WorkflowModel, node_types: NodeTypeLookup | None = None) -> None:
    """Raise :class:`WorkflowDefinitionError` for the first structural problem found."""
    counts = Counter(node.name for node in model.nodes)
    for name, count in counts.items():
        if count > 1:
            raise WorkflowDefinitionError(
                f"The workflow has {count} nodes named {name!r}.",
                node_name=name,
                field="nodes[].name",
                fix="Node names must be unique: rename all but one of them.",
            )
    names = set(counts)
    for source, by_type in model.connections.items():
        if source not in names:
            raise WorkflowDefinitionError(
                f"A connection starts at node {source!r}, which is not in the workflow.",
                node_name=source,
                field=f"connections.{source}",
                fix="Remove the connection or add the node.",
            )
        for ctype, outputs in by_type.items():
            for conns in outputs:
                for conn in conns or ():
                    if conn.node not in names:
                        raise WorkflowDefinitionError(
                            f"Node {source!r} connects ({ctype}) to node {conn.node!r}, which is not in the workflow.",
                            node_name=source,
                            field=f"connections.{source}.{ctype}",
                            fix=f"Remove the connection or add a node named {conn.node!r}.",
                        )
    if node_types is None:
        return
    for node in model.nodes:
        problem = node_types.check(node.type, node.typeVersion)
        if problem is not None:
            raise UnknownNodeTypeError(problem, node_name=node.name, field="type")
