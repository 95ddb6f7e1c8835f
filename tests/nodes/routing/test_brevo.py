"""The Brevo node (``n8n-nodes-base.sendInBlue``) against the fake Brevo API (``weft.testing.saas.brevo``, the
HTTPS proxy for ``api.brevo.com``): every function its description holds has a port, addresses read as
nodemailer reads them, and what the recorded cases d125-d129 cannot show (the requests themselves)."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import weft
from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.nodes.routing.functions import find_port
from weft.nodes.routing.ports import brevo as ports
from weft.nodes.routing.ports.brevo_addresses import addresses
from weft.testing.saas import FakeSaasServer
from weft.testing.saas import brevo as fake

DESCRIPTION = Path(weft.__file__).parent / "nodes" / "descriptions" / "n8n-nodes-base.sendInBlue.json"
CREDENTIALS = {"sendInBlueApi": {"apiKey": fake.API_KEY}}


@pytest.fixture
def saas(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSaasServer]:
    with FakeSaasServer(only=["brevo"]) as server:
        for name, value in server.proxy_env().items():
            monkeypatch.setenv(name, value)
        yield server


async def _run(params: dict[str, Any], items: list[dict[str, Any]] | None = None) -> tuple[list[Any], str | None]:
    workflow = {
        "name": "brevo",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "Input", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "parameters": {}},
            {"name": "Brevo", "type": "n8n-nodes-base.sendInBlue", "typeVersion": 1, "parameters": params,
             "credentials": {"sendInBlueApi": {"id": "1", "name": "b"}}},
        ],
        "connections": {"T": {"main": [[{"node": "Input", "type": "main", "index": 0}]]},
                        "Input": {"main": [[{"node": "Brevo", "type": "main", "index": 0}]]}},
        "pinData": {"Input": items or [{"json": {}}]},
        "settings": {"executionOrder": "v1"},
    }  # fmt: skip
    run = await run_workflow(workflow, services=LocalServices(credentials=CREDENTIALS))
    task = run["data"]["resultData"]["runData"]["Brevo"][0]
    found = [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]]
    return found, (task.get("error") or {}).get("message")


def test_every_function_has_a_port() -> None:
    text = DESCRIPTION.read_text()
    shas = {found.split('"')[0] for found in text.split('"sha": "')[1:]}
    assert len(shas) == 9
    assert all(find_port({"sha": sha}) is not None for sha in shas)


def test_addresses_as_nodemailer_reads_them() -> None:
    assert addresses('Ann <ann@Example.COM>, "Doe, J" <j@x.org>; ann@example.com') == [
        {"email": "ann@example.com", "name": "Ann"},
        {"email": "j@x.org", "name": "Doe, J"},
    ]
    assert addresses("team: a@b.io, c@d.io;, Joe Foo, PhD <joe@e.io>") == [
        {"email": "a@b.io"},
        {"email": "c@d.io"},
        {"email": "joe@e.io", "name": "Joe Foo, PhD"},
    ]
    assert addresses("u@jõgeva.ee") == [{"email": "u@xn--jgeva-dua.ee"}]
    assert addresses("no address here") == []


def test_attachment_names_keep_or_add_the_extension() -> None:
    assert ports.file_name(0, "text/plain", "txt", "notes.TXT") == "notes.TXT"
    assert ports.file_name(0, "text/plain", None, "notes") == "notes.plain"
    assert ports.file_name(2, "image/png", "png", None) == "file-2.png"


async def test_send_builds_the_message_from_the_functions(saas: FakeSaasServer) -> None:
    binary = {"data": {"data": base64.b64encode(b"hello").decode(), "mimeType": "text/plain",
                       "fileName": "hello.txt", "fileExtension": "txt"}}  # fmt: skip
    params = {"resource": "email", "operation": "send", "subject": "Hi", "textContent": "Hello",
              "sender": "Team <team@weft.example>", "receipients": "ada@example.com, Alan <alan@example.com>",
              "additionalFields": {"emailAttachments": {"attachment": {"binaryPropertyName": "data"}},
                                   "receipientsCC": {"receipientCc": {"cc": "grace@example.com"}},
                                   "emailTags": {"tags": {"tag": "a, ,b"}}}}  # fmt: skip
    items, error = await _run(params, [{"json": {}, "binary": binary}])
    assert error is None and items == [{"messageId": "<202406011200.00000000001@smtp-relay.mailin.fr>"}]
    sent = saas.requests[-1]
    assert (sent.method, sent.path, sent.headers["api-key"]) == ("POST", "/v3/smtp/email", fake.API_KEY)
    assert sent.body == {
        "subject": "Hi",
        "textContent": "Hello",
        "sender": {"email": "team@weft.example", "name": "Team"},
        "to": [{"email": "ada@example.com"}, {"email": "alan@example.com", "name": "Alan"}],
        "attachment": [{"content": "aGVsbG8=", "name": "hello.txt"}],
        "cc": [{"email": "grace@example.com"}],
        "tags": ["a", "b"],
    }


async def test_a_missing_attachment_fails_the_item_typed(saas: FakeSaasServer) -> None:
    params = {"resource": "email", "operation": "sendTemplate", "templateId": 1, "receipients": "ada@example.com",
              "additionalFields": {"emailAttachments": {"attachment": {"binaryPropertyName": "file"}}}}  # fmt: skip
    _, error = await _run(params)
    assert (
        error
        == "This operation expects the node's input data to contain a binary file 'file', but none was found [item 0]"
    )
    assert saas.requests == []


async def test_attribute_category_sets_the_type_and_upsert_enables_updates(saas: FakeSaasServer) -> None:
    params = {"resource": "attribute", "operation": "create", "attributeCategory": "normal",
              "attributeName": "score", "attributeType": "float"}  # fmt: skip
    items, error = await _run(params)
    assert error is None and items == [{"success": True}]
    assert (saas.requests[-1].path, saas.requests[-1].body) == (
        "/v3/contacts/attributes/normal/score",
        {"type": "boolean"},
    )
    params = {"resource": "contact", "operation": "upsert", "email": "ada@example.com",
              "upsertAttributes": {"upsertAttributesValues": [{"fieldName": "VIP", "fieldValue": "yes"}]}}  # fmt: skip
    items, error = await _run(params)
    assert error is None and items == [{"success": True}]
    assert json.loads(saas.requests[-1].raw_body) == {
        "email": "ada@example.com",
        "attributes": {"VIP": "yes"},
        "updateEnabled": True,
    }


async def test_get_many_pages_by_offset(saas: FakeSaasServer) -> None:
    items, error = await _run({"resource": "contact", "operation": "getAll", "returnAll": True})
    assert error is None and len(items) == len(fake.CONTACTS)
    assert [(r.query["limit"], r.query["offset"]) for r in saas.requests] == [("1000", "0"), ("1000", "1000")]
