"""Postgres version 1 (n8n's ``PostgresV1``): Execute Query (``queryParams`` named by property), Insert and
Update of comma-separated ``columns`` (``name:type`` casts), in the ``multiple`` / ``transaction`` /
``independently`` modes of ``additionalFields.mode``. Queries are pg-promise's ``helpers.insert`` /
``helpers.update`` text, formatted by :mod:`._postgres_format`."""

from __future__ import annotations

import re

from weft.errors import NodeOperationError
from weft.library.core._set_helpers import find_resolvables
from weft.library.postgres._postgres_client import PgConnection, PgError, open_connection
from weft.library.postgres._postgres_format import FormatError, as_name, concat, format_query, format_value
from weft.library.postgres._postgres_types import parsers_for
from weft.nodes.contract import ExecuteContext
from weft.nodes.values import js_string
from weft.workflow import Item, NodeOutput

_CAST = re.compile(r"^[A-Za-z_][A-Za-z0-9_ ]*(\([0-9, ]+\))?(\[\])*$")
Column = tuple[str, str | None]


async def execute_v1(ctx: ExecuteContext) -> NodeOutput:
    credentials = await ctx.get_credentials("postgres")
    large = ctx.get_node_parameter("additionalFields.largeNumbersOutput", 0, "")
    parsers = parsers_for(1, large if large in ("numbers", "text") else "text")
    items = ctx.get_input_data()
    operation = ctx.get_node_parameter("operation", 0, "insert")
    mode = ctx.get_node_parameter("additionalFields.mode", 0, "multiple") or "multiple"
    if mode not in ("multiple", "transaction", "independently"):
        raise NodeOperationError(ctx.node.name, "multiple, independently or transaction are valid options")
    async with open_connection(ctx.node.name, credentials, parsers) as db:
        try:
            if operation == "executeQuery":
                return [await _run(ctx, db, _query_texts(ctx, items), mode, items)]
            if operation in ("insert", "update"):
                return [await _run(ctx, db, _write_texts(ctx, items, operation), mode, items)]
        except (PgError, FormatError) as error:
            raise NodeOperationError(ctx.node.name, str(error)) from error
    raise NodeOperationError(ctx.node.name, f'The operation "{operation}" is not supported!')


def _query_texts(ctx: ExecuteContext, items: list[Item]) -> list[str]:
    params = ctx.get_node_parameter("additionalFields.queryParams", 0, "") or ""
    names = [p.strip() for p in params.split(",")] if params else []
    texts: list[str] = []
    for index, item in enumerate(items):
        query = js_string(ctx.get_node_parameter("query", index, ""))
        for resolvable in find_resolvables(query):
            query = query.replace(resolvable, js_string(ctx.evaluate_expression("=" + resolvable, index)))
        values = [item["json"].get(name) for name in names] if names else []
        texts.append(format_query(query, values))
    return texts


def _columns(text: str) -> list[Column]:
    columns: list[Column] = []
    for entry in text.split(","):
        name, _, cast = entry.strip().partition(":")
        if cast and not _CAST.match(cast):
            raise FormatError(f'Invalid column type: "{cast}"')
        columns.append((name, cast or None))
    return columns


def _returning(ctx: ExecuteContext) -> str:
    fields = js_string(ctx.get_node_parameter("returnFields", 0, "*"))
    return " RETURNING " + ", ".join(as_name(f.strip()) for f in fields.split(","))


def _value(item: Item, column: Column) -> str:
    text = format_value(item["json"].get(column[0]))
    return f"{text}::{column[1]}" if column[1] else text


def _write_texts(ctx: ExecuteContext, items: list[Item], operation: str) -> list[str]:
    """One statement per item (``helpers.insert`` / ``helpers.update`` of a single row)."""
    schema = ctx.get_node_parameter("schema", 0, "public")
    schema = "public" if isinstance(schema, dict) else schema  # version 2's resource locator default
    table = as_name(schema) + "." + as_name(ctx.get_node_parameter("table", 0))
    columns = _columns(js_string(ctx.get_node_parameter("columns", 0, "")))
    returning = _returning(ctx)
    if operation == "insert":
        names = ",".join(as_name(c[0]) for c in columns)
        return [
            f"insert into {table}({names}) values({','.join(_value(i, c) for c in columns)}){returning}" for i in items
        ]
    keys = _columns(js_string(ctx.get_node_parameter("updateKey", 0, "id")))
    columns = [k for k in keys if k[0] not in {c[0] for c in columns}] + columns
    texts = []
    for item in items:
        sets = ",".join(f"{as_name(c[0])}={_value(item, c)}" for c in columns)
        where = " AND ".join(f"{as_name(k[0])} = {format_value(item['json'].get(k[0]))}" for k in keys)
        texts.append(f"update {table} set {sets} WHERE {where}{returning}")
    return texts


async def _run(ctx: ExecuteContext, db: PgConnection, texts: list[str], mode: str, items: list[Item]) -> list[Item]:
    if mode == "multiple":
        results = await db.multi(concat([(t, [], False) for t in texts]))
        return [{"json": row, "pairedItem": {"item": i}} for i, rows in enumerate(results) for row in rows]
    out: list[Item] = []
    if mode == "transaction":
        await db.begin()
    for index, text in enumerate(texts):
        try:
            rows = await db.any(text)
        except PgError as error:
            if not ctx.continue_on_fail():
                if mode == "transaction":
                    await db.rollback()
                raise
            out.append({"json": {**items[index]["json"]}, "pairedItem": {"item": index}, "message": error.message})  # type: ignore[typeddict-unknown-key]
            if mode == "transaction":
                await db.rollback()
                return out
            continue
        out.extend({"json": row, "pairedItem": {"item": index}} for row in rows)
    if mode == "transaction":
        await db.commit()
    return out


__all__ = ["execute_v1"]
