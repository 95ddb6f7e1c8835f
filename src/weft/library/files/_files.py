"""Reading files from disk into binary entries and writing binary entries to disk, for the file nodes
(Read/Write Files from Disk, Read Binary File(s), Write Binary File).

Bytes move as chunks, each read or written in a worker thread: a 200 MB file is never held in memory whole (in
the ``filesystem`` and ``database`` binary modes; the ``default`` mode keeps bytes in the item by definition).
Every path goes through :mod:`weft.nodes.files.access` (n8n's restrictions) before it is opened.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import IO, Any

from weft.binary import CHUNK_SIZE
from weft.binary.store import to_thread_chunks
from weft.errors import NodeOperationError
from weft.library.files._files_glob import glob_files
from weft.nodes.contract import NodeContext
from weft.nodes.files.access import node_error, open_for_read, open_for_write, resolve_path
from weft.nodes.files.options import file_access
from weft.nodes.user_regex import RegexTimedOut


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
    "find_files",
    "read_file",
    "require_path",
    "write_file",
]
