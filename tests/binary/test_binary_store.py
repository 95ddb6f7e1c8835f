"""weft.binary: n8n's file metadata rules, and the stores behind the binary-data modes."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from weft.binary import BinaryDataError, BinaryDataService, Location, describe, pretty_bytes
from weft.binary.filesystem import FilesystemManager
from weft.binary.meta import extension, lookup, sanitize_file_name, sniff

HERE = Location("wf1", "42")


@pytest.mark.parametrize(
    ("size", "text"),
    [(0, "0 B"), (999, "999 B"), (1000, "1 kB"), (3010, "3.01 kB"), (16211, "16.2 kB"), (200_000_000, "200 MB")],
)
def test_pretty_bytes_is_n8ns(size: int, text: str) -> None:
    assert pretty_bytes(size) == text


def test_mime_types_come_from_the_mime_types_package_table() -> None:
    assert lookup("report.CSV") == "text/csv" and lookup("/a/b/x.json") == "application/json"
    assert lookup("noextension") is None
    assert extension("image/jpeg") == "jpg"  # mime-types' first extension, not Python's .jpe
    assert extension("application/octet-stream") == "bin" and extension("text/plain; charset=utf-8") == "txt"


def test_describe_follows_prepare_binary_data() -> None:
    assert describe("/tmp/x/a.csv") == {
        "mimeType": "text/csv",
        "fileType": "text",
        "fileExtension": "csv",
        "directory": "/tmp/x",
        "fileName": "a.csv",
    }
    # a given MIME type wins over the name; the name's extension wins over the type's
    assert describe("data.bin", "application/pdf")["fileExtension"] == "bin"
    assert describe(None, None, b"\x89PNG\r\n\x1a\n....") == {
        "mimeType": "image/png",
        "fileType": "image",
        "fileExtension": "png",
    }
    # nothing tells the type: text/plain, set after the extension was looked up, so none
    assert describe(None, None, b"plain words") == {"mimeType": "text/plain", "fileType": "text"}
    assert "fileExtension" not in describe(".bashrc", "application/x-thing")  # path.parse('.bashrc').ext is ''


def test_sniffing_knows_file_types_last_rule() -> None:
    assert sniff(b"%PDF-1.7") == ("application/pdf", "pdf")
    assert sniff(b"\xff\xfeh\x00i\x00") == ("audio/mpeg", "mp1")  # a UTF-16 BOM, as n8n's file-type reads it
    assert sniff(b"hello") is None


def test_file_names_are_sanitized_as_n8n() -> None:
    assert sanitize_file_name("..\\..\\evil.txt") == "evil.txt"
    assert sanitize_file_name("a/b/\0c.txt") == "c.txt"
    assert sanitize_file_name("..") == "untitled"


def _files(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file()]


async def _chunks(count: int, size: int) -> AsyncIterator[bytes]:
    for index in range(count):
        yield bytes([index % 256]) * size
        await asyncio.sleep(0)


async def test_the_default_mode_keeps_the_bytes_in_the_entry() -> None:
    service = BinaryDataService()
    entry = await service.store(HERE, b"hello", {"mimeType": "text/plain"})
    assert entry == {"mimeType": "text/plain", "data": "aGVsbG8=", "fileSize": "5 B", "bytes": 5}
    assert await service.get_bytes(entry) == b"hello"


async def test_the_filesystem_mode_streams_to_private_files(tmp_path: Path) -> None:
    service = BinaryDataService("filesystem", {"filesystem": FilesystemManager(tmp_path)})
    entry = await service.store(HERE, _chunks(40, 100_000), {"fileName": "big.bin"})
    assert entry["data"] == "filesystem-v2" and entry["bytes"] == 4_000_000 and entry["fileSize"] == "4 MB"
    file_id = entry["id"].removeprefix("filesystem-v2:")
    assert file_id.startswith("workflows/wf1/executions/42/binary_data/")
    path = tmp_path / file_id
    assert path.stat().st_mode & 0o777 == 0o600 and path.parent.stat().st_mode & 0o777 == 0o700
    chunks = [chunk async for chunk in service.stream(entry, 65536)]
    assert max(len(c) for c in chunks) == 65536 and b"".join(chunks)[100_000:100_001] == b"\x01"
    await service.delete_executions(["41"])
    assert path.exists()
    await service.delete_executions(["42"])
    assert not path.exists()
    with pytest.raises(BinaryDataError, match="does not exist"):
        await service.get_bytes(entry)


async def test_a_failed_upload_leaves_no_file(tmp_path: Path) -> None:
    service = BinaryDataService("filesystem", {"filesystem": FilesystemManager(tmp_path)})

    async def broken() -> AsyncIterator[bytes]:
        yield b"part"
        raise ConnectionError("the client went away")

    with pytest.raises(ConnectionError):
        await service.store(HERE, broken(), {})
    assert _files(tmp_path) == []


@pytest.mark.parametrize(
    "forged",
    [
        "filesystem-v2:../outside",
        "filesystem-v2:/etc/passwd",
        "filesystem-v2:workflows/a/executions/1/binary_data/../../../../x",
        "filesystem-v2:",
        "s3:anything",
    ],
)
async def test_ids_that_are_not_weft_made_are_refused(tmp_path: Path, forged: str) -> None:
    (tmp_path.parent / "outside").write_bytes(b"secret")
    service = BinaryDataService("filesystem", {"filesystem": FilesystemManager(tmp_path)})
    with pytest.raises(BinaryDataError):
        await service.get_bytes({"id": forged})


async def test_files_are_read_in_the_mode_they_were_stored_in(tmp_path: Path) -> None:
    """After switching the mode, files stored before are still read through their id's prefix."""
    files = FilesystemManager(tmp_path)
    before = await BinaryDataService("filesystem", {"filesystem": files}).store(HERE, os.urandom(10), {})
    after = BinaryDataService("default", {"filesystem": files})
    assert len(await after.get_bytes(before)) == 10
    with pytest.raises(BinaryDataError, match="not available"):
        BinaryDataService("database", {"filesystem": files})
