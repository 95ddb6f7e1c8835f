"""Forms as an attacker sees them: escaping of everything a workflow author or a visitor controls, basic auth
(missing, wrong, a forged page token), the server's upload limit, signed waiting pages, and the page's CSP."""

from __future__ import annotations

import base64
import re
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from tests.forms._record_n8n import multipart
from tests.server.conftest import LiveServer, free_port, serve_in_thread, wait_for

from weft.settings import Settings

XSS = '"><script>alert(1)</script><img src=x onerror=alert(2)>'


def _trigger(path: str, parameters: dict[str, Any], **extra: Any) -> dict[str, Any]:
    node = {
        "parameters": {"options": {"path": path}, **parameters},
        "name": "On form submission",
        "type": "n8n-nodes-base.formTrigger",
        "typeVersion": 2.3,
        "position": [0, 0],
        "id": uuid.uuid4().hex,
        "webhookId": uuid.uuid4().hex,
        **extra,
    }
    return node


def _workflow(*nodes: dict[str, Any], connections: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "id": uuid.uuid4().hex[:16],
        "name": f"form {uuid.uuid4().hex[:6]}",
        "nodes": list(nodes),
        "connections": connections or {},
        "settings": {"executionOrder": "v1"},
    }


def _path() -> str:
    return f"sec-{uuid.uuid4().hex[:8]}"


def _post(url: str, fields: list[tuple[str, str]], files: Any = None, **kw: Any) -> httpx.Response:
    body, content_type = multipart(fields, files or [])
    return httpx.post(url, content=body, headers={"content-type": content_type, **kw.pop("headers", {})}, **kw)


def test_labels_values_and_prefills_are_escaped(live: LiveServer) -> None:
    path = _path()
    fields = {
        "values": [
            {"fieldLabel": XSS, "placeholder": XSS},
            {"fieldLabel": "Pick", "fieldType": "dropdown", "fieldOptions": {"values": [{"option": XSS}]}},
            {"fieldLabel": "Many", "fieldType": "checkbox", "fieldOptions": {"values": [{"option": XSS}]}},
            {"fieldType": "hiddenField", "fieldName": "h", "fieldValue": XSS},
            {"fieldType": "html", "html": f"<b>ok</b>{XSS}<a href='javascript:alert(3)'>x</a>"},
        ]
    }
    params = {"formTitle": XSS, "formDescription": XSS, "formFields": fields}
    live.import_workflow(_workflow(_trigger(path, params)))
    page = httpx.get(f"{live.url}/form/{path}", params={XSS: XSS}).text
    assert "<script>alert(1)</script>" not in page
    assert "onerror=alert" not in page.replace("onerror=alert(2)&gt;", "")  # only as escaped text
    assert "javascript:alert" not in page
    assert "<b>ok</b>" in page  # the html field keeps its allowed markup
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_custom_css_cannot_close_the_style_element(live: LiveServer) -> None:
    path = _path()
    css = "body { color: red } div > p { x: y } </style><script>alert(1)</script>"
    live.import_workflow(
        _workflow(
            _trigger(
                path, {"formFields": {"values": [{"fieldLabel": "A"}]}, "options": {"path": path, "customCss": css}}
            )
        )
    )
    page = httpx.get(f"{live.url}/form/{path}").text
    style = re.findall(r"<style>(.*?)</style>", page, re.S)[-1]
    assert "body { color: red } div > p { x: y }" in style
    assert "alert(1)" not in page


def test_every_page_has_a_script_nonce_csp(live: LiveServer) -> None:
    path = _path()
    live.import_workflow(_workflow(_trigger(path, {"formFields": {"values": [{"fieldLabel": "A"}]}})))
    response = httpx.get(f"{live.url}/form/{path}")
    policy = response.headers["content-security-policy"]
    nonce = re.search(r"'nonce-([^']+)'", policy)
    assert nonce is not None and "default-src 'none'" in policy
    scripts = re.findall(r"<script([^>]*)>", response.text)
    assert scripts and all(f'nonce="{nonce.group(1)}"' in attributes for attributes in scripts)
    assert "https://fonts" not in response.text  # nothing beyond the server
    assert re.findall(r"<link[^>]*>", response.text) == ['<link rel="icon" href="data:," />']


@pytest.fixture
def basic_form(live: LiveServer) -> str:
    credential = live.instance.store.credentials.create(
        "form basic", "httpBasicAuth", {"user": "alice", "password": "s3cret"}
    )
    path = _path()
    node = _trigger(
        path,
        {"authentication": "basicAuth", "formFields": {"values": [{"fieldLabel": "Name"}]}},
        credentials={"httpBasicAuth": {"id": credential.id, "name": "form basic"}},
    )
    live.import_workflow(_workflow(node))
    return f"{live.url}/form/{path}"


@pytest.mark.parametrize("auth", [None, ("alice", "wrong"), ("mallory", "s3cret"), ("alice", ""), ("", "")], ids=str)
def test_basic_auth_refuses_missing_and_wrong_credentials(basic_form: str, auth: Any) -> None:
    for response in (httpx.get(basic_form, auth=auth), _post(basic_form, [("field-0", "x")], auth=auth)):
        assert response.status_code == 401
        assert response.headers["www-authenticate"] == 'Basic realm="Enter credentials"'
        assert response.content == b""


def test_basic_auth_page_token_is_checked(live: LiveServer, basic_form: str) -> None:
    page = httpx.get(basic_form, auth=("alice", "s3cret"))
    assert page.status_code == 200
    token = re.search(r'"authToken": "([0-9a-f]{64})"', page.text)
    assert token is not None
    forged = "0" * 64
    assert _post(basic_form, [("field-0", "x")], headers={"x-auth-token": forged}).status_code == 401
    accepted = _post(basic_form, [("field-0", "Bob")], headers={"x-auth-token": token.group(1)})
    assert accepted.status_code == 200 and accepted.json() == {"status": 200}


def test_a_garbled_basic_header_is_refused(basic_form: str) -> None:
    garbage = base64.b64encode(b"no-colon").decode()
    assert httpx.get(basic_form, headers={"authorization": f"Basic {garbage}"}).status_code == 401


@pytest.fixture
def small_server(tmp_path: Any) -> Iterator[LiveServer]:
    """A server whose payload limit is 64 KiB."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    settings = Settings(
        user_folder=tmp_path, database_url=f"sqlite:///{tmp_path / 'db.sqlite'}", encryption_key="k", port=port,
        public_url=url + "/", payload_size_max=64 / 1024,
    )  # fmt: skip
    server, thread = serve_in_thread(settings, port)
    with httpx.Client(base_url=url, timeout=30) as client:
        from tests.server.conftest import log_in

        log_in(client)
        yield LiveServer(url=url, settings=settings, server=server, client=client)
    server.should_exit = True
    thread.join(30)


def test_uploads_beyond_the_payload_limit_are_refused(small_server: LiveServer) -> None:
    path = _path()
    fields = {"values": [{"fieldLabel": "File", "fieldType": "file"}]}
    workflow_id = small_server.import_workflow(_workflow(_trigger(path, {"formFields": fields})))
    url = f"{small_server.url}/form/{path}"
    big = _post(url, [], [("field-0", ("big.bin", b"x" * 200_000, "application/octet-stream"))])
    assert big.status_code == 413
    small = _post(url, [], [("field-0", ("small.txt", b"hello", "text/plain"))])
    assert small.status_code == 200
    rows = wait_for(lambda: [r for r in small_server.executions(workflow_id) if r["status"] == "success"])
    assert len(rows) == 1


def test_waiting_pages_need_their_signature(live: LiveServer) -> None:
    path = _path()
    trigger = _trigger(path, {"formFields": {"values": [{"fieldLabel": "Name"}]}})
    page = {
        "parameters": {"formFields": {"values": [{"fieldLabel": "Age", "fieldType": "number"}]}},
        "name": "Page", "type": "n8n-nodes-base.form", "typeVersion": 2.3, "position": [200, 0],
        "id": uuid.uuid4().hex, "webhookId": uuid.uuid4().hex,
    }  # fmt: skip
    connections = {trigger["name"]: {"main": [[{"node": "Page", "type": "main", "index": 0}]]}}
    live.import_workflow(_workflow(trigger, page, connections=connections))
    waiting = _post(f"{live.url}/form/{path}", [("field-0", "Ada")]).json()["formWaitingUrl"]
    bare = waiting.split("?")[0]
    for url in (bare, bare + "?signature=" + "f" * 64):
        refused = httpx.get(url)
        assert refused.status_code == 401 and "Invalid Form Link" in refused.text
        assert _post(url, [("field-0", "1")]).status_code == 401
    assert httpx.get(bare + "/n8n-execution-status").status_code == 401  # the status is not told either
    execution_id = bare.rsplit("/", 1)[1]
    assert live.execution(execution_id)["status"] == "waiting"
    assert httpx.get(waiting).status_code == 200


def test_bots_are_ignored_when_asked(live: LiveServer) -> None:
    path = _path()
    params = {"formFields": {"values": [{"fieldLabel": "A"}]}, "options": {"path": path, "ignoreBots": True}}
    live.import_workflow(_workflow(_trigger(path, params)))
    bot = httpx.get(f"{live.url}/form/{path}", headers={"user-agent": "Slackbot-LinkExpanding 1.0"})
    assert bot.status_code == 401 and bot.headers["www-authenticate"] == 'Basic realm="Enter credentials"'
    human = httpx.get(f"{live.url}/form/{path}", headers={"user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/130"})
    assert human.status_code == 200


def test_the_ip_allow_list_is_honoured(live: LiveServer) -> None:
    path = _path()
    params = {"formFields": {"values": [{"fieldLabel": "A"}]}, "options": {"path": path, "ipWhitelist": "10.0.0.0/8"}}
    live.import_workflow(_workflow(_trigger(path, params)))
    refused = httpx.get(f"{live.url}/form/{path}")
    assert (refused.status_code, refused.text) == (403, "IP is not allowed to access this form!")
    assert _post(f"{live.url}/form/{path}", [("field-0", "x")]).status_code == 403
