"""n8n's Mailchimp ``GenericFunctions``: a request on the account's data center (``mailchimpApiRequest``: the API
key's ``-us6`` suffix, or the OAuth2 token's metadata ``api_endpoint``) and every page of a list
(``mailchimpApiRequestAllItems``: ``offset`` in steps of ``count=500`` until a page is empty)."""

from __future__ import annotations

from typing import Any

from weft.errors import NodeOperationError
from weft.nodes.api import ApiRequests

HOST = "api.mailchimp.com/3.0"
METADATA_URL = "https://login.mailchimp.com/oauth2/metadata"


async def _base_url(api: ApiRequests, method: str, index: int) -> tuple[str, str]:
    """The credential type and the API's base URL."""
    if method == "apiKey":
        credential = await api.credential("mailchimpApi")
        key = str(credential.data.get("apiKey") or "")
        if "-" not in key:
            raise NodeOperationError(api.ctx.node.name, "The API key is not valid!", item_index=index)
        return "mailchimpApi", f"https://{key.split('-')[-1]}.{HOST}"
    credential = await api.credential("mailchimpOAuth2Api")
    token = (credential.data.get("oauthTokenData") or {}).get("access_token")
    options = {
        "method": "GET",
        "url": str(credential.data.get("metadataUrl") or METADATA_URL),
        "headers": {"Accept": "application/json", "Authorization": f"OAuth {token}"},
        "json": True,
    }
    metadata = await api.request(None, options, index)
    endpoint = metadata.get("api_endpoint") if isinstance(metadata, dict) else None
    return "mailchimpOAuth2Api", f"{endpoint}/3.0"


async def mailchimp_request(
    api: ApiRequests, endpoint: str, method: str, index: int, body: dict[str, Any] | None = None, qs: Any = None
) -> Any:
    """``mailchimpApiRequest`` (an empty body is not sent)."""
    auth = str(api.ctx.get_node_parameter("authentication", 0, "apiKey"))
    kind, base = await _base_url(api, auth, index)
    options: dict[str, Any] = {"headers": {"Accept": "application/json"}, "method": method, "json": True}
    options.update(url=base + endpoint, qs=dict(qs or {}))
    if body:
        options["body"] = body
    return await api.request(kind, options, index)


async def mailchimp_request_all(
    api: ApiRequests, endpoint: str, prop: str, index: int, qs: dict[str, Any]
) -> list[Any]:
    """``mailchimpApiRequestAllItems``: ``offset`` 0, 500, … with ``count=500`` until a page has no entries."""
    qs.update(offset=0, count=500)
    found: list[Any] = []
    while True:
        answer = await mailchimp_request(api, endpoint, "GET", index, None, qs)
        page = answer.get(prop) if isinstance(answer, dict) else None
        found.extend(page or [])
        qs["offset"] += qs["count"]
        if not page:
            return found


__all__ = ["mailchimp_request", "mailchimp_request_all"]
