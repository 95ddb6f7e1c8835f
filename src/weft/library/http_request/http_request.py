"""HTTP Request (``n8n-nodes-base.httpRequest`` v3–4.5, v1/v2 in :mod:`._http_legacy`) on httpx; ``usableAsTool``.

One request per input item, all in flight together (spaced by ``options.batching``). Responses become items as in
n8n (a JSON array gives one item per element); a non-2xx answer raises :class:`NodeApiError` with n8n's message.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, ClassVar
from urllib.parse import parse_qsl

import httpx

from weft.errors import NodeOperationError, WeftError
from weft.library.http_request._http_tool_display import DISPLAY_DEFAULTS, PARAMETER_DISPLAY
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.credential_domains import assert_credential_allows_url
from weft.nodes.http.clients import Clients
from weft.nodes.http.errors import HttpRequestError, find_message
from weft.nodes.http.files import BINARY_TYPES, UploadBody
from weft.nodes.http.optimize import response_optimizer
from weft.nodes.http.transfer import DEFAULT_TIMEOUT_MS, Request, send
from weft.workflow import Item, NodeOutput, PairedItem

_ACCEPT = {
    "json": "application/json,text/*;q=0.99",
    "text": "application/json,text/html,application/xhtml+xml,application/xml,text/*;q=0.9, */*;q=0.1",
    "": "application/json,text/html,application/xhtml+xml,application/xml,text/*;q=0.9, image/*;q=0.8, */*;q=0.7",
}
_GENERIC_AUTH = ("httpBasicAuth", "httpDigestAuth", "httpHeaderAuth", "httpQueryAuth", "httpBearerAuth")


class HttpRequest(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.httpRequest",
        display_name="HTTP Request",
        versions=(1, 2, 3, 4, 4.1, 4.2, 4.3, 4.4, 4.5),
        description="Makes an HTTP request and returns the response data",
        group=("output",),
        usable_as_tool=True,
        credentials=_GENERIC_AUTH,
        defaults={"method": "GET", "authentication": "none", "options": {}},
    )
    #: The versions n8n marks ``usableAsTool`` (``n8n-nodes-base.httpRequestTool``; v1 and v2 are not).
    tool_versions: ClassVar[tuple[float, ...]] = (3, 4, 4.1, 4.2, 4.3, 4.4, 4.5)
    #: n8n's order of the top-level parameters (v3+): the order its tool schema lists ``$fromAI()`` arguments in.
    parameter_order: ClassVar[tuple[str, ...]] = (
        *("toolDescription", "curlImport", "method", "url", "authentication", "nodeCredentialType"),
        *("genericAuthType", "provideSslCertificates", "sslCertificate", "sendQuery", "specifyQuery"),
        *("queryParameters", "jsonQuery", "sendHeaders", "specifyHeaders", "headerParameters", "jsonHeaders"),
        *("sendBody", "contentType", "specifyBody", "bodyParameters", "jsonBody", "body", "inputDataFieldName"),
        *("rawContentType", "options", "optimizeResponse", "responseType", "dataField", "fieldsToInclude"),
        *("fields", "cssSelector", "onlyContent", "elementsToOmit", "truncateResponse", "maxLength"),
    )

    #: When each parameter is shown (n8n's ``displayOptions``): a tool's schema reads only the shown ones.
    parameter_display: ClassVar[dict[str, list[dict[str, dict[str, list[Any]]]]]] = PARAMETER_DISPLAY
    display_defaults: ClassVar[dict[str, Any]] = DISPLAY_DEFAULTS

    @staticmethod
    def tool_error_description(error: BaseException) -> str | None:
        """The description n8n gives a failed request when the node runs inline as a tool: a JSON error body's
        message (``{"error": "status 404"}`` → ``status 404``; recorded: case a127), else the usual one."""
        if isinstance(error, HttpRequestError) and isinstance(error.body, dict):
            return find_message(error.body) or error.description
        if isinstance(error, HttpRequestError) and not error.http_code:
            return None  # a socket error's raw text is in n8n's ``messages``, not its description (MCP recording)
        return getattr(error, "description", None)

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        legacy = ctx.node.typeVersion < 3  # v1/v2 have no pagination or batching option
        pagination = None if legacy else ctx.get_node_parameter("options.pagination.pagination", 0, None, raw=True)
        if isinstance(pagination, dict) and pagination.get("paginationMode", "off") != "off":
            raise _fail(ctx, 0, "Pagination is not supported yet", "Remove the 'Pagination' option; page with a loop.")
        items = ctx.get_input_data()
        clients = Clients()
        try:
            started = await _start_requests(ctx, items, clients)
            results = await asyncio.gather(*started, return_exceptions=True)
        finally:
            await clients.aclose()
        out: list[Item] = []
        for index, result in enumerate(results):
            try:
                if isinstance(result, BaseException):
                    raise result
                out.extend(_items_of(ctx, index, items[index], *result))
            except WeftError as error:
                if not ctx.continue_on_fail():
                    raise
                reason = dict(error.reason) if isinstance(error, HttpRequestError) else error.message
                failed: dict[str, Any] = {"error": reason}
                if isinstance(error, HttpRequestError) and ctx.node.typeVersion >= 4.5:
                    failed["details"] = error.details(index)
                out.append({"json": failed, "pairedItem": {"item": index}})
        return [out]


async def _start_requests(ctx: ExecuteContext, items: list[Item], clients: Clients) -> list[asyncio.Future[Any]]:
    """Build and start each item's request (a build error takes the request's place in the list)."""
    started: list[asyncio.Future[Any]] = []
    for index, item in enumerate(items):
        batch = (ctx.get_node_parameter("options.batching.batch", index, {}) if ctx.node.typeVersion >= 3 else {}) or {}
        size, interval = max(int(batch.get("batchSize") or 1), 1), float(batch.get("batchInterval") or 0)
        if index > 0 and interval > 0 and index % size == 0:
            await asyncio.sleep(interval / 1000)
        future: asyncio.Future[Any]
        try:
            options = ctx.get_node_parameter("options", index, {}) or {}
            request = await _build_request(ctx, index, item, options)
        except WeftError as error:
            future = asyncio.get_running_loop().create_future()
            future.set_exception(error)
            started.append(future)
            continue
        client = clients.get(not options.get("allowUnauthorizedCerts"), options.get("proxy") or None)
        started.append(asyncio.ensure_future(send(ctx, index, client, request)))
    return started


def _fail(ctx: ExecuteContext, index: int, message: str, description: str | None = None) -> NodeOperationError:
    return NodeOperationError(ctx.node.name, message, description=description, item_index=index)


def _checked_url(ctx: ExecuteContext, index: int, url: Any) -> str:
    if not isinstance(url, str):
        raise _fail(ctx, index, f"URL parameter must be a string, got {'null' if url is None else type(url).__name__}")
    text: str = url.strip()
    if not text:
        raise _fail(ctx, index, "URL parameter cannot be empty", "Set the node's 'URL' parameter.")
    if not text.startswith(("http://", "https://")):
        raise _fail(ctx, index, f'Invalid URL: {text}. URL must start with "http" or "https".')
    return text


async def _build_request(ctx: ExecuteContext, index: int, item: Item, options: dict[str, Any]) -> Request:
    if ctx.node.typeVersion < 3:
        from weft.library.http_request._http_legacy import build_legacy_request

        return build_legacy_request(ctx, index)
    url = _checked_url(ctx, index, ctx.get_node_parameter("url", index, ""))
    request = Request(method=str(ctx.get_node_parameter("method", index, "GET")).upper(), url=url)
    request.timeout_ms = float(options.get("timeout") or DEFAULT_TIMEOUT_MS)
    if options.get("redirect") is not None:  # v4 follows redirects unless the option is set, v3 only with it
        redirect = options["redirect"].get("redirect") or {}
        request.follow_redirects = bool(redirect.get("followRedirects", False))
        request.max_redirects = int(redirect.get("maxRedirects") or 21)
    elif ctx.node.typeVersion < 4:
        request.follow_redirects = False
    request.response = (options.get("response") or {}).get("response") or {}
    request.cross_origin_credentials = bool(
        options.get("sendCredentialsOnCrossOriginRedirect", ctx.node.typeVersion < 4.4)
    )
    if ctx.get_node_parameter("sendQuery", index, False):
        named = _pairs(ctx, index, "Query")  # v4.2 sends each value of a repeated name; before, the last wins
        request.params.extend(named if ctx.node.typeVersion >= 4.2 else list(dict(named).items()))
    if ctx.get_node_parameter("sendHeaders", index, False):
        headers = dict(_pairs(ctx, index, "Headers"))
        lowercase = options.get("lowercaseHeaders", True) is not False
        request.headers.update({k.lower(): v for k, v in headers.items()} if lowercase else headers)
    if ctx.get_node_parameter("sendBody", index, False):
        await _apply_body(ctx, index, item, request)
    await _apply_auth(ctx, index, request)
    fmt = request.response.get("responseFormat") or ""
    request.headers.setdefault("accept", _ACCEPT.get(fmt, _ACCEPT[""]))
    return request


def _pairs(ctx: ExecuteContext, index: int, kind: str) -> list[tuple[str, str]]:
    """Query parameters (``kind="Query"``) or headers (``"Headers"``), from name/value pairs or from JSON."""
    if ctx.get_node_parameter(f"specify{kind}", index, "keypair") == "json":
        label = "JSON Query Parameters" if kind == "Query" else "JSON Headers"
        data = _parse_json(ctx, ctx.get_node_parameter(f"json{kind}", index, ""), label, index)
        items = data.items() if isinstance(data, dict) else []
        return [(str(k), _text(v)) for k, vs in items for v in (vs if isinstance(vs, list) else [vs])]
    pairs = ctx.get_node_parameter(f"{'query' if kind == 'Query' else 'header'}Parameters.parameters", index, [])
    return [(str(p["name"]), _text(p.get("value"))) for p in pairs or [] if isinstance(p, dict) and p.get("name")]


async def _apply_body(ctx: ExecuteContext, index: int, item: Item, request: Request) -> None:
    content_type = ctx.get_node_parameter("contentType", index, "json")
    specify = ctx.get_node_parameter("specifyBody", index, "keypair")
    params = [p for p in ctx.get_node_parameter("bodyParameters.parameters", index, []) or [] if isinstance(p, dict)]
    if content_type == "raw":
        request.headers["content-type"] = str(ctx.get_node_parameter("rawContentType", index, ""))
        request.body = {"content": _text(ctx.get_node_parameter("body", index, ""))}
    elif content_type == "binaryData":
        binary = _input_binary(ctx, index, item, str(ctx.get_node_parameter("inputDataFieldName", index, "data")))
        request.upload = UploadBody(ctx, binary)
        request.body = {"content": b""}  # replaced by the stream of each attempt
        request.headers.update(request.upload.headers())
        request.headers["content-type"] = binary.get("mimeType") or "application/octet-stream"
    elif content_type == "multipart-form-data":
        files: list[tuple[str, Any]] = []
        for p in params:  # text fields are parts without a file name
            if p.get("parameterType") == "formBinaryData":
                binary = _input_binary(ctx, index, item, str(p.get("inputDataFieldName") or ""))
                blob = await ctx.binary_bytes(binary)
                files.append((str(p.get("name")), (binary.get("fileName") or "file", blob, binary.get("mimeType"))))
            else:
                files.append((str(p.get("name")), (None, _text(p.get("value")))))
        request.body = {"files": files}
    elif content_type == "form-urlencoded":
        if specify == "string":
            request.body = {"data": dict(parse_qsl(str(ctx.get_node_parameter("body", index, ""))))}
        else:
            request.body = {"data": {str(p.get("name")): _text(p.get("value")) for p in params}}
    elif specify == "json":
        raw = ctx.get_node_parameter("jsonBody", index, "")
        request.body = {"json": raw if isinstance(raw, list) else _parse_json(ctx, raw, "JSON Body", index)}
    else:
        body: dict[str, Any] = {}
        for p in params:  # v4 builds nested objects from dotted names (lodash ``set``)
            *path, last = str(p.get("name", "")).split(".")
            target = body
            for key in path:
                target = target.setdefault(key, {}) if isinstance(target.get(key, {}), dict) else target
            target[last] = p.get("value")
        request.body = {"json": body}


def _input_binary(ctx: ExecuteContext, index: int, item: Item, name: str) -> dict[str, Any]:
    binary = (item.get("binary") or {}).get(name)
    if not isinstance(binary, dict) or not ("data" in binary or "id" in binary):
        message = f"This operation expects the node's input data to contain a binary file '{name}', but none was found"
        raise _fail(ctx, index, f"{message} [item {index}]", f"Make the previous node output binary {name!r}.")
    return binary


async def _apply_auth(ctx: ExecuteContext, index: int, request: Request) -> None:
    authentication = ctx.get_node_parameter("authentication", 0, "none")
    if authentication == "none":
        return
    kind = str(ctx.get_node_parameter("genericAuthType", 0, ""))
    if authentication != "genericCredentialType" or kind not in _GENERIC_AUTH:
        named = ctx.get_node_parameter("nodeCredentialType", 0, "") or kind or authentication
        fix = "Use 'Generic Credential Type' with Basic, Digest, Header, Query or Bearer auth and the same secret."
        raise _fail(ctx, index, f"Authentication with credential type {named!r} is not supported yet", fix)
    creds = await ctx.get_credentials(kind)
    request.allowed_domains = assert_credential_allows_url(ctx.node.name, creds, request.url, item_index=index)
    if kind in ("httpBasicAuth", "httpDigestAuth"):
        auth_class = httpx.BasicAuth if kind == "httpBasicAuth" else httpx.DigestAuth
        request.auth = auth_class(str(creds.get("user") or ""), str(creds.get("password") or ""))
    elif kind == "httpHeaderAuth":
        request.headers[str(creds.get("name"))] = _text(creds.get("value"))
    elif kind == "httpQueryAuth":
        request.params.append((str(creds.get("name")), _text(creds.get("value"))))
    else:
        request.headers["Authorization"] = f"Bearer {_text(creds.get('token'))}"


def _parse_json(ctx: ExecuteContext, raw: Any, field_name: str, index: int) -> Any:
    if isinstance(raw, dict):
        return raw
    try:
        return json.loads(raw)
    except (TypeError, json.JSONDecodeError) as exc:
        raise _fail(ctx, index, f'The value in the "{field_name}" field is not valid JSON', str(exc)) from None


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict | list):
        return json.dumps(value)
    return "" if value is None else str(value)


def _items_of(ctx: ExecuteContext, index: int, item: Item, request: Request, response: httpx.Response) -> list[Item]:
    if ctx.node.typeVersion < 3:
        from weft.library.http_request._http_legacy import legacy_response_items

        return legacy_response_items(ctx, index, item, response, request.downloaded)
    return _response_items(ctx, index, item, request, response)


def _response_items(
    ctx: ExecuteContext, index: int, item: Item, request: Request, response: httpx.Response
) -> list[Item]:
    options = request.response
    fmt, full, prop = options.get("responseFormat") or "autodetect", options.get("fullResponse"), "data"
    prop = str(options.get("outputPropertyName") or prop)
    content_type = response.headers.get("content-type", "")
    if fmt == "autodetect":
        fmt = "json" if "application/json" in content_type else "file" if BINARY_TYPES.search(content_type) else "text"
    paired: PairedItem = {"item": index}
    optimize = response_optimizer(ctx, index)  # the identity unless a tool's "Optimize Response" is on
    meta = {"headers": dict(response.headers), "statusCode": response.status_code}
    meta["statusMessage"] = response.reason_phrase
    if request.downloaded is not None:
        binary = {**(item.get("binary") or {}), prop: request.downloaded}
        return [{"json": dict(meta if full else item.get("json", {})), "binary": binary, "pairedItem": paired}]
    if fmt == "text":
        optimized = optimize(response.text)
        text = optimized if isinstance(optimized, str) else _text(optimized)
        return [{"json": {prop: text, **meta} if full else ({prop: text} if text else {}), "pairedItem": paired}]
    try:
        body = json.loads(response.text) if response.text.strip() else {}
    except json.JSONDecodeError:
        if not options.get("neverError"):
            raise _fail(ctx, index, 'Response body is not valid JSON. Change "Response Format" to "Text"') from None
        body = {}
    body = optimize(body)
    if full:
        return [{"json": {"body": body, **meta}, "pairedItem": paired}]
    values = body if isinstance(body, list) else [body]  # an array gives one item per element
    return [
        {"json": v if isinstance(v, dict) else {"data": v} if v is not None else {}, "pairedItem": paired}
        for v in values
    ]
