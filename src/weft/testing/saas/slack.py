"""A fake Slack Web API (``https://slack.com/api/<method>``, and the upload URLs on ``files.slack.com``), as Slack
answers: HTTP 200 with ``{"ok": true, ...}``, or 200 with ``{"ok": false, "error": "channel_not_found"}`` for an
error (``invalid_auth`` for a wrong token, ``not_authed`` for none, ``missing_scope`` with ``needed``/``provided``,
``not_allowed_token_type`` for a bot token on ``search.messages``); HTTP 429 with ``Retry-After`` and
``{"ok": false, "error": "ratelimited"}`` for the channel ``C09FLOOD00``. Lists page by cursor
(``response_metadata.next_cursor``, at most :data:`PAGE` entries however large the ``limit``), ``files.list`` and
``search.messages`` by ``page``/``count`` (``paging``). Arguments arrive as the query, JSON, a form or multipart.
It keeps no state: what a write answers is built from the request and the fixed workspace of
:mod:`._slack_data`, so cases run in any order."""

from __future__ import annotations

import base64
import zlib
from collections.abc import Callable
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require
from weft.testing.saas import _slack_data as data

HOST = "slack.com"
UPLOAD_HOST = "files.slack.com"
FLOOD = "C09FLOOD00"
#: The most entries one page holds (Slack may answer fewer than ``limit``).
PAGE = 4
_BOT_SCOPES = "chat:write,channels:read,channels:history,channels:manage,users:read,reactions:write,files:write"
Args = dict[str, Any]


def _fail(error: str, **extra: Any) -> ApiReply:
    return ApiReply(body={"ok": False, "error": error, **extra})


def _ok(**fields: Any) -> ApiReply:
    return ApiReply(body={"ok": True, **fields})


def _args(request: ApiRequest) -> Args:
    """The method's arguments: the query, then a JSON, form or multipart body."""
    args: Args = dict(request.query)
    content_type = request.headers.get("content-type", "")
    if content_type.startswith("multipart/form-data"):
        head = f"Content-Type: {content_type}\r\n\r\n".encode()
        for part in BytesParser(policy=HTTP).parsebytes(head + request.raw_body).iter_parts():
            name = str(part.get_param("name", header="content-disposition"))
            payload = part.get_payload(decode=True)
            raw = payload if isinstance(payload, bytes) else b""
            args[name] = {"filename": part.get_filename(), "bytes": raw} if part.get_filename() else raw.decode()
    elif isinstance(request.body, dict):
        args.update(request.body)
    return args


def _token(request: ApiRequest, args: Args) -> str:
    """The caller's token (``Authorization: Bearer``, or a ``token`` argument); fails as Slack does."""
    header = request.headers.get("authorization", "")
    token = header[7:] if header.startswith("Bearer ") else str(args.get("token") or "")
    require(bool(token), _fail("not_authed"))
    require(token in (data.BOT_TOKEN, data.USER_TOKEN), _fail("invalid_auth"))
    return token


def _channel(args: Args, name: str = "channel") -> dict[str, Any]:
    cid = str(args.get(name) or "")
    require(bool(cid), _fail("invalid_arguments" if name not in args else "channel_not_found"))
    if cid == FLOOD:
        require(False, json_error(429, {"ok": False, "error": "ratelimited"}, **{"Retry-After": "30"}))
    found = data.CHANNEL_BY_ID.get(cid) or data.CHANNEL_BY_NAME.get(cid.lstrip("#"))
    require(found is not None, _fail("channel_not_found"))
    assert found is not None
    return found


def _user(uid: Any) -> dict[str, Any]:
    text = str(uid or "")
    found = data.USER_BY_ID.get(text) or data.USER_BY_NAME.get(text.lstrip("@"))
    require(found is not None, _fail("user_not_found"))
    assert found is not None
    return found


def _target(args: Args) -> str:
    """The conversation a message goes to: a channel's id, or a user's direct message."""
    given = str(args.get("channel") or "")
    require(bool(given), _fail("channel_not_found"))
    if given.startswith(("U", "@")) and given != FLOOD:
        return "D" + str(_user(given)["id"])[1:]
    return str(_channel(args)["id"])


def _stamp(*parts: Any) -> str:
    """A message timestamp fixed by what the message holds."""
    crc = zlib.crc32("|".join(str(p) for p in parts).encode())
    return f"{1735700000 + crc % 90000}.{crc % 1000000:06d}"


def _page(entries: list[Any], args: Args) -> tuple[list[Any], str]:
    """One cursor page: the entries from the cursor on, at most ``limit`` and :data:`PAGE`; the next cursor."""
    cursor = str(args.get("cursor") or "")
    start = int(base64.b64decode(cursor).decode().split(":")[1]) if cursor else 0
    size = min(int(args.get("limit") or 100), PAGE)
    end = start + size
    following = base64.b64encode(f"next:{end}".encode()).decode() if end < len(entries) else ""
    return entries[start:end], following


def _paged(entries: list[Any], args: Args) -> tuple[list[Any], dict[str, Any]]:
    """A classic page (``page``, ``count``): the entries and Slack's ``paging``."""
    count = max(int(args.get("count") or 100), 1)
    page = max(int(args.get("page") or 1), 1)
    pages = max((len(entries) + count - 1) // count, 1)
    paging = {"count": count, "total": len(entries), "page": page, "pages": pages}
    return entries[(page - 1) * count : page * count], paging


def _bot_message(text: Any, ts: str, args: Args) -> dict[str, Any]:
    message: dict[str, Any] = {
        "user": data.BOT_USER,
        "type": "message",
        "ts": ts,
        "bot_id": data.BOT_ID,
        "app_id": data.APP_ID,
        "text": text,
        "team": data.TEAM,
    }
    for field in ("blocks", "attachments", "thread_ts", "username"):
        if args.get(field) not in (None, ""):
            message[field] = args[field]
    if args.get("thread_ts"):
        message["parent_user_id"] = "U01ADA0001"
        if args.get("reply_broadcast") in (True, "true"):
            message["subtype"] = "thread_broadcast"
    if args.get("icon_emoji"):
        message["icons"] = {"emoji": args["icon_emoji"]}
    elif args.get("icon_url"):
        message["icons"] = {"image_48": args["icon_url"]}
    return message


def _text(args: Args) -> str:
    text = args.get("text")
    has_content = text not in (None, "") or args.get("blocks") or args.get("attachments")
    require(bool(has_content), _fail("no_text"))
    return "" if text is None else str(text)


def post_message(request: ApiRequest, args: Args) -> ApiReply:
    channel = _target(args)
    text = _text(args)
    ts = _stamp(channel, text, args.get("thread_ts"))
    return _ok(channel=channel, ts=ts, message=_bot_message(text, ts, args))


def post_ephemeral(request: ApiRequest, args: Args) -> ApiReply:
    _target(args)
    _user(args.get("user"))
    return _ok(message_ts=_stamp("ephemeral", args.get("user"), _text(args)))


def _known_message(channel: dict[str, Any], ts: Any) -> dict[str, Any]:
    found = next((m for m in data.HISTORY.get(channel["id"], []) if _same_ts(m["ts"], ts)), None)
    require(found is not None, _fail("message_not_found"))
    assert found is not None
    return found


def _same_ts(stored: str, given: Any) -> bool:
    """Whether ``given`` names the message (n8n sends a number parameter's text, ``1735696000`` for
    ``1735696000.000000``)."""
    try:
        return float(stored) == float(given)
    except (TypeError, ValueError):
        return False


def update_message(request: ApiRequest, args: Args) -> ApiReply:
    channel = _channel(args)
    original = _known_message(channel, args.get("ts"))
    text = _text(args)
    message = {**_bot_message(text, original["ts"], args), "user": original["user"], "edited": {
        "user": data.BOT_USER, "ts": "1735700000.000000"}}  # fmt: skip
    return _ok(channel=channel["id"], ts=original["ts"], text=text, message=message)


def delete_message(request: ApiRequest, args: Args) -> ApiReply:
    channel = _channel(args)
    original = _known_message(channel, args.get("ts"))
    return _ok(channel=channel["id"], ts=original["ts"])


def permalink(request: ApiRequest, args: Args) -> ApiReply:
    channel = _channel(args)
    original = _known_message(channel, args.get("message_ts"))
    link = f"https://{data.DOMAIN}.slack.com/archives/{channel['id']}/p{original['ts'].replace('.', '')}"
    return _ok(channel=channel["id"], permalink=link)


def search_messages(request: ApiRequest, args: Args) -> ApiReply:
    require(_token(request, args) == data.USER_TOKEN, _fail("not_allowed_token_type"))
    query = str(args.get("query") or "")
    require(bool(query), _fail("invalid_arguments"))
    words = [w for w in query.split() if not w.startswith("in:")]
    wanted = {w[3:].lstrip("#") for w in query.split() if w.startswith("in:")}
    found = []
    for cid, messages in data.HISTORY.items():
        channel = data.CHANNEL_BY_ID[cid]
        if wanted and channel["name"] not in wanted and cid not in wanted:
            continue
        for message in messages:
            if all(w.lower() in message["text"].lower() for w in words):
                link = f"https://{data.DOMAIN}.slack.com/archives/{cid}/p{message['ts'].replace('.', '')}"
                found.append({**message, "channel": {"id": cid, "name": channel["name"]}, "permalink": link})
    found.sort(key=lambda m: float(m["ts"]), reverse=args.get("sort_dir", "desc") != "asc")
    args = {**args, "count": args.get("count") or 20}
    matches, paging = _paged(found, args)
    pagination = {"total_count": len(found), "page": paging["page"], "per_page": paging["count"],
                  "page_count": paging["pages"], "first": 1, "last": len(matches)}  # fmt: skip
    body = {"total": len(found), "pagination": pagination, "paging": paging, "matches": matches}
    return _ok(query=query, messages=body)


def conversations_list(request: ApiRequest, args: Args) -> ApiReply:
    types = str(args.get("types") or "public_channel").split(",")
    chosen = [
        c for c in data.CHANNELS
        if ("private_channel" if c["is_private"] else "public_channel") in types
        and not (c["is_archived"] and str(args.get("exclude_archived")).lower() == "true")
    ]  # fmt: skip
    page, following = _page(chosen, args)
    return _ok(channels=page, response_metadata={"next_cursor": following})


def conversations_history(request: ApiRequest, args: Args) -> ApiReply:
    channel = _channel(args)
    messages = data.HISTORY.get(channel["id"], [])
    oldest, latest = float(args.get("oldest") or 0), float(args.get("latest") or 1e12)
    messages = [m for m in messages if oldest <= float(m["ts"]) <= latest]
    page, following = _page(messages, args)
    extra = {"response_metadata": {"next_cursor": following}} if following else {}
    return _ok(messages=page, has_more=bool(following), pin_count=0, **extra)


def conversations_replies(request: ApiRequest, args: Args) -> ApiReply:
    channel = _channel(args)
    thread = next(
        (t for (cid, ts), t in data.REPLIES.items() if cid == channel["id"] and _same_ts(ts, args.get("ts"))), None
    )
    require(thread is not None, _fail("thread_not_found"))
    assert thread is not None
    page, following = _page(thread, args)
    return _ok(messages=page, has_more=bool(following), response_metadata={"next_cursor": following})


def conversations_info(request: ApiRequest, args: Args) -> ApiReply:
    return _ok(channel=_channel(args))


def conversations_create(request: ApiRequest, args: Args) -> ApiReply:
    name = str(args.get("name") or "")
    require(bool(name), _fail("invalid_name_required"))
    require(name == name.lower() and " " not in name and len(name) <= 80, _fail("invalid_name_specials"))
    require(name not in data.CHANNEL_BY_NAME, _fail("name_taken"))
    private = args.get("is_private") in (True, "true")
    prefix = "G" if private else "C"
    created = {**data.CHANNELS[1], "id": f"{prefix}{zlib.crc32(name.encode()) % 10**9:09d}", "name": name,
               "name_normalized": name, "is_channel": not private, "is_group": private, "is_private": private,
               "is_general": False, "is_member": True, "creator": data.BOT_USER, "num_members": 1,
               "topic": {"value": "", "creator": "", "last_set": 0},
               "purpose": {"value": "", "creator": "", "last_set": 0}}  # fmt: skip
    return _ok(channel=created)


def conversations_archive(request: ApiRequest, args: Args) -> ApiReply:
    channel = _channel(args)
    require(not channel["is_archived"], _fail("already_archived"))
    require(not channel["is_general"], _fail("cant_archive_general"))
    return _ok()


def conversations_unarchive(request: ApiRequest, args: Args) -> ApiReply:
    require(_channel(args)["is_archived"], _fail("not_archived"))
    return _ok()


def conversations_join(request: ApiRequest, args: Args) -> ApiReply:
    channel = _channel(args)
    require(not channel["is_archived"], _fail("is_archived"))
    already = channel["is_member"]
    warning = {"warning": "already_in_channel", "response_metadata": {"warnings": ["already_in_channel"]}}
    return _ok(channel={**channel, "is_member": True}, **(warning if already else {}))


def conversations_invite(request: ApiRequest, args: Args) -> ApiReply:
    channel = _channel(args)
    users = [u for u in str(args.get("users") or "").split(",") if u]
    require(bool(users), _fail("no_user"))
    for uid in users:
        _user(uid)
        require(uid not in data.MEMBERS[channel["id"]], _fail("already_in_channel"))
    return _ok(channel={**channel, "num_members": channel["num_members"] + len(users)})


def conversations_members(request: ApiRequest, args: Args) -> ApiReply:
    channel = _channel(args)
    page, following = _page(data.MEMBERS[channel["id"]], args)
    return _ok(members=page, response_metadata={"next_cursor": following})


def _set_text(field: str) -> Callable[[ApiRequest, Args], ApiReply]:
    def handler(request: ApiRequest, args: Args) -> ApiReply:
        channel = _channel(args)
        value = {"value": str(args.get(field) or ""), "creator": data.BOT_USER, "last_set": 1735700000}
        return _ok(channel={**channel, field: value})

    return handler


def conversations_rename(request: ApiRequest, args: Args) -> ApiReply:
    channel = _channel(args)
    name = str(args.get("name") or "")
    require(name not in data.CHANNEL_BY_NAME, _fail("name_taken"))
    return _ok(channel={**channel, "name": name, "name_normalized": name, "previous_names": [channel["name"]]})


def conversations_leave(request: ApiRequest, args: Args) -> ApiReply:
    channel = _channel(args)
    return _ok() if channel["is_member"] else _ok(not_in_channel=True)


def conversations_kick(request: ApiRequest, args: Args) -> ApiReply:
    channel = _channel(args)
    user = _user(args.get("user"))
    require(user["id"] != data.BOT_USER, _fail("cant_kick_self"))
    require(user["id"] in data.MEMBERS[channel["id"]], _fail("not_in_channel"))
    return _ok()


def conversations_open(request: ApiRequest, args: Args) -> ApiReply:
    """A direct message with the users (``D`` + the first user's id), or the named conversation."""
    if args.get("channel"):
        return _ok(channel={"id": _channel(args)["id"]}, no_op=True, already_open=True)
    users = [str(_user(u)["id"]) for u in str(args.get("users") or "").split(",") if u]
    require(bool(users), _fail("users_list_not_supplied"))
    cid = ("D" if len(users) == 1 else "G") + users[0][1:]
    full = args.get("return_im") in (True, "true")
    found = {"id": cid, "created": data.CREATED, "is_im": len(users) == 1, "is_org_shared": False,
             "user": users[0], "last_read": "0000000000.000000", "latest": None, "unread_count": 0,
             "is_open": True, "priority": 0} if full else {"id": cid}  # fmt: skip
    return _ok(channel=found)


def conversations_close(request: ApiRequest, args: Args) -> ApiReply:
    cid = str(args.get("channel") or "")
    require(cid.startswith("D"), _fail("channel_not_found"))
    return _ok(no_op=True, already_closed=True) if cid.endswith("0") else _ok()


def _star_target(args: Args) -> dict[str, Any]:
    require(any(args.get(k) for k in ("channel", "file", "file_comment")), _fail("bad_timestamp"))
    if args.get("file"):
        require(str(args["file"]) in data.FILE_BY_ID, _fail("file_not_found"))
        return {"type": "file", "file": data.FILE_BY_ID[str(args["file"])]}
    channel = _channel(args)
    if not args.get("timestamp"):
        return {"type": "channel", "channel": channel["id"]}
    return {"type": "message", "channel": channel["id"], "message": _known_message(channel, args.get("timestamp"))}


def stars_add(request: ApiRequest, args: Args) -> ApiReply:
    target = _star_target(args)
    require(target not in data.STARS, _fail("already_starred"))
    return _ok()


def stars_remove(request: ApiRequest, args: Args) -> ApiReply:
    require(_star_target(args) in data.STARS, _fail("not_starred"))
    return _ok()


def stars_list(request: ApiRequest, args: Args) -> ApiReply:
    page, following = _page(data.STARS, args)
    paging = {"count": len(page), "total": len(data.STARS), "page": 1, "pages": 1}
    return _ok(items=page, paging=paging, response_metadata={"next_cursor": following})


def users_info(request: ApiRequest, args: Args) -> ApiReply:
    return _ok(user=_user(args.get("user")))


def users_list(request: ApiRequest, args: Args) -> ApiReply:
    page, following = _page(data.USERS, args)
    return _ok(members=page, cache_ts=1735700000, response_metadata={"next_cursor": following})


def users_presence(request: ApiRequest, args: Args) -> ApiReply:
    user = _user(args.get("user"))
    presence = data.PRESENCE.get(user["id"], "away")
    active = presence == "active"
    return _ok(presence=presence, online=active, auto_away=not active, manual_away=False,
               connection_count=1 if active else 0, last_activity=1735689000)  # fmt: skip


def users_profile(request: ApiRequest, args: Args) -> ApiReply:
    user = _user(args.get("user") or "U01ADA0001")
    return _ok(profile=user["profile"])


def users_profile_set(request: ApiRequest, args: Args) -> ApiReply:
    """The caller's profile with the given fields (a user token only: a bot has no profile to set)."""
    require(request.headers.get("authorization", "") == f"Bearer {data.USER_TOKEN}", _fail("not_allowed_token_type"))
    given = args.get("profile")
    require(isinstance(given, dict), _fail("invalid_profile"))
    assert isinstance(given, dict)
    known = ("first_name", "last_name", "email", "status_text", "status_emoji", "status_expiration", "fields")
    changed = {key: value for key, value in given.items() if key in known}
    return _ok(profile={**data.USER_BY_ID["U01ADA0001"]["profile"], **changed})


def users_by_email(request: ApiRequest, args: Args) -> ApiReply:
    found = next((u for u in data.USERS if u["profile"]["email"] == args.get("email")), None)
    require(found is not None, _fail("users_not_found"))
    return _ok(user=found)


def _reaction_target(args: Args) -> tuple[dict[str, Any], dict[str, Any]]:
    channel = _channel(args)
    return channel, _known_message(channel, args.get("timestamp"))


def reactions_add(request: ApiRequest, args: Args) -> ApiReply:
    _, message = _reaction_target(args)
    name = str(args.get("name") or "")
    require(bool(name), _fail("invalid_name"))
    mine = [r for r in message.get("reactions", []) if r["name"] == name and data.BOT_USER in r["users"]]
    require(not mine, _fail("already_reacted"))
    return _ok()


def reactions_remove(request: ApiRequest, args: Args) -> ApiReply:
    _, message = _reaction_target(args)
    mine = [r for r in message.get("reactions", []) if r["name"] == args.get("name") and data.BOT_USER in r["users"]]
    require(bool(mine), _fail("no_reaction"))
    return _ok()


def reactions_get(request: ApiRequest, args: Args) -> ApiReply:
    channel, message = _reaction_target(args)
    permalink = f"https://{data.DOMAIN}.slack.com/archives/{channel['id']}/p{message['ts'].replace('.', '')}"
    return _ok(type="message", channel=channel["id"], message={**message, "permalink": permalink})


def files_info(request: ApiRequest, args: Args) -> ApiReply:
    found = data.FILE_BY_ID.get(str(args.get("file") or ""))
    require(found is not None, _fail("file_not_found"))
    return _ok(file=found, comments=[], response_metadata={"next_cursor": ""})


def files_list(request: ApiRequest, args: Args) -> ApiReply:
    files = [f for f in data.FILES if not args.get("channel") or args["channel"] in f["channels"]]
    files = [f for f in files if not args.get("user") or f["user"] == args["user"]]
    args = {**args, "count": min(int(args.get("count") or 100), 2)}
    page, paging = _paged(files, args)
    return _ok(files=page, paging=paging)


def _uploaded(fid: str, name: str, title: str, size: int, channels: list[str]) -> dict[str, Any]:
    kind = name.rpartition(".")[2] if "." in name else "text"
    return {**data.FILES[2], "id": fid, "name": name, "title": title, "size": size, "filetype": kind,
            "pretty_type": kind.upper(), "user": data.BOT_USER, "created": 1735700000, "timestamp": 1735700000,
            "url_private": f"https://files.slack.com/files-pri/{data.TEAM}-{fid}/{name}",
            "permalink": f"https://{data.DOMAIN}.slack.com/files/{data.BOT_USER}/{fid}/{name}",
            "channels": channels}  # fmt: skip


def files_upload(request: ApiRequest, args: Args) -> ApiReply:
    upload = args.get("file")
    content = upload["bytes"] if isinstance(upload, dict) else str(args.get("content") or "").encode()
    require(bool(content), _fail("no_file_data"))
    name = upload["filename"] if isinstance(upload, dict) else str(args.get("filename") or "-.txt")
    channels = [c for c in str(args.get("channels") or "").split(",") if c]
    fid = f"F{zlib.crc32(content) % 10**9:09d}"
    return _ok(file=_uploaded(fid, name, str(args.get("title") or name), len(content), channels))


def upload_url(request: ApiRequest, args: Args) -> ApiReply:
    name, length = str(args.get("filename") or ""), str(args.get("length") or "")
    require(bool(name) and length.isdigit(), _fail("invalid_arguments"))
    fid = f"F{zlib.crc32(f'{name}:{length}'.encode()) % 10**9:09d}"
    return _ok(upload_url=f"https://{UPLOAD_HOST}/upload/v1/{fid}/{name}", file_id=fid)


def upload_bytes(request: ApiRequest) -> ApiReply:
    upload = _args(request).get("file")
    require(isinstance(upload, dict), ApiReply(status=400, text="no file"))
    assert isinstance(upload, dict)
    return ApiReply(text=f"OK - {len(upload['bytes'])}")


def complete_upload(request: ApiRequest, args: Args) -> ApiReply:
    files = args.get("files")
    require(isinstance(files, list) and bool(files), _fail("invalid_arguments"))
    assert isinstance(files, list)
    channels = [c for c in str(args.get("channels") or args.get("channel_id") or "").split(",") if c]
    done = []
    for entry in files:
        fid = str(entry.get("id"))
        done.append({"id": fid, "title": entry.get("title") or ""})
    for channel in channels:
        _channel({"channel": channel})
    return _ok(files=done)


def _scoped(handler: Callable[[ApiRequest, Args], ApiReply], needed: str) -> Callable[[ApiRequest, Args], ApiReply]:
    """Only a user token may call it: a bot token is missing the scope."""

    def guarded(request: ApiRequest, args: Args) -> ApiReply:
        if _token(request, args) != data.USER_TOKEN:
            return _fail("missing_scope", needed=needed, provided=_BOT_SCOPES)
        return handler(request, args)

    return guarded


def _usergroup(args: Args) -> dict[str, Any]:
    found = next((g for g in data.USERGROUPS if g["id"] == args.get("usergroup")), None)
    require(found is not None, _fail("no_such_subteam"))
    assert found is not None
    return found


def usergroups_list(request: ApiRequest, args: Args) -> ApiReply:
    groups = [g for g in data.USERGROUPS if g["date_delete"] == 0 or str(args.get("include_disabled")) == "true"]
    if str(args.get("include_users")).lower() != "true":
        groups = [{k: v for k, v in g.items() if k != "users"} for g in groups]
    if str(args.get("include_count")).lower() == "false":
        groups = [{k: v for k, v in g.items() if k != "user_count"} for g in groups]
    return _ok(usergroups=groups)


def usergroups_create(request: ApiRequest, args: Args) -> ApiReply:
    name = str(args.get("name") or "")
    require(bool(name), _fail("invalid_arguments"))
    require(name not in {g["name"] for g in data.USERGROUPS}, _fail("name_already_exists"))
    gid = f"S{zlib.crc32(name.encode()) % 10**9:09d}"
    group = {**data.USERGROUPS[0], "id": gid, "name": name, "handle": str(args.get("handle") or ""),
             "description": str(args.get("description") or ""), "users": [], "user_count": 0}  # fmt: skip
    return _ok(usergroup=group)


def usergroups_update(request: ApiRequest, args: Args) -> ApiReply:
    group = _usergroup(args)
    changed = {k: args[k] for k in ("name", "handle", "description") if k in args}
    return _ok(usergroup={**group, **changed, "date_update": 1735700000})


def usergroups_switch(enable: bool) -> Callable[[ApiRequest, Args], ApiReply]:
    def handler(request: ApiRequest, args: Args) -> ApiReply:
        group = _usergroup(args)
        require((group["date_delete"] == 0) != enable, _fail("already_enabled" if enable else "already_disabled"))
        return _ok(usergroup={**group, "date_delete": 0 if enable else 1735700000})

    return handler


def usergroups_users(request: ApiRequest, args: Args) -> ApiReply:
    group = _usergroup(args)
    users = [u for u in str(args.get("users") or "").split(",") if u]
    for uid in users:
        _user(uid)
    return _ok(usergroup={**group, "users": users, "user_count": len(users)})


METHODS: dict[str, Callable[[ApiRequest, Args], ApiReply]] = {
    "chat.postMessage": post_message,
    "chat.postEphemeral": post_ephemeral,
    "chat.update": update_message,
    "chat.delete": delete_message,
    "chat.getPermalink": permalink,
    "search.messages": search_messages,
    "conversations.list": conversations_list,
    "conversations.history": conversations_history,
    "conversations.replies": conversations_replies,
    "conversations.info": conversations_info,
    "conversations.create": conversations_create,
    "conversations.archive": conversations_archive,
    "conversations.unarchive": conversations_unarchive,
    "conversations.join": conversations_join,
    "conversations.invite": conversations_invite,
    "conversations.members": conversations_members,
    "conversations.setTopic": _set_text("topic"),
    "conversations.setPurpose": _set_text("purpose"),
    "conversations.rename": conversations_rename,
    "conversations.leave": conversations_leave,
    "conversations.kick": conversations_kick,
    "conversations.open": conversations_open,
    "conversations.close": conversations_close,
    "stars.add": stars_add,
    "stars.remove": stars_remove,
    "stars.list": stars_list,
    "users.info": users_info,
    "users.list": users_list,
    "users.getPresence": users_presence,
    "users.profile.get": users_profile,
    "users.profile.set": users_profile_set,
    "users.lookupByEmail": users_by_email,
    "reactions.add": reactions_add,
    "reactions.remove": reactions_remove,
    "reactions.get": reactions_get,
    "files.info": files_info,
    "files.list": files_list,
    "files.upload": files_upload,
    "files.getUploadURLExternal": upload_url,
    "files.completeUploadExternal": complete_upload,
    "usergroups.list": usergroups_list,
    "usergroups.create": _scoped(usergroups_create, "usergroups:write"),
    "usergroups.update": _scoped(usergroups_update, "usergroups:write"),
    "usergroups.enable": _scoped(usergroups_switch(True), "usergroups:write"),
    "usergroups.disable": _scoped(usergroups_switch(False), "usergroups:write"),
    "usergroups.users.update": _scoped(usergroups_users, "usergroups:write"),
}


def call(request: ApiRequest) -> ApiReply:
    """``/api/<method>``: the method's answer, after the token."""
    handler = METHODS.get(request.params["method"])
    if handler is None:
        return _fail("unknown_method")
    args = _args(request)
    _token(request, args)
    return handler(request, args)


def install(server: FakeApiServer) -> None:
    server.route("*", r"/api/(?P<method>[A-Za-z.]+)", call, host=HOST)
    server.route("POST", r"/upload/v1/.+", upload_bytes, host=UPLOAD_HOST)


__all__ = ["FLOOD", "HOST", "install"]
