"""The Trello node (``n8n-nodes-base.trello`` 1): n8n's ``Trello.execute`` over :mod:`.operations`.

Requests go to ``https://api.trello.com/1/<endpoint>`` with the ``trelloApi`` credential's key and token in the
query (an endpoint n8n writes with a leading ``/`` keeps its double slash). "Return All" pages by ``before`` (the
last id) in pages of 30 sorted ``-id`` (a list's lists come in one answer); a limit cuts the answer. Under
"continue" a failed item outputs ``{error: <message>}``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeError, NodeOperationError
from weft.library.trello.operations import BUILDERS, Call, Params
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.node_properties import description_for
from weft.nodes.routing.scope import RoutingScope
from weft.workflow import Item, NodeOutput

API = "https://api.trello.com/1/"
_PAGE = 30


class Trello(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.trello",
        display_name="Trello",
        versions=(1,),
        description="Create, change and delete boards and cards",
        group=("transform",),
        usable_as_tool=True,
        credentials=("trelloApi",),
        defaults={"authentication": "apiKey", "resource": "card", "operation": "create"},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        scope = RoutingScope(ctx, description_for(ctx.node.type, float(ctx.node.typeVersion)) or {})
        resource = str(scope.parameter("resource", 0, "card"))
        operation = str(scope.parameter("operation", 0, "create"))
        out: list[Item] = []
        async with ApiRequests(ctx) as api:
            _check_authentication(scope)
            for index in range(len(ctx.get_input_data())):
                try:
                    out.extend(await _run_item(api, scope, resource, operation, index))
                except NodeError as error:
                    if not ctx.continue_on_fail():
                        raise
                    out.append({"json": {"error": error.message}, "pairedItem": {"item": index}})
        return [out]


def _check_authentication(scope: RoutingScope) -> None:
    method = scope.parameter("authentication", 0, "apiKey")
    if method != "apiKey":
        raise NodeOperationError(
            scope.node_name,
            f"Authentication {method!r} is not supported yet",
            description="Set 'Authentication' to 'API Key' and use a Trello API credential (key and token).",
        )


async def _run_item(api: ApiRequests, scope: RoutingScope, resource: str, operation: str, index: int) -> list[Item]:
    builder = BUILDERS.get(resource)
    if builder is None:
        raise NodeOperationError(scope.node_name, f'The resource "{resource}" is not known!', item_index=index)
    call = builder(Params(scope, index), operation)
    if call.return_all and f"{resource}:{operation}" != "list:getAll":
        answer: Any = await trello_request_all(api, call, index)
    else:
        answer = await trello_request(api, call, index)
        limit = call.qs.get("limit")
        if not call.return_all and limit and isinstance(answer, list):
            answer = answer[: int(limit)]
    rows = answer if isinstance(answer, list) else [answer]
    return [_item(row, index) for row in rows]


def _item(row: Any, index: int) -> Item:
    """An answer's item. A row that is no object (Add Label answers the card's label ids) is n8n's item whose
    ``json`` is that value; Weft's engine keeps item JSON an object and wraps it: ``{json: <value>, pairedItem}``
    (docs/differences.md, known gaps)."""
    if isinstance(row, dict) or row in ("", None):
        return {"json": row if isinstance(row, dict) else {}, "pairedItem": {"item": index}}
    return {"json": row, "pairedItem": {"item": index}}  # type: ignore[typeddict-item]


async def trello_request(api: ApiRequests, call: Call, index: int) -> Any:
    """n8n's Trello ``apiRequest`` (a GET sends no body)."""
    options: dict[str, Any] = {"method": call.method, "url": API + call.endpoint, "qs": dict(call.qs), "json": True}
    if call.method != "GET" and call.body:
        options["body"] = call.body
    return await api.request("trelloApi", options, index)


async def trello_request_all(api: ApiRequests, call: Call, index: int) -> list[Any]:
    """n8n's ``apiRequestAllItems``: pages of 30 sorted ``-id``, each ``before`` the last id, until one is short."""
    found: list[Any] = []
    qs = {**call.qs, "limit": _PAGE, "sort": "-id"}
    while True:
        page = await trello_request(api, Call(call.method, call.endpoint, call.body, dict(qs)), index)
        rows = page if isinstance(page, list) else []
        found.extend(rows)
        if rows:
            qs["before"] = rows[-1].get("id") if isinstance(rows[-1], dict) else None
        if len(rows) < _PAGE:
            return found


__all__ = ["Trello"]
