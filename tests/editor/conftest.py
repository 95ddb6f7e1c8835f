"""The live server of ``tests/server`` (one per database backend) for the editor's routes and browser tests, and
a folder for the browser's downloads."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.server.conftest import live  # noqa: F401  (the fixture)


@pytest.fixture
def downloads() -> Iterator[Path]:
    """A fresh folder for what the browser downloads (``chromium(str(downloads))``)."""
    with tempfile.TemporaryDirectory(prefix="weft-downloads-") as folder:
        yield Path(folder)
