"""Engine benchmarks: W2 (100 Set nodes in a chain) and W3 (Code emits 10,000 items, then Set with 2 expressions).

Prints medians beside the targets of DESIGN.md §7. Usage::

    .venv/bin/python bench/bench_engine.py [--repeat N] [--shared ../shared/bench]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_SHARED = ROOT.parent / "shared" / "bench"


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


def _process_times(path: Path, repeat: int) -> tuple[list[float], list[float]]:
    weft = ROOT / ".venv" / "bin" / "weft"
    walls, rss = [], []
    for _ in range(repeat):
        started = time.perf_counter()
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        out = subprocess.run([str(weft), "execute", "--file", str(path), "--json"], capture_output=True, check=False)
        walls.append((time.perf_counter() - started) * 1000)
        rss.append(max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024)
        if out.returncode != 0:
            raise SystemExit(f"weft execute failed: {out.stderr.decode()[-500:]}")
    return walls, rss


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    args = parser.parse_args()
    w2, w3 = args.shared / "w2_chain_100_set.json", args.shared / "w3_code_10k_set.json"
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, medians of {args.repeat} runs")

    totals, _ = _engine_times(w2, args.repeat)
    print(f"W2 engine time (100 Set nodes)       {statistics.median(totals):8.2f} ms   target <= 15 ms   (n8n 89 ms)")
    walls, rss = _process_times(w2, max(3, args.repeat // 3))
    print(f"W2 whole `weft execute --json`       {statistics.median(walls):8.1f} ms   target <= 500 ms  (n8n 2.0 s)")
    print(f"W2 peak RSS of that process          {max(rss):8.1f} MiB                   (n8n 330-356 MiB)")

    totals, nodes = _engine_times(w3, max(3, args.repeat // 3))
    print(f"W3 engine time (Code 10k + Set)      {statistics.median(totals):8.1f} ms")
    print(f"W3 Code node (10,000 items)          {nodes.get('Code', 0):8.1f} ms   target <= 100 ms  (n8n 675 ms)")
    print(f"W3 Set node (2 expressions x 10,000) {nodes.get('Edit Fields', 0):8.1f} ms   target <= 200 ms  "
          "(n8n 1,140 ms)")
    walls, rss = _process_times(w3, 3)
    print(f"W3 whole process / peak RSS          {statistics.median(walls):8.1f} ms / {max(rss):.1f} MiB")


if __name__ == "__main__":
    main()
