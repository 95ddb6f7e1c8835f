"""Queue mode (issue 22): the webhook round trip through the queue, and an I/O-bound workflow's throughput.

    url=$(bash scripts/start_postgres.sh)
    WEFT_TEST_DATABASE_URL=$url .venv/bin/python bench/bench_queue.py            # 5 runs of each (the reference)
    WEFT_TEST_DATABASE_URL=$url .venv/bin/python bench/bench_queue.py --runs 1 --seconds 2   # a quick run

1. Round trip. W1 (``examples/webhook_set_respond.json``: Webhook -> Set -> Respond to Webhook) answered by a
   regular-mode ``weft start`` and by a queue-mode ``weft start`` with one ``weft worker``, both on the same
   PostgreSQL server (each in its own schema), both up at once, their runs interleaved so that the load of the
   machine falls on both alike. Sequential requests (p50, p99) and 10 concurrent connections (p50, p99, req/s);
   the queue's overhead is its p50 minus the regular p50.
2. Throughput. Webhook (answers with the last node) -> HTTP Request to a local stub that sleeps ``--stub-ms``
   -> Set, on queue-mode mains with 1, 2 and 4 workers of ``--io-concurrency`` executions each (three clusters up
   at once, runs interleaved). ``--requests`` requests at 40 connections per run; executions/s and the speed-up
   over 1 worker. The workers' concurrency is low (2) so that one worker is bounded by waiting for the stub
   (ceiling 2 / 0.1 s = 20 executions/s) rather than by CPU; on a busy machine the CPU each execution costs
   (the "CPU ms" column: the main's and the workers' processes, PostgreSQL's not counted) still bounds 4 workers.

``--compare-src DIR`` adds a third cluster, queue mode on the source tree ``DIR`` (a copy of ``src/`` before a
change), measured alongside the two and compared run by run.

Each figure is the median of ``--runs`` runs (each run's figure in brackets). The client is a small keep-alive
HTTP/1.1 client on asyncio (no ``wrk`` needed); the stub runs in its own process. Schemas ``weft_bench_queue*``
are dropped and created again.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
W1 = ROOT / "examples" / "webhook_set_respond.json"
W1_BODY = b'{"a":2,"b":3,"name":"bench","tags":["x","y","z"]}'
W1_ANSWER = {"total": 5, "greeting": "Hello BENCH", "tagCount": 3}
DB = os.environ.get("WEFT_TEST_DATABASE_URL", "postgresql://weft:weft@127.0.0.1:54329/weft")
SCHEMA = "weft_bench_queue"
THROUGHPUT_CONNECTIONS = 40
#: The cluster of ``--compare-src``.
COMPARED = "compared"
REQUEST_TIMEOUT_S = 60.0


# ---------------------------------------------------------------- processes


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Cluster:
    """One schema, one ``weft start`` and its workers; every process in its own group, its output in a file."""

    def __init__(self, name: str, folder: Path, *, queue: bool, main_processes: int, src: str | None = None) -> None:
        from weft.db.test_support import reset_schema

        self.name, self.folder = name, folder / name
        self.folder.mkdir(parents=True)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "WEFT_USER_FOLDER": str(self.folder),
            "WEFT_DATABASE_URL": reset_schema(DB, f"{SCHEMA}_{name}"),
            "WEFT_PORT": str(self.port),
            "WEFT_PUBLIC_URL": self.base + "/",
            "WEFT_WORKERS": str(main_processes),
            "WEFT_EXECUTIONS_MODE": "queue" if queue else "regular",
        }
        if src is not None:  # another source tree (--compare-src)
            self.env["PYTHONPATH"] = src
        self.processes: list[subprocess.Popen[bytes]] = []
        self.workers = 0

    def weft(self, *args: str) -> None:
        subprocess.run([sys.executable, "-m", "weft", *args], env=self.env, capture_output=True, check=True)

    def spawn(self, label: str, *args: str) -> subprocess.Popen[bytes]:
        log = (self.folder / f"{label}.log").open("wb")
        process = subprocess.Popen(
            [sys.executable, "-m", "weft", *args], env=self.env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        self.processes.append(process)
        return process

    def start(self, workflow: Path) -> None:
        self.weft("import:workflow", "--input", str(workflow), "--activate")
        main = self.spawn("main", "start")
        _wait(lambda: _healthy(self.base), main, f"{self.name}: weft start")

    def add_workers(self, count: int, concurrency: int) -> None:
        for _ in range(count):
            self.workers += 1
            label = f"worker-{self.workers}"
            worker = self.spawn(label, "worker", "--concurrency", str(concurrency))
            log = self.folder / f"{label}.log"
            _wait(lambda log=log: "runs queued executions" in log.read_text(errors="replace"), worker, label)  # type: ignore[misc]

    def cpu_seconds(self) -> float:
        """User + system CPU time of the main, its workers and their children (PostgreSQL's not counted)."""
        return sum(_tree_cpu_seconds(process.pid) for process in self.processes)

    def measure(self, load: Load, connections: int, **until: Any) -> dict[str, float]:
        """``load.run`` with the CPU milliseconds the cluster's processes spent per request."""
        before = self.cpu_seconds()
        result = load.run(connections, **until)
        result["cpu_ms"] = (self.cpu_seconds() - before) * 1000 / max(1, int(result["requests"]))
        return result

    def stop(self) -> None:
        for process in self.processes:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait(10)


def _tree_cpu_seconds(pid: int) -> float:
    ticks, stack = 0, [pid]
    while stack:
        current = stack.pop()
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])
            for task in Path(f"/proc/{current}/task").iterdir():
                stack.extend(int(c) for c in (task / "children").read_text().split())
        except (OSError, IndexError):
            continue
    return ticks / os.sysconf("SC_CLK_TCK")


def _healthy(base: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base}/healthz", timeout=1):
            return True
    except OSError:
        return False


def _wait(ready: Callable[[], bool], process: subprocess.Popen[bytes], what: str, timeout: float = 90) -> None:
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if process.poll() is not None:
            raise SystemExit(f"{what} exited early (code {process.returncode})")
        if ready():
            return
        time.sleep(0.1)
    raise SystemExit(f"{what} was not ready within {timeout:g} s")


# ---------------------------------------------------------------- the stub the I/O-bound workflow calls


class _Slow(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    delay = 0.1

    def do_GET(self) -> None:
        time.sleep(self.delay)
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", "11")
        self.end_headers()
        self.wfile.write(b'{"ok":true}')

    def log_message(self, *args: Any) -> None:
        pass


def serve_stub(port: int, delay_ms: float) -> None:
    _Slow.delay = delay_ms / 1000
    server = ThreadingHTTPServer(("127.0.0.1", port), _Slow)
    server.daemon_threads = True
    server.request_queue_size = 256
    server.serve_forever()


@contextlib.contextmanager
def stub_process(delay_ms: float) -> Iterator[str]:
    port = free_port()
    process = subprocess.Popen([sys.executable, __file__, "--serve-stub", str(port), "--stub-ms", str(delay_ms)])
    url = f"http://127.0.0.1:{port}/slow"
    try:
        _wait(lambda: _get_ok(url), process, "the stub", timeout=30)
        yield url
    finally:
        process.terminate()
        process.wait(10)


def _get_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def io_workflow(stub: str, folder: Path) -> Path:
    """Webhook (answers with the last node's item) -> HTTP Request to the stub -> Set."""
    data = {
        "id": uuid.uuid4().hex[:16],
        "name": "queue bench I/O",
        "nodes": [
            {"id": "w", "name": "Webhook", "type": "n8n-nodes-base.webhook", "typeVersion": 2.1, "position": [0, 0],
             "webhookId": str(uuid.uuid4()),
             "parameters": {"httpMethod": "POST", "path": "io", "responseMode": "lastNode", "options": {}}},
            {"id": "h", "name": "Slow", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "position": [200, 0],
             "parameters": {"url": stub, "options": {}}},
            {"id": "s", "name": "Edit Fields", "type": "n8n-nodes-base.set", "typeVersion": 3.4, "position": [400, 0],
             "parameters": {"assignments": {"assignments": [
                 {"id": "a", "name": "done", "value": "={{ $json.ok }}", "type": "boolean"}]},
                 "includeOtherFields": False, "options": {}}},
        ],
        "connections": {
            "Webhook": {"main": [[{"node": "Slow", "type": "main", "index": 0}]]},
            "Slow": {"main": [[{"node": "Edit Fields", "type": "main", "index": 0}]]},
        },
        "settings": {"executionOrder": "v1"},
    }  # fmt: skip
    path = folder / "io_workflow.json"
    path.write_text(json.dumps(data))
    return path


# ---------------------------------------------------------------- the client


class Load:
    """Requests over ``connections`` keep-alive connections, for ``seconds`` or until ``total`` were sent."""

    def __init__(self, base: str, path: str, body: bytes, expect: bytes) -> None:
        host, port = base.removeprefix("http://").split(":")
        self.host, self.port = host, int(port)
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        )
        self.request = head.encode() + body
        self.expect = expect
        self.failure = b""

    def run(self, connections: int, *, seconds: float | None = None, total: int | None = None) -> dict[str, float]:
        return asyncio.run(self._run(connections, seconds, total))

    async def _run(self, connections: int, seconds: float | None, total: int | None) -> dict[str, float]:
        latencies: list[float] = []
        errors = [0]
        left = [total if total is not None else math.inf]
        started = time.perf_counter()
        deadline = started + seconds if seconds is not None else math.inf
        await asyncio.gather(*(self._connection(deadline, left, latencies, errors) for _ in range(connections)))
        elapsed = time.perf_counter() - started
        ordered = sorted(latencies)
        return {
            "requests": len(ordered),
            "rps": len(ordered) / elapsed,
            "p50": _percentile(ordered, 50) * 1000,
            "p99": _percentile(ordered, 99) * 1000,
            "errors": errors[0],
            "elapsed": elapsed,
        }

    async def _connection(self, deadline: float, left: list[float], latencies: list[float], errors: list[int]) -> None:
        reader, writer = await asyncio.open_connection(self.host, self.port)
        try:
            while time.perf_counter() < deadline and left[0] > 0:
                left[0] -= 1
                began = time.perf_counter()
                writer.write(self.request)
                try:
                    status, body = await asyncio.wait_for(_response(reader), REQUEST_TIMEOUT_S)
                except TimeoutError:  # no answer: counted, and the connection is not reused
                    errors[0] += 1
                    self.failure = b"no answer within the timeout"
                    return
                latencies.append(time.perf_counter() - began)
                if status != 200 or self.expect not in body:
                    errors[0] += 1
                    self.failure = f"{status} ".encode() + body[:300]
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()


async def _response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    status = int((await reader.readline()).split()[1])
    length, chunked = 0, False
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        if name.lower() == "content-length":
            length = int(value)
        elif name.lower() == "transfer-encoding" and "chunked" in value.lower():
            chunked = True
    if not chunked:
        return status, await reader.readexactly(length)
    body = b""
    while size := int((await reader.readline()).strip(), 16):
        body += await reader.readexactly(size)
        await reader.readline()
    await reader.readline()
    return status, body


def _percentile(ordered: list[float], percent: float) -> float:
    if not ordered:
        return math.nan
    return ordered[max(0, math.ceil(percent / 100 * len(ordered)) - 1)]


# ---------------------------------------------------------------- the two measurements


def round_trip(args: argparse.Namespace, folder: Path) -> dict[str, dict[str, list[dict[str, float]]]]:
    clusters = {
        "regular": Cluster("regular", folder, queue=False, main_processes=args.main_processes),
        "queue": Cluster("queue", folder, queue=True, main_processes=args.main_processes),
    }
    if args.compare_src:
        clusters[COMPARED] = Cluster(
            "compared", folder, queue=True, main_processes=args.main_processes, src=args.compare_src
        )
    results: dict[str, dict[str, list[dict[str, float]]]] = {name: {"seq": [], "c10": []} for name in clusters}
    try:
        for cluster in clusters.values():
            cluster.start(W1)
        for name in [n for n in clusters if n != "regular"]:
            clusters[name].add_workers(1, args.concurrency)
        loads = {name: Load(c.base, "/webhook/bench", W1_BODY, b'"Hello BENCH"') for name, c in clusters.items()}
        for name, load in loads.items():
            first = load.run(1, total=1)
            assert first["errors"] == 0, f"{name}: W1 did not answer {W1_ANSWER}: {load.failure!r}"
            load.run(10, seconds=args.warmup)
        for run in range(args.runs):
            for level, connections in (("seq", 1), ("c10", 10)):
                for name in _alternate(list(loads), run):
                    results[name][level].append(clusters[name].measure(loads[name], connections, seconds=args.seconds))
            print(f"round trip: run {run + 1} of {args.runs} done", file=sys.stderr, flush=True)
    finally:
        for cluster in clusters.values():
            cluster.stop()
    return results


def throughput(args: argparse.Namespace, folder: Path) -> dict[int, list[dict[str, float]]]:
    counts = [int(n) for n in args.worker_counts.split(",")]
    results: dict[int, list[dict[str, float]]] = {n: [] for n in counts}
    with stub_process(args.stub_ms) as stub:
        workflow = io_workflow(stub, folder)
        clusters = {n: Cluster(f"io{n}", folder, queue=True, main_processes=args.main_processes) for n in counts}
        try:
            for n, cluster in clusters.items():
                cluster.start(workflow)
                cluster.add_workers(n, args.io_concurrency)
            loads = {n: Load(c.base, "/webhook/io", b'{"n":1}', b'"done":true') for n, c in clusters.items()}
            for n, load in loads.items():
                assert load.run(1, total=1)["errors"] == 0, (
                    f"{n} workers: the I/O workflow did not answer: {load.failure!r}"
                )
                load.run(THROUGHPUT_CONNECTIONS, total=THROUGHPUT_CONNECTIONS * 2)
            for run in range(args.runs):
                for n in _alternate(counts, run):
                    results[n].append(clusters[n].measure(loads[n], THROUGHPUT_CONNECTIONS, total=args.requests))
                print(f"throughput: run {run + 1} of {args.runs} done", file=sys.stderr, flush=True)
        finally:
            for cluster in clusters.values():
                cluster.stop()
    return results


def _alternate(names: list[Any], run: int) -> list[Any]:
    """The order of the configurations in a run: rotated each run, so none always goes first."""
    shift = run % len(names)
    return names[shift:] + names[:shift]


# ---------------------------------------------------------------- the report


def _median(runs: list[dict[str, float]], key: str, fmt: str) -> str:
    values = [r[key] for r in runs]
    each = ", ".join(format(v, fmt) for v in values)
    return f"{format(statistics.median(values), fmt)} ({each})" if len(values) > 1 else format(values[0], fmt)


def report_round_trip(args: argparse.Namespace, results: dict[str, dict[str, list[dict[str, float]]]]) -> None:
    print(
        f"\n1. Round trip: W1 (Webhook -> Set -> Respond to Webhook) on PostgreSQL; {args.main_processes} main "
        f"process(es); queue: 1 worker --concurrency {args.concurrency}; {args.seconds:g} s per measurement; "
        f"medians of {args.runs} runs (each run in brackets)"
    )
    print("| Mode | Connections | p50 ms | p99 ms | req/s | CPU ms/req | errors |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for level, connections in (("seq", 1), ("c10", 10)):
        for name in results:
            runs = results[name][level]
            errors = sum(int(r["errors"]) for r in runs)
            print(
                f"| {name} | {connections} | {_median(runs, 'p50', '.2f')} | {_median(runs, 'p99', '.2f')} "
                f"| {_median(runs, 'rps', '.0f')} | {_median(runs, 'cpu_ms', '.1f')} | {errors} |"
            )
    for name in [n for n in results if n != "regular"]:
        what = "queue" if name == "queue" else f"{name} ({args.compare_src})"
        for level, label in (("seq", "sequential"), ("c10", "10 connections")):
            overheads = _differences(results[name][level], results["regular"][level])
            goal = " (goal <= 3 ms)" if level == "seq" else " (no goal: 10 requests share the machine's 2 cores)"
            print(f"{what} p50 overhead ({label}): {overheads}{goal}")
    if COMPARED in results:
        for level, label in (("seq", "sequential"), ("c10", "10 connections")):
            difference = _differences(results["queue"][level], results[COMPARED][level])
            print(f"queue p50 minus compared p50 ({label}): {difference}")


def _differences(these: list[dict[str, float]], others: list[dict[str, float]]) -> str:
    """The median of the runs' p50 differences (each run's in brackets): paired, so that the load of the moment
    falls on both sides of each."""
    differences = [a["p50"] - b["p50"] for a, b in zip(these, others, strict=True)]
    each = ", ".join(f"{d:.2f}" for d in differences)
    return f"{statistics.median(differences):.2f} ms ({each})"


def report_throughput(args: argparse.Namespace, results: dict[int, list[dict[str, float]]]) -> None:
    print(
        f"\n2. Throughput: Webhook (last node) -> HTTP Request (stub sleeps {args.stub_ms:g} ms) -> Set; "
        f"{args.requests} requests at {THROUGHPUT_CONNECTIONS} connections per run; workers --concurrency "
        f"{args.io_concurrency}; medians of {args.runs} runs"
    )
    print("| Workers | executions/s | speed-up vs 1 | p50 ms | p99 ms | CPU ms/execution | errors |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    base = statistics.median(r["rps"] for r in results[min(results)])
    for n, runs in results.items():
        speedup = statistics.median(r["rps"] for r in runs) / base
        errors = sum(int(r["errors"]) for r in runs)
        print(
            f"| {n} | {_median(runs, 'rps', '.1f')} | {speedup:.2f}x | {_median(runs, 'p50', '.0f')} "
            f"| {_median(runs, 'p99', '.0f')} | {_median(runs, 'cpu_ms', '.1f')} | {errors} |"
        )
    ceiling = args.io_concurrency * 1000 / args.stub_ms
    print(f"one worker's ceiling if only the stub counted: {ceiling:.0f} executions/s (goal: >= 3.5x with 4)")


def _exit(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="runs of each measurement; medians are reported (5)")
    parser.add_argument("--seconds", type=float, default=5, help="seconds per round-trip measurement (5)")
    parser.add_argument("--warmup", type=float, default=2, help="warm-up seconds per configuration (2)")
    parser.add_argument("--main-processes", type=int, default=1, help="uvicorn processes of each weft start (1)")
    parser.add_argument("--concurrency", type=int, default=10, help="the round trip's worker --concurrency (10)")
    parser.add_argument("--io-concurrency", type=int, default=2, help="each throughput worker's --concurrency (2)")
    parser.add_argument("--stub-ms", type=float, default=100, help="the stub's delay in ms (100)")
    parser.add_argument("--requests", type=int, default=400, help="requests per throughput run (400)")
    parser.add_argument("--worker-counts", default="1,2,4", help="workers per throughput cluster (1,2,4)")
    parser.add_argument(
        "--compare-src",
        help="also a queue-mode cluster running this source tree (its PYTHONPATH, e.g. a copy of src/ before a "
        "change), measured alongside the others and reported as 'compared'",
    )
    parser.add_argument("--only", choices=["round-trip", "throughput"], help="one of the two measurements")
    parser.add_argument("--serve-stub", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, _exit)  # the clusters' processes are stopped on the way out
    if args.serve_stub:
        serve_stub(args.serve_stub, args.stub_ms)
        return 0
    folder = Path(tempfile.mkdtemp(prefix="weft-bench-queue-"))
    print(f"the processes' logs are in {folder} (removed when the run succeeds)", file=sys.stderr)
    round_results = round_trip(args, folder) if args.only != "throughput" else None
    io_results = throughput(args, folder) if args.only != "round-trip" else None
    shutil.rmtree(folder, ignore_errors=True)
    print("$ " + " ".join(["bench/bench_queue.py", *sys.argv[1:]]))
    if round_results is not None:
        report_round_trip(args, round_results)
    if io_results is not None:
        report_throughput(args, io_results)
    load = os.getloadavg()
    print(f"\nload average after the run: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
