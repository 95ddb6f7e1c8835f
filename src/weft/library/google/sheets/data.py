"""Sheet values as n8n's ``GoogleSheets.utils.ts`` shapes them before turning rows into items: row numbers added,
empty columns and rows removed (Data Location "Detect Automatically"), columns by letter."""

from __future__ import annotations

from typing import Any

ROW_NUMBER = "row_number"


def column_letters(number: int) -> str:
    """n8n's ``getColumnName``: 1 → ``A``, 27 → ``AA``."""
    letters = ""
    while True:
        number -= 1
        letters = chr(65 + number % 26) + letters
        number //= 26
        if number <= 0:
            return letters


def column_number(letters: str) -> int:
    """n8n's ``getColumnNumber``: ``A`` → 1 (upper-case letters only, as n8n)."""
    number = 0
    for char in letters:
        number = number * 26 + ord(char) - ord("A") + 1
    return number


def _filled(cell: Any) -> bool:
    """A cell JavaScript reads as present: truthy, or a number."""
    return (bool(cell) or isinstance(cell, int | float)) and cell is not None


def add_row_number(rows: list[list[Any]], header_row: int) -> list[list[Any]]:
    if not rows:
        return rows
    numbered: list[list[Any]] = [[i + 1, *row] for i, row in enumerate(rows)]
    if 0 <= header_row < len(numbered):
        numbered[header_row][0] = ROW_NUMBER
    return numbered


def trim_to_first_empty_row(rows: list[list[Any]], numbered: bool = True) -> list[list[Any]]:
    base = 1 if numbered else 0
    for index, row in enumerate(rows):
        if all(cell == "" for cell in row[base:]):
            return rows[:index]
    return rows


def remove_empty_rows(rows: list[list[Any]], numbered: bool = True) -> list[list[Any]]:
    base = 1 if numbered else 0
    kept = [row for row in rows if any(_filled(c) or isinstance(c, bool) for c in row[base:])]
    if numbered and kept:
        kept[0][0] = ROW_NUMBER
    return kept


def trim_leading_empty_rows(rows: list[list[Any]], numbered: bool = True) -> list[list[Any]]:
    base = 1 if numbered else 0
    first = next((i for i, row in enumerate(rows) if any(_filled(c) for c in row[base:])), -1)
    kept = rows[first:] if first >= 0 else rows[-1:]  # JavaScript's slice(-1)
    if numbered and kept:
        kept[0][0] = ROW_NUMBER
    return kept


def remove_empty_columns(rows: list[list[Any]]) -> list[list[Any]]:
    """n8n's ``removeEmptyColumns``: columns without a header and without data dropped; rows padded with ``""``."""
    if not rows:
        return []
    longest = max(len(r) for r in rows)
    columns: list[list[Any]] = []
    for index in range(longest):
        column = [row[index] if index < len(row) else None for row in rows]
        if column[0] != "" or any(_filled(c) for c in column[1:]):
            columns.append(column)
    if not columns:
        return []
    return [[("" if column[i] is None else column[i]) for column in columns] for i in range(len(columns[0]))]


def prepare_sheet_data(
    rows: list[list[Any]], options: dict[str, Any], numbered: bool = True
) -> tuple[list[list[Any]], int, int]:
    """n8n's ``prepareSheetData``: the rows to read, the key row's index and the first data row's index."""
    data = [list(r) for r in rows]
    header_row, first_data_row = 0, 1
    if options.get("rangeDefinition") == "specifyRange":
        header_row = _int(options.get("headerRow", 1)) - 1
        first_data_row = _int(options.get("firstDataRow", 2)) - 1
    if numbered:
        data = add_row_number(data, header_row)
    if options.get("rangeDefinition") == "detectAutomatically":
        data = remove_empty_columns(data)
        data = trim_leading_empty_rows(data, numbered)
        if options.get("readRowsUntil") == "firstEmptyRow":
            data = trim_to_first_empty_row(data, numbered)
        else:
            data = remove_empty_rows(data, numbered)
    return data, header_row, first_data_row


def _int(value: Any) -> int:
    try:
        return int(float(value))
    except (TypeError, ValueError):
        return 0


def range_string(sheet_name: str, options: dict[str, Any]) -> str:
    """n8n's ``getRangeString``: the sheet, or ``Sheet!A1:B2`` for "Specify Range (A1 Notation)"."""
    if options.get("rangeDefinition") == "specifyRangeA1":
        return f"{sheet_name}!{options['range']}" if options.get("range") else sheet_name
    return sheet_name


def hex_to_rgb(text: str) -> dict[str, int] | None:
    import re

    text = re.sub(r"^#?([a-f\d])([a-f\d])([a-f\d])$", r"\1\1\2\2\3\3", text, flags=re.IGNORECASE)
    match = re.match(r"^#?([a-f\d]{2})([a-f\d]{2})([a-f\d]{2})$", text, re.IGNORECASE)
    if not match:
        return None
    return {"red": int(match.group(1), 16), "green": int(match.group(2), 16), "blue": int(match.group(3), 16)}


def cell_format_default(version: float) -> str:
    return "RAW" if version < 4.1 else "USER_ENTERED"


__all__ = [
    "ROW_NUMBER",
    "cell_format_default",
    "column_letters",
    "column_number",
    "hex_to_rgb",
    "prepare_sheet_data",
    "range_string",
    "remove_empty_columns",
]
