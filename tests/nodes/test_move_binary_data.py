"""Move Binary Data (Convert to/from binary data) through the real engine: both directions, encodings, BOMs,
base64, JSON parsing, the options n8n hides, and the items it skips."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from weft.engine import run_workflow
from weft.library.files._files_text import decode_base64, decode_text, encode_text, python_codec

BASE = "n8n-nodes-base."


async def _run(parameters: dict[str, Any], items: list[dict[str, Any]], version: float = 1.1) -> Any:
    nodes = [
        {"name": "Trigger", "type": BASE + "manualTrigger", "typeVersion": 1, "parameters": {}, "position": [0, 0]},
        {"name": "Input", "type": BASE + "noOp", "typeVersion": 1, "parameters": {}, "position": [200, 0]},
        {
            "name": "Move",
            "type": BASE + "moveBinaryData",
            "typeVersion": version,
            "parameters": parameters,
            "position": [400, 0],
        },
    ]
    connections = {
        "Trigger": {"main": [[{"node": "Input", "type": "main", "index": 0}]]},
        "Input": {"main": [[{"node": "Move", "type": "main", "index": 0}]]},
    }
    workflow = {
        "nodes": nodes,
        "connections": connections,
        "pinData": {"Input": items},
        "settings": {"executionOrder": "v1"},
    }
    return await run_workflow(workflow)


def _out(run: Any) -> list[dict[str, Any]]:
    task = run["data"]["resultData"]["runData"]["Move"][0]
    assert "data" in task, task.get("error")
    items: list[dict[str, Any]] = task["data"]["main"][0]
    return items


def _binary_item(data: bytes, **json: Any) -> dict[str, Any]:
    entry = {"data": base64.b64encode(data).decode(), "mimeType": "application/json", "fileName": "x.json"}
    return {"json": json, "binary": {"data": entry}}


async def test_json_to_binary_all_data_by_version() -> None:
    for version, name in ((1, None), (1.1, "file.json")):
        run = await _run({"mode": "jsonToBinary", "options": {}}, [{"json": {"a": 1, "s": "é"}}], version)
        [item] = _out(run)
        entry = item["binary"]["data"]
        assert item["json"] == {} and base64.b64decode(entry["data"]) == '{"a":1,"s":"é"}'.encode()
        assert entry["mimeType"] == "application/json" and entry.get("fileName") == name


async def test_json_to_binary_one_key_raw_with_encoding_and_bom() -> None:
    params = {
        "mode": "jsonToBinary",
        "convertAllData": False,
        "sourceKey": "s",
        "destinationKey": "out",
        "options": {"useRawData": True, "encoding": "ucs2", "addBOM": True, "mimeType": "text/plain"},
    }
    run = await _run(params, [{"json": {"s": "hé", "k": 2}}, {"json": {"k": 3}}])
    [item] = _out(run)  # the item without the key is skipped
    assert item["json"] == {"k": 2} and item["pairedItem"] == {"item": 0}
    assert base64.b64decode(item["binary"]["out"]["data"]) == "\ufeffhé".encode("utf-16-le")
    assert item["binary"]["out"]["fileName"] == "file.txt"


async def test_binary_to_json_variants() -> None:
    data = '\ufeff{"x": [1, 2]}'.encode()
    run = await _run({"mode": "binaryToJson", "options": {}}, [_binary_item(data, drop=True)])
    assert _out(run)[0]["json"] == {"x": [1, 2]} and _out(run)[0]["binary"] == {}
    params = {
        "mode": "binaryToJson",
        "setAllData": False,
        "destinationKey": "deep.text",
        "options": {"keepSource": True, "stripBOM": False, "encoding": "utf8"},
    }
    [item] = _out(await _run(params, [_binary_item(data, keep=1)]))
    assert item["json"] == {"keep": 1, "deep": {"text": '\ufeff{"x": [1, 2]}'}} and "data" in item["binary"]
    params = {"mode": "binaryToJson", "setAllData": False, "options": {"keepAsBase64": True}}
    [item] = _out(await _run(params, [_binary_item(b"[1]")]))
    assert item["json"] == {"data": "WzFd"}


async def test_invalid_json_fails_with_v8_s_message() -> None:
    run = await _run({"mode": "binaryToJson", "options": {}}, [_binary_item(b"tru")])
    error = run["data"]["resultData"]["runData"]["Move"][0]["error"]
    assert error["message"] == "Unexpected end of JSON input"
    run = await _run({"mode": "binaryToJson", "options": {}}, [_binary_item(b"{'a': 1}")])
    assert run["data"]["resultData"]["runData"]["Move"][0]["error"]["message"] == (
        "Expected property name or '}' in JSON at position 1 (line 1 column 2)"
    )


async def test_an_unknown_encoding_names_the_option() -> None:
    run = await _run({"mode": "binaryToJson", "options": {"encoding": "klingon"}}, [_binary_item(b"{}")])
    error = run["data"]["resultData"]["runData"]["Move"][0]["error"]
    assert error["message"] == "Encoding not recognized: 'klingon' (searched as: 'klingon')"


@pytest.mark.parametrize(
    ("name", "codec"),
    [
        ("UTF-8", "utf-8"),
        ("win1252", "cp1252"),
        ("windows1251", "cp1251"),
        ("ISO-8859-2", "iso8859-2"),
        ("koi8r", "koi8-r"),
        ("binary", "latin-1"),
        ("shiftjis", "shift_jis"),
        ("ucs2", "utf-16-le"),
    ],
)
def test_iconv_names_map_to_python_codecs(name: str, codec: str) -> None:
    assert python_codec(name) == codec


def test_iconv_edge_cases() -> None:
    assert decode_text(b"\x80\xffA", "ascii") == "\ufffd\ufffdA"
    assert encode_text("€", "latin1") == b"?"
    assert encode_text("x", "utf16") == b"\xff\xfex\x00"  # iconv-lite's utf16 writes a BOM by default
    assert decode_text(b"\xff\xfex\x00", "utf16", strip_bom=False) == "\ufeffx"
    assert decode_text(b"hi", "hex") == "6869" and encode_text("6869z", "hex") == b"hi"
    assert decode_base64("aGk") == b"hi" and decode_base64("aG k=\n") == b"hi"
