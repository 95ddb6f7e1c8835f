"""What the Microsoft ports share (``nodes/Microsoft/GenericFunctions.ts`` and the Graph helpers of the Entra and
SharePoint nodes): the user-ID gate that keeps a value safe to put into a Graph URL path, JavaScript's
``encodeURIComponent`` and lodash's ``merge``, and the node's own requests to Microsoft Graph."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote, urlsplit

from weft.errors import NodeOperationError
from weft.nodes.routing.call import RoutingCall

GRAPH_URL = "https://graph.microsoft.com"
_GUID = re.compile(r"[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}")
_UPN = re.compile(r"[A-Za-z0-9._+'!#^~-]+@[A-Za-z0-9.-]+")


@dataclass(frozen=True)
class Copy:
    """An error's message and description."""

    message: str
    description: str


@dataclass(frozen=True)
class IdMessages:
    """The words of :func:`validate_user_target_id` for an empty, a dots-only and an invalid ID."""

    required: Copy
    dots_only: Copy
    invalid: Copy


def operation_error(call: RoutingCall, copy: Copy) -> NodeOperationError:
    return NodeOperationError(call.node_name, copy.message, description=copy.description, item_index=call.item_index)


def validate_user_target_id(call: RoutingCall, user_id: str, messages: IdMessages) -> None:
    """``validateUserTargetId``: a user is an object ID (GUID) or a user principal name; nothing else may reach a
    Graph URL path (``..`` survives ``encodeURIComponent``, so the shape is what keeps the path safe)."""
    if user_id == "":
        raise operation_error(call, messages.required)
    if re.fullmatch(r"\.+", user_id):
        raise operation_error(call, messages.dots_only)
    if not (_GUID.fullmatch(user_id) or _UPN.fullmatch(user_id)):
        raise operation_error(call, messages.invalid)


def is_object_id(value: str) -> bool:
    return _GUID.fullmatch(value) is not None


def has_dot_segment(url: Any) -> bool:
    """Whether the path of ``url`` (before ``?``) holds a ``.`` or ``..`` segment."""
    segments = str(url or "").split("?")[0].split("/")
    return any(segment in (".", "..") for segment in segments)


def encode_uri_component(value: Any) -> str:
    """JavaScript's ``encodeURIComponent`` (``String(value)`` first)."""
    return quote(js_string(value), safe="-_.!~*'()")


def js_string(value: Any) -> str:
    """``String(value)`` of a JSON value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def merge(target: dict[str, Any], source: Mapping[str, Any]) -> dict[str, Any]:
    """lodash's ``merge(target, source)``: plain objects merged deeply, arrays index by index, ``undefined``
    (absent) values of ``source`` skipped; ``target`` changed in place."""
    for key, value in source.items():
        current = target.get(key)
        if isinstance(value, Mapping) and isinstance(current, dict):
            merge(current, value)
        elif isinstance(value, list) and isinstance(current, list):
            for index, entry in enumerate(value):
                if index < len(current) and isinstance(entry, Mapping) and isinstance(current[index], dict):
                    merge(current[index], entry)
                elif index < len(current):
                    current[index] = entry
                else:
                    current.append(entry)
        elif isinstance(value, Mapping):
            target[key] = merge({}, value)
        else:
            target[key] = value
    return target


def graph_base_url(credentials: Mapping[str, Any] | None) -> str:
    """The credential's Microsoft Graph base URL (``graphApiBaseUrl``, else the global one), no trailing ``/``."""
    given = (credentials or {}).get("graphApiBaseUrl")
    return re.sub(r"/+$", "", given if isinstance(given, str) and given != "" else GRAPH_URL)


def _origin(url: str) -> str | None:
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    default = {"http": 80, "https": 443}[parts.scheme]
    return f"{parts.scheme}://{parts.hostname}" + (f":{port}" if port not in (None, default) else "")


def graph_target(call: RoutingCall, endpoint: str, url: str | None = None) -> str:
    """``resolveGraphTarget``: ``url`` (a next-page link) or the endpoint on the credential's Graph base URL, and
    never a host other than the credential's: the bearer token goes to Graph only."""
    base = graph_base_url(call.credentials)
    base_origin = _origin(base)
    if base_origin is None:
        raise NodeOperationError(
            call.node_name,
            "The Graph API base URL is not a valid URL",
            description="Set a full URL on the credential, e.g. https://graph.microsoft.com, and try again.",
            item_index=call.item_index,
        )
    target = url if url is not None else f"{base}/v1.0{endpoint}"
    target_origin = _origin(target)
    if target_origin is None:
        raise NodeOperationError(call.node_name, "The request URL is not a valid URL", item_index=call.item_index)
    if target_origin != base_origin:
        raise NodeOperationError(
            call.node_name, "Refusing to send credentials to an unexpected host", item_index=call.item_index
        )
    return target


async def graph_request(
    call: RoutingCall, method: str, endpoint: str, body: Any = None, qs: Mapping[str, Any] | None = None
) -> Any:
    """``microsoftApiRequest`` of the Entra node: a JSON request to Graph with the node's credential; its body."""
    options: dict[str, Any] = {"method": method, "url": graph_target(call, endpoint), "json": True}
    options["headers"] = {"Content-Type": "application/json"} if body else {}
    options["body"] = body if body is not None else {}
    if qs:
        options["qs"] = dict(qs)
    response = await call.send_authenticated(options)
    return response.get("body")


__all__ = [
    "GRAPH_URL",
    "Copy",
    "IdMessages",
    "encode_uri_component",
    "graph_base_url",
    "graph_request",
    "graph_target",
    "has_dot_segment",
    "is_object_id",
    "js_string",
    "merge",
    "operation_error",
    "validate_user_target_id",
]
