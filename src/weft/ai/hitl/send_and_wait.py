"""The base of HITL node types: any node with a send-and-wait operation, as a ``<X>HitlTool`` (n8n's
``convertNodeToHitlTool``).

A subclass sets ``description`` and implements :meth:`SendAndWaitHitlTool.send` (post the question where the
human reads it: a chat, a mail). The rest is shared:

* ``supply_data``: the connected tools, gated (:func:`weft.ai.hitl.core.gated_tools`);
* ``execute`` (the agent's HITL action): render ``message`` with ``$tool`` (``{name, parameters}``), build the
  approval links (the signed resume URL with ``approved=true|false`` and the tool-call id), :meth:`send`, and put
  the execution to wait (``resume_node``: the node runs again when the human answers);
* resumed, the answer (:func:`resume_request`) becomes the node's ``ai_tool`` output (:meth:`answer`):
  ``{data: {approved, respondedAt}}`` for a link, ``{chatInput, data: {approved: false}}`` for a written reply;
  a body ``{toolParameters: {...}}`` sent with an approval carries edited arguments (beyond n8n);
* each answer link is signed on its own (:func:`answer_signature`, keyed by the execution's resume signature);
  :meth:`check_waiting_request` lets the waiting webhook refuse, before the execution is claimed, a tampered
  answer (401) and a link of an earlier question (409), so two questions of one execution are answered
  independently.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar
from urllib.parse import parse_qs, urlencode, urlsplit

from weft.ai.hitl.core import TOOL_PARAMETERS, approval_from_request, approval_item, gated_tools, request_parts
from weft.errors import NodeOperationError
from weft.expressions import evaluate
from weft.nodes.contract import WAIT_INDEFINITELY, ExecuteContext, NodeType, SupplyDataContext, ToolSpec
from weft.workflow import Item, NodeOutput

#: The HITL message n8n puts in every ``<X>HitlTool`` (``filterHitlToolProperties``).
DEFAULT_MESSAGE = "=The agent wants to run this tool: {{ $tool.name }}\n\nInput:\n{{ $tool.parameters }}"


_TOOL_VARIABLE = re.compile(r"\$tool\b")
_TOOL_EXPRESSION = "({name: $fromAI('tool', '', 'string', ''), parameters: $fromAI('toolParameters')})"


@dataclass(frozen=True, kw_only=True)
class ApprovalOption:
    """One answer the human can click (n8n's send-and-wait ``options``)."""

    label: str
    url: str
    style: str
    approved: bool


def resume_request(ctx: ExecuteContext) -> dict[str, Any] | None:
    """The request that resumed this node (``{headers, params, query, body}``), or ``None`` on its first run."""
    execute_data = getattr(ctx, "execute_data", None) or {}
    request = (execute_data.get("metadata") or {}).get("resumeRequest")
    return dict(request) if isinstance(request, Mapping) else None


def _escape_html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _with_query(url: str, **query: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}{urlencode(query)}"


def answer_signature(key: str, tool_call_id: str, approved: str) -> str:
    """Signs one answer of one question (HMAC-SHA256 keyed by the execution's resume signature), so that a
    Decline link cannot be turned into an Approve link, nor one question's link into another's."""
    return hmac.new(key.encode(), f"{tool_call_id}:{approved}".encode(), hashlib.sha256).hexdigest()


def _resume_signature(url: str) -> str | None:
    values = parse_qs(urlsplit(url).query).get("signature")
    return values[0] if values else None


def wait_till(ctx: ExecuteContext) -> datetime:
    """``options.limitWaitTime`` (n8n's ``configureWaitTillDate``), else :data:`WAIT_INDEFINITELY`."""
    limit = ctx.get_node_parameter("options.limitWaitTime.values", 0, {})
    if not isinstance(limit, Mapping) or not limit:
        return WAIT_INDEFINITELY
    try:
        if limit.get("limitType", "afterTimeInterval") == "afterTimeInterval":
            unit = {"minutes": 60, "hours": 3600, "days": 86400}.get(str(limit.get("resumeUnit")), 1)
            return datetime.now(UTC) + timedelta(seconds=float(limit.get("resumeAmount", 1)) * unit)
        moment = datetime.fromisoformat(str(limit.get("maxDateAndTime")))
        return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    except (TypeError, ValueError) as error:
        raise NodeOperationError(ctx.node.name, "Could not configure Limit Wait Time", description=str(error)) from None


class SendAndWaitHitlTool(NodeType):
    """A ``<X>HitlTool``: gates the tools connected into it behind a human's answer (see the module docstring)."""

    default_reply_is_denial: ClassVar[bool] = True

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> list[ToolSpec]:
        return await gated_tools(ctx)

    async def send(self, ctx: ExecuteContext, message: str, options: list[ApprovalOption]) -> Any:
        """Put the question in front of the human (a subclass: the chat, a mail); what was sent, if the node's
        waiting output shows it (n8n's Chat: ``sendMessage``), else ``None``."""
        raise NotImplementedError

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        request = resume_request(ctx)
        if request is not None:
            return [[self.answer(ctx, request)]]
        message = self.message(ctx)
        sent = await self.send(ctx, message, self.approval_options(ctx))
        ctx.put_execution_to_wait(wait_till(ctx), resume_node=True)
        waiting: dict[str, Any] = {"json": {}}
        if sent is not None:
            waiting["sendMessage"] = sent
        return [[waiting]]  # type: ignore[list-item]

    def tool_call(self, ctx: ExecuteContext) -> dict[str, Any]:
        """The call being approved, from the node's input: ``{name, parameters, toolCallId}``."""
        items = ctx.get_input_data()
        json = items[0]["json"] if items else {}
        return {"name": json.get("tool"), "parameters": json.get(TOOL_PARAMETERS), "id": json.get("toolCallId")}

    def message(self, ctx: ExecuteContext) -> str:
        """``message`` evaluated with ``$tool`` = ``{name, parameters}``: n8n's ``handleTool`` reads them with
        ``$fromAI('tool')`` and ``$fromAI('toolParameters')``, and so does the rewritten expression."""
        raw = ctx.get_node_parameter("message", 0, DEFAULT_MESSAGE, raw=True)
        if isinstance(raw, str) and raw.startswith("="):
            raw = _TOOL_VARIABLE.sub(_TOOL_EXPRESSION, raw)
        value = evaluate(raw, ctx.expression_context(), 0, parameter="message")
        return value if isinstance(value, str) else ("" if value is None else str(value))

    def approval_options(self, ctx: ExecuteContext) -> list[ApprovalOption]:
        """n8n's ``getSendAndWaitConfig`` options (disapprove first for ``double``), the tool-call id in each link."""
        values = ctx.get_node_parameter("approvalOptions.values", 0, {})
        values = values if isinstance(values, Mapping) else {}
        call_id = str(self.tool_call(ctx)["id"] or "")
        base = ctx.get_resume_url()
        key = _resume_signature(base)

        def link(approved: str) -> str:
            if key is None:  # an execution without signed resume URLs (the CLI)
                return _with_query(base, approved=approved, toolCallId=call_id)
            return _with_query(
                base, approved=approved, toolCallId=call_id, answer=answer_signature(key, call_id, approved)
            )

        approve = ApprovalOption(
            label=_escape_html(str(values.get("approveLabel") or "Approve")),
            url=link("true"),
            style=str(values.get("buttonApprovalStyle") or "primary"),
            approved=True,
        )
        if values.get("approvalType") != "double":
            return [approve]
        disapprove = ApprovalOption(
            label=_escape_html(str(values.get("disapproveLabel") or "Disapprove")),
            url=link("false"),
            style=str(values.get("buttonDisapprovalStyle") or "secondary"),
            approved=False,
        )
        return [disapprove, approve]

    def answer(self, ctx: ExecuteContext, request: Mapping[str, Any]) -> Item:
        """The human's answer as the node's output (see the module docstring)."""
        approval = approval_from_request(request)
        if approval is not None:
            return approval
        _, body = request_parts(request)
        chat_input = body.get("chatInput")
        if isinstance(chat_input, str):
            return {"json": {**body, "data": {"approved": False}}}
        return approval_item(False)

    @classmethod
    def check_waiting_request(
        cls, entry: Mapping[str, Any], query: Mapping[str, Any], key: str | None = None
    ) -> tuple[int, str] | None:
        """Why a resume request (its signature already checked, ``key``; ``None``: links signed another way)
        cannot answer the question now waiting:
        ``(401, …)`` for an answer whose own signature is missing or wrong, ``(409, …)`` for a link of an earlier
        question of the same execution; ``None`` when it can."""
        given = query.get("toolCallId")
        approved = query.get("approved")
        if key is not None and approved is not None:
            expected = answer_signature(key, str(given or ""), str(approved))
            if not hmac.compare_digest(str(query.get("answer") or "").encode(), expected.encode()):
                return 401, "Invalid token"
        if given is None:
            return None
        main = (entry.get("data") or {}).get("main") or [[]]
        items = main[0] or []
        waiting = items[0].get("json", {}).get("toolCallId") if items else None
        if waiting is None or str(given) == str(waiting):
            return None
        return 409, "This approval link answers a question that was already answered."


__all__ = [
    "DEFAULT_MESSAGE",
    "ApprovalOption",
    "SendAndWaitHitlTool",
    "resume_request",
    "wait_till",
]
