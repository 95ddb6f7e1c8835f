"""The ``filesystem`` mode: each file under the storage folder (n8n: ``~/.n8n/storage``; Weft:
``<user folder>/storage``, or ``WEFT_BINARY_DATA_STORAGE_PATH``), with its metadata beside it in
``<file>.metadata``, as n8n's ``FileSystemManager`` keeps them. Files and folders are private to the user (0600,
0700)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import uuid
from collections.abc import AsyncIterator, Iterable, Mapping
from pathlib import Path
from typing import Any

from weft.binary.store import BinaryDataError, Location, to_thread_chunks

#: A file id: ``workflows/<id>/executions/<id>/binary_data/<uuid>``; nothing else is ever opened.
_FILE_ID = re.compile(r"workflows/[\w-]+/executions/[\w-]+/binary_data/[0-9a-f-]{36}")


class FilesystemManager:
    """Stores binary data as files under ``root``."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def path(self, file_id: str) -> Path:
        """The file of ``file_id``; an id that is not one of ours (``..``, an absolute path) is refused."""
        if not _FILE_ID.fullmatch(file_id):
            raise BinaryDataError(f"Invalid binary data id {file_id!r}", description="Weft makes binary data ids.")
        return self.root / file_id

    async def store(
        self, location: Location, chunks: AsyncIterator[bytes], metadata: Mapping[str, Any]
    ) -> tuple[str, int]:
        file_id = f"{location.folder}/binary_data/{uuid.uuid4()}"
        if not _FILE_ID.fullmatch(file_id):
            raise BinaryDataError(f"Invalid binary data location {location.folder!r}")
        target = self.root / file_id
        await asyncio.to_thread(_make_folder, target.parent)
        handle = await asyncio.to_thread(_open_private, target)
        try:
            async for chunk in chunks:
                await asyncio.to_thread(handle.write, chunk)
        except BaseException:
            await asyncio.to_thread(handle.close)
            target.unlink(missing_ok=True)
            raise
        await asyncio.to_thread(handle.close)
        keep = {k: metadata[k] for k in ("fileName", "mimeType") if metadata.get(k) is not None}
        size = target.stat().st_size
        await asyncio.to_thread(_write_private, target.with_name(target.name + ".metadata"), {**keep, "fileSize": size})
        return file_id, size

    async def stream(self, file_id: str, chunk_size: int) -> AsyncIterator[bytes]:
        path = self.path(file_id)
        try:
            handle = await asyncio.to_thread(path.open, "rb")
        except FileNotFoundError as error:
            raise BinaryDataError(
                f"The binary data file {file_id!r} does not exist",
                description="Its execution was pruned or deleted; run the workflow again.",
            ) from error
        async for chunk in to_thread_chunks(handle, chunk_size):
            yield chunk

    async def delete_executions(self, execution_ids: Iterable[str]) -> None:
        wanted = set(execution_ids)
        workflows = self.root / "workflows"
        if not workflows.is_dir() or not wanted:
            return
        await asyncio.to_thread(_delete_folders, workflows, wanted)

    async def delete_workflow(self, workflow_id: str) -> None:
        """Delete the files of every execution of a workflow (the workflow was deleted)."""
        if re.fullmatch(r"[\w-]+", workflow_id):
            await asyncio.to_thread(shutil.rmtree, self.root / "workflows" / workflow_id, True)


def _make_folder(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)


def _open_private(path: Path) -> Any:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    return os.fdopen(fd, "wb")


def _write_private(path: Path, data: dict[str, Any]) -> None:
    with _open_private(path) as handle:
        handle.write(json.dumps(data).encode())


def _delete_folders(workflows: Path, execution_ids: set[str]) -> None:
    for workflow in workflows.iterdir():
        for execution_id in execution_ids:
            if not re.fullmatch(r"[\w-]+", execution_id):
                continue
            folder = workflow / "executions" / execution_id
            if folder.is_dir():
                shutil.rmtree(folder, ignore_errors=True)


__all__ = ["FilesystemManager"]
