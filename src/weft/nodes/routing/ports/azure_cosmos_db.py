"""Ports of the Azure Cosmos DB node's functions (``nodes/Microsoft/AzureCosmosDb/helpers/utils.ts``,
``errorHandler.ts`` and the inline ones of its descriptions)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from weft.errors import NodeApiError, NodeOperationError
from weft.nodes.routing.call import RoutingCall
from weft.nodes.routing.functions import port
from weft.nodes.routing.jsvalues import text, truthy
from weft.nodes.routing.paths import UNDEFINED
from weft.nodes.routing.ports.azure_common import service_error
from weft.nodes.routing.ports.common import failed
from weft.nodes.routing.postreceive import Items

Options = dict[str, Any]
PARTITION_KEY_HEADER = "x-ms-documentdb-partitionkey"
_DEFAULT_PARTITION_KEY = {"paths": ["/id"], "kind": "Hash", "version": 2}
_CONTAINER_MISSING = "Double-check the value in the parameter 'Container' and try again."
_ITEM_MISSING = "Double-check the values in the parameter 'Item' and 'Partition Key' (if applicable) and try again."


def _fail(call: RoutingCall, message: str, description: str | None = None) -> NodeOperationError:
    return NodeOperationError(call.node_name, message, description=description, item_index=call.item_index)


def _body(options: Options) -> dict[str, Any]:
    body = options.get("body")
    if not isinstance(body, dict):
        body = options["body"] = {}
    return body


def process_json_input(
    call: RoutingCall, data: Any, input_name: str, fallback: Any = None, no_spaces_in: tuple[str, ...] = ()
) -> Any:
    """``processJsonInput``: a JSON text parsed (``fallback`` for one that does not parse, when given) or an
    object as it is; the keys of ``no_spaces_in`` must hold no space."""
    named = f"'{input_name}' "
    if isinstance(data, str):
        try:
            values = json.loads(data)
        except ValueError:
            if fallback is None:
                raise _fail(call, f"Input {named}must contain a valid JSON") from None
            values = fallback
    elif isinstance(data, dict | list) and data is not None:
        values = data
    else:
        raise _fail(call, f"Input {named}must contain a valid JSON")
    for key in no_spaces_in:
        value = values.get(key) if isinstance(values, dict) else None
        if isinstance(value, str) and " " in value:
            raise _fail(call, f"'{input_name}' property '{key}' should not contain spaces (received \"{value}\")")
    return values


@port("postReceive", "handleError", "896ed820f0d83258")
async def handle_error(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """``handleError``: an error answer as n8n words it (a missing or clashing container, a missing item; else
    Cosmos DB's code, with the errors its message lists)."""
    if not failed(response):
        return items
    resource = call.get_node_parameter("resource")
    body = response.get("body")
    error: dict[str, Any] = body if isinstance(body, dict) else {}
    code = error.get("code")
    if resource == "container" and code == "Conflict":
        name = call.get_node_parameter("containerCreate", None)
        raise service_error(call, error, message=f'Container "{_or_unknown(name)}" already exists.',
                            description="Use a unique value for 'ID' and try again.")  # fmt: skip
    if resource == "container" and code == "NotFound":
        name = call.get_node_parameter("container", None, extract_value=True)
        raise service_error(call, error, message=f'Container "{_or_unknown(name)}" was not found.',
                            description=_CONTAINER_MISSING)  # fmt: skip
    if resource == "item" and code == "NotFound":
        name = call.get_node_parameter("item", None, extract_value=True)
        raise service_error(
            call, error, message=f'Item "{_or_unknown(name)}" was not found.', description=_ITEM_MISSING
        )
    message = error.get("message")
    try:
        nested = json.loads(message) if isinstance(message, str) else None
        message = nested.get("message") if isinstance(nested, dict) else message
    except ValueError:
        pass
    details = _listed_errors(message)
    described = "\n".join(text(d) for d in details) if details else error.get("message")
    raise service_error(call, error, message=code if code else error.get("message"), description=described)


def _or_unknown(value: Any) -> Any:
    return "Unknown" if value is None or value is UNDEFINED else text(value)


def _listed_errors(message: Any) -> list[Any]:
    """The ``Errors`` of the ``Message: {…}`` a Cosmos DB message may hold."""
    match = re.search(r"Message: ({.*?})", message) if isinstance(message, str) else None
    if not match:
        return []
    try:
        found = json.loads(match.group(1))
    except ValueError:
        return []
    errors = found.get("Errors") if isinstance(found, dict) else None
    return list(errors) if isinstance(errors, list) else []


@port("postReceive", "simplifyData", "e4b57b29450b5337")
async def simplify_data(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """``simplifyData``: without the system properties (``_rid``, ``_self``, ``_etag`` …) when ``simple``."""
    if not call.get_node_parameter("simple"):
        return items
    out: Items = []
    for item in items:
        found = item.get("json")
        out.append({"json": {k: v for k, v in found.items() if not str(k).startswith("_")}
                    if isinstance(found, dict) else {}})  # fmt: skip
    return out


@port("preSend", "", "ccdeabb339633466")
async def container_id(call: RoutingCall, options: Options) -> Options:
    """The new container's ``id``: letters, digits, hyphens and underscores only."""
    name = text(call.get_node_parameter("containerCreate"))
    if re.search(r"\s", name):
        raise _fail(call, "The container ID must not contain spaces.")
    if not re.fullmatch(r"[a-zA-Z0-9\-_]+", name):
        raise _fail(call, "The container ID may only contain letters, numbers, hyphens, and underscores.")
    _body(options)["id"] = name
    return options


@port("preSend", "", "1dbff32eca1ee5c9")
async def container_partition_key(call: RoutingCall, options: Options) -> Options:
    raw = call.get_node_parameter("partitionKey")
    _body(options)["partitionKey"] = process_json_input(call, raw, "Partition Key", dict(_DEFAULT_PARTITION_KEY))
    return options


@port("preSend", "", "ecd101dbe775f4e7")
async def container_indexing_policy(call: RoutingCall, options: Options) -> Options:
    raw = call.get_node_parameter("additionalFields.indexingPolicy")
    _body(options)["indexingPolicy"] = process_json_input(call, raw, "Indexing Policy")
    return options


@port("preSend", "", "44e4c47c8c550735")
async def item_contents(call: RoutingCall, options: Options) -> Options:
    """The new item: the ``Item Contents`` JSON (its ``id`` without spaces)."""
    raw = call.get_node_parameter("customProperties")
    options["body"] = process_json_input(call, raw, "Item Contents", no_spaces_in=("id",))
    return options


async def partition_key_field(call: RoutingCall) -> str:
    """``getPartitionKey``: the container's partition key path (``/id`` → ``id``), read from Cosmos DB."""
    container = call.get_node_parameter("container", None, extract_value=True)
    credentials = call.credentials or {}
    base = f"https://{text(credentials.get('account'))}.documents.azure.com/dbs/{text(credentials.get('database'))}"
    options = {"method": "GET", "url": f"{base}/colls/{text(container)}", "json": True, "body": {}}
    try:
        answer = await call.send_authenticated(options)
    except NodeApiError as error:
        if error.http_code == 404:
            error.message = f'Container "{_or_unknown(container)}" was not found.'
            error.description = _CONTAINER_MISSING
        raise
    body = answer.get("body") if isinstance(answer, Mapping) else None
    paths = (body.get("partitionKey") or {}).get("paths") if isinstance(body, dict) else None
    first = paths[0] if isinstance(paths, list) and paths else None
    field = first.replace("/", "", 1) if isinstance(first, str) else None
    if not field:
        raise _fail(call, "Partition key not found", "Failed to determine the partition key for this collection")
    return field


@port("preSend", "validatePartitionKey", "9faa6eba3884d841")
async def validate_partition_key(call: RoutingCall, options: Options) -> Options:
    """``validatePartitionKey``: the item's partition key value as ``x-ms-documentdb-partitionkey`` (from the
    contents for a new item; the item id or the ``Partition Key`` field otherwise; an update's body gets both)."""
    operation = call.get_node_parameter("operation")
    contents = call.get_node_parameter("customProperties", {})
    field = await partition_key_field(call)
    if isinstance(contents, str):
        try:
            contents = json.loads(contents)
        except ValueError:
            raise _fail(call, 'Invalid JSON format in "Item Contents"',
                        'Ensure the "Item Contents" field contains a valid JSON object') from None  # fmt: skip
    value: Any = ""
    if operation == "create":
        if not isinstance(contents, dict) or not truthy(contents.get(field)):
            raise _fail(call, "Partition key not found in 'Item Contents'", f"Partition key '{field}' must be "
                        "present and have a valid, non-empty value in 'Item Contents'.")  # fmt: skip
        value = contents[field]
    elif operation in ("update", "delete", "get"):
        value = _partition_key_value(call, field)
        if operation == "update":
            body = _body(options)
            body["id"] = _text_or_empty(call.get_node_parameter("item", None, extract_value=True))
            body[field] = value
    options["headers"] = {**(options.get("headers") or {}), PARTITION_KEY_HEADER: f'["{text(value)}"]'}
    return options


def _partition_key_value(call: RoutingCall, field: str) -> str:
    try:
        if field == "id":
            value = _text_or_empty(call.get_node_parameter("item", None, extract_value=True))
        else:
            value = _text_or_empty(call.get_node_parameter("additionalFields.partitionKey"))
    except NodeOperationError:
        value = ""
    if not value:
        raise _fail(call, "Partition key is missing or empty",
                    'Ensure the "Partition Key" field exists and has a valid, non-empty value.')  # fmt: skip
    return value


def _text_or_empty(value: Any) -> str:
    return "" if value is None or value is UNDEFINED else text(value)


@port("preSend", "validateQueryParameters", "f05f84bce0867903")
async def validate_query_parameters(call: RoutingCall, options: Options) -> Options:
    """``validateQueryParameters``: the query's ``$1``, ``$2`` … (``@Param1`` …) with the values given (a comma
    list of strings, or a JSON array of any values)."""
    query = text(call.get_node_parameter("query", ""))
    query_options = call.get_node_parameter("options.queryOptions") or {}
    names = re.findall(r"@[A-Za-z0-9_]+", re.sub(r"\$(\d+)", r"@Param\1", query))
    as_json, as_list = query_options.get("queryParametersJson"), query_options.get("queryParameters")
    values: list[Any]
    if as_json:
        try:
            parsed = json.loads(as_json) if isinstance(as_json, str) else as_json
        except ValueError:
            raise _fail(call, "Query Parameters (JSON) must be a valid JSON array") from None
        if not isinstance(parsed, list):
            raise _fail(call, "Query Parameters (JSON) must be a JSON array",
                        'Provide values as a JSON array, e.g. [1737062400000, "01234", true, null]')  # fmt: skip
        values = parsed
    else:
        values = [part.strip() for part in text(as_list).split(",")] if as_list else []
    if len(names) != len(values):
        raise _fail(call, "Empty parameter value provided", "Please provide non-empty values for the query parameters")
    body = _body(options)
    body["parameters"] = [{"name": name, "value": value} for name, value in zip(names, values, strict=True)]
    return options


@port("preSend", "validateCustomProperties", "4df502f3673f505b")
async def validate_custom_properties(call: RoutingCall, options: Options) -> Options:
    """``validateCustomProperties``: an update's ``Item Contents``, which must set something."""
    contents = process_json_input(call, call.get_node_parameter("customProperties"), "Item Contents")
    values = list(contents.values()) if isinstance(contents, dict) else []
    if not values or all(v is None or v is UNDEFINED or v == "" for v in values):
        raise _fail(call, "Item contents are empty",
                    'Ensure the "Item Contents" field contains at least one valid property.')  # fmt: skip
    options["body"] = {**_body(options), **contents}
    return options


__all__ = ["partition_key_field", "process_json_input"]
