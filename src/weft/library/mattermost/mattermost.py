"""The Mattermost node (``n8n-nodes-base.mattermost`` 1): n8n's ``MattermostV1`` router over :mod:`.operations`.

Per item: the operation's answer, a list's entries one item each. Under "continue" a failed first item outputs
its JSON with the error beside it (n8n's ``{json: <input>, error}``, shown as ``{error: <message>}``); a later
failed item fails the node, as n8n's router does (see :func:`_check_continue`).
"""

from __future__ import annotations

import time
from typing import Any, ClassVar

from weft.errors import NodeError, NodeOperationError
from weft.library.mattermost.operations import Op, operation
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.node_properties import description_for
from weft.nodes.routing.scope import RoutingScope
from weft.workflow import Item, NodeOutput


class Mattermost(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.mattermost",
        display_name="Mattermost",
        versions=(1,),
        description="Sends data to Mattermost",
        group=("output",),
        usable_as_tool=True,
        credentials=("mattermostApi",),
        defaults={"resource": "message", "operation": "post"},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        scope = RoutingScope(ctx, description_for(ctx.node.type, float(ctx.node.typeVersion)) or {})
        items = ctx.get_input_data()
        out: list[Item] = []
        async with ApiRequests(ctx) as api:
            for index in range(len(items)):
                try:
                    resource = str(scope.parameter("resource", index, "message"))
                    name = str(scope.parameter("operation", index, ""))
                    run = operation(ctx.node.name, resource, name, index)
                    answer = await run(Op(api, scope, index, int(time.time() * 1000)))
                except NodeError as error:
                    if not ctx.continue_on_fail():
                        raise
                    _check_continue(ctx.node.name, index)
                    out.append({"json": items[index]["json"], "error": error.to_json()})
                    continue
                out.extend(_item(row, index) for row in _rows(answer))
        return [out]


def _check_continue(node: str, index: int) -> None:
    """n8n's router reads the failed item as ``getInputData(i)[0]``: the input *connection* ``i``, which exists
    for the first item only. From the second item on it fails, and the node fails (under "continue" the engine
    then passes the input through)."""
    if index > 0:
        raise NodeOperationError(node, "Cannot read properties of undefined (reading 'json')", item_index=index)


def _rows(answer: Any) -> list[Any]:
    """n8n's ``returnJsonArray``: a list's entries, or the one answer."""
    return answer if isinstance(answer, list) else [answer]


def _item(row: Any, index: int) -> Item:
    return {"json": row if isinstance(row, dict) else {}, "pairedItem": {"item": index}}


__all__ = ["Mattermost"]
