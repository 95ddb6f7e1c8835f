"""Port of the Trello credential's ``authenticate`` function."""

from __future__ import annotations

from typing import Any

from weft.nodes.routing.functions import port
from weft.nodes.routing.scope import RoutingScope


@port("authenticate", "authenticate", "83ef60a67a3d6f82")
async def trello_api(scope: RoutingScope, credentials: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """``TrelloApi.authenticate``: the API key and token added to the request's query (``key``, ``token``)."""
    options["qs"] = {
        **(options.get("qs") or {}),
        "key": credentials.get("apiKey"),
        "token": credentials.get("apiToken"),
    }
    return options
