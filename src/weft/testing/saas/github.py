"""A fake GitHub REST API on ``api.github.com``, as GitHub answers: ``token``/``Bearer`` auth, GitHub's error
bodies (``{"message", "documentation_url", "status"}``), lists in pages (``page``/``per_page``, at most
:data:`PAGE` entries here) with a ``Link`` header naming the ``next`` page, and 429 with ``Retry-After`` for the
owner ``rate-limited``. Seeded data only: the repository ``weft-org/engine`` with issues, files, releases and a
pull request's reviews. Writes answer as GitHub does, built from the request, and change nothing, so every run
answers the same."""

from __future__ import annotations

import base64
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require

HOST = "api.github.com"
TOKEN = "ghp_weftFakeToken0001"
OAUTH_TOKEN = "gho_weftFakeOauth0001"
OWNER = "weft-org"
REPO = "engine"
PAGE = 3
API = f"https://{HOST}"
DOCS = "https://docs.github.com/rest"
_TIME = "2024-05-01T10:00:00Z"


def _error(status: int, message: str, docs: str = DOCS, **headers: str) -> ApiReply:
    return json_error(status, {"message": message, "documentation_url": docs, "status": str(status)}, **headers)


def _not_found() -> ApiReply:
    return _error(404, "Not Found")


def _user(login: str, number: int) -> dict[str, Any]:
    return {"login": login, "id": 1000 + number, "type": "User", "site_admin": False,
            "html_url": f"https://github.com/{login}", "url": f"{API}/users/{login}"}  # fmt: skip


USERS = {name: _user(name, n) for n, name in enumerate(("octo-ada", "octo-alan", "octo-grace", "weft-bot"))}


def _label(name: str, color: str) -> dict[str, Any]:
    return {"id": 2000 + len(name), "name": name, "color": color, "default": False, "description": None}


def _issue(
    number: int, title: str, state: str = "open", labels: tuple[str, ...] = (), login: str = "octo-ada"
) -> dict[str, Any]:
    return {
        "url": f"{API}/repos/{OWNER}/{REPO}/issues/{number}",
        "html_url": f"https://github.com/{OWNER}/{REPO}/issues/{number}",
        "id": 5000 + number,
        "number": number,
        "title": title,
        "user": USERS[login],
        "labels": [_label(name, "d73a4a" if name == "bug" else "a2eeef") for name in labels],
        "state": state,
        "locked": False,
        "assignees": [],
        "comments": number % 3,
        "created_at": f"2024-04-{number:02d}T09:00:00Z",
        "updated_at": f"2024-04-{number:02d}T12:00:00Z",
        "closed_at": None if state == "open" else f"2024-04-{number:02d}T15:00:00Z",
        "body": f"Details of issue {number}.",
    }


ISSUES = [
    _issue(1, "Expressions lose precision", labels=("bug",)),
    _issue(2, "Add a Trello node", labels=("enhancement",), login="octo-alan"),
    _issue(3, "Crash on empty input", "closed", ("bug",)),
    _issue(4, "Docs: recorded cases", login="octo-grace"),
    _issue(5, "Binary data in queue mode", labels=("bug",), login="octo-alan"),
    _issue(6, "Retry on 429", "closed", login="weft-bot"),
    _issue(7, "Support GitHub App auth", labels=("enhancement",)),
]

FILES = {
    "README.md": "# Weft\n\nRuns n8n workflows.\n",
    "docs/usage.md": "Usage: weft start\n",
    "docs/nodes.md": "Nodes: 400\n",
}


def _sha(path: str) -> str:
    return (path.encode().hex() + "0" * 40)[:40]


def _file(path: str) -> dict[str, Any]:
    content = base64.b64encode(FILES[path].encode()).decode()
    return {**_entry(path, "file"), "size": len(FILES[path]), "encoding": "base64", "content": content}


def _entry(path: str, kind: str) -> dict[str, Any]:
    url = f"{API}/repos/{OWNER}/{REPO}/contents/{path}?ref=main"
    return {"name": path.rsplit("/", 1)[-1], "path": path, "sha": _sha(path), "size": 0, "url": url,
            "html_url": f"https://github.com/{OWNER}/{REPO}/blob/main/{path}", "type": kind}  # fmt: skip


def _release(number: int, tag: str, draft: bool = False) -> dict[str, Any]:
    return {
        "url": f"{API}/repos/{OWNER}/{REPO}/releases/{9000 + number}",
        "id": 9000 + number,
        "tag_name": tag,
        "target_commitish": "main",
        "name": f"Weft {tag}",
        "draft": draft,
        "prerelease": False,
        "author": USERS["weft-bot"],
        "created_at": f"2024-0{number}-01T08:00:00Z",
        "published_at": None if draft else f"2024-0{number}-01T09:00:00Z",
        "body": f"Release notes of {tag}.",
    }


RELEASES = [_release(4, "v0.4.0"), _release(3, "v0.3.0"), _release(2, "v0.2.0"), _release(1, "v0.1.0")]


def _review(number: int, state: str, body: str, login: str) -> dict[str, Any]:
    return {"id": 80 + number, "user": USERS[login], "body": body, "state": state, "commit_id": "c0ffee" * 6 + "c0ff",
            "pull_request_url": f"{API}/repos/{OWNER}/{REPO}/pulls/7", "submitted_at": _TIME}  # fmt: skip


REVIEWS = [_review(1, "APPROVED", "Looks good.", "octo-grace"), _review(2, "COMMENTED", "One nit.", "octo-alan")]


def _repo(name: str, number: int, owner: str = OWNER) -> dict[str, Any]:
    return {
        "id": 700 + number,
        "name": name,
        "full_name": f"{owner}/{name}",
        "private": False,
        "owner": {"login": owner, "id": 42, "type": "Organization"},
        "html_url": f"https://github.com/{owner}/{name}",
        "description": f"The {name} repository",
        "fork": False,
        "default_branch": "main",
        "stargazers_count": 10 * number,
        "open_issues_count": number,
        "created_at": "2023-01-01T00:00:00Z",
        "license": {"key": "apache-2.0", "name": "Apache License 2.0", "spdx_id": "Apache-2.0"},
    }


REPOS = [_repo(REPO, 1), _repo("docs", 2), _repo("recordings", 3), _repo("website", 4), _repo("bench", 5)]


def _authorized(request: ApiRequest) -> None:
    given = request.headers.get("authorization")
    require(given in (f"token {TOKEN}", f"Bearer {OAUTH_TOKEN}"), _error(401, "Bad credentials"))


def _owner(request: ApiRequest) -> str:
    owner = request.params.get("owner", "")
    if owner == "rate-limited":
        docs = "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"
        headers = {"Retry-After": "60", "x-ratelimit-remaining": "0"}
        require(False, _error(429, "API rate limit exceeded for user ID 1001.", docs, **headers))
    return owner


def _repo_of(request: ApiRequest) -> None:
    _authorized(request)
    _owner(request)
    require(request.params.get("owner") == OWNER and request.params.get("repo") == REPO, _not_found())


def _page(request: ApiRequest, rows: list[Any]) -> ApiReply:
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


def root(request: ApiRequest) -> ApiReply:
    _authorized(request)
    return ApiReply(body={"current_user_url": f"{API}/user", "repository_url": f"{API}/repos/{{owner}}/{{repo}}"})


def me(request: ApiRequest) -> ApiReply:
    _authorized(request)
    return ApiReply(body={**USERS["weft-bot"], "name": "Weft Bot"})


def get_repo(request: ApiRequest) -> ApiReply:
    _repo_of(request)
    return ApiReply(body=REPOS[0])


def get_license(request: ApiRequest) -> ApiReply:
    _repo_of(request)
    text = base64.b64encode(b"Apache License\nVersion 2.0\n").decode()
    return ApiReply(body={"name": "LICENSE", "path": "LICENSE", "sha": _sha("LICENSE"), "type": "file",
                          "content": text, "encoding": "base64", "license": REPOS[0]["license"]})  # fmt: skip


def traffic(request: ApiRequest) -> ApiReply:
    _repo_of(request)
    if request.params["kind"] == "paths":
        rows = [{"path": f"/{OWNER}/{REPO}", "title": "weft-org/engine", "count": 120, "uniques": 40}]
    else:
        rows = [{"referrer": "news.ycombinator.com", "count": 80, "uniques": 50}, {"referrer": "github.com",
                 "count": 30, "uniques": 12}]  # fmt: skip
    return ApiReply(body=rows)


def list_issues(request: ApiRequest) -> ApiReply:
    _repo_of(request)
    q = request.query
    state = q.get("state") or "open"
    found = [i for i in ISSUES if state == "all" or i["state"] == state]
    for label in [x for x in (q.get("labels") or "").split(",") if x]:
        found = [i for i in found if label in [lab["name"] for lab in i["labels"]]]
    if q.get("creator"):
        found = [i for i in found if i["user"]["login"] == q["creator"]]
    found = sorted(found, key=lambda i: i["number"], reverse=(q.get("direction") or "desc") == "desc")
    return _page(request, found)


def _fields(request: ApiRequest) -> dict[str, Any]:
    return request.body if isinstance(request.body, dict) else {}


def _validation(resource: str, field: str) -> ApiReply:
    body = {"message": "Validation Failed", "errors": [{"resource": resource, "code": "missing_field",
            "field": field}], "documentation_url": DOCS, "status": "422"}  # fmt: skip
    return json_error(422, body)


def create_issue(request: ApiRequest) -> ApiReply:
    _repo_of(request)
    body = _fields(request)
    require(bool(body.get("title")), _validation("Issue", "title"))
    issue = _issue(8, str(body["title"]), login="weft-bot")
    issue.update(body=body.get("body"), labels=[_label(str(n), "ededed") for n in body.get("labels") or []])
    issue["assignees"] = [USERS.get(str(a), _user(str(a), 9)) for a in body.get("assignees") or []]
    return ApiReply(status=201, body=issue)


def _issue_of(request: ApiRequest) -> dict[str, Any]:
    _repo_of(request)
    found = next((i for i in ISSUES if str(i["number"]) == request.params["number"]), None)
    require(found is not None, _not_found())
    return dict(found or {})


def get_issue(request: ApiRequest) -> ApiReply:
    return ApiReply(body=_issue_of(request))


def edit_issue(request: ApiRequest) -> ApiReply:
    issue = _issue_of(request)
    body = _fields(request)
    issue.update({k: body[k] for k in ("title", "body", "state") if k in body})
    if "labels" in body:
        issue["labels"] = [_label(str(n), "ededed") for n in body["labels"]]
    if "assignees" in body:
        issue["assignees"] = [USERS.get(str(a), _user(str(a), 9)) for a in body["assignees"]]
    issue["updated_at"] = _TIME
    return ApiReply(body=issue)


def comment_issue(request: ApiRequest) -> ApiReply:
    issue = _issue_of(request)
    body = _fields(request)
    require(bool(body.get("body")), _validation("IssueComment", "body"))
    comment = {"id": 3100 + issue["number"], "issue_url": issue["url"], "user": USERS["weft-bot"],
               "body": body["body"], "created_at": _TIME, "updated_at": _TIME}  # fmt: skip
    return ApiReply(status=201, body=comment)


def lock_issue(request: ApiRequest) -> ApiReply:
    _issue_of(request)
    reason = request.query.get("lock_reason") or (_fields(request).get("lock_reason"))
    valid = (None, "off-topic", "too heated", "resolved", "spam")
    require(reason in valid, _validation("Issue", "lock_reason"))
    return ApiReply(status=204)


def get_contents(request: ApiRequest) -> ApiReply:
    _repo_of(request)
    path = request.params["path"].strip("/")
    if path in FILES:
        return ApiReply(body=_file(path))
    inside = sorted(p for p in FILES if ("/" in p and p.rsplit("/", 1)[0] == path) or (not path and "/" not in p))
    dirs = sorted({p.split("/")[0] for p in FILES if "/" in p}) if not path else []
    require(bool(inside or dirs), _not_found())
    return ApiReply(body=[_entry(d, "dir") for d in dirs] + [_entry(p, "file") for p in inside])


def _commit(path: str, message: str) -> dict[str, Any]:
    return {"sha": "c0ffee" + _sha(path)[6:], "message": message, "author": {"name": "Weft Bot", "date": _TIME},
            "html_url": f"https://github.com/{OWNER}/{REPO}/commit/c0ffee"}  # fmt: skip


def put_contents(request: ApiRequest) -> ApiReply:
    _repo_of(request)
    path, body = request.params["path"], _fields(request)
    require(bool(body.get("message")), _validation("Commit", "message"))
    require(isinstance(body.get("content"), str), _validation("Commit", "content"))
    if path in FILES:
        missing = _error(422, 'Invalid request.\n\n"sha" wasn\'t supplied.')
        require("sha" in body, missing)
        require(body["sha"] == _sha(path), _error(409, f"{path} does not match {body['sha']}"))
    content = base64.b64decode(str(body["content"]))
    entry = {**_entry(path, "file"), "size": len(content), "sha": _sha(path + str(len(content)))}
    return ApiReply(
        status=200 if path in FILES else 201, body={"content": entry, "commit": _commit(path, body["message"])}
    )


def delete_contents(request: ApiRequest) -> ApiReply:
    _repo_of(request)
    path, body = request.params["path"], _fields(request)
    require(path in FILES, _not_found())
    require(body.get("sha") == _sha(path), _error(409, f"{path} does not match {body.get('sha')}"))
    return ApiReply(body={"content": None, "commit": _commit(path, str(body.get("message")))})


def list_releases(request: ApiRequest) -> ApiReply:
    _repo_of(request)
    return _page(request, RELEASES)


def _release_of(request: ApiRequest) -> dict[str, Any]:
    _repo_of(request)
    found = next((r for r in RELEASES if str(r["id"]) == request.params["id"]), None)
    require(found is not None, _not_found())
    return dict(found or {})


def get_release(request: ApiRequest) -> ApiReply:
    return ApiReply(body=_release_of(request))


def create_release(request: ApiRequest) -> ApiReply:
    _repo_of(request)
    body = _fields(request)
    require(bool(body.get("tag_name")), _validation("Release", "tag_name"))
    release = _release(5, str(body["tag_name"]), bool(body.get("draft")))
    release.update({k: body[k] for k in ("name", "body", "prerelease", "target_commitish") if k in body})
    return ApiReply(status=201, body=release)


def update_release(request: ApiRequest) -> ApiReply:
    release = _release_of(request)
    release.update(_fields(request))
    return ApiReply(body=release)


def delete_release(request: ApiRequest) -> ApiReply:
    _release_of(request)
    return ApiReply(status=204)


def _pull(request: ApiRequest) -> None:
    _repo_of(request)
    require(request.params["number"] == "7", _not_found())


def list_reviews(request: ApiRequest) -> ApiReply:
    _pull(request)
    return _page(request, REVIEWS)


def get_review(request: ApiRequest) -> ApiReply:
    _pull(request)
    found = next((r for r in REVIEWS if str(r["id"]) == request.params["id"]), None)
    require(found is not None, _not_found())
    return ApiReply(body=found)


def create_review(request: ApiRequest) -> ApiReply:
    _pull(request)
    body = _fields(request)
    event = body.get("event")
    states = {"APPROVE": "APPROVED", "REQUEST_CHANGES": "CHANGES_REQUESTED", "COMMENT": "COMMENTED", None: "PENDING"}
    require(event in states, _error(422, "Unprocessable Entity"))
    require(event not in ("REQUEST_CHANGES", "COMMENT") or bool(body.get("body")), _validation("Review", "body"))
    return ApiReply(body=_review(3, states[event], str(body.get("body") or ""), "weft-bot"))


def update_review(request: ApiRequest) -> ApiReply:
    found = get_review(request).body
    return ApiReply(body={**found, "body": _fields(request).get("body")})


def list_pulls(request: ApiRequest) -> ApiReply:
    _repo_of(request)
    pull = {"id": 6007, "number": 7, "state": "open", "title": "Trello node", "user": USERS["octo-alan"],
            "head": {"ref": "trello"}, "base": {"ref": "main"}, "draft": False}  # fmt: skip
    state = request.query.get("state") or "open"
    return _page(request, [pull] if state in ("open", "all") else [])


PULL: dict[str, Any] = {"id": 6007, "number": 7, "state": "open", "title": "Trello node", "body": "Adds Trello.",
        "draft": False, "merged": False, "head": {"ref": "trello"}, "base": {"ref": "main"}}  # fmt: skip
DIFF = "diff --git a/trello.py b/trello.py\nnew file mode 100644\n+print('trello')\n"


def get_pull(request: ApiRequest) -> ApiReply:
    _pull(request)
    accept = request.headers.get("accept", "")
    if accept.endswith((".diff", ".patch")):
        text = DIFF if accept.endswith(".diff") else "From c0ffee Mon Sep 17 00:00:00 2001\n" + DIFF
        return ApiReply(text=text, content_type="text/plain; charset=utf-8")
    return ApiReply(body={**PULL, "user": USERS["octo-alan"]})


def create_pull(request: ApiRequest) -> ApiReply:
    _repo_of(request)
    body = _fields(request)
    require(bool(body.get("title")) and bool(body.get("head")), _validation("PullRequest", "head"))
    pull = {**PULL, "id": 6008, "number": 8, "user": USERS["weft-bot"]}
    pull.update(title=body["title"], body=body.get("body"), draft=bool(body.get("draft")))
    pull.update(head={"ref": body["head"]}, base={"ref": body.get("base")})
    return ApiReply(status=201, body=pull)


def update_pull(request: ApiRequest) -> ApiReply:
    _pull(request)
    body = _fields(request)
    pull: dict[str, Any] = {**PULL, "user": USERS["octo-alan"]}
    pull.update({k: body[k] for k in ("title", "body", "state") if k in body})
    if "base" in body:
        pull["base"] = {"ref": body["base"]}
    return ApiReply(body=pull)


def merge_pull(request: ApiRequest) -> ApiReply:
    _pull(request)
    method = _fields(request).get("merge_method")
    require(method in ("merge", "squash", "rebase"), _validation("PullRequest", "merge_method"))
    return ApiReply(body={"sha": "6dcb09b5b57875f334f61aebed695e2e4193db5e", "merged": True,
                          "message": "Pull Request successfully merged"})  # fmt: skip


def edit_comment(request: ApiRequest) -> ApiReply:
    _repo_of(request)
    require(request.params["id"] == "3102", _not_found())
    comment = {"id": 3102, "user": USERS["weft-bot"], "body": _fields(request).get("body"), "updated_at": _TIME}
    return ApiReply(body=comment)


def user_repos(request: ApiRequest) -> ApiReply:
    _authorized(request)
    owner = _owner(request)
    require(owner in USERS or owner == OWNER, _not_found())
    return _page(request, [_repo(r["name"], n + 1, owner) for n, r in enumerate(REPOS)])


def org_members(request: ApiRequest) -> ApiReply:
    _authorized(request)
    require(_owner(request) == OWNER, _not_found())
    return _page(request, list(USERS.values()))


def invite(request: ApiRequest) -> ApiReply:
    _authorized(request)
    require(request.params["owner"] == OWNER, _not_found())
    email = _fields(request).get("email")
    require(isinstance(email, str) and "@" in email, _validation("OrganizationInvitation", "email"))
    return ApiReply(status=201, body={"id": 4401, "login": None, "email": email, "role": "direct_member",
                                      "created_at": _TIME, "inviter": USERS["weft-bot"]})  # fmt: skip


def list_workflows(request: ApiRequest) -> ApiReply:
    _repo_of(request)
    flow = {"id": 161335, "node_id": "W_kwDO", "name": "CI", "path": ".github/workflows/ci.yml", "state": "active",
            "created_at": _TIME, "updated_at": _TIME}  # fmt: skip
    return ApiReply(body={"total_count": 1, "workflows": [flow]})


def dispatch(request: ApiRequest) -> ApiReply:
    _repo_of(request)
    require(request.params["id"] in ("161335", "ci.yml"), _not_found())
    require(
        bool(_fields(request).get("ref")),
        _error(422, "Invalid request.\n\nFor 'links/0/schema', nil is not an object."),
    )
    return ApiReply(status=204)


def install(server: FakeApiServer) -> None:
    repo = r"/repos/(?P<owner>[^/]+)/(?P<repo>[^/]+)"
    routes = [
        ("GET", r"/?", root),
        ("GET", r"/user", me),
        ("GET", repo, get_repo),
        ("GET", repo + r"/license", get_license),
        ("GET", repo + r"/traffic/popular/(?P<kind>paths|referrers)", traffic),
        ("GET", repo + r"/issues", list_issues),
        ("POST", repo + r"/issues", create_issue),
        ("GET", repo + r"/issues/(?P<number>\d+)", get_issue),
        ("PATCH", repo + r"/issues/(?P<number>[^/]+)", edit_issue),
        ("GET", repo + r"/issues/(?P<number>[^/]+)", get_issue),
        ("POST", repo + r"/issues/(?P<number>[^/]+)/comments", comment_issue),
        ("PUT", repo + r"/issues/(?P<number>[^/]+)/lock", lock_issue),
        ("GET", repo + r"/contents/?(?P<path>.*)", get_contents),
        ("PUT", repo + r"/contents/(?P<path>.+)", put_contents),
        ("DELETE", repo + r"/contents/(?P<path>.+)", delete_contents),
        ("GET", repo + r"/releases", list_releases),
        ("POST", repo + r"/releases", create_release),
        ("GET", repo + r"/releases/(?P<id>[^/]+)", get_release),
        ("PATCH", repo + r"/releases/(?P<id>[^/]+)", update_release),
        ("DELETE", repo + r"/releases/(?P<id>[^/]+)", delete_release),
        ("GET", repo + r"/pulls", list_pulls),
        ("POST", repo + r"/pulls", create_pull),
        ("GET", repo + r"/pulls/(?P<number>[^/]+)", get_pull),
        ("PATCH", repo + r"/pulls/(?P<number>[^/]+)", update_pull),
        ("PUT", repo + r"/pulls/(?P<number>[^/]+)/merge", merge_pull),
        ("PATCH", repo + r"/issues/comments/(?P<id>[^/]+)", edit_comment),
        ("GET", repo + r"/pulls/(?P<number>[^/]+)/reviews", list_reviews),
        ("POST", repo + r"/pulls/(?P<number>[^/]+)/reviews", create_review),
        ("GET", repo + r"/pulls/(?P<number>[^/]+)/reviews/(?P<id>[^/]+)", get_review),
        ("PUT", repo + r"/pulls/(?P<number>[^/]+)/reviews/(?P<id>[^/]+)", update_review),
        ("GET", r"/users/(?P<owner>[^/]+)/repos", user_repos),
        ("GET", r"/orgs/(?P<owner>[^/]+)/repos", user_repos),
        ("GET", r"/orgs/(?P<owner>[^/]+)/members", org_members),
        ("POST", r"/orgs/(?P<owner>[^/]+)/invitations", invite),
        ("GET", repo + r"/actions/workflows", list_workflows),
        ("POST", repo + r"/actions/workflows/(?P<id>[^/]+)/dispatches", dispatch),
    ]
    for method, pattern, handler in routes:
        server.route(method, pattern, handler, host=HOST)


__all__ = ["HOST", "OAUTH_TOKEN", "OWNER", "REPO", "TOKEN", "install"]
