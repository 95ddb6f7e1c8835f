"""The fake Slack API's marks on messages and files: ``reactions.*`` (add, remove, get) and ``stars.*`` (add,
remove, list)."""

from __future__ import annotations

from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, require
from weft.testing.saas import _slack_data as data
from weft.testing.saas._slack_common import Args, cursor_page, fail, find_channel, known_message, ok


def _star_target(args: Args) -> dict[str, Any]:
    require(any(args.get(k) for k in ("channel", "file", "file_comment")), fail("bad_timestamp"))
    if args.get("file"):
        require(str(args["file"]) in data.FILE_BY_ID, fail("file_not_found"))
        return {"type": "file", "file": data.FILE_BY_ID[str(args["file"])]}
    channel = find_channel(args)
    if not args.get("timestamp"):
        return {"type": "channel", "channel": channel["id"]}
    return {"type": "message", "channel": channel["id"], "message": known_message(channel, args.get("timestamp"))}


def stars_add(request: ApiRequest, args: Args) -> ApiReply:
    target = _star_target(args)
    require(target not in data.STARS, fail("already_starred"))
    return ok()


def stars_remove(request: ApiRequest, args: Args) -> ApiReply:
    require(_star_target(args) in data.STARS, fail("not_starred"))
    return ok()


def stars_list(request: ApiRequest, args: Args) -> ApiReply:
    page, following = cursor_page(data.STARS, args)
    paging = {"count": len(page), "total": len(data.STARS), "page": 1, "pages": 1}
    return ok(items=page, paging=paging, response_metadata={"next_cursor": following})


def _reaction_target(args: Args) -> tuple[dict[str, Any], dict[str, Any]]:
    channel = find_channel(args)
    return channel, known_message(channel, args.get("timestamp"))


def reactions_add(request: ApiRequest, args: Args) -> ApiReply:
    _, message = _reaction_target(args)
    name = str(args.get("name") or "")
    require(bool(name), fail("invalid_name"))
    mine = [r for r in message.get("reactions", []) if r["name"] == name and data.BOT_USER in r["users"]]
    require(not mine, fail("already_reacted"))
    return ok()


def reactions_remove(request: ApiRequest, args: Args) -> ApiReply:
    _, message = _reaction_target(args)
    mine = [r for r in message.get("reactions", []) if r["name"] == args.get("name") and data.BOT_USER in r["users"]]
    require(bool(mine), fail("no_reaction"))
    return ok()


def reactions_get(request: ApiRequest, args: Args) -> ApiReply:
    channel, message = _reaction_target(args)
    permalink = f"https://{data.DOMAIN}.slack.com/archives/{channel['id']}/p{message['ts'].replace('.', '')}"
    return ok(type="message", channel=channel["id"], message={**message, "permalink": permalink})
