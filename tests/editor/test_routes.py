"""The editor's routes on a real server: the SPA's pages, its built assets, the CSP, the login gate, offline /docs."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from tests.server.conftest import LiveServer

from weft.server.routes import editor

BUILT = (editor.DIST / "index.html").is_file()
needs_build = pytest.mark.skipif(not BUILT, reason="the editor is not built: run bash scripts/setup")


def _anonymous(live: LiveServer) -> httpx.Client:
    return httpx.Client(base_url=live.url, timeout=10)


@needs_build
@pytest.mark.parametrize("path", ["/", "/signin", "/workflow/abc", "/workflow/abc/executions/7", "/home/workflows"])
def test_the_app_paths_answer_index_html_with_a_strict_csp(live: LiveServer, path: str) -> None:
    with _anonymous(live) as client:
        response = client.get(path)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert '<div id="app"></div>' in response.text
    csp = response.headers["content-security-policy"]
    assert "script-src 'self';" in csp and "connect-src 'self';" in csp and "'unsafe-inline'" not in csp
    assert "frame-ancestors 'none'" in csp
    assert response.headers["cache-control"] == "no-cache"
    assert "<script>" not in response.text  # no inline script: every script comes from /assets
    assert not re.search(r"(src|href)=\"https?://", response.text)


@needs_build
def test_the_page_tells_the_app_that_the_owner_is_set_up(live: LiveServer) -> None:
    with _anonymous(live) as client:
        page = client.get("/").text
    assert '<meta name="weft-owner" content="set-up">' in page  # the live server's owner exists


@needs_build
def test_assets_are_served_with_their_types_and_immutable_caching(live: LiveServer) -> None:
    with _anonymous(live) as client:
        page = client.get("/").text
        names = re.findall(r"/assets/([\w.-]+)", page)
        assert {Path(n).suffix for n in names} == {".js", ".css"}
        for name in names:
            response = client.get(f"/assets/{name}")
            assert response.status_code == 200
            assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
            wanted = "text/javascript" if name.endswith(".js") else "text/css"
            assert response.headers["content-type"].startswith(wanted)
            assert response.content == (editor.DIST / "assets" / name).read_bytes()


def test_unknown_and_escaping_asset_names_are_404(live: LiveServer) -> None:
    with _anonymous(live) as client:
        assert client.get("/assets/nope.js").status_code == 404
        assert client.get("/assets/..%2F..%2Fapp.py").status_code == 404
        assert client.get("/assets/.weft-build").status_code == 404 or BUILT is False


def test_without_the_build_the_page_says_how_to_build_it(
    live: LiveServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(editor, "DIST", tmp_path)
    with _anonymous(live) as client:
        response = client.get("/")
    assert response.status_code == 503
    assert "bash scripts/setup" in response.text
    assert "script-src 'self'" in response.headers["content-security-policy"]


def test_the_data_behind_the_page_needs_the_login(live: LiveServer) -> None:
    with _anonymous(live) as client:
        assert client.get("/rest/workflows").status_code == 401
        assert client.get("/rest/login").status_code == 401
        assert client.get("/docs").status_code == 401
    assert live.client.get("/rest/login").status_code == 200


def test_cross_origin_writes_stay_refused_and_foreign_hosts_too(live: LiveServer) -> None:
    refused = live.client.post("/rest/workflows", json={"name": "x"}, headers={"origin": "http://evil.example"})
    assert refused.status_code == 403
    with _anonymous(live) as client:
        assert client.get("/", headers={"host": "evil.example"}).status_code == 400


def test_docs_load_only_local_assets(live: LiveServer) -> None:
    response = live.client.get("/docs")
    assert response.status_code == 200
    urls = re.findall(r"(?:src|href|url)\s*[=:]\s*['\"]([^'\"]+)['\"]", response.text)
    assert urls and all(u.startswith("/") for u in urls), urls
    assert "cdn" not in response.text.lower()
    for url in urls:
        if url.startswith("/docs/assets/"):
            assert live.client.get(url).status_code == 200
    csp = response.headers["content-security-policy"]
    assert "connect-src 'self'" in csp and re.search(r"script-src 'self' 'sha256-[^']+'", csp)
    assert live.client.get("/docs/assets/__init__.py").status_code == 404  # only the files the pages need


def test_redoc_redirects_to_the_local_swagger_ui(live: LiveServer) -> None:
    assert live.client.get("/redoc", follow_redirects=False).headers["location"] == "/docs"
