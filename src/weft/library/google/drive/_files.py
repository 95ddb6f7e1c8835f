"""Google Drive's file operations (n8n's ``Drive/v2/actions/file``): upload, download, copy, move, delete, share,
update, createFromText.

Uploads send the content in one multipart request (n8n streams a file kept on disk through a resumable session;
the file Drive keeps is the same), then set the name, MIME type and parents with a ``PATCH``.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from weft.errors import NodeOperationError
from weft.library.google.drive._api import (
    ALL_DRIVES,
    DOCUMENT,
    DriveApi,
    file_properties,
    parent_folder,
    query_fields,
    update_common,
)
from weft.nodes.contract import ExecuteContext
from weft.workflow import Item

FILES = "/drive/v3/files"
_EXPORTS = {
    "document": ("docsToFormat", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"),
    "presentation": ("slidesToFormat", "application/vnd.openxmlformats-officedocument.presentationml.presentation"),
    "spreadsheet": ("sheetsToFormat", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
}


def _id(api: DriveApi, name: str, index: int) -> str:
    return str(api.params.get(name, index, extract_value=True))


async def _binary(ctx: ExecuteContext, field: Any, index: int) -> tuple[bytes, str | None, str | None]:
    """n8n's ``getItemBinaryData``: the content, original file name and MIME type of a binary property."""
    if not field:
        raise NodeOperationError(
            ctx.node.name, "The name of the input field containing the binary file data must be set", item_index=index
        )
    binary = ctx.assert_binary_data(index, field)
    content = await ctx.get_binary_data_buffer(index, field)
    return content, binary.get("fileName"), binary.get("mimeType")


async def _multipart_upload(api: DriveApi, metadata: dict[str, Any], content: bytes, mime: Any, index: int) -> Any:
    boundary = f"--------------------------{uuid.uuid4().int % 10**24:024d}"
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="metadata"\r\nContent-Type: application/json\r\n\r\n'
        f"{json.dumps(metadata, separators=(',', ':'))}\r\n--{boundary}\r\n"
        f'Content-Disposition: form-data; name="data"\r\nContent-Type: {mime or "application/octet-stream"}\r\n\r\n'
    ).encode()
    body = head + content + f"\r\n--{boundary}--\r\n".encode()
    headers = {"Content-Type": f"multipart/related; boundary={boundary}", "Content-Length": str(len(body))}
    qs = {"uploadType": "multipart", "supportsAllDrives": True}
    return await api.request("POST", "/upload/drive/v3/files", body, qs, index, headers=headers)


async def upload(ctx: ExecuteContext, api: DriveApi, index: int) -> list[Any]:
    p = api.params
    content, original, mime = await _binary(ctx, p.get("inputDataFieldName", index, "data"), index)
    name = p.get("name", index, "") or original
    parent = parent_folder(_id(api, "folderId", index), p.get("driveId", index, None, extract_value=True))
    metadata = {"name": name, "parents": [parent]} if name is not None else {"parents": [parent]}
    uploaded = await _multipart_upload(api, metadata, content, mime, index)
    options = dict(p.get("options", index, {}) or {})
    qs = update_common({"addParents": parent, **ALL_DRIVES}, options)
    if not options.get("simplifyOutput"):
        qs["fields"] = "*"
    body = file_properties({"mimeType": mime, "name": name, "originalFilename": original}, options)
    body = {k: v for k, v in body.items() if v is not None}
    return [await api.request("PATCH", f"{FILES}/{uploaded.get('id')}", body, qs, index)]


async def download(ctx: ExecuteContext, api: DriveApi, index: int, item: Item) -> list[Any]:
    p = api.params
    file_id = _id(api, "fileId", index)
    options = dict(p.get("options", index, {}) or {})
    qs = {"fields": "mimeType,name", "supportsTeamDrives": True, "supportsAllDrives": True}
    found = await api.request("GET", f"{FILES}/{file_id}", None, qs, index)
    mime = str(found.get("mimeType") or "")
    raw = {"encoding": "arraybuffer", "returnFullResponse": True, "json": False}
    if "vnd.google-apps" in mime:
        kind = mime.split(".")[2] if mime.count(".") >= 2 else ""
        key, default = _EXPORTS.get(kind, ("drawingsToFormat", "image/jpeg"))
        target = p.get(f"options.googleFileConversion.conversion.{key}", index, default)
        query = {"mimeType": target, "supportsAllDrives": True}
        response = await api.request("GET", f"{FILES}/{file_id}/export", None, query, index, **raw)
    else:
        media = {"alt": "media", "supportsAllDrives": True}
        response = await api.request("GET", f"{FILES}/{file_id}", None, media, index, **raw)
    headers = {k.lower(): v for k, v in (response.get("headers") or {}).items()}
    file_mime = headers.get("content-type") or found.get("mimeType")
    file_name = options.get("fileName") if options.get("fileName") is not None else found.get("name")
    binary = dict(item.get("binary") or {})
    prop = str(options.get("binaryPropertyName") or "data")
    binary[prop] = await ctx.prepare_binary_data(response["body"], file_name, file_mime)
    return [{"json": item["json"], "binary": binary}]


async def copy(ctx: ExecuteContext, api: DriveApi, index: int) -> list[Any]:
    p = api.params
    located = p.get("fileId", index)
    file_id = _id(api, "fileId", index)
    options = dict(p.get("options", index, {}) or {})
    name = p.get("name", index, "")
    if not name:
        original = located.get("cachedResultName") if isinstance(located, dict) else None
        if not isinstance(original, str) or not original:
            fields = {"fields": "name", "supportsAllDrives": True}
            meta = await api.request("GET", f"{FILES}/{file_id}", None, fields, index)
            original = str((meta or {}).get("name") or "")
        name = f"Copy of {original}" if original else ""
    parents = []
    if not p.get("sameFolder", index, True):
        parents.append(parent_folder(_id(api, "folderId", index), p.get("driveId", index, None, extract_value=True)))
    body: dict[str, Any] = {"copyRequiresWriterPermission": options.get("copyRequiresWriterPermission") or False}
    body["parents"] = parents
    if name:
        body["name"] = name
    if options.get("description"):
        body["description"] = options["description"]
    return [await api.request("POST", f"{FILES}/{file_id}/copy", body, ALL_DRIVES, index)]


async def move(ctx: ExecuteContext, api: DriveApi, index: int) -> list[Any]:
    p = api.params
    file_id = _id(api, "fileId", index)
    parent = parent_folder(_id(api, "folderId", index), p.get("driveId", index, None, extract_value=True))
    found = await api.request("GET", f"{FILES}/{file_id}", None, {**ALL_DRIVES, "fields": "parents"}, index)
    qs = {**ALL_DRIVES, "addParents": parent, "removeParents": ",".join(found.get("parents") or [])}
    return [await api.request("PATCH", f"{FILES}/{file_id}", None, qs, index)]


async def delete(api: DriveApi, file_id: str, key: str, index: int) -> list[Any]:
    qs = {"supportsAllDrives": True}
    if api.params.get("options.deletePermanently", index, False):
        await api.request("DELETE", f"{FILES}/{file_id}", None, qs, index)
    else:
        await api.request("PATCH", f"{FILES}/{file_id}", {"trashed": True}, qs, index)
    return [{key: file_id, "success": True}]


async def share(api: DriveApi, file_id: str, index: int) -> list[Any]:
    p = api.params
    permissions = p.get("permissionsUi", index, {}) or {}
    body = dict(permissions.get("permissionsValues") or {})
    qs = {"supportsAllDrives": True, **(p.get("options", index, {}) or {})}
    return [await api.request("POST", f"{FILES}/{file_id}/permissions", body, qs, index)]


async def update(ctx: ExecuteContext, api: DriveApi, index: int) -> list[Any]:
    p = api.params
    file_id = _id(api, "fileId", index)
    mime = None
    if p.get("changeFileContent", index, False):
        content, _, mime = await _binary(ctx, p.get("inputDataFieldName", index, "data"), index)
        headers = {"Content-Type": mime or "application/octet-stream", "Content-Length": str(len(content))}
        qs = {"uploadType": "media", "supportsAllDrives": True}
        await api.request("PATCH", f"/upload/drive/v3/files/{file_id}", content, qs, index, headers=headers)
    options = dict(p.get("options", index, {}) or {})
    query = update_common({"supportsAllDrives": True}, options)
    if options.get("fields"):
        query["fields"] = query_fields(options["fields"])
    if options.get("trashed"):
        query["trashed"] = options["trashed"]
    body = file_properties({}, options)
    new_name = p.get("newUpdatedFileName", index, "")
    if new_name:
        body["name"] = new_name
    if mime:
        body["mimeType"] = mime
    return [await api.request("PATCH", f"{FILES}/{file_id}", body, query, index)]


async def create_from_text(ctx: ExecuteContext, api: DriveApi, index: int) -> list[Any]:
    p = api.params
    name = p.get("name", index, "") or "Untitled"
    options = dict(p.get("options", index, {}) or {})
    convert = bool(options.get("convertToGoogleDocument"))
    mime = DOCUMENT if convert else "text/plain"
    parent = parent_folder(_id(api, "folderId", index), p.get("driveId", index, None, extract_value=True))
    metadata = {"name": name, "parents": [parent], "mimeType": mime}
    body = file_properties(dict(metadata), options)
    qs = update_common(dict(ALL_DRIVES), options)
    text = p.get("content", index, "")
    text = "" if text is None else str(text)
    if convert:
        document = await api.request("POST", FILES, body, qs, index)
        requests = [{"insertText": {"text": text, "endOfSegmentLocation": {"segmentId": ""}}}]
        url = f"https://docs.googleapis.com/v1/documents/{document.get('id')}:batchUpdate"
        answer = await api.request("POST", "", {"requests": requests}, None, index, url=url)
        return [{"id": answer.get("documentId")}]
    uploaded = await _multipart_upload(api, metadata, text.encode(), mime, index)
    qs["addParents"] = parent
    body.pop("parents", None)
    answer = await api.request("PATCH", f"{FILES}/{uploaded.get('id')}", body, qs, index)
    return [{"id": answer.get("id")}]


__all__ = ["copy", "create_from_text", "delete", "download", "move", "share", "update", "upload"]
