"""What the "Send and Wait for Response" tests of the services share: a Webhook → service node workflow with a
stored credential, the execution brought to its wait, a link clicked as a browser, the item the resumed node
outputs."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
from tests.server.conftest import LiveServer, wait_for

BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36"


def approval_workflow(
    live: LiveServer,
    path: str,
    *,
    node_type: str,
    version: float,
    credential: tuple[str, dict[str, Any]],
    params: dict[str, Any],
    node_id: str,
) -> dict[str, Any]:
    """Webhook (POST ``path``) → "Ask" (``node_type`` with ``params``), its credential ``(type, data)`` stored first."""
    credential_type, data = credential
    created = live.client.post("/rest/credentials", json={"name": f"{path}", "type": credential_type, "data": data})
    assert created.status_code == 201, created.text
    reference = {"id": created.json()["data"]["id"], "name": created.json()["data"]["name"]}
    return {
        "id": uuid.uuid4().hex[:16],
        "name": f"approval {path}",
        "settings": {"executionOrder": "v1"},
        "nodes": [
            {"id": str(uuid.uuid4()), "name": "Webhook", "type": "n8n-nodes-base.webhook", "typeVersion": 2,
             "position": [0, 0], "webhookId": str(uuid.uuid4()),
             "parameters": {"httpMethod": "POST", "path": path, "options": {}}},
            {"id": node_id, "name": "Ask", "type": node_type, "typeVersion": version, "position": [200, 0],
             "webhookId": str(uuid.uuid4()), "parameters": params, "credentials": {credential_type: reference}},
        ],
        "connections": {"Webhook": {"main": [[{"node": "Ask", "type": "main", "index": 0}]]}},
    }  # fmt: skip


def wait_for_approval(live: LiveServer, workflow: dict[str, Any], path: str, body: dict[str, Any]) -> dict[str, Any]:
    """Import and activate ``workflow``, call its webhook with ``body``; the execution once it waits."""
    workflow_id = live.import_workflow(workflow)
    live.client.post(f"/webhook/{path}", json=body)
    [execution] = wait_for(lambda: [e for e in live.executions(workflow_id) if e["status"] == "waiting"])
    return execution  # type: ignore[no-any-return]


def click(url: str) -> int:
    """Open a link as a browser does; the status code."""
    return httpx.get(url, headers={"user-agent": BROWSER}, timeout=10).status_code


def resumed_item(live: LiveServer, execution: dict[str, Any]) -> dict[str, Any]:
    """The item "Ask" outputs once the execution, resumed, succeeded."""
    done = live.wait_status(str(execution["id"]), "success")
    [item] = done["data"]["resultData"]["runData"]["Ask"][-1]["data"]["main"][0]
    return item  # type: ignore[no-any-return]


__all__ = ["BROWSER", "approval_workflow", "click", "resumed_item", "wait_for_approval"]
