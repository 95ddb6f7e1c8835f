"""``GET /rest/workflows/from-url?url=`` (n8n's "Import from URL") against a real HTTP server on 127.0.0.1: the
workflow JSON comes back as n8n's answer; http(s) only (redirects too), a size cap, n8n's messages, the login."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from weft.server.routes import rest_workflows_from_url
from weft.testing.workflows import node, workflow

from .conftest import LiveServer

WORKFLOW = {**workflow(node("Start", "n8n-nodes-base.manualTrigger")), "name": "From a URL"}
PAGES: dict[str, tuple[int, dict[str, str], bytes]] = {
    "/workflow.json": (200, {"content-type": "application/json"}, json.dumps(WORKFLOW).encode()),
    "/not-a-workflow.json": (200, {"content-type": "application/json"}, b'{"hello": "world"}'),
    "/not-json": (200, {"content-type": "text/html"}, b"<html>no</html>"),
    "/moved": (302, {"location": "/workflow.json"}, b""),
    "/to-a-file": (302, {"location": "file:///etc/passwd"}, b""),
    "/big.json": (200, {"content-type": "application/json"}, json.dumps({**WORKFLOW, "pad": "x" * 5000}).encode()),
}


class _Pages(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        status, headers, body = PAGES.get(self.path, (404, {}, b"not found"))
        self.send_response(status)
        for name, value in {**headers, "content-length": str(len(body))}.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def pages() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Pages)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join(5)


def _from(live: LiveServer, url: str) -> httpx.Response:
    return live.client.get("/rest/workflows/from-url", params={"url": url})


def test_the_workflow_at_the_url_comes_back_as_n8n_answers(live: LiveServer, pages: str) -> None:
    assert _from(live, f"{pages}/workflow.json").json() == {"data": WORKFLOW}
    assert _from(live, f"{pages}/moved").json() == {"data": WORKFLOW}  # an http redirect is followed


def test_what_is_not_an_n8n_workflow_is_refused_with_n8ns_messages(live: LiveServer, pages: str) -> None:
    for path, message in [
        ("/not-a-workflow.json", "The data in the file does not seem to be a n8n workflow JSON file!"),
        ("/not-json", "The URL does not point to valid JSON file!"),
        ("/missing", "The URL does not point to valid JSON file!"),
    ]:
        answer = _from(live, pages + path)
        assert (answer.status_code, answer.json()["message"]) == (400, message), path


def test_only_http_urls_within_the_size_cap(live: LiveServer, pages: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for url in ("file:///etc/passwd", "ftp://127.0.0.1/x.json", f"{pages}/to-a-file", "not a url"):
        answer = _from(live, url)
        assert answer.status_code == 400 and answer.json()["message"].startswith("Only http and https URLs"), url
    monkeypatch.setattr(rest_workflows_from_url, "MAX_BYTES", 4096)
    big = _from(live, f"{pages}/big.json")
    assert big.status_code == 400 and "larger than" in big.json()["message"]


def test_it_needs_the_login(live: LiveServer, pages: str) -> None:
    with httpx.Client(base_url=live.url) as anonymous:
        answer = anonymous.get("/rest/workflows/from-url", params={"url": f"{pages}/workflow.json"})
        assert answer.status_code == 401
