"""Extract from File through the real engine: files made by Convert to File (or by openpyxl / a hand-written PDF)
in a real binary store, read back as items (recorded cases n610-n622 hold n8n's answers)."""

from __future__ import annotations

import base64
import io
import random
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from weft.library.files._extract_csv import CsvError, CsvOptions, CsvParser

from .test_convert_to_file import convert, error_of, items_of, run_chain


def extract(name: str, operation: str, version: float = 1.1, after: str = "File", **parameters: Any) -> dict[str, Any]:
    node = {"name": name, "type": "extractFromFile", "typeVersion": version, "after": after}
    return node | {"parameters": {"operation": operation, **parameters}}


def text_file(field: str, **options: Any) -> dict[str, Any]:
    return convert("File", "toText", sourceProperty=field, options=options)


def json_of(run: Any, name: str) -> list[Any]:
    return [item["json"] for item in items_of(run, name)]


def _parse(text: str, chunk: int, **options: Any) -> list[Any]:
    parser = CsvParser(CsvOptions(**options))
    rows: list[Any] = []
    for start in range(0, len(text), chunk):
        rows += parser.feed(text[start : start + chunk])
    return rows + list(parser.end())


def test_csv_parser_gives_the_same_rows_whatever_the_chunks() -> None:
    rng = random.Random(7)
    fields = ['"a,b"', '""""', "x", "", '"l1\r\nl2"', "tail "]
    text = "h1,h2,h3\r\n" + "\r\n".join(",".join(rng.choice(fields) for _ in range(3)) for _ in range(300))
    whole = _parse(text, len(text))
    assert len(whole) == 300 and whole[0].keys() == {"h1", "h2", "h3"}
    for chunk in (1, 2, 3, 7, 64):
        assert _parse(text, chunk) == whole


def test_csv_parser_words_its_errors_as_csv_parse() -> None:
    with pytest.raises(CsvError, match=r"^Invalid Record Length: columns length is 2, got 1 on line 3$"):
        _parse("a,b\n1,2\n3", 4)
    with pytest.raises(CsvError, match=r"^Quote Not Closed: the parsing is finished with an opening quote at line 2$"):
        _parse('a\n"x', 4)
    with pytest.raises(CsvError, match=r'^Invalid Opening Quote: a quote is found on field 0 at line 2, value is "x"$'):
        _parse('a\nx"y"', 4)
    assert _parse('a\nx"y"', 4, relax_quotes=True) == [{"a": 'x"y"'}]


def test_csv_parser_stops_after_max_rows_and_skips_bad_records() -> None:
    parser = CsvParser(CsvOptions(to=2))
    rows = list(parser.feed("h\n1\n2\n3\n4\n"))
    assert (rows, parser.stopped) == ([{"h": "1"}, {"h": "2"}], True)
    skipping = CsvParser(CsvOptions(skip_records_with_error=True))
    assert list(skipping.feed("a,b\n1\n2,3\n")) + list(skipping.end()) == [{"a": "2", "b": "3"}]
    assert skipping.skipped == 1


async def test_large_csv_streams_from_the_filesystem_store(tmp_path: Path) -> None:
    csv = "id,name\n" + "".join(f"{i},name {i}\n" for i in range(60_000))
    run = await run_chain(
        tmp_path, [{"csv": csv}], [text_file("csv", fileName="big.csv"), extract("CSV", "csv")], mode="filesystem"
    )
    rows = json_of(run, "CSV")
    assert len(rows) == 60_000 and rows[-1] == {"id": "59999", "name": "name 59999"}
    assert items_of(run, "CSV")[-1]["pairedItem"] == {"item": 0}


@pytest.mark.parametrize("mode", ["default", "filesystem"])
async def test_csv_options(tmp_path: Path, mode: str) -> None:
    csv = "a;b\n1;\n\n3;4\n"
    nodes = [
        text_file("csv"),
        extract("Plain", "csv", options={"delimiter": ";"}),
        extract("Empty Cells", "csv", options={"delimiter": ";", "includeEmptyCells": True}),
        extract("Rows", "csv", options={"delimiter": ";", "headerRow": False}),
    ]
    run = await run_chain(tmp_path, [{"csv": csv}], nodes, mode=mode)
    assert json_of(run, "Plain") == [{"a": "1"}, {"a": "3", "b": "4"}]
    assert json_of(run, "Empty Cells") == [{"a": "1", "b": ""}, {"a": "3", "b": "4"}]
    assert json_of(run, "Rows") == [{"row": {"0": "a", "1": "b"}}, {"row": {"0": "1"}}, {"row": {"0": "3", "1": "4"}}]


async def test_csv_error_names_the_format_when_the_file_is_not_csv(tmp_path: Path) -> None:
    run = await run_chain(tmp_path, [{"csv": 'a\n"x'}], [text_file("csv"), extract("CSV", "csv")], mode="filesystem")
    error = error_of(run, "CSV")
    assert error["message"] == "The file selected in 'Input Binary Field' is not in csv format"
    assert error["description"] == "Try to change the operation or select a csv file in 'Input Binary Field'"


async def test_version_1_keeps_rows_before_a_csv_error_with_inline_bytes(tmp_path: Path) -> None:
    nodes = [
        text_file("csv", fileName="f.csv"),
        extract("V1", "csv", 1),
        extract("V1.1", "csv", after="File", options={}),
    ]
    run = await run_chain(tmp_path, [{"csv": "a\n1\n2,3\n"}], nodes)
    assert json_of(run, "V1") == [{"a": "1"}]
    assert error_of(run, "V1.1")["message"] == "Invalid Record Length: columns length is 1, got 2 on line 3"


async def test_json_text_and_base64(tmp_path: Path) -> None:
    nodes = [
        text_file("j"),
        extract("JSON", "fromJson", destinationKey="out.value", options={"keepSource": "json"}),
        extract("Text", "text", options={"keepSource": "binary"}),
        extract("Base64", "binaryToPropery"),
    ]
    run = await run_chain(tmp_path, [{"j": '{"a":[1,2]}'}], nodes)
    assert json_of(run, "JSON") == [{"out": {"value": {"a": [1, 2]}}}]  # the file item's JSON ({}) is kept
    assert items_of(run, "JSON")[0]["binary"] == {}
    [text] = items_of(run, "Text")
    assert text["json"] == {"data": '{"a":[1,2]}'} and text["binary"]["data"]["fileName"] == "file.txt"
    assert base64.b64decode(json_of(run, "Base64")[0]["data"]) == b'{"a":[1,2]}'


async def test_not_json_and_missing_field_errors(tmp_path: Path) -> None:
    nodes = [text_file("j"), extract("JSON", "fromJson"), extract("Missing", "text", binaryPropertyName="nope")]
    run = await run_chain(tmp_path, [{"j": "nope"}], nodes)
    error = error_of(run, "JSON")
    assert error["message"] == "The file selected in 'Input Binary Field' is not in JSON format"
    assert error["description"] == "Try to change the operation or select a JSON file in 'Input Binary Field'"


async def test_missing_binary_field_says_which(tmp_path: Path) -> None:
    run = await run_chain(
        tmp_path, [{"j": "x"}], [text_file("j"), extract("Missing", "text", binaryPropertyName="nope")]
    )
    assert error_of(run, "Missing")["message"] == "The item has no binary field 'nope' [item 0]"


async def test_xlsx_written_by_openpyxl_with_dates_and_sheets(tmp_path: Path) -> None:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "One"
    sheet.append(["when", "n", "name"])
    sheet.append([datetime(2024, 1, 15, 12, 30), 2.5, None])
    sheet.append([None, None, "x"])
    book.create_sheet("Two").append(["k"])
    buffer = io.BytesIO()
    book.save(buffer)
    data = base64.b64encode(buffer.getvalue()).decode()
    nodes = [
        convert("File", "toBinary", sourceProperty="x", options={"fileName": "b.xlsx"}),
        extract("Read", "xlsx"),
        extract("Rows", "xlsx", options={"headerRow": False, "range": "B1:C3"}),
        extract("Missing", "xlsx", options={"sheetName": "Three"}),
    ]
    run = await run_chain(tmp_path, [{"x": data}], nodes, mode="filesystem")
    # a date cell is its serial number, as SheetJS reads it for n8n (which does not ask for dates)
    assert json_of(run, "Read") == [{"when": 45306.520833333336, "n": 2.5}, {"name": "x"}]
    assert json_of(run, "Rows") == [{"row": ["n", "name"]}, {"row": [2.5]}, {"row": [None, "x"]}]
    assert error_of(run, "Missing")["message"] == 'Spreadsheet does not contain sheet called "Three"!'


async def test_html_table_cells_are_typed_as_sheetjs(tmp_path: Path) -> None:
    html = "<table><tr><th>A</th><th>B</th></tr><tr><td>1,000</td><td>x &amp; y<br>z</td></tr>"
    html += "<tr><td>TRUE</td></tr></table>"
    run = await run_chain(tmp_path, [{"h": html}], [text_file("h"), extract("HTML", "html")])
    assert json_of(run, "HTML") == [{"A": 1000, "B": "x & y\nz"}, {"A": True}]


def _pdf(lines: list[str]) -> bytes:
    content = "BT /F1 12 Tf 72 720 Td " + " ".join(f"({line}) Tj 0 -16 Td" for line in lines) + " ET"
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> "
        "/Contents 4 0 R >>",
        f"<< /Length {len(content)} >>\nstream\n{content}\nendstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        "<< /Title (T) /Custom (c) >>",
    ]
    out, offsets = b"%PDF-1.7\n", []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode()
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode() + b"".join(
        f"{o:010d} 00000 n \n".encode() for o in offsets
    )
    return out + f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()


async def test_pdf_text_and_info(tmp_path: Path) -> None:
    data = base64.b64encode(_pdf(["One", "Two"])).decode()
    nodes = [
        convert("File", "toBinary", sourceProperty="p", options={"fileName": "d.pdf"}),
        extract("PDF", "pdf", options={"keepSource": "both"}),
    ]
    run = await run_chain(tmp_path, [{"p": data}], nodes, mode="filesystem")
    [item] = items_of(run, "PDF")
    assert item["json"]["text"] == "One\nTwo" and item["json"]["numpages"] == 1
    assert item["json"]["info"]["PDFFormatVersion"] == "1.7"
    assert (item["json"]["info"]["Title"], item["json"]["info"]["Custom"]) == ("T", {"Custom": "c"})
    assert item["binary"]["data"]["fileName"] == "d.pdf"


async def test_pdf_that_is_not_a_pdf_fails_per_item(tmp_path: Path) -> None:
    nodes = [text_file("p"), {**extract("PDF", "pdf"), "onError": "continueRegularOutput"}]
    run = await run_chain(tmp_path, [{"p": "not a pdf"}], nodes)
    [item] = items_of(run, "PDF")
    assert item["json"]["error"] == "Invalid PDF structure."  # pdf.js's words


ICS = (
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//T//EN\r\nX-WR-CALNAME:Work\r\nBEGIN:VEVENT\r\nUID:u-1\r\n"
    "SUMMARY:Meet\\, now\r\nSEQUENCE:2\r\nDTSTART;TZID=Europe/Berlin:20240201T090000\r\nDTEND;VALUE=DATE:20240202\r\n"
    "DESCRIPTION:folded \r\n line\r\nRRULE:FREQ=WEEKLY;UNTIL=20240301;BYDAY=MO,-1FR\r\n"
    "ATTENDEE;RSVP=TRUE;CN=Ada:mailto:ada@x.org\r\nBEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT15M\r\nEND:VALARM\r\n"
    "END:VEVENT\r\nEND:VCALENDAR\r\n"
)


async def test_ics_is_read_as_ts_ics_reads_it(tmp_path: Path) -> None:
    # the expected object is what ts-ics 1.2.2 (with n8n 2.41's date-only UNTIL fix) gave for the same text
    run = await run_chain(tmp_path, [{"ics": ICS}], [text_file("ics"), extract("ICS", "fromIcs")])
    assert json_of(run, "ICS") == [
        {
            "data": {
                "version": "2.0",
                "prodId": "-//T//EN",
                "events": [
                    {
                        "uid": "u-1",
                        "summary": "Meet\\, now",
                        "start": {
                            "date": "2024-02-01T08:00:00.000Z",
                            "type": "DATE-TIME",
                            "local": {
                                "date": "2024-02-01T09:00:00.000Z",
                                "timezone": "Europe/Berlin",
                                "tzoffset": "+0100",
                            },
                        },
                        "end": {"date": "2024-02-02T00:00:00.000Z", "type": "DATE"},
                        "description": "folded line",
                        "recurrenceRule": {
                            "frequency": "WEEKLY",
                            "until": {"date": "2024-03-01T00:00:00.000Z", "type": "DATE-TIME"},
                            "byDay": [{"day": "MO"}, {"day": "FR", "occurence": -1}],
                        },
                        "alarms": [
                            {
                                "action": "DISPLAY",
                                "trigger": {
                                    "type": "relative",
                                    "value": {"before": True, "minutes": 15},
                                    "options": {},
                                },
                            }
                        ],
                        "attendees": [{"email": "ada@x.org", "name": "Ada"}],
                    }
                ],
            }
        }
    ]


async def test_ics_line_without_a_colon_fails_with_ts_ics_words(tmp_path: Path) -> None:
    bad = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nnope\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
    run = await run_chain(tmp_path, [{"ics": bad}], [text_file("ics"), extract("ICS", "fromIcs")])
    assert error_of(run, "ICS")["message"] == "Line not valid: nope"


@pytest.mark.parametrize(
    ("text", "options", "expected"),
    [  # what csv-parse 7 (n8n 2.41's) gave for the same input
        (
            "a,b\n1,2\n\n3,4,5\n",
            {"skip_empty_lines": True},
            "Invalid Record Length: columns length is 2, got 3 on line 4",
        ),
        ('a,b\r\n1,"x\r\ny"\r\n3\r\n', {}, "Invalid Record Length: columns length is 2, got 1 on line 5"),
        ("h\n1\n2\n3\n", {"from_line": 3}, [{"2": "3"}]),
    ],
)
def test_csv_parser_counts_lines_as_csv_parse(text: str, options: dict[str, Any], expected: Any) -> None:
    for chunk in (1, 5, len(text)):
        if isinstance(expected, str):
            with pytest.raises(CsvError) as raised:
                _parse(text, chunk, **options)
            assert raised.value.message == expected
        else:
            assert _parse(text, chunk, **options) == expected


def test_xmp_metadata_is_read_as_pdfjs_reads_it() -> None:
    from weft.nodes.files.pdf import xmp_metadata

    xmp = (
        'junk<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="r"><rdf:Description xmlns:dc="d">'
        "<dc:title><rdf:Alt><rdf:li>T</rdf:li></rdf:Alt></dc:title><dc:subject>\n <rdf:Bag><rdf:li> a </rdf:li>"
        "</rdf:Bag></dc:subject><dc:Format> x </dc:Format></rdf:Description></rdf:RDF></x:xmpmeta>"
    )
    assert xmp_metadata(xmp) == {"dc:title": "T", "dc:subject": ["a"], "dc:format": "x"}
    assert xmp_metadata("<not xml") == {}


#: what SheetJS 0.20.3 (n8n 2.41's) gave for these texts, read as delimited text and as an HTML table cell
SHEETJS_DATES = [
    ("2024-01-15", 45306, "2024-01-15T00:00:00.000Z"),
    ("2024-01-15 10:30", 45306.4375, "2024-01-15T10:30:00.000Z"),
    ("1/15/2024", 45306, "2024-01-15T00:00:00.000Z"),
    ("1-15-2024", 45306, "1907-09-14T00:00:00.000Z"),
    ("10:30", 0.4375, "1899-12-31T10:30:00.000Z"),
    ("1:30 pm", 0.5625, None),
    ("2/28/1900", 60, 60),
    ("15/01/2024", "15/01/2024", "15/01/2024"),
    ("Jan 15 2024", "Jan 15 2024", "Jan 15 2024"),
    ("2024-01-15 10:30:45.123456", 45306.438022256945, "2024-01-15T10:30:45.122Z"),
]


def test_date_like_text_is_typed_as_sheetjs_types_it() -> None:
    from weft.library.files._extract_readers import read_workbook
    from weft.library.files._extract_sheet import sheet_to_json

    text = "\n".join(value for value, _, _ in SHEETJS_DATES)
    html = "<table>" + "".join(f"<tr><td>{value}</td></tr>" for value, _, _ in SHEETJS_DATES) + "</table>"
    as_text = [row[0] for row in sheet_to_json(read_workbook(text.encode()).sheets["Sheet1"], header_row=False)]
    as_html = [row[0] for row in sheet_to_json(read_workbook(html.encode()).sheets["Sheet1"], header_row=False)]
    assert as_text == [serial for _, serial, _ in SHEETJS_DATES]
    assert as_html == [value for _, _, value in SHEETJS_DATES]
