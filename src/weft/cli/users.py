"""``weft user-management:reset``: remove the owner, every session and every API key (n8n's command).

Afterwards the REST API answers 401 until the owner is set up again with ``POST /rest/owner/setup``.
Workflows, executions and credentials are kept.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from weft.cli._store import open_instance


def register(commands: Any) -> None:
    cmd = commands.add_parser(
        "user-management:reset", help="reset the owner account, sessions and API keys", description=__doc__
    )
    cmd.set_defaults(handler=reset_command)


def reset_command(args: argparse.Namespace) -> int:
    opened = open_instance()
    if opened is None:
        return 2
    settings, store = opened
    try:
        store.users.reset()
    finally:
        store.close()
    print("Successfully reset the database to default user state.")
    print(
        f"Set up the owner again: POST {settings.base_url}rest/owner/setup "
        '{"email", "firstName", "lastName", "password"}',
        file=sys.stderr,
    )
    return 0
