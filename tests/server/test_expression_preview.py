"""``POST /rest/expressions/preview`` against the live server: the editor's live preview of an expression on the
node's input in an execution's run data, shown as n8n's editor shows it; errors are results, never a 500; the
sandbox holds; an execution of another workflow is refused."""

from __future__ import annotations

import dataclasses
import json
import uuid
from typing import Any

import httpx
import pytest

from weft.expressions import ExpressionLimits

from .conftest import LiveServer

DATA = {
    "name": "Ada",
    "n": 1,
    "ratio": 0.5,
    "ok": True,
    "obj": {"a": 1, "b": "x"},
    "list": [1, 2],
    "empty": "",
    "nul": None,
}


def _main(target: str) -> dict[str, Any]:
    return {"main": [[{"node": target, "type": "main", "index": 0}]]}


def _workflow() -> dict[str, Any]:
    """Manual Trigger → Data (Set, raw JSON) → Target (No Op); Lonely (No Op) is connected to nothing."""
    nodes = [
        {"name": "Start", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
        {
            "name": "Data",
            "type": "n8n-nodes-base.set",
            "typeVersion": 3.4,
            "parameters": {"mode": "raw", "jsonOutput": json.dumps(DATA), "options": {}},
        },
        {"name": "Target", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "parameters": {}},
        {"name": "Lonely", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "parameters": {}},
    ]
    for index, each in enumerate(nodes):
        each["id"] = str(uuid.uuid4())
        each["position"] = [index * 220, 0]
    return {
        "id": uuid.uuid4().hex[:16],
        "name": f"Preview {uuid.uuid4().hex[:8]}",
        "nodes": nodes,
        "connections": {"Start": _main("Data"), "Data": _main("Target")},
        "settings": {},
    }


@pytest.fixture
def ran(live: LiveServer) -> tuple[dict[str, Any], str]:
    """The workflow, imported and run once: its id and the execution's id."""
    workflow = _workflow()
    workflow_id = live.import_workflow(workflow, activate=False)
    workflow["id"] = workflow_id
    done = live.client.post(f"/rest/workflows/{workflow_id}/run").json()["data"]
    assert done["status"] == "success"
    return workflow, done["executionId"]


def _preview(live: LiveServer, workflow: dict[str, Any], expression: str, execution_id: str | None, **more: Any) -> Any:
    body = {"workflow": workflow, "nodeName": "Target", "expression": expression, "executionId": execution_id, **more}
    answer = live.client.post("/rest/expressions/preview", json=body)
    assert answer.status_code == 200, answer.text
    return answer.json()["data"]


@pytest.mark.parametrize(
    ("expression", "shown"),
    [
        ("={{ $json.name }}", "Ada"),
        ("={{ $json.n }}", "1"),
        ("={{ $json.ratio }}", "0.5"),
        ("={{ $json.ok }}", "true"),
        ("={{ $json.obj }}", '[Object: {"a": 1, "b": "x"}]'),
        ("={{ $json.list }}", "[Array: [1,2]]"),  # n8n spaces only `,"` and `":`
        ("={{ $json.empty }}", "[empty]"),
        ("={{ $json.nul }}", "null"),
        ("={{ $json.missing }}", "[undefined]"),
        ("=Hello {{ $json.name }}!", "Hello Ada!"),
        ("={{ $('Data').item.json.obj.b }}", "x"),
        ("={{ $input.all().length }}", "1"),
        ("={{ $('Start').isExecuted }}", "true"),
        ("just text", "just text"),
    ],
)
def test_the_preview_shows_the_value_on_the_nodes_input_as_n8n_does(
    live: LiveServer, ran: tuple[dict[str, Any], str], expression: str, shown: str
) -> None:
    workflow, execution_id = ran
    assert _preview(live, workflow, expression, execution_id) == {"result": shown, "error": None}


def test_the_preview_reads_the_workflow_as_edited_not_as_saved(
    live: LiveServer, ran: tuple[dict[str, Any], str]
) -> None:
    workflow, execution_id = ran
    edited = json.loads(json.dumps(workflow))
    edited["name"] = "Renamed in the editor"
    assert _preview(live, edited, "={{ $workflow.name }}", execution_id)["result"] == "Renamed in the editor"


def test_a_node_that_has_not_run_previews_on_its_parents_output(
    live: LiveServer, ran: tuple[dict[str, Any], str]
) -> None:
    workflow, execution_id = ran
    edited = json.loads(json.dumps(workflow))
    edited["nodes"].append({"name": "New", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "parameters": {}})
    edited["connections"]["Target"] = _main("New")
    body = {"workflow": edited, "nodeName": "New", "expression": "={{ $json.name }}", "executionId": execution_id}
    answer = live.client.post("/rest/expressions/preview", json=body).json()["data"]
    assert answer == {"result": "Ada", "error": None}


def test_without_an_execution_json_is_empty_and_other_nodes_ask_for_a_run(live: LiveServer) -> None:
    workflow = _workflow()
    assert _preview(live, workflow, "={{ $json.name }}", None) == {"result": "[undefined]", "error": None}
    answer = _preview(live, workflow, "={{ $('Data').item.json.name }}", None)
    assert answer["result"] == "[Execute node \u2018Data\u2019 for preview]"  # n8n's no_node_execution_data text
    assert answer["error"]["message"] == "Node 'Data' hasn't been executed"


def test_without_an_execution_the_pinned_data_of_the_parent_is_the_input(live: LiveServer) -> None:
    workflow = _workflow()
    workflow["pinData"] = {"Data": [{"json": {"name": "Pinned Ada"}}, {"json": {"name": "Pinned Bob"}}]}
    assert _preview(live, workflow, "={{ $json.name }}", None)["result"] == "Pinned Ada"
    assert _preview(live, workflow, "={{ $json.name }}", None, itemIndex=1)["result"] == "Pinned Bob"
    assert _preview(live, workflow, "={{ $('Data').all().length }}", None)["result"] == "2"


def test_a_node_that_did_not_run_in_the_execution_asks_for_its_run(
    live: LiveServer, ran: tuple[dict[str, Any], str]
) -> None:
    workflow, execution_id = ran
    answer = _preview(live, workflow, "={{ $('Lonely').first().json }}", execution_id)
    assert answer["result"] == "[Execute node \u2018Lonely\u2019 for preview]"
    assert answer["error"]["message"] == "Node 'Lonely' hasn't been executed"
    assert "unexecuted" in answer["error"]["description"]


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("={{ $json. }}", "invalid syntax"),
        ("={{ $('Nowhere').item.json }}", "Referenced node doesn't exist"),
        ("={{ (() => 1) }}", "this is a function, please add ()"),
    ],
)
def test_a_broken_expression_is_an_error_result_not_an_http_error(
    live: LiveServer, ran: tuple[dict[str, Any], str], expression: str, message: str
) -> None:
    workflow, execution_id = ran
    answer = _preview(live, workflow, expression, execution_id)
    assert answer["error"] is not None and answer["error"]["message"]
    assert message in answer["error"]["message"]
    assert answer["result"] == f"[{answer['error']['message']}]"


@pytest.mark.parametrize(
    "expression",
    [
        "={{ this.constructor.constructor('return process')().env }}",
        "={{ require('fs').readFileSync('/etc/passwd', 'utf8') }}",
        "={{ (function(){ return this })().process.env }}",
        "={{ $json.constructor.constructor('return globalThis')().process }}",
        "={{ import('fs') }}",
        "={{ $env.HOME }}",
    ],
)
def test_the_sandbox_holds_in_a_preview(live: LiveServer, ran: tuple[dict[str, Any], str], expression: str) -> None:
    workflow, execution_id = ran
    answer = _preview(live, workflow, expression, execution_id)
    assert "/root" not in answer["result"] and "root:x:0:0" not in answer["result"]
    assert answer["error"] is not None or answer["result"] in ("[undefined]", "null", "[Object: {}]")


def test_a_runaway_expression_ends_at_the_time_limit_with_an_error(
    live: LiveServer, ran: tuple[dict[str, Any], str]
) -> None:
    workflow, execution_id = ran
    runner = live.instance.runner
    before = runner.options
    runner.options = dataclasses.replace(before, expression_limits=ExpressionLimits(time_s=0.3))
    try:
        answer = _preview(live, workflow, "={{ (() => { while (true) {} })() }}", execution_id)
    finally:
        runner.options = before
    assert answer["error"] is not None
    assert _preview(live, workflow, "={{ $json.name }}", execution_id)["result"] == "Ada"  # the server goes on


def test_an_execution_of_another_workflow_is_refused(live: LiveServer, ran: tuple[dict[str, Any], str]) -> None:
    workflow, execution_id = ran
    other = _workflow()  # an attacker's workflow, naming the victim's execution
    other_id = live.import_workflow(other, activate=False)
    other["id"] = other_id
    body = {"workflow": other, "nodeName": "Target", "expression": "={{ $json.name }}", "executionId": execution_id}
    answer = live.client.post("/rest/expressions/preview", json=body)
    assert answer.status_code == 404, answer.text
    assert "Ada" not in answer.text
    anonymous_id = {**other, "id": None}
    assert live.client.post("/rest/expressions/preview", json={**body, "workflow": anonymous_id}).status_code == 404
    no_id = {k: v for k, v in other.items() if k != "id"}
    assert live.client.post("/rest/expressions/preview", json={**body, "workflow": no_id}).status_code == 404
    unknown = {**body, "workflow": workflow, "executionId": "999999999"}
    assert live.client.post("/rest/expressions/preview", json=unknown).status_code == 404


def test_bad_bodies_are_refused_with_a_client_error(live: LiveServer, ran: tuple[dict[str, Any], str]) -> None:
    workflow, execution_id = ran
    base = {"workflow": workflow, "nodeName": "Target", "expression": "={{ 1 }}", "executionId": execution_id}
    assert live.client.post("/rest/expressions/preview", json={**base, "nodeName": "Nobody"}).status_code == 400
    assert live.client.post("/rest/expressions/preview", json={**base, "workflow": {"nodes": 5}}).status_code == 400
    assert live.client.post("/rest/expressions/preview", json={**base, "itemIndex": -1}).status_code == 400
    huge = {**base, "expression": "={{ '" + "x" * 200_000 + "' }}"}
    assert live.client.post("/rest/expressions/preview", json=huge).status_code == 400
    big = {**base, "workflow": {**workflow, "padding": "x" * (5 * 1024 * 1024)}}
    assert live.client.post("/rest/expressions/preview", json=big).status_code in (400, 413)


def test_the_preview_needs_the_login(live: LiveServer) -> None:
    body = {"workflow": _workflow(), "nodeName": "Target", "expression": "={{ 1 }}", "executionId": None}
    with httpx.Client(base_url=live.url, timeout=10) as anonymous:
        assert anonymous.post("/rest/expressions/preview", json=body).status_code == 401
