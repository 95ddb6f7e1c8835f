"""The fake GitHub API's pull requests and their reviews: list, get (JSON, or the diff/patch by ``Accept``),
create, update and merge pull request 7; list, get, create and update its reviews. Writes answer from the request
and change nothing."""

from __future__ import annotations

from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, require
from weft.testing.saas._github_common import error, fields, not_found, page, repo_of, validation
from weft.testing.saas._github_data import DIFF, PULL, REVIEWS, USERS, review


def _pull(request: ApiRequest) -> None:
    repo_of(request)
    require(request.params["number"] == "7", not_found())


def list_pulls(request: ApiRequest) -> ApiReply:
    repo_of(request)
    pull = {"id": 6007, "number": 7, "state": "open", "title": "Trello node", "user": USERS["octo-alan"],
            "head": {"ref": "trello"}, "base": {"ref": "main"}, "draft": False}  # fmt: skip
    state = request.query.get("state") or "open"
    return page(request, [pull] if state in ("open", "all") else [])


def get_pull(request: ApiRequest) -> ApiReply:
    _pull(request)
    accept = request.headers.get("accept", "")
    if accept.endswith((".diff", ".patch")):
        text = DIFF if accept.endswith(".diff") else "From c0ffee Mon Sep 17 00:00:00 2001\n" + DIFF
        return ApiReply(text=text, content_type="text/plain; charset=utf-8")
    return ApiReply(body={**PULL, "user": USERS["octo-alan"]})


def create_pull(request: ApiRequest) -> ApiReply:
    repo_of(request)
    body = fields(request)
    require(bool(body.get("title")) and bool(body.get("head")), validation("PullRequest", "head"))
    pull = {**PULL, "id": 6008, "number": 8, "user": USERS["weft-bot"]}
    pull.update(title=body["title"], body=body.get("body"), draft=bool(body.get("draft")))
    pull.update(head={"ref": body["head"]}, base={"ref": body.get("base")})
    return ApiReply(status=201, body=pull)


def update_pull(request: ApiRequest) -> ApiReply:
    _pull(request)
    body = fields(request)
    pull: dict[str, Any] = {**PULL, "user": USERS["octo-alan"]}
    pull.update({k: body[k] for k in ("title", "body", "state") if k in body})
    if "base" in body:
        pull["base"] = {"ref": body["base"]}
    return ApiReply(body=pull)


def merge_pull(request: ApiRequest) -> ApiReply:
    _pull(request)
    method = fields(request).get("merge_method")
    require(method in ("merge", "squash", "rebase"), validation("PullRequest", "merge_method"))
    return ApiReply(body={"sha": "6dcb09b5b57875f334f61aebed695e2e4193db5e", "merged": True,
                          "message": "Pull Request successfully merged"})  # fmt: skip


def list_reviews(request: ApiRequest) -> ApiReply:
    _pull(request)
    return page(request, REVIEWS)


def get_review(request: ApiRequest) -> ApiReply:
    _pull(request)
    found = next((r for r in REVIEWS if str(r["id"]) == request.params["id"]), None)
    require(found is not None, not_found())
    return ApiReply(body=found)


def create_review(request: ApiRequest) -> ApiReply:
    _pull(request)
    body = fields(request)
    event = body.get("event")
    states = {"APPROVE": "APPROVED", "REQUEST_CHANGES": "CHANGES_REQUESTED", "COMMENT": "COMMENTED", None: "PENDING"}
    require(event in states, error(422, "Unprocessable Entity"))
    require(event not in ("REQUEST_CHANGES", "COMMENT") or bool(body.get("body")), validation("Review", "body"))
    return ApiReply(body=review(3, states[event], str(body.get("body") or ""), "weft-bot"))


def update_review(request: ApiRequest) -> ApiReply:
    found = get_review(request).body
    return ApiReply(body={**found, "body": fields(request).get("body")})
