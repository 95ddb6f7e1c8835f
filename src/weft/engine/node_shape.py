"""What a node's type says about its place in the workflow: its main outputs and the inputs it waits for."""

from __future__ import annotations

from weft.nodes.registry import NodeRegistry
from weft.workflow import MAIN, Workflow


def main_output_count(workflow: Workflow, registry: NodeRegistry, name: str) -> int:
    """Main outputs of the node, counting the error output that ``onError: continueErrorOutput`` adds."""
    node = workflow.nodes[name]
    outputs = registry.get(node.type, node.typeVersion).description.output_types(node.parameters)
    return sum(1 for o in outputs if o == MAIN) + (1 if node.onError == "continueErrorOutput" else 0)


def required_inputs(workflow: Workflow, registry: NodeRegistry, name: str) -> int | tuple[int, ...] | list[int] | None:
    """The inputs the node waits for before it runs (its description's ``required_inputs``)."""
    node = workflow.nodes[name]
    required = registry.get(node.type, node.typeVersion).description.required_inputs
    return required(node.parameters) if callable(required) else required


def declared_inputs(workflow: Workflow, registry: NodeRegistry, name: str) -> int:
    """Main inputs of the node: as its type declares them, or as many as are connected."""
    node = workflow.nodes[name]
    declared = registry.get(node.type, node.typeVersion).description.input_types(node.parameters)
    return max(sum(1 for t in declared if t == MAIN), workflow.input_count(name))


__all__ = ["declared_inputs", "main_output_count", "required_inputs"]
