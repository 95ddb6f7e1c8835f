"""The Todoist node (``n8n-nodes-base.todoist`` 1, 2, 2.1, 2.2): n8n's ``TodoistV2.execute`` over
:mod:`.operations` (``TodoistV1`` over :mod:`.operations_v1` for version 1).

Per item: the operation's answer; a list's entries one item each, a write without data ``{success: true}``.
Under "continue" a failed item outputs ``{error: <message>}``, paired with its item.
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeError
from weft.library.todoist.operations import Handler, Op, operation
from weft.library.todoist.operations_v1 import operation_v1
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.node_properties import description_for
from weft.nodes.routing.scope import RoutingScope
from weft.workflow import Item, NodeOutput


def _rows(answer: dict[str, Any]) -> list[Any]:
    data = answer.get("data")
    if isinstance(data, list):
        return data
    if "success" in answer:
        return [{"success": answer["success"]}]
    return [data]


def _handler(ctx: ExecuteContext, resource: str, name: str) -> Handler | None:
    if float(ctx.node.typeVersion) < 2:
        return operation_v1(ctx.node.name, resource, name)
    return operation(ctx.node.name, resource, name)


class Todoist(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.todoist",
        display_name="Todoist",
        versions=(1, 2, 2.1, 2.2),
        description="Consume Todoist API",
        group=("output",),
        usable_as_tool=True,
        credentials=("todoistApi", "todoistOAuth2Api"),
        defaults={"authentication": "apiKey", "resource": "task", "operation": "create"},
    )
    #: n8n marks only the V2 family (2 and later) ``usableAsTool``.
    tool_versions: ClassVar[tuple[float, ...]] = (2, 2.1, 2.2)

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        scope = RoutingScope(ctx, description_for(ctx.node.type, float(ctx.node.typeVersion)) or {})
        resource = str(scope.parameter("resource", 0, "task"))
        name = str(scope.parameter("operation", 0, "create"))
        out: list[Item] = []
        async with ApiRequests(ctx) as api:
            for index in range(len(ctx.get_input_data())):
                try:
                    handler = _handler(ctx, resource, name)
                    if handler is None:
                        continue
                    answer = await handler(Op(api, scope, index))
                except NodeError as error:
                    if not ctx.continue_on_fail():
                        raise
                    out.append({"json": {"error": error.message}, "pairedItem": {"item": index}})
                    continue
                for row in _rows(answer):
                    out.append({"json": row if isinstance(row, dict) else {}, "pairedItem": {"item": index}})
        return [out]


__all__ = ["Todoist"]
