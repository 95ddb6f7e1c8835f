"""Read/Write Files from Disk (``n8n-nodes-base.readWriteFile`` 1, 1.1).

*Read* turns every file a glob pattern matches into an item (one per file, paired with the item whose pattern
found it); *write* saves each item's binary field to a path, truncating or appending. Version 1 gives no items when
nothing matches, 1.1 fails with "No file(s) found". ``[ ] ( )`` are literal unless the option
``literalBrackets`` (n8n 2.41) is off. Every path is checked against the file-access settings
(:mod:`weft.nodes.files.access`) and bytes are streamed (:mod:`._files`).
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeApiError, NodeError, WeftError
from weft.library.files._files import find_files, read_file, require_path, write_file
from weft.library.files._files_glob import escape_brackets_and_parens
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.files.access import FileSystemError
from weft.nodes.values import js_string
from weft.workflow import Item, NodeOutput

_TOO_LARGE = (
    "The binary file you are attempting to read exceeds 512MB, which is limit when using default binary data mode, "
    "try using the filesystem binary mode. More information "
    '<a href="https://docs.n8n.io/hosting/scaling/binary-data/" target="_blank">here</a>.'
)

#: n8n-workflow's ``COMMON_ERRORS``: how a NodeApiError words a system error by its code.
_COMMON_ERRORS = {
    "ENOENT": "The file or directory does not exist",
    "EISDIR": "The file path was expected but the given path is a directory",
    "ENOTDIR": "The directory path was expected but the given path is a file",
    "EACCES": "Forbidden by access permissions, make sure you have the right permissions",
    "EEXIST": "The file or directory already exists",
    "EPERM": "Operation not permitted, make sure you have the right permissions",
}


def _mapped_message(error: BaseException, operation: str, path: str) -> str:
    """n8n's ``errorMapper``: the message an item gets when the node continues on fail."""
    message = getattr(error, "message", None) or str(error)
    if "Cannot create a string longer than" in message:
        return "The file is too large"
    if "EACCES" in message:
        where = getattr(error, "path", None) or path
        if operation == "read":
            return f"You don't have the permissions to access {where}"
        return f"You don't have the permissions to write the file {where}"
    return message


def _api_error(ctx: ExecuteContext, error: BaseException, item_index: int) -> NodeApiError:
    """``new NodeApiError(node, error, {itemIndex})``: the error's message and description, as a NodeApiError."""
    message = getattr(error, "message", None) or str(error)
    if isinstance(error, FileSystemError):
        message = _COMMON_ERRORS.get(error.code, message)
    description = error.description if isinstance(error, WeftError) else None
    return NodeApiError(ctx.node.name, message, description=description, item_index=item_index)


class ReadWriteFile(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.readWriteFile",
        display_name="Read/Write Files from Disk",
        versions=(1, 1.1),
        description="Read or write files from the computer that runs n8n",
        group=("input",),
        defaults={"operation": "read", "fileSelector": "", "fileName": "", "dataPropertyName": "data", "options": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        items = ctx.get_input_data()
        operation = ctx.get_node_parameter("operation", 0, "read")
        out: list[Item] = []
        for index, item in enumerate(items):
            path = ""
            try:
                if operation == "write":
                    path = require_path(
                        ctx, js_string(ctx.get_node_parameter("fileName", index)), "File Path and Name", index
                    )
                    out.append(await self._write(ctx, item, index, path))
                elif operation == "read":
                    path = js_string(ctx.get_node_parameter("fileSelector", index))
                    out.extend(await self._read(ctx, index, path))
            except (NodeError, FileSystemError, OSError) as error:
                if not ctx.continue_on_fail():
                    raise _api_error(ctx, error, index) from error
                message = _mapped_message(error, operation, path)
                out.append({"json": {"error": message}, "pairedItem": {"item": index}})
        return [out]

    async def _read(self, ctx: ExecuteContext, index: int, selector: str) -> list[Item]:
        options: dict[str, Any] = dict(ctx.get_node_parameter("options", index, {}) or {})
        field = options.get("dataPropertyName") or "data"
        literal = options.get("literalBrackets", True) is not False
        escaped = escape_brackets_and_parens(selector)
        if not selector:
            raise NodeApiError(
                ctx.node.name,
                "Patterns must be a string (non empty) or an array of strings",
                description="Set 'File(s) Selector' to a path or a glob pattern, e.g. /home/user/files/*.csv",
                item_index=index,
            )
        name = ctx.node.name
        files = (
            await find_files(escaped, node_name=name)
            if literal
            else await find_files(selector, node_name=name, extglob=False)
        )
        if not files and float(ctx.node.typeVersion) > 1:
            raise NodeApiError(
                ctx.node.name,
                "No file(s) found",
                description=f'No file matching the selector "{selector}" found'
                + _bracket_hint(escaped, selector, literal),
                item_index=index,
            )
        found: list[Item] = []
        for file_path in files:
            entry = await read_file(ctx, file_path)
            for key in ("fileName", "fileExtension", "mimeType"):
                if key in options:
                    entry[key] = options[key]
            keys = ("mimeType", "fileType", "fileName", "fileExtension", "fileSize")
            json = {key: entry[key] for key in keys if entry.get(key) is not None}
            found.append({"json": json, "binary": {str(field): entry}, "pairedItem": {"item": index}})
        return found

    async def _write(self, ctx: ExecuteContext, item: Item, index: int, path: str) -> Item:
        field = ctx.get_node_parameter("dataPropertyName", index, "data")
        options: dict[str, Any] = dict(ctx.get_node_parameter("options", index, {}) or {})
        entry = ctx.assert_binary_data(index, field)
        await write_file(ctx, entry, path, append=bool(options.get("append")))
        written: Item = {"json": {**item.get("json", {}), "fileName": path}, "pairedItem": {"item": index}}
        if "binary" in item:
            written["binary"] = dict(item["binary"] or {})
        return written


def _bracket_hint(escaped: str, selector: str, literal: bool) -> str:
    if escaped == selector:
        return ""
    if literal:
        return (
            ". If [ ] and ( ) were meant as a character class or group, turn off 'Treat Brackets and Parentheses as "
            "Literal' in Options"
        )
    return (
        ". If [ ] and ( ) were meant as literal characters, turn on 'Treat Brackets and Parentheses as Literal' in "
        "Options"
    )
