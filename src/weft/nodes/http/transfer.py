"""Sending one HTTP request from a node: within its timeout, following redirects by hand (http(s) only, the
credential's domain allowlist checked at every hop, credentials dropped on a cross-origin hop unless allowed), the
body read into memory or, when it is a file, into the binary-data store; a non-2xx answer raises n8n's error
(:func:`weft.nodes.http.errors.api_error`) unless ``neverError``. The HTTP Request node builds :class:`Request`
from its parameters; declarative nodes and others that call an API build it from theirs.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import httpx

from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext
from weft.nodes.credential_domains import assert_url_allowed
from weft.nodes.http.errors import api_error, transport_error
from weft.nodes.http.files import UploadBody, download, upload_content, wants_file

DEFAULT_TIMEOUT_MS = 300_000


@dataclass(kw_only=True)
class Request:
    """One item's request and how to read its response (``response``: n8n's ``options.response.response``)."""

    method: str
    url: str
    params: list[tuple[str, Any]] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    body: dict[str, Any] = field(default_factory=dict)  # content / data / files / json, as httpx takes them
    auth: httpx.Auth | None = None
    timeout_ms: float = DEFAULT_TIMEOUT_MS
    follow_redirects: bool = True
    max_redirects: int = 21
    cross_origin_credentials: bool = True  # 4.4+: not sent on to another origin unless the option says so
    response: dict[str, Any] = field(default_factory=dict)
    upload: UploadBody | None = None  # a binary body, streamed from the store
    allowed_domains: str | None = None  # the credential's domain allowlist, checked at every redirect hop
    downloaded: dict[str, Any] | None = None  # the response as a stored file (its binary entry)


async def send(
    ctx: ExecuteContext, index: int, client: httpx.AsyncClient, request: Request
) -> tuple[Request, httpx.Response]:
    """Send within the timeout, following redirects to http(s) URLs only; raise for non-2xx unless neverError."""
    seconds = request.timeout_ms / 1000
    method, url, params, body = request.method, request.url, request.params, request.body
    headers, auth = request.headers, request.auth
    try:
        async with asyncio.timeout(seconds):
            for _ in range(request.max_redirects + 1):
                target = httpx.URL(url)  # parameters are added to the URL's own query, as n8n does
                target = target.copy_with(params=[*target.params.multi_items(), *params]) if params else target
                sent = {"content": await upload_content(request.upload)} if request.upload and body else body
                built = client.build_request(method, target, headers=headers, **sent)
                response = await client.send(built, auth=auth, follow_redirects=False, stream=True)
                location = response.headers.get("location")
                if not (request.follow_redirects and response.is_redirect and location):
                    break
                await response.aclose()
                url, params = str(response.url.join(location)), []
                assert_url_allowed(ctx.node.name, url, request.allowed_domains, index)
                if not request.cross_origin_credentials and _origin(httpx.URL(url)) != _origin(response.url):
                    headers = {k: v for k, v in headers.items() if k.lower() not in ("authorization", "cookie")}
                    auth = None
                if not url.startswith(("http://", "https://")):
                    raise _fail(ctx, index, f"Redirect to {url!r} not followed: only http(s) URLs are allowed")
                if response.status_code not in (307, 308) and method != "HEAD":
                    method, body, request.upload = "GET", {}, None
            else:
                raise _fail(ctx, index, f"Maximum number of redirects exceeded ({request.max_redirects})")
            await _read(ctx, index, request, response)
    except (httpx.HTTPError, TimeoutError) as exc:
        raise transport_error(ctx.node.name, index, exc, request.timeout_ms, url) from exc
    finally:
        if "response" in locals():
            await response.aclose()
    return request, response


async def _read(ctx: ExecuteContext, index: int, request: Request, response: httpx.Response) -> None:
    """Read the body: into the binary-data store when it becomes a file, else into memory (raising for a non-2xx
    answer unless ``neverError``)."""
    failed = not request.response.get("neverError") and not 200 <= response.status_code < 300
    if not failed and wants_file(ctx, index, request.response, response):
        request.downloaded = await download(ctx, response, follows_redirects=request.follow_redirects)
        return
    await response.aread()
    if failed:
        raise api_error(ctx, index, response, request.response.get("responseFormat") or "autodetect")


def _origin(url: httpx.URL) -> tuple[str, str, int | None]:
    return url.scheme, url.host, url.port


def _fail(ctx: ExecuteContext, index: int, message: str) -> NodeOperationError:
    return NodeOperationError(ctx.node.name, message, item_index=index)


__all__ = ["DEFAULT_TIMEOUT_MS", "Request", "send"]
