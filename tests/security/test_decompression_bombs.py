"""Zip bombs are refused without unpacking them into memory (issue 19).

The attack: a few hundred KB (or MB) uploaded to a webhook that unpacks files, and the server filled its memory up to
the decompression limit (2 GiB by default) before it refused the file, once per request. Now the size is counted while
nothing is kept (:mod:`weft.nodes.files.archive`), spreadsheets whose parts declare more than the limit are
refused before any is unpacked, and a ``Content-Encoding: gzip`` body is inflated only up to ``WEFT_PAYLOAD_SIZE_MAX``.

The server here has a 32 MiB limit (``WEFT_COMPRESSION_NODE_MAX_DECOMPRESSED_SIZE_BYTES``) and 1 MiB bodies; each
bomb unpacks to 64 MiB. The memory the whole request allocated at its peak (``tracemalloc``: the server runs in
this process) must stay far below the limit: before, it reached the limit.
"""

from __future__ import annotations

import gzip
import io
import tarfile
import tracemalloc
import uuid
import zipfile
import zlib
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from tests.forms._record_n8n import multipart

from ._extra_server import extra_server
from .conftest import Server, unique

MIB = 1024 * 1024
LIMIT = 32 * MIB
BOMB = 64 * MIB
EXCEEDED = "The decompressed output exceeds the maximum allowed size of 32 MB"
#: Far below the 32 MiB a refused bomb held before; far above what the request itself needs.
BOUND = 8 * MIB


def _zeros_gzip(size: int) -> bytes:
    deflater, block = zlib.compressobj(9, zlib.DEFLATED, 31), bytes(MIB)
    return b"".join([deflater.compress(block) for _ in range(size // MIB)] + [deflater.flush()])


def _zip_bomb() -> bytes:
    """Eight honest 8 MiB files: each within the limit, 64 MiB together."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for n in range(BOMB // (8 * MIB)):
            archive.writestr(f"part{n}.bin", bytes(8 * MIB))
    return out.getvalue()


def _tar_gz_bomb() -> bytes:
    info = tarfile.TarInfo("zeros.bin")
    info.size = BOMB
    header = info.tobuf(tarfile.PAX_FORMAT)
    deflater = zlib.compressobj(9, zlib.DEFLATED, 31)
    parts = [deflater.compress(header)] + [deflater.compress(bytes(MIB)) for _ in range(BOMB // MIB)]
    return b"".join([*parts, deflater.compress(bytes(1024)), deflater.flush()])


def _xlsx_bomb() -> bytes:
    """A real workbook whose sheet is padded with 64 MiB of blanks (valid XML, 64 KB zipped)."""
    from openpyxl import Workbook

    book, plain = Workbook(), io.BytesIO()
    book.active.append(["name", "value"])
    book.save(plain)
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(plain.getvalue())) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "xl/worksheets/sheet1.xml":
                data = data.replace(b"<sheetData>", b"<sheetData>" + b" " * BOMB, 1)
            target.writestr(info.filename, data, compresslevel=9)
    return out.getvalue()


@pytest.fixture(scope="module")
def small_limits(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    env = {"WEFT_COMPRESSION_NODE_MAX_DECOMPRESSED_SIZE_BYTES": str(LIMIT), "WEFT_PAYLOAD_SIZE_MAX": "1"}
    with extra_server(tmp_path_factory.mktemp("weft-bombs"), env) as server:
        yield server


def _node(name: str, kind: str, parameters: dict[str, Any], version: float = 1, **extra: Any) -> dict[str, Any]:
    node = {"parameters": parameters, "name": name, "type": kind, "typeVersion": version, "position": [0, 0]}
    return {**node, "id": uuid.uuid4().hex, **extra}


def _unpacking_webhook(server: Server, unpack: dict[str, Any], **answer: Any) -> str:
    """Webhook (POST, answers with the last node's first item, or as ``answer`` says) → ``unpack``, which continues
    on failure."""
    path = unique("bomb")
    parameters = {"path": path, "httpMethod": "POST", "responseMode": "lastNode", **answer}
    webhook = _node("Webhook", "n8n-nodes-base.webhook", parameters, 2)
    unpack = {**unpack, "name": "Unpack", "onError": "continueRegularOutput"}
    server.import_workflow(
        {
            "id": uuid.uuid4().hex[:16],
            "name": path,
            "nodes": [webhook, unpack],
            "connections": {"Webhook": {"main": [[{"node": "Unpack", "type": "main", "index": 0}]]}},
            "settings": {"executionOrder": "v1"},
        }
    )
    return path


def _peak(call: Callable[[], httpx.Response]) -> tuple[httpx.Response, int]:
    """The answer, and the most memory allocated at once while it was made (this process: client and server)."""
    tracemalloc.start()
    try:
        answer = call()
        return answer, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _upload(server: Server, path: str, name: str, data: bytes, mime: str) -> Callable[[], httpx.Response]:
    body, content_type = multipart([], [("data", (name, data, mime))])
    return lambda: httpx.post(
        f"{server.url}/webhook/{path}", content=body, headers={"content-type": content_type}, timeout=60
    )


COMPRESSION = {"operation": "decompress", "binaryPropertyName": "data", "outputPrefix": "file_"}
CASES: dict[str, tuple[Callable[[], bytes], str, str]] = {
    "gzip": (lambda: _zeros_gzip(BOMB), "bomb.gz", "application/gzip"),
    "zip": (_zip_bomb, "bomb.zip", "application/zip"),
    "tar.gz": (_tar_gz_bomb, "bomb.tar.gz", "application/gzip"),
}


@pytest.mark.parametrize("kind", CASES)
def test_the_compression_node_refuses_a_bomb_in_bounded_memory(small_limits: Server, kind: str) -> None:
    make, name, mime = CASES[kind]
    bomb = make()
    assert len(bomb) < BOMB // 200
    path = _unpacking_webhook(small_limits, _node("Unpack", "n8n-nodes-base.compression", COMPRESSION, 1.1))
    answer, peak = _peak(_upload(small_limits, path, name, bomb, mime))
    assert (answer.status_code, answer.json()) == (200, {"error": EXCEEDED})
    assert peak < BOUND, f"{peak / MIB:.1f} MiB allocated to refuse the {kind} bomb"


def test_an_archive_within_the_limit_still_unpacks(small_limits: Server) -> None:
    unpack = _node("Unpack", "n8n-nodes-base.compression", COMPRESSION, 1.1)
    options = {"responsePropertyName": "file_0"}
    path = _unpacking_webhook(small_limits, unpack, responseData="firstEntryBinary", options=options)
    content = b"hello " * 1000
    answer = _upload(small_limits, path, "ok.txt.gz", gzip.compress(content), "application/gzip")()
    assert (answer.status_code, answer.content) == (200, content)


def test_extract_from_file_refuses_a_spreadsheet_bomb_before_unpacking(small_limits: Server) -> None:
    bomb = _xlsx_bomb()
    assert len(bomb) < BOMB // 200
    extract = _node("Unpack", "n8n-nodes-base.extractFromFile", {"operation": "xlsx", "binaryPropertyName": "data"}, 1)
    path = _unpacking_webhook(small_limits, extract)
    mime = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    answer, peak = _peak(_upload(small_limits, path, "bomb.xlsx", bomb, mime))
    assert answer.status_code == 200
    assert EXCEEDED in answer.json()["error"]
    assert peak < BOUND, f"{peak / MIB:.1f} MiB allocated to refuse the spreadsheet bomb"


def test_a_gzip_request_body_is_inflated_up_to_the_payload_limit_only(small_limits: Server) -> None:
    path = unique("encoded")
    webhook = _node(
        "Webhook",
        "n8n-nodes-base.webhook",
        {"path": path, "httpMethod": "POST", "responseMode": "lastNode", "options": {"responsePropertyName": "body"}},
        2,
    )
    small_limits.import_workflow(
        {
            "id": uuid.uuid4().hex[:16],
            "name": path,
            "nodes": [webhook],
            "connections": {},
            "settings": {"executionOrder": "v1"},
        }
    )
    headers = {"content-type": "application/json", "content-encoding": "gzip"}
    url = f"{small_limits.url}/webhook/{path}"
    ok = httpx.post(url, content=gzip.compress(b'{"hello": "world"}'), headers=headers, timeout=60)
    assert (ok.status_code, ok.json()) == (200, {"hello": "world"})  # as n8n's body parser inflates it
    bomb = _zeros_gzip(BOMB)
    answer, peak = _peak(lambda: httpx.post(url, content=bomb, headers=headers, timeout=60))
    assert answer.status_code == 413
    assert peak < BOUND, f"{peak / MIB:.1f} MiB allocated to refuse the body"
