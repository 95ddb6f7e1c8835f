"""Ports of the Perplexity node's functions (``nodes/Perplexity/GenericFunctions.ts`` and its v3 descriptions)."""

from __future__ import annotations

from typing import Any

from weft.nodes.routing.call import RoutingCall
from weft.nodes.routing.functions import port
from weft.nodes.routing.ports.common import failed, response_error
from weft.nodes.routing.postreceive import Items

_ORDER = (
    "Any optional system messages must be sent first, followed by alternating user and assistant messages. For more "
    "details, refer to the API documentation: https://docs.perplexity.ai/api-reference/agent-post"
)
_MODELS = "https://docs.perplexity.ai/docs/agent-api/models"


def _error_of(response: dict[str, Any], *, nested_only: bool) -> tuple[dict[str, Any], str]:
    body = response.get("body")
    found = body.get("error") if isinstance(body, dict) else None
    error = found if isinstance(found, dict) else ({} if nested_only or not isinstance(body, dict) else body)
    message = error.get("message")
    return error, message if isinstance(message, str) else str(
        response.get("statusMessage") or "An unexpected issue occurred"
    )


@port("postReceive", "sendErrorPostReceive", "1ee3c3b6cd3a8481")
async def send_error(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    if not failed(response):
        return items
    error, message = _error_of(response, nested_only=True)
    if error.get("type") == "invalid_model":
        raise response_error(
            call,
            response,
            message="Invalid model",
            description=f"The model is not valid. Permitted models can be found in the documentation at {_MODELS}.",
        )
    where = f" [Item {error['itemIndex']}]" if isinstance(error.get("itemIndex"), int) else ""
    raise response_error(call, response, message=f"{message}{where}.", description=_ORDER)


@port("postReceive", "", "f8322b9e8ddb2d65")
async def api_error(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    status = response.get("statusCode")
    if isinstance(status, int) and 400 <= status <= 599:
        _, message = _error_of(response, nested_only=False)
        raise response_error(call, response, message=message)
    return items
