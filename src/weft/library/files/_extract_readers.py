"""Reading a spreadsheet file into a :class:`~._extract_sheet.Workbook`, by what the bytes are (SheetJS's ``read``
looks at the bytes, not at the operation): XLSX with openpyxl, ODS from its ``content.xml``, HTML tables as SheetJS
parses them, and anything else as delimited text (:mod:`._extract_dsv`).

XLS (BIFF, the Excel 97-2003 format) is read with xlrd, and RTF tables as SheetJS reads them. An XLSX or ODS file
(a zip) whose parts unpack to more than the instance's decompression limit is refused before anything is unpacked
(:func:`weft.nodes.files.archive.check_declared_size`): a few MB of zip bomb cannot fill the memory.
"""

from __future__ import annotations

import io
import re
import zipfile
from datetime import date, datetime, time, timedelta
from typing import Any
from xml.etree import ElementTree

from weft.library.files._convert_sheet import Cell
from weft.library.files._extract_dsv import read_text_sheet, typed_cell
from weft.library.files._extract_sheet import Grid, Workbook, decode_range
from weft.nodes.files.archive import CompressionLimits, check_declared_size


class UnreadableSpreadsheet(Exception):
    """The bytes are a spreadsheet format Weft cannot read."""


def read_workbook(data: bytes, *, raw: bool = False, limits: CompressionLimits | None = None) -> Workbook:
    """The workbook in ``data``: XLSX, ODS, HTML or delimited text (a zip within ``limits``)."""
    if data[:4] == b"PK\x03\x04":
        return _read_zip(data, limits or CompressionLimits())
    if data[:8] == b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1":
        return _read_xls(data)
    text = data.decode("utf-8", "replace").lstrip("\ufeff")
    if text.lstrip().startswith("{\\rtf"):
        return _single(rtf_sheet(text))
    if text.lstrip().startswith("<") and re.search(r"<table", text, re.I):
        return html_workbook(text, raw=raw)
    return _single(read_text_sheet(text, raw=raw))


def _read_xls(data: bytes) -> Workbook:
    import xlrd

    try:
        book = xlrd.open_workbook(file_contents=data)
    except xlrd.XLRDError as error:
        raise UnreadableSpreadsheet(f"Could not read the XLS file: {error}") from error
    workbook = Workbook()
    for sheet in book.sheets():
        grid = Grid()
        for r in range(sheet.nrows):
            for c in range(sheet.ncols):
                cell = _xls_cell(sheet.cell_type(r, c), sheet.cell_value(r, c))
                if cell is not None:
                    grid.put(r, c, cell)
        if sheet.nrows and sheet.ncols:
            grid.bounds = (0, 0, sheet.nrows - 1, sheet.ncols - 1)
        workbook.names.append(sheet.name)
        workbook.sheets[sheet.name] = grid
    return workbook


def _xls_cell(kind: int, value: Any) -> Cell | None:
    """xlrd's cell types: 1 text, 2 number, 3 date (its serial number, as SheetJS gives it), 4 boolean."""
    if kind == 1:
        return Cell("s", str(value))
    if kind in (2, 3):
        number = float(value)
        return Cell("n", int(number) if number.is_integer() and abs(number) < 2**53 else number)
    if kind == 4:
        return Cell("b", bool(value))
    return None


def rtf_sheet(text: str) -> Grid:
    """SheetJS ``rtf_to_sheet``: each ``\\trowd … \\row`` a row, each ``\\cell`` a cell typed from its text."""
    rows, start = [], text.find("\\trowd")
    while start > -1:
        end = text.find("\\row", start + 6)
        if end == -1:
            break
        rows.append(text[start : end + 4])
        start = text.find("\\trowd", end + 4)
    if not rows:
        raise UnreadableSpreadsheet("RTF missing table")
    grid, width = Grid(), 0
    for r, row in enumerate(rows):
        column, payload, last = -1, [], 0
        for match in re.finditer(r"\\[\w\-]+\b", row):
            data = row[last : match.start()]
            data = data[1:] if data.startswith(" ") else data
            if data:
                payload.append(data)
            if match.group(0) == "\\cell":
                column += 1
                if payload:
                    grid.put(r, column, typed_cell("".join(payload), raw=False))
                payload = []
            elif match.group(0) == "\\par":
                payload.append("\n")
            last = match.end()
        width = max(width, column)
    grid.bounds = (0, 0, len(rows) - 1, width)
    return grid


def _single(grid: Grid) -> Workbook:
    return Workbook(names=["Sheet1"], sheets={"Sheet1": grid})


def _read_zip(data: bytes, limits: CompressionLimits) -> Workbook:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        check_declared_size(archive, limits)
        names = set(archive.namelist())
        if "content.xml" in names:
            return _read_ods(archive.read("content.xml"))
    if "xl/workbook.xml" not in names:
        raise UnreadableSpreadsheet("Unsupported ZIP file")
    return _read_xlsx(data)


def _xlsx_cell(value: Any) -> Cell | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return Cell("b", value)
    if isinstance(value, int | float):
        return Cell("n", value)
    if isinstance(value, datetime | date | time | timedelta):
        return Cell("n", _serial(value))
    return Cell("s", str(value))


def _serial(value: datetime | date | time | timedelta) -> float | int:
    """The Excel date serial number SheetJS gives for a date cell (n8n does not ask it for dates)."""
    if isinstance(value, timedelta):
        days = value / timedelta(days=1)
    elif isinstance(value, time):
        days = (value.hour * 3600 + value.minute * 60 + value.second + value.microsecond / 1e6) / 86400
    else:
        moment = value if isinstance(value, datetime) else datetime.combine(value, time())
        days = (moment - datetime(1899, 12, 30)) / timedelta(days=1)
    return int(days) if float(days).is_integer() else days


def _iso(text: str) -> str:
    """An ODS ``date-value`` as the ISO string SheetJS's date cell becomes in JSON."""
    moment = datetime.fromisoformat(text)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


_EMPTY_TEXT = re.compile(
    r'<c r="([A-Z]+)(\d+)"[^>]*?t="(?:str|inlineStr)"[^>]*?>(?:<v\s*/>|<v></v>|<is><t\s*/></is>|<is><t></t></is>)'
)


def _empty_strings(archive: zipfile.ZipFile, path: str, grid: Grid) -> None:
    """Cells holding an empty string, which openpyxl reads as no cell (SheetJS keeps them: a header named "")."""
    try:
        xml = archive.read(path).decode("utf-8", "replace")
    except KeyError:
        return
    for match in _EMPTY_TEXT.finditer(xml):
        column = 0
        for ch in match.group(1):
            column = column * 26 + ord(ch) - 64
        grid.cells.setdefault((int(match.group(2)) - 1, column - 1), Cell("s", ""))


def _dimension(sheet: Any) -> tuple[int, int, int, int] | None:
    try:
        text = sheet.calculate_dimension()
    except (ValueError, TypeError):
        return None
    return decode_range(text) if isinstance(text, str) and text != "A1:A1" else None


def _read_xlsx(data: bytes) -> Workbook:
    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    workbook = Workbook()
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for sheet in book.worksheets:
                grid = Grid()
                for r, row in enumerate(sheet.iter_rows(values_only=True)):
                    for c, value in enumerate(row):
                        cell = _xlsx_cell(value)
                        if cell is not None:
                            grid.put(r, c, cell)
                _empty_strings(archive, str(getattr(sheet, "_worksheet_path", "")), grid)
                grid.bounds = _dimension(sheet)
                workbook.names.append(sheet.title)
                workbook.sheets[sheet.title] = grid
    finally:
        book.close()
    return workbook


_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_TEXT = "{urn:oasis:names:tc:opendocument:xmlns:text:1.0}"


_STYLE = "{urn:oasis:names:tc:opendocument:xmlns:style:1.0}"
_NUMBER = "{urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0}"


def _date_styles(root: ElementTree.Element) -> set[str]:
    """Cell styles whose number format is a date: SheetJS reads their numbers as dates."""
    formats = {e.get(f"{_STYLE}name") for e in root.iter(f"{_NUMBER}date-style")}
    return {
        str(e.get(f"{_STYLE}name")) for e in root.iter(f"{_STYLE}style") if e.get(f"{_STYLE}data-style-name") in formats
    }


def _ods_cell(element: ElementTree.Element, date_styles: set[str]) -> Cell | None:
    kind = element.get(f"{_OFFICE}value-type")
    if kind == "float" and element.get(f"{_TABLE}style-name") in date_styles:
        moment = datetime(1899, 12, 30) + timedelta(days=float(element.get(f"{_OFFICE}value", "0")))
        return Cell("d", _iso(moment.isoformat()))
    text = "\n".join("".join(p.itertext()) for p in element.iter(f"{_TEXT}p"))
    if kind in ("float", "percentage", "currency"):
        number = float(element.get(f"{_OFFICE}value", "0"))
        return Cell("n", int(number) if number.is_integer() and abs(number) < 2**53 else number)
    if kind == "date" and element.get(f"{_OFFICE}date-value"):
        return Cell("d", _iso(element.get(f"{_OFFICE}date-value", "")))
    if kind == "boolean":
        return Cell("b", element.get(f"{_OFFICE}boolean-value") == "true")
    if kind is None and not text:
        return None
    return Cell("s", text)


def _read_ods(content: bytes) -> Workbook:
    root = ElementTree.fromstring(content)
    date_styles = _date_styles(root)
    workbook = Workbook()
    for table in root.iter(f"{_TABLE}table"):
        grid, r = Grid(), 0
        for row in table.iter(f"{_TABLE}table-row"):
            c = 0
            for element in row:
                repeat = int(element.get(f"{_TABLE}number-columns-repeated", "1"))
                cell = _ods_cell(element, date_styles)
                for _ in range(min(repeat, 1024) if cell is not None else 0):
                    grid.put(r, c, cell)  # type: ignore[arg-type]
                    c += 1
                c += repeat if cell is None else 0
            r += int(row.get(f"{_TABLE}number-rows-repeated", "1"))
        name = table.get(f"{_TABLE}name", f"Sheet{len(workbook.names) + 1}")
        workbook.names.append(name)
        workbook.sheets[name] = grid
    return workbook


# --------------------------------------------------------------------------- HTML (SheetJS html_to_sheet)

_ENTITIES = [("nbsp", " "), ("middot", "·"), ("quot", '"'), ("apos", "'"), ("gt", ">"), ("lt", "<"), ("amp", "&")]


def html_decode(text: str) -> str:
    """SheetJS ``htmldecode``: whitespace collapsed, ``<br>`` as a newline, tags stripped, a few entities."""
    text = re.sub(r"^[\t\n\r ]+", "", text)
    text = re.sub(r"(^|[^\t\n\r ])[\t\n\r ]+$", r"\1", text)
    text = re.sub(r">\s+", ">", text)
    text = re.sub(r"\b\s+<", "<", text)
    text = re.sub(r"[\t\n\r ]+", " ", text)
    text = re.sub(r"<\s*[bB][rR]\s*/?>", "\n", text)
    text = re.sub(r"<[^<>]*>", "", text)
    for name, value in _ENTITIES:
        text = re.sub(f"&{name};", value, text, flags=re.I)
    return text


def _html_sheet(table: str, *, raw: bool) -> Grid:
    grid, r, c = Grid(), -1, 0
    for chunk in re.split(r"(?=<tr[^<>]*>)", table, flags=re.I):
        row = chunk.strip()
        if row[:3].lower() == "<tr":
            r, c = r + 1, 0
            row = row[row.find(">") + 1 :]
        for cell in re.split(r"</t[dh]>", row, flags=re.I):
            cell = cell.strip()
            if not re.search(r"<t[dh]", cell, re.I):
                continue
            cell = cell[re.search(r"<t[dh]", cell, re.I).start() :]  # type: ignore[union-attr]
            tag, content = cell[: cell.find(">")], cell
            while content.startswith("<") and ">" in content:
                content = content[content.find(">") + 1 :]
            span = re.search(r'colspan="?(\d+)', tag)
            declared = re.search(r'data-t="([^"]*)"', tag)
            text = html_decode(content)
            if text:
                kind = declared.group(1) if declared else ""
                grid.put(max(r, 0), c, typed_cell(text, raw=raw, declared=kind, dates="iso"))
            c += int(span.group(1)) if span else 1
    return grid


def html_workbook(text: str, *, raw: bool = False) -> Workbook:
    """Every ``<table>`` as a sheet (``Sheet1``, ``Sheet2``, …)."""
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    tables = re.findall(r"<table\b.*?</table>", text, flags=re.I | re.S)
    workbook = Workbook()
    for number, table in enumerate(tables, 1):
        workbook.names.append(f"Sheet{number}")
        workbook.sheets[f"Sheet{number}"] = _html_sheet(table, raw=raw)
    return workbook


__all__ = ["UnreadableSpreadsheet", "html_decode", "html_workbook", "read_workbook", "rtf_sheet"]
