"""The Google Docs node against the fake Docs API (``weft.testing.saas.google_docs``; documents are created
through the fake Drive API, service-account tokens come from the fake token endpoint): the ``batchUpdate``
requests the actions make, the simplified outputs, both credentials, typed errors. Recorded cases s661-s668 hold
the outputs to real n8n."""

from __future__ import annotations

from typing import Any

from tests.library.fakes import service_fixture

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.library.google.docs.actions import requests
from weft.library.google.docs.docs_node import document_id
from weft.testing.saas import FakeSaasServer, google_docs
from weft.testing.saas.google_oauth import SERVICE_ACCOUNT_EMAIL, SERVICE_ACCOUNT_KEY, SERVICE_ACCOUNT_TOKEN

CREDENTIALS = {
    "googleDocsOAuth2Api": {"oauthTokenData": {"access_token": "docs-test-token"}},
    "googleApi": {"email": SERVICE_ACCOUNT_EMAIL, "privateKey": SERVICE_ACCOUNT_KEY},
}


saas = service_fixture("google_docs", "google_oauth", "google_drive")


async def _run(params: dict[str, Any], version: float = 2, **node: Any) -> tuple[list[Any], Any]:
    kind = (
        "googleApi"
        if params.get("authentication", "oAuth2" if version >= 2 else "") != "oAuth2"
        else "googleDocsOAuth2Api"
    )
    workflow = {
        "name": "docs",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "Docs", "type": "n8n-nodes-base.googleDocs", "typeVersion": version, "parameters": params,
             "credentials": {kind: {"id": "1", "name": "d"}}, **node},
        ],
        "connections": {"T": {"main": [[{"node": "Docs", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1"},
    }  # fmt: skip
    run = await run_workflow(workflow, services=LocalServices(credentials=CREDENTIALS))
    task = run["data"]["resultData"]["runData"]["Docs"][0]
    return [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]], task.get("error")


async def test_get_simplified_joins_the_paragraph_texts(saas: FakeSaasServer) -> None:
    url = f"https://docs.google.com/document/d/{google_docs.NOTES}/edit"
    items, error = await _run({"operation": "get", "documentURL": url})
    assert error is None and items == [{"documentId": google_docs.NOTES, "content": "Notes\n\n"}]
    assert saas.requests[-1].headers["authorization"] == "Bearer docs-test-token"


async def test_version_1_uses_the_service_account_s_token(saas: FakeSaasServer) -> None:
    items, error = await _run({"operation": "get", "documentURL": google_docs.NOTES, "simple": False}, version=1)
    assert error is None and items[0]["title"] == "Meeting notes"
    assert saas.requests[0].host == "oauth2.googleapis.com"
    assert saas.requests[-1].headers["authorization"] == f"Bearer {SERVICE_ACCOUNT_TOKEN}"


async def test_update_sends_one_batch_and_answers_the_first_reply(saas: FakeSaasServer) -> None:
    actions = {"actionFields": [{"object": "text", "action": "replaceAll", "text": "sales", "replaceText": "revenue"},
                                {"object": "text", "action": "insert", "locationChoice": "endOfSegmentLocation",
                                 "insertSegment": "body", "text": "End"}]}  # fmt: skip
    items, error = await _run({"operation": "update", "documentURL": google_docs.REPORT, "actionsUi": actions})
    assert error is None and items == [{"occurrencesChanged": 2, "documentId": google_docs.REPORT}]
    assert saas.requests[-1].path == f"/v1/documents/{google_docs.REPORT}:batchUpdate"
    assert saas.requests[-1].body["requests"][1] == {
        "insertText": {"text": "End", "endOfSegmentLocation": {"segmentId": ""}}
    }


async def test_create_goes_through_drive_with_the_document_type(saas: FakeSaasServer) -> None:
    params = {"authentication": "serviceAccount", "title": "Plan", "folderId": "folder1"}
    items, error = await _run(params)
    assert error is None and items[0]["mimeType"] == "application/vnd.google-apps.document"
    assert saas.requests[-1].body == {"name": "Plan", "mimeType": "application/vnd.google-apps.document",
                                      "parents": ["folder1"]}  # fmt: skip


async def test_a_missing_document_fails_with_n8n_s_message(saas: FakeSaasServer) -> None:
    items, error = await _run({"operation": "get", "documentURL": "nope"}, onError="continueRegularOutput")
    assert error is None and items == [{"error": "The resource you are requesting could not be found"}]


def test_actions_become_named_requests() -> None:
    fields = [
        {"object": "text", "action": "insert", "locationChoice": "location", "index": 3, "insertSegment": "header",
         "segmentId": "kix.h1", "text": "x"},
        {"object": "tableRow", "action": "delete", "insertSegment": "body", "index": 5, "rowIndex": 1,
         "columnIndex": 0},
        {"object": "namedRange", "action": "delete", "namedRangeReference": "name", "value": "intro"},
    ]  # fmt: skip
    assert requests(fields) == [
        {"insertText": {"text": "x", "location": {"segmentId": "kix.h1", "index": 3}}},
        {"deleteTableRow": {"tableCellLocation": {"rowIndex": 1, "columnIndex": 0,
                                                  "tableStartLocation": {"segmentId": "", "index": 5}}}},
        {"deleteNamedRange": {"name": "intro"}},
    ]  # fmt: skip


def test_a_document_url_gives_its_id() -> None:
    assert document_id("https://docs.google.com/document/d/abc-_9/edit") == "abc-_9"
    assert document_id("abc") == "abc"
