"""The Postgres node's reading operations (version 2.x): Execute Query, Select and Delete, building pg-promise
queries (identifiers as ``$N:name``, values as ``$N``) exactly as n8n's operations do."""

from __future__ import annotations

import math
from typing import Any

from weft.errors import NodeOperationError
from weft.library.core._set_helpers import find_resolvables
from weft.library.postgres._postgres_runner import Query
from weft.nodes.contract import ExecuteContext
from weft.nodes.values import js_string, js_to_number
from weft.workflow import Item
from weft.workflow.jsjson import js_json

_CONDITIONS = {"equal", "=", "!=", "LIKE", ">", "<", ">=", "<=", "IS NULL", "IS NOT NULL"}


def table_names(ctx: ExecuteContext, index: int) -> tuple[Any, Any]:
    """The (schema, table) resource locators' values for an item."""
    schema = ctx.get_node_parameter("schema", index, {"value": "public"}, extract_value=True)
    table = ctx.get_node_parameter("table", index, extract_value=True)
    return schema, table


# --------------------------------------------------------------------------- clauses


def where_clauses(ctx: ExecuteContext, index: int) -> list[dict[str, Any]]:
    """n8n's ``getWhereClauses``: the ``where.values`` rows, or "Invalid where clause"."""
    clauses = (ctx.get_node_parameter("where", index, {}) or {}).get("values")
    if not isinstance(clauses, list):
        return []
    for clause in clauses:
        valid = isinstance(clause, dict) and "column" in clause and clause.get("condition") in _CONDITIONS
        if not valid:
            raise NodeOperationError(ctx.node.name, "Invalid where clause", item_index=index)
    return [dict(c) for c in clauses]


def add_where(query: str, clauses: list[dict[str, Any]], values: list[Any], combine: str) -> tuple[str, list[Any]]:
    """``addWhereClauses``: ``WHERE $N:name <condition> $M`` joined with AND/OR; comparisons of numbers numeric."""
    if not clauses:
        return query, values
    joiner = "OR" if combine == "OR" else "AND"
    values = list(values)
    parts: list[str] = []
    for position, clause in enumerate(clauses):
        condition = "=" if clause["condition"] == "equal" else clause["condition"]
        value = clause.get("value")
        if condition in (">", "<", ">=", "<="):
            number = js_to_number(value)
            if js_string(value).strip() != "" and not (isinstance(number, float) and math.isnan(number)):
                value = number
        values.append(clause["column"])
        text = f" ${len(values)}:name {condition}"
        if condition not in ("IS NULL", "IS NOT NULL"):
            values.append(value)
            text += f" ${len(values)}"
        parts.append(text + ("" if position == len(clauses) - 1 else f" {joiner}"))
    return query + " WHERE" + "".join(parts), values


def add_sort(query: str, rules: list[dict[str, Any]], values: list[Any]) -> tuple[str, list[Any]]:
    if not rules:
        return query, values
    values = list(values)
    parts: list[str] = []
    for rule in rules:
        values.append(rule.get("column"))
        parts.append(f" ${len(values)}:name {'DESC' if rule.get('direction') == 'DESC' else 'ASC'}")
    return query + " ORDER BY" + ",".join(parts), values


def add_returning(query: str, columns: Any, values: list[Any]) -> tuple[str, list[Any]]:
    if "*" in (columns or []):
        return f"{query} RETURNING *", values
    return f"{query} RETURNING ${len(values) + 1}:name", [*values, columns]


def replace_empty_strings(items: list[Item], replace: bool) -> list[Item]:
    if not replace:
        return items
    return [{**item, "json": {k: (None if v == "" else v) for k, v in item["json"].items()}} for item in items]


# --------------------------------------------------------------------------- operations


def select_queries(ctx: ExecuteContext, items: list[Item]) -> list[Query]:
    queries: list[Query] = []
    for index in range(len(items)):
        schema, table = table_names(ctx, index)
        values: list[Any] = [schema, table]
        columns = ctx.get_node_parameter("options.outputColumns", index, ["*"])
        if "*" in (columns or []):
            query = "SELECT * FROM $1:name.$2:name"
        else:
            values.append(columns)
            query = f"SELECT ${len(values)}:name FROM $1:name.$2:name"
        combine = ctx.get_node_parameter("combineConditions", index, "AND")
        query, values = add_where(query, where_clauses(ctx, index), values, combine)
        sort = (ctx.get_node_parameter("sort", index, {}) or {}).get("values") or []
        query, values = add_sort(query, sort, values)
        if not ctx.get_node_parameter("returnAll", index, False):
            values.append(_try_number(ctx.get_node_parameter("limit", index, 50)))
            query += f" LIMIT ${len(values)}"
        queries.append(Query(query, values))
    return queries


def _try_number(value: Any) -> Any:
    number = js_to_number(value)
    return value if isinstance(number, float) and math.isnan(number) else number


def delete_queries(ctx: ExecuteContext, items: list[Item]) -> list[Query]:
    queries: list[Query] = []
    for index in range(len(items)):
        cascade = " CASCADE" if (ctx.get_node_parameter("options", index, {}) or {}).get("cascade") else ""
        schema, table = table_names(ctx, index)
        command = ctx.get_node_parameter("deleteCommand", index, "truncate")
        values: list[Any] = [schema, table]
        query = ""
        if command == "drop":
            query = f"DROP TABLE IF EXISTS $1:name.$2:name{cascade}"
        elif command == "truncate":
            identity = " RESTART IDENTITY" if ctx.get_node_parameter("restartSequences", index, False) else ""
            query = f"TRUNCATE TABLE $1:name.$2:name{identity}{cascade}"
        elif command == "delete":
            combine = ctx.get_node_parameter("combineConditions", index, "AND")
            query, values = add_where("DELETE FROM $1:name.$2:name", where_clauses(ctx, index), values, combine)
        if not query:
            raise NodeOperationError(
                ctx.node.name,
                "Invalid delete command, only drop, delete and truncate are supported ",
                item_index=index,
            )
        queries.append(Query(query, values))
    return queries


def execute_queries(ctx: ExecuteContext, items: list[Item], version: float, options: dict[str, Any]) -> list[Query]:
    """Execute Query: each item's ``query`` with its Query Parameters (``options.queryReplacement``)."""
    queries: list[Query] = []
    for index in range(len(items)):
        query = js_string(ctx.get_node_parameter("query", index, ""))
        for resolvable in find_resolvables(query):
            query = query.replace(resolvable, js_string(ctx.evaluate_expression("=" + resolvable, index)))
        values = _replacement_values(ctx, index, version)
        replacement = ctx.get_node_parameter("options.queryReplacement", index, "")
        if not replacement or options.get("treatQueryParametersInSingleQuotesAsText"):
            query, values = _quoted_parameters_as_text(query, values)
        queries.append(Query(query, values, partial=True))
    return queries


def _replacement_values(ctx: ExecuteContext, index: int, version: float) -> list[Any]:
    replacement = ctx.get_node_parameter("options.queryReplacement", index, "")
    if isinstance(replacement, int | float) and not isinstance(replacement, bool):
        replacement = js_string(replacement)
    if isinstance(replacement, list):
        return list(replacement)
    if not isinstance(replacement, str):
        raise NodeOperationError(
            ctx.node.name,
            "Query Parameters must be a string of comma-separated values or an array of values",
            item_index=index,
        )
    raw = (ctx.node.parameters.get("options") or {}).get("queryReplacement")
    if not raw or not isinstance(raw, str):
        return []
    raw = raw.lstrip("=")
    if version < 2.5:
        return _legacy_replacements(ctx, index, raw)
    resolvables = find_resolvables(raw)
    if not resolvables:
        return _string_to_array(raw)
    values: list[Any] = []
    for resolvable in resolvables:
        evaluated = ctx.evaluate_expression("=" + resolvable, index)
        if isinstance(evaluated, list):  # n8n 2.41: an array gives one parameter per element
            values.extend(js_json(v) if isinstance(v, dict | list) else v for v in evaluated)
            continue
        text = _evaluated_text(evaluated)
        values.extend([text] if _is_json(text) else _string_to_array(text))
    return values


def _legacy_replacements(ctx: ExecuteContext, index: int, raw: str) -> list[Any]:
    values: list[Any] = []
    for entry in (e.strip() for e in raw.split(",") if e):
        resolvables = find_resolvables(entry)
        if resolvables:
            values.extend(ctx.evaluate_expression("=" + r, index) for r in resolvables)
        else:
            values.append(entry)
    return values


def _evaluated_text(value: Any) -> str:
    if value is None:
        return "null"
    return js_json(value) if isinstance(value, dict | list) else js_string(value)


def _is_json(text: str) -> bool:
    import json

    try:
        json.loads(text.strip())
    except ValueError:
        return False
    return True


def _string_to_array(text: str) -> list[Any]:
    return [entry.strip() for entry in text.split(",") if entry]


def _quoted_parameters_as_text(query: str, values: list[Any]) -> tuple[str, list[Any]]:
    """``'$1'`` in the query is text, not a parameter: it becomes a new parameter holding ``$1``."""
    import re

    values = list(values)
    for literal in re.findall(r"'\$[0-9]+'", query):
        values.append(literal.replace("'", ""))
        query = query.replace(literal, f"${len(values)}", 1)
    return query, values


__all__ = [
    "add_returning",
    "add_sort",
    "add_where",
    "delete_queries",
    "execute_queries",
    "replace_empty_strings",
    "select_queries",
    "table_names",
    "where_clauses",
]
