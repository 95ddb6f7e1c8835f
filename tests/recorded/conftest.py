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
    names = {case.name for case in all_cases() if case.file("uses_saas").exists()}
    selected = any(name in item.name for item in request.session.items for name in names)
    if not selected or _saas_already_serving():  # one started by hand for recording (python -m weft.testing.saas)
        yield None
        return
    with saas.FakeSaasServer(saas.RECORDED_PORT) as server:
        SAAS_SERVER.append(server)
        yield server
        SAAS_SERVER.clear()


def _saas_already_serving() -> bool:
    try:
        answer = httpx.get(f"http://127.0.0.1:{saas.RECORDED_PORT}/npm/-/package/weft-fake/dist-tags", timeout=2)
    except httpx.HTTPError:
        return False
    return answer.status_code == 200 and answer.json().get("latest") == "1.1.0"
