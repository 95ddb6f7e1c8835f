"""Engine benchmarks: W2 (100 Set nodes in a chain) and W3 (Code emits 10,000 items, then Set with 2 expressions).

Prints medians beside the targets of DESIGN.md §7: engine time in process, and ``weft execute --file --json`` as a
whole process (wall time and its own peak RSS) against a user folder whose database exists (the common case; the
first run, which creates and migrates the database, is printed apart). Also the first expression of a fresh
process (the sandbox's start-up) and the first one that needs Luxon. Usage::

    .venv/bin/python bench/bench_engine.py [--repeat N] [--workflows bench/workflows]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_WORKFLOWS = ROOT / "bench" / "workflows"


def _engine_times(path: Path, repeat: int) -> tuple[list[float], dict[str, float]]:
    from weft.engine import Execution
    from weft.nodes.registry import default_registry
    from weft.workflow import Workflow, load_workflow

    registry = default_registry()
    model = load_workflow(path)
    totals: list[float] = []
    per_node: dict[str, list[float]] = {}
    for _ in range(repeat):
        execution = Execution(Workflow(model), registry=registry)
        started = time.perf_counter()
        run = asyncio.run(execution.run())
        totals.append((time.perf_counter() - started) * 1000)
        assert run["status"] == "success", run["data"]["resultData"].get("error")
        for name, tasks in run["data"]["resultData"]["runData"].items():
            per_node.setdefault(name, []).append(sum(t.get("executionTime", 0) for t in tasks))
    return totals, {name: statistics.median(v) for name, v in per_node.items()}


def _process_run(path: Path, env: dict[str, str]) -> tuple[float, float]:
    """One ``weft execute --file path --json``: wall ms and the process's own peak RSS (MiB)."""
    weft = ROOT / ".venv" / "bin" / "weft"
    command = [str(weft), "execute", "--file", str(path), "--json"]
    with tempfile.TemporaryFile() as stderr:
        started = time.perf_counter()
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=stderr)
        _, status, usage = os.wait4(process.pid, 0)  # the child's own rusage: its peak RSS
        wall = (time.perf_counter() - started) * 1000
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            stderr.seek(0)
            raise SystemExit(f"weft execute failed: {stderr.read().decode()[-500:]}")
    return wall, usage.ru_maxrss / 1024


def _process_times(path: Path, repeat: int) -> tuple[float, list[float], list[float]]:
    """The first run in a fresh user folder (creates the database), then ``repeat`` runs against it."""
    folder = tempfile.mkdtemp(prefix="weft-bench-")
    env = {**os.environ, "WEFT_USER_FOLDER": folder}
    env.pop("WEFT_DATABASE_URL", None)
    try:
        first, _ = _process_run(path, env)
        runs = [_process_run(path, env) for _ in range(repeat)]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return first, [wall for wall, _ in runs], [rss for _, rss in runs]


_FIRST_EXPRESSION = """
import time
from weft.expressions.context import ExpressionLimits
from weft.expressions.runtime import get_runtime
t = time.perf_counter()
runtime = get_runtime(ExpressionLimits())
runtime.function("(function(){return 1+1})")()
t1 = time.perf_counter()
runtime.function("(function(){return DateTime.now().toISO()})")()
print((t1 - t) * 1000, (time.perf_counter() - t1) * 1000)
"""


def _first_expression(repeat: int) -> tuple[float, float]:
    """Milliseconds of a fresh process's first expression, then of its first expression that uses Luxon."""
    rows = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", _FIRST_EXPRESSION], capture_output=True, text=True, check=True)
        rows.append([float(v) for v in out.stdout.split()])
    return statistics.median(r[0] for r in rows), statistics.median(r[1] for r in rows)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--workflows", type=Path, default=DEFAULT_WORKFLOWS)
    args = parser.parse_args()
    w2, w3 = args.workflows / "w2_chain_100_set.json", args.workflows / "w3_code_10k_set.json"
    runs = max(3, args.repeat // 3)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, medians of {args.repeat} runs ({runs} processes)")

    totals, _ = _engine_times(w2, args.repeat)
    print(f"W2 engine time (100 Set nodes)       {statistics.median(totals):8.2f} ms   target <= 15 ms   (n8n 89 ms)")
    first, walls, rss = _process_times(w2, runs)
    print(f"W2 whole `weft execute --json`       {statistics.median(walls):8.1f} ms   target <= 500 ms  (n8n 2.0 s)")
    print(f"W2 peak RSS of that process          {statistics.median(rss):8.1f} MiB                   (n8n 330-356 MiB)")
    print(f"W2 first run (creates the database)  {first:8.1f} ms")

    totals, nodes = _engine_times(w3, runs)
    print(f"W3 engine time (Code 10k + Set)      {statistics.median(totals):8.1f} ms")
    print(f"W3 Code node (10,000 items)          {nodes.get('Code', 0):8.1f} ms   target <= 100 ms  (n8n 675 ms)")
    print(
        f"W3 Set node (2 expressions x 10,000) {nodes.get('Edit Fields', 0):8.1f} ms   target <= 200 ms  (n8n 1,140 ms)"
    )
    _, walls, rss = _process_times(w3, 3)
    print(
        f"W3 whole process / peak RSS          {statistics.median(walls):8.1f} ms / {statistics.median(rss):.1f} MiB"
        "   (n8n 3.8-4.2 s)"
    )

    plain, luxon = _first_expression(runs)
    print(f"First expression of a process        {plain:8.1f} ms   (the sandbox's start-up)")
    print(f"Then the first one using DateTime    {luxon:8.1f} ms   (loads Luxon and the Intl polyfill if not yet)")


if __name__ == "__main__":
    main()
