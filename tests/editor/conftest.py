"""The live server of ``tests/server`` (one per database backend) for the editor's routes and browser tests."""

from __future__ import annotations

from tests.server.conftest import live  # noqa: F401  (the fixture)
