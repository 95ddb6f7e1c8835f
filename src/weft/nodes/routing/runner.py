"""Running a declarative node (n8n's ``RoutingNode.runNode``): per input item, build the request from the
description, run its ``preSend`` functions, send it with the node's credential (one page, or every page), turn
the answers into items; all items' requests in flight together (spaced by the ``requestOptions.batching``
option), their items in input order. A failed item fails the node, or, when the node continues on fail, gives
``{json: {}, error}``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from weft.errors import NodeApiError, NodeOperationError, WeftError
from weft.nodes.contract import ExecuteContext
from weft.nodes.routing import transport
from weft.nodes.routing.authenticate import (
    Credential,
    allowed_domains,
    authenticated,
    before_request,
    load_credential,
    renew_after,
)
from weft.nodes.routing.call import RoutingCall
from weft.nodes.routing.functions import ported
from weft.nodes.routing.jsvalues import parse_int
from weft.nodes.routing.pagination import paginate
from weft.nodes.routing.postreceive import Items, post_process
from weft.nodes.routing.request import RequestData, build_request, resolve_base_url
from weft.nodes.routing.scope import RoutingScope
from weft.workflow import Item


class RoutingRun:
    """One run of a declarative node."""

    def __init__(self, ctx: ExecuteContext, description: Mapping[str, Any]) -> None:
        self.ctx = ctx
        self.scope = RoutingScope(ctx, description)
        self.clients = transport.Clients()
        self.credential: Credential | None = None

    async def run(self) -> list[Item]:
        items = self.ctx.get_input_data()
        self.credential = await load_credential(self.scope)
        request_options = self.scope.parameter("requestOptions", 0, {}) or {}
        batch = (
            ((request_options.get("batching") or {}).get("batch") or {}) if isinstance(request_options, dict) else {}
        )
        size = int(batch.get("batchSize") or 0)
        size, interval = (size if size > 0 else 1), float(batch.get("batchInterval") or 0)
        started: list[asyncio.Future[Items]] = []
        prepared: list[RequestData | None] = []
        try:
            for index in range(len(items)):
                if index > 0 and interval > 0 and index % size == 0:
                    await asyncio.sleep(interval / 1000)
                started.append(await self._start(index, request_options, prepared))
            results = await asyncio.gather(*started, return_exceptions=True)
        finally:
            await self.clients.aclose()
        return self._collect(results, prepared)

    async def _start(
        self, index: int, request_options: dict[str, Any], prepared: list[RequestData | None]
    ) -> asyncio.Future[Items]:
        try:
            data = self._prepare(index, request_options)
        except WeftError as error:
            prepared.append(None)
            future: asyncio.Future[Items] = asyncio.get_running_loop().create_future()
            future.set_exception(error)
            return future
        prepared.append(data)
        return asyncio.ensure_future(self._make_request(index, data))

    def _keys(self) -> dict[str, Any]:
        return {"$credentials": self.credential.data if self.credential else None, "$version": self.scope.version}

    def _prepare(self, index: int, request_options: dict[str, Any]) -> RequestData:
        data = build_request(self.scope, index, self._keys())
        proxy = str(request_options.get("proxy") or "")
        if proxy:
            data.options["proxy"] = _proxy(self.scope.node_name, proxy, index)
        if request_options.get("allowUnauthorizedCerts"):
            data.options["skipSslCertificateValidation"] = True
        data.options["timeout"] = request_options.get("timeout") or transport.DEFAULT_TIMEOUT_MS
        if self.credential is not None:
            allowed = self._allowed_domains(index, data.options.get("baseURL"))
            if allowed:
                data.options["allowedDomains"] = allowed
        return data

    def _allowed_domains(self, index: int, base_url: Any) -> str | None:
        """The credential's allowlist; the node owns its endpoint when the ``baseURL`` is the one no parameter
        shapes (n8n 2.41's ``resolveBaseUrl`` with ``$parameter`` empty)."""
        assert self.credential is not None
        if self.credential.data.get("allowedHttpRequestDomains") not in ("none", "domains"):
            return None
        keys = {**self._keys(), "$parameter": {}, "$rawParameter": {}}
        owned = _host(base_url) is not None and _host(base_url) == _host(resolve_base_url(self.scope, index, keys))
        endpoint = str(base_url) if base_url else None
        return allowed_domains(self.scope.node_name, self.credential.data, owned, endpoint, index)

    # ------------------------------------------------------------------ one item

    def _call(self, index: int) -> RoutingCall:
        return RoutingCall(
            scope=self.scope,
            item_index=index,
            send_authenticated=lambda options: self._raw(index, options),
            credentials=self.credential.data if self.credential else None,
        )

    async def _make_request(self, index: int, data: RequestData) -> Items:
        call = self._call(index)
        for marker in data.pre_send:
            fn = ported(marker, "preSend", self.scope.node_name, self.scope.type_name, index)
            data.options = await fn(call, data.options)
        pagination = data.operations.get("pagination")
        if data.paginate and pagination is not None:

            async def routing_request(request: RequestData) -> Items:
                return await post_process(call, await self._raw(index, request.options), request)

            call.make_routing_request = routing_request
            return await paginate(call, data, pagination, lambda options: self._raw(index, options))
        return await post_process(call, await self._raw(index, data.options), data)

    async def _raw(self, index: int, options: dict[str, Any]) -> dict[str, Any]:
        """n8n's ``rawRoutingRequest``: the full response, with the credential (``httpRequestWithAuthentication``)."""
        options = {**options, "returnFullResponse": True}
        if self.credential is None:
            try:
                return await transport.send(self.ctx, index, options, self.clients)
            except NodeApiError as error:  # n8n wraps axios's own error here: its message, not the status's
                if error.http_code:
                    error.message = f"Request failed with status code {error.http_code}"
                raise
        await before_request(self.scope, self.credential, self.clients, index)
        sent_token = self.credential.access_token
        try:
            sent = await authenticated(self.scope, self.credential, _copy(options), index)
            return await transport.send(self.ctx, index, sent, self.clients)
        except NodeApiError as error:
            if not await renew_after(self.scope, self.credential, error.http_code, sent_token, self.clients, index):
                raise
            sent = await authenticated(self.scope, self.credential, _copy(options), index)
            return await transport.send(self.ctx, index, sent, self.clients)

    # ------------------------------------------------------------------ results

    def _collect(self, results: list[Items | BaseException], prepared: list[RequestData | None]) -> list[Item]:
        out: list[Item] = []
        for index, result in enumerate(results):
            if isinstance(result, BaseException):
                error = _as_node_error(self.scope.node_name, result, index)
                if self.ctx.continue_on_fail():
                    out.append({"json": {}, "error": error.to_json()})
                    continue
                raise error
            data = prepared[index]
            limit = parse_int(data.max_results) if data is not None and data.max_results else None
            out.extend(_item(i) for i in (result[:limit] if limit is not None else result))
        return out


def _as_node_error(node_name: str, error: BaseException, index: int) -> WeftError:
    """The error of a failed item. (n8n rewords a 429 as "Try spacing your requests out…" only for an error with a
    ``statusCode``, which none of its request errors has: its users see the status code's message, so do Weft's.)"""
    if isinstance(error, WeftError):
        return error
    if isinstance(error, Exception):
        return NodeOperationError(node_name, str(error) or type(error).__name__, item_index=index)
    raise error


def _item(item: dict[str, Any]) -> Item:
    """An item as the engine carries it (a non-object ``json`` as n8n's output shows it: ``{}``)."""
    json_value = item.get("json")
    out: Item = {"json": json_value if isinstance(json_value, dict) else {}}
    for key in ("binary", "pairedItem", "error"):
        if key in item:
            out[key] = item[key]  # type: ignore[literal-required]
    return out


def _copy(options: dict[str, Any]) -> dict[str, Any]:
    return {k: (dict(v) if isinstance(v, dict) else v) for k, v in options.items()}


def _host(url: Any) -> str | None:
    try:
        host = urlsplit(str(url)).hostname if url else None
    except ValueError:
        return None
    return host.lower().rstrip(".") if host else None


def _proxy(node_name: str, proxy: str, index: int) -> dict[str, Any]:
    parts = urlsplit(proxy if "://" in proxy else f"http://{proxy}")
    for name, value in (("host", parts.hostname), ("port", parts.port)):
        if value is None:
            raise NodeOperationError(
                node_name,
                "The proxy is not valid",
                item_index=index,
                description=f'The proxy URL does not contain a valid value for "{name}"',
            )
    found: dict[str, Any] = {"host": parts.hostname, "port": parts.port, "protocol": parts.scheme or None}
    if parts.username is not None:
        found["auth"] = {"username": parts.username, "password": parts.password or ""}
    return found


__all__ = ["RoutingRun"]
