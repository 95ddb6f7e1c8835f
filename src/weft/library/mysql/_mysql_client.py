"""A MySQL/MariaDB connection for the MySQL node (aiomysql, over PyMySQL): the ``mySql`` credential, text
queries with several statements, values as mysql2 returns them, and errors with mysql2's ``code``.

Values come back as text and are typed here by their column type, as mysql2 does with n8n's options
(``supportBigNumbers``, ``decimalNumbers: false``, ``dateStrings`` from version 2.1, ``bigNumberStrings`` with
``largeNumbersOutput: text``). A statement without rows gives mysql2's ``ResultSetHeader``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: The ``mySql`` credential's defaults (n8n's ``MySql.credentials``).
CREDENTIAL_DEFAULTS: dict[str, Any] = {
    "host": "localhost",
    "database": "",
    "user": "",
    "password": "",
    "port": 3306,
    "connectTimeout": 10000,
    "ssl": False,
}
_INTEGERS = {1, 2, 3, 9, 13}
_FLOATS = {4, 5}
_DECIMALS = {0, 246}
_LONGLONG = 8
_DATES = {7, 10, 12, 14}
_JSON = 245


@dataclass(kw_only=True)
class MySqlError(Exception):
    """A failed query or connection: mysql2's ``message``, ``code`` and the SQL."""

    message: str
    code: str = ""
    sql: str = ""

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True, kw_only=True)
class ValueOptions:
    """How values are typed (from the node's version and options)."""

    date_strings: bool
    big_number_strings: bool = False
    decimal_numbers: bool = False


def _error_codes() -> dict[int, str]:
    from pymysql.constants import ER

    return {v: "ER_" + k for k, v in vars(ER).items() if isinstance(v, int) and k.isupper()}


class MySqlConnection:
    """One connection, opened for one node run and closed after it."""

    def __init__(self, credentials: Mapping[str, Any], values: ValueOptions, timeout_ms: Any = None) -> None:
        data = {**CREDENTIAL_DEFAULTS, **{k: v for k, v in credentials.items() if v is not None}}
        if data.get("sshTunnel") is True:
            raise MySqlError(
                message="The credential asks for an SSH tunnel, which Weft does not open: run the tunnel yourself "
                "(ssh -L) and point the credential's host and port at it",
                code="SSH_TUNNEL",
            )
        self._kwargs: dict[str, Any] = {
            "host": str(data["host"]),
            "port": int(data["port"]),
            "user": str(data["user"]),
            "password": str(data["password"]),
            "db": str(data["database"]) or None,
            "connect_timeout": max(1, int(timeout_ms or data.get("connectTimeout") or 10000) // 1000),
            "autocommit": True,
            "charset": "utf8mb4",
        }
        if data.get("ssl") is True:
            import ssl

            self._kwargs["ssl"] = ssl.create_default_context()
        self._values = values
        self._conn: Any = None

    async def __aenter__(self) -> MySqlConnection:
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._conn is not None:
            self._conn.close()

    async def _connection(self) -> Any:
        if self._conn is None:
            import aiomysql
            import pymysql
            from pymysql.constants import CLIENT

            try:
                self._conn = await aiomysql.connect(**self._kwargs, conv={}, client_flag=CLIENT.MULTI_STATEMENTS)
            except (pymysql.err.Error, OSError) as error:
                raise _connection_error(error, self._kwargs) from error
            await self._refuse_no_backslash_escapes()
        return self._conn

    async def _refuse_no_backslash_escapes(self) -> None:
        # Values are escaped with backslashes (as mysql2 does); that mode would turn them into plain text.
        async with self._conn.cursor() as cursor:
            await cursor.execute("SET SESSION sql_mode = REPLACE(@@sql_mode, 'NO_BACKSLASH_ESCAPES', '')")

    async def query(self, text: str) -> list[Any]:
        """Run ``text`` (one or more statements); per statement, its rows or its ``ResultSetHeader``."""
        import pymysql

        conn = await self._connection()
        results: list[Any] = []
        async with conn.cursor(_quiet_cursor()) as cursor:
            try:
                await cursor.execute(text)
                while True:
                    results.append(self._result(cursor))
                    if not await cursor.nextset():
                        break
            except pymysql.err.Error as error:
                raise _query_error(error, text) from error
        return results

    async def execute(self, text: str) -> None:
        await self.query(text)

    def _result(self, cursor: Any) -> Any:
        if cursor.description is None:
            result = cursor._result  # PyMySQL's OK packet: mysql2 shows it as a ResultSetHeader
            return {
                "fieldCount": 0,
                "affectedRows": cursor.rowcount if cursor.rowcount >= 0 else 0,
                "insertId": cursor.lastrowid or 0,
                "info": _info(getattr(result, "message", b"") or b""),
                "serverStatus": getattr(result, "server_status", 0) or 0,
                "warningStatus": getattr(result, "warning_count", 0) or 0,
                "changedRows": _changed_rows(getattr(result, "message", b"") or b""),
            }
        columns = [(d[0], d[1]) for d in cursor.description]
        return [
            {name: self._value(kind, raw) for (name, kind), raw in zip(columns, row, strict=True)}
            for row in cursor._rows
        ]

    def _value(self, kind: int, raw: Any) -> Any:
        if raw is None:
            return None
        if isinstance(raw, bytes | bytearray):
            return {"type": "Buffer", "data": list(raw)}
        return typed_value(kind, raw, self._values)


def _quiet_cursor() -> Any:
    """aiomysql's cursor without its ``SHOW WARNINGS`` after each statement (it turns them into Python warnings;
    mysql2 counts them in ``warningStatus`` and says nothing)."""
    import aiomysql

    class QuietCursor(aiomysql.Cursor):  # type: ignore[misc]
        async def _show_warnings(self, conn: Any) -> None:
            return None

    return QuietCursor


def _changed_rows(message: bytes) -> int:
    """mysql2 reads ``changedRows`` from the OK packet's info (``Rows matched: 1  Changed: 1  Warnings: 0``)."""
    import re

    found = re.match(r"^[^:0-9]+: [0-9]+[^:0-9]+: ([0-9]+)", _info(message))
    return int(found.group(1)) if found else 0


def _info(message: bytes) -> str:
    # PyMySQL keeps the OK packet's length-prefixed info string with its length byte
    if message and message[0] == len(message) - 1:
        message = message[1:]
    return message.decode(errors="replace")


def typed_value(kind: int, text: str, options: ValueOptions) -> Any:
    """One column value, typed as mysql2 types it."""
    if kind in _INTEGERS:
        return int(text)
    if kind in _FLOATS:
        number = float(text)
        return int(number) if number.is_integer() and abs(number) < 2**53 else number
    if kind in _DECIMALS:
        return float(text) if options.decimal_numbers else text
    if kind == _LONGLONG:
        number = int(text)
        return text if options.big_number_strings or abs(number) > 2**53 - 1 else number
    if kind in _DATES and not options.date_strings:
        return _date_json(text)
    if kind == _JSON:
        return json.loads(text)
    return text


def _date_json(text: str) -> Any:
    from weft.library.postgres._postgres_types import parse_timestamp

    if len(text) == 10:
        text += " 00:00:00"
    iso = parse_timestamp(text)
    return None if iso == text else iso  # an invalid date (0000-00-00) is JavaScript's Invalid Date: null


def _query_error(error: Any, sql: str) -> MySqlError:
    number, message = (*error.args, "")[:2] if error.args else (0, str(error))
    return MySqlError(message=str(message), code=_error_codes().get(number, str(number)), sql=sql)


def _connection_error(error: Exception, kwargs: Mapping[str, Any]) -> MySqlError:
    text = str(error.args[1]) if len(error.args) > 1 else str(error)
    where = f"{kwargs['host']}:{kwargs['port']}"
    if isinstance(error.__cause__, ConnectionRefusedError) or "Connection refused" in text:
        return MySqlError(message=f"connect ECONNREFUSED {where}", code="ECONNREFUSED")
    if "timed out" in text:
        return MySqlError(message="connect ETIMEDOUT", code="ETIMEDOUT")
    number = error.args[0] if error.args and isinstance(error.args[0], int) else 0
    return MySqlError(message=text, code=_error_codes().get(number, ""))


__all__ = ["CREDENTIAL_DEFAULTS", "MySqlConnection", "MySqlError", "ValueOptions", "typed_value"]
