"""The Azure Storage node end to end against the fake of ``weft.testing.saas.azure_storage`` (reached at
``weftstore.blob.core.windows.net`` through the fake as HTTPS proxy, which checks every Shared Key signature),
and n8n's reading of the Blob service's XML: what the recorded cases cannot show."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.nodes.routing.ports.azure_storage import parse_blob_list, parse_container_list
from weft.testing.saas import FakeSaasServer
from weft.testing.saas.azure_storage import ACCOUNT, KEY, TOKEN

SHARED_KEY = {"azureStorageSharedKeyApi": {"account": ACCOUNT, "key": KEY}}
OAUTH2 = {"azureStorageOAuth2Api": {"account": ACCOUNT, "clientId": "c", "clientSecret": "s",
                                    "oauthTokenData": {"access_token": TOKEN}}}  # fmt: skip


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSaasServer]:
    with FakeSaasServer(0, only=["azure_storage"]) as server:
        for name, value in server.proxy_env().items():
            monkeypatch.setenv(name, value)
        yield server


async def run(params: dict[str, Any], credentials: dict[str, Any] | None = None, **node: Any) -> tuple[list[Any], Any]:
    credentials = credentials or SHARED_KEY
    kind = next(iter(credentials))
    workflow = {
        "name": "storage",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "S", "type": "n8n-nodes-base.azureStorage", "typeVersion": 1, "parameters": params,
             "credentials": {kind: {"id": "s", "name": "S"}}, **node},
        ],
        "connections": {"T": {"main": [[{"node": "S", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1"},
    }  # fmt: skip
    result = await run_workflow(workflow, services=LocalServices(credentials={"S": credentials[kind]}))
    task = result["data"]["resultData"]["runData"]["S"][0]
    items: list[Any] = ((task.get("data") or {}).get("main") or [[]])[0] or []
    return items, task.get("error")


def rl(value: str) -> dict[str, Any]:
    return {"__rl": True, "mode": "id", "value": value}


async def test_containers_page_by_next_marker(fake: FakeSaasServer) -> None:
    items, error = await run({"resource": "container", "operation": "getAll", "returnAll": True})
    assert error is None and [i["json"]["name"] for i in items] == ["alpha", "beta", "busy", "gamma"]
    assert [r.query.get("marker") for r in fake.requests] == [None, "busy"]
    assert all(r.headers["authorization"].startswith(f"SharedKey {ACCOUNT}:") for r in fake.requests)


async def test_oauth2_sends_the_bearer_token_and_no_shared_key(fake: FakeSaasServer) -> None:
    items, error = await run({"authentication": "oAuth2", "resource": "container", "operation": "getAll"}, OAUTH2)
    assert error is None and len(items) == 4
    assert fake.requests[0].headers["authorization"] == f"Bearer {TOKEN}"


async def test_blob_get_gives_the_file_and_its_properties(fake: FakeSaasServer) -> None:
    items, error = await run(
        {"resource": "blob", "operation": "get", "container": rl("gamma"), "blob": rl("report.csv")}
    )
    assert error is None
    (item,) = items
    assert item["json"]["name"] == "report.csv" and item["json"]["properties"]["contentLength"] == 8
    assert item["binary"]["data"]["fileName"] == "report 2024.csv"
    assert item["binary"]["data"]["mimeType"] == "text/csv"


async def test_a_missing_blob_is_named(fake: FakeSaasServer) -> None:
    _items, error = await run({"resource": "blob", "operation": "get", "container": rl("alpha"), "blob": rl("nope")})
    assert error["message"] == "The required blob doesn't match any existing one"
    assert error["description"] == "Double-check the value in the parameter 'Blob to Get' and try again"


async def test_a_wrong_key_gets_azure_403(fake: FakeSaasServer) -> None:
    wrong = {"azureStorageSharedKeyApi": {"account": ACCOUNT, "key": "d3Jvbmc="}}
    _items, error = await run({"resource": "container", "operation": "getAll"}, wrong)
    assert error["message"] == "AuthenticationFailed"
    assert error["description"].startswith("Server failed to authenticate the request.")


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("ab", "'Container Name' must be from 3 through 63 characters long"),
        ("Boxes", "All letters  in 'Container Name' must be lowercase"),
        ("box_1", "'Container Name' can contain only letters, numbers, and the hyphen/minus (-) character"),
        ("-box", "'Container Name' must start or end with a letter or number"),
        ("a--b", "Consecutive hyphens are not permitted in 'Container Name'"),
    ],
)
async def test_container_names_are_checked_before_sending(fake: FakeSaasServer, name: str, message: str) -> None:
    _items, error = await run({"resource": "container", "operation": "create", "containerCreate": name})
    assert error["message"] == message and fake.requests == []


async def test_blob_from_url_and_tags_headers(fake: FakeSaasServer) -> None:
    params = {"resource": "blob", "operation": "create", "container": rl("alpha"), "blobCreate": "c.txt",
              "from": "url", "url": "https://example.com/a b.txt",
              "options": {"tags": {"tagValues": [{"tagName": "a b", "tagValue": "c&d"}]}}}  # fmt: skip
    items, error = await run(params)
    assert error is None and items[0]["json"]["requestServerEncrypted"] is True
    sent = fake.requests[-1]
    assert sent.headers["x-ms-copy-source"] == "https://example.com/a b.txt"
    assert sent.headers["x-ms-tags"] == "a%20b=c%26d" and sent.headers["x-ms-blob-type"] == "BlockBlob"


def test_blob_list_reads_as_n8n() -> None:
    xml = (
        '<?xml version="1.0" encoding="utf-8"?><EnumerationResults ContainerName="c"><MaxResults>5</MaxResults>'
        "<Blobs><Blob><Name>a</Name><Deleted>false</Deleted><Properties><Content-Length>12</Content-Length>"
        "<ServerEncrypted>true</ServerEncrypted><Content-Type>text/plain</Content-Type></Properties><Metadata />"
        "<Tags><TagSet><Tag><Key>k</Key><Value>v</Value></Tag></TagSet></Tags></Blob></Blobs><NextMarker />"
        "</EnumerationResults>"
    )
    assert parse_blob_list(xml) == {
        "blobs": [{"name": "a", "deleted": False, "tags": [{"key": "k", "value": "v"}],
                   "properties": {"contentLength": 12, "serverEncrypted": True, "contentType": "text/plain"}}],
        "maxResults": 5,
        "nextMarker": "",
    }  # fmt: skip
    assert parse_container_list("<EnumerationResults><Containers /></EnumerationResults>") == {"containers": []}
