"""A response into items (n8n's ``postProcessResponseData`` and ``runPostReceiveAction``).

Without ``postReceive`` actions the body is the item (an array: one item per element). Otherwise the body as one
item goes through each property's actions in order: ``rootProperty`` (the items are what is at the path),
``filter`` (keep the items whose ``pass`` expression holds), ``limit`` (the first ``maxResults``), ``set`` (one
item, the ``value`` expression), ``sort`` (by ``key``, case-insensitive), ``setKeyValue`` (each item rebuilt from
expressions), ``binaryData`` (the body as a file at ``destinationProperty``) and functions (their ports).
Expressions see ``$response`` (the full response), ``$responseItem`` (the item's json), ``$value`` (the
property's value).
"""

from __future__ import annotations

import json
from typing import Any

from weft.nodes.routing.call import RoutingCall
from weft.nodes.routing.functions import is_function, ported
from weft.nodes.routing.jsvalues import parse_int, truthy
from weft.nodes.routing.paths import UNDEFINED, get_path
from weft.nodes.routing.request import PostReceive, RequestData

Items = list[dict[str, Any]]


async def post_process(call: RoutingCall, response: dict[str, Any], data: RequestData) -> Items:
    """The items of ``response`` after the request's ``postReceive`` actions."""
    body = response.get("body")
    items: Items = [{"json": body}]
    if not data.post_receive:
        return [{"json": v} for v in body] if isinstance(body, list) else items
    for group in data.post_receive:
        for action in group.actions:
            items = await run_action(call, action, items, response, group)
    return items


async def run_action(
    call: RoutingCall, action: Any, items: Items, response: dict[str, Any], group: PostReceive
) -> Items:
    if is_function(action):
        fn = ported(action, "postReceive", call.node_name, call.scope.type_name, call.item_index)
        result: Items = await fn(call, items, response)
        return result
    kind, props = action.get("type"), action.get("properties") or {}
    value = group.parameter_value
    if kind == "rootProperty":
        return _root_property(items, str(props.get("property")))
    if kind == "filter":
        keys = {"$response": response, "$value": value, "$version": call.scope.version}
        keys["$credentials"] = call.credentials
        return [i for i in items if truthy(_evaluate(call, props.get("pass"), {**keys, "$responseItem": i["json"]}))]
    if kind == "limit":
        limit = parse_int(_evaluate(call, props.get("maxResults"), {"$response": response, "$value": value}))
        return items[:limit] if limit is not None else []  # slice(0, NaN) is empty
    if kind == "set":
        return [{"json": _evaluate(call, props.get("value"), {"$response": response, "$value": value})}]
    if kind == "sort":
        return sorted(items, key=lambda i: _sort_key(i, str(props.get("key"))))
    if kind == "setKeyValue":
        return [_key_values(call, props, item, response, value) for item in items]
    if kind == "binaryData":
        return await _binary(call, props, items, response, value)
    return []


def _evaluate(call: RoutingCall, expression: Any, keys: dict[str, Any]) -> Any:
    return call.scope.value(expression, call.item_index, {**keys, "$version": call.scope.version})


def _root_property(items: Items, path: str) -> Items:
    out: Items = []
    for item in items:
        content = get_path(item["json"], path)
        for json_value in content if isinstance(content, list) else [content]:
            out.append({"json": {} if json_value is UNDEFINED else json_value})
    return out


def _key_values(
    call: RoutingCall, props: dict[str, Any], item: dict[str, Any], response: Any, value: Any
) -> dict[str, Any]:
    keys = {"$response": response, "$responseItem": item["json"], "$value": value}
    built = {str(k): _evaluate(call, v, keys) for k, v in props.items()}
    return {"json": {k: v for k, v in built.items() if v is not UNDEFINED}}  # as JSON leaves out undefined


def _sort_key(item: dict[str, Any], key: str) -> str:
    """``a.json[key]?.toString().toLowerCase() ?? ''``."""
    found = item["json"].get(key) if isinstance(item["json"], dict) else None
    if found is None:
        return ""
    if isinstance(found, bool):
        return "true" if found else "false"
    if isinstance(found, dict | list):
        return "[object object]" if isinstance(found, dict) else ",".join(map(str, found)).lower()
    return str(found).lower()


async def _binary(
    call: RoutingCall, props: dict[str, Any], items: Items, response: dict[str, Any], value: Any
) -> Items:
    body = response.get("body")
    raw = body if isinstance(body, bytes) else (body if isinstance(body, str) else json.dumps(body)).encode()
    response["body"] = raw
    destination = _evaluate(call, props.get("destinationProperty"), {"$response": response, "$value": value})
    binary = await call.prepare_binary_data(raw)
    for item in items:
        if isinstance(item["json"], str):
            item["json"] = {}
        item["binary"] = {str(destination): binary}
    return items


__all__ = ["post_process", "run_action"]
