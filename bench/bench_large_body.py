"""One large webhook body must not stall the server: small requests answered while 300,000 items run.

    .venv/bin/python bench/bench_large_body.py                    # 300,000 items (a 3.8 MB body), 1 worker
    .venv/bin/python bench/bench_large_body.py --runs 3           # three runs (a fresh server each) and medians
    .venv/bin/python bench/bench_large_body.py --items 900000     # the 900,000-item case

Starts ``weft start`` on 127.0.0.1 with one worker process and a temporary ``WEFT_USER_FOLDER`` (SQLite), imports
and activates two workflows with ``weft import:workflow --activate``:

* ``big``: Webhook (answers when the last node is done) -> Split Out (``body.items``) -> Set (one expression);
* ``ping``: Webhook (answers at once) alone.

It measures the latency of ``ping`` alone, then posts one body of ``--items`` items ``{"i": n}`` to ``big`` and
sends ``ping`` requests one after the other until ``big`` has answered. Prints the medians (and p90 / max) of both
phases, how long ``big`` took, its answer's status and the server's peak RSS. Pass ``--env NAME=VALUE`` to run the
server with a setting (e.g. ``--env WEFT_EXECUTION_ITEMS_MAX=0`` for no item cap). With ``--runs N`` it does it all
N times, each with a fresh server and folder, and ends with the medians over the runs of the pings' median and
maximum latency while ``big`` runs (a busy machine makes single runs noisy).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_webhook import PeakSampler, free_port, tree_rss_kib, wait_ready, weft


def _node(name: str, kind: str, version: float, x: int, parameters: dict[str, object]) -> dict[str, object]:
    node: dict[str, object] = {"id": f"id-{name}", "name": name, "type": kind, "typeVersion": version}
    node.update(position=[x, 0], parameters=parameters)
    return node


def _webhook(name: str, path: str, mode: str) -> dict[str, object]:
    parameters: dict[str, object] = {"httpMethod": "POST", "path": path, "responseMode": mode, "options": {}}
    return {
        **_node(name, "n8n-nodes-base.webhook", 2.1, 0, parameters),
        "webhookId": f"00000000-0000-4000-8000-{path:0>12}",
    }


def big_workflow() -> dict[str, object]:
    split = _node("Split Out", "n8n-nodes-base.splitOut", 1, 220, {"fieldToSplitOut": "body.items"})
    assignment = {"id": "a", "name": "double", "value": "={{ $json.i * 2 }}", "type": "number"}
    edit = _node("Edit Fields", "n8n-nodes-base.set", 3.4, 440, {"assignments": {"assignments": [assignment]}})
    webhook = _webhook("Webhook", "big", "lastNode")
    return {
        "id": "bnchLargeBody001",
        "name": "large body",
        "nodes": [webhook, split, edit],
        "connections": {
            "Webhook": {"main": [[{"node": "Split Out", "type": "main", "index": 0}]]},
            "Split Out": {"main": [[{"node": "Edit Fields", "type": "main", "index": 0}]]},
        },
        "settings": {"executionOrder": "v1"},
    }


def ping_workflow() -> dict[str, object]:
    webhook = _webhook("Ping", "ping", "onReceived")
    return {"id": "bnchLargePing001", "name": "ping", "nodes": [webhook], "connections": {}, "settings": {}}


def post(port: int, path: str, body: bytes, timeout: float = 600) -> tuple[int, float, bytes]:
    """``(status, seconds, answer)`` of one POST on a new connection."""
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("POST", path, body, {"Content-Type": "application/json"})
        response = connection.getresponse()
        answer = response.read()
        return response.status, time.perf_counter() - started, answer
    finally:
        connection.close()


def ping_latencies(port: int, until: threading.Event | None, count: int = 40) -> list[float]:
    """Milliseconds of ``ping`` requests, one after the other: ``count`` of them, or until ``until`` is set."""
    latencies: list[float] = []
    while (until is None and len(latencies) < count) or (until is not None and not until.is_set()):
        latencies.append(post(port, "/webhook/ping", b'{"p":1}')[1] * 1000)
        time.sleep(0.01)
    return latencies


def summary(latencies: list[float]) -> str:
    if not latencies:
        return "no request completed"
    ordered = sorted(latencies)
    p90 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]
    slow = sum(1 for latency in ordered if latency > 250)
    return (
        f"median {statistics.median(ordered):7.1f} ms  p90 {p90:7.1f} ms  max {ordered[-1]:7.1f} ms  "
        f"(n={len(ordered)}, {slow} over 250 ms)"
    )


def run(port: int, items: int, server_pid: int) -> tuple[float, float]:
    """One run against a started server; ``(median, max)`` of the pings' latency while ``big`` ran, in ms."""
    body = json.dumps({"items": [{"i": n} for n in range(items)]}, separators=(",", ":")).encode()
    ping_latencies(port, None, 10)  # warm-up
    idle = ping_latencies(port, None)
    done = threading.Event()
    outcome: dict[str, object] = {}

    def send_big() -> None:
        status, seconds, answer = post(port, "/webhook/big", body)
        outcome.update(status=status, seconds=seconds, answer=answer[:300])
        done.set()

    sampler = PeakSampler(server_pid)
    sampler.start()
    big = threading.Thread(target=send_big)
    big.start()
    time.sleep(0.05)
    during = ping_latencies(port, done)
    big.join()
    sampler.running = False
    sampler.join()
    print(f"body: {items:,} items, {len(body) / 1e6:.1f} MB; one worker process")
    print(f"ping alone:        {summary(idle)}")
    print(f"ping during big:   {summary(during)}")
    peak = sampler.peak / 1024
    print(f"big: HTTP {outcome['status']} after {outcome['seconds']:.1f} s; server RSS peak {peak:.0f} MiB")
    if outcome["status"] != 200:
        print(f"big's answer: {outcome['answer']!r}")
    return (statistics.median(during), max(during)) if during else (0.0, 0.0)


def serve_and_run(args: argparse.Namespace) -> tuple[float, float]:
    """A fresh folder and server, the two workflows, one :func:`run`."""
    folder = Path(tempfile.mkdtemp(prefix="weft-bench-large-"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "WEFT_USER_FOLDER": str(folder), "WEFT_PORT": str(port), "WEFT_PUBLIC_URL": base + "/"}
    env.update({"WEFT_WORKERS": "1", "WEFT_PAYLOAD_SIZE_MAX": "64"})
    env.update(dict(pair.split("=", 1) for pair in args.env))
    env.pop("WEFT_DATABASE_URL", None)
    for workflow in (big_workflow(), ping_workflow()):
        path = folder / f"{workflow['id']}.json"
        path.write_text(json.dumps(workflow))
        weft(env, "import:workflow", "--input", str(path), "--activate")
    server = subprocess.Popen([sys.executable, "-m", "weft", "start"], env=env, stderr=subprocess.DEVNULL)
    try:
        wait_ready(base, server)
        print(f"server RSS idle {tree_rss_kib(server.pid) / 1024:.0f} MiB")
        return run(port, args.items, server.pid)
    finally:
        server.terminate()
        server.wait(60)
        shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=300_000, help="items in the large body (300000)")
    parser.add_argument("--env", action="append", default=[], help="NAME=VALUE for the server (repeatable)")
    parser.add_argument("--runs", type=int, default=1, help="runs, each with a fresh server (1)")
    args = parser.parse_args()
    results = []
    for number in range(args.runs):
        if args.runs > 1:
            print(f"--- run {number + 1} of {args.runs}")
        results.append(serve_and_run(args))
    if args.runs > 1:
        medians = ", ".join(f"{median:.0f}" for median, _ in results)
        maxima = ", ".join(f"{most:.0f}" for _, most in results)
        print(
            f"=== {args.runs} runs: ping during big, median of the medians "
            f"{statistics.median(m for m, _ in results):.1f} ms ({medians}); "
            f"median of the maxima {statistics.median(m for _, m in results):.1f} ms ({maxima})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
