"""What a ported description function sees as ``this`` (n8n's ``IExecuteSingleFunctions`` of one item) and the
request helpers it may call."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from weft.nodes.contract import MISSING

if TYPE_CHECKING:
    from weft.nodes.routing.request import RequestData
    from weft.nodes.routing.scope import RoutingScope

Send = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]
RoutingRequest = Callable[["RequestData"], Awaitable[list[dict[str, Any]]]]


@dataclass
class RoutingCall:
    """One item's run of a description function."""

    scope: RoutingScope
    item_index: int
    send_authenticated: Send
    """n8n's ``httpRequestWithAuthentication`` with the node's credential: options in, full response out."""
    credentials: dict[str, Any] | None = None
    """The node's credential data (``$credentials`` of a ``filter`` action)."""
    make_routing_request: RoutingRequest | None = None
    """Pagination functions only: send the request and run its ``postReceive`` (n8n's ``makeRoutingRequest``)."""

    @property
    def node_name(self) -> str:
        return self.scope.node_name

    @property
    def parameters(self) -> dict[str, Any]:
        """``this.getNode().parameters``: the node's parameters with defaults, as n8n's workflow holds them."""
        return self.scope.parameters

    def get_node_parameter(self, name: str, fallback: Any = MISSING, *, extract_value: bool = False) -> Any:
        """``this.getNodeParameter(name, fallback)`` for this item."""
        return self.scope.parameter(name, self.item_index, fallback, extract_value=extract_value)

    def input_json(self) -> dict[str, Any]:
        """``this.getInputData().json``: the item's json."""
        items = self.scope.ctx.get_input_data()
        found = items[self.item_index].get("json") if self.item_index < len(items) else None
        return dict(found) if isinstance(found, dict) else {}

    async def prepare_binary_data(self, data: bytes, file_name: str | None = None, mime: str | None = None) -> Any:
        """``this.helpers.prepareBinaryData``."""
        return await self.scope.ctx.prepare_binary_data(data, file_name, mime)


__all__ = ["RoutingCall"]
