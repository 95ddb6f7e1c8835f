"""The ``weft`` command line (L8): a composition root. Commands mirror n8n's where they can."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from weft.cli import audit as _audit
from weft.cli import execute as _execute
from weft.cli import export_credentials as _export_credentials
from weft.cli import import_export as _import_export
from weft.cli import nodes as _nodes
from weft.cli import queue as _queue
from weft.cli import start as _start
from weft.cli import users as _users
from weft.cli import workflows as _workflows

Command = Callable[[argparse.Namespace], int]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="weft", description="Run n8n workflows in Python.")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    _execute.register(commands)
    _start.register(commands)
    _import_export.register(commands)
    _export_credentials.register(commands)
    _workflows.register(commands)
    _audit.register(commands)
    _nodes.register(commands)
    _users.register(commands)
    _queue.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.version:
        from weft import __version__

        print(__version__)
        return 0
    handler: Command | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    if not _offer_demo_nodes():
        return 2
    return handler(args)


def _offer_demo_nodes() -> bool:
    """Offer the demo models to every command when ``WEFT_DEMO_NODES`` is on; ``False`` (reported) when it is not a
    boolean."""
    from weft.errors import ConfigurationError
    from weft.settings import demo_nodes_from_env

    try:
        wanted = demo_nodes_from_env()
    except ConfigurationError as exc:
        print(f"weft: {exc}", file=sys.stderr)
        return False
    if wanted:
        from weft.nodes.registry import allow_demo_nodes

        allow_demo_nodes()
    return True


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
