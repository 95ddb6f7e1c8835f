"""The MySQL node's operations (version 2.x): Execute Query, Insert, Update, Upsert, Select and Delete, building
``?`` queries with backtick-quoted identifiers exactly as n8n's operations do."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from weft.errors import NodeError, NodeOperationError
from weft.library.core._set_helpers import find_resolvables
from weft.library.mysql._mysql_format import QueryError, escape_identifier, prepare_query
from weft.library.mysql._mysql_runner import MyQuery, error_item
from weft.nodes.contract import ExecuteContext
from weft.nodes.values import js_string, js_to_number
from weft.workflow import Item

_CONDITIONS = {"equal", "=", "!=", "LIKE", ">", "<", ">=", "<=", "IS NULL", "IS NOT NULL"}
Builder = Callable[[ExecuteContext, list[Item], int, dict[str, Any]], MyQuery]


def replace_empty_strings(items: list[Item], replace: bool) -> list[Item]:
    if not replace:
        return list(items)
    return [{**item, "json": {k: (None if v == "" else v) for k, v in item["json"].items()}} for item in items]


def _table(ctx: ExecuteContext, index: int) -> str:
    return escape_identifier(js_string(ctx.get_node_parameter("table", index, extract_value=True)))


def _where(ctx: ExecuteContext, index: int, query: str, values: list[Any]) -> tuple[str, list[Any]]:
    """``getWhereClauses`` + ``addWhereClauses``: comparisons need numbers (n8n's error otherwise)."""
    clauses = (ctx.get_node_parameter("where", index, {}) or {}).get("values")
    if not isinstance(clauses, list) or not clauses:
        return query, values
    if any(not isinstance(c, dict) or "column" not in c or c.get("condition") not in _CONDITIONS for c in clauses):
        raise NodeOperationError(ctx.node.name, "Invalid where clause", item_index=index)
    joiner = "OR" if ctx.get_node_parameter("combineConditions", index, "AND") == "OR" else "AND"
    values, text = list(values), " WHERE"
    for position, clause in enumerate(clauses):
        condition, value = ("=" if clause["condition"] == "equal" else clause["condition"]), clause.get("value")
        if condition in (">", "<", ">=", "<="):
            number = js_to_number(value)
            if isinstance(number, float) and math.isnan(number):
                raise NodeOperationError(
                    ctx.node.name,
                    f"Operator in entry {position + 1} of 'Select Rows' works with numbers, but value "
                    f"{js_string(value)} is not a number",
                    item_index=index,
                )
            value = number
        placeholder = " "
        if condition not in ("IS NULL", "IS NOT NULL"):
            placeholder = " ?"
            values.append(value)
        end = "" if position == len(clauses) - 1 else f" {joiner}"
        text += f" {escape_identifier(js_string(clause['column']))} {condition}{placeholder}{end}"
    return query + text, values


def select_query(ctx: ExecuteContext, items: list[Item], index: int, _options: dict[str, Any]) -> MyQuery:
    columns = ctx.get_node_parameter("options.outputColumns", index, ["*"]) or ["*"]
    select = "SELECT DISTINCT" if ctx.get_node_parameter("options.selectDistinct", index, False) else "SELECT"
    names = "*" if "*" in columns else ", ".join(escape_identifier(js_string(c)) for c in columns)
    query, values = _where(ctx, index, f"{select} {names} FROM {_table(ctx, index)}", [])
    rules = (ctx.get_node_parameter("sort", index, {}) or {}).get("values") or []
    if rules:
        order = ", ".join(
            f"{escape_identifier(js_string(r.get('column')))} {'ASC' if r.get('direction') == 'ASC' else 'DESC'}"
            for r in rules
        )
        query += " ORDER BY " + order
    if not ctx.get_node_parameter("returnAll", index, False):
        query += " LIMIT ?"
        values.append(ctx.get_node_parameter("limit", index, 50))
    return MyQuery(query, values, index)


def delete_query(ctx: ExecuteContext, items: list[Item], index: int, _options: dict[str, Any]) -> MyQuery:
    command = ctx.get_node_parameter("deleteCommand", index, "truncate")
    table = _table(ctx, index)
    if command == "drop":
        return MyQuery(f"DROP TABLE IF EXISTS {table}", [], index)
    if command == "truncate":
        return MyQuery(f"TRUNCATE TABLE {table}", [], index)
    if command == "delete":
        query, values = _where(ctx, index, f"DELETE FROM {table}", [])
        return MyQuery(query, values, index)
    raise NodeOperationError(
        ctx.node.name, "Invalid delete command, only drop, delete and truncate are supported ", item_index=index
    )


def execute_query(ctx: ExecuteContext, items: list[Item], index: int, options: dict[str, Any]) -> MyQuery:
    version = float(ctx.node.typeVersion)
    query = js_string(ctx.get_node_parameter("query", index, ""))
    for resolvable in find_resolvables(query):
        query = query.replace(resolvable, js_string(ctx.evaluate_expression("=" + resolvable, index)))
    replacement = (ctx.get_node_parameter("options", index, {}) or {}).get("queryReplacement") or []
    if isinstance(replacement, str):
        replacement = [entry.strip() for entry in replacement.split(",")]
    if not isinstance(replacement, list):
        raise NodeOperationError(
            ctx.node.name,
            "Query Replacement must be a string of comma-separated values, or an array of values",
            item_index=index,
        )
    try:
        text, values = prepare_query(query, version, replacement)
    except QueryError as error:
        raise NodeOperationError(ctx.node.name, str(error), item_index=index) from error
    if version >= 2.3:  # n8n: `Number(value) ? Number(value) : value`
        values = [_number_or_value(v) for v in values]
    return MyQuery(text, values, index)


def _number_or_value(value: Any) -> Any:
    number = js_to_number(value)
    if (isinstance(number, float) and math.isnan(number)) or number == 0:
        return value
    return number


def _manual_values(ctx: ExecuteContext, index: int) -> dict[str, Any]:
    rows = (ctx.get_node_parameter("valuesToSend", index, {}) or {}).get("values") or []
    return {js_string(row.get("column")): row.get("value") for row in rows}


def update_query(ctx: ExecuteContext, items: list[Item], index: int, _options: dict[str, Any]) -> MyQuery:
    match = js_string(ctx.get_node_parameter("columnToMatchOn", index, ""))
    if ctx.get_node_parameter("dataMode", index, "autoMapInputData") == "defineBelow":
        item, target = _manual_values(ctx, index), ctx.get_node_parameter("valueToMatchOn", index, "")
    else:
        item = dict(items[index]["json"])
        target = item.get(match)
    columns = [c for c in item if c != match]
    values = [item[c] for c in columns] + [target]
    sets = ", ".join(f"{escape_identifier(c)} = ?" for c in columns)
    return MyQuery(f"UPDATE {_table(ctx, index)} SET {sets} WHERE {escape_identifier(match)} = ?", values, index)


def upsert_query(ctx: ExecuteContext, items: list[Item], index: int, _options: dict[str, Any]) -> MyQuery:
    match = js_string(ctx.get_node_parameter("columnToMatchOn", index, ""))
    if ctx.get_node_parameter("dataMode", index, "autoMapInputData") == "defineBelow":
        item = _manual_values(ctx, index)
        item[match] = ctx.get_node_parameter("valueToMatchOn", index, "")
    else:
        item = dict(items[index]["json"])
    names = ", ".join(escape_identifier(c) for c in item)
    insert = f"INSERT INTO {_table(ctx, index)}({names}) VALUES({','.join('?' for _ in item)})"
    updates = [c for c in item if c != match]
    sets = ", ".join(f"{escape_identifier(c)} = ?" for c in updates)
    return MyQuery(f"{insert} ON DUPLICATE KEY UPDATE {sets}", [*item.values(), *(item[c] for c in updates)], index)


def insert_queries(ctx: ExecuteContext, items: list[Item], options: dict[str, Any]) -> list[MyQuery]:
    """Insert: one multi-row INSERT in ``single`` batching, else one per item."""
    manual = ctx.get_node_parameter("dataMode", 0, "autoMapInputData") == "defineBelow"
    table = _table(ctx, 0)
    if (options.get("queryBatching") or "single") == "single":
        rows = [_manual_values(ctx, i) for i in range(len(items))] if manual else [dict(i["json"]) for i in items]
        columns = list(dict.fromkeys(c for row in rows for c in row))
        priority, ignore = options.get("priority") or "", "IGNORE" if options.get("skipOnConflict") else ""
        placeholders = ",".join(f"({','.join('?' for _ in columns)})" for _ in items)
        names = ", ".join(escape_identifier(c) for c in columns)
        query = f"INSERT {priority} {ignore} INTO {table} ({names}) VALUES {placeholders}"
        # auto-map: n8n's copyInputItems gives every row every column (null where missing); manual rows as given
        values = [v for row in rows for v in (row.values() if manual else (row.get(c) for c in columns))]
        return [MyQuery(query, values, 0)]
    queries = []
    for index in range(len(items)):
        row = _manual_values(ctx, index) if manual else dict(items[index]["json"])
        item_options = ctx.get_node_parameter("options", index, {}) or {}
        priority, ignore = item_options.get("priority") or "", "IGNORE" if item_options.get("skipOnConflict") else ""
        names = ", ".join(escape_identifier(c) for c in row)
        query = f"INSERT {priority} {ignore} INTO {table} ({names}) VALUES ({','.join('?' for _ in row)});"
        queries.append(MyQuery(query, list(row.values()), index))
    return queries


def build_queries(
    ctx: ExecuteContext, items: list[Item], builder: Builder, options: dict[str, Any]
) -> tuple[list[MyQuery], list[Item]]:
    """Each item's query; with continue-on-fail an item whose query cannot be built becomes an error item."""
    queries: list[MyQuery] = []
    errors: list[Item] = []
    for index in range(len(items)):
        try:
            queries.append(builder(ctx, items, index, options))
        except NodeError as error:
            if not ctx.continue_on_fail():
                raise
            failure = (
                error if isinstance(error, NodeOperationError) else NodeOperationError(ctx.node.name, error.message)
            )
            failure.item_index = index
            errors.append(error_item(dict(items[index]["json"]), failure))
    return queries, errors


__all__ = [
    "build_queries",
    "delete_query",
    "execute_query",
    "insert_queries",
    "replace_empty_strings",
    "select_query",
    "update_query",
    "upsert_query",
]
