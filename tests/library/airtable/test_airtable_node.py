"""The Airtable node against the fake Airtable API (``weft.testing.saas.airtable``, served as the HTTPS proxy for
``api.airtable.com``): the requests each operation sends (pages by ``offset``, query arrays, batches of ten,
upsert's ``performUpsert``), URL resource locators, n8n's errors. Recorded cases s501-s521 hold the outputs to
real n8n."""

from __future__ import annotations

from typing import Any

from tests.library.fakes import service_fixture

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.testing.saas import FakeSaasServer

CREDENTIALS = {"airtableTokenApi": {"accessToken": "airtable-test-token"},
               "airtableOAuth2Api": {"oauthTokenData": {"access_token": "airtable-oauth-token"}}}  # fmt: skip
BASE = {"__rl": True, "mode": "id", "value": "appWeftFake00001"}
CONTACTS = {"__rl": True, "mode": "id", "value": "tblContacts00001"}


saas = service_fixture("airtable")


async def _run(params: dict[str, Any], version: float = 2.1, items: list[Any] | None = None) -> tuple[list[Any], Any]:
    kind = "airtableOAuth2Api" if params.get("authentication") == "airtableOAuth2Api" else "airtableTokenApi"
    nodes: list[dict[str, Any]] = [
        {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
        {"name": "Airtable", "type": "n8n-nodes-base.airtable", "typeVersion": version,
         "parameters": {"base": BASE, "table": CONTACTS, **params}, "credentials": {kind: {"id": "1", "name": "a"}}},
    ]  # fmt: skip
    first = "Airtable"
    if items is not None:
        code = "return " + repr([{"json": item} for item in items]).replace("True", "true") + ";"
        nodes.insert(1, {"name": "C", "type": "n8n-nodes-base.code", "typeVersion": 2, "parameters": {"jsCode": code}})
        first = "C"
    connections = {"T": {"main": [[{"node": first, "type": "main", "index": 0}]]}}
    if first == "C":
        connections["C"] = {"main": [[{"node": "Airtable", "type": "main", "index": 0}]]}
    workflow = {"name": "airtable", "nodes": nodes, "connections": connections, "settings": {"executionOrder": "v1"}}
    run = await run_workflow(workflow, services=LocalServices(credentials=CREDENTIALS))
    assert "Airtable" in run["data"]["resultData"]["runData"], run["data"]["resultData"].get("error")
    task = run["data"]["resultData"]["runData"]["Airtable"][0]
    return [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]], task.get("error")


async def test_return_all_follows_offsets_in_pages_of_100(saas: FakeSaasServer) -> None:
    big = {"__rl": True, "mode": "id", "value": "Big Table"}
    items, error = await _run({"operation": "search", "table": big, "returnAll": True, "filterByFormula": ""})
    assert error is None and len(items) == 230
    assert [(r.raw_path.split("?")[0], r.query.get("offset")) for r in saas.requests] == [
        ("/v0/appWeftFake00001/Big%20Table", None),
        ("/v0/appWeftFake00001/Big%20Table", "itr100/rec000100"),
        ("/v0/appWeftFake00001/Big%20Table", "itr200/rec000200"),
    ]
    assert saas.requests[0].query["pageSize"] == "100"
    assert saas.requests[0].headers["authorization"] == "Bearer airtable-test-token"


async def test_search_sends_fields_and_sort_as_indexed_arrays(saas: FakeSaasServer) -> None:
    params = {
        "operation": "search",
        "returnAll": False,
        "limit": 2,
        "filterByFormula": "{Age} > 40",
        "options": {"fields": "Name, Age"},
        "sort": {"property": [{"field": "Age", "direction": "desc"}]},
    }
    items, error = await _run(params)  # fmt: skip
    assert error is None
    assert items == [
        {"id": "recContact000003", "createdTime": "2025-01-02T03:04:05.000Z", "Name": "Grace Hopper", "Age": 85},
        {"id": "recContact000005", "createdTime": "2025-01-02T03:04:05.000Z", "Name": "Barbara Liskov", "Age": 84},
    ]
    assert saas.requests[0].query_pairs == [
        ("filterByFormula", "{Age} > 40"), ("fields[0]", "Name"), ("fields[1]", "Age"),
        ("sort[0][field]", "Age"), ("sort[0][direction]", "desc"), ("maxRecords", "2"),
    ]  # fmt: skip


async def test_version_2_2_keeps_fields_nested(saas: FakeSaasServer) -> None:
    items, _ = await _run({"operation": "get", "id": "recContact000001"}, version=2.2)
    assert items[0]["fields"]["Name"] == "Ada Lovelace" and "Name" not in items[0]


async def test_url_locators_give_the_base_and_table_ids(saas: FakeSaasServer) -> None:
    url = "https://airtable.com/appWeftFake00001/tblContacts00001/viwGrid000000001?blocks=hide"
    params = {
        "operation": "get",
        "id": "recContact000002",
        "authentication": "airtableOAuth2Api",
        "base": {"__rl": True, "mode": "url", "value": url},
        "table": {"__rl": True, "mode": "url", "value": url},
    }
    items, error = await _run(params)  # fmt: skip
    assert error is None and items[0]["Name"] == "Alan Turing"
    assert saas.requests[0].path == "/v0/appWeftFake00001/tblContacts00001/recContact000002"
    assert saas.requests[0].headers["authorization"] == "Bearer airtable-oauth-token"


async def test_update_by_matching_column_reads_the_table_once_and_patches_in_batches(saas: FakeSaasServer) -> None:
    rows = [{"Email": "ada@example.com", "Age": 1}, {"Email": "alan@example.com", "Age": 2}]
    columns = {"mappingMode": "autoMapInputData", "value": {}, "matchingColumns": ["Email"], "schema": []}
    items, error = await _run({"operation": "update", "columns": columns, "options": {}}, items=rows)
    assert error is None and [i["fields"]["Age"] for i in items] == [1, 2]
    methods = [(r.method, r.query_pairs) for r in saas.requests]
    assert methods[0] == ("GET", [("fields[0]", "Email"), ("pageSize", "100")])
    assert [m for m, _ in methods[1:]] == ["PATCH", "PATCH"]
    assert saas.requests[1].body == {"typecast": False, "records": [{"id": "recContact000001", "fields": rows[0]}]}


async def test_upsert_sends_fields_to_merge_on(saas: FakeSaasServer) -> None:
    columns = {"mappingMode": "defineBelow", "value": {"Email": "new@example.com", "Age": "7"},
               "matchingColumns": ["Email"], "schema": [{"id": "Age", "type": "number"}]}  # fmt: skip
    items, error = await _run({"operation": "upsert", "columns": columns, "options": {}})
    assert error is None and items[0]["fields"] == {"Email": "new@example.com", "Age": 7}
    assert saas.requests[0].body == {
        "typecast": False,
        "performUpsert": {"fieldsToMergeOn": ["Email"]},
        "records": [{"fields": {"Email": "new@example.com", "Age": 7}}],
    }


async def test_an_unknown_record_fails_naming_it(saas: FakeSaasServer) -> None:
    _, error = await _run({"operation": "get", "id": "recNope"})
    assert error["message"] == "The resource you are requesting could not be found"
    assert error["description"] == "recNope is not a valid Record ID"


async def test_a_value_the_column_rejects_suggests_typecast(saas: FakeSaasServer) -> None:
    columns = {"mappingMode": "defineBelow", "value": {"Active": "maybe"}, "matchingColumns": [], "schema": []}
    _, error = await _run({"operation": "create", "columns": columns, "options": {}})
    assert error["description"].endswith("cannot accept the provided value. Consider using 'Typecast' option")


async def test_attachment_downloads_are_refused_as_unsupported(saas: FakeSaasServer) -> None:
    _, error = await _run({"operation": "get", "id": "recContact000001", "options": {"downloadFields": ["Photo"]}})
    assert "Download Attachments" in error["message"]


async def test_version_1_writes_in_batches_and_refuses_the_api_key(saas: FakeSaasServer) -> None:
    app = {"__rl": True, "mode": "id", "value": "appWeftFake00001"}
    params = {"authentication": "airtableTokenApi", "operation": "delete", "application": app, "table": CONTACTS,
              "id": "={{ $json.id }}", "options": {"bulkSize": 2}}  # fmt: skip
    rows = [{"id": f"recContact00000{n}"} for n in range(1, 6)]
    items, error = await _run(params, version=1, items=rows)
    assert error is None and len(items) == 5
    assert [len(r.query_pairs) for r in saas.requests] == [2, 2, 1]
    assert saas.requests[0].query_pairs == [("records[0]", "recContact000001"), ("records[1]", "recContact000002")]
    _, error = await _run({**params, "authentication": "airtableApi"}, version=1, items=rows)
    assert error["message"].startswith("The API Key connection was deprecated by Airtable")
