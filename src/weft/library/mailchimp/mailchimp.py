"""The Mailchimp node (``n8n-nodes-base.mailchimp`` 1): n8n's ``Mailchimp.execute`` over :mod:`.operations`.

Members are addressed by their email in the URL, as n8n sends them (Mailchimp takes an email, its lowercase
MD5 subscriber hash or a contact id there). As in n8n, the query built for one item is kept for the next, and a
failed item under "continue" outputs ``{error: <message>}`` with no paired item.
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeError
from weft.library.mailchimp import operations as ops
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.node_properties import description_for
from weft.nodes.routing.scope import RoutingScope
from weft.workflow import Item, NodeOutput


class Mailchimp(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.mailchimp",
        display_name="Mailchimp",
        versions=(1,),
        description="Consume Mailchimp API",
        group=("output",),
        usable_as_tool=True,
        credentials=("mailchimpApi", "mailchimpOAuth2Api"),
        defaults={"authentication": "apiKey", "resource": "member", "operation": "create"},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        scope = RoutingScope(ctx, description_for(ctx.node.type, float(ctx.node.typeVersion)) or {})
        resource = str(scope.parameter("resource", 0, "member"))
        operation = str(scope.parameter("operation", 0, "create"))
        out: list[Item] = []
        async with ApiRequests(ctx) as api:
            run = ops.Run(api=api, scope=scope)
            for index in range(len(ctx.get_input_data())):
                try:
                    answer = await _run_item(run, resource, operation, index)
                    rows = answer if isinstance(answer, list) else [answer]
                    out.extend(
                        {"json": row if isinstance(row, dict) else {}, "pairedItem": {"item": index}} for row in rows
                    )
                except NodeError as error:
                    if not ctx.continue_on_fail():
                        raise
                    out.append({"json": {"error": error.message}})
        return [out]


async def _run_item(run: ops.Run, resource: str, operation: str, index: int) -> Any:
    if resource == "member" and operation in ops.MEMBER:
        return await ops.MEMBER[operation](run, index)
    if resource == "memberTag" and operation in ops.TAG:
        return await ops.TAG[operation](run, index)
    if resource == "campaign" and operation == "getAll":
        return await ops.campaign_get_all(run, index)
    if resource == "campaign" and operation in ("get", "delete", "send", "replicate", "resend"):
        return await ops.campaign_action(run, index, operation)
    if resource == "listGroup" and operation == "getAll":
        return await ops.group_get_all(run, index)
    return None  # n8n outputs the previous item's answer here; no operation of n8n's description gets here


__all__ = ["Mailchimp"]
