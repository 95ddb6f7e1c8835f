"""The live server of ``tests/server`` (one per database backend), for the approval flows."""

from __future__ import annotations

from tests.recorded._read_spy import pytest_runtest_call  # noqa: F401  (each parameter a node reads is described)
from tests.server.conftest import live  # noqa: F401  (the fixture)
