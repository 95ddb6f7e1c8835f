"""The Mattermost operations, one function per n8n ``actions/<resource>/<operation>/execute``: each sends its
request(s) and answers the response data (an object or a list; the node makes items of it)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from weft.errors import NodeOperationError
from weft.library.mattermost.attachments import prepared
from weft.library.mattermost.transport import api_request, api_request_all
from weft.library.mattermost.users import user_list_query
from weft.nodes.api import ApiRequests
from weft.nodes.routing.scope import RoutingScope


@dataclass(frozen=True)
class Op:
    api: ApiRequests
    scope: RoutingScope
    index: int
    now_ms: int

    def param(self, name: str, default: Any = None, index: int | None = None) -> Any:
        return self.scope.parameter(name, self.index if index is None else index, default)

    async def call(self, method: str, endpoint: str, body: Any = None, qs: dict[str, Any] | None = None) -> Any:
        return await api_request(self.api, method, endpoint, {} if body is None else body, qs or {}, self.index)


# ------------------------------------------------------------------------------------------------ channel


async def channel_add_user(op: Op) -> Any:
    return await op.call("POST", f"channels/{op.param('channelId')}/members", {"user_id": op.param("userId")})


async def channel_create(op: Op) -> Any:
    body = {"team_id": op.param("teamId"), "display_name": op.param("displayName"), "name": op.param("channel"),
            "type": "O" if op.param("type", "public") == "public" else "P"}  # fmt: skip
    return await op.call("POST", "channels", body)


async def channel_delete(op: Op) -> Any:
    return await op.call("DELETE", f"channels/{op.param('channelId')}")


async def channel_members(op: Op) -> Any:
    endpoint = f"channels/{op.param('channelId')}/members"
    limit = op.param("limit", 0)
    qs: dict[str, Any] = {}
    if op.param("returnAll", True):
        return await api_request_all(op.api, "GET", endpoint, {}, qs, op.index)
    qs["per_page"] = limit
    answer = await op.call("GET", endpoint, None, qs)
    if limit and isinstance(answer, list):
        answer = answer[: int(limit)]
    if op.param("resolveData", True) and isinstance(answer, list):
        ids = [row.get("user_id") if isinstance(row, dict) else None for row in answer]
        if ids:
            answer = await op.call("POST", "users/ids", ids, qs)
    return answer


async def channel_restore(op: Op) -> Any:
    return await op.call("POST", f"channels/{op.param('channelId')}/restore")


async def channel_search(op: Op) -> Any:
    answer = await op.call("POST", f"teams/{op.param('teamId')}/channels/search", {"term": op.param("term")})
    if not op.param("returnAll", False, 0) and isinstance(answer, list):
        answer = answer[: int(op.param("limit", 100, 0))]
    return answer


async def channel_statistics(op: Op) -> Any:
    return await op.call("GET", f"channels/{op.param('channelId')}/stats")


# ------------------------------------------------------------------------------------------------ message


async def message_delete(op: Op) -> Any:
    return await op.call("DELETE", f"posts/{op.param('postId')}")


async def message_post(op: Op) -> Any:
    body: dict[str, Any] = {"channel_id": op.param("channelId"), "message": op.param("message")}
    body["props"] = {"attachments": prepared(op.scope.node_name, op.param("attachments", []), op.index)}
    body.update(op.param("otherOptions", {}) or {})
    return await op.call("POST", "posts", body)


async def message_post_ephemeral(op: Op) -> Any:
    post = {"channel_id": op.param("channelId"), "message": op.param("message")}
    return await op.call("POST", "posts/ephemeral", {"user_id": op.param("userId"), "post": post})


# ------------------------------------------------------------------------------------------------ reaction


def _emoji(op: Op) -> str:
    return str(op.param("emojiName", "")).replace(":", "")


async def reaction_create(op: Op) -> Any:
    body = {"user_id": op.param("userId"), "post_id": op.param("postId"), "emoji_name": _emoji(op),
            "create_at": op.now_ms}  # fmt: skip
    return await op.call("POST", "reactions", body)


async def reaction_delete(op: Op) -> Any:
    endpoint = f"users/{op.param('userId')}/posts/{op.param('postId')}/reactions/{_emoji(op)}"
    return await op.call("DELETE", endpoint)


async def reaction_get_all(op: Op) -> Any:
    limit = op.param("limit", 0, 0)
    answer = await op.call("GET", f"posts/{op.param('postId')}/reactions")
    if answer is None:
        return []
    if limit and int(limit) > 0 and isinstance(answer, list):
        answer = answer[: int(limit)]
    return answer


# ------------------------------------------------------------------------------------------------ user


async def user_create(op: Op) -> Any:
    service = op.param("authService", "")
    body: dict[str, Any] = {"auth_service": service, "username": op.param("username")}
    body.update(op.param("additionalFields", {}) or {})
    if body.get("notificationUi"):
        body["notify_props"] = body["notificationUi"].get("notificationValues")
    if service == "email":
        body["email"] = op.param("email")
        body["password"] = op.param("password")
    else:
        body["auth_data"] = op.param("authData")
    return await op.call("POST", "users", body)


async def user_deactivate(op: Op) -> Any:
    return await op.call("DELETE", f"users/{op.param('userId')}")


async def user_get_by_email(op: Op) -> Any:
    return await op.call("GET", f"users/email/{op.param('email')}")


async def user_get_by_id(op: Op) -> Any:
    ids = str(op.param("userIds", "")).split(",")
    fields = op.param("additionalFields", {}) or {}
    qs: dict[str, Any] = {}
    if fields.get("since"):
        qs["since"] = _epoch_ms(op, str(fields["since"]))
    return await op.call("POST", "users/ids", ids, qs)


def _epoch_ms(op: Op, text: str) -> int | None:
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None  # JavaScript's NaN, which the query drops
    if moment.tzinfo is None:
        moment = moment.astimezone()
    return int(moment.timestamp() * 1000)


async def user_invite(op: Op) -> Any:
    emails = str(op.param("emails", "")).split(",")
    return await op.call("POST", f"teams/{op.param('teamId')}/invite/email", emails)


async def user_get_all(op: Op) -> Any:
    qs = user_list_query(op.scope.node_name, op.param("additionalFields", {}) or {}, op.index)
    if op.param("returnAll", True):
        return await api_request_all(op.api, "GET", "/users", {}, qs, op.index)
    qs["per_page"] = op.param("limit", 100)
    return await op.call("GET", "/users", None, qs)


Operation = Callable[[Op], Awaitable[Any]]
OPERATIONS: dict[tuple[str, str], Operation] = {
    ("channel", "addUser"): channel_add_user,
    ("channel", "create"): channel_create,
    ("channel", "delete"): channel_delete,
    ("channel", "members"): channel_members,
    ("channel", "restore"): channel_restore,
    ("channel", "search"): channel_search,
    ("channel", "statistics"): channel_statistics,
    ("message", "delete"): message_delete,
    ("message", "post"): message_post,
    ("message", "postEphemeral"): message_post_ephemeral,
    ("reaction", "create"): reaction_create,
    ("reaction", "delete"): reaction_delete,
    ("reaction", "getAll"): reaction_get_all,
    ("user", "create"): user_create,
    ("user", "deactive"): user_deactivate,
    ("user", "getAll"): user_get_all,
    ("user", "getByEmail"): user_get_by_email,
    ("user", "getById"): user_get_by_id,
    ("user", "invite"): user_invite,
}


def operation(node: str, resource: str, name: str, index: int) -> Operation:
    """n8n's router: ``del`` is ``delete``, ``desactive`` is ``deactive``."""
    name = {"del": "delete", "desactive": "deactive"}.get(name, name)
    found = OPERATIONS.get((resource, name))
    if found is None:
        raise NodeOperationError(
            node,
            "Cannot read properties of undefined (reading 'execute')",
            item_index=index,
            description=f'The operation "{name}" of the resource "{resource}" is not known: choose one in the node.',
        )
    return found
