"""Structural validation of a workflow, with errors that name the node and say the fix."""

from __future__ import annotations

from collections import Counter
from typing import Protocol

from weft.errors import UnknownNodeTypeError, WorkflowDefinitionError
from weft.workflow.model import NodeModel, WorkflowModel


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
    problems = [(node, p) for node in model.nodes if (p := node_types.check(node.type, node.typeVersion)) is not None]
    if len(problems) == 1:
        node, problem = problems[0]
        raise UnknownNodeTypeError(problem, node_name=node.name, field="type")
    if problems:
        raise _missing_types_error(problems)


#: Where a user reads which n8n node types Weft runs.
COVERAGE_HINT = "`weft nodes` lists every n8n node type and whether Weft runs it (docs/node-coverage.md)."


def _missing_types_error(problems: list[tuple[NodeModel, str]]) -> UnknownNodeTypeError:
    """Every type (at its version) that Weft cannot run, each once with the nodes that use it."""
    groups: dict[str, list[str]] = {}
    for node, problem in problems:
        groups.setdefault(problem, []).append(node.name)
    listed = "; ".join(f"{_first_sentence(problem)} (used by {_names(names)})" for problem, names in groups.items())
    kinds = f"{len(groups)} node types" if len(groups) > 1 else "1 node type"
    return UnknownNodeTypeError(
        f"{len(problems)} nodes cannot run in Weft, of {kinds}: {listed}. Replace them, or install the packages "
        f"that provide them (the 'weft.nodes' entry point). {COVERAGE_HINT}",
        node_name=problems[0][0].name,
        field="type",
    )


def _first_sentence(problem: str) -> str:
    return problem.split(". ")[0].rstrip(".")


def _names(names: list[str], shown: int = 5) -> str:
    quoted = ", ".join(repr(name) for name in names[:shown])
    more = len(names) - shown
    return f"{quoted} and {more} more" if more > 0 else quoted
