"""What n8n writes about a file beside its bytes (``IBinaryData`` without ``data``/``id``): MIME type, file type,
name, directory, extension and size, worked out as ``prepareBinaryData`` does in ``n8n-core``.

MIME types come from the table of the ``mime-types`` npm package n8n uses (``mime_types.json``, generated from its
``types`` and ``extensions``), so ``lookup("a.csv")`` and ``extension("image/jpeg")`` give n8n's answers, not
Python's ``mimetypes``.
"""

from __future__ import annotations

import json
import posixpath
import re
from functools import cache
from importlib import resources
from typing import Any
from urllib.parse import unquote

#: n8n's ``BINARY_ENCODING``: the encoding of ``data`` when the bytes are kept in the item.
BINARY_ENCODING = "base64"


@cache
def _table() -> dict[str, dict[str, str]]:
    text = resources.files("weft.binary").joinpath("mime_types.json").read_text(encoding="utf-8")
    table: dict[str, dict[str, str]] = json.loads(text)
    return table


def lookup(path: str) -> str | None:
    """``mime-types``' ``lookup``: the MIME type of a file name or path by its extension (or a bare extension)."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1].lower()
    ext = name.rsplit(".", 1)[-1] if "." in name else name
    return _table()["lookup"].get(ext)


def extension(mime_type: str) -> str | None:
    """``mime-types``' ``extension``: the first extension of a MIME type (parameters ignored)."""
    base = mime_type.split(";", 1)[0].strip().lower()
    return _table()["extension"].get(base)


def file_type(mime_type: str) -> str | None:
    """n8n's ``fileTypeFromMimeType``: ``json``, ``html``, ``image``, ``audio``, ``video``, ``text`` or ``pdf``."""
    for prefix, kind in (
        ("application/json", "json"),
        ("text/html", "html"),
        ("image/", "image"),
        ("audio/", "audio"),
        ("video/", "video"),
        ("text/", "text"),
        ("application/javascript", "text"),
        ("application/pdf", "pdf"),
    ):
        if mime_type.startswith(prefix):
            return kind
    return None


def pretty_bytes(size: int) -> str:
    """``pretty-bytes`` as n8n uses it for ``fileSize``: 1000-based units, three significant digits."""
    value, units = float(size), ["B", "kB", "MB", "GB", "TB", "PB"]
    while value >= 1000 and len(units) > 1:
        value, units = value / 1000, units[1:]
    return f"{size} B" if units[0] == "B" else f"{float(f'{value:.3g}'):g} {units[0]}"


#: Leading bytes of common files and what ``file-type`` calls them (``fileTypeFromBuffer``), for data without a
#: name or MIME type.
_MAGIC: tuple[tuple[bytes, int, str, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", 0, "image/png", "png"),
    (b"\xff\xd8\xff", 0, "image/jpeg", "jpg"),
    (b"GIF87a", 0, "image/gif", "gif"),
    (b"GIF89a", 0, "image/gif", "gif"),
    (b"%PDF", 0, "application/pdf", "pdf"),
    (b"\x1f\x8b", 0, "application/gzip", "gz"),
    (b"BM", 0, "image/bmp", "bmp"),
    (b"7z\xbc\xaf\x27\x1c", 0, "application/x-7z-compressed", "7z"),
    (b"Rar!\x1a\x07", 0, "application/x-rar-compressed", "rar"),
    (b"OggS", 0, "audio/ogg", "ogg"),
    (b"ID3", 0, "audio/mpeg", "mp3"),
    (b"fLaC", 0, "audio/x-flac", "flac"),
    (b"wOFF", 0, "font/woff", "woff"),
    (b"wOF2", 0, "font/woff2", "woff2"),
)


def sniff(head: bytes) -> tuple[str, str] | None:
    """``(mimeType, extension)`` of data by its first bytes, as ``file-type`` finds the common kinds; else ``None``."""
    for magic, offset, mime, ext in _MAGIC:
        if head[offset : offset + len(magic)] == magic:
            return mime, ext
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp", "webp"
    if head[:4] == b"RIFF" and head[8:12] == b"WAVE":
        return "audio/wav", "wav"
    if head[4:8] == b"ftyp":
        return "video/mp4", "mp4"
    if head[:4] == b"PK\x03\x04":
        return "application/zip", "zip"
    return _mpeg_audio(head)


def _mpeg_audio(head: bytes) -> tuple[str, str] | None:
    """``file-type``'s last rule: an MPEG audio frame sync (so a UTF-16 BOM, ``FF FE``, reads as ``mp1``, as in n8n)."""
    if len(head) < 2 or head[0] != 0xFF or head[1] & 0xE0 != 0xE0:
        return None
    if head[1] & 0x16 == 0x10:
        return "audio/aac", "aac"
    layer = head[1] & 0x06
    return {0x02: ("audio/mpeg", "mp3"), 0x04: ("audio/mpeg", "mp2"), 0x06: ("audio/mpeg", "mp1")}.get(layer)


def describe(file_path: str | None = None, mime_type: str | None = None, head: bytes | None = None) -> dict[str, Any]:
    """The metadata ``prepareBinaryData(data, filePath, mimeType)`` gives, before the bytes are stored.

    ``file_path`` may be a name, a relative or an absolute path (its folder becomes ``directory``); ``head`` is the
    start of the data, read for its type when neither a path nor a MIME type says it.
    """
    ext: str | None = None
    if not mime_type and file_path:
        mime_type = lookup(file_path)
    if not mime_type and head is not None:
        found = sniff(head)
        if found:
            mime_type, ext = found
    if not ext and mime_type:
        ext = extension(mime_type)
    mime_type = mime_type or "text/plain"
    meta: dict[str, Any] = {"mimeType": mime_type, "fileType": file_type(mime_type), "fileExtension": ext}
    if file_path:
        directory, base = posixpath.split(file_path)
        if directory:
            meta["directory"] = directory
        meta["fileName"] = base
        suffix = base.rsplit(".", 1)[1] if "." in base.lstrip(".") else ""
        if suffix:
            meta["fileExtension"] = suffix
    return {k: v for k, v in meta.items() if v is not None}


_DISPOSITION = re.compile(r"filename\*?=(?:UTF-8'')?\"?([^\";]+)\"?", re.IGNORECASE)


def disposition_file_name(header: str) -> str | None:
    """The ``filename`` (or ``filename*``) of a ``content-disposition`` header, URL-decoded; ``None`` without one."""
    found = _DISPOSITION.search(header)
    return unquote(found.group(1)) if found else None


def sanitize_file_name(name: str) -> str:
    """n8n's ``sanitizeFilename``: the last path component, without NUL bytes; ``untitled`` when nothing is left."""
    base = posixpath.basename(name.replace("\\", "/")).replace("\0", "")
    return "untitled" if not base or set(base) == {"."} else base


__all__ = [
    "BINARY_ENCODING",
    "describe",
    "disposition_file_name",
    "extension",
    "file_type",
    "lookup",
    "pretty_bytes",
    "sanitize_file_name",
    "sniff",
]
