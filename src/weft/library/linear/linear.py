"""The Linear node (``n8n-nodes-base.linear`` 1, 1.1): n8n's ``Linear.execute`` over Linear's GraphQL endpoint.

Issues: create, get, getAll (``first``/``after`` cursor pages), update, delete, addLink; comments: addComment.
A GraphQL ``errors`` answer raises ``NodeApiError`` with the first error's message (its
``userPresentableMessage`` as description). Under "continue" a failed item outputs ``{error: <message>}``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeApiError, NodeError
from weft.library.linear.queries import QUERIES
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import Item, NodeOutput

ENDPOINT = "https://api.linear.app/graphql"


async def linear_request(api: ApiRequests, body: dict[str, Any], index: int) -> Any:
    """``linearApiRequest``: POST the document; a GraphQL ``errors`` list becomes a ``NodeApiError``."""
    auth = api.ctx.get_node_parameter("authentication", 0, "apiToken")
    kind = "linearApi" if auth == "apiToken" else "linearOAuth2Api"
    options = {"headers": {"Content-Type": "application/json"}, "method": "POST", "body": body, "url": ENDPOINT}
    answer = await api.request(kind, {**options, "json": True}, index)
    errors = answer.get("errors") if isinstance(answer, dict) else None
    if isinstance(errors, list) and errors:
        first = errors[0] if isinstance(errors[0], dict) else {}
        extensions = first.get("extensions") if isinstance(first.get("extensions"), dict) else {}
        raise NodeApiError(
            api.ctx.node.name,
            str(first.get("message") or "Unknown API error"),
            description=(extensions or {}).get("userPresentableMessage"),
        )
    return answer


def _path(value: Any, *keys: str) -> Any:
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return value


async def linear_all(api: ApiRequests, body: dict[str, Any], index: int, limit: int | None) -> list[Any]:
    """``linearApiRequestAllItems`` on ``data.issues``: pages until ``hasNextPage`` is false or the limit is met."""
    rows: list[Any] = []
    body["variables"]["first"] = limit if limit and limit < 50 else 50
    body["variables"]["after"] = None
    while True:
        answer = await linear_request(api, body, index)
        rows.extend(_path(answer, "data", "issues", "nodes") or [])
        body["variables"]["after"] = _path(answer, "data", "issues", "pageInfo", "endCursor")
        if limit and len(rows) >= limit:
            return rows
        if not _path(answer, "data", "issues", "pageInfo", "hasNextPage"):
            return rows


def _dict(value: Any) -> dict[str, Any]:
    return dict(value) if isinstance(value, dict) else {}


async def _issue(api: ApiRequests, ctx: ExecuteContext, operation: str, i: int) -> Any:
    param = ctx.get_node_parameter
    if operation == "create":
        variables = {"teamId": param("teamId", i), "title": param("title", i), **_dict(param("additionalFields", i))}
        answer = await linear_request(api, {"query": QUERIES["createIssue"], "variables": variables}, i)
        return _path(answer, "data", "issueCreate", "issue")
    if operation in ("delete", "get"):
        key = "deleteIssue" if operation == "delete" else "getIssue"
        answer = await linear_request(api, {"query": QUERIES[key], "variables": {"issueId": param("issueId", i)}}, i)
        return _path(answer, "data", "issueDelete" if operation == "delete" else "issue")
    if operation == "getAll":
        body: dict[str, Any] = {"query": QUERIES["getIssues"], "variables": {"first": 50}}
        limit = None if param("returnAll", i, False) else int(param("limit", 0, 50))
        return await linear_all(api, body, i, limit)
    if operation == "update":
        variables = {"issueId": param("issueId", i), **_dict(param("updateFields", i))}
        answer = await linear_request(api, {"query": QUERIES["updateIssue"], "variables": variables}, i)
        return _path(answer, "data", "issueUpdate", "issue")
    if operation == "addLink":
        variables = {"issueId": param("issueId", i), "url": param("link", i)}
        answer = await linear_request(api, {"query": QUERIES["addIssueLink"], "variables": variables}, i)
        return _path(answer, "data", "attachmentLinkURL")
    return None


async def _comment(api: ApiRequests, ctx: ExecuteContext, operation: str, i: int) -> Any:
    if operation != "addComment":
        return None
    variables: dict[str, Any] = {"issueId": ctx.get_node_parameter("issueId", i)}
    variables["body"] = ctx.get_node_parameter("comment", i)
    parent = _dict(ctx.get_node_parameter("additionalFields", i, {})).get("parentId")
    if isinstance(parent, str) and parent.strip():
        variables["parentId"] = parent
    answer = await linear_request(api, {"query": QUERIES["addComment"], "variables": variables}, i)
    return _path(answer, "data", "commentCreate")


def _json_rows(data: Any) -> list[dict[str, Any]]:
    """``returnJsonArray``: a list's objects, one object, or nothing for ``undefined``."""
    if data is None:
        return []
    if isinstance(data, list):
        return [row if isinstance(row, dict) else {"json": row} for row in data]
    return [data if isinstance(data, dict) else {"json": data}]


class Linear(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.linear",
        display_name="Linear",
        versions=(1, 1.1),
        description="Consume Linear API",
        group=("output",),
        usable_as_tool=True,
        credentials=("linearApi", "linearOAuth2Api"),
        defaults={"authentication": "apiToken", "resource": "issue", "operation": "create"},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        resource = str(ctx.get_node_parameter("resource", 0, "issue"))
        operation = str(ctx.get_node_parameter("operation", 0, "create"))
        out: list[Item] = []
        async with ApiRequests(ctx) as api:
            for i in range(len(ctx.get_input_data())):
                try:
                    if resource == "issue":
                        data = await _issue(api, ctx, operation, i)
                    else:
                        data = await _comment(api, ctx, operation, i)
                except NodeError as error:
                    if not ctx.continue_on_fail():
                        raise
                    out.append({"json": {"error": error.message}, "pairedItem": {"item": i}})
                    continue
                out.extend({"json": row, "pairedItem": {"item": i}} for row in _json_rows(data))
        return [out]


__all__ = ["Linear", "linear_all", "linear_request"]
