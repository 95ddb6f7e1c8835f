"""Google Drive's search, folder and shared-drive operations (n8n's ``Drive/v2/actions``: ``fileFolder/search``,
``folder/*``, ``drive/*``)."""

from __future__ import annotations

import re
import uuid
from typing import Any

from weft.library.google.drive._api import (
    ALL_DRIVES,
    DEFAULT_DRIVE,
    DEFAULT_FOLDER,
    FOLDER,
    DriveApi,
    parent_folder,
    query_fields,
)
from weft.nodes.contract import ExecuteContext

DRIVES = "/drive/v3/drives"
_OWN_DRIVE = {"includeItemsFromAllDrives": False, "supportsAllDrives": False, "corpora": "user"}


def _escaped(value: Any) -> str:
    """n8n's ``escapeBackslashQuotedValue``: backslashes and single quotes escaped for a quoted query value."""
    return re.sub(r"([\\'])", r"\\\1", str(value))


def _located(api: DriveApi, name: str, value: Any, index: int) -> str:
    if isinstance(value, dict) and value.get("mode") == "url":
        return str(api.params.get(name, index, extract_value=True))
    return str(value.get("value") if isinstance(value, dict) else value or "")


def _search_query(api: DriveApi, index: int) -> tuple[list[str], str, str]:
    p = api.params
    query_string = p.get("queryString", index, "")
    query = (
        [f"name contains '{_escaped(query_string)}'"]
        if p.get("searchMethod", index, "name") == "name"
        else [str(query_string or "")]
    )
    found = p.get("filter", index, {}) or {}
    drive_id = folder_id = ""
    types: list[str] = []
    if found:
        if found.get("folderId"):
            folder_id = _located(api, "filter.folderId", found["folderId"], index)
        if folder_id and folder_id != DEFAULT_FOLDER:
            query.append(f"'{_escaped(folder_id)}' in parents")
        if found.get("driveId"):
            drive_id = _located(api, "filter.driveId", found["driveId"], index)
        what = found.get("whatToSearch") or "all"
        if what == "folders":
            query.append(f"mimeType = '{FOLDER}'")
        else:
            if what == "files":
                query.append(f"mimeType != '{FOLDER}'")
            file_types = found.get("fileTypes") or []
            if file_types and "*" not in file_types:
                types = [f"mimeType = '{_escaped(t)}'" for t in file_types]
        if not found.get("includeTrashed"):
            query.append("trashed = false")
    if types:
        query.append(f"({' or '.join(types)})")
    return query, drive_id, folder_id


async def search(ctx: ExecuteContext, api: DriveApi, index: int) -> list[Any]:
    p = api.params
    query, drive_id, folder_id = _search_query(api, index)
    options = p.get("options", index, {}) or {}
    qs: dict[str, Any] = {"fields": f"nextPageToken, files({query_fields(options.get('fields'))})"}
    qs.update({"q": " and ".join(q for q in query if q), **ALL_DRIVES})
    if drive_id:
        if drive_id == DEFAULT_DRIVE:
            qs.update({**_OWN_DRIVE, "spaces": "appDataFolder, drive"})
        else:
            qs.update({"driveId": drive_id, "corpora": "drive"})
    if not drive_id and folder_id == DEFAULT_FOLDER:
        qs.update({**_OWN_DRIVE, "spaces": "drive"})
    if p.get("returnAll", index, False):
        return await api.request_all("files", "/drive/v3/files", qs, index)
    qs["pageSize"] = p.get("limit", index, 50)
    return list((await api.request("GET", "/drive/v3/files", None, qs, index)).get("files") or [])


async def create_folder(ctx: ExecuteContext, api: DriveApi, index: int) -> list[Any]:
    p = api.params
    parent = parent_folder(
        p.get("folderId", index, extract_value=True), p.get("driveId", index, None, extract_value=True)
    )
    body: dict[str, Any] = {"name": p.get("name", index, "") or "Untitled", "mimeType": FOLDER, "parents": [parent]}
    color = p.get("options.folderColorRgb", index, "") or None
    if color:
        body["folderColorRgb"] = color
    qs: dict[str, Any] = dict(ALL_DRIVES)
    if not p.get("options.simplifyOutput", index, True):
        qs = {"fields": "*", **qs}
    return [await api.request("POST", "/drive/v3/files", body, qs, index)]


async def drive(ctx: ExecuteContext, api: DriveApi, operation: str, index: int) -> list[Any]:
    p = api.params
    if operation == "create":
        body = {"name": p.get("name", index), **(p.get("options", index, {}) or {})}
        return [await api.request("POST", DRIVES, body, {"requestId": str(uuid.uuid4())}, index)]
    if operation == "list":
        qs = dict(p.get("options", index, {}) or {})
        if p.get("returnAll", index, False):
            return await api.request_all("drives", DRIVES, qs, index)
        qs["pageSize"] = p.get("limit", index, 100)
        return list((await api.request("GET", DRIVES, None, qs, index)).get("drives") or [])
    drive_id = p.get("driveId", index, extract_value=True)
    if operation == "get":
        return [await api.request("GET", f"{DRIVES}/{drive_id}", None, dict(p.get("options", index, {}) or {}), index)]
    if operation == "deleteDrive":
        await api.request("DELETE", f"{DRIVES}/{drive_id}", None, None, index)
        return [{"success": True}]
    body = dict(p.get("options", index, {}) or {})
    return [await api.request("PATCH", f"{DRIVES}/{drive_id}", body, None, index)]


__all__ = ["create_folder", "drive", "search"]
