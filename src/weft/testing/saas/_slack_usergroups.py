"""The fake Slack API's ``usergroups.*`` methods: list, create, update, enable and disable, and users.update
(:mod:`.slack` lets only a user token call the writes)."""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, require
from weft.testing.saas import _slack_data as data
from weft.testing.saas._slack_common import Args, fail, find_user, ok


def _usergroup(args: Args) -> dict[str, Any]:
    found = next((g for g in data.USERGROUPS if g["id"] == args.get("usergroup")), None)
    require(found is not None, fail("no_such_subteam"))
    assert found is not None
    return found


def usergroups_list(request: ApiRequest, args: Args) -> ApiReply:
    groups = [g for g in data.USERGROUPS if g["date_delete"] == 0 or str(args.get("include_disabled")) == "true"]
    if str(args.get("include_users")).lower() != "true":
        groups = [{k: v for k, v in g.items() if k != "users"} for g in groups]
    if str(args.get("include_count")).lower() == "false":
        groups = [{k: v for k, v in g.items() if k != "user_count"} for g in groups]
    return ok(usergroups=groups)


def usergroups_create(request: ApiRequest, args: Args) -> ApiReply:
    name = str(args.get("name") or "")
    require(bool(name), fail("invalid_arguments"))
    require(name not in {g["name"] for g in data.USERGROUPS}, fail("name_already_exists"))
    gid = f"S{zlib.crc32(name.encode()) % 10**9:09d}"
    group = {**data.USERGROUPS[0], "id": gid, "name": name, "handle": str(args.get("handle") or ""),
             "description": str(args.get("description") or ""), "users": [], "user_count": 0}  # fmt: skip
    return ok(usergroup=group)


def usergroups_update(request: ApiRequest, args: Args) -> ApiReply:
    group = _usergroup(args)
    changed = {k: args[k] for k in ("name", "handle", "description") if k in args}
    return ok(usergroup={**group, **changed, "date_update": 1735700000})


def usergroups_switch(enable: bool) -> Callable[[ApiRequest, Args], ApiReply]:
    def handler(request: ApiRequest, args: Args) -> ApiReply:
        group = _usergroup(args)
        require((group["date_delete"] == 0) != enable, fail("already_enabled" if enable else "already_disabled"))
        return ok(usergroup={**group, "date_delete": 0 if enable else 1735700000})

    return handler


def usergroups_users(request: ApiRequest, args: Args) -> ApiReply:
    group = _usergroup(args)
    users = [u for u in str(args.get("users") or "").split(",") if u]
    for uid in users:
        find_user(uid)
    return ok(usergroup={**group, "users": users, "user_count": len(users)})
