"""Starting a live ``n8n start`` for the recorders (``tests/*/_record_n8n*.py``), which keep what it answers as
golden files. Recording needs real n8n (installed by the n8n oracle, a tool outside this repository); the tests
themselves never start it."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from typing import IO

import httpx


def start_n8n(anchor: str, env: dict[str, str], base: str, log: IO[str] | Path) -> subprocess.Popen[bytes]:
    """``n8n start`` from the install at ``anchor``, once ``base/healthz`` answers (and 3 s more, for its
    webhooks to register); its output goes to ``log``."""
    out = open(log, "w") if isinstance(log, Path) else log
    server = subprocess.Popen(
        [f"{anchor}/node_modules/.bin/n8n", "start"], env=env, stdout=out, stderr=subprocess.STDOUT
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                break
        except httpx.TransportError:
            pass
        time.sleep(1)
    time.sleep(3)
    return server


#: The owner a recorder sets up on a fresh n8n home (and logs in as).
OWNER = {"email": "owner@example.com", "firstName": "Ada", "lastName": "Owner", "password": "Passw0rd-long"}


def n8n_env(**extra: str) -> dict[str, str]:
    """The environment a recorder runs n8n with: the oracle's ports and home (``ACC_N8N_PORT``,
    ``ACC_BROKER_PORT``, ``ACC_N8N_HOME``), on 127.0.0.1, with nothing phoning home; plus ``extra``."""
    env = dict(os.environ)
    env.update(
        N8N_DIAGNOSTICS_ENABLED="false",
        N8N_VERSION_NOTIFICATIONS_ENABLED="false",
        N8N_TEMPLATES_ENABLED="false",
        N8N_PERSONALIZATION_ENABLED="false",
        N8N_LISTEN_ADDRESS="127.0.0.1",
        N8N_USER_FOLDER=env["ACC_N8N_HOME"],
        N8N_PORT=env["ACC_N8N_PORT"],
        N8N_RUNNERS_BROKER_PORT=env["ACC_BROKER_PORT"],
        N8N_COMMUNITY_PACKAGES_ENABLED="false",
        N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS="false",
        N8N_SECURE_COOKIE="false",
        **extra,
    )
    return env


def run_n8n(anchor: str, *args: str, env: dict[str, str] | None = None) -> None:
    """One n8n CLI command (``import:workflow``, ``publish:workflow`` …); stop the recorder if it fails."""
    done = subprocess.run(
        [f"{anchor}/node_modules/.bin/n8n", *args], env=env or n8n_env(), capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"n8n {args[0]} failed: {done.stdout[-1500:]} {done.stderr[-1500:]}")


def public_api(base: str) -> httpx.Client:
    """A client of n8n's public API with a key of every scope, after setting up (or logging in as) the owner."""
    session = httpx.Client(base_url=base, timeout=30)
    deadline = time.monotonic() + 180
    while session.get("/rest/settings").status_code != 200 and time.monotonic() < deadline:
        time.sleep(1)  # the REST API registers after /healthz answers
    session.post("/rest/owner/setup", json=OWNER)
    login = session.post("/rest/login", json={"emailOrLdapLoginId": OWNER["email"], "password": OWNER["password"]})
    session.cookies.set("n8n-auth", login.cookies["n8n-auth"])
    scopes = session.get("/rest/api-keys/scopes").json()["data"]
    key = session.post("/rest/api-keys", json={"label": f"r{time.time_ns()}", "expiresAt": None, "scopes": scopes})
    return httpx.Client(base_url=base, timeout=30, headers={"X-N8N-API-KEY": key.json()["data"]["rawApiKey"]})
