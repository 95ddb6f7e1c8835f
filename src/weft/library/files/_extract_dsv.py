"""Delimited text read as SheetJS reads it (``dsv_to_sheet_str``): the separator guessed from the first 1,024
characters (``,``, tab, ``;`` or ``|``, outside quotes), a ``sep=`` first line honoured, and each cell typed:
``TRUE``/``FALSE`` booleans, numbers (SheetJS's fuzzy numbers: ``1,000``, ``$5``, ``50%``, ``(3)``), formulas and
quoted text as text. This is how Spreadsheet File 1 reads CSV, and how SheetJS reads any text file given to the
XLSX/ODS/XLS operations.

Date-like text becomes its date serial number (:mod:`._extract_dates`). Text without a byte order mark is read
as UTF-8 where SheetJS reads it as Latin-1 (a documented difference).
"""

from __future__ import annotations

import math
import re

from weft.library.files._convert_sheet import Cell
from weft.library.files._extract_dates import date_number, fuzzy_date, html_date_value
from weft.library.files._extract_sheet import Grid
from weft.nodes.values import js_to_number

_SEPARATORS = {",": 3, "\t": 2, ";": 1, "|": 0}


def guess_separator(text: str) -> str:
    """SheetJS ``guess_sep``: the most frequent separator outside quotes (ties by ``, \\t ; |``)."""
    counts: dict[str, int] = {}
    quoted = False
    for ch in text:
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in _SEPARATORS:
            counts[ch] = counts.get(ch, 0) + 1
    if not counts:
        return ","
    return max(counts, key=lambda sep: (counts[sep], _SEPARATORS[sep]))


def fuzzy_number(text: str) -> float:
    """SheetJS ``fuzzynum``: ``Number(text)``, else without thousands commas, ``$`` and ``%``, else ``(1)`` as -1."""
    value = js_to_number(text)
    if not math.isnan(value):
        return value if math.isfinite(value) else math.nan
    if not re.search(r"\d", text):
        return math.nan
    weight = 1
    stripped = re.sub(r"(\d),(\d)", r"\1\2", text).replace("$", "")
    weight = 100 ** stripped.count("%")
    stripped = stripped.replace("%", "")
    value = js_to_number(stripped)
    if not math.isnan(value):
        return float(value / weight)
    match = re.search(r"\(([^()]*)\)", stripped)
    if match:
        stripped = stripped[: match.start()] + match.group(1) + stripped[match.end() :]
        value = js_to_number(stripped)
        if not math.isnan(value):
            return float(value / -weight)
    return math.nan


def typed_cell(text: str, *, raw: bool, declared: str = "", dates: str | None = None) -> Cell:
    """A cell from text as SheetJS types it: strings when ``raw``, ``TRUE``/``FALSE``, numbers (fuzzily), and with
    ``dates`` date-like text as a date (``"serial"``: its serial number, as delimited text gives it to n8n;
    ``"iso"``: an ISO string, as an HTML table's date cell becomes in JSON)."""
    if raw or not text.strip() or declared == "s":
        return Cell("s", text)
    if text in ("TRUE", "FALSE"):
        return Cell("b", text == "TRUE", text)
    number = fuzzy_number(text)
    if not math.isnan(number):
        return Cell("n", int(number) if float(number).is_integer() and abs(number) < 2**53 else number, text)
    moment = fuzzy_date(text) if dates else None
    if moment is not None:
        if dates == "serial":
            return Cell("n", date_number(moment), text)
        value = html_date_value(text)
        return Cell("n" if isinstance(value, int | float) else "d", value, text)
    return Cell("s", text)


def _typed(text: str, *, raw: bool) -> Cell | None:
    if text.startswith('"') and text.endswith('"') and len(text) > 1:
        text = text[1:-1].replace('""', '"')
    if not text:
        return None
    if not raw and text.startswith("="):
        if text.startswith('="') and text.endswith('"'):
            return Cell("s", text[2:-1].replace('""', '"'))
        return Cell("s", text)
    return typed_cell(text, raw=raw, dates="serial")


def _separator_of(text: str) -> tuple[str, str]:
    if text.startswith("sep="):
        if text[5:7] == "\r\n":
            return text[4], text[7:]
        if text[5:6] in ("\r", "\n"):
            return text[4], text[6:]
    return guess_separator(text[:1024]), text


def read_text_sheet(text: str, *, raw: bool = False) -> Grid:
    """The sheet SheetJS reads from delimited text."""
    sep, text = _separator_of(text)
    grid, row, column, start, quoted = Grid(), 0, 0, 0, False
    starts_quoted = text[:1] == '"'
    end, size = 0, len(text)

    last = [0, 0]

    def finish(end_at: int, at_separator: bool) -> None:
        nonlocal start, column, row, starts_quoted
        last[0], last[1] = max(last[0], row), max(last[1], column)
        value = text[start:end_at]
        if value.endswith("\r"):
            value = value[:-1]
        cell = _typed(value, raw=raw)
        if cell is not None:
            grid.put(row, column, cell)
        start = end_at + 1
        starts_quoted = text[start : start + 1] == '"'
        column, row = (column + 1, row) if at_separator else (0, row + 1)

    while end < size:
        ch = text[end]
        if ch == '"':
            if starts_quoted:
                quoted = not quoted
        elif not quoted and ch == "\r" and text[end + 1 : end + 2] == "\n":
            end += 1
            finish(end, False)
        elif not quoted and ch in (sep, "\n", "\r"):
            finish(end, ch == sep)
        end += 1
    if end - start > 0:
        finish(end, False)
    grid.bounds = (0, 0, last[0], last[1])
    return grid


__all__ = ["fuzzy_number", "guess_separator", "read_text_sheet", "typed_cell"]
