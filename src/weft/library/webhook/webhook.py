"""Webhook (``n8n-nodes-base.webhook``): starts an execution when an HTTP request arrives.

The server turns the request into the node's input item (n8n's shape: ``{headers, params, query, body,
webhookUrl, executionMode}``, plus ``binary`` for raw or binary bodies) and starts the execution at this node;
``execute`` passes that item through. How the request is answered (``responseMode``: ``onReceived``,
``lastNode``, ``responseNode``) is the server's business; the parameters are read with
:func:`weft.nodes.webhooks.webhook_options`.
"""

from __future__ import annotations

from typing import ClassVar

from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.webhooks import WEBHOOK_TYPE
from weft.workflow import NodeOutput


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


__all__ = ["Webhook"]
