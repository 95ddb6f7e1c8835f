"""Ports of the Microsoft SharePoint node's functions (version 1, the declarative one:
``nodes/Microsoft/SharePoint/v1/helpers/utils.ts`` and the inline functions of its descriptions): file uploads and
downloads, list items' columns (matched by column values for update and upsert), the simplified outputs, and the
node's words for SharePoint's errors."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote

from weft.errors import NodeOperationError
from weft.nodes.routing.call import RoutingCall
from weft.nodes.routing.functions import port
from weft.nodes.routing.ports.common import failed, response_error
from weft.nodes.routing.ports.microsoft_common import js_string
from weft.nodes.routing.postreceive import Items

_FILENAME_STAR = re.compile(r"filename\*=(?:(\\?['\"])(.*?)\1|(?:[^\s]+'.*?')?([^;\n]*))")
_FILENAME = re.compile(r'filename="?([^"]*?)"?(;|$)')
_NO_MATCH = "The column(s) don't match any existing item"
_NO_MATCH_HINT = "Double-check the value(s) for the columns to match and try again"


async def sharepoint_request(
    call: RoutingCall,
    method: str,
    endpoint: str,
    body: Any = None,
    qs: Mapping[str, Any] | None = None,
    headers: Mapping[str, str] | None = None,
) -> Any:
    """``microsoftSharePointApiRequest``: a JSON request to the tenant's SharePoint (the credential's subdomain)
    with the node's credential; its body."""
    subdomain = str((call.credentials or {}).get("subdomain") or "").strip()
    options: dict[str, Any] = {
        "method": method,
        "url": f"https://{subdomain}.sharepoint.com/_api/v2.0{endpoint}",
        "json": True,
        "headers": dict(headers or {}),
        "body": body if body is not None else {},
    }
    if qs:
        options["qs"] = dict(qs)
    response = await call.send_authenticated(options)
    return response.get("body")


async def _binary(call: RoutingCall) -> bytes:
    """The bytes of the input item's binary property named by ``fileContents``."""
    name = call.get_node_parameter("fileContents")
    ctx = call.scope.ctx
    ctx.assert_binary_data(call.item_index, name)
    return await ctx.get_binary_data_buffer(call.item_index, name)


@port("preSend", "uploadFilePreSend", "f8b390e658392b1c")
async def upload_file(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    options["body"] = await _binary(call)
    return options


@port("postReceive", "", "06a33b332c31c953")
async def update_file_content(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """With ``changeFileContent``, the file's new content after its metadata: the item is the file then."""
    for item in items:
        site = call.get_node_parameter("site", None, extract_value=True)
        file = call.get_node_parameter("file", None, extract_value=True)
        data = await _binary(call)
        item["json"] = await sharepoint_request(
            call, "PUT", f"/sites/{js_string(site)}/drive/items/{js_string(file)}/content", data
        )
    return items


def _header(headers: Any, name: str) -> Any:
    if not isinstance(headers, Mapping):
        return None
    return next((value for key, value in headers.items() if str(key).lower() == name), None)


def file_name(disposition: Any) -> str | None:
    """The file name of a ``Content-Disposition`` header (``filename*`` first, percent-decoded)."""
    if not disposition:
        return None
    text = str(disposition)
    found = _FILENAME_STAR.search(text)
    name = (found.group(3) or found.group(2)) if found else None
    if name:
        return unquote(name, errors="strict")
    plain = _FILENAME.search(text)
    return plain.group(1) if plain else None


@port("postReceive", "downloadFilePostReceive", "3fb9c68509e6f6b5")
async def download_file(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    headers = response.get("headers")
    body = response.get("body")
    data = body if isinstance(body, bytes) else (body if isinstance(body, str) else json.dumps(body)).encode()
    name = file_name(_header(headers, "content-disposition"))
    binary = await call.prepare_binary_data(data, name, _header(headers, "content-type"))
    return [{"json": {}, "binary": {"data": binary}}]


@port("postReceive", "simplifyItemPostReceive", "0c59b3738579c355")
async def simplify_item(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    if items and call.get_node_parameter("simplify"):
        for item in items:
            found = item.get("json")
            if not isinstance(found, dict):
                continue
            for key in ("@odata.context", "@odata.etag", "fields@odata.navigationLink"):
                found.pop(key, None)
            if isinstance(found.get("fields"), dict):
                found["fields"].pop("@odata.etag", None)
    return items


@port("postReceive", "simplifyListPostReceive", "c66ccf45bce6b153")
async def simplify_list(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    if items and call.get_node_parameter("simplify"):
        for item in items:
            if isinstance(item.get("json"), dict):
                item["json"].pop("@odata.context", None)
                item["json"].pop("@odata.etag", None)
    return items


def _qs(options: dict[str, Any]) -> dict[str, Any]:
    qs = options.get("qs")
    if not isinstance(qs, dict):
        qs = options["qs"] = {}
    return qs


@port("preSend", "", "64de47c916c28ce6")
async def simplify_item_query(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    if call.get_node_parameter("simplify", False):
        qs = _qs(options)
        qs["$select"] = "id,createdDateTime,lastModifiedDateTime,webUrl"
        qs["$expand"] = "fields(select=Title)"
    return options


@port("preSend", "itemGetAllFieldsPreSend", "02a3954838f7470a")
async def item_fields(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    fields = call.get_node_parameter("options.fields")
    fields = fields if isinstance(fields, list) else []
    qs = _qs(options)
    if "fields" in fields:
        qs["$expand"] = "fields"
    qs["$select"] = list(fields)
    return options


async def _match_item(call: RoutingCall, mapper: dict[str, Any]) -> None:
    """The one item whose columns hold the matching columns' values: its ``id`` joins the matching columns."""
    site = js_string(call.get_node_parameter("site", None, extract_value=True))
    listed = js_string(call.get_node_parameter("list", None, extract_value=True))
    values = mapper.get("value") or {}
    wanted = " and".join(f"fields/{name} eq '{_text(values.get(name))}'" for name in mapper["matchingColumns"])
    found = await sharepoint_request(
        call,
        "GET",
        f"/sites/{site}/lists/{listed}/items",
        {},
        {"$filter": wanted},
        {"Prefer": "HonorNonIndexedQueriesWarningMayFailRandomly"},
    )
    rows = found.get("value") if isinstance(found, dict) else None
    if isinstance(rows, list) and len(rows) == 1:
        mapper["matchingColumns"].append("id")
        mapper["value"] = mapper.get("value") or {}
        mapper["value"]["id"] = (rows[0] or {}).get("id")


def _text(value: Any) -> str:
    """A value in a template string (``undefined`` for an absent one)."""
    return "undefined" if value is None else js_string(value)


def _no_match(call: RoutingCall) -> NodeOperationError:
    return NodeOperationError(call.node_name, _NO_MATCH, description=_NO_MATCH_HINT, item_index=call.item_index)


@port("preSend", "itemColumnsPreSend", "4c0b6f344a215bc0")
async def item_columns(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """The columns as the item's ``fields`` (a URL column as ``{Description, Url}``); for update and upsert the
    item is the one the matching columns find (update: it must exist; upsert: else a new one)."""
    mapper = call.get_node_parameter("columns")
    mapper = mapper if isinstance(mapper, dict) else {}
    operation = call.get_node_parameter("operation")
    matching = mapper.get("matchingColumns")
    if operation in ("upsert", "update") and isinstance(matching, list) and matching:
        if "id" not in matching:
            await _match_item(call, mapper)
        values = mapper.get("value") if isinstance(mapper.get("value"), dict) else None
        found_id = (values or {}).get("id")
        if operation == "upsert" and "id" in matching:
            if not found_id:
                raise _no_match(call)
            options["url"] = f"{js_string(options.get('url'))}/{js_string(found_id)}"
            del mapper["value"]["id"]
            options["method"] = "PATCH"
        elif operation == "update":
            if "id" not in matching or not found_id:
                raise _no_match(call)
            options["url"] = f"{js_string(options.get('url'))}/{js_string(found_id)}"
            del mapper["value"]["id"]
    schema = {entry.get("id"): entry for entry in mapper.get("schema") or [] if isinstance(entry, dict)}
    fields: dict[str, Any] = {}
    for key, value in (mapper.get("value") or {}).items():
        is_url = (schema.get(key) or {}).get("type") == "url"
        fields[key] = {"Description": value, "Url": value} if is_url else value
    body = options.get("body")
    if not isinstance(body, dict):
        body = options["body"] = {}
    body["fields"] = fields
    return options


_ITEM_WORDS = {
    "create": "Double-check the value(s) in 'Values to Send' and try again",
    "update": "Double-check the value(s) in 'Values to Update' and try again",
    "upsert": "Double-check the value(s) in 'Values to Send' and try again",
}
_UNIQUE = "One or more fields with unique constraints already has the provided value."


@port("postReceive", "handleErrorPostReceive", "fcb80f14922c2889")
async def handle_error(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """The node's words for SharePoint's ``{"error": {"code", "message"}}`` answers."""
    if not failed(response):
        return items
    resource, operation = call.parameters.get("resource"), call.parameters.get("operation")
    if resource == "file" and operation == "download" and isinstance(response.get("body"), bytes):
        response["body"] = _json(call, response["body"])
    body = response.get("body")
    error = body.get("error") if isinstance(body, dict) else None
    error = error if isinstance(error, dict) else {}
    code, message = error.get("code"), error.get("message")
    words = _ITEM_WORDS.get(str(operation)) if resource == "item" else None
    if words and code == "invalidRequest":
        unique = operation == "create" and message == _UNIQUE
        shown = _UNIQUE.rstrip(".") if unique else js_string(message) if message is not None else None
        raise response_error(call, response, message=shown, description=words)
    if code == "itemNotFound":
        text = js_string(message)
        if "list item" in text:
            raise response_error(
                call,
                response,
                message="The required item doesn't match any existing one",
                description="Double-check the value in the parameter 'Item' and try again",
            )
        if "list" in text:
            raise response_error(
                call,
                response,
                message="The required list doesn't match any existing one",
                description="Double-check the value in the parameter 'List' and try again",
            )
    raise response_error(call, response)


def _json(call: RoutingCall, data: bytes) -> Any:
    """n8n's ``jsonParse`` of an error body that came as bytes."""
    try:
        return json.loads(data.decode("utf-8", "replace"))
    except ValueError as error:
        raise NodeOperationError(call.node_name, f"{error}", item_index=call.item_index) from error
