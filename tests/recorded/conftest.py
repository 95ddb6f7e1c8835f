"""The HTTP echo server the recorded HTTP Request Tool cases call (a case folder holding ``uses_http_echo``).

Those workflows name the fixed port :data:`weft.testing.http_echo.RECORDED_PORT`, on which the echo server also
ran while real n8n recorded them.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
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
    if _echo_already_serving():  # one started by hand for recording (python -m weft.testing.http_echo)
        yield None
        return
    with HttpEchoServer(RECORDED_PORT) as server:
        yield server


def _echo_already_serving() -> bool:
    try:
        answer = httpx.get(f"http://127.0.0.1:{RECORDED_PORT}/html", timeout=2)
    except httpx.HTTPError:
        return False
    return answer.status_code == 200 and "<h1>Weather</h1>" in answer.text
