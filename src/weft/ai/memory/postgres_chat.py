"""``@n8n/n8n-nodes-langchain.memoryPostgresChat`` (Postgres Chat Memory): chat history in a PostgreSQL table.

As n8n configures LangChain's ``PostgresChatMessageHistory``: the table (option ``tableName``, default
``n8n_chat_histories``; from n8n 2.x only letters, digits and underscores, with an optional ``schema.`` prefix,
lower-cased and quoted) is created when missing with the columns ``id SERIAL PRIMARY KEY``, ``session_id
VARCHAR(255) NOT NULL`` and ``message JSONB NOT NULL``. Each message is one row, ``message`` holding LangChain's
stored form flattened (``{"type": "human", "content": …, "additional_kwargs": {}, "response_metadata": {}}``), read
back ``ORDER BY id``. The session key comes from the input or the ``sessionKey`` parameter as for Simple Memory,
but ``sessionIdType`` (default ``fromInput``) exists from typeVersion 1 (recorded: case a486). typeVersion 1
sends the whole history, later ones the last ``contextWindowLength`` turns (default 5).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

from weft.ai.agent.steps import args_with_id
from weft.ai.memory.buffer_window import session_id
from weft.ai.memory.chat_memory import WindowChatMemory, save_action
from weft.ai.memory.lc_json import lc_message, lc_messages
from weft.ai.memory.store import InMemoryChatMemoryStore
from weft.ai.messages import AIMessage, HumanMessage, Message, SystemMessage, ToolCall, ToolMessage
from weft.errors import NodeOperationError
from weft.nodes.contract import NodeDescription, NodeType, SupplyDataContext
from weft.nodes.postgres_credential import connection_kwargs
from weft.workflow import AI_MEMORY

DEFAULT_TABLE = "n8n_chat_histories"
_SAFE_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_$]*$")
_STORED_TYPE = {HumanMessage: "human", AIMessage: "ai", SystemMessage: "system", ToolMessage: "tool"}

Connect = Callable[[], Awaitable[Any]]


def table_parts(node_name: str, raw: object, item_index: int) -> tuple[str, ...]:
    """The table name's parts (``[schema, ]table``, lower-cased), with n8n's error for an unsafe name."""
    name = str(raw or "") or DEFAULT_TABLE
    parts = name.split(".")
    if len(parts) > 2 or not all(_SAFE_IDENTIFIER.match(p) for p in parts):
        raise NodeOperationError(
            node_name,
            f'Invalid table name "{name}"',
            description='Table names may only contain letters, numbers and underscores, with an optional "schema." '
            "prefix.",
            item_index=item_index,
        )
    return tuple(p.lower() for p in parts)


def stored_message(message: Message) -> dict[str, Any]:
    """``message`` as LangChain stores it in the ``message`` column: ``toDict()``'s data with its ``type``.

    A model turn that calls tools is stored as n8n 2.41's agent adds it to the history: each call's ``args`` carry
    its ``id``, and empty text is ``[]`` (n8n 2.8.4 wrote its log, ``Calling … with input: …``; case a487)."""
    row = {**lc_message(message)["kwargs"], "type": _STORED_TYPE[type(message)]}
    if isinstance(message, AIMessage) and message.tool_calls:
        for call, stored in zip(message.tool_calls, row["tool_calls"], strict=True):
            stored["args"] = args_with_id(call)
        row["content"] = message.content or []
    return row


def message_from_stored(row: dict[str, Any]) -> Message:
    """A row's ``message`` back as a Weft message; a type LangChain cannot read raises ``ValueError``."""
    kind = row.get("type")
    content = row.get("content", "")
    if isinstance(content, list):
        content = "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict) and p.get("type") == "text")
    text = "" if content is None else str(content)
    if kind == "human":
        return HumanMessage(content=text)
    if kind == "system":
        return SystemMessage(content=text)
    if kind == "ai":
        calls = [
            ToolCall(id=str(c.get("id") or ""), name=str(c.get("name") or ""), args=dict(c.get("args") or {}))
            for c in row.get("tool_calls") or []
            if isinstance(c, dict)
        ]
        return AIMessage(content=text, tool_calls=calls)
    if kind == "tool":
        return ToolMessage(
            tool_call_id=str(row.get("tool_call_id") or ""), name=str(row.get("name") or ""), content=text
        )
    raise ValueError(f"Got unexpected type: {kind}")


class PostgresChatHistory:
    """One session's rows in one table (a connection per call, closed after it, as the PGVector store does)."""

    def __init__(self, connect: Connect, table: tuple[str, ...], session: str) -> None:
        self._connect = connect
        self.table = table
        self.session = session

    def _table_sql(self) -> Any:
        from psycopg import sql

        return sql.SQL(".").join(sql.Identifier(p) for p in self.table)

    async def _ensure_table(self, conn: Any) -> None:
        from psycopg import errors, sql

        query = sql.SQL(
            "CREATE TABLE IF NOT EXISTS {} (id SERIAL PRIMARY KEY, session_id VARCHAR(255) NOT NULL, "
            "message JSONB NOT NULL)"
        ).format(self._table_sql())
        try:
            await conn.execute(query)
        except errors.UniqueViolation:  # two sessions creating the table at once (LangChain ignores 23505 too)
            pass

    async def messages(self) -> list[dict[str, Any]]:
        """The session's stored messages, oldest first."""
        from psycopg import sql

        async with await self._connect() as conn:
            await self._ensure_table(conn)
            query = sql.SQL("SELECT message FROM {} WHERE session_id = %s ORDER BY id").format(self._table_sql())
            cursor = await conn.execute(query, (self.session,))
            return [row[0] for row in await cursor.fetchall()]

    async def add(self, rows: list[dict[str, Any]]) -> None:
        """Append ``rows`` (stored messages), one row each."""
        from psycopg import sql
        from psycopg.types.json import Jsonb

        async with await self._connect() as conn:
            await self._ensure_table(conn)
            query = sql.SQL("INSERT INTO {} (session_id, message) VALUES (%s, %s)").format(self._table_sql())
            for row in rows:
                await conn.execute(query, (self.session, Jsonb(row)))


class PostgresChatMemory(WindowChatMemory):
    """:class:`WindowChatMemory` over a :class:`PostgresChatHistory` instead of a key-value store."""

    def __init__(self, ctx: SupplyDataContext, history: PostgresChatHistory, turns: int) -> None:
        # the session key names the table too: it keys the execution's shared history list (lc_json.live_history)
        key = f"postgres:{'.'.join(history.table)}:{history.session}"
        super().__init__(ctx, InMemoryChatMemoryStore(), key, turns)
        self.history = history
        self._node_name = ctx.node.name

    async def stored(self) -> list[Message]:
        try:
            return [message_from_stored(row) for row in await self.history.messages()]
        except Exception as error:  # psycopg.Error, or a row LangChain could not read
            raise self._error(error) from error

    async def save(self, messages: list[Message], *, logged: bool = True) -> None:
        """Append a finished turn; the ``saveContext`` run logs the session's history read back from the table
        (LangChain's ``getMessages()`` is a new array each time, unlike Simple Memory's shared one: case a482)."""
        run = self._ctx.add_input_data(AI_MEMORY, [[{"json": save_action(messages)}]]) if logged else None
        await self.append_stored(messages)
        if run is not None:
            output = {"action": "saveContext", "chatHistory": lc_messages(await self.stored())}
            self._ctx.add_output_data(AI_MEMORY, run, [[{"json": output}]])

    async def append_stored(self, messages: list[Message]) -> None:
        try:
            await self.history.add([stored_message(m) for m in messages])
        except Exception as error:
            raise self._error(error) from error

    def _error(self, error: Exception) -> NodeOperationError:
        table = ".".join(self.history.table)
        return NodeOperationError(
            self._node_name,
            str(error).strip() or type(error).__name__,
            description=f"Postgres Chat Memory could not use the table '{table}': check the credential and the "
            "table (columns id, session_id, message JSONB).",
        )


class MemoryPostgresChat(NodeType):
    """Supplies a :class:`PostgresChatMemory` for the parent agent (credential ``postgres``)."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="@n8n/n8n-nodes-langchain.memoryPostgresChat",
        display_name="Postgres Chat Memory",
        versions=(1, 1.1, 1.2, 1.3, 1.4),
        description="Stores the chat history in Postgres table.",
        inputs=(),
        outputs=(AI_MEMORY,),
        credentials=("postgres",),
        defaults={"contextWindowLength": 5, "tableName": DEFAULT_TABLE},
    )

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> PostgresChatMemory:
        credentials = await ctx.get_credentials("postgres")
        table = table_parts(ctx.node.name, ctx.get_node_parameter("tableName", item_index, DEFAULT_TABLE), item_index)
        session = session_id(ctx, item_index, selector_from=1)
        try:
            kwargs = connection_kwargs(credentials)
        except ValueError as error:
            raise NodeOperationError(
                ctx.node.name, f"The Postgres credential cannot be used: {error}", description="Fix the credential."
            ) from error
        version = float(ctx.node.typeVersion)
        # typeVersion 1 is LangChain's BufferMemory (the whole history), later ones BufferWindowMemory
        turns = sys.maxsize if version < 1.1 else int(ctx.get_node_parameter("contextWindowLength", item_index, 5))
        return PostgresChatMemory(ctx, PostgresChatHistory(_connector(kwargs), table, session), turns)


def _connector(kwargs: dict[str, Any]) -> Connect:
    async def connect() -> Any:
        import psycopg

        return await psycopg.AsyncConnection.connect(**kwargs)

    return connect


__all__ = [
    "DEFAULT_TABLE",
    "MemoryPostgresChat",
    "PostgresChatHistory",
    "PostgresChatMemory",
    "message_from_stored",
    "stored_message",
    "table_parts",
]
