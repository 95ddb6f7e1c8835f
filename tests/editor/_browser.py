"""The browser of the editor's tests: :mod:`tests._browser`'s Chromium, and the built editor.

Without them the tests skip, saying what is missing, except in CI (``CI=true``), where they fail.
"""

from __future__ import annotations

from tests._browser import chromium, console_errors, missing_browser
from tests._browser import skip_without_browser as _skip

from weft.server.routes import editor


def missing() -> str | None:
    """Why the editor's browser tests cannot run here, or ``None``."""
    if not (editor.DIST / "index.html").is_file():
        return missing_browser() or "the editor is not built: run bash scripts/setup"
    return missing_browser()


def skip_without_browser() -> None:
    """Skip the calling module when the browser or the build is missing (fail instead in CI)."""
    _skip(missing())


__all__ = ["chromium", "console_errors", "missing", "skip_without_browser"]
