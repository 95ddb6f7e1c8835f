"""The ``database`` binary-data mode (n8n 2's mode for queue setups): files in the instance's database, so every
worker reads them. The bytes are stored as chunks of at most 1 MiB, written and read one at a time, so a large
file never sits in memory whole (n8n keeps each file in one ``bytea`` and caps it at
``N8N_BINARY_DATA_DATABASE_MAX_FILE_SIZE``, 512 MiB; Weft keeps the cap, ``WEFT_BINARY_DATA_DATABASE_MAX_FILE_SIZE``).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from weft.binary import BinaryDataError, Location
from weft.db.engine import Database
from weft.db.orm import BinaryDataChunkEntity, BinaryDataEntity

#: The largest chunk row (bytes).
ROW_CHUNK = 1024 * 1024


def delete_binary_rows(session: Session, execution_ids: list[str]) -> None:
    """Delete the database-mode files of these executions, in the caller's transaction."""
    if not execution_ids:
        return
    files = select(BinaryDataEntity.file_id).where(BinaryDataEntity.source_id.in_(execution_ids))
    session.execute(delete(BinaryDataChunkEntity).where(BinaryDataChunkEntity.file_id.in_(files)))
    session.execute(delete(BinaryDataEntity).where(BinaryDataEntity.source_id.in_(execution_ids)))


class DatabaseManager:
    """Stores binary data in the ``binary_data`` tables of ``db``."""

    def __init__(self, db: Database | Callable[[], Database], *, max_file_size_mib: float = 512) -> None:
        self._open = db if callable(db) else (lambda: db)
        self.max_bytes = int(max_file_size_mib * 1024 * 1024)

    @property
    def _db(self) -> Database:
        """The database, opened on first use (the runner opens its store lazily)."""
        return self._open()

    async def store(
        self, location: Location, chunks: AsyncIterator[bytes], metadata: Mapping[str, Any]
    ) -> tuple[str, int]:
        file_id = str(uuid.uuid4())
        row = BinaryDataEntity(
            file_id=file_id,
            source_type="execution",
            source_id=location.execution_id or "temp",
            mime_type=metadata.get("mimeType"),
            file_name=metadata.get("fileName"),
            file_size=0,
        )
        await asyncio.to_thread(self._add, row)
        size, position, pending = 0, 0, bytearray()
        try:
            async for chunk in chunks:
                size += len(chunk)
                if size > self.max_bytes:
                    raise BinaryDataError(
                        f"The file is larger than {self.max_bytes // (1024 * 1024)} MiB, the most the database "
                        "mode stores",
                        description="Use WEFT_BINARY_DATA_MODE=filesystem, or raise "
                        "WEFT_BINARY_DATA_DATABASE_MAX_FILE_SIZE.",
                    )
                pending += chunk
                while len(pending) >= ROW_CHUNK:
                    await asyncio.to_thread(self._add_chunk, file_id, position, bytes(pending[:ROW_CHUNK]))
                    del pending[:ROW_CHUNK]
                    position += 1
            if pending or position == 0:
                await asyncio.to_thread(self._add_chunk, file_id, position, bytes(pending))
            await asyncio.to_thread(self._set_size, file_id, size)
        except BaseException:
            await asyncio.to_thread(self._delete, [file_id])
            raise
        return file_id, size

    def _add(self, row: BinaryDataEntity) -> None:
        with self._db.transaction() as session:
            session.add(row)

    def _add_chunk(self, file_id: str, position: int, data: bytes) -> None:
        with self._db.transaction() as session:
            session.add(BinaryDataChunkEntity(file_id=file_id, position=position, data=data))

    def _set_size(self, file_id: str, size: int) -> None:
        with self._db.transaction() as session:
            row = session.get(BinaryDataEntity, file_id)
            if row is not None:
                row.file_size = size

    def _delete(self, file_ids: list[str]) -> None:
        with self._db.transaction() as session:
            session.execute(delete(BinaryDataChunkEntity).where(BinaryDataChunkEntity.file_id.in_(file_ids)))
            session.execute(delete(BinaryDataEntity).where(BinaryDataEntity.file_id.in_(file_ids)))

    def _chunk(self, file_id: str, position: int) -> bytes | None:
        with self._db.sessions() as session:
            data: bytes | None = session.scalar(
                select(BinaryDataChunkEntity.data).where(
                    BinaryDataChunkEntity.file_id == file_id, BinaryDataChunkEntity.position == position
                )
            )
            return data

    async def stream(self, file_id: str, chunk_size: int) -> AsyncIterator[bytes]:
        if not await self._exists(file_id):
            raise BinaryDataError(
                f"The binary data {file_id!r} does not exist",
                description="Its execution was pruned or deleted; run the workflow again.",
            )
        position = 0
        while (data := await asyncio.to_thread(self._chunk, file_id, position)) is not None:
            for start in range(0, len(data), chunk_size):
                yield data[start : start + chunk_size]
            position += 1

    async def _exists(self, file_id: str) -> bool:
        def read() -> bool:
            with self._db.sessions() as session:
                return session.get(BinaryDataEntity, file_id) is not None

        return await asyncio.to_thread(read)

    async def delete_executions(self, execution_ids: Iterable[str]) -> None:
        ids = list(execution_ids)

        def delete_rows() -> None:
            with self._db.transaction() as session:
                delete_binary_rows(session, ids)

        await asyncio.to_thread(delete_rows)


__all__ = ["DatabaseManager"]
