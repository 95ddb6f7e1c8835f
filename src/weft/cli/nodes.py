"""``weft nodes``: every n8n node type and whether Weft runs it (:mod:`weft.nodes.coverage`).

Prints one line a type: the state (native, declarative, missing), the type, its name and the versions Weft runs of
the ones n8n ships. ``--markdown`` prints the table of ``docs/node-coverage.md``, ``--json`` one object a type.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from typing import Any

STATES = ("native", "declarative", "missing")


def register(commands: Any) -> None:
    cmd = commands.add_parser("nodes", help="which n8n node types Weft runs", description=__doc__)
    cmd.add_argument("--state", choices=STATES, help="only the types in this state")
    shape = cmd.add_mutually_exclusive_group()
    shape.add_argument("--json", action="store_true", help="one JSON object a type, in a list")
    shape.add_argument("--markdown", action="store_true", help="the coverage table as Markdown")
    cmd.set_defaults(handler=nodes_command)


def nodes_command(args: argparse.Namespace) -> int:
    from weft.nodes.coverage import coverage, markdown_table, n8n_node_types
    from weft.nodes.registry import default_registry

    rows = coverage(default_registry())
    if args.markdown:
        print(markdown_table(rows, n8n_node_types()["n8nVersions"]), end="")
        return 0
    shown = [row for row in rows if args.state in (None, row.state)]
    if args.json:
        print(json.dumps([dataclasses.asdict(row) for row in shown], indent=2))
        return 0
    width = max((len(row.type) for row in shown), default=0)
    for row in shown:
        versions = ", ".join(f"{v:g}" for v in row.versions) or "-"
        print(f"{row.state:<11} {row.type:<{width}}  {row.display_name} ({versions})")
    counts = ", ".join(f"{sum(r.state == s for r in rows)} {s}" for s in STATES)
    print(f"{len(rows)} n8n node types: {counts} (docs/node-coverage.md)")
    return 0
