"""Discord (``n8n-nodes-base.discord`` 1 and 2).

Version 2 (n8n's ``DiscordV2`` router): by a bot token (``discordBotApi``), OAuth2 (``discordOAuth2Api``: the
guilds are the user's, checked before each call, the calls signed with the credential's bot token) or a webhook
(``discordWebhookApi``: only the webhook's send). Messages: send (to a channel or a user, embeds, files,
reply, flags), get, getAll (every page by ``before``), react, deleteMessage, send-and-wait
(:mod:`.send_and_wait`); channels: create, get, getAll, update, deleteChannel; members: getAll (every page by
``after``), roleAdd, roleRemove. A failed item is n8n's error (the message of Discord's error body); under
"continue" its output is ``{error}`` (with n8n's ``description`` where n8n adds one). Version 1: the webhook URL
as a parameter, ``{success: true}`` per message.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

from weft.errors import NodeError, NodeOperationError
from weft.library.discord import operations as ops
from weft.library.discord.send_and_wait import send_and_wait
from weft.library.discord.transport import discord_api_request, error_item, parse_discord_error
from weft.library.discord.v1 import execute_v1
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.node_properties import description_for
from weft.nodes.routing.scope import RoutingScope
from weft.workflow import Item, NodeOutput

PerItem = Callable[[ops.Run, int], Awaitable[Any]]


async def _send(run: ops.Run, index: int) -> Any:
    body, files = ops.message_body(run, index, run.guild_id)
    return await ops.send_message(run, index, body, files)


async def _get_message(run: ops.Run, index: int) -> Any:
    channel = await run.channel_id(index)
    found = await run.request("GET", f"/channels/{channel}/messages/{run.param('messageId', index)}", index)
    return ops.simplify(found, ops._MESSAGE_FIELDS) if run.param("options.simplify", index, False) else found


async def _get_messages(run: ops.Run, index: int) -> Any:
    channel = await run.channel_id(index)
    if not run.param("returnAll", index, False):
        found = await run.request("GET", f"/channels/{channel}/messages", index, None, {"limit": run.param("limit", 0)})
    else:
        found, qs = [], {"limit": 100}
        while True:
            page = await run.request("GET", f"/channels/{channel}/messages", index, None, qs)
            if not page or not isinstance(page, list):
                break
            qs["before"] = page[-1]["id"]
            found.extend(page)
    if run.param("options.simplify", index, False):
        return [ops.simplify(row, ops._MESSAGE_FIELDS) for row in found]
    return found


async def _react(run: ops.Run, index: int) -> Any:
    channel = await run.channel_id(index)
    emoji = ops.quoted_emoji(run.param("emoji", index))
    await run.request(
        "PUT", f"/channels/{channel}/messages/{run.param('messageId', index)}/reactions/{emoji}/@me", index
    )
    return {"success": True}


async def _delete_message(run: ops.Run, index: int) -> Any:
    channel = await run.channel_id(index)
    await run.request("DELETE", f"/channels/{channel}/messages/{run.param('messageId', index)}", index)
    return {"success": True}


def _channel_options(run: ops.Run, index: int) -> dict[str, Any]:
    options = dict(run.param("options", index, {}) or {})
    category = options.pop("categoryId", None)
    if category:
        options["parent_id"] = category.get("value") if isinstance(category, dict) else None
    return options


async def _create_channel(run: ops.Run, index: int) -> Any:
    body = {"name": run.param("name", index), "type": run.param("type", index), **_channel_options(run, index)}
    return await run.request("POST", f"/guilds/{run.guild_id}/channels", index, body)


async def _get_channel(run: ops.Run, index: int) -> Any:
    return await run.request("GET", f"/channels/{await run.channel_id(index)}", index)


async def _update_channel(run: ops.Run, index: int) -> Any:
    channel = await run.channel_id(index)
    body = {"name": run.param("name", index), **_channel_options(run, index)}
    return await run.request("PATCH", f"/channels/{channel}", index, body)


async def _delete_channel(run: ops.Run, index: int) -> Any:
    return await run.request("DELETE", f"/channels/{await run.channel_id(index)}", index)


def _role(method: str) -> PerItem:
    async def change(run: ops.Run, index: int) -> Any:
        user = run.param("userId", index, None, extract=True)
        for role in run.param("role", index, []) or []:
            await run.request(method, f"/guilds/{run.guild_id}/members/{user}/roles/{role}", index)
        return {"success": True}

    return change


async def _webhook_send(run: ops.Run, index: int) -> Any:
    body, files = ops.message_body(run, index, None)
    qs = {"wait": body.pop("wait")} if body.get("wait") else None
    body.pop("wait", None)
    if files:
        content, content_type = await ops.multipart_message(run, files, body, index)
        return await discord_api_request(run.api, "POST", "", content, headers={"Content-Type": content_type},
                                         item_index=index)  # fmt: skip
    return await run.request("POST", "", index, body, qs)


PER_ITEM: dict[str, dict[str, PerItem]] = {
    "message": {"send": _send, "get": _get_message, "getAll": _get_messages, "react": _react,
                "deleteMessage": _delete_message},
    "channel": {"create": _create_channel, "get": _get_channel, "update": _update_channel,
                "deleteChannel": _delete_channel},
    "member": {"roleAdd": _role("PUT"), "roleRemove": _role("DELETE")},
    "webhook": {"sendLegacy": _webhook_send},
}  # fmt: skip


async def _all_channels(run: ops.Run) -> list[Any]:
    found = await run.request("GET", f"/guilds/{run.guild_id}/channels", 0)
    if not run.param("returnAll", 0, False):
        found = found[: int(run.param("limit", 0))]
    wanted = (run.param("options", 0, {}) or {}).get("filter")
    if wanted:
        found = [row for row in found if row.get("type") in wanted]
    return list(found)


async def _all_members(run: ops.Run) -> list[Any]:
    return_all, after = run.param("returnAll", 0, False), run.param("after", 0)
    qs: dict[str, Any] = {} if return_all else {"limit": run.param("limit", 0)}
    if after:
        qs["after"] = after
    if not return_all:
        found = await run.request("GET", f"/guilds/{run.guild_id}/members", 0, None, qs)
    else:
        found, qs["limit"] = [], 100
        while True:
            page = await run.request("GET", f"/guilds/{run.guild_id}/members", 0, None, qs)
            if not page or not isinstance(page, list):
                break
            qs["after"] = page[-1]["user"]["id"]
            found.extend(page)
    if run.param("options.simplify", 0, False):
        return [ops.simplify(row, ops._MEMBER_FIELDS) for row in found]
    return list(found)


ONCE = {("channel", "getAll"): _all_channels, ("member", "getAll"): _all_members}


class Discord(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.discord",
        display_name="Discord",
        versions=(1, 2),
        description="Sends data to Discord",
        group=("output",),
        usable_as_tool=True,
        credentials=("discordBotApi", "discordOAuth2Api", "discordWebhookApi"),
        defaults={"name": "Discord", "authentication": "botToken", "resource": "channel"},
    )
    #: n8n marks only version 2 ``usableAsTool`` (``discordTool`` 2).
    tool_versions: ClassVar[tuple[float, ...]] = (2,)
    parameter_order: ClassVar[tuple[str, ...]] = (
        *("resource", "operation", "guildId", "sendTo", "channelId", "userId", "messageId", "content", "emoji"),
        *("name", "type", "role", "returnAll", "limit", "after", "options", "embeds", "files"),
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        if float(ctx.node.typeVersion) < 2:
            return await execute_v1(ctx)
        scope = RoutingScope(ctx, description_for(ctx.node.type, float(ctx.node.typeVersion)) or {})
        authentication = scope.parameter("authentication", 0, "webhook")
        resource = "webhook" if authentication == "webhook" else str(scope.parameter("resource", 0, "webhook"))
        operation = str(scope.parameter("operation", 0))
        async with ApiRequests(ctx) as api:
            guild_id, user_guilds = "", []
            if resource != "webhook":
                guild_id = str(scope.parameter("guildId", 0, "", extract_value=True))
                if authentication == "oAuth2":
                    user_guilds = await discord_api_request(api, "GET", "/users/@me/guilds")
                    ops.check_guild(ctx.node.name, guild_id, user_guilds)
            run = ops.Run(api, scope, guild_id, user_guilds)
            return [await _route(run, resource, operation)]


async def _route(run: ops.Run, resource: str, operation: str) -> list[Item]:
    ctx, name = run.scope.ctx, run.scope.node_name
    if resource == "message" and operation == "sendAndWait":
        return await send_and_wait(run)
    once = ONCE.get((resource, operation))
    if once is not None:
        try:
            return _items(await once(run), 0)
        except NodeError as error:
            raise parse_discord_error(name, error, 0) from error  # n8n throws even when continuing
    handler = PER_ITEM.get(resource, {}).get(operation)
    if handler is None:
        raise NodeOperationError(name, f'The operation "{operation}" of the resource "{resource}" is not supported',
                                 description="Choose another operation of the Discord node.")  # fmt: skip
    out: list[Item] = []
    for index in range(len(ctx.get_input_data())):
        try:
            out.extend(_items(await handler(run, index), index))
        except NodeError as error:
            parsed = parse_discord_error(name, error, index)
            if not ctx.continue_on_fail():
                raise parsed from error
            out.append(error_item(parsed, index))  # type: ignore[arg-type]
    return out


def _items(answer: Any, index: int) -> list[Item]:
    rows = answer if isinstance(answer, list) else [answer]
    return [{"json": row, "pairedItem": {"item": index}} for row in rows]
