"""The Gmail node against the fake Gmail API (``weft.testing.saas.gmail``, served as the HTTPS proxy): what the
recordings cannot show (the mail as Gmail decodes it, the requests sent, the service account, typed errors naming
the node and the field). Recorded cases s201-s229 hold the outputs to real n8n."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from tests.library.fakes import service_fixture

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.nodes.node_properties import properties_for
from weft.nodes.registry import default_registry
from weft.testing.saas import FakeSaasServer, gmail, google_oauth

OAUTH = {"clientId": "c", "clientSecret": "s", "oauthTokenData": {"access_token": gmail.TOKEN, "token_type": "Bearer"}}
SERVICE_ACCOUNT = {"email": google_oauth.SERVICE_ACCOUNT_EMAIL, "privateKey": google_oauth.SERVICE_ACCOUNT_KEY}
FILE = "return [{json: {}, binary: {data: {data: Buffer.from('hi there').toString('base64'), mimeType: 'text/plain', fileName: 'hi.txt'}}}];"  # noqa: E501


saas = service_fixture("gmail", "google_oauth")


async def _run(params: dict[str, Any], *, items: str | None = None, **node: Any) -> tuple[list[Any], Any]:
    nodes: list[dict[str, Any]] = [
        {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}}
    ]
    if items is not None:
        nodes.append({"name": "Items", "type": "n8n-nodes-base.code", "typeVersion": 2,
                      "parameters": {"jsCode": items}})  # fmt: skip
    credentials = {"gmailOAuth2": {"id": "1", "name": "g"}, "googleApi": {"id": "2", "name": "sa"}}
    nodes.append({"name": "Gmail", "type": "n8n-nodes-base.gmail", "typeVersion": node.pop("version", 2.1),
                  "parameters": params, "credentials": credentials, **node})  # fmt: skip
    connections = {a["name"]: {"main": [[{"node": b["name"], "type": "main", "index": 0}]]}
                   for a, b in itertools.pairwise(nodes)}  # fmt: skip
    workflow = {"name": "gm", "nodes": nodes, "connections": connections, "settings": {"executionOrder": "v1"}}
    services = LocalServices(credentials={"gmailOAuth2": OAUTH, "googleApi": SERVICE_ACCOUNT})
    run = await run_workflow(workflow, services=services)
    task = run["data"]["resultData"]["runData"]["Gmail"][0]
    return [i for i in (task.get("data") or {"main": [[]]})["main"][0]], task.get("error")


def _sent(saas: FakeSaasServer) -> list[dict[str, Any]]:
    return list(saas.__dict__["state"]["gmail"]["sent"])


async def test_send_composes_the_mail_gmail_decodes(saas: FakeSaasServer) -> None:
    options = {"ccList": "c@example.com", "bccList": "b@example.com", "senderName": "Weft Bot"}
    options["replyTo"] = "r@example.com"
    params = {"sendTo": "ada@example.com, Alan Turing <alan@example.com>", "subject": "Über uns", "emailType": "text",
              "message": "  Hello\nteam  ", "options": options}  # fmt: skip
    items, error = await _run(params)
    assert error is None and items[0]["json"]["labelIds"] == ["SENT"]
    mail = _sent(saas)[0]
    assert mail["To"] == [["", "ada@example.com"], ["Alan Turing", "alan@example.com"]]
    assert mail["Cc"] == [["", "c@example.com"]] and mail["Bcc"] == [["", "b@example.com"]]
    assert mail["From"] == [["Weft Bot", "weft.tester@example.com"]] and mail["Reply-To"] == [["", "r@example.com"]]
    assert mail["Subject"] == "Über uns"
    assert mail["text/plain"] == "Hello\nteam\n\n---\nThis email was sent automatically with n8n\nhttps://n8n.io"
    assert [r.path for r in saas.requests] == ["/gmail/v1/users/me/profile", "/gmail/v1/users/me/messages/send"]


async def test_html_with_attachments_is_a_mixed_mail_uploaded_as_media(saas: FakeSaasServer) -> None:
    attached = {"attachmentsBinary": [{"property": "data"}]}
    params = {"sendTo": "ada@example.com", "subject": "s", "message": "<b>hi</b>",
              "options": {"appendAttribution": False, "attachmentsUi": attached}}  # fmt: skip
    _, error = await _run(params, items=FILE, version=2.2)
    assert error is None
    mail = _sent(saas)[0]
    assert mail["text/html"] == "<b>hi</b>" and "text/plain" not in mail
    assert mail["attachments"][0]["name"] == "hi.txt" and mail["attachments"][0]["type"] == "text/plain"
    assert saas.requests[-1].query == {"userId": "me", "uploadType": "media"}


async def test_an_address_without_at_fails_naming_the_field(saas: FakeSaasServer) -> None:
    _, error = await _run({"sendTo": "ada@example.com", "subject": "s", "message": "m", "options": {"ccList": "bob"}})
    assert error["message"] == "Invalid email address (item 0)"
    assert error["description"] == "The email address 'bob' in the 'CC' field isn't valid"
    assert not saas.requests


async def test_get_all_follows_the_page_tokens_and_asks_metadata_headers(saas: FakeSaasServer) -> None:
    items, error = await _run({"operation": "getAll", "returnAll": True})
    assert error is None and len(items) == 5
    lists = [r for r in saas.requests if r.path == "/gmail/v1/users/me/messages"]
    assert [r.query.get("pageToken") for r in lists] == [None, "00000000000000000003"]
    get = next(r for r in saas.requests if r.path.startswith("/gmail/v1/users/me/messages/18"))
    assert [v for k, v in get.query_pairs if k == "metadataHeaders"] == ["From", "To", "Cc", "Bcc", "Subject"]


async def test_received_after_becomes_unix_seconds_in_the_query(saas: FakeSaasServer) -> None:
    filters = {"receivedAfter": "2024-01-03T00:00:00Z", "readStatus": "both", "sender": "grace@example.com"}
    items, error = await _run({"operation": "getAll", "returnAll": True, "filters": filters})
    assert error is None and [i["json"]["Subject"] for i in items] == ["Lunch?"]
    assert saas.requests[0].query["q"] == "from:grace@example.com after:1704240000"


async def test_a_bad_date_fails_naming_the_filter(saas: FakeSaasServer) -> None:
    _, error = await _run({"operation": "getAll", "filters": {"receivedBefore": "next week"}})
    assert error["message"] == "Invalid date/time in 'Received Before' field (item 0)"


async def test_the_service_account_gets_a_token_from_its_jwt(saas: FakeSaasServer) -> None:
    items, error = await _run({"authentication": "serviceAccount", "resource": "label", "returnAll": True})
    assert error is None and len(items) == 11
    token = next(r for r in saas.requests if r.host == google_oauth.HOST)
    assert token.body["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer"
    assert saas.requests[-1].headers["authorization"] == f"Bearer {google_oauth.SERVICE_ACCOUNT_TOKEN}"


async def test_reply_goes_to_reply_to_and_other_recipients_in_the_thread(saas: FakeSaasServer) -> None:
    params = {"operation": "reply", "messageId": "18cd0a0000000003", "emailType": "text", "message": "ok",
              "options": {"appendAttribution": False}}  # fmt: skip
    _, error = await _run(params, version=2.2)
    assert error is None
    mail = _sent(saas)[0]
    assert mail["To"] == [["Grace Hopper", "grace@example.com"], ["Alan Replies", "alan.replies@example.com"]]
    assert mail["In-Reply-To"] == "<notes-0102@mail.example.com>" and mail["Subject"] == "Meeting notes"
    assert saas.requests[-1].body["threadId"] == "18cd0a0000000003"


async def test_resolved_get_downloads_attachments_as_binary(saas: FakeSaasServer) -> None:
    params = {"operation": "get", "messageId": "18cd0a0000000003", "simple": False,
              "options": {"downloadAttachments": True}}  # fmt: skip
    items, error = await _run(params)
    assert error is None
    assert items[0]["binary"]["attachment_0"]["fileName"] == "notes.txt"
    assert items[0]["json"]["text"] == "It's the notes from today's meeting.\n"
    assert items[0]["json"]["replyTo"]["value"] == [{"address": "alan.replies@example.com", "name": "Alan Replies"}]


async def test_send_and_wait_outside_a_stored_execution_says_where_it_runs(saas: FakeSaasServer) -> None:
    _, error = await _run({"operation": "sendAndWait", "sendTo": "a@example.com", "subject": "ok?"})
    assert "resume URL" in error["message"] and "weft start" in error["description"] and not saas.requests


async def test_send_and_wait_wants_one_address(saas: FakeSaasServer) -> None:
    _, error = await _run({"operation": "sendAndWait", "sendTo": "a@example.com, b@example.com", "subject": "ok?"})
    assert error["message"] == "Invalid email address" and "only a single email address" in error["description"]


def test_the_tool_variant_is_registered_with_n8n_properties() -> None:
    registry = default_registry()
    assert registry.type_class("n8n-nodes-base.gmailTool") is not None
    names = [p["name"] for p in properties_for("n8n-nodes-base.gmailTool", 2.2)]
    assert "toolDescription" in names and "sendTo" in names


async def test_an_expired_token_is_refreshed_at_googles_token_url(
    saas: FakeSaasServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(google_oauth.CLIENTS, "gmail-client", "gmail-secret")
    monkeypatch.setitem(google_oauth.REFRESH_TOKENS, "gmail-refresh", gmail.TOKEN)
    expired = {"clientId": "gmail-client", "clientSecret": "gmail-secret",
               "oauthTokenData": {"access_token": "expired", "refresh_token": "gmail-refresh"}}  # fmt: skip
    monkeypatch.setitem(OAUTH, "oauthTokenData", expired["oauthTokenData"])
    monkeypatch.setitem(OAUTH, "clientId", "gmail-client")
    monkeypatch.setitem(OAUTH, "clientSecret", "gmail-secret")
    items, error = await _run({"resource": "label", "limit": 2})
    assert error is None and [i["json"]["id"] for i in items] == ["CHAT", "SENT"]
    hosts = [(r.host, r.headers.get("authorization")) for r in saas.requests]
    assert hosts[0] == ("www.googleapis.com", "Bearer expired") and hosts[1][0] == google_oauth.HOST
    assert hosts[2] == ("www.googleapis.com", f"Bearer {gmail.TOKEN}")
