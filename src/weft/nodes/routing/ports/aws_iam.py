"""Ports of the AWS IAM node's functions (``nodes/Aws/IAM/helpers/utils.ts``, ``errorHandler.ts``,
``methods/listSearch.ts``): the query API's form body, name/path/tag checks, group members removed before a
group or user is deleted, the JSON answers (``Accept: application/json``) unwrapped, and IAM's errors
(``Error.Code`` + ``Error.Message``) as n8n words them."""

from __future__ import annotations

import asyncio
import functools
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl, quote_plus

from weft.errors import NodeApiError, NodeOperationError
from weft.nodes.routing.call import RoutingCall
from weft.nodes.routing.functions import port
from weft.nodes.routing.jsvalues import text, truthy
from weft.nodes.routing.paths import UNDEFINED
from weft.nodes.routing.ports.common import failed, response_error
from weft.nodes.routing.postreceive import Items

BASE_URL = "https://iam.amazonaws.com"
VERSION = "2010-05-08"
_ERRORS = {
    ("EntityAlreadyExists", "user"): "The given user name already exists - try entering a unique name for the user.",
    ("EntityAlreadyExists", "group"): "The given group name already exists - try entering a unique name for the group.",
    ("NoSuchEntity", "user"): "The given user was not found - try entering a different user.",
    ("NoSuchEntity", "group"): "The given group was not found - try entering a different group.",
}
_PERMISSIONS_BOUNDARY = re.compile(r"arn:aws:iam::\d{12}:policy/[\w\-+/=._]+", re.ASCII)


def _form_value(value: Any) -> str:
    """``String(value)`` as ``URLSearchParams`` takes it."""
    if isinstance(value, list):
        return ",".join("" if v is None or v is UNDEFINED else _form_value(v) for v in value)
    if isinstance(value, Mapping):
        return "[object Object]"
    return text(value)


def form_encoded(body: Any) -> str:
    """``new URLSearchParams(body).toString()`` (a string body is parsed first, as ``URLSearchParams`` does)."""
    pairs = parse_qsl(body.lstrip("?"), keep_blank_values=True) if isinstance(body, str) else [
        (str(k), _form_value(v)) for k, v in (body.items() if isinstance(body, Mapping) else [])
    ]  # fmt: skip
    return "&".join(f"{_escape(k)}={_escape(v)}" for k, v in pairs)


def _escape(value: str) -> str:
    return quote_plus(value, safe="*").replace("~", "%7E")


async def api_request(call: RoutingCall, body: Mapping[str, Any] | str, ignore_errors: bool = False) -> Any:
    """``awsApiRequest`` of ``transport/index.ts``: one query API action as a form, its answer's (JSON) body; a
    403 as n8n words it."""
    options: dict[str, Any] = {"baseURL": BASE_URL, "json": True, "method": "POST", "url": "",
                               "headers": {"Content-Type": "application/x-www-form-urlencoded"},
                               "body": form_encoded(body)}  # fmt: skip
    if ignore_errors:
        options["ignoreHttpStatusErrors"] = True
    try:
        return (await call.send_authenticated(options)).get("body")
    except NodeApiError as error:
        if error.http_code == 403:
            raise NodeApiError(
                call.node_name,
                "AWS error response [403]: The AWS credentials are not valid!",
                item_index=call.item_index,
            ) from error
        raise


def _result(answer: Any, action: str) -> dict[str, Any]:
    found = answer.get(f"{action}Response") if isinstance(answer, dict) else None
    result = found.get(f"{action}Result") if isinstance(found, dict) else None
    return result if isinstance(result, dict) else {}


async def users_of_group(call: RoutingCall, group: Any) -> list[Any]:
    """``findUsersForGroup``: the members ``GetGroup`` lists."""
    answer = await api_request(call, {"Action": "GetGroup", "Version": VERSION, "GroupName": group})
    return list(_result(answer, "GetGroup").get("Users") or [])


@port("preSend", "encodeBodyAsFormUrlEncoded", "cca47d3fe83dfb6d")
async def encode_body_as_form_url_encoded(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    if truthy(options.get("body")):
        options["body"] = form_encoded(options["body"])
    return options


@port("postReceive", "simplifyGetGroupsResponse", "7ca8533d7a57bbd9")
async def simplify_get_groups_response(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """The group of ``GetGroup`` (with its ``Users`` when ``includeUsers``)."""
    found = _result(response.get("body"), "GetGroup")
    group = found.get("Group")
    if truthy(call.get_node_parameter("includeUsers", False)):
        return [{"json": {**(group or {}), "Users": found.get("Users") or []}}]
    return [{"json": group}]


@port("postReceive", "simplifyGetAllGroupsResponse", "45ac55fc0976b374")
async def simplify_get_all_groups_response(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """One item per group of ``ListGroups`` (each with its members when ``includeUsers``)."""
    groups = _result(response.get("body"), "ListGroups").get("Groups") or []
    if not groups:
        return items
    if not truthy(call.get_node_parameter("includeUsers", False)):
        return [{"json": group} for group in groups]
    return [{"json": {**group, "Users": await users_of_group(call, group.get("GroupName"))}} for group in groups]


@port("postReceive", "simplifyGetAllUsersResponse", "1c4875d6f35aded1")
async def simplify_get_all_users_response(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    if not truthy(response.get("body")):
        return []
    return [{"json": user} for user in _result(response.get("body"), "ListUsers").get("Users") or []]


@port("preSend", "deleteGroupMembers", "18b0e964775f9157")
async def delete_group_members(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """Before ``DeleteGroup``: every member removed from the group."""
    group = call.get_node_parameter("group", UNDEFINED, extract_value=True)

    async def remove(user: Mapping[str, Any]) -> None:
        name = user.get("UserName")
        if not truthy(name):
            return
        body = {"Action": "RemoveUserFromGroup", "GroupName": group, "UserName": name, "Version": VERSION}
        try:
            await api_request(call, body, ignore_errors=True)
        except NodeApiError as error:
            raise NodeApiError(
                call.node_name,
                f'Failed to remove user "{text(name)}" from "{text(group)}"!',
                http_code=error.http_code,
                description=error.description,
                item_index=call.item_index,
            ) from error

    await asyncio.gather(*(remove(user) for user in await users_of_group(call, group)))
    return options


def _operation_error(call: RoutingCall, message: str) -> NodeOperationError:
    return NodeOperationError(call.node_name, message, item_index=call.item_index)


@port("preSend", "validatePath", "64e15e072a5fa0be")
async def validate_path(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    path = text(call.get_node_parameter("additionalFields.path"))
    if not 1 <= len(path) <= 512:
        raise _operation_error(call, 'The "Path" parameter must be between 1 and 512 characters long.')
    if not re.fullmatch(r"/[\x21-\x7e]*/", path) and path != "/":
        raise _operation_error(call, "Ensure the path is structured correctly, e.g. /division_abc/subdivision_xyz/")
    return options


@port("preSend", "validateUserPath", "4bf7b21a32eb4b48")
async def validate_user_path(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """The path prefix of Get Many users: one some user's path starts with (``ListUsers``)."""
    prefix = text(call.get_node_parameter("additionalFields.pathPrefix"))
    prefix = prefix if prefix.startswith("/") else f"/{prefix}"
    prefix = prefix if prefix.endswith("/") or prefix == "/" else f"{prefix}/"
    if isinstance(options.get("body"), dict):
        options["body"]["PathPrefix"] = prefix
    answer = await api_request(call, {"Action": "ListUsers", "Version": VERSION})
    users = _result(answer, "ListUsers").get("Users")
    if not users:
        raise _operation_error(call, 'No users found. Please adjust the "Path" parameter and try again.')
    if not any(text(user.get("Path")).startswith(prefix) for user in users if truthy(user.get("Path"))):
        raise _operation_error(call, f'The "{prefix}" path was not found in your users. Try entering a different path.')
    return options


@port("preSend", "validateName", "1c28f1f6fc2062af")
async def validate_name(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    resource = text(call.get_node_parameter("resource"))
    name = text(call.get_node_parameter("userName" if resource == "user" else "groupName"))
    longest = 64 if resource == "user" else 128
    label = resource[:1].upper() + resource[1:]
    if re.search(r"\s", name):
        raise _operation_error(call, f"{label} name should not contain spaces.")
    if not re.fullmatch(r"[a-zA-Z0-9\-_]+", name) or len(name) > longest:
        raise _operation_error(
            call,
            f"{label} name can have up to {longest} characters. Valid characters: letters, numbers, hyphens (-), "
            "and underscores (_).",
        )
    return options


@port("preSend", "validatePermissionsBoundary", "4a412cdeb834ad5c")
async def validate_permissions_boundary(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """A permissions boundary must be a policy ARN. (n8n adds it to an object body only; by then the body is the
    form's text, so the boundary is not sent, as in n8n.)"""
    boundary = call.get_node_parameter("additionalFields.permissionsBoundary")
    if not truthy(boundary):
        return options
    if not _PERMISSIONS_BOUNDARY.fullmatch(text(boundary)):
        raise _operation_error(
            call,
            "Permissions boundaries must be provided in ARN format (e.g. "
            "arn:aws:iam::123456789012:policy/ExampleBoundaryPolicy). These can be found at the top of the "
            "permissions boundary detail page in the IAM dashboard.",
        )
    body = options.get("body")
    if isinstance(body, dict):
        body["PermissionsBoundary"] = boundary
    elif not truthy(body):
        options["body"] = {"PermissionsBoundary": boundary}
    return options


@port("preSend", "preprocessTags", "25a5e8f0952f01d0")
async def preprocess_tags(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """The tags as ``Tags.member.N.Key`` / ``.Value`` fields of the form."""
    tags = (call.get_node_parameter("additionalFields.tags") or {}).get("tags") or []
    body = options.get("body")
    fields = dict(parse_qsl(body, keep_blank_values=True)) if isinstance(body, str) else {}
    for index, tag in enumerate(tags, start=1):
        if not truthy(tag.get("key")) or not truthy(tag.get("value")):
            missing = "Key" if not truthy(tag.get("key")) else "Value"
            raise _operation_error(
                call, f"Tag at position {index} is missing '{missing}'. Both 'Key' and 'Value' are required."
            )
        fields[f"Tags.member.{index}.Key"] = tag["key"]
        fields[f"Tags.member.{index}.Value"] = tag["value"]
    options["body"] = form_encoded(fields)
    return options


async def groups_of_user(call: RoutingCall, user: Any) -> list[str]:
    """``searchGroupsForUser``: the names of the groups ``user`` is a member of (every ``ListGroups`` page, then
    each group's ``GetGroup``), sorted."""
    groups: list[Any] = []
    marker: Any = None
    while True:
        body = {"Action": "ListGroups", "Version": VERSION, **({"Marker": marker} if truthy(marker) else {})}
        found = _result(await api_request(call, body), "ListGroups")
        groups.extend(found.get("Groups") or [])
        marker = found.get("Marker") if truthy(found.get("IsTruncated")) else None
        if not truthy(marker):
            break

    async def member(group: Mapping[str, Any]) -> str | None:
        name = group.get("GroupName")
        if not truthy(name):
            return None
        try:
            users = await users_of_group(call, name)
        except NodeApiError as error:
            raise NodeApiError(
                call.node_name,
                f"Failed to get group {text(name)}: {error.message}",
                http_code=error.http_code,
                item_index=call.item_index,
            ) from error
        return text(name) if any(u.get("UserName") == user for u in users) else None

    names = [n for n in await asyncio.gather(*(member(g) for g in groups)) if n is not None]
    return sorted(names, key=functools.cmp_to_key(_locale_compare))


def _locale_compare(a: str, b: str) -> int:
    """Close to ``localeCompare``: case-insensitive first, then lower case before upper case."""
    left, right = (a.casefold(), a.swapcase()), (b.casefold(), b.swapcase())
    return (left > right) - (left < right)


@port("preSend", "removeUserFromGroups", "6756d164d3eddb91")
async def remove_user_from_groups(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """Before ``DeleteUser``: the user removed from every group it is a member of."""
    user = call.get_node_parameter("user", UNDEFINED, extract_value=True)
    for group in await groups_of_user(call, user):
        body = {"Action": "RemoveUserFromGroup", "Version": VERSION, "GroupName": group, "UserName": user}
        await api_request(call, body)
    return options


@port("postReceive", "handleError", "bd3ca910061e86d6")
async def handle_error(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """A 4xx/5xx answer as n8n words it: IAM's ``Error.Message``, described for a missing or existing user or
    group and a group that still has members; else the ``Error.Code``."""
    if not failed(response):
        return items
    body = response.get("body")
    error = body.get("Error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        raise response_error(call, response)
    code, message = error.get("Code"), text(error.get("Message", UNDEFINED))
    kind = "user" if re.search("user", message, re.IGNORECASE) else "group" if re.search("group", message, re.I) else ""
    described = _ERRORS.get((text(code), kind))
    if code == "DeleteConflict":
        described = "Cannot delete entity, please remove users from group first."
    if described is not None:
        raise response_error(call, response, message=message, description=described)
    found = error.get("Message")
    raise response_error(call, response, message=text(code), description=None if found is None else text(found))


__all__ = ["api_request", "form_encoded", "groups_of_user", "users_of_group"]
