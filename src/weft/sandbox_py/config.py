"""What an instance allows Python Code to do: on or off, the import allow lists, the denied builtins, limits.

Read from the environment when a Python Code node runs, with n8n's task-runner variable names where n8n has
one (``N8N_RUNNERS_STDLIB_ALLOW`` …) and Weft's ``WEFT_PYTHON_*`` names taking precedence.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

#: n8n's ``BUILTINS_DENY_DEFAULT``: builtins that reach around the sandbox's checks.
BUILTINS_DENY_DEFAULT = (
    "eval,exec,compile,open,input,breakpoint,getattr,object,type,vars,setattr,delattr,hasattr,dir,memoryview,"
    "__build_class__,globals,locals,license,help,credits,copyright"
)
#: The kernel layers ``auto`` requires before it runs code (see docs/python-code.md).
REQUIRED_LAYERS = ("landlock", "seccomp")
MODES = ("auto", "enabled", "disabled")


def _names(value: str) -> frozenset[str]:
    return frozenset(part.strip() for part in value.split(",") if part.strip())


@dataclass(frozen=True, kw_only=True, slots=True)
class PythonSandboxConfig:
    """The instance's rules for Python Code."""

    mode: str = "auto"
    """``WEFT_PYTHON_CODE``: ``auto`` runs Python only where the kernel layers of :data:`REQUIRED_LAYERS`
    confine it; ``enabled`` runs it with whatever layers the machine has; ``disabled`` refuses it."""
    n8n_python_enabled: bool = True
    """``N8N_PYTHON_ENABLED``: ``false`` refuses Python with n8n's own error."""
    stdlib_allow: frozenset[str] = field(default_factory=frozenset)
    """``WEFT_PYTHON_STDLIB_ALLOW`` / ``N8N_RUNNERS_STDLIB_ALLOW``: standard-library modules code may import
    (comma-separated, ``*`` for all); none by default, as n8n."""
    external_allow: frozenset[str] = field(default_factory=frozenset)
    """``WEFT_PYTHON_EXTERNAL_ALLOW`` / ``N8N_RUNNERS_EXTERNAL_ALLOW``: installed packages code may import."""
    builtins_deny: frozenset[str] = field(default_factory=lambda: _names(BUILTINS_DENY_DEFAULT))
    """``WEFT_PYTHON_BUILTINS_DENY`` / ``N8N_RUNNERS_BUILTINS_DENY``: builtins removed (n8n's default list)."""
    memory_bytes: int = 512 * 1024 * 1024
    """``WEFT_PYTHON_CODE_MEMORY_MB``: the child's address-space limit (512 MiB)."""
    file_size_bytes: int = 64 * 1024 * 1024
    """``WEFT_PYTHON_CODE_FILE_SIZE_MB``: the largest file code may write in its scratch folder (64 MiB)."""

    max_concurrency: int = 5
    """``WEFT_CODE_WORKERS``: Python Code children running at once in one process; more wait for a slot (n8n's
    ``N8N_RUNNERS_MAX_CONCURRENCY``, 5)."""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> PythonSandboxConfig:
        """The rules from ``environ`` (default ``os.environ``)."""
        env = os.environ if environ is None else environ

        def pick(weft: str, n8n: str, default: str = "") -> str:
            return env.get(weft, env.get(n8n, default))

        return cls(
            mode=env.get("WEFT_PYTHON_CODE", "auto").strip().lower() or "auto",
            n8n_python_enabled=env.get("N8N_PYTHON_ENABLED", "true").strip().lower() != "false",
            stdlib_allow=_names(pick("WEFT_PYTHON_STDLIB_ALLOW", "N8N_RUNNERS_STDLIB_ALLOW")),
            external_allow=_names(pick("WEFT_PYTHON_EXTERNAL_ALLOW", "N8N_RUNNERS_EXTERNAL_ALLOW")),
            builtins_deny=_names(pick("WEFT_PYTHON_BUILTINS_DENY", "N8N_RUNNERS_BUILTINS_DENY", BUILTINS_DENY_DEFAULT)),
            memory_bytes=int(float(env.get("WEFT_PYTHON_CODE_MEMORY_MB", "512")) * 1024 * 1024),
            file_size_bytes=int(float(env.get("WEFT_PYTHON_CODE_FILE_SIZE_MB", "64")) * 1024 * 1024),
            max_concurrency=max(1, int(env.get("WEFT_CODE_WORKERS", "5"))),
        )

    @property
    def required_layers(self) -> tuple[str, ...]:
        """The kernel layers the child must have before it runs code."""
        return REQUIRED_LAYERS if self.mode == "auto" else ()
