"""Execute Workflow (``n8n-nodes-base.executeWorkflow``): run another workflow with this node's items.

The node loads the sub-workflow (``localFile``: only inside ``WEFT_RESTRICT_FILE_ACCESS_TO``, see
:mod:`weft.nodes.files.workflow_file`; ``parameter``) or names it (``database``: the host resolves
the id) and hands it to ``ctx.services.execute_workflow``. ``mode: once`` sends all items to one
sub-execution; ``mode: each`` runs one sub-execution per item and pairs its results to that item.

A sub-workflow that waits makes this node's execution wait (the host's business, ``weft.services.subworkflows``);
when the child finishes the host resumes it: with the child's output passed through, or, when the child failed,
by running this node again with the child's error as its stack entry's ``metadata.resumeError`` (n8n 2.41.1).
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeOperationError, WeftError
from weft.library.core.execute_workflow_trigger import declared_item
from weft.nodes.contract import ExecuteContext, ExecutionServices, NodeDescription, NodeType
from weft.nodes.subworkflows import load_sub_workflow, resumed_sub_execution_error
from weft.workflow import Item, NodeOutput, PairedItem


class ExecuteWorkflow(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.executeWorkflow",
        display_name="Execute Workflow",
        versions=(1, 1.1, 1.2, 1.3, 1.4),
        description="Execute another workflow",
        group=("transform",),
        defaults={"source": "database", "mode": "once"},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        failed_child = resumed_sub_execution_error(ctx)
        if failed_child is not None:
            return _child_failed(ctx, failed_child)
        items = _workflow_input_items(ctx)
        mode = ctx.get_node_parameter("mode", 0, "once")
        if mode == "each":
            return await _run_each(ctx, items)
        return await _run_once(ctx, items)


# --------------------------------------------------------------------------- modes


async def _run_once(ctx: ExecuteContext, items: list[Item]) -> NodeOutput:
    all_items: list[PairedItem] = [{"item": i} for i in range(len(items))]
    try:
        wait = bool(ctx.get_node_parameter("options.waitForSubWorkflow", 0, True))
        workflow = await load_sub_workflow(ctx, 0)
        result = await _services(ctx).execute_workflow(ctx, workflow, items, wait=wait)
    except WeftError as error:
        if ctx.continue_on_fail():
            return [[{"json": {"error": error.message}, "pairedItem": all_items}]]
        raise
    if not wait or result is None:
        return [items]
    output: NodeOutput = []
    for items_out in result:  # items the sub-workflow did not pair are paired by position, else to all inputs
        same_length = len(items_out or []) == len(items)
        paired: list[Item] = []
        for index, item in enumerate(items_out or []):
            if "pairedItem" not in item:
                item = {**item, "pairedItem": {"item": index} if same_length else all_items}
            paired.append(item)
        output.append(paired)
    return output


async def _run_each(ctx: ExecuteContext, items: list[Item]) -> NodeOutput:
    output: NodeOutput = []
    for i, item in enumerate(items):
        try:
            wait = bool(ctx.get_node_parameter("options.waitForSubWorkflow", i, True))
            workflow = await load_sub_workflow(ctx, i)
            result = await _services(ctx).execute_workflow(ctx, workflow, [item], wait=wait)
        except WeftError as error:
            if not ctx.continue_on_fail():
                raise NodeOperationError(
                    ctx.node.name,
                    f"Error executing workflow with item at index {i}",
                    description=error.message,
                    item_index=i,
                ) from error
            # before v1.3 each failed item got its own output ("error branches"); v1.3 uses output 0
            index = 0 if ctx.node.typeVersion >= 1.3 else i
            _output_at(output, index).append({"json": {"error": error.message}, "pairedItem": {"item": i}})
            continue
        if not wait or result is None:
            _output_at(output, 0).append({**item, "pairedItem": {"item": i}})
            continue
        for index, items_out in enumerate(result):
            _output_at(output, index).extend({**out, "pairedItem": {"item": i}} for out in items_out or [])
    return output or [[]]


def _child_failed(ctx: ExecuteContext, error: dict[str, Any]) -> NodeOutput:
    """Fail as the node fails when its sub-workflow fails before any wait (or output the error item)."""
    message = str(error["message"]) if error.get("message") is not None else "The sub-workflow failed"
    if ctx.continue_on_fail():
        paired: list[PairedItem] = [{"item": i} for i in range(len(ctx.get_input_data()))]
        return [[{"json": {"error": message}, "pairedItem": paired}]]
    raise NodeOperationError(ctx.node.name, message, description=error.get("description"))


def _output_at(output: NodeOutput, index: int) -> list[Item]:
    while len(output) <= index:
        output.append([])
    return output[index]


# --------------------------------------------------------------------------- inputs


def _workflow_input_items(ctx: ExecuteContext) -> list[Item]:
    """Each input item with ``workflowInputs.value`` merged over its json and its position as ``index`` (as n8n
    sends it, recorded: ``tests/subworkflows/n8n_sub_wait.json``); only the declared fields when the node has a
    ``workflowInputs.schema`` (v1.2+, n8n ``getCurrentWorkflowInputData``)."""
    items: list[Item] = []
    for index, item in enumerate(ctx.get_input_data()):
        values = ctx.get_node_parameter("workflowInputs.value", index, None) if ctx.node.typeVersion >= 1.2 else None
        merged = {**item.get("json", {}), **(values if isinstance(values, dict) else {})}
        items.append({**item, "json": merged, "index": index, "pairedItem": {"item": index}})  # type: ignore[typeddict-unknown-key]
    schema = ctx.get_node_parameter("workflowInputs.schema", 0, None, raw=True) if ctx.node.typeVersion >= 1.2 else None
    if not schema:
        return items
    fields = [
        (str(field.get("displayName") or field.get("id")), str(field.get("type") or "any"))
        for field in schema
        if isinstance(field, dict) and not field.get("removed")
    ]
    convert = bool(ctx.get_node_parameter("workflowInputs.attemptToConvertTypes", 0, False))
    return [declared_item(ctx, item, index, fields, convert=convert) for index, item in enumerate(items)]


def _services(ctx: ExecuteContext) -> ExecutionServices:
    if ctx.services is None:
        raise NodeOperationError(
            ctx.node.name,
            "This execution cannot run sub-workflows: it has no execution services",
            description="Run the workflow with 'weft execute' or the server, or pass "
            "services=weft.engine.services.LocalServices() to the engine.",
        )
    return ctx.services
