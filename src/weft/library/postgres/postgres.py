"""Postgres (``n8n-nodes-base.postgres`` 1, 2–2.7): Execute Query, Insert, Upsert, Update, Select and Delete on
PostgreSQL through the ``postgres`` credential (psycopg 3).

Version 2.x follows n8n's ``PostgresV2`` router: every operation builds pg-promise queries (identifiers as
``$N:name``, values as ``$N``, formatted by :mod:`._postgres_format`), and the runner
(:mod:`._postgres_runner`) sends them in the ``queryBatching`` mode of the options. Values come back as n8n gives
them (:mod:`._postgres_types`). Version 1 is n8n's ``PostgresV1`` (:mod:`._postgres_v1`).
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeError, NodeOperationError
from weft.library.postgres._postgres_client import PgConnection, PgError, node_error, open_connection
from weft.library.postgres._postgres_ops import (
    delete_queries,
    execute_queries,
    replace_empty_strings,
    select_queries,
    table_names,
)
from weft.library.postgres._postgres_runner import Query, RunOptions, run_queries
from weft.library.postgres._postgres_types import parsers_for
from weft.library.postgres._postgres_write import Schemas, insert_query, update_query, upsert_query
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import Item, NodeOutput

VERSIONS = (1, 2, 2.1, 2.2, 2.3, 2.4, 2.5, 2.6, 2.7)
_WRITES = ("insert", "update", "upsert")


class Postgres(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.postgres",
        display_name="Postgres",
        versions=VERSIONS,
        description="Get, add and update data in Postgres",
        group=("input",),
        usable_as_tool=True,
        credentials=("postgres",),
        defaults={
            "resource": "database",
            "operation": "insert",
            "schema": {"__rl": True, "mode": "list", "value": "public"},
            "options": {},
            "query": "",
            "limit": 50,
            "returnAll": False,
            "combineConditions": "AND",
            "deleteCommand": "truncate",
            "restartSequences": False,
        },
    )

    #: n8n marks only version 2 and later ``usableAsTool`` (version 1 is an older class).
    tool_versions: ClassVar[tuple[float, ...]] = tuple(v for v in VERSIONS if v >= 2)

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        version = float(ctx.node.typeVersion)
        if version < 2:
            from weft.library.postgres._postgres_v1 import execute_v1

            return await execute_v1(ctx)
        return [await _execute_v2(ctx, version)]


async def _execute_v2(ctx: ExecuteContext, version: float) -> list[Item]:
    items = ctx.get_input_data()
    operation = ctx.get_node_parameter("operation", 0, "insert")
    options: dict[str, Any] = dict(ctx.get_node_parameter("options", 0, {}) or {})
    if ctx.get_node_parameter("resource", 0, "database") != "database":
        raise NodeOperationError(ctx.node.name, f'The operation "{operation}" is not supported!')
    credentials = await ctx.get_credentials("postgres")
    parsers = parsers_for(version, str(options.get("largeNumbersOutput") or "text"))
    run = RunOptions(operation=operation, node_version=version, batching=options.get("queryBatching") or "single")
    async with open_connection(ctx.node.name, credentials, parsers, options.get("connectionTimeout")) as db:
        try:
            if operation in _WRITES:
                return await _write(ctx, db, items, version, run, options)
            queries = _read_queries(ctx, items, operation, version, options)
            return await run_queries(ctx, db, queries, run)
        except PgError as error:  # a connection or schema query failed outside the runner
            raise node_error(ctx.node.name, error, []) from error


def _read_queries(
    ctx: ExecuteContext, items: list[Item], operation: str, version: float, options: dict[str, Any]
) -> list[Query]:
    if operation == "executeQuery":
        return execute_queries(
            ctx, replace_empty_strings(items, options.get("replaceEmptyStrings", False)), version, options
        )
    if operation == "select":
        return select_queries(ctx, replace_empty_strings(items, options.get("replaceEmptyStrings", False)))
    if operation == "deleteTable":
        return delete_queries(ctx, items)
    raise NodeOperationError(
        ctx.node.name,
        f'The operation "{operation}" is not supported!',
        description="Use one of deleteTable, executeQuery, insert, upsert, select, update.",
    )


async def _write(
    ctx: ExecuteContext, db: PgConnection, items: list[Item], version: float, run: RunOptions, options: dict[str, Any]
) -> list[Item]:
    """Insert/Update/Upsert: one query per item; an item that fails its checks is an error item (continue on fail)
    and, unless the batching is ``independently``, nothing runs."""
    items = replace_empty_strings(items, options.get("replaceEmptyStrings", False))
    schemas = Schemas(db)
    await schemas.load(*table_names(ctx, 0))
    queries: list[Query] = []
    errors: dict[int, Item] = {}
    for index in range(len(items)):
        try:
            queries.append(await _write_query(ctx, db, schemas, items, index, version, run.operation))
        except NodeError as error:
            if not ctx.continue_on_fail():
                raise
            errors[index] = {"json": {"error": _thrown_json(error)}, "pairedItem": {"item": index}}
    if errors and run.batching != "independently":
        return list(errors.values())
    out = await run_queries(ctx, db, queries, run)
    return _merge_errors(out, errors)


async def _write_query(
    ctx: ExecuteContext, db: PgConnection, schemas: Schemas, items: list[Item], index: int, version: float, op: str
) -> Query:
    if op == "insert":
        return await insert_query(ctx, schemas, items, index, version)
    if op == "update":
        return await update_query(ctx, schemas, items, index, version, db)
    return await upsert_query(ctx, schemas, items, index, version)


def _merge_errors(out: list[Item], errors: dict[int, Item]) -> list[Item]:
    """``runQueriesAndHandleErrors``: error items back at their item's position among the results."""
    if not errors:
        return out
    total = len(out) + len(errors)
    results = iter(out)
    return [errors[i] if i in errors else next(results) for i in range(total)]


def _thrown_json(error: NodeError) -> dict[str, Any]:
    """An n8n error object as JSON (its ``toJSON``), as an operation's checks put it in ``{json: {error}}``."""
    data: dict[str, Any] = {"message": error.message, "timestamp": error.timestamp, "name": "NodeOperationError"}
    return data | {"context": dict(error.context), "cause": {"name": "Error", "message": error.message}}


__all__ = ["Postgres"]
