"""n8n's Mattermost ``transport``: ``apiRequest`` (``<baseUrl>/api/v4/<endpoint>``, the credential's bearer token,
a JSON body) and ``apiRequestAllItems`` (pages of 100 by ``page`` until one comes back empty)."""

from __future__ import annotations

from typing import Any

from weft.nodes.api import ApiRequests

CREDENTIAL = "mattermostApi"
_PAGE = 100


async def api_request(api: ApiRequests, method: str, endpoint: str, body: Any, qs: dict[str, Any], index: int) -> Any:
    """One request; the endpoint is joined as n8n joins it (``/users`` keeps its double slash)."""
    credential = await api.credential(CREDENTIAL)
    base = str(credential.data.get("baseUrl") or "")
    options: dict[str, Any] = {
        "method": method,
        "body": body,
        "qs": dict(qs),
        "url": f"{base.removesuffix('/')}/api/v4/{endpoint}",
        "headers": {"content-type": "application/json; charset=utf-8"},
        "skipSslCertificateValidation": credential.data.get("allowUnauthorizedCerts"),
        "json": True,
    }
    return await api.request(CREDENTIAL, options, index)


async def api_request_all(
    api: ApiRequests, method: str, endpoint: str, body: Any, qs: dict[str, Any], index: int
) -> list[Any]:
    """Every page: ``page`` 0, 1, … of ``per_page`` 100, until an empty page."""
    found: list[Any] = []
    query = {**qs, "page": 0, "per_page": _PAGE}
    while True:
        page = await api_request(api, method, endpoint, body, query, index)
        query["page"] += 1
        rows = page if isinstance(page, list) else []
        found.extend(rows)
        if not rows:
            return found
