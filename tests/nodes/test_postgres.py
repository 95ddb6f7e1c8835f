"""The Postgres node against a real PostgreSQL server (``WEFT_TEST_DATABASE_URL``; skips without one, fails in CI).

Each test works in its own table (a unique name) and drops it.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.nodes.registry import default_registry
from weft.testing.service_servers import ServiceMissing, in_ci, service_credential

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def credential() -> dict[str, Any]:
    try:
        return service_credential("postgres")
    except ServiceMissing as missing:
        if in_ci():
            pytest.fail(str(missing))
        pytest.skip(str(missing))


@pytest.fixture
def table(credential: dict[str, Any]) -> Iterator[str]:
    import psycopg

    name = f"weft_pg_{uuid.uuid4().hex[:10]}"
    kwargs = {"host": credential["host"], "port": credential["port"], "dbname": credential["database"]}
    kwargs |= {"user": credential["user"], "password": credential["password"]}
    with psycopg.connect(**kwargs, autocommit=True) as conn:
        conn.execute(f'CREATE TABLE "{name}"(id int primary key, name text, qty int, meta jsonb, tags text[])')
        yield name
        conn.execute(f'DROP TABLE IF EXISTS "{name}"')


async def run_pg(
    credential: dict[str, Any],
    params: dict[str, Any],
    items: list[dict[str, Any]],
    *,
    version: float = 2.6,
    **extra: Any,
) -> dict[str, Any]:
    """Manual Trigger → Input (pinned ``items``) → Postgres; the Postgres node's run."""
    workflow = {
        "name": "pg",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "Input", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "parameters": {}},
            {
                "name": "Node",
                "type": "n8n-nodes-base.postgres",
                "typeVersion": version,
                "parameters": params,
                "credentials": {"postgres": {"id": "1", "name": "pg"}},
                **extra,
            },
        ],
        "connections": {
            "T": {"main": [[{"node": "Input", "type": "main", "index": 0}]]},
            "Input": {"main": [[{"node": "Node", "type": "main", "index": 0}]]},
        },
        "pinData": {"Input": [{"json": i} for i in items]},
        "settings": {"executionOrder": "v1"},
    }
    services = LocalServices(credentials={"postgres": credential}, registry=default_registry())
    run = await run_workflow(workflow, services=services)
    task: dict[str, Any] = run["data"]["resultData"]["runData"]["Node"][0]
    return task


def rows(task: dict[str, Any]) -> list[dict[str, Any]]:
    assert "data" in task, task.get("error")
    return [item["json"] for item in task["data"]["main"][0]]


def rl(value: str, mode: str = "list") -> dict[str, Any]:
    return {"__rl": True, "mode": mode, "value": value}


MAP = {"mappingMode": "autoMapInputData", "value": {}, "matchingColumns": ["id"], "schema": []}


async def test_insert_then_select_with_where_sort_and_limit(credential: dict[str, Any], table: str) -> None:
    items = [{"id": 1, "name": "a", "qty": 5}, {"id": 2, "name": "b", "qty": 7}, {"id": 3, "name": "c", "qty": 9}]
    inserted = await run_pg(credential, {"operation": "insert", "table": rl(table), "columns": MAP}, items)
    assert [r["id"] for r in rows(inserted)] == [1, 2, 3]
    assert [i["pairedItem"] for i in inserted["data"]["main"][0]] == [{"item": 0}, {"item": 1}, {"item": 2}]
    where = {"values": [{"column": "qty", "condition": ">", "value": "6"}]}
    sort = {"values": [{"column": "id", "direction": "DESC"}]}
    params = {"operation": "select", "table": rl(table), "where": where, "sort": sort, "limit": 1}
    selected = await run_pg(credential, params, [{}])
    assert rows(selected) == [{"id": 3, "name": "c", "qty": 9, "meta": None, "tags": None}]


async def test_update_and_upsert_and_the_missing_row_error(credential: dict[str, Any], table: str) -> None:
    await run_pg(credential, {"operation": "insert", "table": rl(table), "columns": MAP}, [{"id": 1, "qty": 1}])
    up = await run_pg(
        credential,
        {"operation": "upsert", "table": rl(table), "columns": MAP},
        [{"id": 1, "qty": 2}, {"id": 2, "qty": 3}],
    )
    assert [(r["id"], r["qty"]) for r in rows(up)] == [(1, 2), (2, 3)]
    updated = await run_pg(
        credential, {"operation": "update", "table": rl(table), "columns": MAP}, [{"id": 2, "name": "x"}]
    )
    assert rows(updated)[0]["name"] == "x"
    missing = await run_pg(
        credential, {"operation": "update", "table": rl(table), "columns": MAP}, [{"id": 9, "qty": 1}]
    )
    assert missing["error"]["message"] == "The row you are trying to update doesn't exist"
    assert (
        missing["error"]["description"]
        == f'No rows matching the provided values (id=9) were found in the table "{table}".'
    )


async def test_an_attackers_values_and_identifiers_are_data(credential: dict[str, Any], table: str) -> None:
    evil = "x'); DROP TABLE \"" + table + '"; --'
    await run_pg(credential, {"operation": "insert", "table": rl(table), "columns": MAP}, [{"id": 1, "name": evil}])
    query = {"operation": "executeQuery", "query": "SELECT name FROM $1:name WHERE name = $2", "options": {}}
    query["options"]["queryReplacement"] = [table, evil]
    assert rows(await run_pg(credential, query, [{}])) == [{"name": evil}]
    bad_table = await run_pg(
        credential, {"operation": "select", "table": rl(table + '"; DROP TABLE "' + table, "name")}, [{}]
    )
    assert bad_table["error"]["message"] == f'relation "public.{table}"; DROP TABLE "{table}" does not exist'
    still_there = await run_pg(credential, {"operation": "select", "table": rl(table), "returnAll": True}, [{}])
    assert rows(still_there)[0]["name"] == evil


async def test_query_batching_transaction_rolls_back_on_error(credential: dict[str, Any], table: str) -> None:
    params = {"operation": "insert", "table": rl(table), "columns": MAP, "options": {"queryBatching": "transaction"}}
    failed = await run_pg(credential, params, [{"id": 1}, {"id": 1}])
    assert "duplicate key value violates unique constraint" in failed["error"]["message"]
    count = {"operation": "executeQuery", "query": f'SELECT count(*)::int AS n FROM "{table}"'}
    assert rows(await run_pg(credential, count, [{}])) == [{"n": 0}]
    params["options"] = {"queryBatching": "independently"}
    partly = await run_pg(credential, params, [{"id": 1}, {"id": 1}, {"id": 2}], onError="continueRegularOutput")
    out = rows(partly)
    assert [o.get("id") for o in out] == [1, None, 2]
    assert out[1]["error"]["description"] == "Key (id)=(1) already exists."


async def test_execute_query_single_batching_pairs_by_statement_and_says_success(credential: dict[str, Any]) -> None:
    query = {
        "operation": "executeQuery",
        "query": "SELECT $1::int AS n",
        "options": {"queryReplacement": "={{ $json.n }}"},
    }
    task = await run_pg(credential, query, [{"n": 1}, {"n": 2}])
    assert [(i["json"], i["pairedItem"]) for i in task["data"]["main"][0]] == [
        ({"n": 1}, {"item": 0}),
        ({"n": 2}, {"item": 1}),
    ]
    nothing = await run_pg(credential, {"operation": "executeQuery", "query": "SET search_path TO public"}, [{}, {}])
    assert nothing["data"]["main"][0] == [{"json": {"success": True}, "pairedItem": [{"item": 0}, {"item": 1}]}]


async def test_version_1_insert_and_query(credential: dict[str, Any], table: str) -> None:
    params = {"operation": "insert", "table": table, "columns": "id,name,qty:int"}
    inserted = await run_pg(credential, params, [{"id": 1, "name": "a", "qty": "4"}], version=1)
    assert rows(inserted) == [{"id": 1, "name": "a", "qty": 4, "meta": None, "tags": None}]
    query = {"operation": "executeQuery", "query": f'SELECT qty FROM "{table}" WHERE name = $1'}
    query["additionalFields"] = {"queryParams": "name"}
    assert rows(await run_pg(credential, query, [{"name": "a"}], version=1)) == [{"qty": 4}]


async def test_connection_errors_are_reported(credential: dict[str, Any]) -> None:
    query = {"operation": "executeQuery", "query": "SELECT 1"}
    task = await run_pg({**credential, "database": "weft_no_such_db"}, query, [{}])
    assert task["error"]["message"] == 'database "weft_no_such_db" does not exist'
    refused = await run_pg({**credential, "port": 1}, query, [{}])
    assert refused["error"]["message"] == "Connection refused"
    assert refused["error"]["description"] == f"{credential['host']}:1"


async def test_postgres_is_a_tool_an_agent_calls_with_from_ai(credential: dict[str, Any]) -> None:
    """n8n marks Postgres ``usableAsTool``: ``postgresTool`` runs the query with the model's ``$fromAI`` value as
    a query parameter (never spliced into the SQL) and answers the rows."""
    from weft.ai.agent_catalog import agent_registry
    from weft.testing.workflows import connect, node, output_json, workflow

    lc = "@n8n/n8n-nodes-langchain."
    replacement = "={{ $fromAI('word', 'the word to shout', 'string') }}"
    parameters = {"operation": "executeQuery", "query": "SELECT upper($1) AS shout"}
    parameters["options"] = {"queryReplacement": replacement}
    tool = node(
        "Shout",
        "n8n-nodes-base.postgresTool",
        parameters,
        version=2.6,
    )
    tool["credentials"] = {"postgres": {"id": "1", "name": "pg"}}
    turns = [{"tool": "Shout", "args": {"word": "it's'; drop table x; --"}}, "{{last_tool_result}}"]
    wf = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("AI Agent", lc + "agent", {"promptType": "define", "text": "go"}, version=3.1),
        node("Model", "weft.lmChatScripted", {"turns": turns}),
        tool,
        connect("Start", "AI Agent"),
        connect("Model", "AI Agent", type_="ai_languageModel"),
        connect("Shout", "AI Agent", type_="ai_tool"),
    )
    services = LocalServices(credentials={"postgres": credential}, registry=agent_registry())
    run = await run_workflow(wf, services=services)
    assert output_json(run, "Shout") == [{"shout": "IT'S'; DROP TABLE X; --"}]
    assert '"shout":"IT\'S\'; DROP TABLE X; --"' in output_json(run, "AI Agent")[0]["output"]
