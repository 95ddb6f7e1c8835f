"""Reading files from disk into binary entries and writing binary entries to disk, for the file nodes
(Read/Write Files from Disk, Read Binary File(s), Write Binary File).

Bytes move as chunks, each read or written in a worker thread: a 200 MB file is never held in memory whole (in
the ``filesystem`` and ``database`` binary modes; the ``default`` mode keeps bytes in the item by definition).
Every path goes through :mod:`._file_access` (n8n's restrictions) before it is opened.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import IO, Any, Protocol

from weft.binary import CHUNK_SIZE
from weft.binary.store import to_thread_chunks
from weft.errors import NodeOperationError
from weft.nodes.builtin._file_access import FileAccess, node_error, open_for_read, open_for_write, resolve_path
from weft.nodes.builtin._files_archive import CompressionLimits
from weft.nodes.builtin._files_glob import glob_files
from weft.nodes.contract import NodeContext
from weft.nodes.user_regex import RegexTimedOut


class FileSettings(Protocol):
    """The file settings of ``weft.settings.Settings`` (which this layer may not import)."""

    @property
    def restrict_file_access_to(self) -> str: ...
    @property
    def block_file_patterns(self) -> str: ...
    @property
    def compression_max_decompressed_size(self) -> int: ...
    @property
    def compression_max_zip_entries(self) -> int: ...
    @property
    def weft_files(self) -> tuple[str, ...]: ...


def file_access_of(settings: FileSettings) -> FileAccess:
    """The :class:`FileAccess` of the instance's settings (``WEFT_RESTRICT_FILE_ACCESS_TO`` and the rest)."""
    restrict, own = settings.restrict_file_access_to, settings.weft_files
    return FileAccess.from_settings(restrict, own_files=own, block_patterns=settings.block_file_patterns)


def compression_limits_of(settings: FileSettings) -> CompressionLimits:
    """The Compression node's limits from the instance's settings."""
    size, entries = settings.compression_max_decompressed_size, settings.compression_max_zip_entries
    return CompressionLimits(max_decompressed_size=size, max_entries=entries)


def file_options(settings: FileSettings) -> dict[str, Any]:
    """``EngineOptions`` fields from the instance's settings: ``file_access`` and ``compression_limits``."""
    return {"file_access": file_access_of(settings), "compression_limits": compression_limits_of(settings)}


def file_access(ctx: NodeContext) -> FileAccess:
    """The execution's file-access settings (the engine's ``file_access``), else Weft's restrictive default."""
    access = getattr(ctx, "file_access", None)
    return access if isinstance(access, FileAccess) else FileAccess()


async def find_files(pattern: str, *, node_name: str, extglob: bool = True) -> list[str]:
    """The files a glob pattern matches (:func:`._files_glob.glob_files`, off the event loop); an extglob that
    backtracks for too long on a file name is :class:`RegexTimeoutError` naming ``fileSelector``."""
    try:
        return await asyncio.to_thread(glob_files, pattern, extglob=extglob)
    except RegexTimedOut as timed_out:
        raise timed_out.at(node_name, "fileSelector") from None


def require_path(ctx: NodeContext, path: str, parameter: str, item_index: int) -> str:
    """``path``, or a typed error naming the empty parameter and what to put in it."""
    if path.strip():
        return path
    raise NodeOperationError(
        ctx.node.name,
        f"The parameter '{parameter}' is empty",
        description=f"Set '{parameter}' to the absolute path of a file, e.g. /home/user/.weft-files/report.csv",
        item_index=item_index,
    )


async def read_file(ctx: NodeContext, file_path: str) -> dict[str, Any]:
    """The binary entry of the file at ``file_path`` (n8n's ``createReadStream(resolvePath(p))`` and
    ``prepareBinaryData(stream, p)``): its name, folder and MIME type from the path as written."""
    access = file_access(ctx)
    node_name = ctx.node.name

    def open_checked() -> IO[bytes]:
        return open_for_read(access, node_name, resolve_path(file_path))

    handle = await asyncio.to_thread(open_checked)
    return await ctx.prepare_binary_data(to_thread_chunks(handle, CHUNK_SIZE), file_path=file_path)


async def write_file(ctx: NodeContext, entry: dict[str, Any], file_path: str, *, append: bool = False) -> None:
    """Write a binary entry's bytes to ``file_path`` (n8n's ``writeContentToFile(resolvePath(p), …)``)."""
    access = file_access(ctx)
    node_name = ctx.node.name

    def open_checked() -> IO[bytes]:
        return open_for_write(access, node_name, resolve_path(file_path), append=append)

    handle = await asyncio.to_thread(open_checked)
    try:
        await _write_chunks(handle, ctx.get_binary_stream(entry))
    finally:
        await asyncio.to_thread(handle.close)


async def _write_chunks(handle: IO[bytes], chunks: AsyncIterator[bytes]) -> None:
    async for chunk in chunks:
        view = memoryview(chunk)
        while view:  # an unbuffered write may take fewer bytes than it was given
            with node_error("write", None):
                written = await asyncio.to_thread(handle.write, view)
            view = view[written or 0 :]


__all__ = [
    "FileSettings",
    "compression_limits_of",
    "file_access",
    "file_access_of",
    "file_options",
    "find_files",
    "read_file",
    "require_path",
    "write_file",
]
