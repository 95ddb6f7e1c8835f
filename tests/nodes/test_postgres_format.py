"""pg-promise's formatting as the Postgres node uses it, tested as an attacker would (no server needed)."""

from __future__ import annotations

import pytest

from weft.library.postgres._postgres_format import FormatError, as_name, concat, format_query
from weft.library.postgres._postgres_runner import is_select_query
from weft.library.postgres._postgres_types import parse_array, parse_timestamp, parsers_for


def test_values_are_quoted_literals_whose_quotes_cannot_end_them() -> None:
    text = format_query("SELECT $1, $2, $3, $4", ["O'Brien'); DROP TABLE t; --", 5, None, True])
    assert text == "SELECT 'O''Brien''); DROP TABLE t; --', 5, null, true"


def test_identifiers_are_double_quoted_with_inner_quotes_doubled() -> None:
    assert format_query("SELECT * FROM $1:name.$2~", ["public", 'x"; DROP TABLE y; --']) == (
        'SELECT * FROM "public"."x""; DROP TABLE y; --"'
    )
    assert as_name("*") == "*"
    assert as_name(["a", "b"]) == '"a","b"'
    with pytest.raises(FormatError, match="Invalid sql name"):
        as_name("")


def test_formatting_is_one_pass_so_values_holding_variables_stay_text() -> None:
    assert format_query("SELECT $1, $2", ["$2:raw", "x"]) == "SELECT '$2:raw', 'x'"


def test_objects_arrays_and_csv() -> None:
    row = {"a": 1, "b": "it's", "c": {"k": [1]}}
    assert format_query("INSERT INTO t($1:name) VALUES($1:csv)", [row]) == (
        'INSERT INTO t("a","b","c") VALUES(1,\'it\'\'s\',\'{"k":[1]}\')'
    )
    assert format_query("SELECT $1, $2", [[1, "a"], []]) == "SELECT array[1,'a'], '{}'"


def test_out_of_range_variables() -> None:
    with pytest.raises(FormatError, match=r"Variable \$2 out of range. Parameters array length: 1"):
        format_query("SELECT $1, $2", [1])
    assert format_query("SELECT $1, $2", [1], partial=True) == "SELECT 1, $2"


def test_nul_characters_are_refused() -> None:
    with pytest.raises(FormatError, match="NUL"):
        format_query("SELECT $1", ["a\x00b"])


def test_concat_trims_semicolons() -> None:
    assert concat([("SELECT $1;  ", [1], False), (";SELECT 2;", [], False)]) == "SELECT 1;SELECT 2"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("SELECT 1", True),
        ("select 1; -- insert\n select 'update;'", True),
        ("WITH x AS (SELECT 1) UPDATE t SET a = 1", False),
        ("SELECT 1; INSERT INTO t VALUES (1)", False),
        ("", True),
    ],
)
def test_is_select_query(query: str, expected: bool) -> None:
    assert is_select_query(query) is expected


def test_values_parsed_as_node_postgres_does() -> None:
    parse = parsers_for(2.6, "text")
    assert parse(20)("9007199254740993") == "9007199254740993"
    assert parsers_for(2.6, "numbers")(1700)("12.50") == 12.5
    assert parse(1082)("2024-01-02") == "2024-01-02T00:00:00.000Z"
    assert parsers_for(2.7, "text")(1082)("2024-01-02") == "2024-01-02"
    assert parse(3802)('{"a": [1]}') == {"a": [1]}
    assert parse(16)("t") is True
    assert parse(1009)('{a,"b \\"q\\"",NULL}') == ["a", 'b "q"', None]
    assert parse(1007)("{{1,2},{3,4}}") == [[1, 2], [3, 4]]
    assert parse(17)("\\x0102") == {"type": "Buffer", "data": [1, 2]}
    assert parse_timestamp("2024-01-02 03:04:05.678912+02") == "2024-01-02T01:04:05.678Z"
    assert parse_timestamp("infinity") == "infinity"
    assert parse_array("[0:1]={1,2}", int) == [1, 2]


def test_a_credential_asking_for_an_ssh_tunnel_is_refused_with_the_fix() -> None:
    from weft.errors import NodeOperationError
    from weft.library.postgres._postgres_client import open_connection

    with pytest.raises(NodeOperationError, match="SSH tunnel, which Weft does not open: run the tunnel yourself"):
        open_connection("Postgres", {"host": "db", "sshTunnel": True}, None)
    with pytest.raises(NodeOperationError, match="Unknown SSL mode 'sometimes'"):
        open_connection("Postgres", {"host": "db", "ssl": "sometimes"}, None)
