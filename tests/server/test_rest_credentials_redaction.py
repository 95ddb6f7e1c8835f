"""n8n's redaction rules (``CredentialsService.redact`` / ``unredact``) on Weft's credential type data, and the
data file covering every credential type a registered node uses."""

from __future__ import annotations

import json

from weft.nodes.registry import default_registry
from weft.services.credential_redaction import CREDENTIAL_BLANKING_VALUE as BLANK
from weft.services.credential_redaction import CREDENTIAL_EMPTY_VALUE as EMPTY
from weft.services.credential_redaction import redact, unredact
from weft.services.credential_test import build_request, is_testable
from weft.services.credential_types import credential_type, type_properties


def test_every_credential_type_a_node_uses_is_described() -> None:
    registry = default_registry()
    used = {
        name
        for type_name in registry.names()
        if (cls := registry.type_class(type_name)) is not None
        for name in cls.description.credentials
    }
    assert used and sorted(n for n in used if credential_type(n) is None) == []
    for generic in (
        "httpBasicAuth",
        "httpDigestAuth",
        "httpHeaderAuth",
        "httpQueryAuth",
        "httpBearerAuth",
        "oAuth2Api",
    ):
        assert credential_type(generic) is not None


def test_password_fields_are_blanked_expressions_shown_other_fields_kept() -> None:
    data = {"apiKey": "sk-1", "headerValue": "", "url": "http://x", "organizationId": "org"}
    assert redact("openAiApi", data) == {
        "apiKey": BLANK,
        "headerValue": EMPTY,
        "url": "http://x",
        "organizationId": "org",
    }
    assert redact("openAiApi", {"apiKey": "={{ $env.KEY }}"}) == {"apiKey": "={{ $env.KEY }}"}  # n8n shows expressions
    assert redact("oAuth2Api", {"oauthTokenData": {"access_token": "t"}, "clientId": "c"}) == {
        "oauthTokenData": BLANK,
        "clientId": "c",
    }
    assert data["apiKey"] == "sk-1"  # a copy


def test_unredact_restores_placeholders_and_keeps_oauth_tokens() -> None:
    saved = {"apiKey": "sk-1", "url": "http://x", "oauthTokenData": {"access_token": "t"}}
    assert unredact({"apiKey": BLANK, "url": "http://y"}, saved) == {
        "apiKey": "sk-1",
        "url": "http://y",
        "oauthTokenData": {"access_token": "t"},
    }
    assert unredact({"apiKey": "=" + BLANK}, {"apiKey": "sk-1"}) == {"apiKey": "sk-1"}  # n8n strips a leading "="
    assert unredact({"apiKey": "new"}, saved)["apiKey"] == "new"


def test_custom_auth_json_leaves_are_redacted_and_merged_back() -> None:
    stored = {"json": '{"headers": {"X-Key": "s3cret", "X-Expr": "={{ 1 }}"}, "qs": {"n": 5}}'}
    shown = redact("httpCustomAuth", stored)["json"]
    assert json.loads(shown) == {"headers": {"X-Key": "***", "X-Expr": "={{ 1 }}"}, "qs": {"n": "***"}}
    edited = json.loads(shown)
    edited["headers"]["X-New"] = "added"
    merged = unredact({"json": json.dumps(edited)}, stored, "httpCustomAuth")
    assert json.loads(merged["json"]) == {
        "headers": {"X-Key": "s3cret", "X-Expr": "={{ 1 }}", "X-New": "added"},
        "qs": {"n": 5},
    }
    assert redact("httpCustomAuth", {"json": "not json s3cret"}) == {"json": BLANK}  # never shown whole


def test_fixed_collection_secrets_are_redacted_and_restored_by_position() -> None:
    stored = {"headers": {"values": [{"name": "A", "value": "one"}, {"name": "B", "value": "two"}]}}
    shown = redact("httpMultipleHeadersAuth", stored)
    assert shown == {"headers": {"values": [{"name": "A", "value": BLANK}, {"name": "B", "value": BLANK}]}}
    shown["headers"]["values"][1]["name"] = "B2"
    restored = unredact(shown, stored, "httpMultipleHeadersAuth")
    assert restored == {"headers": {"values": [{"name": "A", "value": "one"}, {"name": "B2", "value": "two"}]}}


def test_extended_types_inherit_their_parents_properties() -> None:
    names = [p["name"] for p in type_properties("mcpOAuth2Api") or []]
    assert "clientSecret" in names and "accessTokenUrl" in names
    assert redact("mcpOAuth2Api", {"clientSecret": "s", "clientId": "c"}) == {"clientSecret": BLANK, "clientId": "c"}


def test_test_requests_resolve_credential_fields_and_defaults() -> None:
    assert is_testable("openAiApi") and is_testable("anthropicApi") and not is_testable("postgres")
    openai = build_request("openAiApi", {"apiKey": "sk-1"})
    assert (openai.method, openai.url) == ("GET", "https://api.openai.com/v1/models")  # the Base URL's default
    assert openai.headers["Authorization"] == "Bearer sk-1"
    anthropic = build_request("anthropicApi", {"apiKey": "k", "url": "http://h/"})
    assert anthropic.url == "http://h/v1/models" and anthropic.headers["x-api-key"] == "k"
    assert anthropic.headers["anthropic-version"] == "2023-06-01"
    n8n = build_request("n8nApi", {"apiKey": "k", "baseUrl": "http://n/api/v1"})
    assert n8n.url == "http://n/api/v1/credentials/schema/n8nApi" and n8n.headers["X-N8N-API-KEY"] == "k"
    ollama = build_request("ollamaApi", {"apiKey": "k"})
    assert ollama.url == "http://localhost:11434/api/tags" and ollama.headers["Authorization"] == "Bearer k"
