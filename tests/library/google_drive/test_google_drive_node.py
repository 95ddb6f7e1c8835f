"""The Google Drive node against the fake Drive API (``weft.testing.saas.google_drive``, served as the HTTPS
proxy): what the recordings cannot show (the multipart upload's parts, the search query sent, pages, the service
account, typed errors naming the node and the field). Recorded cases s240-s263 hold the outputs to real n8n."""

from __future__ import annotations

import itertools
from typing import Any

from tests.library.fakes import service_fixture

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.nodes.registry import default_registry
from weft.testing.saas import FakeSaasServer, google_drive, google_oauth

OAUTH = {"clientId": "c", "clientSecret": "s",
         "oauthTokenData": {"access_token": google_drive.TOKEN, "token_type": "Bearer"}}  # fmt: skip
SERVICE_ACCOUNT = {"email": google_oauth.SERVICE_ACCOUNT_EMAIL, "privateKey": google_oauth.SERVICE_ACCOUNT_KEY}
FILE = "return [{json: {}, binary: {data: {data: Buffer.from('hi drive').toString('base64'), mimeType: 'text/plain', fileName: 'hi.txt'}}}];"  # noqa: E501
REPORTS = "1FoldReports000000000000001"


def rl(value: str, mode: str = "id") -> dict[str, Any]:
    return {"__rl": True, "mode": mode, "value": value}


saas = service_fixture("google_drive", "google_oauth")


async def _run(params: dict[str, Any], *, items: str | None = None, **node: Any) -> tuple[list[Any], Any]:
    nodes: list[dict[str, Any]] = [
        {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}}
    ]
    if items is not None:
        nodes.append({"name": "Items", "type": "n8n-nodes-base.code", "typeVersion": 2,
                      "parameters": {"jsCode": items}})  # fmt: skip
    credentials = {"googleDriveOAuth2Api": {"id": "1", "name": "d"}, "googleApi": {"id": "2", "name": "sa"}}
    nodes.append({"name": "Drive", "type": "n8n-nodes-base.googleDrive", "typeVersion": 3, "parameters": params,
                  "credentials": credentials, **node})  # fmt: skip
    connections = {a["name"]: {"main": [[{"node": b["name"], "type": "main", "index": 0}]]}
                   for a, b in itertools.pairwise(nodes)}  # fmt: skip
    workflow = {"name": "gd", "nodes": nodes, "connections": connections, "settings": {"executionOrder": "v1"}}
    services = LocalServices(credentials={"googleDriveOAuth2Api": OAUTH, "googleApi": SERVICE_ACCOUNT})
    run = await run_workflow(workflow, services=services)
    task = run["data"]["resultData"]["runData"]["Drive"][0]
    return [i for i in (task.get("data") or {"main": [[]]})["main"][0]], task.get("error")


async def test_upload_sends_metadata_and_content_then_sets_the_name(saas: FakeSaasServer) -> None:
    items, error = await _run({"name": "greeting.txt", "folderId": rl(REPORTS)}, items=FILE)
    assert error is None and items[0]["json"]["name"] == "greeting.txt"
    upload, patch = saas.requests
    assert upload.query == {"uploadType": "multipart", "supportsAllDrives": "true"}
    assert upload.headers["content-type"].startswith("multipart/related; boundary=")
    assert b'{"name":"greeting.txt","parents":["' + REPORTS.encode() + b'"]}' in upload.raw_body
    assert b"Content-Type: text/plain\r\n\r\nhi drive\r\n" in upload.raw_body
    assert patch.method == "PATCH" and patch.query["fields"] == "*" and patch.query["addParents"] == REPORTS
    assert patch.body == {"mimeType": "text/plain", "name": "greeting.txt", "originalFilename": "hi.txt"}
    assert items[0]["json"]["size"] == "8"


async def test_upload_without_the_binary_field_fails_naming_it(saas: FakeSaasServer) -> None:
    _, error = await _run({"inputDataFieldName": "file"}, items=FILE)
    assert error is not None and "file" in error["message"] and not saas.requests


async def test_download_keeps_the_input_binaries_and_adds_the_file(saas: FakeSaasServer) -> None:
    params = {
        "operation": "download",
        "fileId": rl("1FileNotesTxt00000000000004"),
        "options": {"binaryPropertyName": "f"},
    }
    items, error = await _run(params, items=FILE)
    assert error is None and set(items[0]["binary"]) == {"data", "f"}
    assert items[0]["binary"]["f"]["fileName"] == "notes.txt" and items[0]["binary"]["f"]["mimeType"] == "text/plain"
    assert saas.requests[-1].query == {"alt": "media", "supportsAllDrives": "true"}


async def test_search_escapes_the_name_and_follows_pages(saas: FakeSaasServer) -> None:
    items, error = await _run({"resource": "fileFolder", "queryString": "it's", "returnAll": True})
    assert error is None and items == []
    assert saas.requests[0].query["q"] == "name contains 'it\\'s'"
    items, error = await _run({"resource": "fileFolder", "queryString": "", "returnAll": True,
                               "filter": {"includeTrashed": True}})  # fmt: skip
    assert error is None and len(items) == 8
    assert [r.query.get("pageToken") for r in saas.requests[1:]] == [None, "3", "6"]


async def test_a_missing_file_fails_with_googles_message(saas: FakeSaasServer) -> None:
    _, error = await _run({"operation": "move", "fileId": rl("nope"), "folderId": rl(REPORTS)})
    assert error["message"] == "The resource you are requesting could not be found"
    assert error["description"] == "File not found: nope."


async def test_update_content_is_sent_as_media(saas: FakeSaasServer) -> None:
    params = {"operation": "update", "fileId": rl("1FileNotesTxt00000000000004"), "changeFileContent": True}
    items, error = await _run(params, items=FILE)
    assert error is None and items[0]["json"]["mimeType"] == "text/plain"
    media = saas.requests[0]
    assert (media.method, media.path, media.query["uploadType"]) == (
        "PATCH",
        "/upload/drive/v3/files/1FileNotesTxt00000000000004",
        "media",
    )
    assert media.raw_body == b"hi drive"


async def test_the_service_account_gets_a_token_from_its_jwt(saas: FakeSaasServer) -> None:
    items, error = await _run(
        {"authentication": "serviceAccount", "resource": "drive", "operation": "list", "limit": 2}
    )
    assert error is None and [i["json"]["name"] for i in items] == ["Team One", "Team Two"]
    assert saas.requests[0].host == google_oauth.HOST


def test_the_tool_variant_is_registered() -> None:
    assert default_registry().type_class("n8n-nodes-base.googleDriveTool") is not None


async def test_a_google_sheet_is_exported_as_xlsx_by_default(saas: FakeSaasServer) -> None:
    items, error = await _run({"operation": "download", "fileId": rl("1FileBudgetSheet00000000005")})
    xlsx = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert error is None and items[0]["binary"]["data"]["mimeType"] == xlsx  # n8n 2.41's default (2.8.4: ODS)
    export = saas.requests[-1]
    assert export.path.endswith("/export") and export.query["mimeType"] == xlsx
