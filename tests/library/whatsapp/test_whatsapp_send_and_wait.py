"""WhatsApp Business Cloud's "Send and Wait for Response" through the real server: the text message the fake
WhatsApp API receives (the question, each button's label and signed resume link), the execution waiting, and the
click resuming it; the other operations still run from n8n's description."""

from __future__ import annotations

import uuid

from tests.library.fakes import service_fixture
from tests.library.send_and_wait import approval_workflow, click, resumed_item, wait_for_approval
from tests.server.conftest import LiveServer

from weft.nodes.registry import NodeRegistry
from weft.nodes.routing import DeclarativeNode
from weft.testing.saas import FakeSaasServer, whatsapp

NODE_ID = "00000000-0000-4000-8000-0000000aa002"
saas = service_fixture("whatsapp")


def test_the_type_stays_declarative() -> None:
    node_type = NodeRegistry().type_class("n8n-nodes-base.whatsApp")
    assert node_type is not None and issubclass(node_type, DeclarativeNode)
    assert NodeRegistry().type_class("n8n-nodes-base.whatsAppTool") is not None


def test_the_question_carries_the_links_and_a_click_resumes(live: LiveServer, saas: FakeSaasServer) -> None:
    path = f"wa-{uuid.uuid4().hex[:8]}"
    params = {"operation": "sendAndWait", "phoneNumberId": whatsapp.PHONE_NUMBER_ID,
              "recipientPhoneNumber": "+1(555)010-0009", "message": "=Deploy {{ $json.body.build }}?",
              "approvalOptions": {"values": {"approvalType": "double"}}}  # fmt: skip
    credential = ("whatsAppApi", {"accessToken": whatsapp.ACCESS_TOKEN,
                                  "businessAccountId": whatsapp.BUSINESS_ACCOUNT_ID})  # fmt: skip
    workflow = approval_workflow(live, path, node_type="n8n-nodes-base.whatsApp", version=1.1, credential=credential,
                                 params=params, node_id=NODE_ID)  # fmt: skip
    execution = wait_for_approval(live, workflow, path, {"build": 7})
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
    assert click(link) == 200
    assert resumed_item(live, execution)["json"]["data"]["approved"] is True
