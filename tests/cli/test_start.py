"""``weft start`` on a port another program holds: a message naming the port and WEFT_PORT, exit 2, no
traceback, and no "listening" line before it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_busy_port_is_reported_before_anything_listens(workers: str, tmp_path: Path) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {
            **os.environ,
            "WEFT_USER_FOLDER": str(tmp_path),
            "WEFT_HOST": "127.0.0.1",
            "WEFT_PORT": str(port),
            "WEFT_WORKERS": workers,
        }
        env.pop("WEFT_DATABASE_URL", None)
        command = [sys.executable, "-m", "weft", "start"]
        result = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "listening" not in result.stderr
    assert f"port {port} on 127.0.0.1 is already in use" in result.stderr
    assert f"WEFT_PORT={port + 1} weft start" in result.stderr
