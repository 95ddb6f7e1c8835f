"""Converting between Starlette requests/responses and the services' plain request/response objects.

Three rules of n8n's webhook server live here:

* **Who is calling** (:func:`caller`): the connection's address, unless ``WEFT_PROXY_HOPS`` (n8n's
  ``N8N_PROXY_HOPS``) says how many reverse proxies stand in front; only then is ``X-Forwarded-For`` read, as
  express's ``trust proxy`` reads it. (``weft start`` runs uvicorn with its own proxy-header handling off.)
* **HTML answers are sandboxed** (:func:`webhook_response`): a page a workflow answers is served with n8n's
  ``Content-Security-Policy: sandbox …`` (no ``allow-same-origin``), so its script runs as an opaque origin and
  cannot use the editor's session, unless ``WEFT_INSECURE_DISABLE_WEBHOOK_IFRAME_SANDBOX`` is true.
* **Compressed bodies** (``Content-Encoding: gzip`` or ``deflate``) are inflated before parsing, and refused (413) as
  soon as they pass ``WEFT_PAYLOAD_SIZE_MAX`` (:func:`decoded_body`).
"""

from __future__ import annotations

import asyncio
import io
import zlib
from typing import Any

from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from weft.nodes.files.archive import ArchiveError, inflated
from weft.nodes.webhooks import WebhookResponse
from weft.server.security import PayloadTooLargeError
from weft.services.webhook_requests import BadRequestError, IncomingRequest, UploadedFile
from weft.settings import Settings

#: n8n's ``getWebhookSandboxCSP()``: every right a page may need except ``allow-same-origin``.
WEBHOOK_SANDBOX_CSP = (
    "sandbox allow-downloads allow-forms allow-modals allow-orientation-lock allow-pointer-lock allow-popups "
    "allow-presentation allow-scripts allow-top-navigation allow-top-navigation-by-user-activation "
    "allow-top-navigation-to-custom-protocols"
)
#: Types a browser runs script in when it opens them: n8n's ``isHtmlRenderedContentType`` (HTML, XHTML), and SVG
#: and XML, which n8n leaves out.
_PAGE_TYPES = ("text/html", "application/xhtml+xml", "image/svg+xml", "text/xml", "application/xml")
#: Request body encodings inflated before parsing (n8n's, matched as exactly as n8n matches them), by zlib ``wbits``.
_ENCODINGS = {"gzip": 31, "deflate": 15}


async def read_request(request: Request, path: str, url: str) -> IncomingRequest:
    """The request as the services see it: headers, query, raw body, and multipart fields and files."""
    headers = dict(request.headers)
    form: dict[str, Any] | None = None
    files: list[UploadedFile] = []
    body = b""
    if headers.get("content-type", "").lower().startswith("multipart/form-data"):
        form = {}
        async with request.form() as parsed:
            for key, value in parsed.multi_items():
                if isinstance(value, UploadFile):
                    data = await value.read()
                    files.append(
                        UploadedFile(
                            field=key,
                            filename=value.filename,
                            content_type=value.content_type or "application/octet-stream",
                            data=data,
                        )
                    )
                else:
                    _add(form, key, value)
    else:
        body = await request.body()
        encoding = headers.get("content-encoding")
        if body and encoding in _ENCODINGS:
            settings: Settings = request.app.state.instance.settings
            body = await asyncio.to_thread(decoded_body, body, encoding, settings.payload_size_max_bytes)
    query: dict[str, Any] = {}
    for key, value in request.query_params.multi_items():
        _add(query, key, value)
    client, proxies = caller(request)
    return IncomingRequest(
        method=request.method,
        path=path,
        url=url,
        headers=headers,
        query=query,
        body=body,
        form=form,
        files=files,
        client=client,
        proxies=proxies,
    )


def caller(request: Request) -> tuple[str, tuple[str, ...]]:
    """The caller's address and the trusted proxies' (express's ``req.ip`` and ``req.ips``) by the instance's
    ``WEFT_PROXY_HOPS``."""
    settings: Settings = request.app.state.instance.settings
    peer = request.client.host if request.client else ""
    return forwarded_addresses(peer, request.headers.getlist("x-forwarded-for"), settings.proxy_hops)


def forwarded_addresses(peer: str, forwarded_for: list[str], hops: int) -> tuple[str, tuple[str, ...]]:
    """express's ``trust proxy`` = ``hops``: from the connection's ``peer``, walk ``hops`` addresses leftwards
    through ``X-Forwarded-For``; the last one reached is the caller, the ones passed the proxies (left to right)."""
    if hops <= 0:
        return peer, ()
    listed = [address.strip() for value in forwarded_for for address in value.split(",") if address.strip()]
    chain = [peer, *reversed(listed)][: hops + 1]
    return chain[-1], tuple(reversed(chain[1:]))


def decoded_body(body: bytes, encoding: str, limit: int) -> bytes:
    """A ``gzip`` or ``deflate`` body inflated, as n8n's ``rawBodyReader`` does, stopping with 413 as soon as it
    passes ``limit`` bytes (``WEFT_PAYLOAD_SIZE_MAX``): a small bomb never grows past the limit in memory."""
    out = io.BytesIO()
    try:
        for chunk in inflated(body, _ENCODINGS[encoding]):
            if out.tell() + len(chunk) > limit:
                raise PayloadTooLargeError(limit)
            out.write(chunk)
    except (zlib.error, ArchiveError) as error:
        raise BadRequestError(f"The request body is not valid {encoding} data ({error}).") from None
    return out.getvalue()


def _add(target: dict[str, Any], key: str, value: Any) -> None:
    if key in target:
        previous = target[key]
        target[key] = [*previous, value] if isinstance(previous, list) else [previous, value]
    else:
        target[key] = value


def to_response(response: WebhookResponse) -> Response:
    if response.stream is not None:
        return StreamingResponse(response.stream, status_code=response.status_code, headers=response.headers)
    return Response(content=response.body, status_code=response.status_code, headers=response.headers)


def webhook_response(response: WebhookResponse, settings: Settings) -> Response:
    """A workflow's answer to a webhook, form or waiting-webhook call: :func:`to_response`, sandboxed when a browser
    would render it as a page (see the module docstring)."""
    answer = to_response(response)
    types = answer.headers.getlist("content-type")  # a workflow's own header may come besides the node's
    page = not types or any(renders_as_page(kind) for kind in types)
    if page and not settings.insecure_disable_webhook_iframe_sandbox:
        answer.headers["content-security-policy"] = WEBHOOK_SANDBOX_CSP
    return answer


def renders_as_page(content_type: str) -> bool:
    """Whether a browser opening an answer of ``content_type`` may run script in it (an answer without a type too:
    the browser sniffs it, and n8n sandboxes it). ``+xml`` types are XML documents."""
    kind = content_type.split(";", 1)[0].strip().lower()
    return not kind or kind in _PAGE_TYPES or kind.endswith("+xml")


__all__ = [
    "WEBHOOK_SANDBOX_CSP",
    "caller",
    "forwarded_addresses",
    "read_request",
    "renders_as_page",
    "to_response",
    "webhook_response",
]
