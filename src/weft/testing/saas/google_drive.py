"""A fake Google Drive API v3 (``www.googleapis.com``: ``/drive/v3/files``, ``/drive/v3/drives``, uploads on
``/upload/drive/v3/files``, multipart and resumable), as Drive answers: bearer-token auth, Google's error bodies
(404 ``File not found: <id>.``), 429 with ``Retry-After`` for the id ``rate-limited``, pages of at most three
files with ``nextPageToken``, the ``q`` search language n8n writes (``name contains``, ``'<id>' in parents``,
``mimeType =``/``!=``, ``trashed = false``, ``or`` groups), ``fields`` projections.

Seeded: two folders and five files (one trashed, one Google Sheet) in My Drive, two shared drives. Nothing a case
writes is read by another: a file uploaded, created or copied gets an id that is a hash of its name and content and
lives only for the uploads' second step (the metadata ``PATCH``); listings show the seeded files only.
"""

from __future__ import annotations

import hashlib
import json
import re
from email import message_from_bytes, policy
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require
from weft.testing.saas._drive_data import DRIVES, FILES, FOLDER, file_resource

TOKEN = "drive-test-token"
HOST = "www.googleapis.com"
PAGE = 3
RATE_LIMITED = "rate-limited"
_TYPES = ("user", "group", "domain", "anyone")
_ROLES = ("owner", "organizer", "fileOrganizer", "writer", "commenter", "reader")
_DEFAULT_FIELDS = ("kind", "id", "name", "mimeType")


def _error(status: int, message: str, reason: str, **headers: str) -> ApiReply:
    detail: dict[str, Any] = {"message": message, "domain": "global", "reason": reason}
    if reason == "notFound":
        detail.update({"locationType": "parameter", "location": "fileId"})
    return json_error(status, {"error": {"code": status, "message": message, "errors": [detail]}}, **headers)


def _authorized(request: ApiRequest) -> None:
    from weft.testing.saas.google_oauth import SERVICE_ACCOUNT_TOKEN

    message = (
        "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other "
        "valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project."
    )
    given = request.headers.get("authorization")
    require(given in (f"Bearer {TOKEN}", f"Bearer {SERVICE_ACCOUNT_TOKEN}"), _error(401, message, "authError"))


def _file(state: dict[str, Any], file_id: str) -> dict[str, Any]:
    if file_id == RATE_LIMITED:
        require(False, _error(429, "Rate Limit Exceeded", "rateLimitExceeded", **{"Retry-After": "30"}))
    found = next((f for f in FILES if f["id"] == file_id), None) or state["created"].get(file_id)
    require(found is not None, _error(404, f"File not found: {file_id}.", "notFound"))
    assert found is not None
    return dict(found)


def _projected(resource: dict[str, Any], fields: str | None) -> dict[str, Any]:
    """``fields`` (``*``, ``id, name``, ``nextPageToken, files(id)``'s inner list) applied to one resource."""
    if fields is None or fields == "":
        return {k: resource[k] for k in _DEFAULT_FIELDS if k in resource}
    if fields.strip() == "*":
        return resource
    names = [name.strip() for name in fields.split(",") if name.strip()]
    return {k: resource[k] for k in names if k in resource}


def _inner_fields(fields: str | None, collection: str) -> str | None:
    if fields is None:
        return None
    match = re.search(rf"{collection}\(([^)]*)\)", fields)
    return match.group(1) if match else None


# --------------------------------------------------------------------------- search


_CLAUSE = re.compile(
    r"name contains '(?P<name>(?:[^'\\]|\\.)*)'|'(?P<parent>(?:[^'\\]|\\.)*)' in parents"
    r"|mimeType (?P<op>!?=) '(?P<mime>[^']*)'|trashed = (?P<trashed>true|false)"
)


def _holds(resource: dict[str, Any], query: str) -> bool:
    """Whether ``resource`` matches ``query`` (clauses joined by ``and``; a parenthesized group of ``or``)."""
    for clause in _split(query, " and "):
        clause = clause.strip()
        if clause.startswith("(") and clause.endswith(")"):
            if not any(_holds(resource, part) for part in _split(clause[1:-1], " or ")):
                return False
        elif clause and not _clause(resource, clause):
            return False
    return True


def _split(text: str, word: str) -> list[str]:
    parts, depth, start, index = [], 0, 0, 0
    while index < len(text):
        char = text[index]
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and text.startswith(word, index):
            parts.append(text[start:index])
            start = index = index + len(word)
            continue
        index += 1
    return [*parts, text[start:]]


def _clause(resource: dict[str, Any], clause: str) -> bool:
    match = _CLAUSE.fullmatch(clause)
    require(match is not None, _error(400, "Invalid Value", "invalid"))
    assert match is not None
    if match["name"] is not None:
        return _unescaped(match["name"]).lower() in str(resource["name"]).lower()
    if match["parent"] is not None:
        return _unescaped(match["parent"]) in list(resource.get("parents") or [])
    if match["mime"] is not None:
        return bool(resource["mimeType"] == match["mime"]) == (match["op"] == "=")
    return bool(resource.get("trashed")) == (match["trashed"] == "true")


def _unescaped(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)


def list_files(request: ApiRequest) -> ApiReply:
    _authorized(request)
    query = request.query.get("q") or ""
    drive = request.query.get("driveId")
    found = [f for f in FILES if _holds(f, query) and (drive is None or f.get("driveId") == drive)]
    if drive is None and request.query.get("corpora") == "user":
        found = [f for f in found if "driveId" not in f]
    size = min(int(request.query.get("pageSize") or 100), PAGE)
    token = request.query.get("pageToken") or "0"
    require(token.isdigit(), _error(400, "Invalid Value", "invalid"))
    start = int(token)
    page = found[start : start + size]
    fields = request.query.get("fields")
    body: dict[str, Any] = {}
    if start + size < len(found) and (fields is None or "nextPageToken" in fields):
        body["nextPageToken"] = f"{start + size}"
    if fields is None:
        body = {"kind": "drive#fileList", **body, "incompleteSearch": False}
    body["files"] = [_projected(_public(f), _inner_fields(fields, "files")) for f in page]
    return ApiReply(body=body)


# --------------------------------------------------------------------------- files


def get_file(request: ApiRequest, state: dict[str, Any]) -> ApiReply:
    _authorized(request)
    found = _file(state, request.params["id"])
    if request.query.get("alt") == "media":
        require(not found["mimeType"].startswith("application/vnd.google-apps"), _error(
            403, "Only files with binary content can be downloaded. Use Export with Docs Editors files.",
            "fileNotDownloadable",
        ))  # fmt: skip
        return ApiReply(data=found["_content"], content_type=found["mimeType"])
    return ApiReply(body=_projected(_public(found), request.query.get("fields")))


def _public(resource: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in resource.items() if not k.startswith("_")}


def export_file(request: ApiRequest, state: dict[str, Any]) -> ApiReply:
    _authorized(request)
    found = _file(state, request.params["id"])
    mime = request.query.get("mimeType") or ""
    exports = found.get("_exports") or {}
    require(mime in exports, _error(400, "The requested conversion is not supported.", "badRequest"))
    return ApiReply(data=exports[mime], content_type=mime)


def update_file(request: ApiRequest, state: dict[str, Any]) -> ApiReply:
    _authorized(request)
    found = _file(state, request.params["id"])
    body = request.body if isinstance(request.body, dict) else {}
    found.update({k: v for k, v in body.items() if k not in ("id", "kind")})
    parents = [p for p in found.get("parents", []) if p not in (request.query.get("removeParents") or "").split(",")]
    added = [p for p in (request.query.get("addParents") or "").split(",") if p and p not in parents]
    found["parents"] = parents + added
    if body.get("trashed"):
        found["explicitlyTrashed"] = True
    return ApiReply(body=_projected(_public(found), request.query.get("fields")))


def delete_file(request: ApiRequest, state: dict[str, Any]) -> ApiReply:
    _authorized(request)
    _file(state, request.params["id"])
    return ApiReply(status=204)


def _created(state: dict[str, Any], metadata: dict[str, Any], content: bytes, mime: str | None) -> dict[str, Any]:
    digest = hashlib.sha1(json.dumps(metadata, sort_keys=True).encode() + content).hexdigest()
    name = str(metadata.get("name") or "Untitled")
    mime_type = str(metadata.get("mimeType") or mime or "application/octet-stream")
    parents = list(metadata.get("parents") or ["0AFakeRootFolderUk9PVA"])
    resource = file_resource("1" + digest[:27], name, mime_type, parents, content, created=True)
    for key in ("description", "properties", "appProperties", "folderColorRgb", "starred"):
        if key in metadata:
            resource[key] = metadata[key]
    state["created"][resource["id"]] = resource
    return resource


def create_file(request: ApiRequest, state: dict[str, Any]) -> ApiReply:
    _authorized(request)
    body = request.body if isinstance(request.body, dict) else {}
    resource = _created(state, body, b"", None)
    return ApiReply(body=_projected(_public(resource), request.query.get("fields")))


def copy_file(request: ApiRequest, state: dict[str, Any]) -> ApiReply:
    _authorized(request)
    source = _file(state, request.params["id"])
    body = request.body if isinstance(request.body, dict) else {}
    metadata = {"name": body.get("name") or f"Copy of {source['name']}", "mimeType": source["mimeType"]}
    metadata["parents"] = body.get("parents") or source.get("parents")
    if body.get("description"):
        metadata["description"] = body["description"]
    resource = _created(state, metadata, source.get("_content", b""), None)
    return ApiReply(body=_projected(_public(resource), request.query.get("fields")))


def upload(request: ApiRequest, state: dict[str, Any]) -> ApiReply:
    _authorized(request)
    kind = request.query.get("uploadType")
    if kind == "multipart":
        metadata, content, mime = _multipart(request)
        resource = _created(state, metadata, content, mime)
        return ApiReply(body=_projected(_public(resource), request.query.get("fields")))
    require(kind == "resumable", _error(400, f"Invalid upload type: {kind}", "badRequest"))
    metadata = request.body if isinstance(request.body, dict) else {}
    session = hashlib.sha1(json.dumps(metadata, sort_keys=True).encode()).hexdigest()[:24]
    state["sessions"][session] = (metadata, request.headers.get("x-upload-content-type"))
    location = f"https://{HOST}/upload/drive/v3/files?uploadType=resumable&upload_id={session}"
    return ApiReply(body=None, headers={"location": location})


def upload_update(request: ApiRequest, state: dict[str, Any]) -> ApiReply:
    """``PATCH /upload/drive/v3/files/<id>``: new content for a file, at once (``media``) or in a session."""
    _authorized(request)
    found = _file(state, request.params["id"])
    kind = request.query.get("uploadType")
    if kind == "media":
        metadata = {"name": found["name"], "parents": found.get("parents"), "replaces": found["id"]}
        resource = _created(state, metadata, request.raw_body, request.headers.get("content-type"))
        return ApiReply(body=_projected(_public(resource), None))
    require(kind == "resumable", _error(400, f"Invalid upload type: {kind}", "badRequest"))
    session = "u" + hashlib.sha1(found["id"].encode()).hexdigest()[:23]
    state["sessions"][session] = ({"name": found["name"], "parents": found.get("parents")}, found["mimeType"])
    location = f"https://{HOST}/upload/drive/v3/files?uploadType=resumable&upload_id={session}"
    return ApiReply(body=None, headers={"location": location})


def _multipart(request: ApiRequest) -> tuple[dict[str, Any], bytes, str | None]:
    content_type = request.headers.get("content-type", "")
    require(content_type.startswith("multipart/related"), _error(400, "Bad multipart body", "badContent"))
    head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode()
    message = message_from_bytes(head + request.raw_body, policy=policy.default)
    parts = list(message.iter_parts()) if message.is_multipart() else []  # type: ignore[attr-defined]
    require(len(parts) == 2, _error(400, "Multipart upload needs a metadata and a media part", "badContent"))
    head_data, content = parts[0].get_payload(decode=True), parts[1].get_payload(decode=True)
    assert isinstance(head_data, bytes) and isinstance(content, bytes)
    return json.loads(head_data or b"{}"), content, parts[1].get_content_type()


def upload_chunk(request: ApiRequest, state: dict[str, Any]) -> ApiReply:
    _authorized(request)
    session = request.query.get("upload_id") or ""
    require(session in state["sessions"], _error(404, "Upload session not found", "notFound"))
    metadata, mime = state["sessions"][session]
    received = state["chunks"].setdefault(session, b"") + request.raw_body
    state["chunks"][session] = received
    total = (request.headers.get("content-range") or "").rpartition("/")[2]
    if total.isdigit() and len(received) < int(total):
        return ApiReply(status=308, headers={"range": f"bytes=0-{len(received) - 1}"})
    state["chunks"].pop(session, None)
    resource = _created(state, metadata, received, mime)
    return ApiReply(body=_projected(_public(resource), None))


def share(request: ApiRequest, state: dict[str, Any]) -> ApiReply:
    _authorized(request)
    _file(state, request.params["id"])
    body = request.body if isinstance(request.body, dict) else {}
    kind, role = body.get("type"), body.get("role")
    require(kind in _TYPES, _error(400, "The permission type field is required.", "required"))
    require(role in _ROLES, _error(400, "The permission role field is required.", "required"))
    if kind == "anyone":
        return ApiReply(body={"kind": "drive#permission", "id": "anyoneWithLink", "type": kind, "role": role,
                              "allowFileDiscovery": bool(body.get("allowFileDiscovery"))})  # fmt: skip
    target = str(body.get("emailAddress") or body.get("domain") or "")
    require(target != "", _error(400, "The permission emailAddress field is required.", "required"))
    permission_id = str(int(hashlib.sha1(target.encode()).hexdigest()[:12], 16))
    return ApiReply(body={"kind": "drive#permission", "id": permission_id, "type": kind, "role": role})


# --------------------------------------------------------------------------- shared drives


def _drive(drive_id: str) -> dict[str, Any]:
    found = next((d for d in DRIVES if d["id"] == drive_id), None)
    require(found is not None, _error(404, f"Shared drive not found: {drive_id}", "notFound"))
    assert found is not None
    return found


def list_drives(request: ApiRequest) -> ApiReply:
    _authorized(request)
    size = min(int(request.query.get("pageSize") or 10), PAGE)
    start = int(request.query.get("pageToken") or 0)
    body: dict[str, Any] = {"kind": "drive#driveList"}
    if start + size < len(DRIVES):
        body["nextPageToken"] = str(start + size)
    body["drives"] = [{k: d[k] for k in ("kind", "id", "name")} for d in DRIVES[start : start + size]]
    return ApiReply(body=body)


def get_drive(request: ApiRequest) -> ApiReply:
    _authorized(request)
    found = _drive(request.params["id"])
    return ApiReply(body=_projected(found, request.query.get("fields") or "kind,id,name"))


def create_drive(request: ApiRequest) -> ApiReply:
    _authorized(request)
    require(bool(request.query.get("requestId")), _error(400, "Required parameter: requestId", "required"))
    body = request.body if isinstance(request.body, dict) else {}
    name = str(body.get("name") or "")
    drive_id = "0A" + hashlib.sha1(name.encode()).hexdigest()[:16].upper() + "Uk9PVA"
    out: dict[str, Any] = {"kind": "drive#drive", "id": drive_id, "name": name}
    return ApiReply(body=out)


def delete_drive(request: ApiRequest) -> ApiReply:
    _authorized(request)
    _drive(request.params["id"])
    return ApiReply(status=204)


def install(server: FakeApiServer) -> None:
    state: dict[str, Any] = {"created": {}, "sessions": {}, "chunks": {}}
    server.__dict__.setdefault("state", {})["google_drive"] = state

    def stateful(handler: Any) -> Any:
        return lambda request: handler(request, state)

    files = r"/drive/v3/files"
    server.route("GET", files, list_files, host=HOST)
    server.route("POST", files, stateful(create_file), host=HOST)
    server.route("GET", files + r"/(?P<id>[^/]+)", stateful(get_file), host=HOST)
    server.route("PATCH", files + r"/(?P<id>[^/]+)", stateful(update_file), host=HOST)
    server.route("DELETE", files + r"/(?P<id>[^/]+)", stateful(delete_file), host=HOST)
    server.route("GET", files + r"/(?P<id>[^/]+)/export", stateful(export_file), host=HOST)
    server.route("POST", files + r"/(?P<id>[^/]+)/copy", stateful(copy_file), host=HOST)
    server.route("POST", files + r"/(?P<id>[^/]+)/permissions", stateful(share), host=HOST)
    server.route("POST", r"/upload/drive/v3/files", stateful(upload), host=HOST)
    server.route("PUT", r"/upload/drive/v3/files", stateful(upload_chunk), host=HOST)
    server.route("PATCH", r"/upload/drive/v3/files/(?P<id>[^/]+)", stateful(upload_update), host=HOST)
    server.route("GET", r"/drive/v3/drives", list_drives, host=HOST)
    server.route("POST", r"/drive/v3/drives", create_drive, host=HOST)
    server.route("GET", r"/drive/v3/drives/(?P<id>[^/]+)", get_drive, host=HOST)
    server.route("DELETE", r"/drive/v3/drives/(?P<id>[^/]+)", delete_drive, host=HOST)
    assert FOLDER


__all__ = ["HOST", "RATE_LIMITED", "TOKEN", "install"]
