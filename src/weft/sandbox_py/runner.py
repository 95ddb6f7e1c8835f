"""Runs one Python Code task in a fresh, confined child process and reads its answer.

One process per node run: nothing the code does survives it (its scratch folder is deleted, its memory is
gone), so no execution sees another's state. The parent never runs user code: it checks the source
(n8n's analyzer rules), starts ``_child.py``, waits without blocking the event loop, and kills the child's
process group at the wall-clock limit.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import sys
import sysconfig
import tempfile
import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from weft.errors import NodeOperationError
from weft.sandbox_py._analyzer import violations
from weft.sandbox_py.config import MODES, PythonSandboxConfig

CHILD = Path(__file__).with_name("_child.py")
#: Shared libraries an allowed module may load (``hashlib`` needs libcrypto): readable, never writable.
_SYSTEM_LIBRARIES = ("/lib", "/lib64", "/usr/lib", "/usr/lib64", "/usr/local/lib")
_ENABLE_HINT = (
    "Set WEFT_PYTHON_CODE=enabled to run Python with the layers this machine has (docs/python-code.md says what "
    "each layer guarantees), or write the code in JavaScript."
)


@dataclass(frozen=True, kw_only=True, slots=True)
class PythonTask:
    """One run of a Python Code node."""

    node_name: str
    code: str
    mode: str
    """``runOnceForAllItems`` or ``runOnceForEachItem``."""
    items: list[Any]
    timeout_s: float
    continue_on_fail: bool = False
    query: Any = None


@dataclass(frozen=True, kw_only=True, slots=True)
class PythonOutcome:
    """What the code returned, what it printed, and the kernel layers it ran under."""

    result: Any
    prints: list[list[str]] = field(default_factory=list)
    layers: list[str] = field(default_factory=list)


def ensure_enabled(node_name: str, config: PythonSandboxConfig) -> None:
    """Refuse Python when the instance turned it off (n8n's ``N8N_PYTHON_ENABLED=false`` error, or Weft's)."""
    if not config.n8n_python_enabled:
        raise NodeOperationError(
            node_name,
            "This instance disallows Python execution because it has the environment variable `N8N_PYTHON_ENABLED` "
            "set to `false`. To restore Python execution, remove this environment variable or set it to `true` and "
            "restart the instance.",
        )
    if config.mode == "disabled":
        raise NodeOperationError(
            node_name,
            "Python Code is disabled on this instance (WEFT_PYTHON_CODE=disabled)",
            description="Unset WEFT_PYTHON_CODE (or set it to auto or enabled) and restart, or use JavaScript.",
        )
    if config.mode not in MODES:
        raise NodeOperationError(
            node_name,
            f"WEFT_PYTHON_CODE must be one of {', '.join(MODES)}, not {config.mode!r}",
            description="Fix the environment variable and restart the instance.",
        )


async def run_python(task: PythonTask, config: PythonSandboxConfig) -> PythonOutcome:
    """Run ``task`` under ``config``; n8n's errors (or, with ``continue_on_fail``, its error item)."""
    ensure_enabled(task.node_name, config)
    _check_source(task, config)
    try:
        return await _run_child(task, config)
    except NodeOperationError as exc:
        if not task.continue_on_fail:
            raise
        return PythonOutcome(result=[{"json": {"error": exc.message}}])


def _check_source(task: PythonTask, config: PythonSandboxConfig) -> None:
    if not isinstance(task.code, str):
        raise NodeOperationError(task.node_name, "No Python code found to execute. Please add code to the Code node.")
    try:
        found = violations(task.code, set(config.stdlib_allow), set(config.external_allow))
    except SyntaxError as exc:
        raise NodeOperationError(task.node_name, str(exc), description=f"SyntaxError: {exc.msg}") from None
    if found:
        raise NodeOperationError(task.node_name, "Security violations detected", description="\n".join(found))


def _task_message(task: PythonTask, config: PythonSandboxConfig, scratch: str) -> bytes:
    paths = {sys.prefix, sys.base_prefix, sys.exec_prefix, sysconfig.get_paths()["stdlib"], *_SYSTEM_LIBRARIES}
    message = {
        "code": task.code,
        "mode": task.mode,
        "items": task.items,
        "query": task.query,
        "scratch": scratch,
        "read_paths": sorted(paths),
        "stdlib_allow": sorted(config.stdlib_allow),
        "external_allow": sorted(config.external_allow),
        "builtins_deny": sorted(config.builtins_deny),
        "memory_bytes": config.memory_bytes,
        "file_size_bytes": config.file_size_bytes,
        "cpu_seconds": max(1, int(task.timeout_s + 0.999)),
        "required_layers": list(config.required_layers),
    }
    return json.dumps(message, default=str, ensure_ascii=False).encode("utf-8")


#: Children running at once, per event loop (n8n's runner: ``N8N_RUNNERS_MAX_CONCURRENCY``, 5); more wait.
_SLOTS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = weakref.WeakKeyDictionary()


def _slots(config: PythonSandboxConfig) -> asyncio.Semaphore:
    loop = asyncio.get_running_loop()
    slots = _SLOTS.get(loop)
    if slots is None:
        slots = _SLOTS[loop] = asyncio.Semaphore(config.max_concurrency)
    return slots


async def _run_child(task: PythonTask, config: PythonSandboxConfig) -> PythonOutcome:
    async with _slots(config):
        return await _run_confined(task, config)


async def _run_confined(task: PythonTask, config: PythonSandboxConfig) -> PythonOutcome:
    scratch = tempfile.mkdtemp(prefix="weft-python-")
    try:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-I", str(CHILD),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
            env={}, cwd=scratch, start_new_session=True,
        )  # fmt: skip
        try:
            out, _ = await asyncio.wait_for(process.communicate(_task_message(task, config, scratch)), task.timeout_s)
        except TimeoutError:
            raise NodeOperationError(task.node_name, _timed_out(task.timeout_s)) from None
        finally:
            await _kill(process)
        return _read_answer(task, config, process.returncode, out)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _timed_out(seconds: float) -> str:
    value = int(seconds) if float(seconds).is_integer() else seconds
    return f"Task execution timed out after {value} {'second' if value == 1 else 'seconds'}"


async def _kill(process: asyncio.subprocess.Process) -> None:
    """End the child's process group (the child cannot fork, so that is the child) and reap it."""
    if process.returncode is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    await process.wait()


def _read_answer(task: PythonTask, config: PythonSandboxConfig, code: int | None, out: bytes) -> PythonOutcome:
    if code == -signal.SIGXCPU or (code == -signal.SIGKILL and not out):
        raise NodeOperationError(
            task.node_name,
            _timed_out(task.timeout_s) if code == -signal.SIGXCPU else "Process was forcefully killed (SIGKILL)",
            description="The Python code used up its CPU time or memory: see WEFT_CODE_TIMEOUT and "
            "WEFT_PYTHON_CODE_MEMORY_MB.",
        )
    try:
        answer: dict[str, Any] = json.loads(out)
    except ValueError:
        raise NodeOperationError(task.node_name, f"Task subprocess exited with code {code}") from None
    if "unconfined" in answer:
        missing = ", ".join(answer["unconfined"])
        raise NodeOperationError(
            task.node_name,
            f"Python Code is off on this machine: its sandbox needs {missing}, which this kernel does not provide",
            description=_ENABLE_HINT,
        )
    if "error" in answer:
        raise _user_error(task.node_name, answer["error"])
    return PythonOutcome(result=answer.get("result"), prints=answer.get("print_args", []), layers=answer["layers"])


def _user_error(node_name: str, error: dict[str, Any]) -> NodeOperationError:
    """n8n's message (``str(exception)``); Weft adds the exception's type and line as the description."""
    kind = str(error.get("type") or "Error")
    message = str(error.get("message") or "") or kind
    description = str(error.get("description") or "")
    if not description:
        line = error.get("line")
        description = (kind if message == kind else f"{kind}: {message}") + (f" [line {line}]" if line else "")
    return NodeOperationError(node_name, message, description=description)
