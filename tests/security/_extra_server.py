"""A second real server for the tests that need settings the suite's server does not have, configured as an
operator would (through its ``WEFT_*`` environment variables) and run on uvicorn as ``weft start`` runs it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import uvicorn
from tests.server.conftest import app_of, free_port, wait_for

from weft.cli.start import uvicorn_options
from weft.server.app import create_app
from weft.services.instance import Instance
from weft.settings import Settings

from .conftest import OWNER, TIMEOUT, Server


class ExtraServer(Server):
    @property
    def instance(self) -> Instance:
        instance: Instance = app_of(self.server).state.instance
        return instance


@contextmanager
def extra_server(folder: Path, env: dict[str, str]) -> Iterator[Server]:
    """A server on 127.0.0.1 with ``env`` on top of a fresh user folder, its owner set up and logged in."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    base = {"WEFT_USER_FOLDER": str(folder), "WEFT_ENCRYPTION_KEY": "test-key", "WEFT_PUBLIC_URL": url + "/"}
    settings = Settings.from_env({**base, "WEFT_PORT": str(port), **env})
    options = {**uvicorn_options(), "host": "127.0.0.1", "port": port, "lifespan": "on"}
    uv = uvicorn.Server(uvicorn.Config(create_app(settings), **options))
    thread = threading.Thread(target=uv.run, name="weft-extra-server", daemon=True)
    thread.start()
    try:
        wait_for(lambda: uv.started or not thread.is_alive())
        assert uv.started, "the server did not start"
        with httpx.Client(base_url=url, timeout=TIMEOUT) as owner:
            assert owner.post("/rest/owner/setup", json=OWNER).status_code == 200
            yield ExtraServer(url=url, settings=settings, server=uv, owner=owner)
    finally:
        uv.should_exit = True
        thread.join(TIMEOUT)
