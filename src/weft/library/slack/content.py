"""What a Slack message holds, as n8n's ``getMessageContent``, ``getTarget`` and ``processThreadOptions`` build
it: text, blocks or attachments, with n8n's "Automated with this n8n workflow" footer from 2.1 on unless
``otherOptions.includeLinkToWorkflow`` is off."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from weft.errors import ExpressionError, NodeOperationError
from weft.nodes.routing.scope import RoutingScope

_WAITING = "webhook-waiting/"
_FALLBACK_BASE = "http://localhost:5678/"


def instance_base_url(scope: RoutingScope) -> str:
    """n8n's ``getInstanceBaseUrl()``: the base the execution's resume URL is built on."""
    resume = scope.ctx.get_resume_url() if hasattr(scope.ctx, "get_resume_url") else ""
    if resume and _WAITING in resume:
        return resume.split(_WAITING, 1)[0]
    return _FALLBACK_BASE


def automated_message(scope: RoutingScope) -> str:
    """The footer linking to the workflow (Weft has no n8n instance id to add to the campaign)."""
    workflow_id = scope.ctx.workflow.id or ""
    campaign = quote("n8n-nodes-base.slack", safe="")
    link = (
        f"{instance_base_url(scope)}workflow/{workflow_id}"
        f"?utm_source=n8n-internal&utm_medium=powered_by&utm_campaign={campaign}"
    )
    return f"_Automated with this <{link}|n8n workflow>_"


def message_content(scope: RoutingScope, index: int, version: float) -> dict[str, Any]:
    """``getMessageContent`` for item ``index``."""
    include_link = scope.parameter("otherOptions.includeLinkToWorkflow", index, version >= 2.1)
    footer = automated_message(scope) if include_link else ""
    message_type = scope.parameter("messageType", index)
    text = scope.parameter("text", index, "")
    if message_type == "text":
        return {"text": f"{text}\n{footer}" if include_link else text}
    if message_type == "block":
        content = ensure_object(scope, "blocksUi", scope.parameter("blocksUi", index, {}), index)
        if include_link and isinstance(content.get("blocks"), list):
            content["blocks"].append({"type": "section", "text": {"type": "mrkdwn", "text": footer}})
        if text:
            content["text"] = text
        return content
    if message_type == "attachment":
        attachments = []
        for attachment in scope.parameter("attachments", index) or []:
            attachment = dict(attachment)
            fields = attachment.get("fields")
            if isinstance(fields, dict) and fields.get("item"):
                attachment["fields"] = fields["item"]
            attachments.append(attachment)
        if include_link:
            attachments.append({"text": footer})
        return {"attachments": attachments}
    raise NodeOperationError(scope.node_name, f'The message type "{message_type}" is not known!', item_index=index)


def ensure_object(scope: RoutingScope, name: str, value: Any, index: int) -> dict[str, Any]:
    """n8n's ``ensureType: 'object'``: an object, or a JSON text of one."""
    if value is None:
        raise ExpressionError(f"Parameter '{name}' must not be null", node_name=scope.node_name, item_index=index)
    if isinstance(value, str) and value:
        try:
            value = json.loads(value)
        except ValueError as error:
            raise ExpressionError(f"Parameter '{name}' could not be parsed", node_name=scope.node_name,
                                  item_index=index, description=str(error)) from error  # fmt: skip
    if not isinstance(value, dict | list):
        raise ExpressionError(f"Parameter '{name}' must be an object, but we got '{value}'",
                              node_name=scope.node_name, item_index=index)  # fmt: skip
    return value if isinstance(value, dict) else {}


def target(scope: RoutingScope, index: int, id_type: str) -> str:
    """``getTarget``: the channel, or the user (``@name`` when given by username)."""
    name = "channelId" if id_type == "channel" else "user"
    value = scope.parameter(name, index, None, extract_value=True)
    found = "" if value is None else str(value)
    locator = scope.parameter("user", index, None) if id_type == "user" else None
    if isinstance(locator, dict) and locator.get("mode") == "username" and not found.startswith("@"):
        found = f"@{found}"
    return found


def thread_options(options: Any) -> dict[str, Any]:
    """``processThreadOptions``: ``thread_ts`` (as text) and ``reply_broadcast`` of ``otherOptions.thread_ts``."""
    values = options.get("replyValues") if isinstance(options, dict) else None
    result: dict[str, Any] = {}
    if isinstance(values, dict):
        if values.get("thread_ts"):
            result["thread_ts"] = _js_string(values["thread_ts"])
        if "reply_broadcast" in values and values["reply_broadcast"] is not None:
            result["reply_broadcast"] = values["reply_broadcast"]
    return result


def _js_string(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)
