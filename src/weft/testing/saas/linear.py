"""A fake of Linear's GraphQL API (``POST https://api.linear.app/graphql``) for the Linear node.

Answers the documents n8n's Linear node sends, told apart by their root field (``issueCreate``, ``issues (``,
``issue(``, ...). Seeded with 60 fixed issues ``issue-1`` .. ``issue-60``; writes answer without changing them.
An unknown issue id answers HTTP 200 with Linear's GraphQL ``errors`` body (``Entity not found``). Auth: the API key
in ``Authorization`` as is (``linearApi``) or ``Bearer <token>`` (``linearOAuth2Api``).
"""

from __future__ import annotations

from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require

HOST = "api.linear.app"
TOKENS = ("lin_api_weft_test", "Bearer lin_oauth_weft_test")
COUNT = 60


def _issue(n: int, **changes: Any) -> dict[str, Any]:
    user = {"id": "user-1", "displayName": "ada", "email": "ada@weft.example"}
    issue = {
        "id": f"issue-{n}", "identifier": f"ENG-{n}", "title": f"Issue {n}", "priority": n % 5, "archivedAt": None,
        "assignee": user, "state": {"id": "state-todo", "name": "Todo"}, "createdAt": "2026-01-01T00:00:00.000Z",
        "creator": user, "team": {"id": "team-eng", "name": "Engineering"}, "description": f"Description {n}",
        "dueDate": None, "cycle": None,
    }  # fmt: skip
    issue.update(changes)
    return issue


def _not_found() -> ApiReply:
    error = {
        "message": "Entity not found",
        "locations": [{"line": 2, "column": 5}],
        "path": ["issue"],
        "extensions": {"type": "invalid input", "code": "INPUT_ERROR", "userError": True,
                       "userPresentableMessage": "Could not find referenced Issue."},
    }  # fmt: skip
    return ApiReply(body={"errors": [error], "data": None})


def _known(issue_id: Any) -> int | None:
    text = str(issue_id or "")
    for prefix in ("issue-", "ENG-"):
        if text.startswith(prefix) and text[len(prefix) :].isdigit() and 1 <= int(text[len(prefix) :]) <= COUNT:
            return int(text[len(prefix) :])
    return None


def _issues(variables: dict[str, Any]) -> ApiReply:
    first = int(variables.get("first") or 50)
    start = int(str(variables.get("after") or "c0")[1:])
    end = min(start + first, COUNT)
    nodes = [_issue(n) for n in range(start + 1, end + 1)]
    page = {"hasNextPage": end < COUNT, "endCursor": f"c{end}"}
    return ApiReply(body={"data": {"issues": {"nodes": nodes, "pageInfo": page}}})


def _write(query: str, variables: dict[str, Any]) -> ApiReply:
    if "issueCreate" in query:
        fields = {k: variables[k] for k in ("title", "description") if variables.get(k) is not None}
        if variables.get("priorityId") is not None:
            fields["priority"] = variables["priorityId"]
        return ApiReply(body={"data": {"issueCreate": {"success": True, "issue": _issue(101, **fields)}}})
    n = _known(variables.get("issueId"))
    if n is None:
        return _not_found()
    if "issueDelete" in query:
        return ApiReply(body={"data": {"issueDelete": {"success": True}}})
    if "issueUpdate" in query:
        fields = {k: variables[k] for k in ("title", "description") if variables.get(k) is not None}
        return ApiReply(body={"data": {"issueUpdate": {"success": True, "issue": _issue(n, **fields)}}})
    if "attachmentLinkURL" in query:
        return ApiReply(body={"data": {"attachmentLinkURL": {"success": True}}})
    if "commentCreate" in query:
        return ApiReply(body={"data": {"commentCreate": {"success": True, "comment": {"id": f"comment-{n}"}}}})
    return ApiReply(body={"data": {"issue": _issue(n)}})


def _graphql(request: ApiRequest) -> ApiReply:
    auth = request.headers.get("authorization", "")
    unauthorized = {"errors": [{"message": "Authentication required, not authenticated",
                                "extensions": {"code": "AUTHENTICATION_ERROR"}}]}  # fmt: skip
    require(auth in TOKENS, json_error(400, unauthorized))
    body = request.body if isinstance(request.body, dict) else {}
    query = str(body.get("query") or "")
    variables = body.get("variables") if isinstance(body.get("variables"), dict) else {}
    if "issues (first" in query:
        return _issues(variables or {})
    return _write(query, variables or {})


def install(server: FakeApiServer) -> None:
    server.route("POST", r"/graphql", _graphql, host=HOST)


__all__ = ["HOST", "TOKENS", "install"]
