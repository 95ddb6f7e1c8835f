"""Approval in the chat, through the real server: the chat answer shows the question with its buttons; a click
resumes the execution, and the waiting webhook answers with the agent's reply. Denials, feedback, links."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit, urlunsplit

from tests.hitl._workflows import message, refund_call, refund_workflow
from tests.server.conftest import LiveServer, wait_for

ANSWER = "Result: {{last_tool_result}}"


def _start(live: LiveServer, turns: list[Any], **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    data, webhook_id = refund_workflow(turns, **kwargs)
    live.instance.store.workflows.import_workflow(data, activate=True)
    response = live.client.post(f"/webhook/{webhook_id}/chat", json=message("Please refund order 42"))
    assert response.status_code == 200, response.text
    return data, response.json()


def _waiting(live: LiveServer, workflow_id: str) -> dict[str, Any]:
    rows = wait_for(lambda: [r for r in live.executions(workflow_id) if r["status"] == "waiting"])
    return live.execution(rows[0]["id"])


def _full(live: LiveServer, execution_id: str) -> dict[str, Any]:
    response = live.client.get(f"/rest/executions/{execution_id}", params={"includeData": True})
    data: dict[str, Any] = response.json()["data"]
    return data


def _buttons(answer: dict[str, Any]) -> dict[str, str]:
    return {b["text"]: b["link"] for b in answer["message"]["buttons"]}


def test_the_chat_shows_the_question_and_approve_runs_the_tool(live: LiveServer) -> None:
    data, answer = _start(live, [{"toolCalls": [refund_call()]}, ANSWER])
    # n8n's default message: its template renders the arguments object as JavaScript's String() does
    assert answer["output"] == "The agent wants to run this tool: Refund\n\nInput:\n[object Object]"
    assert answer["message"]["type"] == "with-buttons"
    assert answer["message"]["tool"] == {"name": "Refund", "parameters": {"input": "42"}, "id": "call_refund"}
    assert [b["text"] for b in answer["message"]["buttons"]] == ["Approve", "Decline"]
    waiting = _waiting(live, data["id"])
    assert waiting["status"] == "waiting"

    approve = _buttons(answer)["Approve"]
    assert parse_qs(urlsplit(approve).query)["approved"] == ["true"]
    resumed = live.client.post(approve)
    assert resumed.status_code == 200, resumed.text
    assert resumed.json() == {"output": 'Result: [{"response":"refunded order 42"}]'}

    done = live.wait_status(waiting["id"], "success")
    run_data = _full(live, done["id"])["data"]["resultData"]["runData"]
    [gate] = run_data["Approve"]
    assert gate["data"]["ai_tool"][0][0]["json"]["data"]["approved"] is True
    assert gate["inputOverride"]["ai_tool"][0][0]["json"] == {"toolParameters": {"input": "42"}, "tool": "Refund"}
    [refund] = run_data["Refund"]
    assert refund["source"][0]["previousNode"] == "Approve"  # re-parented under the gate
    assert refund["inputOverride"]["ai_tool"][0][0]["json"] == {"tool": "Refund", "input": "42"}
    assert refund["data"]["ai_tool"][0][0]["json"] == {"response": "refunded order 42"}

    again = live.client.post(approve)
    assert again.status_code == 409, again.text


def test_decline_tells_the_model_and_the_refund_never_runs(live: LiveServer) -> None:
    data, answer = _start(live, [{"toolCalls": [refund_call()]}, ANSWER])
    waiting = _waiting(live, data["id"])
    resumed = live.client.get(_buttons(answer)["Decline"])
    assert resumed.status_code == 200, resumed.text
    rejected = (
        "User rejected the tool call to Refund (id: call_refund). STOP what you are doing and wait for the user "
        "to tell you how to proceed. The tool is still available if needed."
    )
    assert resumed.json() == {"output": 'Result: [{"output":"' + rejected + '"}]'}
    done = live.wait_status(waiting["id"], "success")
    assert "Refund" not in _full(live, done["id"])["data"]["resultData"]["runData"]


def test_a_written_reply_reaches_the_model_as_feedback(live: LiveServer) -> None:
    data, answer = _start(live, [{"toolCalls": [refund_call()]}, ANSWER])
    waiting = _waiting(live, data["id"])
    link = urlsplit(_buttons(answer)["Approve"])
    query = {k: v for k, v in parse_qs(link.query).items() if k != "approved"}
    reply_url = urlunsplit(link._replace(query="&".join(f"{k}={v[0]}" for k, v in query.items())))
    resumed = live.client.post(reply_url, json={"sessionId": "s1", "chatInput": "Only refund half"})
    assert resumed.status_code == 200, resumed.text
    feedback = (
        'The user reviewed your planned tool call to Refund (id: call_refund) and provided feedback: "Only refund '
        'half". The tool is still available if needed.'
    )
    assert resumed.json()["output"] == "Result: " + '[{"output":"' + feedback.replace('"', '\\"') + '"}]'
    live.wait_status(waiting["id"], "success")


def test_links_are_checked_before_anything_resumes(live: LiveServer) -> None:
    data, answer = _start(live, [{"toolCalls": [refund_call()]}, ANSWER])
    waiting = _waiting(live, data["id"])
    approve = _buttons(answer)["Approve"]
    parts = urlsplit(approve)
    query = parse_qs(parts.query)
    signature = query["signature"][0]
    tampered = approve.replace(signature, ("0" if signature[0] != "0" else "1") + signature[1:])
    assert live.client.post(tampered).status_code == 401
    unsigned = urlunsplit(parts._replace(query=f"approved=true&toolCallId={query['toolCallId'][0]}"))
    assert live.client.post(unsigned).status_code == 401
    assert live.client.put(approve).status_code == 404  # a method the question does not answer
    wrong_id = approve.replace(f"/webhook-waiting/{waiting['id']}", "/webhook-waiting/999999")
    assert live.client.post(wrong_id).status_code == 404
    turned = _buttons(answer)["Decline"].replace("approved=false", "approved=true")
    assert live.client.post(turned).status_code == 401  # each answer is signed on its own
    assert live.client.post(approve.split("&answer=")[0]).status_code == 401
    assert live.execution(waiting["id"])["status"] == "waiting"  # none of them resumed it
    assert live.client.post(approve).status_code == 200
    live.wait_status(waiting["id"], "success")
