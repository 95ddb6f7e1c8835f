"""Slack (``n8n-nodes-base.slack`` 2 to 2.7; 1 in :mod:`.v1`): n8n's ``SlackV2`` over the Web API: messages
(post as text, blocks or attachments, in a thread, ephemeral, as another name or icon; update, delete, permalink,
search, scheduled, send-and-wait: :mod:`.send_and_wait`), channels (``conversations.*``), reactions, stars, files, users
and user groups.

Each item runs its operation; the answer is the item's output (a list: one item per entry). The credential is
``slackApi`` (a bot or user token) or ``slackOAuth2Api`` (the user token of Slack's OAuth v2 answer), by the
``authentication`` parameter. Slack answers errors with HTTP 200 and ``{"ok": false, "error": ...}``: the item
fails with n8n's message (``Slack error response: "channel_not_found"``, or n8n's words for a missing scope, a
bot token where a user token is needed, a paid plan, an admin role); under "continue" the item's output is
``{"error": <message>}``. A message's ``ts`` is answered as ``message_timestamp``, as n8n renames it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import ExpressionError, NodeError
from weft.library.slack import channel, files, message, resources
from weft.library.slack.send_and_wait import send_and_wait
from weft.library.slack.transport import Operation
from weft.library.slack.v1_node import run_v1
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.node_properties import description_for
from weft.nodes.routing.scope import RoutingScope
from weft.workflow import Item, NodeOutput

RESOURCES: dict[str, dict[str, Operation]] = {
    "channel": channel.OPERATIONS,
    "message": message.OPERATIONS,
    "reaction": resources.REACTION,
    "star": resources.STAR,
    "file": files.OPERATIONS,
    "user": resources.USER,
    "userGroup": resources.USER_GROUP,
}


class Slack(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.slack",
        display_name="Slack",
        versions=(1, 2, 2.1, 2.2, 2.3, 2.4, 2.5, 2.6, 2.7),
        description="Consume Slack API",
        group=("output",),
        usable_as_tool=True,
        credentials=("slackApi", "slackOAuth2Api"),
        defaults={"name": "Slack", "authentication": "accessToken", "resource": "message", "operation": "post"},
    )
    #: n8n marks only the V2 family ``usableAsTool``.
    tool_versions: ClassVar[tuple[float, ...]] = (2, 2.1, 2.2, 2.3, 2.4, 2.5, 2.6, 2.7)
    parameter_order: ClassVar[tuple[str, ...]] = (
        *("resource", "operation", "select", "channelId", "user", "messageType", "text", "blocksUi"),
        *("attachments", "ts", "timestamp", "name", "topic", "purpose", "query", "sort", "returnAll", "limit"),
        *("fileId", "userGroupId", "userIds", "email", "otherOptions", "updateFields", "filters", "options"),
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        version = float(ctx.node.typeVersion)
        scope = RoutingScope(ctx, description_for(ctx.node.type, version) or {})
        resource = str(scope.parameter("resource", 0, "message"))
        operation = str(scope.parameter("operation", 0, "post"))
        if version < 2:
            return await run_v1(ctx, scope, resource, operation)
        if resource == "message" and operation == "sendAndWait":
            async with ApiRequests(ctx) as api:
                return await send_and_wait(scope, api)
        run = RESOURCES.get(resource, {}).get(operation)
        out: list[Item] = []
        async with ApiRequests(ctx) as api:
            for index in range(len(ctx.get_input_data())):
                try:
                    if run is None:
                        answer: Any = {"error": f"Resource {resource} / operation {operation} not found!"}
                    else:
                        answer = await run(api, scope, index, version)
                    out.extend(json_items(answer, index))
                except (NodeError, ExpressionError) as error:
                    if not ctx.continue_on_fail():
                        raise
                    out.append({"json": {"error": error.message}})
        return [out]


def json_items(answer: Any, index: int) -> list[Item]:
    """n8n's ``returnJsonArray`` with the item's pairing."""
    rows = answer if isinstance(answer, list) else [answer]
    items: list[Item] = []
    for row in rows:
        if isinstance(row, dict) and row.get("json"):
            items.append({**row, "pairedItem": {"item": index}})  # type: ignore[typeddict-item]
        else:
            items.append({"json": row, "pairedItem": {"item": index}})
    return items
