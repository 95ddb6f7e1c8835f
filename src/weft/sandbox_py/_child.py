"""The child process of a Python Code run: confine itself, then run the user's code once, and answer in JSON.

Started by :mod:`weft.sandbox_py.runner` as a plain script (``python -I _child.py``), with the task as JSON on
its standard input; it writes one JSON answer to its standard output and exits. It imports only the standard
library and its sibling ``_confine`` / ``_guards`` modules, so it needs nothing of Weft loaded.

n8n's task runner conventions (``@n8n/task-runner-python``'s executor): the code is the body of a function;
``_items`` (all items mode) or ``_item`` (once per item) are its inputs, ``print`` is captured, and what the
function returns is the result.
"""

from __future__ import annotations

import io
import json
import os
import sys
from typing import Any

if __package__:
    from weft.sandbox_py import _confine, _guards
else:  # run as a script: the siblings sit next to this file
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import _confine  # type: ignore[no-redef]
    import _guards  # type: ignore[no-redef]

    del sys.path[0]

OUTPUT_KEY = "__n8n_internal_user_output__"
ALL_ITEMS_FILENAME = "<all_items_task_execution>"
PER_ITEM_FILENAME = "<per_item_task_execution>"


def main() -> int:
    task = json.loads(sys.stdin.buffer.read())
    answer = os.fdopen(os.dup(1), "wb")
    quiet = os.open(os.devnull, os.O_RDWR)
    os.dup2(quiet, 0)
    os.dup2(quiet, 1)
    os.dup2(quiet, 2)
    sys.stdout = io.StringIO()
    sys.stderr = stderr = io.StringIO()
    os.environ.clear()
    os.chdir(task["scratch"])
    layers = _confine.confine(task)
    missing = [layer for layer in task.get("required_layers", []) if layer not in layers]
    if missing:
        _send(answer, {"unconfined": missing, "layers": layers})
        return 0
    _guards.sanitize_modules(task)
    _guards.install_audit_hook(task["scratch"])
    _send(answer, _run(task, stderr) | {"layers": layers})
    return 0


def _run(task: dict[str, Any], stderr: io.StringIO) -> dict[str, Any]:
    print_args: list[list[str]] = []
    dropped = [0]
    try:
        if task["mode"] == "runOnceForEachItem":
            result: Any = _per_item(task, print_args, dropped)
        else:
            result = _all_items(task, print_args, dropped)
        return {"result": result, "print_args": _guards.truncate_prints(print_args, dropped[0])}
    except BaseException as exc:  # the user's code may raise anything, SystemExit too
        return {"error": _error_info(exc, stderr.getvalue()), "print_args": _guards.truncate_prints(print_args, 0)}


def _wrap(code: str) -> str:
    # textwrap.indent's rule (lines with only whitespace stay as they are), without importing textwrap
    body = "".join("    " + line if line.strip() else line for line in code.splitlines(keepends=True))
    return f"def _user_function():\n{body}\n\n{OUTPUT_KEY} = _user_function()"


def _all_items(task: dict[str, Any], print_args: list[list[str]], dropped: list[int]) -> Any:
    compiled = compile(_wrap(task["code"]), ALL_ITEMS_FILENAME, "exec")
    scope = {
        "__builtins__": _guards.filtered_builtins(task),
        "_items": task["items"],
        "_query": task.get("query"),
        "print": _guards.make_print(print_args, dropped),
    }
    exec(compiled, scope)  # the point of this process, which is confined (_confine)
    return scope[OUTPUT_KEY]


def _per_item(task: dict[str, Any], print_args: list[list[str]], dropped: list[int]) -> list[Any]:
    compiled = compile(_wrap(task["code"]), PER_ITEM_FILENAME, "exec")
    table = _guards.filtered_builtins(task)
    custom_print = _guards.make_print(print_args, dropped)
    out: list[Any] = []
    for index, item in enumerate(task["items"]):
        scope = {"__builtins__": table, "_item": item, "print": custom_print}
        exec(compiled, scope)
        output = scope[OUTPUT_KEY]
        if output is None:
            continue
        entry: dict[str, Any] = {"json": _json_of(output), "pairedItem": {"item": index}}
        if isinstance(output, dict) and "binary" in output:
            entry["binary"] = output["binary"]
        out.append(entry)
    return out


def _json_of(output: Any) -> Any:
    """The runner's ``_extract_json_data_per_item``: its ``json``, or the dictionary without ``binary``."""
    if not isinstance(output, dict):
        return output
    if "json" in output:
        return output["json"]
    return {key: value for key, value in output.items() if key != "binary"}


def _error_info(exc: BaseException, stderr: str) -> dict[str, Any]:
    message = f"Process exited with code {exc.code}" if isinstance(exc, SystemExit) else str(exc)
    line = None
    tb = exc.__traceback__
    while tb is not None:  # the innermost frame of the user's code (no source lookup: files are walled off)
        if tb.tb_frame.f_code.co_filename in (ALL_ITEMS_FILENAME, PER_ITEM_FILENAME) and tb.tb_lineno:
            line = tb.tb_lineno - 1  # the wrapping function's first line
        tb = tb.tb_next
    return {
        "message": message,
        "type": type(exc).__name__,
        "description": getattr(exc, "description", "") or stderr,
        "line": line,
        "security": isinstance(exc, _guards.SecurityViolation),
    }


def _send(answer: Any, message: dict[str, Any]) -> None:
    try:
        # NaN and infinities are not JSON: n8n's side could not read them either
        data = json.dumps(message, default=str, ensure_ascii=False, allow_nan=False).encode("utf-8")
    except (ValueError, TypeError, RecursionError, MemoryError) as exc:
        detail = "The returned data cannot be sent back: " + (str(exc) or type(exc).__name__)
        data = json.dumps({"error": {"message": detail, "type": type(exc).__name__, "line": None}}).encode()
    answer.write(data)
    answer.flush()


if __name__ == "__main__":
    sys.exit(main())
