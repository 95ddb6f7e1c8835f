"""Where the bytes of binary data live: n8n's ``BinaryDataService`` and its modes.

An item's binary entry keeps only a reference (``id: "<mode>:<fileId>"``, ``data: "<mode>"``) in the
``filesystem-v2`` and ``database`` modes; in the ``default`` mode the bytes stay in the item as base64, as n8n's
memory mode does. The mode is n8n's ``N8N_DEFAULT_BINARY_DATA_MODE`` (Weft: ``WEFT_BINARY_DATA_MODE``), by default
``filesystem``; an entry stored in one mode is still read after the mode changes, by its id's prefix.

Files are stored per execution (``workflows/<workflowId>/executions/<executionId>/binary_data/<uuid>``) so that
pruning an execution deletes its files. Bytes arrive and leave as chunks: a 200 MB download never sits in memory.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
from collections.abc import AsyncIterable, AsyncIterator, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from weft.binary.meta import pretty_bytes
from weft.errors import WeftError

#: Bytes per chunk when a stored file is read as a stream (n8n reads 64 KiB by default; larger chunks cost fewer
#: thread hops for the same memory bound).
CHUNK_SIZE = 256 * 1024

Data = bytes | bytearray | memoryview | AsyncIterable[bytes]
"""What can be stored: bytes in memory, or chunks that arrive one by one (a download, a request body)."""


class BinaryDataError(WeftError):
    """Binary data cannot be stored or read (unknown mode, missing file, invalid base64)."""

    code = "binary_data_error"


@dataclass(frozen=True, slots=True)
class Location:
    """Whose files these are (n8n's ``FileLocation`` of type ``execution``)."""

    workflow_id: str
    execution_id: str

    @property
    def folder(self) -> str:
        return f"workflows/{self.workflow_id or 'unsaved'}/executions/{self.execution_id or 'temp'}"


class BinaryManager(Protocol):
    """One storage backend (a mode): the filesystem, the database."""

    async def store(
        self, location: Location, chunks: AsyncIterator[bytes], metadata: Mapping[str, Any]
    ) -> tuple[str, int]:
        """Write the chunks; return the file id (``<folder>/binary_data/<uuid>`` or a database key) and its size."""
        ...

    def stream(self, file_id: str, chunk_size: int) -> AsyncIterator[bytes]:
        """The file's bytes, chunk by chunk."""
        ...

    async def delete_executions(self, execution_ids: Iterable[str]) -> None:
        """Delete the files of these executions (pruning, deleting an execution)."""
        ...


async def _chunks(data: Data) -> AsyncIterator[bytes]:
    if isinstance(data, bytes | bytearray | memoryview):
        yield bytes(data)
        return
    async for chunk in data:
        if chunk:
            yield bytes(chunk)


class BinaryDataService:
    """Stores and reads binary data in the configured mode (``default``, ``filesystem`` or ``database``)."""

    def __init__(self, mode: str = "default", managers: Mapping[str, BinaryManager] | None = None) -> None:
        self.managers: dict[str, BinaryManager] = dict(managers or {})
        if "filesystem" in self.managers:
            self.managers.setdefault("filesystem-v2", self.managers["filesystem"])
        self.mode = "filesystem-v2" if mode == "filesystem" else mode
        if self.mode != "default" and self.mode not in self.managers:
            raise BinaryDataError(
                f"Binary data mode {mode!r} is not available",
                description="Set WEFT_BINARY_DATA_MODE to default, filesystem or database.",
            )

    async def store(self, location: Location, data: Data, metadata: Mapping[str, Any]) -> dict[str, Any]:
        """The binary entry for ``data`` with ``metadata`` (``mimeType``, ``fileName``, …): stored in the mode, with
        ``fileSize`` (pretty) and ``bytes``."""
        entry = dict(metadata)
        manager = self.managers.get(self.mode)
        if manager is None:
            buffer = b"".join([chunk async for chunk in _chunks(data)])
            entry.update(data=base64.b64encode(buffer).decode("ascii"), fileSize=pretty_bytes(len(buffer)))
            entry["bytes"] = len(buffer)
            return entry
        file_id, size = await manager.store(location, _chunks(data), metadata)
        entry.update(id=f"{self.mode}:{file_id}", data=self.mode, fileSize=pretty_bytes(size), bytes=size)
        return entry

    def _manager(self, binary_id: str) -> tuple[BinaryManager, str]:
        mode, _, file_id = binary_id.partition(":")
        manager = self.managers.get(mode)
        if manager is None or not file_id:
            raise BinaryDataError(
                f"No binary data manager for {binary_id!r}",
                description="The file was stored in a mode this instance does not have; set WEFT_BINARY_DATA_MODE.",
            )
        return manager, file_id

    async def get_bytes(self, binary: Mapping[str, Any]) -> bytes:
        """All bytes of a binary entry (n8n's ``getAsBuffer``)."""
        return b"".join([chunk async for chunk in self.stream(binary)])

    async def stream(self, binary: Mapping[str, Any], chunk_size: int = CHUNK_SIZE) -> AsyncIterator[bytes]:
        """The bytes of a binary entry, chunk by chunk (n8n's ``getBinaryStream``)."""
        binary_id = binary.get("id")
        if isinstance(binary_id, str) and binary_id:
            manager, file_id = self._manager(binary_id)
            async for chunk in manager.stream(file_id, chunk_size):
                yield chunk
            return
        yield decode_inline(binary.get("data"))

    async def delete_executions(self, execution_ids: Iterable[str], modes: Iterable[str] | None = None) -> None:
        """Delete the stored files of these executions, in ``modes`` (default: every mode that has a manager)."""
        ids = [str(i) for i in execution_ids]
        if not ids:
            return
        chosen = self.managers if modes is None else {m: self.managers[m] for m in modes if m in self.managers}
        for manager in {id(m): m for m in chosen.values()}.values():
            await manager.delete_executions(ids)


async def opened(stream: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    """``stream`` with its first chunk already read: a missing file fails here, not halfway through an answer, and
    a file deleted afterwards (its execution pruned) is still read through its open handle."""
    first = await anext(stream, b"")

    async def chunks() -> AsyncIterator[bytes]:
        yield first
        async for chunk in stream:
            yield chunk

    return chunks()


def decode_inline(data: Any) -> bytes:
    """The bytes of an entry kept in the item (``data`` as base64)."""
    if not isinstance(data, str):
        return b""
    try:
        return base64.b64decode(data, validate=False)
    except (binascii.Error, ValueError) as error:
        raise BinaryDataError("Binary data is not valid base64", description=str(error)) from error


async def to_thread_chunks(path_reader: Any, chunk_size: int) -> AsyncIterator[bytes]:
    """Chunks from a blocking file object, each read in a worker thread (the loop never waits on the disk).

    Closed at once, not in a thread: when the caller hangs up mid-answer, the answer's task is cancelled, and under
    anyio's cancellation every ``await`` in this ``finally`` would be cancelled too, leaving the file open."""
    try:
        while True:
            chunk = await asyncio.to_thread(path_reader.read, chunk_size)
            if not chunk:
                return
            yield chunk
    finally:
        path_reader.close()


__all__ = [
    "CHUNK_SIZE",
    "BinaryDataError",
    "BinaryDataService",
    "BinaryManager",
    "Data",
    "Location",
    "decode_inline",
    "opened",
    "to_thread_chunks",
]
