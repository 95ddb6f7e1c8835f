"""Python for the Code node, in a confined child process per run (see docs/python-code.md).

:func:`run_python` checks the code with n8n's task-runner rules, runs it in a fresh process under kernel
limits (a network namespace, rlimits, Landlock, seccomp) and interpreter guards (import allow lists, denied
builtins, an audit hook), and returns what it returned and printed.
"""

from weft.sandbox_py.config import BUILTINS_DENY_DEFAULT, PythonSandboxConfig
from weft.sandbox_py.runner import PythonOutcome, PythonTask, ensure_enabled, run_python

__all__ = [
    "BUILTINS_DENY_DEFAULT",
    "PythonOutcome",
    "PythonSandboxConfig",
    "PythonTask",
    "ensure_enabled",
    "run_python",
]
