"""The fake Cognito user pools API (``POST /`` with ``X-Amz-Target: AWSCognitoIdentityProviderService.<Action>``,
``application/x-amz-json-1.1``), as Cognito answers: errors as HTTP 400 with ``{"__type", "message"}`` (a
``TooManyRequestsException`` for the user or group ``rate-limited``, an ``InternalErrorException`` 500 for
``server-error``), pages of at most three users or groups (``PaginationToken`` / ``NextToken``). Fixed pools;
writes answer from the request and change nothing."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, Rejected
from weft.testing.saas.aws import verify

PAGE = 3
TARGET = "AWSCognitoIdentityProviderService."
_CODES = {"SignatureDoesNotMatch": "InvalidSignatureException", "IncompleteSignature": "IncompleteSignatureException",
          "MissingAuthenticationToken": "MissingAuthenticationTokenException"}  # fmt: skip


def _user(number: int, name: str, email: str, status: str = "CONFIRMED") -> dict[str, Any]:
    return {
        "Username": name,
        "Attributes": [
            {"Name": "email", "Value": email},
            {"Name": "email_verified", "Value": "true"},
            {"Name": "sub", "Value": f"5f1e0000-0000-4000-8000-00000000000{number}"},
            {"Name": "name", "Value": name.title()},
        ],
        "UserCreateDate": 1704103200.0 + number * 86400 + 0.125,
        "UserLastModifiedDate": 1706781600.0 + number * 3600 + 0.25,
        "Enabled": status != "DISABLED",
        "UserStatus": "CONFIRMED" if status == "DISABLED" else status,
    }


def _pool(pool_id: str, name: str, attributes: list[str] | None) -> dict[str, Any]:
    pool: dict[str, Any] = {
        "Id": pool_id, "Name": name, "Status": "Enabled", "CreationDate": 1704067200.0,
        "LastModifiedDate": 1706745600.0, "MfaConfiguration": "OFF", "EstimatedNumberOfUsers": 5,
        "Arn": f"arn:aws:cognito-idp:{pool_id.split('_')[0]}:123456789012:userpool/{pool_id}",
        "DeletionProtection": "INACTIVE", "Policies": {"PasswordPolicy": {"MinimumLength": 8}},
        "LambdaConfig": {}, "SchemaAttributes": [{"Name": "email", "AttributeDataType": "String"}],
        "AutoVerifiedAttributes": ["email"], "VerificationMessageTemplate": {"DefaultEmailOption": "CONFIRM_WITH_CODE"},
        "UserAttributeUpdateSettings": {"AttributesRequireVerificationBeforeUpdate": []},
        "EmailConfiguration": {"EmailSendingAccount": "COGNITO_DEFAULT"},
        "AdminCreateUserConfig": {"AllowAdminCreateUserOnly": False}, "UserPoolTags": {"team": "weft"},
        "AccountRecoverySetting": {"RecoveryMechanisms": [{"Priority": 1, "Name": "verified_email"}]},
        "UserPoolTier": "ESSENTIALS",
    }  # fmt: skip
    if attributes is not None:
        pool["UsernameAttributes"] = attributes
    return pool


def _group(pool_id: str, name: str, precedence: int, description: str) -> dict[str, Any]:
    return {"GroupName": name, "UserPoolId": pool_id, "Description": description, "Precedence": precedence,
            "LastModifiedDate": 1706745600.5, "CreationDate": 1704067200.5}  # fmt: skip


NAMES = "us-east-1_WeftNames"
EMAILS = "us-east-1_WeftEmail"
EUROPE = "eu-central-1_WeftEuro"
POOLS = {
    NAMES: _pool(NAMES, "Weft users", None),
    EMAILS: _pool(EMAILS, "Weft email sign-in", ["email"]),
    EUROPE: _pool(EUROPE, "Weft Europe", []),
}
_PEOPLE = [("ada", "ada@example.com"), ("alan", "alan@example.com"), ("grace", "grace@example.com"),
           ("edsger", "edsger@example.com"), ("barbara", "barbara@example.com")]  # fmt: skip
USERS = {
    NAMES: [_user(i + 1, name, email, "FORCE_CHANGE_PASSWORD" if i == 2 else "CONFIRMED")
            for i, (name, email) in enumerate(_PEOPLE)],
    EMAILS: [_user(i + 6, email, email) for i, (_, email) in enumerate(_PEOPLE[:2])],
    EUROPE: [_user(9, "jean", "jean@example.eu")],
}  # fmt: skip
GROUPS = {
    NAMES: [_group(NAMES, "admins", 1, "Administrators"), _group(NAMES, "auditors", 5, "Read-only audit"),
            _group(NAMES, "editors", 10, "Content editors"), _group(NAMES, "viewers", 20, "Viewers")],
    EMAILS: [_group(EMAILS, "members", 1, "Members")],
    EUROPE: [],
}  # fmt: skip
MEMBERS = {(NAMES, "admins"): ["ada", "alan"], (NAMES, "editors"): ["grace", "ada", "edsger", "barbara"],
           (EMAILS, "members"): ["ada@example.com"]}  # fmt: skip


def error(status: int, kind: str, message: str) -> ApiReply:
    """Cognito's error: 400 (500 for an internal error) with ``__type`` and ``message``."""
    kind = _CODES.get(kind, kind)
    return ApiReply(
        status=500 if kind == "InternalErrorException" else 400,
        body={"__type": kind, "message": message},
        content_type="application/x-amz-json-1.1",
        headers={"x-amzn-ErrorType": f"{kind}:", "x-amzn-RequestId": "weft-fake-cognito"},
    )


def _fail(kind: str, message: str) -> Rejected:
    return Rejected(error(400, kind, message))


def _required(body: dict[str, Any], *names: str) -> None:
    for name in names:
        if body.get(name) is None:
            field = name[:1].lower() + name[1:]
            raise _fail("InvalidParameterException",
                        f"1 validation error detected: Value null at '{field}' failed to satisfy constraint: "
                        "Member must not be null")  # fmt: skip


def _special(name: Any) -> None:
    if name == "rate-limited":
        raise _fail("TooManyRequestsException", "Rate exceeded")
    if name == "server-error":
        raise Rejected(error(500, "InternalErrorException", "Internal server error."))


def _pool_of(body: dict[str, Any]) -> str:
    _required(body, "UserPoolId")
    pool_id = str(body["UserPoolId"])
    if pool_id not in POOLS:
        raise Rejected(error(400, "ResourceNotFoundException", f"User pool {pool_id} does not exist."))
    return pool_id


def _user_of(body: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    pool_id = _pool_of(body)
    _required(body, "Username")
    _special(body["Username"])
    found = next((u for u in USERS[pool_id] if u["Username"] == body["Username"]), None)
    if found is None:
        raise _fail("UserNotFoundException", "User does not exist.")
    return pool_id, found


def _group_of(body: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    pool_id = _pool_of(body)
    _required(body, "GroupName")
    _special(body["GroupName"])
    found = next((g for g in GROUPS[pool_id] if g["GroupName"] == body["GroupName"]), None)
    if found is None:
        raise _fail("ResourceNotFoundException", "Group not found.")
    return pool_id, found


def _page(found: list[Any], body: dict[str, Any], key: str, token_name: str) -> dict[str, Any]:
    limit = int(body.get("Limit") or 60)
    if not 0 <= limit <= 60:
        raise _fail("InvalidParameterException", f"1 validation error detected: Value '{limit}' at 'limit' failed to "
                    "satisfy constraint: Member must have value less than or equal to 60")  # fmt: skip
    token = body.get(token_name)
    start = int(str(token).removeprefix("page-")) if token else 0
    size = min(limit or 60, PAGE)
    answer: dict[str, Any] = {key: found[start : start + size]}
    if start + size < len(found):
        answer[token_name] = f"page-{start + size}"
    return answer


_FILTER = re.compile(r'^\s*"?([\w:]+)"?\s*(\^?=)\s*"((?:[^"\\]|\\.)*)"\s*$')


def _filtered(users: list[dict[str, Any]], expression: Any) -> list[dict[str, Any]]:
    if not expression:
        return users
    found = _FILTER.match(str(expression))
    if found is None:
        raise _fail("InvalidParameterException", "Error while parsing filter.")
    name, operator, value = found.group(1), found.group(2), re.sub(r"\\(.)", r"\1", found.group(3))

    def matches(user: dict[str, Any]) -> bool:
        fields = {a["Name"]: a["Value"] for a in user["Attributes"]}
        fields.update(username=user["Username"], status=user["UserStatus"])
        current = str(fields.get(name, ""))
        return current.startswith(value) if operator == "^=" else current == value

    return [u for u in users if matches(u)]


def _actions() -> dict[str, Callable[[dict[str, Any]], dict[str, Any]]]:
    return {
        "DescribeUserPool": lambda b: {"UserPool": POOLS[_pool_of(b)]},
        "ListUsers": lambda b: _page(_filtered(USERS[_pool_of(b)], b.get("Filter")), b, "Users", "PaginationToken"),
        "AdminGetUser": _admin_get_user,
        "AdminCreateUser": _admin_create_user,
        "AdminDeleteUser": lambda b: (_user_of(b), {})[1],
        "AdminUpdateUserAttributes": _admin_update_user,
        "AdminAddUserToGroup": _membership,
        "AdminRemoveUserFromGroup": _membership,
        "CreateGroup": _create_group,
        "DeleteGroup": lambda b: (_group_of(b), {})[1],
        "GetGroup": lambda b: {"Group": _group_of(b)[1]},
        "UpdateGroup": _update_group,
        "ListGroups": lambda b: _page(GROUPS[_pool_of(b)], b, "Groups", "NextToken"),
        "ListUsersInGroup": _users_in_group,
    }


def _admin_get_user(body: dict[str, Any]) -> dict[str, Any]:
    _, user = _user_of(body)
    rest = {k: v for k, v in user.items() if k != "Attributes"}
    return {"Username": user["Username"], "UserAttributes": user["Attributes"], **rest}


def _admin_create_user(body: dict[str, Any]) -> dict[str, Any]:
    pool_id = _pool_of(body)
    _required(body, "Username")
    name = str(body["Username"])
    _special(name)
    if any(u["Username"] == name for u in USERS[pool_id]):
        raise _fail("UsernameExistsException", "User account already exists")
    attributes = [{"Name": "sub", "Value": "5f1e0000-0000-4000-8000-0000000000a1"}, *(body.get("UserAttributes") or [])]
    user = {"Username": name, "Attributes": attributes, "UserCreateDate": 1709294400.5,
            "UserLastModifiedDate": 1709294400.5, "Enabled": True, "UserStatus": "FORCE_CHANGE_PASSWORD"}  # fmt: skip
    return {"User": user}


def _admin_update_user(body: dict[str, Any]) -> dict[str, Any]:
    _user_of(body)
    _required(body, "UserAttributes")
    return {}


def _membership(body: dict[str, Any]) -> dict[str, Any]:
    _user_of(body)
    _group_of(body)
    return {}


def _create_group(body: dict[str, Any]) -> dict[str, Any]:
    pool_id = _pool_of(body)
    _required(body, "GroupName")
    name = str(body["GroupName"])
    _special(name)
    if any(g["GroupName"] == name for g in GROUPS[pool_id]):
        raise _fail("GroupExistsException", f"A group with the name {name} already exists.")
    group = {"GroupName": name, "UserPoolId": pool_id, "LastModifiedDate": 1709294400.5, "CreationDate": 1709294400.5}
    for key in ("Description", "Precedence", "RoleArn"):
        if key in body:
            group[key] = body[key]
    return {"Group": group}


def _update_group(body: dict[str, Any]) -> dict[str, Any]:
    _, group = _group_of(body)
    changes: dict[str, Any] = {k: body[k] for k in ("Description", "Precedence", "RoleArn") if k in body}
    updated = {**group, **changes}
    return {"Group": {**updated, "LastModifiedDate": 1709298000.5}}


def _users_in_group(body: dict[str, Any]) -> dict[str, Any]:
    pool_id, group = _group_of(body)
    names = MEMBERS.get((pool_id, group["GroupName"]), [])
    users = [u for name in names for u in USERS[pool_id] if u["Username"] == name]
    return _page(users, body, "Users", "NextToken")


def handler(region: str) -> Callable[[ApiRequest], ApiReply]:
    """The API of the host ``cognito-idp.<region>.amazonaws.com``."""

    def serve(request: ApiRequest) -> ApiReply:
        verify(request, "cognito-idp", region, error)
        target = request.headers.get("x-amz-target", "")
        action = _actions().get(target.removeprefix(TARGET)) if target.startswith(TARGET) else None
        if action is None:
            return error(400, "UnknownOperationException", "")
        if not request.headers.get("content-type", "").startswith("application/x-amz-json-1.1"):
            return error(400, "SerializationException", "Start of structure or map found where not expected.")
        try:
            body = json.loads(request.raw_body or b"{}")
        except ValueError:
            return error(400, "SerializationException", "Unexpected character found in request body.")
        if not isinstance(body, dict):
            return error(400, "SerializationException", "Start of structure or map found where not expected.")
        try:
            answer = action(body)
        except Rejected as rejected:
            return rejected.reply
        return ApiReply(body=answer, content_type="application/x-amz-json-1.1")

    return serve


__all__ = ["EMAILS", "EUROPE", "GROUPS", "MEMBERS", "NAMES", "POOLS", "USERS", "error", "handler"]
