"""``weft export:credentials``: n8n's command, flags, messages and JSON (encrypted unless ``--decrypted``).

Without ``--output`` the JSON goes to stdout; the count and n8n's messages go to stderr. Files are written 0600.
Where n8n logs a usage error and exits 0, Weft exits 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from weft.cli._store import open_instance


def register(commands: Any) -> None:
    cmd = commands.add_parser("export:credentials", help="export credentials as n8n JSON", description=__doc__)
    cmd.add_argument("--all", action="store_true", help="export all credentials")
    cmd.add_argument("--id", help="the credential to export")
    cmd.add_argument("--output", "-o", help="file to write, or folder with --separate (default: stdout)")
    cmd.add_argument("--pretty", action="store_true", help="indent the JSON")
    cmd.add_argument("--separate", action="store_true", help="one file per credential in the --output folder")
    cmd.add_argument("--backup", action="store_true", help="sets --all --pretty --separate; --output is the folder")
    cmd.add_argument(
        "--decrypted",
        action="store_true",
        help="export the data in plain text (ALL SENSITIVE INFORMATION WILL BE VISIBLE), to move credentials to an "
        "instance with another encryption key",
    )
    cmd.set_defaults(handler=export_credentials_command)


def export_credentials_command(args: argparse.Namespace) -> int:
    if args.backup:
        args.all = args.pretty = args.separate = True
    problem = _usage_problem(args)
    if problem:
        print(problem, file=sys.stderr)
        return 2
    if args.separate:
        try:
            Path(args.output).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"weft: cannot create the output folder {args.output!r}: {exc.strerror}", file=sys.stderr)
            return 2
    return _export(args)


def _usage_problem(args: argparse.Namespace) -> str | None:
    if not args.all and not args.id:
        return 'Either option "--all" or "--id" have to be set!'
    if args.all and args.id:
        return 'You should either use "--all" or "--id" but never both!'
    if args.separate:
        if not args.output:
            return "You must inform an output directory via --output when using --separate"
        if Path(args.output).exists() and not Path(args.output).is_dir():
            return "The parameter --output must be a directory"
    elif args.output and Path(args.output).is_dir():
        return "The parameter --output must be a writeable file"
    return None


def _export(args: argparse.Namespace) -> int:
    from weft.errors import WeftError
    from weft.services.credential_export import credentials_json, export_credentials, write_private, write_separate

    opened = open_instance()
    if opened is None:
        return 2
    settings, store = opened
    try:
        credentials = export_credentials(store, settings, args.id, decrypted=args.decrypted)
        if args.separate:
            count = write_separate(credentials, args.output, pretty=args.pretty)
        elif args.output:
            write_private(args.output, credentials_json(credentials, pretty=args.pretty))
            count = len(credentials)
        else:
            sys.stdout.write(credentials_json(credentials, pretty=args.pretty) + "\n")
            return 0
    except WeftError as exc:
        print(f"weft: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"weft: cannot write {exc.filename!r}: {exc.strerror}", file=sys.stderr)
        return 1
    finally:
        store.close()
    print(f"Successfully exported {count} credentials.", file=sys.stderr)
    return 0
