"""AWS Signature Version 4 (what n8n's ``aws``/``awsAssumeRole`` credentials sign each request with), written from
AWS's documented algorithm: a canonical request (method, URI-encoded path, sorted query, the signed headers, the
payload's SHA-256), a string to sign over the credential scope (``date/region/service/aws4_request``), and an
HMAC-SHA256 signature with the key derived from the secret for that scope. The headers signed are every header
of the request but the few AWS never signs (``user-agent``, ``authorization``, ``proxy-*``, …), as the AWS SDK's
signer (``@smithy/signature-v4``, which n8n 2.41 uses) does.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from urllib.parse import quote

ALGORITHM = "AWS4-HMAC-SHA256"
EMPTY_SHA256 = hashlib.sha256(b"").hexdigest()
#: Headers the AWS SDK never signs (proxies and clients may change them).
UNSIGNABLE = frozenset({
    "authorization", "cache-control", "connection", "expect", "from", "keep-alive", "max-forwards", "pragma",
    "referer", "te", "trailer", "transfer-encoding", "upgrade", "user-agent", "x-amzn-trace-id",
})  # fmt: skip


@dataclass(frozen=True, kw_only=True)
class AwsKeys:
    """The keys a request is signed with."""

    access_key_id: str
    secret_access_key: str
    session_token: str | None = None


@dataclass(kw_only=True)
class SignedRequest:
    """A request to sign: ``path`` is the path as sent (percent-encoded), ``query`` the decoded pairs."""

    method: str
    host: str
    path: str
    query: list[tuple[str, str]] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    """Lower-case names."""
    body: bytes = b""


def uri_encode(value: str) -> str:
    """``encodeURIComponent`` with ``!'()*`` encoded too: only RFC 3986's unreserved characters stay."""
    return quote(value, safe="-_.~")


def canonical_path(path: str, *, escape: bool = True) -> str:
    """The path, dot segments resolved and encoded once more (every service but S3, which signs it as sent)."""
    if not escape:
        return path or "/"
    segments: list[str] = []
    for segment in path.split("/"):
        if segment in ("", "."):
            continue
        if segment == "..":
            if segments:
                segments.pop()
        else:
            segments.append(segment)
    lead = "/" if path.startswith("/") else ""
    trail = "/" if segments and path.endswith("/") else ""
    return uri_encode(f"{lead}{'/'.join(segments)}{trail}").replace("%2F", "/")


def canonical_query(pairs: list[tuple[str, str]]) -> str:
    encoded = [(uri_encode(k), uri_encode(v)) for k, v in pairs if k.lower() != "x-amz-signature"]
    return "&".join(f"{k}={v}" for k, v in sorted(encoded))


def signed_header_names(headers: Mapping[str, str]) -> list[str]:
    names = {name.lower() for name in headers}
    return sorted(n for n in names if n not in UNSIGNABLE and not n.startswith(("proxy-", "sec-")))


def canonical_request(request: SignedRequest, names: list[str], payload_hash: str, *, escape_path: bool = True) -> str:
    lowered = {k.lower(): v for k, v in request.headers.items()}
    headers = "".join(f"{n}:{_trimmed(lowered[n])}\n" for n in names)
    return "\n".join((
        request.method.upper(), canonical_path(request.path, escape=escape_path), canonical_query(request.query),
        headers, ";".join(names), payload_hash,
    ))  # fmt: skip


def _trimmed(value: str) -> str:
    return re.sub(r"\s+", " ", value.strip())


def signing_key(secret: str, date: str, region: str, service: str) -> bytes:
    key = f"AWS4{secret}".encode()
    for part in (date, region, service, "aws4_request"):
        key = hmac.new(key, part.encode(), hashlib.sha256).digest()
    return key


def string_to_sign(amz_date: str, scope: str, canonical: str) -> str:
    return f"{ALGORITHM}\n{amz_date}\n{scope}\n{hashlib.sha256(canonical.encode()).hexdigest()}"


def amz_date(now: datetime | None = None) -> str:
    """``YYYYMMDDTHHMMSSZ`` of ``now`` (the clock when not given)."""
    return (now or datetime.now(UTC)).astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def sign(
    request: SignedRequest, keys: AwsKeys, region: str, service: str, *, when: str | None = None, s3: bool = False
) -> dict[str, str]:
    """Sign ``request`` in place: its headers with ``host``, ``x-amz-date`` (``when``, else now), the session token
    (and S3's ``x-amz-content-sha256``) and ``authorization``; the headers returned."""
    date_time = when or amz_date()
    headers = {k.lower(): v for k, v in request.headers.items() if k.lower() != "authorization"}
    headers.setdefault("host", request.host)
    headers["x-amz-date"] = date_time
    if keys.session_token:
        headers["x-amz-security-token"] = keys.session_token
    payload_hash = hashlib.sha256(request.body).hexdigest() if request.body else EMPTY_SHA256
    if s3:
        headers["x-amz-content-sha256"] = payload_hash
    request.headers = headers
    names = signed_header_names(headers)
    scope = f"{date_time[:8]}/{region}/{service}/aws4_request"
    canonical = canonical_request(request, names, payload_hash, escape_path=not s3)
    key = signing_key(keys.secret_access_key, date_time[:8], region, service)
    signature = hmac.new(key, string_to_sign(date_time, scope, canonical).encode(), hashlib.sha256).hexdigest()
    headers["authorization"] = (
        f"{ALGORITHM} Credential={keys.access_key_id}/{scope}, SignedHeaders={';'.join(names)}, Signature={signature}"
    )
    return headers


__all__ = [
    "ALGORITHM",
    "AwsKeys",
    "SignedRequest",
    "amz_date",
    "canonical_path",
    "canonical_query",
    "canonical_request",
    "sign",
    "signed_header_names",
    "signing_key",
    "string_to_sign",
    "uri_encode",
]
