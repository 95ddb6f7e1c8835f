"""Node-as-tool: which node types have a ``…Tool`` twin, what it looks like, and the tool an agent gets from it."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest

from weft.nodes.as_tool import convert_node_to_tool
from weft.nodes.catalog import CATALOG
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.node_properties import description_for
from weft.nodes.node_tool import make_description, shown_parameters, tool_description
from weft.nodes.registry import NodeRegistry, default_registry
from weft.workflow import AI_TOOL

BASE = "n8n-nodes-base."

#: The built-in types n8n 2.8.4 and 2.41.1 mark ``usableAsTool`` (their ``export:nodes`` catalogs), with the
#: versions that carry the flag: HTTP Request v1 and v2 do not, nor Send Email v1. No other type Weft implements has it.


def _n8n_tool_versions(type_name: str, versions: tuple[float, ...]) -> tuple[float, ...]:
    """The versions n8n's own description marks ``usableAsTool`` (``src/weft/nodes/descriptions``)."""
    return tuple(v for v in versions if (description_for(type_name, v) or {}).get("usableAsTool"))


@pytest.mark.parametrize("type_name", sorted(CATALOG))
def test_usable_as_tool_flags_match_n8n(type_name: str) -> None:
    registry = default_registry()
    base = registry.type_class(type_name)
    assert base is not None
    expected = _n8n_tool_versions(type_name, base.description.versions)
    assert base.description.usable_as_tool is bool(expected), type_name
    tool = registry.type_class(type_name + "Tool")
    if expected:
        assert tool is not None and tool.description.versions == expected
    else:
        assert tool is None, f"{type_name}Tool should not exist: n8n does not mark {type_name} usableAsTool"


def test_http_request_tool_description() -> None:
    tool = default_registry().type_class(BASE + "httpRequestTool")
    assert tool is not None
    desc = tool.description
    assert (desc.name, desc.display_name) == (BASE + "httpRequestTool", "HTTP Request Tool")
    assert desc.input_types({}) == () and desc.output_types({}) == (AI_TOOL,)
    assert desc.defaults["toolDescription"] == "Makes an HTTP request and returns the response data"
    assert "descriptionType" not in desc.defaults  # HTTP Request has no resource/operation
    assert not desc.usable_as_tool and tool.supports("supply_data") and tool.supports("execute")


def test_an_old_http_request_version_is_no_tool() -> None:
    reason = default_registry().check(BASE + "httpRequestTool", 2)
    assert reason is not None and "no typeVersion 2" in reason


class _Crm(NodeType):
    """A node with resources and operations, as n8n's service nodes have."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="weft.crm",
        display_name="CRM",
        description="Talks to the CRM",
        usable_as_tool=True,
        defaults={"name": "Acme CRM"},
        properties=(
            {"name": "resource", "options": [{"value": "contact"}]},
            {
                "name": "operation",
                "displayOptions": {"show": {"resource": ["contact"]}},
                "options": [{"value": "get", "action": "Get a contact"}, {"value": "delete"}],
            },
        ),
    )

    async def execute(self, ctx: ExecuteContext) -> Any:
        return [[{"json": {}}]]


def test_resource_operation_nodes_get_a_description_type() -> None:
    tool = convert_node_to_tool(_Crm)
    names = [p["name"] for p in tool.description.properties]
    assert names[:2] == ["descriptionType", "toolDescription"]  # n8n: after the last callout, else first
    assert tool.description.defaults["descriptionType"] == "auto"
    shown = tool.description.properties[1]["displayOptions"]
    assert shown == {"show": {"descriptionType": ["manual"]}}


@pytest.mark.parametrize(
    ("parameters", "expected"),
    [
        ({"resource": "contact", "operation": "get"}, "Get a contact in Acme CRM"),
        ({"resource": "contact", "operation": "delete"}, "delete contact in Acme CRM"),
        ({"resource": "contact"}, "Talks to the CRM"),
        ({"resource": "contact", "operation": "get", "descriptionType": "manual", "toolDescription": "Mine"}, "Mine"),
        (
            {"resource": "contact", "operation": "get", "descriptionType": "manual", "toolDescription": " "},
            "Get a contact in Acme CRM",
        ),
    ],
)
def test_the_description_n8n_generates(parameters: dict[str, Any], expected: str) -> None:
    tool = convert_node_to_tool(_Crm)
    assert tool_description(parameters, tool.description) == expected


def test_make_description_falls_back_on_the_type_description() -> None:
    assert make_description({}, _Crm.description) == "Talks to the CRM"


def test_a_registered_usable_node_gets_its_tool_type() -> None:
    registry = NodeRegistry({}, load_entry_points=False)
    registry.register(_Crm)
    tool = registry.type_class("weft.crmTool")
    assert tool is not None and tool.description.name == "weft.crmTool"
    assert registry.type_class("n8n-nodes-base.setTool") is None


def test_a_node_n8n_does_not_mark_usable_is_refused_by_name() -> None:
    reason = default_registry().check(BASE + "setTool", 3.4)
    assert reason is not None
    assert "'n8n-nodes-base.set' cannot be used as a tool" in reason


def test_only_the_parameters_the_node_shows_count_for_the_schema() -> None:
    tool = default_registry().get(BASE + "httpRequestTool")
    parameters = {
        "url": "x",
        "sendQuery": False,
        "queryParameters": {"parameters": []},
        "sendBody": True,
        "bodyParameters": {"parameters": []},
        "jsonBody": "{}",
        "dataField": "d",
        "optimizeResponse": True,
        "fields": "a",
    }
    assert list(shown_parameters(parameters, tool)) == [
        "url",
        "sendQuery",
        "sendBody",
        "bodyParameters",
        "dataField",
        "optimizeResponse",
    ]
    assert "fields" in shown_parameters({**parameters, "fieldsToInclude": "selected"}, tool)
