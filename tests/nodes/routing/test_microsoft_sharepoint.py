"""The Microsoft SharePoint node, version 1 (n8n's declarative description, its functions ported in
``weft.nodes.routing.ports.microsoft_sharepoint``) against the fake SharePoint REST API
(``weft.testing.saas.microsoft_sharepoint``, served as the HTTPS proxy of the tenant host n8n builds from the
credential's subdomain): items matched by column values, URL columns, file bytes up and down, the pages of
``@odata.nextLink``. Recorded cases d190-d199 hold the outputs to real n8n."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.nodes.routing.ports.microsoft_sharepoint import file_name
from weft.testing.saas import FakeSaasServer
from weft.testing.saas.microsoft_sharepoint import TOKEN

CREDENTIALS = {"microsoftSharePointOAuth2Api": {"subdomain": " weft ", "oauthTokenData": {"access_token": TOKEN}}}
SCHEMA = [{"id": name, "displayName": name, "type": "url" if name == "Link" else "string"}
          for name in ("Title", "Status", "Link")]  # fmt: skip


@pytest.fixture
def sharepoint(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSaasServer]:
    with FakeSaasServer(only=["microsoft_sharepoint"]) as server:
        for name, value in server.proxy_env().items():
            monkeypatch.setenv(name, value)
        yield server


async def _run(params: dict[str, Any], *, with_file: bool = False, **node: Any) -> tuple[list[Any], Any]:
    nodes: list[dict[str, Any]] = [
        {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
        {"name": "Text", "type": "n8n-nodes-base.set", "typeVersion": 3.4,
         "parameters": {"assignments": {"assignments": [{"name": "text", "value": "héllo", "type": "string"}]}}},
        {"name": "File", "type": "n8n-nodes-base.convertToFile", "typeVersion": 1.1,
         "parameters": {"operation": "toText", "sourceProperty": "text", "options": {"fileName": "a.txt"}}},
        {"name": "SharePoint", "type": "n8n-nodes-base.microsoftSharePoint", "typeVersion": 1,
         "parameters": {"site": _rl("site1"), **params},
         "credentials": {"microsoftSharePointOAuth2Api": {"id": "1", "name": "s"}}, **node},
    ]  # fmt: skip
    chain = ["T", "Text", "File", "SharePoint"] if with_file else ["T", "SharePoint"]
    connections = {a: {"main": [[{"node": b, "type": "main", "index": 0}]]} for a, b in itertools.pairwise(chain)}
    workflow = {"name": "sp", "nodes": [n for n in nodes if n["name"] in chain], "connections": connections,
                "settings": {"executionOrder": "v1"}}  # fmt: skip
    run = await run_workflow(workflow, services=LocalServices(credentials=CREDENTIALS))
    task = run["data"]["resultData"]["runData"]["SharePoint"][0]
    output = (task.get("data") or {"main": [[]]})["main"][0] or []
    return list(output), (task.get("error") or {}).get("message")


def _rl(value: str) -> dict[str, Any]:
    return {"__rl": True, "mode": "id", "value": value}


def _columns(value: dict[str, Any], matching: list[str] | None = None) -> dict[str, Any]:
    return {"mappingMode": "defineBelow", "value": value, "matchingColumns": matching or [], "schema": SCHEMA}


async def test_upsert_finds_the_item_by_its_columns_and_patches_it(sharepoint: FakeSaasServer) -> None:
    params = {"resource": "item", "operation": "upsert", "list": _rl("list1"),
              "columns": _columns({"Title": "Hire intern", "Link": "https://contoso.com/i"}, ["Title"])}  # fmt: skip
    output, error = await _run(params)
    assert error is None and output[0]["json"]["id"] == "4"
    lookup, patch = sharepoint.requests
    assert lookup.host == "weft.sharepoint.com" and lookup.path == "/_api/v2.0/sites/site1/lists/list1/items"
    assert lookup.query["$filter"] == "fields/Title eq 'Hire intern'"
    assert lookup.headers["prefer"] == "HonorNonIndexedQueriesWarningMayFailRandomly"
    assert (patch.method, patch.path) == ("PATCH", "/_api/v2.0/sites/site1/lists/list1/items/4")
    link = {"Description": "https://contoso.com/i", "Url": "https://contoso.com/i"}
    assert patch.body == {"fields": {"Title": "Hire intern", "Link": link}}


async def test_update_without_a_match_fails_before_writing(sharepoint: FakeSaasServer) -> None:
    params = {"resource": "item", "operation": "update", "list": _rl("list1"),
              "columns": _columns({"Title": "Nothing like it", "Status": "Done"}, ["Title"])}  # fmt: skip
    _, error = await _run(params)
    assert error == "The column(s) don't match any existing item"
    assert [r.method for r in sharepoint.requests] == ["GET"]


async def test_upload_sends_the_files_bytes(sharepoint: FakeSaasServer) -> None:
    params = {"resource": "file", "operation": "upload", "folder": _rl("folder1"), "fileName": "a.txt",
              "fileContents": "data"}  # fmt: skip
    output, error = await _run(params, with_file=True)
    assert error is None and output[0]["json"]["size"] == len("héllo".encode())
    (sent,) = sharepoint.requests
    assert (sent.method, sent.path) == ("PUT", "/_api/v2.0/sites/site1/drive/items/folder1:/a.txt:/content")
    assert sent.raw_body == "héllo".encode()


async def test_upload_without_the_binary_property_fails_naming_it(sharepoint: FakeSaasServer) -> None:
    params = {"resource": "file", "operation": "upload", "folder": _rl("folder1"), "fileName": "a.txt",
              "fileContents": "missing"}  # fmt: skip
    _, error = await _run(params, with_file=True)
    assert error is not None and "missing" in error
    assert sharepoint.requests == []


async def test_download_names_the_file_from_content_disposition(sharepoint: FakeSaasServer) -> None:
    params = {"resource": "file", "operation": "download", "folder": _rl("folder1"), "file": _rl("file1")}
    output, error = await _run(params)
    assert error is None
    binary = output[0]["binary"]["data"]
    assert (binary["fileName"], binary["mimeType"]) == ("report Q1.txt", "text/plain")


async def test_get_many_items_follows_the_pages_and_selects_fields(sharepoint: FakeSaasServer) -> None:
    params = {"resource": "item", "operation": "getAll", "list": _rl("list1"), "returnAll": True,
              "simplify": False, "options": {"fields": ["id", "fields"]}}  # fmt: skip
    output, error = await _run(params)
    assert error is None and [i["json"]["id"] for i in output] == ["1", "2", "3", "4", "5"]
    first, second = sharepoint.requests
    # n8n's pagination sets the query to its own ``qs`` (``$select`` only): ``$expand`` is not sent
    assert first.query_pairs == [("$select[0]", "id"), ("$select[1]", "fields")]
    assert second.query_pairs == [("$select[0]", "id"), ("$select[1]", "fields"), ("$skiptoken", "3")]


def test_file_name_reads_both_forms_of_content_disposition() -> None:
    assert file_name("attachment; filename*=UTF-8''a%20b.txt") == "a b.txt"
    assert file_name('attachment; filename="plain name.pdf"') == "plain name.pdf"
    assert file_name("inline") is None
