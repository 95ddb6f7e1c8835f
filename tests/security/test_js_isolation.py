"""One sandbox per execution: no JavaScript state passes between executions, workflows or nodes.

The attacker's workflow tries every pollution trick, from expressions (which get past n8n's static checks by
computing the names) and from Code nodes: prototype and global writes, ``Object.defineProperty`` on shared
built-ins, ``$json`` wrapped to read other workflows' items, promise jobs and an endless async loop left behind.
The victim's results must stay exact, whether it runs at the same time, after it, or as a later node of the same
execution.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import pytest

from weft.engine import run_workflow
from weft.engine.options import EngineOptions
from weft.expressions import ExpressionLimits

#: Both workflows share the limits, so the sandbox would be shared too (new limits rebuild it).
OPTIONS = EngineOptions(expression_limits=ExpressionLimits(time_s=1.0, code_time_s=1.0))

#: Each statement pollutes what it can; all of them run in one Code node, and each alone in its own test.
POLLUTE_STATEMENTS = [
    "String.prototype.toUpperCase = function () { return 'PWNED'; };",
    "Array.prototype.includes = function () { return true; };",
    "globalThis.codeLeak = 'from the attacker';",
    "leakedSloppy = 'from the attacker';",
    "Object.defineProperty(Math, 'max', { value: () => -1 });",
    "Object.defineProperty(Date, 'now', { value: () => 0 });",
    """const json = Object.getOwnPropertyDescriptor(globalThis, '$json');
Object.defineProperty(globalThis, '$json', {
  get() {
    const value = json.get.call(this);
    globalThis.stolen = (globalThis.stolen || []).concat([value]);
    return value;
  },
  configurable: true,
});""",
    "setTimeout(() => { String.prototype.trim = function () { return 'PWNED'; }; }, 5);",
    "Promise.resolve().then(() => { Number.prototype.toFixed = function () { return 'PWNED'; }; });",
]
RETURN = "\nreturn [{ json: { done: true } }];"
POLLUTE_CODE = "\n".join(POLLUTE_STATEMENTS) + RETURN

#: Each value gets past n8n's static checks (no literal ``prototype``/``defineProperty``) and pollutes if it can.
POLLUTE_EXPRESSIONS = [
    "={{ (Object['getPrototype' + 'Of']('').padStart = function () { return 'PWNED'; }, 'ok') }}",
    "={{ (globalThis.exprLeak = 'from the attacker', 'ok') }}",
    "={{ (Object['define' + 'Property'](globalThis, '$input', {value: 'PWNED', configurable: true}), 'ok') }}",
    "={{ (Object['define' + 'Property'](Object, 'keys', {value: () => ['PWNED']}), 'ok') }}",
    "={{ (Object['define' + 'Property'](JSON, 'stringify', {value: () => '\"PWNED\"'}), 'ok') }}",
    "={{ (() => { const zone = DateTime.now().setZone('Europe/Paris').zone;"
    " Object['getPrototype' + 'Of'](zone).offset = () => 600; return 'ok'; })() }}",
    "={{ (__weft.installLuxon({ DateTime: { fromMillis: () => 'PWNED' }, Settings: {} }), 'ok') }}",
    "={{ (async () => { await null; globalThis.jobLeak = 1; })() && 'ok' }}",
    "={{ (function () { (async () => { for (;;) await null; })(); return 'ok'; })() }}",
]

READ_STOLEN = "return [{ json: { stolen: typeof stolen === 'undefined' ? null : stolen } }];"

CHECK_CODE = """
return [{ json: {
  up: 'abc'.toUpperCase(),
  includes: [1, 2].includes(3),
  trim: ' x '.trim(),
  fixed: (1.5).toFixed(2),
  pad: 'a'.padStart(3, '-'),
  max: Math.max(1, 2),
  clock: Date.now() > 0,
  keys: Object.keys({ a: 1 }),
  json: JSON.stringify({ a: [1, 'b'] }),
  input: $input.first().json.secret,
  globals: [typeof codeLeak, typeof leakedSloppy, typeof exprLeak, typeof jobLeak, typeof stolen],
} }];
"""
CHECKED = {
    "up": "ABC",
    "includes": False,
    "trim": "x",
    "fixed": "1.50",
    "pad": "--a",
    "max": 2,
    "clock": True,
    "keys": ["a"],
    "json": '{"a":[1,"b"]}',
    "input": "v-1",
    "globals": ["undefined"] * 5,
}

CHECK_EXPRESSIONS = {
    "up": ("={{ String($json.name).toUpperCase() }}", "VICTIM"),  # String(): in the sandbox, not the fast path
    "includes": ("={{ [1, 2].includes(3) }}", False),
    "pad": ("={{ 'a'.padStart(3, '-') }}", "--a"),
    "max": ("={{ Math.max(1, 2) }}", 2),
    "json": ("={{ JSON.stringify($json) }}", '{"name":"victim","secret":"v-1"}'),
    "input": ("={{ $input.first().json.secret }}", "v-1"),
    "paris": ("={{ DateTime.fromISO('2024-01-02T12:00:00Z').setZone('Europe/Paris').toFormat('HH:mm') }}", "13:00"),
    "now": ("={{ typeof $now.toMillis() }}", "number"),
    "keys": ("={{ Object.keys($json).join(',') }}", "name,secret"),
    "globals": (
        "={{ [typeof codeLeak, typeof leakedSloppy, typeof exprLeak, typeof jobLeak, typeof stolen].join(',') }}",
        ",".join(["undefined"] * 5),
    ),
}
EXPECTED_SET = {"name": "victim", "secret": "v-1", **{key: value for key, (_, value) in CHECK_EXPRESSIONS.items()}}


def _node(name: str, type_: str, parameters: dict[str, Any], version: float = 2) -> dict[str, Any]:
    return {"name": name, "type": type_, "typeVersion": version, "parameters": parameters, "position": [0, 0]}


def _code(name: str, code: str) -> dict[str, Any]:
    return _node(name, "n8n-nodes-base.code", {"jsCode": code})


def _set(name: str, values: dict[str, str]) -> dict[str, Any]:
    assignments = [
        {"id": str(i), "name": key, "value": value, "type": "string" if key != "max" else "number"}
        for i, (key, value) in enumerate(values.items())
    ]
    for assignment in assignments:
        if assignment["name"] in ("includes",):
            assignment["type"] = "boolean"
    parameters = {"assignments": {"assignments": assignments}, "includeOtherFields": True, "options": {}}
    return _node(name, "n8n-nodes-base.set", parameters, 3.4)


def _wait(name: str, seconds: float) -> dict[str, Any]:
    return _node(name, "n8n-nodes-base.wait", {"resume": "timeInterval", "amount": seconds, "unit": "seconds"}, 1.1)


def _workflow(name: str, *nodes: dict[str, Any]) -> dict[str, Any]:
    trigger = _node("Start", "n8n-nodes-base.manualTrigger", {}, 1)
    chain = [trigger, *nodes]
    connections = {
        a["name"]: {"main": [[{"node": b["name"], "type": "main", "index": 0}]]} for a, b in itertools.pairwise(chain)
    }
    return {"name": name, "nodes": chain, "connections": connections, "settings": {"executionOrder": "v1"}}


def _pollute_nodes(code: str = POLLUTE_CODE, expressions: list[str] = POLLUTE_EXPRESSIONS) -> list[dict[str, Any]]:
    values = {f"p{i}": value for i, value in enumerate(expressions)}
    nodes = [_code("Pollute in Code", code), _set("Pollute in expressions", values)]
    for node in nodes:  # a trick may fail its own node (the endless async loop times out): nothing else
        node["onError"] = "continueRegularOutput"
    return nodes


def _victim_nodes() -> list[dict[str, Any]]:
    make = _code("Make", "return [{ json: { name: 'victim', secret: 'v-1' } }];")
    checks = _set("Check in expressions", {key: value for key, (value, _) in CHECK_EXPRESSIONS.items()})
    return [make, checks, _code("Check", CHECK_CODE)]


def _output(run: Any, node: str) -> list[Any]:
    tasks = run["data"]["resultData"]["runData"][node]
    assert "error" not in tasks[0], tasks[0]["error"]
    return [item["json"] for item in tasks[0]["data"]["main"][0]]


def _assert_victim_exact(run: Any) -> None:
    assert _output(run, "Check in expressions") == [EXPECTED_SET]
    assert _output(run, "Check") == [CHECKED]
    assert run["status"] == "success"


async def _run(workflow: dict[str, Any]) -> Any:
    return await run_workflow(workflow, options=OPTIONS)


def test_a_workflow_running_beside_a_polluting_one_gets_exact_results() -> None:
    attacker = _workflow("attacker", *_pollute_nodes(), _wait("Let the victim run", 0.3), _code("Read", READ_STOLEN))
    victim = _workflow("victim", _wait("Let the attacker pollute", 0.05), *_victim_nodes())

    async def both() -> tuple[Any, Any]:
        return await asyncio.gather(_run(attacker), _run(victim))

    attacked, victimised = asyncio.run(both())
    _assert_victim_exact(victimised)
    assert _output(attacked, "Read") == [{"stolen": None}]


def test_state_does_not_pass_between_nodes_of_one_execution() -> None:
    run = asyncio.run(_run(_workflow("one execution", *_pollute_nodes(), *_victim_nodes())))
    _assert_victim_exact(run)


def test_state_does_not_pass_between_executions_one_after_the_other() -> None:
    asyncio.run(_run(_workflow("first", *_pollute_nodes())))
    _assert_victim_exact(asyncio.run(_run(_workflow("second", *_victim_nodes()))))


@pytest.mark.parametrize(
    ("code", "expressions"),
    [(statement + RETURN, []) for statement in POLLUTE_STATEMENTS] + [(RETURN, [e]) for e in POLLUTE_EXPRESSIONS],
    ids=[f"code-{i}" for i in range(len(POLLUTE_STATEMENTS))]
    + [f"expression-{i}" for i in range(len(POLLUTE_EXPRESSIONS))],
)
def test_no_trick_alone_leaves_anything_behind(code: str, expressions: list[str]) -> None:
    asyncio.run(_run(_workflow("first", *_pollute_nodes(code, expressions))))
    _assert_victim_exact(asyncio.run(_run(_workflow("second", *_victim_nodes()))))
