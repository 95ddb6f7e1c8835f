"""The sandbox built ahead: frozen as any other, handed to one thread only, safe in the thread that takes it.

And the session's loading: a node run's base comes with the chunk of items its first evaluation needs, the node's
raw parameters come when asked for, and the promise-job queue is drained when the thread's context moves to
another execution, not after every node run. A Code run's context goes when the run ends.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from expr_fixtures import RUN_EXECUTION_DATA, make_context

import weft.expressions.runtime as runtime
from weft.errors import ExpressionError
from weft.expressions import ExpressionLimits, evaluate, prepare_sandbox
from weft.expressions.runtime import JsRuntime

LIMITS = ExpressionLimits()


def _in_new_thread(fn: Callable[[], Any]) -> Any:
    """``fn()`` in a thread of its own (a thread without a runtime yet), its result or its exception."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:  # handed to the test's thread
            box["error"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


def _prepared_build() -> runtime._Build:
    """Prepare from a fresh thread (the test's thread may hold a runtime already) and return the build."""
    _in_new_thread(lambda: prepare_sandbox(LIMITS))
    build = runtime._prepared
    assert build is not None
    return build


@pytest.fixture(autouse=True)
def _no_prepared_runtime() -> Any:
    runtime._prepared = None
    yield
    build = runtime._prepared
    if build is not None:
        build.thread.join()
    runtime._prepared = None


def test_the_first_expression_of_a_thread_uses_the_prepared_sandbox_and_it_is_frozen() -> None:
    build = _prepared_build()

    def first_expression() -> tuple[Any, JsRuntime]:
        frozen = evaluate(
            "={{ Object.isFrozen(globalThis) && Object.isFrozen(String['proto' + 'type']) }}", make_context()
        )
        return frozen, runtime.get_runtime(LIMITS)

    frozen, used = _in_new_thread(first_expression)
    assert frozen is True
    assert used is build.runtime
    assert runtime._prepared is None  # handed out: nobody else gets it


def test_the_prepared_sandbox_goes_to_one_thread_only() -> None:
    build = _prepared_build()
    first = _in_new_thread(lambda: runtime.get_runtime(LIMITS))
    second = _in_new_thread(lambda: runtime.get_runtime(LIMITS))
    assert first is build.runtime
    assert second is not first


def test_a_sandbox_built_in_another_thread_still_stops_a_deep_recursion() -> None:
    """QuickJS's stack limit follows the calling thread: an endless recursion is an error, not a crash."""
    _prepared_build()

    def recurse() -> Any:
        return evaluate("={{ (function f(n) { return f(n + 1) + 1; })(0) }}", make_context())

    with pytest.raises(ExpressionError, match="Maximum call stack size exceeded"):
        _in_new_thread(recurse)
    assert _in_new_thread(lambda: evaluate("={{ 1 + 1 }}", make_context())) == 2


def test_a_sandbox_prepared_for_another_memory_limit_is_not_taken() -> None:
    build = _prepared_build()
    other = ExpressionLimits(memory_bytes=LIMITS.memory_bytes * 2)
    used = _in_new_thread(lambda: runtime.get_runtime(other))
    assert used is not build.runtime
    assert runtime._prepared is build


def test_the_prepared_sandbox_takes_the_time_limit_of_its_first_user() -> None:
    build = _prepared_build()
    shorter = ExpressionLimits(time_s=0.5)
    used = _in_new_thread(lambda: runtime.get_runtime(shorter))
    assert used is build.runtime
    assert used.matches(shorter)
    assert used.call_limit == 0.5


# ---------------------------------------------------------------------- session loading


def test_a_session_starting_beyond_the_first_chunk_loads_that_chunk_with_its_base() -> None:
    items = [{"json": {"n": i}, "pairedItem": {"item": i}} for i in range(2000)]
    ctx = make_context(connection_input=items)
    assert evaluate("={{ $json.n * 2 }}", ctx, 1500) == 3000
    assert evaluate("={{ $input.first().json.n + $input.last().json.n }}", ctx, 1500) == 1999
    assert evaluate("={{ $json.n }}", ctx, 3) == 3


def test_raw_parameter_is_the_nodes_parameters_as_written() -> None:
    ctx = make_context()
    assert evaluate("={{ $rawParameter.computed }}", ctx, 0) == "={{ $json.name }}!"
    assert evaluate("={{ $rawParameter.n + $parameter.n }}", ctx, 0) == 10
    assert evaluate("={{ Object.keys($rawParameter).join(',') }}", ctx, 0) == "someParam,computed,n"


def test_promise_jobs_are_drained_when_the_context_moves_to_another_execution_not_per_node(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drained: list[str] = []
    original = JsRuntime.run_jobs

    def counting(self: JsRuntime) -> None:
        drained.append(self.session.ctx.node_name)
        original(self)

    monkeypatch.setattr(JsRuntime, "run_jobs", counting)
    leave_a_job = "={{ (async () => { await null; })() && $json.name }}"

    def two_executions() -> list[str]:
        first = {**RUN_EXECUTION_DATA}
        for node in ("Mix up pairing", "Current", "Mix up pairing", "Current"):  # node runs of one execution
            assert evaluate(leave_a_job, make_context(node_name=node, run_execution_data=first), 0) == "Ada"
        within = list(drained)
        next_execution = make_context(run_execution_data={**RUN_EXECUTION_DATA})
        assert evaluate("={{ String($json.name).toLowerCase() }}", next_execution, 0) == "ada"  # not the fast path
        return within

    assert _in_new_thread(two_executions) == []  # a thread of its own: a runtime without an earlier session
    assert drained == ["Current"]  # once, with the first execution's last node run still loaded


def test_a_job_left_by_one_execution_never_runs_with_the_next_executions_data() -> None:
    """The attacker's expression leaves a job that copies ``$json.secret`` into ``$execution.customData``: if it
    ran once the victim's data is loaded, the victim's next result would carry the victim's secret out in the
    attacker-chosen key."""
    steal = (
        "={{ (async () => { for (let i = 0; i < 50; i++) await null;"
        " $execution.customData.set('stolen', String($json.secret)); })() && 'ok' }}"
    )
    attacker = make_context(connection_input=[{"json": {"secret": "attacker's"}}], run_execution_data={})
    assert evaluate(steal, attacker, 0) == "ok"
    victim = make_context(connection_input=[{"json": {"secret": "victim's"}}], run_execution_data={})
    assert evaluate("={{ String($json.secret) }}", victim, 0) == "victim's"
    assert evaluate("={{ String($json.secret).length }}", victim, 0) == 8  # String(): not the fast path
    assert "stolen" not in victim.custom_data


def test_the_next_executions_first_expression_is_right_when_an_endless_job_makes_the_context_rebuild() -> None:
    """Draining the jobs of an endless async loop runs into the time limit and rebuilds the context: the next
    execution's first expression, compiled before that, runs again in the new context with its own data."""
    limits = ExpressionLimits(time_s=0.2)
    endless = "={{ (function () { (async () => { for (;;) await null; })(); return 'ok'; })() }}"

    def two_executions() -> tuple[Any, Any, int]:
        attacker = make_context(limits=limits, run_execution_data={}, connection_input=[{"json": {"name": "eve"}}])
        assert evaluate(endless, attacker, 0) == "ok"
        generation = runtime.get_runtime(limits).generation
        victim = make_context(limits=limits, run_execution_data={})
        upper = evaluate("={{ String($json.name).toUpperCase() }}", victim, 0)  # in the sandbox: not the fast path
        doubled = evaluate("={{ Number($json.count) * 2 }}", victim, 0)
        return upper, doubled, runtime.get_runtime(limits).generation - generation

    assert _in_new_thread(two_executions) == ("ADA", 6, 1)


def test_a_code_runs_context_and_its_data_are_dropped_when_the_run_ends() -> None:
    from weft.expressions.code import run_code

    def run() -> tuple[Any, Any]:
        result = run_code("return Array.from({ length: 1000 }, (_, i) => ({ json: { i } }));", make_context())
        return len(result.items), runtime._pool.code

    assert _in_new_thread(run) == (1000, None)
