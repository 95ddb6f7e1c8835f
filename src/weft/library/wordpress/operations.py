"""Each WordPress operation's request, as n8n's node builds it: method, resource path, body and query.

The query object is shared by all items of a run, as in n8n (an option set on one item stays for the next)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from weft.errors import NodeOperationError
from weft.nodes.routing.scope import RoutingScope
from weft.nodes.values import js_string

#: Body fields of post and page writes: (the node's field, the API's field), in n8n's order.
_POST_FIELDS = (
    ("authorId", "author"),
    ("title", "title"),
    ("content", "content"),
    ("slug", "slug"),
    ("password", "password"),
    ("status", "status"),
    ("commentStatus", "comment_status"),
    ("pingStatus", "ping_status"),
    ("sticky", "sticky"),
    ("postTemplate", "template"),
    ("categories", "categories"),
    ("tags", "tags"),
    ("format", "format"),
    ("date", "date"),
)
_PAGE_FIELDS = (
    ("authorId", "author"),
    ("title", "title"),
    ("content", "content"),
    ("slug", "slug"),
    ("password", "password"),
    ("status", "status"),
    ("commentStatus", "comment_status"),
    ("pingStatus", "ping_status"),
    ("pageTemplate", "template"),
    ("menuOrder", "menu_order"),
    ("parent", "parent"),
    ("featuredMediaId", "featured_media"),
)
_USER_FIELDS = (
    ("name", "name"),
    ("firstName", "first_name"),
    ("lastName", "last_name"),
    ("email", "email"),
    ("password", "password"),
    ("username", "username"),
    ("url", "url"),
    ("description", "description"),
    ("nickname", "nickname"),
    ("slug", "slug"),
)
#: List filters: (option, query name), per resource.
_LIST_OPTIONS = {
    "post": (
        ("context", "context"),
        ("orderBy", "orderby"),
        ("order", "order"),
        ("search", "search"),
        ("before", "before"),
        ("after", "after"),
        ("author", "author"),
        ("categories", "categories"),
        ("excludedCategories", "categories_exclude"),
        ("tags", "tags"),
        ("excludedTags", "tags_exclude"),
        ("sticky", "sticky"),
        ("status", "status"),
    ),
    "page": (
        ("context", "context"),
        ("orderBy", "orderby"),
        ("order", "order"),
        ("search", "search"),
        ("before", "before"),
        ("after", "after"),
        ("author", "author"),
        ("parent", "parent"),
        ("menuOrder", "menu_order"),
        ("status", "status"),
        ("page", "page"),
    ),
    "user": (("context", "context"), ("orderBy", "orderby"), ("order", "order"), ("search", "search"), ("who", "who")),
}
_ID_PARAMETER = {"post": "postId", "page": "pageId", "user": "userId"}


@dataclass
class Call:
    """One item's request."""

    method: str
    resource: str
    body: dict[str, Any] = field(default_factory=dict)
    return_all: bool = False


def _truthy(value: Any) -> bool:
    return value not in (None, "", 0, False) and value == value  # NaN is falsy in JavaScript


def _fields(scope: RoutingScope, index: int, collection: str, names: tuple[tuple[str, str], ...]) -> dict[str, Any]:
    """The body fields n8n copies from ``collection`` when set (truthy), a template read from its sub-collection."""
    given = scope.parameter(collection, index, {}) or {}
    body: dict[str, Any] = {}
    for option, key in names:
        if not _truthy(given.get(option)):
            continue
        if option in ("postTemplate", "pageTemplate"):
            body[key] = scope.parameter(f"{collection}.{option}.values.template", index, "")
        else:
            body[key] = given[option]
    return body


def _options(scope: RoutingScope, index: int, qs: dict[str, Any], names: tuple[tuple[str, str], ...]) -> None:
    given = scope.parameter("options", index, {}) or {}
    for option, key in names:
        if _truthy(given.get(option)):
            qs[key] = given[option]


def _write(scope: RoutingScope, resource: str, operation: str, index: int) -> Call:
    path = f"/{resource}s"
    if resource == "user":
        if operation == "create":
            body = {
                "name": scope.parameter("name", index),
                "username": scope.parameter("username", index),
                "first_name": scope.parameter("firstName", index),
                "last_name": scope.parameter("lastName", index),
                "email": scope.parameter("email", index),
                "password": scope.parameter("password", index),
            }
            extra = (("url", "url"), ("description", "description"), ("nickname", "nickname"), ("slug", "slug"))
            return Call("POST", path, {**body, **_fields(scope, index, "additionalFields", extra)})
        user_id = scope.parameter("userId", index)
        return Call(
            "POST",
            f"{path}/{js_string(user_id)}",
            {"id": user_id, **_fields(scope, index, "updateFields", _USER_FIELDS)},
        )
    names = _POST_FIELDS if resource == "post" else _PAGE_FIELDS
    if operation == "create":
        body = {"title": scope.parameter("title", index), **_fields(scope, index, "additionalFields", names)}
        return Call("POST", path, body)
    item_id = js_string(scope.parameter(_ID_PARAMETER[resource], index))
    body = {"id": _parse_int(item_id), **_fields(scope, index, "updateFields", names)}
    return Call("POST", f"{path}/{item_id}", body)


def _parse_int(text: str) -> int | None:
    """JavaScript's ``parseInt(text, 10)`` (``None`` stands for NaN, sent as ``null``)."""
    stripped = text.strip()
    sign = -1 if stripped.startswith("-") else 1
    digits = ""
    for char in stripped.lstrip("+-"):
        if not char.isdigit():
            break
        digits += char
    return sign * int(digits) if digits else None


def build(scope: RoutingScope, resource: str, operation: str, index: int, qs: dict[str, Any]) -> Call:
    """The request of ``resource``/``operation`` for item ``index`` (``qs`` is the run's shared query)."""
    if resource not in _ID_PARAMETER:
        raise NodeOperationError(scope.node_name, f'The resource "{resource}" is not known!', item_index=index)
    if operation in ("create", "update"):
        return _write(scope, resource, operation, index)
    path = f"/{resource}s"
    if operation == "getAll":
        return_all = bool(scope.parameter("returnAll", index, False))
        _options(scope, index, qs, _LIST_OPTIONS[resource])
        if not return_all:
            qs["per_page"] = scope.parameter("limit", index, 10)
        return Call("GET", path, return_all=return_all)
    if resource == "user" and operation == "delete":
        qs["reassign"] = scope.parameter("reassign", index)
        qs["force"] = True
        return Call("DELETE", f"{path}/me")
    if operation not in ("get", "delete"):
        raise NodeOperationError(scope.node_name, f'The operation "{operation}" is not known!', item_index=index)
    item_id = js_string(scope.parameter(_ID_PARAMETER[resource], index))
    options = scope.parameter("options", index, {}) or {}
    for option in ("password", "context") if operation == "get" else ("force",):
        if _truthy(options.get(option)):
            qs[option] = options[option]
    return Call("GET" if operation == "get" else "DELETE", f"{path}/{item_id}")


__all__ = ["Call", "build"]
