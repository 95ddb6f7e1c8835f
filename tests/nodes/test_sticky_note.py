"""Sticky notes load, round-trip unchanged and never run (a third of real workflows have one; recorded: n300, n301)."""

from __future__ import annotations

import json

from weft.engine import run_workflow
from weft.engine.start import find_start_node
from weft.nodes.registry import default_registry
from weft.workflow import Workflow, dump_workflow, parse_workflow, validate_workflow

NOTE = {
    "parameters": {
        "content": "## Read me\nThis workflow does **nothing** useful.",
        "height": 300,
        "width": 500,
        "color": 5,
    },
    "id": "3b8e8a0e-0c55-4c1e-9d7e-1a2b3c4d5e6f",
    "name": "Sticky Note",
    "type": "n8n-nodes-base.stickyNote",
    "typeVersion": 1,
    "position": [-40, -220],
}


def _workflow(*, trigger: bool = True) -> dict:
    first = {
        "name": "Start",
        "type": "n8n-nodes-base.manualTrigger" if trigger else "n8n-nodes-base.noOp",
        "typeVersion": 1,
        "position": [0, 0],
        "parameters": {},
    }
    return {
        "name": "with a note",
        "nodes": [
            NOTE,
            first,
            {"name": "Echo", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "position": [200, 0], "parameters": {}},
        ],
        "connections": {"Start": {"main": [[{"node": "Echo", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1"},
    }


def test_a_sticky_note_round_trips_unchanged() -> None:
    model = parse_workflow(_workflow())
    validate_workflow(model, default_registry())
    written = json.loads(json.dumps(dump_workflow(model)))
    [note] = [n for n in written["nodes"] if n["name"] == "Sticky Note"]
    assert note == NOTE


async def test_a_sticky_note_never_runs_and_never_starts_a_run() -> None:
    run = await run_workflow(_workflow())
    assert set(run["data"]["resultData"]["runData"]) == {"Start", "Echo"}
    without_trigger = Workflow(parse_workflow(_workflow(trigger=False)))
    assert find_start_node(without_trigger, default_registry()) == "Start"  # not the note listed first
