"""Slack's "Send Message and Wait for Response" through the real server: the blocks the fake Slack API receives
(the question, the link buttons to the signed resume URL), the execution waiting, and the click resuming it."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from tests.server.conftest import LiveServer, wait_for

from weft.testing.saas import FakeSaasServer
from weft.testing.saas import _slack_data as data

BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36"
NODE_ID = "00000000-0000-4000-8000-0000000ac002"


@pytest.fixture
def saas(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSaasServer]:
    with FakeSaasServer(only=["slack"]) as server:
        for name, value in server.proxy_env().items():
            monkeypatch.setenv(name, value)
        yield server


def _workflow(live: LiveServer, path: str, version: float) -> dict[str, Any]:
    created = live.client.post("/rest/credentials", json={"name": f"slack-{path}", "type": "slackApi",
                                                          "data": {"accessToken": data.BOT_TOKEN}})  # fmt: skip
    assert created.status_code == 201, created.text
    credential = {"id": created.json()["data"]["id"], "name": created.json()["data"]["name"]}
    params = {"operation": "sendAndWait", "select": "channel",
              "channelId": {"__rl": True, "mode": "id", "value": "C03DEPLOYS"},
              "message": "=Deploy {{ $json.body.build }}?",
              "approvalOptions": {"values": {"approvalType": "double", "approveLabel": "Ship",
                                             "disapproveLabel": "Stop"}},
              "options": {"thread_ts": {"replyValues": {"thread_ts": "1735696000.000000"}}}}  # fmt: skip
    return {
        "id": uuid.uuid4().hex[:16],
        "name": f"slack approval {path}",
        "settings": {"executionOrder": "v1"},
        "nodes": [
            {"id": "00000000-0000-4000-8000-0000000ac001", "name": "Webhook", "type": "n8n-nodes-base.webhook",
             "typeVersion": 2, "position": [0, 0], "webhookId": str(uuid.uuid4()),
             "parameters": {"httpMethod": "POST", "path": path, "options": {}}},
            {"id": NODE_ID, "name": "Ask", "type": "n8n-nodes-base.slack", "typeVersion": version, "position": [200, 0],
             "webhookId": str(uuid.uuid4()), "parameters": params, "credentials": {"slackApi": credential}},
        ],
        "connections": {"Webhook": {"main": [[{"node": "Ask", "type": "main", "index": 0}]]}},
    }  # fmt: skip


def test_the_question_carries_signed_buttons_and_a_click_resumes(live: LiveServer, saas: FakeSaasServer) -> None:
    path = f"slack-{uuid.uuid4().hex[:8]}"
    workflow_id = live.import_workflow(_workflow(live, path, 2.4))
    live.client.post(f"/webhook/{path}", json={"build": 42})
    [execution] = wait_for(lambda: [e for e in live.executions(workflow_id) if e["status"] == "waiting"])
    [sent] = [r for r in saas.requests if r.path == "/api/chat.postMessage"]
    assert sent.body["channel"] == "C03DEPLOYS" and sent.body["thread_ts"] == "1735696000.000000"
    divider, question, blank, _, actions, attribution = sent.body["blocks"]
    assert question == {"type": "section", "text": {"type": "mrkdwn", "text": "Deploy 42?"}}
    assert divider == {"type": "divider"} and blank["text"]["text"] == " "
    assert attribution["text"]["text"].startswith("This message was sent automatically with  _<https://n8n.io/")
    stop, ship = actions["elements"]
    assert (stop["text"]["text"], ship["text"]["text"], ship["style"]) == ("Stop", "Ship", "primary")
    assert "style" not in stop
    prefix = f"{live.url}/webhook-waiting/{execution['id']}/{NODE_ID}?approved="
    assert stop["url"].startswith(prefix + "false&signature=") and ship["url"].startswith(prefix + "true&signature=")
    forged = ship["url"].replace("approved=true", "approved=false")
    assert httpx.get(forged, headers={"user-agent": BROWSER}, timeout=10).status_code == 401
    assert httpx.get(ship["url"], headers={"user-agent": BROWSER}, timeout=10).status_code == 200
    done = live.wait_status(str(execution["id"]), "success")
    [item] = done["data"]["resultData"]["runData"]["Ask"][-1]["data"]["main"][0]
    assert item["json"]["data"]["approved"] is True
