"""W1 under load: ``weft start`` on 127.0.0.1, ``wrk`` at 1, 10 and 50 connections, executions saved.

    .venv/bin/python bench/bench_webhook.py                  # 5 s warm-up, 15 s per level (the reference run)
    .venv/bin/python bench/bench_webhook.py --duration 3 --warmup 1   # a quick run
    .venv/bin/python bench/bench_webhook.py --repeat 5      # each level 5 times: the medians (the machine is shared)

Starts the server with a temporary ``WEFT_USER_FOLDER`` (SQLite, WAL), imports and activates
``examples/webhook_set_respond.json`` with ``weft import:workflow --activate``, checks the answer,
warms up, then runs ``wrk`` (Debian's ``apt-get install wrk``) with ``w1_post.lua`` per level. Prints req/s,
p50, p99, errors, idle and peak RSS (the whole process tree: uvicorn's supervisor and its workers) beside
n8n 2.8.4's figures, measured with the same workflow on the same kind of machine.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
W1 = ROOT / "examples" / "webhook_set_respond.json"
LUA = Path(__file__).with_name("w1_post.lua")
EXPECTED = {"total": 5, "greeting": "Hello BENCH", "tagCount": 3}
N8N = {  # n8n 2.8.4 on the same kind of 2-core machine (measured with the same workflow)
    1: "128-142 req/s, p99 17-22 ms",
    10: "143-161 req/s, p99 101-183 ms",
    50: "136-150 req/s, p99 523-552 ms",
}
N8N_RSS = "idle 444-469 MiB, up to 843 MiB under load"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def tree_rss_kib(pid: int) -> int:
    """VmRSS of ``pid`` and all its descendants, in KiB."""
    total = 0
    stack = [pid]
    while stack:
        current = stack.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            total += int(re.search(r"VmRSS:\s+(\d+)", status).group(1))  # type: ignore[union-attr]
            for task in Path(f"/proc/{current}/task").iterdir():
                children = (task / "children").read_text().split()
                stack.extend(int(c) for c in children)
        except (OSError, AttributeError):
            continue
    return total


def tree_pids(pid: int) -> list[int]:
    pids, stack = [], [pid]
    while stack:
        current = stack.pop()
        pids.append(current)
        try:
            for task in Path(f"/proc/{current}/task").iterdir():
                stack.extend(int(c) for c in (task / "children").read_text().split())
        except OSError:
            continue
    return pids


def tree_cpu_seconds(pid: int) -> float:
    """User + system CPU time of ``pid`` and its descendants (the server's cost, whatever else runs)."""
    ticks = 0
    for current in tree_pids(pid):
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])
        except (OSError, IndexError):
            continue
    return ticks / os.sysconf("SC_CLK_TCK")


class PeakSampler(threading.Thread):
    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak, self.running = pid, 0, True

    def run(self) -> None:
        while self.running:
            self.peak = max(self.peak, tree_rss_kib(self.pid))
            time.sleep(0.1)


def wrk(url: str, connections: int, seconds: float, threads: int) -> dict[str, float]:
    command = [
        "wrk",
        f"-t{min(threads, connections)}",
        f"-c{connections}",
        f"-d{seconds:g}s",
        "--latency",
        "-s",
        str(LUA),
        url,
    ]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    errors = 0
    for pattern in (r"Non-2xx or 3xx responses:\s+(\d+)",):
        found = re.search(pattern, out)
        errors += int(found.group(1)) if found else 0
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    if socket_errors:
        errors += sum(int(g) for g in socket_errors.groups())
    return {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),  # type: ignore[union-attr]
        "p50": _ms(re.search(r"\s50%\s+([\d.]+\w+)", out).group(1)),  # type: ignore[union-attr]
        "p99": _ms(re.search(r"\s99%\s+([\d.]+\w+)", out).group(1)),  # type: ignore[union-attr]
        "requests": int(re.search(r"(\d+) requests in", out).group(1)),  # type: ignore[union-attr]
        "errors": errors,
    }


def measure(pid: int, url: str, connections: int, args: argparse.Namespace) -> dict[str, float]:
    """One ``wrk`` run at ``connections``, with the server's CPU time per request."""
    cpu_before = tree_cpu_seconds(pid)
    result = wrk(url, connections, args.duration, args.threads)
    spent = tree_cpu_seconds(pid) - cpu_before
    result["cpu_ms"] = spent * 1000 / max(1, int(result["requests"]))
    return result


def _ms(value: str) -> float:
    number = float(re.match(r"[\d.]+", value).group(0))  # type: ignore[union-attr]
    unit = value[len(str(re.match(r"[\d.]+", value).group(0))) :]  # type: ignore[union-attr]
    return number * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]


def weft(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "weft", *args], env=env, capture_output=True, text=True, check=True)


def wait_ready(url: str, process: subprocess.Popen[bytes], timeout: float = 30) -> float:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if process.poll() is not None:
            raise SystemExit("weft start exited early")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=1):
                return time.monotonic() - started
        except OSError:
            time.sleep(0.05)
    raise SystemExit("weft start did not answer in time")


def post_once(url: str) -> object:
    body = json.dumps({"a": 2, "b": 3, "name": "bench", "tags": ["x", "y", "z"]}).encode()
    request = urllib.request.Request(url, body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.loads(response.read())


def count_executions(env: dict[str, str]) -> int:
    code = (
        "from weft.services.import_export import open_store; from weft.settings import Settings; "
        "s = open_store(Settings.from_env()); print(s.executions.count(statuses=['success'])); s.close()"
    )
    return int(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--duration", type=float, default=15, help="seconds per concurrency level (15)")
    parser.add_argument("--warmup", type=float, default=5, help="warm-up seconds (5)")
    parser.add_argument("--levels", default="1,10,50", help="concurrency levels (1,10,50)")
    parser.add_argument("--workers", type=int, default=2, help="uvicorn worker processes (2)")
    parser.add_argument("--threads", type=int, default=1, help="wrk threads (1)")
    parser.add_argument("--repeat", type=int, default=1, help="wrk runs per level; the medians are printed (1)")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed: apt-get install -y wrk")
    folder = Path(tempfile.mkdtemp(prefix="weft-bench-"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "WEFT_USER_FOLDER": str(folder),
        "WEFT_PORT": str(port),
        "WEFT_PUBLIC_URL": base + "/",
        "WEFT_WORKERS": str(args.workers),
    }
    env.pop("WEFT_DATABASE_URL", None)
    weft(env, "import:workflow", "--input", str(W1), "--activate")
    started = time.monotonic()
    server = subprocess.Popen([sys.executable, "-m", "weft", "start"], env=env, stderr=subprocess.DEVNULL)
    try:
        wait_ready(base, server)
        url = f"{base}/webhook/bench"
        answer = post_once(url)
        cold = time.monotonic() - started
        assert answer == EXPECTED, answer
        time.sleep(1.0)
        idle = tree_rss_kib(server.pid)
        sampler = PeakSampler(server.pid)
        sampler.start()
        wrk(url, 10, args.warmup, args.threads)
        results = {}
        for connections in map(int, args.levels.split(",")):
            runs = [measure(server.pid, url, connections, args) for _ in range(max(1, args.repeat))]
            results[connections] = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
        sampler.running = False
        sampler.join()
        saved = count_executions(env)
    finally:
        server.terminate()
        server.wait(30)
        shutil.rmtree(folder, ignore_errors=True)
    report(args, results, idle, sampler.peak, cold, saved)
    return 0


def report(
    args: argparse.Namespace, results: dict[int, dict[str, float]], idle: int, peak: int, cold: float, saved: int
) -> None:
    print(
        f"W1 webhook -> Set (3 expressions) -> Respond; executions saved (SQLite WAL); {args.workers} worker "
        f"processes; wrk -t{args.threads}; {args.warmup:g} s warm-up; {args.duration:g} s per level"
        + (f"; medians of {args.repeat} runs per level" if args.repeat > 1 else "")
    )
    print(f"{'conns':>5} {'req/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7} {'CPU ms/req':>10}   n8n 2.8.4")
    for connections, r in results.items():
        print(
            f"{connections:>5} {r['rps']:>9.0f} {r['p50']:>8.2f} {r['p99']:>8.2f} {r['errors']:>7g} "
            f"{r['cpu_ms']:>10.2f}   {N8N.get(connections, '-')}"
        )
    load = os.getloadavg()
    print(
        f"load average after the run: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs "
        "(other work on the machine lowers req/s; CPU ms/req is the server's own cost)"
    )
    print(f"RSS (all processes): idle {idle / 1024:.0f} MiB, peak {peak / 1024:.0f} MiB   n8n: {N8N_RSS}")
    print(f"cold start to first answer {cold:.2f} s (n8n 4.0-4.2 s); successful executions saved: {saved}")


if __name__ == "__main__":
    sys.exit(main())
