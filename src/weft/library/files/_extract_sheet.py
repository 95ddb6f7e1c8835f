"""A read worksheet (cells by row and column, as SheetJS holds them) and SheetJS's ``sheet_to_json`` over it, with
the options n8n passes: ``range`` (an ``A1:B2`` range or a first row number), ``header: 1`` (rows as arrays: n8n's
"Header Row" off) and ``defval: ''`` (n8n's "Include Empty Cells")."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from weft.library.files._convert_sheet import Cell
from weft.library.files._extract_csv import js_key_order


@dataclass
class Grid:
    """One worksheet: ``cells[(row, column)]`` (0-based) and the range they span (SheetJS ``!ref``)."""

    cells: dict[tuple[int, int], Cell] = field(default_factory=dict)
    bounds: tuple[int, int, int, int] | None = None
    """The sheet's own range (an XLSX ``<dimension>``, the extent of delimited text), when it has one."""

    def put(self, row: int, column: int, cell: Cell) -> None:
        self.cells[(row, column)] = cell

    @property
    def ref(self) -> tuple[int, int, int, int] | None:
        """``(first row, first column, last row, last column)``, or ``None`` for an empty sheet."""
        if self.bounds is not None:
            return self.bounds
        if not self.cells:
            return None
        rows = [r for r, _ in self.cells]
        columns = [c for _, c in self.cells]
        return min(rows), min(columns), max(rows), max(columns)


@dataclass
class Workbook:
    """Sheet names in order and their grids."""

    names: list[str] = field(default_factory=list)
    sheets: dict[str, Grid] = field(default_factory=dict)


def _column_number(letters: str) -> int:
    number = 0
    for ch in letters.upper():
        number = number * 26 + ord(ch) - 64
    return number - 1


def decode_range(text: str) -> tuple[int, int, int, int]:
    """SheetJS ``safe_decode_range``: ``"A2:B3"`` → ``(1, 0, 2, 1)``; a single cell is a one-cell range."""
    parts = text.split(":", 1)
    cells = []
    for part in parts:
        match = re.match(r"\$?([A-Za-z]*)\$?(\d*)", part)
        letters, digits = (match.group(1), match.group(2)) if match else ("", "")
        cells.append((int(digits) - 1 if digits else 0, _column_number(letters) if letters else 0))
    start, end = cells[0], cells[-1]
    return start[0], start[1], end[0], end[1]


def _header_names(grid: Grid, first_row: int, columns: range) -> dict[int, str]:
    names: dict[int, str] = {}
    counts: dict[str, int] = {}
    for column in columns:
        cell = grid.cells.get((first_row, column))
        name = cell.text if cell is not None else "__EMPTY"
        unique, counter = name, counts.get(name, 0)
        if not counter:
            counts[name] = 1
        else:
            while True:
                unique = f"{name}_{counter}"
                counter += 1
                if not counts.get(unique):
                    break
            counts[name] = counter
            counts[unique] = 1
        names[column] = unique
    return names


def _value(cell: Cell) -> Any:
    return None if cell.t == "z" else cell.v


def _array_row(grid: Grid, row: int, columns: range, defval: Any) -> list[Any]:
    out: list[Any] = []
    for column in columns:
        cell = grid.cells.get((row, column))
        if cell is None and defval is _UNSET:
            continue
        index = column - columns.start
        out.extend([None] * (index + 1 - len(out)))
        if cell is None or cell.t == "z":
            out[index] = None if defval is _UNSET else defval
        else:
            out[index] = cell.v
    return out


def _object_row(grid: Grid, row: int, names: dict[int, str], defval: Any) -> tuple[dict[str, Any], bool]:
    out: dict[str, Any] = {}
    empty = True
    for column, name in names.items():
        cell = grid.cells.get((row, column))
        if cell is None or cell.t == "z":
            if defval is not _UNSET:
                out[name] = defval
            elif cell is not None:
                out[name] = None
            continue
        out[name] = cell.v
        empty = False
    return js_key_order(out), empty


_UNSET: Any = object()


def sheet_to_json(grid: Grid, *, range_: Any = None, header_row: bool = True, include_empty: bool = False) -> list[Any]:
    """SheetJS ``sheet_to_json``: objects keyed by the first row (blank rows dropped), or arrays of every row."""
    ref = grid.ref
    if ref is None:
        return []
    first_row, first_column, last_row, last_column = ref
    if isinstance(range_, str):
        first_row, first_column, last_row, last_column = decode_range(range_)
    elif isinstance(range_, int):
        first_row = range_
    columns = range(first_column, last_column + 1)
    defval = "" if include_empty else _UNSET
    if not header_row:
        return [_array_row(grid, row, columns, defval) for row in range(first_row, last_row + 1)]
    names = _header_names(grid, first_row, columns)
    out = []
    for row in range(first_row + 1, last_row + 1):
        record, empty = _object_row(grid, row, names, defval)
        if not empty:
            out.append(record)
    return out


__all__ = ["Grid", "Workbook", "decode_range", "sheet_to_json"]
