"""The Google Sheets Trigger's row comparison (n8n's ``GoogleSheetsTrigger.utils``): the previous revision of the
sheet (an ``.xlsx`` export Drive keeps) against its current values, row by row."""

from __future__ import annotations

import io
from typing import Any

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def xlsx_rows(data: bytes, sheet_name: str) -> list[list[Any]]:
    """The sheet's rows (empty cells ``""``), up to its last row with a value (``sheetBinaryToArrayOfArrays``)."""
    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    if sheet_name not in book.sheetnames:
        return []
    rows = [["" if cell is None else cell for cell in row] for row in book[sheet_name].iter_rows(values_only=True)]
    last = max((i for i, row in enumerate(rows) if any(cell != "" for cell in row)), default=0)
    return rows[: last + 1]


def rows_to_json(rows: list[list[Any]], columns: list[Any]) -> list[dict[str, Any]]:
    """``arrayOfArraysToJson``: each row as ``{column: value}``; n8n writes ``cell || ''``, so a missing, empty,
    ``0`` or ``false`` cell is ``""``."""
    return [{str(column): _cell(row, i) for i, column in enumerate(columns)} for row in rows]


def _cell(row: list[Any], index: int) -> Any:
    value = row[index] if index < len(row) else None
    return value if value else ""


def compare_revisions(
    previous: list[list[Any]],
    current: list[list[Any]],
    key_row: int,
    include: str,
    watched: list[str],
    start: int,
    event: str,
) -> list[dict[str, Any]]:
    """n8n's ``compareRevisions``: the rows that changed (``anyUpdate``: added ones too, with ``change_type``)."""
    header = key_row - 1
    columns: list[Any] = ["row_number", "change_type"] if event == "anyUpdate" else ["row_number"]
    now_cols = current[header] if header < len(current) else None
    old_cols = previous[header] if header < len(previous) else None
    if now_cols is not None and old_cols is not None:
        columns += now_cols if len(now_cols) > len(old_cols) else old_cols
    else:
        columns += now_cols or old_cols or []
    diff = []
    for i in range(start, max(len(current), len(previous))):
        if i == header:
            continue
        now = list(current[i]) if i < len(current) else None
        old = list(previous[i]) if i < len(previous) else None
        if now is not None and old is not None:
            now += [""] * (len(old) - len(now))
        if _watched(now, watched, columns) == _watched(old, watched, columns):
            continue
        if event == "rowUpdate" and (not old or all(cell == "" for cell in old)):
            continue
        kind = "updated"
        if old is None:
            old, kind = ["" for _ in now or []], "added"
        if now is None:
            continue
        diff.append({"rowIndex": i + 1, "previous": old, "current": now, "changeType": kind})
    return _output(diff, columns, include, event)


def _watched(row: list[Any] | None, watched: list[str], columns: list[Any]) -> list[Any] | None:
    """The cells compared: all, or those of the watched columns (n8n's ``row[columns.indexOf(column) - 1]``, an
    offset that is one off for ``anyUpdate``, kept as n8n has it; a cell out of the row is ``undefined``)."""
    if not watched:
        return row
    if not row:
        return []
    picked = []
    for column in watched:
        index = columns.index(column) - 1 if column in columns else -2
        picked.append(row[index] if 0 <= index < len(row) else None)
    return picked


def _version(diff: list[dict[str, Any]], which: str, event: str) -> list[list[Any]]:
    if event == "anyUpdate":
        return [[d["rowIndex"], d["changeType"], *d[which]] for d in diff]
    return [[d["rowIndex"], *d[which]] for d in diff]


def _output(diff: list[dict[str, Any]], columns: list[Any], include: str, event: str) -> list[dict[str, Any]]:
    if include == "old":
        return rows_to_json(_version(diff, "previous", event), columns)
    current = rows_to_json(_version(diff, "current", event), columns)
    if include != "both":
        return current
    previous = rows_to_json(_version(diff, "previous", event), columns)
    result = []
    for old, new in zip(previous, current, strict=True):
        differences: dict[str, Any] = {"row_number": new["row_number"]}
        for key, value in new.items():
            if key != "row_number" and old.get(key) != value:
                differences[key] = {"previous": old.get(key), "current": value}
        result.append({"previous": old, "current": new, "differences": differences})
    return result


__all__ = ["XLSX", "compare_revisions", "rows_to_json", "xlsx_rows"]
