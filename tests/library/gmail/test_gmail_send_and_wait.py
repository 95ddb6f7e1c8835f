"""Gmail's "Send and Wait for Response" through the real server: the mail the fake Gmail API receives (HTML with
link buttons to the signed resume URL), the execution waiting, and the click resuming it."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from tests.server.conftest import LiveServer, wait_for

from weft.testing.saas import FakeSaasServer, gmail

BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36"
NODE_ID = "00000000-0000-4000-8000-0000000ab202"


@pytest.fixture
def saas(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSaasServer]:
    with FakeSaasServer(only=["gmail"]) as server:
        for name, value in server.proxy_env().items():
            monkeypatch.setenv(name, value)
        yield server


def _workflow(live: LiveServer, path: str) -> dict[str, Any]:
    data = {"clientId": "c", "clientSecret": "s", "oauthTokenData": {"access_token": gmail.TOKEN}}
    created = live.client.post("/rest/credentials", json={"name": f"gm-{path}", "type": "gmailOAuth2", "data": data})
    assert created.status_code == 201, created.text
    credential = {"id": created.json()["data"]["id"], "name": created.json()["data"]["name"]}
    params = {"operation": "sendAndWait", "sendTo": "boss@example.com", "subject": "=Refund {{ $json.body.order }}?",
              "message": "Shall we refund it?",
              "approvalOptions": {"values": {"approvalType": "double", "approveLabel": "Yes", "disapproveLabel": "No"}},
              "options": {"appendAttribution": False}}  # fmt: skip
    return {
        "id": uuid.uuid4().hex[:16],
        "name": f"gmail approval {path}",
        "settings": {"executionOrder": "v1"},
        "nodes": [
            {"id": "00000000-0000-4000-8000-0000000ab201", "name": "Webhook", "type": "n8n-nodes-base.webhook",
             "typeVersion": 2, "position": [0, 0], "webhookId": str(uuid.uuid4()),
             "parameters": {"httpMethod": "POST", "path": path, "options": {}}},
            {"id": NODE_ID, "name": "Ask", "type": "n8n-nodes-base.gmail", "typeVersion": 2.1, "position": [200, 0],
             "webhookId": str(uuid.uuid4()), "parameters": params, "credentials": {"gmailOAuth2": credential}},
        ],
        "connections": {"Webhook": {"main": [[{"node": "Ask", "type": "main", "index": 0}]]}},
    }  # fmt: skip


def test_the_mail_carries_signed_links_and_a_click_resumes(live: LiveServer, saas: FakeSaasServer) -> None:
    path = f"gm-{uuid.uuid4().hex[:8]}"
    workflow_id = live.import_workflow(_workflow(live, path))
    live.client.post(f"/webhook/{path}", json={"order": 42})
    [execution] = wait_for(lambda: [e for e in live.executions(workflow_id) if e["status"] == "waiting"])
    [mail] = saas.__dict__["state"]["gmail"]["sent"]
    assert mail["To"] == [["", "boss@example.com"]] and mail["Subject"] == "Refund 42?"
    assert "Shall we refund it?" in mail["text/html"] and "n8n.io" not in mail["text/html"]
    links = re.findall(r'href="([^"]+)"', mail["text/html"])
    prefix = f"{live.url}/webhook-waiting/{execution['id']}/{NODE_ID}?approved="
    [decline] = [link.replace("&amp;", "&") for link in links if link.startswith(prefix + "false")]
    [approve] = [link.replace("&amp;", "&") for link in links if link.startswith(prefix + "true")]
    assert (
        httpx.get(
            decline.replace("approved=false", "approved=true"), headers={"user-agent": BROWSER}, timeout=10
        ).status_code
        == 401
    )
    assert httpx.get(approve, headers={"user-agent": BROWSER}, timeout=10).status_code == 200
    done = live.wait_status(str(execution["id"]), "success")
    [item] = done["data"]["resultData"]["runData"]["Ask"][-1]["data"]["main"][0]
    assert item["json"]["data"]["approved"] is True
