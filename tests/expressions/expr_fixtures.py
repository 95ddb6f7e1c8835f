"""A small executed workflow for expression tests, with fixed instants.

    Trigger ─► Generate new items ─► Mix up pairing ─► Current
                                     Unexecuted ─► Current (input 1, never ran)
    Island (not connected)

``Generate new items`` made three items; ``Mix up pairing`` returned them re-ordered with explicit
``pairedItem`` 2, 0, 1 (as n8n's ``paired_items_fix.json``). ``Current`` is the node being evaluated.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from weft.expressions import ExpressionContext
from weft.workflow import Item, Workflow

NOW = datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC)

GENERATED: list[Item] = [
    {"json": {"originalItem": "first", "numberOriginal": 1, "letterOriginal": "a"}, "pairedItem": {"item": 0}},
    {"json": {"originalItem": "second", "numberOriginal": 2, "letterOriginal": "b"}, "pairedItem": {"item": 0}},
    {"json": {"originalItem": "third", "numberOriginal": 3, "letterOriginal": "c"}, "pairedItem": {"item": 0}},
]

MIXED: list[Item] = [
    {
        "json": {
            "name": "Ada",
            "count": 3,
            "tags": ["x", "y"],
            "nested": {"deep": {"value": 42}},
            "key with space": "s",
            "price": 12.5,
            "empty": "",
            "zero": 0,
            "items": [{"id": 1, "v": "a"}, {"id": 2, "v": "b"}],
        },
        "pairedItem": {"item": 2},
        "binary": {"data": {"fileName": "a.txt", "mimeType": "text/plain", "data": "aGk="}},
    },
    {"json": {"name": "Bob", "count": 1, "tags": [], "nested": {"deep": {"value": 7}}}, "pairedItem": {"item": 0}},
    {"json": {"name": "Cy", "count": 0}, "pairedItem": {"item": 1}},
]


def _run(items: list[Item], source: list[Any] | None = None) -> dict[str, Any]:
    return {"startTime": 0, "executionIndex": 0, "executionTime": 0, "source": source or [], "data": {"main": [items]}}


WORKFLOW = {
    "id": "wf-1",
    "name": "Expression tests",
    "active": False,
    "nodes": [
        {"name": "Trigger", "type": "n8n-nodes-base.manualTrigger", "parameters": {}},
        {"name": "Generate new items", "type": "n8n-nodes-base.code", "parameters": {"mode": "runOnceForAllItems"}},
        {"name": "Mix up pairing", "type": "n8n-nodes-base.code", "parameters": {}},
        {"name": "Unexecuted", "type": "n8n-nodes-base.noOp", "parameters": {}},
        {"name": "Island", "type": "n8n-nodes-base.noOp", "parameters": {}},
        {
            "name": "Current",
            "type": "n8n-nodes-base.set",
            "typeVersion": 3.4,
            "id": "node-current",
            "parameters": {"someParam": "plain", "computed": "={{ $json.name }}!", "n": 5},
        },
    ],
    "connections": {
        "Trigger": {"main": [[{"node": "Generate new items", "type": "main", "index": 0}]]},
        "Generate new items": {"main": [[{"node": "Mix up pairing", "type": "main", "index": 0}]]},
        "Mix up pairing": {"main": [[{"node": "Current", "type": "main", "index": 0}]]},
        "Unexecuted": {"main": [[{"node": "Current", "type": "main", "index": 1}]]},
    },
}

RUN_EXECUTION_DATA: dict[str, Any] = {
    "startData": {},
    "resultData": {
        "runData": {
            "Trigger": [_run([{"json": {}}])],
            "Generate new items": [_run(GENERATED, [{"previousNode": "Trigger"}])],
            "Mix up pairing": [_run(MIXED, [{"previousNode": "Generate new items"}])],
        }
    },
    "executionData": {},
}


def make_context(**overrides: Any) -> ExpressionContext:
    values: dict[str, Any] = {
        "workflow": Workflow.from_json(WORKFLOW),
        "node_name": "Current",
        # The engine stamps each input item with its lineage: item i came from Mix up pairing's item i.
        "connection_input": [{**item, "pairedItem": {"item": i}} for i, item in enumerate(MIXED)],
        "input_source": {"main": [{"previousNode": "Mix up pairing"}]},
        "run_execution_data": RUN_EXECUTION_DATA,
        "execution_id": "exec-1",
        "resume_url": "http://localhost:5678/webhook-waiting/exec-1",
        "variables": {"myVar": "v1", "limit": 10},
        "now": NOW,
        # The table's instants are written in UTC (without it, n8n's default America/New_York applies).
        "timezone": "UTC",
    }
    values.update(overrides)
    return ExpressionContext(**values)
