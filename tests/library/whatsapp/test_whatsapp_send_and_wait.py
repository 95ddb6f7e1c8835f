"""WhatsApp Business Cloud's "Send and Wait for Response" through the real server: the text message the fake
WhatsApp API receives (the question, each button's label and signed resume link), the execution waiting, and the
click resuming it; the other operations still run from n8n's description."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from tests.server.conftest import LiveServer, wait_for

from weft.nodes.registry import NodeRegistry
from weft.nodes.routing import DeclarativeNode
from weft.testing.saas import FakeSaasServer, whatsapp

BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36"
NODE_ID = "00000000-0000-4000-8000-0000000aa002"


@pytest.fixture
def saas(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSaasServer]:
    with FakeSaasServer(only=["whatsapp"]) as server:
        for name, value in server.proxy_env().items():
            monkeypatch.setenv(name, value)
        yield server


def _workflow(live: LiveServer, path: str, params: dict[str, Any]) -> dict[str, Any]:
    data = {"accessToken": whatsapp.ACCESS_TOKEN, "businessAccountId": whatsapp.BUSINESS_ACCOUNT_ID}
    created = live.client.post("/rest/credentials", json={"name": f"wa-{path}", "type": "whatsAppApi", "data": data})
    assert created.status_code == 201, created.text
    credential = {"id": created.json()["data"]["id"], "name": created.json()["data"]["name"]}
    return {
        "id": uuid.uuid4().hex[:16],
        "name": f"whatsapp approval {path}",
        "settings": {"executionOrder": "v1"},
        "nodes": [
            {"id": "00000000-0000-4000-8000-0000000aa001", "name": "Webhook", "type": "n8n-nodes-base.webhook",
             "typeVersion": 2, "position": [0, 0], "webhookId": str(uuid.uuid4()),
             "parameters": {"httpMethod": "POST", "path": path, "options": {}}},
            {"id": NODE_ID, "name": "Ask", "type": "n8n-nodes-base.whatsApp", "typeVersion": 1.1, "position": [200, 0],
             "webhookId": str(uuid.uuid4()), "parameters": params, "credentials": {"whatsAppApi": credential}},
        ],
        "connections": {"Webhook": {"main": [[{"node": "Ask", "type": "main", "index": 0}]]}},
    }  # fmt: skip


def test_the_type_stays_declarative() -> None:
    node_type = NodeRegistry().type_class("n8n-nodes-base.whatsApp")
    assert node_type is not None and issubclass(node_type, DeclarativeNode)
    assert NodeRegistry().type_class("n8n-nodes-base.whatsAppTool") is not None


def test_the_question_carries_the_links_and_a_click_resumes(live: LiveServer, saas: FakeSaasServer) -> None:
    path = f"wa-{uuid.uuid4().hex[:8]}"
    params = {"operation": "sendAndWait", "phoneNumberId": whatsapp.PHONE_NUMBER_ID,
              "recipientPhoneNumber": "+1(555)010-0009", "message": "=Deploy {{ $json.body.build }}?",
              "approvalOptions": {"values": {"approvalType": "double"}}}  # fmt: skip
    workflow_id = live.import_workflow(_workflow(live, path, params))
    live.client.post(f"/webhook/{path}", json={"build": 7})
    [execution] = wait_for(lambda: [e for e in live.executions(workflow_id) if e["status"] == "waiting"])
    [sent] = saas.requests
    assert (sent.method, sent.path) == ("POST", f"/v13.0/{whatsapp.PHONE_NUMBER_ID}/messages")
    assert sent.headers["authorization"] == f"Bearer {whatsapp.ACCESS_TOKEN}"
    body = sent.body
    assert (body["messaging_product"], body["type"], body["to"]) == ("whatsapp", "text", "15550100009")
    question, decline, approve, rest = body["text"]["body"].split("\n\n")
    base = f"{live.url}/webhook-waiting/{execution['id']}/{NODE_ID}?approved="
    assert question == "Deploy 7?" and rest == ""
    assert decline.startswith(f"*✗ Decline:*\n_{base}false&") and approve.startswith(f"*✓ Approve:*\n_{base}true&")
    link = approve.split("\n_", 1)[1].rstrip("_")
    assert httpx.get(link, headers={"user-agent": BROWSER}, timeout=10).status_code == 200
    done = live.wait_status(str(execution["id"]), "success")
    [item] = done["data"]["resultData"]["runData"]["Ask"][-1]["data"]["main"][0]
    assert item["json"]["data"]["approved"] is True
