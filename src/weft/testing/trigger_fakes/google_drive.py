"""Drive's file list (``GET /drive/v3/files``) for the Google Drive Trigger's tests: the ``q`` terms the trigger
sends (``createdTime`` / ``modifiedTime > '…'``, ``'<folder>' in parents``, the folder mime type) applied to the
files the test put in :attr:`DriveState.files`; one file a page, with ``nextPageToken``."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error

HOST = "www.googleapis.com"
TOKEN = "drive-trigger-token"
FOLDER = "application/vnd.google-apps.folder"


@dataclass
class DriveState:
    files: list[dict[str, Any]] = field(default_factory=list)
    queries: list[dict[str, str]] = field(default_factory=list)
    folders: set[str] = field(default_factory=lambda: {"folder1"})


def _time(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def _matches(file: dict[str, Any], q: str) -> bool:
    for term in q.split(" AND "):
        if (m := re.fullmatch(r"(createdTime|modifiedTime) > '(.+)'", term)) and not _time(file[m.group(1)]) > _time(
            m.group(2)
        ):
            return False
        if (m := re.fullmatch(r"'(.+)' in parents", term)) and m.group(1) not in file.get("parents", []):
            return False
        if term == f"mimeType != '{FOLDER}'" and file["mimeType"] == FOLDER:
            return False
        if term == f"mimeType = '{FOLDER}'" and file["mimeType"] != FOLDER:
            return False
    return True


def install(server: FakeApiServer, token: str = TOKEN) -> DriveState:
    state = DriveState()

    def listing(request: ApiRequest) -> ApiReply:
        if request.headers.get("authorization") != f"Bearer {token}":
            return json_error(401, {"error": {"code": 401, "message": "Invalid Credentials"}})
        state.queries.append(dict(request.query))
        q = request.query.get("q", "")
        parent = re.search(r"'(.+)' in parents", q)
        if parent and parent.group(1) not in state.folders:
            return json_error(404, {"error": {"code": 404, "message": f"File not found: {parent.group(1)}."}})
        found = [f for f in state.files if _matches(f, q)]
        size = 1 if "pageToken" in request.query or len(found) > 1 else int(request.query.get("pageSize", "100"))
        start = int(request.query.get("pageToken", "0"))
        body: dict[str, Any] = {"kind": "drive#fileList", "files": found[start : start + size]}
        if start + size < len(found):
            body["nextPageToken"] = str(start + size)
        return ApiReply(body=body)

    server.route("GET", r"/drive/v3/files", listing, host=HOST)
    return state
