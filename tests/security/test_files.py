"""Finding: the SQLite database and the user folder were readable by other local users.
Now the user folder is 0700 and the database and the key file are 0600, whatever the umask."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from weft.services.import_export import open_store
from weft.settings import Settings


@pytest.fixture
def open_umask() -> Iterator[None]:
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_new_user_folder_is_private(tmp_path: Path, open_umask: None) -> None:
    folder = tmp_path / "home"
    open_store(Settings(user_folder=folder)).close()
    assert _mode(folder) == 0o700
    assert _mode(folder / "database.sqlite") == 0o600
    assert _mode(folder / "config") == 0o600


def test_an_existing_folder_and_files_are_made_private(tmp_path: Path, open_umask: None) -> None:
    folder = tmp_path / "old"
    folder.mkdir(mode=0o755)
    (folder / "database.sqlite").touch(mode=0o644)
    (folder / "config").write_text('{"encryptionKey": "k"}')
    os.chmod(folder / "config", 0o644)
    open_store(Settings(user_folder=folder)).close()
    assert (_mode(folder), _mode(folder / "database.sqlite"), _mode(folder / "config")) == (0o700, 0o600, 0o600)
