"""An HTTP request as a Webhook (or resumed Wait) node's output item, in n8n's shape.

``{json: {headers, params, query, body, webhookUrl, executionMode}}``; bodies are parsed by content type
(JSON, URL-encoded and multipart forms, text); other content types, and every body when ``rawBody`` is on,
become binary data (``binary.<binaryPropertyName>``), as n8n's Webhook node v2 does. A large JSON body is parsed
in a worker thread (:func:`~weft.services.json_limits.loads_off_loop`): other requests go on meanwhile.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

from weft.binary.meta import disposition_file_name
from weft.errors import WeftError
from weft.nodes.webhooks import WebhookOptions
from weft.services.binary_data import PendingBinary
from weft.services.json_limits import DEFAULT_DEPTH_MAX, JsonTooDeepError, loads_off_loop
from weft.workflow import Item


class BadRequestError(WeftError):
    """400: the request body cannot be parsed."""


@dataclass(frozen=True, kw_only=True)
class UploadedFile:
    field: str
    filename: str | None
    content_type: str
    data: bytes


@dataclass(frozen=True, kw_only=True)
class IncomingRequest:
    """What the server read from the request; the services never see the web framework's objects."""

    method: str
    path: str
    url: str
    headers: dict[str, str]
    """Lower-case names, as Node.js gives them."""
    query: dict[str, Any] = field(default_factory=dict)
    body: bytes = b""
    form: dict[str, Any] | None = None
    """Fields of a multipart body, parsed by the server."""
    files: list[UploadedFile] = field(default_factory=list)
    params: dict[str, str] = field(default_factory=dict)
    client: str = ""
    """The caller's address (the Webhook node's ``ipWhitelist`` checks it): the connection's, or by
    ``WEFT_PROXY_HOPS`` one from ``X-Forwarded-For`` (express's ``req.ip``)."""
    proxies: tuple[str, ...] = ()
    """The trusted proxies' addresses from ``X-Forwarded-For`` (express's ``req.ips``; none without proxy hops)."""

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "").split(";", 1)[0].strip().lower()

    @property
    def disposition_file_name(self) -> str | None:
        """The ``filename`` of a ``content-disposition`` header, if any."""
        return disposition_file_name(self.headers.get("content-disposition", ""))


async def request_item(
    request: IncomingRequest, options: WebhookOptions | None, execution_mode: str, *, depth_max: int = DEFAULT_DEPTH_MAX
) -> Item:
    """The Webhook node's output item for ``request`` (``execution_mode``: ``production`` or ``test``)."""
    binary: dict[str, Any] = {}
    body = await parse_body(request, options, binary, depth_max=depth_max)
    item: Item = {
        "json": {
            "headers": request.headers,
            "params": request.params,
            "query": request.query,
            "body": body,
            "webhookUrl": request.url,
            "executionMode": execution_mode,
        }
    }
    if binary:
        item["binary"] = binary
    return item


async def parse_body(
    request: IncomingRequest,
    options: WebhookOptions | None,
    binary: dict[str, Any],
    *,
    depth_max: int = DEFAULT_DEPTH_MAX,
) -> Any:
    kind = request.content_type
    name = options.binary_property_name if options else "data"
    if options is not None and options.raw_body and request.body:  # n8n keeps it in the item, unstored
        binary[name] = {"data": base64.b64encode(request.body).decode(), "mimeType": kind or "application/json"}
    if request.form is not None:
        for index, upload in enumerate(request.files):
            key = upload.field if len(request.files) == 1 else f"{upload.field or name}{index}"
            binary[key] = PendingBinary(upload.data, upload.content_type, upload.filename)
        return request.form
    if not request.body:
        return {}
    if kind == "application/json" or kind.endswith("+json"):
        try:
            return await loads_off_loop(request.body, depth_max)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise BadRequestError(f"The request body is not valid JSON: {exc}") from None
        except JsonTooDeepError as exc:
            raise BadRequestError(f"The request body is not accepted: {exc.message}") from None
    if kind == "application/x-www-form-urlencoded":
        return _form(request.body.decode("utf-8", "replace"))
    if kind.startswith("text/") or kind in ("application/xml", ""):
        return request.body.decode("utf-8", "replace")
    if name not in binary:
        binary[name] = PendingBinary(request.body, kind, request.disposition_file_name)
    return {}


def _form(text: str) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in parse_qsl(text, keep_blank_values=True):
        if key in result:
            previous = result[key]
            result[key] = [*previous, value] if isinstance(previous, list) else [previous, value]
        else:
            result[key] = value
    return result


__all__ = ["BadRequestError", "IncomingRequest", "UploadedFile", "request_item"]
