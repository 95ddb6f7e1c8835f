"""Webhook (``n8n-nodes-base.webhook``): starts an execution when an HTTP request arrives.

The server turns the request into the node's input item (n8n's shape: ``{headers, params, query, body,
webhookUrl, executionMode}``, plus ``binary`` for raw or binary bodies) and starts the execution at this node;
``execute`` passes that item through. How the request is answered (``responseMode``: ``onReceived``,
``lastNode``, ``responseNode``) is the server's business; the parameters are read with :func:`webhook_options`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import NodeModel, NodeOutput

WEBHOOK_TYPE = "n8n-nodes-base.webhook"


class Webhook(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name=WEBHOOK_TYPE,
        display_name="Webhook",
        versions=(1, 1.1, 2, 2.1),
        description="Starts the workflow when a webhook is called",
        group=("trigger",),
        inputs=(),
        credentials=("httpBasicAuth", "httpHeaderAuth", "jwtAuth"),
        defaults={"httpMethod": "GET", "path": "", "responseMode": "onReceived", "options": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        items = ctx.get_input_data()
        return [items or [{"json": {}}]]


@dataclass(frozen=True, kw_only=True)
class WebhookOptions:
    """A Webhook node's parameters that decide how the request is received and answered."""

    methods: tuple[str, ...]
    """HTTP methods it listens to (v2.1 ``multipleMethods`` allows several)."""
    path: str
    response_mode: str
    """``onReceived``, ``lastNode``, ``responseNode`` (``streaming`` is answered like ``lastNode``)."""
    response_code: int = 200
    response_data: str = "firstEntryJson"
    """``lastNode``: ``firstEntryJson``, ``allEntries``, ``firstEntryBinary``, ``noData``; ``onReceived``: a text."""
    response_headers: dict[str, str] = field(default_factory=dict)
    response_content_type: str | None = None
    response_property_name: str | None = None
    no_response_body: bool = False
    raw_body: bool = False
    binary_property_name: str = "data"


def webhook_options(node: NodeModel) -> WebhookOptions:
    """Read the node's parameters (static values; expressions in them are not evaluated)."""
    params = node.parameters
    options: Mapping[str, Any] = params.get("options") or {}
    methods = params.get("httpMethod") or "GET"
    method_list: tuple[str, ...]
    if isinstance(methods, str):
        method_list = (methods.upper(),)
    else:
        method_list = tuple(str(m).upper() for m in methods)
    if not params.get("multipleMethods") and len(method_list) > 1:
        method_list = method_list[:1]
    mode = str(params.get("responseMode") or "onReceived")
    return WebhookOptions(
        methods=method_list,
        path=str(params.get("path") or node.webhookId or "").strip().strip("/"),
        response_mode="lastNode" if mode == "streaming" else mode,
        response_code=_response_code(params.get("responseCode"), options.get("responseCode")),
        response_data=str(params.get("responseData") or options.get("responseData") or "firstEntryJson"),
        response_headers=_headers(options.get("responseHeaders")),
        response_content_type=options.get("responseContentType") or None,
        response_property_name=options.get("responsePropertyName") or None,
        no_response_body=bool(options.get("noResponseBody")),
        raw_body=bool(options.get("rawBody")),
        binary_property_name=str(options.get("binaryPropertyName") or params.get("binaryPropertyName") or "data"),
    )


def _response_code(top_level: Any, option: Any) -> int:
    """v1: a ``responseCode`` number; v2: ``options.responseCode.values.{responseCode, customCode}``."""
    if isinstance(option, Mapping):
        values = option.get("values") or {}
        code = values.get("customCode") if values.get("responseCode") == -1 else values.get("responseCode")
        return int(code or 200)
    if isinstance(option, int | float):
        return int(option)
    return int(top_level) if isinstance(top_level, int | float) else 200


def _headers(value: Any) -> dict[str, str]:
    entries = (value or {}).get("entries") if isinstance(value, Mapping) else None
    return {
        str(e.get("name")): str(e.get("value", "")) for e in entries or () if isinstance(e, Mapping) and e.get("name")
    }


__all__ = ["WEBHOOK_TYPE", "Webhook", "WebhookOptions", "webhook_options"]
