"""Spreadsheet File 1 and 2 through the real engine (recorded cases n630-n633 hold n8n's answers)."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest

from .test_convert_to_file import error_of, items_of, run_chain


def sheet(name: str, operation: str, version: float, after: str = "Input", **parameters: Any) -> dict[str, Any]:
    node = {"name": name, "type": "spreadsheetFile", "typeVersion": version, "after": after}
    return node | {"parameters": {"operation": operation, **parameters}}


PEOPLE = [{"name": "Ada", "age": 36, "ok": True}, {"name": "Bob", "age": 41, "city": "Paris"}]


@pytest.mark.parametrize("mode", ["default", "filesystem"])
async def test_v2_reads_its_csv_with_csv_parse(tmp_path: Path, mode: str) -> None:
    nodes = [
        sheet("Write", "toFile", 2, fileFormat="csv", options={}),
        sheet("Read", "fromFile", 2, after="Write", options={}),
    ]
    run = await run_chain(tmp_path, PEOPLE, nodes, mode=mode)
    [written] = items_of(run, "Write")
    entry = written["binary"]["data"]
    assert (entry["fileName"], entry["mimeType"]) == ("spreadsheet.csv", "text/csv")
    assert written["pairedItem"] == [{"item": 0}, {"item": 1}]
    rows = [item["json"] for item in items_of(run, "Read")]
    # SheetJS writes a byte order mark that csv-parse keeps without "enableBOM": n8n's first key has it (n630)
    assert rows == [
        {"\ufeffname": "Ada", "age": "36", "ok": "TRUE"},
        {"\ufeffname": "Bob", "age": "41", "city": "Paris"},
    ]
    # the CSV options count only with the format set to CSV (n8n's display rules drop them for autodetect)
    read = sheet("Read", "fromFile", 2, after="Write", fileFormat="csv", options={"enableBOM": True})
    bom = await run_chain(tmp_path, PEOPLE, [nodes[0], read])
    assert [item["json"]["name"] for item in items_of(bom, "Read")] == ["Ada", "Bob"]


async def test_v1_reads_csv_with_sheetjs_typed_cells(tmp_path: Path) -> None:
    nodes = [
        sheet("Write", "toFile", 1, fileFormat="csv", options={}),
        sheet("Read", "fromFile", 1, after="Write", options={}),
        sheet("Raw", "fromFile", 1, after="Write", options={"rawData": True, "headerRow": False}),
    ]
    run = await run_chain(tmp_path, PEOPLE, nodes)
    assert [i["json"] for i in items_of(run, "Read")] == [
        {"name": "Ada", "age": 36, "ok": True},
        {"name": "Bob", "age": 41, "city": "Paris"},
    ]
    assert [i["json"]["row"] for i in items_of(run, "Raw")][1] == ["Ada", "36", "TRUE"]


async def test_v2_xlsx_round_trip_and_missing_sheet(tmp_path: Path) -> None:
    nodes = [
        sheet("Write", "toFile", 2, fileFormat="xlsx", binaryPropertyName="s", options={"sheetName": "S1"}),
        sheet("Read", "fromFile", 2, after="Write", binaryPropertyName="s", options={}),
        sheet("Wrong", "fromFile", 2, after="Write", binaryPropertyName="s", options={"sheetName": "S2"}),
    ]
    run = await run_chain(tmp_path, PEOPLE, nodes, mode="filesystem")
    assert [i["json"] for i in items_of(run, "Read")] == PEOPLE
    error = error_of(run, "Wrong")
    # n8n's message: the format parameter (autodetect) is not the file's extension
    assert error["message"] == "The file selected in 'Input Binary Field' is not in autodetect format"


async def test_v1_missing_sheet_keeps_its_own_message_and_continues(tmp_path: Path) -> None:
    nodes = [
        sheet("Write", "toFile", 1, fileFormat="xlsx", options={}),
        {
            **sheet("Wrong", "fromFile", 1, after="Write", options={"sheetName": "Nope"}),
            "onError": "continueRegularOutput",
        },
    ]
    run = await run_chain(tmp_path, PEOPLE, nodes)
    assert [i["json"] for i in items_of(run, "Wrong")] == [
        {"error": 'Spreadsheet does not contain sheet called "Nope"!'}
    ]


async def test_html_written_by_v2_reads_back(tmp_path: Path) -> None:
    nodes = [
        sheet("Write", "toFile", 2, fileFormat="html", options={"fileName": "t.htm"}),
        sheet("Read", "fromFile", 2, after="Write", fileFormat="html", options={}),
    ]
    run = await run_chain(tmp_path, PEOPLE, nodes)
    entry = items_of(run, "Write")[0]["binary"]["data"]
    assert entry["fileName"] == "t.htm" and base64.b64decode(entry["data"]).startswith(b"<html><head>")
    assert [i["json"] for i in items_of(run, "Read")] == PEOPLE


async def test_a_damaged_workbook_is_an_item_error_not_a_crash(tmp_path: Path) -> None:
    from .test_convert_to_file import convert

    damaged = base64.b64encode(b"PK\x03\x04 not really a zip").decode()
    nodes = [
        convert("File", "toBinary", sourceProperty="x", options={"fileName": "d.xlsx"}),
        {**sheet("V1", "fromFile", 1, after="File", options={}), "onError": "continueRegularOutput"},
        {"name": "Extract", "type": "extractFromFile", "after": "File", "parameters": {"operation": "xlsx"}},
    ]
    run = await run_chain(tmp_path, [{"x": damaged}], nodes)
    [item] = items_of(run, "V1")
    assert item["json"]["error"].startswith("Could not read the spreadsheet: ")
    error = error_of(run, "Extract")
    assert error["message"].startswith("Could not read the spreadsheet: ") and error["context"]["itemIndex"] == 0
