"""``weft execute --file wf.json [--json]``: run a workflow once and report it."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

from weft.errors import WorkflowDefinitionError


def register(commands: Any) -> None:
    cmd = commands.add_parser("execute", help="run a workflow file once", description=__doc__)
    cmd.add_argument("--file", required=True, help="n8n workflow JSON file")
    cmd.add_argument("--json", action="store_true", help="print exactly n8n's IRun JSON on stdout and nothing else")
    cmd.add_argument("--start-node", help="node to start from (default: the workflow's trigger)")
    cmd.set_defaults(handler=run_command)


def run_command(args: argparse.Namespace) -> int:
    from weft.nodes.registry import default_registry
    from weft.workflow import Workflow, load_workflow, validate_workflow

    registry = default_registry()
    try:
        model = load_workflow(args.file)
        validate_workflow(model, registry)
    except WorkflowDefinitionError as exc:
        print(f"weft: cannot load {args.file}: {exc}", file=sys.stderr)
        return 2
    run = asyncio.run(_run(Workflow(model), registry, args.start_node))
    if args.json:
        sys.stdout.write(json.dumps(run, indent=2, ensure_ascii=False) + "\n")
    else:
        print(format_summary(run))
    return 1 if run["status"] in ("error", "canceled", "crashed") else 0


async def _run(workflow: Any, registry: Any, start_node: str | None) -> Any:
    from weft.engine import Execution
    from weft.engine.services import LocalServices

    execution = Execution(workflow, registry=registry, mode="cli", services=LocalServices(registry=registry))
    return await execution.run(start_node=start_node)


def format_summary(run: Any) -> str:
    """One line per node run, in execution order, then the outcome."""
    rows = []
    for name, tasks in run["data"]["resultData"]["runData"].items():
        for index, task in enumerate(tasks):
            outputs = next(iter((task.get("data") or {}).values()), [])
            counts = "/".join(str(len(items or [])) for items in outputs) or "0"
            status = task.get("executionStatus", "?")
            rows.append((task.get("executionIndex", 0), f"  {name}  run {index}  {status:<8} items out {counts}  "
                                                        f"{task.get('executionTime', 0)} ms"))
    lines = [row for _, row in sorted(rows)]
    result = run["data"]["resultData"]
    lines.append(f"Execution {run['status']}" + (f" at node {result.get('lastNodeExecuted')!r}" if
                                                  result.get("lastNodeExecuted") else ""))
    if result.get("error"):
        lines.append(f"Error: {result['error'].get('message')}")
    if run["status"] == "waiting":
        lines.append(f"Waiting until {run.get('waitTill')}: resume it through the server ('weft start').")
    return "\n".join(lines)
