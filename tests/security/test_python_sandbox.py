"""Python Code tries to escape its sandbox: files, the database, sockets, processes, introspection, memory, CPU,
state for the next run. Each test runs real code in a real confined child (weft.sandbox_py.run_python).

The interpreter guards answer first (n8n's analyzer, the allow lists, the audit hook); where a test opens them
up (allowing ``os``, ``open``, ``socket``), the kernel layers still hold. tests/security/test_python_sandbox_kernel.py
tries the kernel layers with no interpreter guard at all.
"""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from weft.errors import NodeOperationError
from weft.sandbox_py import PythonSandboxConfig, PythonTask, run_python

STRICT = PythonSandboxConfig()
#: The interpreter's fences opened wide: only the kernel layers are left to hold.
OPEN = replace(STRICT, stdlib_allow=frozenset({"*"}), external_allow=frozenset({"*"}), builtins_deny=frozenset())


def _run(code: str, config: PythonSandboxConfig = STRICT, timeout: float = 10, items: Any = None) -> Any:
    task = PythonTask(node_name="Py", code=code, mode="runOnceForAllItems", items=items or [], timeout_s=timeout)
    return asyncio.run(run_python(task, config)).result


def _refusal(code: str, config: PythonSandboxConfig = STRICT, timeout: float = 10) -> NodeOperationError:
    with pytest.raises(NodeOperationError) as caught:
        _run(code, config, timeout)
    return caught.value


def test_the_code_runs_under_every_kernel_layer() -> None:
    task = PythonTask(node_name="Py", code="return []", mode="runOnceForAllItems", items=[], timeout_s=10)
    outcome = asyncio.run(run_python(task, STRICT))
    assert outcome.layers == ["network-namespace", "rlimits", "landlock", "seccomp"]


def test_reading_etc_passwd() -> None:
    assert _refusal("return {'x': open('/etc/passwd').read()}").message == "name 'open' is not defined"
    error = _refusal(
        "import io\nreturn {'x': io.open('/etc/passwd').read()}", replace(STRICT, stdlib_allow=frozenset({"io"}))
    )
    assert error.message == "Security violation detected"
    assert error.description == "The sandbox does not allow opening '/etc/passwd'."


def test_reading_the_weft_database_with_the_fences_open(tmp_path: Path) -> None:
    database = tmp_path / "database.sqlite"
    with sqlite3.connect(database) as connection:
        connection.execute("create table secrets (value text)")
        connection.execute("insert into secrets values ('hunter2')")
    # sqlite opens the file in C, under the audit hook: Landlock refuses it
    query = f"sqlite3.connect({str(database)!r}).execute('select * from secrets').fetchall()"
    code = f"import sqlite3\nreturn {{'rows': {query}}}"
    assert _refusal(code, OPEN).message == "unable to open database file"


def test_reading_a_file_with_os_open() -> None:
    code = "import os\nfd = os.open('/etc/hostname', os.O_RDONLY)\nreturn {'x': os.read(fd, 100).decode()}"
    assert _refusal(code, OPEN).description == "The sandbox does not allow opening '/etc/hostname'."


def test_writing_outside_the_scratch_folder(tmp_path: Path) -> None:
    target = tmp_path / "planted.txt"
    error = _refusal(f"import os\nos.open({str(target)!r}, os.O_CREAT | os.O_WRONLY)", OPEN)
    assert error.message == "Security violation detected"
    assert not target.exists()


def test_opening_a_socket() -> None:
    assert "Import of standard library module 'socket' is disallowed" in str(_refusal("import socket").description)
    error = _refusal("import socket\nsocket.create_connection(('127.0.0.1', 22), timeout=1)", OPEN)
    assert error.message == "Security violation detected"


def test_os_system_and_subprocess() -> None:
    assert _refusal("import os; os.system('id')").message == "Security violations detected"
    assert _refusal("import os\nos.system('touch /tmp/weft-pwned')", OPEN).description == (
        "The sandbox does not allow 'os.system'."
    )
    error = _refusal("import subprocess\nsubprocess.run(['id'])", OPEN)
    assert error.description == "The sandbox does not allow 'subprocess.Popen'."


def test_fork_bomb() -> None:
    error = _refusal("import os\nwhile True:\n    os.fork()", OPEN)
    assert error.description == "The sandbox does not allow 'os.fork'."


@pytest.mark.parametrize(
    "code",
    [
        "return ().__class__.__base__.__subclasses__()",
        "return [c for c in ().__class__.__bases__[0].__subclasses__()]",
        "f = lambda: 0\nreturn f.__globals__",
        "return getattr((), '__cla' + 'ss__')",
        "return '{0.__class__}'.format(1)",
        "import builtins",
        "__import__('os')",
        "return __builtins__",
        "def g():\n    yield 1\nreturn g().gi_frame.f_back",
        "class A:\n    pass\nreturn A._A__secret",
    ],
)
def test_introspection_tricks_are_refused_before_running(code: str) -> None:
    assert _refusal(code).message == "Security violations detected"


def test_a_denied_builtin_cannot_be_fetched_back() -> None:
    assert _refusal("return {'t': type(1)}").message == "name 'type' is not defined"
    assert _refusal("return {'o': object}").message == "name 'object' is not defined"


def test_memory_exhaustion_is_stopped_and_the_next_run_is_fine() -> None:
    error = _refusal("x = 'a' * (4 * 1024 ** 3)\nreturn {'n': len(x)}")
    assert error.message == "MemoryError"
    assert _run("return {'ok': True}") == {"ok": True}


def test_cpu_exhaustion_is_stopped_at_the_time_limit() -> None:
    assert _refusal("while True:\n    pass", timeout=2).message == "Task execution timed out after 2 seconds"


def test_the_event_loop_goes_on_while_code_spins() -> None:
    async def scenario() -> int:
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        ticker = asyncio.create_task(tick())
        task = PythonTask(
            node_name="Py", code="while True:\n    pass", mode="runOnceForAllItems", items=[], timeout_s=1
        )
        with pytest.raises(NodeOperationError):
            await run_python(task, STRICT)
        ticker.cancel()
        return ticks

    assert asyncio.run(scenario()) > 0


def test_no_state_is_left_for_the_next_run() -> None:
    first = "import os\nwith open('marker', 'w') as f:\n    f.write('x')\n"
    first += "return {'cwd': os.getcwd(), 'files': os.listdir('.')}"
    result = _run(first, OPEN)
    assert result["files"] == ["marker"]
    assert not Path(result["cwd"]).exists()  # the scratch folder is gone
    second = _run("import os\nreturn {'files': os.listdir('.'), 'pid': os.getpid()}", OPEN)
    assert second["files"] == []


def test_the_environment_is_empty() -> None:
    assert _run("import os\nreturn {'env': dict(os.environ)}", OPEN) == {"env": {}}


def test_an_input_item_cannot_be_used_to_reach_weft() -> None:
    items = [{"json": {"a": 1}}]
    assert _run("_items[0]['json']['a'] = 2\nreturn _items", items=items) == [{"json": {"a": 2}}]
    assert items == [{"json": {"a": 1}}]  # the child had a copy


def test_a_missing_kernel_layer_turns_python_off_in_auto_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("weft.sandbox_py.config.REQUIRED_LAYERS", ("landlock", "quantum-seal"))
    error = _refusal("return []")
    assert error.message == (
        "Python Code is off on this machine: its sandbox needs quantum-seal, which this kernel does not provide"
    )
    assert str(error.description).startswith("Set WEFT_PYTHON_CODE=enabled")
    assert _run("return []", replace(STRICT, mode="enabled")) == []


def test_children_beyond_the_concurrency_limit_wait_for_a_slot() -> None:
    timed = replace(OPEN, max_concurrency=1)
    code = "import time\nstart = time.monotonic()\ntime.sleep(0.2)\nreturn {'span': [start, time.monotonic()]}"

    async def scenario() -> list[list[float]]:
        tasks = [PythonTask(node_name="Py", code=code, mode="runOnceForAllItems", items=[], timeout_s=10)] * 3
        outcomes = await asyncio.gather(*(run_python(task, timed) for task in tasks))
        return sorted(outcome.result["span"] for outcome in outcomes)

    spans = asyncio.run(scenario())
    assert all(earlier[1] <= later[0] for earlier, later in itertools.pairwise(spans))
