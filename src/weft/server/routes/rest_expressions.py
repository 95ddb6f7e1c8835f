"""``POST /rest/expressions/preview``: the editor's live preview of an expression, evaluated by the server on the
node's input in an execution's run data (:mod:`weft.services.expression_preview`). Behind the login like every
``/rest`` route; the body is bounded; a broken expression is an error result, not an HTTP error."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from weft.db.base import NotFoundError
from weft.errors import WorkflowDefinitionError
from weft.server.deps import InstanceDep
from weft.server.schemas import Envelope
from weft.services.expression_preview import context_for, preview
from weft.services.webhook_requests import BadRequestError
from weft.workflow import Workflow

router = APIRouter(prefix="/expressions", tags=["expressions"])

#: The largest body a preview takes (the workflow as edited and the expression).
MAX_BODY = 4 * 1024 * 1024


class PreviewIn(BaseModel):
    """What to preview: the workflow as edited, the node, the expression, and the execution whose data it reads."""

    workflow: dict[str, Any]
    """The workflow JSON as edited in the editor (unsaved changes included); its ``id`` names the workflow."""
    nodeName: Annotated[str, Field(min_length=1, max_length=1000)]
    """The node whose parameter holds the expression (``$json`` is its input)."""
    expression: Annotated[str, Field(max_length=100_000)]
    """The parameter value: ``=`` and a template, or plain text (shown as it is)."""
    executionId: str | None = None
    """The execution whose run data is the input; it must be one of this workflow's. ``None``: no data yet."""
    itemIndex: Annotated[int, Field(ge=0, le=1_000_000)] = 0
    """The input item the expression is evaluated for."""
    runIndex: Annotated[int, Field(ge=0, le=1_000_000)] = 0
    """The node's run whose input is used, when it ran more than once."""


class PreviewError(BaseModel):
    """Why the expression failed (n8n's ``ExpressionError`` message and description)."""

    message: str
    description: str | None = None


class PreviewOut(BaseModel):
    """The text n8n's editor shows for the expression, and its error when it failed."""

    result: str
    """What the editor shows: the value as n8n's editor writes it, or the bracketed error."""
    error: PreviewError | None = None
    """``None`` unless the expression failed."""


@router.post("/preview", summary="Preview an expression on a node's input data (the editor's live preview)")
async def preview_expression(request: Request, instance: InstanceDep, body: PreviewIn) -> Envelope[PreviewOut]:
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_BODY:
        raise BadRequestError(f"A preview body is at most {MAX_BODY // 1024 // 1024} MiB.")
    try:
        workflow = Workflow.from_json(body.workflow)
    except WorkflowDefinitionError as error:
        raise BadRequestError(error.message) from None
    if workflow.node(body.nodeName) is None:
        raise BadRequestError(f"No node called {body.nodeName!r} in this workflow.")
    data = None
    if body.executionId is not None:
        stored = await instance.runner.db(instance.store.executions.get, body.executionId)
        if stored is None or not workflow.id or stored.workflow_id != str(workflow.id):
            raise NotFoundError(f'No execution "{body.executionId}" of this workflow.')
        data = stored.data
    options = instance.runner.options
    ctx = context_for(workflow, body.nodeName, data, options, execution_id=body.executionId, run_index=body.runIndex)
    result = await preview(body.expression, ctx, body.itemIndex)
    failed = None
    if result.error is not None:
        failed = PreviewError(message=str(result.error["message"]), description=result.error.get("description"))
    return Envelope(data=PreviewOut(result=result.result, error=failed))
