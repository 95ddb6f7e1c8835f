"""The Azure Cosmos DB node end to end against the fake of ``weft.testing.saas.azure_cosmos_db`` (reached at
``weftcosmos.documents.azure.com`` through the fake as HTTPS proxy, which checks every request's master-key
signature): what the recorded cases cannot show (typed errors of bad parameters, the 2.41 JSON query
parameters, what each request carries)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote

import pytest

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.testing.saas import FakeSaasServer
from weft.testing.saas.azure_cosmos_db import ACCOUNT, DATABASE, KEY, signature

CREDENTIAL = {"account": ACCOUNT, "key": KEY, "database": DATABASE}


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSaasServer]:
    with FakeSaasServer(0, only=["azure_cosmos_db"]) as server:
        for name, value in server.proxy_env().items():
            monkeypatch.setenv(name, value)
        yield server


async def run(params: dict[str, Any], credential: dict[str, Any] | None = None) -> tuple[list[Any], str | None]:
    node = {"name": "Cosmos", "type": "n8n-nodes-base.azureCosmosDb", "typeVersion": 1, "parameters": params,
            "credentials": {"microsoftAzureCosmosDbSharedKeyApi": {"id": "c", "name": "C"}}}  # fmt: skip
    workflow = {
        "name": "cosmos",
        "nodes": [{"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}}, node],
        "connections": {"T": {"main": [[{"node": "Cosmos", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1"},
    }
    services = LocalServices(credentials={"C": credential or CREDENTIAL})
    result = await run_workflow(workflow, services=services)
    task = result["data"]["resultData"]["runData"]["Cosmos"][0]
    items = [i["json"] for i in ((task.get("data") or {}).get("main") or [[]])[0] or []]
    return items, (task.get("error") or {}).get("message")


def rl(value: str) -> dict[str, Any]:
    return {"__rl": True, "mode": "id", "value": value}


async def test_get_many_follows_the_continuation_token(fake: FakeSaasServer) -> None:
    items, error = await run({"resource": "item", "operation": "getAll", "container": rl("orders"), "returnAll": True})
    assert error is None and [i["id"] for i in items] == ["o1", "o2", "o3", "o4", "o5"]
    assert "_rid" not in items[0]  # simplified
    assert [r.headers.get("x-ms-continuation") for r in fake.requests] == [None, "+RID:~page2", "+RID:~page4"]
    assert all(r.headers["authorization"].startswith("type%3Dmaster") for r in fake.requests)


async def test_query_with_typed_json_parameters(fake: FakeSaasServer) -> None:
    options = {"queryOptions": {"queryParameters": "", "queryParametersJson": "[40]"}}
    params = {"resource": "item", "operation": "query", "container": rl("people"),
              "query": "SELECT * FROM c WHERE c.age > $1", "options": options}  # fmt: skip
    items, error = await run(params)
    assert error is None and [i["name"] for i in items] == ["Alan", "Grace"]
    sent = fake.requests[-1]
    assert sent.body == {"query": "SELECT * FROM c WHERE c.age > @Param1", "parameters": [{"name": "@Param1",
                         "value": 40}]}  # fmt: skip
    assert sent.headers["x-ms-documentdb-isquery"] == "True"


async def test_query_parameters_must_match_the_placeholders(fake: FakeSaasServer) -> None:
    params = {"resource": "item", "operation": "query", "container": rl("people"),
              "query": "SELECT * FROM c WHERE c.id = $1 AND c.name = $2",
              "options": {"queryOptions": {"queryParameters": "u1"}}}  # fmt: skip
    _items, error = await run(params)
    assert error == "Empty parameter value provided" and fake.requests == []


async def test_create_needs_the_partition_key_in_the_contents(fake: FakeSaasServer) -> None:
    params = {"resource": "item", "operation": "create", "container": rl("orders"), "customProperties": '{"id": "o9"}'}
    _items, error = await run(params)
    assert error == "Partition key not found in 'Item Contents'"
    assert [r.path for r in fake.requests] == [f"/dbs/{DATABASE}/colls/orders"]  # the container's key was read


async def test_create_sends_the_partition_key_header(fake: FakeSaasServer) -> None:
    contents = '{"id": "o9", "customerId": "c4", "total": 3}'
    params = {"resource": "item", "operation": "create", "container": rl("orders"), "customProperties": contents}
    items, error = await run(params)
    assert error is None and items[0]["customerId"] == "c4"
    sent = fake.requests[-1]
    assert (sent.headers["x-ms-documentdb-partitionkey"], sent.headers["x-ms-documentdb-is-upsert"]) == (
        '["c4"]',
        "True",
    )


async def test_an_id_with_spaces_is_refused_before_sending(fake: FakeSaasServer) -> None:
    _items, error = await run({"resource": "container", "operation": "create", "containerCreate": "my box"})
    assert error == "The container ID must not contain spaces." and fake.requests == []


async def test_get_in_a_missing_container_names_it(fake: FakeSaasServer) -> None:
    _items, error = await run({"resource": "item", "operation": "get", "container": rl("nope"), "item": rl("x")})
    assert error == 'Container "nope" was not found.'


async def test_a_wrong_key_gets_cosmos_db_401(fake: FakeSaasServer) -> None:
    _items, error = await run({"resource": "container", "operation": "getAll"}, {**CREDENTIAL, "key": "d3Jvbmc="})
    assert error == "Unauthorized" and len(fake.requests) == 1


async def test_update_replaces_the_item_with_its_key(fake: FakeSaasServer) -> None:
    params = {"resource": "item", "operation": "update", "container": rl("orders"), "item": rl("o2"),
              "customProperties": '{"status": "paid"}', "additionalFields": {"partitionKey": "c1"}}  # fmt: skip
    items, error = await run(params)
    assert error is None and items[0]["status"] == "paid"
    sent = fake.requests[-1]
    assert sent.method == "PUT" and sent.body == {"id": "o2", "customerId": "c1", "status": "paid"}


async def test_a_container_named_like_a_resource_type_is_signed_as_n8n_signs_it(fake: FakeSaasServer) -> None:
    """n8n reads the last resource-type word of the path (``users`` here), so Cosmos DB refuses the signature;
    Weft sends what n8n sends."""
    _items, error = await run({"resource": "container", "operation": "get", "container": rl("users")})
    assert error == "Unauthorized"
    (sent,) = fake.requests
    as_n8n = signature(KEY, "GET", "users", f"dbs/{DATABASE}/colls", sent.headers["x-ms-date"])
    assert unquote(sent.headers["authorization"]) == f"type=master&ver=1.0&sig={as_n8n}"
