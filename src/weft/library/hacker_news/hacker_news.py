"""The Hacker News node (``n8n-nodes-base.hackerNews`` 1): n8n's ``HackerNews.execute``.

Requests go to ``http://hn.algolia.com/api/v1/<endpoint>`` (plain HTTP, as n8n sends them) without a credential.
"Get Many" searches ``search?`` with ``query`` (the keyword, left out when unset), ``tags`` (joined by commas) and
``hitsPerPage`` (the limit) and outputs the answer's ``hits``. "Return All" asks for pages of 100 with the same
query until the count n8n keeps (the running total of all hits so far, added up after each page) reaches
``nbHits`` -- n8n's loop sends no page number, so a second page repeats the first; Weft does the same.
"Return All", once set on an item, stays on for the later items (n8n keeps it across the loop). An article
without "Include Comments" loses its ``children``. Under "continue" a failed item outputs ``{error: <message>}``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeError, NodeOperationError
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.node_properties import description_for
from weft.nodes.routing.scope import RoutingScope
from weft.workflow import Item, NodeOutput

API = "http://hn.algolia.com/api/v1/"
_PAGE = 100


class HackerNews(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.hackerNews",
        display_name="Hacker News",
        versions=(1,),
        description="Consume Hacker News API",
        group=("transform",),
        usable_as_tool=True,
        defaults={"resource": "article"},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        scope = RoutingScope(ctx, description_for(ctx.node.type, float(ctx.node.typeVersion)) or {})
        resource = str(scope.parameter("resource", 0, "article"))
        operation = str(scope.parameter("operation", 0, "getAll" if resource == "all" else "get"))
        out: list[Item] = []
        state = {"returnAll": False}
        async with ApiRequests(ctx) as api:
            for index in range(len(ctx.get_input_data())):
                try:
                    rows = await _run_item(api, scope, resource, operation, index, state)
                except NodeError as error:
                    if not ctx.continue_on_fail():
                        raise
                    out.append({"json": {"error": error.message}, "pairedItem": {"item": index}})
                    continue
                out.extend({"json": row, "pairedItem": {"item": index}} for row in rows)
        return [out]


def _call(
    scope: RoutingScope, resource: str, operation: str, index: int, state: dict[str, bool]
) -> tuple[str, dict[str, Any], bool]:
    """The endpoint, query and "include comments" of one item (n8n's resource/operation branches)."""
    unknown = NodeOperationError(scope.node_name, f"The operation '{operation}' is unknown!", item_index=index)
    if resource == "all":
        if operation != "getAll":
            raise unknown
        fields = scope.parameter("additionalFields", index, {}) or {}
        tags = fields.get("tags")
        qs: dict[str, Any] = {"tags": ",".join(str(t) for t in tags) if tags else ""}
        if fields.get("keyword") is not None:
            qs = {"query": fields["keyword"], **qs}
        state["returnAll"] = bool(scope.parameter("returnAll", index, False))
        if not state["returnAll"]:
            qs["hitsPerPage"] = scope.parameter("limit", index, 100)
        return "search?", qs, False
    if resource in ("article", "user"):
        if operation != "get":
            raise unknown
        if resource == "user":
            return f"users/{scope.parameter('username', index, '')}", {}, False
        fields = scope.parameter("additionalFields", index, {}) or {}
        return f"items/{scope.parameter('articleId', index, '')}", {}, bool(fields.get("includeComments"))
    raise NodeOperationError(scope.node_name, f"The resource '{resource}' is unknown!", item_index=index)


async def _run_item(
    api: ApiRequests, scope: RoutingScope, resource: str, operation: str, index: int, state: dict[str, bool]
) -> list[dict[str, Any]]:
    endpoint, qs, include_comments = _call(scope, resource, operation, index, state)
    if state["returnAll"]:
        answer: Any = await hacker_news_request_all(api, endpoint, qs, index)
    else:
        answer = await hacker_news_request(api, endpoint, qs, index)
        if resource == "all":
            answer = answer.get("hits") if isinstance(answer, dict) else None
    if resource == "article" and not include_comments and isinstance(answer, dict):
        answer.pop("children", None)
    rows = answer if isinstance(answer, list) else [answer]
    return [row if isinstance(row, dict) else {} for row in rows]


async def hacker_news_request(api: ApiRequests, endpoint: str, qs: dict[str, Any], index: int) -> Any:
    """n8n's ``hackerNewsApiRequest``: a GET to the Algolia API, no credential."""
    return await api.request(None, {"method": "GET", "url": API + endpoint, "qs": dict(qs), "json": True}, index)


async def hacker_news_request_all(api: ApiRequests, endpoint: str, qs: dict[str, Any], index: int) -> list[Any]:
    """n8n's ``hackerNewsApiRequestAllItems``, its counting included (see the module doc)."""
    qs = {**qs, "hitsPerPage": _PAGE}
    found: list[Any] = []
    received = 0
    while True:
        answer = await hacker_news_request(api, endpoint, qs, index)
        hits = answer.get("hits") if isinstance(answer, dict) else None
        found.extend(hits if isinstance(hits, list) else [])
        received += len(found)
        total = answer.get("nbHits") if isinstance(answer, dict) else None
        if not isinstance(total, (int, float)) or total <= received:
            return found


__all__ = ["HackerNews"]
