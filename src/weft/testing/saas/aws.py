"""Fake AWS APIs at their own hosts (served through the proxy): Cognito user pools
(``cognito-idp.<region>.amazonaws.com``, JSON 1.1 with ``X-Amz-Target``), IAM (``iam.amazonaws.com``, the query
API, JSON for ``Accept: application/json`` else XML) and STS (``sts.<region>.amazonaws.com``: ``AssumeRole``,
``GetCallerIdentity``).

Every request must carry a valid AWS Signature Version 4, checked here as AWS checks it, independently of Weft's
signer: the ``Authorization`` header's scope (known access key, the service, the host's region, the date of the
request's own ``x-amz-date``), ``host`` and ``x-amz-date`` signed, the session token of temporary keys, and the
signature recomputed over the request as received (method, path, query, the signed headers' values, the body's
SHA-256). A bad request is answered with the service's own error shape. The services keep no state: answers are
built from fixed data and the request (see :mod:`._aws_cognito`, :mod:`._aws_iam`)."""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import quote

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, Rejected

#: Access key id -> (secret, session token or None): the recorded cases' keys.
KEYS: dict[str, tuple[str, str | None]] = {
    "AKIAWEFTFAKE0001": ("weftFakeSecretAccessKey0001", None),
    "AKIAWEFTSTS00001": ("weftFakeStsSecretKey0001", None),
    "ASIAWEFTROLE0001": ("weftFakeRoleSecretKey0001", "weft-fake-role-session-token-0001"),
}
REGIONS = ("us-east-1", "us-west-2", "eu-central-1", "eu-west-1")
ROLE_ARN = "arn:aws:iam::123456789012:role/WeftRole"
EXTERNAL_ID = "weft-external-id"
ACCOUNT = "123456789012"
SIGNATURE_MISMATCH = (
    "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access "
    "Key and signing method. Consult the service documentation for details."
)
_AUTH = re.compile(r"AWS4-HMAC-SHA256 Credential=([^/]+)/(\d{8})/([^/]+)/([^/]+)/aws4_request, "
                   r"SignedHeaders=([a-z0-9;\-]+), Signature=([0-9a-f]{64})")  # fmt: skip

ErrorReply = Callable[[int, str, str], ApiReply]


@dataclass(frozen=True)
class Caller:
    """Who signed a request."""

    access_key_id: str
    region: str


def _encode(value: str) -> str:
    return quote(value, safe="-_.~")


def _canonical_path(raw_path: str) -> str:
    segments: list[str] = []
    for segment in raw_path.split("/"):
        if segment == "..":
            segments = segments[:-1]
        elif segment not in ("", "."):
            segments.append(segment)
    path = ("/" if raw_path.startswith("/") else "") + "/".join(segments)
    path += "/" if segments and raw_path.endswith("/") else ""
    return _encode(path).replace("%2F", "/")


def expected_signature(request: ApiRequest, secret: str, scope: tuple[str, str, str], names: list[str]) -> str:
    """The signature AWS computes for ``request`` as received (``scope``: date, region, service)."""
    date, region, service = scope
    query = "&".join(sorted(f"{_encode(k)}={_encode(v)}" for k, v in request.query_pairs))
    headers = "".join(f"{n}:{' '.join(request.headers.get(n, '').split())}\n" for n in names)
    body_hash = hashlib.sha256(request.raw_body).hexdigest()
    canonical = "\n".join((request.method, _canonical_path(request.raw_path), query, headers, ";".join(names),
                           body_hash))  # fmt: skip
    amz_date = request.headers.get("x-amz-date", "")
    to_sign = "\n".join(("AWS4-HMAC-SHA256", amz_date, f"{date}/{region}/{service}/aws4_request",
                         hashlib.sha256(canonical.encode()).hexdigest()))  # fmt: skip
    key = f"AWS4{secret}".encode()
    for part in (date, region, service, "aws4_request"):
        key = hmac.new(key, part.encode(), hashlib.sha256).digest()
    return hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()


def verify(request: ApiRequest, service: str, region: str | None, error: ErrorReply) -> Caller:
    """The signer of ``request`` for ``service`` (in ``region``, when the host names one), or the service's error
    (raised as :class:`Rejected`)."""
    header = request.headers.get("authorization")
    if not header:
        raise Rejected(error(403, "MissingAuthenticationToken", "Missing Authentication Token"))
    found = _AUTH.fullmatch(header.strip())
    if found is None:
        raise Rejected(error(400, "IncompleteSignature", f"Authorization header requires 'Credential' ... : {header}"))
    key_id, date, scope_region, scope_service, signed, signature = found.groups()
    names = signed.split(";")
    if key_id not in KEYS:
        raise Rejected(
            error(403, "UnrecognizedClientException", "The security token included in the request is invalid.")
        )
    if scope_service != service or (region is not None and scope_region != region):
        wrong = f"correct service: '{service}'" if scope_service != service else "a valid region"
        message = f"Credential should be scoped to {wrong}. "
        raise Rejected(error(403, "SignatureDoesNotMatch", message))
    if "host" not in names or "x-amz-date" not in names or not request.headers.get("x-amz-date", "").startswith(date):
        raise Rejected(error(403, "IncompleteSignature", "The request must sign the host and x-amz-date headers."))
    secret, token = KEYS[key_id]
    if token is not None and (
        request.headers.get("x-amz-security-token") != token or "x-amz-security-token" not in names
    ):
        raise Rejected(
            error(403, "UnrecognizedClientException", "The security token included in the request is invalid.")
        )
    if not hmac.compare_digest(
        expected_signature(request, secret, (date, scope_region, scope_service), names), signature
    ):
        raise Rejected(error(403, "SignatureDoesNotMatch", SIGNATURE_MISMATCH))
    return Caller(access_key_id=key_id, region=scope_region)


# ---------------------------------------------------------------------------------------------------- STS


def _sts_error(status: int, code: str, message: str) -> ApiReply:
    text = (f'<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type>'
            f"<Code>{code}</Code><Message>{message}</Message></Error><RequestId>weft-fake-sts</RequestId>"
            "</ErrorResponse>")  # fmt: skip
    return ApiReply(status=status, text=text, content_type="text/xml")


def sts(request: ApiRequest) -> ApiReply:
    """``AssumeRole`` (the role ``ROLE_ARN`` with ``EXTERNAL_ID``, for the STS keys) and ``GetCallerIdentity``."""
    region = request.host.split(".")[1]
    caller = verify(request, "sts", region, _sts_error)
    form = {**request.query, **(request.body if isinstance(request.body, dict) else {})}
    action = form.get("Action")
    if action == "GetCallerIdentity":
        text = ("<GetCallerIdentityResponse><GetCallerIdentityResult>"
                f"<Arn>arn:aws:iam::{ACCOUNT}:user/weft</Arn><UserId>{caller.access_key_id}</UserId>"
                f"<Account>{ACCOUNT}</Account></GetCallerIdentityResult></GetCallerIdentityResponse>")  # fmt: skip
        return ApiReply(text=text, content_type="text/xml")
    if action != "AssumeRole":
        return _sts_error(400, "InvalidAction", f"Could not find operation {action} for version 2011-06-15")
    if caller.access_key_id != "AKIAWEFTSTS00001" or form.get("RoleArn") != ROLE_ARN or (
        form.get("ExternalId") != EXTERNAL_ID
    ):  # fmt: skip
        user, role = f"arn:aws:iam::{ACCOUNT}:user/weft", form.get("RoleArn")
        message = f"User: {user} is not authorized to perform: sts:AssumeRole on resource: {role}"
        return _sts_error(403, "AccessDenied", message)
    key_id = "ASIAWEFTROLE0001"
    secret, token = KEYS[key_id]
    text = ('<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult>'
            f"<AssumedRoleUser><AssumedRoleId>AROAWEFT:{form.get('RoleSessionName')}</AssumedRoleId>"
            f"<Arn>arn:aws:sts::{ACCOUNT}:assumed-role/WeftRole/{form.get('RoleSessionName')}</Arn></AssumedRoleUser>"
            f"<Credentials><AccessKeyId>{key_id}</AccessKeyId><SecretAccessKey>{secret}</SecretAccessKey>"
            f"<SessionToken>{token}</SessionToken><Expiration>2030-01-01T00:00:00Z</Expiration></Credentials>"
            "</AssumeRoleResult><ResponseMetadata><RequestId>weft-fake-sts</RequestId></ResponseMetadata>"
            "</AssumeRoleResponse>")  # fmt: skip
    return ApiReply(text=text, content_type="text/xml")


def install(server: FakeApiServer) -> None:
    from weft.testing.saas import _aws_cognito, _aws_iam

    for region in REGIONS:
        server.route("POST", r"/", _aws_cognito.handler(region), host=f"cognito-idp.{region}.amazonaws.com")
        server.route("POST", r"/", sts, host=f"sts.{region}.amazonaws.com")
    server.route("POST", r"/", _aws_iam.serve, host="iam.amazonaws.com")


__all__ = ["EXTERNAL_ID", "KEYS", "REGIONS", "ROLE_ARN", "Caller", "expected_signature", "install", "verify"]
