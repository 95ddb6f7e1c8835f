"""Ports of the AWS credential types' ``authenticate`` (``Aws.credentials.ts``, ``AwsAssumeRole.credentials.ts``):
the request's endpoint and signing service and region worked out as n8n does (``awsGetSignInOptionsAndUpdateRequest``:
``qs.service``, ``qs._region``, ``qs.path``, the credential's custom endpoints), then signed with SigV4
(:mod:`weft.nodes.routing.ports.aws_common`). ``awsAssumeRole`` first asks STS (``AssumeRole``) for temporary
keys, with the credential's STS keys or, where the administrator allows it
(``N8N_AWS_SYSTEM_CREDENTIALS_ACCESS_ENABLED``), the ``AWS_*`` keys of the environment.
"""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Mapping
from typing import Any
from urllib.parse import SplitResult, parse_qsl, urlencode, urlsplit

from weft.errors import NodeApiError, NodeOperationError
from weft.nodes.credential_types import credential_type
from weft.nodes.routing.functions import port
from weft.nodes.routing.jsvalues import text
from weft.nodes.routing.paths import UNDEFINED
from weft.nodes.routing.ports.aws_common import AwsKeys, SignedRequest, sign
from weft.nodes.routing.scope import RoutingScope

#: The credential's custom endpoint field of each service that has one.
CUSTOM_ENDPOINTS = {"lambda": "lambdaEndpoint", "sns": "snsEndpoint", "sqs": "sqsEndpoint", "s3": "s3Endpoint",
                    "ses": "sesEndpoint", "rekognition": "rekognitionEndpoint", "ssm": "ssmEndpoint"}  # fmt: skip
_SIGNING_NAMES = {"bedrock-runtime": "bedrock", "bedrock-agent": "bedrock", "bedrock-agent-runtime": "bedrock",
                  "bedrock-data-automation": "bedrock", "bedrock-data-automation-runtime": "bedrock",
                  "queue": "sqs", "email": "ses"}  # fmt: skip
_REGION_SHAPE = re.compile(r"^[a-z]{2,4}(-[a-z]+)+-\d+$")
_AWS_HOST = re.compile(r"\.amazonaws\.com(\.cn)?$", re.IGNORECASE)


def _blank(value: Any) -> bool:
    return value is None or value is UNDEFINED or value == ""


def supported_regions() -> set[str]:
    """The regions of the credential's ``region`` options (n8n's ``regions`` list)."""
    for prop in (credential_type("aws") or {}).get("properties") or []:
        if prop.get("name") == "region":
            return {str(option.get("value")) for option in prop.get("options") or []}
    return set()


def check_region(node_name: str, region: Any) -> str:
    if not isinstance(region, str) or region not in supported_regions():
        raise NodeOperationError(
            node_name,
            "Unsupported AWS region",
            description=f"The region {text(region)!r} is not an AWS region n8n knows; choose one in the credential.",
        )
    return region


def aws_domain(region: str) -> str:
    return "amazonaws.com.cn" if region.startswith("cn-") else "amazonaws.com"


def parse_aws_host(host: str) -> tuple[str, str | None]:
    """``parseAwsUrl``'s service and region of a host (the common shapes: ``service.region.amazonaws.com``, a global
    ``service.amazonaws.com``, ``vpce-….service.region.vpce.amazonaws.com``)."""
    found = re.match(r"^vpce-[^.]+\.([^.]+)\.([^.]+)\.vpce\.amazonaws\.com(?:\.cn)?$", host)
    if found:
        return found.group(1), found.group(2)
    labels = re.sub(r"\.amazonaws\.com.*$", "", host).split(".")
    index = next((i for i in range(len(labels) - 1, -1, -1) if _REGION_SHAPE.match(labels[i])), -1)
    if index == -1:
        return labels[0], None
    if index == len(labels) - 2 and _AWS_HOST.search(host):
        return labels[-1], labels[index]
    if index > 0:
        service_index = index - 2 if labels[index - 1] == "dualstack" and index > 1 else index - 1
        return labels[service_index], labels[index]
    return labels[0], labels[index]


def _resolve(node_name: str, host: str, service: str, region: str) -> tuple[str, str]:
    """``resolveServiceAndRegion``: the service given wins; a known region in the host wins."""
    parsed_service, parsed_region = parse_aws_host(host)
    if parsed_region:
        if parsed_region in supported_regions():
            region = parsed_region
        elif _AWS_HOST.search(host):
            raise NodeOperationError(
                node_name,
                f'Unsupported AWS region "{parsed_region}" parsed from endpoint host {host}',
                description="Check the URL of the request: its host names no AWS region.",
            )
    return service or parsed_service, region


def signing_service(service: str) -> str:
    base = re.sub(r"-fips$", "", service)
    if re.search(r"(^|\.)s3(-accesspoint|-control|-accelerate)?$", base):
        return "s3"
    return _SIGNING_NAMES.get(base, base)


def _endpoint(
    node_name: str, options: dict[str, Any], credentials: Mapping[str, Any], parts: tuple[str, str, str]
) -> tuple[SplitResult, str, str]:
    """The URL the request goes to, and the signing service and region (``awsGetSignInOptionsAndUpdateRequest``)."""
    service, region, path = parts
    base, url = options.get("baseURL"), options.get("url")
    if _blank(base) and _blank(url):
        field = CUSTOM_ENDPOINTS.get(service)
        custom = credentials.get(field) if field else None
        if custom:
            endpoint = text(custom)
        elif service:
            endpoint = f"https://{service}.{region}.{aws_domain(region)}"
        else:
            raise NodeOperationError(
                node_name,
                "The AWS request names no service and no URL",
                description="n8n's AWS credential signs a request for its service (qs.service) or its URL.",
            )
        return urlsplit(endpoint.replace("{region}", region) + path), service, region
    absolute = _blank(base) and re.match(r"^https?://", text(url), re.IGNORECASE) is not None
    joined = f"{'' if absolute or _blank(base) else text(base)}{'' if _blank(url) else text(url)}"
    parsed = urlsplit(joined + path)
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        raise NodeOperationError(node_name, f"Invalid URL: {joined + path}", description="Check the request's URL.")
    service, region = _resolve(node_name, parsed.hostname, service, region)
    if service == "sts":
        pairs = [(k, v) for k, v in parse_qsl(parsed.query, keep_blank_values=True) if k not in ("Action", "Version")]
        parsed = parsed._replace(query=urlencode([*pairs, ("Action", "GetCallerIdentity"), ("Version", "2011-06-15")]))
    return parsed, service, region


def _body(options: Mapping[str, Any]) -> bytes | str | None:
    body = options.get("body")
    if body is None or body is UNDEFINED or body == "" or (isinstance(body, Mapping) and not body):
        return None
    headers = {str(k).lower() for k in (options.get("headers") or {})}
    if isinstance(body, Mapping | list) and "content-length" not in headers:
        return json.dumps(body, separators=(",", ":"), ensure_ascii=False)
    return body if isinstance(body, bytes | str) else text(body)


def signed_options(
    node_name: str, options: dict[str, Any], credentials: Mapping[str, Any], keys: AwsKeys, *, when: str | None = None
) -> dict[str, Any]:
    """``options`` signed for AWS (at ``when``, ``YYYYMMDDTHHMMSSZ``, else now): the whole URL in ``url`` (no ``qs``
    left), the signed headers, the body sent."""
    qs: dict[str, Any] = options["qs"] if isinstance(options.get("qs"), dict) else {}
    service, path = text(qs.get("service") or ""), text(qs.get("path") or "")
    region = text(qs.pop("_region")) if qs.get("_region") else credentials.get("region")
    region = check_region(node_name, region)
    parsed, service, region = _endpoint(node_name, options, credentials, (service, region, path))
    query = qs.get("query")
    pairs = parse_qsl(parsed.query, keep_blank_values=True)
    if isinstance(query, Mapping):
        pairs.extend((str(k), text(v)) for k, v in query.items())
    name = signing_service(service)
    raw_path = parsed.path or "/"
    body = _body(options)
    data = body.encode() if isinstance(body, str) else (body or b"")
    headers = {str(k).lower(): _header_text(v) for k, v in (options.get("headers") or {}).items()
               if v is not None and v is not UNDEFINED and str(k).lower() != "host"}  # fmt: skip
    if data:
        headers.setdefault("content-type", "application/x-www-form-urlencoded; charset=utf-8")
        headers.setdefault("content-length", str(len(data)))
    request = SignedRequest(method=text(options.get("method") or "GET").upper(), host=parsed.netloc, path=raw_path,
                            query=pairs, headers=headers, body=data)  # fmt: skip
    signed = sign(request, keys, region, name, when=when, s3=name == "s3")
    search = f"?{urlencode(pairs)}" if pairs else ""
    out = {k: v for k, v in options.items() if k not in ("qs", "baseURL")}
    out.update(headers=signed, url=f"{parsed.scheme}://{parsed.netloc}{raw_path}{search}", body=body)
    if body is None:
        out.pop("body", None)
    return out


def _header_text(value: Any) -> str:
    return ",".join(text(v) for v in value) if isinstance(value, list) else text(value)


def aws_keys(credentials: Mapping[str, Any]) -> AwsKeys:
    """The ``aws`` credential's keys (and its session token, for temporary credentials)."""
    temporary = credentials.get("temporaryCredentials")
    return AwsKeys(
        access_key_id=text(credentials.get("accessKeyId")).strip(),
        secret_access_key=text(credentials.get("secretAccessKey")).strip(),
        session_token=text(credentials.get("sessionToken")).strip() if temporary else None,
    )


@port("authenticate", "authenticate", "15c9f80033552be8")
async def aws(scope: RoutingScope, credentials: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """``Aws.authenticate``: signed with the credential's keys."""
    return signed_options(scope.node_name, options, credentials, aws_keys(credentials))


@port("authenticate", "authenticate", "3b297eea18000c3f")
async def aws_assume_role(scope: RoutingScope, credentials: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """``AwsAssumeRole.authenticate``: signed with the temporary keys of the role (STS ``AssumeRole``)."""
    qs: dict[str, Any] = options["qs"] if isinstance(options.get("qs"), dict) else {}
    region = check_region(scope.node_name, qs.get("_region") or credentials.get("region"))
    keys = await assume_role(scope, credentials, region)
    return signed_options(scope.node_name, options, credentials, keys)


def _role_failed(node_name: str, message: str) -> NodeOperationError:
    return NodeOperationError(
        node_name,
        f"Failed to assume role: {message}",
        description="Check the credential's role ARN, external ID and STS keys (AWS Assume Role).",
    )


def _master_keys(node_name: str, credentials: Mapping[str, Any]) -> AwsKeys:
    """The keys the ``AssumeRole`` call is signed with."""
    if credentials.get("useSystemCredentialsForRole"):
        if os.environ.get("N8N_AWS_SYSTEM_CREDENTIALS_ACCESS_ENABLED", "").lower() != "true":
            raise _role_failed(node_name, "Access to AWS system credentials disabled, contact your administrator.")
        key, secret = os.environ.get("AWS_ACCESS_KEY_ID", ""), os.environ.get("AWS_SECRET_ACCESS_KEY", "")
        if not (key.strip() and secret.strip()):
            raise _role_failed(node_name, "System AWS credentials are required for role assumption.")
        token = os.environ.get("AWS_SESSION_TOKEN", "").strip() or None
        return AwsKeys(access_key_id=key.strip(), secret_access_key=secret.strip(), session_token=token)
    key, secret = text(credentials.get("stsAccessKeyId") or ""), text(credentials.get("stsSecretAccessKey") or "")
    if not key.strip():
        raise _role_failed(node_name, "STS Access Key ID is required when not using system credentials.")
    if not secret.strip():
        raise _role_failed(node_name, "STS Secret Access Key is required when not using system credentials.")
    token = text(credentials.get("stsSessionToken") or "").strip() or None
    return AwsKeys(access_key_id=key.strip(), secret_access_key=secret.strip(), session_token=token)


async def assume_role(scope: RoutingScope, credentials: Mapping[str, Any], region: str) -> AwsKeys:
    """STS ``AssumeRole`` (``POST https://sts.<region>.<domain>/``, the query API's XML answer)."""
    from weft.nodes.routing import transport

    role = text(credentials.get("roleArn") or "").strip()
    if not role:
        raise _role_failed(scope.node_name, "Role ARN is required when assuming a role.")
    form = [("Action", "AssumeRole"), ("Version", "2011-06-15"), ("RoleArn", role),
            ("RoleSessionName", text(credentials.get("roleSessionName") or "").strip() or "n8n-session")]  # fmt: skip
    external = text(credentials.get("externalId") or "").strip()
    if external:
        form.append(("ExternalId", external))
    host = f"sts.{region}.{aws_domain(region)}"
    body = urlencode(form)
    request = SignedRequest(method="POST", host=host, path="/", body=body.encode(),
                            headers={"content-type": "application/x-www-form-urlencoded; charset=utf-8"})  # fmt: skip
    headers = sign(request, _master_keys(scope.node_name, credentials), region, "sts")
    options = {"method": "POST", "url": f"https://{host}/", "headers": headers, "body": body,
               "ignoreHttpStatusErrors": True}  # fmt: skip
    clients = transport.Clients()
    try:
        answer = await transport.send(scope.ctx, 0, options, clients)
    finally:
        await clients.aclose()
    return _role_keys(scope.node_name, answer)


def _role_keys(node_name: str, answer: Mapping[str, Any]) -> AwsKeys:
    body = answer.get("body")
    status = int(answer.get("statusCode") or 0)
    xml = body if isinstance(body, str) else ""
    if not 200 <= status < 300:
        message = re.search(r"<Message>(.*?)</Message>", xml, re.DOTALL)
        raise NodeApiError(
            node_name,
            f"Failed to assume role: STS AssumeRole failed: {message.group(1) if message else status}",
            http_code=status,
            description="Check the credential's role ARN, external ID and STS keys (AWS Assume Role).",
        )
    try:
        root = ElementTree.fromstring(xml)
    except ElementTree.ParseError:
        root = None
    found = {el.tag.rsplit("}", 1)[-1]: (el.text or "") for el in (root.iter() if root is not None else [])}
    if not found.get("AccessKeyId") or not found.get("SecretAccessKey"):
        raise _role_failed(node_name, "STS AssumeRole answered no credentials")
    return AwsKeys(access_key_id=found["AccessKeyId"], secret_access_key=found["SecretAccessKey"],
                   session_token=found.get("SessionToken") or None)  # fmt: skip


__all__ = ["assume_role", "aws", "aws_assume_role", "aws_keys", "parse_aws_host", "signed_options", "signing_service"]
