"""Ports of the Microsoft Entra ID node's functions (``nodes/Microsoft/Entra/GenericFunctions.ts`` and the
inline functions of its user and group descriptions): the ID gates before a user or group reaches a Graph URL,
the field checks, the follow-up ``PATCH`` requests for fields Graph takes only on their own, and the node's
words for Graph's errors."""

from __future__ import annotations

import re
from typing import Any

from weft.errors import NodeOperationError
from weft.nodes.routing.call import RoutingCall
from weft.nodes.routing.functions import port
from weft.nodes.routing.ports.common import failed, response_error
from weft.nodes.routing.ports.microsoft_common import (
    Copy,
    IdMessages,
    encode_uri_component,
    graph_request,
    has_dot_segment,
    is_object_id,
    js_string,
    merge,
    operation_error,
    validate_user_target_id,
)
from weft.nodes.routing.ports.microsoft_entra_fields import user_create_body, utc_iso
from weft.nodes.routing.postreceive import Items

_ID_HINT = "The ID should be in the format e.g. 02bd9fd6-8f93-4758-87c3-1fb73740a315"
USER_MESSAGES = IdMessages(
    required=Copy(
        "The user is empty",
        f"Select a user from the list, or set the ID. {_ID_HINT}, or a user principal name e.g. jane@contoso.com.",
    ),
    dots_only=Copy("The user ID is invalid", f"{_ID_HINT}."),
    invalid=Copy(
        "The user ID is invalid",
        f"{_ID_HINT}, or a user principal name e.g. jane@contoso.com. Enter it as it appears in Entra, not "
        "URL-encoded.",
    ),
)
GROUP_REQUIRED = Copy("The group is empty", f"Select a group from the list, or set the ID. {_ID_HINT}.")
GROUP_INVALID = Copy(
    "The group ID is invalid", f"{_ID_HINT}. Groups are addressed by object ID, not by name or email address."
)
#: Graph takes these user fields only in a ``PATCH`` of their own.
_USER_SEPARATE = ("aboutMe", "birthday", "interests", "mySite", "pastProjects", "responsibilities", "schools", "skills")
_GROUP_SEPARATE = ("allowExternalSenders", "autoSubscribeNewMembers")
_NICKNAME = re.compile(r'(?:(?![@()\[\]"\\;:<> ,])[\x00-\x7F])*')
_UPN = re.compile(r"[A-Za-z0-9'._\-!#^~@]+")


def _read_id(call: RoutingCall, name: str) -> str:
    """``readEntraId``: the ID the URL will hold; a stored extraction rule (``__regex``) is refused."""
    stored = call.get_node_parameter(name)
    if isinstance(stored, dict) and stored.get("__rl") and stored.get("__regex"):
        raise NodeOperationError(
            call.node_name,
            f"The {name} ID is invalid",
            description="Remove the ID extraction rule from this field and set the ID directly.",
            item_index=call.item_index,
        )
    value = call.get_node_parameter(name, None, extract_value=True)
    return "" if value is None else js_string(value)


@port("preSend", "validateUserPreSend", "1a6dffd1317cee78")
async def validate_user(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    user_id = _read_id(call, "user")
    if user_id.strip() == "":
        raise operation_error(call, USER_MESSAGES.required)
    validate_user_target_id(call, user_id, USER_MESSAGES)
    if has_dot_segment(options.get("url")):
        raise operation_error(call, USER_MESSAGES.invalid)
    return options


@port("preSend", "validateGroupPreSend", "f433406d8e4dbcf1")
async def validate_group(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    group_id = _read_id(call, "group")
    if group_id.strip() == "":
        raise operation_error(call, GROUP_REQUIRED)
    if not is_object_id(group_id) or has_dot_segment(options.get("url")):
        raise operation_error(call, GROUP_INVALID)
    return options


def _refuse(call: RoutingCall, message: str) -> NodeOperationError:
    return NodeOperationError(call.node_name, message, item_index=call.item_index)


def _too_long(value: Any, limit: int) -> bool:
    """``value?.length > limit``."""
    return isinstance(value, str | list) and len(value) > limit


def _body(options: dict[str, Any]) -> dict[str, Any]:
    body = options.get("body")
    if not isinstance(body, dict):
        body = options["body"] = {}
    return body


# ---------------------------------------------------------------------------------------------------- groups


@port("preSend", "", "684482477a4a3300")
async def group_type(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """A Microsoft 365 group's ``groupTypes``; a security group is mail-disabled and security-enabled."""
    chosen = call.get_node_parameter("groupType")
    body = _body(options)
    if chosen:
        body.setdefault("groupTypes", []).append(chosen)
    else:
        body["mailEnabled"], body["securityEnabled"] = False, True
    return options


@port("preSend", "", "27110a8c5cb0c378")
async def membership_type(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    chosen = call.get_node_parameter("membershipType")
    if chosen:
        _body(options).setdefault("groupTypes", []).append(chosen)
    return options


@port("preSend", "", "750da80cb8acc448")
async def group_display_name(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    if _too_long(call.get_node_parameter("displayName"), 256):
        raise _refuse(call, "'Display Name' should have a maximum length of 256")
    return options


@port("preSend", "", "b0b0d4fb9b8f1d02")
async def group_update_display_name(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    if _too_long(call.get_node_parameter("updateFields.displayName"), 256):
        raise _refuse(call, "'Display Name' should have a maximum length of 256")
    return options


def _check_nickname(call: RoutingCall, nickname: Any) -> None:
    if isinstance(nickname, str) and "@" in nickname:
        raise _refuse(
            call,
            "'Group Email Address' should only include the local-part of the email address, without "
            + nickname[nickname.index("@") :],
        )
    if _too_long(nickname, 64):
        raise _refuse(call, "'Group Email Address' should have a maximum length of 64")
    if nickname and not _NICKNAME.fullmatch(js_string(nickname)):
        raise _refuse(
            call,
            "'Group Email Address' should only contain characters in the ASCII character set 0 - 127 except the "
            'following: @ () \\ [] " ; : <> , SPACE',
        )


@port("preSend", "", "59d5f0990a85fca7")
async def group_nickname(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    _check_nickname(call, call.get_node_parameter("mailNickname"))
    return options


@port("preSend", "", "824c01e59afdfd8d")
async def group_update_nickname(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    _check_nickname(call, call.get_node_parameter("updateFields.mailNickname"))
    return options


@port("preSend", "", "94c86400927cd19a")
async def assignable_to_role(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """A group assignable to roles is security-enabled, private, and (Microsoft 365) mail-enabled."""
    if not call.get_node_parameter("additionalFields.isAssignableToRole"):
        return options
    if not call.get_node_parameter("securityEnabled", True):
        raise _refuse(call, "'Security Enabled' must be set to true if 'Assignable to Role' is set")
    if call.get_node_parameter("additionalFields.visibility", "") != "Private":
        raise _refuse(call, "'Visibility' must be set to 'Private' if 'Assignable to Role' is set")
    if call.get_node_parameter("groupType") == "Unified" and not call.get_node_parameter("mailEnabled", False):
        raise _refuse(call, "'Mail Enabled' must be set to true if 'Assignable to Role' is set")
    return options


@port("postReceive", "", "80c2ad13f15be5b8")
async def group_create_fields(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """The additional fields of a new group, in a ``PATCH`` after the ``POST``; the group is deleted again when
    that fails."""
    for item in items:
        group_id = encode_uri_component((item.get("json") or {}).get("id"))
        fields = dict(call.get_node_parameter("additionalFields") or {})
        for name in ("isAssignableToRole", "membershipRule", "membershipRuleProcessingState"):
            fields.pop(name, None)
        if not fields:
            continue
        body = dict(fields)
        if body.get("assignedLabels"):
            body["assignedLabels"] = [(body["assignedLabels"] or {}).get("labelValues")]
        await _patch_or_delete(call, f"/groups/{group_id}", [body], item)
    return items


async def _patch_or_delete(call: RoutingCall, path: str, bodies: list[dict[str, Any]], item: dict[str, Any]) -> None:
    """Each non-empty body ``PATCH``ed and merged into the item; on a failure the new object is deleted."""
    try:
        for body in bodies:
            if body:
                await graph_request(call, "PATCH", path, body)
                merge(item["json"], body)
    except Exception:
        try:
            await graph_request(call, "DELETE", path)
        except Exception:  # n8n ignores a failed clean-up and reports the first error
            pass
        raise


@port("postReceive", "", "6bb08744d5cf09e2")
async def group_update_separate(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    for _ in items:
        group_id = call.get_node_parameter("group.value")
        fields = call.get_node_parameter("updateFields") or {}
        separate = {key: fields[key] for key in fields if key in _GROUP_SEPARATE}
        if separate:
            await graph_request(call, "PATCH", f"/groups/{encode_uri_component(group_id)}", separate)
    return items


# ---------------------------------------------------------------------------------------------------- users


def _check_upn(call: RoutingCall, value: Any) -> None:
    if not _UPN.fullmatch(js_string(value) if value is not None else "undefined"):
        raise _refuse(
            call, "Only the following characters are allowed for 'User Principal Name': A-Z, a-z, 0-9, ' . - _ ! # ^ ~"
        )


@port("preSend", "", "1415d3003009785c")
async def user_principal_name(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    _check_upn(call, call.get_node_parameter("userPrincipalName"))
    return options


@port("preSend", "", "6cc126a870094bbf")
async def user_update_principal_name(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    _check_upn(call, call.get_node_parameter("updateFields.userPrincipalName"))
    return options


def _max_length(name: str, label: str, limit: int) -> Any:
    async def check(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
        if _too_long(call.get_node_parameter(name), limit):
            raise _refuse(call, f"'{label}' should have a maximum length of {limit}")
        return options

    return check


port("preSend", "", "87ef92e672adcf95")(_max_length("additionalFields.companyName", "Company Name", 64))
port("preSend", "", "cf241935e527a60a")(_max_length("updateFields.companyName", "Company Name", 64))
port("preSend", "", "3c0c109c18eea16b")(_max_length("additionalFields.employeeId", "Employee ID", 16))
port("preSend", "", "f1afab17be680dcf")(_max_length("updateFields.employeeId", "Employee ID", 16))


@port("preSend", "", "af34a2cdd81694af")
async def force_change_password(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    chosen = call.get_node_parameter("updateFields.forceChangePassword")
    body = _body(options)
    if chosen == "forceChangePasswordNextSignIn":
        profile = body.get("passwordProfile")
        if profile is None:
            profile = body["passwordProfile"] = {}
        profile["forceChangePasswordNextSignIn"] = True
    elif chosen == "forceChangePasswordNextSignInWithMfa":
        profile = body.get("passwordProfile")
        if not isinstance(profile, dict):  # n8n sets it on an absent profile: a TypeError
            raise _refuse(
                call,
                "Cannot set properties of undefined (setting 'forceChangePasswordNextSignInWithMfa')",
            )
        profile["forceChangePasswordNextSignInWithMfa"] = True
    return options


@port("postReceive", "", "67451f0fc94ae4f2")
async def user_create_fields(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """The additional fields of a new user, in ``PATCH`` requests after the ``POST`` (the profile fields Graph
    takes only on their own first); the user is deleted again when one fails."""
    for item in items:
        user_id = encode_uri_component((item.get("json") or {}).get("id"))
        fields = call.get_node_parameter("additionalFields") or {}
        if not fields:
            continue
        body = user_create_body(call, fields)
        separate = {key: body.pop(key) for key in list(body) if key in _USER_SEPARATE}
        await _patch_or_delete(call, f"/users/{user_id}", [separate, body], item)
    return items


@port("postReceive", "", "979b069592a13007")
async def user_update_separate(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    for _ in items:
        user_id = call.get_node_parameter("user.value")
        fields = call.get_node_parameter("updateFields") or {}
        separate = {key: fields[key] for key in fields if key in _USER_SEPARATE}
        if separate:
            if separate.get("birthday"):
                separate["birthday"] = utc_iso(call, separate["birthday"], "Birthday")
            await graph_request(call, "PATCH", f"/users/{encode_uri_component(user_id)}", separate)
    return items


# ---------------------------------------------------------------------------------------------------- errors

_NOT_FOUND = "Request_ResourceNotFound"
_OBJECT_HINT = "The ID should be in the format e.g. 02bd9fd6-8f93-4758-87c3-1fb73740a315"
_ALREADY_MEMBER = "One or more added object references already exist for the following modified properties: 'members'."
_BAD_MEMBER_REF = "Unsupported referenced-object resource identifier for link property 'members'."
_EMPTY_PAYLOAD = "Empty Payload. JSON content expected."
#: (resource, operation) → the parameter a ``Request_ResourceNotFound`` names.
_NOT_FOUND_PARAMETER = {
    ("group", "delete"): ("group", "Group to Delete"),
    ("group", "get"): ("group", "Group to Get"),
    ("group", "update"): ("group", "Group to Update"),
    ("user", "delete"): ("user", "User to Delete"),
    ("user", "get"): ("user", "User to Get"),
    ("user", "update"): ("user", "User to Update"),
}


@port("postReceive", "handleErrorPostReceive", "8153ed47a23d9a50")
async def handle_error(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """The node's words for Graph's ``{"error": {"code", "message", "details"}}`` (it ignores HTTP errors to get
    here); an empty update's ``Empty Payload`` answer is no error."""
    if not failed(response):
        return items
    body = response.get("body")
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        raise response_error(call, response)
    code, message = error.get("code"), js_string(error.get("message") or "")
    resource, operation = call.parameters.get("resource"), call.parameters.get("operation")
    if operation == "update" and code == "BadRequest" and message == _EMPTY_PAYLOAD:
        return items
    _operation_error(call, response, (str(resource), str(operation)), code, message)
    if code == "Request_BadRequest" and message.startswith("Invalid object identifier"):
        group = js_string(call.get_node_parameter("group.value", ""))
        which = "group" if resource == "group" or group in message else "user"
        raise response_error(call, response, message=f"The {which} ID is invalid", description=_OBJECT_HINT)
    details = error.get("details")
    if isinstance(details, list) and any(
        isinstance(d, dict) and d.get("code") in ("ObjectConflict", "ConflictingObjects") for d in details
    ):
        raise response_error(call, response, message=f"The {resource} already exists", description=message)
    raise response_error(call, response)


def _operation_error(
    call: RoutingCall, response: dict[str, Any], which: tuple[str, str], code: Any, message: str
) -> None:
    """The errors one operation words on its own."""
    named = _NOT_FOUND_PARAMETER.get(which)
    if named and code == _NOT_FOUND:
        raise response_error(
            call,
            response,
            message=f"The required {named[0]} doesn't match any existing one",
            description=f"Double-check the value in the parameter '{named[1]}' and try again",
        )
    if which == ("user", "addGroup"):
        if code == "Request_BadRequest" and message == _ALREADY_MEMBER:
            raise response_error(
                call,
                response,
                message="The user is already in the group",
                description="The specified user cannot be added to the group because they are already a member",
            )
        if code == _NOT_FOUND:
            in_group = js_string(call.get_node_parameter("group.value")) in message
            what = ("group", "Group") if in_group else ("user", "User to Add")
            raise response_error(
                call,
                response,
                message=f"The required {what[0]} doesn't match any existing one",
                description=f"Double-check the value in the parameter '{what[1]}' and try again",
            )
    if which == ("user", "removeGroup"):
        if code == _NOT_FOUND:
            raise response_error(
                call,
                response,
                message="The user is not in the group",
                description="The specified user cannot be removed from the group because they are not a member "
                "of the group",
            )
        if code == "Request_UnsupportedQuery" and message == _BAD_MEMBER_REF:
            raise response_error(call, response, message="The user ID is invalid", description=_OBJECT_HINT)
