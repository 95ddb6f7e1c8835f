"""Telegram's "Send and Wait for Response" through the real server: the message the fake Bot API receives (its
text, Markdown, the link buttons to the signed resume URL), the execution waiting, and the click resuming it."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from tests.server.conftest import LiveServer, wait_for

from weft.testing.saas import FakeSaasServer, telegram

BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36"
NODE_ID = "00000000-0000-4000-8000-0000000ab002"


@pytest.fixture
def saas(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSaasServer]:
    with FakeSaasServer(only=["telegram"]) as server:
        for name, value in server.proxy_env().items():
            monkeypatch.setenv(name, value)
        yield server


def _workflow(live: LiveServer, path: str) -> dict[str, Any]:
    data = {"accessToken": telegram.TOKEN, "baseUrl": "https://api.telegram.org"}
    created = live.client.post("/rest/credentials", json={"name": f"tg-{path}", "type": "telegramApi", "data": data})
    assert created.status_code == 201, created.text
    credential = {"id": created.json()["data"]["id"], "name": created.json()["data"]["name"]}
    params = {"operation": "sendAndWait", "chatId": "555000111", "message": "=Refund order {{ $json.body.order }}?",
              "approvalOptions": {"values": {"approvalType": "double", "approveLabel": "Yes", "disapproveLabel": "No"}},
              "options": {"appendAttribution": False}}  # fmt: skip
    return {
        "id": uuid.uuid4().hex[:16],
        "name": f"telegram approval {path}",
        "settings": {"executionOrder": "v1"},
        "nodes": [
            {"id": "00000000-0000-4000-8000-0000000ab001", "name": "Webhook", "type": "n8n-nodes-base.webhook",
             "typeVersion": 2, "position": [0, 0], "webhookId": str(uuid.uuid4()),
             "parameters": {"httpMethod": "POST", "path": path, "options": {}}},
            {"id": NODE_ID, "name": "Ask", "type": "n8n-nodes-base.telegram", "typeVersion": 1.2, "position": [200, 0],
             "webhookId": str(uuid.uuid4()), "parameters": params, "credentials": {"telegramApi": credential}},
        ],
        "connections": {"Webhook": {"main": [[{"node": "Ask", "type": "main", "index": 0}]]}},
    }  # fmt: skip


def test_the_question_carries_signed_links_and_a_click_resumes(live: LiveServer, saas: FakeSaasServer) -> None:
    path = f"tg-{uuid.uuid4().hex[:8]}"
    workflow_id = live.import_workflow(_workflow(live, path))
    live.client.post(f"/webhook/{path}", json={"order": 42})
    [execution] = wait_for(lambda: [e for e in live.executions(workflow_id) if e["status"] == "waiting"])
    [sent] = [r for r in saas.requests if r.path.endswith("/sendMessage")]
    assert sent.body["chat_id"] == "555000111" and sent.body["text"] == "Refund order 42?"
    assert sent.body["parse_mode"] == "Markdown" and sent.body["disable_web_page_preview"] is True
    [[decline, approve]] = sent.body["reply_markup"]["inline_keyboard"]
    assert (decline["text"], approve["text"]) == ("No", "Yes")
    prefix = f"{live.url}/webhook-waiting/{execution['id']}/{NODE_ID}?approved="
    assert decline["url"].startswith(prefix + "false&signature=")
    assert approve["url"].startswith(prefix + "true&signature=")
    forged = approve["url"].replace("approved=true", "approved=false")
    assert httpx.get(forged, headers={"user-agent": BROWSER}, timeout=10).status_code == 401
    assert httpx.get(approve["url"], headers={"user-agent": BROWSER}, timeout=10).status_code == 200
    done = live.wait_status(str(execution["id"]), "success")
    [item] = done["data"]["resultData"]["runData"]["Ask"][-1]["data"]["main"][0]
    assert item["json"]["data"]["approved"] is True
