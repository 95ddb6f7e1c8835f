"""The instance's binary-data service, built from its settings: the configured mode for new files, and every mode
for reading the files stored before the mode changed."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from weft.binary import BinaryDataService, Location, describe
from weft.binary.filesystem import FilesystemManager
from weft.binary.meta import sanitize_file_name
from weft.binary.store import BinaryManager
from weft.settings import Settings
from weft.workflow import Item

if TYPE_CHECKING:
    from weft.db.binary_data import DatabaseManager
    from weft.db.engine import Database


class _LazyDatabaseManager:
    """The ``database`` mode's manager, imported (with SQLAlchemy) only when a file is stored or read in it: the
    SQLite hot path never loads SQLAlchemy."""

    def __init__(self, database: Callable[[], Database], max_file_size_mib: float) -> None:
        self._database = database
        self._max = max_file_size_mib
        self._manager: DatabaseManager | None = None

    @property
    def manager(self) -> DatabaseManager:
        if self._manager is None:
            from weft.db.binary_data import DatabaseManager

            self._manager = DatabaseManager(self._database, max_file_size_mib=self._max)
        return self._manager

    async def store(
        self, location: Location, chunks: AsyncIterator[bytes], metadata: Mapping[str, Any]
    ) -> tuple[str, int]:
        return await self.manager.store(location, chunks, metadata)

    def stream(self, file_id: str, chunk_size: int) -> AsyncIterator[bytes]:
        return self.manager.stream(file_id, chunk_size)

    async def delete_executions(self, execution_ids: Iterable[str]) -> None:
        await self.manager.delete_executions(execution_ids)


class PendingBinary(dict[str, Any]):
    """A file that came with a request (a webhook's body or upload, a chat file): its metadata as n8n's
    ``copyBinaryFile`` gives it (``mimeType``, ``fileType``, ``fileExtension`` by the MIME type, ``fileName``), and
    its bytes, which go to the binary-data store when the execution that receives it has its id
    (:func:`store_pending`)."""

    def __init__(self, content: bytes, mime_type: str, file_name: str | None) -> None:
        meta = describe(None, mime_type)
        meta["fileName"] = sanitize_file_name(file_name) if file_name else str(uuid.uuid4())
        super().__init__(meta)
        self.content = content


async def store_pending(service: BinaryDataService, location: Location, items: list[Item] | None) -> list[Item] | None:
    """``items`` with every :class:`PendingBinary` stored (in place); the same list."""
    for item in items or []:
        binary = item.get("binary")
        for key, entry in list((binary or {}).items()):
            if isinstance(entry, PendingBinary):
                binary[key] = await service.store(location, entry.content, dict(entry))  # type: ignore[index]
    return items


def binary_service(settings: Settings, database: Callable[[], Database]) -> BinaryDataService:
    """``settings.binary_data_mode`` for new files; the filesystem and database managers both available."""
    managers: dict[str, BinaryManager] = {
        "filesystem": FilesystemManager(settings.binary_storage_folder),
        "database": _LazyDatabaseManager(database, settings.binary_data_database_max_file_size),
    }
    return BinaryDataService(settings.binary_data_mode, managers)


__all__ = ["PendingBinary", "binary_service", "store_pending"]
