"""``weft audit``: n8n's security audit report of this instance (:mod:`weft.services.audit`).

Prints the report as indented JSON on stdout, or ``No security issues found`` when no category found anything.
The ``instance`` category always reports the security settings, as n8n's does; leave it out to see only issues.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from weft.cli._store import open_instance


def register(commands: Any) -> None:
    cmd = commands.add_parser("audit", help="security audit report of this instance", description=__doc__)
    cmd.add_argument(
        "--categories",
        help="comma-separated categories to include (default: credentials,database,nodes,instance,filesystem)",
    )
    cmd.add_argument(
        "--days-abandoned-workflow",
        type=int,
        help="days for a workflow to be considered abandoned if not executed (default 90)",
    )
    cmd.set_defaults(handler=audit_command)


def audit_command(args: argparse.Namespace) -> int:
    from weft.errors import WeftError
    from weft.services.audit import DAYS_ABANDONED_WORKFLOW, generate_audit, parse_categories
    from weft.workflow.jsjson import pretty_json

    try:
        categories = parse_categories(args.categories)
    except WeftError as exc:
        print(f"weft: {exc}", file=sys.stderr)
        return 2
    opened = open_instance()
    if opened is None:
        return 2
    settings, store = opened
    try:
        days = args.days_abandoned_workflow or DAYS_ABANDONED_WORKFLOW  # n8n: 0 takes the default too
        report = generate_audit(store, settings, categories, days)
    except WeftError as exc:
        print(f"weft: {exc}", file=sys.stderr)
        return 1
    finally:
        store.close()
    if report == []:
        print("No security issues found")
    else:
        sys.stdout.write(pretty_json(report) + "\n")
    return 0
