"""Findings: the Host header was not checked; body-less POSTs (``/activate``, ``/run``) were accepted from any
Origin as form posts. Now ``Host`` must name the server and state-changing API calls from another origin get 403.

n8n 2.8.4 checks neither (``limits`` in ``n8n_answers.json``: it answers a foreign ``Host`` and a cross-origin login
as any other request); Weft is stricter here on purpose."""

from __future__ import annotations

import httpx

from .conftest import Server


def test_a_foreign_host_header_is_refused(server: Server) -> None:
    refused = server.owner.get("/rest/workflows", headers={"host": "evil.example:5678"})
    assert refused.status_code == 400 and "Host" in refused.json()["message"]
    assert httpx.get(f"{server.url}/healthz", headers={"host": "attacker.test"}).status_code == 400
    assert server.owner.get("/rest/workflows", headers={"host": "localhost"}).status_code == 200


def test_a_cross_origin_form_post_is_refused(server: Server) -> None:
    form = {"origin": "http://evil.example", "content-type": "application/x-www-form-urlencoded"}
    for path in ("/rest/workflows/anything/activate", "/rest/workflows/anything/run", "/rest/logout"):
        refused = server.owner.post(path, headers=form)
        assert refused.status_code == 403, path
    assert (
        server.owner.post(
            "/rest/credentials", headers={"sec-fetch-site": "cross-site"}, json={"name": "x", "type": "t", "data": {}}
        ).status_code
        == 403
    )


def test_same_origin_and_non_browser_calls_pass(server: Server) -> None:
    body = {"name": "same-origin", "nodes": [], "connections": {}}
    assert server.owner.post("/rest/workflows", json=body, headers={"origin": server.url}).status_code == 201
    assert server.owner.post("/rest/workflows", json=body).status_code == 201
    assert server.owner.get("/rest/workflows", headers={"origin": "http://evil.example"}).status_code == 200


def test_allowed_hosts_come_from_the_public_url_and_the_setting() -> None:
    from weft.server.security import allowed_hosts, host_name
    from weft.settings import Settings

    hosts = allowed_hosts(
        Settings.from_env(
            {"WEFT_PUBLIC_URL": "https://weft.example.org/", "WEFT_ALLOWED_HOSTS": "Other.example, 10.0.0.5"}
        )
    )
    assert hosts is not None
    assert {"weft.example.org", "other.example", "10.0.0.5", "localhost", "127.0.0.1", "::1"} <= hosts
    assert "evil.example" not in hosts
    assert allowed_hosts(Settings.from_env({"WEFT_ALLOWED_HOSTS": "*"})) is None
    assert [host_name(h) for h in ("[::1]:5678", "Example.ORG:80", "localhost")] == ["::1", "example.org", "localhost"]
