"""MySQL (``n8n-nodes-base.mySql`` 1, 2–2.5): Execute Query, Insert, Update, Upsert, Select and Delete on MySQL
or MariaDB through the ``mySql`` credential (aiomysql).

Version 2.x follows n8n's ``MySqlV2`` router: each operation builds ``?`` queries (:mod:`._mysql_ops`), the runner
(:mod:`._mysql_runner`) formats them as mysql2 does and sends them in the ``queryBatching`` mode. Version 1 is
n8n's ``MySqlV1``: Execute Query, Insert and Update (comma-separated columns), answering with mysql2's results.
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeOperationError
from weft.library.core._set_helpers import find_resolvables
from weft.library.mysql._mysql_client import MySqlConnection, MySqlError, ValueOptions
from weft.library.mysql._mysql_format import QueryError, escape_identifier, format_query, prepare_query
from weft.library.mysql._mysql_ops import (
    build_queries,
    delete_query,
    execute_query,
    insert_queries,
    replace_empty_strings,
    select_query,
    update_query,
    upsert_query,
)
from weft.library.mysql._mysql_runner import MyRunOptions, node_error, run_queries
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.values import js_string
from weft.workflow import Item, NodeOutput

VERSIONS = (1, 2, 2.1, 2.2, 2.3, 2.4, 2.5)
_BUILDERS = {
    "executeQuery": execute_query,
    "select": select_query,
    "deleteTable": delete_query,
    "update": update_query,
    "upsert": upsert_query,
}


class MySql(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.mySql",
        display_name="MySQL",
        versions=VERSIONS,
        description="Get, add and update data in MySQL",
        group=("input",),
        usable_as_tool=True,
        credentials=("mySql",),
        defaults={
            "resource": "database",
            "operation": "insert",
            "options": {},
            "query": "",
            "dataMode": "autoMapInputData",
            "limit": 50,
            "returnAll": False,
            "combineConditions": "AND",
            "deleteCommand": "truncate",
            "columnToMatchOn": "",
            "valueToMatchOn": "",
        },
    )

    #: n8n marks only version 2 and later ``usableAsTool`` (version 1 is an older class).
    tool_versions: ClassVar[tuple[float, ...]] = tuple(v for v in VERSIONS if v >= 2)

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        version = float(ctx.node.typeVersion)
        if version < 2:
            return [await _execute_v1(ctx)]
        return [await _execute_v2(ctx, version)]


async def _execute_v2(ctx: ExecuteContext, version: float) -> list[Item]:
    items = ctx.get_input_data()
    operation = ctx.get_node_parameter("operation", 0, "insert")
    options: dict[str, Any] = dict(ctx.get_node_parameter("options", 0, {}) or {})
    if ctx.get_node_parameter("resource", 0, "database") != "database" or (
        operation not in _BUILDERS and operation != "insert"
    ):
        raise NodeOperationError(ctx.node.name, f'The operation "{operation}" is not supported!')
    values = ValueOptions(
        date_strings=version >= 2.1,
        big_number_strings=options.get("largeNumbersOutput") == "text",
        decimal_numbers=options.get("decimalNumbers") is True,
    )
    credentials = await ctx.get_credentials("mySql")
    run = MyRunOptions(version, options.get("queryBatching") or "single", bool(options.get("detailedOutput")))
    items = replace_empty_strings(items, bool(options.get("replaceEmptyStrings")))
    async with _open(ctx, credentials, values, options.get("connectTimeout")) as db:
        errors: list[Item] = []
        if operation == "insert":
            queries = insert_queries(ctx, items, options)
        else:
            queries, errors = build_queries(ctx, items, _BUILDERS[operation], options)
        return errors + await run_queries(ctx, db, queries, run)


async def _execute_v1(ctx: ExecuteContext) -> list[Item]:
    items = ctx.get_input_data()
    operation = ctx.get_node_parameter("operation", 0, "insert")
    credentials = await ctx.get_credentials("mySql")
    async with _open(ctx, credentials, ValueOptions(date_strings=False)) as db:
        try:
            if operation == "executeQuery":
                return await _v1_queries(ctx, db, items)
            if operation in ("insert", "update"):
                results = await _v1_write(ctx, db, items, operation)
                return [{"json": r} for r in results]
        except (MySqlError, QueryError) as error:
            if ctx.continue_on_fail():
                return [{"json": {"error": str(error)}}]
            if isinstance(error, MySqlError):
                raise node_error(ctx, error) from error
            raise NodeOperationError(ctx.node.name, str(error)) from error
    if ctx.continue_on_fail():
        return [{"json": {"error": f'The operation "{operation}" is not supported!'}}]
    raise NodeOperationError(ctx.node.name, f'The operation "{operation}" is not supported!')


async def _v1_queries(ctx: ExecuteContext, db: MySqlConnection, items: list[Item]) -> list[Item]:
    out: list[Item] = []
    for index in range(len(items)):
        query = js_string(ctx.get_node_parameter("query", index, "")).strip()
        for resolvable in find_resolvables(query):
            query = query.replace(resolvable, js_string(ctx.evaluate_expression("=" + resolvable, index)))
        replacement = (ctx.get_node_parameter("options", index, {}) or {}).get("queryReplacement") or []
        if isinstance(replacement, str):
            replacement = [entry.strip() for entry in replacement.split(",")]
        if not isinstance(replacement, list):
            raise NodeOperationError(
                ctx.node.name,
                "Query Parameters must be a string of comma-separated values, or an array of values",
                item_index=index,
            )
        text, values = prepare_query(query, 2.5, replacement)
        result = (await db.query(format_query(text, values)))[0]
        rows = result if isinstance(result, list) else [result]
        out.extend({"json": row, "pairedItem": {"item": index}} for row in rows)
    return out


async def _v1_write(ctx: ExecuteContext, db: MySqlConnection, items: list[Item], operation: str) -> list[Any]:
    table = escape_identifier(js_string(ctx.get_node_parameter("table", 0, "", extract_value=True)))
    columns = [c.strip() for c in js_string(ctx.get_node_parameter("columns", 0, "")).split(",")]
    if operation == "insert":
        options = ctx.get_node_parameter("options", 0, {}) or {}
        head = f"INSERT {options.get('priority') or ''} {'IGNORE' if options.get('ignore') else ''}"
        names = ",".join(escape_identifier(c) for c in columns)
        rows = ",".join(f"({','.join('?' for _ in columns)})" for _ in items)
        values = [_copied(item, c) for item in items for c in columns]
        return list(await db.query(format_query(f"{head} INTO {table}({names}) VALUES {rows};", values)))
    key = js_string(ctx.get_node_parameter("updateKey", 0, "id"))
    if key not in columns:
        columns.insert(0, key)
    sets = ",".join(f"{escape_identifier(c)} = ?" for c in columns)
    sql = f"UPDATE {table} SET {sets} WHERE {escape_identifier(key)} = ?;"
    results = []
    for item in items:
        values = [_copied(item, c) for c in columns] + [_copied(item, key)]
        results.append((await db.query(format_query(sql, values)))[0])
    return results


def _open(
    ctx: ExecuteContext, credentials: dict[str, Any], values: ValueOptions, timeout: Any = None
) -> MySqlConnection:
    try:
        return MySqlConnection(credentials, values, timeout)
    except (MySqlError, ValueError, TypeError) as error:
        raise NodeOperationError(
            ctx.node.name, f"The MySQL credential cannot be used: {error}", description="Fix the 'mySql' credential."
        ) from error


def _copied(item: Item, column: str) -> Any:
    return item["json"].get(column)


__all__ = ["MySql"]
