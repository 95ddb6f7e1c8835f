"""Ports of the AWS Cognito node's functions (``nodes/Aws/Cognito/helpers``, the inline ``preSend`` functions of
its descriptions): the body as JSON text, the user name a user pool signs in with, group members, simplified
users and pools, and Cognito's errors (``__type`` + ``message``) as n8n words them."""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from weft.errors import NodeApiError, NodeOperationError
from weft.nodes.routing.call import RoutingCall
from weft.nodes.routing.display import display_parameter
from weft.nodes.routing.functions import port
from weft.nodes.routing.jsvalues import text, truthy
from weft.nodes.routing.paths import UNDEFINED
from weft.nodes.routing.ports.common import failed, response_error
from weft.nodes.routing.postreceive import Items

TARGET = "AWSCognitoIdentityProviderService"
_ARN = re.compile(
    r"arn:[-.\w+=/,@]+:[-.\w+=/,@]+:([-.\w+=/,@]*)?:[0-9]+:[-.\w+=/,@]+(:[-.\w+=/,@]+)?(:[-.\w+=/,@]+)?", re.ASCII
)
_EMAIL = re.compile(r"[^\s@]+@[^\s@]+\.[^\s@]+")
_PHONE = re.compile(r"\+[0-9]\d{1,14}", re.ASCII)
_POOL_DETAILS = ("AccountRecoverySetting", "AdminCreateUserConfig", "EmailConfiguration", "LambdaConfig", "Policies",
                 "SchemaAttributes", "UserAttributeUpdateSettings", "UserPoolTags", "UserPoolTier",
                 "VerificationMessageTemplate")  # fmt: skip
_NOT_FOUND = ("UserNotFoundException", "ResourceNotFoundException", "NoSuchEntity")
_EXISTS = ("UsernameExistsException", "EntityAlreadyExists", "GroupExistsException")
#: The verb of n8n's description of a user or group not found, by resource and operation.
_NOT_FOUND_VERBS = {
    ("group", "delete"): "delete", ("group", "get"): "retrieve", ("group", "update"): "update",
    ("user", "delete"): "delete", ("user", "get"): "retrieve", ("user", "update"): "update",
}  # fmt: skip


def js_json(value: Any) -> str:
    """``JSON.stringify``: compact, ``undefined`` left out, whole numbers without ``.0``, other scripts as they are."""

    def plain(inner: Any) -> Any:
        if isinstance(inner, Mapping):
            return {str(k): plain(v) for k, v in inner.items() if v is not UNDEFINED}
        if isinstance(inner, list):
            return [None if v is UNDEFINED else plain(v) for v in inner]
        if isinstance(inner, float) and inner.is_integer():
            return int(inner)
        return inner

    return json.dumps(plain(value), separators=(",", ":"), ensure_ascii=False)


def parsed_body(call: RoutingCall, body: Any) -> dict[str, Any]:
    """``jsonParse(String(requestOptions.body), {acceptJSObject: true})``."""
    if isinstance(body, Mapping):
        return dict(body)
    try:
        found = json.loads(text(body))
    except ValueError:
        found = None
    if not isinstance(found, dict):
        raise NodeOperationError(
            call.node_name,
            "Invalid request body. Request body must be valid JSON.",
            item_index=call.item_index,
        )
    return found


async def api_request(call: RoutingCall, action: str, body: Any) -> Any:
    """``awsApiRequest`` of ``transport/index.ts``: one Cognito action, its answer's body."""
    credentials = call.credentials or {}
    options = {
        "url": "",
        "method": "POST",
        "body": body if isinstance(body, str) else js_json(body),
        "headers": {"Content-Type": "application/x-amz-json-1.1", "X-Amz-Target": f"{TARGET}.{action}"},
        "qs": {"service": "cognito-idp", "_region": credentials.get("region")},
    }
    return (await call.send_authenticated(options)).get("body")


async def api_request_all(call: RoutingCall, action: str, body: dict[str, Any], name: str) -> list[Any]:
    """``awsApiRequestAllItems``: every page (``NextToken``) of ``name``."""
    found: list[Any] = []
    token: Any = None
    while True:
        answer = await api_request(call, action, {**body, **({"NextToken": token} if truthy(token) else {})})
        answer = answer if isinstance(answer, dict) else {}
        found.extend(answer.get(name) or [])
        token = answer.get("NextToken")
        if not truthy(token):
            return found


def _api_error(call: RoutingCall, message: str, description: str) -> NodeApiError:
    return NodeApiError(call.node_name, message, description=description, item_index=call.item_index)


@port("preSend", "preSendStringifyBody", "59ea65cf8087e778")
async def pre_send_stringify_body(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    if truthy(options.get("body")):
        options["body"] = js_json(options["body"])
    return options


async def user_pool(call: RoutingCall, pool_id: Any) -> dict[str, Any]:
    """``getUserPool``: ``DescribeUserPool``'s pool."""
    if not truthy(pool_id):
        raise NodeOperationError(call.node_name, "User Pool ID is required", item_index=call.item_index)
    answer = await api_request(call, "DescribeUserPool", js_json({"UserPoolId": pool_id}))
    pool = answer.get("UserPool") if isinstance(answer, dict) else None
    if not pool:
        raise NodeOperationError(call.node_name, "User Pool not found in response", item_index=call.item_index)
    return dict(pool)


async def existing_user_name(call: RoutingCall, user: Any, pool_id: Any, email_or_phone: bool) -> Any:
    """``getUserNameFromExistingUsers``: the user name of the user whose ``sub`` is ``user``."""
    if email_or_phone:
        return user
    answer = await api_request(call, "ListUsers", js_json({"UserPoolId": pool_id, "Filter": f'sub = "{text(user)}"'}))
    users = answer.get("Users") if isinstance(answer, dict) else None
    return users[0].get("Username", UNDEFINED) if users else UNDEFINED


@port("preSend", "preSendUserFields", "77e086816b823fe5")
async def pre_send_user_fields(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """The ``Username`` of a user operation: the new name (checked against the pool's sign-in attribute), or the
    name of the user the parameter picks."""
    operation = call.get_node_parameter("operation")
    pool_id = call.get_node_parameter("userPool", UNDEFINED, extract_value=True)
    attributes = (await user_pool(call, pool_id)).get("UsernameAttributes") or []
    by_email, by_phone = "email" in attributes, "phone_number" in attributes
    if operation == "create":
        name = call.get_node_parameter("newUserName")
        if by_email and not _EMAIL.fullmatch(text(name)):
            raise _api_error(call, "Invalid email format", "Please provide a valid email (e.g., name@gmail.com)")
        if by_phone and not _PHONE.fullmatch(text(name)):
            raise _api_error(
                call, "Invalid phone number format", "Please provide a valid phone number (e.g., +14155552671)"
            )
    else:
        user = call.get_node_parameter("user", UNDEFINED, extract_value=True)
        name = await existing_user_name(call, user, pool_id, by_email or by_phone)
    body = parsed_body(call, options.get("body"))
    if truthy(name):
        body["Username"] = name
    return {**options, "body": js_json(body)}


@port("preSend", "", "393484fed57b5327")
async def check_group_name(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """The new group's name: letters, marks, symbols, numbers and punctuation only (no spaces)."""
    name = text(call.get_node_parameter("newGroupName", ""))
    if not name or any(unicodedata.category(c)[0] not in "LMSNP" for c in name):
        raise _api_error(call, "Invalid format for Group Name", "Group Name should not contain spaces.")
    return options


@port("preSend", "validateArn", "9b3e6815b32edd92")
async def validate_arn(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    arn = call.get_node_parameter("additionalFields.arn", "")
    if not _ARN.fullmatch(text(arn)):
        raise _api_error(
            call,
            "Invalid ARN format",
            "Please provide a valid AWS ARN (e.g., arn:aws:iam::123456789012:role/GroupRole).",
        )
    return options


@port("preSend", "", "d98c6f679c5aa2e6")
async def check_group_update(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    fields = call.get_node_parameter("additionalFields", {}) or {}
    if not any(truthy(fields.get(name)) for name in ("description", "precedence", "arn")):
        raise _api_error(
            call,
            "At least one field must be provided for update.",
            "Please provide a value for Description, Precedence, or Role ARN.",
        )
    return options


def _filter_value(value: Any) -> str:
    """``escapeCognitoFilterValue``: backslashes and double quotes escaped with a backslash."""
    return text(value).replace("\\", "\\\\").replace('"', '\\"')


@port("preSend", "", "8b9513440c4d6567")
async def user_filter(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """The ``Filter`` of Get Many users, attribute and value escaped (as n8n 2.41 does; 2.8.4 escaped nothing)."""
    filters = call.get_node_parameter("filters", {}) or {}
    chosen = filters.get("filter") if isinstance(filters, Mapping) else None
    if not isinstance(chosen, Mapping) or not truthy(chosen.get("value")):
        return options
    body = parsed_body(call, options.get("body"))
    attribute, value = chosen.get("attribute"), chosen.get("value")
    if not truthy(attribute):
        found = ""
    else:
        found = f'"{_filter_value(attribute)}"^="{_filter_value(value)}"'
    return {**options, "body": js_json({**body, "Filter": found})}


def _attribute_error(call: RoutingCall, message: str, description: str) -> NodeOperationError:
    return NodeOperationError(call.node_name, message, description=description, item_index=call.item_index)


def _check_verified(call: RoutingCall, attributes: list[Any]) -> None:
    names = {a.get("standardName") for a in attributes if isinstance(a, Mapping)}
    for kind in ("email", "phone_number"):
        verified = any(
            isinstance(a, Mapping) and a.get("standardName") == f"{kind}_verified" and a.get("value") == "true"
            for a in attributes
        )
        if verified and kind not in names:
            raise _attribute_error(
                call,
                f'Missing required "{kind}" attribute',
                f'"{kind}_verified" is set to true, but the corresponding "{kind}" attribute is not provided.',
            )


@port("preSend", "preSendAttributes", "4483c72ae28e2986")
async def pre_send_attributes(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """``UserAttributes`` from the attributes parameter (``custom:`` before a custom attribute's name)."""
    operation = call.get_node_parameter("operation")
    name = "additionalFields.userAttributes.attributes" if operation == "create" else "userAttributes.attributes"
    attributes = call.get_node_parameter(name, []) or []
    if operation == "update" and not attributes:
        raise _attribute_error(
            call,
            "No user attributes provided",
            "At least one user attribute must be provided for the update operation.",
        )
    if operation == "create":
        _check_verified(call, attributes)
    body = parsed_body(call, options.get("body"))
    sent = []
    for attribute in attributes:
        kind, value = attribute.get("attributeType"), attribute.get("value")
        standard, custom = attribute.get("standardName"), attribute.get("customName")
        chosen = standard if standard is not None and standard is not UNDEFINED else custom
        if not truthy(value) or not truthy(kind) or not truthy(chosen):
            raise _attribute_error(call, "Invalid User Attribute", "Each attribute must have a valid name and value.")
        sent.append({"Name": standard if kind == "standard" else f"custom:{text(custom)}", "Value": value})
    body["UserAttributes"] = sent
    options["body"] = js_json(body)
    return options


@port("preSend", "preSendDesiredDeliveryMediums", "2b5e69f517eccae4")
async def pre_send_desired_delivery_mediums(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    mediums = call.get_node_parameter("additionalFields.desiredDeliveryMediums", []) or []
    attributes = call.get_node_parameter("additionalFields.userAttributes.attributes", []) or []

    def has(kind: str) -> bool:
        return any(a.get("standardName") == kind and text(a.get("value") or "").strip() for a in attributes)

    for medium, kind, label in (("EMAIL", "email", "Email"), ("SMS", "phone_number", "SMS")):
        if medium in mediums and not has(kind):
            raise _attribute_error(
                call,
                f'Missing required "{kind}" attribute',
                f"{label} is selected as a delivery medium but no {kind} attribute is provided.",
            )
    return options


@port("postReceive", "processGroup", "f13e102c65b3fc90")
async def process_group(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """A group (or every group) with its members (``ListUsersInGroup``) when ``includeUsers``."""
    pool_id = call.get_node_parameter("userPool", UNDEFINED, extract_value=True)
    include = call.get_node_parameter("includeUsers")
    body: dict[str, Any] = response["body"] if isinstance(response.get("body"), dict) else {}
    group = body.get("Group")
    if group:
        if not truthy(include):
            return [{"json": dict(group)}]
        return [{"json": {**group, "Users": await _members(call, group, pool_id)}}]
    if not truthy(include):
        return items
    groups = [{**g, "Users": await _members(call, g, pool_id)} for g in body.get("Groups") or []]
    return [{"json": {**item["json"], "Groups": groups}} for item in items]


async def _members(call: RoutingCall, group: Mapping[str, Any], pool_id: Any) -> list[Any]:
    if not truthy(pool_id):
        raise NodeOperationError(call.node_name, "User Pool ID is required", item_index=call.item_index)
    body = {"UserPoolId": pool_id, "GroupName": group.get("GroupName")}
    return await api_request_all(call, "ListUsersInGroup", body, "Users")


def _flat_attributes(attributes: Any) -> dict[str, Any]:
    pairs = [a for a in attributes or [] if isinstance(a, Mapping) and text(a.get("Name") or "").strip()]
    return {str(a["Name"]): ("" if a.get("Value") is None else a["Value"]) for a in pairs}


@port("postReceive", "simplifyUser", "5b9f61170998354a")
async def simplify_user(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """With ``simple``: each user's ``Attributes`` (``UserAttributes``) as fields of the user."""
    if not truthy(call.get_node_parameter("simple")):
        return items
    out: Items = []
    for item in items:
        data = item.get("json")
        if not data:
            continue
        if isinstance(data.get("Users"), list):
            users = [{**{k: v for k, v in u.items() if k != "Attributes"}, **_flat_attributes(u.get("Attributes"))}
                     for u in data["Users"]]  # fmt: skip
            out.append({"json": {**data, "Users": users}})
        elif isinstance(data.get("UserAttributes"), list):
            rest = {k: v for k, v in data.items() if k != "UserAttributes"}
            out.append({"json": {**rest, **_flat_attributes(data["UserAttributes"])}})
        else:
            out.append(item)
    return out


@port("postReceive", "simplifyUserPool", "1e06639e480b0f05")
async def simplify_user_pool(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """With ``simple``: the pool without its detailed settings."""
    if not truthy(call.get_node_parameter("simple")):
        return items
    out: Items = []
    for item in items:
        pool = (item.get("json") or {}).get("UserPool")
        if pool:
            out.append({"json": {"UserPool": {k: v for k, v in pool.items() if k not in _POOL_DETAILS}}})
    return out


def _specific_error(kind: str, resource: str, operation: str, value: Any) -> tuple[str, str | None] | None:
    """``mapErrorToResponse``: n8n's message (and description) for a missing or existing user or group."""
    label = resource[:1].upper() + resource[1:]
    named = f' "{text(value)}"' if truthy(value) else ""
    if kind in _NOT_FOUND and resource in ("user", "group"):
        if resource == "user" and operation in ("addToGroup", "removeFromGroup"):
            adding = operation == "addToGroup"
            verb, where = ("add the user to", "adding to") if adding else ("remove the user from", "removing from")
            return (
                f"{label}{named} not found while {where} group.",
                f'Adjust the "User" and "Group" parameters to {verb} the group correctly.',
            )
        found = _NOT_FOUND_VERBS.get((resource, operation))
        described = f'Adjust the "{label}" parameter setting to {found} the {resource} correctly.' if found else None
        return f"{label}{named} not found.", described
    if kind in _EXISTS and resource in ("user", "group"):
        name = "User Name" if resource == "user" else "Group Name"
        return (
            f"{label}{named} already exists.",
            f'Adjust the "{name}" parameter setting to create the {resource} correctly.',
        )
    return None


def _extracted(call: RoutingCall, name: str) -> Any:
    """``getNodeParameter(name, '', {extractValue: true})``: n8n extracts through the displayed property of that
    name, and fails when the operation shows none (Get Many has no ``user`` or ``group``)."""
    scope = call.scope
    shown = any(
        prop.get("name") == name and display_parameter(scope.parameters, prop, scope.version, scope.type_name)
        for prop in scope.properties
    )
    if not shown:
        raise NodeOperationError(call.node_name, "Could not find property", item_index=call.item_index)
    return call.get_node_parameter(name, "", extract_value=True)


@port("postReceive", "handleError", "045a6c7d07edc978")
async def handle_error(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """A 4xx/5xx answer as n8n words it: not found / already exists for users and groups, else Cognito's
    ``__type`` with its ``message``."""
    if not failed(response):
        return items
    resource, operation = call.get_node_parameter("resource"), call.get_node_parameter("operation")
    if operation == "create":
        name = {"user": "newUserName", "group": "newGroupName"}.get(resource)
        value = call.get_node_parameter(name, "") if name else UNDEFINED
    else:
        value = _extracted(call, text(resource))
    body: dict[str, Any] = response["body"] if isinstance(response.get("body"), dict) else {}
    headers = {str(k).lower(): v for k, v in (response.get("headers") or {}).items()}
    kind = body.get("__type") if body.get("__type") is not None else headers.get("x-amzn-errortype")
    message = body.get("message") if body.get("message") is not None else headers.get("x-amzn-errormessage")
    if not truthy(kind):
        raise response_error(call, response)
    specific = _specific_error(text(kind), text(resource), text(operation), value)
    if specific is not None:
        raise response_error(call, response, message=specific[0], description=specific[1])
    raise response_error(call, response, message=text(kind), description=None if message is None else text(message))


__all__ = ["api_request", "api_request_all", "js_json", "parsed_body"]
