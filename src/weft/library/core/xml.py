"""XML (``n8n-nodes-base.xml`` v1): XML text to JSON and JSON to XML, shaped as xml2js shapes them (recorded:
cases n500-n512).

XML to JSON reads the item's ``dataPropertyName`` field (xml2js's options, with n8n's defaults ``mergeAttrs`` and
no ``explicitArray``) and outputs the parsed object as the item; JSON to XML writes the whole item as XML into that
field. The parser never expands a document type's entities: an entity bomb or an external entity fails as n8n's
parser fails ("Invalid character entity", case n507/n508) and nothing is read or grown. As n8n does, an item that
fails under "continue" is left out of the output (case n509).
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.values import js_string
from weft.nodes.xml.build import BuildError, BuildOptions, build
from weft.nodes.xml.sax_tags import SaxError
from weft.nodes.xml.xml2js import ParseOptions, parse_off_loop
from weft.workflow import Item, NodeOutput

_FORBIDDEN_KEYS = ("__proto__", "constructor", "prototype")


class Xml(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.xml",
        display_name="XML",
        versions=(1,),
        description="Convert data from and to XML",
        group=("transform",),
        defaults={"mode": "xmlToJson", "dataPropertyName": "data", "options": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        mode = ctx.get_node_parameter("mode", 0)
        prop = js_string(ctx.get_node_parameter("dataPropertyName", 0))
        options = dict(ctx.get_node_parameter("options", 0, {}) or {})
        _check_keys(ctx, options)
        out: list[Item] = []
        for index, item in enumerate(ctx.get_input_data()):
            try:
                out.append(await _converted(ctx, mode, prop, options, item, index))
            except NodeOperationError:
                if not ctx.continue_on_fail():
                    raise
                # n8n writes the error item over its input item, not into the output: the item is dropped
        return [out]


def _check_keys(ctx: ExecuteContext, options: dict[str, Any]) -> None:
    for key, label in (("attrkey", "Attribute Key"), ("charkey", "Character Key")):
        if key in options:
            options[key] = js_string(options[key])
            if options[key] in _FORBIDDEN_KEYS:
                raise NodeOperationError(
                    ctx.node.name,
                    f'The "{label}" option value "{options[key]}" is not allowed',
                    description=f"Choose another '{label}' (for example the default).",
                )


async def _converted(
    ctx: ExecuteContext, mode: Any, prop: str, options: dict[str, Any], item: Item, index: int
) -> Item:
    if mode == "xmlToJson":
        if item["json"].get(prop, _ABSENT) is _ABSENT:
            message = f'Item has no JSON property called "{prop}"'
            fix = f"Set 'Property Name' to the field that holds the XML (the item has {sorted(item['json'])!r})."
            raise NodeOperationError(ctx.node.name, message, description=fix, item_index=index)
        try:
            parsed = await parse_off_loop(js_string(item["json"][prop]), _parse_options(options))
        except SaxError as error:
            fix = f"Make {prop!r} one well-formed XML document (only XML's and HTML's named entities are read)."
            raise NodeOperationError(ctx.node.name, str(error), description=fix, item_index=index) from None
        return {"json": parsed}
    if mode == "jsonToxml":
        try:
            text = build(item["json"], _build_options(options))
        except BuildError as error:
            fix = "Every key of the item must be a valid XML name (no spaces, not starting with a digit)."
            raise NodeOperationError(ctx.node.name, str(error), description=fix, item_index=index) from None
        return {"json": {prop: text}, "pairedItem": {"item": index}}
    message = f'The operation "{js_string(mode)}" is not known!'
    raise NodeOperationError(ctx.node.name, message, description="Set 'Mode' to JSON to XML or XML to JSON.")


_ABSENT = object()


def _parse_options(options: dict[str, Any]) -> ParseOptions:
    return ParseOptions(
        attrkey=options.get("attrkey", "$"),
        charkey=options.get("charkey", "_"),
        explicit_array=bool(options.get("explicitArray", False)),
        explicit_root=bool(options.get("explicitRoot", True)),
        ignore_attrs=bool(options.get("ignoreAttrs", False)),
        merge_attrs=bool(options.get("mergeAttrs", True)),
        normalize=bool(options.get("normalize", False)),
        normalize_tags=bool(options.get("normalizeTags", False)),
        trim=bool(options.get("trim", False)),
    )


def _build_options(options: dict[str, Any]) -> BuildOptions:
    root = options.get("rootName")
    return BuildOptions(
        attrkey=options.get("attrkey", "$"),
        charkey=options.get("charkey", "_"),
        root_name=None if root is None else js_string(root),
        headless=bool(options.get("headless", False)),
        cdata=bool(options.get("cdata", False)),
    )


__all__ = ["Xml"]
