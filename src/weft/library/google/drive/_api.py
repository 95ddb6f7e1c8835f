"""Google Drive's API calls (n8n's ``Drive/v2/transport``: ``googleApiRequest``, ``googleApiRequestAllItems``)
and the helpers its operations share (``Drive/v2/helpers/utils.ts``).

Requests go to ``https://www.googleapis.com`` with the ``googleDriveOAuth2Api`` credential's bearer token, or a
service account's (``googleApi``). A failed request raises n8n's ``NodeApiError`` (its status message, Google's
message as the description).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from weft.library.google._common import google_request
from weft.library.google.gmail._api import Params
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext

BASE_URL = "https://www.googleapis.com"
OAUTH2 = "googleDriveOAuth2Api"
FOLDER = "application/vnd.google-apps.folder"
DOCUMENT = "application/vnd.google-apps.document"
DEFAULT_DRIVE = "My Drive"
DEFAULT_FOLDER = "root"
ALL_DRIVES = {
    "includeItemsFromAllDrives": True,
    "supportsAllDrives": True,
    "spaces": "appDataFolder, drive",
    "corpora": "allDrives",
}


class DriveApi:
    """One node run's Drive requests (``async with DriveApi(ctx, params) as api``)."""

    def __init__(self, ctx: ExecuteContext, params: Params) -> None:
        self.ctx = ctx
        self.params = params
        self._requests = ApiRequests(ctx)

    async def __aenter__(self) -> DriveApi:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._requests.__aexit__(*exc)

    async def request(
        self, method: str, resource: str, body: Any = None, qs: Mapping[str, Any] | None = None, index: int = 0,
        **more: Any,
    ) -> Any:  # fmt: skip
        """n8n's ``googleApiRequest``: ``more`` are extra request options (``headers``, ``encoding``,
        ``returnFullResponse``, ``url`` for another host)."""
        headers = {"Content-Type": "application/json", **(more.pop("headers", None) or {})}
        options: dict[str, Any] = {"method": method, "url": BASE_URL + resource, "headers": headers, "json": True}
        options.update({"qs": dict(qs or {}), **more})
        if body:
            options["body"] = body
        authentication = str(self.params.get("authentication", 0, "oAuth2"))
        return await google_request(
            self._requests, options, oauth2_type=OAUTH2, service="drive", item_index=index,
            authentication=authentication,
        )  # fmt: skip

    async def request_all(self, key: str, resource: str, qs: Mapping[str, Any], index: int) -> list[Any]:
        """n8n's ``googleApiRequestAllItems``: every page (100 a page) of ``key``, following ``nextPageToken``."""
        query = {**qs, "maxResults": qs.get("maxResults") or 100, "pageSize": qs.get("pageSize") or 100}
        found: list[Any] = []
        while True:
            page = await self.request("GET", resource, None, query, index)
            found.extend(page.get(key) or [])
            token = page.get("nextPageToken")
            if token is None or token == "":
                return found
            query["pageToken"] = token


def parent_folder(folder_id: Any, drive_id: Any) -> str:
    """n8n's ``setParentFolder``: the folder, else the shared drive's root, else ``root``."""
    if folder_id != DEFAULT_FOLDER:
        return str(folder_id)
    if drive_id and drive_id != DEFAULT_DRIVE:
        return str(drive_id)
    return DEFAULT_FOLDER


def query_fields(fields: Any) -> str:
    """n8n's ``prepareQueryString``: the fields asked for (``*`` wins), else ``id, name``."""
    if not fields:
        return "id, name"
    return "*" if "*" in fields else ", ".join(str(f) for f in fields)


def file_properties(body: dict[str, Any], options: Mapping[str, Any]) -> dict[str, Any]:
    """n8n's ``setFileProperties``: ``properties`` and ``appProperties`` from their key/value lists."""
    for ui, values, key in (("propertiesUi", "propertyValues", "properties"),
                            ("appPropertiesUi", "appPropertyValues", "appProperties")):  # fmt: skip
        if options.get(ui):
            entries = (options[ui] or {}).get(values) or []
            body[key] = {str(e.get("key")): e.get("value") for e in entries}
    return body


def update_common(qs: dict[str, Any], options: Mapping[str, Any]) -> dict[str, Any]:
    """n8n's ``setUpdateCommonParams``."""
    for key in ("keepRevisionForever", "ocrLanguage", "useContentAsIndexableText"):
        if options.get(key):
            qs[key] = options[key]
    return qs


__all__ = ["ALL_DRIVES", "DriveApi", "file_properties", "parent_folder", "query_fields", "update_common"]
