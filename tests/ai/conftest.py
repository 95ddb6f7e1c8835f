"""Fixtures for the chat-model tests: the fake provider servers and a minimal sub-node context."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from tests.recorded._read_spy import pytest_runtest_call  # noqa: F401  (each parameter a node reads is described)

from weft.nodes.contract import MISSING
from weft.testing.pytest_plugin import fake_anthropic_server, fake_openai_server
from weft.workflow import Item, NodeModel

__all__ = ["FakeSupplyContext", "fake_anthropic_server", "fake_openai_server"]


@dataclass
class FakeSupplyContext:
    """Just enough of ``SupplyDataContext`` for model nodes: parameters, credentials and run recording."""

    node: NodeModel
    credentials: dict[str, dict[str, Any]] = field(default_factory=dict)
    runs: list[dict[str, Any]] = field(default_factory=list)
    parent_node_name: str = "AI Agent"
    mode: str = "manual"
    run_index: int = 0
    execution_id: str | None = None

    def get_node_parameter(
        self, name: str, item_index: int = 0, default: Any = MISSING, *, raw: bool = False, extract_value: bool = False
    ) -> Any:
        value: Any = self.node.parameters
        for part in name.split("."):
            if not isinstance(value, dict) or part not in value:
                return None if default is MISSING else default
            value = value[part]
        if extract_value and isinstance(value, dict) and value.get("__rl"):
            return value.get("value")
        return value

    async def get_credentials(self, credential_type: str) -> dict[str, Any]:
        return self.credentials[credential_type]

    def add_input_data(self, connection_type: str, data: list[list[Item]]) -> int:
        self.runs.append({"connection": connection_type, "input": data, "output": None})
        return len(self.runs) - 1

    def add_output_data(
        self,
        connection_type: str,
        run_index: int,
        data: list[list[Item]] | BaseException,
        metadata: dict[str, Any] | None = None,
    ) -> None:
        self.runs[run_index]["output"] = data


def _make_ctx(
    type_: str, parameters: dict[str, Any], *, version: float = 1, credentials: dict[str, Any] | None = None
) -> FakeSupplyContext:
    node = NodeModel(name="Chat Model", type=type_, typeVersion=version, parameters=parameters)
    return FakeSupplyContext(node=node, credentials=credentials or {})


@pytest.fixture
def make_ctx() -> Any:
    """``make_ctx(type, parameters, version=…, credentials=…)``: a context for supplying a model node."""
    return _make_ctx


@pytest.fixture
def calculator() -> Any:
    from weft.ai.messages import ToolDefinition

    return ToolDefinition(
        name="Calculator",
        description="Useful for getting the result of a math expression.",
        parameters={
            "type": "object",
            "properties": {"input": {"type": "string"}},
            "additionalProperties": False,
        },
    )
