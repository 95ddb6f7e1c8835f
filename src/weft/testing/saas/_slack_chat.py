"""The fake Slack API's messages: ``chat.postMessage``, ``chat.postEphemeral``, ``chat.update``,
``chat.delete``, ``chat.getPermalink`` and ``search.messages``."""

from __future__ import annotations

import zlib
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, require
from weft.testing.saas import _slack_data as data
from weft.testing.saas._slack_common import (
    FLOOD,
    Args,
    caller_token,
    classic_page,
    fail,
    find_channel,
    find_user,
    known_message,
    ok,
)


def _target(args: Args) -> str:
    """The conversation a message goes to: a channel's id, or a user's direct message."""
    given = str(args.get("channel") or "")
    require(bool(given), fail("channel_not_found"))
    if given.startswith(("U", "@")) and given != FLOOD:
        return "D" + str(find_user(given)["id"])[1:]
    return str(find_channel(args)["id"])


def _stamp(*parts: Any) -> str:
    """A message timestamp fixed by what the message holds."""
    crc = zlib.crc32("|".join(str(p) for p in parts).encode())
    return f"{1735700000 + crc % 90000}.{crc % 1000000:06d}"


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
    require(bool(has_content), fail("no_text"))
    return "" if text is None else str(text)


def post_message(request: ApiRequest, args: Args) -> ApiReply:
    channel = _target(args)
    text = _text(args)
    ts = _stamp(channel, text, args.get("thread_ts"))
    return ok(channel=channel, ts=ts, message=_bot_message(text, ts, args))


def post_ephemeral(request: ApiRequest, args: Args) -> ApiReply:
    _target(args)
    find_user(args.get("user"))
    return ok(message_ts=_stamp("ephemeral", args.get("user"), _text(args)))


def update_message(request: ApiRequest, args: Args) -> ApiReply:
    channel = find_channel(args)
    original = known_message(channel, args.get("ts"))
    text = _text(args)
    message = {**_bot_message(text, original["ts"], args), "user": original["user"], "edited": {
        "user": data.BOT_USER, "ts": "1735700000.000000"}}  # fmt: skip
    return ok(channel=channel["id"], ts=original["ts"], text=text, message=message)


def delete_message(request: ApiRequest, args: Args) -> ApiReply:
    channel = find_channel(args)
    original = known_message(channel, args.get("ts"))
    return ok(channel=channel["id"], ts=original["ts"])


def permalink(request: ApiRequest, args: Args) -> ApiReply:
    channel = find_channel(args)
    original = known_message(channel, args.get("message_ts"))
    link = f"https://{data.DOMAIN}.slack.com/archives/{channel['id']}/p{original['ts'].replace('.', '')}"
    return ok(channel=channel["id"], permalink=link)


def search_messages(request: ApiRequest, args: Args) -> ApiReply:
    require(caller_token(request, args) == data.USER_TOKEN, fail("not_allowed_token_type"))
    query = str(args.get("query") or "")
    require(bool(query), fail("invalid_arguments"))
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
    matches, paging = classic_page(found, args)
    pagination = {"total_count": len(found), "page": paging["page"], "per_page": paging["count"],
                  "page_count": paging["pages"], "first": 1, "last": len(matches)}  # fmt: skip
    body = {"total": len(found), "pagination": pagination, "paging": paging, "matches": matches}
    return ok(query=query, messages=body)
