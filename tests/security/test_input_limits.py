"""Findings: no body size limit; deep JSON gave 500s with tracebacks; any workflow id and name were accepted;
execution errors over REST carried Python tracebacks. Now: 413 over 16 MiB, 400 for too deep JSON, a 900-level
body's execution is readable, ids and names are validated as n8n does, and tracebacks stay in the server."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from weft.settings import Settings

from .conftest import Server, unique, wait_for, webhook_workflow

MIB = 1024 * 1024


def _nested(depth: int) -> str:
    return "[" * (depth - 1) + "{}" + "]" * (depth - 1)


def test_a_body_over_16_mib_is_refused(server: Server, golden: dict[str, Any]) -> None:
    path = unique("big")
    workflow_id = server.import_workflow(webhook_workflow(path, httpMethod="POST"))
    body = b'{"a":"' + b"x" * (16 * MIB) + b'"}'
    refused = httpx.post(f"{server.url}/webhook/{path}", content=body, headers={"content-type": "application/json"})
    assert refused.status_code == golden["limits"]["body_over_16_mib"]["status"]
    assert "WEFT_PAYLOAD_SIZE_MAX" in refused.json()["message"]
    assert server.executions(workflow_id) == []


def test_a_streamed_body_over_the_limit_is_refused(server: Server) -> None:
    path = unique("chunked")
    server.import_workflow(webhook_workflow(path, httpMethod="POST"))

    def chunks() -> Iterator[bytes]:
        for _ in range(17):
            yield b"x" * MIB

    refused = httpx.post(f"{server.url}/webhook/{path}", content=chunks(), headers={"content-type": "text/plain"})
    assert refused.status_code == 413 and "WEFT_PAYLOAD_SIZE_MAX" in refused.json()["message"]
    assert (
        server.owner.post("/rest/workflows", content=chunks(), headers={"content-type": "application/json"}).status_code
        == 413
    )


def test_the_limit_is_configurable_in_mib() -> None:
    assert Settings().payload_size_max_bytes == 16 * MIB
    assert Settings.from_env({"WEFT_PAYLOAD_SIZE_MAX": "1.5"}).payload_size_max_bytes == int(1.5 * MIB)


def test_a_10000_level_body_is_a_clean_400(server: Server) -> None:
    path = unique("deep")
    workflow_id = server.import_workflow(webhook_workflow(path, httpMethod="POST"))
    headers = {"content-type": "application/json"}
    refused = httpx.post(f"{server.url}/webhook/{path}", content=_nested(10_000), headers=headers)
    assert refused.status_code == 400 and "WEFT_JSON_DEPTH_MAX" in refused.json()["message"]
    assert "Traceback" not in refused.text
    assert server.executions(workflow_id) == []
    rest = server.owner.post("/rest/workflows", content=_nested(10_000), headers=headers)
    assert 400 <= rest.status_code < 500 and "Traceback" not in rest.text
    api = server.owner.post("/rest/workflows/import", content='{"nodes": ' + _nested(10_000) + "}", headers=headers)
    assert 400 <= api.status_code < 500 and "Traceback" not in api.text


def test_a_900_level_body_is_stored_and_readable(server: Server) -> None:
    path = unique("deep900")
    workflow_id = server.import_workflow(webhook_workflow(path, httpMethod="POST"))
    accepted = httpx.post(
        f"{server.url}/webhook/{path}", content=_nested(900), headers={"content-type": "application/json"}
    )
    assert accepted.status_code == 200
    rows = wait_for(lambda: [r for r in server.executions(workflow_id) if r["status"] == "success"])
    read = server.owner.get(f"/rest/executions/{rows[0]['id']}")
    assert read.status_code == 200, read.text[:300]
    body = read.json()["data"]["data"]["resultData"]["runData"]["Webhook"][0]["data"]["main"][0][0]["json"]["body"]
    depth = 1
    while isinstance(body, list) and body:
        body, depth = body[0], depth + 1
    assert depth == 900


def test_workflow_ids_are_validated(server: Server) -> None:
    for bad in ("../../etc/passwd", "a" * 22, "id with space"):
        data = {"id": bad, "name": "x", "nodes": [], "connections": {}}
        refused = server.owner.post("/rest/workflows/import", json=data)
        assert refused.status_code == 400, bad
        assert server.owner.post("/rest/workflows", json=data).status_code == 400
    assert (
        server.owner.post(
            "/rest/workflows", json={"id": "a" * 21, "name": "x", "nodes": [], "connections": {}}
        ).status_code
        == 201
    )


def test_workflow_names_are_validated(server: Server) -> None:
    refused = server.owner.post("/rest/workflows", json={"name": "n" * 100_000, "nodes": [], "connections": {}})
    assert refused.status_code == 400 and "1 to 128 characters" in refused.json()["message"]
    assert server.owner.post("/rest/workflows", json={"name": "", "nodes": [], "connections": {}}).status_code == 400
    assert (
        server.owner.post("/rest/workflows", json={"name": "n" * 128, "nodes": [], "connections": {}}).status_code
        == 201
    )


def _failing_workflow() -> dict[str, Any]:
    return {
        "name": "fails",
        "settings": {"executionOrder": "v1"},
        "nodes": [
            {
                "parameters": {},
                "name": "Start",
                "type": "n8n-nodes-base.manualTrigger",
                "typeVersion": 1,
                "position": [0, 0],
            },
            {
                "parameters": {"errorMessage": "stop here"},
                "name": "Stop",
                "type": "n8n-nodes-base.stopAndError",
                "typeVersion": 1,
                "position": [200, 0],
            },
        ],
        "connections": {"Start": {"main": [[{"node": "Stop", "type": "main", "index": 0}]]}},
    }


def test_execution_errors_over_rest_carry_no_traceback(server: Server, caplog: pytest.LogCaptureFixture) -> None:
    workflow_id = server.import_workflow(_failing_workflow(), activate=False)
    with caplog.at_level(logging.WARNING, logger="weft.executions"):
        started = server.owner.post(f"/rest/workflows/{workflow_id}/run").json()["data"]
    assert f"Execution {started['executionId']} failed" in caplog.text and "Traceback" in caplog.text
    read = server.owner.get(f"/rest/executions/{started['executionId']}")
    assert read.json()["data"]["status"] == "error"
    assert "Traceback" not in read.text and ".py" not in read.text
    stored = server.instance.store.executions.get(started["executionId"])
    assert stored is not None and "Traceback" in str(stored.data)  # kept for the operator


def test_a_deeply_nested_workflow_is_a_clean_400(server: Server) -> None:
    node = {
        "name": "S",
        "type": "n8n-nodes-base.noOp",
        "typeVersion": 1,
        "position": [0, 0],
        "parameters": {"x": "PLACEHOLDER"},
    }
    body = json.dumps({"name": "deep", "nodes": [node], "connections": {}}).replace('"PLACEHOLDER"', _nested(800))
    refused = server.owner.post("/rest/workflows", content=body, headers={"content-type": "application/json"})
    assert refused.status_code == 400 and "levels deep" in refused.json()["message"]
