"""A fake Okta users API (``/api/v1/users``), as Okta answers: SSWS token auth, Okta's error bodies, cursor pages
of at most two users with a ``link`` header, 429 with ``Retry-After`` for the user id ``rate-limited``. It keeps
no state: a created or updated user is built from the request, so every run answers the same."""

from __future__ import annotations

from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require

TOKEN = "okta-test-token"
PAGE = 2


def _user(number: int, first: str, last: str, status: str = "ACTIVE") -> dict[str, Any]:
    login = f"{first.lower()}.{last.lower()}@example.com"
    return {
        "id": f"00u{number}fake{number:04d}",
        "status": status,
        "created": f"2024-01-0{number}T10:00:00.000Z",
        "activated": f"2024-01-0{number}T10:05:00.000Z",
        "statusChanged": f"2024-01-0{number}T10:05:00.000Z",
        "lastLogin": None if status != "ACTIVE" else f"2024-02-0{number}T08:00:00.000Z",
        "lastUpdated": f"2024-01-0{number}T10:05:00.000Z",
        "passwordChanged": f"2024-01-0{number}T10:05:00.000Z",
        "type": {"id": "oty1fake"},
        "profile": {
            "firstName": first,
            "lastName": last,
            "mobilePhone": None,
            "secondEmail": None,
            "login": login,
            "email": login,
        },
        "credentials": {"provider": {"type": "OKTA", "name": "OKTA"}},
        "_links": {"self": {"href": f"https://example.okta.com/api/v1/users/00u{number}fake{number:04d}"}},
    }


USERS = [
    _user(1, "Ada", "Lovelace"),
    _user(2, "Alan", "Turing"),
    _user(3, "Grace", "Hopper", "STAGED"),
    _user(4, "Edsger", "Dijkstra"),
    _user(5, "Barbara", "Liskov", "PROVISIONED"),
]


def _error(status: int, code: str, summary: str, **headers: str) -> ApiReply:
    body = {"errorCode": code, "errorSummary": summary, "errorLink": code, "errorId": "oaeFake", "errorCauses": []}
    return json_error(status, body, **headers)


def _authorized(request: ApiRequest) -> None:
    require(
        request.headers.get("authorization") == f"SSWS {TOKEN}",
        _error(401, "E0000011", "Invalid token provided"),
    )


def _find(user_id: str) -> dict[str, Any]:
    if user_id == "rate-limited":
        reply = _error(
            429, "E0000047", "API call exceeded rate limit due to too many requests.", **{"Retry-After": "30"}
        )
        require(False, reply)
    found = next((u for u in USERS if user_id in (u["id"], u["profile"]["login"])), None)
    require(found is not None, _error(404, "E0000007", f"Not found: Resource not found: {user_id} (User)"))
    assert found is not None
    return found


def list_users(request: ApiRequest) -> ApiReply:
    _authorized(request)
    found = USERS
    prefix = request.query.get("prefix") or ""
    search = request.query.get("search") or ""
    if prefix:
        found = [u for u in found if str(u["profile"]["firstName"]).lower().startswith(prefix.lower())]
    if 'status eq "' in search:
        status = search.split('status eq "')[1].split('"')[0]
        found = [u for u in found if u["status"] == status]
    limit = min(int(request.query.get("limit") or 200), PAGE)
    after = request.query.get("after")
    start = next((i + 1 for i, u in enumerate(found) if u["id"] == after), 0) if after else 0
    page = found[start : start + limit]
    headers = {"link": f'<{request.raw_path}?limit={limit}>; rel="self"'}
    if start + limit < len(found):
        cursor = page[-1]["id"]
        headers["link"] += f', <https://example.okta.com/api/v1/users?after={cursor}&limit={limit}>; rel="next"'
    return ApiReply(body=page, headers=headers)


def create_user(request: ApiRequest) -> ApiReply:
    _authorized(request)
    body = request.body if isinstance(request.body, dict) else {}
    profile = body.get("profile") or {}
    require(bool(profile.get("login")), _error(400, "E0000001", "Api validation failed: login"))
    status = "ACTIVE" if request.query.get("activate") == "true" else "STAGED"
    created = _user(9, str(profile.get("firstName") or "New"), str(profile.get("lastName") or "User"), status)
    created["profile"] = {**created["profile"], **profile}
    return ApiReply(body=created)


def get_user(request: ApiRequest) -> ApiReply:
    _authorized(request)
    return ApiReply(body=_find(request.params["id"]))


def update_user(request: ApiRequest) -> ApiReply:
    _authorized(request)
    found = dict(_find(request.params["id"]))
    body = request.body if isinstance(request.body, dict) else {}
    found["profile"] = {**found["profile"], **(body.get("profile") or {})}
    found["lastUpdated"] = "2024-03-01T12:00:00.000Z"
    return ApiReply(body=found)


def delete_user(request: ApiRequest) -> ApiReply:
    _authorized(request)
    _find(request.params["id"])
    return ApiReply(status=204)


def install(server: FakeApiServer, prefix: str = "/okta") -> None:
    server.route("GET", rf"{prefix}/api/v1/users/?", list_users)
    server.route("POST", rf"{prefix}/api/v1/users/?", create_user)
    server.route("GET", rf"{prefix}/api/v1/users/(?P<id>[^/]+)", get_user)
    server.route("POST", rf"{prefix}/api/v1/users/(?P<id>[^/]+)", update_user)
    server.route("DELETE", rf"{prefix}/api/v1/users/(?P<id>[^/]+)", delete_user)


__all__ = ["TOKEN", "USERS", "install"]
