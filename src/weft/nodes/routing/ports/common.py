"""What the ports share: n8n's ``NodeApiError`` built from a routing response (as description functions throw it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from weft.errors import NodeApiError
from weft.nodes.http.errors import STATUS_MESSAGES, find_message
from weft.nodes.routing.call import RoutingCall


def response_error(
    call: RoutingCall, response: Mapping[str, Any], *, message: str | None = None, description: str | None = None
) -> NodeApiError:
    """``new NodeApiError(this.getNode(), response, {message, description})``: the message given, else n8n's
    wording of the status code; the description given, else the body's error message."""
    code = response.get("statusCode")
    status = int(code) if isinstance(code, int | str) and str(code).isdigit() else None
    body = response.get("body")
    if message is None:
        found = STATUS_MESSAGES.get(status or 0) or STATUS_MESSAGES.get((status or 0) // 100)
        message = found or (find_message(body) if isinstance(body, dict) else None) or "UNKNOWN ERROR"
    if description is None and isinstance(body, dict):
        description = find_message(body)
    return NodeApiError(
        call.node_name,
        message,
        http_code=status,
        description=description if description != message else None,
        item_index=call.item_index,
    )


def failed(response: Mapping[str, Any]) -> bool:
    """``String(response.statusCode).startsWith('4') || …('5')``."""
    return str(response.get("statusCode"))[:1] in ("4", "5")


__all__ = ["failed", "response_error"]
