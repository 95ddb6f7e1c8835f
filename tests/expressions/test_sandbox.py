"""The sandbox: no files, sockets, processes or environment; time and memory limits that end cleanly."""

from __future__ import annotations

import os

import pytest
from expr_fixtures import make_context

from weft.errors import ExpressionError, NodeOperationError
from weft.expressions import ExpressionLimits, evaluate, run_code

NO_IO_GLOBALS = ["require", "process", "fetch", "XMLHttpRequest", "WebSocket", "std", "os", "Deno", "Bun", "module"]


#: The names n8n's expressions see as an empty object (its blocklist), not as the real thing.
N8N_STUBS = {"require", "process", "fetch", "XMLHttpRequest", "module"}


@pytest.mark.parametrize("name", NO_IO_GLOBALS)
def test_no_io_globals(name: str) -> None:
    assert evaluate(f"={{{{ typeof globalThis.{name} }}}}", make_context()) == "undefined"
    assert evaluate(f"={{{{ typeof {name} }}}}", make_context()) == ("object" if name in N8N_STUBS else "undefined")


@pytest.mark.parametrize("specifier", ["/etc/passwd", "fs", "qjs:os", "qjs:std", "os", "node:net"])
def test_modules_cannot_be_loaded(tmp_path: object, specifier: str) -> None:
    code = f"return {{json: {{r: await import({specifier!r}).then(() => 'loaded', e => String(e))}}}}"
    result = run_code(code, make_context())
    assert "could not load module" in result.items[0]["json"]["r"]


def test_files_cannot_be_read(tmp_path: object) -> None:
    secret = os.path.join(str(tmp_path), "secret.mjs")
    with open(secret, "w") as f:
        f.write("globalThis.leaked = 1; export default 'secret';")
    code = f"try {{ await import({secret!r}) }} catch (e) {{}}\nreturn {{json: {{leaked: typeof globalThis.leaked}}}}"
    assert run_code(code, make_context()).items[0]["json"]["leaked"] == "undefined"


def test_env_denied_by_default() -> None:
    with pytest.raises(ExpressionError, match="access to env vars denied"):
        evaluate("={{ $env.PATH }}", make_context())


def test_env_allowed_by_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEFT_TEST_VALUE", "visible")
    assert evaluate("={{ $env.WEFT_TEST_VALUE }}", make_context(allow_env=True)) == "visible"


def test_endless_loop_times_out_and_the_next_expression_works() -> None:
    ctx = make_context(limits=ExpressionLimits(time_s=0.3))
    with pytest.raises(ExpressionError) as info:
        evaluate("={{ (() => { while (true) {} })() }}", ctx, 0, parameter="value")
    assert info.value.message == "Expression timed out"
    assert "0.3 s" in (info.value.description or "")
    assert evaluate("={{ 1 + 1 }}", ctx) == 2
    assert evaluate("={{ $json.name }}", ctx) == "Ada"


def test_huge_allocation_fails_and_the_next_expression_works() -> None:
    ctx = make_context(limits=ExpressionLimits(memory_bytes=64 * 1024 * 1024))
    with pytest.raises(ExpressionError) as info:
        evaluate("={{ (() => { const a = []; while (true) a.push(new Array(1e6).fill(1)); })() }}", ctx)
    assert info.value.message == "Expression exceeded memory limit"
    assert evaluate("={{ [1, 2].sum() }}", ctx) == 3


def test_huge_string_fails_cleanly() -> None:
    ctx = make_context(limits=ExpressionLimits(memory_bytes=64 * 1024 * 1024))
    with pytest.raises(ExpressionError, match="memory limit"):
        evaluate("={{ 'x'.repeat(2 ** 28) }}", ctx)
    assert evaluate("={{ 'ok' }}", ctx) == "ok"


def test_deep_recursion_is_an_error() -> None:
    ctx = make_context()
    with pytest.raises(ExpressionError, match="Maximum call stack size exceeded"):
        evaluate("={{ (function f() { return f() + 1 })() }}", ctx)
    assert evaluate("={{ 3 }}", ctx) == 3


def test_code_node_endless_loop_times_out() -> None:
    ctx = make_context(limits=ExpressionLimits(code_time_s=0.3))
    with pytest.raises(NodeOperationError, match=r"Task execution timed out after 0\.3 seconds"):
        run_code("while (true) {}", ctx)
    assert run_code("return {json: {ok: true}}", ctx).items == [{"json": {"ok": True}}]


def test_code_node_endless_promise_chain_times_out() -> None:
    ctx = make_context(limits=ExpressionLimits(code_time_s=0.3))
    with pytest.raises(NodeOperationError, match=r"Task execution timed out after 0\.3 seconds"):
        run_code("for (;;) { await null }", ctx)
    assert run_code("return {json: {ok: 1}}", ctx).items == [{"json": {"ok": 1}}]


def test_errors_inside_expressions_do_not_leak_state_between_nodes() -> None:
    first = make_context()
    evaluate("={{ globalThis.leak = 1 }}", first)
    # Globals set by one expression are visible to later ones in the same thread (like n8n's shared
    # context is not), but never data: each node run starts a fresh session of its own data.
    second = make_context(node_name="Current", connection_input=[{"json": {"name": "Zed"}}])
    assert evaluate("={{ $json.name }}", second) == "Zed"
    assert evaluate("={{ $input.all().length }}", second) == 1


def test_threads_each_use_their_own_context() -> None:
    from concurrent.futures import ThreadPoolExecutor

    def work(n: int) -> list[object]:
        ctx = make_context(connection_input=[{"json": {"n": n + k}} for k in range(50)])
        return [evaluate("={{ $json.n * 2 }}", ctx, k) for k in range(50)]

    with ThreadPoolExecutor(max_workers=3) as pool:
        results = list(pool.map(work, [0, 100, 200]))
    assert results == [[2 * (n + k) for k in range(50)] for n in (0, 100, 200)]
