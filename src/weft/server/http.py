"""Converting between Starlette requests/responses and the services' plain request/response objects."""

from __future__ import annotations

from typing import Any

from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from weft.nodes.builtin.respond_to_webhook import WebhookResponse
from weft.services.webhook_requests import IncomingRequest, UploadedFile


async def read_request(request: Request, path: str, url: str) -> IncomingRequest:
    """The request as the services see it: headers, query, raw body, and multipart fields and files."""
    headers = dict(request.headers)
    form: dict[str, Any] | None = None
    files: list[UploadedFile] = []
    body = b""
    if headers.get("content-type", "").lower().startswith("multipart/form-data"):
        form = {}
        async with request.form() as parsed:
            for key, value in parsed.multi_items():
                if isinstance(value, UploadFile):
                    data = await value.read()
                    files.append(
                        UploadedFile(
                            field=key,
                            filename=value.filename,
                            content_type=value.content_type or "application/octet-stream",
                            data=data,
                        )
                    )
                else:
                    _add(form, key, value)
    else:
        body = await request.body()
    query: dict[str, Any] = {}
    for key, value in request.query_params.multi_items():
        _add(query, key, value)
    return IncomingRequest(
        method=request.method,
        path=path,
        url=url,
        headers=headers,
        query=query,
        body=body,
        form=form,
        files=files,
        client=request.client.host if request.client else "",
    )


def _add(target: dict[str, Any], key: str, value: Any) -> None:
    if key in target:
        previous = target[key]
        target[key] = [*previous, value] if isinstance(previous, list) else [previous, value]
    else:
        target[key] = value


def to_response(response: WebhookResponse) -> Response:
    if response.stream is not None:
        return StreamingResponse(response.stream, status_code=response.status_code, headers=response.headers)
    return Response(content=response.body, status_code=response.status_code, headers=response.headers)


__all__ = ["read_request", "to_response"]
