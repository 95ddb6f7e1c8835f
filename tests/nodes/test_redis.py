"""The Redis node against a real Redis server (``WEFT_TEST_REDIS_URL``; skips without one, fails in CI).

Each test uses keys under its own random prefix and deletes them.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.library.redis.redis_node import info_to_object
from weft.nodes.registry import default_registry
from weft.testing.service_servers import ServiceMissing, in_ci, service_credential


@pytest.fixture(scope="module")
def credential() -> dict[str, Any]:
    try:
        return service_credential("redis")
    except ServiceMissing as missing:
        if in_ci():
            pytest.fail(str(missing))
        pytest.skip(str(missing))


@pytest.fixture
async def prefix(credential: dict[str, Any]) -> AsyncIterator[str]:
    import redis.asyncio as redis

    name = f"weft-test:{uuid.uuid4().hex[:8]}:"
    yield name
    client = redis.Redis(host=credential["host"], port=credential["port"], password=credential["password"])
    keys = await client.keys(name + "*")
    if keys:
        await client.delete(*keys)
    await client.aclose()


async def run_redis(
    credential: dict[str, Any], steps: list[dict[str, Any]], items: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """Manual Trigger → Input (pinned ``items``) → one Redis node per step, in a chain; the run data."""
    nodes: list[dict[str, Any]] = [
        {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
        {"name": "Input", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "parameters": {}},
    ]
    connections: dict[str, Any] = {"T": {"main": [[{"node": "Input", "type": "main", "index": 0}]]}}
    previous = "Input"
    for number, step in enumerate(steps):
        extra = {k: step.pop(k) for k in ("onError",) if k in step}
        name = f"R{number}"
        node = {"name": name, "type": "n8n-nodes-base.redis", "typeVersion": 1, "parameters": step, **extra}
        nodes.append({**node, "credentials": {"redis": {"id": "1", "name": "redis"}}})
        connections[previous] = {"main": [[{"node": name, "type": "main", "index": 0}]]}
        previous = name
    workflow = {
        "name": "redis",
        "nodes": nodes,
        "connections": connections,
        "pinData": {"Input": [{"json": i} for i in (items or [{}])]},
        "settings": {"executionOrder": "v1"},
    }
    services = LocalServices(credentials={"redis": credential}, registry=default_registry())
    run = await run_workflow(workflow, services=services)
    run_data: dict[str, Any] = run["data"]["resultData"]["runData"]
    return run_data


def jsons(run_data: dict[str, Any], name: str) -> list[dict[str, Any]]:
    task = run_data[name][0]
    assert "data" in task, task.get("error")
    return [item["json"] for item in task["data"]["main"][0]]


async def test_set_get_with_types_and_ttl(credential: dict[str, Any], prefix: str) -> None:
    steps = [
        {"operation": "set", "key": prefix + "s", "value": "v", "expire": True, "ttl": 100},
        {"operation": "set", "key": prefix + "h", "value": '{"a": 1}', "keyType": "hash"},
        {"operation": "set", "key": prefix + "h2", "value": "x 1 y 2", "keyType": "hash", "valueIsJSON": False},
        {"operation": "get", "key": prefix + "s", "propertyName": "a.b"},
        {"operation": "get", "key": prefix + "h", "propertyName": "a.b", "options": {"dotNotation": False}},
        {"operation": "get", "key": prefix + "h2", "propertyName": "v", "keyType": "hash"},
        {"operation": "get", "key": prefix + "missing", "propertyName": "v"},
    ]
    run_data = await run_redis(credential, steps, [{"keep": 1}])
    assert jsons(run_data, "R0") == [{"keep": 1}]  # set passes its input on
    assert jsons(run_data, "R3") == [{"a": {"b": "v"}}]
    assert jsons(run_data, "R4") == [{"a.b": {"a": "1"}}]
    assert jsons(run_data, "R5") == [{"v": {"x": "1", "y": "2"}}]
    assert jsons(run_data, "R6") == [{"v": None}]


async def test_lists_counters_keys_and_publish(credential: dict[str, Any], prefix: str) -> None:
    steps = [
        {"operation": "push", "list": prefix + "l", "messageData": "={{ $json.m }}", "tail": True},
        {"operation": "llen", "list": prefix + "l"},
        {"operation": "pop", "list": prefix + "l", "propertyName": "p"},
        {"operation": "incr", "key": prefix + "n", "expire": True, "ttl": 10},
        {"operation": "keys", "keyPattern": prefix + "n", "getValues": True},
        {"operation": "publish", "channel": prefix + "c", "messageData": "hi"},
        {"operation": "delete", "key": prefix + "n"},
        {"operation": "keys", "keyPattern": prefix + "n", "getValues": False},
    ]
    run_data = await run_redis(credential, steps, [{"m": "a"}, {"m": '{"j": 1}'}])
    assert jsons(run_data, "R1") == [{prefix + "l": 2}, {prefix + "l": 2}]
    assert jsons(run_data, "R2") == [{"p": "a"}, {"p": {"j": 1}}]  # popped JSON is parsed
    assert jsons(run_data, "R3") == [{prefix + "n": 1}, {prefix + "n": 2}]
    assert jsons(run_data, "R4") == [{prefix + "n": "2"}, {prefix + "n": "2"}]
    assert jsons(run_data, "R7") == [{"keys": []}, {"keys": []}]


async def test_server_errors_name_the_problem_and_continue_on_fail(credential: dict[str, Any], prefix: str) -> None:
    steps = [{"operation": "set", "key": prefix + "s", "value": "abc"}, {"operation": "incr", "key": prefix + "s"}]
    run_data = await run_redis(credential, steps)
    assert run_data["R1"][0]["error"]["message"] == "ERR value is not an integer or out of range"
    steps = [{"operation": "push", "list": prefix + "s", "messageData": "x", "onError": "continueRegularOutput"}]
    await run_redis(credential, [{"operation": "set", "key": prefix + "s", "value": "abc"}])
    run_data = await run_redis(credential, steps)
    assert jsons(run_data, "R0") == [{"error": "WRONGTYPE Operation against a key holding the wrong kind of value"}]


async def test_wrong_password_and_refused_connection(credential: dict[str, Any]) -> None:
    run_data = await run_redis({**credential, "password": "wrong"}, [{"operation": "info"}])
    assert run_data["R0"][0]["error"]["message"].startswith("WRONGPASS invalid username-password pair")
    run_data = await run_redis({**credential, "port": 1}, [{"operation": "info"}])
    assert run_data["R0"][0]["error"]["message"] == f"connect ECONNREFUSED {credential['host']}:1"


async def test_info_is_parsed_as_n8n_parses_it(credential: dict[str, Any]) -> None:
    info = jsons(await run_redis(credential, [{"operation": "info"}]), "R0")[0]
    assert isinstance(info["redis_version"], str | int | float)
    assert info["tcp_port"] == credential["port"]
    assert info_to_object("# Server\nredis_version:7.0.15\ndb0:keys=3,expires=0\nx:1.5\n") == {
        "redis_version": 7,  # parseFloat("7.0.15"), as n8n
        "db0": {"keys": 3, "expires": 0},
        "x": 1.5,
    }


async def test_keys_leaves_out_what_n8n_cannot_read_and_get_gives_null(credential: dict[str, Any], prefix: str) -> None:
    steps = [
        {"operation": "set", "key": prefix + "m", "value": "member", "keyType": "sets"},
        {"operation": "set", "key": prefix + "s", "value": "text"},
        {"operation": "keys", "keyPattern": prefix + "*"},
        {"operation": "get", "key": prefix + "m", "propertyName": "auto"},
        {"operation": "get", "key": prefix + "m", "propertyName": "typed", "keyType": "sets"},
    ]
    run_data = await run_redis(credential, steps)
    assert jsons(run_data, "R2") == [{prefix + "s": "text"}]  # a set's value is n8n's undefined: dropped
    assert jsons(run_data, "R3") == [{"auto": None}]
    assert jsons(run_data, "R4") == [{"typed": ["member"]}]
