"""Compression through the real engine: zip, gzip and tar round trips, n8n's file names, and unpacking that stops
at the limits (a zip bomb, too many entries, entries that climb out of the archive)."""

from __future__ import annotations

import base64
import io
import itertools
import tarfile
import zipfile
from typing import Any

import pytest

from weft.engine import run_workflow
from weft.engine.options import EngineOptions
from weft.nodes.files.archive import ArchiveError, CompressionLimits, gunzip, make_gzip, untar, unzip

BASE = "n8n-nodes-base."


def _file(data: bytes, name: str, mime: str = "text/plain") -> dict[str, Any]:
    ext = name.rsplit(".", 1)[-1]
    return {"data": base64.b64encode(data).decode(), "mimeType": mime, "fileName": name, "fileExtension": ext}


async def _run(nodes: list[dict[str, Any]], binary: dict[str, Any], limits: CompressionLimits | None = None) -> Any:
    chain = [
        {"name": "Trigger", "type": BASE + "manualTrigger", "typeVersion": 1, "parameters": {}},
        {"name": "Input", "type": BASE + "noOp", "typeVersion": 1, "parameters": {}},
    ]
    chain += [{"typeVersion": 1.1, **node, "type": BASE + "compression"} for node in nodes]
    for i, node in enumerate(chain):
        node["position"] = [i * 200, 0]
    names = [n["name"] for n in chain]
    connections = {a: {"main": [[{"node": b, "type": "main", "index": 0}]]} for a, b in itertools.pairwise(names)}
    workflow = {
        "nodes": chain,
        "connections": connections,
        "pinData": {"Input": [{"json": {"k": 1}, "binary": binary}]},
        "settings": {"executionOrder": "v1"},
    }
    return await run_workflow(workflow, options=EngineOptions(compression_limits=limits or CompressionLimits()))


def _task(run: Any, name: str) -> dict[str, Any]:
    task: dict[str, Any] = run["data"]["resultData"]["runData"][name][0]
    return task


def _binary(run: Any, name: str) -> dict[str, Any]:
    task = _task(run, name)
    assert "data" in task, task.get("error")
    binary: dict[str, Any] = task["data"]["main"][0][0]["binary"]
    return binary


def _bytes(entry: dict[str, Any]) -> bytes:
    return base64.b64decode(entry["data"])


TWO = {"a": _file(b"alpha " * 50, "a.txt"), "b": _file(b"x,y\n1,2\n", "b.csv", "text/csv")}


async def test_zip_round_trip_keeps_names_and_bytes() -> None:
    zip_node = {
        "name": "Zip",
        "parameters": {
            "operation": "compress",
            "binaryPropertyName": "a, b",
            "fileName": "both.zip",
            "binaryPropertyOutput": "zipped",
        },
    }
    unzip_node = {"name": "Unzip", "parameters": {"operation": "decompress", "binaryPropertyName": "zipped"}}
    run = await _run([zip_node, unzip_node], TWO)
    archive = _binary(run, "Zip")["zipped"]
    assert (archive["fileName"], archive["mimeType"], archive["fileExtension"]) == (
        "both.zip",
        "application/zip",
        "zip",
    )
    with zipfile.ZipFile(io.BytesIO(_bytes(archive))) as opened:
        assert [(i.filename, i.compress_type) for i in opened.infolist()] == [("a.txt", 8), ("b.csv", 8)]
    out = _binary(run, "Unzip")
    assert list(out) == ["file_0", "file_1"]
    assert _bytes(out["file_0"]) == b"alpha " * 50 and out["file_1"]["mimeType"] == "text/csv"


async def test_gzip_names_differ_between_versions() -> None:
    v1 = {
        "name": "V1",
        "typeVersion": 1,
        "parameters": {"operation": "compress", "binaryPropertyName": "a,b", "outputFormat": "gzip"},
    }
    v11 = {
        "name": "V11",
        "parameters": {
            "operation": "compress",
            "binaryPropertyName": "a,b",
            "outputFormat": "gzip",
            "fileName": "renamed.gz",
        },
    }
    run = await _run([v1], TWO)
    assert {k: v["fileName"] for k, v in _binary(run, "V1").items()} == {"data0": "a.gzip", "data1": "b.gzip"}
    run = await _run(
        [v11, {"name": "Gunzip", "parameters": {"operation": "decompress", "binaryPropertyName": "data"}}], TWO
    )
    assert {k: v["fileName"] for k, v in _binary(run, "V11").items()} == {
        "data": "renamed.txt.gz",
        "data1": "renamed.csv.gz",
    }
    unpacked = _binary(run, "Gunzip")["file_0"]
    assert (unpacked["fileName"], unpacked["mimeType"], _bytes(unpacked)) == (
        "renamed.txt",
        "text/plain",
        b"alpha " * 50,
    )


async def test_tar_and_tar_gz_round_trip() -> None:
    for fmt, name in (("tar", "both.tar"), ("targz", "both.tar.gz")):
        pack = {
            "name": "Pack",
            "parameters": {"operation": "compress", "binaryPropertyName": "a,b", "outputFormat": fmt, "fileName": name},
        }
        unpack = {"name": "Unpack", "parameters": {"operation": "decompress", "outputPrefix": "t"}}
        run = await _run([pack, unpack], TWO)
        out = _binary(run, "Unpack")
        assert [v["fileName"] for v in out.values()] == ["a.txt", "b.csv"] and list(out) == ["t0", "t1"]


async def test_unsupported_format_and_missing_extension_fail_with_n8n_messages() -> None:
    node = {"name": "Bad", "parameters": {"operation": "decompress", "binaryPropertyName": "b"}}
    run = await _run([node], TWO)
    error = _task(run, "Bad")["error"]
    assert error["message"] == 'Unsupported archive format ".csv" for binary data b'
    no_ext = {"data": base64.b64encode(b"x").decode(), "mimeType": "application/octet-stream"}
    run = await _run([{**node, "onError": "continueRegularOutput"}], {"b": no_ext})
    assert _task(run, "Bad")["data"]["main"][0][0]["json"] == {"error": "File extension not found for binary data b"}


async def test_a_zip_bomb_stops_at_the_limit() -> None:
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("zeros.bin", b"\0" * (8 * 1024 * 1024))
    node = {"name": "Unzip", "parameters": {"operation": "decompress"}}
    limits = CompressionLimits(max_decompressed_size=1024 * 1024)
    run = await _run([node], {"data": _file(bomb.getvalue(), "bomb.zip", "application/zip")}, limits)
    assert _task(run, "Unzip")["error"]["message"] == "The decompressed output exceeds the maximum allowed size of 1 MB"


def test_unpacking_counts_produced_bytes_not_declared_sizes() -> None:
    limits = CompressionLimits(max_decompressed_size=1000, max_entries=2)
    with pytest.raises(ArchiveError, match="maximum allowed size of 0 MB"):
        gunzip(make_gzip(b"\0" * 5000), limits)
    lying = io.BytesIO()
    with zipfile.ZipFile(lying, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("a", b"\0" * 5000)
    data = bytearray(lying.getvalue())
    central = data.rfind(b"PK\x01\x02")
    data[central + 24 : central + 28] = (10).to_bytes(4, "little")  # the central directory claims 10 bytes
    with pytest.raises(ArchiveError):
        unzip(bytes(data), limits)
    many = io.BytesIO()
    with zipfile.ZipFile(many, "w") as archive:
        for i in range(3):
            archive.writestr(f"{i}.txt", b"x")
        archive.writestr("folder/", b"")
    with pytest.raises(ArchiveError, match="more than 2 entries"):
        unzip(many.getvalue(), limits)
    with pytest.raises(ArchiveError, match="invalid zip data"):
        unzip(b"PK not a zip", limits)


def test_tar_entries_that_climb_out_or_are_not_files_are_skipped() -> None:
    packed = io.BytesIO()
    with tarfile.open(fileobj=packed, mode="w") as archive:
        for name in ("../escape.txt", "/etc/abs.txt", "ok/inside.txt", "__proto__"):
            info = tarfile.TarInfo(name)
            info.size = 2
            archive.addfile(info, io.BytesIO(b"hi"))
        link = tarfile.TarInfo("link")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        archive.addfile(link)
    assert untar(packed.getvalue(), CompressionLimits()) == {"ok/inside.txt": b"hi"}


def test_data_that_is_no_tar_unpacks_to_nothing_as_node_tar_reads_it() -> None:
    assert untar(b"not an archive at all", CompressionLimits()) == {}
    assert gunzip(b"", CompressionLimits()) == b""
