"""A fake WordPress REST API (``https://wp.weft.example/wp-json/wp/v2``): posts, pages and users as WordPress
answers them, with Basic auth (an application password), WordPress's error bodies
(``{"code": "rest_post_invalid_id", "message": "Invalid post ID.", "data": {"status": 404}}``), its list paging
(``per_page``, ``page``, ``X-WP-Total``/``X-WP-TotalPages``), a validation error for an unknown status, and 429
with ``Retry-After`` (as a host's rate limiter answers) for the search ``rate-limit``. It keeps no state: writes
answer the written object without changing what reads see, so cases run in any order."""

from __future__ import annotations

import base64
import re
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require

HOST = "wp.weft.example"
USERNAME = "weft-editor"
PASSWORD = "abcd EFGH ijkl MNOP qrst UVWX"
SITE = f"https://{HOST}"
_BASE = "/wp-json/wp/v2"
_STATUSES = ("publish", "future", "draft", "pending", "private")
_FORMATS = ("standard", "aside", "chat", "gallery", "link", "image", "quote", "status", "video", "audio")


def _date(n: int) -> str:
    return f"2025-01-{1 + n % 28:02d}T{9 + n % 9:02d}:00:00"


def _rendered(text: str) -> str:
    return text if text.startswith("<") or not text else f"<p>{text}</p>\n"


def _post(n: int, kind: str = "post", **changes: Any) -> dict[str, Any]:
    slug = f"{kind}-{n}"
    data: dict[str, Any] = {
        "id": n,
        "date": _date(n),
        "date_gmt": _date(n),
        "guid": {"rendered": f"{SITE}/?p={n}"},
        "modified": _date(n),
        "modified_gmt": _date(n),
        "slug": slug,
        "status": "publish",
        "type": kind,
        "link": f"{SITE}/{slug}/",
        "title": {"rendered": f"{kind.title()} number {n}"},
        "content": {"rendered": _rendered(f"Body of {kind} {n}."), "protected": False},
        "excerpt": {"rendered": _rendered(f"Body of {kind} {n}."), "protected": False},
        "author": 1 + n % 3,
        "featured_media": 0,
        "comment_status": "open",
        "ping_status": "open",
        "template": "",
        "meta": {"footnotes": ""},
    }
    if kind == "post":
        data.update(sticky=n == 1, format="standard", categories=[1 + n % 2], tags=[10 + n % 3] if n % 2 else [])
    else:
        data.update(parent=0, menu_order=n, comment_status="closed", ping_status="closed")
    for key, value in changes.items():
        if key == "title":
            data[key] = {"rendered": str(value)}
        elif key == "content":
            data[key] = {"rendered": _rendered(str(value)), "protected": False}
        else:
            data[key] = value
    return data


def _user(n: int, **changes: Any) -> dict[str, Any]:
    names = {1: ("admin", "Site Admin"), 2: ("ada", "Ada Lovelace"), 3: ("grace", "Grace Hopper")}
    slug, name = names.get(n, (f"user-{n}", f"User {n}"))
    data = {
        "id": n,
        "name": name,
        "url": "",
        "description": "",
        "link": f"{SITE}/author/{slug}/",
        "slug": slug,
        "avatar_urls": {"24": f"https://secure.gravatar.com/avatar/{n:032d}?s=24&d=mm&r=g"},
        "meta": [],
    }
    data.update(changes)
    return data


POSTS = {n: _post(n) for n in range(1, 24)}
PAGES = {n: _post(n, "page") for n in (101, 102, 103)}
USERS = {n: _user(n) for n in (1, 2, 3)}


def _error(status: int, code: str, message: str, **data: Any) -> ApiReply:
    return json_error(status, {"code": code, "message": message, "data": {"status": status, **data}})


def _authorized(request: ApiRequest) -> None:
    expected = "Basic " + base64.b64encode(f"{USERNAME}:{PASSWORD}".encode()).decode()
    given = request.headers.get("authorization", "")
    require(given.startswith("Basic "), _error(401, "rest_not_logged_in", "You are not currently logged in."))
    require(
        given == expected,
        _error(401, "incorrect_password", "The provided password is an invalid application password."),
    )
    require(request.headers.get("accept") == "application/json", _error(406, "rest_bad_accept", "Accept JSON."))


def _int_param(request: ApiRequest, name: str, default: int) -> int:
    value = request.query.get(name, str(default))
    require(
        value.isdigit() and int(value) >= 1,
        _error(
            400,
            "rest_invalid_param",
            f"Invalid parameter(s): {name}",
            params={name: f"{name} must be greater than or equal to 1"},
        ),
    )
    return int(value)


def _listed(request: ApiRequest, rows: list[dict[str, Any]]) -> ApiReply:
    _authorized(request)
    search = request.query.get("search", "")
    if search == "rate-limit":
        return json_error(429, {"code": "too_many_requests", "message": "Too Many Requests"}, **{"Retry-After": "30"})
    if search:
        rows = [r for r in rows if search.lower() in str(r.get("title", r.get("name"))).lower()]
    for name, key in (("status", "status"), ("author", "author"), ("sticky", "sticky"), ("parent", "parent")):
        if name in request.query:
            wanted = request.query[name]
            rows = [r for r in rows if str(r.get(key)).lower() == wanted.lower()]
    if "categories" in request.query:
        wanted_ids = {int(v) for v in request.query["categories"].split(",") if v.isdigit()}
        rows = [r for r in rows if wanted_ids & set(r.get("categories", []))]
    if request.query.get("order") == "asc":
        rows = list(reversed(rows))
    per_page, page = _int_param(request, "per_page", 10), _int_param(request, "page", 1)
    require(
        per_page <= 100,
        _error(
            400,
            "rest_invalid_param",
            "Invalid parameter(s): per_page",
            params={"per_page": "per_page must be between 1 (inclusive) and 100 (inclusive)"},
        ),
    )
    pages = -(-len(rows) // per_page)
    require(
        page <= max(pages, 1),
        _error(
            400,
            "rest_post_invalid_page_number",
            "The page number requested is larger than the number of pages available.",
        ),
    )
    chunk = rows[(page - 1) * per_page : page * per_page]
    return ApiReply(body=chunk, headers={"X-WP-Total": str(len(rows)), "X-WP-TotalPages": str(pages)})


def _checked(body: Any) -> dict[str, Any]:
    data = body if isinstance(body, dict) else {}
    status = data.get("status")
    require(
        status is None or status in _STATUSES,
        _error(
            400,
            "rest_invalid_param",
            "Invalid parameter(s): status",
            params={"status": f"status is not one of {', '.join(_STATUSES)}."},
        ),
    )
    require(
        data.get("format") in (None, *_FORMATS),
        _error(
            400,
            "rest_invalid_param",
            "Invalid parameter(s): format",
            params={"format": f"format is not one of {', '.join(_FORMATS)}."},
        ),
    )
    return {k: v for k, v in data.items() if k != "id"}


def _written(kind: str, n: int, fields: dict[str, Any]) -> dict[str, Any]:
    changes = {k: v for k, v in fields.items() if k not in ("password",)}
    return _post(n, kind, **changes)


def _posts_routes(server: FakeApiServer, kind: str, table: dict[int, dict[str, Any]], first_new: int) -> None:
    label = "post" if kind == "post" else "page"
    path = f"{_BASE}/{kind}s"
    missing = (404, f"rest_{label}_invalid_id", f"Invalid {label} ID.")

    def one(request: ApiRequest) -> ApiReply:
        _authorized(request)
        n = int(request.params["id"])
        require(n in table, _error(*missing))
        if request.method == "GET":
            return ApiReply(body=table[n])
        if request.method == "DELETE":
            if request.query.get("force") == "true":
                return ApiReply(body={"deleted": True, "previous": table[n]})
            return ApiReply(body={**table[n], "status": "trash"})
        return ApiReply(body=_written(kind, n, {**_checked(request.body)}))

    def create(request: ApiRequest) -> ApiReply:
        _authorized(request)
        require(request.headers.get("cache-control") in (None, "no-cache"), _error(400, "bad", "bad cache"))
        fields = _checked(request.body)
        fields.setdefault("status", "draft")
        return ApiReply(status=201, body=_written(kind, first_new, fields))

    server.route("GET", path, lambda request: _listed(request, list(table.values())[::-1]), host=HOST)
    server.route("POST", path, create, host=HOST)
    server.route("*", rf"{path}/(?P<id>\d+)", one, host=HOST)


def _user_one(request: ApiRequest) -> ApiReply:
    _authorized(request)
    n = int(request.params["id"])
    require(n in USERS, _error(404, "rest_user_invalid_id", "Invalid user ID."))
    if request.method == "GET":
        return ApiReply(body=USERS[n])
    body = request.body if isinstance(request.body, dict) else {}
    email = body.get("email")
    require(
        email is None or "@" in str(email),
        _error(400, "rest_invalid_param", "Invalid parameter(s): email", params={"email": "Invalid email address."}),
    )
    fields = {k: v for k, v in body.items() if k in ("name", "url", "description", "slug")}
    return ApiReply(body=_user(n, **fields))


def _user_create(request: ApiRequest) -> ApiReply:
    _authorized(request)
    body = request.body if isinstance(request.body, dict) else {}
    for name in ("username", "email", "password"):
        require(
            bool(body.get(name)),
            _error(400, "rest_missing_callback_param", f"Missing parameter(s): {name}", params=[name]),
        )
    require(
        body["username"] not in ("admin", "ada", "grace"),
        _error(500, "existing_user_login", "Sorry, that username already exists!"),
    )
    fields = {k: v for k, v in body.items() if k in ("name", "url", "description", "slug")}
    fields.setdefault("slug", re.sub(r"[^a-z0-9-]", "", str(body["username"]).lower()))
    return ApiReply(status=201, body=_user(50, **fields))


def _user_delete(request: ApiRequest) -> ApiReply:
    _authorized(request)
    require(
        request.query.get("force") == "true",
        _error(501, "rest_trash_not_supported", "Users do not support trashing. Set 'force' to true to delete."),
    )
    reassign = request.query.get("reassign", "")
    require(
        reassign.isdigit() and int(reassign) in USERS,
        _error(400, "rest_user_invalid_reassign", "Invalid user ID for reassignment."),
    )
    return ApiReply(body={"deleted": True, "previous": USERS[1]})


def install(server: FakeApiServer) -> None:
    _posts_routes(server, "post", POSTS, 501)
    _posts_routes(server, "page", PAGES, 601)
    server.route("GET", rf"{_BASE}/users", lambda request: _listed(request, list(USERS.values())), host=HOST)
    server.route("POST", rf"{_BASE}/users", _user_create, host=HOST)
    server.route("*", rf"{_BASE}/users/(?P<id>\d+)", _user_one, host=HOST)
    server.route("DELETE", rf"{_BASE}/users/me", _user_delete, host=HOST)


__all__ = ["HOST", "PASSWORD", "USERNAME", "install"]
