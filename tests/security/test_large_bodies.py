"""A webhook body of hundreds of thousands of items cannot freeze the server or fill its memory: one node run
may output at most ``WEFT_EXECUTION_ITEMS_MAX`` items (the execution then fails with an error naming the node
and the setting, and is stored so), nodes that loop over items let other requests through meanwhile, a large
body is parsed off the event loop (its depth limit still holds), and expressions over many items keep only a few
chunks of them in the sandbox (data that does not fit all the same fails with an error naming the node)."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from weft.engine import EngineOptions, Execution
from weft.engine.runaway import ItemCapError
from weft.expressions import ExpressionLimits, offload, session
from weft.services import json_limits
from weft.services.webhook_requests import BadRequestError, IncomingRequest, request_item
from weft.settings import Settings
from weft.testing.workflows import connect, node, workflow
from weft.workflow import Item, Workflow, parse_workflow

from ._extra_server import extra_server
from .conftest import Server, wait_for


def _split_and_set(path: str | None = None) -> dict[str, Any]:
    """Webhook (or Manual Trigger) → Split Out ``body.items`` → Set (one expression per item)."""
    assignment = {"id": "a", "name": "double", "value": "={{ $json.i * 2 }}", "type": "number"}
    webhook = {"httpMethod": "POST", "path": path, "responseMode": "lastNode", "options": {}}
    start = (
        node("Start", "n8n-nodes-base.webhook", webhook, version=2.1, webhookId=f"id-{path}")
        if path
        else node("Start", "n8n-nodes-base.manualTrigger")
    )
    return workflow(
        start,
        node("Split Out", "n8n-nodes-base.splitOut", {"fieldToSplitOut": "body.items"}),
        node("Edit Fields", "n8n-nodes-base.set", {"assignments": {"assignments": [assignment]}}, version=3.4),
        connect("Start", "Split Out"),
        connect("Split Out", "Edit Fields"),
    )


def _body(count: int) -> dict[str, Any]:
    return {"body": {"items": [{"i": n} for n in range(count)]}}


async def _run(count: int, options: EngineOptions) -> dict[str, Any]:
    execution = Execution(Workflow(parse_workflow(_split_and_set())), options=options)
    run: dict[str, Any] = await execution.run(trigger_items=[{"json": _body(count)}])
    return run


async def test_a_node_that_outputs_more_than_the_cap_fails_naming_itself_and_the_setting() -> None:
    run = await _run(30, EngineOptions(max_items=10))
    assert run["status"] == "error"
    error = run["data"]["resultData"]["error"]
    assert error["node"]["name"] == "Split Out"
    assert error["message"] == "Node 'Split Out' output 30 items, more than the 10 one node may output " + (
        "(WEFT_EXECUTION_ITEMS_MAX)"
    )
    assert "WEFT_EXECUTION_ITEMS_MAX" in error["description"]
    assert "Edit Fields" not in run["data"]["resultData"]["runData"]  # nothing ran on the oversized output


async def test_up_to_the_cap_the_items_go_through() -> None:
    run = await _run(10, EngineOptions(max_items=10))
    assert run["status"] == "success"
    items = run["data"]["resultData"]["runData"]["Edit Fields"][0]["data"]["main"][0]
    assert [item["json"]["double"] for item in items] == [n * 2 for n in range(10)]


def test_the_cap_error_is_typed() -> None:
    error = ItemCapError("Split Out", 900_000, 500_000)
    assert error.node_name == "Split Out" and (error.count, error.cap) == (900_000, 500_000)
    assert error.to_json()["context"] == {"items": 900_000, "cap": 500_000}


def test_the_cap_is_a_setting() -> None:
    assert Settings.from_env({}).execution_items_max == 500_000
    assert Settings.from_env({"WEFT_EXECUTION_ITEMS_MAX": "1000"}).execution_items_max == 1000
    assert Settings.from_env({"WEFT_EXECUTION_ITEMS_MAX": "0"}).execution_items_max is None


@pytest.fixture
def every_call_yields(monkeypatch: pytest.MonkeyPatch) -> None:
    """Node runs give the loop up at every chance (the time slice is zero), so the count below is exact."""
    monkeypatch.setattr(offload, "SLICE_S", 0.0)


async def test_other_work_runs_while_nodes_loop_over_items(every_call_yields: None) -> None:
    done = asyncio.Event()
    turns = 0

    async def other_request() -> None:
        nonlocal turns
        while not done.is_set():
            turns += 1
            await asyncio.sleep(0)

    other = asyncio.ensure_future(other_request())
    run = await _run(3000, EngineOptions())
    done.set()
    await other
    assert run["status"] == "success"
    # Set gave the loop up before each of its 3,000 expressions; without that, only between node runs
    assert turns >= 3000


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with extra_server(tmp_path_factory.mktemp("weft-capped"), {"WEFT_EXECUTION_ITEMS_MAX": "1000"}) as server:
        yield server


def test_a_large_body_ends_in_a_stored_failed_execution(capped: Server) -> None:
    workflow_id = capped.import_workflow({**_split_and_set("many"), "name": "many items"})
    body = _body(5000)["body"]
    answer = httpx.post(f"{capped.url}/webhook/many", json=body, timeout=30)
    assert answer.status_code == 500
    rows = wait_for(lambda: [r for r in capped.executions(workflow_id) if r["status"] == "error"])
    stored = capped.owner.get(f"/rest/executions/{rows[0]['id']}").json()["data"]["data"]["resultData"]
    assert stored["error"]["message"].startswith("Node 'Split Out' output 5,000 items, more than the 1,000")
    assert stored["runData"]["Split Out"][0]["error"]["message"] == stored["error"]["message"]
    assert "Edit Fields" not in stored["runData"]


def _json_request(body: bytes) -> IncomingRequest:
    headers = {"content-type": "application/json"}
    return IncomingRequest(method="POST", path="big", url="http://127.0.0.1/webhook/big", headers=headers, body=body)


async def test_a_large_body_is_parsed_while_the_event_loop_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Once under way, the parser waits in the middle of the body until another coroutine of the loop has seen it
    working: parsing on the loop itself, it would wait in vain."""
    loop_ran = threading.Event()
    parsed_in: set[int] = set()
    same = json_limits._same

    def hook(value: dict[str, Any]) -> dict[str, Any]:
        parsed_in.add(threading.get_ident())
        assert loop_ran.wait(60), "no other coroutine ran while the body was parsed"
        return same(value)

    monkeypatch.setattr(json_limits, "_same", hook)
    body = json.dumps({"items": [{"i": n} for n in range(20_000)]}).encode()
    assert len(body) >= json_limits.OFF_LOOP_BYTES
    parsing = asyncio.ensure_future(request_item(_json_request(body), None, "production"))
    while not parsing.done():
        if parsed_in:
            loop_ran.set()
        await asyncio.sleep(0)
    item = await parsing
    assert threading.get_ident() not in parsed_in
    assert item["json"]["body"]["items"][-1] == {"i": 19_999}


def _nested(depth: int, pad: int = 0) -> bytes:
    return ('{"pad":"' + "x" * pad + '","deep":' + "[" * depth + "]" * depth + "}").encode()


@pytest.mark.parametrize("pad", [0, json_limits.OFF_LOOP_BYTES], ids=["small", "large"])
@pytest.mark.parametrize("depth", [901, 5000])
async def test_a_body_deeper_than_the_limit_is_refused_small_or_large(pad: int, depth: int) -> None:
    with pytest.raises(BadRequestError) as refused:
        await request_item(_json_request(_nested(depth, pad)), None, "production")
    assert refused.value.message == (
        "The request body is not accepted: The JSON is nested more than 900 levels deep; "
        "the limit is WEFT_JSON_DEPTH_MAX=900."
    )


@pytest.mark.parametrize("pad", [0, json_limits.OFF_LOOP_BYTES], ids=["small", "large"])
async def test_a_body_at_the_limit_or_wide_is_accepted(pad: int) -> None:
    item = await request_item(_json_request(_nested(899, pad)), None, "production")  # 900 levels with the object
    assert item["json"]["body"]["pad"] == "x" * pad
    wide = json.dumps([[n] for n in range(5000)]).encode()  # many brackets, two levels
    assert (await request_item(_json_request(wide), None, "production"))["json"]["body"][-1] == [4999]


def _set_over(count: int, value: str, memory_mib: int) -> Execution:
    assignment = {"id": "a", "name": "out", "value": value, "type": "number"}
    data = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("Edit Fields", "n8n-nodes-base.set", {"assignments": {"assignments": [assignment]}}, version=3.4),
        connect("Start", "Edit Fields"),
    )
    limits = ExpressionLimits(memory_bytes=memory_mib * 1024 * 1024)
    return Execution(Workflow(parse_workflow(data)), options=EngineOptions(expression_limits=limits))


def _padded_items(count: int) -> list[Item]:
    return [{"json": {"i": n, "pad": "x" * 1000}} for n in range(count)]


async def test_an_expression_over_more_items_than_the_sandbox_holds_goes_through() -> None:
    """20 MB of items, a 24 MiB sandbox: only the last chunks stay loaded (all of them did not fit: "null")."""
    sandboxed = "={{ Number($json.i) * 2 }}"  # Number(): in the sandbox, not the Python fast path
    run: Any = await _set_over(20_000, sandboxed, 24).run(trigger_items=_padded_items(20_000))
    assert run["status"] == "success", run["data"]["resultData"].get("error")
    items = run["data"]["resultData"]["runData"]["Edit Fields"][0]["data"]["main"][0]
    assert [item["json"]["out"] for item in items] == [n * 2 for n in range(20_000)]


async def test_dropped_chunks_are_loaded_again_when_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(session, "MAX_LOADED_CHUNKS", session.MIN_LOADED_CHUNKS)
    value = "={{ $json.i + 1000 * $input.first().json.i + 1000000 * $input.last().json.i }}"
    count = 12 * session.CHUNK
    items: list[Item] = [{"json": {"i": n}} for n in range(1, count + 1)]
    run: Any = await _set_over(count, value, 128).run(trigger_items=items)
    out = run["data"]["resultData"]["runData"]["Edit Fields"][0]["data"]["main"][0]
    assert [item["json"]["out"] for item in out] == [n + 1000 + 1000000 * count for n in range(1, count + 1)]


async def test_data_that_does_not_fit_in_the_sandbox_is_a_typed_error_naming_the_node() -> None:
    run: Any = await _set_over(20_000, "={{ $input.all().length }}", 24).run(trigger_items=_padded_items(20_000))
    assert run["status"] == "error"
    error = run["data"]["resultData"]["error"]
    assert error["name"] == "ExpressionError" and error["node"]["name"] == "Edit Fields"
    assert error["message"] == "The data of node 'Edit Fields' does not fit in the 24 MiB of the expression sandbox"
    assert "(20,000 input items)" in error["description"] and "Loop Over Items" in error["description"]
