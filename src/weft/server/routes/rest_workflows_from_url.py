"""``GET /rest/workflows/from-url?url=``: n8n's "Import from URL", fetched by the server.

As n8n's ``WorkflowsController.getFromUrl``: the answer is the workflow JSON found at ``url`` (``{"data": …}``),
for the editor to import; 400 "The URL does not point to valid JSON file!" when it cannot be fetched or parsed, 400
"The data in the file does not seem to be a n8n workflow JSON file!" when it has no ``nodes`` list and
``connections`` object. Limits: http(s) only (redirects too, at most :data:`MAX_REDIRECTS`), :data:`MAX_BYTES`,
:data:`TIMEOUT_SECONDS` for the whole fetch. It is behind the login, as every ``/rest`` route.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx
from fastapi import APIRouter

from weft.services.webhook_requests import BadRequestError

router = APIRouter(prefix="/workflows", tags=["workflows"])

MAX_BYTES = 16 * 1024 * 1024
TIMEOUT_SECONDS = 15.0
MAX_REDIRECTS = 5
NOT_JSON = "The URL does not point to valid JSON file!"
NOT_WORKFLOW = "The data in the file does not seem to be a n8n workflow JSON file!"


class _FetchError(Exception):
    """The URL gave no JSON: the message says why (for the server's log; the answer is n8n's)."""


def _checked(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BadRequestError(f"Only http and https URLs can be imported (not {url[:80]!r}).")
    return url


async def _read(client: httpx.AsyncClient, url: str) -> bytes:
    """The body at ``url``: redirects followed while they stay http(s), at most ``MAX_BYTES`` read."""
    for _ in range(MAX_REDIRECTS + 1):
        async with client.stream("GET", url, headers={"accept": "application/json"}) as response:
            if response.is_redirect and "location" in response.headers:
                url = _checked(urljoin(url, response.headers["location"]))
                continue
            if response.status_code >= 400:
                raise _FetchError(f"HTTP {response.status_code}")
            body = bytearray()
            async for chunk in response.aiter_bytes():
                body += chunk
                if len(body) > MAX_BYTES:
                    raise BadRequestError(f"The file at the URL is larger than {MAX_BYTES // (1024 * 1024)} MB.")
            return bytes(body)
    raise _FetchError("too many redirects")


async def fetch_workflow(url: str) -> Any:
    """The JSON at ``url``, within the limits; :class:`BadRequestError` with n8n's message otherwise."""
    _checked(url)
    try:
        async with httpx.AsyncClient(follow_redirects=False, timeout=TIMEOUT_SECONDS) as client:
            body = await asyncio.wait_for(_read(client, url), TIMEOUT_SECONDS)
        return json.loads(body)
    except (_FetchError, httpx.HTTPError, TimeoutError, ValueError):
        raise BadRequestError(NOT_JSON) from None


@router.get("/from-url", summary="Fetch n8n workflow JSON from a URL (for the editor to import)")
async def workflow_from_url(url: str) -> dict[str, Any]:
    data = await fetch_workflow(url)
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("nodes"), list)
        or not isinstance(data.get("connections"), dict)
    ):
        raise BadRequestError(NOT_WORKFLOW)
    return {"data": data}


__all__ = ["MAX_BYTES", "fetch_workflow", "router"]
