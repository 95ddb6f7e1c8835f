"""Ports of the Metabase node's inline functions (``nodes/Metabase/QuestionsDescription.ts``)."""

from __future__ import annotations

import json
from typing import Any

from weft.errors import NodeOperationError
from weft.nodes.routing.call import RoutingCall
from weft.nodes.routing.functions import port
from weft.nodes.routing.postreceive import Items


@port("postReceive", "", "17bae10fbbb2fede")
async def question_result(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """A question's result: a file of the chosen format (``csv``, ``xlsx``), else the rows of its JSON."""
    body = response.get("body")
    if call.get_node_parameter("format") != "json":
        raw = body if isinstance(body, bytes) else str(body).encode()
        mime = (response.get("headers") or {}).get("content-type")
        binary = await call.prepare_binary_data(raw, "data", mime)
        return [{"json": {}, "binary": {"data": binary}} for _ in items]
    try:
        rows = json.loads(body) if isinstance(body, str | bytes) else body
    except ValueError:
        raise NodeOperationError(call.node_name, "Unexpected end of JSON input", item_index=call.item_index) from None
    return [{"json": dict(row)} for row in rows or [] if isinstance(row, dict)]
