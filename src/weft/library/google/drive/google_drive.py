"""Google Drive (``n8n-nodes-base.googleDrive`` 3; ``googleDriveTool``): files (upload, download, copy, move,
delete, share, update, create from text), folders (create, delete, share), shared drives (create, get, list,
update, delete) and search, with the ``googleDriveOAuth2Api`` credential or a service account (``googleApi``).
Recorded: cases s240-s263.

As n8n 2.41's router: an item's error under "continue" becomes ``{error}`` (n8n 2.8.4 put a failed download's
error on the input item instead); otherwise the run fails with it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import ExpressionError, NodeError, NodeOperationError
from weft.library.google.drive import _files as files
from weft.library.google.drive import _others as others
from weft.library.google.drive._api import DriveApi
from weft.library.google.gmail._api import Params
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.workflow import Item, NodeOutput


class GoogleDrive(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.googleDrive",
        display_name="Google Drive",
        versions=(3,),
        description="Access data on Google Drive",
        group=("input",),
        usable_as_tool=True,
        credentials=("googleApi", "googleDriveOAuth2Api"),
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        params = Params(ctx)
        resource = str(params.get("resource", 0, "file"))
        operation = str(params.get("operation", 0, ""))
        items = ctx.get_input_data()
        out: list[Item] = []
        async with DriveApi(ctx, params) as api:
            for index, item in enumerate(items):
                try:
                    found = await _run(ctx, api, resource, operation, index, item)
                except (NodeError, ExpressionError) as error:
                    if not ctx.continue_on_fail():
                        raise
                    out.append({"json": {"error": error.message}, "pairedItem": {"item": index}})
                    continue
                out.extend(_paired(entry, index) for entry in found)
        return [out]


async def _run(ctx: ExecuteContext, api: DriveApi, resource: str, operation: str, index: int, item: Item) -> list[Any]:
    p = api.params
    if resource == "file":
        simple = {"upload": files.upload, "copy": files.copy, "move": files.move, "update": files.update,
                  "createFromText": files.create_from_text}.get(operation)  # fmt: skip
        if simple is not None:
            return await simple(ctx, api, index)
        if operation == "download":
            return await files.download(ctx, api, index, item)
        file_id = str(p.get("fileId", index, extract_value=True))
        if operation == "deleteFile":
            return await files.delete(api, file_id, "id", index)
        if operation == "share":
            return await files.share(api, file_id, index)
    elif resource == "folder":
        if operation == "create":
            return await others.create_folder(ctx, api, index)
        folder_id = str(p.get("folderNoRootId", index, extract_value=True))
        if operation == "deleteFolder":
            return await files.delete(api, folder_id, "fileId", index)
        if operation == "share":
            return await files.share(api, folder_id, index)
    elif resource == "fileFolder" and operation == "search":
        return await others.search(ctx, api, index)
    elif resource == "drive" and operation in ("create", "list", "get", "deleteDrive", "update"):
        return await others.drive(ctx, api, operation, index)
    else:
        raise NodeOperationError(ctx.node.name, f'The resource "{resource}" is not known', item_index=index)
    raise NodeOperationError(ctx.node.name, f'The operation "{operation}" is not known', item_index=index)


def _paired(entry: Any, index: int) -> Item:
    if isinstance(entry, dict) and isinstance(entry.get("json"), dict) and set(entry) <= {"json", "binary"}:
        item: Item = {"json": entry["json"]}
        if entry.get("binary"):
            item["binary"] = entry["binary"]
    else:
        item = {"json": entry if isinstance(entry, dict) else {}}
    item["pairedItem"] = {"item": index}
    return item


__all__ = ["GoogleDrive"]
