"""The MySQL node against a real MariaDB/MySQL server (``WEFT_TEST_MYSQL_URL``; skips without one, fails in CI),
and its escaping tested as an attacker would (no server needed). Each server test uses its own table."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.library.mysql._mysql_format import escape_identifier, format_query, prepare_query, split_statements
from weft.nodes.registry import default_registry
from weft.testing.service_servers import ServiceMissing, in_ci, service_credential

# --------------------------------------------------------------------------- escaping (no server)


def test_values_are_escaped_so_they_cannot_end_their_literal() -> None:
    assert format_query("SELECT ?, ?, ?, ?", ["a'b\\'; DROP TABLE t; --", 5, None, True]) == (
        "SELECT 'a\\'b\\\\\\'; DROP TABLE t; --', 5, NULL, true"
    )
    assert format_query("SELECT ?", ['\0\n\x1a"']) == "SELECT '\\0\\n\\Z\\\"'"
    assert format_query("SELECT ?, ?", ["?", "x"]) == "SELECT '?', 'x'"  # one pass: a value's ? stays text


def test_identifiers_cannot_hold_a_backtick() -> None:
    assert escape_identifier("db.table") == "`db`.`table`"
    assert escape_identifier("a`; DROP TABLE x; --") == "`a`.`; DROP TABLE x; --`"


def test_query_parameters_by_version() -> None:
    assert prepare_query("SELECT $1:name FROM t WHERE a = $2 AND b = '$1'", 2.5, ["c", "v"]) == (
        "SELECT `c` FROM t WHERE a = ? AND b = '$1'",
        ["v"],
    )
    with pytest.raises(ValueError, match=r"Parameter \$3 referenced in query but no replacement value provided"):
        prepare_query("SELECT $3", 2.5, ["a"])
    assert prepare_query("SELECT $2, $1", 2.4, ["a", "b"]) == ("SELECT ?, ?", ["b", "a"])


def test_statements_split_outside_quotes() -> None:
    assert split_statements("SELECT 'a;b';\nSELECT 2;") == ["SELECT 'a;b'", "SELECT 2"]


async def test_a_credential_asking_for_an_ssh_tunnel_is_a_node_error_with_the_fix() -> None:
    run = await run_my({"host": "db", "sshTunnel": True}, {"operation": "executeQuery", "query": "SELECT 1"}, [{}])
    assert run["error"]["message"].startswith("The MySQL credential cannot be used: The credential asks for an SSH")


# --------------------------------------------------------------------------- against a server


@pytest.fixture(scope="module")
def credential() -> dict[str, Any]:
    try:
        return service_credential("mySql")
    except ServiceMissing as missing:
        if in_ci():
            pytest.fail(str(missing))
        pytest.skip(str(missing))


@pytest.fixture
async def table(credential: dict[str, Any]) -> AsyncIterator[str]:
    import aiomysql

    name = f"weft_my_{uuid.uuid4().hex[:10]}"
    kwargs = {"host": credential["host"], "port": credential["port"], "db": credential["database"]}
    conn = await aiomysql.connect(**kwargs, user=credential["user"], password=credential["password"], autocommit=True)
    async with conn.cursor() as cursor:
        await cursor.execute(f"CREATE TABLE `{name}`(id int primary key, name text, qty int, big bigint, d date)")
    yield name
    async with conn.cursor() as cursor:
        await cursor.execute(f"DROP TABLE IF EXISTS `{name}`")
    conn.close()


async def run_my(
    credential: dict[str, Any],
    params: dict[str, Any],
    items: list[dict[str, Any]],
    *,
    version: float = 2.5,
    **extra: Any,
) -> dict[str, Any]:
    """Manual Trigger → Input (pinned ``items``) → MySQL; the MySQL node's run."""
    node = {"name": "Node", "type": "n8n-nodes-base.mySql", "typeVersion": version, "parameters": params, **extra}
    workflow = {
        "name": "my",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "Input", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "parameters": {}},
            {**node, "credentials": {"mySql": {"id": "1", "name": "my"}}},
        ],
        "connections": {
            "T": {"main": [[{"node": "Input", "type": "main", "index": 0}]]},
            "Input": {"main": [[{"node": "Node", "type": "main", "index": 0}]]},
        },
        "pinData": {"Input": [{"json": i} for i in items]},
        "settings": {"executionOrder": "v1"},
    }
    services = LocalServices(credentials={"mySql": credential}, registry=default_registry())
    run = await run_workflow(workflow, services=services)
    task: dict[str, Any] = run["data"]["resultData"]["runData"]["Node"][0]
    return task


def rows(task: dict[str, Any]) -> list[dict[str, Any]]:
    assert "data" in task, task.get("error")
    return [item["json"] for item in task["data"]["main"][0]]


def rl(value: str) -> dict[str, Any]:
    return {"__rl": True, "mode": "list", "value": value}


async def test_insert_select_update_upsert_delete(credential: dict[str, Any], table: str) -> None:
    items = [{"id": 1, "name": "a", "qty": 5, "big": 2**60, "d": "2024-01-02"}, {"id": 2, "name": "b'c", "qty": 7}]
    assert rows(await run_my(credential, {"operation": "insert", "table": rl(table)}, items)) == [{"success": True}]
    params = {"operation": "update", "table": rl(table), "columnToMatchOn": "id"}
    await run_my(credential, params, [{"id": 2, "qty": 8}])
    params = {"operation": "upsert", "table": rl(table), "columnToMatchOn": "id"}
    await run_my(credential, params, [{"id": 3, "name": "new", "qty": 1}, {"id": 1, "qty": 6}])
    where = {"values": [{"column": "qty", "condition": ">", "value": "5"}]}
    params = {"operation": "select", "table": rl(table), "returnAll": True, "where": where}
    params["sort"] = {"values": [{"column": "id", "direction": "ASC"}]}
    selected = rows(await run_my(credential, params, [{}]))
    assert selected == [
        {"id": 1, "name": "a", "qty": 6, "big": str(2**60), "d": "2024-01-02"},
        {"id": 2, "name": "b'c", "qty": 8, "big": None, "d": None},
    ]
    delete = {"operation": "deleteTable", "table": rl(table), "deleteCommand": "delete", "where": where}
    await run_my(credential, delete, [{}])
    count = {"operation": "executeQuery", "query": f"SELECT COUNT(*) AS n FROM `{table}`"}
    assert rows(await run_my(credential, count, [{}])) == [{"n": 1}]


async def test_an_attackers_values_and_table_names_are_data(credential: dict[str, Any], table: str) -> None:
    evil = f"x'); DROP TABLE `{table}`; -- \\"
    await run_my(credential, {"operation": "insert", "table": rl(table)}, [{"id": 1, "name": evil}])
    query = {"operation": "executeQuery", "query": "SELECT name FROM $1:name WHERE name = $2"}
    query["options"] = {"queryReplacement": [table, evil]}
    assert rows(await run_my(credential, query, [{}])) == [{"name": evil}]
    bad = await run_my(credential, {"operation": "select", "table": rl(f"{table}`; DROP TABLE `{table}")}, [{}])
    assert bad["error"]["message"].startswith("You have an error in your SQL syntax")  # n8n cuts names at backticks
    assert rows(await run_my(credential, {"operation": "select", "table": rl(table)}, [{}]))[0]["name"] == evil


async def test_transaction_rolls_back_and_independently_continues(credential: dict[str, Any], table: str) -> None:
    params = {"operation": "insert", "table": rl(table), "options": {"queryBatching": "transaction"}}
    failed = await run_my(credential, params, [{"id": 1}, {"id": 1}])
    assert failed["error"]["message"] == "Duplicate entry '1' for key 'PRIMARY'"
    assert failed["error"]["description"].endswith("code: ER_DUP_ENTRY")
    count = {"operation": "executeQuery", "query": f"SELECT COUNT(*) AS n FROM `{table}`"}
    assert rows(await run_my(credential, count, [{}])) == [{"n": 0}]
    params["options"] = {"queryBatching": "independently"}
    out = rows(await run_my(credential, params, [{"id": 1}, {"id": 1}, {"id": 2}], onError="continueRegularOutput"))
    assert [o.get("success") for o in out] == [True, None, True]
    assert out[1] == {"error": "Duplicate entry '1' for key 'PRIMARY'"}  # n8n 2.41: the error beside the json


async def test_version_1_and_versions_before_2_1_give_dates_as_iso(credential: dict[str, Any], table: str) -> None:
    inserted = await run_my(
        credential,
        {"operation": "insert", "table": table, "columns": "id,d"},
        [{"id": 1, "d": "2024-01-02"}],
        version=1,
    )
    assert rows(inserted)[0]["affectedRows"] == 1
    select = {"operation": "select", "table": rl(table), "options": {"outputColumns": ["d"]}}
    assert rows(await run_my(credential, select, [{}], version=2)) == [{"d": "2024-01-02T00:00:00.000Z"}]
    assert rows(await run_my(credential, select, [{}], version=2.1)) == [{"d": "2024-01-02"}]


async def test_connection_errors(credential: dict[str, Any]) -> None:
    query = {"operation": "executeQuery", "query": "SELECT 1"}
    refused = await run_my({**credential, "port": 1}, query, [{}])
    assert refused["error"]["message"] == "Connection refused"
    denied = await run_my({**credential, "password": "wrong"}, query, [{}])
    assert denied["error"]["message"].startswith(f"Access denied for user '{credential['user']}'@")
