"""``emailSendHitlTool`` end to end, through the real server and a real SMTP server: the agent calls the gated
Refund tool → the approval mail with n8n's buttons → a link → the tool runs (or not) → the agent answers."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx
import pytest
from tests.server.conftest import LiveServer, wait_for

from weft.testing.smtp_server import SmtpCaptureServer
from weft.testing.workflows import connect, node, workflow

LC = "@n8n/n8n-nodes-langchain."
BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36"
REFUND_CODE = "return `refunded order ${query}`;"
ANSWER = "Result: {{last_tool_result}}"


@pytest.fixture(scope="module")
def smtp() -> Iterator[SmtpCaptureServer]:
    with SmtpCaptureServer() as server:
        yield server


def refund_call(call_id: str = "call_refund") -> dict[str, Any]:
    return {"id": call_id, "name": "Refund", "args": {"toolParameters": {"input": "42"}, "hitlParameters": {}}}


def start(live: LiveServer, smtp: SmtpCaptureServer, turns: list[Any]) -> tuple[str, str, list[Any]]:
    """Webhook → AI Agent; Refund (Code Tool) → Approve (emailSendHitlTool) → the agent.

    Returns the execution id, the Approve node id and the mails that arrived."""
    created = live.client.post("/rest/credentials", json={"name": f"smtp-{uuid.uuid4().hex[:6]}", "type": "smtp",
        "data": {"host": "127.0.0.1", "port": smtp.port, "secure": False, "disableStartTls": True}})  # fmt: skip
    credential = {"smtp": {"id": created.json()["data"]["id"], "name": created.json()["data"]["name"]}}
    path = f"hitl-{uuid.uuid4().hex[:8]}"
    approval = {"approvalType": "double"}
    email = {"fromEmail": "agent@example.com", "toEmail": "boss@example.com", "subject": "Approval needed",
             "approvalOptions": {"values": approval}}  # fmt: skip
    data = workflow(
        {
            **node("Webhook", "n8n-nodes-base.webhook", {"httpMethod": "POST", "path": path}, version=2),
            "webhookId": str(uuid.uuid4()),
        },
        node("AI Agent", LC + "agent", {"promptType": "define", "text": "Please refund order 42"}, version=3.1),
        node("Model", "weft.lmChatScripted", {"turns": turns}),
        {**node("Approve", "n8n-nodes-base.emailSendHitlTool", email, version=2.1), "credentials": credential},
        node("Refund", LC + "toolCode", {"jsCode": REFUND_CODE, "description": "Refund an order"}, version=1.3),
        connect("Webhook", "AI Agent"),
        connect("Model", "AI Agent", type_="ai_languageModel"),
        connect("Approve", "AI Agent", type_="ai_tool"),
        connect("Refund", "Approve", type_="ai_tool"),
    )
    data["id"] = uuid.uuid4().hex[:16]
    for each in data["nodes"]:
        each["id"] = str(uuid.uuid4())
    workflow_id = live.import_workflow(data)
    before = len(smtp.messages)
    assert live.client.post(f"/webhook/{path}", json={}).json() == {"message": "Workflow was started"}
    mails = smtp.wait_for(before + 1)[before:]
    [row] = wait_for(lambda: [r for r in live.executions(workflow_id) if r["status"] == "waiting"])
    approve_id = next(n["id"] for n in data["nodes"] if n["name"] == "Approve")
    return str(row["id"]), approve_id, mails


def links(html: str) -> dict[str, str]:
    return {
        label: url for url, label in re.findall(r'<a href="(http[^"]+/webhook-waiting/[^"]+)"[^>]*>([^<]+)</a>', html)
    }


def run_data(live: LiveServer, execution_id: str) -> dict[str, Any]:
    response = live.client.get(f"/rest/executions/{execution_id}", params={"includeData": True})
    data: dict[str, Any] = response.json()["data"]["data"]["resultData"]["runData"]
    return data


def test_approve_link_in_the_mail_runs_the_gated_tool(live: LiveServer, smtp: SmtpCaptureServer) -> None:
    execution_id, node_id, [mail] = start(live, smtp, [{"toolCalls": [refund_call()]}, ANSWER])
    assert mail.rcpt_tos == ["boss@example.com"] and mail.message["Subject"] == "Approval needed"
    html = mail.body("html")
    assert "The agent wants to run this tool: Refund" in html  # n8n's default HITL message
    buttons = links(html)
    assert list(buttons) == ["Decline", "Approve"]
    approve = buttons["Approve"]
    assert approve.startswith(f"{live.url}/webhook-waiting/{execution_id}/{node_id}?")
    query = dict(parse_qsl(urlsplit(approve).query))
    assert (query["approved"], query["toolCallId"], len(query["signature"])) == ("true", "call_refund", 64)
    # a mail scanner's preview and a forged link answer nothing
    assert httpx.get(approve, headers={"user-agent": "python-httpx/0.28"}, timeout=10).text == ""
    forged = buttons["Decline"].replace("approved=false", "approved=true")
    assert httpx.get(forged, headers={"user-agent": BROWSER}, timeout=10).status_code == 401
    assert live.execution(execution_id)["status"] == "waiting" and "Refund" not in run_data(live, execution_id)
    clicked = httpx.get(approve, headers={"user-agent": BROWSER}, timeout=10)
    assert clicked.status_code == 200 and "<h1>Got it, thanks</h1>" in clicked.text
    live.wait_status(execution_id, "success")
    runs = run_data(live, execution_id)
    assert runs["Refund"][0]["data"]["ai_tool"][0][0]["json"] == {"response": "refunded order 42"}
    assert runs["Approve"][-1]["data"]["ai_tool"][0][0]["json"]["data"]["approved"] is True
    output = runs["AI Agent"][-1]["data"]["main"][0][0]["json"]["output"]
    assert output == 'Result: [{"response":"refunded order 42"}]'
    again = httpx.get(approve, headers={"user-agent": BROWSER}, timeout=10)
    assert (again.status_code, "<h1>No action required</h1>" in again.text) == (200, True)


def test_decline_link_never_runs_the_tool(live: LiveServer, smtp: SmtpCaptureServer) -> None:
    execution_id, _, [mail] = start(live, smtp, [{"toolCalls": [refund_call()]}, "Denied: {{last_tool_result}}"])
    decline = links(mail.body("html"))["Decline"]
    assert httpx.get(decline, headers={"user-agent": BROWSER}, timeout=10).status_code == 200
    live.wait_status(execution_id, "success")
    runs = run_data(live, execution_id)
    assert "Refund" not in runs
    assert runs["Approve"][-1]["data"]["ai_tool"][0][0]["json"]["data"]["approved"] is False
    assert runs["AI Agent"][-1]["data"]["main"][0][0]["json"]["output"].startswith("Denied: ")


def test_a_link_of_an_answered_question_cannot_answer_the_next(live: LiveServer, smtp: SmtpCaptureServer) -> None:
    turns = [{"toolCalls": [refund_call("call_1")]}, {"toolCalls": [refund_call("call_2")]}, ANSWER]
    execution_id, _, [first] = start(live, smtp, turns)
    first_links = links(first.body("html"))
    before = len(smtp.messages)
    assert httpx.get(first_links["Approve"], headers={"user-agent": BROWSER}, timeout=10).status_code == 200
    second = smtp.wait_for(before + 1)[-1]
    wait_for(lambda: live.execution(execution_id)["status"] == "waiting" and "call_2" in second.body("html"))
    stale = httpx.get(first_links["Decline"], headers={"user-agent": BROWSER}, timeout=10)
    assert stale.status_code == 409 and live.execution(execution_id)["status"] == "waiting"
    assert (
        httpx.get(links(second.body("html"))["Approve"], headers={"user-agent": BROWSER}, timeout=10).status_code == 200
    )
    live.wait_status(execution_id, "success")
    assert len(run_data(live, execution_id)["Refund"]) == 2
