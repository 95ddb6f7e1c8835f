"""Slack Trigger: the Events API's calls, signed with the app's signing secret, on a real server."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from typing import Any

import httpx
from tests.library.triggers.conftest import activate, add_credential, create_workflow, output
from tests.server.conftest import LiveServer, wait_for

from weft.testing.fake_api import FakeApiServer

NODE = "Slack Trigger"
SECRET = "8f742231b10e8888abcd99yyyzzz85a5"


def _workflow(server: LiveServer, **parameters: Any) -> dict[str, Any]:
    credential = add_credential(server, "slackApi", {"accessToken": "xoxb-test", "signatureSecret": SECRET})
    node = {
        "name": NODE,
        "type": "n8n-nodes-base.slackTrigger",
        "typeVersion": 1,
        "parameters": {
            "trigger": ["message"],
            "channelId": {"__rl": True, "mode": "id", "value": "C1"},
            "options": {},
            **parameters,
        },
        "credentials": {"slackApi": credential},
    }
    workflow = create_workflow(server, node)
    assert activate(server, workflow["id"]).status_code == 200
    return workflow


def _post(server: LiveServer, workflow: dict[str, Any], body: dict[str, Any], secret: str = SECRET) -> httpx.Response:
    raw = json.dumps(body).encode()
    stamp = str(int(time.time()))
    signature = "v0=" + hmac.new(secret.encode(), f"v0:{stamp}:".encode() + raw, hashlib.sha256).hexdigest()
    headers = {"content-type": "application/json", "x-slack-request-timestamp": stamp, "x-slack-signature": signature}
    url = f"{server.url}/webhook/{workflow['nodes'][0]['webhookId']}/webhook"
    return server.client.post(url, content=raw, headers=headers)


def test_the_url_verification_challenge_is_answered(server: LiveServer, fake: FakeApiServer) -> None:
    workflow = _workflow(server)
    answer = _post(
        server,
        workflow,
        {"type": "url_verification", "challenge": "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P"},
    )
    assert answer.status_code == 200
    assert answer.json() == {"challenge": "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P"}
    assert server.executions(workflow["id"]) == []


def test_an_unsigned_or_forged_call_is_refused(server: LiveServer, fake: FakeApiServer) -> None:
    workflow = _workflow(server)
    event = {"type": "event_callback", "event": {"type": "message", "channel": "C1", "text": "forged"}}
    assert _post(server, workflow, event, secret="not-the-secret").status_code == 401
    url = f"{server.url}/webhook/{workflow['nodes'][0]['webhookId']}/webhook"
    unsigned = server.client.post(url, json=event)
    assert unsigned.status_code == 401
    assert unsigned.text == "Unauthorized"
    stale = {"x-slack-request-timestamp": str(int(time.time()) - 3600), "x-slack-signature": "v0=00"}
    assert server.client.post(url, json=event, headers=stale).status_code == 401
    assert server.executions(workflow["id"]) == []


def test_events_of_the_watched_channel_start_executions(server: LiveServer, fake: FakeApiServer) -> None:
    workflow = _workflow(server)
    other = {"type": "event_callback", "event": {"type": "message", "channel": "C2", "text": "elsewhere"}}
    skipped = _post(server, workflow, other)
    assert skipped.status_code == 200
    assert skipped.json() == {"message": "Webhook call received"}
    reaction = {"type": "event_callback", "event": {"type": "reaction_added", "item": {"channel": "C1"}}}
    assert _post(server, workflow, reaction).json() == {"message": "Webhook call received"}
    event = {"type": "event_callback", "event": {"type": "message", "channel": "C1", "user": "U1", "text": "hello"}}
    started = _post(server, workflow, event)
    assert started.json() == {"message": "Workflow was started"}
    rows = wait_for(lambda: server.executions(workflow["id"]))
    assert len(rows) == 1 and rows[0]["mode"] == "webhook"
    assert output(server, rows[0]["id"], NODE) == [event["event"]]
