"""A fake Discord REST API (``https://discord.com/api/v10/...``) and its webhooks (``/api/webhooks/<id>/<token>``),
as Discord answers: ``Authorization: Bot <token>`` (an OAuth2 bearer token only for ``/users/@me/guilds``), JSON
errors ``{"message": "Unknown Channel", "code": 10003}`` with their status (400 ``Invalid Form Body`` with
``errors`` per field, 401, 404), 204 with no body for deletes, reactions, roles and a webhook without ``wait``,
``x-ratelimit-*`` headers on every answer and 429 with ``Retry-After`` for the channel :data:`FLOOD`. Messages
arrive as JSON or multipart (``payload_json`` and ``files[n]``). Lists page by ``before`` (messages) and ``after``
(members). It keeps no state: ids of what a write creates come from the request, so cases run in any order."""

from __future__ import annotations

import json
import zlib
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require

HOST = "discord.com"
BOT_TOKEN = "MTEwMDAwMDAwMDAwMDAwMDAx.FakeWeft.DiscordBotToken"
OAUTH_TOKEN = "fake-discord-oauth2-access-token"
WEBHOOK_ID = "1600000000000000001"
WEBHOOK_TOKEN = "fake-weft-webhook-token"
GUILD = "1100000000000000001"
OTHER_GUILD = "1100000000000000002"
FLOOD = "1200000000000000099"
STAMP = "2025-01-01T00:00:00.000000+00:00"
_RATE = {"x-ratelimit-limit": "5", "x-ratelimit-remaining": "4", "x-ratelimit-reset-after": "1.000",
         "x-ratelimit-bucket": "fakebucket"}  # fmt: skip
BOT = {"id": "1300000000000000009", "username": "weft-bot", "avatar": None, "discriminator": "0000",
       "public_flags": 0, "flags": 0, "bot": True, "banner": None, "accent_color": None, "global_name": None,
       "avatar_decoration_data": None, "banner_color": None}  # fmt: skip


def _user(number: int, name: str) -> dict[str, Any]:
    return {"id": f"130000000000000000{number}", "username": name, "avatar": None, "discriminator": "0",
            "public_flags": 0, "flags": 0, "banner": None, "accent_color": None, "global_name": name.title(),
            "avatar_decoration_data": None, "banner_color": None}  # fmt: skip


USERS = [_user(1, "ada"), _user(2, "grace"), _user(3, "alan"), _user(4, "edsger"), _user(5, "barbara")]
ROLES = {"1500000000000000001": "Maintainer", "1500000000000000002": "Reviewer"}


def _channel(number: int, name: str, kind: int = 0, parent: str | None = "1200000000000000010") -> dict[str, Any]:
    channel = {"id": f"12000000000000000{number:02d}", "type": kind, "last_message_id": None, "flags": 0,
               "guild_id": GUILD, "name": name, "parent_id": parent, "rate_limit_per_user": 0, "topic": None,
               "position": number, "permission_overwrites": [], "nsfw": False}  # fmt: skip
    if kind == 4:
        channel.pop("last_message_id"), channel.pop("rate_limit_per_user"), channel.pop("topic")
    return channel


CHANNELS = [
    _channel(10, "Text Channels", 4, None),
    _channel(1, "general"),
    _channel(2, "announcements", 5),
    _channel(3, "builds"),
    _channel(4, "Voice", 2),
    _channel(5, "random"),
]
CHANNEL_BY_ID = {c["id"]: c for c in CHANNELS}


def _message(number: int, channel: str, author: dict[str, Any], content: str) -> dict[str, Any]:
    return {"type": 0, "channel_id": channel, "content": content, "attachments": [], "embeds": [],
            "timestamp": f"2025-01-0{1 + number // 10}T0{number % 10}:00:00.000000+00:00", "edited_timestamp": None,
            "flags": 0, "components": [], "id": f"14000000000000000{number:02d}", "author": author, "mentions": [],
            "mention_roles": [], "pinned": False, "mention_everyone": False, "tts": False}  # fmt: skip


#: The messages of #builds, newest first (as Discord lists them).
MESSAGES = [_message(n, "1200000000000000003", USERS[n % 3], f"build {n} passed") for n in range(7, 0, -1)]
MESSAGE_BY_ID = {m["id"]: m for m in MESSAGES}


def _error(status: int, message: str, code: int, **extra: Any) -> ApiReply:
    return json_error(status, {"message": message, "code": code, **extra}, **_RATE)


def _ok(body: Any, status: int = 200) -> ApiReply:
    if body is None:
        return ApiReply(status=204, headers=dict(_RATE))
    return ApiReply(status=status, body=body, headers=dict(_RATE))


def _bot(request: ApiRequest) -> None:
    given = request.headers.get("authorization", "")
    require(given == f"Bot {BOT_TOKEN}", _error(401, "401: Unauthorized", 0))


def _body(request: ApiRequest) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The JSON payload and the uploaded files (multipart: ``payload_json`` and ``files[n]``)."""
    content_type = request.headers.get("content-type", "")
    if not content_type.startswith("multipart/form-data"):
        return (request.body if isinstance(request.body, dict) else {}), []
    head = f"Content-Type: {content_type}\r\n\r\n".encode()
    payload: dict[str, Any] = {}
    files = []
    for part in BytesParser(policy=HTTP).parsebytes(head + request.raw_body).iter_parts():
        name = str(part.get_param("name", header="content-disposition"))
        raw = part.get_payload(decode=True)
        data = raw if isinstance(raw, bytes) else b""
        if name == "payload_json":
            payload = json.loads(data.decode())
        else:
            files.append({"field": name, "filename": part.get_filename(), "content_type": part.get_content_type(),
                          "size": len(data)})  # fmt: skip
    return payload, files


def _known_channel(channel_id: str) -> dict[str, Any]:
    if channel_id == FLOOD:
        body = {"message": "You are being rate limited.", "retry_after": 1.0, "global": False, "code": 0}
        require(False, json_error(429, body, **{**_RATE, "x-ratelimit-remaining": "0", "retry-after": "1"}))
    found = CHANNEL_BY_ID.get(channel_id) or DMS.get(channel_id)
    require(found is not None, _error(404, "Unknown Channel", 10003))
    assert found is not None
    return found


def _validate_embeds(embeds: Any) -> None:
    errors = {}
    for index, embed in enumerate(embeds or []):
        bad: dict[str, Any] = {}
        if "color" in embed and not isinstance(embed["color"], int):
            bad["color"] = {"_errors": [{"code": "NUMBER_TYPE_COERCE", "message": "Value is not int."}]}
        url = (embed.get("image") or {}).get("url") if isinstance(embed.get("image"), dict) else None
        if url is not None and not str(url).startswith(("http://", "https://", "attachment://")):
            bad["image"] = {"url": {"_errors": [{"code": "URL_TYPE_INVALID_URL", "message": "Not a well formed URL."}]}}
        if bad:
            errors[str(index)] = bad
    if errors:
        require(False, _error(400, "Invalid Form Body", 50035, errors={"embeds": errors}))


def _new_message(channel_id: str, payload: dict[str, Any], files: list[dict[str, Any]], author: Any) -> dict[str, Any]:
    has = payload.get("content") or payload.get("embeds") or files or payload.get("sticker_ids")
    require(bool(has), _error(400, "Cannot send an empty message", 50006))
    _validate_embeds(payload.get("embeds"))
    reference = payload.get("message_reference")
    if reference:
        known = isinstance(reference, dict) and reference.get("message_id") in MESSAGE_BY_ID
        errors = {"message_reference": {"_errors": [{"code": "REPLIES_UNKNOWN_MESSAGE", "message": "Unknown message"}]}}
        require(known, _error(400, "Invalid Form Body", 50035, errors=errors))
    seed = json.dumps([channel_id, payload, [f["filename"] for f in files]], sort_keys=True)
    message = _message(0, channel_id, author, str(payload.get("content") or ""))
    message.update(id=f"14{zlib.crc32(seed.encode()) % 10**17:017d}", timestamp=STAMP, tts=bool(payload.get("tts")),
                   flags=int(payload.get("flags") or 0), embeds=[_embed(e) for e in payload.get("embeds") or []],
                   components=payload.get("components") or [])  # fmt: skip
    message["attachments"] = [_attachment(message["id"], n, f) for n, f in enumerate(files)]
    if reference:
        message["type"] = 19
        message["message_reference"] = {"type": 0, "channel_id": channel_id, **reference}
        message["referenced_message"] = MESSAGE_BY_ID[reference["message_id"]]
    return message


def _embed(embed: dict[str, Any]) -> dict[str, Any]:
    out = {"type": "rich", **embed}
    if isinstance(out.get("image"), dict):
        out["image"] = {**out["image"], "width": 640, "height": 480, "content_type": "image/png", "flags": 0}
    return out


def _attachment(message_id: str, number: int, upload: dict[str, Any]) -> dict[str, Any]:
    aid = f"17{zlib.crc32(f'{message_id}:{number}'.encode()) % 10**17:017d}"
    return {"id": aid, "filename": upload["filename"], "size": upload["size"], "content_type": upload["content_type"],
            "url": f"https://cdn.discordapp.com/attachments/{message_id}/{aid}/{upload['filename']}"}  # fmt: skip


def create_message(request: ApiRequest) -> ApiReply:
    _bot(request)
    channel = _known_channel(request.params["channel"])
    payload, files = _body(request)
    return _ok(_new_message(channel["id"], payload, files, BOT))


def list_messages(request: ApiRequest) -> ApiReply:
    _bot(request)
    channel = _known_channel(request.params["channel"])
    messages = [m for m in MESSAGES if m["channel_id"] == channel["id"]]
    before = request.query.get("before")
    if before:
        messages = [m for m in messages if int(m["id"]) < int(before)]
    limit = int(request.query.get("limit") or 50)
    require(1 <= limit <= 100, _error(400, "Invalid Form Body", 50035, errors={"limit": {"_errors": [
        {"code": "NUMBER_TYPE_MAX", "message": "int value should be less than or equal to 100."}]}}))  # fmt: skip
    return _ok(messages[: min(limit, 3)])  # at most 3 a page here, so paging shows


def get_message(request: ApiRequest) -> ApiReply:
    _bot(request)
    _known_channel(request.params["channel"])
    found = MESSAGE_BY_ID.get(request.params["message"])
    require(found is not None, _error(404, "Unknown Message", 10008))
    return _ok(found)


def delete_message(request: ApiRequest) -> ApiReply:
    get_message(request)
    return _ok(None)


def react(request: ApiRequest) -> ApiReply:
    get_message(request)
    emoji = request.params["emoji"]
    custom = ":" in emoji
    require(custom or not emoji.isascii(), _error(400, "Unknown Emoji", 10014))
    return _ok(None)


def get_channel(request: ApiRequest) -> ApiReply:
    _bot(request)
    return _ok(_known_channel(request.params["channel"]))


def update_channel(request: ApiRequest) -> ApiReply:
    _bot(request)
    channel = _known_channel(request.params["channel"])
    payload = request.body if isinstance(request.body, dict) else {}
    require(
        0 < len(str(payload.get("name", channel["name"]))) <= 100,
        _error(
            400,
            "Invalid Form Body",
            50035,
            errors={
                "name": {
                    "_errors": [{"code": "BASE_TYPE_BAD_LENGTH", "message": "Must be between 1 and 100 in length."}]
                }
            },
        ),
    )
    return _ok({**channel, **payload})


def delete_channel(request: ApiRequest) -> ApiReply:
    _bot(request)
    return _ok(_known_channel(request.params["channel"]))


def _guild(request: ApiRequest) -> str:
    _bot(request)
    guild = request.params["guild"]
    require(guild == GUILD, _error(404 if guild != OTHER_GUILD else 403, "Unknown Guild" if guild != OTHER_GUILD
                                   else "Missing Access", 10004 if guild != OTHER_GUILD else 50001))  # fmt: skip
    return guild


def list_channels(request: ApiRequest) -> ApiReply:
    _guild(request)
    return _ok(CHANNELS)


def create_channel(request: ApiRequest) -> ApiReply:
    _guild(request)
    payload = request.body if isinstance(request.body, dict) else {}
    name = str(payload.get("name") or "")
    require(bool(name), _error(400, "Invalid Form Body", 50035, errors={"name": {"_errors": [
        {"code": "BASE_TYPE_REQUIRED", "message": "This field is required"}]}}))  # fmt: skip
    kind = int(payload.get("type") or 0)
    channel = _channel(0, name.lower().replace(" ", "-") if kind == 0 else name, kind, payload.get("parent_id"))
    channel.update({k: v for k, v in payload.items() if k in ("topic", "nsfw", "rate_limit_per_user", "position")})
    channel["id"] = f"12{zlib.crc32(name.encode()) % 10**17:017d}"
    return _ok(channel, 201)


def _member(user: dict[str, Any], roles: list[str]) -> dict[str, Any]:
    return {"avatar": None, "banner": None, "communication_disabled_until": None, "flags": 0,
            "joined_at": "2024-06-01T12:00:00.000000+00:00", "nick": None, "pending": False,
            "premium_since": None, "roles": roles, "unusual_dm_activity_until": None, "user": user, "mute": False,
            "deaf": False}  # fmt: skip


def _dm(user: dict[str, Any]) -> dict[str, Any]:
    return {"id": f"18{zlib.crc32(user['id'].encode()) % 10**17:017d}", "type": 1, "last_message_id": None, "flags": 0,
            "recipients": [user]}  # fmt: skip


#: Each user's direct-message channel (what ``POST /users/@me/channels`` opens).
DMS = {dm["id"]: dm for dm in (_dm(user) for user in USERS)}
MEMBERS = [_member(u, ["1500000000000000001"] if n == 0 else []) for n, u in enumerate(USERS)]


def list_members(request: ApiRequest) -> ApiReply:
    _guild(request)
    after = int(request.query.get("after") or 0)
    limit = int(request.query.get("limit") or 1)
    found = [m for m in MEMBERS if int(m["user"]["id"]) > after]
    return _ok(found[: min(limit, 2)])  # at most 2 a page here, so paging shows


def get_member(request: ApiRequest) -> ApiReply:
    _guild(request)
    found = next((m for m in MEMBERS if m["user"]["id"] == request.params["user"]), None)
    require(found is not None, _error(404, "Unknown Member", 10007))
    return _ok(found)


def member_role(request: ApiRequest) -> ApiReply:
    get_member(request)
    require(request.params["role"] in ROLES, _error(404, "Unknown Role", 10011))
    return _ok(None)


def dm_channel(request: ApiRequest) -> ApiReply:
    _bot(request)
    recipient = (request.body or {}).get("recipient_id") if isinstance(request.body, dict) else None
    user = next((u for u in USERS if u["id"] == str(recipient)), None)
    require(user is not None, _error(400, "Invalid Recipient(s)", 50033))
    assert user is not None
    return _ok(next(dm for dm in DMS.values() if dm["recipients"][0] is user))


def my_guilds(request: ApiRequest) -> ApiReply:
    require(request.headers.get("authorization") == f"Bearer {OAUTH_TOKEN}", _error(401, "401: Unauthorized", 0))
    guild: dict[str, Any] = {"id": GUILD, "name": "Weft Testers", "icon": None, "banner": None, "owner": False,
             "permissions": "2248473465835073", "features": []}  # fmt: skip
    return _ok([guild])


def webhook(request: ApiRequest) -> ApiReply:
    require(request.params["id"] == WEBHOOK_ID, _error(404, "Unknown Webhook", 10015))
    require(request.params["token"] == WEBHOOK_TOKEN, _error(401, "Invalid Webhook Token", 50027))
    payload, files = _body(request)
    message = _new_message("1200000000000000001", payload, files, {**BOT, "id": WEBHOOK_ID, "username": payload.get(
        "username") or "Weft Hook"})  # fmt: skip
    message["webhook_id"] = WEBHOOK_ID
    return _ok(message if str(request.query.get("wait")).lower() == "true" else None)


def install(server: FakeApiServer) -> None:
    api = r"/api/v10"
    routes = [
        ("POST", r"/api/webhooks/(?P<id>\d+)/(?P<token>[^/]+)", webhook),
        ("GET", rf"{api}/users/@me/guilds", my_guilds),
        ("POST", rf"{api}/users/@me/channels", dm_channel),
        ("GET", rf"{api}/channels/(?P<channel>\d+)", get_channel),
        ("PATCH", rf"{api}/channels/(?P<channel>\d+)", update_channel),
        ("DELETE", rf"{api}/channels/(?P<channel>\d+)", delete_channel),
        ("POST", rf"{api}/channels/(?P<channel>\d+)/messages", create_message),
        ("GET", rf"{api}/channels/(?P<channel>\d+)/messages", list_messages),
        ("GET", rf"{api}/channels/(?P<channel>\d+)/messages/(?P<message>\d+)", get_message),
        ("DELETE", rf"{api}/channels/(?P<channel>\d+)/messages/(?P<message>\d+)", delete_message),
        ("PUT", rf"{api}/channels/(?P<channel>\d+)/messages/(?P<message>\d+)/reactions/(?P<emoji>[^/]+)/@me", react),
        ("GET", rf"{api}/guilds/(?P<guild>\d+)/channels", list_channels),
        ("POST", rf"{api}/guilds/(?P<guild>\d+)/channels", create_channel),
        ("GET", rf"{api}/guilds/(?P<guild>\d+)/members", list_members),
        ("GET", rf"{api}/guilds/(?P<guild>\d+)/members/(?P<user>\d+)", get_member),
        ("PUT", rf"{api}/guilds/(?P<guild>\d+)/members/(?P<user>\d+)/roles/(?P<role>\d+)", member_role),
        ("DELETE", rf"{api}/guilds/(?P<guild>\d+)/members/(?P<user>\d+)/roles/(?P<role>\d+)", member_role),
    ]
    for method, pattern, handler in routes:
        server.route(method, pattern, handler, host=HOST)


__all__ = ["BOT_TOKEN", "FLOOD", "GUILD", "HOST", "install"]
