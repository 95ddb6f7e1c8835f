"""Execute Workflow (``n8n-nodes-base.executeWorkflow``): run another workflow with this node's items.

The node loads the sub-workflow (``localFile``: only inside ``WEFT_RESTRICT_FILE_ACCESS_TO``, see
:mod:`._workflow_file`; ``parameter``) or names it (``database``: the host resolves
the id) and hands it to ``ctx.services.execute_workflow``. ``mode: once`` sends all items to one
sub-execution; ``mode: each`` runs one sub-execution per item and pairs its results to that item.

A sub-workflow that waits makes this node's execution wait (the host's business, ``weft.services.subworkflows``);
when the child finishes the host resumes it: with the child's output passed through, or, when the child failed,
by running this node again with the child's error as its stack entry's ``metadata.resumeError`` (n8n 2.41.1).
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from weft.errors import NodeOperationError, WeftError
from weft.nodes.builtin._workflow_file import read_workflow_file
from weft.nodes.builtin.execute_workflow_trigger import declared_item
from weft.nodes.contract import ExecuteContext, ExecutionServices, NodeDescription, NodeType
from weft.workflow import Item, NodeOutput, PairedItem

#: The stack-entry metadata of a node that waits for sub-executions: their ids, and the error one ended with.
WAITING_CHILDREN = "waitingChildExecutionIds"
RESUME_ERROR = "resumeError"


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


def resumed_sub_execution_error(ctx: ExecuteContext) -> dict[str, Any] | None:
    """The error of the sub-workflow this node waited for, when the node runs again because the child failed."""
    entry = getattr(ctx, "execute_data", None)
    metadata = (entry.get("metadata") if isinstance(entry, dict) else None) or {}
    error = metadata.get(RESUME_ERROR) if metadata.get(WAITING_CHILDREN) else None
    return error if isinstance(error, dict) else None


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


# --------------------------------------------------------------------------- loading the sub-workflow


async def load_sub_workflow(ctx: ExecuteContext, item_index: int) -> dict[str, Any]:
    """The sub-workflow's JSON for ``source`` (``{"id": …}`` for ``database``: the host loads it)."""
    source = ctx.get_node_parameter("source", item_index, "database")
    if source == "database":
        workflow_id = ctx.get_node_parameter("workflowId", item_index, "", extract_value=True)
        if workflow_id in (None, ""):
            raise NodeOperationError(
                ctx.node.name,
                "No workflow to execute: the 'Workflow' parameter is empty",
                description="Select the sub-workflow (its ID) in the node's 'Workflow' parameter.",
                item_index=item_index,
            )
        return {"id": str(workflow_id)}
    if source == "localFile":
        path = str(ctx.get_node_parameter("workflowPath", item_index, ""))
        return await _read_workflow_file(ctx, path, item_index)
    if source == "parameter":
        return _parse_workflow_parameter(ctx, ctx.get_node_parameter("workflowJson", item_index, ""), item_index)
    if source == "url":
        raise NodeOperationError(
            ctx.node.name,
            "Loading a sub-workflow from a URL is not supported yet",
            description="Download the workflow and use source 'localFile', or paste it with source 'parameter'.",
            item_index=item_index,
        )
    raise NodeOperationError(
        ctx.node.name,
        f"Unknown source {source!r}",
        description="Set 'source' to 'database', 'localFile' or 'parameter'.",
        item_index=item_index,
    )


async def _read_workflow_file(ctx: ExecuteContext, path: str, item_index: int) -> dict[str, Any]:
    if not path.strip():
        raise NodeOperationError(
            ctx.node.name,
            "The 'Workflow Path' parameter is empty",
            description="Set 'workflowPath' to the path of a workflow JSON file.",
            item_index=item_index,
        )
    text = await read_workflow_file(ctx, path, item_index)  # within WEFT_RESTRICT_FILE_ACCESS_TO, size-capped
    return _parse_json(ctx, text, f'The file "{path}"', item_index, invalid="The file content is not valid JSON")


def _parse_workflow_parameter(ctx: ExecuteContext, value: Any, item_index: int) -> dict[str, Any]:
    if isinstance(value, dict):
        return value
    if not isinstance(value, str) or not value.strip():
        raise NodeOperationError(
            ctx.node.name,
            "The 'Workflow JSON' parameter is empty",
            description="Paste the sub-workflow's JSON (as exported by n8n) into 'workflowJson'.",
            item_index=item_index,
        )
    return _parse_json(ctx, value, "The 'Workflow JSON' parameter", item_index)


def _parse_json(
    ctx: ExecuteContext, text: str, what: str, item_index: int, *, invalid: str | None = None
) -> dict[str, Any]:
    """The workflow in ``text``; ``invalid`` is the message for text that is not JSON (n8n's for a file, which
    shows nothing of the content), else ``what`` and the parser's error."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"{exc.msg} at line {exc.lineno}, column {exc.colno}"
        raise NodeOperationError(
            ctx.node.name,
            invalid or f"{what} is not valid JSON: {where}",
            description=f"{where + '. ' if invalid else ''}It must hold a workflow as exported by n8n "
            "(an object with 'nodes' and 'connections').",
            item_index=item_index,
        ) from None
    if isinstance(data, list) and len(data) == 1 and isinstance(data[0], dict):
        data = data[0]  # `n8n export:workflow` writes an array
    if not isinstance(data, dict) or "nodes" not in data:
        raise NodeOperationError(
            ctx.node.name,
            f"{what} does not hold a workflow",
            description="Expected a JSON object with 'nodes' and 'connections', as exported by n8n.",
            item_index=item_index,
        )
    return data


def _services(ctx: ExecuteContext) -> ExecutionServices:
    if ctx.services is None:
        raise NodeOperationError(
            ctx.node.name,
            "This execution cannot run sub-workflows: it has no execution services",
            description="Run the workflow with 'weft execute' or the server, or pass "
            "services=weft.engine.services.LocalServices() to the engine.",
        )
    return ctx.services
