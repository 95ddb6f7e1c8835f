"""Micro-benchmarks of the expression sandbox; prints medians.

Run: ``.venv/bin/python bench/bench_expressions.py [repeats]``
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from weft.expressions import ExpressionContext, evaluate, run_code
from weft.workflow import Workflow

W3 = Path(__file__).resolve().parent / "workflows" / "w3_code_10k_set.json"
WORKFLOW = Workflow.from_json({"name": "bench", "nodes": [{"name": "Set", "type": "n8n-nodes-base.set"}]})
CODE = "const out = [];\nfor (let i = 0; i < 10000; i++) out.push({ json: { i, name: 'item' + i } });\nreturn out;"


def ctx_for(items: list[dict[str, object]]) -> ExpressionContext:
    return ExpressionContext(workflow=WORKFLOW, node_name="Set", connection_input=items)  # type: ignore[arg-type]


def set_10k() -> None:
    items = [{"json": {"i": i, "name": f"item{i}"}} for i in range(10000)]
    ctx = ctx_for(items)
    started = time.perf_counter()
    for i in range(10000):
        evaluate("={{ $json.i * 2 }}", ctx, i)
        evaluate("={{ $json.name.toUpperCase() }}", ctx, i)
    TIMES.setdefault("set: 2 expressions x 10,000 items", []).append(time.perf_counter() - started)


def chain_100() -> None:
    started = time.perf_counter()
    for n in range(100):
        evaluate("={{ ($json.counter ?? 0) + 1 }}", ctx_for([{"json": {"counter": n}}]), 0)
    TIMES.setdefault("chain: 100 node runs x 1 expression (new context each)", []).append(time.perf_counter() - started)


def fast_path_10k() -> None:
    items = [{"json": {"a": {"b": i}}} for i in range(10000)]
    ctx = ctx_for(items)
    started = time.perf_counter()
    for i in range(10000):
        evaluate("={{ $json.a.b }}", ctx, i)
    TIMES.setdefault("fast path: $json.a.b x 10,000", []).append(time.perf_counter() - started)


def code_10k() -> None:
    ctx = ctx_for([{"json": {}}])
    started = time.perf_counter()
    run_code(CODE, ctx)
    TIMES.setdefault("code: return 10,000 items", []).append(time.perf_counter() - started)


def w3_engine() -> None:
    from weft.engine import run_workflow

    workflow = json.loads(W3.read_text())
    started = time.perf_counter()
    run = asyncio.run(run_workflow(workflow))
    assert run["status"] == "success"
    TIMES.setdefault("w3 through the engine (Code 10k + Set 2 expr)", []).append(time.perf_counter() - started)


TIMES: dict[str, list[float]] = {}


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    benches: list[Callable[[], None]] = [set_10k, chain_100, fast_path_10k, code_10k]
    if W3.exists():
        benches.append(w3_engine)
    evaluate("={{ 1 }}", ctx_for([{"json": {}}]))  # load the runtime (about 0.25 s, once per thread)
    for bench in benches:
        bench()  # warm-up: its time is dropped below
        for _ in range(repeats):
            bench()
    for name, times in TIMES.items():
        print(f"{name:60s} median {statistics.median(times[1:]) * 1000:8.2f} ms  (n={len(times) - 1})")


if __name__ == "__main__":
    main()
