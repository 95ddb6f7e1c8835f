"""Sort (``n8n-nodes-base.sort`` v1): sorts items by fields (``simple``), randomly, or by code.

Strings compare case-insensitively, like n8n; sorting is stable. The ``code`` type runs the JavaScript comparator
in the Code node's sandbox.
"""

from __future__ import annotations

import functools
import random
import re
from typing import Any, ClassVar

from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.values import Params, get_path, js_equal, js_less_than
from weft.workflow import Item, NodeOutput

_MISSING: Any = object()


class Sort(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.sort",
        display_name="Sort",
        versions=(1,),
        description="Change items order",
        group=("transform",),
        defaults={"type": "simple", "sortFieldsUi": {}, "options": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        params = Params(ctx)
        items = list(ctx.get_input_data())
        kind = params.get("type", 0, "simple")
        if kind == "random":
            random.shuffle(items)
            return [items]
        if kind == "code":
            return [await _sort_by_code(ctx, items)]
        return [_sort_simple(ctx, params, items)]


def _sort_simple(ctx: ExecuteContext, params: Params, items: list[Item]) -> list[Item]:
    fields = (params.get("sortFieldsUi", 0, {}) or {}).get("sortField") or []
    if not fields:
        raise NodeOperationError(ctx.node.name, "No sorting specified. Please add a field to sort by")
    dot = not (params.get("options", 0, {}) or {}).get("disableDotNotation")
    for spec in fields:
        name = str(spec.get("fieldName", ""))
        if not any(_value(item, name, dot) is not _MISSING for item in items):
            description = None
            if not dot and "." in name:
                description = (
                    "If you're trying to use a nested field, make sure you turn off 'disable dot notation' "
                    "in the node options"
                )
            raise NodeOperationError(
                ctx.node.name, f"Couldn't find the field '{name}' in the input data", description=description
            )
    order = [(str(s.get("fieldName", "")), 1 if s.get("order", "ascending") == "ascending" else -1) for s in fields]

    def compare(a: Item, b: Item) -> int:
        for name, direction in order:
            left, right = _key(a, name, dot), _key(b, name, dot)
            if not js_equal(left, right):
                return -direction if js_less_than(left, right) else direction
        return 0

    return sorted(items, key=functools.cmp_to_key(compare))


_RETURN = re.compile(r"\breturn\b")


async def _sort_by_code(ctx: ExecuteContext, items: list[Item]) -> list[Item]:
    """n8n ``sortByCode``: ``items.sort((a, b) => { <code> })`` in the Code sandbox. The sandbox sorts the items'
    positions, so the items themselves (and their pairing) go out unchanged, in the new order."""
    code = str(ctx.get_node_parameter("code", 0, "", raw=True))
    if not _RETURN.search(code):
        raise NodeOperationError(
            ctx.node.name, "Sort code doesn't return. Please add a 'return' statement to your code"
        )
    program = (
        "const items = $input.all().map((item, index) => ({ ...item, __weftIndex: index }));\n"
        f"const order = items.sort((a, b) => {{ {code}\n}}).map((item) => item.__weftIndex);\n"
        "return [{ json: { order } }];"
    )
    from weft.expressions import run_code
    from weft.expressions.offload import run_in_worker

    # user code: in a worker, never on the event loop (a `while (true) {}` holds only its thread)
    result = await run_in_worker(run_code, program, ctx.expression_context())
    order = result.items[0]["json"]["order"] if result.items else []
    return [items[index] for index in order]


def _value(item: Item, name: str, dot: bool) -> Any:
    return get_path(item["json"], name, dot_notation=dot, default=_MISSING)


def _key(item: Item, name: str, dot: bool) -> Any:
    value = _value(item, name, dot)
    return value.lower() if isinstance(value, str) else value
