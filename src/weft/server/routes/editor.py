"""The web editor at ``/`` and the API docs at ``/docs``, both served by this server alone (no CDN).

The editor is a Vue 3 + Vue Flow single-page app built from ``editor/`` by ``scripts/setup`` (``scripts/build_js.py``)
into ``editor_dist/``. ``/`` and the app's own paths answer its ``index.html`` (never cached; ``weft-owner`` and
``weft-session`` meta tags tell the app whether to offer the owner set-up form or the sign-in form, so it never asks
the API a question whose answer is an error), ``/assets/*`` the built files
(content-hashed names: cached for a year, immutable). The app's data comes from ``/rest``, which needs the session
cookie; the page itself holds no data, so it answers without one and shows the sign-in form.

Every page gets a strict Content-Security-Policy: scripts only from this origin (no inline script), requests only to
this origin (``connect-src 'self'``), no framing. ``/docs`` is FastAPI's Swagger UI (5) page pointed at the assets
the ``fastapi-offline`` package ships, served from ``/docs/assets/``; its one inline script is allowed by its hash.
``/redoc`` redirects to it (ReDoc's page loads its logo from a CDN).
"""

from __future__ import annotations

import base64
import hashlib
import mimetypes
import os
import re
from pathlib import Path

import fastapi_offline
from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from weft.server.deps import get_instance
from weft.services.auth import COOKIE_NAME

#: The built editor; ``WEFT_EDITOR_DIST`` points elsewhere (a development build: ``npx vite build --outDir``).
DIST = Path(os.environ.get("WEFT_EDITOR_DIST") or Path(__file__).resolve().parent.parent / "editor_dist")
SWAGGER = Path(fastapi_offline.__file__).resolve().parent / "static"
#: The paths of the single-page app (its client-side routes): each answers ``index.html``.
SPA_PATHS = ("/", "/signin", "/setup", "/home", "/home/{rest:path}", "/workflow/{rest:path}", "/workflows")
SWAGGER_FILES = frozenset({"swagger-ui-bundle.js", "swagger-ui.css", "favicon.png"})
IMMUTABLE = "public, max-age=31536000, immutable"
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; font-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
#: The page shown when the editor was not built (``editor_dist/index.html`` missing).
NOT_BUILT = (
    "<!doctype html><html lang=en><head><meta charset=utf-8><title>Weft: the editor is not built</title></head>"
    "<body><h1>The web editor is not built</h1><p>Run <code>bash scripts/setup</code> in the Weft checkout "
    "(it needs Node.js 20.19+ and npm) and reload this page. The REST API works without it: see "
    "<a href=/docs>/docs</a>.</p></body></html>"
)
_ASSET_NAME = re.compile(r"^[A-Za-z0-9._-]+$")


def _headers(csp: str = CSP, cache: str = "no-cache") -> dict[str, str]:
    return {
        "Content-Security-Policy": csp,
        "Cache-Control": cache,
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "same-origin",
    }


def _media_type(name: str) -> str:
    guessed = mimetypes.guess_type(name)[0] or "application/octet-stream"
    return "text/javascript; charset=utf-8" if guessed.endswith("javascript") else guessed


async def editor_page(request: Request) -> Response:
    """``index.html`` of the editor, told whether the instance has an owner yet."""
    index = DIST / "index.html"
    if not index.is_file():
        return HTMLResponse(NOT_BUILT, status_code=503, headers=_headers())
    instance = get_instance(request)
    set_up = await instance.runner.db(instance.auth.owner_is_set_up)
    token = request.cookies.get(COOKIE_NAME)
    user = await instance.runner.db(instance.auth.session_user, token) if token else None
    meta = (
        f'<meta name="weft-owner" content="{"set-up" if set_up else "none"}">'
        f'<meta name="weft-session" content="{"signed-in" if user else "signed-out"}">'
    )
    html = index.read_text(encoding="utf-8").replace("<head>", "<head>\n    " + meta, 1)
    return HTMLResponse(html, headers=_headers())


def _file(folder: Path, name: str, cache: str) -> Response:
    path = folder / name
    if not _ASSET_NAME.match(name) or not path.is_file():
        return Response(b"Not Found", status_code=404, media_type="text/plain", headers=_headers())
    return Response(path.read_bytes(), media_type=_media_type(name), headers=_headers(cache=cache))


async def editor_asset(request: Request) -> Response:
    """A built file of the editor (``/assets/<name>``; names carry a content hash, so they never change)."""
    return _file(DIST / "assets", request.path_params["name"], IMMUTABLE)


async def swagger_asset(request: Request) -> Response:
    """A file of Swagger UI from the ``fastapi-offline`` package (``/docs/assets/<name>``)."""
    name = request.path_params["name"]
    if name not in SWAGGER_FILES:
        return Response(b"Not Found", status_code=404, media_type="text/plain", headers=_headers())
    return _file(SWAGGER, name, "public, max-age=86400")


async def favicon(_: Request) -> Response:
    """No icon (the editor's page declares an empty one): 204, so a browser logs no failed request."""
    return Response(status_code=204, headers=_headers(cache="public, max-age=86400"))


def _script_hashes(html: str) -> str:
    found = re.findall(r"<script>(.*?)</script>", html, flags=re.S)
    return " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'" for s in found)


def _with_inline_scripts(response: HTMLResponse) -> HTMLResponse:
    html = bytes(response.body).decode()
    csp = (
        CSP.replace("script-src 'self'", f"script-src 'self' {_script_hashes(html)}".rstrip()).replace(
            "style-src 'self'", "style-src 'self' 'unsafe-inline'"
        )  # Swagger UI styles by attribute
    )
    return HTMLResponse(html, headers=_headers(csp=csp))


def docs_page(app: FastAPI) -> HTMLResponse:
    """FastAPI's Swagger UI page with every asset from this server."""
    return _with_inline_scripts(
        get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title=f"{app.title} - API docs",
            swagger_js_url="/docs/assets/swagger-ui-bundle.js",
            swagger_css_url="/docs/assets/swagger-ui.css",
            swagger_favicon_url="/docs/assets/favicon.png",
            oauth2_redirect_url="/docs/oauth2-redirect",
        )
    )


def _docs_routes(app: FastAPI) -> list[BaseRoute]:
    async def docs(_: Request) -> Response:
        return docs_page(app)

    async def oauth2_redirect(_: Request) -> Response:
        return _with_inline_scripts(get_swagger_ui_oauth2_redirect_html())

    async def redoc(_: Request) -> Response:
        # ReDoc's page loads an image from cdn.redoc.ly (its logo): the local Swagger UI replaces it
        return RedirectResponse("/docs", status_code=307)

    return [
        Route("/docs", docs, methods=["GET"], include_in_schema=False),
        Route("/docs/oauth2-redirect", oauth2_redirect, methods=["GET"], include_in_schema=False),
        Route("/docs/assets/{name}", swagger_asset, methods=["GET"], include_in_schema=False),
        Route("/redoc", redoc, methods=["GET"], include_in_schema=False),
    ]


def install(app: FastAPI) -> None:
    """Add the editor's and the offline docs' routes to ``app`` (replacing FastAPI's CDN-based docs pages)."""
    replaced = {"/docs", "/docs/oauth2-redirect", "/redoc"}
    app.router.routes[:] = [r for r in app.router.routes if getattr(r, "path", None) not in replaced]
    app.router.routes.extend(_docs_routes(app))
    app.router.routes.append(Route("/assets/{name}", editor_asset, methods=["GET"], include_in_schema=False))
    app.router.routes.append(Route("/favicon.ico", favicon, methods=["GET"], include_in_schema=False))
    for path in SPA_PATHS:
        app.router.routes.append(Route(path, editor_page, methods=["GET"], include_in_schema=False))


__all__ = ["CSP", "DIST", "NOT_BUILT", "SPA_PATHS", "docs_page", "editor_asset", "editor_page", "install"]
