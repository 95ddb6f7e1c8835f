"""A fake Mattermost server (``https://chat.weft.example/api/v4``), as Mattermost answers: bearer token auth,
its error body (``{"id", "message", "detailed_error", "request_id", "status_code"}``), ``page``/``per_page``
pages (``per_page`` at most 200, 60 by default) of 130 seeded users and a channel's members, 201 on creation,
``{"status": "OK"}`` on deletes. The channel id ``ratelimitedchannel0000000000`` answers 429 as Mattermost's
throttle does (text body, ``Retry-After``). It keeps no state: writes answer from the request and fixed data,
so every case reads the same seeded users, channels, posts and reactions."""

from __future__ import annotations

from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require

HOST = "chat.weft.example"
TOKEN = "mattermost-test-token"
TEAM = "teamweft00000000000000000a"
NOW = 1700000000000
RATE_LIMITED = "ratelimitedchannel0000000000"


def _id(prefix: str, number: int) -> str:
    return f"{prefix}{number:0{26 - len(prefix)}d}"


def _user(number: int) -> dict[str, Any]:
    return {
        "id": _id("user", number), "create_at": NOW + number, "update_at": NOW + number, "delete_at": 0,
        "username": f"weaver{number:03d}", "auth_data": "", "auth_service": "",
        "email": f"weaver{number:03d}@weft.example",
        "nickname": "", "first_name": f"Weaver{number}", "last_name": "Loom", "position": "",
        "roles": "system_user", "locale": "en", "timezone": {"automaticTimezone": "", "manualTimezone": "",
        "useAutomaticTimezone": "true"}, "disable_welcome_email": False,
    }  # fmt: skip


USERS = [_user(n) for n in range(1, 131)]
BY_ID = {u["id"]: u for u in USERS}


def _channel(number: int, name: str, kind: str = "O", deleted: int = 0) -> dict[str, Any]:
    return {
        "id": _id("chan", number), "create_at": NOW, "update_at": NOW, "delete_at": deleted, "team_id": TEAM,
        "type": kind, "display_name": name.replace("-", " ").title(), "name": name, "header": "", "purpose": "",
        "last_post_at": NOW, "total_msg_count": 10 * number, "extra_update_at": 0, "creator_id": _id("user", 1),
        "scheme_id": None, "props": None, "group_constrained": None, "shared": None,
        "total_msg_count_root": 10 * number, "policy_id": None, "last_root_post_at": NOW,
    }  # fmt: skip


_SEEDED = [_channel(1, "town-square"), _channel(2, "off-topic"), _channel(3, "weaving-tips")]
CHANNELS = {c["id"]: c for c in [*_SEEDED, _channel(4, "weaving-archive", deleted=NOW)]}
MEMBERS = {_id("chan", 1): 7, _id("chan", 2): 3, _id("chan", 3): 2, _id("chan", 4): 1}
POSTS = {_id("post", 1): [("+1", 1), ("heart", 2), ("tada", 3)], _id("post", 2): []}


def _error(status: int, error_id: str, message: str, **headers: str) -> ApiReply:
    body = {"id": error_id, "message": message, "detailed_error": "", "request_id": "fakerequestid0000000000000",
            "status_code": status}  # fmt: skip
    return json_error(status, body, **headers)


def _not_found(what: str) -> ApiReply:
    return _error(404, f"app.{what}.get.app_error", f"Unable to find the {what}.")


def _authorized(request: ApiRequest) -> None:
    require(
        request.headers.get("authorization") == f"Bearer {TOKEN}",
        _error(401, "api.context.session_expired.app_error", "Invalid or expired session, please login again."),
    )


def _paged(request: ApiRequest, rows: list[Any]) -> list[Any]:
    page = int(request.query.get("page") or 0)
    per_page = min(int(request.query.get("per_page") or 60), 200)
    return rows[page * per_page : (page + 1) * per_page]


def _post(body: dict[str, Any], number: int, kind: str = "") -> dict[str, Any]:
    return {
        "id": _id("post", number), "create_at": NOW, "update_at": NOW, "edit_at": 0, "delete_at": 0,
        "is_pinned": False, "user_id": _id("user", 1), "channel_id": body.get("channel_id"),
        "root_id": body.get("root_id", ""), "original_id": "", "message": body.get("message"), "type": kind,
        "props": body.get("props") or {}, "hashtags": "", "pending_post_id": "", "reply_count": 0,
        "last_reply_at": 0, "participants": None, "metadata": {},
    }  # fmt: skip


def _body_dict(request: ApiRequest) -> dict[str, Any]:
    require(isinstance(request.body, dict), _error(400, "api.context.invalid_body_param.app_error",
                                                   "Invalid or missing body in request body."))  # fmt: skip
    body: dict[str, Any] = request.body
    return body


def _channel_of(request: ApiRequest) -> dict[str, Any]:
    channel_id = request.params["channel"]
    require(channel_id != RATE_LIMITED, _throttled())
    found = CHANNELS.get(channel_id)
    require(
        found is not None, _error(404, "app.channel.get.existing.app_error", "Unable to find the existing channel.")
    )
    assert found is not None
    return found


def _throttled() -> ApiReply:
    headers = {"Retry-After": "1", "X-Ratelimit-Limit": "10", "X-Ratelimit-Remaining": "0", "X-Ratelimit-Reset": "1"}
    return ApiReply(status=429, text="limit exceeded\n", headers=headers)


def posts(request: ApiRequest) -> ApiReply:
    body = _body_dict(request)
    require(bool(body.get("channel_id")), _error(400, "api.context.invalid_body_param.app_error",
                                                 "Invalid or missing channel_id in request body."))  # fmt: skip
    if body["channel_id"] not in CHANNELS:
        return _error(403, "api.context.permissions.app_error", "You do not have the appropriate permissions.")
    return ApiReply(status=201, body=_post(body, 101))


def ephemeral(request: ApiRequest) -> ApiReply:
    body = _body_dict(request)
    post = body.get("post") if isinstance(body.get("post"), dict) else {}
    require(body.get("user_id") in BY_ID, _error(400, "api.context.invalid_body_param.app_error",
                                                 "Invalid or missing user_id in request body."))  # fmt: skip
    return ApiReply(status=201, body=_post(post or {}, 102, "system_ephemeral") | {"user_id": body["user_id"]})


def post_delete(request: ApiRequest) -> ApiReply:
    if request.params["post"] not in POSTS:
        return _error(404, "app.post.get.app_error", "Unable to get the post.")
    return ApiReply(body={"status": "OK"})


def channels(request: ApiRequest) -> ApiReply:
    body = _body_dict(request)
    if body.get("team_id") != TEAM:
        return _error(403, "api.context.permissions.app_error", "You do not have the appropriate permissions.")
    if body.get("name") in {c["name"] for c in CHANNELS.values()}:
        return _error(400, "store.sql_channel.save_channel.exists.app_error",
                      "A channel with that name already exists on the same team.")  # fmt: skip
    made = _channel(90, str(body.get("name")), str(body.get("type")))
    return ApiReply(status=201, body=made | {"display_name": body.get("display_name")})


def channel(request: ApiRequest) -> ApiReply:
    found = _channel_of(request)
    if request.method == "DELETE":
        return ApiReply(body={"status": "OK"})
    return ApiReply(body=found)


def restore(request: ApiRequest) -> ApiReply:
    found = _channel_of(request)
    if not found["delete_at"]:
        return _error(
            400,
            "api.channel.restore_channel.restored.app_error",
            "Unable to unarchive channel. The channel is not archived.",
        )
    return ApiReply(body=found | {"delete_at": 0, "update_at": NOW + 1})


def _member(channel_id: str, number: int) -> dict[str, Any]:
    return {
        "channel_id": channel_id, "user_id": _id("user", number), "roles": "channel_user", "last_viewed_at": NOW,
        "msg_count": number, "mention_count": 0, "mention_count_root": 0, "urgent_mention_count": 0,
        "msg_count_root": number, "notify_props": {"desktop": "default", "email": "default", "mark_unread": "all",
        "push": "default"}, "last_update_at": NOW, "scheme_guest": False, "scheme_user": True, "scheme_admin": False,
        "explicit_roles": "",
    }  # fmt: skip


def members(request: ApiRequest) -> ApiReply:
    found = _channel_of(request)
    if request.method == "POST":
        user_id = _body_dict(request).get("user_id")
        if user_id not in BY_ID:
            return _error(404, "app.user.missing_account.const", "Unable to find the user.")
        return ApiReply(status=201, body=_member(found["id"], int(str(user_id)[4:])))
    rows = [_member(found["id"], n) for n in range(1, MEMBERS[found["id"]] + 1)]
    return ApiReply(body=_paged(request, rows))


def stats(request: ApiRequest) -> ApiReply:
    found = _channel_of(request)
    return ApiReply(body={"channel_id": found["id"], "member_count": MEMBERS[found["id"]], "guest_count": 0,
                          "pinnedpost_count": 1, "files_count": 0})  # fmt: skip


def channel_search(request: ApiRequest) -> ApiReply:
    if request.params["team"] != TEAM:
        return _error(403, "api.context.permissions.app_error", "You do not have the appropriate permissions.")
    term = str(_body_dict(request).get("term") or "").lower()
    return ApiReply(body=[c for c in CHANNELS.values() if term in c["name"] and not c["delete_at"]])


def _reaction(user_id: str, post_id: str, emoji: str, number: int) -> dict[str, Any]:
    return {"user_id": user_id, "post_id": post_id, "emoji_name": emoji, "create_at": NOW + number,
            "update_at": NOW + number, "delete_at": 0, "remote_id": "", "channel_id": _id("chan", 1)}  # fmt: skip


def reactions(request: ApiRequest) -> ApiReply:
    body = _body_dict(request)
    if body.get("post_id") not in POSTS:
        return _error(400, "api.context.invalid_body_param.app_error", "Invalid or missing post_id in request body.")
    if body.get("user_id") not in BY_ID:
        return _error(403, "api.context.permissions.app_error", "You do not have the appropriate permissions.")
    require(isinstance(body.get("create_at"), int), _error(400, "model.reaction.is_valid.create_at.app_error",
                                                           "Create at must be a valid time."))  # fmt: skip
    return ApiReply(body=_reaction(str(body["user_id"]), str(body["post_id"]), str(body.get("emoji_name")), 9))


def post_reactions(request: ApiRequest) -> ApiReply:
    post_id = request.params["post"]
    if post_id not in POSTS:
        return _error(404, "app.post.get.app_error", "Unable to get the post.")
    return ApiReply(body=[_reaction(_id("user", n), post_id, emoji, n) for emoji, n in POSTS[post_id]])


def reaction_delete(request: ApiRequest) -> ApiReply:
    if request.params["post"] not in POSTS or request.params["user"] not in BY_ID:
        return _error(404, "app.post.get.app_error", "Unable to get the post.")
    return ApiReply(body={"status": "OK"})


def users(request: ApiRequest) -> ApiReply:
    if request.method == "POST":
        body = _body_dict(request)
        if body.get("username") in {u["username"] for u in USERS}:
            return _error(
                400, "app.user.save.username_exists.app_error", "An account with that username already exists."
            )
        made = _user(500) | {k: body[k] for k in ("username", "email", "first_name", "last_name", "nickname",
                                                  "locale", "auth_service", "notify_props") if k in body}  # fmt: skip
        return ApiReply(status=201, body=made)
    rows = USERS
    if request.query.get("in_channel"):
        count = MEMBERS.get(request.query["in_channel"], 0)
        rows = USERS[:count]
    if request.query.get("sort") not in (None, "", "last_activity_at", "created_at", "status"):
        return _error(
            400, "api.context.invalid_url_param.app_error", "Invalid or missing sort parameter in request URL."
        )
    return ApiReply(body=_paged(request, rows))


def users_by_ids(request: ApiRequest) -> ApiReply:
    require(isinstance(request.body, list), _error(400, "api.context.invalid_body_param.app_error",
                                                   "Invalid or missing user_ids in request body."))  # fmt: skip
    return ApiReply(body=[BY_ID[i] for i in request.body if i in BY_ID])


def user(request: ApiRequest) -> ApiReply:
    found = BY_ID.get(request.params["user"])
    if found is None:
        return _error(404, "app.user.missing_account.const", "Unable to find the user.")
    return ApiReply(body={"status": "OK"})


def user_by_email(request: ApiRequest) -> ApiReply:
    for found in USERS:
        if found["email"] == request.params["email"]:
            return ApiReply(body=found)
    return _error(404, "app.user.missing_account.const", "Unable to find the user.")


def invite(request: ApiRequest) -> ApiReply:
    require(isinstance(request.body, list), _error(400, "api.context.invalid_body_param.app_error",
                                                   "Invalid or missing user_ids in request body."))  # fmt: skip
    if request.params["team"] != TEAM:
        return _error(403, "api.context.permissions.app_error", "You do not have the appropriate permissions.")
    return ApiReply(body={"status": "OK"})


def _guarded(handler: Any) -> Any:
    def answer(request: ApiRequest) -> ApiReply:
        _authorized(request)
        reply: ApiReply = handler(request)
        return reply

    return answer


ROUTES = [
    ("POST", r"/api/v4/posts", posts), ("POST", r"/api/v4/posts/ephemeral", ephemeral),
    ("DELETE", r"/api/v4/posts/(?P<post>[^/]+)", post_delete),
    ("GET", r"/api/v4/posts/(?P<post>[^/]+)/reactions", post_reactions), ("POST", r"/api/v4/reactions", reactions),
    ("DELETE", r"/api/v4/users/(?P<user>[^/]+)/posts/(?P<post>[^/]+)/reactions/(?P<emoji>[^/]+)", reaction_delete),
    ("POST", r"/api/v4/channels", channels), ("GET", r"/api/v4/channels/(?P<channel>[^/]+)", channel),
    ("DELETE", r"/api/v4/channels/(?P<channel>[^/]+)", channel),
    ("POST", r"/api/v4/channels/(?P<channel>[^/]+)/restore", restore),
    ("GET", r"/api/v4/channels/(?P<channel>[^/]+)/members", members),
    ("POST", r"/api/v4/channels/(?P<channel>[^/]+)/members", members),
    ("GET", r"/api/v4/channels/(?P<channel>[^/]+)/stats", stats),
    ("POST", r"/api/v4/teams/(?P<team>[^/]+)/channels/search", channel_search),
    ("POST", r"/api/v4/teams/(?P<team>[^/]+)/invite/email", invite),
    ("GET", r"/api/v4//?users", users), ("POST", r"/api/v4/users", users),
    ("POST", r"/api/v4/users/ids", users_by_ids), ("DELETE", r"/api/v4/users/(?P<user>[^/]+)", user),
    ("GET", r"/api/v4/users/email/(?P<email>[^/]+)", user_by_email),
]  # fmt: skip


def install(server: FakeApiServer) -> None:
    for method, pattern, handler in ROUTES:
        server.route(method, pattern, _guarded(handler), host=HOST)


__all__ = ["HOST", "TOKEN", "install"]
