"""HTML (``n8n-nodes-base.html`` 1, 1.1, 1.2): generate HTML from a template with expressions, extract content
with CSS selectors (:mod:`weft.library.core._html_extract`), or convert the items to an HTML table (recorded:
cases n520-n533).

Versions: 1 reads the JSON field by its exact key, later versions by path; 1.2 turns "Text" into html-to-text's
plain text (headings, lists, links) where earlier versions join the text nodes.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from weft.errors import NodeError
from weft.library.core._html_extract import extract_items
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.values import js_string
from weft.workflow import Item, NodeOutput

_RESOLVABLE = re.compile(r"({{[\s\S]*?}})")
#: The template's default (n8n's placeholder document), used when the node has no ``html`` parameter.
PLACEHOLDER = (
    "<!DOCTYPE html>\n"
    "\n"
    "<html>\n"
    "<head>\n"
    '  <meta charset="UTF-8" />\n'
    "  <title>My HTML document</title>\n"
    "</head>\n"
    "<body>\n"
    '  <div class="container">\n'
    "    <h1>This is an H1 heading</h1>\n"
    "    <h2>This is an H2 heading</h2>\n"
    "    <p>This is a paragraph</p>\n"
    "  </div>\n"
    "</body>\n"
    "</html>\n"
    "\n"
    "<style>\n"
    ".container {\n"
    "  background-color: #ffffff;\n"
    "  text-align: center;\n"
    "  padding: 16px;\n"
    "  border-radius: 8px;\n"
    "}\n"
    "\n"
    "h1 {\n"
    "  color: #ff6d5a;\n"
    "  font-size: 24px;\n"
    "  font-weight: bold;\n"
    "  padding: 8px;\n"
    "}\n"
    "\n"
    "h2 {\n"
    "  color: #909399;\n"
    "  font-size: 18px;\n"
    "  font-weight: bold;\n"
    "  padding: 8px;\n"
    "}\n"
    "</style>\n"
    "\n"
    "<script>\n"
    'console.log("Hello World!");\n'
    "</script>"
)
_TABLE_STYLE = "style='border-spacing:0; font-family:helvetica,arial,sans-serif'"
_HEADER_STYLE = (
    "style='margin:0; padding:7px 20px 7px 0px; border-bottom:1px solid #eee; text-align:left; color:#888; "
    "font-weight:normal'"
)
_CELL_STYLE = "style='margin:0; padding:7px 20px 7px 0px; border-bottom:1px solid #eee'"


class Html(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.html",
        display_name="HTML",
        versions=(1, 1.1, 1.2),
        description="Work with HTML",
        group=("transform",),
        defaults={"operation": "generateHtmlTemplate", "sourceData": "json", "dataPropertyName": "data"},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        items = ctx.get_input_data()
        operation = ctx.get_node_parameter("operation", 0)
        if operation == "convertToHtmlTable" and items:
            return [[_table(ctx, items)]]
        version = float(ctx.node.typeVersion)
        out: list[Item] = []
        for index, item in enumerate(items):
            try:
                if operation == "generateHtmlTemplate":
                    out.append({"json": {"html": _template(ctx, index)}, "pairedItem": {"item": index}})
                elif operation == "extractHtmlContent":
                    out.extend(await extract_items(ctx, index, item, version=version))
            except NodeError as error:
                if not ctx.continue_on_fail():
                    raise
                out.append({"json": {"error": error.message}, "pairedItem": {"item": index}})
        return [out]


def _template(ctx: ExecuteContext, index: int) -> str:
    """The template with each ``{{ … }}`` replaced by its value, first match first. The value is JavaScript's
    ``String(value)`` (as ``String.prototype.replace`` makes it: ``undefined``, ``[object Object]``, ``1,2``), so
    the conversion runs in the sandbox with the expression."""
    html = js_string(ctx.get_node_parameter("html", index, PLACEHOLDER))
    for resolvable in _RESOLVABLE.findall(html):
        value = js_string(ctx.evaluate_expression("={{ String((\n" + resolvable[2:-2] + "\n)) }}", index))
        at = html.index(resolvable)
        html = (
            html[:at]
            + _replacement(value, resolvable, html[:at], html[at + len(resolvable) :])
            + html[at + len(resolvable) :]
        )
    return html


def _replacement(value: str, matched: str, before: str, after: str) -> str:
    """``String.prototype.replace``'s patterns in a replacement string: ``$$``, ``$&``, ``$` ``, ``$'``."""
    if "$" not in value:
        return value
    table = {"$": "$", "&": matched, "`": before, "'": after}
    return re.sub(r"\$([$&`'])", lambda m: table[m.group(1)], value)


def _js_text(value: Any) -> str:
    if isinstance(value, dict):
        return "[object Object]"
    if isinstance(value, list):
        return ",".join("" if v is None else _js_text(v) for v in value)
    return js_string(value)


def _table(ctx: ExecuteContext, items: list[Item]) -> Item:
    options = ctx.get_node_parameter("options", 0, {}) or {}
    styled = not options.get("customStyling")
    table_style, header_style, cell_style = (_TABLE_STYLE, _HEADER_STYLE, _CELL_STYLE) if styled else ("", "", "")
    headers: list[str] = []
    for item in items:
        headers.extend(key for key in item["json"] if key not in headers)
    parts = [f"<table {table_style} {js_string(options.get('tableAttributes') or '')}>"]
    if options.get("caption"):
        parts.append(f"<caption>{js_string(options['caption'])}</caption>")
    parts.append(f"<thead {header_style} {js_string(options.get('headerAttributes') or '')}>")
    capitalize = bool(options.get("capitalize"))
    parts.append("<tr>" + "".join(f"<th>{_header(h, capitalize)}</th>" for h in headers) + "</tr></thead><tbody>")
    for index, item in enumerate(items):
        parts.append(f"<tr  {js_string(ctx.get_node_parameter('options.rowAttributes', index, ''))}>")
        cells = js_string(ctx.get_node_parameter("options.cellAttributes", index, ""))
        parts.extend(f"<td {cell_style} {cells}>{_cell(item['json'], h)}</td>" for h in headers)
        parts.append("</tr>")
    parts.append("</tbody></table>")
    return {"json": {"table": "".join(parts)}, "pairedItem": [{"item": i} for i in range(len(items))]}


def _header(header: str, capitalize: bool) -> str:
    if not capitalize:
        return header
    return " ".join(word[0].upper() + word[1:] for word in header.split("_") if word)


def _cell(data: dict[str, Any], header: str) -> str:
    if header not in data:
        return "undefined"
    value = data[header]
    if isinstance(value, bool):
        return '<input type="checkbox" ' + ('checked="checked"' if value else "") + "/>"
    return _js_text(value)


__all__ = ["Html"]
