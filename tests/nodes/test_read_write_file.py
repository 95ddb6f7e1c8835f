"""Read/Write Files from Disk and the legacy Read Binary File(s) / Write Binary File, on a real disk, through the
real engine, in the ``filesystem`` binary mode unless a test says otherwise."""

from __future__ import annotations

import base64
import hashlib
import itertools
import os
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from weft.binary import BinaryDataService
from weft.binary.filesystem import FilesystemManager
from weft.engine import run_workflow
from weft.engine.options import EngineOptions
from weft.nodes.files.access import FileAccess

BASE = "n8n-nodes-base."


def _options(tmp_path: Path, *, allowed: Path | None = None) -> EngineOptions:
    store = tmp_path / "binary-store"
    store.mkdir(exist_ok=True)
    access = FileAccess(allowed=(str(allowed or tmp_path / "files"),), blocked=(str(store),))
    return EngineOptions(
        binary_data=BinaryDataService("filesystem", {"filesystem": FilesystemManager(store)}), file_access=access
    )


async def _run(tmp_path: Path, nodes: list[dict[str, Any]], items: list[dict[str, Any]] | None = None) -> Any:
    """Manual Trigger → Input (pinned ``items``) → each node in turn."""
    chain = [
        {"name": "Trigger", "type": BASE + "manualTrigger", "typeVersion": 1, "parameters": {}},
        {"name": "Input", "type": BASE + "noOp", "typeVersion": 1, "parameters": {}},
    ]
    chain += [{"typeVersion": 1, "parameters": {}, **node, "type": BASE + node["type"]} for node in nodes]
    for i, node in enumerate(chain):
        node["position"] = [i * 200, 0]
    names = [n["name"] for n in chain]
    connections = {a: {"main": [[{"node": b, "type": "main", "index": 0}]]} for a, b in itertools.pairwise(names)}
    workflow = {
        "nodes": chain,
        "connections": connections,
        "pinData": {"Input": items or [{"json": {}}]},
        "settings": {"executionOrder": "v1"},
    }
    return await run_workflow(workflow, options=_options(tmp_path))


def _task(run: Any, name: str) -> dict[str, Any]:
    task: dict[str, Any] = run["data"]["resultData"]["runData"][name][0]
    return task


def _items(run: Any, name: str) -> list[dict[str, Any]]:
    task = _task(run, name)
    assert "data" in task, task.get("error")
    items: list[dict[str, Any]] = task["data"]["main"][0]
    return items


def _text_item(text: str, name: str = "a.txt", **json: Any) -> dict[str, Any]:
    data = base64.b64encode(text.encode()).decode()
    return {"json": json, "binary": {"data": {"data": data, "mimeType": "text/plain", "fileName": name}}}


@pytest.fixture
def files(tmp_path: Path) -> Path:
    folder = tmp_path / "files"
    folder.mkdir()
    return folder


async def test_write_then_read_gives_n8n_items(tmp_path: Path, files: Path) -> None:
    write = {
        "name": "Write",
        "type": "readWriteFile",
        "typeVersion": 1.1,
        "parameters": {"operation": "write", "fileName": f"={files}/out-{{{{ $json.n }}}}.txt"},
    }
    read = {
        "name": "Read",
        "type": "readWriteFile",
        "typeVersion": 1.1,
        "parameters": {"fileSelector": f"{files}/out-*.txt", "options": {"dataPropertyName": "file"}},
        "executeOnce": True,
    }
    run = await _run(tmp_path, [write, read], [_text_item("one", n=1), _text_item("two!", n=2)])
    assert [i["json"] for i in _items(run, "Write")] == [
        {"n": 1, "fileName": f"{files}/out-1.txt"},
        {"n": 2, "fileName": f"{files}/out-2.txt"},
    ]
    assert (files / "out-2.txt").read_text() == "two!"
    read_items = _items(run, "Read")
    assert [i["json"] for i in read_items] == [
        {
            "mimeType": "text/plain",
            "fileType": "text",
            "fileName": f"out-{n}.txt",
            "fileExtension": "txt",
            "fileSize": size,
        }
        for n, size in ((1, "3 B"), (2, "4 B"))
    ]
    entry = read_items[0]["binary"]["file"]
    assert entry["data"] == "filesystem-v2" and entry["directory"] == str(files) and entry["bytes"] == 3
    assert read_items[1]["pairedItem"] == {"item": 0}


async def test_no_match_is_empty_in_version_1_and_an_error_in_1_1(tmp_path: Path, files: Path) -> None:
    v1 = {"name": "V1", "type": "readWriteFile", "parameters": {"fileSelector": f"{files}/none-*"}}
    run = await _run(tmp_path, [v1])
    assert _items(run, "V1") == []
    v11 = {"name": "V11", "type": "readWriteFile", "typeVersion": 1.1, "parameters": {"fileSelector": f"{files}/[x]"}}
    run = await _run(tmp_path, [v11])
    error = _task(run, "V11")["error"]
    assert error["message"] == "No file(s) found" and error["name"] == "NodeApiError"
    assert error["description"] == (
        f'No file matching the selector "{files}/[x]" found. If [ ] and ( ) were meant as a character class or '
        "group, turn off 'Treat Brackets and Parentheses as Literal' in Options"
    )


async def test_append_and_a_blocked_path_continuing_on_fail(tmp_path: Path, files: Path) -> None:
    (files / "log.txt").write_text("start;")
    append = {
        "name": "Append",
        "type": "readWriteFile",
        "typeVersion": 1.1,
        "parameters": {"operation": "write", "fileName": f"{files}/log.txt", "options": {"append": True}},
    }
    outside = {
        "name": "Outside",
        "type": "readWriteFile",
        "typeVersion": 1.1,
        "onError": "continueRegularOutput",
        "parameters": {"operation": "write", "fileName": f"{tmp_path}/escape.txt"},
    }
    run = await _run(tmp_path, [append, outside], [_text_item("a;"), _text_item("b;")])
    assert (files / "log.txt").read_text() == "start;a;b;"
    assert [i["json"] for i in _items(run, "Outside")] == [{"error": "Access to the file is not allowed."}] * 2
    assert not (tmp_path / "escape.txt").exists()


async def test_a_missing_folder_fails_with_n8n_s_words(tmp_path: Path, files: Path) -> None:
    write = {
        "name": "Write",
        "type": "readWriteFile",
        "typeVersion": 1.1,
        "parameters": {"operation": "write", "fileName": f"{files}/no/such/x.txt"},
    }
    run = await _run(tmp_path, [write], [_text_item("x")])
    assert _task(run, "Write")["error"]["message"] == "The file or directory does not exist"


async def test_a_big_file_streams_through_without_being_held_in_memory(tmp_path: Path, files: Path) -> None:
    size, block = 64 * 1024 * 1024, os.urandom(1024 * 1024)
    with (files / "big.bin").open("wb") as handle:
        for _ in range(size // len(block)):
            handle.write(block)
    read = {
        "name": "Read",
        "type": "readWriteFile",
        "typeVersion": 1.1,
        "parameters": {"fileSelector": f"{files}/big.bin"},
    }
    write = {
        "name": "Write",
        "type": "readWriteFile",
        "typeVersion": 1.1,
        "parameters": {"operation": "write", "fileName": f"{files}/copy.bin"},
    }
    tracemalloc.start()
    try:
        run = await _run(tmp_path, [read, write])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert _items(run, "Read")[0]["json"]["fileSize"] == "67.1 MB"
    assert peak < 16 * 1024 * 1024, f"peak {peak} bytes: the file was held in memory"
    assert _sha(files / "copy.bin") == _sha(files / "big.bin")


def _sha(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


async def test_legacy_nodes_read_and_write(tmp_path: Path, files: Path) -> None:
    write = {"name": "Write", "type": "writeBinaryFile", "parameters": {"fileName": f"={files}/{{{{ $json.n }}}}.md"}}
    read_one = {
        "name": "ReadOne",
        "type": "readBinaryFile",
        "parameters": {"filePath": "={{ $json.fileName }}", "dataPropertyName": "again"},
    }
    read_all = {"name": "ReadAll", "type": "readBinaryFiles", "parameters": {"fileSelector": f"{files}/*.md"}}
    run = await _run(tmp_path, [write, read_one, read_all], [_text_item("# one", n=1), _text_item("# two", n=2)])
    one = _items(run, "ReadOne")
    assert set(one[0]["binary"]) == {"data", "again"} and one[0]["json"] == {"n": 1, "fileName": f"{files}/1.md"}
    assert one[0]["binary"]["again"]["mimeType"] == "text/markdown"
    every = _items(run, "ReadAll")
    assert [i["binary"]["data"]["fileName"] for i in every] == ["1.md", "2.md"]
    assert every[0]["json"] == {} and every[0]["pairedItem"] == [{"item": 0}, {"item": 1}]


async def test_legacy_reader_refuses_a_symlink_out_of_the_folder(tmp_path: Path, files: Path) -> None:
    (tmp_path / "secret.txt").write_text("secret")
    (files / "innocent.txt").symlink_to(tmp_path / "secret.txt")
    read = {"name": "Read", "type": "readBinaryFile", "parameters": {"filePath": f"{files}/innocent.txt"}}
    run = await _run(tmp_path, [read])
    assert _task(run, "Read")["error"]["message"] == "Access to the file is not allowed."


#: The versions n8n 2.8.4 and 2.41.1 ship of the file nodes (their ``.node.js`` ``version``).
FILE_NODE_VERSIONS = {
    "readWriteFile": (1, 1.1),
    "readBinaryFile": (1,),
    "readBinaryFiles": (1,),
    "writeBinaryFile": (1,),
    "compression": (1, 1.1),
    "moveBinaryData": (1, 1.1),
}


@pytest.mark.parametrize("short_name", sorted(FILE_NODE_VERSIONS))
def test_every_n8n_version_of_the_file_nodes_is_accepted(short_name: str) -> None:
    from weft.nodes.registry import default_registry

    registry = default_registry()
    for version in FILE_NODE_VERSIONS[short_name]:
        assert registry.check(BASE + short_name, version) is None, (short_name, version)
    node_type = registry.type_class(BASE + short_name)
    assert node_type is not None and node_type.description.default_version == max(FILE_NODE_VERSIONS[short_name])


async def test_an_empty_path_is_a_typed_error_naming_the_parameter(tmp_path: Path, files: Path) -> None:
    write = {"name": "Write", "type": "readWriteFile", "typeVersion": 1.1, "parameters": {"operation": "write"}}
    legacy = {"name": "Legacy", "type": "writeBinaryFile", "parameters": {"fileName": " "}}
    reader = {"name": "Reader", "type": "readBinaryFiles", "parameters": {"fileSelector": ""}}
    for node in (write, legacy, reader):
        run = await _run(tmp_path, [node], [_text_item("x")])
        error = _task(run, node["name"])["error"]
        assert error["message"].startswith("The parameter '") and error["message"].endswith("' is empty")
        assert "absolute path" in error["description"]
