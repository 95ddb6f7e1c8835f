"""Running a workflow in-process (mode ``cli``) with an SMTP credential, as ``weft execute`` does."""

from __future__ import annotations

import json
from typing import Any

from weft.engine import Execution
from weft.engine.services import LocalServices
from weft.engine.start import find_called_start
from weft.nodes.registry import default_registry
from weft.workflow import Workflow, parse_workflow, validate_workflow
from weft.workflow.jsjson import pretty_json

CREDENTIAL_NAME = "Local SMTP (acceptance)"


def smtp_credential(port: int, **extra: Any) -> dict[str, Any]:
    """The ``smtp`` credential data of the recordings, on ``port`` (plain TCP, no STARTTLS)."""
    return {
        "user": "",
        "password": "",
        "host": "127.0.0.1",
        "port": port,
        "secure": False,
        "disableStartTls": True,
    } | extra


async def run_workflow(data: dict[str, Any], credential: dict[str, Any]) -> dict[str, Any]:
    """The IRun as ``weft execute --json`` prints it."""
    registry = default_registry()
    model = parse_workflow(data, source="test")
    validate_workflow(model, registry)
    services = LocalServices(credentials={CREDENTIAL_NAME: credential, "smtp": credential}, registry=registry)
    workflow = Workflow(model)
    execution = Execution(workflow, registry=registry, mode="cli", services=services)
    run = await execution.run(start_node=find_called_start(workflow))
    await services.wait_background()
    printed: dict[str, Any] = json.loads(pretty_json(run))
    return printed


def node_items(run: dict[str, Any], name: str, run_index: int = 0) -> list[dict[str, Any]]:
    """The ``json`` of a node's first output items."""
    task = run["data"]["resultData"]["runData"][name][run_index]
    return [item["json"] for item in task["data"]["main"][0]]
