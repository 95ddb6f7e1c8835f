from __future__ import annotations

import pytest

from weft.nodes.registry import NodeRegistry
from weft.testing import probe_nodes


@pytest.fixture
def registry() -> NodeRegistry:
    probe_nodes.CALLS.clear()
    probe_nodes.Requester.seen.clear()
    return probe_nodes.probe_registry()
