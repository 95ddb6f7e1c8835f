"""Edit Image (``n8n-nodes-base.editImage`` 1, 1.1) on Pillow instead of GraphicsMagick.

Operations: blur, border, composite, create, crop, draw, information, multiStep, resize, rotate, shear, text and
transparent; options ``format``, ``quality``, ``fileName``, ``destinationKey`` and ``font``. The edited image
replaces the binary property (the item's json and other binaries are kept), with the metadata n8n writes: the
format's extension in ``fileName``, then ``mimeType``/``fileExtension`` read from the new bytes. Decoding is
bounded (:mod:`._codec`) and all image work runs in a worker thread. Differences from GraphicsMagick's pixels are
listed in ``docs/edit-image.md``.
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any, ClassVar

from weft.binary.meta import describe
from weft.errors import NodeError, NodeOperationError
from weft.library.edit_image._codec import ImageError
from weft.library.edit_image._info import identify
from weft.library.edit_image._ops import OperationError
from weft.library.edit_image._steps import STEP_DEFAULTS, Job, StepError, complete, number, run
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import Item, NodeOutput

#: The formats n8n 2.41 accepts in the ``format`` option.
FORMATS = ("bmp", "gif", "jpeg", "png", "tiff", "tif", "webp")
_TIFF = (b"II*\x00", b"MM\x00*")


class EditImage(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.editImage",
        display_name="Edit Image",
        versions=(1, 1.1),
        description="Edits an image like blur, resize or adding border and text",
        group=("transform",),
        defaults={"operation": "border", "dataPropertyName": "data", "options": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        out: list[Item] = []
        for index, item in enumerate(ctx.get_input_data()):
            try:
                out.append(await self._item(ctx, index, item))
            except (NodeError, ImageError, OperationError, StepError) as error:
                typed = _typed(ctx, error, index)
                if not ctx.continue_on_fail():
                    raise typed from error
                out.append({"json": {"error": typed.message}, "pairedItem": {"item": index}})
        return [out]

    async def _item(self, ctx: ExecuteContext, index: int, item: Item) -> Item:
        operation = ctx.get_node_parameter("operation", index)
        data_property = ctx.get_node_parameter("dataPropertyName", index, "data")
        options = dict(ctx.get_node_parameter("options", index, {}) or {})
        target = str(options.get("destinationKey") or (data_property if isinstance(data_property, str) else "data"))
        steps = [complete(step) for step in _steps(ctx, index, operation)]
        job = Job(steps=steps, source=None, version=float(ctx.node.typeVersion), font=str(options.get("font") or ""))
        if options.get("quality") is not None:
            job.quality = number(options["quality"], "quality")
        if steps[0].get("operation") != "create":
            ctx.assert_binary_data(index, data_property)
            job.source = await ctx.get_binary_data_buffer(index, data_property)
        for step in steps:
            if step.get("operation") == "composite":
                name = step.get("dataPropertyNameComposite")
                ctx.assert_binary_data(index, name)
                job.overlays[str(name)] = await ctx.get_binary_data_buffer(index, name)
        result: Item = {"json": item.get("json", {}), "binary": {}, "pairedItem": {"item": index}}
        if operation == "information":
            assert job.source is not None
            result["json"] = await asyncio.to_thread(identify, job.source)
        fmt = options.get("format")
        if fmt is None and any(step.get("operation") == "create" for step in steps):
            fmt = "png"
        if fmt is not None and fmt not in FORMATS:
            raise StepError(f"Invalid image format: {fmt}. Valid formats are: {', '.join(FORMATS)}", "format")
        job.output_format = fmt
        data, _ = await asyncio.to_thread(run, job)
        result["binary"] = await _binary(ctx, item, target, data, fmt, options)
        return result


def _steps(ctx: ExecuteContext, index: int, operation: Any) -> list[dict[str, Any]]:
    """The operations to run: Multi Step's list, or the one operation with its parameters."""
    if operation == "multiStep":
        collection = ctx.get_node_parameter("operations", index, {"operations": []}) or {}
        steps = [dict(step) for step in collection.get("operations") or []]
        if not steps:
            raise StepError("Add at least one operation to 'Operations' for Multi Step", "operations")
        return steps
    if operation not in STEP_DEFAULTS:
        raise StepError(f"The operation '{operation}' is not supported by Edit Image", "operation")
    names = dict(STEP_DEFAULTS[operation])
    if operation == "text":
        names.pop("font")  # the top-level text operation takes its font from the options
        if float(ctx.node.typeVersion) < 1.1:
            names.pop("horizontalAlignment")
            names.pop("verticalAlignment")
    step = {name: ctx.get_node_parameter(name, index, default) for name, default in names.items()}
    return [{"operation": operation, **step}]


async def _binary(
    ctx: ExecuteContext, item: Item, target: str, data: bytes, fmt: str | None, options: dict[str, Any]
) -> dict[str, Any]:
    """The item's binaries with ``target`` replaced by the new image, named as n8n names it."""
    binary: dict[str, Any] = dict(item.get("binary") or {})
    entry: dict[str, Any] = copy.deepcopy(binary.get(target) or {"data": "", "mimeType": ""})
    for key in ("data", "id", "fileSize", "bytes"):
        entry.pop(key, None)
    if fmt is not None:
        entry["fileExtension"], entry["mimeType"] = fmt, f"image/{fmt}"
        name = entry.get("fileName")
        if isinstance(name, str) and "." in name:
            entry["fileName"] = ".".join(name.split(".")[:-1]) + "." + fmt
    if options.get("fileName") is not None:
        entry["fileName"] = options["fileName"]
    found = describe(None, None, data[:64])
    if data[:4] in _TIFF:
        found = {"mimeType": "image/tiff", "fileType": "image", "fileExtension": "tif"}
    entry.update(found)
    if "fileExtension" not in found:
        entry.pop("fileExtension", None)
    binary[target] = await ctx.binary_entry(data, entry)
    return binary


def _typed(ctx: ExecuteContext, error: Exception, index: int) -> NodeError:
    """``error`` as the node error n8n would show (naming the node and the parameter at fault)."""
    if isinstance(error, NodeError):
        return error
    if isinstance(error, ImageError):
        return NodeOperationError(
            ctx.node.name,
            error.message,
            item_index=index,
            description="Check the binary property named in 'Property Name' (dataPropertyName) holds an image",
        )
    parameter = getattr(error, "parameter", "")
    return NodeOperationError(
        ctx.node.name,
        getattr(error, "message", str(error)),
        item_index=index,
        description=f"Check the '{parameter}' parameter of the node",
    )
