"""The WhatsApp Business Cloud node (``n8n-nodes-base.whatsApp``) against the fake API (``weft.testing.saas.whatsapp``,
the HTTPS proxy for ``graph.facebook.com``): every function has a port, and what the recorded cases d163-d169 cannot
show (the multipart upload of an item's binary data, the cleaned number)."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from email.parser import BytesParser
from email.policy import HTTP
from pathlib import Path
from typing import Any

import pytest

import weft
from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.nodes.routing.functions import find_port
from weft.testing.saas import FakeSaasServer
from weft.testing.saas import whatsapp as fake

DESCRIPTION = Path(weft.__file__).parent / "nodes" / "descriptions" / "n8n-nodes-base.whatsApp.json"
CREDENTIALS = {"whatsAppApi": {"accessToken": fake.ACCESS_TOKEN, "businessAccountId": fake.BUSINESS_ACCOUNT_ID}}
PDF = {"data": {"data": base64.b64encode(b"%PDF-1.4").decode(), "mimeType": "application/pdf", "fileName": "a.pdf"}}


@pytest.fixture
def saas(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSaasServer]:
    with FakeSaasServer(only=["whatsapp"]) as server:
        for name, value in server.proxy_env().items():
            monkeypatch.setenv(name, value)
        yield server


async def _run(params: dict[str, Any], items: list[dict[str, Any]] | None = None) -> tuple[list[Any], str | None]:
    workflow = {
        "name": "wa",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "Input", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "parameters": {}},
            {"name": "WA", "type": "n8n-nodes-base.whatsApp", "typeVersion": 1.1,
             "parameters": {"phoneNumberId": fake.PHONE_NUMBER_ID, **params},
             "credentials": {"whatsAppApi": {"id": "1", "name": "wa"}}},
        ],
        "connections": {"T": {"main": [[{"node": "Input", "type": "main", "index": 0}]]},
                        "Input": {"main": [[{"node": "WA", "type": "main", "index": 0}]]}},
        "pinData": {"Input": items or [{"json": {}}]},
        "settings": {"executionOrder": "v1"},
    }  # fmt: skip
    run = await run_workflow(workflow, services=LocalServices(credentials=CREDENTIALS))
    task = run["data"]["resultData"]["runData"]["WA"][0]
    found = [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]]
    return found, (task.get("error") or {}).get("message")


def test_every_function_has_a_port() -> None:
    text = DESCRIPTION.read_text()
    shas = {found.split('"')[0] for found in text.split('"sha": "')[1:]}
    assert len(shas) == 7 and all(find_port({"sha": sha}) is not None for sha in shas)


async def test_text_goes_to_the_cleaned_number(saas: FakeSaasServer) -> None:
    items, error = await _run({"operation": "send", "recipientPhoneNumber": "+1(555)-010-0001", "textBody": "Hi"})
    assert error is None and items[0]["contacts"] == [{"input": "15550100001", "wa_id": "15550100001"}]
    sent = saas.requests[-1]
    assert sent.body == {"messaging_product": "whatsapp", "to": "15550100001", "type": "text", "text": {"body": "Hi"}}


async def test_a_media_from_the_item_is_uploaded_then_sent_by_id(saas: FakeSaasServer) -> None:
    params = {"operation": "send", "recipientPhoneNumber": "15550100001", "messageType": "document",
              "mediaPath": "useMedian8n", "mediaPropertyName": "data"}  # fmt: skip
    items, error = await _run(params, [{"json": {}, "binary": PDF}])
    assert error is None and items[0]["messages"][0]["id"].startswith("wamid.")
    upload, sent = saas.requests
    assert (upload.method, upload.path) == ("POST", f"/v13.0/{fake.PHONE_NUMBER_ID}/media")
    assert upload.headers["authorization"] == f"Bearer {fake.ACCESS_TOKEN}"
    form = BytesParser(policy=HTTP).parsebytes(
        f"Content-Type: {upload.headers['content-type']}\r\n\r\n".encode() + upload.raw_body
    )
    file, product = list(form.iter_parts())
    assert (file.get_filename(), file.get_content_type(), file.get_payload(decode=True)) == (
        "a.pdf",
        "application/pdf",
        b"%PDF-1.4",
    )
    assert product.get_payload(decode=True) == b"whatsapp"
    assert sent.body["document"]["filename"] == "a.pdf"
    assert sent.body["document"]["id"].startswith("media-up-")


async def test_an_upload_without_a_file_name_fails_typed(saas: FakeSaasServer) -> None:
    nameless = {"data": {**PDF["data"], "fileName": None}}
    _, error = await _run({"resource": "media", "mediaPropertyName": "data"}, [{"json": {}, "binary": nameless}])
    assert error == "No file name given for media upload."
    assert saas.requests == []
