"""A fake GitHub REST API on ``api.github.com``, as GitHub answers: ``token``/``Bearer`` auth, GitHub's error
bodies (``{"message", "documentation_url", "status"}``), lists in pages (``page``/``per_page``, at most
:data:`PAGE` entries here) with a ``Link`` header naming the ``next`` page, and 429 with ``Retry-After`` for the
owner ``rate-limited``. Seeded data only: the repository ``weft-org/engine`` with issues, files, releases and a
pull request's reviews. Writes answer as GitHub does, built from the request, and change nothing, so every run
answers the same.

This module holds the repository's own endpoints (metadata, license, traffic, Actions workflows) and the route
table; the other resources live in ``_github_issues``, ``_github_contents``, ``_github_releases``,
``_github_pulls`` and ``_github_accounts``, on the seed data of ``_github_data``."""

from __future__ import annotations

import base64

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, require
from weft.testing.saas._github_accounts import invite, me, org_members, user_repos
from weft.testing.saas._github_common import (
    API,
    HOST,
    OAUTH_TOKEN,
    OWNER,
    PAGE,
    REPO,
    TIME,
    TOKEN,
    authorized,
    error,
    fields,
    not_found,
    repo_of,
)
from weft.testing.saas._github_contents import delete_contents, get_contents, put_contents
from weft.testing.saas._github_data import REPOS, sha
from weft.testing.saas._github_data import file_content as _file  # noqa: F401  (tests read a seeded file's sha)
from weft.testing.saas._github_issues import (
    comment_issue,
    create_issue,
    edit_comment,
    edit_issue,
    get_issue,
    list_issues,
    lock_issue,
)
from weft.testing.saas._github_pulls import (
    create_pull,
    create_review,
    get_pull,
    get_review,
    list_pulls,
    list_reviews,
    merge_pull,
    update_pull,
    update_review,
)
from weft.testing.saas._github_releases import (
    create_release,
    delete_release,
    get_release,
    list_releases,
    update_release,
)


def root(request: ApiRequest) -> ApiReply:
    authorized(request)
    return ApiReply(body={"current_user_url": f"{API}/user", "repository_url": f"{API}/repos/{{owner}}/{{repo}}"})


def get_repo(request: ApiRequest) -> ApiReply:
    repo_of(request)
    return ApiReply(body=REPOS[0])


def get_license(request: ApiRequest) -> ApiReply:
    repo_of(request)
    text = base64.b64encode(b"Apache License\nVersion 2.0\n").decode()
    return ApiReply(body={"name": "LICENSE", "path": "LICENSE", "sha": sha("LICENSE"), "type": "file",
                          "content": text, "encoding": "base64", "license": REPOS[0]["license"]})  # fmt: skip


def traffic(request: ApiRequest) -> ApiReply:
    repo_of(request)
    if request.params["kind"] == "paths":
        rows = [{"path": f"/{OWNER}/{REPO}", "title": "weft-org/engine", "count": 120, "uniques": 40}]
    else:
        rows = [{"referrer": "news.ycombinator.com", "count": 80, "uniques": 50}, {"referrer": "github.com",
                 "count": 30, "uniques": 12}]  # fmt: skip
    return ApiReply(body=rows)


def list_workflows(request: ApiRequest) -> ApiReply:
    repo_of(request)
    flow = {"id": 161335, "node_id": "W_kwDO", "name": "CI", "path": ".github/workflows/ci.yml", "state": "active",
            "created_at": TIME, "updated_at": TIME}  # fmt: skip
    return ApiReply(body={"total_count": 1, "workflows": [flow]})


def dispatch(request: ApiRequest) -> ApiReply:
    repo_of(request)
    require(request.params["id"] in ("161335", "ci.yml"), not_found())
    require(
        bool(fields(request).get("ref")),
        error(422, "Invalid request.\n\nFor 'links/0/schema', nil is not an object."),
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


__all__ = ["HOST", "OAUTH_TOKEN", "OWNER", "PAGE", "REPO", "TOKEN", "install"]
