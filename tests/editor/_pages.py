"""What the browser tests do on the editor's pages: sign in, import, open a workflow, read the canvas."""

from __future__ import annotations

import json
from typing import Any

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webelement import WebElement
from tests.server.conftest import OWNER, LiveServer, wait_for

from weft.services.auth import COOKIE_NAME


def sign_in(driver: Any, live: LiveServer) -> None:
    """Open the editor signed in as the live server's owner: the browser gets the session cookie of the test
    client (logins are rate-limited to 5 a minute per email, as n8n's; the sign-in form has its own test)."""
    driver.get(f"{live.url}/healthz")
    token = live.client.cookies.get(COOKIE_NAME)
    assert token, "the live server's client holds no session"
    driver.add_cookie({"name": COOKIE_NAME, "value": token, "path": "/", "httpOnly": True, "sameSite": "Lax"})
    driver.get(f"{live.url}/")
    wait_for(lambda: driver.find_elements(By.ID, "create"))


def sign_in_with_form(driver: Any, url: str, email: str = OWNER["email"], password: str = OWNER["password"]) -> None:
    """Open the editor and sign in with its form."""
    driver.get(f"{url}/")
    wait_for(lambda: driver.find_elements(By.ID, "email"))
    driver.find_element(By.ID, "email").send_keys(email)
    driver.find_element(By.ID, "password").send_keys(password)
    driver.find_element(By.ID, "signin-submit").click()
    wait_for(lambda: driver.find_elements(By.ID, "create"))


def paste_import(driver: Any, workflow: dict[str, Any]) -> None:
    """Paste ``workflow`` into the import box (set as one paste, not typed key by key) and import it."""
    box = driver.find_element(By.ID, "import-text")
    driver.execute_script(
        "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))", box, json.dumps(workflow)
    )
    driver.find_element(By.ID, "import-paste").click()
    wait_for(lambda: row(driver, workflow["name"]))


def row(driver: Any, name: str) -> WebElement | None:
    """The list's row of the workflow called ``name``."""
    try:
        for found in driver.find_elements(By.CSS_SELECTOR, ".workflow-row"):
            links = found.find_elements(By.CSS_SELECTOR, ".workflow-name")
            if links and links[0].text == name:
                return found  # type: ignore[no-any-return]
    except StaleElementReferenceException:  # the list re-rendered meanwhile: look again
        return None
    return None


def open_workflow(driver: Any, name: str, node_count: int) -> None:
    """Click the workflow in the list and wait for its canvas to show ``node_count`` nodes."""
    found = wait_for(lambda: row(driver, name))  # the list loads after the page
    found.find_element(By.CSS_SELECTOR, ".workflow-name").click()
    wait_for(lambda: len(canvas_nodes(driver)) == node_count)


def canvas_nodes(driver: Any) -> list[WebElement]:
    return driver.find_elements(By.CSS_SELECTOR, ".vue-flow__node")  # type: ignore[no-any-return]


def node(driver: Any, name: str) -> WebElement:
    """The canvas element (Vue Flow's node wrapper) of the node ``name``."""
    return next(n for n in canvas_nodes(driver) if n.get_attribute("data-id") == name)


def status(driver: Any, name: str) -> str | None:
    """The status badge's text of the node ``name`` (``"1 item"``, ``"error"``), or ``None``."""
    found = [n for n in canvas_nodes(driver) if n.get_attribute("data-id") == name]
    badges = found[0].find_elements(By.CSS_SELECTOR, ".node-status") if found else []
    return badges[0].text if badges else None


def edges(driver: Any) -> list[WebElement]:
    return driver.find_elements(By.CSS_SELECTOR, ".vue-flow__edge")  # type: ignore[no-any-return]
