"""The workflows list in a real browser, as n8n's: tags (shown, added, removed, filtered by), the active switch (an
activation error shown and the switch put back), import from a URL (fetched by the server from a real HTTP server on
127.0.0.1), export with its versionId and tags, and the versionId of saves: kept in the workflow's JSON, a stale
one refused with n8n's message. Every test fails on a browser console error."""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from tests.editor._browser import chromium, console_errors, skip_without_browser

skip_without_browser()

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.select import Select  # noqa: E402
from tests.editor._pages import node, open_workflow, row, sign_in  # noqa: E402
from tests.server.conftest import EXAMPLES, LiveServer, example_workflow, unique_path, wait_for  # noqa: E402


@pytest.fixture
def browser(downloads: Path) -> Iterator[Any]:
    yield from chromium(str(downloads))


def _agent(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / "agent_demo.json").read_text())
    data["name"] = name
    data.pop("id", None)
    return data


def _unique(prefix: str) -> str:
    return f"{prefix} {uuid.uuid4().hex[:6]}"


def _search(browser: Any, text: str) -> None:
    box = browser.find_element(By.ID, "search")
    box.clear()
    box.send_keys(text)


def _names(browser: Any) -> list[str]:
    """The names the list shows (read at once in the page: the list may re-render meanwhile)."""
    names: list[str] = browser.execute_script(
        "return [...document.querySelectorAll('.workflow-row .workflow-name')].map((e) => e.textContent.trim())"
    )
    return names


def _chips(browser: Any, name: str) -> list[str]:
    """The tags the list shows on the workflow ``name``."""
    chips: list[str] = browser.execute_script(
        "const row = [...document.querySelectorAll('.workflow-row')]"
        "  .find((r) => r.querySelector('.workflow-name')?.textContent.trim() === arguments[0]);"
        "return row ? [...row.querySelectorAll('.workflow-tag .tag-name')].map((e) => e.textContent.trim()) : [];",
        name,
    )
    return chips


def _add_tag(browser: Any, name: str, tag: str) -> None:
    found = wait_for(lambda: row(browser, name))
    found.find_element(By.CSS_SELECTOR, ".tag-add-button").click()
    box = wait_for(lambda: (r := row(browser, name)) and r.find_elements(By.CSS_SELECTOR, ".tag-input"))[0]
    box.send_keys(tag, Keys.ENTER)
    wait_for(lambda: tag in _chips(browser, name))


def _console_errors_but_400(browser: Any, path: str) -> list[dict[str, Any]]:
    """The console's errors but the one the browser logs for the refused request to ``path`` (a 400 is an answer
    the page shows; Chromium logs every failed request)."""
    errors = console_errors(browser)
    expected = [e for e in errors if path in e["message"] and "400" in e["message"]]
    assert expected, f"the refused request to {path} is not in the console: {errors}"
    return [e for e in errors if e not in expected]


def _tags_of(live: LiveServer, workflow_id: str) -> list[str]:
    return sorted(t["name"] for t in live.client.get(f"/rest/workflows/{workflow_id}").json()["data"]["tags"])


def test_tags_are_added_shown_filtered_by_and_removed(live: LiveServer, browser: Any) -> None:
    stem = uuid.uuid4().hex[:6]
    first, second = f"Tagged {stem} one", f"Tagged {stem} two"
    first_id = live.import_workflow(_agent(first), activate=False)
    second_id = live.import_workflow(_agent(second), activate=False)
    tag, other = f"ops-{stem}", f"crm-{stem}"
    sign_in(browser, live)
    _search(browser, stem)
    wait_for(lambda: sorted(_names(browser)) == [first, second])
    _add_tag(browser, first, tag)  # a new tag, created on the spot
    _add_tag(browser, first, other)
    _add_tag(browser, second, tag)  # the existing one
    assert _tags_of(live, first_id) == sorted([tag, other]) and _tags_of(live, second_id) == [tag]
    tags = {t["name"]: t for t in live.client.get("/rest/tags", params={"withUsageCount": "true"}).json()["data"]}
    assert tags[tag]["usageCount"] == 2 and tags[other]["usageCount"] == 1
    wait_for(lambda: any(o.text.startswith(other) for o in Select(browser.find_element(By.ID, "tag-filter")).options))
    Select(browser.find_element(By.ID, "tag-filter")).select_by_value(tags[other]["id"])
    wait_for(lambda: _names(browser) == [first])
    Select(browser.find_element(By.ID, "tag-filter")).select_by_value("")
    wait_for(lambda: len(_names(browser)) == 2)
    found = row(browser, second)
    assert found is not None
    found.find_element(By.CSS_SELECTOR, ".workflow-tag .tag-name").click()  # a click on a tag filters by it
    wait_for(lambda: sorted(_names(browser)) == [first, second])
    assert (
        Select(browser.find_element(By.ID, "tag-filter")).first_selected_option.get_attribute("value")
        == tags[tag]["id"]
    )
    found = row(browser, first)
    assert found is not None
    chip = next(c for c in found.find_elements(By.CSS_SELECTOR, ".workflow-tag") if c.text.startswith(tag))
    chip.find_element(By.CSS_SELECTOR, ".tag-remove").click()
    wait_for(lambda: _names(browser) == [second])  # no longer tagged: the filter hides it
    assert _tags_of(live, first_id) == [other]
    assert not browser.find_elements(By.CSS_SELECTOR, ".list .error")  # the list reloaded without a failure
    assert console_errors(browser) == []


def test_the_active_switch_activates_and_shows_an_activation_error(live: LiveServer, browser: Any) -> None:
    path = unique_path("list")
    hook = example_workflow("webhook_set_respond.json", path)
    hook["name"] = _unique("Switch webhook")
    hook_id = live.import_workflow(hook, activate=False)
    manual = _agent(_unique("Switch manual"))
    manual_id = live.import_workflow(manual, activate=False)
    sign_in(browser, live)
    found = wait_for(lambda: row(browser, hook["name"]))
    found.find_element(By.CSS_SELECTOR, ".active-toggle").click()
    wait_for(lambda: live.client.get(f"/rest/workflows/{hook_id}").json()["data"]["active"] is True)
    wait_for(
        lambda: (r := row(browser, hook["name"])) and r.find_element(By.CSS_SELECTOR, ".active-toggle").is_selected()
    )
    assert "Active" in (row(browser, hook["name"]) or found).find_element(By.CSS_SELECTOR, ".switch").text
    found = row(browser, manual["name"])
    assert found is not None
    found.find_element(By.CSS_SELECTOR, ".active-toggle").click()  # a manual trigger only: n8n refuses it
    alert = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, ".list .error"))[0]
    assert alert.text.startswith("Problem activating workflow:") and "no node to start the workflow" in alert.text
    switch = (row(browser, manual["name"]) or found).find_element(By.CSS_SELECTOR, ".active-toggle")
    assert (
        not switch.is_selected() and live.client.get(f"/rest/workflows/{manual_id}").json()["data"]["active"] is False
    )
    row(browser, hook["name"]).find_element(By.CSS_SELECTOR, ".active-toggle").click()  # type: ignore[union-attr]
    wait_for(lambda: live.client.get(f"/rest/workflows/{hook_id}").json()["data"]["active"] is False)
    assert _console_errors_but_400(browser, f"/rest/workflows/{manual_id}/activate") == []


class _Pages(BaseHTTPRequestHandler):
    body = b""

    def do_GET(self) -> None:
        found = self.path == "/workflow.json"
        self.send_response(200 if found else 404)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(self.body) if found else 0))
        self.end_headers()
        if found:
            self.wfile.write(self.body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def pages() -> Iterator[tuple[str, type[_Pages]]]:
    handler = type("Pages", (_Pages,), {})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", handler
    server.shutdown()
    server.server_close()
    thread.join(5)


def test_import_from_a_url_fetched_by_the_server(live: LiveServer, browser: Any, pages: Any) -> None:
    url, handler = pages
    workflow = _agent(_unique("From a URL"))
    handler.body = json.dumps(workflow).encode()
    sign_in(browser, live)
    browser.find_element(By.ID, "import-url").send_keys(f"{url}/workflow.json")
    browser.find_element(By.ID, "import-url-button").click()
    wait_for(lambda: row(browser, workflow["name"]))
    stored = next(w for w in live.client.get("/rest/workflows").json()["data"] if w["name"] == workflow["name"])
    assert [n["name"] for n in stored["nodes"]] == [n["name"] for n in workflow["nodes"]]
    assert stored["connections"] == workflow["connections"]
    browser.find_element(By.ID, "import-url").send_keys(f"{url}/missing.json")
    browser.find_element(By.ID, "import-url-button").click()
    alert = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, ".list .error"))[0]
    assert alert.text == "The URL does not point to valid JSON file!"
    assert _console_errors_but_400(browser, "/rest/workflows/from-url") == []


def test_export_downloads_the_json_with_its_version_id_and_tags(
    live: LiveServer, browser: Any, downloads: Path
) -> None:
    workflow = _agent(_unique("Export me"))
    workflow["tags"] = [{"id": "from-n8n", "name": f"exp-{uuid.uuid4().hex[:6]}"}]
    workflow_id = live.import_workflow(workflow, activate=False)
    sign_in(browser, live)
    _search(browser, workflow["name"])
    found = wait_for(lambda: row(browser, workflow["name"]))
    found.find_element(By.CSS_SELECTOR, ".export-button").click()
    exported = json.loads(wait_for(lambda: list(downloads.glob("*.json")))[0].read_text())
    stored = live.client.get(f"/rest/workflows/{workflow_id}").json()["data"]
    assert exported["versionId"] == stored["versionId"] and exported["nodes"] == workflow["nodes"]
    assert [t["name"] for t in exported["tags"]] == [workflow["tags"][0]["name"]]
    assert "active" not in exported and exported["connections"] == workflow["connections"]
    assert console_errors(browser) == []


def _drag(browser: Any, name: str, dx: int, dy: int) -> None:
    box = node(browser, name).find_element(By.CSS_SELECTOR, ".node-box")
    ActionChains(browser).click_and_hold(box).move_by_offset(dx // 2, dy // 2).move_by_offset(
        dx - dx // 2, dy - dy // 2
    ).release().perform()


def test_saves_keep_the_exports_version_id_and_a_stale_save_is_refused(live: LiveServer, browser: Any) -> None:
    workflow = _agent(_unique("Versioned"))
    workflow["versionId"] = "0f1e2d3c-0000-4000-8000-00000000abcd"
    workflow_id = live.import_workflow(workflow, activate=False)
    sign_in(browser, live)
    _search(browser, workflow["name"])
    open_workflow(browser, workflow["name"], node_count=6)
    for dx in (60, 40):  # two saves in a row: the second is based on the first's version
        _drag(browser, "Question", dx, 30)
        wait_for(lambda: browser.find_element(By.ID, "save").text == "Save*")
        browser.find_element(By.ID, "save").click()
        wait_for(lambda: browser.find_element(By.ID, "save").text == "Save")
    exported = live.instance.store.workflows.export_workflow(workflow_id)
    assert exported["versionId"] == workflow["versionId"]  # the export's own, kept in its JSON
    assert next(n for n in exported["nodes"] if n["name"] == "Question")["position"] != [220, 0]
    current = live.client.get(f"/rest/workflows/{workflow_id}").json()["data"]  # another tab saves meanwhile
    other = live.client.patch(f"/rest/workflows/{workflow_id}", json={**current, "name": workflow["name"] + "!"})
    assert other.status_code == 200
    _drag(browser, "Question", 40, 40)
    wait_for(lambda: browser.find_element(By.ID, "save").text == "Save*")
    browser.find_element(By.ID, "save").click()
    alert = wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, ".canvas-page .error"))[0]
    assert alert.text.startswith("Your most recent changes may be lost, because someone else just updated this")
    assert live.client.get(f"/rest/workflows/{workflow_id}").json()["data"]["name"] == workflow["name"] + "!"
    assert _console_errors_but_400(browser, f"/rest/workflows/{workflow_id}") == []
