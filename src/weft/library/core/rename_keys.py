"""Rename Keys (``n8n-nodes-base.renameKeys`` v1): renames item keys, by name (dot paths, as lodash's
``get``/``set``/``unset``) and by regular expression (recorded: cases n302-n304).

A renamed key moves to the end of its object, as in JavaScript. The regular expressions are JavaScript's: they run
in the sandbox (a user-code worker, with its time limit, as n8n's ``safeRegex`` bounds them), with n8n's walk over
the keys: objects to ``depth`` levels (-1: all), array elements one level further, the first match of each key
replaced (``$1`` and the like as in ``String.replace``).
"""

from __future__ import annotations

import copy
import json
from typing import Any, ClassVar

from weft.errors import NodeError, NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.paths import get_path, set_path, unset_path
from weft.workflow import Item, NodeOutput

_MISSING = object()
_BAD = "\ufdd0badRegex"
#: QuickJS's words for a regular expression that does not compile, as V8 (n8n) says them (recorded: case n305).
_V8_REGEX_REASONS = {
    "expecting ')'": "Unterminated group",
    "unexpected end": "Unterminated character class",
    "nothing to repeat": "Nothing to repeat",
    "extraneous characters at the end": "Unmatched ')'",
    "invalid repetition count": "numbers out of order in {} quantifier",
    "duplicate group name": "Duplicate capture group name",
}

#: n8n's ``regexReplaceKey``, run over every item's JSON in the sandbox.
_REGEX_PROGRAM = """
const replacements = __REPLACEMENTS__;
for (const { searchRegex, options } of replacements) {
  const flags = (options || {}).caseInsensitive ? 'i' : '';
  try { new RegExp(searchRegex, flags); }
  catch (e) { return [{ json: { [BAD]: { source: searchRegex, flags, reason: e.message } } }]; }
}
const renameObjectKeys = (obj, depth, regex, replace) => {
  for (const key in obj) {
    if (Array.isArray(obj)) {
      if (depth !== 0) renameObjectKeys(obj[key], depth - 1, regex, replace);
    } else if (Object.prototype.hasOwnProperty.call(obj, key)) {
      if (typeof obj[key] === 'object' && depth !== 0) renameObjectKeys(obj[key], depth - 1, regex, replace);
      if (regex.test(key)) {
        const newKey = key.replace(regex, replace);
        if (newKey !== key) { obj[newKey] = obj[key]; delete obj[key]; }
      }
    }
  }
  return obj;
};
return __ITEMS__.map((json) => {
  for (const { searchRegex, replaceRegex, options } of replacements) {
    const { depth = -1, caseInsensitive } = options || {};
    json = renameObjectKeys(json, depth, new RegExp(searchRegex, caseInsensitive ? 'i' : undefined), replaceRegex);
  }
  return { json };
});
"""


class RenameKeys(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.renameKeys",
        display_name="Rename Keys",
        versions=(1,),
        description="Update item field names",
        defaults={"keys": {}, "additionalOptions": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        out: list[Item] = []
        for index, item in enumerate(ctx.get_input_data()):
            try:
                renamed: Item = {"json": _renamed(item["json"], ctx.get_node_parameter("keys.key", index, []))}
                if "binary" in item:
                    renamed["binary"] = item["binary"]
                renamed["pairedItem"] = {"item": index}
            except NodeError as error:
                if not ctx.continue_on_fail():
                    raise
                renamed = {"json": {"error": error.message}, "pairedItem": {"item": index}}
            out.append(renamed)
        replacements = ctx.get_node_parameter("additionalOptions.regexReplacement.replacements", 0, [])
        if replacements:
            await _replace_by_regex(ctx, out, replacements)
        return [out]


def _renamed(json_data: dict[str, Any], keys: list[dict[str, Any]]) -> dict[str, Any]:
    """n8n's ``renameKey`` for each ``{currentKey, newKey}``: read from the original, write to the copy."""
    new = copy.deepcopy(json_data)
    for key in keys or []:
        current, target = str(key.get("currentKey", "")), str(key.get("newKey", ""))
        if current == "" or target == "" or current == target:
            continue
        value = get_path(json_data, current, default=_MISSING)
        if value is _MISSING:
            continue
        set_path(new, target, value)
        unset_path(new, current)
    return new


async def _replace_by_regex(ctx: ExecuteContext, items: list[Item], replacements: list[dict[str, Any]]) -> None:
    from weft.expressions import run_code
    from weft.expressions.offload import run_in_worker

    program = (
        _REGEX_PROGRAM.replace("__REPLACEMENTS__", json.dumps(replacements))
        .replace("__ITEMS__", json.dumps([item["json"] for item in items]))
        .replace("[BAD]", json.dumps([_BAD]))
    )
    result = await run_in_worker(run_code, program, ctx.expression_context())
    bad = result.items[0]["json"].get(_BAD) if result.items else None
    if bad is not None:
        reason = _V8_REGEX_REASONS.get(bad["reason"], bad["reason"][:1].upper() + bad["reason"][1:])
        raise NodeOperationError(
            ctx.node.name,
            f"Invalid regular expression: /{bad['source']}/{bad['flags']}: {reason}",
            description="Fix the 'Regular Expression' of the replacement (a JavaScript regular expression).",
        )
    for item, renamed in zip(items, result.items, strict=True):
        item["json"] = renamed["json"]


__all__ = ["RenameKeys"]
