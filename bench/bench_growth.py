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
ratio well above 1 is growth worse than linear.

Beside Weft, n8n's figures: with ``--n8n PATH`` (an ``n8n`` executable) the same workflows run on real n8n, in a
temporary ``N8N_USER_FOLDER`` (``--n8n-home PREFIX``, removed at the end): ``n8n import:workflow``, then
``--n8n-repeat`` (3) runs of ``n8n execute --id ID --rawOutput``, each a fresh n8n process (n8n has no warm
in-process runner to call). The sub-workflow chain is one level workflow with a known id, published
(``n8n publish:workflow``: n8n 2.x calls only published sub-workflows), whose Execute Workflow node calls itself by
id (``source: database``), as Weft's level calls its own file. n8n's engine time is the execution's own
``stoppedAt - startedAt`` (its nodes' ``executionTime`` sum is within a few percent); its peak RSS is the summed RSS
of the n8n process and its task-runner children, polled from /proc every 20 ms, so it includes n8n's start-up.
Both are medians. Weft's times are warm (after one warm-up run in the process), n8n's are the first execution of a
fresh process: per-unit growth, a difference between sizes, cancels most of that constant. The ``x`` columns are
n8n / Weft. Without ``--n8n`` the n8n columns are constants measured earlier (``N8N_MEASURED``, with the date,
version and load). ``--n8n-node DIR`` puts a ``node`` first on n8n's PATH (n8n 2.41 needs Node 24). Usage::

    .venv/bin/python bench/bench_growth.py [--repeat 5] [--only chain|items|subworkflows]
        [--n8n ~/anchors/n8n/node_modules/.bin/n8n [--n8n-repeat 3] [--n8n-home PREFIX] [--n8n-node DIR]]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
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
import asyncio, json, statistics, sys, time
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

def high_water_kib():
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss over exec from the parent as it was at fork
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])

once()
warm_rss = high_water_kib()
times = [once() for _ in range(repeat)]
peak = high_water_kib()
ms = statistics.median(t[0] for t in times)
cpu = statistics.median(t[1] for t in times)
print(json.dumps({"ms": ms, "cpu": cpu, "cpu_min": min(t[1] for t in times), "peak_kib": peak, "warm_kib": warm_rss}))
"""

CHECKS = {
    "chain": "out[0]['json']['counter'] == {size}",
    "items": "len(out) == {size} and out[-1]['json']['double'] == 2 * ({size} - 1)",
    "subworkflows": "out[0]['json']['depth'] == {size}",
}


def build(shape: str, size: int, folder: Path) -> dict[str, Any]:
    if shape == "chain":
        return chain_workflow(size)
    if shape == "items":
        return items_workflow(size)
    return subworkflows_workflow(size, folder)


def measure(shape: str, size: int, repeat: int) -> dict[str, float]:
    """One fresh process: a warm-up run, then ``repeat`` runs; median ms, peak RSS and growth after warm-up."""
    with tempfile.TemporaryDirectory(prefix="weft-growth-") as folder:
        workflow = build(shape, size, Path(folder))
        payload = json.dumps([workflow, repeat, CHECKS[shape].format(size=size)])
        result = subprocess.run(
            [sys.executable, "-c", _CHILD], input=payload, capture_output=True, text=True, check=False
        )
    if result.returncode != 0:
        raise SystemExit(f"{shape} {size}: {result.stderr[-1500:]}")
    row: dict[str, float] = json.loads(result.stdout.strip().splitlines()[-1])
    return row


def main() -> None:
    args = _arguments()
    runner = N8nRunner(Path(args.n8n), args.n8n_node, args.n8n_home) if args.n8n else None
    print(
        f"python {sys.version.split()[0]}, Weft: medians of {args.repeat} runs per size, each size in a fresh process"
    )
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} cores)")
    if runner:
        print(f"n8n {runner.version()} ({args.n8n}): medians of {args.n8n_repeat} cold `n8n execute` runs per size")
    else:
        print(N8N_NOTE)
    print(
        f"{'shape':<13}{'size':>8}{'wall ms':>10}{'CPU ms':>10}{'peak MiB':>10}{'+MiB':>7}{'CPU us/unit':>13}"
        f"{'n8n ms':>10}{'x':>7}{'n8n MiB':>9}{'x':>6}"
    )
    try:
        for shape in SHAPES:
            if not args.only or shape == args.only:
                _shape(shape, args.repeat, runner, args.n8n_repeat)
    finally:
        if runner:
            runner.close()
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def _shape(shape: str, repeat: int, runner: N8nRunner | None, n8n_repeat: int) -> None:
    unit, sizes = SHAPES[shape]
    rows = [measure(shape, size, repeat) for size in sizes]
    theirs = [_n8n_row(runner, shape, size, n8n_repeat) for size in sizes]
    for size, row, their in zip(sizes, rows, theirs, strict=True):
        print(_row(shape, size, row, their))
        if runner and their:
            detail = f"fastest {their['ms_min']:.0f} ms, nodes' executionTime {their['nodes_ms']:.0f} ms"
            print(f"{'':>21}n8n: {detail}, whole `n8n execute` process {their['whole_s']:.1f} s")
    print(_growth(unit, sizes, rows))
    print(_n8n_growth(unit, sizes, rows, theirs))


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", choices=sorted(SHAPES))
    parser.add_argument("--n8n", metavar="PATH", help="an n8n executable: run the same workflows on it")
    parser.add_argument("--n8n-repeat", type=int, default=3)
    parser.add_argument("--n8n-node", metavar="DIR", help="put this directory (a `node`) first on n8n's PATH")
    parser.add_argument(
        "--n8n-home", metavar="PREFIX", help="n8n's temporary N8N_USER_FOLDER starts with this path (default: TMPDIR)"
    )
    return parser.parse_args()


def _row(shape: str, size: int, row: dict[str, float], their: dict[str, float] | None) -> str:
    grown = (row["peak_kib"] - row["warm_kib"]) / 1024
    line = (
        f"{shape:<13}{size:>8,}{row['ms']:>10.1f}{row['cpu']:>10.1f}{row['peak_kib'] / 1024:>10.1f}"
        f"{grown:>7.1f}{row['cpu'] * 1000 / size:>13.1f}"
    )
    if their is None:
        return line + f"{'-':>10}{'':>7}{'-':>9}"
    mib = their["peak_kib"] / 1024
    return (
        line + f"{their['ms']:>10.0f}{their['ms'] / row['ms']:>6.1f}x{mib:>9.0f}{mib * 1024 / row['peak_kib']:>5.1f}x"
    )


def _n8n_row(runner: N8nRunner | None, shape: str, size: int, repeat: int) -> dict[str, float] | None:
    if runner is None:
        measured = N8N_MEASURED.get((shape, size))
        if measured is None:
            return None
        return {"ms": measured[0], "ms_min": measured[1], "peak_kib": measured[2] * 1024}
    try:
        return runner.measure(shape, size, repeat)
    except N8nFailedError as failed:
        last = [line for line in str(failed).splitlines() if line.strip()][-1:]
        print(f"n8n could not run {shape} {size:,}: {' '.join(last)}")
        return None


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


# n8n 2.8.4 (Node 20), measured with `--n8n ~/anchors/n8n/node_modules/.bin/n8n` on 2026-12-04 13:42-13:48 UTC on
# the shared 2-core machine (load average 1.9 at the start, 6.0 at the end): (shape, size) -> (median engine ms of
# 3 cold runs, fastest engine ms, median peak MiB of the n8n process tree).
N8N_MEASURED: dict[tuple[str, int], tuple[float, float, float]] = {
    ("chain", 100): (339, 339, 406),
    ("chain", 500): (939, 933, 447),
    ("chain", 1000): (2377, 2051, 457),
    ("items", 10_000): (3058, 3056, 494),
    ("items", 50_000): (8770, 8362, 759),
    ("items", 100_000): (22323, 16954, 969),
    ("subworkflows", 10): (1028, 920, 447),
    ("subworkflows", 30): (1082, 928, 449),
    ("subworkflows", 50): (1719, 1393, 450),
}
N8N_NOTE = "n8n: constants (N8N_MEASURED: n8n 2.8.4, 2026-12-04, load 1.9-6.0); pass --n8n PATH to run n8n here"


def n8n_workflows(shape: str, size: int, folder: Path) -> tuple[str, list[dict[str, Any]]]:
    """The same workflow for n8n, with its id (and for sub-workflows the level first, calling itself by id)."""
    wid = f"growth{shape[:4]}{size:06d}"
    workflow = {**build(shape, size, folder), "id": wid, "active": False}
    if shape != "subworkflows":
        return wid, [workflow]
    level_id = f"growthlevl{size:06d}"
    level = {**level_workflow(folder / "level.json", size), "id": level_id, "name": f"level of {size}", "active": False}
    for node in (*workflow["nodes"], *level["nodes"]):
        if node["type"] == "n8n-nodes-base.executeWorkflow":
            reference = {"__rl": True, "value": level_id, "mode": "id"}
            node["parameters"] = {"source": "database", "workflowId": reference, "mode": "once", "options": {}}
    return wid, [level, workflow]


class N8nFailedError(Exception):
    """n8n could not run one size (printed, and its columns left empty)."""


class N8nRunner:
    """Runs workflows on a real n8n: `import:workflow`, then cold `n8n execute --id ID --rawOutput` runs."""

    def __init__(self, binary: Path, node_dir: str | None, home: str | None) -> None:
        self.binary = str(binary)
        prefix = Path(home or Path(tempfile.gettempdir()) / "weft-growth-n8n-")
        self.home = tempfile.mkdtemp(prefix=prefix.name, dir=prefix.parent)
        self.env = {**os.environ, "N8N_USER_FOLDER": self.home, **_N8N_QUIET}
        if node_dir:
            self.env["PATH"] = node_dir + os.pathsep + self.env.get("PATH", "")
        modules = Path(os.path.realpath(self.binary)).parent.parent / "dist" / "modules" / "mcp-registry"
        if modules.is_dir():  # newer n8n fetches api.n8n.io at start from this module
            self.env["N8N_DISABLED_MODULES"] = "mcp-registry"

    def version(self) -> str:
        result = self._run("--version")
        return result.stdout.strip().splitlines()[-1]

    def close(self) -> None:
        shutil.rmtree(self.home, ignore_errors=True)

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        env = {**self.env, "N8N_PORT": str(_free_port()), "N8N_RUNNERS_BROKER_PORT": str(_free_port())}
        return subprocess.run([self.binary, *args], env=env, capture_output=True, text=True, check=False)

    def measure(self, shape: str, size: int, repeat: int) -> dict[str, float]:
        """Imports the workflow(s), then ``repeat`` runs: median engine ms, peak RSS of the process tree."""
        with tempfile.TemporaryDirectory(prefix="weft-growth-") as folder:
            wid, workflows = n8n_workflows(shape, size, Path(folder))
            path = Path(folder) / "import.json"
            path.write_text(json.dumps(workflows))
            imported = self._run("import:workflow", f"--input={path}")
            if imported.returncode != 0:
                raise N8nFailedError(f"n8n import {shape} {size}: {imported.stdout[-800:]}{imported.stderr[-800:]}")
            for child in workflows[:-1]:  # n8n 2.x calls only a published sub-workflow
                published = self._run("publish:workflow", f"--id={child['id']}")
                if published.returncode != 0:
                    raise N8nFailedError(
                        f"n8n publish {child['id']}: {published.stdout[-800:]}{published.stderr[-800:]}"
                    )
            runs = [self._execute(wid, shape, size, Path(folder)) for _ in range(repeat)]
        row = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
        return {**row, "ms_min": min(run["ms"] for run in runs)}

    def _execute(self, wid: str, shape: str, size: int, folder: Path) -> dict[str, float]:
        env = {**self.env, "N8N_PORT": str(_free_port()), "N8N_RUNNERS_BROKER_PORT": str(_free_port())}
        out = folder / "out.json"
        started = time.perf_counter()
        with out.open("w") as sink:
            process = subprocess.Popen(
                [self.binary, "execute", f"--id={wid}", "--rawOutput"], env=env, stdout=sink, stderr=subprocess.STDOUT
            )
            peak = _peak_tree_kib(process)
        whole = time.perf_counter() - started
        run = _first_object(out.read_text())
        if process.returncode != 0 or run.get("status") != "success":
            raise N8nFailedError(f"n8n {shape} {size}: exit {process.returncode}: {out.read_text()[-1500:]}")
        result = run["data"]["resultData"]
        out_items = result["runData"][result["lastNodeExecuted"]][-1]["data"]["main"][0]
        check = CHECKS[shape].format(size=size)
        if not eval(check, {"out": out_items}):
            raise N8nFailedError(f"n8n {shape} {size}: {check} is false for {out_items[:1]}")
        engine = _iso(run["stoppedAt"]) - _iso(run["startedAt"])
        nodes = sum(task["executionTime"] for tasks in result["runData"].values() for task in tasks)
        return {"ms": engine * 1000, "nodes_ms": nodes, "whole_s": whole, "peak_kib": peak}


_N8N_QUIET = {
    "N8N_DIAGNOSTICS_ENABLED": "false",
    "N8N_VERSION_NOTIFICATIONS_ENABLED": "false",
    "N8N_TEMPLATES_ENABLED": "false",
    "N8N_PERSONALIZATION_ENABLED": "false",
    "N8N_LISTEN_ADDRESS": "127.0.0.1",
    "N8N_COMMUNITY_PACKAGES_ENABLED": "false",
    "N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS": "false",
}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _iso(stamp: str) -> float:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def _first_object(text: str) -> dict[str, Any]:
    """The IRun JSON that `--rawOutput` prints (after any log lines)."""
    decoder = json.JSONDecoder()
    offset = 0
    for line in text.splitlines(keepends=True):
        if line.startswith("{"):
            found, _ = decoder.raw_decode(text[offset:])
            if isinstance(found, dict):
                return found
        offset += len(line)
    raise N8nFailedError(f"n8n printed no JSON: {text[-1500:]}")


def _peak_tree_kib(process: subprocess.Popen[bytes]) -> float:
    """Polls /proc every 20 ms until ``process`` ends: the peak of the summed RSS of it and its descendants (n8n's
    task runners are child processes)."""
    peak = 0
    while process.poll() is None:
        peak = max(peak, _tree_rss_kib(process.pid))
        time.sleep(0.02)
    return peak


def _tree_rss_kib(root: int) -> int:
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
        except (OSError, ValueError):
            continue
        parents[int(entry.name)] = int(fields[1])
        rss[int(entry.name)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE") // 1024
    tree = {root}
    for _ in range(4):  # n8n -> task runner launcher -> runner: a few levels deep at most
        tree |= {pid for pid, parent in parents.items() if parent in tree}
    return sum(rss.get(pid, 0) for pid in tree)


def _n8n_growth(
    unit: str, sizes: tuple[int, ...], rows: list[dict[str, float]], theirs: list[dict[str, float] | None]
) -> str:
    """n8n's engine wall us (median, and fastest run) and peak-RSS KiB added per unit between consecutive sizes
    that n8n ran, beside Weft's wall us and KiB; the ratio of n8n's two steps (fastest runs)."""
    parts, fastest = [], []
    for index in range(len(sizes) - 1):
        pair = theirs[index : index + 2]
        if pair[0] is None or pair[1] is None:
            parts.append(f"{sizes[index]:,}->{sizes[index + 1]:,}: not measured")
            continue
        known = [pair[0], pair[1]]
        units = sizes[index + 1] - sizes[index]
        fastest.append(_per(known, 0, units, "ms_min", 1000))
        parts.append(
            f"{sizes[index]:,}->{sizes[index + 1]:,}: {_per(known, 0, units, 'ms', 1000):.0f} us"
            f" (fastest {fastest[-1]:.0f}) vs Weft {_per(rows, index, units, 'ms', 1000):.1f} us,"
            f" {_per(known, 0, units, 'peak_kib', 1):.1f} KiB vs Weft {_per(rows, index, units, 'peak_kib', 1):.1f}"
        )
    ratio = f"; n8n ratio {fastest[1] / fastest[0]:.2f}" if len(fastest) == 2 and fastest[0] > 0 else ""
    return f"  n8n per {unit} (engine wall): " + "; ".join(parts) + ratio


def _per(rows: list[dict[str, float]], index: int, units: int, key: str, scale: float) -> float:
    return (rows[index + 1][key] - rows[index][key]) * scale / units


if __name__ == "__main__":
    main()
