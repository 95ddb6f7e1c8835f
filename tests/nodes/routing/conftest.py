"""The fake API every routing test talks to (a fresh one per test, on an ephemeral port of 127.0.0.1)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from weft.testing.fake_api import FakeApiServer


@pytest.fixture
def api() -> Iterator[FakeApiServer]:
    with FakeApiServer() as server:
        yield server
