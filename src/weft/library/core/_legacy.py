"""Shared helpers of the legacy node versions (IF v1, Merge v1–2.1, SplitInBatches v1–2).

The modern node types declare parameter defaults for their newest version; a legacy version has its own
defaults, so legacy code reads the node's parameters directly and falls back on the default it is given.
"""

from __future__ import annotations

from typing import Any

from weft.nodes.contract import ExecuteContext
from weft.nodes.values import Params, has_expression


def legacy_param(ctx: ExecuteContext, name: str, item_index: int = 0, default: Any = None) -> Any:
    """Parameter ``name`` (dotted path) with expressions evaluated for ``item_index``, else ``default``."""
    value: Any = ctx.node.parameters
    for part in name.split("."):
        if not isinstance(value, dict) or part not in value:
            return default
        value = value[part]
    return Params(ctx).resolve(value, item_index) if has_expression(value) else value
