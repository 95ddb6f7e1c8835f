"""n8n ``workflow-execute.test.ts`` › "v0 execution order": the ``legacyWorkflowExecuteTests`` scenarios."""

from __future__ import annotations

import pytest
from tests.conformance._legacy_suite import LEGACY_SCENARIOS
from tests.conformance._n8n import Scenario, execution_order, node_runs, workflow

from weft.engine import run_workflow


@pytest.mark.parametrize("scenario", LEGACY_SCENARIOS, ids=lambda s: s.description[:60])
async def test_legacy_scenario(scenario: Scenario) -> None:
    run = await run_workflow(workflow(scenario.nodes, scenario.connections, "v0"))
    assert run["status"] == "success", run["data"]["resultData"].get("error")
    for name, expected in scenario.node_data.items():
        assert node_runs(run, name, v1=False) == expected, name
    assert execution_order(run) == scenario.order
    assert run["data"]["executionData"]["nodeExecutionStack"] == []
