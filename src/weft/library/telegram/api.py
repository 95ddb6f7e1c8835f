"""n8n's Telegram ``apiRequest``: ``<baseUrl>/bot<accessToken>/<method>`` of the ``telegramApi`` credential."""

from __future__ import annotations

from typing import Any

from weft.nodes.api import ApiRequests

CREDENTIAL = "telegramApi"


async def api_request(
    api: ApiRequests,
    method: str,
    endpoint: str,
    body: dict[str, Any],
    index: int,
    options: dict[str, Any] | None = None,
) -> Any:
    """n8n's Telegram ``apiRequest``: the bot URL of the credential, a JSON body unless empty."""
    credential = (await api.credential(CREDENTIAL)).data
    request: dict[str, Any] = {
        "method": method,
        "url": f"{credential.get('baseUrl')}/bot{credential.get('accessToken')}/{endpoint}",
        "json": True,
    }
    if body:
        request["body"] = body
    request.update(options or {})
    return await api.request(None, request, index)
