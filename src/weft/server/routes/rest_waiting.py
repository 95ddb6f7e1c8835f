"""``GET /rest/executions/{id}/waiting``: what the editor's node panel shows of a waiting execution.

The waiting node, until when it waits, its resume URL (``$execution.resumeUrl``: ``<base>/webhook-waiting/<id>``,
signed) and, for a human-approval request (a send-and-wait node whose response type is ``approval``, or a HITL
tool), its Approve / Decline links: the same signed links the human gets in the mail or the chat, so the editor
resumes the execution exactly as a click on them would. Behind the login like every ``/rest`` route; the links
are made for the execution of the path only (each is signed with its id).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from fastapi import APIRouter
from pydantic import BaseModel

from weft.ai.hitl.send_and_wait import answer_signature
from weft.db.base import NotFoundError
from weft.nodes.send_and_wait import SEND_AND_WAIT_OPERATION, signed_link
from weft.server.deps import InstanceDep
from weft.server.schemas import Envelope
from weft.services.send_and_wait import HITL_SUFFIX

router = APIRouter(prefix="/executions", tags=["executions"])
#: HITL tools whose links name the node (``/webhook-waiting/<id>/<nodeId>?…``), as Send Email's send-and-wait.
NODE_LINK_TOOLS = ("n8n-nodes-base.emailSendHitlTool",)


class Approval(BaseModel):
    """The answers of a human-approval request."""

    approveUrl: str
    declineUrl: str | None = None
    """``None`` for a single-button (approve only) request."""
    message: str | None = None
    """The request's message when it is plain text (an expression's value is in the mail or chat only)."""


class WaitingOut(BaseModel):
    executionId: str
    nodeName: str
    waitTill: str | None = None
    resumeUrl: str
    approval: Approval | None = None


@router.get("/{execution_id}/waiting", summary="The waiting node of a waiting execution, with its resume links")
async def waiting_links(instance: InstanceDep, execution_id: str) -> Envelope[WaitingOut]:
    stored = await instance.runner.db(instance.store.executions.get, execution_id)
    if stored is None or stored.status != "waiting":
        raise NotFoundError(f"Execution {execution_id!r} is not waiting.", execution_id=execution_id)
    data: Mapping[str, Any] = stored.data or {}
    stack = list((data.get("executionData") or {}).get("nodeExecutionStack") or [])
    entry: Mapping[str, Any] = stack[0] if stack else {}
    node: Mapping[str, Any] = entry.get("node") or {}
    name = str(node.get("name") or (data.get("resultData") or {}).get("lastNodeExecuted") or "")
    resume_url = instance.runner.options.resume_url(stored.id) or ""
    till = stored.wait_till.isoformat() if stored.wait_till else None
    approval = approval_links(node, entry, resume_url)
    out = WaitingOut(executionId=stored.id, nodeName=name, waitTill=till, resumeUrl=resume_url, approval=approval)
    return Envelope(data=out)


def approval_links(node: Mapping[str, Any], entry: Mapping[str, Any], resume_url: str) -> Approval | None:
    """The approve/decline links of a waiting human-approval node; ``None`` for another kind of wait."""
    parameters: Mapping[str, Any] = node.get("parameters") or {}
    node_type = str(node.get("type") or "")
    hitl = node_type.endswith(HITL_SUFFIX)
    if not hitl and parameters.get("operation") != SEND_AND_WAIT_OPERATION:
        return None
    if parameters.get("responseType", "approval") != "approval":
        return None
    double = ((parameters.get("approvalOptions") or {}).get("values") or {}).get("approvalType") == "double"
    link = _links(node_type, str(node.get("id") or node.get("name") or ""), entry, resume_url)
    double = double or hitl  # a HITL tool asks Approve / Decline (the defaults of its approval options)
    message = parameters.get("message")
    plain = message if isinstance(message, str) and not message.startswith("=") else None
    return Approval(approveUrl=link("true"), declineUrl=link("false") if double else None, message=plain)


def _links(node_type: str, node_id: str, entry: Mapping[str, Any], resume_url: str) -> Callable[[str], str]:
    """The link of an answer (``approved``: ``"true"`` / ``"false"``) as the node type makes it."""
    if not node_type.endswith(HITL_SUFFIX):
        return lambda approved: signed_link(resume_url, node_id, {"approved": approved})
    call_id = _tool_call_id(entry)
    if node_type in NODE_LINK_TOOLS:
        return lambda approved: signed_link(resume_url, node_id, {"approved": approved, "toolCallId": call_id})
    return lambda approved: _hitl_link(resume_url, call_id, approved)


def _tool_call_id(entry: Mapping[str, Any]) -> str:
    items = ((entry.get("data") or {}).get("main") or [[]])[0] or []
    return str((items[0].get("json") or {}).get("toolCallId") or "") if items else ""


def _hitl_link(resume_url: str, call_id: str, approved: str) -> str:
    """The base HITL tool's link: the resume URL with the answer, signed on its own (``answer_signature``)."""
    key = dict(parse_qsl(urlsplit(resume_url).query)).get("signature", "")
    query = {"approved": approved, "toolCallId": call_id, "answer": answer_signature(key, call_id, approved)}
    return f"{resume_url}{'&' if '?' in resume_url else '?'}{urlencode(query)}"


__all__ = ["router"]
