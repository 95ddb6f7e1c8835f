"""A PostgreSQL connection for the Postgres node (psycopg 3, async): the ``postgres`` credential, pg-promise's
``multi`` / ``any`` over the simple query protocol, and errors as node-postgres words them.

Queries arrive formatted by :mod:`._postgres_format` (as pg-promise sends them) and run as one simple-protocol
message, so several statements give several results, as n8n's ``db.multi`` does. Values come back as text and
are parsed by :mod:`._postgres_types`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from weft.errors import NodeOperationError
from weft.library.postgres._postgres_types import Parser
from weft.nodes.postgres_credential import connection_kwargs


@dataclass(kw_only=True)
class PgError(Exception):
    """A failed query or connection, with node-postgres's ``message`` and the server's detail/hint."""

    message: str
    detail: str | None = None
    hint: str | None = None
    connection: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.message


def open_connection(
    node_name: str, credentials: Mapping[str, Any], parsers: Any, timeout_s: Any = None
) -> PgConnection:
    """A :class:`PgConnection` for a node, or a node error naming what is wrong with its ``postgres`` credential."""
    try:
        return PgConnection(credentials, parsers, timeout_s)
    except (ValueError, TypeError) as error:
        raise NodeOperationError(
            node_name, f"The Postgres credential cannot be used: {error}", description="Fix the 'postgres' credential."
        ) from error


class PgConnection:
    """One connection, opened for one node run and closed after it."""

    def __init__(self, credentials: Mapping[str, Any], parsers: Any, timeout_s: float | None = None) -> None:
        self._kwargs = connection_kwargs(credentials, timeout_s)
        self._parsers = parsers
        self._conn: Any = None

    async def __aenter__(self) -> PgConnection:
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._conn is not None:
            await self._conn.close()

    async def _connection(self) -> Any:
        if self._conn is None:
            import psycopg

            try:
                self._conn = await psycopg.AsyncConnection.connect(**self._kwargs)
            except psycopg.OperationalError as error:
                raise _connection_error(error, self._kwargs) from error
            await self._check_conforming_strings()
        return self._conn

    async def _check_conforming_strings(self) -> None:
        # Values are sent as standard string literals: with backslashes as escapes they would not be safe.
        if self._conn.info.parameter_status("standard_conforming_strings") != b"on":
            await self._conn.execute("SET standard_conforming_strings = on")

    async def multi(self, text: str) -> list[list[dict[str, Any]]]:
        """Run ``text`` (one or more statements); the rows of each statement's result (pg-promise ``multi``)."""
        import psycopg

        conn = await self._connection()
        cursor = conn.cursor()
        try:
            await cursor.execute(text.encode(), prepare=False)
        except psycopg.Error as error:
            raise _query_error(error) from error
        results: list[list[dict[str, Any]]] = []
        while True:
            if cursor.pgresult is not None:
                results.append(_rows(cursor.pgresult, self._parsers))
            if not cursor.nextset():
                return results

    async def any(self, text: str) -> list[dict[str, Any]]:
        """pg-promise ``any``: the rows of the last result."""
        results = await self.multi(text)
        return results[-1] if results else []

    async def begin(self) -> None:
        await self.multi("begin")

    async def commit(self) -> None:
        await self.multi("commit")

    async def rollback(self) -> None:
        conn = await self._connection()
        await conn.execute("rollback")


def _rows(result: Any, parsers: Any) -> list[dict[str, Any]]:
    names = [(result.fname(i) or b"").decode() for i in range(result.nfields)]
    column_parsers: list[Parser] = [parsers(result.ftype(i)) for i in range(result.nfields)]
    rows: list[dict[str, Any]] = []
    for r in range(result.ntuples):
        row: dict[str, Any] = {}
        for c, name in enumerate(names):
            raw = result.get_value(r, c)
            row[name] = None if raw is None else column_parsers[c](bytes(raw).decode())
        rows.append(row)
    return rows


def _query_error(error: Any) -> PgError:
    diag = error.diag
    message = diag.message_primary or str(error).split("\n", 1)[0]
    return PgError(message=message, detail=diag.message_detail, hint=diag.message_hint)


def _connection_error(error: Exception, kwargs: Mapping[str, Any]) -> PgError:
    text = str(error)
    where = f"{kwargs['host']}:{kwargs['port']}"
    if "Connection refused" in text:
        return PgError(message=f"connect ECONNREFUSED {where}", connection=True)
    if "could not translate host name" in text or "Name or service not known" in text:
        return PgError(message=f"getaddrinfo ENOTFOUND {kwargs['host']}", connection=True)
    if "timeout expired" in text:
        return PgError(message=f"connect ETIMEDOUT {where}", connection=True)
    fatal = text.split("FATAL:", 1)[-1].strip() if "FATAL:" in text else text.strip()
    return PgError(message=fatal.split("\n", 1)[0], connection=True)


def node_error(node_name: str, error: PgError, queries: list[str], item_index: int | None = None) -> NodeOperationError:
    """n8n's ``parsePostgresError``: the message (a syntax error located by line), the detail/hint or the query."""
    import re

    message = error.message
    if "syntax error at or near" in message and queries:
        found = re.search(r'syntax error at or near "(.*)"', message)
        snippet = found.group(1) if found else None
        failed = next((i for i, q in enumerate(queries) if snippet is not None and snippet in q), -1)
        if snippet is not None and failed != -1:
            if not item_index:
                item_index = failed
            lines = queries[failed].split("\n")
            line = next((i for i, text in enumerate(lines) if snippet in text), -1)
            message = f'Syntax error at line {line + 1} near "{snippet}"'
    description = error.detail or error.hint
    index = item_index or 0
    if not description and index < len(queries) and queries[index]:
        description = f"Failed query: {queries[index]}"
    for code, words in (("ECONNREFUSED", "Connection refused"), ("ENOTFOUND", "Host not found")):
        if code in message:
            message, description = words, message.split(code + " ", 1)[-1].strip()
    if "ETIMEDOUT" in message:
        message, description = "Connection timed out", message.split("ETIMEDOUT ", 1)[-1].strip()
    return NodeOperationError(node_name, message, description=description, item_index=item_index)


__all__ = ["PgConnection", "PgError", "node_error", "open_connection"]
