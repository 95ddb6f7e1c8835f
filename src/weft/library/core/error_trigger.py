"""Error Trigger (``n8n-nodes-base.errorTrigger`` v1): where an error workflow starts.

When an execution of a workflow fails, the workflow its ``settings.errorWorkflow`` names runs from this node
with n8n's payload (``execution: {id, url, retryOf, error, lastNodeExecuted, mode}``, ``workflow: {id, name}``;
see :mod:`weft.services.error_workflow`), which the node passes on. Run by hand without input, it gives n8n's
sample item so that an error workflow can be built and tested.
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.error_workflows import ERROR_TRIGGER_TYPE
from weft.workflow import NodeOutput

_SAMPLE_ID = 231


class ErrorTrigger(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name=ERROR_TRIGGER_TYPE,
        display_name="Error Trigger",
        versions=(1,),
        description="Triggers the workflow when another workflow has an error",
        group=("trigger",),
        inputs=(),
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        items = [dict(item) for item in ctx.get_input_data()] or [{"json": {}}]
        first = items[0]
        if ctx.mode == "manual" and len(items) == 1 and not first.get("json") and first.get("binary") is None:
            first["json"] = sample_error_data(_editor_url(ctx))
        return [items]  # type: ignore[list-item]


def _editor_url(ctx: ExecuteContext) -> str:
    """n8n builds the sample URL from the REST API's URL with its last segment replaced by ``execution``: the
    instance's base URL (here: where the waiting webhooks are served; ``http://localhost:5678`` without one)."""
    resume = ctx.get_resume_url()
    root = resume.split("/webhook-waiting", 1)[0] if "/webhook-waiting" in resume else "http://localhost:5678"
    return f"{root.rstrip('/')}/execution"


def sample_error_data(url_base: str) -> dict[str, Any]:
    """n8n's example error data (the Error Trigger's manual run)."""
    return {
        "execution": {
            "id": _SAMPLE_ID,
            "url": f"{url_base}/workflow/1/{_SAMPLE_ID}",
            "retryOf": "34",
            "error": {"message": "Example Error Message", "stack": "Stacktrace"},
            "lastNodeExecuted": "Node With Error",
            "mode": "manual",
        },
        "workflow": {"id": "1", "name": "Example Workflow"},
    }


__all__ = ["ErrorTrigger", "sample_error_data"]
