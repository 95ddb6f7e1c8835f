"""Ports of the Adalo node's functions (``nodes/Adalo/Adalo.node.ts``)."""

from __future__ import annotations

from typing import Any

from weft.nodes.routing.call import RoutingCall
from weft.nodes.routing.functions import port


@port("preSend", "presendCreateUpdate", "74c3fb9f73f8e564")
async def create_update_body(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """The record's fields: the input item's (less those to ignore), or the ones listed."""
    body: dict[str, Any] = {}
    if call.get_node_parameter("dataToSend", 0) == "autoMapInputData":
        ignored = [c.strip() for c in str(call.get_node_parameter("inputsToIgnore")).split(",")]
        body = {k: v for k, v in call.input_json().items() if k not in ignored}
    else:
        for field in call.get_node_parameter("fieldsUi.fieldValues") or []:
            body[str(field.get("fieldId"))] = field.get("fieldValue")
    options["body"] = body
    return options
