"""``weft list:workflow``, ``publish:workflow``, ``unpublish:workflow`` and the deprecated ``update:workflow``:
n8n 2's commands, flags and messages, against the instance's database whether or not the server runs.

n8n's informational lines go to stdout, its warnings and errors to stderr. Where n8n logs a usage error and
exits 0, Weft exits 2; a workflow that is missing or cannot be published exits 1. n8n asks to restart a running
instance; a running Weft server picks the change up within seconds.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from weft.cli._store import open_instance

_PICKED_UP = "A running Weft server picks the change up within seconds."


def register(commands: Any) -> None:
    listing = commands.add_parser("list:workflow", help="list workflows as 'id|name' lines")
    listing.add_argument("--active", help="true or false: only active (published) or inactive workflows")
    listing.add_argument("--onlyId", action="store_true", help="print the ids only, one per line")
    listing.set_defaults(handler=list_command)
    publish = commands.add_parser("publish:workflow", help="publish (activate) a workflow")
    publish.add_argument("--id", required=True, help="the workflow to publish")
    publish.add_argument("--versionId", help="the version to publish (Weft keeps only the current one)")
    publish.add_argument("--all", action="store_true", help="(deprecated) no longer supported, as in n8n 2")
    publish.set_defaults(handler=publish_command)
    unpublish = commands.add_parser("unpublish:workflow", help="unpublish (deactivate) one or all workflows")
    unpublish.add_argument("--id", help="the workflow to unpublish")
    unpublish.add_argument("--all", action="store_true", help="unpublish all workflows")
    unpublish.set_defaults(handler=unpublish_command)
    update = commands.add_parser(
        "update:workflow", help="[deprecated] use publish:workflow or unpublish:workflow instead"
    )
    update.add_argument("--active", help="true or false")
    update.add_argument("--all", action="store_true", help="operate on all workflows")
    update.add_argument("--id", help="the workflow to operate on")
    update.set_defaults(handler=update_command)


def _error(*lines: str) -> int:
    for line in lines:
        print(line, file=sys.stderr)
    return 2


def list_command(args: argparse.Namespace) -> int:
    if args.active is not None and args.active not in ("true", "false"):
        return _error("The --active flag has to be passed using true or false")
    opened = open_instance()
    if opened is None:
        return 2
    _, store = opened
    try:
        active = None if args.active is None else args.active == "true"
        workflows = store.workflows.list(active=active)
    finally:
        store.close()
    for workflow in workflows:
        print(workflow.id if args.onlyId else f"{workflow.id}|{workflow.name}")
    return 0


def publish_command(args: argparse.Namespace) -> int:
    if args.all:
        return _error(
            "The --all flag is no longer supported for workflow publishing.",
            "Please publish workflows individually using: publish:workflow --id=<workflow-id> "
            "[--versionId=<version-id>]",
        )
    if args.versionId:
        print(f"Publishing workflow with ID: {args.id}, version: {args.versionId}")
    else:
        print(f"Publishing workflow with ID: {args.id} (current version)")
    return _publish(args.id, args.versionId)


def _publish(workflow_id: str, version_id: str | None) -> int:
    from weft.errors import WeftError
    from weft.services.publishing import publish_workflow
    from weft.services.runner import WorkflowRunner

    opened = open_instance()
    if opened is None:
        return 2
    settings, store = opened
    try:
        runner = WorkflowRunner(store, settings)
        try:
            publish_workflow(runner, workflow_id, version_id)
        finally:
            runner.close()
    except WeftError as exc:
        print(f"weft: {exc}", file=sys.stderr)
        return 1
    finally:
        store.close()
    print(_PICKED_UP, file=sys.stderr)
    return 0


def unpublish_command(args: argparse.Namespace) -> int:
    if not args.all and not args.id:
        return _error('Either option "--all" or "--id" must be set.')
    if args.all and args.id:
        return _error('Cannot use both "--all" and "--id" flags together.')
    if args.id:
        print(f"Unpublishing workflow with ID: {args.id}")
    else:
        print("Unpublishing all workflows")
    code = _unpublish(args.id)
    if code == 0:
        print("Workflow unpublished successfully" if args.id else "All workflows unpublished successfully")
        print(_PICKED_UP, file=sys.stderr)
    return code


def _unpublish(workflow_id: str | None) -> int:
    from weft.errors import WeftError
    from weft.services.publishing import unpublish_all, unpublish_workflow

    opened = open_instance()
    if opened is None:
        return 2
    _, store = opened
    try:
        if workflow_id:
            unpublish_workflow(store, workflow_id)
        else:
            unpublish_all(store)
    except WeftError as exc:
        print(f"weft: {exc}", file=sys.stderr)
        return 1
    finally:
        store.close()
    return 0


def update_command(args: argparse.Namespace) -> int:
    """n8n 2's deprecated command: ``--active=true`` publishes one workflow, ``--active=false`` unpublishes."""
    print('⚠️  WARNING: The "update:workflow" command is deprecated.\n', file=sys.stderr)
    problem = _update_problem(args)
    if problem:
        return _error(*problem)
    if args.active == "true":
        print(f"Publishing workflow {args.id} with current version")
        print(f"Please use: publish:workflow --id={args.id}\n", file=sys.stderr)
        return _publish(args.id, None)
    print(f"Please use: unpublish:workflow {f'--id={args.id}' if args.id else '--all'}\n", file=sys.stderr)
    print(f"Deactivating workflow with ID: {args.id}" if args.id else "Deactivating all workflows")
    code = _unpublish(args.id)
    if code == 0:
        print(_PICKED_UP, file=sys.stderr)
    return code


def _update_problem(args: argparse.Namespace) -> tuple[str, ...]:
    if not args.all and not args.id:
        return ('Either option "--all" or "--id" have to be set!',)
    if args.all and args.id:
        return ('Either something else on top should be "--all" or "--id" can be set never both!',)
    if args.active is None:
        return ('No update flag like "--active=true" has been set!',)
    if args.active not in ("true", "false"):
        return ('Valid values for flag "--active" are only "false" or "true"!',)
    if args.all and args.active == "true":
        return (
            'Workflow publishing via "update:workflow --all" is no longer supported.',
            "Please publish workflows individually using: publish:workflow --id=<workflow-id>",
        )
    return ()
