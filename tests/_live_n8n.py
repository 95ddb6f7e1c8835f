"""Starting a live ``n8n start`` for the recorders (``tests/*/_record_n8n*.py``), which keep what it answers as
golden files. Recording needs real n8n (installed by the n8n oracle, a tool outside this repository); the tests
themselves never start it."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import IO

import httpx


def start_n8n(anchor: str, env: dict[str, str], base: str, log: IO[str] | Path) -> subprocess.Popen[bytes]:
    """``n8n start`` from the install at ``anchor``, once ``base/healthz`` answers (and 3 s more, for its
    webhooks to register); its output goes to ``log``."""
    out = open(log, "w") if isinstance(log, Path) else log
    server = subprocess.Popen(
        [f"{anchor}/node_modules/.bin/n8n", "start"], env=env, stdout=out, stderr=subprocess.STDOUT
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                break
        except httpx.TransportError:
            pass
        time.sleep(1)
    time.sleep(3)
    return server
