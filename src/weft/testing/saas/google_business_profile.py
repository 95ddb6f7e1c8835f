"""A fake Google Business Profile API (``mybusiness.googleapis.com/v4``): the local posts and reviews of one
location (``accounts/1001/locations/2002``), pages of ``pageSize`` (at most :data:`PAGE`) with ``nextPageToken``,
a post's create, get, update (``updateMask`` required: Google answers 400 without it) and delete, a review's get,
reply and reply delete. Unknown posts and reviews answer Google's 404 ``NOT_FOUND``; the location
``locations/4290`` a 429 ``RESOURCE_EXHAUSTED`` with ``Retry-After``. No state: a write answers what it would
store."""

from __future__ import annotations

from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require

HOST = "mybusiness.googleapis.com"
ACCESS_TOKEN = "gbp-access-token"
ACCOUNT = "accounts/1001"
LOCATION = "locations/2002"
RATE_LIMITED = "locations/4290"
PARENT = f"{ACCOUNT}/{LOCATION}"
#: Google may answer fewer than ``pageSize``: this fake answers at most this many, so pages show.
PAGE = 2
_TIME = "2025-03-0{n}T09:00:00.000Z"


def _error(status: int, code: str, message: str, **headers: str) -> ApiReply:
    return json_error(status, {"error": {"code": status, "message": message, "status": code}}, **headers)


def _post(number: int, summary: str, topic: str = "STANDARD") -> dict[str, Any]:
    return {
        "name": f"{PARENT}/localPosts/{number}00",
        "languageCode": "en",
        "summary": summary,
        "state": "LIVE",
        "updateTime": _TIME.format(n=number),
        "createTime": _TIME.format(n=number),
        "searchUrl": f"https://local.google.com/place?id=1&use=posts&lpsid={number}00",
        "topicType": topic,
    }


def _review(number: int, stars: str, comment: str) -> dict[str, Any]:
    review: dict[str, Any] = {
        "reviewId": f"rev{number}",
        "reviewer": {"profilePhotoUrl": "https://lh3.googleusercontent.com/a/x", "displayName": f"Reviewer {number}"},
        "starRating": stars,
        "comment": comment,
        "createTime": _TIME.format(n=number),
        "updateTime": _TIME.format(n=number),
        "name": f"{PARENT}/reviews/rev{number}",
    }
    if number == 1:
        review["reviewReply"] = {"comment": "Thank you!", "updateTime": _TIME.format(n=number + 1)}
    return review


POSTS = [_post(n, f"Post number {n}") for n in range(1, 6)]
REVIEWS = [_review(n, ("FIVE", "FOUR", "THREE")[n % 3], f"Review text {n}") for n in range(1, 5)]


def _authorized(request: ApiRequest) -> None:
    require(
        request.headers.get("authorization") == f"Bearer {ACCESS_TOKEN}",
        _error(401, "UNAUTHENTICATED", "Request had invalid authentication credentials."),
    )


def _location(request: ApiRequest) -> None:
    _authorized(request)
    where = f"accounts/{request.params['account']}/locations/{request.params['location']}"
    require(
        not where.endswith(RATE_LIMITED), _error(429, "RESOURCE_EXHAUSTED", "Quota exceeded.", **{"Retry-After": "30"})
    )
    require(where == PARENT, _error(404, "NOT_FOUND", "Requested entity was not found."))


def _page(request: ApiRequest, rows: list[dict[str, Any]], name: str, most: int) -> ApiReply:
    size = request.query.get("pageSize") or str(most)
    require(
        size.isdigit() and 0 < int(size) <= most,
        _error(400, "INVALID_ARGUMENT", "Request contains an invalid argument."),
    )
    start = int(request.query.get("pageToken", "p0")[1:] or 0)
    end = start + min(int(size), PAGE)
    body: dict[str, Any] = {name: rows[start:end]}
    if name == "reviews":
        body.update({"averageRating": 4.2, "totalReviewCount": len(rows)})
    if end < len(rows):
        body["nextPageToken"] = f"p{end}"
    return ApiReply(body=body)


def list_posts(request: ApiRequest) -> ApiReply:
    _location(request)
    return _page(request, POSTS, "localPosts", 100)


def create_post(request: ApiRequest) -> ApiReply:
    _location(request)
    body = request.body if isinstance(request.body, dict) else {}
    require(bool(body.get("summary")), _error(400, "INVALID_ARGUMENT", "Request contains an invalid argument."))
    created = {**_post(9, str(body["summary"]), str(body.get("topicType") or "STANDARD")), **body}
    created["name"] = f"{PARENT}/localPosts/900"
    return ApiReply(body=created)


def _known_post(request: ApiRequest) -> dict[str, Any]:
    _location(request)
    name = f"{PARENT}/localPosts/{request.params['post']}"
    found = next((p for p in POSTS if p["name"] == name), None)
    require(found is not None, _error(404, "NOT_FOUND", "Requested entity was not found."))
    assert found is not None
    return found


def get_post(request: ApiRequest) -> ApiReply:
    return ApiReply(body=_known_post(request))


def update_post(request: ApiRequest) -> ApiReply:
    post = _known_post(request)
    mask = request.query.get("updateMask")
    require(bool(mask), _error(400, "INVALID_ARGUMENT", "Request contains an invalid argument."))
    body = request.body if isinstance(request.body, dict) else {}
    return ApiReply(body={**post, **body, "updateTime": "2025-03-10T09:00:00.000Z"})


def delete_post(request: ApiRequest) -> ApiReply:
    _known_post(request)
    return ApiReply(body={})


def list_reviews(request: ApiRequest) -> ApiReply:
    _location(request)
    return _page(request, REVIEWS, "reviews", 50)


def _known_review(request: ApiRequest) -> dict[str, Any]:
    _location(request)
    found = next((r for r in REVIEWS if r["reviewId"] == request.params["review"]), None)
    require(found is not None, _error(404, "NOT_FOUND", "Requested entity was not found."))
    assert found is not None
    return found


def get_review(request: ApiRequest) -> ApiReply:
    return ApiReply(body=_known_review(request))


def reply(request: ApiRequest) -> ApiReply:
    _known_review(request)
    body = request.body if isinstance(request.body, dict) else {}
    require(bool(body.get("comment")), _error(400, "INVALID_ARGUMENT", "Request contains an invalid argument."))
    return ApiReply(body={"comment": body["comment"], "updateTime": "2025-03-10T09:00:00.000Z"})


def delete_reply(request: ApiRequest) -> ApiReply:
    _known_review(request)
    return ApiReply(body={})


def install(server: FakeApiServer) -> None:
    base = r"/v4/accounts/(?P<account>[^/]+)/locations/(?P<location>[^/]+)"
    server.route("GET", base + r"/localPosts", list_posts, host=HOST)
    server.route("POST", base + r"/localPosts", create_post, host=HOST)
    server.route("GET", base + r"/localPosts/(?P<post>[^/]+)", get_post, host=HOST)
    server.route("PATCH", base + r"/localPosts/(?P<post>[^/]+)", update_post, host=HOST)
    server.route("DELETE", base + r"/localPosts/(?P<post>[^/]+)", delete_post, host=HOST)
    server.route("GET", base + r"/reviews", list_reviews, host=HOST)
    server.route("GET", base + r"/reviews/(?P<review>[^/]+)", get_review, host=HOST)
    server.route("PUT", base + r"/reviews/(?P<review>[^/]+)/reply", reply, host=HOST)
    server.route("DELETE", base + r"/reviews/(?P<review>[^/]+)/reply", delete_reply, host=HOST)
