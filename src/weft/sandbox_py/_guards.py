"""The interpreter-level guards of a Python Code child (n8n's task runner's, and an audit hook besides).

Runs inside the child and imports only the standard library. These guards are the outer fence: they give the
user n8n's errors (an import that is not allowed, a denied builtin); the kernel layers of ``_confine`` are what
holds when a trick gets past them.
"""

from __future__ import annotations

import builtins
import json
import os
import sys
from collections.abc import Callable
from typing import Any

CIRCULAR_KEY = "__n8n_internal_circular_ref__"
MAX_PRINT_CALLS = 100
#: Modules the interpreter itself needs after the user's code starts.
_KEPT_MODULES = frozenset({"builtins", "__main__", "sys", "traceback", "linecache", "importlib", "importlib.machinery"})
#: Audit events refused whatever the allow lists say: starting programs, sockets, native code, hooks.
_DENIED_EVENTS = frozenset(
    {
        "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "subprocess.Popen",
        "socket.__new__", "socket.connect", "socket.bind", "socket.getaddrinfo", "ctypes.dlopen", "ctypes.dlsym",
        "ctypes.cdata", "ctypes.call_function", "sys.setprofile", "sys.settrace",
        "sys.addaudithook", "os.kill", "os.killpg", "signal.pthread_kill", "mmap.__new__", "pty.spawn",
        "code.__new__", "function.__new__",
    }
)  # fmt: skip


class SecurityViolation(Exception):
    """An import or operation the sandbox refuses (n8n's ``SecurityViolationError``)."""

    def __init__(self, message: str, description: str) -> None:
        super().__init__(message)
        self.description = description


def import_refusal(module_path: str, stdlib_allow: set[str], external_allow: set[str]) -> str | None:
    """n8n's ``validate_module_import``: ``None`` when ``module_path`` may be imported, else why not."""
    name = module_path.split(".")[0]
    if name in sys.stdlib_module_names:
        if "*" in stdlib_allow or name in stdlib_allow:
            return None
        allowed = ", ".join(sorted(stdlib_allow)) or "none"
        return f"Import of standard library module '{module_path}' is disallowed. Allowed stdlib modules: {allowed}"
    if "*" in external_allow or name in external_allow:
        return None
    allowed = ", ".join(sorted(external_allow)) or "none"
    return f"Import of external package '{module_path}' is disallowed. Allowed external packages: {allowed}"


def filtered_builtins(task: dict[str, Any]) -> dict[str, Any]:
    """The builtins without ``N8N_RUNNERS_BUILTINS_DENY``'s, and an ``__import__`` that honours the allow lists."""
    deny = set(task["builtins_deny"])
    table = {key: value for key, value in vars(builtins).items() if key not in deny}
    stdlib, external = set(task["stdlib_allow"]), set(task["external_allow"])
    original = builtins.__import__

    def safe_import(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0) -> Any:
        refusal = import_refusal(name, stdlib, external) if level == 0 else "Relative imports are disallowed."
        if refusal is not None:
            raise SecurityViolation("Security violation detected", refusal)
        return original(name, globals, locals, fromlist, level)

    table["__import__"] = safe_import
    return table


def sanitize_modules(task: dict[str, Any]) -> None:
    """n8n's ``_sanitize_sys_modules``: forget every loaded module the allow lists do not name, so code cannot
    pick an already imported one (``os``, ``ctypes``) out of the import cache."""
    safe = set(_KEPT_MODULES)
    stdlib, external = set(task["stdlib_allow"]), set(task["external_allow"])
    safe |= set(sys.stdlib_module_names) if "*" in stdlib else stdlib
    safe |= {name for name in sys.modules if name not in sys.stdlib_module_names} if "*" in external else external
    prefixes = tuple(name + "." for name in safe)
    for name in [name for name in sys.modules if name not in safe and not name.startswith(prefixes)]:
        del sys.modules[name]


def install_audit_hook(scratch: str) -> None:
    """Refuse, from here on, the audit events of :data:`_DENIED_EVENTS` and ``open`` outside the interpreter's
    own files and ``scratch`` (an audit hook cannot be removed once added)."""
    readable = (*{p for p in (sys.prefix, sys.base_prefix, sys.exec_prefix) if p}, scratch)

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event in _DENIED_EVENTS or event.startswith(("os.exec", "os.spawn", "os.posix_spawn")):
            raise SecurityViolation("Security violation detected", f"The sandbox does not allow {event!r}.")
        if event == "open" and isinstance(args[0], str | bytes) and not _abspath(args[0]).startswith(readable):
            raise SecurityViolation("Security violation detected", f"The sandbox does not allow opening {args[0]!r}.")

    sys.addaudithook(hook)


def _abspath(path: str | bytes) -> str:
    return os.path.abspath(os.fsdecode(path))


def make_print(print_args: list[list[str]], dropped: list[int]) -> Callable[..., None]:
    """n8n's custom ``print``: each call's arguments formatted for the browser console; the first 100 calls are
    kept, the others counted in ``dropped[0]``."""

    def custom_print(*args: Any, **_kwargs: Any) -> None:
        if len(print_args) < MAX_PRINT_CALLS:
            print_args.append([_format(arg) for arg in args])
        else:
            dropped[0] += 1

    return custom_print


def _format(arg: Any) -> str:
    if isinstance(arg, str):
        return f"'{arg}'"
    if arg is None or isinstance(arg, int | float | bool):
        return str(arg)
    try:
        return json.dumps(arg, default=str, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return f"[Circular {type(arg).__name__}]"


def truncate_prints(print_args: list[list[str]], dropped: int) -> list[list[str]]:
    """The kept calls, then (n8n's words) a line saying how many more there were."""
    if not dropped:
        return print_args
    return [*print_args, [f"[Output truncated - {dropped} more print statements]"]]
