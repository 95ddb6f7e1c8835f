"""The kernel layers of the Python sandbox alone (weft.sandbox_py._confine), as if the code had got past every
interpreter guard: a probe process confines itself exactly as a Python Code child does, then tries raw system
calls (through ``os``, ``socket`` and ``ctypes``) and reports what happened."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest

import weft.sandbox_py

PROBE = r"""
import ctypes, json, os, socket, sys
sys.path.insert(0, sys.argv[1])
import _confine
task = json.loads(sys.argv[2])
report = {"layers": _confine.confine(task)}

def attempt(name, fn):
    try:
        report[name] = ["ok", fn()]
    except BaseException as exc:
        report[name] = ["refused", type(exc).__name__, getattr(exc, "errno", None)]

attempt("read_passwd", lambda: open("/etc/passwd").read()[:10])
attempt("read_database", lambda: open(task["secret"]).read())
attempt("write_outside", lambda: open(task["outside"], "w").write("x"))
attempt("write_scratch", lambda: open(os.path.join(task["scratch"], "f"), "w").write("x"))
attempt("read_stdlib", lambda: len(open(os.__file__).read()) > 0)
attempt("tcp_connect", lambda: socket.create_connection(("127.0.0.1", task["port"]), timeout=2).close())
attempt("udp_socket", lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).close())
attempt("unix_socket", lambda: socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).close())
attempt("fork", lambda: os.fork())
attempt("exec", lambda: os.execv("/bin/true", ["true"]))
def raw_clone():  # clone(SIGCHLD) straight through libc's syscall(), no Python wrapper or audit event
    if ctypes.CDLL(None, use_errno=True).syscall(56, 17, 0, 0, 0, 0) < 0:
        raise OSError(ctypes.get_errno(), "clone")
    return "cloned"
attempt("raw_clone", raw_clone)
attempt("signal_parent", lambda: os.kill(os.getppid(), 0))
attempt("allocate_past_limit", lambda: len(bytearray(task["memory_bytes"] * 2)))
attempt("raise_memory_limit", lambda: __import__("resource").setrlimit(__import__("resource").RLIMIT_AS, (-1, -1)))
print(json.dumps(report))
"""


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    listener = socket.create_server(("127.0.0.1", 0))
    accepted: list[Any] = []
    threading.Thread(target=lambda: accepted.append(listener.accept()), daemon=True).start()
    with tempfile.TemporaryDirectory() as home, tempfile.TemporaryDirectory() as scratch:
        secret = Path(home, "database.sqlite")
        secret.write_text("secret")
        task = {
            "scratch": scratch,
            "read_paths": sorted({sys.prefix, sys.base_prefix, "/usr/lib", "/lib"}),
            "memory_bytes": 256 * 1024 * 1024,
            "cpu_seconds": 10,
            "file_size_bytes": 1024 * 1024,
            "secret": str(secret),
            "outside": str(Path(home, "planted")),
            "port": listener.getsockname()[1],
        }
        folder = str(Path(weft.sandbox_py.__file__).parent)
        done = subprocess.run(
            [sys.executable, "-I", "-c", PROBE, folder, json.dumps(task)],
            capture_output=True, text=True, timeout=60, env={}, cwd=scratch,
        )  # fmt: skip
        assert not Path(home, "planted").exists()
    listener.close()
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    result["accepted"] = len(accepted)
    return result


def test_every_layer_took_effect(report: dict[str, Any]) -> None:
    assert report["layers"] == ["network-namespace", "rlimits", "landlock", "seccomp"]


@pytest.mark.parametrize("attempt", ["read_passwd", "read_database", "write_outside"])
def test_files_outside_are_out_of_reach(report: dict[str, Any], attempt: str) -> None:
    assert report[attempt] == ["refused", "PermissionError", 13]


def test_the_scratch_folder_and_the_standard_library_are_usable(report: dict[str, Any]) -> None:
    assert report["write_scratch"] == ["ok", 1]
    assert report["read_stdlib"] == ["ok", True]


@pytest.mark.parametrize("attempt", ["tcp_connect", "udp_socket", "unix_socket"])
def test_no_socket_can_be_made(report: dict[str, Any], attempt: str) -> None:
    assert report[attempt] == ["refused", "PermissionError", 1]
    assert report["accepted"] == 0


@pytest.mark.parametrize("attempt", ["fork", "exec", "raw_clone"])
def test_no_process_or_program_can_be_started(report: dict[str, Any], attempt: str) -> None:
    assert report[attempt] == ["refused", "PermissionError", 1]


def test_no_signal_reaches_a_process_outside(report: dict[str, Any]) -> None:
    assert report["signal_parent"] == ["refused", "PermissionError", 1]


def test_memory_is_capped_and_the_cap_cannot_be_raised(report: dict[str, Any]) -> None:
    assert report["allocate_past_limit"][:2] == ["refused", "MemoryError"]
    assert report["raise_memory_limit"][:2] == ["refused", "ValueError"]
