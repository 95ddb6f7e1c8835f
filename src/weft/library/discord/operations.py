"""The Discord v2 node's operations (n8n's ``v2/actions``): messages (send to a channel or a user, with embeds
and files; get, list, react, delete), channels (create, get, list, update, delete), members (list, add and
remove roles) and the webhook's send. Each answers the items it outputs for one input item (the list
operations of channels and members run once, on the first item)."""

from __future__ import annotations

import json
import mimetypes
from typing import Any
from urllib.parse import quote

from weft.errors import NodeOperationError
from weft.library.discord.multipart import multipart_fields
from weft.library.discord.transport import discord_api_request
from weft.nodes.api import ApiRequests
from weft.nodes.routing.scope import RoutingScope

_MESSAGE_FIELDS = ("id", "channel_id", "author", "content", "timestamp", "type")
_MEMBER_FIELDS = ("user", "roles", "permissions")


def simplify(row: Any, fields: tuple[str, ...]) -> Any:
    """``createSimplifyFunction``: only the fields named."""
    return {field: row[field] for field in fields if field in row} if isinstance(row, dict) else row


class Run:
    """One node run: the API, the parameters, the guild and (OAuth2) the user's guilds."""

    def __init__(self, api: ApiRequests, scope: RoutingScope, guild_id: str, user_guilds: list[Any]) -> None:
        self.api, self.scope, self.guild_id, self.user_guilds = api, scope, guild_id, user_guilds
        self.oauth2 = scope.parameter("authentication", 0, "webhook") == "oAuth2"

    def param(self, name: str, index: int, fallback: Any = None, *, extract: bool = False) -> Any:
        return self.scope.parameter(name, index, fallback, extract_value=extract)

    async def request(self, method: str, endpoint: str, index: int, body: Any = None, qs: Any = None) -> Any:
        return await discord_api_request(self.api, method, endpoint, body, qs, item_index=index)

    async def channel_id(self, index: int) -> str:
        """``setupChannelGetter``: the channel (under OAuth2: one of a guild the user is in)."""
        channel_id = str(self.param("channelId", index, "", extract=True))
        if self.oauth2:
            await self.check_channel(channel_id, index)
        return channel_id

    async def check_channel(self, channel_id: str, index: int) -> None:
        """``checkAccessToChannel``."""
        guild = ""
        try:
            channel = await self.request("GET", f"/channels/{channel_id}", index)
            guild = str(channel.get("guild_id") or "") if isinstance(channel, dict) else ""
        except Exception:
            guild = ""
        if not guild:
            raise NodeOperationError(self.scope.node_name, f"Could not find server for channel with the id "
                                     f"{channel_id}", item_index=index)  # fmt: skip
        check_guild(self.scope.node_name, guild, self.user_guilds, index)


def check_guild(node_name: str, guild_id: str, user_guilds: list[Any], index: int = 0) -> None:
    """``checkAccessToGuild``."""
    if not any(isinstance(g, dict) and g.get("id") == guild_id for g in user_guilds):
        raise NodeOperationError(node_name, f"You do not have access to the guild with the id {guild_id}",
                                 item_index=index)  # fmt: skip


def prepare_options(options: dict[str, Any], guild_id: str | None = None) -> dict[str, Any]:
    """``prepareOptions``: the flags as their bits, the message to reply to as a reference."""
    options = dict(options)
    flags = options.get("flags")
    if flags:
        if len(flags) == 2:
            options["flags"] = (1 << 2) + (1 << 12)
        elif "SUPPRESS_EMBEDS" in flags:
            options["flags"] = 1 << 2
        elif "SUPPRESS_NOTIFICATIONS" in flags:
            options["flags"] = 1 << 12
    if options.get("message_reference"):
        reference: dict[str, Any] = {"message_id": options["message_reference"]}
        if guild_id is not None:
            reference["guild_id"] = guild_id
        options["message_reference"] = reference
    return options


def prepare_embeds(node_name: str, embeds: list[dict[str, Any]], version_before_2_41: bool = False) -> list[Any]:
    """``prepareEmbeds``: each embed from its JSON or its fields (empty ones left out), author, color, video,
    thumbnail and image in Discord's shapes; empty embeds dropped."""
    prepared = []
    for embed in embeds:
        if embed.get("inputMethod") == "json":
            given = embed.get("json")
            try:
                data = given if isinstance(given, dict) else json.loads(str(given))
            except ValueError as error:
                raise NodeOperationError(node_name, "Not a valid JSON") from error
        else:
            data = {k: v for k, v in embed.items() if k != "inputMethod" and v != ""}
        if data.get("author") and isinstance(data["author"], str):
            data["author"] = {"name": data["author"]}
        if data.get("color") and isinstance(data["color"], str):
            data["color"] = _parse_hex(data["color"].replace("#", ""))
        if data.get("video"):
            data["video"] = {"url": data["video"], "width": 1270, "height": 720}
        for name in ("thumbnail", "image"):
            if data.get(name):
                data[name] = {"url": data[name]}
        if data:
            prepared.append(data)
    return prepared


def _parse_hex(text: str) -> Any:
    """``parseInt(text, 16)``: the leading hex digits, NaN (None) for none."""
    digits = ""
    for char in text.strip():
        if char.lower() not in "0123456789abcdef":
            break
        digits += char
    return int(digits, 16) if digits else None


async def multipart_message(
    run: Run, files: list[dict[str, Any]], payload: dict[str, Any], index: int
) -> tuple[bytes, str]:
    """``prepareMultiPartForm``: ``payload_json`` with the attachments, then ``files[n]``."""
    ctx = run.scope.ctx
    attachments, parts = [], []
    for number, file in enumerate(files):
        binary = ctx.assert_binary_data(index, file.get("inputFieldName", "data"))
        filename = str(binary.get("fileName") or "")
        if "." not in filename:
            if binary.get("fileExtension"):
                filename += f".{binary['fileExtension']}"
            if binary.get("mimeType"):
                extension = mimetypes.guess_extension(str(binary["mimeType"])) or ".false"
                filename += extension
        attachments.append({"id": number, "filename": filename})
        data = await ctx.binary_bytes(binary)
        parts.append((f"files[{number}]", filename, str(binary.get("mimeType") or ""), data))
    payload_json = json.dumps({**payload, "attachments": attachments}, separators=(",", ":"), ensure_ascii=False)
    return multipart_fields([("payload_json", None, "application/json", payload_json.encode()), *parts])


async def send_message(run: Run, index: int, body: dict[str, Any], files: list[dict[str, Any]]) -> Any:
    """``sendDiscordMessage``: to the channel, or to the user's direct-message channel."""
    send_to = run.param("sendTo", index)
    channel_id = ""
    if send_to == "user":
        user_id = run.param("userId", index, None, extract=True)
        if run.oauth2:
            await _check_member(run, user_id, index)
        dm = await run.request("POST", "/users/@me/channels", index, {"recipient_id": user_id})
        channel_id = str(dm.get("id") or "") if isinstance(dm, dict) else ""
        if not channel_id:
            raise NodeOperationError(run.scope.node_name, "Could not create a channel to send direct message to",
                                     item_index=index)  # fmt: skip
    if send_to == "channel":
        channel_id = str(run.param("channelId", index, None, extract=True) or "")
    if run.oauth2 and send_to != "user":
        await run.check_channel(channel_id, index)
    if not channel_id:
        raise NodeOperationError(run.scope.node_name, "Channel ID is required", item_index=index)
    if files:
        content, content_type = await multipart_message(run, files, body, index)
        return await discord_api_request(run.api, "POST", f"/channels/{channel_id}/messages", content,
                                         headers={"Content-Type": content_type}, item_index=index)  # fmt: skip
    return await run.request("POST", f"/channels/{channel_id}/messages", index, body)


async def _check_member(run: Run, user_id: Any, index: int) -> None:
    from weft.errors import NodeApiError

    try:
        await run.request("GET", f"/guilds/{run.guild_id}/members/{user_id}", index)
    except NodeApiError as error:
        if error.http_code == 404:
            raise NodeOperationError(run.scope.node_name, f"User with the id {user_id} is not a member of the "
                                     "selected guild", item_index=index) from error  # fmt: skip
        raise NodeOperationError(run.scope.node_name, error.message, item_index=index) from error


def message_body(run: Run, index: int, guild_id: str | None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The message's JSON (content, options, embeds) and its files, for send and the webhook's send."""
    options = prepare_options(run.param("options", index, {}) or {}, guild_id)
    embeds = (
        (run.param("embeds", index, None) or {}).get("values")
        if isinstance(run.param("embeds", index, None), dict)
        else None
    )
    files = (
        (run.param("files", index, None) or {}).get("values")
        if isinstance(run.param("files", index, None), dict)
        else None
    )
    body: dict[str, Any] = {"content": run.param("content", index, ""), **options}
    if embeds:
        body["embeds"] = prepare_embeds(run.scope.node_name, [dict(e) for e in embeds])
    return body, list(files or [])


def quoted_emoji(emoji: Any) -> str:
    """``encodeURIComponent``."""
    return quote(str(emoji), safe="-_.!~*'()")
