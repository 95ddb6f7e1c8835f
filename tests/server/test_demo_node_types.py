"""``GET /rest/node-types`` (the editor's node creator and node panel) offers Weft's demo and test models only when
``WEFT_DEMO_NODES`` is on: on a real server on 127.0.0.1 without them, on the suite's live server with them, and the
server's runner turning them on from its settings."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn

from weft.nodes.catalog import DEMO_NODE_TYPES
from weft.nodes.registry import NodeRegistry
from weft.server import create_app
from weft.settings import Settings

from .conftest import TIMEOUT, LiveServer, free_port, log_in, wait_for

DEMO = set(DEMO_NODE_TYPES)


@pytest.fixture(scope="module")
def without_demo_nodes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    """A logged-in client of a server whose registry does not offer the demo models (as production)."""
    folder = tmp_path_factory.mktemp("weft-no-demo")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    settings = Settings(user_folder=folder, encryption_key="test-key", port=port, public_url=url + "/")
    app = create_app(settings, registry=NodeRegistry(demo_nodes=False))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, name="weft-no-demo-server", daemon=True)
    thread.start()
    wait_for(lambda: server.started or not thread.is_alive())
    assert server.started
    with httpx.Client(base_url=url, timeout=TIMEOUT) as client:
        yield log_in(client)
    server.should_exit = True
    thread.join(TIMEOUT)


def _listed(client: httpx.Client) -> set[str]:
    response = client.get("/rest/node-types")
    assert response.status_code == 200, response.text
    return {t["name"] for t in response.json()["data"]}


def test_without_the_setting_the_node_types_list_none_and_one_is_not_found(without_demo_nodes: httpx.Client) -> None:
    listed = _listed(without_demo_nodes)
    assert "@n8n/n8n-nodes-langchain.lmChatOpenAi" in listed and not DEMO & listed
    response = without_demo_nodes.get("/rest/node-types/weft.lmChatScripted")
    assert response.status_code == 404
    assert "weft.lmChatScripted" in response.text and "WEFT_DEMO_NODES=true" in response.text


def test_with_the_setting_the_node_types_list_all_three(live: LiveServer) -> None:
    listed = _listed(live.client)
    assert DEMO <= listed
    demo = live.client.get("/rest/node-types/weft.lmChatDemo")
    assert demo.status_code == 200 and demo.json()["data"]["displayName"] == "Demo Chat Model"


RUNNER = """
import json
from weft.nodes.registry import NodeRegistry
from weft.services.runner import WorkflowRunner
from weft.settings import Settings
runner = WorkflowRunner(None, Settings.from_env(), inline_db=True)
print(json.dumps(sorted(n for n in runner.registry.names() if n.startswith("weft."))))
runner.close()
"""


@pytest.mark.parametrize("value", [None, "true"])
def test_the_servers_runner_offers_them_from_its_settings(value: str | None, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("WEFT_DEMO_NODES", "WEFT_DATABASE_URL")}
    env["WEFT_USER_FOLDER"] = str(tmp_path)
    if value is not None:
        env["WEFT_DEMO_NODES"] = value
    result = subprocess.run([sys.executable, "-c", RUNNER], capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == (sorted(DEMO) if value else [])
