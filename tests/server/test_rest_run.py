"""``POST /rest/workflows/{id}/run`` with n8n's manual-run body (partial execution up to a node, reusing the run
data of an earlier execution), pinned data in manual runs, and ``GET /rest/executions/{id}/waiting`` (the resume
link and the Approve / Decline links of a waiting execution), through the real server."""

from __future__ import annotations

import html
import re
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from weft.testing.smtp_server import SmtpCaptureServer
from weft.testing.workflows import connect, node, workflow

from .conftest import TIMEOUT, LiveServer, wait_for

#: A person's browser (the send-and-wait page ignores link previews and HTTP libraries, as n8n does).
BROWSER_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36"


def set_node(name: str, field: str, value: str) -> dict[str, Any]:
    assignment = {"id": uuid.uuid4().hex, "name": field, "value": value, "type": "string"}
    parameters = {"assignments": {"assignments": [assignment]}, "includeOtherFields": True, "options": {}}
    return node(name, "n8n-nodes-base.set", parameters, version=3.4)


def chain_workflow(b_value: str = "={{ $json.a }}-b") -> dict[str, Any]:
    """Start → A (a = "a") → B (b = ``b_value``) → C (c = "c")."""
    data = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        set_node("A", "a", "a"),
        set_node("B", "b", b_value),
        set_node("C", "c", "c"),
        connect("Start", "A"),
        connect("A", "B"),
        connect("B", "C"),
    )
    data["name"] = f"run-{uuid.uuid4().hex[:8]}"
    return data


def run(live: LiveServer, workflow_id: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    response = live.client.post(f"/rest/workflows/{workflow_id}/run", json=body)
    assert response.status_code == 200, response.text
    started: dict[str, Any] = response.json()["data"]
    return live.execution(started["executionId"]) | {"started": started}


def run_data(execution: dict[str, Any]) -> dict[str, Any]:
    result: dict[str, Any] = execution["data"]["resultData"]["runData"]
    return result


def output(execution: dict[str, Any], name: str) -> list[dict[str, Any]]:
    return [item["json"] for item in run_data(execution)[name][-1]["data"]["main"][0]]


def test_partial_execution_reuses_the_base_executions_data_and_reruns_the_dirty_node(live: LiveServer) -> None:
    workflow_id = live.import_workflow(chain_workflow(), activate=False)
    base = run(live, workflow_id)
    assert base["status"] == "success" and sorted(run_data(base)) == ["A", "B", "C", "Start"]
    changed = chain_workflow("={{ $json.a }}-changed")
    live.client.patch(f"/rest/workflows/{workflow_id}", json=changed).raise_for_status()
    body = {"destinationNode": "B", "baseExecutionId": base["id"], "dirtyNodeNames": ["B"]}
    partial = run(live, workflow_id, body)
    assert partial["status"] == "success" and partial["mode"] == "manual" and partial["id"] != base["id"]
    assert sorted(run_data(partial)) == ["A", "B", "Start"]  # C lies after the destination
    for reused in ("Start", "A"):  # the same task data: not run again
        assert run_data(partial)[reused] == run_data(base)[reused]
    assert run_data(partial)["B"][0]["startTime"] != run_data(base)["B"][0]["startTime"]
    assert output(partial, "B") == [{"a": "a", "b": "a-changed"}]


def test_partial_execution_with_n8ns_body_sends_the_run_data_itself(live: LiveServer) -> None:
    workflow_id = live.import_workflow(chain_workflow(), activate=False)
    base = run(live, workflow_id)
    body = {"runData": run_data(base), "destinationNode": {"nodeName": "C", "mode": "inclusive"}, "dirtyNodeNames": []}
    partial = run(live, workflow_id, body)
    assert partial["status"] == "success"
    for reused in ("Start", "A", "B"):
        assert run_data(partial)[reused] == run_data(base)[reused]
    assert run_data(partial)["C"][0]["startTime"] != run_data(base)["C"][0]["startTime"]


def test_destination_without_run_data_runs_from_the_trigger_up_to_it(live: LiveServer) -> None:
    workflow_id = live.import_workflow(chain_workflow(), activate=False)
    partial = run(live, workflow_id, {"destinationNode": "A"})
    assert partial["status"] == "success" and sorted(run_data(partial)) == ["A", "Start"]


def test_a_base_execution_of_another_workflow_is_not_found(live: LiveServer) -> None:
    other = live.import_workflow(chain_workflow(), activate=False)
    theirs = run(live, other)
    mine = live.import_workflow(chain_workflow(), activate=False)
    body = {"destinationNode": "B", "baseExecutionId": theirs["id"]}
    response = live.client.post(f"/rest/workflows/{mine}/run", json=body)
    assert response.status_code == 404
    assert not live.executions(mine)


def test_manual_runs_use_pinned_data_instead_of_running_the_node(live: LiveServer) -> None:
    data = chain_workflow()
    data["pinData"] = {"A": [{"json": {"a": "pinned"}}]}
    workflow_id = live.import_workflow(data, activate=False)
    execution = run(live, workflow_id)
    assert output(execution, "A") == [{"a": "pinned"}]
    assert output(execution, "B") == [{"a": "pinned", "b": "pinned-b"}]


def test_a_pinned_webhook_runs_at_once_with_its_pinned_request(live: LiveServer) -> None:
    hook = node("Hook", "n8n-nodes-base.webhook", {"path": uuid.uuid4().hex, "httpMethod": "POST"}, version=2)
    hook["webhookId"] = str(uuid.uuid4())
    data = workflow(hook, set_node("B", "b", "={{ $json.body.x }}"), connect("Hook", "B"))
    data["pinData"] = {"Hook": [{"json": {"body": {"x": "from the pin"}}}]}
    workflow_id = live.import_workflow(data, activate=False)
    execution = run(live, workflow_id)
    assert execution["started"]["waitingForWebhook"] is False
    assert output(execution, "B")[0]["b"] == "from the pin"


def test_trigger_to_start_from_picks_the_manual_trigger_of_a_workflow_that_also_has_a_webhook(
    live: LiveServer,
) -> None:
    hook = node("Hook", "n8n-nodes-base.webhook", {"path": uuid.uuid4().hex, "httpMethod": "POST"}, version=2)
    hook["webhookId"] = str(uuid.uuid4())
    data = workflow(
        hook, node("Start", "n8n-nodes-base.manualTrigger"), set_node("B", "b", "manual"), connect("Hook", "B"),
        connect("Start", "B"),
    )  # fmt: skip
    workflow_id = live.import_workflow(data, activate=False)
    listening = live.client.post(f"/rest/workflows/{workflow_id}/run", json={}).json()["data"]
    assert listening["waitingForWebhook"] is True and not live.executions(workflow_id)
    execution = run(live, workflow_id, {"triggerToStartFrom": {"name": "Start"}})
    assert execution["started"]["waitingForWebhook"] is False
    assert sorted(run_data(execution)) == ["B", "Start"]


def test_executing_a_trigger_as_a_step_listens_with_that_trigger_alone(live: LiveServer) -> None:
    """n8n's "Execute step" on a trigger with a test URL: it listens (its earlier output is not reused)."""
    form_path, hook_path = uuid.uuid4().hex, uuid.uuid4().hex
    form = node("Form", "n8n-nodes-base.formTrigger", {"path": form_path, "formFields": {"values": []}}, version=2.3)
    hook = node("Hook", "n8n-nodes-base.webhook", {"path": hook_path, "httpMethod": "POST"}, version=2)
    data = workflow(form, hook, set_node("B", "b", "x"), connect("Form", "B"), connect("Hook", "B"))
    workflow_id = live.import_workflow(data, activate=False)
    earlier = {"Form": [{"startTime": 0, "executionTime": 0, "source": [], "data": {"main": [[{"json": {}}]]}}]}
    body = {"destinationNode": {"nodeName": "Form", "mode": "inclusive"}, "runData": earlier}
    listening = live.client.post(f"/rest/workflows/{workflow_id}/run", json=body).json()["data"]
    assert listening["waitingForWebhook"] is True
    assert listening["testUrls"] == [f"{live.url}/form-test/{form_path}"]
    assert httpx.post(f"{live.url}/webhook-test/{hook_path}", timeout=TIMEOUT).status_code == 404
    assert not live.executions(workflow_id)


def test_the_push_event_of_a_failed_node_carries_message_and_description(live: LiveServer) -> None:
    error = '{"message": "Order 42 is locked", "description": "Unlock it in the shop first."}'
    fail = node("Fail", "n8n-nodes-base.stopAndError", {"errorType": "errorObject", "errorObject": error})
    data = workflow(node("Start", "n8n-nodes-base.manualTrigger"), fail, connect("Start", "Fail"))
    workflow_id = live.import_workflow(data, activate=False)
    started = live.client.post(f"/rest/workflows/{workflow_id}/run", params={"wait": "false"}).json()["data"]
    with live.client.stream("GET", "/rest/push", params={"executionId": started["executionId"]}) as stream:
        lines = [line for line in stream.iter_lines() if line.startswith("data:")]
    events = [httpx.Response(200, content=line[5:]).json() for line in lines]
    [after] = [e for e in events if e["type"] == "nodeExecuteAfter" and e["data"]["nodeName"] == "Fail"]
    assert after["data"]["error"] == {"message": "Order 42 is locked", "description": "Unlock it in the shop first."}


# ---------------------------------------------------------------------- waiting executions


def wait_workflow() -> dict[str, Any]:
    wait = node("Wait", "n8n-nodes-base.wait", {"resume": "webhook", "httpMethod": "POST"}, version=1.1)
    wait["webhookId"] = str(uuid.uuid4())
    return workflow(
        node("Start", "n8n-nodes-base.manualTrigger"), wait, set_node("After", "done", "yes"), connect("Start", "Wait"),
        connect("Wait", "After"),
    )  # fmt: skip


def waiting(live: LiveServer, execution_id: str, client: httpx.Client | None = None) -> httpx.Response:
    return (client or live.client).get(f"/rest/executions/{execution_id}/waiting")


def test_a_waiting_wait_node_gives_its_signed_resume_url(live: LiveServer) -> None:
    workflow_id = live.import_workflow(wait_workflow(), activate=False)
    execution = run(live, workflow_id)
    assert execution["status"] == "waiting"
    info = waiting(live, execution["id"]).json()["data"]
    assert info["nodeName"] == "Wait" and info["approval"] is None and info["waitTill"].startswith("3000-01-01")
    url = urlsplit(info["resumeUrl"])
    assert url.path == f"/webhook-waiting/{execution['id']}" and re.fullmatch(r"signature=[0-9a-f]{64}", url.query)
    assert live.client.post(info["resumeUrl"], json={"ok": 1}).status_code == 200
    done = live.wait_status(execution["id"], "success")
    assert output(done, "After")[0]["done"] == "yes"
    assert waiting(live, execution["id"]).status_code == 404  # no longer waiting


def test_waiting_links_are_behind_the_login_and_for_their_execution_only(live: LiveServer) -> None:
    workflow_id = live.import_workflow(wait_workflow(), activate=False)
    first, second = run(live, workflow_id), run(live, workflow_id)
    with httpx.Client(base_url=live.url, timeout=TIMEOUT) as stranger:
        assert waiting(live, first["id"], stranger).status_code == 401
    assert waiting(live, "999999999").status_code == 404
    link = waiting(live, first["id"]).json()["data"]["resumeUrl"]
    forged = link.replace(f"/webhook-waiting/{first['id']}", f"/webhook-waiting/{second['id']}")
    assert live.client.post(forged, json={}).status_code == 401  # its signature signs the first execution only
    assert live.execution(second["id"])["status"] == "waiting"
    finished = run(live, live.import_workflow(chain_workflow(), activate=False))
    assert waiting(live, finished["id"]).status_code == 404


@pytest.fixture
def smtp() -> Iterator[SmtpCaptureServer]:
    with SmtpCaptureServer() as server:
        yield server


def approval_workflow(live: LiveServer, smtp: SmtpCaptureServer) -> dict[str, Any]:
    """Start → Send Email (send and wait for approval, Approve / Decline) → After; its SMTP credential created."""
    credential = {"host": "127.0.0.1", "port": smtp.port, "secure": False, "disableStartTls": True, "user": ""}
    name = f"smtp-{uuid.uuid4().hex[:6]}"
    created = live.client.post("/rest/credentials", json={"name": name, "type": "smtp", "data": credential})
    assert created.status_code == 201, created.text
    parameters = {
        "operation": "sendAndWait",
        "fromEmail": "bot@example.com",
        "toEmail": "boss@example.com",
        "subject": "Approve?",
        "message": "Refund order 42",
        "approvalOptions": {"values": {"approvalType": "double"}},
        "options": {},
    }
    email = node("Send Email", "n8n-nodes-base.emailSend", parameters, version=2.1, id=str(uuid.uuid4()))
    email["credentials"] = {"smtp": {"id": created.json()["data"]["id"], "name": name}}
    email["webhookId"] = str(uuid.uuid4())
    data = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"), email, set_node("After", "answer", "={{ $json.data.approved }}"),
        connect("Start", "Send Email"), connect("Send Email", "After"),
    )  # fmt: skip
    data["name"] = f"approval-{uuid.uuid4().hex[:8]}"
    return data


def test_an_approval_request_gives_the_mails_links(live: LiveServer, smtp: SmtpCaptureServer) -> None:
    workflow_id = live.import_workflow(approval_workflow(live, smtp), activate=False)
    execution = run(live, workflow_id)
    assert execution["status"] == "waiting"
    info = waiting(live, execution["id"]).json()["data"]
    approval = info["approval"]
    assert info["nodeName"] == "Send Email" and approval["message"] == "Refund order 42"
    [mail] = smtp.messages
    links = {html.unescape(href) for href in re.findall(r'href="([^"]+)"', mail.body("html"))}
    assert {approval["approveUrl"], approval["declineUrl"]} <= links
    answered = live.client.get(approval["approveUrl"], headers={"user-agent": BROWSER_UA})
    assert answered.status_code == 200
    done = live.wait_status(execution["id"], "success")
    assert output(done, "After")[0]["answer"] == "true"


def test_a_hitl_tools_request_gives_the_chats_approve_and_decline_links(live: LiveServer) -> None:
    from tests.hitl._workflows import message, refund_call, refund_workflow

    data, webhook_id = refund_workflow([{"toolCalls": [refund_call("42")]}, "Done: {{last_tool_result}}"])
    live.instance.store.workflows.import_workflow(data, activate=True)
    asked = live.client.post(f"/webhook/{webhook_id}/chat", json=message("Please refund order 42"))
    assert asked.status_code == 200, asked.text
    buttons = {b["text"]: b["link"] for b in asked.json()["message"]["buttons"]}
    # the chat gets the buttons as the approval starts waiting; the waiting execution is saved just after
    [execution_id] = wait_for(lambda: [r["id"] for r in live.executions(data["id"]) if r["status"] == "waiting"])
    info = waiting(live, execution_id).json()["data"]
    assert info["approval"] == {"approveUrl": buttons["Approve"], "declineUrl": buttons["Decline"], "message": None}
    assert live.client.post(info["approval"]["declineUrl"]).status_code == 200
    done = live.wait_status(execution_id, "success")
    assert run_data(done)["Approve"][0]["data"]["ai_tool"][0][0]["json"]["data"]["approved"] is False
