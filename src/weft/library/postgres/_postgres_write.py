"""The Postgres node's writing operations (version 2.x): Insert, Update and Upsert, with n8n's checks of each
item against the table's columns (``information_schema``) and its array and JSON conversions."""

from __future__ import annotations

import json
from typing import Any

from weft.errors import NodeOperationError
from weft.library.postgres._postgres_client import PgConnection
from weft.library.postgres._postgres_format import format_query
from weft.library.postgres._postgres_ops import add_returning, table_names
from weft.library.postgres._postgres_runner import Query
from weft.nodes.contract import ExecuteContext
from weft.nodes.values import js_string
from weft.workflow import Item
from weft.workflow.jsjson import js_json

_MATCH_MISSING = (
    "Column to match on not found in input item. Add a column to match on or set the 'Data Mode' to "
    "'Define Below' to define the value to match on."
)


class Schemas:
    """``getTableSchema`` with n8n's ``configureTableSchemaUpdater``: re-read when the item names another table."""

    def __init__(self, db: PgConnection) -> None:
        self._db = db
        self._key: tuple[Any, Any] | None = None
        self.columns: list[dict[str, Any]] = []

    async def load(self, schema: Any, table: Any) -> list[dict[str, Any]]:
        if self._key != (schema, table):
            self._key = (schema, table)
            query = (
                "SELECT column_name, data_type, is_nullable, udt_name, column_default FROM information_schema.columns "
                "WHERE table_schema = $1 AND table_name = $2"
            )
            self.columns = await self._db.any(format_query(query, [schema, table]))
        return self.columns


def _item_values(ctx: ExecuteContext, items: list[Item], index: int, version: float, columns: list[Any]) -> Any:
    mode = ctx.get_node_parameter("dataMode" if version < 2.2 else "columns.mappingMode", index, "autoMapInputData")
    if mode == "autoMapInputData":
        return dict(items[index]["json"])
    if mode != "defineBelow":
        return {}
    if version < 2.2:
        rows = (ctx.get_node_parameter("valuesToSend", index, {}) or {}).get("values") or []
        return {row.get("column"): row.get("value") for row in rows}
    value = dict(ctx.get_node_parameter("columns.value", index, {}) or {})
    if any(c.get("data_type") == "json" for c in columns):  # pgp.as.json(value, true) for json columns
        for column in columns:
            name = column["column_name"]
            if column.get("data_type") == "json" and value.get(name) is not None:
                value[name] = js_json(value[name])
    return value


def convert_arrays(ctx: ExecuteContext, data: dict[str, Any], columns: list[dict[str, Any]], index: int) -> Any:
    """``convertArraysToPostgresFormat`` (2.4+): a JSON array for an ARRAY column becomes ``{"a","b"}``."""
    data = json.loads(json.dumps(data))
    for column in columns:
        if str(column.get("data_type", "")).upper() != "ARRAY":
            continue
        name = column["column_name"]
        value = data.get(name)
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except ValueError as error:
                raise NodeOperationError(
                    ctx.node.name, f"Column '{name}' has to be an array", item_index=index
                ) from error
        if isinstance(value, list):
            data[name] = "{" + ",".join(_array_entry(v) for v in value) + "}"
        elif column.get("is_nullable") == "NO":
            raise NodeOperationError(ctx.node.name, f"Column '{name}' has to be an array", item_index=index)
    return data


def _array_entry(entry: Any) -> str:
    if isinstance(entry, int | float) and not isinstance(entry, bool):
        return js_string(entry)
    text = js_string(entry) if not isinstance(entry, dict | list) else js_json(entry)
    return '"' + text.replace('"', '\\"') + '"'


def check_against_schema(ctx: ExecuteContext, item: Any, columns: list[dict[str, Any]], index: int) -> Any:
    if not columns:
        return item
    known = {c["column_name"]: c.get("is_nullable") == "YES" for c in columns}
    for key in item:
        if key not in known:
            raise NodeOperationError(
                ctx.node.name, f"Column '{key}' does not exist in selected table", item_index=index
            )
        if item[key] is None and not known[key]:
            raise NodeOperationError(ctx.node.name, f"Column '{key}' is not nullable", item_index=index)
    return item


async def _prepared(
    ctx: ExecuteContext, schemas: Schemas, items: list[Item], index: int, version: float
) -> tuple[Any, Any, dict[str, Any]]:
    schema, table = table_names(ctx, index)
    item = _item_values(ctx, items, index, version, schemas.columns)
    columns = await schemas.load(schema, table)
    if version >= 2.4:
        item = convert_arrays(ctx, item, columns, index)
    return schema, table, item


async def insert_query(ctx: ExecuteContext, schemas: Schemas, items: list[Item], index: int, version: float) -> Query:
    schema, table, item = await _prepared(ctx, schemas, items, index, version)
    conflict = " ON CONFLICT DO NOTHING" if ctx.get_node_parameter("options.skipOnConflict", index, False) else ""
    query = f"INSERT INTO $1:name.$2:name($3:name) VALUES($3:csv){conflict}"
    values = [schema, table, check_against_schema(ctx, item, schemas.columns, index)]
    if version >= 2.6 and not item:
        query = "INSERT INTO $1:name.$2:name DEFAULT VALUES"
    query, values = add_returning(query, ctx.get_node_parameter("options.outputColumns", index, ["*"]), values)
    return Query(query, values)


def _match_columns(ctx: ExecuteContext, index: int, version: float) -> list[Any]:
    if version < 2.2:
        return [ctx.get_node_parameter("columnToMatchOn", index, "")]
    return list(ctx.get_node_parameter("columns.matchingColumns", index, []) or [])


async def update_query(
    ctx: ExecuteContext, schemas: Schemas, items: list[Item], index: int, version: float, db: PgConnection
) -> Query:
    match = _match_columns(ctx, index, version)
    schema, table = table_names(ctx, index)
    item = _item_values(ctx, items, index, version, schemas.columns)
    mode = ctx.get_node_parameter("dataMode" if version < 2.2 else "columns.mappingMode", index, "autoMapInputData")
    conditions: list[str] = []
    values: list[Any] = [schema, table]
    if version < 2.2:
        target = item.get(match[0]) if mode == "autoMapInputData" else ctx.get_node_parameter("valueToMatchOn", index)
        if mode == "defineBelow":
            item[match[0]] = target
        if mode == "autoMapInputData" and not item.get(match[0]):
            raise NodeOperationError(ctx.node.name, _MATCH_MISSING)
        values += [match[0], target]
        conditions.append("$3:name = $4")
    else:
        await _row_must_exist(ctx, db, schema, table, [(c, item.get(c)) for c in match], index)
    columns = await schemas.load(schema, table)
    if version >= 2.4:
        item = convert_arrays(ctx, item, columns, index)
    item = check_against_schema(ctx, item, columns, index)
    if version >= 2.2:
        for column in match:
            values += [column, item.get(column)]
            conditions.append(f"${len(values) - 1}:name = ${len(values)}")
    updates = _set_list(item, match, values)
    if not updates:
        raise NodeOperationError(
            ctx.node.name,
            "Add values to update to the input item or set the 'Data Mode' to 'Define Below' to define the values "
            "to update.",
        )
    query = f"UPDATE $1:name.$2:name SET {', '.join(updates)} WHERE {' AND '.join(conditions)}"
    query, values = add_returning(query, ctx.get_node_parameter("options.outputColumns", index, ["*"]), values)
    return Query(query, values)


def _set_list(item: dict[str, Any], match: list[Any], values: list[Any]) -> list[str]:
    updates: list[str] = []
    for column in (c for c in item if c not in match):
        values += [column, item[column]]
        updates.append(f"${len(values) - 1}:name = ${len(values)}")
    return updates


async def _row_must_exist(
    ctx: ExecuteContext, db: PgConnection, schema: Any, table: Any, pairs: list[tuple[Any, Any]], index: int
) -> None:
    """``doesRowExist``, or n8n's "The row you are trying to update doesn't exist"."""
    where = " AND ".join(f"${i}:name=${i + 1}" for i in range(3, 3 + 2 * len(pairs), 2))
    values = [schema, table, *(x for pair in pairs for x in pair)]
    query = format_query(f"SELECT EXISTS(SELECT 1 FROM $1:name.$2:name WHERE {where})", values)
    rows = await db.any(query)
    if rows and rows[0].get("exists"):
        return
    found = ", ".join(f"{c}={js_string(v) if v is not None else 'null'}" for c, v in pairs)
    raise NodeOperationError(
        ctx.node.name,
        "The row you are trying to update doesn't exist",
        description=f'No rows matching the provided values ({found}) were found in the table "{table}".',
        item_index=index,
    )


async def upsert_query(ctx: ExecuteContext, schemas: Schemas, items: list[Item], index: int, version: float) -> Query:
    match = _match_columns(ctx, index, version)
    schema, table = table_names(ctx, index)
    item = _item_values(ctx, items, index, version, schemas.columns)
    if version < 2.2 and ctx.get_node_parameter("dataMode", index, "autoMapInputData") == "defineBelow":
        item[match[0]] = ctx.get_node_parameter("valueToMatchOn", index)
    if not item.get(match[0]):
        raise NodeOperationError(ctx.node.name, _MATCH_MISSING)
    if len(item) == 1:
        raise NodeOperationError(
            ctx.node.name,
            "Add values to update or insert to the input item or set the 'Data Mode' to 'Define Below' to define "
            "the values to insert or update.",
        )
    columns = await schemas.load(schema, table)
    if version >= 2.4:
        item = convert_arrays(ctx, item, columns, index)
    item = check_against_schema(ctx, item, columns, index)
    values: list[Any] = [schema, table, *match]
    conflict = ",".join(f"${i + 3}:name" for i in range(len(match)))
    values.append(item)
    at = len(values)
    insert = f"INSERT INTO $1:name.$2:name(${at}:name) VALUES(${at}:csv) ON CONFLICT ({conflict})"
    updates = _set_list(item, match, values)
    update = f" DO UPDATE  SET {', '.join(updates)}" if updates else " DO NOTHING "
    query, values = add_returning(
        insert + update, ctx.get_node_parameter("options.outputColumns", index, ["*"]), values
    )
    return Query(query, values)


__all__ = ["Schemas", "check_against_schema", "convert_arrays", "insert_query", "update_query", "upsert_query"]
