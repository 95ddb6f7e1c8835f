"""The HubSpot node (``n8n-nodes-base.hubspot`` 2, 2.1, 2.2): n8n's ``HubspotV2.execute`` over
:mod:`.operations`.

Per item: the operation's answer, a list one item each. Contact list add/remove sends every item's contact in
one request and answers once. A HubSpot 404 whose message is ``resource not found`` fails the item with n8n's
``<resource> #<id> could not be found``; under "continue" a failed item outputs ``{error: <message>}``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeApiError, NodeError
from weft.library.hubspot.operations import Op, operation
from weft.library.hubspot.transport import hubspot_request
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.node_properties import description_for
from weft.nodes.routing.scope import RoutingScope
from weft.nodes.values import js_string
from weft.workflow import Item, NodeOutput


def _rows(answer: Any) -> list[dict[str, Any]]:
    """n8n's ``returnJsonArray``."""
    if isinstance(answer, list):
        return [row if isinstance(row, dict) else {} for row in answer]
    return [answer] if isinstance(answer, dict) else []


def _not_found(ctx: ExecuteContext, error: NodeError, resource: str) -> None:
    if isinstance(error, NodeApiError) and error.http_code == 404 and error.description == "resource not found":
        locator = ctx.node.parameters.get(f"{resource}Id")
        value = locator.get("value") if isinstance(locator, dict) else None
        shown = "undefined" if value is None else js_string(value)
        error.message = f"{resource} #{shown} could not be found. Check your {resource} ID is correct"


class Hubspot(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.hubspot",
        display_name="HubSpot",
        versions=(2, 2.1, 2.2),
        description="Consume HubSpot API",
        group=("output",),
        usable_as_tool=True,
        credentials=("hubspotApi", "hubspotAppToken", "hubspotOAuth2Api"),
        defaults={"authentication": "apiKey", "resource": "contact", "operation": "upsert"},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        scope = RoutingScope(ctx, description_for(ctx.node.type, float(ctx.node.typeVersion)) or {})
        resource = str(scope.parameter("resource", 0, "contact"))
        name = str(scope.parameter("operation", 0, "upsert"))
        async with ApiRequests(ctx) as api:
            if resource == "contactList":
                return [await _contact_list(ctx, api, scope, name)]
            handler = operation(ctx.node.name, resource, name)
            out: list[Item] = []
            qs: dict[str, Any] = {}
            for index in range(len(ctx.get_input_data())):
                try:
                    answer = await handler(Op(api, scope, index, qs))
                except NodeError as error:
                    _not_found(ctx, error, resource)
                    if not ctx.continue_on_fail():
                        error.item_index = index
                        raise
                    out.append({"json": {"error": error.message}, "pairedItem": {"item": index}})
                    continue
                out.extend({"json": row, "pairedItem": {"item": index}} for row in _rows(answer))
        return [out]


async def _contact_list(ctx: ExecuteContext, api: ApiRequests, scope: RoutingScope, name: str) -> list[Item]:
    items = ctx.get_input_data()
    try:
        list_id = js_string(scope.parameter("listId", 0))
        if name == "add":
            by = scope.parameter("by", 0, "email")
            body: dict[str, Any] = {"emails": [], "vids": []}
            for index in range(len(items)):
                if by == "id":
                    body["vids"].append(_parse_int(scope.parameter("id", index)))
                else:
                    body["emails"].append(scope.parameter("email", index))
        else:
            body = {"vids": [_parse_int(scope.parameter("id", index)) for index in range(len(items))]}
        answer = await hubspot_request(api, "POST", f"/contacts/v1/lists/{list_id}/{name}", 0, body)
    except NodeError as error:
        if not ctx.continue_on_fail():
            raise
        return [{"json": {"error": error.message}}]
    paired = [{"item": i} for i in range(len(items))]
    return [{"json": row, "pairedItem": paired} for row in _rows(answer)]  # type: ignore[typeddict-item]


def _parse_int(value: Any) -> int | None:
    """JavaScript's ``parseInt(value, 10)`` (None for NaN)."""
    text = js_string(value).strip()
    sign = -1 if text.startswith("-") else 1
    digits = ""
    for char in text.lstrip("+-"):
        if not char.isdigit():
            break
        digits += char
    return sign * int(digits) if digits else None


__all__ = ["Hubspot"]
