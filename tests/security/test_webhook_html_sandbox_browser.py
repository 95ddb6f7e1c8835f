"""The issue-19 attack in a real browser: the logged-in owner opens a link to a webhook that echoes its query into
HTML. The script in the link must run as an opaque origin (n8n's CSP sandbox): it can neither read the owner's
data nor create an API key with the owner's session."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from tests._browser import chromium, skip_without_browser

from .conftest import Server, wait_for
from .test_webhook_html_sandbox import _echo_page

skip_without_browser()

#: Reports through the page title: its origin, what it could read of the owner, whether it made a key.
ATTACK = """<script>
document.title = 'origin=' + window.origin;
fetch('/rest/login', {credentials: 'include'})
  .then(function (r) { return r.text(); })
  .then(function (t) { document.title += ' read=' + t.slice(0, 60); })
  .catch(function () { document.title += ' read=blocked'; })
  .then(function () {
    return fetch('/rest/api-keys', {method: 'POST', credentials: 'include',
      headers: {'content-type': 'application/json'},
      body: JSON.stringify({label: 'pwned', scopes: ['workflow:read'], expiresAt: null})});
  })
  .then(function (r) { document.title += ' key=' + r.status; })
  .catch(function () { document.title += ' key=blocked'; });
</script>"""


@pytest.fixture
def browser() -> Iterator[Any]:
    yield from chromium()


def _keys(server: Server) -> list[dict[str, Any]]:
    keys: list[dict[str, Any]] = server.owner.get("/rest/api-keys").json()["data"]
    return keys


def test_the_link_runs_without_the_owners_session(server: Server, browser: Any) -> None:
    path = _echo_page(server)
    before = len(_keys(server))
    browser.get(f"{server.url}/rest/login")  # the owner is logged in in this browser
    browser.add_cookie({"name": "n8n-auth", "value": server.owner.cookies["n8n-auth"], "path": "/"})
    browser.get(f"{server.url}/webhook/{path}?name={quote(ATTACK)}")
    title = wait_for(lambda: browser.title if " key=" in browser.title else None)
    assert title.startswith("origin=null ")
    assert "read=blocked" in title and "key=blocked" in title, title
    assert len(_keys(server)) == before
    assert json.dumps("pwned") not in json.dumps(_keys(server))
