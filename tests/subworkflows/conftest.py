"""Sub-workflow tests: the server fixtures of ``tests/server`` and the workflows recorded with n8n."""

from __future__ import annotations

import copy
import json
import uuid
from pathlib import Path
from typing import Any

from tests.recorded._read_spy import pytest_runtest_call  # noqa: F401  (each parameter a node reads is described)
from tests.server.conftest import live  # noqa: F401 (the fixture, for these tests)

HERE = Path(__file__).parent


def recorded(name: str) -> dict[str, Any]:
    """A golden file of this folder."""
    data: dict[str, Any] = json.loads((HERE / name).read_text(encoding="utf-8"))
    return data


def sub_wait_pair(path: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The recorded parent and child (``n8n/``) with fresh ids, webhook ids and the parent's path set to ``path``."""
    child = copy.deepcopy(recorded("n8n/sub_wait.json"))
    parent = copy.deepcopy(recorded("n8n/parent_wait.json"))
    child["id"], parent["id"] = uuid.uuid4().hex[:16], uuid.uuid4().hex[:16]
    for node in child["nodes"] + parent["nodes"]:
        if "webhookId" in node:
            node["webhookId"] = str(uuid.uuid4())
        if node["type"] == "n8n-nodes-base.webhook":
            node["parameters"]["path"] = path
        if node["type"] == "n8n-nodes-base.executeWorkflow":
            node["parameters"]["workflowId"]["value"] = child["id"]
    return parent, child
