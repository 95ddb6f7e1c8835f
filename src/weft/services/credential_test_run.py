"""Send a credential's test request (:mod:`weft.services.credential_test`) and judge the answer as n8n does."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import httpx

from weft.nodes.coverage import n8n_node_types
from weft.nodes.credential_domains import is_domain_allowed
from weft.nodes.registry import default_registry
from weft.services.credential_test import (
    MAX_BODY_BYTES,
    MAX_REDIRECTS,
    NO_TEST,
    TIMEOUT_S,
    TestRequest,
    UnsupportedExpression,
    build_request,
    is_testable,
    redact_secrets,
    secret_values,
)
from weft.services.credential_types import credential_type

OK = {"status": "OK", "message": "Connection successful!"}
NO_DOMAINS = "No allowed domains specified. Configure allowed domains or change restriction setting."


def _result(status: str, message: str) -> dict[str, str]:
    return {"status": status, "message": message}


def _allowed_domains(data: Mapping[str, Any]) -> str | None:
    """n8n's ``getCredentialOwnRequestAllowedDomains``: the allowlist of a ``domains`` credential, else ``None``."""
    if data.get("allowedHttpRequestDomains") != "domains":
        return None
    field = data.get("allowedDomains")
    allowed = field.strip() if isinstance(field, str) else ""
    if not allowed:
        raise ValueError(NO_DOMAINS)
    return allowed


def _refused(url: str, allowlists: list[str]) -> str | None:
    for allowed in allowlists:
        if not is_domain_allowed(url, allowed):
            host = httpx.URL(url).host
            return (
                f"Domain not allowed: This credential is restricted from accessing {host}. "
                f"Only the following domains are allowed: {allowed}"
            )
    return None


async def _send(request: TestRequest, allowlists: list[str]) -> tuple[httpx.Response, bytes] | str:
    """The final answer and up to ``MAX_BODY_BYTES`` of its body, or why no request may be sent."""
    url = request.url
    async with httpx.AsyncClient(trust_env=False, timeout=TIMEOUT_S, follow_redirects=False) as client:
        for _ in range(MAX_REDIRECTS + 1):
            refused = _refused(url, allowlists)
            if refused:
                return refused
            body = request.body if isinstance(request.body, dict | list) else None
            built = client.build_request(
                request.method, url, headers=request.headers, params=request.params or None, json=body
            )
            auth = httpx.BasicAuth(*request.auth) if request.auth else httpx.USE_CLIENT_DEFAULT
            response = await client.send(built, auth=auth, stream=True)
            try:
                if response.is_redirect and response.next_request is not None:
                    url = str(response.next_request.url)
                    continue
                content = b""
                async for chunk in response.aiter_bytes():
                    content += chunk
                    if len(content) >= MAX_BODY_BYTES:
                        break
                return response, content[:MAX_BODY_BYTES]
            finally:
                await response.aclose()
    return f"Maximum number of redirects exceeded ({MAX_REDIRECTS})"


def _rules(type_name: str) -> list[dict[str, Any]]:
    rules = ((credential_type(type_name) or {}).get("test") or {}).get("rules")
    return [r for r in rules or [] if isinstance(r, dict)]


def _dig(data: Any, path: str) -> Any:
    for part in path.split("."):
        data = data.get(part) if isinstance(data, dict) else None
    return data


def _judge(type_name: str, response: httpx.Response, content: bytes) -> dict[str, str]:
    rules = _rules(type_name)
    if not response.is_success:
        for rule in rules:
            props = rule.get("properties") or {}
            if rule.get("type") == "responseCode" and props.get("value") == response.status_code:
                return _result("Error", str(props.get("message")))
        return _result("Error", response.reason_phrase or f"Received HTTP status code: {response.status_code}")
    try:
        answer = json.loads(content) if content else {}
    except ValueError:
        answer = {}
    for rule in rules:
        props = rule.get("properties") or {}
        if rule.get("type") == "responseSuccessBody" and _dig(answer, str(props.get("key"))) == props.get("value"):
            return _result("Error", str(props.get("message")))
    return dict(OK)


def _transport_message(error: httpx.HTTPError) -> str:
    if isinstance(error, httpx.ConnectError):
        return "ECONNREFUSED"
    if isinstance(error, httpx.TimeoutException):
        return "ETIMEDOUT"
    return f"The request failed: {type(error).__name__}"


def _coded_test(type_name: str) -> Callable[[Mapping[str, Any]], Awaitable[dict[str, str]]] | None:
    """The test a node type runs for the credential type (n8n's ``testedBy``: a node's ``credentialTest``), found
    among the node types n8n lists with that credential, as the registry loads them."""
    registry = default_registry()
    for name, summary in n8n_node_types()["types"].items():
        if type_name in summary["credentials"]:
            cls = registry.type_class(name)
            test = cls.credential_tests.get(type_name) if cls is not None else None
            if test is not None:
                return test
    return None


async def _run(type_name: str, data: Mapping[str, Any], stored: Mapping[str, Any] | None) -> dict[str, str]:
    coded = _coded_test(type_name)
    if coded is not None:
        return await coded(data)
    if not is_testable(type_name):
        return _result("Error", NO_TEST)
    try:
        given = [_allowed_domains(data), _allowed_domains(stored) if stored is not None else None]
        allowlists = [allowed for allowed in given if allowed is not None]
        request = build_request(type_name, data)
    except UnsupportedExpression:
        return _result("Error", "This credential's test uses an expression Weft cannot resolve.")
    except ValueError as error:
        return _result("Error", str(error))
    if not request.url.startswith(("http://", "https://")):
        return _result("Error", f'Invalid URL: {request.url}. URL must start with "http" or "https".')
    try:
        sent = await _send(request, allowlists)
    except httpx.HTTPError as error:
        sent = _transport_message(error)
    except (TimeoutError, ValueError) as error:
        sent = f"The request failed: {error}"
    return _result("Error", sent) if isinstance(sent, str) else _judge(type_name, *sent)


async def test_credential(
    type_name: str, data: Mapping[str, Any], stored: Mapping[str, Any] | None = None
) -> dict[str, str]:
    """n8n's ``testCredentials`` for a declarative test: ``{"status": "OK" | "Error", "message"}``; no secret of
    the credential in the message (n8n's ``redactSecrets``). ``stored``: a stored credential's data, whose
    domain restriction holds too (a test body cannot lift it to send the stored secret elsewhere)."""
    result = await _run(type_name, data, stored)
    result["message"] = redact_secrets(result["message"], secret_values(type_name, data))
    return result


__all__ = ["test_credential"]
