"""A credential's secret, attacked: no route answers it (lists, ``includeData``, create/update/test answers,
errors, the public API), no log line holds it, a placeholder can't be used to read it back, the stored row is
encrypted, and every credential route is behind the login."""

from __future__ import annotations

import json
import logging
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from weft.services.credential_redaction import CREDENTIAL_BLANKING_VALUE

from .conftest import Server, unique

SECRET = "sk-attacker-wants-this-7c4e9a1b"


def _create(server: Server, type: str = "openAiApi", **data: Any) -> str:
    body = {"name": unique("cred"), "type": type, "data": {"apiKey": SECRET, "url": "http://127.0.0.1:9", **data}}
    created = server.owner.post("/rest/credentials", json=body)
    assert created.status_code == 201, created.text
    assert SECRET not in created.text
    credential_id: str = created.json()["data"]["id"]
    return credential_id


def _answers(server: Server, credential_id: str) -> list[httpx.Response]:
    owner = server.owner
    placeholder = {"apiKey": CREDENTIAL_BLANKING_VALUE, "url": "http://127.0.0.1:9"}
    _, key = server.api_key()
    return [
        owner.get("/rest/credentials"),
        owner.get("/rest/credentials", params={"includeData": "true"}),
        owner.get("/rest/credentials", params={"includeData": "true", "type": "openAiApi"}),
        owner.get(f"/rest/credentials/{credential_id}"),
        owner.get(f"/rest/credentials/{credential_id}", params={"includeData": "true"}),
        owner.patch(f"/rest/credentials/{credential_id}", json={"name": "renamed", "data": placeholder}),
        owner.patch("/rest/credentials/missing-id", json={"data": {"apiKey": SECRET}}),
        owner.post(
            "/rest/credentials/test", json={"credentials": {"id": credential_id, "type": "x", "data": placeholder}}
        ),
        owner.post("/rest/credentials/test", json={"credentials": {"id": credential_id, "data": placeholder}}),
        owner.post("/rest/credentials", json={"name": "bad", "type": "openAiApi", "data": SECRET}),
        owner.post("/rest/credentials", json={"name": ["bad"], "type": "openAiApi", "data": {"apiKey": SECRET}}),
        owner.get("/rest/credential-types/openAiApi"),
        httpx.get(f"{server.url}/api/v1/credentials", headers={"X-N8N-API-KEY": key}),
    ]


def test_no_answer_and_no_log_line_holds_the_secret(server: Server, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    credential_id = _create(server)
    answers = _answers(server, credential_id)
    for answer in answers:
        assert SECRET not in answer.text, (answer.request.method, str(answer.request.url), answer.text)
    assert answers[4].json()["data"]["data"]["apiKey"] == CREDENTIAL_BLANKING_VALUE
    assert [a.status_code for a in answers[9:11]] == [400, 400]  # the validation errors leave the input out
    assert SECRET not in caplog.text
    stored = server.instance.store.credentials.get(credential_id)
    assert stored is not None and stored.data["apiKey"] == SECRET  # the placeholder PATCH kept it


def test_a_placeholder_never_reads_another_credential_or_field(server: Server) -> None:
    """Sending the placeholder in a field the stored data lacks (or to a new credential) yields nothing."""
    credential_id = _create(server)
    moved = {"apiKey": "mine", "url": "http://127.0.0.1:9", "headerValue": CREDENTIAL_BLANKING_VALUE}
    server.owner.patch(f"/rest/credentials/{credential_id}", json={"data": moved})
    stored = server.instance.store.credentials.get(credential_id)
    assert stored is not None and "headerValue" not in stored.data
    copied = server.owner.post(
        "/rest/credentials", json={"name": "copy", "type": "openAiApi", "data": {"apiKey": CREDENTIAL_BLANKING_VALUE}}
    )
    copy = server.instance.store.credentials.get(copied.json()["data"]["id"])
    assert copy is not None and copy.data == {"apiKey": CREDENTIAL_BLANKING_VALUE}  # stored literally, no lookup


def test_a_test_body_cannot_lift_the_stored_domain_restriction(server: Server) -> None:
    restricted = {"allowedHttpRequestDomains": "domains", "allowedDomains": "api.openai.com"}
    credential_id = _create(server, **restricted)
    lifted = {"apiKey": CREDENTIAL_BLANKING_VALUE, "url": "http://127.0.0.1:9", "allowedHttpRequestDomains": "all"}
    body = {"credentials": {"id": credential_id, "type": "openAiApi", "data": lifted}}
    result = server.owner.post("/rest/credentials/test", json=body).json()["data"]
    assert result["status"] == "Error" and result["message"].startswith("Domain not allowed")


def test_a_type_weft_does_not_know_is_redacted_whole(server: Server) -> None:
    created = server.owner.post(
        "/rest/credentials", json={"name": "odd", "type": "acmeApi", "data": {"token": SECRET, "region": "eu"}}
    )
    got = server.owner.get(f"/rest/credentials/{created.json()['data']['id']}", params={"includeData": "true"})
    assert got.json()["data"]["data"] == {"token": CREDENTIAL_BLANKING_VALUE, "region": CREDENTIAL_BLANKING_VALUE}


def test_the_stored_row_is_encrypted(server: Server) -> None:
    credential_id = _create(server)
    with server.instance.store.db.engine.connect() as connection:
        raw = connection.execute(
            text("SELECT data FROM credentials_entity WHERE id = :id"), {"id": credential_id}
        ).scalar()
    assert isinstance(raw, str) and SECRET not in raw and "apiKey" not in raw


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "/rest/credentials?includeData=true", None),
        ("GET", "/rest/credentials/any?includeData=true", None),
        ("PATCH", "/rest/credentials/any", {"data": {}}),
        ("POST", "/rest/credentials/test", {"credentials": {"type": "openAiApi", "data": {}}}),
        ("GET", "/rest/credential-types", None),
        ("GET", "/rest/credential-types/openAiApi", None),
    ],
)
def test_the_routes_are_behind_the_login(anon: httpx.Client, method: str, path: str, body: Any) -> None:
    response = anon.request(method, path, content=None if body is None else json.dumps(body))
    assert response.status_code == 401
