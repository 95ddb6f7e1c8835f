"""Chromium driven by Selenium for the editor's browser tests (Debian's Chromium and ChromeDriver, as tests/hitl).

Without them, or without the built editor, the tests skip saying what is missing, except in CI (``CI=true``),
where they fail.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest

from weft.server.routes import editor

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1400,900",
)


def missing() -> str | None:
    """Why the browser tests cannot run here, or ``None``."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[dev]')"
    if not (shutil.which(CHROMIUM) and shutil.which(CHROMEDRIVER)):
        return f"Chromium or ChromeDriver is missing ({CHROMIUM}, {CHROMEDRIVER}): run scripts/install_browser.sh"
    if not (editor.DIST / "index.html").is_file():
        return "the editor is not built: run bash scripts/setup"
    return None


def skip_without_browser() -> None:
    """Skip the calling module when the browser or the build is missing (fail instead in CI)."""
    reason = missing()
    if reason is None:
        return
    if os.environ.get("CI") == "true":
        raise RuntimeError(reason)
    pytest.skip(reason, allow_module_level=True)


def chromium(downloads: str | None = None) -> Iterator[Any]:
    """A headless Chromium with its console log kept; quits and removes its profile afterwards."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    profile = tempfile.mkdtemp(prefix="weft-editor-chromium-")
    options.add_argument(f"--user-data-dir={profile}")
    if downloads:
        options.add_experimental_option("prefs", {"download.default_directory": downloads})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(20)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def console_errors(driver: Any) -> list[dict[str, Any]]:
    """The browser console's errors (a CSP violation is one) since the last call."""
    return [entry for entry in driver.get_log("browser") if entry["level"] in ("SEVERE", "ERROR")]
