"""A fake Google Cloud Storage JSON API (``storage.googleapis.com``): buckets of the project ``weft-project``
(list with ``maxResults``/``pageToken``, get, create, update, delete) and the objects of the bucket
``weft-bucket`` (list, metadata or content with ``alt=media``, update, delete), uploads (``uploadType=multipart``:
a ``multipart/related`` body, metadata then content; ``uploadType=resumable``: a session URL, the content
``PUT`` to it, then the object can be read). OAuth2 bearer tokens and the service account's token of
:mod:`weft.testing.saas.google_oauth` are accepted. Errors are Google's bodies (``{"error": {"code", "message",
"errors": [...]}}``); the bucket ``rate-limited-bucket`` answers 429 with ``Retry-After``. Uploaded objects are kept
on the server (``server.state["google_cloud_storage"]``) by bucket and name, so cases use names of their own."""

from __future__ import annotations

import base64
import hashlib
import json
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any
from urllib.parse import quote

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require
from weft.testing.saas.google_oauth import SERVICE_ACCOUNT_TOKEN

HOST = "storage.googleapis.com"
ACCESS_TOKEN = "gcs-access-token"
PROJECT = "weft-project"
BUCKET = "weft-bucket"
RATE_LIMITED = "rate-limited-bucket"
#: Google may answer fewer than ``maxResults``: this fake answers at most this many, so pages show.
PAGE = 2
_TIME = "2025-02-0{n}T08:00:00.000Z"


def _error(status: int, message: str, reason: str, **headers: str) -> ApiReply:
    body = {
        "error": {
            "code": status,
            "message": message,
            "errors": [{"message": message, "domain": "global", "reason": reason}],
        }
    }
    return json_error(status, body, **headers)


def _bucket(name: str, number: int = 1, **extra: Any) -> dict[str, Any]:
    return {
        "kind": "storage#bucket",
        "selfLink": f"https://www.googleapis.com/storage/v1/b/{name}",
        "id": name,
        "name": name,
        "projectNumber": "123456789012",
        "generation": f"17380000000000{number:02d}",
        "metageneration": "1",
        "location": "US",
        "storageClass": "STANDARD",
        "etag": "CAE=",
        "timeCreated": _TIME.format(n=number),
        "updated": _TIME.format(n=number),
        "iamConfiguration": {"bucketPolicyOnly": {"enabled": False}, "uniformBucketLevelAccess": {"enabled": False}},
        "locationType": "multi-region",
        **extra,
    }


BUCKETS = [_bucket(BUCKET, 1), *(_bucket(f"weft-archive-{n}", n) for n in range(2, 6))]


def _object(bucket: str, name: str, content: bytes, content_type: str, number: int = 1, **extra: Any) -> dict[str, Any]:
    digest = base64.b64encode(hashlib.md5(content).digest()).decode()
    generation = f"17380000000001{number:02d}"
    encoded = quote(name, safe="")
    return {
        "kind": "storage#object",
        "id": f"{bucket}/{name}/{generation}",
        "selfLink": f"https://www.googleapis.com/storage/v1/b/{bucket}/o/{encoded}",
        "mediaLink": f"https://storage.googleapis.com/download/storage/v1/b/{bucket}/o/{encoded}?generation={generation}&alt=media",
        "name": name,
        "bucket": bucket,
        "generation": generation,
        "metageneration": "1",
        "contentType": content_type,
        "storageClass": "STANDARD",
        "size": str(len(content)),
        "md5Hash": digest,
        "crc32c": "AAAAAA==",
        "etag": "CJ+8fake=",
        "timeCreated": _TIME.format(n=number),
        "updated": _TIME.format(n=number),
        "timeStorageClassUpdated": _TIME.format(n=number),
        **extra,
    }


CONTENTS = {f"notes/day-{n}.txt": f"Notes of day {n}\n".encode() for n in range(1, 6)}
OBJECTS = [_object(BUCKET, name, data, "text/plain", n) for n, (name, data) in enumerate(CONTENTS.items(), 1)]


def _authorized(request: ApiRequest) -> None:
    header = request.headers.get("authorization") or ""
    require(
        header in (f"Bearer {ACCESS_TOKEN}", f"Bearer {SERVICE_ACCOUNT_TOKEN}"),
        _error(401, "Invalid Credentials", "authError"),
    )


def _state(server: FakeApiServer) -> dict[str, Any]:
    state = server.__dict__.setdefault("state", {})
    found: dict[str, Any] = state.setdefault("google_cloud_storage", {"objects": {}, "sessions": {}})
    return found


def _page(request: ApiRequest, rows: list[dict[str, Any]], kind: str, most: int) -> ApiReply:
    size = request.query.get("maxResults") or str(most)
    require(size.isdigit() and int(size) > 0, _error(400, f"Invalid value for maxResults: {size}", "invalid"))
    start = int(request.query.get("pageToken", "t0")[1:] or 0)
    end = start + min(int(size), most, PAGE)
    body: dict[str, Any] = {"kind": kind}
    if rows[start:end]:
        body["items"] = rows[start:end]
    if end < len(rows):
        body["nextPageToken"] = f"t{end}"
    return ApiReply(body=body)


def list_buckets(request: ApiRequest) -> ApiReply:
    _authorized(request)
    project = request.query.get("project")
    require(bool(project), _error(400, "Required parameter: project", "required"))
    require(project == PROJECT, _error(404, f"Unknown project id: {project}", "notFound"))
    return _page(request, BUCKETS, "storage#buckets", 1000)


def create_bucket(request: ApiRequest) -> ApiReply:
    _authorized(request)
    require(request.query.get("project") == PROJECT, _error(400, "Required parameter: project", "required"))
    body = request.body if isinstance(request.body, dict) else {}
    name = str(body.get("name") or "")
    require(bool(name), _error(400, "Required", "required"))
    require(
        name not in {b["name"] for b in BUCKETS},
        _error(409, "Your previous request to create the named bucket succeeded and you already own it.", "conflict"),
    )
    return ApiReply(body=_bucket(name, 9, **{k: v for k, v in body.items() if k != "name"}))


def _known_bucket(request: ApiRequest) -> dict[str, Any]:
    _authorized(request)
    name = request.params["bucket"]
    require(
        name != RATE_LIMITED,
        _error(429, "The rate of requests is too high.", "rateLimitExceeded", **{"Retry-After": "30"}),
    )
    found = next((b for b in BUCKETS if b["name"] == name), None)
    require(found is not None, _error(404, "The specified bucket does not exist.", "notFound"))
    assert found is not None
    return found


def get_bucket(request: ApiRequest) -> ApiReply:
    return ApiReply(body=_known_bucket(request))


def update_bucket(request: ApiRequest) -> ApiReply:
    bucket = _known_bucket(request)
    body = request.body if isinstance(request.body, dict) else {}
    return ApiReply(body={**bucket, **body, "metageneration": "2"})


def delete_bucket(request: ApiRequest) -> ApiReply:
    bucket = _known_bucket(request)
    require(bucket["name"] != BUCKET, _error(409, "The bucket you tried to delete is not empty.", "conflict"))
    return ApiReply(status=204, text="")


def list_objects(request: ApiRequest) -> ApiReply:
    _known_bucket(request)
    rows = [o for o in OBJECTS if o["name"].startswith(request.query.get("prefix", ""))]
    return _page(request, rows, "storage#objects", 1000)


def _find_object(server: FakeApiServer, request: ApiRequest) -> tuple[dict[str, Any], bytes]:
    bucket, name = _known_bucket(request)["name"], request.params["object"]
    stored = _state(server)["objects"].get(f"{bucket}/{name}")
    if stored is not None:
        return stored["meta"], stored["content"]
    found = next((o for o in OBJECTS if o["name"] == name and o["bucket"] == bucket), None)
    require(found is not None, _error(404, "No such object: " + f"{bucket}/{name}", "notFound"))
    assert found is not None
    return found, CONTENTS[name]


def object_handlers(server: FakeApiServer) -> dict[str, Any]:
    def get_object(request: ApiRequest) -> ApiReply:
        meta, content = _find_object(server, request)
        if request.query.get("alt") == "media":
            return ApiReply(data=content, content_type=meta["contentType"])
        return ApiReply(body=meta)

    def update_object(request: ApiRequest) -> ApiReply:
        meta, _ = _find_object(server, request)
        body = request.body if isinstance(request.body, dict) else {}
        return ApiReply(body={**meta, **body, "metageneration": "2"})

    def delete_object(request: ApiRequest) -> ApiReply:
        _find_object(server, request)
        return ApiReply(status=204, text="")

    return {"GET": get_object, "PATCH": update_object, "DELETE": delete_object}


def _multipart(request: ApiRequest) -> tuple[dict[str, Any], bytes, str]:
    content_type = request.headers.get("content-type", "")
    require(
        # Google documents multipart/related; n8n 2.8's HTTP client sends the form's multipart/form-data type
        content_type.startswith(("multipart/related; boundary=", "multipart/form-data; boundary=")),
        _error(400, f"Invalid multipart request: Content-Type {content_type or '(none)'}", "invalid"),
    )
    message = BytesParser(policy=HTTP).parsebytes(f"Content-Type: {content_type}\r\n\r\n".encode() + request.raw_body)
    parts = list(message.iter_parts()) if message.is_multipart() else []
    require(len(parts) == 2, _error(400, "Invalid multipart request with 0 mime parts.", "invalid"))
    meta_raw = parts[0].get_payload(decode=True)
    metadata = json.loads(meta_raw) if isinstance(meta_raw, bytes) and meta_raw else {}
    content = parts[1].get_payload(decode=True)
    return metadata, content if isinstance(content, bytes) else b"", parts[1].get_content_type()


def upload_handlers(server: FakeApiServer) -> dict[str, Any]:
    def upload(request: ApiRequest) -> ApiReply:
        bucket = _known_bucket(request)["name"]
        kind = request.query.get("uploadType")
        if kind == "resumable":
            body = request.body if isinstance(request.body, dict) else {}
            session = f"s{len(_state(server)['sessions']) + 1}"
            content_type = request.headers.get("x-upload-content-type") or "application/octet-stream"
            _state(server)["sessions"][session] = {"bucket": bucket, "meta": body, "type": content_type}
            location = f"https://{HOST}/upload/storage/v1/b/{bucket}/o?uploadType=resumable&upload_id={session}"
            return ApiReply(body={}, headers={"Location": location})
        require(kind == "multipart", _error(400, f"Invalid upload type: {kind}", "invalid"))
        metadata, content, content_type = _multipart(request)
        name = str(request.query.get("name") or metadata.get("name") or "")
        require(bool(name), _error(400, "Required", "required"))
        return ApiReply(body=_store(server, bucket, name, metadata, content, content_type))

    def put(request: ApiRequest) -> ApiReply:
        session = _state(server)["sessions"].get(request.query.get("upload_id", ""))
        require(session is not None, _error(404, "No such upload session.", "notFound"))
        assert session is not None
        meta = session["meta"]
        return ApiReply(
            body=_store(server, session["bucket"], str(meta.get("name")), meta, request.raw_body, session["type"])
        )

    return {"POST": upload, "PUT": put}


def _store(
    server: FakeApiServer, bucket: str, name: str, metadata: dict[str, Any], content: bytes, kind: str
) -> dict[str, Any]:
    extra = {k: v for k, v in metadata.items() if k not in ("name", "bucket", "contentType")}
    meta = _object(bucket, name, content, str(metadata.get("contentType") or kind), 9, **extra)
    _state(server)["objects"][f"{bucket}/{name}"] = {"meta": meta, "content": content}
    return meta


def install(server: FakeApiServer) -> None:
    base = r"/storage/v1/b"
    server.route("GET", base + r"/?", list_buckets, host=HOST)
    server.route("POST", base + r"/?", create_bucket, host=HOST)
    server.route("GET", base + r"/(?P<bucket>[^/]+)/o/?", list_objects, host=HOST)
    for method, handler in object_handlers(server).items():
        server.route(method, base + r"/(?P<bucket>[^/]+)/o/(?P<object>.+)", handler, host=HOST)
    server.route("GET", base + r"/(?P<bucket>[^/]+)/?", get_bucket, host=HOST)
    server.route("PATCH", base + r"/(?P<bucket>[^/]+)/?", update_bucket, host=HOST)
    server.route("DELETE", base + r"/(?P<bucket>[^/]+)/?", delete_bucket, host=HOST)
    uploads = upload_handlers(server)
    server.route("POST", r"/upload/storage/v1/b/(?P<bucket>[^/]+)/o/?", uploads["POST"], host=HOST)
    server.route("PUT", r"/upload/storage/v1/b/(?P<bucket>[^/]+)/o/?", uploads["PUT"], host=HOST)
