"""n8n ``workflow-execute.test.ts`` › "v1 execution order": every ``v1WorkflowExecuteTests`` scenario, run for real."""

from __future__ import annotations

import pytest
from tests.conformance._n8n import Scenario, execution_order, node_runs, workflow
from tests.conformance._v1_suite import V1_SCENARIOS

from weft.engine import run_workflow


@pytest.mark.parametrize("scenario", V1_SCENARIOS, ids=lambda s: s.description[:60])
async def test_v1_scenario(scenario: Scenario) -> None:
    run = await run_workflow(workflow(scenario.nodes, scenario.connections, "v1"))
    assert run["status"] == "success", run["data"]["resultData"].get("error")
    for name, expected in scenario.node_data.items():
        assert node_runs(run, name, v1=True, all_outputs=scenario.all_outputs) == expected, name
    assert execution_order(run) == scenario.order
    assert run["finished"] is True
    assert run["data"]["executionData"]["nodeExecutionStack"] == []
