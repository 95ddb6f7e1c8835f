"""Port of the ``notionApi`` credential type's ``authenticate``."""

from __future__ import annotations

from typing import Any

from weft.nodes.routing.functions import port
from weft.nodes.routing.scope import RoutingScope


@port("authenticate", "authenticate", "9ca81477660b32ff")
async def notion_api(scope: RoutingScope, credentials: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """``NotionApi.authenticate``: the secret as a Bearer token (n8n adds a trailing space, which HTTP drops), and
    ``Notion-Version: 2022-02-22`` unless the request sets one (the Notion node sends its own)."""
    headers = dict(options.get("headers") or {})
    headers["Authorization"] = f"Bearer {credentials.get('apiKey')}"
    if not headers.get("Notion-Version"):
        headers["Notion-Version"] = "2022-02-22"
    options["headers"] = headers
    return options
