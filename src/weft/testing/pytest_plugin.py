"""Pytest fixtures for Weft's fakes. Use them from a ``conftest.py``::

    from weft.testing.pytest_plugin import fake_anthropic_server, fake_openai_server  # noqa: F401

or load the module as a plugin (``-p weft.testing.pytest_plugin``). Each fixture yields a started server with an
empty script; add replies with ``server.add_turns(...)``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from weft.testing.fake_anthropic import FakeAnthropicServer
from weft.testing.fake_openai import FakeOpenAIServer


@pytest.fixture
def fake_openai_server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as server:
        yield server


@pytest.fixture
def fake_anthropic_server() -> Iterator[FakeAnthropicServer]:
    with FakeAnthropicServer() as server:
        yield server
