"""Ports of the Google Cloud Storage node's functions (``nodes/Google/CloudStorage``: ``GenericFunctions.ts``,
``BucketDescription.ts``, ``ObjectDescription.ts``): the service account's token, the JSON fields of a bucket or
object body, the options merged into the query and headers, the pages (``nextPageToken``), an object's upload (a
``multipart/related`` body: its metadata, then its content) and its download as binary data.

n8n 2.41 uploads a binary kept on disk in chunks (a resumable upload, then a read of the object); Weft sends every
upload as one multipart request, which Google answers with the same object."""

from __future__ import annotations

import json
from typing import Any

from weft.nodes.routing.call import RoutingCall
from weft.nodes.routing.functions import port
from weft.nodes.routing.ports.form_data import Part, encode, new_boundary
from weft.nodes.routing.ports.google_service_account import service_account_token
from weft.nodes.routing.postreceive import Items
from weft.nodes.routing.request import RequestData

#: n8n's ``googleServiceAccountScopes.cloudStorage``.
SCOPES = "https://www.googleapis.com/auth/devstorage.full_control https://www.googleapis.com/auth/cloud-platform"
#: A bucket page's size when not all are asked for, by ``projection``.
_PAGE_LIMITS = {"noAcl": 1000, "full": 200}
_BUCKET_JSON = (
    "acl",
    "billing",
    "cors",
    "customPlacementConfig",
    "dataLocations",
    "defaultObjectAcl",
    "encryption",
    "iamConfiguration",
    "labels",
    "lifecycle",
    "logging",
    "retentionPolicy",
    "versioning",
    "website",
)


def _parsed(value: Any) -> Any:
    """``try { value = JSON.parse(value) } catch {}``."""
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value


def _dict(value: Any) -> dict[str, Any]:
    return dict(value) if isinstance(value, dict) else {}


def _merged(options: dict[str, Any], where: str, extra: Any) -> None:
    """``options[where] = Object.assign(options[where] || {}, extra)``."""
    options[where] = {**_dict(options.get(where)), **_dict(extra)}


@port("preSend", "authenticateServiceAccount", "beb9c9c46d0c8baa")
async def authenticate_service_account(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """With ``authentication`` ``serviceAccount``: the account's token as a bearer header (OAuth2 needs nothing)."""
    if call.get_node_parameter("authentication") != "serviceAccount":
        return options
    credentials = call.credentials or await call.scope.ctx.get_credentials("googleApi")
    token = await service_account_token(call.scope.ctx, call.item_index, credentials, SCOPES)
    options["headers"] = {**_dict(options.get("headers")), "Authorization": f"Bearer {token}"}
    return options


@port("preSend", "parseJSONBody", "ddbe198db57c57ab")
async def parse_json_body(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """A bucket's body: the ``createBody`` fields, the JSON ones parsed (text that is no JSON is sent as it is)."""
    body = _dict(call.get_node_parameter("createBody"))
    for name in _BUCKET_JSON:
        if body.get(name):
            body[name] = _parsed(body[name])
    _merged(options, "body", body)
    return options


@port("preSend", "", "2c626b9b1fd58ce0")
async def bucket_page_size(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    options["qs"] = _dict(options.get("qs"))
    if not call.get_node_parameter("returnAll"):
        key = call.get_node_parameter("projection")
        options["qs"]["maxResults"] = _PAGE_LIMITS["noAcl"] if key == "noAcl" else _PAGE_LIMITS["full"]
    return options


async def _pages(call: RoutingCall, data: RequestData) -> Items:
    """Every ``items`` entry of the pages (only the first page unless ``returnAll``)."""
    assert call.make_routing_request is not None
    data.options["qs"] = _dict(data.options.get("qs"))
    return_all = call.get_node_parameter("returnAll")
    found: Items = []
    token: Any = None
    while True:
        data.options["qs"]["pageToken"] = token
        page = await call.make_routing_request(data)
        last = page[-1].get("json") if page else None
        token = last.get("nextPageToken") if isinstance(last, dict) else None
        for entry in page:
            listed = entry.get("json", {}).get("items") if isinstance(entry.get("json"), dict) else None
            if listed:
                found.extend({"json": item} for item in listed)
        if not (return_all and token):
            return found


@port("pagination", "pagination", "4a35d9f2bde6c7de", "7268ddf355008c97")
async def pagination(call: RoutingCall, data: RequestData) -> Items:
    return await _pages(call, data)


@port("preSend", "", "1a810fb701777cb4")
async def create_query_and_headers(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    _merged(options, "qs", call.get_node_parameter("createQuery"))
    _merged(options, "headers", call.get_node_parameter("encryptionHeaders"))
    return options


async def _content(call: RoutingCall) -> tuple[bytes, str]:
    if not call.get_node_parameter("createFromBinary"):
        text = call.get_node_parameter("createContent")
        return str(text).encode(), "text/plain"
    ctx, name = call.scope.ctx, call.get_node_parameter("createBinaryPropertyName")
    binary = ctx.assert_binary_data(call.item_index, name)
    data = await ctx.get_binary_data_buffer(call.item_index, name)
    return data, str(binary.get("mimeType") or "application/octet-stream")


@port("preSend", "", "31fdd5be33409270")
async def create_body(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """The object's upload: its metadata (``objectName`` and the ``createData`` fields, ``acl`` and ``metadata``
    parsed) and its content (text, or the item's binary data) as one ``multipart/related`` body."""
    metadata: dict[str, Any] = {"name": call.get_node_parameter("objectName")}
    fields = _dict(call.get_node_parameter("createData"))
    for name in ("acl", "metadata"):
        if fields.get(name):
            fields[name] = _parsed(fields[name])
    metadata.update(fields)
    content, content_type = await _content(call)
    boundary = new_boundary()
    meta = json.dumps(metadata, separators=(",", ":"), ensure_ascii=False).encode()
    body = encode([Part("metadata", meta, "application/json"), Part("file", content, content_type)], boundary)
    headers = _dict(options.get("headers"))
    headers["Content-Length"] = len(body)
    headers["Content-Type"] = f"multipart/related; boundary={boundary}"
    options["headers"] = headers
    options["body"] = body
    return options


@port("preSend", "", "48e5b4fb28990cbd")
async def get_options(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    if call.get_node_parameter("alt") == "media":
        options["encoding"] = "arraybuffer"
    _merged(options, "qs", call.get_node_parameter("getParameters"))
    _merged(options, "headers", call.get_node_parameter("encryptionHeaders"))
    return options


@port("postReceive", "", "beaf6a81001a4d3e")
async def object_data(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """With ``alt`` ``media``: the object's content as binary data (the items' json emptied)."""
    if call.get_node_parameter("alt") != "media":
        return items
    destination = call.get_node_parameter("binaryPropertyName")
    content = response.get("body")
    data = content if isinstance(content, bytes) else str(content or "").encode()
    binary = await call.prepare_binary_data(data, call.get_node_parameter("objectName"))
    return [{**item, "json": {}, "binary": {destination: binary}} for item in items]


@port("preSend", "", "1f3f273d9757fc8e")
async def object_list_query(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    _merged(options, "qs", call.get_node_parameter("listFilters"))
    if not call.get_node_parameter("returnAll"):
        options["qs"]["maxResults"] = call.get_node_parameter("maxResults")
    return options


@port("preSend", "", "7891a6ca8d12f621")
async def update_object(call: RoutingCall, options: dict[str, Any]) -> dict[str, Any]:
    """An object's new metadata (``updateData``, ``acl`` and ``metadata`` parsed), with the conditions and
    encryption headers."""
    body = _dict(call.get_node_parameter("updateData"))
    for name in ("acl", "metadata"):
        if body.get(name):
            body[name] = _parsed(body[name])
    _merged(options, "qs", call.get_node_parameter("metagenAndAclQuery"))
    _merged(options, "headers", call.get_node_parameter("encryptionHeaders"))
    _merged(options, "body", body)
    return options
