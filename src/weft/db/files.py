"""Files only their owner may read: the user folder is 0700, the database and the key are 0600."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

FOLDER_MODE = 0o700
FILE_MODE = 0o600


def private_folder(path: Path) -> Path:
    """Create ``path`` (and its parents) if needed and make it 0700."""
    path.mkdir(parents=True, exist_ok=True, mode=FOLDER_MODE)
    with contextlib.suppress(PermissionError):  # a folder of another user: left as it is
        os.chmod(path, FOLDER_MODE)
    return path


def private_file(path: Path) -> Path:
    """Create ``path`` empty if it does not exist, and make it 0600 (SQLite gives its -wal and -shm the same)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, FILE_MODE)
    os.close(fd)
    with contextlib.suppress(PermissionError):
        os.chmod(path, FILE_MODE)
    return path


__all__ = ["FILE_MODE", "FOLDER_MODE", "private_file", "private_folder"]
