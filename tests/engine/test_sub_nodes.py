"""Sub-nodes (``ai_*`` connections) supply data to their parent and record one run per call."""

from __future__ import annotations

from weft.engine import run_workflow
from weft.testing.workflows import connect, node, output_json, run_order, workflow


def _wf(**supplier_settings):
    return workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("Items"),
        node("Consumer", "weft.test.consumer"),
        node("Memory", "weft.test.supplier", {"value": "={{ $json.name }}"}, **supplier_settings),
        connect("Start", "Items"),
        connect("Items", "Consumer"),
        connect("Memory", "Consumer", type_="ai_memory"),
        pin_data={"Items": [{"json": {"name": "x"}}, {"json": {"name": "y"}}]},
    )


async def test_sub_node_parameters_see_the_parents_items_and_each_call_is_a_run(registry):
    run = await run_workflow(_wf(), registry=registry)
    assert output_json(run, "Consumer") == [{"supplied": [{"value": "x"}]}, {"supplied": [{"value": "y"}]}]
    memory = run["data"]["resultData"]["runData"]["Memory"]
    assert len(memory) == 2
    assert memory[1]["inputOverride"] == {"ai_memory": [[{"json": {"asked": 1}}]]}
    assert memory[1]["data"] == {"ai_memory": [[{"json": {"value": "y"}}]]}
    assert memory[0]["source"] == [{"previousNode": "Consumer", "previousNodeRun": 0}]
    assert memory[0]["executionStatus"] == "success"
    assert run_order(run) == ["Start", "Items", "Consumer", "Memory", "Memory"]


async def test_disabled_sub_node_supplies_nothing(registry):
    run = await run_workflow(_wf(disabled=True), registry=registry)
    assert output_json(run, "Consumer") == [{"supplied": []}, {"supplied": []}]
