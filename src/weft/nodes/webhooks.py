"""What the host needs of webhooks: reading a Webhook node's options, and answering the request.

The server receives a Webhook node's requests as :func:`webhook_options` describes (methods, path, response mode,
…). An execution started by a request is answered with a :class:`WebhookResponse`: by the server itself, or by a
node (Respond to Webhook, a chat or MCP trigger) through ``ctx.services`` when those implement
:class:`WebhookResponder`.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from weft.workflow import NodeModel

WEBHOOK_TYPE = "n8n-nodes-base.webhook"

JSON_TYPE = "application/json; charset=utf-8"
TEXT_TYPE = "text/html; charset=utf-8"


@dataclass(frozen=True, kw_only=True)
class WebhookResponse:
    """An HTTP answer, ready to send."""

    status_code: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    """Header names in lower case; ``content-type`` is set when there is a body."""
    body: bytes = b""
    stream: AsyncIterator[bytes] | None = None
    """A file's bytes, sent as they are read from the binary-data store (then ``body`` is empty)."""

    @classmethod
    def json(cls, value: Any, status_code: int = 200, headers: Mapping[str, str] | None = None) -> WebhookResponse:
        encoded = json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()
        return cls(status_code=status_code, headers={"content-type": JSON_TYPE, **_lower(headers)}, body=encoded)

    @classmethod
    def text(
        cls, value: str, status_code: int = 200, headers: Mapping[str, str] | None = None, content_type: str = TEXT_TYPE
    ) -> WebhookResponse:
        headers = {"content-type": content_type, **_lower(headers)}
        return cls(status_code=status_code, headers=headers, body=value.encode())


@runtime_checkable
class WebhookResponder(Protocol):
    """Implemented by the services of executions that answer an HTTP request."""

    def send_webhook_response(self, response: WebhookResponse) -> None:
        """Answer the request now; later calls are ignored."""
        ...


def responder_of(services: object) -> WebhookResponder | None:
    """``services`` when they answer an HTTP request (they have ``send_webhook_response``), else ``None``. A lookup
    of the method, not ``isinstance`` of the protocol: that walks the protocol's members on every call, and it is
    asked once per webhook answered."""
    return services if callable(getattr(services, "send_webhook_response", None)) else None  # type: ignore[return-value]


@dataclass(frozen=True, kw_only=True)
class WebhookOptions:
    """A Webhook node's parameters that decide how the request is received and answered."""

    methods: tuple[str, ...]
    """HTTP methods it listens to (v2.1 ``multipleMethods`` allows several)."""
    path: str
    response_mode: str
    """``onReceived``, ``lastNode``, ``responseNode`` (``streaming`` is answered like ``lastNode``)."""
    response_code: int = 200
    response_data: str = "firstEntryJson"
    """``lastNode``: ``firstEntryJson``, ``allEntries``, ``firstEntryBinary``, ``noData``; ``onReceived``: a text."""
    response_headers: dict[str, str] = field(default_factory=dict)
    response_content_type: str | None = None
    response_property_name: str | None = None
    no_response_body: bool = False
    raw_body: bool = False
    binary_property_name: str = "data"


def webhook_options(node: NodeModel) -> WebhookOptions:
    """Read the node's parameters (static values; expressions in them are not evaluated)."""
    params = node.parameters
    options: Mapping[str, Any] = params.get("options") or {}
    methods = params.get("httpMethod") or "GET"
    method_list: tuple[str, ...]
    if isinstance(methods, str):
        method_list = (methods.upper(),)
    else:
        method_list = tuple(str(m).upper() for m in methods)
    if not params.get("multipleMethods") and len(method_list) > 1:
        method_list = method_list[:1]
    mode = str(params.get("responseMode") or "onReceived")
    return WebhookOptions(
        methods=method_list,
        path=str(params.get("path") or node.webhookId or "").strip().strip("/"),
        response_mode="lastNode" if mode == "streaming" else mode,
        response_code=_response_code(params.get("responseCode"), options.get("responseCode")),
        response_data=str(params.get("responseData") or options.get("responseData") or "firstEntryJson"),
        response_headers=_headers(options.get("responseHeaders")),
        response_content_type=options.get("responseContentType") or None,
        response_property_name=options.get("responsePropertyName") or None,
        no_response_body=bool(options.get("noResponseBody")),
        raw_body=bool(options.get("rawBody")),
        binary_property_name=str(options.get("binaryPropertyName") or params.get("binaryPropertyName") or "data"),
    )


def _response_code(top_level: Any, option: Any) -> int:
    """v1: a ``responseCode`` number; v2: ``options.responseCode.values.{responseCode, customCode}``."""
    if isinstance(option, Mapping):
        values = option.get("values") or {}
        code = values.get("customCode") if values.get("responseCode") == -1 else values.get("responseCode")
        return int(code or 200)
    if isinstance(option, int | float):
        return int(option)
    return int(top_level) if isinstance(top_level, int | float) else 200


def _headers(value: Any) -> dict[str, str]:
    entries = (value or {}).get("entries") if isinstance(value, Mapping) else None
    return {
        str(e.get("name")): str(e.get("value", "")) for e in entries or () if isinstance(e, Mapping) and e.get("name")
    }


def _lower(headers: Mapping[str, str] | None) -> dict[str, str]:
    return {k.lower(): v for k, v in (headers or {}).items()}


__all__ = [
    "JSON_TYPE",
    "TEXT_TYPE",
    "WEBHOOK_TYPE",
    "WebhookOptions",
    "WebhookResponder",
    "WebhookResponse",
    "responder_of",
    "webhook_options",
]
