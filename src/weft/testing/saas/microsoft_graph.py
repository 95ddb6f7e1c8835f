"""A fake Microsoft Graph (``graph.microsoft.com/v1.0``) for the Entra ID node: users, groups and group members,
as Graph answers. Bearer token ``entra-test-token``; errors as ``{"error": {"code", "message", "details"?}}``
(``Request_ResourceNotFound``, ``Request_BadRequest`` with ``ObjectConflict`` details, ``Invalid object
identifier`` for a non-GUID directory object, ``BadRequest`` ``Empty Payload`` for a ``PATCH`` without body); lists
in pages (``$top``, else 3 entries) with an ``@odata.nextLink`` that carries the query; ``$select``, a small
``$filter`` (``startswith(field,'v')``, ``field eq 'v'|true|false``, joined with ``and``) and ``$expand=members``.
The user ``throttle@contoso.com`` answers 429 with ``Retry-After``. It keeps no state: a created object's id is
derived from its name (``c0ffee00-…``, accepted by later ``PATCH``/``DELETE``), writes change nothing reads see,
so cases run in any order."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import quote, unquote, urlencode

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require

HOST = "graph.microsoft.com"
BASE = f"https://{HOST}/v1.0"
TOKEN = "entra-test-token"
PAGE = 3
CREATED = "2024-01-02T03:04:05Z"
_GUID = re.compile(r"[0-9a-fA-F]{8}-([0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}")
_USER_DEFAULT = ("businessPhones", "displayName", "givenName", "jobTitle", "mail", "mobilePhone", "officeLocation",
                 "preferredLanguage", "surname", "userPrincipalName", "id")  # fmt: skip
_GROUP_DEFAULT = ("id", "deletedDateTime", "classification", "createdDateTime", "description", "displayName",
                  "groupTypes", "mail", "mailEnabled", "mailNickname", "securityEnabled", "securityIdentifier",
                  "visibility")  # fmt: skip


def _user(n: int, first: str, last: str, job: str, enabled: bool = True) -> dict[str, Any]:
    upn = f"{first.lower()}@contoso.com"
    return {
        "id": f"11111111-1111-4111-8111-00000000000{n}", "accountEnabled": enabled, "businessPhones": [],
        "city": "London" if n % 2 else "Zurich", "companyName": "Contoso", "country": None,
        "createdDateTime": f"2024-01-0{n}T09:00:00Z", "department": "Research", "displayName": f"{first} {last}",
        "employeeId": f"E00{n}", "givenName": first, "jobTitle": job, "mail": upn, "mailNickname": first.lower(),
        "mobilePhone": None, "officeLocation": f"Room {n}0{n}", "preferredLanguage": "en-GB",
        "securityIdentifier": f"S-1-12-1-{n}", "surname": last, "userPrincipalName": upn, "userType": "Member",
    }  # fmt: skip


USERS = [
    _user(1, "Ada", "Lovelace", "Analyst"),
    _user(2, "Alan", "Turing", "Cryptographer"),
    _user(3, "Grace", "Hopper", "Admiral"),
    _user(4, "Edsger", "Dijkstra", "Professor", enabled=False),
    _user(5, "Barbara", "Liskov", "Professor"),
]


def _group(n: int, name: str, unified: bool, members: list[int]) -> dict[str, Any]:
    nickname = name.lower().replace(" ", "-")
    return {
        "id": f"22222222-2222-4222-8222-00000000000{n}", "deletedDateTime": None, "classification": None,
        "createdDateTime": f"2024-02-0{n}T09:00:00Z", "description": f"The {name} group",
        "displayName": name, "groupTypes": ["Unified"] if unified else [],
        "mail": f"{nickname}@contoso.com" if unified else None, "mailEnabled": unified, "mailNickname": nickname,
        "securityEnabled": not unified, "securityIdentifier": f"S-1-12-1-10{n}",
        "visibility": "Public" if unified else None, "_members": members,
    }  # fmt: skip


GROUPS = [
    _group(1, "Engineering", True, [1, 2]),
    _group(2, "Security Admins", False, [3]),
    _group(3, "Marketing", True, []),
    _group(4, "Research", False, [1, 3, 5]),
]


def error(status: int, code: str, message: str, **extra: Any) -> ApiReply:
    inner = {"code": code, "message": message, **extra}
    inner["innerError"] = {"date": CREATED, "request-id": "fake-request", "client-request-id": "fake-request"}
    headers = {"Retry-After": "10"} if status == 429 else {}
    return json_error(status, {"error": inner}, **headers)


def _authorized(request: ApiRequest) -> None:
    given = request.headers.get("authorization", "")
    require(given != "", error(401, "InvalidAuthenticationToken", "Access token is empty."))
    require(given == f"Bearer {TOKEN}", error(401, "InvalidAuthenticationToken", "IDX14100: JWT is not well formed."))


def _not_found(key: str) -> ApiReply:
    return error(
        404,
        "Request_ResourceNotFound",
        f"Resource '{key}' does not exist or one of its queried reference-property objects are not present.",
    )


def created_id(name: str) -> str:
    digest = hashlib.sha256(name.encode()).hexdigest()
    return f"c0ffee00-{digest[:4]}-4{digest[4:7]}-8{digest[7:10]}-{digest[10:22]}"


def _find_user(key: str) -> dict[str, Any] | None:
    require(key != "throttle@contoso.com", error(429, "TooManyRequests", "Too many requests"))
    found = next((u for u in USERS if key.lower() in (u["id"], u["userPrincipalName"])), None)
    if found is None and key.startswith("c0ffee00-"):
        return {**_user(9, "New", "User", ""), "id": key}
    return found


def _find_group(key: str) -> dict[str, Any]:
    require(_GUID.fullmatch(key) is not None, error(400, "Request_BadRequest", f"Invalid object identifier '{key}'."))
    found = next((g for g in GROUPS if g["id"] == key.lower()), None)
    if found is None and key.startswith("c0ffee00-"):
        return {**_group(9, "New", False, []), "id": key}
    require(found is not None, _not_found(key))
    assert found is not None
    return found


def _selected(entry: dict[str, Any], select: str | None, default: tuple[str, ...]) -> dict[str, Any]:
    names = [n.strip() for n in select.split(",") if n.strip()] if select else list(default)
    return {name: entry.get(name) for name in names}


def _context(kind: str, select: str | None, entity: bool) -> str:
    shown = f"{kind}({select})" if select else kind
    return f"{BASE}/$metadata#{shown}" + ("/$entity" if entity else "")


_CLAUSE = re.compile(r"startswith\((\w+),\s*'([^']*)'\)|(\w+) eq (?:'([^']*)'|(true|false))", re.IGNORECASE)


def _matches(entry: dict[str, Any], query: str) -> bool:
    for clause in re.split(r"\s+and\s+", query.strip(), flags=re.IGNORECASE):
        found = _CLAUSE.fullmatch(clause.strip())
        require(found is not None, error(400, "BadRequest", f"Invalid filter clause: {clause}"))
        assert found is not None
        if found.group(1):
            if not str(entry.get(found.group(1)) or "").lower().startswith(found.group(2).lower()):
                return False
        elif found.group(5):
            if entry.get(found.group(3)) is not (found.group(5).lower() == "true"):
                return False
        elif str(entry.get(found.group(3))) != found.group(4):
            return False
    return True


def _page(
    request: ApiRequest, kind: str, entries: list[dict[str, Any]], shape: Callable[[dict[str, Any]], Any]
) -> ApiReply:
    select = request.query.get("$select")
    wanted = request.query.get("$filter")
    if wanted:
        entries = [e for e in entries if _matches(e, wanted)]
    size = int(request.query.get("$top") or PAGE)
    start = int(request.query.get("$skiptoken") or 0)
    body: dict[str, Any] = {"@odata.context": _context(kind, select, False)}
    body["value"] = [shape(e) for e in entries[start : start + size]]
    if start + size < len(entries):
        kept = [(k, v) for k, v in request.query_pairs if k != "$skiptoken"] + [("$skiptoken", str(start + size))]
        body["@odata.nextLink"] = f"{BASE}/{kind}?" + urlencode(kept, quote_via=quote, safe="$,'()")
    return ApiReply(body=body)


def list_users(request: ApiRequest) -> ApiReply:
    _authorized(request)
    return _page(request, "users", USERS, lambda u: _selected(u, request.query.get("$select"), _USER_DEFAULT))


def get_user(request: ApiRequest) -> ApiReply:
    _authorized(request)
    found = _find_user(request.params["id"])
    require(found is not None, _not_found(request.params["id"]))
    assert found is not None
    select = request.query.get("$select")
    return ApiReply(body={"@odata.context": _context("users", select, True), **_selected(found, select, _USER_DEFAULT)})


def _body(request: ApiRequest) -> dict[str, Any]:
    return request.body if isinstance(request.body, dict) else {}


def _conflict(prop: str) -> ApiReply:
    return error(
        400,
        "Request_BadRequest",
        f"Another object with the same value for property {prop} already exists.",
        details=[{"code": "ObjectConflict", "target": prop}],
    )


def _require_fields(body: dict[str, Any], names: tuple[str, ...], resource: str) -> None:
    for name in names:
        message = f"Invalid value specified for property '{name}' of resource '{resource}'."
        require(body.get(name) not in (None, ""), error(400, "Request_BadRequest", message))


def create_user(request: ApiRequest) -> ApiReply:
    _authorized(request)
    body = _body(request)
    _require_fields(body, ("accountEnabled", "displayName", "mailNickname", "userPrincipalName"), "User")
    require(bool((body.get("passwordProfile") or {}).get("password")), _password_error())
    upn = str(body["userPrincipalName"]).lower()
    require(all(u["userPrincipalName"] != upn for u in USERS), _conflict("userPrincipalName"))
    created: dict[str, Any] = {"@odata.context": f"{BASE}/$metadata#users/$entity", "id": created_id(upn)}
    created.update({name: None for name in _USER_DEFAULT if name != "id"})
    created.update(businessPhones=[], displayName=body["displayName"], userPrincipalName=body["userPrincipalName"])
    return ApiReply(status=201, body=created)


def _password_error() -> ApiReply:
    return error(
        400, "Request_BadRequest", "Invalid value specified for property 'passwordProfile' of resource 'User'."
    )


def _patch_checks(request: ApiRequest, resource: str) -> None:
    require(request.raw_body.strip() != b"", error(400, "BadRequest", "Empty Payload. JSON content expected."))
    for name in ("usageLocation", "preferredDataLocation"):
        value = _body(request).get(name)
        message = f"Invalid value specified for property '{name}' of resource '{resource}'."
        require(value is None or value in ("GB", "CH", "US", "EUR", "NAM"), error(400, "Request_BadRequest", message))


def update_user(request: ApiRequest) -> ApiReply:
    _authorized(request)
    require(_find_user(request.params["id"]) is not None, _not_found(request.params["id"]))
    _patch_checks(request, "User")
    return ApiReply(status=204)


def delete_user(request: ApiRequest) -> ApiReply:
    _authorized(request)
    require(_find_user(request.params["id"]) is not None, _not_found(request.params["id"]))
    return ApiReply(status=204)


def _with_members(request: ApiRequest, group: dict[str, Any]) -> dict[str, Any]:
    select = request.query.get("$select")
    shown = {k: v for k, v in _selected(group, select, _GROUP_DEFAULT).items() if k != "_members"}
    expand = request.query.get("$expand") or ""
    if expand.startswith("members"):
        inner = re.search(r"\$select=([^)]*)", expand)
        chosen = inner.group(1) if inner else None
        members = [USERS[n - 1] for n in group["_members"]]
        shown["members"] = [
            {"@odata.type": "#microsoft.graph.user", **_selected(u, chosen, _USER_DEFAULT)} for u in members
        ]
    return shown


def list_groups(request: ApiRequest) -> ApiReply:
    _authorized(request)
    return _page(request, "groups", GROUPS, lambda g: _with_members(request, g))


def get_group(request: ApiRequest) -> ApiReply:
    _authorized(request)
    group = _find_group(request.params["id"])
    select = request.query.get("$select")
    return ApiReply(body={"@odata.context": _context("groups", select, True), **_with_members(request, group)})


def create_group(request: ApiRequest) -> ApiReply:
    _authorized(request)
    body = _body(request)
    _require_fields(body, ("displayName", "mailNickname"), "Group")
    for name in ("mailEnabled", "securityEnabled"):
        message = f"Invalid value specified for property '{name}' of resource 'Group'."
        require(isinstance(body.get(name), bool), error(400, "Request_BadRequest", message))
    nickname = str(body["mailNickname"]).lower()
    require(all(g["mailNickname"] != nickname for g in GROUPS), _conflict("mailNickname"))
    unified = "Unified" in (body.get("groupTypes") or [])
    created = {"@odata.context": f"{BASE}/$metadata#groups/$entity", **_group(9, "New", unified, [])}
    del created["_members"]
    created.update({key: body[key] for key in body if key in created or key == "groupTypes"})
    created.update(id=created_id(nickname), createdDateTime=CREATED, description=body.get("description"))
    created["mail"] = f"{nickname}@contoso.com" if body.get("mailEnabled") else None
    return ApiReply(status=201, body=created)


def update_group(request: ApiRequest) -> ApiReply:
    _authorized(request)
    _find_group(request.params["id"])
    _patch_checks(request, "Group")
    return ApiReply(status=204)


def delete_group(request: ApiRequest) -> ApiReply:
    _authorized(request)
    _find_group(request.params["id"])
    return ApiReply(status=204)


def add_member(request: ApiRequest) -> ApiReply:
    _authorized(request)
    group = _find_group(request.params["id"])
    reference = str(_body(request).get("@odata.id") or "")
    prefix = f"{BASE}/directoryObjects/"
    require(reference.startswith(prefix), error(400, "Request_BadRequest", "Invalid URL format specified in payload."))
    member = unquote(reference[len(prefix) :])
    invalid = error(400, "Request_BadRequest", f"Invalid object identifier '{member}'.")
    require(_GUID.fullmatch(member) is not None, invalid)
    user = _find_user(member)
    require(user is not None, _not_found(member))
    assert user is not None
    already = "One or more added object references already exist for the following modified properties: 'members'."
    member_of = user in USERS and USERS.index(user) + 1 in group["_members"]
    require(not member_of, error(400, "Request_BadRequest", already))
    return ApiReply(status=204)


def remove_member(request: ApiRequest) -> ApiReply:
    _authorized(request)
    group = _find_group(request.params["id"])
    member = request.params["member"]
    message = "Unsupported referenced-object resource identifier for link property 'members'."
    require(_GUID.fullmatch(member) is not None, error(400, "Request_UnsupportedQuery", message))
    user = _find_user(member)
    in_group = user in USERS and USERS.index(user) + 1 in group["_members"]
    require(in_group, _not_found(member))
    return ApiReply(status=204)


def install(server: FakeApiServer) -> None:
    def route(method: str, path: str, handler: Any) -> None:
        server.route(method, rf"/v1\.0{path}", handler, host=HOST)

    route("GET", "/users/?", list_users)
    route("POST", "/users/?", create_user)
    route("GET", r"/users/(?P<id>[^/]+)", get_user)
    route("PATCH", r"/users/(?P<id>[^/]+)", update_user)
    route("DELETE", r"/users/(?P<id>[^/]+)", delete_user)
    route("GET", "/groups/?", list_groups)
    route("POST", "/groups/?", create_group)
    route("GET", r"/groups/(?P<id>[^/]+)", get_group)
    route("PATCH", r"/groups/(?P<id>[^/]+)", update_group)
    route("DELETE", r"/groups/(?P<id>[^/]+)", delete_group)
    route("POST", r"/groups/(?P<id>[^/]+)/members/\$ref", add_member)
    route("DELETE", r"/groups/(?P<id>[^/]+)/members/(?P<member>[^/]+)/\$ref", remove_member)


__all__ = ["BASE", "GROUPS", "HOST", "TOKEN", "USERS", "created_id", "error", "install"]
