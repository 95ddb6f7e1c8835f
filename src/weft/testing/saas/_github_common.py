"""What every part of the fake GitHub API shares: its host and credentials, GitHub's error bodies
(``{"message", "documentation_url", "status"}``), the credential check, the ``rate-limited`` owner (429 with
``Retry-After``) and lists in pages with a ``Link`` header naming the ``next`` page."""

from __future__ import annotations

from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, json_error, require

HOST = "api.github.com"
TOKEN = "ghp_weftFakeToken0001"
OAUTH_TOKEN = "gho_weftFakeOauth0001"
OWNER = "weft-org"
REPO = "engine"
PAGE = 3
API = f"https://{HOST}"
DOCS = "https://docs.github.com/rest"
TIME = "2024-05-01T10:00:00Z"


def error(status: int, message: str, docs: str = DOCS, **headers: str) -> ApiReply:
    return json_error(status, {"message": message, "documentation_url": docs, "status": str(status)}, **headers)


def not_found() -> ApiReply:
    return error(404, "Not Found")


def validation(resource: str, field: str) -> ApiReply:
    body = {"message": "Validation Failed", "errors": [{"resource": resource, "code": "missing_field",
            "field": field}], "documentation_url": DOCS, "status": "422"}  # fmt: skip
    return json_error(422, body)


def authorized(request: ApiRequest) -> None:
    given = request.headers.get("authorization")
    require(given in (f"token {TOKEN}", f"Bearer {OAUTH_TOKEN}"), error(401, "Bad credentials"))


def owner_of(request: ApiRequest) -> str:
    owner = request.params.get("owner", "")
    if owner == "rate-limited":
        docs = "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"
        headers = {"Retry-After": "60", "x-ratelimit-remaining": "0"}
        require(False, error(429, "API rate limit exceeded for user ID 1001.", docs, **headers))
    return owner


def repo_of(request: ApiRequest) -> None:
    authorized(request)
    owner_of(request)
    require(request.params.get("owner") == OWNER and request.params.get("repo") == REPO, not_found())


def fields(request: ApiRequest) -> dict[str, Any]:
    return request.body if isinstance(request.body, dict) else {}


def page(request: ApiRequest, rows: list[Any]) -> ApiReply:
    """A page of ``rows`` (``per_page`` capped at :data:`PAGE`), with GitHub's ``Link`` header."""
    per_page = min(int(request.query.get("per_page") or 30), PAGE)
    page = int(request.query.get("page") or 1)
    chunk = rows[(page - 1) * per_page : page * per_page]
    links = []
    url = f"{API}{request.raw_path}?per_page={per_page}"
    if page * per_page < len(rows):
        last = (len(rows) + per_page - 1) // per_page
        links = [f'<{url}&page={page + 1}>; rel="next"', f'<{url}&page={last}>; rel="last"']
    return ApiReply(body=chunk, headers={"Link": ", ".join(links)} if links else {})
