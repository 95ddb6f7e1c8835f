"""The HTTP echo server the recorded HTTP Request Tool cases call (a case folder holding ``uses_http_echo``).

Those workflows name the fixed port :data:`weft.testing.http_echo.RECORDED_PORT`, on which the echo server also
ran while real n8n recorded them.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from weft.testing.http_echo import RECORDED_PORT, HttpEchoServer

from ._cases import all_cases


@pytest.fixture(scope="session", autouse=True)
def recorded_http_echo(request: pytest.FixtureRequest) -> Iterator[HttpEchoServer | None]:
    names = {case.name for case in all_cases() if case.file("uses_http_echo").exists()}
    selected = any(name in item.name for item in request.session.items for name in names)
    if not selected:
        yield None
        return
    with HttpEchoServer(RECORDED_PORT) as server:
        yield server
