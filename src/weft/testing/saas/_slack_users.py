"""The fake Slack API's ``users.*`` methods: info, list, presence, profile (get and set) and lookup by
email."""

from __future__ import annotations

from weft.testing.fake_api import ApiReply, ApiRequest, require
from weft.testing.saas import _slack_data as data
from weft.testing.saas._slack_common import Args, cursor_page, fail, find_user, ok


def users_info(request: ApiRequest, args: Args) -> ApiReply:
    return ok(user=find_user(args.get("user")))


def users_list(request: ApiRequest, args: Args) -> ApiReply:
    page, following = cursor_page(data.USERS, args)
    return ok(members=page, cache_ts=1735700000, response_metadata={"next_cursor": following})


def users_presence(request: ApiRequest, args: Args) -> ApiReply:
    user = find_user(args.get("user"))
    presence = data.PRESENCE.get(user["id"], "away")
    active = presence == "active"
    return ok(presence=presence, online=active, auto_away=not active, manual_away=False,
               connection_count=1 if active else 0, last_activity=1735689000)  # fmt: skip


def users_profile(request: ApiRequest, args: Args) -> ApiReply:
    user = find_user(args.get("user") or "U01ADA0001")
    return ok(profile=user["profile"])


def users_profile_set(request: ApiRequest, args: Args) -> ApiReply:
    """The caller's profile with the given fields (a user token only: a bot has no profile to set)."""
    require(request.headers.get("authorization", "") == f"Bearer {data.USER_TOKEN}", fail("not_allowed_token_type"))
    given = args.get("profile")
    require(isinstance(given, dict), fail("invalid_profile"))
    assert isinstance(given, dict)
    known = ("first_name", "last_name", "email", "status_text", "status_emoji", "status_expiration", "fields")
    changed = {key: value for key, value in given.items() if key in known}
    return ok(profile={**data.USER_BY_ID["U01ADA0001"]["profile"], **changed})


def users_by_email(request: ApiRequest, args: Args) -> ApiReply:
    found = next((u for u in data.USERS if u["profile"]["email"] == args.get("email")), None)
    require(found is not None, fail("users_not_found"))
    return ok(user=found)
