"""Memory of a large download: HTTP Request (file) → Read/Write Files from Disk, through ``weft execute``.

A local server on 127.0.0.1 streams ``--mb`` MB of bytes; ``weft execute`` runs the workflow in a child process
whose peak resident memory (``VmHWM``) is read when it ends. The same workflow with a 1 kB download gives the
baseline (the process with everything imported and one execution run), so the figure is what the file adds.
Target (issue 12): below 100 MB above idle for 200 MB, in every binary-data mode that keeps bytes out of memory.

    python bench/bench_binary.py [--mb 200] [--repeat 3] [--mode filesystem|database]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

CHUNK = b"\xa5" * (1024 * 1024)


class _Bytes(BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        size = int(self.path.rsplit("/", 1)[-1])
        self.send_response(200)
        self.send_header("content-type", "application/octet-stream")
        self.send_header("content-length", str(size))
        self.end_headers()
        left = size
        while left:
            part = CHUNK[: min(left, len(CHUNK))]
            self.wfile.write(part)
            left -= len(part)


def _workflow(url: str, target: Path) -> dict[str, Any]:
    nodes = [
        {"id": "t", "name": "Start", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "position": [0, 0]},
        {
            "id": "h",
            "name": "Download",
            "type": "n8n-nodes-base.httpRequest",
            "typeVersion": 4.2,
            "position": [200, 0],
            "parameters": {"url": url, "options": {"response": {"response": {"responseFormat": "file"}}}},
        },
        {
            "id": "w",
            "name": "Write",
            "type": "n8n-nodes-base.readWriteFile",
            "typeVersion": 1,
            "position": [400, 0],
            "parameters": {"operation": "write", "fileName": str(target), "options": {}},
        },
    ]
    connections = {
        "Start": {"main": [[{"node": "Download", "type": "main", "index": 0}]]},
        "Download": {"main": [[{"node": "Write", "type": "main", "index": 0}]]},
    }
    return {"id": "benchBinary00001", "name": "bench binary", "nodes": nodes, "connections": connections}


def _peak_mb(port: int, size: int, folder: Path, mode: str) -> tuple[float, float]:
    """(peak RSS in MB, seconds) of one ``weft execute`` downloading ``size`` bytes."""
    target = folder / "files" / f"out-{size}.bin"
    target.parent.mkdir(exist_ok=True)
    workflow = folder / "wf.json"
    workflow.write_text(json.dumps(_workflow(f"http://127.0.0.1:{port}/{size}", target)))
    env = {
        **os.environ,
        "WEFT_USER_FOLDER": str(folder / "home"),
        "WEFT_RESTRICT_FILE_ACCESS_TO": str(target.parent),
        "WEFT_BINARY_DATA_MODE": mode,
    }
    probe = (
        "import runpy, sys, atexit\n"
        "def peak():\n"
        "    for line in open('/proc/self/status'):\n"
        "        if line.startswith('VmHWM:'): sys.stderr.write('PEAK ' + line.split()[1] + '\\n')\n"
        "atexit.register(peak)\n"
        "sys.argv = ['weft', 'execute', '--file', sys.argv[1]]\n"
        "runpy.run_module('weft', run_name='__main__')\n"
    )
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", probe, str(workflow)], env=env, capture_output=True, text=True, timeout=600
    )
    elapsed = time.perf_counter() - started
    peaks = [line for line in done.stderr.splitlines() if line.startswith("PEAK ")]
    if done.returncode != 0 or not peaks:
        raise SystemExit(f"weft execute failed ({done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    if target.stat().st_size != size:
        raise SystemExit(f"wrote {target.stat().st_size} bytes, expected {size}")
    target.unlink()
    return int(peaks[-1].split()[1]) / 1024, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--mode", default="filesystem", choices=["filesystem", "database", "default"])
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Bytes)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _peak_mb(port, 1000, folder, args.mode)  # first run: creates and migrates the database
        base = [_peak_mb(port, 1000, folder, args.mode)[0] for _ in range(args.repeat)]
        runs = [_peak_mb(port, args.mb * 1_000_000, folder, args.mode) for _ in range(args.repeat)]
    server.shutdown()
    peak, idle = statistics.median(p for p, _ in runs), statistics.median(base)
    seconds = statistics.median(s for _, s in runs)
    print(f"mode {args.mode}: {args.mb} MB download -> Write File, median of {args.repeat}")
    print(f"  peak RSS {peak:.0f} MB, baseline (1 kB download) {idle:.0f} MB: {peak - idle:.0f} MB above idle")
    print(f"  whole run {seconds:.2f} s ({args.mb / seconds:.0f} MB/s, process start included)")


if __name__ == "__main__":
    main()
