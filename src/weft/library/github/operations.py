"""Each GitHub operation's request, as n8n's node builds it (method, endpoint, body, query, whether every page)."""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from weft.errors import NodeOperationError
from weft.library.github.transport import COMPONENT_SAFE, is_base64
from weft.nodes.contract import MISSING, ExecuteContext
from weft.nodes.routing.scope import RoutingScope
from weft.nodes.values import js_string


@dataclass
class Call:
    """One item's request."""

    method: str = "GET"
    endpoint: str = ""
    body: dict[str, Any] = field(default_factory=dict)
    qs: dict[str, Any] = field(default_factory=dict)
    return_all: bool = False
    sha_of: str | None = None
    """A file path whose SHA goes into the body first (file edit and delete)."""


@dataclass
class Item:
    """What an operation reads: the run's parameters for one item, and the owner and repository."""

    ctx: ExecuteContext
    scope: RoutingScope
    index: int
    owner: str
    repository: str

    def get(self, name: str, default: Any = MISSING, *, extract: bool = False) -> Any:
        return self.scope.parameter(name, self.index, default, extract_value=extract)

    @property
    def repo(self) -> str:
        return f"/repos/{self.owner}/{self.repository}"

    def limited(self, call: Call) -> Call:
        """``returnAll`` (read on the first item, as n8n does), else ``per_page`` = the limit."""
        call.return_all = bool(self.scope.parameter("returnAll", 0, False))
        if not call.return_all:
            call.qs["per_page"] = self.scope.parameter("limit", 0, 50)
        return call


def _path(item: Item) -> str:
    return re.sub(r"/+$", "", js_string(item.get("filePath")))


def _contents(item: Item, path: str) -> str:
    return f"{item.repo}/contents/{quote(path, safe=COMPONENT_SAFE)}"


def _commit_fields(item: Item, body: dict[str, Any]) -> None:
    extra = item.get("additionalParameters", {}) or {}
    for key in ("author", "committer"):
        if extra.get(key):
            body[key] = extra[key]
    branch = extra.get("branch")
    if isinstance(branch, dict) and branch.get("branch"):
        body["branch"] = branch["branch"]


async def _file_write(item: Item, operation: str) -> Call:
    path = _path(item)
    call = Call(method="PUT", endpoint=_contents(item, path))
    _commit_fields(item, call.body)
    if operation == "edit":
        call.sha_of = path
    call.body["message"] = item.get("commitMessage")
    if item.get("binaryData", False):
        data = await item.ctx.get_binary_data_buffer(item.index, item.get("binaryPropertyName", "data"))
        call.body["content"] = base64.b64encode(data).decode()
    else:
        content = js_string(item.get("fileContent", ""))
        call.body["content"] = content if is_base64(content) else base64.b64encode(content.encode()).decode()
    return call


async def file_call(item: Item, operation: str) -> Call:
    if operation in ("create", "edit"):
        return await _file_write(item, operation)
    path = _path(item)
    if operation == "delete":
        call = Call(method="DELETE", endpoint=_contents(item, path))
        _commit_fields(item, call.body)
        call.body["message"] = item.get("commitMessage")
        call.sha_of = path
        return call
    call = Call(endpoint=_contents(item, path))
    if operation == "get":
        reference = (item.get("additionalParameters", {}) or {}).get("reference")
        if reference:
            call.qs["ref"] = reference
    return call


def issue_call(item: Item, operation: str) -> Call:
    issues = f"{item.repo}/issues"
    if operation == "create":
        body = {"title": item.get("title"), "body": item.get("body")}
        body["labels"] = [entry.get("label") for entry in item.get("labels", []) or []]
        body["assignees"] = [entry.get("assignee") for entry in item.get("assignees", []) or []]
        return Call(method="POST", endpoint=issues, body=body)
    number = item.get("issueNumber")
    if operation == "createComment":
        return Call(method="POST", endpoint=f"{issues}/{number}/comments", body={"body": item.get("body")})
    if operation == "edit":
        body = dict(item.get("editFields", {}) or {})
        for key, inner in (("labels", "label"), ("assignees", "assignee")):
            if key in body:
                body[key] = [entry.get(inner) for entry in body[key] or []]
        return Call(method="PATCH", endpoint=f"{issues}/{number}", body=body)
    if operation == "lock":
        return Call(method="PUT", endpoint=f"{issues}/{number}/lock", qs={"lock_reason": item.get("lockReason")})
    return Call(endpoint=f"{issues}/{number}")


def release_call(item: Item, operation: str) -> Call:
    releases = f"{item.repo}/releases"
    if operation == "create":
        body = {**(item.get("additionalFields", {}) or {}), "tag_name": item.get("releaseTag")}
        return Call(method="POST", endpoint=releases, body=body)
    if operation == "getAll":
        return item.limited(Call(endpoint=releases))
    endpoint = f"{releases}/{item.get('release_id')}"
    if operation == "update":
        return Call(method="PATCH", endpoint=endpoint, body=dict(item.get("additionalFields", {}) or {}))
    return Call(method="DELETE" if operation == "delete" else "GET", endpoint=endpoint)


def repository_call(item: Item, operation: str) -> Call:
    paths = {
        "listPopularPaths": "/traffic/popular/paths",
        "listReferrers": "/traffic/popular/referrers",
        "get": "",
        "getLicense": "/license",
    }
    if operation in paths:
        return Call(endpoint=item.repo + paths[operation])
    if operation not in ("getIssues", "getPullRequests"):
        return Call()  # n8n sets no endpoint for "getProfile": it asks the server's root
    filters = "getRepositoryIssuesFilters" if operation == "getIssues" else "getRepositoryPullRequestsFilters"
    endpoint = f"{item.repo}/{'issues' if operation == 'getIssues' else 'pulls'}"
    return item.limited(Call(endpoint=endpoint, qs=dict(item.get(filters, {}) or {})))


def _snake_upper(text: str) -> str:
    """``snakeCase(text).toUpperCase()`` (``requestChanges`` -> ``REQUEST_CHANGES``)."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", text).upper()


def review_call(item: Item, operation: str) -> Call:
    reviews = f"{item.repo}/pulls/{item.get('pullRequestNumber')}/reviews"
    if operation == "getAll":
        return item.limited(Call(endpoint=reviews))
    if operation == "create":
        body = dict(item.get("additionalFields", {}) or {})
        body["event"] = _snake_upper(js_string(item.get("event")))
        if body["event"] in ("REQUEST_CHANGES", "COMMENT"):
            body["body"] = item.get("body")
        return Call(method="POST", endpoint=reviews, body=body)
    endpoint = f"{reviews}/{item.get('reviewId')}"
    if operation == "update":
        return Call(method="PUT", endpoint=endpoint, body={"body": item.get("body")})
    return Call(endpoint=endpoint)


def user_call(item: Item, operation: str) -> Call:
    if operation == "getRepositories":
        return item.limited(Call(endpoint=f"/users/{item.owner}/repos"))
    if operation == "getUserIssues":
        return item.limited(Call(endpoint="/issues", qs=dict(item.get("getUserIssuesFilters", {}) or {})))
    body = {"email": item.get("email")}
    return Call(method="POST", endpoint=f"/orgs/{item.get('organization')}/invitations", body=body)


def organization_call(item: Item, operation: str) -> Call:
    kind = "members" if operation == "getMembers" else "repos"
    return item.limited(Call(endpoint=f"/orgs/{item.owner}/{kind}"))


def workflow_call(item: Item, operation: str) -> Call:
    workflows = f"{item.repo}/actions/workflows"
    if operation == "list":
        return Call(endpoint=workflows)
    workflow = f"{workflows}/{item.get('workflowId', '', extract=True)}"
    if operation == "dispatch":
        inputs = json_inputs(item.ctx, item.get("inputs"), item.index)
        body = {"ref": item.get("ref", "", extract=True), "inputs": inputs}
        return Call(method="POST", endpoint=f"{workflow}/dispatches", body=body)
    suffix = {"disable": "/disable", "enable": "/enable", "getUsage": "/timing"}.get(operation, "")
    return Call(method="PUT" if operation in ("disable", "enable") else "GET", endpoint=workflow + suffix)


def json_inputs(ctx: ExecuteContext, text: Any, index: int) -> Any:
    """``validateJSON`` of the dispatch's inputs, or n8n's "Inputs: Invalid JSON"."""
    try:
        return json.loads(js_string(text))
    except ValueError:
        raise NodeOperationError(ctx.node.name, "Inputs: Invalid JSON", item_index=index) from None


def pull_request_call(item: Item, operation: str) -> Call:
    pulls = f"{item.repo}/pulls"
    if operation == "create":
        body = {"title": item.get("title"), "body": item.get("body", ""), "head": item.get("head")}
        body.update({"base": item.get("base"), "draft": item.get("draft", False)})
        return Call(method="POST", endpoint=pulls, body=body)
    if operation == "editComment":
        endpoint = f"{item.repo}/issues/comments/{item.get('commentId')}"
        return Call(method="PATCH", endpoint=endpoint, body={"body": item.get("body")})
    number = item.get("pullRequestNumber")
    if operation == "createComment":
        return Call(method="POST", endpoint=f"{item.repo}/issues/{number}/comments", body={"body": item.get("body")})
    if operation == "update":
        fields = item.get("editFields", {}) or {}
        body = {key: fields[key] for key in ("title", "body", "state", "base") if key in fields}
        return Call(method="PATCH", endpoint=f"{pulls}/{number}", body=body)
    if operation in ("close", "reopen"):
        state = "closed" if operation == "close" else "open"
        return Call(method="PATCH", endpoint=f"{pulls}/{number}", body={"state": state})
    if operation == "merge":
        body = {}
        for key, name in (("commit_title", "commitTitle"), ("commit_message", "commitMessage")):
            value = js_string(item.get(name, "")).strip()
            if value:
                body[key] = value
        body["merge_method"] = item.get("mergeMethod", "merge")
        return Call(method="PUT", endpoint=f"{pulls}/{number}/merge", body=body)
    return Call(endpoint=f"{pulls}/{number}")


BUILDERS: dict[str, Callable[[Item, str], Call]] = {
    "issue": issue_call,
    "release": release_call,
    "repository": repository_call,
    "review": review_call,
    "user": user_call,
    "organization": organization_call,
    "workflow": workflow_call,
    "pullRequest": pull_request_call,
}

__all__ = ["BUILDERS", "Call", "Item", "file_call", "json_inputs"]
