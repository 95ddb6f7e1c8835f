"""Webhook registration with a service (n8n's ``webhookMethods``): a real server on 127.0.0.1, the Telegram Bot
API faked behind the HTTPS proxy; activation registers, a call of the webhook URL starts a stored execution,
deactivation deletes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.library.triggers.conftest import activate, add_credential, start_server, stop_server, trigger_workflow
from tests.server.conftest import LiveServer, wait_for

from weft.testing.fake_api import FakeApiServer
from weft.testing.trigger_fakes import telegram

pytest_plugins = ["tests.library.triggers.conftest"]


def _telegram(server: LiveServer, fake: FakeApiServer, version: float = 1.5) -> tuple[dict[str, Any], Any]:
    state = telegram.install(fake)
    credential = add_credential(server, "telegramApi", {"accessToken": telegram.TOKEN})
    node = {
        "name": "Telegram Trigger",
        "type": "n8n-nodes-base.telegramTrigger",
        "typeVersion": version,
        "parameters": {"updates": ["message"], "additionalFields": {}},
        "credentials": {"telegramApi": credential},
    }
    workflow = trigger_workflow(node)
    response = server.client.post("/rest/workflows", json=workflow)
    assert response.status_code in (200, 201), response.text
    return workflow, state


def _url(server: LiveServer, workflow: dict[str, Any]) -> str:
    return f"{server.url}/webhook/{workflow['nodes'][0]['webhookId']}/webhook"


def _secret(workflow: dict[str, Any]) -> str:
    return f"{workflow['id']}_{workflow['nodes'][0]['id']}"


def test_activation_registers_the_webhook_and_an_update_starts_an_execution(
    server: LiveServer, fake: FakeApiServer
) -> None:
    workflow, state = _telegram(server, fake)
    response = activate(server, workflow["id"])
    assert response.status_code == 200, response.text
    assert state.calls == ["getWebhookInfo", "setWebhook"]
    assert state.webhook["url"] == _url(server, workflow)
    assert state.webhook["allowed_updates"] == ["message", "callback_query"]
    assert state.webhook["drop_pending_updates"] is True
    secret = state.webhook["secret_token"]
    assert secret == _secret(workflow)

    update = {"update_id": 7, "message": {"message_id": 1, "chat": {"id": 42}, "from": {"id": 5}, "text": "hi"}}
    answer = server.client.post(_url(server, workflow), json=update, headers={telegram_header(): secret})
    assert answer.status_code == 200
    assert answer.json() == {"message": "Workflow was started"}
    rows = wait_for(lambda: [e for e in server.executions(workflow["id"]) if e["status"] == "success"])
    assert rows[0]["mode"] == "webhook"
    data = server.execution(rows[0]["id"])["data"]
    assert '"hi"' in str(data) or "hi" in str(data)

    assert server.client.post(f"/rest/workflows/{workflow['id']}/deactivate").status_code == 200
    assert state.calls[-1] == "deleteWebhook"
    assert state.webhook == {}
    gone = server.client.post(_url(server, workflow), json=update, headers={telegram_header(): secret})
    assert gone.status_code == 404


def telegram_header() -> str:
    return "X-Telegram-Bot-Api-Secret-Token"


def test_a_call_without_the_secret_token_is_refused_and_runs_nothing(server: LiveServer, fake: FakeApiServer) -> None:
    workflow, _ = _telegram(server, fake)
    assert activate(server, workflow["id"]).status_code == 200
    update = {"update_id": 8, "message": {"message_id": 2, "chat": {"id": 1}, "text": "forged"}}
    for headers in ({}, {telegram_header(): "guessed"}, {telegram_header(): _secret(workflow) + "x"}):
        answer = server.client.post(_url(server, workflow), json=update, headers=headers)
        assert answer.status_code == 403
        assert answer.json() == {"message": "Provided secret is not valid"}
    assert server.executions(workflow["id"]) == []


def test_an_existing_registration_is_not_set_again(server: LiveServer, fake: FakeApiServer) -> None:
    workflow, state = _telegram(server, fake)
    state.webhook = {"url": _url(server, workflow)}
    assert activate(server, workflow["id"]).status_code == 200
    assert state.calls == ["getWebhookInfo"]


def test_a_refused_registration_refuses_the_activation(server: LiveServer, fake: FakeApiServer) -> None:
    workflow, state = _telegram(server, fake)
    state.fail_set_webhook = True
    response = activate(server, workflow["id"])
    assert response.status_code == 400, response.text
    assert "HTTPS url must be provided" in response.text
    assert state.calls == ["getWebhookInfo", "setWebhook", "deleteWebhook"]
    stored = server.client.get(f"/rest/workflows/{workflow['id']}").json()["data"]
    assert stored["active"] is False
    assert server.client.post(_url(server, workflow), json={}).status_code == 404


def test_a_restarted_instance_registers_again_what_the_service_lost(tmp_path: Path, fake: FakeApiServer) -> None:
    first, thread = start_server(tmp_path)
    try:
        workflow, state = _telegram(first, fake)
        assert activate(first, workflow["id"]).status_code == 200
    finally:
        stop_server(first, thread)
    state.webhook = {}  # Telegram forgot it (or the instance moved)
    second, thread = start_server(tmp_path)  # a new server on the same database
    try:
        wait_for(lambda: state.webhook.get("url") == _url(second, workflow))
        assert state.calls[-2:] == ["getWebhookInfo", "setWebhook"]
        update = {"update_id": 9, "message": {"message_id": 3, "chat": {"id": 1}, "text": "back"}}
        answer = second.client.post(_url(second, workflow), json=update, headers={telegram_header(): _secret(workflow)})
        assert answer.json() == {"message": "Workflow was started"}
    finally:
        stop_server(second, thread)


def test_deleting_an_active_workflow_deletes_its_webhook_at_the_service(
    server: LiveServer, fake: FakeApiServer
) -> None:
    workflow, state = _telegram(server, fake)
    assert activate(server, workflow["id"]).status_code == 200
    assert server.client.delete(f"/rest/workflows/{workflow['id']}").status_code == 200
    assert state.calls[-1] == "deleteWebhook"
    assert state.webhook == {}
