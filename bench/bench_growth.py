"""Cost growth: how engine time and peak memory grow with the size of a workflow, of its data and of its nesting.

Three shapes, each at three sizes, each size in a fresh process (so its peak RSS is its own):

* a chain of Set nodes (100, 500 and 1,000), each ``counter = ($json.counter ?? 0) + 1`` (W2's node);
* a Set node over many items (10,000, 50,000 and 100,000; a Code node makes them, as in W3): ``name`` and
  ``double`` from two expressions per item;
* a chain of sub-workflows (10, 30 and 50 deep): each level is Execute Workflow Trigger → Set → If → Execute
  Workflow of the same file (``localFile``), until the depth is reached (then No Operation).

For each size: the median engine time (wall, and CPU of the whole process: steadier on a busy machine) of
``--repeat`` runs in one process after one warm-up run (so the sandbox exists), the process's peak RSS and what it
grew by during the measured runs. Then the growth: the added CPU time and peak RSS per added node / item / level,
from the small size to the middle one and from the middle one to the large one. Linear growth adds the same per
unit both times (a ratio near 1, computed on each size's fastest run, which a busy machine disturbs least); a
ratio well above 1 is growth worse than linear. Weft only: the bench harness
has no n8n runner (``bench_engine.py`` prints n8n's W2/W3 figures as constants measured earlier). Usage::

    .venv/bin/python bench/bench_growth.py [--repeat 5] [--only chain|items|subworkflows]
"""

from __future__ import annotations

import argparse
import itertools
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

SHAPES: dict[str, tuple[str, tuple[int, int, int]]] = {
    "chain": ("node", (100, 500, 1000)),
    "items": ("item", (10_000, 50_000, 100_000)),
    "subworkflows": ("level", (10, 30, 50)),
}


def _node(name: str, type_: str, version: float, parameters: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": name,
        "name": name,
        "type": type_,
        "typeVersion": version,
        "position": [0, 0],
        "parameters": parameters,
    }


def _set(name: str, fields: dict[str, str]) -> dict[str, Any]:
    assignments = [
        {"id": f"{name}-{i}", "name": key, "value": value, "type": "number" if key != "name" else "string"}
        for i, (key, value) in enumerate(fields.items())
    ]
    parameters = {"assignments": {"assignments": assignments}, "includeOtherFields": True, "options": {}}
    return _node(name, "n8n-nodes-base.set", 3.4, parameters)


def _chain(nodes: list[dict[str, Any]], name: str) -> dict[str, Any]:
    connections = {
        a["name"]: {"main": [[{"node": b["name"], "type": "main", "index": 0}]]} for a, b in itertools.pairwise(nodes)
    }
    return {"name": name, "nodes": nodes, "connections": connections, "settings": {"executionOrder": "v1"}}


def chain_workflow(size: int) -> dict[str, Any]:
    trigger = _node("Manual Trigger", "n8n-nodes-base.manualTrigger", 1, {})
    sets = [_set(f"Set {i}", {"counter": "={{ ($json.counter ?? 0) + 1 }}"}) for i in range(1, size + 1)]
    return _chain([trigger, *sets], f"chain of {size} Set nodes")


def items_workflow(size: int) -> dict[str, Any]:
    trigger = _node("Manual Trigger", "n8n-nodes-base.manualTrigger", 1, {})
    code = f"const out = [];\nfor (let i = 0; i < {size}; i++) out.push({{json: {{id: i}}}});\nreturn out;"
    make = _node("Code", "n8n-nodes-base.code", 2, {"jsCode": code})
    fields = _set("Edit Fields", {"name": "=item {{ $json.id }}", "double": "={{ $json.id * 2 }}"})
    return _chain([trigger, make, fields], f"Set over {size} items")


def level_workflow(path: Path, depth: int) -> dict[str, Any]:
    """One level of the sub-workflow chain: adds one to ``depth`` and calls its own file until ``depth``."""
    trigger = _node("Start", "n8n-nodes-base.executeWorkflowTrigger", 1.1, {"inputSource": "passthrough"})
    step = _set("Deeper", {"depth": "={{ $json.depth + 1 }}"})
    condition = {
        "conditions": {
            "options": {"caseSensitive": True, "typeValidation": "strict", "version": 2},
            "combinator": "and",
            "conditions": [
                {
                    "id": "c",
                    "leftValue": "={{ $json.depth }}",
                    "rightValue": depth,
                    "operator": {"type": "number", "operation": "lt"},
                }
            ],
        },
        "options": {},
    }
    more = _node("More?", "n8n-nodes-base.if", 2.2, condition)
    call = _node(
        "Call",
        "n8n-nodes-base.executeWorkflow",
        1.2,
        {"source": "localFile", "workflowPath": str(path), "mode": "once", "options": {}},
    )
    done = _node("Done", "n8n-nodes-base.noOp", 1, {})
    workflow = _chain([trigger, step, more], "level")
    workflow["nodes"] += [call, done]
    workflow["connections"]["More?"] = {
        "main": [[{"node": "Call", "type": "main", "index": 0}], [{"node": "Done", "type": "main", "index": 0}]]
    }
    return workflow


def subworkflows_workflow(size: int, folder: Path) -> dict[str, Any]:
    level = folder / "level.json"
    level.write_text(json.dumps(level_workflow(level, size)))
    trigger = _node("Manual Trigger", "n8n-nodes-base.manualTrigger", 1, {})
    start = _set("Depth 0", {"depth": "={{ 0 }}"})
    call = _node(
        "Call",
        "n8n-nodes-base.executeWorkflow",
        1.2,
        {"source": "localFile", "workflowPath": str(level), "mode": "once", "options": {}},
    )
    return _chain([trigger, start, call], f"{size} nested sub-workflows")


_CHILD = r"""
import asyncio, json, resource, statistics, sys, time
from weft.engine import Execution
from weft.engine.options import EngineOptions
from weft.engine.services import LocalServices
from weft.nodes.files.access import UNRESTRICTED
from weft.nodes.registry import default_registry
from weft.workflow import Workflow, parse_workflow

workflow, repeat, check = json.loads(sys.stdin.read())
registry = default_registry()
options = EngineOptions(file_access=UNRESTRICTED)
model = parse_workflow(workflow)

def once():
    services = LocalServices(registry=registry, options=options, max_depth=100)
    execution = Execution(Workflow(model), registry=registry, services=services, options=options)
    started, cpu = time.perf_counter(), time.process_time()
    run = asyncio.run(execution.run())
    elapsed = (time.perf_counter() - started) * 1000, (time.process_time() - cpu) * 1000
    assert run["status"] == "success", run["data"]["resultData"].get("error")
    last = run["data"]["resultData"]["runData"][run["data"]["resultData"]["lastNodeExecuted"]][-1]
    out = last["data"]["main"][0]
    assert eval(check, {"out": out}), (check, out[:1])
    return elapsed

once()
warm_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
times = [once() for _ in range(repeat)]
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
ms = statistics.median(t[0] for t in times)
cpu = statistics.median(t[1] for t in times)
print(json.dumps({"ms": ms, "cpu": cpu, "cpu_min": min(t[1] for t in times), "peak_kib": peak, "warm_kib": warm_rss}))
"""

CHECKS = {
    "chain": "out[0]['json']['counter'] == {size}",
    "items": "len(out) == {size} and out[-1]['json']['double'] == 2 * ({size} - 1)",
    "subworkflows": "out[0]['json']['depth'] == {size}",
}


def measure(shape: str, size: int, repeat: int) -> dict[str, float]:
    """One fresh process: a warm-up run, then ``repeat`` runs; median ms, peak RSS and growth after warm-up."""
    with tempfile.TemporaryDirectory(prefix="weft-growth-") as folder:
        if shape == "chain":
            workflow = chain_workflow(size)
        elif shape == "items":
            workflow = items_workflow(size)
        else:
            workflow = subworkflows_workflow(size, Path(folder))
        payload = json.dumps([workflow, repeat, CHECKS[shape].format(size=size)])
        result = subprocess.run(
            [sys.executable, "-c", _CHILD], input=payload, capture_output=True, text=True, check=False
        )
    if result.returncode != 0:
        raise SystemExit(f"{shape} {size}: {result.stderr[-1500:]}")
    row: dict[str, float] = json.loads(result.stdout.strip().splitlines()[-1])
    return row


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", choices=sorted(SHAPES))
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, medians of {args.repeat} runs per size, each size in a fresh process")
    print(f"{'shape':<13}{'size':>8}{'wall ms':>10}{'CPU ms':>10}{'peak MiB':>10}{'+MiB':>7}{'CPU us/unit':>13}")
    for shape, (unit, sizes) in SHAPES.items():
        if args.only and shape != args.only:
            continue
        rows = [measure(shape, size, args.repeat) for size in sizes]
        for size, row in zip(sizes, rows, strict=True):
            grown = (row["peak_kib"] - row["warm_kib"]) / 1024
            print(
                f"{shape:<13}{size:>8,}{row['ms']:>10.1f}{row['cpu']:>10.1f}{row['peak_kib'] / 1024:>10.1f}"
                f"{grown:>7.1f}{row['cpu'] * 1000 / size:>13.1f}"
            )
        print(_growth(unit, sizes, rows))
    print("n8n: not run by this harness (it has no n8n runner); Weft only.")


def _growth(unit: str, sizes: tuple[int, ...], rows: list[dict[str, float]]) -> str:
    """The added CPU us (from the medians, and from the fastest runs, which a busy machine disturbs least) and RSS
    KiB per added unit between consecutive sizes, and the ratio of the two steps (on the fastest runs)."""
    steps = []
    for (a, ra), (b, rb) in itertools.pairwise(zip(sizes, rows, strict=True)):
        cpu = (rb["cpu"] - ra["cpu"]) * 1000 / (b - a)
        fastest = (rb["cpu_min"] - ra["cpu_min"]) * 1000 / (b - a)
        kib = (rb["peak_kib"] - ra["peak_kib"]) / (b - a)
        steps.append((f"{a:,}->{b:,}", cpu, fastest, kib))
    ratio = steps[1][2] / steps[0][2] if steps[0][2] > 0 else float("nan")
    parts = "; ".join(f"{name}: {cpu:.1f} us (fastest {fast:.1f}), {kib:.2f} KiB" for name, cpu, fast, kib in steps)
    verdict = "linear" if ratio < 1.5 else "WORSE THAN LINEAR"
    return f"  growth per {unit}: {parts}; ratio {ratio:.2f} ({verdict})"


if __name__ == "__main__":
    main()
