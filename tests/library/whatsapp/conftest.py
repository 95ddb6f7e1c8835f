"""The live server of ``tests/server`` (one per database backend), for WhatsApp's send-and-wait."""

from __future__ import annotations

from tests.server.conftest import live  # noqa: F401  (the fixture)
