"""The Slack node's file operations: upload (2 and 2.1: ``files.upload``, text as a form or the binary file as
multipart; from 2.2: the binary file through ``files.getUploadURLExternal``, the upload URL and
``files.completeUploadExternal``), get and list."""

from __future__ import annotations

import json
import secrets
from typing import Any

from weft.library.slack.transport import Operation, slack_api_request, slack_api_request_all_items, to_multi_options_csv
from weft.nodes.api import ApiRequests
from weft.nodes.routing.scope import RoutingScope

_FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def multipart(fields: dict[str, Any], filename: str, mime_type: str, data: bytes) -> tuple[bytes, str]:
    """The ``formData`` n8n's request library sends: each field as text, then ``file``; the ``Content-Type``."""
    boundary = f"--------------------------{secrets.token_hex(12)}"
    parts = []
    for name, value in fields.items():
        text = value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{text}\r\n'.encode())
    safe = filename.replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A")
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{safe}"\r\n'
        f"Content-Type: {mime_type or 'application/octet-stream'}\r\n\r\n"
    )
    parts.append(head.encode() + data + b"\r\n" + f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def _upload_fields(options: dict[str, Any], version: float) -> dict[str, Any]:
    body: dict[str, Any] = {}
    if options.get("channelIds"):
        body["channels"] = to_multi_options_csv(options["channelIds"])
    if options.get("channelId"):
        body["channel_id"] = options["channelId"]
    if options.get("initialComment"):
        body["initial_comment"] = options["initialComment"]
    if options.get("threadTs"):
        body["thread_ts"] = options["threadTs"]
    if options.get("title") and version <= 2.1:
        body["title"] = options["title"]
    return body


async def upload(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
    options = scope.parameter("options", index) or {}
    body = _upload_fields(options, version)
    if not (scope.parameter("binaryData", index, False) or version > 2.1):
        body["content"] = scope.parameter("fileContent", index)
        data = await slack_api_request(api, "POST", "/files.upload", body, {}, _FORM, item_index=index)
        return data["file"]
    ctx = scope.ctx
    binary = ctx.assert_binary_data(index, scope.parameter("binaryPropertyName", index))
    content = await ctx.binary_bytes(binary)
    filename, mime = str(binary.get("fileName") or ""), str(binary.get("mimeType") or "")
    if version <= 2.1:
        form, content_type = multipart(body, filename, mime, content)
        data = await slack_api_request(api, "POST", "/files.upload", {}, {}, {"Content-Type": content_type},
                                       {"body": form}, item_index=index)  # fmt: skip
        return data["file"]
    qs = {"filename": options.get("fileName") or filename, "length": len(content)}
    target = await slack_api_request(api, "GET", "/files.getUploadURLExternal", {}, qs, item_index=index)
    form, content_type = multipart({}, filename, mime, content)
    await slack_api_request(api, "POST", str(target["upload_url"]), {}, {}, {"Content-Type": content_type},
                            {"body": form}, item_index=index)  # fmt: skip
    body["files"] = [{"id": target["file_id"], "title": options.get("title") or filename}]
    data = await slack_api_request(api, "POST", "/files.completeUploadExternal", body, item_index=index)
    return data["files"]


async def get_all(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
    filters = scope.parameter("filters", index) or {}
    names = (("channelId", "channel"), ("showFilesHidden", "show_files_hidden_by_limit"), ("tsFrom", "ts_from"),
             ("tsTo", "ts_to"), ("userId", "user"))  # fmt: skip
    qs: dict[str, Any] = {field: filters[name] for name, field in names if filters.get(name)}
    if filters.get("types"):
        qs["types"] = to_multi_options_csv(filters["types"])
    if scope.parameter("returnAll", index):
        return await slack_api_request_all_items(api, "files", "GET", "/files.list", {}, qs, index)
    qs["count"] = scope.parameter("limit", index)
    return (await slack_api_request(api, "GET", "/files.list", {}, qs, item_index=index))["files"]


async def get(api: ApiRequests, scope: RoutingScope, index: int, version: float) -> Any:
    qs = {"file": scope.parameter("fileId", index)}
    return (await slack_api_request(api, "GET", "/files.info", {}, qs, item_index=index))["file"]


OPERATIONS: dict[str, Operation] = {"upload": upload, "getAll": get_all, "get": get}
