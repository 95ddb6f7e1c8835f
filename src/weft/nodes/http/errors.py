"""How HTTP Request words a failed request: n8n's ``NodeApiError`` messages for status codes and socket errors."""

from __future__ import annotations

import json
from typing import Any

import httpx

from weft.errors import NodeApiError
from weft.nodes.contract import ExecuteContext

STATUS_MESSAGES = {  # n8n's NodeApiError STATUS_CODE_MESSAGES
    4: "Your request is invalid or could not be processed by the service",
    5: "The service failed to process your request",
    400: "Bad request - please check your parameters",
    401: "Authorization failed - please check your credentials",
    402: "Payment required - perhaps check your payment details?",
    403: "Forbidden - perhaps check your credentials?",
    404: "The resource you are requesting could not be found",
    405: "Method not allowed - please check you are using the right HTTP method",
    429: "The service is receiving too many requests from you",
    500: "The service was not able to process your request",
    502: "Bad gateway - the service failed to handle your request",
    503: "Service unavailable - try again later or consider setting this node to retry automatically "
    "(in the node settings)",
    504: "Gateway timed out - perhaps try again later?",
}
_COMMON_ERRORS = {  # n8n's NodeError COMMON_ERRORS
    "ECONNREFUSED": "The service refused the connection - perhaps it is offline",
    "ECONNABORTED": "The connection was aborted, perhaps the server is offline",
    "ENOTFOUND": "The connection cannot be established, this usually occurs due to an incorrect host(domain) value",
}


class HttpRequestError(NodeApiError):
    """A failed request; ``reason`` is what n8n outputs as ``{json: {error}}`` when the node continues on fail."""

    def __init__(
        self,
        node_name: str,
        message: str,
        *,
        reason: dict[str, Any],
        code: str | None = None,
        body: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(node_name, message, **kwargs)
        self.reason = reason
        self.code = code
        self.body = body

    def details(self, item_index: int) -> dict[str, Any]:
        """v4.5's ``json.details`` beside ``json.error`` (n8n ``createErrorDetails``)."""
        # n8n words a socket error's raw text as ``messages``, not as a description
        described = {"description": self.description} if self.description and self.http_code else {}
        http_code = str(self.http_code) if self.http_code else self.code
        return {
            "message": self.message,
            **described,
            "httpCode": http_code,
            "body": self.body,
            "context": {"itemIndex": item_index},
        }


def api_error(ctx: ExecuteContext, index: int, response: httpx.Response, fmt: str) -> HttpRequestError:
    code, text = response.status_code, response.text
    try:
        body: Any = json.loads(text) if "json" in response.headers.get("content-type", "") else text
    except json.JSONDecodeError:
        body = text
    raw = f"{code} - {json.dumps(body)}"
    message = STATUS_MESSAGES.get(code) or STATUS_MESSAGES.get(code // 100) or raw
    # autodetect reads an error body as text, so n8n's description is the raw body
    description = find_message(body) if fmt == "json" and isinstance(body, dict) else text
    reason = {"message": raw, "name": "AxiosError", "code": f"ERR_BAD_{'REQUEST' if code < 500 else 'RESPONSE'}"}
    description = description if description and description != message else None
    return HttpRequestError(
        ctx.node.name,
        message,
        reason={**reason, "status": code},
        body=body,
        http_code=code,
        description=description,
        item_index=index,
    )


def find_message(body: dict[str, Any]) -> str | None:
    for key in ("error", "message", "msg", "description", "reason", "detail", "details", "errors", "title"):
        value = find_message(body[key]) if isinstance(body.get(key), dict) else body.get(key)
        if isinstance(value, str | int | float) and value != "":
            return str(value)
    return None


def transport_error(node_name: str, index: int, exc: BaseException, timeout_ms: float, url: str) -> HttpRequestError:
    target, text = httpx.URL(url), _chain_text(exc)
    if isinstance(exc, httpx.TimeoutException | TimeoutError):
        raw, code = f"timeout of {timeout_ms:g}ms exceeded", "ECONNABORTED"
    elif isinstance(exc, httpx.ConnectError) and ("refused" in text or "errno 111" in text):
        raw, code = f"connect ECONNREFUSED {target.host}:{target.port or 443}", "ECONNREFUSED"
    elif isinstance(exc, httpx.ConnectError) and "name" in text:
        raw, code = f"getaddrinfo ENOTFOUND {target.host}", "ENOTFOUND"
    else:
        raw, code = str(exc) or type(exc).__name__, ""
    message = _COMMON_ERRORS.get(code, raw)
    reason = {"message": raw, "name": "Error", "code": code or None}  # as n8n records a socket error
    description = raw if raw != message else None
    return HttpRequestError(
        node_name, message, description=description, item_index=index, reason=reason, code=code or None
    )


def _chain_text(exc: BaseException) -> str:
    """The error's text with its causes' (anyio words a refused connection as "All connection attempts failed"
    and keeps the ``ConnectionRefusedError`` as the cause, inside an exception group)."""
    texts: list[str] = []
    pending: list[BaseException] = [exc]
    while pending and len(texts) < 20:
        current = pending.pop()
        texts.append(f"{type(current).__name__}: {current}".lower())
        pending.extend(getattr(current, "exceptions", ()))
        pending.extend(e for e in (current.__cause__, current.__context__) if e is not None)
    return " | ".join(texts)
