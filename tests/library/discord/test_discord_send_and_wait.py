"""Discord's "Send and Wait for Response" through the real server: the message the fake Discord API receives (the
question as an embed, the link buttons to the signed resume URL), the execution waiting, and the click resuming
it."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from tests.server.conftest import LiveServer, wait_for

from weft.testing.saas import FakeSaasServer, discord

BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36"
NODE_ID = "00000000-0000-4000-8000-0000000ad002"


@pytest.fixture
def saas(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSaasServer]:
    with FakeSaasServer(only=["discord"]) as server:
        for name, value in server.proxy_env().items():
            monkeypatch.setenv(name, value)
        yield server


def _workflow(live: LiveServer, path: str) -> dict[str, Any]:
    created = live.client.post("/rest/credentials", json={"name": f"discord-{path}", "type": "discordBotApi",
                                                          "data": {"botToken": discord.BOT_TOKEN}})  # fmt: skip
    assert created.status_code == 201, created.text
    credential = {"id": created.json()["data"]["id"], "name": created.json()["data"]["name"]}
    params = {"resource": "message", "operation": "sendAndWait",
              "guildId": {"__rl": True, "mode": "id", "value": discord.GUILD}, "sendTo": "user",
              "userId": {"__rl": True, "mode": "id", "value": "1300000000000000002"},
              "message": "=Deploy {{ $json.body.build }}?", "options": {"appendAttribution": False}}  # fmt: skip
    return {
        "id": uuid.uuid4().hex[:16],
        "name": f"discord approval {path}",
        "settings": {"executionOrder": "v1"},
        "nodes": [
            {"id": "00000000-0000-4000-8000-0000000ad001", "name": "Webhook", "type": "n8n-nodes-base.webhook",
             "typeVersion": 2, "position": [0, 0], "webhookId": str(uuid.uuid4()),
             "parameters": {"httpMethod": "POST", "path": path, "options": {}}},
            {"id": NODE_ID, "name": "Ask", "type": "n8n-nodes-base.discord", "typeVersion": 2, "position": [200, 0],
             "webhookId": str(uuid.uuid4()), "parameters": params, "credentials": {"discordBotApi": credential}},
        ],
        "connections": {"Webhook": {"main": [[{"node": "Ask", "type": "main", "index": 0}]]}},
    }  # fmt: skip


def test_the_question_carries_link_buttons_and_a_click_resumes(live: LiveServer, saas: FakeSaasServer) -> None:
    path = f"discord-{uuid.uuid4().hex[:8]}"
    workflow_id = live.import_workflow(_workflow(live, path))
    live.client.post(f"/webhook/{path}", json={"build": 7})
    [execution] = wait_for(lambda: [e for e in live.executions(workflow_id) if e["status"] == "waiting"])
    assert saas.requests[0].path == "/api/v10/users/@me/channels"
    sent = saas.requests[-1]
    assert sent.path.endswith("/messages")
    assert sent.body["embeds"] == [{"description": "Deploy 7?", "color": 5814783}]
    [row] = sent.body["components"]
    [approve] = row["components"]
    assert (row["type"], approve["type"], approve["style"], approve["label"]) == (1, 2, 5, "Approve")
    assert approve["url"].startswith(f"{live.url}/webhook-waiting/{execution['id']}/{NODE_ID}?approved=true&")
    assert httpx.get(approve["url"], headers={"user-agent": BROWSER}, timeout=10).status_code == 200
    done = live.wait_status(str(execution["id"]), "success")
    [item] = done["data"]["resultData"]["runData"]["Ask"][-1]["data"]["main"][0]
    assert item["json"]["data"]["approved"] is True
