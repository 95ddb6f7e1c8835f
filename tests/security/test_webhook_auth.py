"""Finding: the Webhook node's authentication was ignored. Basic, header and JWT (HS and RS) auth now answer as
n8n 2.8.4 does (status, plain-text message, ``WWW-Authenticate``), and a refused call starts no execution."""

from __future__ import annotations

import base64
import time
import warnings
from collections.abc import Callable
from typing import Any

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from .conftest import Server, unique, webhook_workflow

_RSA = rsa.generate_private_key(public_exponent=65537, key_size=2048)
PRIVATE = _RSA.private_bytes(
    serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
).decode()
PUBLIC = (
    _RSA.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()
)
CREDENTIALS = {
    "basic": ("httpBasicAuth", {"user": "alice", "password": "s3cret"}, "basicAuth"),
    "header": ("httpHeaderAuth", {"name": "X-Api-Token", "value": "tok-123"}, "headerAuth"),
    "jwths": ("jwtAuth", {"keyType": "passphrase", "secret": "hs-secret", "algorithm": "HS256"}, "jwtAuth"),
    "jwtrs": (
        "jwtAuth",
        {"keyType": "pemKey", "privateKey": PRIVATE, "publicKey": PUBLIC, "algorithm": "RS256"},
        "jwtAuth",
    ),
}


def _sign(payload: dict[str, Any], key: str, algorithm: str) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return jwt.encode(payload, key, algorithm=algorithm)


def _basic(user: str, password: str) -> dict[str, str]:
    return {"authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()}


def _bearer(token: str) -> dict[str, str]:
    return {"authorization": "Bearer " + token}


def _now() -> int:
    """The time when a token is made (not when this module was imported: the suite may run for longer than
    a token's window)."""
    return int(time.time())


CASES: dict[str, tuple[str, Callable[[], dict[str, str]]]] = {
    "basic_none": ("basic", dict),
    "basic_wrong": ("basic", lambda: _basic("alice", "wrong")),
    "basic_bad_x_auth_token": ("basic", lambda: {"x-auth-token": "abc"}),
    "basic_no_credential": ("basicnocred", dict),
    "header_none": ("header", dict),
    "header_wrong": ("header", lambda: {"x-api-token": "nope"}),
    "jwt_hs_none": ("jwths", dict),
    "jwt_hs_no_token": ("jwths", lambda: {"authorization": "Bearer"}),
    "jwt_hs_bad_signature": ("jwths", lambda: _bearer(_sign({"sub": "u1"}, "other", "HS256"))),
    "jwt_hs_expired": ("jwths", lambda: _bearer(_sign({"sub": "u1", "exp": _now() - 100}, "hs-secret", "HS256"))),
    "jwt_hs_not_before": ("jwths", lambda: _bearer(_sign({"sub": "u1", "nbf": _now() + 1000}, "hs-secret", "HS256"))),
    "jwt_hs_wrong_algorithm": ("jwths", lambda: _bearer(_sign({"sub": "u1"}, "hs-secret", "HS512"))),
    "jwt_hs_malformed": ("jwths", lambda: {"authorization": "Bearer abc.def"}),
    "jwt_rs_hs_token": ("jwtrs", lambda: _bearer(_sign({"sub": "u1", "iat": _now()}, "hs-secret", "HS256"))),
    "jwt_rs_bad_signature": ("jwtrs", lambda: _bearer(_sign({"sub": "u2"}, PRIVATE, "RS256")[:-6] + "AAAAAA")),
}
ACCEPTED: dict[str, tuple[str, Callable[[], dict[str, str]]]] = {
    "basic_ok": ("basic", lambda: _basic("alice", "s3cret")),
    "header_ok": ("header", lambda: {"x-api-token": "tok-123"}),
    "jwt_hs_ok": ("jwths", lambda: _bearer(_sign({"sub": "u1", "iat": _now()}, "hs-secret", "HS256"))),
    "jwt_rs_ok": ("jwtrs", lambda: _bearer(_sign({"sub": "u2", "iat": _now()}, PRIVATE, "RS256"))),
}


@pytest.fixture(scope="module")
def paths(server: Server) -> dict[str, tuple[str, str]]:
    """``kind → (webhook path, workflow id)`` for one active workflow per authentication."""
    out = {}
    for kind, (credential_type, data, method) in CREDENTIALS.items():
        created = server.owner.post("/rest/credentials", json={"name": kind, "type": credential_type, "data": data})
        assert created.status_code == 201, created.text
        path = unique(kind)
        out[kind] = (
            path,
            server.import_workflow(webhook_workflow(path, method, (credential_type, created.json()["data"]["id"]))),
        )
    path = unique("basicnocred")
    out["basicnocred"] = (path, server.import_workflow(webhook_workflow(path, "basicAuth")))
    return out


def _answer(response: httpx.Response) -> dict[str, Any]:
    entry: dict[str, Any] = {"status": response.status_code}
    try:
        entry["body"] = response.json()
    except ValueError:
        entry["body"] = response.text
    if "www-authenticate" in response.headers:
        entry["headers"] = {"www-authenticate": response.headers["www-authenticate"]}
    return entry


@pytest.mark.parametrize("case", sorted(CASES))
def test_refused_as_n8n(case: str, server: Server, paths: dict[str, tuple[str, str]], golden: dict[str, Any]) -> None:
    kind, headers = CASES[case]
    path, workflow_id = paths[kind]
    assert _answer(httpx.get(f"{server.url}/webhook/{path}", headers=headers())) == golden["webhook"][case]
    assert server.executions(workflow_id) == []


@pytest.mark.parametrize("case", sorted(ACCEPTED))
def test_accepted_as_n8n(case: str, server: Server, paths: dict[str, tuple[str, str]], golden: dict[str, Any]) -> None:
    kind, headers = ACCEPTED[case]
    response = httpx.get(f"{server.url}/webhook/{paths[kind][0]}", headers=headers())
    assert response.status_code == golden["webhook"][case]["status"]
    if "body" in golden["webhook"][case]:
        assert response.json() == golden["webhook"][case]["body"]


def test_the_jwt_payload_reaches_the_workflow(server: Server, paths: dict[str, tuple[str, str]]) -> None:
    path, workflow_id = paths["jwths"]
    token = _sign({"sub": "payload-check", "iat": _now()}, "hs-secret", "HS256")
    assert httpx.get(f"{server.url}/webhook/{path}", headers=_bearer(token)).status_code == 200
    from .conftest import wait_for

    def done() -> Any:
        rows = [r for r in server.executions(workflow_id) if r["status"] == "success"]
        return rows and server.owner.get(f"/rest/executions/{rows[0]['id']}").json()["data"]

    execution = wait_for(done)
    item = execution["data"]["resultData"]["runData"]["Webhook"][0]["data"]["main"][0][0]["json"]
    assert item["jwtPayload"]["sub"] == "payload-check"


def test_test_webhooks_check_it_too(server: Server, paths: dict[str, tuple[str, str]]) -> None:
    path, workflow_id = paths["header"]
    started = server.owner.post(f"/rest/workflows/{workflow_id}/run").json()["data"]
    assert started["waitingForWebhook"] is True
    refused = httpx.get(f"{server.url}/webhook-test/{path}")
    assert refused.status_code == 403 and refused.text == "Authorization data is wrong!"


def test_a_wait_nodes_resume_webhook_checks_its_incoming_authentication(server: Server, golden: dict[str, Any]) -> None:
    import json
    from pathlib import Path

    data = json.loads((Path(__file__).parents[2] / "examples" / "wait_approval.json").read_text())
    created = server.owner.post(
        "/rest/credentials",
        json={"name": "resume", "type": "httpHeaderAuth", "data": {"name": "X-Api-Token", "value": "tok-123"}},
    )
    path = unique("resume")
    data["id"] = unique("w")[:16]
    for node in data["nodes"]:
        if node["type"] == "n8n-nodes-base.webhook":
            node["parameters"]["path"] = path
        if node["type"] == "n8n-nodes-base.wait":
            node["parameters"]["incomingAuthentication"] = "headerAuth"
            node["credentials"] = {"httpHeaderAuth": {"id": created.json()["data"]["id"], "name": "resume"}}
    server.import_workflow(data)
    info = httpx.post(f"{server.url}/webhook/{path}", json={"request": "x"}).json()
    from .conftest import wait_for

    execution = f"/rest/executions/{info['executionId']}"
    wait_for(lambda: server.owner.get(execution).json()["data"]["status"] == "waiting")
    refused = httpx.post(info["resumeUrl"], json={"approved": True})
    assert _answer(refused) == golden["webhook"]["wait_resume_none"]
    wrong = httpx.post(info["resumeUrl"], json={"approved": True}, headers={"x-api-token": "nope"})
    assert _answer(wrong) == golden["webhook"]["wait_resume_wrong"]
    assert server.owner.get(execution).json()["data"]["status"] == "waiting"
    resumed = httpx.post(info["resumeUrl"], json={"approved": True}, headers={"x-api-token": "tok-123"})
    assert resumed.status_code == golden["webhook"]["wait_resume_ok"]["status"]
    wait_for(lambda: server.owner.get(execution).json()["data"]["status"] == "success")


def test_the_ip_allowlist_is_checked_as_n8n(server: Server, golden: dict[str, Any]) -> None:
    closed, open_ = unique("ipno"), unique("ipyes")
    closed_id = server.import_workflow(webhook_workflow(closed, options={"ipWhitelist": "10.0.0.1, 192.168.0.0/16"}))
    server.import_workflow(webhook_workflow(open_, options={"ipWhitelist": "10.0.0.1,127.0.0.0/8"}))
    refused = httpx.get(f"{server.url}/webhook/{closed}")
    assert _answer(refused) == golden["webhook"]["ip_not_allowed"]
    assert server.executions(closed_id) == []
    assert httpx.get(f"{server.url}/webhook/{open_}").status_code == 200
