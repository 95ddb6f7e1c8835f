"""Github Trigger: hook registration, signed deliveries, forged signatures and deletion, on a real server."""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

import httpx
from tests.library.triggers.conftest import activate, add_credential, create_workflow, output, static_data
from tests.server.conftest import LiveServer, wait_for

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer

NODE = "Github Trigger"
HOST = "api.github.com"


def _install(fake: FakeApiServer) -> dict[str, Any]:
    hooks: dict[str, Any] = {}

    def create(request: ApiRequest) -> ApiReply:
        body = request.body if isinstance(request.body, dict) else {}
        hooks["7"] = {**body, "id": 7}
        return ApiReply(status=201, body={"id": 7, "active": True, "events": body.get("events")})

    def remove(request: ApiRequest) -> ApiReply:
        hooks.pop(request.params["id"], None)
        return ApiReply(status=204, text="")

    fake.route("POST", r"/repos/octo/demo/hooks", create, host=HOST)
    fake.route("DELETE", r"/repos/octo/demo/hooks/(?P<id>\d+)", remove, host=HOST)
    return hooks


def _workflow(server: LiveServer) -> dict[str, Any]:
    credential = add_credential(server, "githubApi", {"accessToken": "token", "server": f"https://{HOST}"})
    node = {
        "name": NODE,
        "type": "n8n-nodes-base.githubTrigger",
        "typeVersion": 1,
        "parameters": {
            "owner": {"__rl": True, "mode": "name", "value": "octo"},
            "repository": {"__rl": True, "mode": "name", "value": "demo"},
            "events": ["push"],
            "options": {},
        },
        "credentials": {"githubApi": credential},
    }
    return create_workflow(server, node)


def _post(server: LiveServer, workflow: dict[str, Any], payload: dict[str, Any], secret: str) -> httpx.Response:
    raw = json.dumps(payload).encode()
    signature = "sha256=" + hmac.new(secret.encode(), raw, hashlib.sha256).hexdigest()
    headers = {"X-Hub-Signature-256": signature, "Content-Type": "application/json", "X-GitHub-Event": "push"}
    node = workflow["nodes"][0]
    return server.client.post(f"{server.url}/webhook/{node['webhookId']}/webhook", content=raw, headers=headers)


def test_hook_registered_signed_push_runs_forgery_refused_and_hook_deleted(
    server: LiveServer, fake: FakeApiServer
) -> None:
    hooks = _install(fake)
    workflow = _workflow(server)
    assert activate(server, workflow["id"]).status_code == 200
    config = hooks["7"]["config"]
    node = workflow["nodes"][0]
    assert config["url"] == f"{server.url}/webhook/{node['webhookId']}/webhook"
    assert (config["content_type"], config["insecure_ssl"], hooks["7"]["events"]) == ("json", "0", ["push"])
    secret = config["secret"]
    assert static_data(server, workflow["id"])[f"node:{NODE}"]["webhookId"] == 7

    forged = _post(server, workflow, {"ref": "refs/heads/main"}, "not-the-secret")
    assert (forged.status_code, forged.text) == (401, "Unauthorized")
    assert _post(server, workflow, {"hook_id": 7, "zen": "Keep it simple."}, secret).text == "OK"
    assert server.executions(workflow["id"]) == []

    started = _post(server, workflow, {"ref": "refs/heads/main"}, secret)
    assert started.json() == {"message": "Workflow was started"}
    rows = wait_for(lambda: server.executions(workflow["id"]))
    item = output(server, rows[0]["id"], NODE)[0]
    assert item["body"]["ref"] == "refs/heads/main"
    assert item["headers"]["x-github-event"] == "push"

    assert server.client.post(f"/rest/workflows/{workflow['id']}/deactivate").status_code == 200
    assert hooks == {}
    assert any(r.method == "DELETE" and r.path == "/repos/octo/demo/hooks/7" for r in fake.requests)
