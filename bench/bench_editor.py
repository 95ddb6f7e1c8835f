"""Time to first render of the editor's canvas for a 200-node workflow, in a real browser (Chromium, headless).

Starts a Weft server on 127.0.0.1 (a temporary SQLite instance), imports a workflow of 200 nodes (a chain of Set
nodes with If branches and a few sticky notes: 200 canvas nodes, ~200 connections), signs in with the editor's form,
then loads ``/workflow/<id>`` afresh ``--repeat`` times. The number is the Performance API's time from the start of
the navigation to the ``weft-canvas-rendered`` mark, which the canvas sets when Vue Flow has measured every node
(the page, its scripts, the REST call and the first layout included). Usage::

    .venv/bin/python bench/bench_editor.py [--repeat N] [--nodes N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.editor._browser import chromium, console_errors, missing  # noqa: E402
from tests.server.conftest import OWNER, free_port, log_in, serve_in_thread, wait_for  # noqa: E402

from weft.settings import Settings  # noqa: E402


def big_workflow(count: int) -> dict[str, Any]:
    """``count`` canvas nodes: a manual trigger, Set nodes in a chain, an If every 10th node, sticky notes."""
    nodes: list[dict[str, Any]] = [
        {
            "name": "Start",
            "type": "n8n-nodes-base.manualTrigger",
            "typeVersion": 1,
            "position": [0, 0],
            "parameters": {},
        }
    ]
    connections: dict[str, Any] = {}
    notes = count // 40
    for i in range(1, count - notes):
        kind = "n8n-nodes-base.if" if i % 10 == 0 else "n8n-nodes-base.set"
        nodes.append(
            {
                "name": f"Node {i}",
                "type": kind,
                "typeVersion": 2 if kind.endswith("if") else 3.4,
                "position": [(i % 20) * 220, (i // 20) * 200],
                "parameters": {},
            }
        )
        previous = nodes[-2]["name"]
        outputs = 2 if nodes[-2]["type"].endswith(".if") else 1
        connections[previous] = {"main": [[{"node": f"Node {i}", "type": "main", "index": 0}]] * outputs}
    for j in range(notes):
        nodes.append(
            {
                "name": f"Note {j}",
                "type": "n8n-nodes-base.stickyNote",
                "typeVersion": 1,
                "position": [j * 900, -300],
                "parameters": {"content": f"## Part {j}", "width": 400, "height": 200},
            }
        )
    return {"name": f"{count} nodes", "nodes": nodes, "connections": connections, "settings": {"executionOrder": "v1"}}


MARK = "return performance.getEntriesByName('weft-canvas-rendered').map(e => e.startTime)"


def _sign_in(driver: Any, url: str) -> None:
    from selenium.webdriver.common.by import By

    driver.get(f"{url}/")
    wait_for(lambda: driver.find_elements(By.ID, "email"))
    driver.find_element(By.ID, "email").send_keys(OWNER["email"])
    driver.find_element(By.ID, "password").send_keys(OWNER["password"])
    driver.find_element(By.ID, "signin-submit").click()
    wait_for(lambda: driver.find_elements(By.ID, "create"))


def _first_render(driver: Any, url: str, workflow_id: str, count: int) -> float:
    from selenium.webdriver.common.by import By

    driver.get(f"{url}/workflow/{workflow_id}")
    marks = wait_for(lambda: driver.execute_script(MARK), timeout=60)
    assert len(driver.find_elements(By.CSS_SELECTOR, ".vue-flow__node")) == count
    return float(marks[0])


def measure(url: str, workflow_id: str, repeat: int, count: int) -> list[float]:
    """Milliseconds from navigation start to the canvas mark, one per fresh load (after one warm-up load)."""
    browser = chromium()
    driver = next(browser)
    try:
        _sign_in(driver, url)
        _first_render(driver, url, workflow_id, count)  # warms the browser's cache and the server
        times = [_first_render(driver, url, workflow_id, count) for _ in range(repeat)]
        errors = console_errors(driver)
        assert errors == [], errors
        return times
    finally:
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--nodes", type=int, default=200)
    args = parser.parse_args()
    reason = missing()
    if reason:
        raise SystemExit(f"bench_editor: {reason}")
    with tempfile.TemporaryDirectory(prefix="weft-bench-editor-") as folder:
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        settings = Settings(
            user_folder=Path(folder),
            database_url=f"sqlite:///{folder}/weft.sqlite",
            encryption_key="bench",
            port=port,
            public_url=url + "/",
        )
        server, thread = serve_in_thread(settings, port)
        try:
            with httpx.Client(base_url=url, timeout=30) as client:
                log_in(client)
                answer = client.post("/rest/workflows/import", json=big_workflow(args.nodes))
                workflow_id = answer.json()["data"][0]["id"]
            times = measure(url, workflow_id, args.repeat, args.nodes)
        finally:
            server.should_exit = True
            thread.join(10)
    print(
        f"editor: first render of a {args.nodes}-node workflow (navigation start → canvas measured), "
        f"{len(times)} loads: median {statistics.median(times):.0f} ms, min {min(times):.0f} ms, "
        f"max {max(times):.0f} ms"
    )


if __name__ == "__main__":
    main()
