"""The fake GitHub API's issues: list (by state, labels and creator, in pages), create, get, edit, comment on,
lock, and edit an issue comment. Writes answer from the request and change nothing."""

from __future__ import annotations

from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, require
from weft.testing.saas import _github_data as data
from weft.testing.saas._github_common import TIME, fields, not_found, page, repo_of, validation


def list_issues(request: ApiRequest) -> ApiReply:
    repo_of(request)
    q = request.query
    state = q.get("state") or "open"
    found = [i for i in data.ISSUES if state == "all" or i["state"] == state]
    for label in [x for x in (q.get("labels") or "").split(",") if x]:
        found = [i for i in found if label in [lab["name"] for lab in i["labels"]]]
    if q.get("creator"):
        found = [i for i in found if i["user"]["login"] == q["creator"]]
    found = sorted(found, key=lambda i: i["number"], reverse=(q.get("direction") or "desc") == "desc")
    return page(request, found)


def create_issue(request: ApiRequest) -> ApiReply:
    repo_of(request)
    body = fields(request)
    require(bool(body.get("title")), validation("Issue", "title"))
    issue = data.issue(8, str(body["title"]), login="weft-bot")
    issue.update(body=body.get("body"), labels=[data.label(str(n), "ededed") for n in body.get("labels") or []])
    issue["assignees"] = [data.USERS.get(str(a), data.user(str(a), 9)) for a in body.get("assignees") or []]
    return ApiReply(status=201, body=issue)


def _issue_of(request: ApiRequest) -> dict[str, Any]:
    repo_of(request)
    found = next((i for i in data.ISSUES if str(i["number"]) == request.params["number"]), None)
    require(found is not None, not_found())
    return dict(found or {})


def get_issue(request: ApiRequest) -> ApiReply:
    return ApiReply(body=_issue_of(request))


def edit_issue(request: ApiRequest) -> ApiReply:
    issue = _issue_of(request)
    body = fields(request)
    issue.update({k: body[k] for k in ("title", "body", "state") if k in body})
    if "labels" in body:
        issue["labels"] = [data.label(str(n), "ededed") for n in body["labels"]]
    if "assignees" in body:
        issue["assignees"] = [data.USERS.get(str(a), data.user(str(a), 9)) for a in body["assignees"]]
    issue["updated_at"] = TIME
    return ApiReply(body=issue)


def comment_issue(request: ApiRequest) -> ApiReply:
    issue = _issue_of(request)
    body = fields(request)
    require(bool(body.get("body")), validation("IssueComment", "body"))
    comment = {"id": 3100 + issue["number"], "issue_url": issue["url"], "user": data.USERS["weft-bot"],
               "body": body["body"], "created_at": TIME, "updated_at": TIME}  # fmt: skip
    return ApiReply(status=201, body=comment)


def lock_issue(request: ApiRequest) -> ApiReply:
    _issue_of(request)
    reason = request.query.get("lock_reason") or (fields(request).get("lock_reason"))
    valid = (None, "off-topic", "too heated", "resolved", "spam")
    require(reason in valid, validation("Issue", "lock_reason"))
    return ApiReply(status=204)


def edit_comment(request: ApiRequest) -> ApiReply:
    repo_of(request)
    require(request.params["id"] == "3102", not_found())
    comment = {"id": 3102, "user": data.USERS["weft-bot"], "body": fields(request).get("body"), "updated_at": TIME}
    return ApiReply(body=comment)
