"""Convenience entry points over :class:`~weft.engine.loop.Execution`."""

from __future__ import annotations

from typing import Any

from weft.engine.hooks import ExecutionHooks
from weft.engine.loop import Execution
from weft.engine.options import EngineOptions
from weft.nodes.contract import ExecutionServices
from weft.nodes.registry import NodeRegistry
from weft.workflow import Item, Run, Workflow, WorkflowModel, parse_workflow


async def run_workflow(
    workflow: Workflow | WorkflowModel | dict[str, Any],
    *,
    registry: NodeRegistry | None = None,
    mode: str = "manual",
    start_node: str | None = None,
    trigger_items: list[Item] | None = None,
    destination_node: str | None = None,
    hooks: ExecutionHooks | None = None,
    services: ExecutionServices | None = None,
    execution_id: str | None = None,
    options: EngineOptions | None = None,
) -> Run:
    """Run a workflow to completion (or until it waits) and return n8n's ``IRun``."""
    if isinstance(workflow, dict):
        workflow = parse_workflow(workflow)
    if isinstance(workflow, WorkflowModel):
        workflow = Workflow(workflow)
    execution = Execution(
        workflow,
        registry=registry,
        mode=mode,
        hooks=hooks,
        services=services,
        execution_id=execution_id,
        options=options,
    )
    return await execution.run(start_node=start_node, trigger_items=trigger_items, destination_node=destination_node)
