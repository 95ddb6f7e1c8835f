"""Credentials in real Chromium against the live server: the credentials page (create by type, edit with the
secret kept on the server, test against a real OpenAI-compatible server on 127.0.0.1, delete after a confirm)
and a credential created in place from a node's panel, which the node's JSON then references. The secret never
reaches the page after a save (asserted on the page source). Every test fails on a browser console error; the
run takes the screenshots ``docs/editor-credentials.png`` and ``docs/editor-credentials-in-place.png``."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select
from tests.editor._browser import chromium, console_errors, skip_without_browser
from tests.editor._pages import node, open_workflow, row, sign_in
from tests.server.conftest import LiveServer, wait_for

from weft.testing.fake_openai import FakeOpenAIServer

DOCS = Path(__file__).resolve().parents[2] / "docs"
KEY = "sk-browser-secret-5f1e2d3c4b"


@pytest.fixture
def browser() -> Iterator[Any]:
    skip_without_browser()
    yield from chromium()


def _css(browser: Any, css: str) -> Any:
    return wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, css))[0]


def _field(browser: Any, name: str) -> Any:
    return _css(browser, f"[data-test-id=parameter-input-{name}] input")


def _type(element: Any, text: str) -> None:
    element.clear()
    element.send_keys(text)


def _cards(browser: Any) -> dict[str, str]:
    """The page's credentials: name -> id (empty while the list re-renders)."""
    try:
        found = browser.find_elements(By.CSS_SELECTOR, "[data-test-id=credential-card]")
        return {
            c.find_element(By.CSS_SELECTOR, ".credential-open").text: c.get_attribute("data-credential-id")
            for c in found
        }
    except StaleElementReferenceException:
        return {}


def _result(browser: Any) -> Any:
    return _css(browser, "[data-test-id=credential-test-result]")


def _close_modal(browser: Any) -> None:
    browser.find_element(By.CSS_SELECTOR, "[data-test-id=credential-modal-close]").click()
    wait_for(lambda: not browser.find_elements(By.CSS_SELECTOR, "[data-test-id=credential-modal]"))


def test_create_edit_test_and_delete_on_the_credentials_page(live: LiveServer, browser: Any) -> None:
    name = f"OpenAI {uuid.uuid4().hex[:6]}"
    with FakeOpenAIServer() as fake:
        sign_in(browser, live)
        browser.find_element(By.ID, "nav-credentials").click()
        _css(browser, "[data-test-id=create-credential-button]").click()
        _type(_css(browser, "[data-test-id=credential-type-search]"), "openai")
        _css(browser, "[data-test-id=credential-type-openAiApi]").click()
        _type(_css(browser, "[data-test-id=credential-name]"), name)
        _field(browser, "apiKey").send_keys(KEY)
        _type(_field(browser, "url"), fake.base_url)
        header = "[data-test-id=parameter-input-headerName]"
        assert not browser.find_elements(By.CSS_SELECTOR, header)  # displayOptions: only with Add Custom Header
        _field(browser, "header").click()
        _css(browser, header)
        _field(browser, "header").click()
        wait_for(lambda: not browser.find_elements(By.CSS_SELECTOR, header))
        browser.find_element(By.CSS_SELECTOR, "[data-test-id=credential-save-button]").click()
        wait_for(lambda: _result(browser).get_attribute("data-status") == "OK")  # saved, then tested as n8n does
        assert _result(browser).text == "Connection tested successfully"
        assert KEY not in browser.page_source
        credential_id = wait_for(lambda: _cards(browser).get(name))
        stored = live.instance.store.credentials.get(credential_id)
        assert stored is not None and stored.data["apiKey"] == KEY and stored.data["url"] == fake.base_url
        assert any(r.path == "/v1/models" and f"Bearer {KEY}" in r.headers.values() for r in fake.requests)
        browser.save_screenshot(str(DOCS / "editor-credentials.png"))
        _close_modal(browser)

        # edit: the secret field is empty, its placeholder says it is stored; a rename keeps the key
        browser.find_element(By.CSS_SELECTOR, f"[data-credential-id='{credential_id}'] .credential-open").click()
        key_input = _field(browser, "apiKey")
        assert key_input.get_attribute("value") == "" and key_input.get_attribute("type") == "password"
        assert "Stored" in (key_input.get_attribute("placeholder") or "")
        _type(_css(browser, "[data-test-id=credential-name]"), name + " renamed")
        browser.find_element(By.CSS_SELECTOR, "[data-test-id=credential-save-button]").click()
        wait_for(lambda: _result(browser).get_attribute("data-status") == "OK")
        stored = live.instance.store.credentials.get(credential_id)
        assert stored is not None and stored.name == name + " renamed" and stored.data["apiKey"] == KEY

        # a test of an unsaved change: the Test button sends the form, the stored key fills the placeholder
        _type(_field(browser, "url"), "http://127.0.0.1:9/v1")
        browser.find_element(By.CSS_SELECTOR, "[data-test-id=credential-test-button]").click()
        wait_for(lambda: _result(browser).get_attribute("data-status") == "Error")
        assert "ECONNREFUSED" in _result(browser).text and KEY not in browser.page_source
        _close_modal(browser)

    wait_for(lambda: name + " renamed" in _cards(browser))
    card = browser.find_element(By.CSS_SELECTOR, f"[data-credential-id='{credential_id}']")
    card.find_element(By.CSS_SELECTOR, "[data-test-id=credential-delete-button]").click()
    _css(browser, "[data-test-id=credential-delete-confirm]").click()
    wait_for(lambda: not browser.find_elements(By.CSS_SELECTOR, f"[data-credential-id='{credential_id}']"))
    assert live.client.get(f"/rest/credentials/{credential_id}").status_code == 404
    assert console_errors(browser) == []


def _http_workflow() -> dict[str, Any]:
    parameters = {
        "url": "http://127.0.0.1:9/",
        "authentication": "genericCredentialType",
        "genericAuthType": "httpHeaderAuth",
        "options": {},
    }
    nodes = [
        {
            "id": str(uuid.uuid4()),
            "name": "Start",
            "type": "n8n-nodes-base.manualTrigger",
            "typeVersion": 1,
            "position": [0, 0],
            "parameters": {},
        },
        {
            "id": str(uuid.uuid4()),
            "name": "Call API",
            "type": "n8n-nodes-base.httpRequest",
            "typeVersion": 4.2,
            "position": [240, 0],
            "parameters": parameters,
        },
    ]
    connections = {"Start": {"main": [[{"node": "Call API", "type": "main", "index": 0}]]}}
    return {
        "id": uuid.uuid4().hex[:16],
        "name": f"credential {uuid.uuid4().hex[:6]}",
        "nodes": nodes,
        "connections": connections,
        "settings": {"executionOrder": "v1"},
    }


def _open_http_panel(live: LiveServer, browser: Any, data: dict[str, Any]) -> str:
    """Import ``data`` (Start -> "Call API"), sign in, open it and its HTTP Request's node panel; its id."""
    from selenium.webdriver.common.action_chains import ActionChains

    workflow_id = live.import_workflow(data, activate=False)
    sign_in(browser, live)
    wait_for(lambda: row(browser, data["name"]))
    open_workflow(browser, data["name"], node_count=2)
    ActionChains(browser).double_click(
        node(browser, "Call API").find_element(By.CSS_SELECTOR, ".canvas-node")
    ).perform()
    return str(workflow_id)


def test_create_a_credential_in_place_from_the_node_panel(live: LiveServer, browser: Any) -> None:
    data = _http_workflow()
    workflow_id = _open_http_panel(live, browser, data)
    select = _css(browser, "[data-test-id=credential-select-httpHeaderAuth]")
    Select(select).select_by_visible_text("+ Create new credential")
    _css(browser, "[data-test-id=credential-name]")
    browser.switch_to.active_element.send_keys(Keys.ESCAPE)  # closes the modal, not the node panel under it
    wait_for(lambda: not browser.find_elements(By.CSS_SELECTOR, "[data-test-id=credential-modal]"))
    assert browser.find_elements(By.CSS_SELECTOR, "[data-test-id=ndv]")
    select = _css(browser, "[data-test-id=credential-select-httpHeaderAuth]")
    Select(select).select_by_visible_text("+ Create new credential")
    credential_name = f"Header {uuid.uuid4().hex[:6]}"
    _type(_css(browser, "[data-test-id=credential-name]"), credential_name)
    _type(_field(browser, "name"), "X-Api-Key")
    _field(browser, "value").send_keys("header-secret-value")
    browser.save_screenshot(str(DOCS / "editor-credentials-in-place.png"))
    browser.find_element(By.CSS_SELECTOR, "[data-test-id=credential-save-button]").click()
    wait_for(lambda: not browser.find_elements(By.CSS_SELECTOR, "[data-test-id=credential-modal]"))
    select = _css(browser, "[data-test-id=credential-select-httpHeaderAuth]")
    wait_for(lambda: Select(select).first_selected_option.text == credential_name)
    assert "header-secret-value" not in browser.page_source

    browser.find_element(By.CSS_SELECTOR, "[data-test-id=ndv-close]").click()
    browser.find_element(By.ID, "save").click()
    wait_for(lambda: [m.text for m in browser.find_elements(By.ID, "message")] == ["Saved"])
    saved = live.client.get(f"/rest/workflows/{workflow_id}").json()["data"]
    credentials = next(n for n in saved["nodes"] if n["name"] == "Call API")["credentials"]
    stored = live.instance.store.credentials.find(credential_name, "httpHeaderAuth")
    assert stored is not None and stored.data == {
        "name": "X-Api-Key",
        "value": "header-secret-value",
        "allowedHttpRequestDomains": "all",
    }
    assert credentials == {"httpHeaderAuth": {"id": stored.id, "name": credential_name}}
    assert console_errors(browser) == []


def test_the_generic_auth_type_is_chosen_in_the_node_panel(live: LiveServer, browser: Any) -> None:
    # n8n's credentialsSelect parameter: HTTP Request's Generic Auth Type lists the generic types; choosing one
    # writes its name and offers that type's credentials
    data = _http_workflow()
    data["name"] = f"generic auth {uuid.uuid4().hex[:6]}"
    del data["nodes"][1]["parameters"]["genericAuthType"]
    workflow_id = _open_http_panel(live, browser, data)
    chooser = Select(
        _css(browser, "[data-test-id=parameter-input-genericAuthType] [data-test-id=credential-type-select]")
    )
    wait_for(lambda: "Header Auth" in [o.text for o in chooser.options])
    assert "OpenAI" not in [o.text for o in chooser.options]  # only the generic types (has: genericAuth)
    chooser.select_by_visible_text("Header Auth")
    _css(browser, "[data-test-id=credential-select-httpHeaderAuth]")
    browser.find_element(By.CSS_SELECTOR, "[data-test-id=ndv-close]").click()
    browser.find_element(By.ID, "save").click()
    wait_for(lambda: [m.text for m in browser.find_elements(By.ID, "message")] == ["Saved"])
    saved = live.client.get(f"/rest/workflows/{workflow_id}").json()["data"]
    parameters = next(n for n in saved["nodes"] if n["name"] == "Call API")["parameters"]
    assert parameters["genericAuthType"] == "httpHeaderAuth"
    assert console_errors(browser) == []
