"""``weft execute --file wf.json | --id ID [--json]``: run a workflow once and report it."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any


def register(commands: Any) -> None:
    cmd = commands.add_parser("execute", help="run a workflow file or a stored workflow once", description=__doc__)
    source = cmd.add_mutually_exclusive_group(required=True)
    source.add_argument("--file", help="n8n workflow JSON file")
    source.add_argument("--id", help="a workflow stored in the instance's database (n8n's flag)")
    cmd.add_argument("--json", action="store_true", help="print exactly n8n's IRun JSON on stdout and nothing else")
    cmd.add_argument("--rawOutput", action="store_true", help="n8n's name for --json")
    cmd.add_argument("--start-node", help="node to start from (default: the workflow's trigger)")
    cmd.set_defaults(handler=run_command)


def run_command(args: argparse.Namespace) -> int:
    from weft.cli._sources import LoadError, load_file, load_stored, start_node
    from weft.engine import gc_policy
    from weft.expressions import prepare_sandbox
    from weft.nodes.registry import default_registry
    from weft.workflow.jsjson import pretty_json

    prepare_sandbox()  # built in the background while the workflow and the database load
    registry = default_registry()
    try:
        prepared = load_file(args.file, registry) if args.file is not None else load_stored(args.id, registry)
        where = args.file if args.file is not None else f"workflow {args.id!r}"
        start = start_node(prepared.workflow, registry, args.start_node, where=where)
    except LoadError as exc:
        print(f"weft: {exc}", file=sys.stderr)
        return 2
    gc_policy.settle()  # what is loaded stays; the run's garbage is mostly freed by reference counting
    run = asyncio.run(_run(prepared, registry, start))
    if args.json or args.rawOutput:
        sys.stdout.write(pretty_json(run) + "\n")
    else:
        print(format_summary(run))
    return 1 if run["status"] in ("error", "canceled", "crashed") else 0


async def _run(prepared: Any, registry: Any, start_node: str | None) -> Any:
    """Run as a stored execution (mode ``cli``) in the instance's database; in-process only if it cannot open."""
    from weft.errors import WeftError
    from weft.services.runner import WorkflowRunner
    from weft.settings import Settings

    try:
        # no store given: the runner opens it only if a node needs it (credentials, sub-workflows, memory)
        runner = WorkflowRunner(None, Settings.from_env(), registry, inline_db=True)
    except (WeftError, OSError, ImportError) as exc:
        print(f"weft: the execution is not recorded: cannot open the database ({exc})", file=sys.stderr)
        return await _run_in_process(prepared.workflow, registry, start_node)
    try:
        result = await runner.run(prepared, mode="cli", start_node=start_node)
        await runner.drain()
    finally:
        runner.close()
    return result.run


async def _run_in_process(workflow: Any, registry: Any, start_node: str | None) -> Any:
    from weft.engine import Execution
    from weft.engine.services import LocalServices

    execution = Execution(workflow, registry=registry, mode="cli", services=LocalServices(registry=registry))
    return await execution.run(start_node=start_node)


def format_summary(run: Any) -> str:
    """One line per node run, in execution order, then the outcome and the last node's output."""
    rows = []
    for name, tasks in run["data"]["resultData"]["runData"].items():
        for index, task in enumerate(tasks):
            outputs: list[Any] = next(iter((task.get("data") or {}).values()), [])
            counts = "/".join(str(len(items or [])) for items in outputs) or "0"
            status = task.get("executionStatus", "?")
            time_ms = task.get("executionTime", 0)
            row = f"  {name}  run {index}  {status:<8} items out {counts}  {time_ms} ms"
            rows.append((task.get("executionIndex", 0), row))
    lines = [row for _, row in sorted(rows)]
    result = run["data"]["resultData"]
    last = result.get("lastNodeExecuted")
    lines.append(f"Execution {run['status']}" + (f" at node {last!r}" if last else ""))
    if result.get("error"):
        error = result["error"]
        lines.append(f"Error: {error.get('message')}")
        if error.get("description"):  # where and why, e.g. an expression's syntax problem and its parameter
            lines.append(f"  {error['description']}")
    if run["status"] == "waiting":
        lines.append(f"Waiting until {run.get('waitTill')}: resume it through the server ('weft start').")
    elif run["status"] == "success" and last:
        lines.extend(_last_output(result["runData"][last][-1], last))
    return "\n".join(lines)


def _last_output(task: Any, name: str, limit: int = 3) -> list[str]:
    """The first items of the last node's first output, one JSON line each."""
    items = ((task.get("data") or {}).get("main") or [[]])[0] or []
    lines = [f"Output of {name!r} ({len(items)} item{'s' if len(items) != 1 else ''}):"]
    for item in items[:limit]:
        text = json.dumps(item.get("json"), ensure_ascii=False)
        lines.append("  " + (text if len(text) <= 300 else text[:297] + "..."))
    if len(items) > limit:
        lines.append(f"  … {len(items) - limit} more")
    return lines
