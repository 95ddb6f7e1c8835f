"""n8n's MySQL query runner (``configureQueryRunner`` and ``prepareOutput``): ``single`` (every query formatted
and joined into one multi-statement text), ``independently`` and ``transaction`` (one statement at a time)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from weft.errors import NodeOperationError
from weft.library.mysql._mysql_client import MySqlConnection, MySqlError
from weft.library.mysql._mysql_format import format_query, split_statements
from weft.nodes.contract import ExecuteContext
from weft.workflow import Item, PairedItem


@dataclass(frozen=True)
class MyQuery:
    """One item's query: ``?`` placeholders and their values."""

    text: str
    values: list[Any] = field(default_factory=list)
    item_index: int = 0


@dataclass(frozen=True)
class MyRunOptions:
    node_version: float
    batching: str = "single"
    detailed_output: bool = False


def node_error(
    ctx: ExecuteContext, error: MySqlError, index: int = 0, queries: list[str] | None = None
) -> NodeOperationError:
    """n8n's ``parseMySqlError``: a syntax error located by line, ``Connection refused``, ``sql: …, code: …``."""
    message = error.message
    if queries and "you have an error in your sql syntax" in message.lower():
        failed = message.split("near '", 1)[1] if "near '" in message else ""
        failed = failed.split("' at", 1)[0].split(";", 1)[0]
        if failed:
            position = index
            if position == 0 and len(queries) > 1:
                found = next((i for i, q in enumerate(queries) if failed in q), -1)
                position = found if found != -1 else position
            lines = queries[position].split("\n")
            line = next((i for i, text in enumerate(lines) if failed in text), -1)
            if line != -1:
                message = f"You have an error in your SQL syntax on line {line + 1} near '{failed}'"
    if "ECONNREFUSED" in error.message:
        message = "Connection refused"
    description = f"sql: {error.sql or 'undefined'}, code: {error.code or 'undefined'}"
    return NodeOperationError(ctx.node.name, message, description=description, item_index=index)


def _is_select(statements: list[str]) -> bool:
    kept = [s for s in statements if not s.startswith("--")]
    return all(re.sub(r"/\*.*?\*/", "", s).replace("\n", "").lower().startswith("select") for s in kept)


def prepare_output(responses: list[Any], options: MyRunOptions, statements: list[str], paired: Any) -> list[Item]:
    """Rows of each statement that gave rows (or ``{sql, data}`` per statement with ``detailedOutput``)."""
    out: list[Item] = []
    if options.detailed_output:
        for index, entry in enumerate(responses):
            sql = statements[index] if index < len(statements) else None
            out.append({"json": {"sql": sql, "data": entry}, "pairedItem": paired})
    else:
        rowsets = [r for r in responses if isinstance(r, list)]
        for index, rows in enumerate(rowsets):
            pair = (paired[index] if index < len(paired) else None) if isinstance(paired, list) else paired
            out.extend({"json": row, "pairedItem": pair} for row in rows if pair is not None)
            out.extend({"json": row} for row in rows if pair is None)
    if not out and (options.node_version < 2.2 or not _is_select(statements)):
        out.append({"json": {"success": True}, "pairedItem": paired})
    return out


async def run_queries(
    ctx: ExecuteContext, db: MySqlConnection, queries: list[MyQuery], options: MyRunOptions
) -> list[Item]:
    if not queries:
        return []
    if options.batching in ("independently", "transaction"):
        return await _one_by_one(ctx, db, queries, options)
    formatted = [format_query(q.text, q.values) for q in queries]
    text = formatted[0] if len(formatted) == 1 else ";".join(re.sub(r";$", "", q.strip()) for q in formatted)
    try:
        response = mysql2_response(await db.query(text))
    except MySqlError as error:
        failure = node_error(ctx, error, 0, formatted)
        if not ctx.continue_on_fail():
            raise failure from error
        return [{"json": {"message": failure.message, "error": _error_json(failure)}}]
    if options.node_version <= 2.3:
        statements = [s for s in text.replace("\n", "").split(";") if s != ""]
    else:
        statements = split_statements(text)
    # n8n: one statement's answer is wrapped; several statements' answers are a list already (by its split!)
    responses = [response] if not isinstance(response, list) or len(statements) == 1 else response
    paired: list[PairedItem] = [{"item": q.item_index} for q in queries]
    return prepare_output(responses, options, statements, paired)


def mysql2_response(results: list[Any]) -> Any:
    """What mysql2's ``query`` answers: one statement's rows (or its ResultSetHeader), or a list per statement."""
    return results[0] if len(results) == 1 else results


async def _one_by_one(
    ctx: ExecuteContext, db: MySqlConnection, queries: list[MyQuery], options: MyRunOptions
) -> list[Item]:
    transaction = options.batching == "transaction"
    out: list[Item] = []
    if transaction:
        await db.execute("START TRANSACTION")
    for query in queries:
        text = format_query(query.text, query.values)
        statements = (
            [s.strip() for s in text.split(";")] if options.node_version <= 2.3 else split_statements(text, False)
        )
        try:
            responses = [mysql2_response(await db.query(s)) for s in statements if s != ""]
        except MySqlError as error:
            failure = node_error(ctx, error, query.item_index, [text])
            if transaction:
                await db.execute("ROLLBACK")
            if not ctx.continue_on_fail():
                raise failure from error
            out.append(error_item(query, failure))
            if transaction:
                return out
            continue
        out.extend(prepare_output(responses, options, statements, {"item": query.item_index}))
    if transaction:
        await db.execute("COMMIT")
    return out


def error_item(query: MyQuery | dict[str, Any], error: NodeOperationError) -> Item:
    """n8n's ``prepareErrorItem``: the message, what failed and its item index."""
    what = (
        {"query": query.text, "values": query.values, "itemIndex": query.item_index}
        if isinstance(query, MyQuery)
        else query
    )
    index = error.item_index or 0
    json = {"message": error.message, "item": dict(what), "itemIndex": index}
    # n8n 2.41 puts the error beside the json: the engine then shows the item as {error: message}
    return {"json": json, "error": error.to_json(), "pairedItem": {"item": index}}


def _error_json(error: NodeOperationError) -> dict[str, Any]:
    data: dict[str, Any] = {"level": "warning", "tags": {}, "description": error.description}
    return data | {"timestamp": error.timestamp, "context": dict(error.context), "functionality": "regular"}


__all__ = ["MyQuery", "MyRunOptions", "error_item", "node_error", "prepare_output", "run_queries"]
