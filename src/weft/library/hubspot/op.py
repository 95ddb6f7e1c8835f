"""One item's HubSpot operation (:class:`Op`) and the handler type every resource module's operations share."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from weft.library.hubspot.transport import hubspot_all, hubspot_request
from weft.nodes.api import ApiRequests
from weft.nodes.routing.scope import RoutingScope


@dataclass
class Op:
    """One item's operation: the run's API, parameters, shared query and item index."""

    api: ApiRequests
    scope: RoutingScope
    index: int
    qs: dict[str, Any] = field(default_factory=dict)

    def get(self, name: str, *default: Any, extract: bool = False) -> Any:
        return self.scope.parameter(name, self.index, *default, extract_value=extract)

    def first(self, name: str, *default: Any) -> Any:
        return self.scope.parameter(name, 0, *default)

    async def call(self, method: str, endpoint: str, body: Any = None, qs: dict[str, Any] | None = None) -> Any:
        return await hubspot_request(self.api, method, endpoint, self.index, body, qs)

    async def all(self, key: str, method: str, endpoint: str, body: Any = None) -> list[Any]:
        return await hubspot_all(self.api, key, method, endpoint, self.index, body, self.qs)


Handler = Callable[[Op], Awaitable[Any]]

__all__ = ["Handler", "Op"]
