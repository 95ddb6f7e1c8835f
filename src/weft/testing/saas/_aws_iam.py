"""The fake IAM query API (``POST https://iam.amazonaws.com/``, a form with ``Action`` and ``Version``), as IAM
answers: JSON (``{"<Action>Response": {"<Action>Result": …, "ResponseMetadata": …}}``) for a client that accepts
``application/json``, else XML; errors ``{"Error": {"Type", "Code", "Message"}, "RequestId"}`` (XML
``ErrorResponse``) with IAM's statuses (404 ``NoSuchEntity``, 409 ``EntityAlreadyExists`` / ``DeleteConflict``,
400 ``Throttling`` for the name ``rate-limited``); pages by ``MaxItems`` / ``Marker``. IAM signs in ``us-east-1``.
Fixed users and groups; writes answer from the request and change nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from xml.sax.saxutils import escape

from weft.testing.fake_api import ApiReply, ApiRequest, Rejected
from weft.testing.saas.aws import verify

VERSION = "2010-05-08"
REQUEST_ID = "0f1e2d3c-weft-fake-iam-000000000001"
ACCOUNT = "123456789012"
_STATUS = {"NoSuchEntity": 404, "EntityAlreadyExists": 409, "DeleteConflict": 409, "Throttling": 400,
           "ValidationError": 400, "InvalidAction": 400, "MissingParameter": 400, "ServiceFailure": 500}  # fmt: skip


def _user(number: int, name: str, path: str = "/") -> dict[str, Any]:
    return {"Path": path, "UserName": name, "UserId": f"AIDAWEFTFAKEUSER{number:04d}",
            "Arn": f"arn:aws:iam::{ACCOUNT}:user{path}{name}", "CreateDate": 1704103200 + number * 86400}  # fmt: skip


def _group(number: int, name: str, path: str = "/") -> dict[str, Any]:
    return {"Path": path, "GroupName": name, "GroupId": f"AGPAWEFTFAKEGRP{number:05d}",
            "Arn": f"arn:aws:iam::{ACCOUNT}:group{path}{name}", "CreateDate": 1704067200 + number * 3600}  # fmt: skip


USERS = [_user(1, "alice"), _user(2, "bob", "/engineering/"), _user(3, "carol", "/engineering/"),
         _user(4, "dave", "/sales/"), _user(5, "erin")]  # fmt: skip
GROUPS = [_group(1, "Admins"), _group(2, "Developers", "/engineering/"), _group(3, "Empty"),
          _group(4, "Locked")]  # fmt: skip
MEMBERS = {"Admins": ["alice", "bob"], "Developers": ["bob", "carol"], "Locked": ["dave"]}


class IamError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _to_xml(value: Any, tag: str) -> str:
    if isinstance(value, dict):
        inner = "".join(_to_xml(v, k) for k, v in value.items() if v is not None)
    elif isinstance(value, list):
        inner = "".join(_to_xml(v, "member") for v in value)
    elif isinstance(value, bool):
        inner = "true" if value else "false"
    else:
        inner = escape(str(value))
    return f"<{tag}>{inner}</{tag}>"


def _reply(request: ApiRequest, status: int, body: dict[str, Any]) -> ApiReply:
    if "application/json" in request.headers.get("accept", ""):
        return ApiReply(status=status, body=body, content_type="application/json")
    if "Error" in body:
        root, xml = (
            "ErrorResponse",
            _to_xml({"Error": body["Error"], "RequestId": body.get("RequestId")}, "ErrorResponse"),
        )
    else:
        ((root, inner),) = body.items()
        xml = _to_xml(inner, root)
    xml = xml.replace(f"<{root}>", f'<{root} xmlns="https://iam.amazonaws.com/doc/{VERSION}/">', 1)
    return ApiReply(status=status, text=xml, content_type="text/xml")


def error(status: int, code: str, message: str) -> ApiReply:
    """IAM's error (for the signature checks; JSON, as the nodes ask for)."""
    code = "InvalidClientTokenId" if code == "UnrecognizedClientException" else code
    body = {"Error": {"Type": "Sender", "Code": code, "Message": message}, "RequestId": REQUEST_ID}
    return ApiReply(status=403 if status in (400, 403) else status, body=body, content_type="application/json")


def _name(form: dict[str, str], key: str) -> str:
    value = form.get(key)
    if value is None:
        raise IamError("MissingParameter", f"The request must contain the parameter {key}.")
    if value == "rate-limited":
        raise IamError("Throttling", "Rate exceeded")
    return value


def _find(found: list[dict[str, Any]], key: str, name: str, kind: str) -> dict[str, Any]:
    entry = next((e for e in found if e[key] == name), None)
    if entry is None:
        raise IamError("NoSuchEntity", f"The {kind} with name {name} cannot be found.")
    return entry


def _page(found: list[Any], form: dict[str, str], key: str) -> dict[str, Any]:
    prefix = form.get("PathPrefix") or "/"
    found = [e for e in found if str(e.get("Path", "/")).startswith(prefix)]
    limit = int(form.get("MaxItems") or 100)
    if not 1 <= limit <= 1000:
        raise IamError("ValidationError", f"1 validation error detected: Value '{limit}' at 'maxItems' failed to "
                       "satisfy constraint: Member must have value greater than or equal to 1")  # fmt: skip
    start = int(form.get("Marker", "m-0").removeprefix("m-") or 0)
    page = found[start : start + limit]
    truncated = start + limit < len(found)
    return {key: page, "IsTruncated": truncated, **({"Marker": f"m-{start + limit}"} if truncated else {})}


def _user_created(form: dict[str, str]) -> dict[str, Any]:
    name = _name(form, "UserName")
    if any(u["UserName"] == name for u in USERS):
        raise IamError("EntityAlreadyExists", f"User with name {name} already exists.")
    user = _user(90, name, form.get("Path") or "/")
    tags = [{"Key": form[f"Tags.member.{i}.Key"], "Value": form.get(f"Tags.member.{i}.Value", "")}
            for i in range(1, 51) if f"Tags.member.{i}.Key" in form]  # fmt: skip
    if tags:
        user["Tags"] = tags
    if form.get("PermissionsBoundary"):
        user["PermissionsBoundary"] = {"PermissionsBoundaryType": "Policy",
                                       "PermissionsBoundaryArn": form["PermissionsBoundary"]}  # fmt: skip
    return {"User": user}


def _group_created(form: dict[str, str]) -> dict[str, Any]:
    name = _name(form, "GroupName")
    if any(g["GroupName"] == name for g in GROUPS):
        raise IamError("EntityAlreadyExists", f"Group with name {name} already exists.")
    return {"Group": _group(90, name, form.get("Path") or "/")}


def _get_group(form: dict[str, str]) -> dict[str, Any]:
    group = _find(GROUPS, "GroupName", _name(form, "GroupName"), "group")
    users = [u for name in MEMBERS.get(group["GroupName"], []) for u in USERS if u["UserName"] == name]
    return {"Group": group, **_page(users, {k: v for k, v in form.items() if k != "PathPrefix"}, "Users")}


def _membership(form: dict[str, str]) -> None:
    _find(USERS, "UserName", _name(form, "UserName"), "user")
    _find(GROUPS, "GroupName", _name(form, "GroupName"), "group")


def _delete_group(form: dict[str, str]) -> None:
    group = _find(GROUPS, "GroupName", _name(form, "GroupName"), "group")
    if group["GroupName"] == "Locked":
        raise IamError("DeleteConflict", "Cannot delete entity, must remove users from group first.")


def _renamed(found: list[dict[str, Any]], form: dict[str, str], kind: str) -> None:
    key = "UserName" if kind == "user" else "GroupName"
    _find(found, key, _name(form, key), kind)
    new = form.get(f"New{key}")
    if new and any(e[key] == new for e in found):
        raise IamError("EntityAlreadyExists", f"{kind.title()} with name {new} already exists.")


ACTIONS: dict[str, Callable[[dict[str, str]], dict[str, Any] | None]] = {
    "ListUsers": lambda f: _page(USERS, f, "Users"),
    "GetUser": lambda f: {"User": _find(USERS, "UserName", _name(f, "UserName"), "user")},
    "CreateUser": _user_created,
    "UpdateUser": lambda f: _renamed(USERS, f, "user"),
    "DeleteUser": lambda f: (_find(USERS, "UserName", _name(f, "UserName"), "user"), None)[1],
    "AddUserToGroup": _membership,
    "RemoveUserFromGroup": _membership,
    "ListGroups": lambda f: _page(GROUPS, f, "Groups"),
    "GetGroup": _get_group,
    "CreateGroup": _group_created,
    "UpdateGroup": lambda f: _renamed(GROUPS, f, "group"),
    "DeleteGroup": _delete_group,
}


def serve(request: ApiRequest) -> ApiReply:
    """``POST /`` of ``iam.amazonaws.com``."""
    try:
        verify(request, "iam", "us-east-1", error)
    except Rejected as rejected:
        reply = rejected.reply
        return _reply(request, reply.status, reply.body)
    form = {**request.query, **(request.body if isinstance(request.body, dict) else {})}
    action = form.get("Action", "")
    try:
        if form.get("Version") != VERSION:
            raise IamError("InvalidAction", f"Could not find operation {action} for version {form.get('Version')}")
        handler = ACTIONS.get(action)
        if handler is None:
            raise IamError("InvalidAction", f"Could not find operation {action} for version {VERSION}")
        result = handler(form)
    except IamError as failure:
        body = {"Error": {"Type": "Sender", "Code": failure.code, "Message": failure.message}, "RequestId": REQUEST_ID}
        return _reply(request, _STATUS.get(failure.code, 400), body)
    answer: dict[str, Any] = {"ResponseMetadata": {"RequestId": REQUEST_ID}}
    if result is not None:
        answer = {f"{action}Result": result, **answer}
    return _reply(request, 200, {f"{action}Response": answer})


__all__ = ["GROUPS", "MEMBERS", "USERS", "error", "serve"]
