"""Pages of a declarative request (n8n's ``RoutingNode.makeRequest`` when the request paginates):
``operations.pagination`` of type ``generic`` (``request``: the options each next request changes, ``continue``:
whether to ask again; both expressions over ``$request`` and ``$response``), ``offset`` (``limitParameter`` and
``offsetParameter`` in the query or body, ``pageSize``, an optional ``rootProperty``; stops at a short page or at
``maxResults``) or a function (its port, given ``make_routing_request``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from weft.errors import NodeOperationError
from weft.nodes.routing.call import RoutingCall
from weft.nodes.routing.functions import is_function, ported
from weft.nodes.routing.jsvalues import truthy
from weft.nodes.routing.paths import UNDEFINED, get_path
from weft.nodes.routing.postreceive import Items, post_process
from weft.nodes.routing.request import RequestData

RawRequest = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]
#: Pages one request may ask for: a ``continue`` expression that never turns false is a description bug.
MAX_PAGES = 10_000


async def paginate(call: RoutingCall, data: RequestData, pagination: Any, raw: RawRequest) -> Items:
    """Every page's items, in order."""
    if is_function(pagination):
        fn = ported(pagination, "pagination", call.node_name, call.scope.type_name, call.item_index)
        result: Items = await fn(call, data)
        return result
    if not isinstance(data.options.get("qs"), dict):
        data.options["qs"] = {}
    kind = pagination.get("type") if isinstance(pagination, Mapping) else None
    if kind == "generic":
        return await _generic(call, data, pagination.get("properties") or {}, raw)
    if kind == "offset":
        return await _offset(call, data, pagination.get("properties") or {}, raw)
    return []


async def _generic(call: RoutingCall, data: RequestData, props: Mapping[str, Any], raw: RawRequest) -> Items:
    items: Items = []
    keys: dict[str, Any] = {"$request": data.options, "$response": {}, "$version": call.scope.version}
    for _ in range(MAX_PAGES):
        keys["$request"] = data.options
        changes = call.scope.value(props.get("request"), call.item_index, keys)
        response = await raw({**data.options, **(changes if isinstance(changes, dict) else {})})
        keys["$response"] = response
        items.extend(await post_process(call, response, data))
        if not truthy(call.scope.value(props.get("continue"), call.item_index, keys)):
            return items
    raise _runaway(call)


async def _offset(call: RoutingCall, data: RequestData, props: Mapping[str, Any], raw: RawRequest) -> Items:
    where = "body" if props.get("type") == "body" else "qs"
    if where == "body" and not isinstance(data.options.get("body"), dict):
        data.options["body"] = {}
    target: dict[str, Any] = data.options[where]
    limit_name, offset_name = str(props.get("limitParameter")), str(props.get("offsetParameter"))
    page_size = int(props.get("pageSize") or 0)
    target[limit_name], target[offset_name] = page_size, 0
    items: Items = []
    for _ in range(MAX_PAGES):
        if data.max_results:
            missing = int(data.max_results) - len(items)
            if missing < 1:
                return items
            target[limit_name] = min(page_size, missing)
        page = await post_process(call, await raw(data.options), data)
        target[offset_name] = target[offset_name] + page_size
        if props.get("rootProperty"):
            page = _root(call, page, str(props["rootProperty"]))
        items.extend(page)
        if not page or len(page) != page_size:
            return items
    raise _runaway(call)


def _root(call: RoutingCall, page: Items, path: str) -> Items:
    found = get_path(page[0]["json"], path) if page else UNDEFINED
    if found is UNDEFINED:
        raise NodeOperationError(
            call.node_name, f'The rootProperty "{path}" could not be found on item.', item_index=call.item_index
        )
    return [{"json": entry} for entry in (found if isinstance(found, list) else [])]


def _runaway(call: RoutingCall) -> NodeOperationError:
    return NodeOperationError(
        call.node_name,
        f"The pagination asked for more than {MAX_PAGES} pages",
        item_index=call.item_index,
        description="Its stop condition never held; set a limit instead of returning all results.",
    )


__all__ = ["paginate"]
