"""Stop and Error (``n8n-nodes-base.stopAndError`` v1): fails the execution with the given message or object."""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.values import Params, js_json, parse_js_object
from weft.workflow import NodeOutput


class StopAndError(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.stopAndError",
        display_name="Stop and Error",
        versions=(1,),
        description="Throw an error in the workflow",
        group=("input",),
        outputs=(),
        defaults={"errorType": "errorMessage", "errorMessage": "", "errorObject": "{}"},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        params = Params(ctx)
        if params.get("errorType", 0, "errorMessage") == "errorMessage":
            raise NodeOperationError(ctx.node.name, str(params.get("errorMessage", 0, "")))
        error = _error_object(ctx, params.get("errorObject", 0, "{}"))
        message = error.get("message") or error.get("description") or error.get("error")
        if message is None:
            message = f"Error: {js_json(error)}"
        description = error.get("description")
        raise NodeOperationError(
            ctx.node.name, str(message), description=str(description) if description is not None else None
        )


def _error_object(ctx: ExecuteContext, value: Any) -> dict[str, Any]:
    if isinstance(value, dict):
        return value
    try:
        parsed = parse_js_object(str(value))
    except ValueError:
        raise NodeOperationError(ctx.node.name, "Error object must be valid JSON") from None
    if not isinstance(parsed, dict):
        raise NodeOperationError(ctx.node.name, "Error object must be valid JSON")
    return parsed
