"""The HTTP echo server the recorded HTTP Request Tool cases call (a case folder holding ``uses_http_echo``), and the
fake SaaS APIs the declarative-node cases call (``uses_saas``).

Those workflows name fixed ports (:data:`weft.testing.http_echo.RECORDED_PORT`,
:data:`weft.testing.saas.RECORDED_PORT`), on which the same servers ran while real n8n recorded them.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from weft.testing import saas
from weft.testing.http_echo import RECORDED_PORT, HttpEchoServer

from ._cases import SAAS_SERVER, all_cases


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


@pytest.fixture(scope="session", autouse=True)
def recorded_saas(request: pytest.FixtureRequest) -> Iterator[saas.FakeSaasServer | None]:
    """The fake SaaS APIs for the ``uses_saas`` cases: on their recorded port (the declarative cases' credentials
    name it) unless another process serves there, which then answers those (started by hand for recording, or
    another test session); this session's server is the HTTPS proxy of the fixed-host services either way."""
    names = {case.name for case in all_cases() if case.file("uses_saas").exists()}
    if not any(name in item.name for item in request.session.items for name in names):
        yield None
        return
    try:
        server = saas.FakeSaasServer(saas.RECORDED_PORT).start()
    except OSError:
        server = saas.FakeSaasServer(0).start()
    SAAS_SERVER.append(server)
    try:
        yield server
    finally:
        SAAS_SERVER.clear()
        server.stop()
