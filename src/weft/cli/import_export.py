"""``weft import:workflow``, ``export:workflow`` and ``import:credentials``: against the instance's database,
whether or not the server runs (a running server picks up (de)activations within seconds)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from weft.cli._store import open_instance


def register(commands: Any) -> None:
    imp = commands.add_parser("import:workflow", help="import n8n workflow JSON into the database")
    imp.add_argument("--input", required=True, help="a workflow file, a file with an array, or a folder")
    imp.add_argument("--activate", action="store_true", help="activate the imported workflows")
    imp.add_argument("--separate", action="store_true", help="--input is a folder of workflow files (n8n's flag)")
    imp.set_defaults(handler=import_workflow_command)
    exp = commands.add_parser("export:workflow", help="export workflows as n8n JSON")
    exp.add_argument("--id", help="the workflow to export (default: all, as an array)")
    exp.add_argument("--all", action="store_true", help="export all workflows (the default)")
    exp.add_argument("--output", help="file to write (default: stdout)")
    exp.set_defaults(handler=export_workflow_command)
    cred = commands.add_parser("import:credentials", help="import n8n's decrypted credentials export")
    cred.add_argument("--input", required=True, help="JSON array of {id, name, type, data}")
    cred.set_defaults(handler=import_credentials_command)


def import_workflow_command(args: argparse.Namespace) -> int:
    from weft.errors import WeftError
    from weft.services.activation import activate_workflow
    from weft.services.import_export import import_workflow_file
    from weft.services.runner import WorkflowRunner

    opened = open_instance()
    if opened is None:
        return 2
    settings, store = opened
    try:
        imported = import_workflow_file(store.workflows, args.input)
        if args.activate:
            runner = WorkflowRunner(store, settings)
            try:
                imported = [activate_workflow(runner, w.id) for w in imported]
            finally:
                runner.close()
    except WeftError as exc:
        print(f"weft: {exc}", file=sys.stderr)
        return 2
    finally:
        store.close()
    for workflow in imported:
        state = "active" if workflow.active else "inactive"
        print(f"Imported workflow {workflow.id} {workflow.name!r} ({state})")
    return 0


def export_workflow_command(args: argparse.Namespace) -> int:
    from weft.errors import WeftError
    from weft.services.import_export import export_workflow
    from weft.workflow.jsjson import pretty_json

    opened = open_instance()
    if opened is None:
        return 2
    _, store = opened
    try:
        exported = export_workflow(store.workflows, args.id, args.output)
    except WeftError as exc:
        print(f"weft: {exc}", file=sys.stderr)
        return 2
    finally:
        store.close()
    if args.output is None:
        sys.stdout.write(pretty_json(exported) + "\n")
    else:
        count = len(exported) if isinstance(exported, list) else 1
        print(f"Exported {count} workflow{'s' if count != 1 else ''} to {args.output}", file=sys.stderr)
    return 0


def import_credentials_command(args: argparse.Namespace) -> int:
    from weft.errors import WeftError
    from weft.services.import_export import import_credentials_file

    opened = open_instance()
    if opened is None:
        return 2
    _, store = opened
    try:
        imported = import_credentials_file(store.credentials, args.input)
    except WeftError as exc:
        print(f"weft: {exc}", file=sys.stderr)
        return 2
    finally:
        store.close()
    for info in imported:
        print(f"Imported credential {info.id} {info.name!r} ({info.type})")
    return 0
