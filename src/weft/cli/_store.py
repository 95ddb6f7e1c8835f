"""Opening the instance's database for a CLI command."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from weft.db.store import Store
    from weft.settings import Settings


def open_instance() -> tuple[Settings, Store] | None:
    """The instance's settings and store (migrated to the newest schema); ``None`` after printing why it cannot
    be opened, so the command exits with 2."""
    from weft.errors import WeftError
    from weft.services.import_export import open_store
    from weft.settings import Settings

    try:
        settings = Settings.from_env()
        return settings, open_store(settings)
    except WeftError as exc:
        print(f"weft: {exc}", file=sys.stderr)
        return None
