"""Convert to File through the real engine and a real binary store (``default``: bytes inline; ``filesystem``:
files on disk), checked against the bytes SheetJS/iconv-lite/Node write (recorded cases n600-n604 hold more)."""

from __future__ import annotations

import base64
import io
from pathlib import Path
from typing import Any

import pytest

from weft.binary import BinaryDataService
from weft.binary.filesystem import FilesystemManager
from weft.engine import run_workflow
from weft.engine.options import EngineOptions
from weft.library.files._convert_encoding import node_base64_decode
from weft.library.files._convert_numbers import general_number, to_exponential, to_fixed, to_precision

BASE = "n8n-nodes-base."


def options_for(tmp_path: Path, mode: str) -> EngineOptions:
    if mode == "default":
        return EngineOptions(binary_data=BinaryDataService("default"))
    store = tmp_path / "binary-store"
    store.mkdir(exist_ok=True)
    return EngineOptions(binary_data=BinaryDataService("filesystem", {"filesystem": FilesystemManager(store)}))


async def run_chain(
    tmp_path: Path, items: list[dict[str, Any]], nodes: list[dict[str, Any]], *, mode: str = "default"
) -> Any:
    """Manual Trigger → Input (``items`` pinned) → each node; ``nodes`` give ``name``, ``type`` (short),
    ``parameters``, optionally ``typeVersion`` / ``onError``, and ``after`` (the node it follows; else Input)."""
    chain = [
        {"name": "Trigger", "type": BASE + "manualTrigger", "typeVersion": 1, "parameters": {}},
        {"name": "Input", "type": BASE + "noOp", "typeVersion": 1, "parameters": {}},
    ]
    edges = [("Trigger", "Input")]
    for node in nodes:
        spec = {k: v for k, v in node.items() if k != "after"}
        chain.append({"typeVersion": 1.1, "parameters": {}, **spec, "type": BASE + node["type"]})
        edges.append((node.get("after", "Input"), node["name"]))
    for i, node in enumerate(chain):
        node["position"] = [i * 200, i * 100]
    connections: dict[str, Any] = {}
    for source, target in edges:
        connections.setdefault(source, {"main": [[]]})["main"][0].append({"node": target, "type": "main", "index": 0})
    workflow = {
        "nodes": chain,
        "connections": connections,
        "pinData": {"Input": [{"json": item} for item in items]},
        "settings": {"executionOrder": "v1"},
    }
    return await run_workflow(workflow, options=options_for(tmp_path, mode))


def items_of(run: Any, name: str) -> list[dict[str, Any]]:
    task = run["data"]["resultData"]["runData"][name][0]
    assert "data" in task, task.get("error")
    return list(task["data"]["main"][0])


def error_of(run: Any, name: str) -> dict[str, Any]:
    error: dict[str, Any] = run["data"]["resultData"]["runData"][name][0]["error"]
    return error


def file_bytes(entry: dict[str, Any]) -> bytes:
    return base64.b64decode(entry["data"])


def convert(name: str, operation: str, version: float = 1.1, **parameters: Any) -> dict[str, Any]:
    return {
        "name": name,
        "type": "convertToFile",
        "typeVersion": version,
        "parameters": {"operation": operation, **parameters},
    }


def test_general_format_prints_numbers_as_sheetjs() -> None:
    # what SheetJS's SSF "General" format printed for these in the recorded case n600
    cases = {0.1 + 0.2: "0.3", 1234567890123: "1.23457E+12", 1e21: "1E+21", -0.000012345: "-0.000012345"}
    cases |= {1 / 3: "0.333333333", 2.5: "2.5", -7: "-7", 36: "36"}
    assert {value: general_number(value) for value in cases} == cases


def test_javascript_number_methods_round_ties_up() -> None:
    assert (to_fixed(2.5, 0), to_fixed(-1.2345e-5, 3), to_fixed(1e21, 2)) == ("3", "-0.000", "1e+21")
    assert (to_precision(123.456, 2), to_precision(0.000001234, 2), to_precision(1e21, 3)) == (
        "1.2e+2",
        "0.0000012",
        "1.00e+21",
    )
    assert to_exponential(12345, 2) == "1.23e+4"


def test_node_base64_skips_foreign_characters_and_stops_at_padding() -> None:
    assert node_base64_decode("aGVsbG8=d29y") == b"hello"
    assert node_base64_decode("!!!aGk=") == b"hi"
    assert node_base64_decode("-_8=") == b"\xfb\xff"
    assert node_base64_decode("a") == b""


async def test_csv_is_sheetjs_bytes_with_bom_flattened_and_quoted(tmp_path: Path) -> None:
    items = [{"a": 1, "o": {"x": 'q"t'}, "l": [True]}, {"a": None, "b": "x;y", "c": "l1\nl2"}]
    run = await run_chain(
        tmp_path, items, [convert("CSV", "csv"), convert("Semi", "csv", options={"delimiter": ";", "headerRow": False})]
    )
    [out] = items_of(run, "CSV")
    assert out["pairedItem"] == [{"item": 0}, {"item": 1}]
    entry = out["binary"]["data"]
    assert (entry["fileName"], entry["mimeType"], entry["fileExtension"]) == ("File.csv", "text/csv", "csv")
    assert file_bytes(entry).decode("utf-8") == '\ufeffa,o.x,l.0,b,c\n1,"q""t",TRUE,,\n,,,x;y,"l1\nl2"'
    semi = file_bytes(items_of(run, "Semi")[0]["binary"]["data"]).decode("utf-8")
    assert semi == '\ufeff1;"q""t";TRUE;;\n;;;"x;y";"l1\nl2"'


async def test_html_and_rtf_tables(tmp_path: Path) -> None:
    run = await run_chain(tmp_path, [{"n": 1.5, "s": "<b>"}], [convert("HTML", "html"), convert("RTF", "rtf")])
    html = file_bytes(items_of(run, "HTML")[0]["binary"]["data"]).decode()
    assert (
        '<td data-t="n" data-v="1.5" id="sjs-A2">1.5</td><td data-t="s" data-v="&lt;b&gt;" id="sjs-B2">&lt;b&gt;</td>'
        in html
    )
    rtf = file_bytes(items_of(run, "RTF")[0]["binary"]["data"]).decode()
    assert rtf == "{\\rtf1\\ansi\\trowd\\trautofit1\\cellx1\\cellx2\\pard\\intbl n\\cell s\\cell\\pard\\intbl\\row" + (
        "\\trowd\\trautofit1\\cellx1\\cellx2\\pard\\intbl 1.5\\cell <b>\\cell\\pard\\intbl\\row}"
    )


@pytest.mark.parametrize("mode", ["default", "filesystem"])
async def test_xlsx_and_ods_hold_the_cells(tmp_path: Path, mode: str) -> None:
    from openpyxl import load_workbook

    items = [{"name": "Ada", "age": 36, "ok": True}, {"name": "Bob", "city": "Paris"}]
    nodes = [
        convert("XLSX", "xlsx", options={"sheetName": "People"}),
        {"name": "Back", "type": "extractFromFile", "parameters": {"operation": "xlsx"}, "after": "XLSX"},
    ]
    run = await run_chain(tmp_path, items, nodes, mode=mode)
    entry = items_of(run, "XLSX")[0]["binary"]["data"]
    assert entry["fileName"] == "File.xlsx"
    assert [i["json"] for i in items_of(run, "Back")] == [
        {"name": "Ada", "age": 36, "ok": True},
        {"name": "Bob", "city": "Paris"},
    ]
    if mode == "default":
        sheet = load_workbook(io.BytesIO(file_bytes(entry)))["People"]
        assert [[c.value for c in row] for row in sheet.iter_rows()] == [
            ["name", "age", "ok", "city"],
            ["Ada", 36, True, None],
            ["Bob", None, None, "Paris"],
        ]
    ods = await run_chain(
        tmp_path,
        items,
        [
            convert("ODS", "ods"),
            {"name": "Back", "type": "extractFromFile", "parameters": {"operation": "ods"}, "after": "ODS"},
        ],
        mode=mode,
    )
    assert [i["json"] for i in items_of(ods, "Back")] == [
        {"name": "Ada", "age": 36, "ok": True},
        {"name": "Bob", "city": "Paris"},
    ]


@pytest.mark.parametrize("operation", ["xls", "rtf"])
async def test_xls_and_rtf_read_back(tmp_path: Path, operation: str) -> None:
    items = [{"name": "Ada", "n": 1.5, "ok": True}, {"name": "Bob", "n": 2}]
    back = {"name": "Back", "type": "extractFromFile", "parameters": {"operation": operation}, "after": "File"}
    run = await run_chain(tmp_path, items, [convert("File", operation, options={"sheetName": "S"}), back])
    entry = items_of(run, "File")[0]["binary"]["data"]
    assert entry["fileName"] == f"File.{operation}"
    assert [i["json"] for i in items_of(run, "Back")] == items


async def test_to_json_once_each_and_formatted(tmp_path: Path) -> None:
    items = [{"a": 1, "s": "é"}, {"a": 2.0}]
    nodes = [
        convert("Once", "toJson", options={"format": True}),
        convert("Each", "toJson", mode="each", options={"encoding": "latin1"}),
    ]
    run = await run_chain(tmp_path, items, nodes)
    [once] = items_of(run, "Once")
    assert (
        file_bytes(once["binary"]["data"]) == b'[\n  {\n    "a": 1,\n    "s": "\xc3\xa9"\n  },\n  {\n    "a": 2\n  }\n]'
    )
    each = [file_bytes(i["binary"]["data"]) for i in items_of(run, "Each")]
    assert each == [b'{"a":1,"s":"\xe9"}', b'{"a":2}']
    assert once["binary"]["data"]["mimeType"] == "application/json"


async def test_to_text_bom_only_with_a_unicode_encoding_chosen(tmp_path: Path) -> None:
    nodes = [
        convert("BOM", "toText", sourceProperty="t", options={"encoding": "utf8", "addBOM": True}),
        convert("No BOM", "toText", sourceProperty="t", options={"addBOM": True}),
    ]
    run = await run_chain(tmp_path, [{"t": "hi"}], nodes)
    assert file_bytes(items_of(run, "BOM")[0]["binary"]["data"]) == b"\xef\xbb\xbfhi"
    entry = items_of(run, "No BOM")[0]["binary"]["data"]
    assert (file_bytes(entry), entry["fileName"], entry["mimeType"]) == (b"hi", "file.txt", "text/plain")


async def test_to_text_missing_field_names_it(tmp_path: Path) -> None:
    run = await run_chain(tmp_path, [{"t": "a"}, {"u": 1}], [convert("Text", "toText", sourceProperty="t")])
    error = error_of(run, "Text")
    assert error["message"] == 'The value in "t" is not set'
    assert error["context"]["itemIndex"] == 1


async def test_to_binary_decodes_base64_and_detects_the_type(tmp_path: Path) -> None:
    png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
    nodes = [
        convert("PNG", "toBinary", sourceProperty="png"),
        convert("Text", "toBinary", 1, sourceProperty="png", options={"dataIsBase64": False}),
    ]
    run = await run_chain(tmp_path, [{"png": png}], nodes, mode="filesystem")
    entry = items_of(run, "PNG")[0]["binary"]["data"]
    assert (entry["mimeType"], entry["fileExtension"], entry["fileName"], entry["data"]) == (
        "image/png",
        "png",
        "file.png",
        "filesystem-v2",
    )
    text = items_of(run, "Text")[0]["binary"]["data"]
    assert text["bytes"] == len(png)


ICS_FULL = (
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nCALSCALE:GREGORIAN\r\nPRODID:adamgibbons/ics\r\nMETHOD:PUBLISH\r\n"
    "X-WR-CALNAME:Work\r\nX-PUBLISHED-TTL:PT1H\r\nBEGIN:VEVENT\r\nUID:u-1\r\nSUMMARY:A long title\\, with\\; commas and"
    "\\nnewlines that goes on and on past\r\n\t the seventy-five octet limit\r\nDTSTAMP:20240101T000000Z\r\n"
    "DTSTART:20240115T103000Z\r\nDTEND:20240115T113000Z\r\nSEQUENCE:2\r\n"
    "DESCRIPTION:Line one\\nline two\\; three\\, four\r\nURL:https://example.org/e\r\nGEO:51.5;-0.12\r\n"
    "LOCATION:Room 1\r\nSTATUS:TENTATIVE\r\n"
    "ORGANIZER;CN=Bob:mailto:bob@example.org\r\nX-MICROSOFT-CDO-BUSYSTATUS:BUSY\r\n"
    "ATTENDEE;RSVP=TRUE;CN=Ada:mailto:ada@example.org\r\nATTENDEE;RSVP=FALSE;CN=Unnamed attendee:mailto:b@example.org"
    "\r\nRRULE:FREQ=WEEKLY;COUNT=3\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
)


def test_ics_event_is_the_ics_librarys_text() -> None:
    # the expected text is what the ics library (2.40, as n8n ships it) wrote for the same event
    from datetime import UTC, datetime

    from weft.library.files._convert_ical import build_event

    title = "A long title, with; commas and\nnewlines that goes on and on past the seventy-five octet limit"
    parameters = {"title": title, "start": "2024-01-15T10:30:00Z", "end": "2024-01-15T12:30:00+01:00"}
    options = {
        "attendeesUi": {"attendeeValues": [{"name": "Ada", "email": "ada@example.org", "rsvp": True}]},
        "busyStatus": "BUSY",
        "calName": "Work",
        "description": "Line one\nline two; three, four",
        "geolocationUi": {"geolocationValues": {"lat": 51.5, "lon": -0.12}},
        "location": "Room 1",
        "recurrenceRule": "FREQ=WEEKLY;COUNT=3",
        "organizerUi": {"organizerValues": {"name": "Bob", "email": "bob@example.org"}},
        "sequence": 2,
        "status": "TENTATIVE",
        "uid": "u-1",
        "url": "https://example.org/e",
    }
    options["attendeesUi"]["attendeeValues"].append({"name": "", "email": "b@example.org", "rsvp": False})
    assert build_event(parameters, options, datetime(2024, 1, 1, 0, 0, 42, tzinfo=UTC)) == ICS_FULL


async def test_ics_files_one_per_item_all_day(tmp_path: Path) -> None:
    parameters = {"title": "={{ $json.t }}", "start": "2024-05-01T00:00:00", "end": "2024-05-02T00:00:00"}
    node = convert("ICS", "iCal", allDay=True, additionalFields={"fileName": "h.ics"}, **parameters)
    run = await run_chain(tmp_path, [{"t": "Holiday"}, {"t": ""}], [node])
    first, second = (file_bytes(item["binary"]["data"]).decode() for item in items_of(run, "ICS"))
    assert "SUMMARY:Holiday\r\n" in first and "SUMMARY:undefined\r\n" in second  # the ics library's default
    assert "DTSTART;VALUE=DATE:20240501\r\nDTEND;VALUE=DATE:20240503\r\n" in first
    entry = items_of(run, "ICS")[0]["binary"]["data"]
    assert (entry["fileName"], entry["mimeType"]) == ("h.ics", "text/calendar")
