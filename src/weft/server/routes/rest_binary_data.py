"""``/rest/binary-data``: the bytes of a stored file, for viewing or downloading an execution's binary data (n8n's
``BinaryDataController``), streamed from the store. Behind the login like every ``/rest`` route.

A file is shown inline only when its type cannot run script in the page (``view`` of HTML, SVG or XML is served
as a download), and always with ``nosniff`` and a sandboxing CSP: a file from a workflow is untrusted content.
"""

from __future__ import annotations

from typing import Annotated, Literal
from urllib.parse import quote

from fastapi import APIRouter, Query
from fastapi.responses import StreamingResponse

from weft.binary import BinaryDataError
from weft.binary.store import opened
from weft.db.base import NotFoundError
from weft.server.deps import InstanceDep

router = APIRouter(prefix="/binary-data", tags=["executions"])

#: Types a browser would run as a page; never shown inline.
_ACTIVE = ("text/html", "application/xhtml+xml", "image/svg+xml", "text/xml", "application/xml")


@router.get("", summary="The bytes of an execution's binary data, by its id")
async def get_binary_data(
    instance: InstanceDep,
    id: Annotated[str, Query(description="The binary entry's id: <mode>:<file id>")],
    action: Literal["view", "download"] = "view",
    fileName: str | None = None,
    mimeType: str | None = None,
) -> StreamingResponse:
    service = instance.runner.options.binary_data
    try:
        body = await opened(service.stream({"id": id}))
    except BinaryDataError as error:
        raise NotFoundError(error.message) from None
    mime = (mimeType or "application/octet-stream").split(";")[0].strip().lower()
    disposition = "attachment" if action == "download" or mime in _ACTIVE else "inline"
    headers = {
        "x-content-type-options": "nosniff",
        "content-security-policy": "sandbox; default-src 'none'",
        "content-disposition": disposition + (f"; filename*=UTF-8''{quote(fileName)}" if fileName else ""),
    }

    return StreamingResponse(body, media_type=mime, headers=headers)
