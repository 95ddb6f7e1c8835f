"""Archives for the Compression node: zip, gzip and tar, packed and unpacked with a bound on what unpacking makes.

Unpacking is zip-bomb safe as n8n 2.41's ``BoundedUnzip``/``BoundedGunzip``/``BoundedUntar`` are: the bytes an
archive *produces* are counted while they are produced (never trusting the sizes it declares), and unpacking stops
with an error as soon as the total passes :attr:`CompressionLimits.max_decompressed_size` (n8n's
``N8N_COMPRESSION_NODE_MAX_DECOMPRESSED_SIZE_BYTES``, 2 GiB; Weft's
``WEFT_COMPRESSION_NODE_MAX_DECOMPRESSED_SIZE_BYTES``) or the number of files passes
:attr:`CompressionLimits.max_entries` (``…_MAX_ZIP_ENTRIES``, 5000). Tar entries that are not regular files, or
whose path is absolute or climbs out with ``..``, are skipped.

The size is checked in a first pass that keeps nothing: compressed input goes in :data:`_FEED` bytes at a time,
output comes out :data:`_READ` bytes at a time and is only counted, so refusing a bomb holds a few hundred KiB
whatever the limit (n8n keeps what it unpacked until the limit is passed). Only an archive within the limits is
unpacked again, into memory. These functions block (CPU and memory): callers run them in a worker thread.
"""

from __future__ import annotations

import io
import posixpath
import struct
import tarfile
import time
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass

from weft.errors import WeftError

_READ = 64 * 1024
#: Compressed bytes given to the inflater at once (what it has not used yet is copied on each step: keep it small).
_FEED = 16 * 1024
#: Names an archive entry may not take (n8n's ``isSafeObjectProperty``).
_UNSAFE_NAMES = frozenset({"__proto__", "prototype", "constructor"})


@dataclass(frozen=True, kw_only=True, slots=True)
class CompressionLimits:
    """How much one decompression may produce."""

    max_decompressed_size: int = 2 * 1024 * 1024 * 1024
    """Total bytes of all files unpacked from one archive."""
    max_entries: int = 5000
    """Files one zip or tar archive may hold."""


class ArchiveError(WeftError):
    """An archive cannot be unpacked: invalid, too large once unpacked, or with too many files."""

    code = "archive_error"


def limits_of(ctx: object) -> CompressionLimits:
    """The instance's limits, as an execution context carries them (the defaults without)."""
    limits = getattr(ctx, "compression_limits", None)
    return limits if isinstance(limits, CompressionLimits) else CompressionLimits()


def check_declared_size(archive: zipfile.ZipFile, limits: CompressionLimits) -> None:
    """Refuse a zip whose files declare more than ``max_decompressed_size`` in total, before unpacking any.

    For readers that hand the archive to a library (spreadsheets): :mod:`zipfile` never reads an entry past the
    size it declares (more bytes fail its CRC check), so the declared total bounds what they can unpack.
    """
    if sum(info.file_size for info in archive.infolist()) > limits.max_decompressed_size:
        raise size_exceeded(limits.max_decompressed_size)


def size_exceeded(limit: int) -> ArchiveError:
    """n8n's ``DecompressedSizeExceededError``."""
    return ArchiveError(f"The decompressed output exceeds the maximum allowed size of {round(limit / 1048576)} MB")


def _too_many(limit: int) -> ArchiveError:
    return ArchiveError(f"The archive contains more than {limit} entries")


# --------------------------------------------------------------------------- packing


def make_zip(files: dict[str, tuple[bytes, int]]) -> bytes:
    """A zip of ``{name: (bytes, level)}`` in order (fflate's ``zip``): level 0 stores, others deflate."""
    buffer = io.BytesIO()
    stamp = time.localtime()[:6]
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, (data, level) in files.items():
            info = zipfile.ZipInfo(name, date_time=stamp)
            method = zipfile.ZIP_STORED if level == 0 else zipfile.ZIP_DEFLATED
            archive.writestr(info, data, compress_type=method, compresslevel=level or None)
    return buffer.getvalue()


def make_gzip(data: bytes) -> bytes:
    """Gzip of ``data`` with fflate's header (level 6: no extra flags; the current time; OS byte 3)."""
    deflater = zlib.compressobj(6, zlib.DEFLATED, -15)
    header = b"\x1f\x8b\x08\x00" + struct.pack("<I", int(time.time()) & 0xFFFFFFFF) + b"\x00\x03"
    trailer = struct.pack("<II", zlib.crc32(data), len(data) & 0xFFFFFFFF)
    return header + deflater.compress(data) + deflater.flush() + trailer


def make_tar(files: list[tuple[str, bytes]], *, gzip: bool) -> bytes:
    """A tar of ``(name, bytes)`` files, mode 0644 (node-tar's ``Pack``), gzip-compressed when asked."""
    out = io.BytesIO()
    for name, data in files:
        info = tarfile.TarInfo(name)
        info.size, info.mode, info.mtime = len(data), 0o644, 0
        out.write(info.tobuf(tarfile.PAX_FORMAT, "utf-8", "surrogateescape"))
        out.write(data + b"\0" * (-len(data) % 512))
    out.write(b"\0" * 1024)
    tar = out.getvalue()
    return make_gzip(tar) if gzip else tar


# --------------------------------------------------------------------------- unpacking


class _Budget:
    """Bytes still allowed, shared by all files of one archive."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.left = limit

    def take(self, size: int) -> None:
        self.left -= size
        if self.left < 0:
            raise size_exceeded(self.limit)


def gunzip(data: bytes, limits: CompressionLimits) -> bytes:
    """The bytes of a gzip file (every member), at most ``max_decompressed_size`` of them."""
    try:
        budget = _Budget(limits.max_decompressed_size)
        for chunk in inflated(data):
            budget.take(len(chunk))
        out = io.BytesIO()
        for chunk in inflated(data):
            out.write(chunk)
    except zlib.error as error:
        raise ArchiveError("invalid gzip data") from error
    return out.getvalue()


def inflated(data: bytes, wbits: int = 31) -> Iterator[bytes]:
    """What ``data`` inflates to, in chunks of at most :data:`_READ` bytes: every member of a gzip file (``wbits``
    31), or one zlib stream (15). Raises :class:`zlib.error` for invalid data, :class:`ArchiveError` for cut data."""
    view, start = memoryview(data), 0
    while start < len(data):
        inflater, position = zlib.decompressobj(wbits), start
        while not inflater.eof:
            if inflater.unconsumed_tail:
                chunk = inflater.decompress(inflater.unconsumed_tail, _READ)
            elif position < len(data):
                chunk = inflater.decompress(view[position : position + _FEED], _READ)
                position = min(position + _FEED, len(data))
            else:  # all input given: what the inflater still holds
                chunk = inflater.decompress(b"", _READ)
                if not chunk and not inflater.eof:
                    raise ArchiveError("unexpected EOF")
            if chunk:
                yield chunk
        start = position - len(inflater.unused_data) if wbits == 31 else len(data)


def unzip(data: bytes, limits: CompressionLimits) -> dict[str, bytes]:
    """The files of a zip archive by name (folders left out), within the limits."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, OSError) as error:
        raise ArchiveError("invalid zip data") from error
    with archive:
        entries = [info for info in archive.infolist() if not info.filename.endswith("/")]
        if len(entries) > limits.max_entries:
            raise _too_many(limits.max_entries)
        budget = _Budget(limits.max_decompressed_size)
        for info in entries:  # the check: every entry read and counted, nothing kept
            if info.file_size > budget.left:
                raise size_exceeded(budget.limit)
            for chunk in _member_chunks(archive, info):
                budget.take(len(chunk))
        return {_entry_name(info): b"".join(_member_chunks(archive, info)) for info in entries}


def _entry_name(info: zipfile.ZipInfo) -> str:
    """The entry's name as n8n reads it: UTF-8 when the archive says so, else Latin-1 (Python reads CP437)."""
    if info.flag_bits & 0x800:
        return info.filename
    return info.filename.encode("cp437").decode("latin-1")


def _member_chunks(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> Iterator[bytes]:
    try:
        with archive.open(info) as member:
            while chunk := member.read(_READ):
                yield chunk
    except (zipfile.BadZipFile, zlib.error, NotImplementedError, EOFError) as error:
        raise ArchiveError(f"invalid zip data: {error}") from error


def _escapes_root(path: str) -> bool:
    trimmed = path[:-1] if path.endswith("/") else path
    if trimmed.startswith("/"):
        return True
    normalized = posixpath.normpath(trimmed) if trimmed else trimmed
    return normalized == ".." or normalized.startswith("../") or "/../" in normalized or normalized.endswith("/..")


def untar(data: bytes, limits: CompressionLimits) -> dict[str, bytes]:
    """The regular files of a tar archive (gzip-compressed or not), within the limits."""
    raw = gunzip(data, limits) if data[:2] == b"\x1f\x8b" else data
    try:
        archive = tarfile.open(fileobj=io.BytesIO(raw), mode="r:")
    except tarfile.TarError:
        return {}  # node-tar reads no entry from data that is not a tar, and no error
    budget, files, count = _Budget(limits.max_decompressed_size), {}, 0
    with archive:
        for member in archive:
            if not member.isfile() or _escapes_root(member.name) or member.name in _UNSAFE_NAMES:
                continue
            count += 1
            if count > limits.max_entries:
                raise _too_many(limits.max_entries)
            budget.take(member.size)
            extracted = archive.extractfile(member)
            files[member.name] = extracted.read() if extracted else b""
    return files


__all__ = [
    "ArchiveError",
    "CompressionLimits",
    "check_declared_size",
    "gunzip",
    "inflated",
    "limits_of",
    "make_gzip",
    "make_tar",
    "make_zip",
    "size_exceeded",
    "untar",
    "unzip",
]
