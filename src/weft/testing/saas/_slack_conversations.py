"""The fake Slack API's ``conversations.*`` methods: list, history, replies, info, create, archive and
unarchive, join, invite, members, topic and purpose, rename, leave, kick, open and close."""

from __future__ import annotations

import zlib
from collections.abc import Callable

from weft.testing.fake_api import ApiReply, ApiRequest, require
from weft.testing.saas import _slack_data as data
from weft.testing.saas._slack_common import Args, cursor_page, fail, find_channel, find_user, ok, same_ts


def conversations_list(request: ApiRequest, args: Args) -> ApiReply:
    types = str(args.get("types") or "public_channel").split(",")
    chosen = [
        c for c in data.CHANNELS
        if ("private_channel" if c["is_private"] else "public_channel") in types
        and not (c["is_archived"] and str(args.get("exclude_archived")).lower() == "true")
    ]  # fmt: skip
    page, following = cursor_page(chosen, args)
    return ok(channels=page, response_metadata={"next_cursor": following})


def conversations_history(request: ApiRequest, args: Args) -> ApiReply:
    channel = find_channel(args)
    messages = data.HISTORY.get(channel["id"], [])
    oldest, latest = float(args.get("oldest") or 0), float(args.get("latest") or 1e12)
    messages = [m for m in messages if oldest <= float(m["ts"]) <= latest]
    page, following = cursor_page(messages, args)
    extra = {"response_metadata": {"next_cursor": following}} if following else {}
    return ok(messages=page, has_more=bool(following), pin_count=0, **extra)


def conversations_replies(request: ApiRequest, args: Args) -> ApiReply:
    channel = find_channel(args)
    thread = next(
        (t for (cid, ts), t in data.REPLIES.items() if cid == channel["id"] and same_ts(ts, args.get("ts"))), None
    )
    require(thread is not None, fail("thread_not_found"))
    assert thread is not None
    page, following = cursor_page(thread, args)
    return ok(messages=page, has_more=bool(following), response_metadata={"next_cursor": following})


def conversations_info(request: ApiRequest, args: Args) -> ApiReply:
    return ok(channel=find_channel(args))


def conversations_create(request: ApiRequest, args: Args) -> ApiReply:
    name = str(args.get("name") or "")
    require(bool(name), fail("invalid_name_required"))
    require(name == name.lower() and " " not in name and len(name) <= 80, fail("invalid_name_specials"))
    require(name not in data.CHANNEL_BY_NAME, fail("name_taken"))
    private = args.get("is_private") in (True, "true")
    prefix = "G" if private else "C"
    created = {**data.CHANNELS[1], "id": f"{prefix}{zlib.crc32(name.encode()) % 10**9:09d}", "name": name,
               "name_normalized": name, "is_channel": not private, "is_group": private, "is_private": private,
               "is_general": False, "is_member": True, "creator": data.BOT_USER, "num_members": 1,
               "topic": {"value": "", "creator": "", "last_set": 0},
               "purpose": {"value": "", "creator": "", "last_set": 0}}  # fmt: skip
    return ok(channel=created)


def conversations_archive(request: ApiRequest, args: Args) -> ApiReply:
    channel = find_channel(args)
    require(not channel["is_archived"], fail("already_archived"))
    require(not channel["is_general"], fail("cant_archive_general"))
    return ok()


def conversations_unarchive(request: ApiRequest, args: Args) -> ApiReply:
    require(find_channel(args)["is_archived"], fail("not_archived"))
    return ok()


def conversations_join(request: ApiRequest, args: Args) -> ApiReply:
    channel = find_channel(args)
    require(not channel["is_archived"], fail("is_archived"))
    already = channel["is_member"]
    warning = {"warning": "already_in_channel", "response_metadata": {"warnings": ["already_in_channel"]}}
    return ok(channel={**channel, "is_member": True}, **(warning if already else {}))


def conversations_invite(request: ApiRequest, args: Args) -> ApiReply:
    channel = find_channel(args)
    users = [u for u in str(args.get("users") or "").split(",") if u]
    require(bool(users), fail("no_user"))
    for uid in users:
        find_user(uid)
        require(uid not in data.MEMBERS[channel["id"]], fail("already_in_channel"))
    return ok(channel={**channel, "num_members": channel["num_members"] + len(users)})


def conversations_members(request: ApiRequest, args: Args) -> ApiReply:
    channel = find_channel(args)
    page, following = cursor_page(data.MEMBERS[channel["id"]], args)
    return ok(members=page, response_metadata={"next_cursor": following})


def set_text(field: str) -> Callable[[ApiRequest, Args], ApiReply]:
    def handler(request: ApiRequest, args: Args) -> ApiReply:
        channel = find_channel(args)
        value = {"value": str(args.get(field) or ""), "creator": data.BOT_USER, "last_set": 1735700000}
        return ok(channel={**channel, field: value})

    return handler


def conversations_rename(request: ApiRequest, args: Args) -> ApiReply:
    channel = find_channel(args)
    name = str(args.get("name") or "")
    require(name not in data.CHANNEL_BY_NAME, fail("name_taken"))
    return ok(channel={**channel, "name": name, "name_normalized": name, "previous_names": [channel["name"]]})


def conversations_leave(request: ApiRequest, args: Args) -> ApiReply:
    channel = find_channel(args)
    return ok() if channel["is_member"] else ok(not_in_channel=True)


def conversations_kick(request: ApiRequest, args: Args) -> ApiReply:
    channel = find_channel(args)
    user = find_user(args.get("user"))
    require(user["id"] != data.BOT_USER, fail("cant_kick_self"))
    require(user["id"] in data.MEMBERS[channel["id"]], fail("not_in_channel"))
    return ok()


def conversations_open(request: ApiRequest, args: Args) -> ApiReply:
    """A direct message with the users (``D`` + the first user's id), or the named conversation."""
    if args.get("channel"):
        return ok(channel={"id": find_channel(args)["id"]}, no_op=True, already_open=True)
    users = [str(find_user(u)["id"]) for u in str(args.get("users") or "").split(",") if u]
    require(bool(users), fail("users_list_not_supplied"))
    cid = ("D" if len(users) == 1 else "G") + users[0][1:]
    full = args.get("return_im") in (True, "true")
    found = {"id": cid, "created": data.CREATED, "is_im": len(users) == 1, "is_org_shared": False,
             "user": users[0], "last_read": "0000000000.000000", "latest": None, "unread_count": 0,
             "is_open": True, "priority": 0} if full else {"id": cid}  # fmt: skip
    return ok(channel=found)


def conversations_close(request: ApiRequest, args: Args) -> ApiReply:
    cid = str(args.get("channel") or "")
    require(cid.startswith("D"), fail("channel_not_found"))
    return ok(no_op=True, already_closed=True) if cid.endswith("0") else ok()
