"""The live server of the editor's routes and browser tests (one, on SQLite: the browser tests drive the editor,
and ``tests/server`` runs every REST route on each database backend), and a folder for the browser's downloads."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.server.conftest import LiveServer, serve_live


@pytest.fixture
def downloads() -> Iterator[Path]:
    """A fresh folder for what the browser downloads (``chromium(str(downloads))``)."""
    with tempfile.TemporaryDirectory(prefix="weft-downloads-") as folder:
        yield Path(folder)


@pytest.fixture(scope="session")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from serve_live("sqlite", tmp_path_factory)
