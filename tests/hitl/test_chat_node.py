"""Respond to Chat's "Send and Wait for Response" (``operation: sendAndWait``; ``waitUserReply`` in 1.0) through
the real server: the message answers the chat, the execution waits, and the reply (POSTed to the signed resume
URL by the hosted page) resumes it with n8n's ``onMessage`` item; an approval question has buttons."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from tests.hitl._workflows import LC, TRIGGER, message
from tests.server.conftest import LiveServer, wait_for

from weft.testing.workflows import connect, node, workflow

REPLY = {"sessionId": "s1", "action": "sendMessage", "chatInput": "order 42"}


def _workflow(chat: dict[str, Any], version: float) -> tuple[dict[str, Any], str]:
    """Chat Trigger (response nodes) → Ask (the Chat node) → Echo (Respond to Chat with what Ask returned)."""
    webhook_id = str(uuid.uuid4())
    trigger = {"public": True, "options": {"responseMode": "responseNodes"}}
    data = workflow(
        {**node(TRIGGER, LC + "chatTrigger", trigger, version=1.4), "webhookId": webhook_id},
        node("Ask", LC + "chat", {"message": "Which order?", **chat}, version=version),
        node("Echo", LC + "chat", {"message": "={{ JSON.stringify($json) }}", "operation": "send"}, version=1.3),
        connect(TRIGGER, "Ask"),
        connect("Ask", "Echo"),
    )
    data["id"] = uuid.uuid4().hex[:16]
    return data, webhook_id


def _ask(live: LiveServer, chat: dict[str, Any], version: float) -> tuple[dict[str, Any], str]:
    data, webhook_id = _workflow(chat, version)
    live.instance.store.workflows.import_workflow(data, activate=True)
    answer = live.client.post(f"/webhook/{webhook_id}/chat", json=message("refund please"))
    assert answer.status_code == 200, answer.text
    rows = wait_for(lambda: [r for r in live.executions(data["id"]) if r["status"] == "waiting"])
    return answer.json(), rows[0]["id"]


def _resume_url(live: LiveServer, execution_id: str) -> str:
    signature = live.instance.runner.signer.sign(execution_id)
    return f"{live.url}/webhook-waiting/{execution_id}?signature={signature}"


@pytest.mark.parametrize(
    ("version", "chat", "expected"),
    [
        (1, {}, REPLY),
        (1.1, {"operation": "sendAndWait"}, {"data": REPLY}),
        (1.3, {"operation": "sendAndWait"}, REPLY),
    ],
)
def test_the_reply_resumes_with_n8ns_on_message_item(
    live: LiveServer, version: float, chat: dict[str, Any], expected: dict[str, Any]
) -> None:
    answer, execution_id = _ask(live, chat, version)
    assert answer == {"output": "Which order?"}
    reply = live.client.post(_resume_url(live, execution_id), json=message("order 42"))
    assert reply.status_code == 200, reply.text
    assert json.loads(reply.json()["output"]) == expected
    live.wait_status(execution_id, "success")


def test_an_approval_question_has_buttons_and_a_written_reply_is_a_denial(live: LiveServer) -> None:
    chat = {"operation": "sendAndWait", "responseType": "approval"}
    answer, execution_id = _ask(live, chat, 1.3)
    assert answer["output"] == "Which order?"
    assert [b["text"] for b in answer["message"]["buttons"]] == ["Approve"]  # approvalType single
    assert answer["message"]["blockUserInput"] is False
    reply = live.client.post(_resume_url(live, execution_id), json=message("not now"))
    expected = {"sessionId": "s1", "action": "sendMessage", "chatInput": "not now", "data": {"approved": False}}
    assert json.loads(reply.json()["output"]) == expected
