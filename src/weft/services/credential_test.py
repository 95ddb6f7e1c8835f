"""Test a credential (n8n's ``CredentialsTester``): send its type's declarative ``test`` request with it.

The request (``test.request``: ``baseURL``, ``url``, ``method``, ``headers``, ``qs``, ``body``) is resolved against
the credential's data with its properties' defaults (``={{ $credentials.url }}``, ``=Bearer {{$credentials.x}}``,
any expression over ``$credentials`` such as Gong's ``$credentials.baseUrl.replace(…)``),
authenticated as the type authenticates (its generic ``authenticate`` recipe, or the OpenAI/Anthropic key
headers n8n's ``authenticate`` functions set), and checked against the credential's allowed domains (every
redirect hop too). The answer is n8n's ``{"status": "OK" | "Error", "message"}``: ``Connection successful!``, the
first matching ``rules`` message, the HTTP reason phrase of a non-2xx answer, or the transport error; no message
ever holds a secret of the credential.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from weft.errors import WeftError
from weft.services.credential_types import credential_type, type_properties

TIMEOUT_S = 15.0
MAX_REDIRECTS = 5
MAX_BODY_BYTES = 1024 * 1024
NO_TEST = "No testing function found for this credential."
_REFERENCE = re.compile(r"\{\{\s*\$credentials\??\.([A-Za-z_$][\w$]*)\s*\}\}")


class UnsupportedExpression(WeftError, ValueError):
    """An expression in a test request that fails to evaluate."""


@dataclass
class TestRequest:
    """The resolved request a test sends."""

    method: str
    url: str
    headers: dict[str, str] = field(default_factory=dict)
    params: dict[str, str] = field(default_factory=dict)
    body: Any = None
    auth: tuple[str, str] | None = None


def is_testable(type_name: str) -> bool:
    """Whether the type has a declarative test request Weft can send."""
    test = (credential_type(type_name) or {}).get("test")
    return isinstance(test, dict) and isinstance(test.get("request"), dict)


def _with_defaults(type_name: str, data: Mapping[str, Any]) -> dict[str, Any]:
    filled = {p["name"]: p.get("default") for p in type_properties(type_name) or [] if "default" in p}
    filled.update(data)
    return filled


def resolve(value: Any, credentials: Mapping[str, Any]) -> Any:
    """``value`` with its expressions over ``$credentials`` resolved (dicts and lists recursively): a plain
    reference directly, anything else (``$credentials.url.replace(…)``, template literals) in the expression
    sandbox, which sees only the credential."""
    if isinstance(value, dict):
        return {resolve(k, credentials): resolve(v, credentials) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve(v, credentials) for v in value]
    if not isinstance(value, str) or not value.startswith("="):
        return value
    text = value[1:]
    whole = _REFERENCE.fullmatch(text.strip())
    if whole:
        return credentials.get(whole.group(1))
    resolved = _REFERENCE.sub(lambda m: _text(credentials.get(m.group(1))), text)
    if "{{" in resolved:
        return _evaluated(value, credentials)
    return resolved


def _evaluated(value: str, credentials: Mapping[str, Any]) -> Any:
    from weft.errors import ExpressionError
    from weft.expressions import UNDEFINED, ExpressionContext, evaluate
    from weft.workflow import Workflow

    context = ExpressionContext(
        workflow=Workflow.from_json({"nodes": [], "connections": {}}),
        node_name="",
        additional_keys={"$credentials": dict(credentials)},
    )
    try:
        found = evaluate(value, context)
    except ExpressionError as error:
        raise UnsupportedExpression(value[1:]) from error
    return None if found is UNDEFINED else found


def _text(value: Any) -> str:
    return "" if value is None else value if isinstance(value, str) else json.dumps(value)


def _join(base: Any, url: Any) -> str:
    base_text, path = _text(base).strip(), _text(url).strip()
    if path.startswith(("http://", "https://")) or not base_text:
        return path
    return base_text.rstrip("/") + "/" + path.lstrip("/") if path else base_text


def _custom_header(creds: Mapping[str, Any]) -> dict[str, str]:
    name, value = creds.get("headerName"), creds.get("headerValue")
    if creds.get("header") and isinstance(name, str) and name and isinstance(value, str):
        return {name: value}
    return {}


def _authenticate(type_name: str, creds: Mapping[str, Any], request: TestRequest) -> None:
    """Add what the type's ``authenticate`` adds to every request."""
    if type_name == "openAiApi":  # n8n's OpenAiApi.authenticate
        request.headers["Authorization"] = f"Bearer {_text(creds.get('apiKey'))}"
        if creds.get("organizationId"):
            request.headers["OpenAI-Organization"] = _text(creds.get("organizationId"))
        request.headers.update(_custom_header(creds))
        return
    if type_name == "notionApi":  # n8n's NotionApi.authenticate (its header's trailing space is not sent)
        request.headers["Authorization"] = f"Bearer {_text(creds.get('apiKey'))}"
        request.headers.setdefault("Notion-Version", "2022-02-22")
        return
    if type_name == "trelloApi":  # n8n's TrelloApi.authenticate: the key and the token in the query
        request.params.update(key=_text(creds.get("apiKey")), token=_text(creds.get("apiToken")))
        return
    if type_name == "anthropicApi":  # n8n's AnthropicApi.authenticate
        request.headers["x-api-key"] = _text(creds.get("apiKey"))
        request.headers.update(_custom_header(creds))
        return
    if type_name == "aws":  # n8n's Aws.authenticate: AWS Signature Version 4
        _sign_aws(creds, request)
        return
    recipe = (credential_type(type_name) or {}).get("authenticate") or {}
    props = resolve(recipe.get("properties") or {}, creds) if recipe.get("type") == "generic" else {}
    request.headers.update({str(k): _text(v) for k, v in (props.get("headers") or {}).items()})
    request.params.update({str(k): _text(v) for k, v in (props.get("qs") or {}).items()})
    if isinstance(props.get("body"), dict):
        request.body = {**(request.body or {}), **props["body"]}
    auth = props.get("auth")
    if isinstance(auth, dict):
        request.auth = (_text(auth.get("username")), _text(auth.get("password")))


def _sign_aws(creds: Mapping[str, Any], request: TestRequest) -> None:
    from weft.nodes.routing.ports.aws_credentials import aws_keys, signed_options

    options = {"method": request.method, "url": request.url, "headers": request.headers, "body": request.body}
    signed = signed_options("credential test", {**options, "qs": {"query": request.params}}, creds, aws_keys(creds))
    request.url, request.headers, request.params = signed["url"], signed["headers"], {}


def build_request(type_name: str, data: Mapping[str, Any]) -> TestRequest:
    """The type's test request for ``data`` (raises :class:`UnsupportedExpression`)."""
    creds = _with_defaults(type_name, data)
    spec = resolve((credential_type(type_name) or {})["test"]["request"], creds)
    request = TestRequest(
        method=str(spec.get("method") or "GET").upper(),
        url=_join(spec.get("baseURL"), spec.get("url")),
        headers={str(k): _text(v) for k, v in (spec.get("headers") or {}).items()},
        params={str(k): _text(v) for k, v in (spec.get("qs") or {}).items()},
        body=spec.get("body"),
    )
    _authenticate(type_name, creds, request)
    return request


def secret_values(type_name: str, data: Mapping[str, Any]) -> list[str]:
    """The credential's secret strings (password fields), longest first."""
    secret = {p["name"] for p in type_properties(type_name) or [] if (p.get("typeOptions") or {}).get("password")}
    values = [v for k, v in data.items() if (k in secret or type_properties(type_name) is None) and isinstance(v, str)]
    return sorted((v for v in values if v), key=len, reverse=True)


def redact_secrets(message: str, secrets: list[str]) -> str:
    """n8n's ``redactSecrets``: each secret in the message becomes ``*****`` and its last three characters (none
    of a short secret's)."""
    for value in secrets:
        message = message.replace(value, f"*****{value[-3:] if len(value) > 6 else ''}")
    return message


__all__ = [
    "NO_TEST",
    "TestRequest",
    "UnsupportedExpression",
    "build_request",
    "is_testable",
    "redact_secrets",
    "resolve",
    "secret_values",
]
