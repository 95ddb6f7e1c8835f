"""Sub-workflows, for the nodes that call one (Execute Workflow, the Workflow Tool) and for the host that runs it.

:func:`load_sub_workflow` reads the workflow a node's ``source`` names. A caller whose sub-execution waits keeps
the children it waits for in its stack entry's metadata (``waitingChildExecutionIds``, :func:`with_waiting_child`);
when a child fails after the wait the host resumes the caller with the child's error (``resumeError``,
:func:`with_resume_error`) and the node reads it with :func:`resumed_sub_execution_error` (n8n 2.41.1).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext
from weft.nodes.files.workflow_file import read_workflow_file

_WAITING_CHILDREN = "waitingChildExecutionIds"
_RESUME_ERROR = "resumeError"


def waiting_children(metadata: Mapping[str, Any] | None) -> list[str]:
    """The ids of the sub-executions a stack entry's node waits for."""
    waiting = (metadata or {}).get(_WAITING_CHILDREN)
    return [str(i) for i in waiting] if isinstance(waiting, list) else []


def with_waiting_child(metadata: Mapping[str, Any] | None, child_id: str) -> dict[str, Any]:
    """``metadata`` with ``child_id`` added to the sub-executions its node waits for."""
    return {**(metadata or {}), _WAITING_CHILDREN: [*waiting_children(metadata), child_id]}


def with_resume_error(metadata: Mapping[str, Any] | None, error: Mapping[str, Any]) -> dict[str, Any]:
    """``metadata`` with the error a waited-for sub-execution ended with: its node runs again and fails with it."""
    return {**(metadata or {}), _RESUME_ERROR: dict(error)}


def resumed_sub_execution_error(ctx: ExecuteContext) -> dict[str, Any] | None:
    """The error of the sub-workflow this node waited for, when the node runs again because the child failed."""
    entry = getattr(ctx, "execute_data", None)
    metadata = (entry.get("metadata") if isinstance(entry, dict) else None) or {}
    error = metadata.get(_RESUME_ERROR) if waiting_children(metadata) else None
    return error if isinstance(error, dict) else None


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


__all__ = [
    "load_sub_workflow",
    "resumed_sub_execution_error",
    "waiting_children",
    "with_resume_error",
    "with_waiting_child",
]
