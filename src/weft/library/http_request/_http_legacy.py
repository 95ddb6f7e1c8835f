"""HTTP Request v1 and v2 (``n8n-nodes-base.httpRequest``): n8n's ``HttpRequestV1``/``V2`` parameters.

``requestMethod``, ``url``, ``responseFormat`` (``json``, ``string``, ``file``) with ``dataPropertyName``,
``jsonParameters`` (then ``bodyParametersJson``/``headerParametersJson``/``queryParametersJson``, else the
``…ParametersUi.parameter[{name, value}]`` lists) and ``options`` (``fullResponse``, ``timeout`` — an hour by
default —, ``followRedirect``, ``ignoreResponseCode``, ``bodyContentType``, ``splitIntoItems``, ``proxy``,
batching). The request is sent like v4's (:mod:`.http_request`); authentication is not supported yet.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from weft.errors import NodeOperationError
from weft.library.http_request import http_request as v4
from weft.nodes.contract import ExecuteContext
from weft.nodes.http.transfer import Request
from weft.workflow import Item, PairedItem

_LEGACY_TIMEOUT_MS = 3_600_000
_JSON_PARAMETERS = {
    "bodyParametersJson": ("body", "Body Parameters"),
    "headerParametersJson": ("headers", "Headers"),
    "queryParametersJson": ("qs", "Query Parameters"),
}
_UI_PARAMETERS = {"bodyParametersUi": "body", "headerParametersUi": "headers", "queryParametersUi": "qs"}


def build_legacy_request(ctx: ExecuteContext, index: int) -> Request:
    """One item's request from the v1/v2 parameters."""
    if str(ctx.get_node_parameter("authentication", 0, "none")) != "none":
        raise v4._fail(
            ctx,
            index,
            "Authentication in HTTP Request v1/v2 is not supported yet",
            "Upgrade the node to the newest version and use 'Generic Credential Type'.",
        )
    options: dict[str, Any] = ctx.get_node_parameter("options", index, {}) or {}
    url = v4._checked_url(ctx, index, ctx.get_node_parameter("url", index, ""))
    method = str(ctx.get_node_parameter("requestMethod", index, "GET")).upper()
    request = Request(method=method, url=url, timeout_ms=float(options.get("timeout") or _LEGACY_TIMEOUT_MS))
    request.follow_redirects = options.get("followRedirect", True) is not False
    parts = (
        _json_parts(ctx, index, options)
        if ctx.get_node_parameter("jsonParameters", index, False)
        else _ui_parts(ctx, index)
    )
    for name, value in (parts.get("qs") or {}).items():
        for one in value if isinstance(value, list) else [value]:
            request.params.append((str(name), v4._text(one)))
    request.headers.update({str(k): v4._text(v) for k, v in (parts.get("headers") or {}).items()})
    body = parts.get("body")
    if body is not None and method in ("PATCH", "POST", "PUT", "DELETE"):
        content_type = options.get("bodyContentType")
        if content_type == "form-urlencoded":
            request.body = {"data": {str(k): v4._text(v) for k, v in body.items()}}
        elif content_type == "raw":
            request.body = {"content": v4._text(body)}
        else:
            request.body = {"json": body}
    if options.get("bodyContentCustomMimeType"):
        request.headers["Content-Type"] = str(options["bodyContentCustomMimeType"])
    request.response = {"neverError": options.get("ignoreResponseCode") is True}
    return request


def _json_parts(ctx: ExecuteContext, index: int, options: dict[str, Any]) -> dict[str, Any]:
    parts: dict[str, Any] = {}
    for parameter, (name, label) in _JSON_PARAMETERS.items():
        value = ctx.get_node_parameter(parameter, index, "")
        if value == "":
            continue
        if isinstance(value, str) and options.get("bodyContentType") != "raw":
            try:
                value = json.loads(value)
            except json.JSONDecodeError:
                raise NodeOperationError(
                    ctx.node.name,
                    f'The data in "{label}" is no valid JSON. Set Body Content Type to "RAW/Custom" for XML or '
                    "other types of payloads",
                    item_index=index,
                ) from None
        parts[name] = value
    return parts


def _ui_parts(ctx: ExecuteContext, index: int) -> dict[str, Any]:
    parts: dict[str, Any] = {}
    for parameter, name in _UI_PARAMETERS.items():
        entries = (ctx.get_node_parameter(parameter, index, {}) or {}).get("parameter")
        if entries is None:
            continue
        values: dict[str, Any] = {}
        for entry in entries:
            key, value = str(entry.get("name", "")), entry.get("value", "")
            if name == "qs" and key in values:  # a repeated query name sends every value
                old = values[key]
                values[key] = [*old, value] if isinstance(old, list) else [old, value]
            else:
                values[key.lower() if name == "headers" else key] = value
        parts[name] = values
    return parts


def legacy_response_items(
    ctx: ExecuteContext, index: int, item: Item, response: httpx.Response, downloaded: dict[str, Any] | None
) -> list[Item]:
    """The response as v1/v2 output it: per ``responseFormat``, with ``fullResponse`` and ``splitIntoItems``."""
    options: dict[str, Any] = ctx.get_node_parameter("options", index, {}) or {}
    fmt = str(ctx.get_node_parameter("responseFormat", 0, "json"))
    prop = str(ctx.get_node_parameter("dataPropertyName", 0, "data"))
    full = bool(options.get("fullResponse"))
    paired: PairedItem = {"item": index}
    meta = {
        "headers": dict(response.headers),
        "statusCode": response.status_code,
        "statusMessage": response.reason_phrase,
    }
    if downloaded is not None:
        binary = {**(item.get("binary") or {}), prop: downloaded}
        return [{"json": dict(meta if full else item.get("json", {})), "binary": binary, "pairedItem": paired}]
    if fmt == "string":
        return [{"json": {prop: response.text, **meta} if full else {prop: response.text}, "pairedItem": paired}]
    try:
        body: Any = json.loads(response.text) if response.text.strip() else ""
    except json.JSONDecodeError:
        raise NodeOperationError(
            ctx.node.name, 'Response body is not valid JSON. Change "Response Format" to "String"', item_index=index
        ) from None
    if full:
        return [{"json": {"body": body, **meta}, "pairedItem": paired}]
    values = body if options.get("splitIntoItems") is True and isinstance(body, list) else [body]
    return [{"json": v if isinstance(v, dict) else {"data": v}, "pairedItem": paired} for v in values]
