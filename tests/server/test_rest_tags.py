"""``/rest/tags`` as n8n's (list with usage counts, create, rename, delete), a workflow's tags in its saves and
answers, tags of an imported export linked by name, and a save's ``versionId`` (a stale one is refused as n8n's)."""

from __future__ import annotations

import uuid
from typing import Any

import httpx

from weft.testing.workflows import connect, node, workflow

from .conftest import LiveServer


def _workflow(name: str, **extra: Any) -> dict[str, Any]:
    data = workflow(node("Start", "n8n-nodes-base.manualTrigger"), node("Set"), connect("Start", "Set"))
    return {**data, "name": name, **extra}


def _tag(live: LiveServer, name: str) -> dict[str, Any]:
    response = live.client.post("/rest/tags", json={"name": name})
    assert response.status_code == 200, response.text
    tag: dict[str, Any] = response.json()["data"]
    return tag


def _unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:6]}"


def test_tags_are_created_listed_with_usage_renamed_and_deleted(live: LiveServer) -> None:
    tag = _tag(live, _unique("ops"))
    assert set(tag) >= {"id", "name", "createdAt", "updatedAt"}
    assert live.client.post("/rest/tags", json={"name": tag["name"]}).status_code == 409
    workflow_id = live.client.post("/rest/workflows", json=_workflow("tagged", tags=[tag["id"]])).json()["data"]["id"]
    listed = live.client.get("/rest/tags", params={"withUsageCount": "true"}).json()["data"]
    assert next(t for t in listed if t["id"] == tag["id"])["usageCount"] == 1
    renamed = live.client.patch(f"/rest/tags/{tag['id']}", json={"name": tag["name"] + "x"}).json()["data"]
    assert renamed == {**renamed, "id": tag["id"], "name": tag["name"] + "x"}
    got = live.client.get(f"/rest/workflows/{workflow_id}").json()["data"]
    assert got["tags"] == [{"id": tag["id"], "name": tag["name"] + "x"}]
    assert live.client.delete(f"/rest/tags/{tag['id']}").json() == {"data": True}
    assert live.client.delete(f"/rest/tags/{tag['id']}").status_code == 404
    assert live.client.get(f"/rest/workflows/{workflow_id}").json()["data"]["tags"] == []


def test_a_save_sets_the_tags_by_id_and_the_list_shows_them(live: LiveServer) -> None:
    first, second = _tag(live, _unique("a")), _tag(live, _unique("b"))
    created = live.client.post("/rest/workflows", json=_workflow("to tag")).json()["data"]
    assert created["tags"] == []
    saved = live.client.patch(
        f"/rest/workflows/{created['id']}", json={**created, "tags": [first["id"], second["id"]]}
    ).json()["data"]
    assert {t["id"] for t in saved["tags"]} == {first["id"], second["id"]}
    listed = next(w for w in live.client.get("/rest/workflows").json()["data"] if w["id"] == created["id"])
    assert {t["name"] for t in listed["tags"]} == {first["name"], second["name"]}
    again = live.client.patch(f"/rest/workflows/{created['id']}", json={**saved, "tags": [second["id"]]})
    assert [t["id"] for t in again.json()["data"]["tags"]] == [second["id"]]
    exported = live.instance.store.workflows.export_workflow(created["id"])
    assert exported["tags"] == [{"id": second["id"], "name": second["name"]}]
    unknown = live.client.patch(f"/rest/workflows/{created['id']}", json={**again.json()["data"], "tags": ["nope"]})
    assert unknown.status_code == 404


def test_an_imported_exports_tags_are_linked_by_name_and_an_unedited_save_keeps_its_json(live: LiveServer) -> None:
    existing = _tag(live, _unique("known"))
    new_name = _unique("new")
    export = _workflow(
        "imported with tags",
        id=uuid.uuid4().hex[:16],
        versionId="1b2c3d4e-0000-4000-8000-000000000000",
        tags=[
            {"id": "elsewhere1", "name": existing["name"], "createdAt": "2024-01-01T00:00:00.000Z"},
            {"id": "elsewhere2", "name": new_name},
        ],
    )
    workflow_id = live.import_workflow(export, activate=False)
    got = live.client.get(f"/rest/workflows/{workflow_id}").json()["data"]
    assert sorted(t["name"] for t in got["tags"]) == sorted([existing["name"], new_name])
    assert existing["id"] in [t["id"] for t in got["tags"]]
    before = live.instance.store.workflows.export_workflow(workflow_id)
    saved = live.client.patch(f"/rest/workflows/{workflow_id}", json=got)
    assert saved.status_code == 200, saved.text
    assert live.instance.store.workflows.export_workflow(workflow_id) == before  # versionId and tags kept


def test_a_save_with_a_stale_version_id_is_refused_as_n8n_does(live: LiveServer) -> None:
    created = live.client.post("/rest/workflows", json=_workflow("two tabs")).json()["data"]
    first = live.client.patch(f"/rest/workflows/{created['id']}", json={**created, "name": "tab one"})
    assert first.status_code == 200 and first.json()["data"]["versionId"] != created["versionId"]
    stale = live.client.patch(f"/rest/workflows/{created['id']}", json={**created, "name": "tab two"})
    assert stale.status_code == 400
    assert stale.json()["message"].startswith("Your most recent changes may be lost, because someone else just")
    assert live.client.get(f"/rest/workflows/{created['id']}").json()["data"]["name"] == "tab one"
    forced = live.client.patch(
        f"/rest/workflows/{created['id']}", params={"forceSave": "true"}, json={**created, "name": "tab two"}
    )
    assert forced.status_code == 200 and forced.json()["data"]["name"] == "tab two"
    current = forced.json()["data"]
    fresh = live.client.patch(f"/rest/workflows/{created['id']}", json={**current, "name": "tab two again"})
    assert fresh.status_code == 200


def test_tags_need_the_login(live: LiveServer) -> None:
    with httpx.Client(base_url=live.url) as anonymous:
        assert anonymous.get("/rest/tags").status_code == 401
        assert anonymous.post("/rest/tags", json={"name": "x"}).status_code == 401
