"""Postgres Chat Memory (``memoryPostgresChat``) on the test PostgreSQL (``WEFT_TEST_DATABASE_URL``; skipped
without, failed without under ``CI=true``): the table n8n creates, the rows LangChain writes, the window, the
session key, and n8n 2.x's refusal of an unsafe table name. ``bash scripts/start_postgres.sh`` starts the server."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import psycopg
import pytest
from psycopg.types.json import Jsonb

from weft.ai.agent_catalog import AGENT_CATALOG, agent_registry
from weft.ai.memory.postgres_chat import message_from_stored, stored_message, table_parts
from weft.ai.messages import AIMessage, HumanMessage, SystemMessage, ToolCall, ToolMessage
from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.errors import NodeOperationError
from weft.testing.service_servers import in_ci
from weft.testing.workflows import connect, node, workflow

LC = "@n8n/n8n-nodes-langchain."
URL = os.environ.get("WEFT_TEST_DATABASE_URL", "")


def _missing() -> str:
    start = "`WEFT_TEST_DATABASE_URL=$(bash scripts/start_postgres.sh)` starts one"
    if not URL.startswith("postgres"):
        return f"needs WEFT_TEST_DATABASE_URL of a PostgreSQL server: {start}"
    try:
        with psycopg.connect(URL, connect_timeout=5):
            return ""
    except psycopg.Error as error:
        return f"cannot connect to WEFT_TEST_DATABASE_URL ({error}): {start}"


MISSING = _missing()
needs_postgres = pytest.mark.skipif(bool(MISSING) and not in_ci(), reason=MISSING)


@pytest.fixture
def table() -> Iterator[str]:
    name = "chat_" + uuid.uuid4().hex[:12]
    yield name
    with psycopg.connect(URL, autocommit=True) as conn:
        conn.execute(f"DROP TABLE IF EXISTS {name}")


def credentials() -> dict[str, Any]:
    parts = urlsplit(URL)
    return {
        "host": parts.hostname,
        "port": parts.port or 5432,
        "database": parts.path.lstrip("/"),
        "user": parts.username,
        "password": parts.password or "",
    }


def chat_wf(items: list[dict[str, Any]], memory: dict[str, Any], *, version: float = 1.3) -> dict[str, Any]:
    return workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("Question", "n8n-nodes-base.code", {"jsCode": f"return {items!r}.map(json => ({{json}}));"}, version=2),
        node("AI Agent", LC + "agent", {"promptType": "define", "text": "={{ $json.chatInput }}"}, version=3.1),
        node(
            "Model",
            "weft.lmChatScripted",
            {"turns": ["first answer", "second answer", *(f"answer {n}" for n in range(3, 10))]},
        ),
        node(
            "Postgres Chat Memory",
            LC + "memoryPostgresChat",
            memory,
            version=version,
            credentials={"postgres": {"id": "p", "name": "PG"}},
        ),
        connect("Start", "Question"),
        connect("Question", "AI Agent"),
        connect("Model", "AI Agent", type_="ai_languageModel"),
        connect("Postgres Chat Memory", "AI Agent", type_="ai_memory"),
    )


async def run(wf: dict[str, Any]) -> dict[str, Any]:
    services = LocalServices(credentials={"PG": credentials()})
    return dict(await run_workflow(wf, registry=agent_registry(), services=services))


def rows(table: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(URL, autocommit=True) as conn:
        return conn.execute(f"SELECT id, session_id, message FROM {table} ORDER BY id").fetchall()


def prompts(result: dict[str, Any]) -> list[list[str]]:
    """The messages the model saw, per call (their text)."""
    runs = result["data"]["resultData"]["runData"]["Model"]
    return [run["inputOverride"]["ai_languageModel"][0][0]["json"]["messages"] for run in runs]


def test_registered_beside_simple_memory() -> None:
    assert AGENT_CATALOG[LC + "memoryPostgresChat"] == "weft.ai.memory.postgres_chat:MemoryPostgresChat"


def test_messages_are_stored_as_langchain_stores_them() -> None:
    call = ToolCall(id="call_1", name="Calculator", args={"input": "2+2"})
    assert stored_message(HumanMessage(content="hi")) == {
        "content": "hi",
        "additional_kwargs": {},
        "response_metadata": {},
        "type": "human",
    }
    ai = stored_message(AIMessage(content="", tool_calls=[call]))
    # as n8n 2.41's agent adds a tool turn (case a487): the call id among the args, no text as []
    assert ai["type"] == "ai" and ai["content"] == [] and ai["invalid_tool_calls"] == []
    args = {"input": "2+2", "id": "call_1"}
    assert ai["tool_calls"] == [{"name": "Calculator", "args": args, "id": "call_1", "type": "tool_call"}]
    assert message_from_stored(ai) == AIMessage(
        content="", tool_calls=[ToolCall(id="call_1", name="Calculator", args=args)]
    )
    messages = [
        HumanMessage(content="hi"),
        ToolMessage(tool_call_id="call_1", name="Calculator", content="4"),
        AIMessage(content="four"),
        SystemMessage(content="be kind"),
    ]
    assert [message_from_stored(stored_message(m)) for m in messages] == messages


def test_a_row_of_an_unknown_type_is_refused() -> None:
    with pytest.raises(ValueError, match="unexpected type: generic"):
        message_from_stored({"type": "generic", "content": "x"})


@pytest.mark.parametrize("name", ["a b", "x;drop table y", "a.b.c", "1abc", 'q"uote', "s.t-x"])
def test_an_unsafe_table_name_is_refused(name: str) -> None:
    with pytest.raises(NodeOperationError, match="Invalid table name") as caught:
        table_parts("Memory", name, 0)
    assert "letters, numbers and underscores" in (caught.value.description or "")


def test_table_names_are_lower_cased_and_may_name_a_schema() -> None:
    assert table_parts("Memory", "Public.Chat_Log", 0) == ("public", "chat_log")
    assert table_parts("Memory", "", 0) == ("n8n_chat_histories",)


@needs_postgres
async def test_the_table_is_created_and_each_turn_stored(table: str) -> None:
    items = [{"chatInput": "My name is Ada.", "sessionId": "chat-1"}, {"chatInput": "Who am I?", "sessionId": "chat-1"}]
    result = await run(chat_wf(items, {"sessionIdType": "fromInput", "tableName": table}, version=1.4))
    assert result["status"] == "success", result["data"]["resultData"].get("error")
    with psycopg.connect(URL, autocommit=True) as conn:
        columns = conn.execute(
            "SELECT column_name, data_type, is_nullable, character_maximum_length FROM information_schema.columns "
            "WHERE table_name = %s ORDER BY ordinal_position",
            (table,),
        ).fetchall()
    assert columns == [
        ("id", "integer", "NO", None),
        ("session_id", "character varying", "NO", 255),
        ("message", "jsonb", "NO", None),
    ]
    stored = rows(table)
    assert {r[1] for r in stored} == {"chat-1__Postgres_Chat_Memory"}  # 1.4: scoped to the node
    assert [(r[2]["type"], r[2]["content"]) for r in stored] == [
        ("human", "My name is Ada."),
        ("ai", "first answer"),
        ("human", "Who am I?"),
        ("ai", "second answer"),
    ]
    second = prompts(result)[1]
    assert "My name is Ada." in str(second) and "first answer" in str(second)


@needs_postgres
async def test_seeded_rows_of_the_session_reach_the_model_within_the_window(table: str) -> None:
    with psycopg.connect(URL, autocommit=True) as conn:
        conn.execute(
            f"CREATE TABLE {table} (id SERIAL PRIMARY KEY, session_id VARCHAR(255) NOT NULL, message JSONB NOT NULL)"
        )
        seeded = [
            ("k", HumanMessage(content="one")),
            ("k", AIMessage(content="uno")),
            ("other", HumanMessage(content="secret")),
        ]
        seeded += [("k", HumanMessage(content="two")), ("k", AIMessage(content="dos"))]
        for session, message in seeded:
            conn.execute(
                f"INSERT INTO {table} (session_id, message) VALUES (%s, %s)", (session, Jsonb(stored_message(message)))
            )
    memory = {"sessionIdType": "customKey", "sessionKey": "k", "tableName": table, "contextWindowLength": 1}
    result = await run(chat_wf([{"chatInput": "three"}], memory))
    assert result["status"] == "success"
    (prompt,) = prompts(result)
    assert "two" in str(prompt) and "dos" in str(prompt)
    assert "one" not in str(prompt) and "uno" not in str(prompt) and "secret" not in str(prompt)
    assert [r[2]["type"] for r in rows(table) if r[1] == "k"][-2:] == ["human", "ai"]
    assert [r[2]["content"] for r in rows(table) if r[1] == "k"][-2] == "three"


@needs_postgres
async def test_version_1_sends_the_whole_history(table: str) -> None:
    first = await run(
        chat_wf(
            [{"chatInput": f"q{i}"} for i in range(7)],
            {"sessionIdType": "customKey", "sessionKey": "all", "tableName": table},
            version=1,
        )
    )
    assert first["status"] == "success"
    last = prompts(first)[-1]
    assert all(f"q{i}" in str(last) for i in range(7))


@needs_postgres
async def test_an_unsafe_table_name_fails_the_run_before_any_sql(table: str) -> None:
    memory = {"sessionIdType": "customKey", "sessionKey": "x", "tableName": f"{table}; DROP TABLE pg_class"}
    result = await run(chat_wf([{"chatInput": "hi"}], memory))
    assert result["status"] == "error"
    assert "Invalid table name" in str(result["data"]["resultData"]["error"])
    with psycopg.connect(URL, autocommit=True) as conn:
        assert conn.execute("SELECT to_regclass(%s)", (table,)).fetchone() == (None,)


@needs_postgres
async def test_before_1_2_the_session_still_comes_from_the_input_by_default(table: str) -> None:
    """Unlike Simple Memory, Postgres Chat Memory has ``sessionIdType`` (default ``fromInput``) from version 1."""
    result = await run(chat_wf([{"chatInput": "hi"}], {"sessionKey": "ignored", "tableName": table}, version=1.1))
    assert result["status"] == "error"
    assert "No session ID found" in str(result["data"]["resultData"]["runData"]["Postgres Chat Memory"][0]["error"])
