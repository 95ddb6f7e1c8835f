"""Fixtures of the tool tests: the HTTP echo server on a free 127.0.0.1 port."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.recorded._read_spy import pytest_runtest_call  # noqa: F401  (each parameter a node reads is described)

from weft.testing.http_echo import HttpEchoServer


@pytest.fixture
def echo() -> Iterator[HttpEchoServer]:
    with HttpEchoServer() as server:
        yield server
