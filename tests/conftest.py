"""What the whole test suite shares: Weft's demo and test models are on.

Tests build workflows on the Scripted Chat Model, the Demo Chat Model and Demo Embeddings everywhere; production
instances offer them only with ``WEFT_DEMO_NODES`` (``weft.settings.Settings.demo_nodes``). They are turned on here,
once, before any test module is imported: for this process (every registry that is not told otherwise) and, through
the environment, for the ``weft`` commands, servers and workers that tests start. Tests of the setting itself build
``NodeRegistry(demo_nodes=False)`` or run a command with the variable removed (``tests/nodes/test_demo_nodes.py``,
``tests/server/test_demo_node_types.py``, ``tests/cli/test_demo_command.py``).
"""

from __future__ import annotations

import os

from weft.nodes.registry import allow_demo_nodes

os.environ["WEFT_DEMO_NODES"] = "true"
allow_demo_nodes()
