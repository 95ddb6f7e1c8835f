"""A fake Gong API: Basic auth with the access key and secret (or an OAuth2 bearer token),
``POST /v2/calls/extensive`` and ``/v2/users/extensive`` (filters, cursor pages of two, Gong's error bodies),
``POST /v2/calls/transcript``, ``GET /v2/users`` (the credential test)."""

from __future__ import annotations

import base64
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require

KEY, SECRET = "gong-access-key", "gong-access-secret"
#: The access token of the OAuth2 credential (sent as ``Authorization: Bearer``).
OAUTH_TOKEN = "gong-oauth-access-token"
PAGE = 2


def _call(number: int, title: str, user: str) -> dict[str, Any]:
    return {
        "metaData": {
            "id": f"70000000000000000{number}",
            "url": f"https://app.gong.io/call?id=70000000000000000{number}",
            "title": title,
            "scheduled": f"2024-05-0{number}T09:00:00Z",
            "started": f"2024-05-0{number}T09:01:00Z",
            "duration": 1800 + number,
            "primaryUserId": user,
            "direction": "Conference",
            "system": "Zoom",
            "scope": "External",
            "media": "Video",
            "language": "eng",
        },
        "parties": [{"id": f"p{number}", "name": "Ada Lovelace", "userId": user, "affiliation": "Internal"}],
        "content": {"topics": [{"name": "Pricing", "duration": 120}], "brief": f"Brief of {title}"},
    }


CALLS = [_call(1, "Kickoff", "234599484848423"), _call(2, "Demo", "234599484848423"), _call(3, "Renewal", "9")]
USERS = [
    {"id": "234599484848423", "emailAddress": "ada@example.com", "firstName": "Ada", "lastName": "Lovelace",
     "title": "AE", "active": True, "created": "2023-01-01T00:00:00Z"},
    {"id": "234599484848424", "emailAddress": "alan@example.com", "firstName": "Alan", "lastName": "Turing",
     "title": "SE", "active": True, "created": "2023-02-01T00:00:00Z"},
    {"id": "234599484848425", "emailAddress": "grace@example.com", "firstName": "Grace", "lastName": "Hopper",
     "title": "CSM", "active": False, "created": "2023-03-01T00:00:00Z"},
]  # fmt: skip


def _authorized(request: ApiRequest) -> None:
    basic = "Basic " + base64.b64encode(f"{KEY}:{SECRET}".encode()).decode()
    require(
        request.headers.get("authorization") in (basic, f"Bearer {OAUTH_TOKEN}"),
        json_error(401, {"requestId": "4al018gzaztcr8nbukw", "errors": ["Unauthorized"]}),
    )


def _page(request: ApiRequest, found: list[dict[str, Any]], key: str) -> ApiReply:
    body = request.body if isinstance(request.body, dict) else {}
    cursor = body.get("cursor")
    start = int(cursor.removeprefix("cursor-")) if isinstance(cursor, str) and cursor.startswith("cursor-") else 0
    page = found[start : start + PAGE]
    records: dict[str, Any] = {
        "totalRecords": len(found),
        "currentPageSize": len(page),
        "currentPageNumber": start // PAGE,
    }
    if start + PAGE < len(found):
        records["cursor"] = f"cursor-{start + PAGE}"
    return ApiReply(body={"requestId": "req-fake", "records": records, key: page})


def calls(request: ApiRequest) -> ApiReply:
    _authorized(request)
    body = request.body if isinstance(request.body, dict) else {}
    wanted = (body.get("filter") or {}).get("callIds")
    found = [c for c in CALLS if wanted is None or c["metaData"]["id"] in wanted]
    if wanted is not None and not found:
        return json_error(
            404, {"requestId": "req-fake", "errors": ["No calls found corresponding to the provided filters"]}
        )
    exposed = (body.get("contentSelector") or {}).get("exposedFields") or {}
    shaped = [{k: v for k, v in c.items() if k == "metaData" or k in exposed} for c in found]
    return _page(request, shaped, "calls")


def users(request: ApiRequest) -> ApiReply:
    _authorized(request)
    body = request.body if isinstance(request.body, dict) else {}
    wanted = (body.get("filter") or {}).get("userIds")
    found = [u for u in USERS if wanted is None or u["id"] in wanted]
    if wanted is not None and not found:
        return json_error(
            404, {"requestId": "req-fake", "errors": ["No users found corresponding to the provided filters"]}
        )
    return _page(request, found, "users")


def list_users(request: ApiRequest) -> ApiReply:
    """``GET /v2/users`` (what the credential test asks for)."""
    _authorized(request)
    return ApiReply(body={"requestId": "req-fake", "records": {"totalRecords": len(USERS)}, "users": USERS})


def transcript(request: ApiRequest) -> ApiReply:
    _authorized(request)
    ids = ((request.body or {}).get("filter") or {}).get("callIds") or []
    lines = [{"speakerId": "p1", "topic": "Pricing", "sentences": [{"start": 0, "end": 1500, "text": "Hello."}]}]
    return ApiReply(body={"requestId": "req-fake", "records": {"totalRecords": len(ids)},
                          "callTranscripts": [{"callId": i, "transcript": lines} for i in ids]})  # fmt: skip


def install(server: FakeApiServer, prefix: str = "/gong") -> None:
    server.route("POST", rf"{prefix}/v2/calls/extensive", calls)
    server.route("POST", rf"{prefix}/v2/users/extensive", users)
    server.route("POST", rf"{prefix}/v2/calls/transcript", transcript)
    server.route("GET", rf"{prefix}/v2/users", list_users)


__all__ = ["KEY", "OAUTH_TOKEN", "SECRET", "install"]
