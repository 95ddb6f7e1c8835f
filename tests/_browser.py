"""A real browser for the tests of Weft's pages (the hosted chat, forms, the editor): Debian's Chromium driven by
Selenium through Debian's ChromeDriver (``scripts/install_browser.sh``, run by ``scripts/test`` in CI).

Without them the tests skip, saying what is missing, except in CI (``CI=true``), where they fail. Every test
checks :func:`console_errors`: an error in the browser console (a CSP violation is one) fails it.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
#: As the machine's probe starts it: headless, no sandbox (root), and no background requests to the closed network.
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


def missing_browser() -> str | None:
    """Why a browser test cannot run here, or ``None``."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[dev]')"
    if not (shutil.which(CHROMIUM) and shutil.which(CHROMEDRIVER)):
        return (
            f"Chromium or ChromeDriver is missing ({CHROMIUM}, {CHROMEDRIVER}): run scripts/install_browser.sh "
            "(apt-get install chromium chromium-driver)"
        )
    return None


def skip_without_browser(reason: str | None = None) -> None:
    """Skip the calling module when the browser (or what ``reason`` names) is missing; fail instead in CI."""
    reason = missing_browser() or reason
    if reason is None:
        return
    if os.environ.get("CI") == "true":  # CI installs them (scripts/test): a missing browser is a failure there
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
    profile = tempfile.mkdtemp(prefix="weft-chromium-")
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
    """The browser console's errors since the last call."""
    return [entry for entry in driver.get_log("browser") if entry["level"] in ("SEVERE", "ERROR")]


__all__ = ["chromium", "console_errors", "missing_browser", "skip_without_browser"]
