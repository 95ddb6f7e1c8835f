"""Runs Slack 1 (n8n's ``SlackV1``) for the Slack node: each item's operation (:mod:`.v1_operations`), its answer
as the item's output; under "continue" a failed item answers ``{"error": <message>}``."""

from __future__ import annotations

from typing import Any

from weft.errors import ExpressionError, NodeError, NodeOperationError
from weft.library.slack.v1_groups import FILE, USER_GROUP, profile_update
from weft.library.slack.v1_operations import RESOURCES
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext
from weft.nodes.routing.scope import RoutingScope
from weft.workflow import Item, NodeOutput


async def run_v1(ctx: ExecuteContext, scope: RoutingScope, resource: str, operation: str) -> NodeOutput:
    profile = {**RESOURCES["userProfile"], "update": profile_update}
    run = {**RESOURCES, "file": FILE, "userGroup": USER_GROUP, "userProfile": profile}.get(resource, {}).get(operation)
    if run is None:
        raise NodeOperationError(ctx.node.name, f"Slack 1's {resource} / {operation} is not supported",
                                 description="Use Slack 2 (typeVersion 2 or later) for this operation.")  # fmt: skip
    out: list[Item] = []
    async with ApiRequests(ctx) as api:
        for index in range(len(ctx.get_input_data())):
            try:
                answer: Any = await run(api, scope, index)
            except (NodeError, ExpressionError) as error:
                if not ctx.continue_on_fail():
                    raise
                out.append({"json": {"error": error.message}})
                continue
            rows = answer if isinstance(answer, list) else [answer]
            out.extend({"json": row if isinstance(row, dict) else {}, "pairedItem": {"item": index}} for row in rows)
    return [out]
