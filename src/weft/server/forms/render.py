"""Rendering a :class:`~weft.services.forms.FormView` into a page.

The templates escape every value (Jinja2 autoescaping); only the sanitised description, ``html`` fields, completion
message and custom CSS are inserted as markup. Each page carries a Content-Security-Policy that allows its own
inline script (by nonce) and nothing else to run, and no request but to this server (the ``html`` fields' images,
videos and iframes may load over http(s), as n8n allows them).
"""

from __future__ import annotations

import base64
import secrets
from functools import cache
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.responses import HTMLResponse

from weft.services.forms import FormView

_TEMPLATES = {"form": "form.html", "completion": "completion.html", "message": "message.html"}

#: The policy of every form page (``{nonce}`` is the page's script nonce).
CSP = (
    "default-src 'none'; script-src 'nonce-{nonce}'; style-src 'unsafe-inline'; connect-src 'self'; "
    "img-src 'self' data: http: https:; media-src http: https:; frame-src http: https:; form-action 'self'; "
    "base-uri 'none'; frame-ancestors 'self'"
)


@cache
def _environment() -> Environment:
    return Environment(
        loader=PackageLoader("weft.server.forms", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )


def _config(data: dict[str, Any], *, waiting: bool) -> dict[str, Any]:
    """What the page's script needs (as JSON in the page, never spliced into code)."""
    if data.get("kind") == "completion":
        return {"resume": waiting}
    return {"useResponseData": bool(data.get("useResponseData")), "authToken": data.get("authToken") or "",
            "waitingPage": waiting}  # fmt: skip


def render_view(view: FormView, *, waiting: bool = False) -> HTMLResponse:
    """The HTML answer for ``view``; ``waiting`` for pages under ``/form-waiting`` (which post back to resume)."""
    nonce = secrets.token_urlsafe(16)
    template = _environment().get_template(_TEMPLATES.get(str(view.data.get("kind")), "message.html"))
    binaries = [
        {"fileName": d["fileName"], "href": f"data:{d['mimeType']};base64,{base64.b64encode(d['data']).decode()}"}
        for d in view.downloads
    ]
    config = _config(view.data, waiting=waiting)
    page = template.render(d=view.data, nonce=nonce, config=config, binaries=binaries)
    headers = {"content-security-policy": CSP.format(nonce=nonce), "x-content-type-options": "nosniff",
               "referrer-policy": "same-origin", "cache-control": "no-store", **view.headers}  # fmt: skip
    return HTMLResponse(page, status_code=view.status, headers=headers)


__all__ = ["CSP", "render_view"]
