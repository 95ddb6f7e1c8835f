"""The Google Cloud Storage node (``n8n-nodes-base.googleCloudStorage``) against the fake API
(``weft.testing.saas.google_cloud_storage``, the HTTPS proxy for ``storage.googleapis.com``, with Google's token
URL of ``weft.testing.saas.google_oauth``): every function has a port, and what the recorded cases d150-d162
cannot show (the multipart upload, the service account's token, the ``googleApi`` credential's own
``authenticate``)."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jwt
import pytest

import weft
from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.nodes.routing.functions import find_port
from weft.testing.saas import FakeSaasServer, google_oauth
from weft.testing.saas import google_cloud_storage as fake

from ._kit import run_node

DESCRIPTION = Path(weft.__file__).parent / "nodes" / "descriptions" / "n8n-nodes-base.googleCloudStorage.json"
GOOGLE_API_AUTHENTICATE = "661362641ad695d9"
OAUTH2 = {
    "clientId": "c",
    "clientSecret": "s",
    "oauthTokenData": {"access_token": fake.ACCESS_TOKEN, "token_type": "Bearer"},
}
SERVICE_ACCOUNT = {"email": google_oauth.SERVICE_ACCOUNT_EMAIL, "privateKey": google_oauth.SERVICE_ACCOUNT_KEY}


@pytest.fixture
def saas(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSaasServer]:
    with FakeSaasServer(only=["google_cloud_storage", "google_oauth"]) as server:
        for name, value in server.proxy_env().items():
            monkeypatch.setenv(name, value)
        yield server


async def _run(
    params: dict[str, Any],
    items: list[dict[str, Any]] | None = None,
    *,
    credential: str = "googleCloudStorageOAuth2Api",
) -> tuple[list[Any], str | None]:
    data = OAUTH2 if credential != "googleApi" else SERVICE_ACCOUNT
    workflow = {
        "name": "gcs",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "Input", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "parameters": {}},
            {"name": "GCS", "type": "n8n-nodes-base.googleCloudStorage", "typeVersion": 1.1, "parameters": params,
             "credentials": {credential: {"id": "1", "name": "gcs"}}},
        ],
        "connections": {"T": {"main": [[{"node": "Input", "type": "main", "index": 0}]]},
                        "Input": {"main": [[{"node": "GCS", "type": "main", "index": 0}]]}},
        "pinData": {"Input": items or [{"json": {}}]},
        "settings": {"executionOrder": "v1"},
    }  # fmt: skip
    run = await run_workflow(workflow, services=LocalServices(credentials={credential: data}))
    task = run["data"]["resultData"]["runData"]["GCS"][0]
    found = (task.get("data") or {"main": [[]]})["main"][0]
    return found, (task.get("error") or {}).get("message")


def test_every_function_has_a_port() -> None:
    text = DESCRIPTION.read_text()
    shas = {found.split('"')[0] for found in text.split('"sha": "')[1:]}
    assert len(shas) == 11
    assert all(find_port({"sha": sha}) is not None for sha in shas | {GOOGLE_API_AUTHENTICATE})


async def test_an_upload_is_one_multipart_related_request(saas: FakeSaasServer) -> None:
    binary = {"data": {"data": base64.b64encode(b"a,b\n").decode(), "mimeType": "text/csv", "fileName": "r.csv"}}
    params = {"resource": "object", "operation": "create", "bucketName": fake.BUCKET, "objectName": "dir/r.csv",
              "createData": {"metadata": '{"k": "v"}', "acl": "not json"},
              "createQuery": {"contentEncoding": "gzip"}}  # fmt: skip
    items, error = await _run(params, [{"json": {}, "binary": binary}])
    assert error is None
    assert items[0]["json"]["name"] == "dir/r.csv" and items[0]["json"]["size"] == "4"
    assert items[0]["json"]["metadata"] == {"k": "v"} and items[0]["json"]["acl"] == "not json"
    sent = saas.requests[-1]
    assert (sent.path, sent.query["uploadType"], sent.query["name"]) == (
        "/upload/storage/v1/b/weft-bucket/o/",
        "multipart",
        "dir/r.csv",
    )
    assert sent.query["contentEncoding"] == "gzip"
    assert sent.headers["content-type"].startswith("multipart/related; boundary=--------------------------")
    assert int(sent.headers["content-length"]) == len(sent.raw_body)
    assert items[0]["json"]["contentType"] == "text/csv"


async def test_object_names_are_encoded_in_the_path(saas: FakeSaasServer) -> None:
    params = {"resource": "object", "operation": "get", "bucketName": fake.BUCKET, "objectName": "notes/day-1.txt",
              "alt": "media"}  # fmt: skip
    items, error = await _run(params)
    assert error is None and items[0]["json"] == {}
    assert items[0]["binary"]["data"]["fileName"] == "day-1.txt"
    assert saas.requests[-1].raw_path == "/storage/v1/b/weft-bucket/o/notes%2Fday-1.txt"


async def test_a_service_account_signs_for_cloud_storage(saas: FakeSaasServer) -> None:
    params = {"authentication": "serviceAccount", "resource": "bucket", "operation": "get", "bucketName": fake.BUCKET}
    items, error = await _run(params, credential="googleApi")
    assert error is None and items[0]["json"]["name"] == fake.BUCKET
    token, sent = saas.requests[0], saas.requests[1]
    claims = jwt.decode(token.body["assertion"], options={"verify_signature": False})
    assert claims["scope"] == (
        "https://www.googleapis.com/auth/devstorage.full_control https://www.googleapis.com/auth/cloud-platform"
    )
    assert claims["iss"] == claims["sub"] == google_oauth.SERVICE_ACCOUNT_EMAIL
    assert sent.headers["authorization"] == f"Bearer {google_oauth.SERVICE_ACCOUNT_TOKEN}"


async def test_the_google_api_credential_authenticates_only_for_the_http_node(saas: FakeSaasServer) -> None:
    get = {"name": "Get", "value": "get", "routing": {"request": {"method": "GET", "url": f"/b/{fake.BUCKET}"}}}
    description = {
        "credentials": [{"name": "googleApi", "required": True}],
        "requestDefaults": {"baseURL": "https://storage.googleapis.com/storage/v1"},
        "properties": [
            {"displayName": "Op", "name": "operation", "type": "options", "options": [get], "default": "get"}
        ],
    }
    scopes = "https://www.googleapis.com/auth/devstorage.read_only,\nhttps://www.googleapis.com/auth/cloud-platform"
    data = {**SERVICE_ACCOUNT, "httpNode": True, "scopes": scopes}
    ran = await run_node(description, {}, credentials={"googleApi": data})
    assert ran.error is None and ran.items[0]["name"] == fake.BUCKET
    claims = jwt.decode(saas.requests[0].body["assertion"], options={"verify_signature": False})
    assert (
        claims["scope"]
        == "https://www.googleapis.com/auth/devstorage.read_only https://www.googleapis.com/auth/cloud-platform"
    )
    saas.requests.clear()
    ran = await run_node(description, {}, credentials={"googleApi": {**data, "httpNode": False}})
    assert ran.error == "Authorization failed - please check your credentials"
    assert [r.path for r in saas.requests] == [f"/storage/v1/b/{fake.BUCKET}"]


async def test_bucket_json_fields_are_parsed(saas: FakeSaasServer) -> None:
    body = {"cors": '[{"origin": ["*"]}]', "iamConfiguration": '{"a": 1}', "versioning": '{"enabled": true}',
            "billing": "{bad", "labels": {"x": "y"}, "logging": '{"logBucket": "b"}'}  # fmt: skip
    project = {"__rl": True, "mode": "id", "value": fake.PROJECT}
    params = {"resource": "bucket", "operation": "create", "projectRLC": project, "bucketName": "fresh",
              "createBody": body}  # fmt: skip
    _, error = await _run(params)
    assert error is None
    assert json.loads(saas.requests[-1].raw_body) == {
        "name": "fresh",
        "cors": [{"origin": ["*"]}],
        "iamConfiguration": {"a": 1},
        "versioning": {"enabled": True},
        "billing": "{bad",
        "labels": {"x": "y"},
        "logging": {"logBucket": "b"},
    }
