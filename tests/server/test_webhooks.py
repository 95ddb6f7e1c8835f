"""Production and test webhooks through the real HTTP server: respond modes, 404/405, input item shape."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from weft.testing.workflows import connect, node, workflow

from .conftest import LiveServer, wait_for

BODY = {"a": 2, "b": 3, "name": "bench", "tags": ["x", "y", "z"]}


def hook(path: str, mode: str = "onReceived", method: str = "POST", **options: Any) -> dict[str, Any]:
    params = {"httpMethod": method, "path": path, "responseMode": mode, "options": options}
    return node("Webhook", "n8n-nodes-base.webhook", params, version=2.1, webhookId=f"id-{path}")


def test_w1_responds_from_the_respond_node_and_saves_the_execution(
    live: LiveServer, example: Callable[..., dict[str, Any]], path: str
) -> None:
    workflow_id = live.import_workflow(example("webhook_set_respond.json", path))
    response = live.client.post(f"/webhook/{path}", json=BODY)
    assert response.status_code == 200
    assert response.json() == {"total": 5, "greeting": "Hello BENCH", "tagCount": 3}
    assert response.headers["content-type"].startswith("application/json")
    rows = wait_for(lambda: [e for e in live.executions(workflow_id) if e["status"] == "success"])
    assert rows[0]["mode"] == "webhook"
    data = live.execution(rows[0]["id"])["data"]
    webhook_item = data["resultData"]["runData"]["Webhook"][0]["data"]["main"][0][0]["json"]
    assert webhook_item["body"] == BODY and webhook_item["executionMode"] == "production"
    assert webhook_item["webhookUrl"] == f"{live.url}/webhook/{path}"
    assert set(webhook_item) == {"headers", "params", "query", "body", "webhookUrl", "executionMode"}


def test_on_received_answers_at_once(live: LiveServer, path: str) -> None:
    data = workflow(hook(path), node("After", position=(200, 0)), connect("Webhook", "After"))
    workflow_id = live.import_workflow(data)
    response = live.client.post(f"/webhook/{path}", json={"x": 1}, params={"q": "1"})
    assert (response.status_code, response.json()) == (200, {"message": "Workflow was started"})
    wait_for(lambda: [e for e in live.executions(workflow_id) if e["status"] == "success"])


def test_last_node_answers_with_the_first_item_and_the_response_code(live: LiveServer, path: str) -> None:
    data = workflow(
        hook(path, "lastNode", responseCode={"values": {"responseCode": 201}}),
        node(
            "Set",
            "n8n-nodes-base.set",
            {"assignments": {"assignments": [{"name": "q", "value": "={{ $json.query.q }}", "type": "string"}]}},
            version=3.4,
            position=(200, 0),
        ),
        connect("Webhook", "Set"),
    )
    live.import_workflow(data)
    response = live.client.post(f"/webhook/{path}", json={}, params={"q": "hello"})
    assert (response.status_code, response.json()) == (201, {"q": "hello"})


def test_last_node_all_entries_and_error(live: LiveServer, path: str) -> None:
    data = workflow(hook(path, "lastNode", responseData="allEntries"))
    data["nodes"][0]["parameters"]["responseData"] = "allEntries"
    live.import_workflow(data)
    response = live.client.post(f"/webhook/{path}", json={"k": 1})
    assert response.status_code == 200 and response.json()[0]["body"] == {"k": 1}
    failing = unique_fail_path = path + "-fail"
    live.import_workflow(
        workflow(
            hook(unique_fail_path, "lastNode"),
            node("Fail", "n8n-nodes-base.stopAndError", {"errorMessage": "no"}, position=(200, 0)),
            connect("Webhook", "Fail"),
        )
    )
    response = live.client.post(f"/webhook/{failing}", json={})
    assert (response.status_code, response.json()) == (500, {"message": "Error in workflow"})


def respond(respond_with: str, **params: Any) -> dict[str, Any]:
    return node(
        "Respond",
        "n8n-nodes-base.respondToWebhook",
        {"respondWith": respond_with, **params},
        version=1.5,
        position=(200, 0),
    )


def test_respond_modes(live: LiveServer, path: str) -> None:
    cases = [
        (respond("text", responseBody="={{ 'hi ' + $json.body.n }}"), 200, "hi 7", "text/html"),
        (respond("noData", options={"responseCode": 204}), 204, "", None),
        (
            respond("allIncomingItems", options={"responseHeaders": {"entries": [{"name": "X-Weft", "value": "1"}]}}),
            200,
            None,
            "application/json",
        ),
        (respond("json", responseBody='{"ok": true}', options={"responseCode": 202}), 202, '{"ok":true}', None),
    ]
    for index, (respond_node, status, text, content_type) in enumerate(cases):
        case_path = f"{path}-{index}"
        live.import_workflow(workflow(hook(case_path, "responseNode"), respond_node, connect("Webhook", "Respond")))
        response = live.client.post(f"/webhook/{case_path}", json={"n": 7})
        assert response.status_code == status, (index, response.text)
        if text is not None:
            assert response.text == text
        if content_type is not None:
            assert response.headers["content-type"].startswith(content_type)
    assert response.headers["content-type"].startswith("application/json")


def test_redirect_and_all_items_header(live: LiveServer, path: str) -> None:
    live.import_workflow(
        workflow(
            hook(path, "responseNode", "GET"),
            respond("redirect", redirectURL="https://n8n.io/"),
            connect("Webhook", "Respond"),
        )
    )
    response = live.client.get(f"/webhook/{path}")
    assert response.status_code == 307 and response.headers["location"] == "https://n8n.io/"


def test_unknown_path_is_404_and_wrong_method_405(live: LiveServer, path: str) -> None:
    response = live.client.post(f"/webhook/{path}-nobody", json={})
    assert response.status_code == 404
    assert response.json()["message"] == f'The requested webhook "POST {path}-nobody" is not registered.'
    assert "must be active" in response.json()["hint"]
    live.import_workflow(workflow(hook(path)))
    response = live.client.get(f"/webhook/{path}")
    assert response.status_code == 405 and "POST" in response.json()["hint"]


def test_inactive_workflow_does_not_listen_and_deactivate_stops_it(live: LiveServer, path: str) -> None:
    workflow_id = live.import_workflow(workflow(hook(path)), activate=False)
    assert live.client.post(f"/webhook/{path}").status_code == 404
    assert live.client.post(f"/rest/workflows/{workflow_id}/activate").status_code == 200
    assert live.client.post(f"/webhook/{path}").status_code == 200
    assert live.client.post(f"/rest/workflows/{workflow_id}/deactivate").status_code == 200
    assert live.client.post(f"/webhook/{path}").status_code == 404


def test_path_parameters(live: LiveServer, path: str) -> None:
    data = workflow(hook("users/:id", "lastNode", "GET"))
    data["nodes"][0]["webhookId"] = path
    live.import_workflow(data)
    response = live.client.get(f"/webhook/{path}/users/42")
    assert response.status_code == 200 and response.json()["params"] == {"id": "42"}


def test_raw_and_binary_bodies(live: LiveServer, path: str) -> None:
    live.import_workflow(workflow(hook(path, "lastNode")))
    response = live.client.post(f"/webhook/{path}", content=b"\x00\x01", headers={"content-type": "image/png"})
    assert response.status_code == 200 and response.json()["body"] == {}
    raw = path + "-raw"
    live.import_workflow(workflow(hook(raw, "lastNode", responseData="firstEntryBinary", rawBody=True)))
    live_data = live.client.post(f"/webhook/{raw}", content=b"abc", headers={"content-type": "text/plain"})
    assert live_data.status_code == 200


def test_test_webhook_listens_for_one_call(live: LiveServer, path: str) -> None:
    workflow_id = live.import_workflow(workflow(hook(path, "lastNode")), activate=False)
    assert live.client.post(f"/webhook-test/{path}").status_code == 404
    started = live.client.post(f"/rest/workflows/{workflow_id}/run").json()["data"]
    assert started["waitingForWebhook"] and started["testUrls"] == [f"{live.url}/webhook-test/{path}"]
    response = live.client.post(f"/webhook-test/{path}", json={"t": 1})
    assert response.status_code == 200 and response.json()["executionMode"] == "test"
    assert live.client.post(f"/webhook-test/{path}").status_code == 404
    rows = wait_for(lambda: live.executions(workflow_id))
    assert rows[0]["mode"] == "manual"
