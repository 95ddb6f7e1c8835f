"""``POST /rest/workflows/<id>/chat``: the editor's chat panel talks to a saved workflow's chat trigger.

The body is n8n's chat message (``{action: "sendMessage", sessionId, chatInput}``); the answer is the one the
trigger's test URL gives (:mod:`weft.services.editor_chat`): a stream of n8n's ``begin``/``item``/``end`` chunks
(NDJSON, or server-sent events with ``Accept: text/event-stream``) when the trigger streams, else JSON
(``{output}``, with ``message`` for an approval question with buttons). ``{action: "loadPreviousSession",
sessionId}`` answers ``{data: [...]}``: the session's messages in memory.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from starlette.responses import JSONResponse, Response

from weft.db.base import NotFoundError
from weft.server.deps import InstanceDep
from weft.server.http import read_request
from weft.server.routes.chat import chat_response
from weft.services.chat import call_chat, chat_item
from weft.services.editor_chat import editor_chat_target, session_messages
from weft.services.webhook_requests import BadRequestError

router = APIRouter(prefix="/workflows", tags=["workflows"])

_NO_TRIGGER = "The workflow has no enabled Chat Trigger or Manual Chat Trigger"


@router.post("/{workflow_id}/chat", summary="Chat with the workflow from the editor (its chat trigger, test mode)")
async def chat_with_workflow(
    instance: InstanceDep, workflow_id: str, request: Request, node: str | None = None
) -> Response:
    """``node``: the chat trigger to use when the workflow has more than one."""
    runner = instance.runner
    stored = await runner.db(instance.store.workflows.get, workflow_id)
    if stored is None:
        raise NotFoundError(f"Workflow {workflow_id!r} does not exist.", workflow_id=workflow_id)
    prepared = runner.cache.get(stored)
    target = editor_chat_target(prepared, node)
    if target is None:
        raise BadRequestError(_NO_TRIGGER)
    url = f"{instance.settings.base_url.rstrip('/')}{request.url.path}"
    incoming = await read_request(request, f"{workflow_id}/chat", url)
    message = chat_item(incoming)["json"]
    if message.get("action") == "loadPreviousSession":
        session = message.get("sessionId")
        found = await session_messages(runner, prepared, str(session)) if session else []
        return JSONResponse({"data": found})
    answer = await call_chat(runner, target, incoming, test=True, page_url=request.url.path)
    return chat_response(answer)


__all__ = ["router"]
