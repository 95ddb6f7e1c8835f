"""Gmail's API calls (n8n's ``Gmail/GenericFunctions.ts``: ``googleApiRequest``, ``googleApiRequestAllItems``,
``simplifyOutput``), and the node's parameters as n8n reads them (with the defaults of the shown properties).

Requests go to ``https://www.googleapis.com/gmail/v1/...`` (where n8n sends them) with the ``gmailOAuth2``
credential's bearer token, or a service account's (``googleApi``: a token from Google's JWT grant). A failed
request raises n8n's ``NodeApiError`` with its status message and Google's message as the description (n8n's own
rewording of 400/404/409 answers never takes effect in n8n 2, so Weft does not reword either).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from weft.errors import NodeApiError, NodeOperationError
from weft.library.google._common import google_request
from weft.nodes.api import ApiRequests
from weft.nodes.contract import MISSING, ExecuteContext
from weft.nodes.node_properties import properties_for
from weft.nodes.routing.scope import RoutingScope

BASE_URL = "https://www.googleapis.com"
OAUTH2 = "gmailOAuth2"


class Params:
    """``this.getNodeParameter`` on the node's parameters with n8n's defaults for its version."""

    def __init__(self, ctx: ExecuteContext) -> None:
        properties = properties_for(ctx.node.type, float(ctx.node.typeVersion))
        self._scope = RoutingScope(ctx, {"properties": properties})

    def get(self, name: str, index: int, fallback: Any = MISSING, *, extract_value: bool = False) -> Any:
        return self._scope.parameter(name, index, fallback, extract_value=extract_value)


class GmailApi:
    """One node run's Gmail requests (``async with GmailApi(ctx, params) as api``)."""

    def __init__(self, ctx: ExecuteContext, params: Params) -> None:
        self.ctx = ctx
        self.params = params
        self._requests = ApiRequests(ctx)

    async def __aenter__(self) -> GmailApi:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._requests.__aexit__(*exc)

    async def request(
        self, method: str, endpoint: str, body: Mapping[str, Any] | None = None,
        qs: Mapping[str, Any] | None = None, index: int = 0,
    ) -> Any:  # fmt: skip
        """n8n's ``googleApiRequest``: the parsed answer, or n8n's error for the resource."""
        options: dict[str, Any] = {
            "method": method,
            "url": BASE_URL + endpoint,
            "headers": {"Accept": "application/json", "Content-Type": "application/json"},
            "qs": dict(qs or {}),
            "arrayFormat": "repeat",
            "json": True,
        }
        if body:
            options["body"] = dict(body)
        authentication = str(self.params.get("authentication", 0, "oAuth2"))
        try:
            return await google_request(
                self._requests, options, oauth2_type=OAUTH2, service="gmail", item_index=index,
                authentication=authentication,
            )  # fmt: skip
        except NodeApiError:
            raise  # n8n's rewording (404 "Message not found" …) never applies: the error it sees has no ``httpCode``

    async def request_all(
        self, key: str, endpoint: str, qs: Mapping[str, Any] | None = None, index: int = 0
    ) -> list[Any]:
        """n8n's ``googleApiRequestAllItems``: every page (100 a page) of ``key``, following ``nextPageToken``."""
        query = {**(qs or {}), "maxResults": 100}
        found: list[Any] = []
        while True:
            page = await self.request("GET", endpoint, None, query, index)
            found.extend(page.get(key) or [])
            token = page.get("nextPageToken")
            if token is None or token == "":
                return found
            query["pageToken"] = token

    async def labels(self, index: int) -> list[dict[str, Any]]:
        answer = await self.request("GET", "/gmail/v1/users/me/labels", None, None, index)
        return [{"id": label.get("id"), "name": label.get("name")} for label in answer.get("labels") or []]

    async def simplified(self, messages: list[Any] | None, index: int) -> list[Any]:
        """n8n's ``simplifyOutput``: label ids as ``labels`` (id and name), each payload header as a field."""
        labels = await self.labels(index)
        out = []
        for item in messages or []:
            if item.get("labelIds"):
                item["labels"] = [label for label in labels if label["id"] in item["labelIds"]]
                del item["labelIds"]
            payload = item.get("payload")
            if isinstance(payload, dict) and payload.get("headers"):
                for header in payload["headers"]:
                    item[header["name"]] = header["value"]
                del payload["headers"]
            out.append(item)
        return out


def invalid_parameter(ctx: ExecuteContext, message: str, description: str, index: int) -> NodeOperationError:
    return NodeOperationError(ctx.node.name, message, description=description, item_index=index)


__all__ = ["BASE_URL", "GmailApi", "Params", "invalid_parameter"]
