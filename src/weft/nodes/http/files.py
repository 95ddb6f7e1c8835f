"""Files through the HTTP Request node: a download streams from the socket into the binary-data store, an upload
streams from the store into the request, so a 200 MB file never sits in memory whole.

A downloaded file is named as n8n's ``prepareBinaryData`` names an ``IncomingMessage``: the
``content-disposition`` file name, else the URL's path without its first ``/`` (its last part); typed by
``content-type``; its ``directory`` is the URL without credentials when redirects are followed (recorded: cases
n760-n763).
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Mapping
from typing import Any
from urllib.parse import unquote

import httpx

from weft.binary.meta import disposition_file_name
from weft.nodes.contract import ExecuteContext

#: n8n's ``binaryContentTypes``: what ``autodetect`` takes for a file.
BINARY_TYPES = re.compile(
    r"image/|audio/|video/|application/(octet-stream|gzip|zip|vnd\.rar|epub\+zip|x-bzip|x-cdf|vnd\.amazon\.ebook|"
    r"msword|vnd\.openxmlformats|pdf|vnd\.ms-|vnd\.oasis\.opendocument|x-tar|vnd\.visio|x-7z-compressed)"
)
#: Bytes read from the socket at a time.
DOWNLOAD_CHUNK = 256 * 1024


def wants_file(ctx: ExecuteContext, index: int, options: Mapping[str, Any], response: httpx.Response) -> bool:
    """Whether the response becomes a file: v1/v2's ``responseFormat: file``; v3+'s ``file`` or an autodetected
    binary content type."""
    if ctx.node.typeVersion < 3:  # HTTP Request v1/v2 (RSS Read's versions are below 3 too: never a file)
        legacy = ctx.node.type == "n8n-nodes-base.httpRequest"
        return legacy and str(ctx.get_node_parameter("responseFormat", 0, "json")) == "file"
    fmt = options.get("responseFormat") or "autodetect"
    if fmt == "autodetect":
        content_type = response.headers.get("content-type", "")
        return "application/json" not in content_type and bool(BINARY_TYPES.search(content_type))
    return bool(fmt == "file")


def file_path(response: httpx.Response) -> str | None:
    """The name n8n gives a downloaded file: the ``content-disposition`` file name, else the URL path."""
    named = disposition_file_name(response.headers.get("content-disposition", ""))
    if named:
        return named
    path = response.url.path[1:]
    return unquote(path) or None


async def download(ctx: ExecuteContext, response: httpx.Response, *, follows_redirects: bool) -> dict[str, Any]:
    """Stream the body into the binary-data store; the binary entry. A request that follows redirects answers
    with the URL it ended at, which n8n writes as the file's ``directory``."""
    mime = response.headers.get("content-type", "").split(";")[0].strip() or None
    entry = await ctx.prepare_binary_data(response.aiter_bytes(DOWNLOAD_CHUNK), file_path(response), mime)
    if follows_redirects:
        entry["directory"] = str(response.url.copy_with(username=None, password=None))
    return entry


class UploadBody:
    """A binary entry as a request body: a new stream of its bytes for each attempt (a redirect resends it)."""

    def __init__(self, ctx: ExecuteContext, entry: Mapping[str, Any]) -> None:
        self._ctx = ctx
        self.entry = entry

    def headers(self) -> dict[str, str]:
        size = self.entry.get("bytes")
        return {"content-length": str(size)} if isinstance(size, int) else {}

    def stream(self) -> AsyncIterator[bytes]:
        return self._ctx.get_binary_stream(self.entry)


async def upload_content(body: UploadBody) -> bytes | AsyncIterator[bytes]:
    """What httpx sends: the stored stream when the size is known (``content-length`` set), else the bytes."""
    if body.headers():
        return body.stream()
    return b"".join([chunk async for chunk in body.stream()])


__all__ = ["BINARY_TYPES", "UploadBody", "download", "file_path", "upload_content", "wants_file"]
