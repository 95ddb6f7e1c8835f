"""Every typeVersion n8n 2.8.4 and 2.41.1 ship (their ``export:nodes`` catalogs) is accepted by Weft.

Nodes that cannot run under ``n8n execute`` (Webhook, Respond to Webhook, Schedule Trigger, Wait) get a load
test instead: a workflow with each of their versions parses and validates.
"""

from __future__ import annotations

import pytest

from weft.nodes.registry import default_registry
from weft.testing.workflows import connect, node, workflow
from weft.workflow import NodeModel, parse_workflow
from weft.workflow.validate import validate_workflow

BASE = "n8n-nodes-base."

#: The union of the versions in n8n 2.8.4's and 2.41.1's catalogs (the newest is n8n's default version).
N8N_VERSIONS: dict[str, tuple[float, ...]] = {
    "aggregate": (1,),
    "code": (1, 2),
    "executeWorkflow": (1, 1.1, 1.2, 1.3, 1.4),
    "executeWorkflowTrigger": (1, 1.1, 1.2),
    "filter": (1, 2, 2.1, 2.2, 2.3),
    "httpRequest": (1, 2, 3, 4, 4.1, 4.2, 4.3, 4.4, 4.5),
    "if": (1, 2, 2.1, 2.2, 2.3),
    "limit": (1,),
    "manualTrigger": (1,),
    "merge": (1, 2, 2.1, 3, 3.1, 3.2),
    "noOp": (1,),
    "removeDuplicates": (1, 1.1, 2),
    "respondToWebhook": (1, 1.1, 1.2, 1.3, 1.4, 1.5),
    "scheduleTrigger": (1, 1.1, 1.2, 1.3, 1.4),
    "set": (1, 2, 3, 3.1, 3.2, 3.3, 3.4, 3.5),
    "sort": (1,),
    "splitInBatches": (1, 2, 3),
    "splitOut": (1,),
    "stopAndError": (1,),
    "switch": (1, 2, 3, 3.1, 3.2, 3.3, 3.4),
    "wait": (1, 1.1),
    "webhook": (1, 1.1, 2, 2.1),
}


@pytest.mark.parametrize("short_name", sorted(N8N_VERSIONS))
def test_every_n8n_version_is_accepted(short_name: str) -> None:
    registry = default_registry()
    for version in N8N_VERSIONS[short_name]:
        assert registry.check(BASE + short_name, version) is None, (short_name, version)


@pytest.mark.parametrize("short_name", sorted(N8N_VERSIONS))
def test_a_new_node_gets_the_newest_version(short_name: str) -> None:
    node_type = default_registry().type_class(BASE + short_name)
    assert node_type is not None
    assert node_type.description.default_version == max(N8N_VERSIONS[short_name])


def test_an_unknown_version_is_named_with_the_supported_ones() -> None:
    reason = default_registry().check(BASE + "switch", 3.9)
    assert reason is not None and "no typeVersion 3.9" in reason and "1, 2, 3, 3.1" in reason


SERVER_ONLY = {
    "webhook": {"httpMethod": "POST", "path": "load-test", "responseMode": "onReceived", "options": {}},
    "scheduleTrigger": {"rule": {"interval": [{"field": "hours", "hoursInterval": 2}]}},
}
AFTER_WEBHOOK = {
    "respondToWebhook": {"respondWith": "json", "responseBody": '={{ {"ok": true} }}', "options": {}},
    "wait": {"amount": 2, "unit": "seconds"},
}


@pytest.mark.parametrize(
    ("short_name", "version"),
    [(name, v) for name in [*SERVER_ONLY, *AFTER_WEBHOOK] for v in N8N_VERSIONS[name]],
)
def test_server_only_nodes_load_and_validate(short_name: str, version: float) -> None:
    if short_name in SERVER_ONLY:
        parts = [node("Start", BASE + short_name, SERVER_ONLY[short_name], version=version), node("After")]
    else:
        hook = node("Start", BASE + "webhook", {**SERVER_ONLY["webhook"], "responseMode": "responseNode"}, version=2.1)
        parts = [hook, node("After", BASE + short_name, AFTER_WEBHOOK[short_name], version=version)]
    model = parse_workflow(workflow(*parts, connect("Start", "After")))
    validate_workflow(model, default_registry())
    assert model.nodes[0 if short_name in SERVER_ONLY else 1].typeVersion == version


def test_schedule_trigger_from_1_3_rejects_an_out_of_range_interval() -> None:
    from weft.errors import WorkflowDefinitionError
    from weft.nodes.schedules.schedule import cron_expressions

    def trigger(version: float) -> NodeModel:
        data = workflow(
            node(
                "Start",
                BASE + "scheduleTrigger",
                {"rule": {"interval": [{"field": "hours", "hoursInterval": 30}]}},
                version=version,
            )
        )
        return parse_workflow(data).nodes[0]

    assert cron_expressions(trigger(1.2)) == ["0 0 */30 * * *"]
    with pytest.raises(WorkflowDefinitionError, match="Hours must be in range 1-23"):
        cron_expressions(trigger(1.3))
