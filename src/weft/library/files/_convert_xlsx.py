"""Writing a worksheet as an Excel (XLSX with openpyxl, XLS with xlwt) or OpenDocument (ODS) file.

SheetJS's files carry its own timestamps and layout, so the bytes differ from n8n's; the cells (values and types)
and the sheet name are the same, which is what a reader of the file sees. XLS (BIFF8) is written with xlwt.
"""

from __future__ import annotations

import io
import zipfile
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from weft.library.files._convert_sheet import Cell, Sheet


def _value(cell: Cell | None) -> Any:
    return None if cell is None or cell.t == "z" else cell.v


def write_xlsx(sheet: Sheet, sheet_name: str, *, compression: bool = False) -> bytes:
    """An XLSX workbook with one sheet holding the cells."""
    from openpyxl import Workbook

    workbook = Workbook()
    worksheet = workbook.active
    worksheet.title = sheet_name[:31]
    for row in sheet.rows:
        worksheet.append([_value(cell) for cell in row])
    worksheet.cell(row=1, column=1)  # the range starts at A1, as SheetJS's does, even when the first row is empty
    buffer = io.BytesIO()
    workbook.save(buffer)
    if compression:
        return buffer.getvalue()
    return _restored(buffer.getvalue(), zipfile.ZIP_STORED)


def _restored(data: bytes, method: int) -> bytes:
    """The zip rewritten with ``method`` (SheetJS stores entries uncompressed unless ``compression`` is on)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w", method) as target:
        for info in source.infolist():
            target.writestr(info.filename, source.read(info), compress_type=method)
    return out.getvalue()


_ODS_MANIFEST = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
    '<manifest:file-entry manifest:full-path="/" manifest:version="1.2" '
    'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
    '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
    '<manifest:file-entry manifest:full-path="styles.xml" manifest:media-type="text/xml"/>'
    "</manifest:manifest>"
)
_ODS_NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2"'
)


def _ods_cell(cell: Cell | None) -> str:
    if cell is None or cell.t == "z":
        return "<table:table-cell/>"
    if cell.t == "n":
        value = f'office:value-type="float" office:value="{cell.v!r}"'
        return f"<table:table-cell {value}><text:p>{cell.text}</text:p></table:table-cell>"
    if cell.t == "b":
        word = "true" if cell.v else "false"
        return (
            f'<table:table-cell office:value-type="boolean" office:boolean-value="{word}">'
            f"<text:p>{cell.text}</text:p></table:table-cell>"
        )
    return f'<table:table-cell office:value-type="string"><text:p>{escape(str(cell.v))}</text:p></table:table-cell>'


def write_ods(sheet: Sheet, sheet_name: str, *, compression: bool = False) -> bytes:
    """An OpenDocument spreadsheet with one table holding the cells."""
    rows = "".join(f"<table:table-row>{''.join(_ods_cell(c) for c in row)}</table:table-row>" for row in sheet.rows)
    content = (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content {_ODS_NS}><office:body>'
        f"<office:spreadsheet><table:table table:name={quoteattr(sheet_name)}>{rows}</table:table>"
        "</office:spreadsheet></office:body></office:document-content>"
    )
    out = io.BytesIO()
    method = zipfile.ZIP_DEFLATED if compression else zipfile.ZIP_STORED
    with zipfile.ZipFile(out, "w", method) as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet", zipfile.ZIP_STORED)
        archive.writestr("META-INF/manifest.xml", _ODS_MANIFEST)
        archive.writestr("content.xml", content)
        archive.writestr("styles.xml", f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-styles {_ODS_NS}/>')
    return out.getvalue()


def write_xls(sheet: Sheet, sheet_name: str) -> bytes:
    """An Excel 97-2003 (BIFF8) workbook with one sheet holding the cells (written with xlwt)."""
    import xlwt

    workbook = xlwt.Workbook(encoding="utf-8")
    worksheet = workbook.add_sheet(sheet_name[:31] or "Sheet")
    for r, row in enumerate(sheet.rows):
        for c, cell in enumerate(row):
            value = _value(cell)
            if value is not None:
                worksheet.write(r, c, value if not isinstance(value, str) else value[:32767])
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


__all__ = ["write_ods", "write_xls", "write_xlsx"]
