"""The Call n8n Workflow Tool on a stored instance: the sub-workflow from the database, its inputs mapped with
``$fromAI``, its run stored as its own execution linked both ways, its failure a tool error the agent sees; under
an AI Agent 3.1 (the engine runs the tool) and 2.2 (the tool runs inside the agent). Real SQLite, a real
OpenAI-compatible scripted model on 127.0.0.1 (the recorded cases a170-a179 cover ``source: parameter``)."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from weft.ai.agent_catalog import agent_registry
from weft.ai.tools.workflow_tool import WAITING_PLACEHOLDER
from weft.db.store import Store
from weft.engine.irun import iso
from weft.services.import_export import open_store
from weft.services.prepared import prepare
from weft.services.runner import WorkflowRunner
from weft.services.waiting import claim_waiting
from weft.settings import Settings
from weft.testing import OracleOpenAIServer
from weft.testing.workflows import connect, node, workflow

from .conftest import recorded

LC = "@n8n/n8n-nodes-langchain."
CREDENTIAL = {"openAiApi": {"id": "fakeOpenAi000001", "name": "Fake OpenAI"}}
CHILD_ID = "wfToolChild00001"
PARENT_ID = "wfToolParent0001"
CITY = "={{ $fromAI('city', 'The city to look up', 'string') }}"
DAYS = "={{ $fromAI('days', 'How many days', 'number') }}"
MAPPING = {
    "mappingMode": "defineBelow",
    "value": {"city": CITY, "days": DAYS},
    "matchingColumns": [],
    "schema": [
        {"id": "city", "displayName": "city", "type": "string", "display": True, "removed": False},
        {"id": "days", "displayName": "days", "type": "number", "display": True, "removed": False},
    ],
}


def child(*, fail: bool = False) -> dict[str, Any]:
    trigger = node(
        "Start",
        "n8n-nodes-base.executeWorkflowTrigger",
        {"workflowInputs": {"values": [{"name": "city"}, {"name": "days", "type": "number"}]}},
        version=1.1,
    )
    if fail:
        body = node("Forecast", "n8n-nodes-base.stopAndError", {"errorMessage": "no forecast today"})
    else:
        forecast = "={{ 'sunny in ' + $json.city + ' for ' + $json.days + ' days' }}"
        assignments = {"assignments": [{"id": "f", "name": "forecast", "value": forecast, "type": "string"}]}
        body = node("Forecast", "n8n-nodes-base.set", {"assignments": assignments, "options": {}}, version=3.4)
    data = workflow(trigger, body, connect("Start", "Forecast"))
    return {**data, "id": CHILD_ID, "name": "forecast"}


PROMPT = {"promptType": "define", "text": "Weather?", "options": {}}


def parent(tool_version: float = 2.2, agent_version: float = 3.1) -> dict[str, Any]:
    tool_parameters = {
        "description": "Gets the weather forecast for a city.",
        "source": "database",
        "workflowId": {"__rl": True, "value": CHILD_ID, "mode": "id"},
        "workflowInputs": copy.deepcopy(MAPPING),
    }
    model = {"model": {"__rl": True, "value": "gpt-4o-mini", "mode": "list"}, "options": {}}
    data = workflow(
        node("Manual Trigger", "n8n-nodes-base.manualTrigger"),
        node(
            "AI Agent", LC + "agent", {"promptType": "define", "text": "Weather?", "options": {}}, version=agent_version
        ),
        node("Model", LC + "lmChatOpenAi", model, version=1.2, credentials=CREDENTIAL),
        node("Get Weather", LC + "toolWorkflow", tool_parameters, version=tool_version),
        connect("Manual Trigger", "AI Agent"),
        connect("Model", "AI Agent", type_="ai_languageModel"),
        connect("Get Weather", "AI Agent", type_="ai_tool"),
    )
    return {**data, "id": PARENT_ID, "name": "asks for the weather"}


SCRIPT = [
    {"tool_calls": [{"name": "Get_Weather", "arguments": {"city": "Paris", "days": 3}}]},
    {"content": "Forecast: {last_tool}"},
]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[tuple[Store, Settings]]:
    settings = Settings(user_folder=tmp_path, database_url=f"sqlite:///{tmp_path / 'weft.sqlite'}", encryption_key="k")
    opened = open_store(settings)
    yield opened, settings
    opened.close()


async def _run(store: tuple[Store, Settings], child_data: dict[str, Any], parent_data: dict[str, Any]) -> Any:
    db, settings = store
    db.workflows.create(child_data)
    runner = WorkflowRunner(db, settings, agent_registry())
    with OracleOpenAIServer(SCRIPT) as model:
        db.credentials.create(
            "Fake OpenAI", "openAiApi", {"apiKey": "sk-test", "url": model.base_url}, id="fakeOpenAi000001"
        )
        result = await runner.run(prepare(parent_data, runner.registry), mode="manual")
        await runner.drain(5)
        requests = [entry["request"] for entry in model.log]
    runner.close()
    return result, requests


def _children(db: Store, parent_id: str) -> list[Any]:
    return [e for e in db.executions.list() if e.parent_execution_id == parent_id]


async def test_database_sub_workflow_with_mapped_inputs_under_agent_v3(store: tuple[Store, Settings]) -> None:
    result, requests = await _run(store, child(), parent())
    tool = requests[0]["tools"][0]["function"]
    assert tool["name"] == "Get_Weather"
    assert tool["parameters"]["properties"] == {
        "city": {"type": "string", "description": "The city to look up"},
        "days": {"type": "number", "description": "How many days"},
    }
    assert json.loads(requests[1]["messages"][-1]["content"]) == [{"forecast": "sunny in Paris for 3 days"}]
    assert result.run["status"] == "success"
    db, _ = store
    (sub,) = _children(db, result.execution_id)
    stored = db.executions.get(sub.id)
    assert stored is not None and stored.data is not None
    assert (stored.mode, stored.status, stored.workflow_id) == ("integrated", "success", CHILD_ID)
    link = {"executionId": result.execution_id, "workflowId": PARENT_ID, "shouldResume": True}  # as 2.41.1
    assert stored.data["parentExecution"] == link
    tool_run = result.run["data"]["resultData"]["runData"]["Get Weather"][0]
    assert tool_run["metadata"]["subExecution"] == {"executionId": sub.id, "workflowId": CHILD_ID}


async def test_a_failing_sub_workflow_is_a_tool_error_the_agent_sees(store: tuple[Store, Settings]) -> None:
    result, requests = await _run(store, child(fail=True), parent())
    assert result.run["status"] == "success"
    tool_run = result.run["data"]["resultData"]["runData"]["Get Weather"][0]
    assert tool_run["executionStatus"] == "error" and tool_run["error"]["message"] == "no forecast today"
    assert json.loads(requests[1]["messages"][-1]["content"]) == [{"error": "no forecast today"}]  # as a173 (2.41.1)
    db, _ = store
    (sub,) = _children(db, result.execution_id)
    assert sub.status == "error"


async def test_under_agent_v2_the_tool_runs_inside_the_agent(store: tuple[Store, Settings]) -> None:
    result, requests = await _run(store, child(), parent(agent_version=2.2))
    assert json.loads(requests[1]["messages"][-1]["content"]) == [{"forecast": "sunny in Paris for 3 days"}]
    assert requests[1]["messages"][-1]["content"].startswith("[\n  {")  # n8n's JSON.stringify(…, null, 2)
    tool_run = result.run["data"]["resultData"]["runData"]["Get Weather"][0]
    assert tool_run["data"]["ai_tool"][0] == [
        {"json": {"forecast": "sunny in Paris for 3 days"}, "pairedItem": {"item": 0}}
    ]
    db, _ = store
    (sub,) = _children(db, result.execution_id)
    assert tool_run["metadata"] == {"subExecution": {"executionId": sub.id, "workflowId": CHILD_ID}}


async def test_a_missing_sub_workflow_names_its_id(store: tuple[Store, Settings]) -> None:
    data = parent()
    data["nodes"][3]["parameters"]["workflowId"]["value"] = "doesNotExist0001"
    result, requests = await _run(store, child(), data)
    tool_run = result.run["data"]["resultData"]["runData"]["Get Weather"][0]
    assert tool_run["error"]["message"] == "Workflow 'doesNotExist0001' does not exist"
    assert "doesNotExist0001" in requests[1]["messages"][-1]["content"]


def waiting_child() -> dict[str, Any]:
    """Start → Wait (resume by webhook) → Forecast, which reads the trigger's item."""
    data = child()
    wait = node("Wait", "n8n-nodes-base.wait", {"resume": "webhook", "options": {}}, version=1.1)
    forecast = "={{ 'sunny in ' + $('Start').item.json.city + ' for ' + $('Start').item.json.days + ' days' }}"
    data["nodes"][1]["parameters"]["assignments"]["assignments"][0]["value"] = forecast
    data["nodes"].append({**wait, "webhookId": "0b8c3c53-8a73-4a43-9d63-5d6f2b8a0c11"})
    data["connections"] = {
        "Start": {"main": [[{"node": "Wait", "type": "main", "index": 0}]]},
        "Wait": {"main": [[{"node": "Forecast", "type": "main", "index": 0}]]},
    }
    return data


async def test_a_waiting_sub_workflow_holds_the_agent_until_it_finishes(store: tuple[Store, Settings]) -> None:
    """As n8n 2.41.1: the execution waits with the tool's sub-workflow (the tool's result meanwhile is n8n's
    placeholder); resuming the child resumes the agent with the child's result."""
    db, settings = store
    db.workflows.create(waiting_child())
    runner = WorkflowRunner(db, settings, agent_registry())
    with OracleOpenAIServer(SCRIPT) as model:
        key = {"apiKey": "sk-test", "url": model.base_url}
        db.credentials.create("Fake OpenAI", "openAiApi", key, id=CREDENTIAL["openAiApi"]["id"])
        started = await runner.run(prepare(parent(), runner.registry), mode="manual")
        assert started.run["status"] == "waiting" and len(model.log) == 1
        tool_run = started.run["data"]["resultData"]["runData"]["Get Weather"][0]
        assert tool_run["executionStatus"] == "waiting"
        assert tool_run["data"]["ai_tool"][0][0]["json"] == WAITING_PLACEHOLDER
        (sub,) = _children(db, started.execution_id)
        claimed = await claim_waiting(runner, sub.id, check_signature=False)
        await runner.resume_claimed(claimed, resume_items=[{"json": {"body": {}}}])
        await runner.drain(10)
        requests = [entry["request"] for entry in model.log]
    runner.close()
    done = db.executions.get(started.execution_id)
    assert done is not None and done.status == "success" and done.data is not None
    assert json.loads(requests[1]["messages"][-1]["content"]) == [{"forecast": "sunny in Paris for 3 days"}]
    answer = done.data["resultData"]["runData"]["AI Agent"][0]["data"]["main"][0][0]["json"]["output"]
    assert answer == 'Forecast: [{"forecast":"sunny in Paris for 3 days"}]'


async def test_inside_an_older_agent_a_waiting_sub_workflow_is_a_tool_error(store: tuple[Store, Settings]) -> None:
    result, requests = await _run(store, waiting_child(), parent(agent_version=2.2))
    assert result.run["status"] == "success"
    tool_run = result.run["data"]["resultData"]["runData"]["Get Weather"][0]
    assert "cannot wait for" in tool_run["data"]["ai_tool"][0][0]["json"]["error"]
    assert "cannot wait for" in requests[1]["messages"][-1]["content"]


async def test_a_sub_workflow_failing_after_its_wait_is_a_tool_error(store: tuple[Store, Settings]) -> None:
    db, settings = store
    failing = waiting_child()
    failing["nodes"][1] = node("Forecast", "n8n-nodes-base.stopAndError", {"errorMessage": "storm"})
    db.workflows.create(failing)
    runner = WorkflowRunner(db, settings, agent_registry())
    with OracleOpenAIServer(SCRIPT) as model:
        key = {"apiKey": "sk-test", "url": model.base_url}
        db.credentials.create("Fake OpenAI", "openAiApi", key, id=CREDENTIAL["openAiApi"]["id"])
        started = await runner.run(prepare(parent(), runner.registry), mode="manual")
        (sub,) = _children(db, started.execution_id)
        await runner.resume_claimed(await claim_waiting(runner, sub.id, check_signature=False))
        await runner.drain(10)
        requests = [entry["request"] for entry in model.log]
    runner.close()
    done = db.executions.get(started.execution_id)
    assert done is not None and done.status == "success" and done.data is not None
    tool_runs = done.data["resultData"]["runData"]["Get Weather"]
    assert [(run["executionStatus"], run["error"]["message"]) for run in tool_runs] == [("error", "storm")]
    assert json.loads(requests[1]["messages"][-1]["content"]) == [{"error": "storm"}]


def _tool_run(run: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """A tool run as the recording keeps it: status, items' json, and the sub-execution links (ids → symbols)."""
    metadata = run.get("metadata") or {}
    return {
        "executionStatus": run["executionStatus"],
        "json": [item["json"] for item in run["data"]["ai_tool"][0]],
        "subExecution": names.get(str(metadata["subExecution"]["executionId"])),
        "waitingChildExecutionIds": [names.get(str(i)) for i in metadata["waitingChildExecutionIds"]],
    }


async def test_the_recorded_tool_wait_as_n8n_2_41(store: tuple[Store, Settings]) -> None:
    """n8n 2.41.1, recorded live (``n8n_2.41_tool_wait.json``): an AI Agent 3.1 whose Workflow Tool's sub-workflow
    waits; the parent waits until 2999-12-31 with the placeholder as the tool's result, and the child's resume
    finishes both, the model reading the child's result."""
    golden = recorded("n8n_2.41_tool_wait.json")
    db, settings = store
    db.workflows.create(recorded("n8n/tool_wait_child.json"))
    runner = WorkflowRunner(db, settings, agent_registry())
    with OracleOpenAIServer(recorded("n8n/tool_wait_llm_script.json")) as model:
        key = {"apiKey": "sk-test", "url": model.base_url}
        db.credentials.create("Fake OpenAI (acceptance)", "openAiApi", key, id="accFakeOpenAi0001")
        parent = prepare(recorded("n8n/tool_wait_parent.json"), runner.registry)
        started = await runner.run(parent, mode="webhook", trigger_items=[{"json": {"body": {}}}])
        (sub,) = _children(db, started.execution_id)
        names = {started.execution_id: "<parent>", sub.id: "<child>"}
        waiting = db.executions.get(started.execution_id)
        assert waiting is not None and waiting.data is not None
        expected = golden["waiting"]["parent"]
        assert (waiting.status, iso(waiting.wait_till)) == (expected["status"], expected["waitTill"])
        tool = waiting.data["resultData"]["runData"]["Get Weather"][0]
        golden_tool = expected["runData"]["Get Weather"][0]
        assert _tool_run(tool, names) == {**_tool_run(golden_tool, {"<child>": "<child>"})}
        link = db.executions.get(sub.id).data["parentExecution"]  # type: ignore[union-attr]
        assert {**link, "executionId": names[link["executionId"]]} == {
            k: v for k, v in golden["waiting"]["child"]["parentExecution"].items() if k != "executionContext"
        }
        resume_url = db.executions.get(sub.id).data["resultData"]["runData"]["Before"][0]  # type: ignore[union-attr]
        assert "/webhook-waiting/" in resume_url["data"]["main"][0][0]["json"]["resumeUrl"]
        claimed = await claim_waiting(runner, sub.id, check_signature=False)
        await runner.resume_claimed(claimed, resume_items=[{"json": {"body": {"answer": "yes"}}}])
        await runner.drain(10)
        requests = [entry["request"] for entry in model.log]
    runner.close()
    done = db.executions.get(started.execution_id)
    assert done is not None and done.data is not None and done.status == golden["finished"]["parent"]["status"]
    runs = done.data["resultData"]["runData"]
    finished = golden["finished"]["parent"]["runData"]
    assert _tool_run(runs["Get Weather"][0], names) == _tool_run(finished["Get Weather"][0], {"<child>": "<child>"})
    assert runs["AI Agent"][0]["data"]["main"][0][0]["json"] == finished["AI Agent"][0]["data"]["main"][0][0]["json"]
    assert [m["content"] for m in requests[1]["messages"] if m["role"] == "tool"] == [
        m["content"] for m in golden["model_requests"][1]["messages"] if m["role"] == "tool"
    ]
    assert (
        requests[0]["tools"][0]["function"]["parameters"]["properties"]
        == (golden["model_requests"][0]["tools"][0]["function"]["parameters"]["properties"])
    )
