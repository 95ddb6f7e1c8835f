"""Markdown (``n8n-nodes-base.markdown`` v1): markdown to HTML and HTML to markdown (recorded: n485-n489).

Both directions run the libraries n8n runs, at n8n's versions (showdown 2.1.0, node-html-markdown 1.2.0 on
node-html-parser 5.4.2), bundled into ``markdown.js`` (``js/src/markdown``, built by ``scripts/build_js.py``) and
run in the sandbox, off the event loop: the output is n8n's, option for option. showdown reads the legacy
``RegExp.$1``, which QuickJS lacks: :func:`bundle` rewrites its two uses to read the match of the same ``exec``.
"""

from __future__ import annotations

import copy
import json
import re
from functools import cache
from typing import Any, ClassVar

from weft.errors import ConfigurationError, NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.paths import set_path
from weft.workflow import Item, NodeOutput

#: n8n's execute() for one item: options are shaped as the node shapes them, then the library runs.
_PROGRAM = r"""
const { showdown, NodeHtmlMarkdown } = globalThis.__weftMarkdown;
const isEmpty = (value) => value === undefined || value === null || Object.keys(value).length === 0;
const toMarkdown = (p) => {
  const options = { ...(p.options || {}) };
  const replace = (options.textReplace || {}).values || [];
  options.textReplace = !isEmpty(replace) ? replace.map((entry) => [entry.pattern, entry.replacement]) : undefined;
  const lineStart = (options.lineStartEscape || {}).value || {};
  options.lineStartEscape = !isEmpty(lineStart) ? [lineStart.pattern, lineStart.replacement] : undefined;
  const globalEscape = (options.globalEscape || {}).value || {};
  options.globalEscape = !isEmpty(globalEscape) ? [globalEscape.pattern, globalEscape.replacement] : undefined;
  options.ignore = options.ignore ? options.ignore.split(',').map((element) => element.trim()) : undefined;
  options.blockElements = options.blockElements
    ? options.blockElements.split(',').map((element) => element.trim()) : undefined;
  const markdownOptions = {};
  Object.keys(options).forEach((option) => { if (options[option]) markdownOptions[option] = options[option]; });
  return NodeHtmlMarkdown.translate(p.text, markdownOptions);
};
const toHtml = (p) => {
  const converter = new showdown.Converter();
  Object.keys(p.options || {}).forEach((key) => converter.setOption(key, p.options[key]));
  return converter.makeHtml(p.text);
};
// QuickJS words a call of a missing method "not a function"; V8 names it, as n8n reports it.
const checkText = (text) => {
  if (text && typeof text !== 'string') throw new TypeError('text.replace is not a function');
};
return P.items.map((p) => {
  try {
    if (P.mode !== 'htmlToMarkdown') checkText(p.text);
    return { json: { value: P.mode === 'htmlToMarkdown' ? toMarkdown(p) : toHtml(p) } };
  } catch (error) {
    return { json: { error: String(error && error.message !== undefined ? error.message : error) } };
  }
});
"""


@cache
def bundle() -> str:
    """The markdown bundle, with showdown's two ``RegExp.$n`` reads turned into reads of the ``exec`` match."""
    from weft.expressions.runtime import BUILD_COMMAND, BUNDLE

    path = BUNDLE.with_name("markdown.js")
    if not path.exists():
        raise ConfigurationError(f"The Markdown node's bundle {path.name} is not built: run {BUILD_COMMAND!r}")
    source = path.read_text(encoding="utf-8")
    source, spans = re.subn(
        r"/¨C\(\\d\+\)C/\.test\((\w+)\);\)\{var (\w+)=RegExp\.\$1;",
        lambda m: f"(__weftRx=/¨C(\\d+)C/.exec({m[1]}));){{var {m[2]}=__weftRx[1];",
        source,
    )
    source, blocks = re.subn(
        r"/¨\(K\|G\)\(\\d\+\)\\1/\.test\((\w+)\);\)\{var (\w+)=RegExp\.\$1,(\w+)=RegExp\.\$2;",
        lambda m: f"(__weftRx=/¨(K|G)(\\d+)\\1/.exec({m[1]}));){{var {m[2]}=__weftRx[1],{m[3]}=__weftRx[2];",
        source,
    )
    if spans != 1 or blocks != 1 or "RegExp.$" in source:
        raise RuntimeError("markdown.js: showdown's RegExp.$1 reads were not found; rebuild with scripts/build_js.py")
    return "var __weftRx;\n" + source


class Markdown(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.markdown",
        display_name="Markdown",
        versions=(1,),
        description="Convert data between Markdown and HTML",
        group=("output",),
        defaults={"mode": "htmlToMarkdown", "html": "", "markdown": "", "destinationKey": "data", "options": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        from weft.expressions import run_code
        from weft.expressions.offload import run_in_worker

        items = ctx.get_input_data()
        mode = ctx.get_node_parameter("mode", 0)
        source = "html" if mode == "htmlToMarkdown" else "markdown"
        per_item = [
            {"text": ctx.get_node_parameter(source, i), "options": ctx.get_node_parameter("options", i) or {}}
            for i in range(len(items))
        ]
        if mode not in ("htmlToMarkdown", "markdownToHtml") or not items:
            return [[]]
        params = json.dumps({"mode": mode, "items": per_item})
        program = f"{bundle()}\nconst P = {params};\n{_PROGRAM}"
        result = await run_in_worker(run_code, program, ctx.expression_context())
        out: list[Item] = []
        for index, (item, answer) in enumerate(zip(items, result.items, strict=True)):
            data = answer["json"]
            if "error" in data:
                if not ctx.continue_on_fail():
                    raise NodeOperationError(
                        ctx.node.name, data["error"], item_index=index, description=f"Check the '{source}' text."
                    )
                out.append({"json": {"error": data["error"]}, "pairedItem": {"item": index}})
                continue
            new: dict[str, Any] = copy.deepcopy(item["json"])
            set_path(new, str(ctx.get_node_parameter("destinationKey", index)), data.get("value"))
            out.append({"json": new, "pairedItem": {"item": index}})
        return [out]


__all__ = ["Markdown", "bundle"]
