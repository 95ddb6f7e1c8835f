"""Google Drive Trigger (``n8n-nodes-base.googleDriveTrigger`` v1): polls Drive for files or folders created or
updated since the last poll, in a watched folder or for one watched file or folder.

Each poll lists ``/drive/v3/files`` (every page) with the query n8n builds (``trashed = false``, the parent
folder, the kind, ``createdTime`` / ``modifiedTime > '<last poll>'``) and remembers this poll's start in
``lastTimeChecked``. A manual run takes one file with no time filter, and fails with n8n's "No data with the
current filter could be found" when there is none.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from weft.errors import NodeApiError
from weft.library.google._common import google_request
from weft.nodes import triggers
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.triggers import run_trigger_node, workflow_static_data
from weft.workflow import Item, NodeOutput

DRIVE_TRIGGER_TYPE = "n8n-nodes-base.googleDriveTrigger"
FILES_URL = "https://www.googleapis.com/drive/v3/files"
FOLDER = "application/vnd.google-apps.folder"
GONE = "The folder this node watches no longer exists. Please update it in the workflow."


def extract_id(value: Any) -> str:
    """n8n's ``extractId``: the id in a document or folder URL, else the value."""
    text = str(value or "")
    if "/d/" in text:
        found = re.search(r"[-\w]{25,}", text)
        return found.group(0) if found else text
    if "/folders/" in text:
        return text.split("/folders/", 1)[1]
    return text


def _quoted(value: Any) -> str:
    return str(value).replace("\\", "\\\\").replace("'", "\\'")


def drive_query(ctx: ExecuteContext, start: str) -> str:
    trigger_on = ctx.get_node_parameter("triggerOn")
    event = str(ctx.get_node_parameter("event"))
    options = ctx.get_node_parameter("options", default={}) or {}
    query = ["trashed = false"]
    if trigger_on == "specificFolder" and event != "watchFolderUpdated":
        folder = extract_id(ctx.get_node_parameter("folderToWatch", default="", extract_value=True))
        query.append(f"'{_quoted(folder)}' in parents")
    query.append(f"mimeType != '{FOLDER}'" if event.startswith("file") else f"mimeType = '{FOLDER}'")
    if options.get("fileType") and options["fileType"] != "all":
        query.append(f"mimeType = '{_quoted(options['fileType'])}'")
    if ctx.mode != "manual":
        field = "createdTime" if "Created" in event else "modifiedTime"
        query.append(f"{field} > '{_quoted(start)}'")
    return " AND ".join(query)


class GoogleDriveTrigger(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name=DRIVE_TRIGGER_TYPE,
        display_name="Google Drive Trigger",
        versions=(1,),
        description="Starts the workflow when Google Drive events occur",
        group=("trigger",),
        inputs=(),
        credentials=("googleApi", "googleDriveOAuth2Api"),
        defaults={"authentication": "oAuth2", "options": {}},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        return await run_trigger_node(self, ctx)

    async def poll(self, ctx: ExecuteContext) -> list[list[Item]] | None:
        state = workflow_static_data(ctx, "node")
        now = triggers.now().strftime("%Y-%m-%dT%H:%M:%SZ")
        qs: dict[str, Any] = {
            "includeItemsFromAllDrives": True,
            "supportsAllDrives": True,
            "spaces": "appDataFolder, drive",
            "corpora": "allDrives",
            "q": drive_query(ctx, str(state.get("lastTimeChecked") or now)),
            "fields": "nextPageToken, files(*)",
        }
        manual = ctx.mode == "manual"
        async with ApiRequests(ctx) as api:
            try:
                files = await _list(api, {**qs, "pageSize": 1} if manual else qs, every_page=not manual)
            except NodeApiError as error:
                if error.http_code == 404 and "in parents" in qs["q"]:
                    error.message = GONE
                    error.args = (GONE,)
                raise
        files = _watched(ctx, files) if not manual else files
        state["lastTimeChecked"] = now
        if files:
            return [[{"json": file} for file in files]]
        if manual:
            raise NodeApiError(ctx.node.name, "No data with the current filter could be found")
        return None


def _watched(ctx: ExecuteContext, files: list[Any]) -> list[Any]:
    trigger_on = ctx.get_node_parameter("triggerOn")
    if trigger_on == "specificFile":
        wanted = extract_id(ctx.get_node_parameter("fileToWatch", default="", extract_value=True))
        return [f for f in files if f.get("id") == wanted]
    if trigger_on == "specificFolder" and ctx.get_node_parameter("event") == "watchFolderUpdated":
        wanted = extract_id(ctx.get_node_parameter("folderToWatch", default="", extract_value=True))
        return [f for f in files if f.get("id") == wanted]
    return files


async def _list(api: ApiRequests, qs: dict[str, Any], *, every_page: bool) -> list[Any]:
    """One page, or every page (n8n's ``googleApiRequestAllItems``: ``pageSize`` 100, ``pageToken``)."""
    query = {**qs, "maxResults": qs.get("maxResults", 100), "pageSize": qs.get("pageSize", 100)} if every_page else qs
    files: list[Any] = []
    while True:
        options = {"method": "GET", "url": FILES_URL, "qs": dict(query), "json": True}
        options["headers"] = {"Content-Type": "application/json"}
        page = await google_request(api, options, oauth2_type="googleDriveOAuth2Api", service="drive")
        files += page.get("files") or []
        token = page.get("nextPageToken")
        if not every_page or not token:
            return files
        query["pageToken"] = token


__all__ = ["DRIVE_TRIGGER_TYPE", "GoogleDriveTrigger", "drive_query", "extract_id"]
