"""The chat approval flow compared with what a live n8n 2.41.1 did (``n8n_2.41_chat_hitl.json``, recorded with
``_record_n8n.py``): cases a240 (approved) and a241 (declined), the workflows of ``n8n/`` run unchanged on a
real Weft server with the same scripted OpenAI-compatible model.

Compared: the tools and messages the model got, and each run of the agent, the chat HITL node and the gated
tool (status, items, source, input). Deliberate differences (docs/differences.md): the chat's HTTP answer carries
the question (n8n pushes it over a WebSocket and answers ``{executionStarted, executionId}``), links name the
tool call instead of the node and share the execution's signature, the Reply Chat node does not wait for the
chat to fetch its message, and a used link gets 409 instead of n8n's "no action required" page.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from tests.recorded._normalize import normalize_requests
from tests.server.conftest import LiveServer, wait_for

from weft.testing import OracleOpenAIServer

HERE = Path(__file__).parent
N8N = json.loads((HERE / "n8n_2.41_chat_hitl.json").read_text(encoding="utf-8"))
SCRIPT = json.loads((HERE / "n8n" / "llm_script.json").read_text(encoding="utf-8"))
BUTTON = {"a240": "Approve", "a241": "Decline"}
COMPARED = ("AI Agent", "Approve", "Refund", "When chat message received")


def _items(outputs: Any) -> Any:
    if not isinstance(outputs, dict):
        return outputs
    return {kind: [[item.get("json") for item in branch or []] for branch in data] for kind, data in outputs.items()}


def _runs(run_data: dict[str, Any], node: str) -> list[dict[str, Any]]:
    return [
        {
            "executionStatus": task.get("executionStatus"),
            "data": _items(task.get("data")),
            "source": task.get("source"),
            "inputOverride": _items(task.get("inputOverride")),
        }
        for task in run_data.get(node, [])
    ]


def _timeless(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: "<time>" if k == "respondedAt" else _timeless(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_timeless(v) for v in value]
    return value


def _run_case(live: LiveServer, case: str, model: OracleOpenAIServer) -> dict[str, Any]:
    data = json.loads((HERE / "n8n" / f"{case}_workflow.json").read_text(encoding="utf-8"))
    data["id"] = uuid.uuid4().hex[:16]
    webhook_id = data["nodes"][0]["webhookId"] = str(uuid.uuid4())
    for each in data["nodes"]:
        if "credentials" in each:
            each["credentials"]["openAiApi"]["id"] = f"accFakeOpenAi{case}"
    live.instance.store.workflows.import_workflow(data, activate=True)
    message = {"action": "sendMessage", "sessionId": f"s-{case}", "chatInput": "Please refund order 42"}
    answer = live.client.post(f"/webhook/{webhook_id}/chat", json=message).json()
    link = next(b["link"] for b in answer["message"]["buttons"] if b["text"] == BUTTON[case])
    rows = wait_for(lambda: [r for r in live.executions(data["id"]) if r["status"] == "waiting"])
    waiting = live.client.get(f"/rest/executions/{rows[0]['id']}", params={"includeData": True}).json()["data"]
    assert live.client.get(link).status_code == 200
    live.wait_status(rows[0]["id"], "success")
    done = live.client.get(f"/rest/executions/{rows[0]['id']}", params={"includeData": True}).json()["data"]
    return {"waiting": waiting["data"]["resultData"]["runData"], "finished": done["data"]["resultData"]["runData"]}


@pytest.mark.parametrize("case", ["a240", "a241"])
def test_the_chat_approval_flow_matches_n8n(live: LiveServer, case: str) -> None:
    with OracleOpenAIServer(SCRIPT) as model:
        live.instance.store.credentials.create(
            "Fake OpenAI (acceptance)",
            "openAiApi",
            {"apiKey": "sk-test", "url": model.base_url},
            id=f"accFakeOpenAi{case}",
        )
        recorded = N8N[case]
        ours = _run_case(live, case, model)
        # the recording kept each request's tools and messages only
        kept = [{"request": {k: e["request"].get(k) for k in ("tools", "messages")}} for e in model.log]
        assert normalize_requests(kept) == normalize_requests([{"request": r} for r in recorded["model_requests"]])
    waiting_gate = _runs(ours["waiting"], "Approve")
    assert _timeless(waiting_gate) == _timeless(_runs(recorded["waiting"]["runData"], "Approve"))
    [sent] = [item["sendMessage"] for item in ours["waiting"]["Approve"][0]["data"]["ai_tool"][0]]
    [n8n_sent] = [item["sendMessage"] for item in recorded["waiting"]["runData"]["Approve"][0]["data"]["ai_tool"][0]]
    labels = [(b["text"], b["type"]) for b in sent["buttons"]]
    assert {**sent, "buttons": labels} == {**n8n_sent, "buttons": [(b["text"], b["type"]) for b in n8n_sent["buttons"]]}
    for node in COMPARED:
        assert _timeless(_runs(ours["finished"], node)) == _timeless(_runs(recorded["finished"]["runData"], node)), node
