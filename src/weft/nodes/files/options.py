"""The file settings of an execution: where they come from (the instance's settings) and how a node reads them."""

from __future__ import annotations

from typing import Any, Protocol

from weft.nodes.contract import NodeContext
from weft.nodes.files.access import FileAccess
from weft.nodes.files.archive import CompressionLimits


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


__all__ = ["FileSettings", "compression_limits_of", "file_access", "file_access_of", "file_options"]
