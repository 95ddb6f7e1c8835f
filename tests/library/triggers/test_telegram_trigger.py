"""Telegram Trigger: update filters, v1 (no secret token), and downloading a photo, on a real server."""

from __future__ import annotations

from typing import Any

import httpx
from tests.library.triggers.conftest import activate, add_credential, create_workflow, output
from tests.server.conftest import LiveServer, wait_for

from weft.testing.fake_api import FakeApiServer
from weft.testing.trigger_fakes import telegram

NODE = "Telegram Trigger"
HEADER = "X-Telegram-Bot-Api-Secret-Token"


def _workflow(server: LiveServer, version: float, **fields: Any) -> dict[str, Any]:
    credential = add_credential(server, "telegramApi", {"accessToken": telegram.TOKEN})
    node = {
        "name": NODE,
        "type": "n8n-nodes-base.telegramTrigger",
        "typeVersion": version,
        "parameters": {"updates": fields.pop("updates", ["*"]), "additionalFields": fields},
        "credentials": {"telegramApi": credential},
    }
    workflow = create_workflow(server, node)
    assert activate(server, workflow["id"]).status_code == 200
    return workflow


def _post(server: LiveServer, workflow: dict[str, Any], update: dict[str, Any], secret: bool = True) -> httpx.Response:
    node = workflow["nodes"][0]
    headers = {HEADER: f"{workflow['id']}_{node['id']}"} if secret else {}
    return server.client.post(f"{server.url}/webhook/{node['webhookId']}/webhook", json=update, headers=headers)


def _message(chat: int, user: int, **extra: Any) -> dict[str, Any]:
    return {"update_id": 1, "message": {"message_id": 1, "chat": {"id": chat}, "from": {"id": user}, **extra}}


def test_version_1_takes_updates_without_a_secret_and_sets_all_updates(server: LiveServer, fake: FakeApiServer) -> None:
    state = telegram.install(fake)
    workflow = _workflow(server, 1)
    assert state.webhook["allowed_updates"] == []
    assert state.webhook["drop_pending_updates"] is False
    assert _post(server, workflow, _message(1, 2, text="hi"), secret=False).status_code == 200
    assert wait_for(lambda: server.executions(workflow["id"]))


def test_chat_user_and_update_type_filters(server: LiveServer, fake: FakeApiServer) -> None:
    telegram.install(fake)
    workflow = _workflow(server, 1.5, updates=["message"], chatIds="10, 11", userIds="7")
    assert _post(server, workflow, _message(12, 7, text="other chat")).json() == {"message": "Webhook call received"}
    assert _post(server, workflow, _message(10, 8, text="other user")).json() == {"message": "Webhook call received"}
    edited = {"update_id": 2, "edited_message": {"chat": {"id": 10}, "from": {"id": 7}, "text": "edited"}}
    assert _post(server, workflow, edited).json() == {"message": "Webhook call received"}
    assert server.executions(workflow["id"]) == []
    assert _post(server, workflow, _message(11, 7, text="yes")).json() == {"message": "Workflow was started"}
    rows = wait_for(lambda: server.executions(workflow["id"]))
    assert output(server, rows[0]["id"], NODE)[0]["message"]["text"] == "yes"


def test_a_photo_is_downloaded_in_the_chosen_size(server: LiveServer, fake: FakeApiServer) -> None:
    telegram.install(fake)
    workflow = _workflow(server, 1.2, download=True, imageSize="medium")
    photo = [{"file_id": f"size{n}", "width": 90 * (n + 1)} for n in range(3)]
    assert _post(server, workflow, _message(1, 2, photo=photo)).status_code == 200
    rows = wait_for(lambda: [e for e in server.executions(workflow["id"]) if e["status"] == "success"])
    execution = server.execution(rows[0]["id"])
    item = execution["data"]["resultData"]["runData"][NODE][0]["data"]["main"][0][0]
    assert item["binary"]["data"]["fileName"] == "size1.png"
    assert fake.requests[-1].path == f"/file/bot{telegram.TOKEN}/photos/size1.png"
