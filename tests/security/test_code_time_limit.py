"""A Code node's time limit holds for its whole run (``WEFT_CODE_TIMEOUT``, n8n's task timeout): not per item, and
not restarted each time the code stops to ask the engine for more data (each such stop runs it again)."""

from __future__ import annotations

from typing import Any

from weft.engine import EngineOptions, Execution
from weft.expressions import ExpressionLimits
from weft.testing.workflows import connect, node, workflow
from weft.workflow import Workflow, parse_workflow

#: Five nodes whose outputs the Code node reads one by one, each read a stop for data that runs the code again.
SOURCES = [f"S{i}" for i in range(5)]
READS_SLOWLY = (
    f"const out = [];\nfor (const name of {SOURCES!r}) {{\n"
    "  const t = Date.now(); while (Date.now() - t < 150) {}\n"
    "  out.push({json: {v: $(name).first().json.v}});\n}\nreturn out;"
)


def _reading_workflow() -> Workflow:
    nodes: list[Any] = [node("Start", "n8n-nodes-base.manualTrigger")]
    links: list[Any] = []
    previous = "Start"
    for index, name in enumerate(SOURCES):
        nodes.append(
            node(
                name,
                "n8n-nodes-base.set",
                typeVersion=3.4,
                parameters={
                    "assignments": {"assignments": [{"id": "v", "name": "v", "type": "number", "value": index}]}
                },
            )
        )
        links.append(connect(previous, name))
        previous = name
    nodes.append(node("Read", "n8n-nodes-base.code", typeVersion=2, parameters={"jsCode": READS_SLOWLY}))
    links.append(connect(previous, "Read"))
    return Workflow(parse_workflow(workflow(*nodes, *links)))


async def _run(code_time_s: float) -> dict[str, Any]:
    options = EngineOptions(expression_limits=ExpressionLimits(code_time_s=code_time_s))
    run: dict[str, Any] = await Execution(_reading_workflow(), options=options).run()
    return run


async def test_stops_for_data_do_not_restart_the_limit() -> None:
    # each run of the code takes at most 0.75 s, under the 1 s limit; all of them together take 2.25 s
    run = await _run(1.0)
    assert run["status"] == "error"
    assert run["data"]["resultData"]["error"]["message"] == "Task execution timed out after 1 second"


async def test_the_same_code_ends_within_a_limit_that_allows_it() -> None:
    run = await _run(10.0)
    assert run["status"] == "success"
    items = run["data"]["resultData"]["runData"]["Read"][0]["data"]["main"][0]
    assert [item["json"]["v"] for item in items] == [0, 1, 2, 3, 4]
