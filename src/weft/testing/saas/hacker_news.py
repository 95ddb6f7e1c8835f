"""A fake of the Algolia Hacker News API (``hn.algolia.com/api/v1``), as it answers: ``items/<id>`` (a story with
its comment tree in ``children``), ``users/<name>``, and ``search`` over a fixed set of 130 stories and comments
(``query`` words, comma-separated ``tags`` that must all match, ``hitsPerPage`` up to 1000, ``page``), with
``nbHits``/``nbPages``. An unknown item or user answers 404 ``{"status":404,"error":"Not Found"}``; the item
``429`` and the query ``rate limit`` answer 429 with ``Retry-After``; an id that is not a number answers 400.
It keeps no state."""

from __future__ import annotations

from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error

HOST = "hn.algolia.com"
_EPOCH = 1_700_000_000


def _iso(offset: int) -> str:
    minutes, seconds = divmod(offset, 60)
    return f"2023-11-14T{22 + minutes // 60 % 2:02d}:{minutes % 60:02d}:{seconds:02d}.000Z"


def _hit(number: int) -> dict[str, Any]:
    """A search hit: stories about weaving (every third one a Show HN, every fifth an Ask HN), comments after 120."""
    comment = number > 120
    kind = "comment" if comment else "story"
    tags = [kind, f"author_user{number % 7}", f"story_{1000 + number}"]
    if not comment and number % 3 == 0:
        tags.append("show_hn")
    if not comment and number % 5 == 0:
        tags.append("ask_hn")
    if number <= 30:
        tags.append("front_page")
    title = None if comment else f"{'Show HN: ' if 'show_hn' in tags else ''}Weaving notes {number}"
    return {
        "author": f"user{number % 7}",
        "created_at": _iso(number * 37),
        "created_at_i": _EPOCH + number * 37,
        "num_comments": None if comment else number % 11,
        "objectID": str(1000 + number),
        "points": None if comment else number * 3 % 200,
        "story_id": 1000 + number,
        "title": title,
        "url": None if comment else f"https://weft.example/notes/{number}",
        "comment_text": f"A comment on loom {number}" if comment else None,
        "updated_at": "2024-01-01T00:00:00Z",
        "_tags": tags,
    }


HITS = [_hit(n) for n in range(1, 131)]
USERS = {
    "pg": {"username": "pg", "about": "Bug fixer.", "karma": 157236},
    "dang": {"username": "dang", "about": "Moderator.", "karma": 45000},
}


def _comment(number: int, parent: int, children: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": number, "created_at": _iso(number % 3000), "created_at_i": _EPOCH + number % 3000, "type": "comment",
        "author": f"user{number % 7}", "title": None, "url": None, "text": f"<p>Reply {number}</p>",
        "points": None, "parent_id": parent, "story_id": 8863, "children": children, "options": [],
    }  # fmt: skip


def _item(number: int) -> dict[str, Any] | None:
    if number != 8863:
        return None
    children = [_comment(9224, 8863, [_comment(9230, 9224, [])]), _comment(8917, 8863, [])]
    return {
        "id": 8863, "created_at": "2007-04-04T19:16:40.000Z", "created_at_i": 1175714200, "type": "story",
        "author": "dhouston", "title": "My YC app: Dropbox - Throw away your USB drive",
        "url": "http://www.getdropbox.com/u/2/screencast.html", "text": None, "points": 104, "parent_id": None,
        "story_id": 8863, "children": children, "options": [],
    }  # fmt: skip


def _not_found() -> ApiReply:
    return json_error(404, {"status": 404, "error": "Not Found"})


def _rate_limited() -> ApiReply:
    return json_error(429, {"status": 429, "error": "Too Many Requests"}, **{"Retry-After": "60"})


def item(request: ApiRequest) -> ApiReply:
    raw = request.params["id"]
    if raw == "429":
        return _rate_limited()
    if not raw.isdigit():
        return json_error(400, {"status": 400, "error": "Bad Request", "message": f"Invalid item id: {raw}"})
    found = _item(int(raw))
    return ApiReply(body=found) if found else _not_found()


def user(request: ApiRequest) -> ApiReply:
    found = USERS.get(request.params["name"])
    return ApiReply(body=found) if found else _not_found()


def _matches(hit: dict[str, Any], words: list[str], tags: list[str]) -> bool:
    text = f"{hit['title'] or ''} {hit['comment_text'] or ''}".lower()
    return all(w in text for w in words) and all(t in hit["_tags"] for t in tags)


def search(request: ApiRequest) -> ApiReply:
    query = request.query.get("query", "")
    if query == "rate limit":
        return _rate_limited()
    tags = [t for t in request.query.get("tags", "").split(",") if t]
    per_page = min(int(request.query.get("hitsPerPage") or 20), 1000)
    page = int(request.query.get("page") or 0)
    found = [h for h in HITS if _matches(h, query.lower().split(), tags)]
    pages = -(-len(found) // per_page) if per_page else 0
    hits = found[page * per_page : (page + 1) * per_page]
    params = "&".join(f"{k}={v}" for k, v in request.query_pairs)
    return ApiReply(
        body={
            "hits": hits, "nbHits": len(found), "page": page, "nbPages": pages, "hitsPerPage": per_page,
            "exhaustiveNbHits": True, "query": query, "params": params, "processingTimeMS": 1,
        }
    )  # fmt: skip


def install(server: FakeApiServer) -> None:
    server.route("GET", r"/api/v1/items/(?P<id>[^/]+)", item, host=HOST)
    server.route("GET", r"/api/v1/users/(?P<name>[^/]+)", user, host=HOST)
    server.route("GET", r"/api/v1/search", search, host=HOST)


__all__ = ["HOST", "install"]
