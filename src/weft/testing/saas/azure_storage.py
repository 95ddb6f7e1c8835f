"""A fake Azure Blob Storage account (``https://weftstore.blob.core.windows.net``): containers and blobs, as the
Blob service answers (XML lists and errors, properties as headers). Every request must carry a Shared Key
signature Azure computes (HMAC-SHA256 of the account key over the verb, the standard headers, the ``x-ms-``
headers and the account, path and query, for the request's own ``x-ms-date``) or the OAuth2 token
:data:`TOKEN`; else Azure's 403 ``AuthenticationFailed``. Lists come in pages of ``maxresults`` (2 when not given:
Azure's default is 5000) with a ``NextMarker``; the container ``busy`` answers 503 ``ServerBusy`` with
``Retry-After``. It keeps no state: writes are answered from the request, reads from fixed data."""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, Rejected, require

ACCOUNT = "weftstore"
KEY = base64.b64encode(b"weft-fake-azure-storage-account-key-01").decode()
TOKEN = "azure-storage-fake-oauth-token"
HOST = f"{ACCOUNT}.blob.core.windows.net"
DEFAULT_PAGE = 2
MODIFIED = "Sat, 01 Jun 2024 00:00:00 GMT"
REQUEST_ID = "00000000-0000-4000-8000-00000000b10b"
_STANDARD = ("content-encoding", "content-language", "content-length", "content-md5", "content-type", "date",
             "if-modified-since", "if-match", "if-none-match", "if-unmodified-since", "range")  # fmt: skip


@dataclass(frozen=True)
class Blob:
    name: str
    content: bytes
    content_type: str
    disposition: str = ""
    metadata: dict[str, str] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)


CONTAINERS: dict[str, dict[str, str]] = {
    "alpha": {"project": "weft"},
    "beta": {},
    "busy": {},
    "gamma": {"tier": "cold"},
}
BLOBS: dict[str, list[Blob]] = {
    "alpha": [
        Blob("data.json", b'{"ok":true}', "application/json", metadata={"source": "fake"}),
        Blob("hello.txt", b"Hello, Azure!", "text/plain", 'attachment; filename="hello.txt"', {"author": "ada"},
             {"team": "weft", "env": "test"}),
        Blob("notes.md", b"# Notes\n", "text/markdown"),
    ],
    "beta": [],
    "gamma": [Blob("report.csv", b"a,b\n1,2\n", "text/csv", 'attachment; filename="report 2024.csv"')],
}  # fmt: skip


def _base(extra: dict[str, str] | None = None) -> dict[str, str]:
    return {"x-ms-request-id": REQUEST_ID, "x-ms-version": "2021-12-02", **(extra or {})}


def _error(status: int, code: str, message: str, detail: str = "", **headers: str) -> ApiReply:
    text = f"{message}\nRequestId:{REQUEST_ID}\nTime:2024-06-01T00:00:00.0000000Z"
    extra = f"<AuthenticationErrorDetail>{escape(detail)}</AuthenticationErrorDetail>" if detail else ""
    xml = (f'<?xml version="1.0" encoding="utf-8"?><Error><Code>{code}</Code><Message>{escape(text)}</Message>'
           f"{extra}</Error>")  # fmt: skip
    return ApiReply(status=status, text=xml, content_type="application/xml",
                    headers=_base({"x-ms-error-code": code, **headers}))  # fmt: skip


def string_to_sign(request: ApiRequest) -> str:
    """The Blob service's Shared Key string-to-sign for ``request`` (as it arrived)."""
    headers = request.headers
    standard = [headers.get(name, "") for name in _STANDARD]
    if standard[2] == "0":
        standard[2] = ""
    named = sorted((k, v) for k, v in headers.items() if k.startswith("x-ms-"))
    canonical = "".join(f"{k}:{v.lstrip()}\n" for k, v in named)
    resource = f"/{ACCOUNT}{request.raw_path or '/'}"
    values: dict[str, list[str]] = {}
    for key, value in request.query_pairs:
        values.setdefault(key.lower(), []).append(value)
    resource += "".join(f"\n{k}:{','.join(sorted(v))}" for k, v in sorted(values.items()))
    return "\n".join([request.method, *standard, canonical + resource])


def _authorized(request: ApiRequest) -> None:
    given = request.headers.get("authorization", "")
    missing = _error(400, "MissingRequiredHeader", "An HTTP header that's mandatory for this request is not specified.")
    require(bool(request.headers.get("x-ms-version")), missing)
    if given == f"Bearer {TOKEN}":
        return
    require(bool(request.headers.get("x-ms-date")), _error(403, "AuthenticationFailed", "Server failed to "
            "authenticate the request. Make sure the value of Authorization header is formed correctly including "
            "the signature.", "Request date header not specified"))  # fmt: skip
    payload = string_to_sign(request)
    digest = hmac.new(base64.b64decode(KEY), payload.encode(), hashlib.sha256).digest()
    want = f"SharedKey {ACCOUNT}:{base64.b64encode(digest).decode()}"
    require(given == want, _error(403, "AuthenticationFailed", "Server failed to authenticate the request. Make sure "
            "the value of Authorization header is formed correctly including the signature.", "The MAC signature "
            f"found in the HTTP request '{given.rpartition(':')[2]}' is not the same as any computed signature. "
            f"Server used following string to sign: '{payload}'."))  # fmt: skip


def _container(request: ApiRequest) -> str:
    name = request.params["container"]
    if name == "busy":
        raise Rejected(_error(503, "ServerBusy", "The server is busy.", **{"Retry-After": "1"}))
    require(name in CONTAINERS, _error(404, "ContainerNotFound", "The specified container does not exist."))
    return name


def _etag(name: str) -> str:
    return f'"0x8DC81A1E{hashlib.sha256(name.encode()).hexdigest()[:7].upper()}"'


# ---------------------------------------------------------------------------------------------------- lists


def _page(request: ApiRequest, names: list[str]) -> tuple[list[str], str, str]:
    """The names of this page, the page's leading elements, and its ``NextMarker``."""
    prefix, marker = request.query.get("prefix", ""), request.query.get("marker", "")
    size = int(request.query.get("maxresults") or DEFAULT_PAGE)
    chosen = [n for n in sorted(names) if n.startswith(prefix) and n >= marker]
    echoed = (("prefix", "Prefix"), ("marker", "Marker"), ("maxresults", "MaxResults"))
    head = "".join(f"<{tag}>{escape(request.query[key])}</{tag}>" for key, tag in echoed if key in request.query)
    following = chosen[size] if len(chosen) > size else ""
    return chosen[:size], head, following


def _metadata(values: dict[str, str]) -> str:
    return "<Metadata>" + "".join(f"<{k}>{escape(v)}</{k}>" for k, v in values.items()) + "</Metadata>"


def list_containers(request: ApiRequest) -> ApiReply:
    _authorized(request)
    invalid = "Value for one of the query parameters specified in the request URI is invalid."
    require(request.query.get("comp") == "list", _error(400, "InvalidQueryParameterValue", invalid))
    names, head, following = _page(request, list(CONTAINERS))
    include = request.query.get("include", "").split(",")
    entries = "".join(
        f"<Container><Name>{n}</Name><Properties><Last-Modified>{MODIFIED}</Last-Modified><Etag>{_etag(n)}</Etag>"
        "<LeaseStatus>unlocked</LeaseStatus><LeaseState>available</LeaseState><DefaultEncryptionScope>"
        "$account-encryption-key</DefaultEncryptionScope><DenyEncryptionScopeOverride>false"
        "</DenyEncryptionScopeOverride><HasImmutabilityPolicy>false</HasImmutabilityPolicy><HasLegalHold>false"
        "</HasLegalHold><ImmutableStorageWithVersioningEnabled>false</ImmutableStorageWithVersioningEnabled>"
        f"</Properties>{_metadata(CONTAINERS[n]) if 'metadata' in include else ''}</Container>"
        for n in names
    )
    return _xml(f'<EnumerationResults ServiceEndpoint="https://{HOST}/">{head}<Containers>{entries}</Containers>'
                f"<NextMarker>{following}</NextMarker></EnumerationResults>")  # fmt: skip


def _xml(body: str) -> ApiReply:
    return ApiReply(text='<?xml version="1.0" encoding="utf-8"?>' + body, content_type="application/xml",
                    headers=_base())  # fmt: skip


def _blob_entry(blob: Blob, include: list[str]) -> str:
    disposition = f"<Content-Disposition>{escape(blob.disposition)}</Content-Disposition>" if blob.disposition else ""
    tags = "".join(f"<Tag><Key>{k}</Key><Value>{escape(v)}</Value></Tag>" for k, v in blob.tags.items())
    return (
        f"<Blob><Name>{escape(blob.name)}</Name><Properties><Creation-Time>{MODIFIED}</Creation-Time>"
        f"<Last-Modified>{MODIFIED}</Last-Modified><Etag>{_etag(blob.name)}</Etag>"
        f"<Content-Length>{len(blob.content)}</Content-Length><Content-Type>{blob.content_type}</Content-Type>"
        f"<Content-Encoding /><Content-Language /><Content-CRC64 /><Content-MD5>{_md5(blob.content)}</Content-MD5>"
        f"{disposition}<Cache-Control /><BlobType>BlockBlob</BlobType><AccessTier>Hot</AccessTier>"
        "<AccessTierInferred>true</AccessTierInferred><LeaseStatus>unlocked</LeaseStatus><LeaseState>available"
        "</LeaseState><ServerEncrypted>true</ServerEncrypted></Properties>"
        f"{_metadata(blob.metadata) if 'metadata' in include else ''}"
        f"{f'<Tags><TagSet>{tags}</TagSet></Tags>' if 'tags' in include and tags else ''}</Blob>"
    )


def _md5(content: bytes) -> str:
    return base64.b64encode(hashlib.md5(content).digest()).decode()


def list_blobs(request: ApiRequest) -> ApiReply:
    _authorized(request)
    name = _container(request)
    include = request.query.get("include", "").split(",")
    blobs = {b.name: b for b in BLOBS[name]}
    names, head, following = _page(request, list(blobs))
    entries = "".join(_blob_entry(blobs[n], include) for n in names)
    listed = f"<Blobs>{entries}</Blobs>" if entries else "<Blobs />"
    return _xml(f'<EnumerationResults ServiceEndpoint="https://{HOST}/" ContainerName="{name}">{head}{listed}'
                f"<NextMarker>{following}</NextMarker></EnumerationResults>")  # fmt: skip


# ---------------------------------------------------------------------------------------------------- containers


def container(request: ApiRequest) -> ApiReply:
    """``?restype=container``: create (``PUT``), properties (``GET``), delete (``DELETE``); with ``comp=list``
    the container's blobs."""
    if request.query.get("comp") == "list":
        return list_blobs(request)
    _authorized(request)
    require(request.query.get("restype") == "container", _error(400, "InvalidUri", "The requested URI does not "
                                                                "represent any resource on the server."))  # fmt: skip
    if request.method == "PUT":
        return _create_container(request)
    name = _container(request)
    if request.method == "DELETE":
        return ApiReply(status=202, data=b"", headers=_base())
    meta = {f"x-ms-meta-{k}": v for k, v in CONTAINERS[name].items()}
    return ApiReply(data=b"", headers=_base({**meta, "ETag": _etag(name), "Last-Modified": MODIFIED,
                    "x-ms-lease-status": "unlocked", "x-ms-lease-state": "available",
                    "x-ms-has-immutability-policy": "false", "x-ms-has-legal-hold": "false",
                    "x-ms-default-encryption-scope": "$account-encryption-key",
                    "x-ms-deny-encryption-scope-override": "false",
                    "x-ms-immutable-storage-with-versioning-enabled": "false"}))  # fmt: skip


def _create_container(request: ApiRequest) -> ApiReply:
    name = request.params["container"]
    require(name not in CONTAINERS, _error(409, "ContainerAlreadyExists", "The specified container already exists."))
    access = request.headers.get("x-ms-blob-public-access")
    require(access in (None, "blob", "container"), _error(400, "InvalidHeaderValue", "The value for one of the HTTP "
                                                          "headers is not in the correct format."))  # fmt: skip
    require(access is None or name != "public-denied", _error(409, "PublicAccessNotPermitted", "Public access is not "
                                                              "permitted on this storage account."))  # fmt: skip
    return ApiReply(status=201, data=b"", headers=_base({"ETag": _etag(name), "Last-Modified": MODIFIED}))


# ---------------------------------------------------------------------------------------------------- blobs


def _blob(request: ApiRequest) -> Blob:
    name = _container(request)
    for blob in BLOBS[name]:
        if blob.name == request.params["blob"]:
            return blob
    raise Rejected(_error(404, "BlobNotFound", "The specified blob does not exist."))


def blob(request: ApiRequest) -> ApiReply:
    _authorized(request)
    if request.method == "PUT":
        return _put_blob(request)
    found = _blob(request)
    if request.method == "DELETE":
        return ApiReply(status=202, data=b"", headers=_base({"x-ms-delete-type-permanent": "true"}))
    headers = {f"x-ms-meta-{k}": v for k, v in found.metadata.items()}
    if found.disposition:
        headers["Content-Disposition"] = found.disposition
    headers.update({"Last-Modified": MODIFIED, "ETag": _etag(found.name), "Content-MD5": _md5(found.content),
                    "Accept-Ranges": "bytes", "x-ms-creation-time": MODIFIED, "x-ms-blob-type": "BlockBlob",
                    "x-ms-lease-status": "unlocked", "x-ms-lease-state": "available",
                    "x-ms-server-encrypted": "true", "x-ms-tag-count": str(len(found.tags))})  # fmt: skip
    return ApiReply(data=found.content, content_type=found.content_type, headers=_base(headers))


def _put_blob(request: ApiRequest) -> ApiReply:
    _container(request)
    require(request.headers.get("x-ms-blob-type") == "BlockBlob", _error(400, "MissingRequiredHeader", "An HTTP "
            "header that's mandatory for this request is not specified."))  # fmt: skip
    source = request.headers.get("x-ms-copy-source")
    if source is not None:
        require(source.startswith("https://"), _error(400, "CannotVerifyCopySource", "The specified resource does "
                                                      "not exist."))  # fmt: skip
    content = request.raw_body
    headers = {"ETag": _etag(request.params["blob"]), "Last-Modified": MODIFIED, "Content-MD5": _md5(content),
               "x-ms-request-server-encrypted": "true", "x-ms-version-id": "2024-06-01T00:00:00.0000000Z"}  # fmt: skip
    return ApiReply(status=201, data=b"", headers=_base(headers))


def install(server: FakeApiServer) -> None:
    server.route("GET", r"/", list_containers, host=HOST)
    server.route("*", r"/(?P<container>[^/]+)", container, host=HOST)
    server.route("*", r"/(?P<container>[^/]+)/(?P<blob>.+)", blob, host=HOST)


__all__ = ["ACCOUNT", "BLOBS", "CONTAINERS", "HOST", "KEY", "TOKEN", "install", "string_to_sign"]
