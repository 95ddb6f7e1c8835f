"""Items as a worksheet, and the text formats n8n writes from it (CSV, HTML, RTF), byte for byte as SheetJS.

n8n's ``convertJsonToSpreadsheetBinary`` flattens each item's JSON (``flattenObject``: nested keys joined with
dots, arrays by index), builds a sheet with SheetJS's ``json_to_sheet`` (a header row of every key in order of
first appearance, unless ``headerRow`` is off) and writes it with ``XLSX.write``. Cells are typed as SheetJS
types them: numbers ``n``, booleans ``b``, strings ``s``, ``null`` a stub ``z`` (printed empty); their text is
SheetJS's "General" format (:func:`~weft.library.files._convert_numbers.general_number`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from weft.library.files._convert_numbers import general_number, js_number_string
from weft.nodes.values import is_number, js_string


@dataclass(frozen=True, slots=True)
class Cell:
    """A SheetJS cell: type ``s``/``n``/``b``/``z`` (``d``: a date, read), value and text."""

    t: str
    v: Any
    w: str | None = None
    """The text the cell was read from, when it was read from text (SheetJS keeps it as the cell's text)."""

    @property
    def text(self) -> str:
        """The cell's formatted text (SheetJS ``format_cell`` with the General format)."""
        if self.w is not None:
            return self.w
        if self.v is None:
            return ""
        if self.t == "b":
            return "TRUE" if self.v else "FALSE"
        if self.t == "n":
            return general_number(self.v)
        return str(self.v)


Row = list[Cell | None]


@dataclass(frozen=True, slots=True)
class Sheet:
    """The rows of a worksheet (the header row first when there is one) and its width in columns."""

    rows: list[Row]
    width: int


def flatten_object(data: dict[str, Any]) -> dict[str, Any]:
    """n8n's ``flattenObject``: nested objects and arrays become ``a.b`` / ``a.0`` keys; empty ones vanish."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, dict | list):
            nested = value if isinstance(value, dict) else {str(i): v for i, v in enumerate(value)}
            for inner, inner_value in flatten_object(nested).items():
                out[f"{key}.{inner}"] = inner_value
        else:
            out[key] = value
    return out


def _cell(value: Any) -> Cell:
    if isinstance(value, bool):
        return Cell("b", value)
    if is_number(value):
        return Cell("n", value)
    if isinstance(value, str):
        return Cell("s", value)
    return Cell("z", None)


def json_to_sheet(records: list[dict[str, Any]], *, header_row: bool = True) -> Sheet:
    """SheetJS ``json_to_sheet``: one row per record, columns in order of first appearance."""
    header: dict[str, int] = {}
    rows: list[Row] = []
    for record in records:
        row: dict[int, Cell] = {}
        for key, value in record.items():
            column = header.setdefault(key, len(header))
            row[column] = _cell(value)
        rows.append([row.get(c) for c in range(max(row, default=-1) + 1)])
    if header_row:
        rows.insert(0, [Cell("s", key) for key in header])
    return Sheet(rows=rows, width=max(len(header), 1))


def _csv_field(cell: Cell | None, separator: str, first: bool) -> str:
    if cell is None or cell.v is None:
        return ""
    text = cell.text
    if any(ch in text for ch in (separator[:1] or "\x00", "\n", '"')):
        text = '"' + text.replace('"', '""') + '"'
    if text == "ID" and first:
        text = '"ID"'
    return text


def sheet_to_csv(sheet: Sheet, separator: str = ",") -> str:
    """SheetJS ``sheet_to_csv``: fields quoted when they hold the separator, a newline or a quote; rows by ``\\n``."""
    lines = []
    for number, row in enumerate(sheet.rows):
        cells = [row[c] if c < len(row) else None for c in range(sheet.width)]
        lines.append(
            separator.join(_csv_field(cell, separator, number == 0 and c == 0) for c, cell in enumerate(cells))
        )
    return "\n".join(lines)


def write_csv(sheet: Sheet, separator: str = ",") -> bytes:
    """The CSV file SheetJS writes: UTF-8 with a byte order mark."""
    return ("\ufeff" + sheet_to_csv(sheet, separator)).encode("utf-8", "surrogatepass")


_HTML_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "'": "&apos;", '"': "&quot;"}
_HTML_BEGIN = '<html><head><meta charset="utf-8"/><title>SheetJS Table Export</title></head><body>'
_HTML_END = "</body></html>"
_PRESERVE = re.compile(r"(^\s|\s$|\n)")


def escape_html(text: str) -> str:
    """SheetJS ``escapehtml``: XML entities, ``\\n`` as ``<br/>``, other control characters as ``&#x00XX;``."""
    text = re.sub(r"[&<>'\"]", lambda m: _HTML_ESCAPES[m.group(0)], text).replace("\n", "<br/>")
    return re.sub(r"[\x00-\x1f]", lambda m: f"&#x{ord(m.group(0)):04x};", text)


def _column_name(column: int) -> str:
    name, column = "", column + 1
    while column:
        column, rest = divmod(column - 1, 26)
        name = chr(65 + rest) + name
    return name


def _html_cell(cell: Cell | None, coord: str) -> str:
    attrs: dict[str, str] = {}
    text = escape_html(cell.text) if cell is not None and cell.v is not None else ""
    if cell is not None:
        attrs["data-t"] = cell.t
        if cell.v is not None:
            attrs["data-v"] = escape_html(_js_text(cell.v))
    attrs["id"] = f"sjs-{coord}"
    rendered = "".join(f' {key}="{value}"' for key, value in attrs.items())
    preserve = ' xml:space="preserve"' if _PRESERVE.search(text) else ""
    return f"<td{rendered}{preserve}>{text}</td>"


def _js_text(value: Any) -> str:
    return js_number_string(value) if is_number(value) else js_string(value)


def write_html(sheet: Sheet) -> bytes:
    """SheetJS ``sheet_to_html``: a table of ``<td>`` cells with their type, value and address."""
    out = [_HTML_BEGIN, "<table>"]
    for number, row in enumerate(sheet.rows):
        cells = [row[c] if c < len(row) else None for c in range(sheet.width)]
        tds = "".join(_html_cell(cell, f"{_column_name(c)}{number + 1}") for c, cell in enumerate(cells))
        out.append(f"<tr>{tds}</tr>")
    out.append("</table>" + _HTML_END)
    return "".join(out).encode("utf-8", "surrogatepass")


def write_rtf(sheet: Sheet) -> bytes:
    """SheetJS ``sheet_to_rtf``: one ``\\trowd`` table row per sheet row."""
    out = ["{\\rtf1\\ansi"]
    for row in sheet.rows:
        out.append("\\trowd\\trautofit1" + "".join(f"\\cellx{c + 1}" for c in range(sheet.width)) + "\\pard\\intbl")
        for c in range(sheet.width):
            cell = row[c] if c < len(row) else None
            if cell is None or cell.v is None:
                out.append(" \\cell")
                continue
            out.append(" " + re.sub(r"[\r\n]", "\\\\par ", cell.text) + "\\cell")
        out.append("\\pard\\intbl\\row")
    return ("".join(out) + "}").encode("utf-8", "surrogatepass")


__all__ = [
    "Cell",
    "Sheet",
    "escape_html",
    "flatten_object",
    "json_to_sheet",
    "sheet_to_csv",
    "write_csv",
    "write_html",
    "write_rtf",
]
