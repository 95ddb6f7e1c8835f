"""Choosing where an execution starts (n8n's ``getStartNode`` and ``run``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from weft.engine.state import to_item
from weft.errors import WorkflowDefinitionError
from weft.workflow import MAIN, Item, Workflow

if TYPE_CHECKING:
    from weft.engine.loop import Execution
    from weft.nodes.registry import NodeRegistry

#: Types that start a manual run when present (n8n ``STARTING_NODE_TYPES``), in preference order.
STARTING_NODE_TYPES = (
    "n8n-nodes-base.manualTrigger",
    "n8n-nodes-base.executeWorkflowTrigger",
    "n8n-nodes-base.errorTrigger",
    "n8n-nodes-base.start",
    "n8n-nodes-base.formTrigger",
    "@n8n/n8n-nodes-langchain.manualChatTrigger",
    "@n8n/n8n-nodes-langchain.chatTrigger",
)


EXECUTE_WORKFLOW_TRIGGER = "n8n-nodes-base.executeWorkflowTrigger"
#: After an Execute Workflow Trigger, what a workflow run by another workflow or by the CLI starts from (n8n's
#: ``STARTING_NODES``), plus the legacy Start node of old workflows.
CALLED_START_TYPES = (
    "@n8n/n8n-nodes-langchain.manualChatTrigger",
    "n8n-nodes-base.manualTrigger",
    "n8n-nodes-base.start",
)


def find_called_start(workflow: Workflow) -> str | None:
    """n8n's ``findSubworkflowStart`` / ``findCliWorkflowStart``: the first Execute Workflow Trigger in node order
    (disabled or not, as n8n), else the first manual trigger; ``None`` when there is neither."""
    for types in ((EXECUTE_WORKFLOW_TRIGGER,), CALLED_START_TYPES):
        for node in workflow.nodes.values():
            if node.type in types:
                return node.name
    return None


def find_start_node(workflow: Workflow, registry: NodeRegistry) -> str:
    """The node a full run starts from: a starting type, else any trigger, else the first node without inputs."""
    enabled = [n for n in workflow.nodes.values() if not n.disabled]
    for type_name in STARTING_NODE_TYPES:
        for node in enabled:
            if node.type == type_name:
                return node.name
    for node in enabled:
        cls = registry.type_class(node.type)
        if cls is not None and cls.description.is_trigger:
            return node.name
    for node in enabled:
        cls = registry.type_class(node.type)
        if cls is not None and not cls.description.outputs and not cls.description.inputs:
            continue  # a sticky note: nothing runs from it
        if not workflow.inputs(node.name, MAIN) and (cls is None or not cls.description.is_sub_node):
            return node.name
    raise WorkflowDefinitionError(
        "The workflow has no node to start from.",
        fix="Add a trigger node (for example a Manual Trigger) and connect it to the first node.",
    )


def prepare_start(
    execution: Execution,
    start_node: str | None,
    trigger_items: list[Item] | None,
    destination_node: str | None,
    pin_data: dict[str, list[Any]] | None,
) -> None:
    """Seed the stack with the start node, and set pin data and the destination filter."""
    workflow = execution.workflow
    name = start_node or find_start_node(workflow, execution.registry)
    if name not in workflow.nodes:
        raise WorkflowDefinitionError(f"Start node {name!r} is not in the workflow.", node_name=name)
    items = [to_item(i) for i in trigger_items] if trigger_items is not None else [{"json": {}}]
    data = execution.data
    data["executionData"]["nodeExecutionStack"] = [
        {"node": workflow.node_json(name), "data": {"main": [items]}, "source": None}  # type: ignore[list-item]
    ]
    # as n8n's getPinDataIfManualExecution: a workflow's pinned data is for building it, used by manual runs only
    pins = dict(workflow.pin_data) if execution.mode == "manual" else {}
    pins.update(pin_data or {})
    data["resultData"]["pinData"] = pins  # type: ignore[typeddict-item]
    if destination_node is not None:
        run_filter = [*workflow.parents(destination_node), destination_node]
        for parent in list(run_filter):
            for ctype in workflow.connection_types_into(parent):
                if ctype != MAIN:
                    run_filter.extend(workflow.sub_nodes(parent, ctype))
        data["startData"] = {
            "destinationNode": {"nodeName": destination_node, "mode": "inclusive"},
            "runNodeFilter": run_filter,
        }
