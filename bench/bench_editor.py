"""Time to first render of the editor's canvas for a 200-node workflow, and its frame time while panning, in a real
browser (Chromium, headless).

Starts a Weft server on 127.0.0.1 (a temporary SQLite instance), imports a workflow of 200 nodes (a chain of Set
nodes with If branches and a few sticky notes: 200 canvas nodes, ~200 connections), signs in with the editor's form,
then loads ``/workflow/<id>`` afresh ``--repeat`` times. The number is the Performance API's time from the start of
the navigation to the ``weft-canvas-rendered`` mark, which the canvas sets when Vue Flow has measured every node
(the page, its scripts, the REST call and the first layout included).

Then it pans the loaded canvas for ``--pan-seconds``: the mouse (real input events through the DevTools protocol)
presses on the empty canvas and drags in a circle, one move per ~16 ms, while a ``requestAnimationFrame`` loop in
the page records every frame's interval and a ``PerformanceObserver`` counts ``long-animation-frame`` entries
(frames busy over 50 ms). It prints the median and 95th percentile frame interval and the share of dropped frames
(vsync intervals, at the page's own median rate, that produced no frame). Headless Chromium draws without a GPU, so
the numbers are an upper bound of a desktop browser's. Usage::

    .venv/bin/python bench/bench_editor.py [--repeat N] [--nodes N] [--pan-seconds S]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import tempfile
import time
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


#: In the page: record each frame's interval (rAF) and the long animation frames until ``window.__panDone``.
FRAMES = """
window.__frames = []; window.__longFrames = 0; window.__panDone = false;
try {
  new PerformanceObserver((list) => { window.__longFrames += list.getEntries().length; })
    .observe({type: 'long-animation-frame', buffered: false});
  window.__loaf = true;
} catch (e) { window.__loaf = false; }
let last = performance.now();
const tick = (now) => {
  window.__frames.push(now - last); last = now;
  if (!window.__panDone) requestAnimationFrame(tick);
};
requestAnimationFrame(tick);
"""


def _mouse(driver: Any, kind: str, x: float, y: float, buttons: int) -> None:
    event = {"type": kind, "x": x, "y": y, "button": "left", "buttons": buttons, "clickCount": 1}
    driver.execute_cdp_cmd("Input.dispatchMouseEvent", event)


def _empty_spot(driver: Any) -> tuple[float, float]:
    """A point of the canvas's pane (not on a node), to press on and pan from."""
    spot: list[float] = driver.execute_script(
        "const r = document.querySelector('.vue-flow__pane').getBoundingClientRect();"
        "for (let y = r.top + 20; y < r.bottom; y += 15) for (let x = r.left + 60; x < r.right; x += 15) {"
        "  const e = document.elementFromPoint(x, y);"
        "  if (e && e.classList.contains('vue-flow__pane')) return [x, y]; }"
        "return [r.left + r.width / 2, r.top + r.height / 2];"
    )
    return spot[0], spot[1]


def pan_frames(driver: Any, seconds: float) -> dict[str, Any]:
    """Pan the open canvas in circles for ``seconds``; the frame intervals (ms) and long-frame count meanwhile."""
    x0, y0 = _empty_spot(driver)
    driver.execute_script(FRAMES)
    _mouse(driver, "mousePressed", x0, y0, 1)
    start = time.monotonic()
    while (elapsed := time.monotonic() - start) < seconds:
        angle = elapsed * 2 * math.pi / 1.5  # a circle of 150 px every 1.5 s
        _mouse(driver, "mouseMoved", x0 + 150 * math.sin(angle), y0 + 150 * (1 - math.cos(angle)), 1)
        time.sleep(0.016)
    _mouse(driver, "mouseReleased", x0, y0, 0)
    driver.execute_script("window.__panDone = true;")
    time.sleep(0.1)
    found: dict[str, Any] = driver.execute_script(
        "return {frames: window.__frames.slice(1), longFrames: window.__longFrames, loaf: window.__loaf,"
        " transform: document.querySelector('.vue-flow__transformationpane').style.transform}"
    )
    return found


def frame_summary(frames: list[float]) -> tuple[float, float, float]:
    """Median and 95th percentile interval (ms), and the share of vsyncs without a frame."""
    ordered = sorted(frames)
    median = statistics.median(ordered)
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    vsync = 1000 / 60 if median < 1000 / 45 else median  # the page's own rate when it is not a 60 Hz one
    missed = sum(max(0, round(interval / vsync) - 1) for interval in frames)
    return median, p95, missed / (len(frames) + missed)


def measure(url: str, workflow_id: str, repeat: int, count: int, pan_seconds: float) -> tuple[list[float], Any]:
    """Milliseconds from navigation start to the canvas mark, one per fresh load (after one warm-up load), then the
    frames of a pan of the last load."""
    browser = chromium()
    driver = next(browser)
    try:
        _sign_in(driver, url)
        _first_render(driver, url, workflow_id, count)  # warms the browser's cache and the server
        times = [_first_render(driver, url, workflow_id, count) for _ in range(repeat)]
        before = driver.execute_script("return document.querySelector('.vue-flow__transformationpane').style.transform")
        panned = pan_frames(driver, pan_seconds)
        assert panned["transform"] != before, "the canvas did not pan"
        errors = console_errors(driver)
        assert errors == [], errors
        return times, panned
    finally:
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--nodes", type=int, default=200)
    parser.add_argument("--pan-seconds", type=float, default=4.0)
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
            times, panned = measure(url, workflow_id, args.repeat, args.nodes, args.pan_seconds)
        finally:
            server.should_exit = True
            thread.join(10)
    print(
        f"editor: first render of a {args.nodes}-node workflow (navigation start → canvas measured), "
        f"{len(times)} loads: median {statistics.median(times):.0f} ms, min {min(times):.0f} ms, "
        f"max {max(times):.0f} ms"
    )
    median, p95, dropped = frame_summary(panned["frames"])
    long_frames = f"{panned['longFrames']} long animation frames (> 50 ms)" if panned["loaf"] else "no LoAF API"
    print(
        f"editor: panning the {args.nodes}-node canvas for {args.pan_seconds:g} s, {len(panned['frames'])} frames: "
        f"frame time median {median:.1f} ms, p95 {p95:.1f} ms, dropped frames {dropped:.1%}, {long_frames}"
    )


if __name__ == "__main__":
    main()
