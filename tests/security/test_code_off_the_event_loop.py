"""User code never runs on the event loop: while four Code nodes (four Set expressions, four Sorts by code) spin in
``while (true) {}``, the server still answers a webhook, and the loops end at their time limit. (How fast it
answers is measured by the bench ``bench/bench_code_isolation.py``; this test only asserts that it answers before
the loops end.)"""

from __future__ import annotations

import json
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest

from .conftest import TIMEOUT, Server

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


_SPIN_CODE = {
    "type": "n8n-nodes-base.code",
    "typeVersion": 2,
    "parameters": {"jsCode": "while (true) {}"},
}
_SPIN_SORT = {  # the comparator only runs for two items or more: a Code node makes them
    "type": "n8n-nodes-base.sort",
    "typeVersion": 1,
    "parameters": {"type": "code", "code": "while (true) {}\nreturn 0;"},
    "_before": {
        "type": "n8n-nodes-base.code",
        "typeVersion": 2,
        "parameters": {"jsCode": "return [{json: {n: 1}}, {json: {n: 2}}];"},
    },
}
_SPIN_EXPRESSION = {
    "type": "n8n-nodes-base.set",
    "typeVersion": 3.4,
    "parameters": {
        "assignments": {
            "assignments": [
                {"id": "a1", "name": "x", "type": "string", "value": "={{ (() => { while (true) {} })() }}"}
            ]
        },
        "options": {},
    },
}


def _spinning_workflow(path: str, spinner: dict[str, Any]) -> dict[str, Any]:
    spinner = dict(spinner)
    before = spinner.pop("_before", None)
    data = _webhook_then(path, spinner)
    if before is not None:  # Webhook → Before → Spin
        data["nodes"].append({"name": "Before", "position": [100, 0], **before})
        data["connections"] = {
            "Webhook": {"main": [[{"node": "Before", "type": "main", "index": 0}]]},
            "Before": {"main": [[{"node": "Spin", "type": "main", "index": 0}]]},
        }
    return data


def _webhook_then(path: str, spinner: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": uuid.uuid4().hex[:16],
        "name": f"spin {path}",
        "settings": {"executionOrder": "v1"},
        "nodes": [
            {
                "name": "Webhook",
                "type": "n8n-nodes-base.webhook",
                "typeVersion": 2,
                "position": [0, 0],
                "webhookId": str(uuid.uuid4()),
                "parameters": {"path": path, "httpMethod": "POST", "responseMode": "lastNode", "options": {}},
            },
            {"name": "Spin", "position": [200, 0], **spinner},
        ],
        "connections": {"Webhook": {"main": [[{"node": "Spin", "type": "main", "index": 0}]]}},
    }


def _webhook_example(path: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / "webhook_set_respond.json").read_text())
    data["id"] = uuid.uuid4().hex[:16]
    for node in data["nodes"]:
        if node["type"] == "n8n-nodes-base.webhook":
            node["parameters"]["path"] = path
            node["webhookId"] = str(uuid.uuid4())
    return data


@pytest.mark.parametrize(
    "spinner", [_SPIN_CODE, _SPIN_EXPRESSION, _SPIN_SORT], ids=["code", "expression", "sort-by-code"]
)
def test_a_webhook_answers_while_four_nodes_spin(server: Server, spinner: dict[str, Any]) -> None:
    spin, quick = f"spin-{uuid.uuid4().hex[:8]}", f"quick-{uuid.uuid4().hex[:8]}"
    server.import_workflow(_spinning_workflow(spin, spinner))
    server.import_workflow(_webhook_example(quick))
    ended: list[float] = []

    def call_spin() -> None:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            client.post(f"/webhook/{spin}", json={})  # answers once its Code node has hit the time limit
        ended.append(time.monotonic())

    spinners = [threading.Thread(target=call_spin, daemon=True) for _ in range(4)]
    for thread in spinners:
        thread.start()
    time.sleep(0.5)  # the four Code nodes are spinning now
    with httpx.Client(base_url=server.url, timeout=TIMEOUT) as client:
        answer = client.post(f"/webhook/{quick}", json={"a": 2, "b": 3, "name": "bench", "tags": ["x", "y", "z"]})
    answered = time.monotonic()
    assert answer.status_code == 200
    assert answer.json() == {"total": 5, "greeting": "Hello BENCH", "tagCount": 3}
    for thread in spinners:
        thread.join(60)
    assert len(ended) == 4 and answered < min(ended)
