"""The WordPress node (``n8n-nodes-base.wordpress`` 1): n8n's ``Wordpress.execute`` over :mod:`.operations`.

Per item: the operation's request (every page with "Return All"), its answer as the item's output (a list's
entries one item each). Under "continue" a failed item outputs ``{error: <message>}``, unpaired as in n8n.
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeError
from weft.library.wordpress.operations import build
from weft.library.wordpress.transport import CREDENTIALS, wordpress_request, wordpress_request_all
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.node_properties import description_for
from weft.nodes.routing.scope import RoutingScope
from weft.workflow import Item, NodeOutput


class Wordpress(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.wordpress",
        display_name="Wordpress",
        versions=(1,),
        description="Consume Wordpress API",
        group=("output",),
        usable_as_tool=True,
        credentials=tuple(CREDENTIALS.values()),
        defaults={"authType": "basicAuth", "resource": "post", "operation": "create"},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        scope = RoutingScope(ctx, description_for(ctx.node.type, float(ctx.node.typeVersion)) or {})
        resource = str(scope.parameter("resource", 0, "post"))
        operation = str(scope.parameter("operation", 0, "create"))
        out: list[Item] = []
        qs: dict[str, Any] = {}
        async with ApiRequests(ctx) as api:
            for index in range(len(ctx.get_input_data())):
                try:
                    call = build(scope, resource, operation, index, qs)
                    if call.return_all:
                        answer: Any = await wordpress_request_all(api, call.resource, index, qs)
                    else:
                        answer = await wordpress_request(api, call.method, call.resource, index, call.body, qs)
                except NodeError as error:
                    if not ctx.continue_on_fail():
                        raise
                    out.append({"json": {"error": error.message}})
                    continue
                rows = answer if isinstance(answer, list) else [answer]
                out.extend(
                    {"json": row if isinstance(row, dict) else {}, "pairedItem": {"item": index}} for row in rows
                )
        return [out]


__all__ = ["Wordpress"]
