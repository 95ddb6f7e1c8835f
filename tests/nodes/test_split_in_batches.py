from __future__ import annotations


def loop_flow(new_flow, count: int, batch_size: int):
    flow = (
        new_flow().add("Trigger", "manualTrigger").add("Input", "noOp").pin("Input", [{"n": i} for i in range(count)])
    )
    flow.add("Loop", "splitInBatches", {"batchSize": batch_size, "options": {}}, version=3)
    flow.add("Body", "noOp").add("Done", "noOp")
    flow.connect("Trigger", "Input").connect("Input", "Loop").connect("Loop", "Done").connect("Loop", "Body", out=1)
    return flow.connect("Body", "Loop")


async def test_loop_hands_out_batches_then_done_gets_everything_once(new_flow):
    run = await loop_flow(new_flow, 5, 2).run()
    run_data = run["data"]["resultData"]["runData"]
    assert run["status"] == "success"
    assert [[i["json"]["n"] for i in r["data"]["main"][0]] for r in run_data["Body"]] == [[0, 1], [2, 3], [4]]
    assert len(run_data["Loop"]) == 4
    assert len(run_data["Done"]) == 1
    assert [i["json"] for i in run_data["Done"][0]["data"]["main"][0]] == [{"n": i} for i in range(5)]


async def test_loop_output_pairing_and_sources(new_flow):
    run = await loop_flow(new_flow, 3, 2).run()
    loop_runs = run["data"]["resultData"]["runData"]["Loop"]
    input_source = {"previousNode": "Input", "previousNodeOutput": 0, "previousNodeRun": 0}
    assert loop_runs[0]["data"]["main"] == [
        [],
        [{"json": {"n": 0}, "pairedItem": {"item": 0}}, {"json": {"n": 1}, "pairedItem": {"item": 1}}],
    ]
    assert loop_runs[1]["data"]["main"][1] == [
        {"json": {"n": 2}, "pairedItem": {"item": 2, "sourceOverwrite": input_source}}
    ]
    assert loop_runs[1]["source"] == [{"previousNode": "Body", "previousNodeOutput": 0, "previousNodeRun": 0}]
    done = loop_runs[2]["data"]["main"][0]
    assert done[2] == {
        "json": {"n": 2},
        "pairedItem": {
            "item": 0,
            "sourceOverwrite": {"previousNode": "Body", "previousNodeOutput": 0, "previousNodeRun": 1},
        },
    }


async def test_body_run_index_increments(new_flow):
    run = await loop_flow(new_flow, 3, 1).run()
    body = run["data"]["resultData"]["runData"]["Body"]
    assert [r["source"][0]["previousNodeRun"] for r in body] == [0, 1, 2]
    assert [r["executionIndex"] for r in body] == sorted(r["executionIndex"] for r in body)


async def test_node_context_state(new_flow):
    run = await loop_flow(new_flow, 2, 1).run()
    state = run["data"]["executionData"]["contextData"]["node:Loop"]
    assert (state["currentRunIndex"], state["maxRunIndex"], state["noItemsLeft"], state["done"]) == (2, 2, True, True)
    assert state["items"] == [] and len(state["processedItems"]) == 2
