"""Ports of the Azure Storage node's functions (``nodes/Microsoft/Storage/GenericFunctions.ts`` and the inline
ones of ``BlobDescription.ts`` and ``ContainerDescription.ts``): Azure's XML errors and lists, response headers
as items, blob uploads, and ``NextMarker`` pages."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote, unquote

from weft.errors import NodeOperationError
from weft.nodes.routing.call import RoutingCall
from weft.nodes.routing.functions import port
from weft.nodes.routing.jsvalues import text
from weft.nodes.routing.ports.azure_common import (
    parse_booleans,
    parse_headers,
    parse_numbers,
    parse_xml,
    service_error,
)
from weft.nodes.routing.ports.common import failed, response_error
from weft.nodes.routing.postreceive import Items
from weft.nodes.routing.request import RequestData

Options = dict[str, Any]
_BLOB_BOOLEANS = ("deleted", "isCurrentVersion", "serverEncrypted", "incrementalCopy", "accessTierInferred",
                  "isSealed", "legalHold")  # fmt: skip
_BLOB_NUMBERS = ("maxResults", "contentLength", "blobSequenceNumber", "remainingRetentionDays", "tagCount",
                 "content-Length")  # fmt: skip
_CONTAINER_BOOLEANS = ("deleted", "hasImmutabilityPolicy", "hasLegalHold", "preventEncryptionScopeOverride",
                       "isImmutableStorageWithVersioningEnabled")  # fmt: skip
_CONTAINER_NUMBERS = ("maxResults", "remainingRetentionDays")
_MISSING_CONTAINER = "The required container doesn't match any existing one"
_MISSING_BLOB = "The required blob doesn't match any existing one"

# ---------------------------------------------------------------------------------------------------- errors

#: (resource, operation, code) → n8n's message and description.
_KNOWN: dict[tuple[Any, Any, Any], tuple[str, str]] = {
    ("container", "create", "ContainerAlreadyExists"): (
        "The specified container already exists", "Use a unique value for 'Container Name' and try again"),
    ("container", "create", "PublicAccessNotPermitted"): (
        "Public access is not permitted on this storage account", "Check the 'Access Level' and try again"),
    ("container", "delete", "ContainerNotFound"): (
        _MISSING_CONTAINER, "Double-check the value in the parameter 'Container to Delete' and try again"),
    ("container", "get", "ContainerNotFound"): (
        _MISSING_CONTAINER, "Double-check the value in the parameter 'Container to Get' and try again"),
    ("blob", "delete", "BlobNotFound"): (
        _MISSING_BLOB, "Double-check the value in the parameter 'Blob to Delete' and try again"),
    ("blob", "get", "BlobNotFound"): (
        _MISSING_BLOB, "Double-check the value in the parameter 'Blob to Get' and try again"),
}  # fmt: skip


@port("postReceive", "handleErrorPostReceive", "43d448252e9112ac")
async def handle_error(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """``handleErrorPostReceive``: an error answer's XML ``<Error>`` as n8n words it."""
    if not failed(response):
        return items
    parsed = parse_xml(items[0].get("json") if items else None)
    error = parsed.get("error") if isinstance(parsed, dict) else None
    if not isinstance(error, dict):
        raise response_error(call, response)
    code = error.get("code")
    if code == "InvalidAuthenticationInfo" and (
        error.get("authenticationErrorDetail") == "Lifetime validation failed. The token is expired."
    ):
        raise service_error(call, error, message="Lifetime validation failed. The token is expired.",
                            description="Please check your credentials and try again")  # fmt: skip
    known = _known_error(call, error)
    if known is not None:
        raise service_error(call, error, message=known[0], description=known[1])
    failure = response_error(call, response, message=text(code) if code is not None else None)
    failure.description = None if error.get("message") is None else text(error.get("message"))
    raise failure


def _known_error(call: RoutingCall, error: dict[str, Any]) -> tuple[str, str] | None:
    resource, operation, code = (
        call.get_node_parameter("resource"),
        call.get_node_parameter("operation"),
        error.get("code"),
    )
    if resource == "blob" and code == "ContainerNotFound":
        return _MISSING_CONTAINER, "Double-check the value in the parameter 'Container Name' and try again"
    if (resource, operation) == ("blob", "create") and call.get_node_parameter("from") == "url":
        bad_source = code == "InvalidHeaderValue" and error.get("headerName") == "x-ms-copy-source"
        if bad_source or code == "CannotVerifyCopySource":
            return "The provided URL is invalid", "Double-check the value in the parameter 'URL' and try again"
    if (resource, operation) == ("blob", "getAll"):
        fields, filters = call.get_node_parameter("fields", []), call.get_node_parameter("filter", [])
        if code == "InvalidQueryParameterValue" and "permissions" in (fields or []):
            return ("Permissions field is only supported for accounts with a hierarchical namespace enabled",
                    "Exclude 'Permissions' from 'Fields' and try again")  # fmt: skip
        if code == "UnsupportedQueryParameter" and "deleted" in (fields or []) and "deleted" in (filters or []):
            return ("Including 'Deleted' field and filter is not supported",
                    "Exclude 'Deleted' from 'Fields' or 'Filter' and try again")  # fmt: skip
    return _KNOWN.get((resource, operation, code))


# ---------------------------------------------------------------------------------------------------- lists


def _typed(booleans: tuple[str, ...], numbers: tuple[str, ...]) -> Any:
    def process(value: str, name: str) -> Any:
        if name in booleans:
            return parse_booleans(value)
        return parse_numbers(value) if name in numbers else value

    return process


def _listed(parsed: Any, plural: str, singular: str) -> tuple[list[Any], dict[str, Any]] | None:
    results = parsed.get("enumerationResults") if isinstance(parsed, dict) else None
    if not isinstance(results, dict):
        raise TypeError(f"Cannot read properties of undefined (reading '{plural}')")
    group = results.get(plural)
    if not isinstance(group, dict):
        return None
    entries = group.get(singular)
    listed = entries if isinstance(entries, list) else [entries]
    group[singular] = listed
    return listed, results


def _page(key: str, listed: list[Any], results: dict[str, Any]) -> dict[str, Any]:
    page: dict[str, Any] = {key: listed}
    for name in ("maxResults", "nextMarker"):
        if name in results:
            page[name] = results[name]
    return page


def parse_blob_list(xml: Any) -> dict[str, Any]:
    """``parseBlobList``: the blobs of a ``List Blobs`` answer, their tags as a list, with the page's
    ``maxResults`` and ``nextMarker``."""
    found = _listed(parse_xml(xml, dashless=True, values=_typed(_BLOB_BOOLEANS, _BLOB_NUMBERS)), "blobs", "blob")
    if found is None:
        return {"blobs": []}
    blobs, results = found
    for blob in blobs:
        tags = blob.get("tags") if isinstance(blob, dict) else None
        if tags:
            tag = ((tags or {}).get("tagSet") or {}).get("tag") if isinstance(tags, dict) else None
            blob["tags"] = tag if isinstance(tag, list) else [tag]
    for blob in blobs:
        if isinstance(blob, dict):
            for key in ("metadata", "orMetadata"):
                if blob.get(key) == "":
                    del blob[key]
    return _page("blobs", blobs, results)


def parse_container_list(xml: Any) -> dict[str, Any]:
    """``parseContainerList``: the containers of a ``List Containers`` answer, with ``maxResults`` and
    ``nextMarker``."""
    parsed = parse_xml(xml, dashless=True, values=_typed(_CONTAINER_BOOLEANS, _CONTAINER_NUMBERS))
    found = _listed(parsed, "containers", "container")
    if found is None:
        return {"containers": []}
    containers, results = found
    for container in containers:
        if isinstance(container, dict) and container.get("metadata") == "":
            del container["metadata"]
    return _page("containers", containers, results)


@port("postReceive", "", "4f188355beb0bf07")
async def blob_list(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """The page of blobs; simplified: empty properties and the access tier left out."""
    page = parse_blob_list(items[0].get("json") if items else None)
    if call.get_node_parameter("options.simplify", True):
        for blob in page["blobs"]:
            properties = blob.get("properties") if isinstance(blob, dict) else None
            if not isinstance(properties, dict):
                continue
            for key in ("cacheControl", "contentCRC64", "contentEncoding", "contentLanguage", "contentDisposition"):
                if key in properties and not properties[key]:
                    del properties[key]
            for key in ("accessTier", "accessTierChangeTime", "accessTierInferred"):
                properties.pop(key, None)
    return [{"json": page}]


@port("postReceive", "", "107d20efc13db4fa")
async def container_list(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    return [{"json": parse_container_list(items[0].get("json") if items else None)}]


@port("postReceive", "", "92d7c6f92310c297")
async def blobs_as_items(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    return _entries(items, "blobs")


@port("postReceive", "", "073fc0577d27497f")
async def containers_as_items(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    return _entries(items, "containers")


def _entries(items: Items, key: str) -> Items:
    page = items[0].get("json") if items else None
    found = page.get(key) if isinstance(page, dict) else None
    return [{"json": entry} for entry in (found or [])]


async def _marker_pages(call: RoutingCall, data: RequestData, key: str) -> Items:
    """Every page, following ``NextMarker`` as the next request's ``marker``."""
    assert call.make_routing_request is not None
    if not isinstance(data.options.get("qs"), dict):
        data.options["qs"] = {}
    out: Items = []
    marker: Any = None
    while True:
        data.options["qs"]["marker"] = marker
        page = await call.make_routing_request(data)
        first = page[0].get("json") if page else None
        marker = first.get("nextMarker") if isinstance(first, dict) else None
        out.extend({"json": entry} for entry in ((first or {}).get(key) or []))
        if not marker:
            return out


@port("pagination", "pagination", "be7a6c37eb074286")
async def blob_pages(call: RoutingCall, data: RequestData) -> Items:
    return await _marker_pages(call, data, "blobs")


@port("pagination", "pagination", "d7df0be43262dbea")
async def container_pages(call: RoutingCall, data: RequestData) -> Items:
    return await _marker_pages(call, data, "containers")


# ---------------------------------------------------------------------------------------------------- headers


@port("postReceive", "", "f060059cd0254518")
async def headers_item(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """The response's headers as the item (created or deleted blobs and containers)."""
    return [{"json": parse_headers(response.get("headers") or {})}]


@port("postReceive", "", "195b1439bde6614a")
async def container_item(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """A container's properties and metadata, from the headers of ``Get Container Properties``."""
    properties = parse_headers(response.get("headers") or {})
    metadata = properties.pop("metadata", None)
    if call.get_node_parameter("options.simplify", True):
        for key in ("contentLength", "server", "requestId", "version", "date", "connection"):
            properties.pop(key, None)
    found = {"name": (call.get_node_parameter("container") or {}).get("value"), "properties": properties}
    return [{"json": {**found, **({"metadata": metadata} if metadata else {})}}]


@port("postReceive", "", "f55ed7a2adf66865")
async def blob_item(call: RoutingCall, items: Items, response: dict[str, Any]) -> Items:
    """A blob: its properties and metadata from the headers, its content as the ``data`` file."""
    properties = parse_headers(response.get("headers") or {})
    if call.get_node_parameter("options.simplify", True):
        for key in ("acceptRanges", "server", "requestId", "version", "date", "connection"):
            properties.pop(key, None)
    metadata = properties.pop("metadata", None)
    found = {"name": (call.get_node_parameter("blob") or {}).get("value"), "properties": properties}
    file_name = _file_name(properties.get("contentDisposition"))
    body = response.get("body")
    raw = body if isinstance(body, bytes) else text(body).encode()
    binary = await call.prepare_binary_data(raw, file_name, properties.get("contentType"))
    return [{"json": {**found, **({"metadata": metadata} if metadata else {})}, "binary": {"data": binary}}]


def _file_name(disposition: Any) -> str | None:
    """The file name of a ``Content-Disposition`` (``filename*=`` decoded, else ``filename=``)."""
    if not disposition:
        return None
    value = text(disposition)
    match = re.search(r"filename\*=(?:(\\?['\"])(.*?)\1|(?:[^\s]+'.*?')?([^;\n]*))", value)
    name = (match.group(3) or match.group(2)) if match else None
    if name:
        return unquote(name, errors="strict")
    match = re.search(r"filename=\"?([^\"]*?)\"?(;|$)", value)
    return match.group(1) if match else None


# ---------------------------------------------------------------------------------------------------- requests


@port("preSend", "", "e6805bc3786fdbe3")
async def blob_from_binary(call: RoutingCall, options: Options) -> Options:
    """The input file as a block blob (its type and file name as the blob's)."""
    name = call.get_node_parameter("binaryPropertyName")
    ctx = call.scope.ctx
    binary = ctx.assert_binary_data(call.item_index, name)
    content = await ctx.get_binary_data_buffer(call.item_index, name)
    headers = options["headers"] = dict(options.get("headers") or {})
    headers["content-length"] = len(content)
    headers["x-ms-blob-type"] = "BlockBlob"
    if binary.get("mimeType"):
        headers["content-Type"] = binary["mimeType"]
    if binary.get("fileName"):
        headers["x-ms-blob-content-disposition"] = f'attachment; filename="{binary["fileName"]}"'
    options["body"] = content
    return options


@port("preSend", "", "5a579508aa0e769e")
async def blob_from_url(call: RoutingCall, options: Options) -> Options:
    """A block blob copied from a URL (``x-ms-copy-source``)."""
    headers = options["headers"] = dict(options.get("headers") or {})
    headers["x-ms-blob-type"] = "BlockBlob"
    headers["x-ms-copy-source"] = call.get_node_parameter("url")
    return options


@port("preSend", "", "98dc372fe1a61541")
async def metadata_headers(call: RoutingCall, options: Options) -> Options:
    """Each metadata field as an ``x-ms-meta-<name>`` header."""
    headers = options["headers"] = dict(options.get("headers") or {})
    metadata = call.get_node_parameter("options.metadata") or {}
    for entry in metadata.get("metadataValues") or []:
        headers[f"x-ms-meta-{text(entry.get('fieldName', ''))}"] = entry.get("fieldValue")
    return options


@port("preSend", "", "3efce9cc1829f141")
async def tags_header(call: RoutingCall, options: Options) -> Options:
    """The tags as ``x-ms-tags`` (``name=value`` pairs, URI-encoded, joined by ``&``)."""
    headers = options["headers"] = dict(options.get("headers") or {})
    tags = call.get_node_parameter("options.tags") or {}
    pairs = [f"{_uri(tag.get('tagName'))}={_uri(tag.get('tagValue'))}" for tag in tags.get("tagValues") or []]
    headers["x-ms-tags"] = "&".join(pairs)
    return options


def _uri(value: Any) -> str:
    """``encodeURIComponent``."""
    return quote(text(value), safe="!'()*-._~")


@port("preSend", "", "30f6ced28f321193")
async def container_name(call: RoutingCall, options: Options) -> Options:
    """Azure's rules for a new container's name."""
    name = text(call.get_node_parameter("containerCreate"))
    problem = None
    if len(name) < 3 or len(name) > 63:
        problem = "'Container Name' must be from 3 through 63 characters long"
    elif re.search("[A-Z]", name):
        problem = "All letters  in 'Container Name' must be lowercase"
    elif not re.fullmatch(r"[a-z0-9-]+", name):
        problem = "'Container Name' can contain only letters, numbers, and the hyphen/minus (-) character"
    elif not re.fullmatch(r"[a-z0-9].*[a-z0-9]", name):
        problem = "'Container Name' must start or end with a letter or number"
    elif "--" in name:
        problem = "Consecutive hyphens are not permitted in 'Container Name'"
    if problem:
        raise NodeOperationError(call.node_name, problem, item_index=call.item_index)
    return options


__all__ = ["parse_blob_list", "parse_container_list"]
