"""n8n's ``apiRequest`` of the OpenAI node: a JSON request to the credential's Base URL, authenticated as the
``openAiApi`` credential authenticates (``Authorization: Bearer``, ``OpenAI-Organization``, the optional custom
header). Sent through the declarative runner's HTTP client, so a failed request is n8n's ``NodeApiError``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from weft.nodes.contract import ExecuteContext
from weft.nodes.routing.transport import Clients, send

OPENAI_API_URL = "https://api.openai.com/v1"


def auth_headers(credentials: Mapping[str, Any]) -> dict[str, str]:
    """The headers the ``openAiApi`` credential adds to each request."""
    headers = {"Authorization": f"Bearer {credentials.get('apiKey') or ''}"}
    organization = credentials.get("organizationId")
    if organization:
        headers["OpenAI-Organization"] = str(organization)
    name, value = credentials.get("headerName"), credentials.get("headerValue")
    if credentials.get("header") and isinstance(name, str) and name and isinstance(value, str):
        headers[name] = value
    return headers


class OpenAiTransport:
    """Sends the node's requests; one per node run (its HTTP clients close with :meth:`aclose`)."""

    def __init__(self, ctx: ExecuteContext) -> None:
        self.ctx = ctx
        self._clients = Clients()
        self._credentials: dict[str, Any] | None = None

    async def request(self, item_index: int, method: str, endpoint: str, body: Mapping[str, Any]) -> Any:
        """The parsed JSON answer of ``method`` ``<Base URL><endpoint>`` with ``body``."""
        if self._credentials is None:
            self._credentials = await self.ctx.get_credentials("openAiApi")
        base = str(self._credentials.get("url") or OPENAI_API_URL)
        options = {
            "method": method,
            "url": base + endpoint,
            "headers": {**auth_headers(self._credentials), "Content-Type": "application/json"},
            "body": dict(body),
            "json": True,
        }
        response = await send(self.ctx, item_index, options, self._clients)
        return response["body"]

    async def aclose(self) -> None:
        await self._clients.aclose()


__all__ = ["OPENAI_API_URL", "OpenAiTransport", "auth_headers"]
