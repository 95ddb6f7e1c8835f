"""The fixture every integration's tests use: the service's fake (:mod:`weft.testing.saas`), made the HTTPS proxy of
the code under test through the environment, so the node calls the service's real host unchanged."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from weft.testing.saas import FakeSaasServer


def service_fixture(*names: str) -> Callable[..., Iterator[FakeSaasServer]]:
    """A ``saas`` fixture: the fakes of the services ``names``, and the environment that makes them the HTTPS proxy."""

    @pytest.fixture
    def saas(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSaasServer]:
        with FakeSaasServer(only=list(names)) as server:
            for variable, value in server.proxy_env().items():
                monkeypatch.setenv(variable, value)
            yield server

    return saas


__all__ = ["service_fixture"]
