"""n8n's Postgres query runner (``configureQueryRunner``): the three ``queryBatching`` modes and their outputs.

- ``single``: every query formatted and concatenated into one multi-statement message; each *statement's* rows
  pair with the statement's index (n8n's quirk: not the item's), ``{success: true}`` when nothing came back.
- ``transaction``: one query per item inside ``BEGIN … COMMIT``; an error rolls everything back (or, with
  continue-on-fail, ends the run with an error item).
- ``independently``: one query per item, each on its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from weft.errors import NodeError
from weft.library.postgres._postgres_client import PgConnection, PgError, node_error
from weft.library.postgres._postgres_format import FormatError, concat, format_query
from weft.nodes.contract import ExecuteContext
from weft.workflow import Item, PairedItem


@dataclass(frozen=True)
class Query:
    """One item's query: pg-promise text with ``$N`` variables and its values."""

    text: str
    values: list[Any]
    partial: bool = False

    def formatted(self) -> str:
        return format_query(self.text, self.values, partial=self.partial)


@dataclass(frozen=True)
class RunOptions:
    """What the runner needs from the node's options."""

    operation: str
    node_version: float
    batching: str = "single"


async def run_queries(ctx: ExecuteContext, db: PgConnection, queries: list[Query], options: RunOptions) -> list[Item]:
    """The node's output items for ``queries`` (one per input item), in ``options.batching`` mode."""
    if options.batching == "transaction":
        return await _per_query(ctx, db, queries, options, transaction=True)
    if options.batching == "independently":
        return await _per_query(ctx, db, queries, options, transaction=False)
    return await _single(ctx, db, queries, options)


def _texts(queries: list[Query]) -> list[str]:
    return [q.text for q in queries]


async def _single(ctx: ExecuteContext, db: PgConnection, queries: list[Query], options: RunOptions) -> list[Item]:
    try:
        text = concat([(q.text, q.values, q.partial) for q in queries])
        results = await db.multi(text) if text else []
    except (PgError, FormatError) as error:
        failure = _node_error(ctx, error, _texts(queries))
        if not ctx.continue_on_fail():
            raise failure from error
        return [{"json": {"message": failure.message, "error": error_json(ctx, failure)}}]
    out: list[Item] = [
        {"json": row, "pairedItem": {"item": index}} for index, rows in enumerate(results) for row in rows
    ]
    if out:
        return out
    paired: list[PairedItem] = [{"item": i} for i in range(len(queries))]
    if options.node_version < 2.3:
        return [] if options.operation == "select" else [{"json": {"success": True}, "pairedItem": paired}]
    if all(is_select_query(q.text) for q in queries):
        return []
    return [{"json": {"success": True}, "pairedItem": paired}]


async def _per_query(
    ctx: ExecuteContext, db: PgConnection, queries: list[Query], options: RunOptions, *, transaction: bool
) -> list[Item]:
    out: list[Item] = []
    if transaction:
        await _call(ctx, db.begin(), queries)
    for index, query in enumerate(queries):
        try:
            rows = await _query_rows(db, query, options)
        except (PgError, FormatError) as error:
            failure = _node_error(ctx, error, _texts(queries), index)
            if not ctx.continue_on_fail():
                if transaction:
                    await db.rollback()
                raise failure from error
            out.append({"json": {"error": error_json(ctx, failure)}, "pairedItem": {"item": index}})
            if transaction:
                await db.rollback()
                return out
            continue
        out.extend({"json": row, "pairedItem": {"item": index}} for row in rows)
    if transaction:
        await _call(ctx, db.commit(), queries)
    return out


async def _query_rows(db: PgConnection, query: Query, options: RunOptions) -> list[dict[str, Any]]:
    text = query.formatted()
    if options.node_version < 2.3:
        rows = await db.any(text)
        if not rows:
            return [] if options.operation == "select" else [{"success": True}]
        return rows
    rows = [row for result in await db.multi(text) for row in result]
    if not rows:
        return [] if is_select_query(query.text) else [{"success": True}]
    return rows


async def _call(ctx: ExecuteContext, awaitable: Any, queries: list[Query]) -> None:
    try:
        await awaitable
    except PgError as error:
        raise _node_error(ctx, error, _texts(queries)) from error


def _node_error(
    ctx: ExecuteContext, error: PgError | FormatError, queries: list[str], index: int | None = None
) -> NodeError:
    if isinstance(error, FormatError):
        return node_error(ctx.node.name, PgError(message=str(error)), queries, index)
    return node_error(ctx.node.name, error, queries, index)


def error_json(ctx: ExecuteContext, error: NodeError) -> dict[str, Any]:
    """What n8n's ``{...error}`` spread of a NodeOperationError shows: its enumerable fields (not the message)."""
    data: dict[str, Any] = {"level": "warning", "shouldReport": True}  # n8n 2.41's fields and order
    if error.description is not None:
        data["description"] = error.description
    data |= {"tags": {}, "timestamp": error.timestamp, "context": dict(error.context), "functionality": "regular"}
    node = ctx.node.model_dump(mode="json", by_alias=True, exclude_none=True)
    return data | {"name": "NodeOperationError", "node": node, "messages": []}


# --------------------------------------------------------------------------- isSelectQuery (n8n 2.41's)


def _strip_strings_and_comments(query: str) -> str:
    out: list[str] = []
    i, n = 0, len(query)
    while i < n:
        char, nxt = query[i], query[i + 1 : i + 2]
        tag = re.match(r"\$[A-Za-z_][A-Za-z0-9_]*\$|\$\$", query[i:]) if char == "$" else None
        if (char == "/" and nxt == "*") or (char == "-" and nxt == "-") or tag:
            closer = "*/" if char == "/" else ("\n" if char == "-" else tag.group(0) if tag else "")
            end = query.find(closer, i + 2 if not tag else i + len(closer))
            i = n if end == -1 else end + (0 if char == "-" else len(closer))
            out.append(" ")
        elif char in "'\"":
            i = _skip_quoted(query, i)
            out.append(char * 2)
        else:
            out.append(char)
            i += 1
    return "".join(out)


def _skip_quoted(query: str, i: int) -> int:
    quote, n = query[i], len(query)
    backslash = quote == '"' or (i > 0 and query[i - 1] in "eE" and (i == 1 or not re.match(r"\w", query[i - 2])))
    i += 1
    while i < n:
        if backslash and query[i] == "\\" and i + 1 < n:
            i += 2
            continue
        if query[i] == quote:
            if quote == "'" and query[i + 1 : i + 2] == "'":
                i += 2
                continue
            return i + 1
        i += 1
    return i


def _top_level_command(statement: str) -> str | None:
    depth, i = 0, 0
    while i < len(statement):
        char = statement[i]
        if char in "()":
            depth = depth + 1 if char == "(" else max(0, depth - 1)
        elif depth == 0 and (word := re.match(r"[A-Za-z_][A-Za-z0-9_]*", statement[i:])):
            if word.group(0).upper() in ("SELECT", "INSERT", "UPDATE", "DELETE", "MERGE"):
                return word.group(0).upper()
            i += len(word.group(0))
            continue
        i += 1
    return None


def is_select_query(query: str) -> bool:
    """Whether every statement of ``query`` is a SELECT (comments and strings ignored; CTEs by their command)."""
    statements = [s.strip() for s in _strip_strings_and_comments(query).split(";") if s.strip()]
    return all(_top_level_command(s) == "SELECT" for s in statements)


__all__ = ["Query", "RunOptions", "error_json", "is_select_query", "run_queries"]
